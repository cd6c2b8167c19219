"""MicroFudged: pricing in one pool of tokens."""

from fractions import Fraction

from rules.character import Trait
from rules.ladder import ABYSMAL
from rules.report.issues import Report
from rules.report.traits import TraitChecks
from rules.words import Name, Term, say


class TokensPricing(TraitChecks):
    def price_tokens(self) -> Report:
        c, r = self.c, self.r
        in_play = []  # (list, index, trait) of Mudge 1.7's traits defined in play
        attribute_costs = self.attribute_costs(in_play)

        skill_costs = []
        for index, trait in enumerate(c.skills):
            if trait.defined_in_play:
                in_play.append(("skills", index, trait))
                skill_costs.append(0)
                continue
            default = self.skill_default(trait)
            # Fields that start below Poor (Science, Medicine) may stay at their default.
            floor = min(default, r.creation_min)
            self.bounds(trait, ("skills", index), floor)
            skill_costs.append((trait.level - default) * r.skill_cost)
        self.duplicates(c.skills, "skills")
        self.caps(c.skills, r.skill_caps, "skills")
        self.counts(c.skills, None)
        if in_play:
            self.uncommitted(in_play)

        power_costs = []
        for index, power in enumerate(c.powers):
            level = ABYSMAL if power.level is None else power.level
            self.bounds(Trait(power.name, level), ("powers", index), ABYSMAL)
            power_costs.append(level - r.power_default)
        self.duplicates(c.powers, "powers")
        for list_name, items in (("gifts", c.gifts), ("faults", c.faults)):
            for index, item in enumerate(items):
                self.error(
                    "not_in_ruleset",
                    say(
                        "{ruleset} has no {list}: make {name} {an_attribute} or {a_skill}, or "
                        "remove it.",
                        ruleset=Term(r.name, "ruleset"),
                        list=self.noun(list_name, 2),
                        name=Name(item.name),
                        an_attribute=self.noun("attributes", article=True),
                        a_skill=self.noun("skills", article=True),
                    ),
                    "creation",
                    item.name,
                    f"{list_name}[{index}]",
                )

        spent = Fraction(sum(attribute_costs) + sum(skill_costs) + sum(power_costs))
        budget = Fraction(r.tokens)
        left = budget - spent
        saved = max(left, Fraction(0))
        if r.tokens_carried is not None:
            saved = min(saved, Fraction(r.tokens_carried))
        if left < 0:
            self.error(
                "over_budget",
                say(
                    "Over budget by {over}: lower a trait by that many ranks.",
                    over=self.amount(-left, "tokens"),
                ),
                "creation",
            )
        if r.must_spend_and_save:
            if spent < 1:
                self.error(
                    "must_spend_token",
                    say(
                        "Spend at least 1 token before play: raise {an_attribute} or {a_skill}.",
                        an_attribute=self.noun("attributes", article=True),
                        a_skill=self.noun("skills", article=True),
                    ),
                    "creation",
                )
            if left < 1:
                self.error(
                    "must_save_token",
                    say("Save at least 1 token for play: lower a trait so one token is left."),
                    "creation",
                )
        if r.tokens_carried is not None and left > r.tokens_carried:
            self.warn(
                "tokens_lost",
                say(
                    "{left} unspent, but only {carried} carry into play: spend {more} more or "
                    "lose them.",
                    left=self.amount(left, "tokens"),
                    carried=r.tokens_carried,
                    more=self.amount(left - r.tokens_carried, "tokens"),
                ),
                "creation",
            )
        return Report(
            ruleset=r.slug,
            unit=r.unit,
            pools={"tokens": {"budget": budget, "spent": spent, "saved": saved}},
            balance=left,
            errors=self.errors,
            warnings=self.warnings,
            costs={
                "attributes": attribute_costs,
                "skills": skill_costs,
                "powers": power_costs,
                "gifts": [0] * len(c.gifts),
                "faults": [0] * len(c.faults),
            },
        )
