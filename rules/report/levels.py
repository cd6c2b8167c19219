"""Fudge and Mudge: pricing in free levels, gifts and faults, traded between pools."""

from fractions import Fraction

from rules.character import Trait
from rules.ladder import POOR, card_rating
from rules.report.issues import Report
from rules.report.traits import TraitChecks
from rules.rulesets import SKILL_DIFFICULTY
from rules.trades import POOLS, find_trades
from rules.words import Name, Term, say

# What a missing difficulty means (spec): an average skill (Mudge 1.62), and a spell or psi
# power worth "one Hard or Very Hard skill" is Hard (Mudge 2.5, 2.7).
POWER_DIFFICULTY = "hard"


def power_difficulty(power) -> str:
    return power.difficulty or POWER_DIFFICULTY


def power_potential(level: int | None) -> int:
    """A field of power's potential: its card rating once it reaches Poor (DIP VIII.1)."""
    return card_rating(level) if level is not None and level >= POOR else 0


class LevelsPricing(TraitChecks):
    def price_levels(self) -> Report:
        c, r = self.c, self.r
        in_play = []  # (list, index, trait) of Mudge 1.7's traits defined in play
        attribute_costs = self.attribute_costs(in_play)
        skill_costs = self.skill_costs(in_play)
        lowered = self.lowered_skills()
        self.counts(c.skills, c.faults)
        if in_play:
            self.uncommitted(in_play)

        gift_costs = [
            g.cost if g.cost is not None else _catalogued(r.catalog.gift(g.name), "cost")
            for g in c.gifts
        ]
        fault_values = [
            f.value if f.value is not None else _catalogued(r.catalog.fault(f.name), "value")
            for f in c.faults
        ]
        power_costs = [self.power_cost(p, i) for i, p in enumerate(c.powers)]
        self.duplicates(c.gifts, "gifts")
        self.duplicates(c.faults, "faults")
        self.meta_points()

        spent = self.pools_spent(attribute_costs, skill_costs, gift_costs, power_costs)
        faults = self.faults_worth(fault_values)
        budget = {
            "attributes": r.attribute_levels,
            "skills": r.skill_levels,
            "gifts": r.free_gifts,
        }
        value = self.values()
        remaining = {pool: budget[pool] - spent[pool] for pool in POOLS}
        balance = sum(remaining[p] * value[p] for p in POOLS) + faults * value["faults"]
        self.balance_verdict(balance, value)
        if lowered and balance >= 1:
            self.lowered_too_soon(lowered, balance)
        costs = {
            "attributes": attribute_costs,
            "skills": skill_costs,
            "gifts": gift_costs,
            "faults": fault_values,
            "powers": [cost for _, cost in power_costs],
        }
        trades = find_trades(remaining, faults, value, r.terms)
        return self.levels_report(budget, spent, faults, balance, trades, costs)

    def skill_costs(self, in_play: list) -> list[int]:
        """Each skill's cost; one defined in play (Mudge 1.7) costs nothing here and joins
        `in_play`. One loop with the ruleset's numbers at hand, and a trait's bounds checked
        by one compare (bounds() only when out of them): a skill is priced 40 times a report,
        and a method call or two for each was a quarter of a 60-trait build's pricing."""
        skills, r = self.c.skills, self.r
        floor, top = r.creation_min, self.top
        fair_costs = r.difficulty_costs if r.skill_difficulties else None
        costs = []
        for index, trait in enumerate(skills):
            if trait.defined_in_play:
                in_play.append(("skills", index, trait))
                costs.append(0)
                continue
            level = trait.level
            if not floor <= level <= top:
                self.bounds(trait, ("skills", index), floor)
            if fair_costs is not None:
                costs.append(level + fair_costs[trait.difficulty or SKILL_DIFFICULTY])
            else:
                costs.append(level - self.skill_default(trait))
        self.duplicates(skills, "skills")
        self.caps(skills, r.skill_caps, "skills")
        return costs

    def pools_spent(self, attribute_costs, skill_costs, gift_costs, power_costs) -> dict:
        """What each pool spent: its traits, its powers and the Scale."""
        # Mudge 2.34: each step of increased Strength Scale costs an attribute level, of Mass
        # Scale a gift. Scale below 0 gives nothing back unless the GM allows it: then each
        # step of Strength returns a level and each of Mass is a fault (faults_worth).
        # Plain ints where every input is whole (the common case, and fast); a half-value
        # gift or fault makes its sums Fractions, which mix with ints exactly.
        c, refund = self.c, self.r.negative_scale_refund
        return {
            "attributes": sum(attribute_costs)
            + (c.scale_strength if refund else max(c.scale_strength, 0)),
            "skills": sum(skill_costs)
            + sum(cost for pool, cost in power_costs if pool == "skills"),
            "gifts": sum(gift_costs, max(c.scale_mass, 0))
            + sum(cost for pool, cost in power_costs if pool == "gifts"),
        }

    def faults_worth(self, fault_values):
        """What the faults are worth, in gifts: each step of Mass Scale below 0 is one
        (Easily Wounded) where the GM allows it (Mudge 2.34, pools_spent)."""
        refund = self.r.negative_scale_refund
        return sum(fault_values, max(-self.c.scale_mass, 0) if refund else 0)

    def balance_verdict(self, balance, value: dict) -> None:
        """Over budget is an error; levels left unspent, a warning."""
        if balance < 0:
            self.error(
                "over_budget",
                say(
                    "Over budget by {over}: lower or drop traits worth that much, or take "
                    "{a_fault} (1 {fault} = {fault_worth}).",
                    over=self.amount(-balance, "skills"),
                    a_fault=self.noun("faults", article=True),
                    fault=self.noun("faults"),
                    fault_worth=self.amount(value["faults"], "skills"),
                ),
                "trading",
            )
        elif balance > 0:
            self.warn(
                "levels_unspent",
                say(
                    "{left} left unspent: spend them now, or they are lost when play starts.",
                    left=self.amount(balance, "skills"),
                ),
                "creation",
            )

    def levels_report(self, budget, spent, faults, balance, trades, costs) -> Report:
        pools = {pool: {"budget": budget[pool], "spent": spent[pool]} for pool in POOLS}
        pools["faults"] = {"value": faults}
        return Report(
            ruleset=self.r.slug,
            unit=self.r.unit,
            pools=pools,
            balance=balance,
            trades=trades,
            errors=self.errors,
            warnings=self.warnings,
            costs=costs,
        )

    def values(self) -> dict[str, int | Fraction]:
        tv = self.r.trade_values
        return {
            "attributes": tv["attribute"],
            "skills": 1,
            "gifts": tv["gift"],
            "faults": tv["fault"],
        }

    def lowered_skills(self) -> list:
        """Mudge 1.62: up to 5 skills may drop one level below their default, none further.
        Returns the (index, trait) of every lowered skill (those defined in play aside)."""
        r = self.r
        limit, floor = r.max_lowered_skills, r.creation_min
        defaults = r.difficulty_defaults if r.skill_difficulties else None
        lowered = []
        for index, trait in enumerate(self.c.skills):
            if defaults is not None:  # skill_default's table, without a call per skill
                default = defaults[trait.difficulty or SKILL_DIFFICULTY]
            else:
                default = self.skill_default(trait)
            if default is None or trait.level >= default or trait.level < floor:
                continue
            if trait.defined_in_play:
                continue
            if default - trait.level > 1 and limit is not None:
                self.error(
                    "too_many_lowered",
                    say(
                        "{name} is {below} levels below its default ({default}); a skill may "
                        "drop only one level. Raise it to {lowest}.",
                        name=Name(trait.name),
                        below=default - trait.level,
                        default=self.level(default),
                        lowest=self.level(default - 1),
                    ),
                    "skills",
                    trait.name,
                    f"skills[{index}]",
                )
            lowered.append((index, trait))
        if limit is not None and len(lowered) > limit:
            index, trait = lowered[limit]
            self.error(
                "too_many_lowered",
                say(
                    "At most {limit} skills may drop below their default; {count} do ({names}). "
                    "Put {over} of them back at their default.",
                    limit=limit,
                    count=len(lowered),
                    names=tuple(Name(t.name) for _, t in lowered),
                    over=len(lowered) - limit,
                ),
                "skills",
                trait.name,
                f"skills[{index}]",
            )
        return lowered

    def lowered_too_soon(self, lowered, balance):
        """Mudge 1.62: skills drop below their default only "once all the free skill levels
        are used up", so one stands lowered beside levels still unspent (after every trade)."""
        for index, trait in lowered:
            self.error(
                "lowered_with_levels_unspent",
                say(
                    "{name} is below its default ({default}) while {unspent} are unspent: "
                    "{a_skill} drops below its default only once all the free {skill} levels "
                    "are used up. Raise it to {default}, or spend the levels first.",
                    name=Name(trait.name),
                    default=self.level(self.skill_default(trait)),
                    unspent=self.amount(balance, "skills"),
                    a_skill=self.noun("skills", article=True),
                    skill=self.noun("skills"),
                ),
                "skills",
                trait.name,
                f"skills[{index}]",
            )

    def power_cost(self, power, index) -> tuple[str, Fraction]:
        """(pool, cost): spells and psi powers as Hard or Very Hard skills (Mudge 2.5, 2.7),
        superpowers as gifts (Mudge 2.8). Fudge Basics prices every power as potent gifts."""
        r, where = self.r, f"powers[{index}]"
        kind = power.kind or "superpower"
        if kind not in r.power_kinds:
            self.error(
                "not_in_ruleset",
                say(
                    "{ruleset} has no '{kind}' powers: make {name} a {kinds}.",
                    ruleset=Term(r.name, "ruleset"),
                    kind=kind,
                    name=Name(power.name),
                    kinds=_either([Term(k, "power kind") for k in r.power_kinds]),
                ),
                "powers",
                power.name,
                where,
            )
            return "gifts", 0
        gift = r.power_gifts.get(kind)
        if gift is not None:
            if gift.casefold() not in self.gift_names:
                if kind == "spell":
                    phrase = say(
                        "{name} is a spell: take the {gift} gift first, or remove it.",
                        name=Name(power.name),
                        gift=Name(gift),
                    )
                else:
                    phrase = say(
                        "{name} is a psi power: take the {gift} gift first, or remove it.",
                        name=Name(power.name),
                        gift=Name(gift),
                    )
                self.error(
                    "power_requires_gift",
                    phrase,
                    kind,
                    power.name,
                    where,
                )
            difficulty = power_difficulty(power)
            if difficulty not in ("hard", "very_hard"):
                self.error(
                    "difficulty_not_allowed",
                    say(
                        "{name} must be priced as a Hard or Very Hard skill, not {difficulty}: "
                        "change its difficulty.",
                        name=Name(power.name),
                        difficulty=Term(difficulty.replace("_", " "), "difficulty"),
                    ),
                    kind,
                    power.name,
                    where,
                )
            if power.level is None:
                self.error(
                    "level_missing",
                    say(
                        "{name} needs a level, as a skill does: give it one.",
                        name=Name(power.name),
                    ),
                    kind,
                    power.name,
                    where,
                )
                return "skills", 0
            if not r.creation_min <= power.level <= self.top:
                trait = Trait(power.name, power.level, difficulty)
                self.bounds(trait, ("powers", index), r.creation_min)
            return "skills", power.level + r.difficulty_costs[difficulty]
        return "gifts", power.cost if power.cost is not None else r.superpower_cost

    def meta_points(self):
        r, points = self.r, self.c.meta_points
        if points is None or points <= r.meta_points_start:
            return
        self.error(
            "meta_points_out_of_range",
            say(
                "A new character starts with {start} {points}; {given} were given. They cannot "
                "be traded for at creation: set them to {start}.",
                start=r.meta_points_start,
                points=Term(r.terms.points, "points"),
                given=points,
            ),
            "meta_points",
        )


def _catalogued(entry, key):
    """A gift's cost or a fault's value when the file gives none: the catalogue's for that
    name (Mudge 1.33, 1.34: 2 for the starred ones), else 1 (spec: character-file.md)."""
    return getattr(entry, key) if entry is not None else 1


def _either(items: list):
    """Alternatives, 'a or b or c'."""
    phrase = items[0]
    for item in items[1:]:
        phrase = say("{either} or {other}", either=phrase, other=item)
    return phrase
