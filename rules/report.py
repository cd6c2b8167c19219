"""Price a character against a ruleset and check every creation rule: the build report.

`build_report(character, ruleset)` never raises for a legal-but-broken build; everything wrong
becomes an Issue with a stable code, a message that says how to fix it, and the section of
the rule text it comes from. The JSON form is the public contract (spec: character-file.md).
A message is a Phrase (rules.words): English by default, and said in another language by the
adapter layer (characters/wording.py) from the same template and values.
"""

import dataclasses
from dataclasses import dataclass, field
from fractions import Fraction

from rules import ledger
from rules.character import Character, Trait
from rules.house_rules import json_number
from rules.ladder import ABYSMAL, POOR, card_rating
from rules.rulesets import (
    LEVELS,
    SKILL_DIFFICULTY,
    Ruleset,
    skill_default,
)
from rules.trades import POOLS, Trade, amount, amount_phrase, find_trades
from rules.words import ENGLISH, Level, Noun, Phrase, Term, say, say_in, say_plural

__all__ = ["Issue", "Report", "Trade", "amount", "build_report", "power_potential"]

# What a missing difficulty means (spec): an average skill (Mudge 1.62), and a spell or psi
# power worth "one Hard or Very Hard skill" is Hard (Mudge 2.5, 2.7).
POWER_DIFFICULTY = "hard"


@dataclass(frozen=True)
class Issue:
    code: str
    phrase: Phrase | str  # the message: a Phrase, or a str a reader passed on as it was
    section: str  # a citation: the rule text's own section numbers, never translated
    trait: str | None = None
    where: str | None = None  # e.g. "skills[3]": the row the builder highlights

    @property
    def message(self) -> str:
        """The message in English (the report's language by default)."""
        return say_in(self.phrase, ENGLISH)

    def to_json(self, speaker=ENGLISH) -> dict:
        """The report's form of the issue; `speaker` says its message (rules.words)."""
        out = {"code": self.code}
        if self.trait is not None:
            out["trait"] = self.trait
        out["message"] = say_in(self.phrase, speaker)
        out["section"] = self.section
        if self.where is not None:
            out["where"] = self.where
        return out


@dataclass
class Report:
    ruleset: str
    unit: str
    pools: dict[str, dict[str, Fraction]]
    balance: Fraction
    trades: list[Trade] = field(default_factory=list)
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)
    # cost of each listed trait in its pool's unit, by list name: for the builder's rows
    costs: dict[str, list[int | Fraction]] = field(default_factory=dict)
    # With an experience ledger: awarded, spent and unspent (rules.ledger.Summary)
    advancement: ledger.Summary | None = None

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_json(self, speaker=ENGLISH) -> dict:
        """The build report (spec: character-file.md); `speaker` says the issues' messages,
        English unless the adapter layer passes another language's (characters/wording.py)."""
        return {
            "valid": self.valid,
            "ruleset": self.ruleset,
            "unit": self.unit,
            "pools": {
                pool: {key: json_number(v) for key, v in numbers.items()}
                for pool, numbers in self.pools.items()
            },
            "balance": json_number(self.balance),
            "trades": [t.to_json() for t in self.trades],
            "errors": [e.to_json(speaker) for e in self.errors],
            "warnings": [w.to_json(speaker) for w in self.warnings],
        } | ({"advancement": self.advancement.to_json()} if self.advancement else {})


def build_report(character: Character, ruleset: Ruleset, ignored_fields=()) -> Report:
    """The creation build priced and checked; with an experience ledger, the creation build
    is the character with every spend undone, and the ledger is checked on its own."""
    if character.advancement is None:
        report = _price(character, ruleset)
    else:
        report = _price_with_ledger(character, ruleset)
    for path in ignored_fields:
        report.warnings.append(
            Issue(
                "unknown_field",
                say(
                    "'{path}' is not a field of the character file and was ignored; check its "
                    "spelling (docs/character-file.md).",
                    path=path,
                ),
                "Fairsheet character file",
                where=path,
            )
        )
    return report


def _price(character: Character, ruleset: Ruleset) -> Report:
    check = _Check(character, ruleset)
    return check.price_levels() if ruleset.system == LEVELS else check.price_tokens()


def _price_with_ledger(character: Character, ruleset: Ruleset) -> Report:
    undone = ledger.creation_build(character, ruleset)
    report = _price(undone.character, ruleset)
    # The creation build's rows, named by where they stand now (the builder marks and
    # prices current rows); a row bought in play costs nothing against creation.
    report.costs = {
        name: _costs_now(costs, undone.positions.get(name), len(getattr(character, name)))
        for name, costs in report.costs.items()
    }
    report.errors = [_where_now(i, undone.positions) for i in report.errors]
    report.warnings = [_where_now(i, undone.positions) for i in report.warnings]
    ledger_issues = undone.issues + ledger.check_ledger(
        character, ruleset, creation_balance=report.balance
    )
    for issue in ledger_issues:
        found = Issue(issue.code, issue.phrase, issue.section, where=issue.where)
        (report.warnings if issue.warning else report.errors).append(found)
    report.advancement = ledger.summarize(character, ruleset)
    return report


def _costs_now(costs, positions, length):
    if positions is None:
        return costs
    now = [0] * length
    for cost, at in zip(costs, positions, strict=False):
        if at is not None:
            now[at] = cost
    return now


def _where_now(issue: Issue, positions) -> Issue:
    """An issue's row in the creation build, as the current lists number it (no row for a
    fault bought off since)."""
    if not issue.where or "[" not in issue.where:
        return issue
    name, _, rest = issue.where.partition("[")
    index = rest.rstrip("]")
    if name not in positions or not index.isdigit() or int(index) >= len(positions[name]):
        return issue
    at = positions[name][int(index)]
    return dataclasses.replace(issue, where=None if at is None else f"{name}[{at}]")


def scale_notes(character: Character, ruleset: Ruleset) -> list[str]:
    """scale_phrases in English."""
    return [str(note) for note in scale_phrases(character, ruleset)]


def scale_phrases(character: Character, ruleset: Ruleset) -> list[Phrase]:
    """How Strength and Mass Scale move the budget, in words for the budget panel and the
    GM's review (Mudge 2.34): what a step costs or, below 0, whether it gives anything
    back. Empty where the ruleset has no Scale or the character is at Scale 0."""
    if not ruleset.has_scale:
        return []
    section, notes = ruleset.section("scale"), []
    strength, mass = character.scale_strength, character.scale_mass
    refund = ruleset.negative_scale_refund
    # One sentence each, whole: another language orders its words otherwise.
    if strength > 0:
        notes.append(
            say_plural(
                "Strength Scale +{scale} costs {steps} attribute level ({section}).",
                "Strength Scale +{scale} costs {steps} attribute levels ({section}).",
                strength,
                scale=strength,
                steps=strength,
                section=section,
            )
        )
    elif strength < 0 and refund:
        notes.append(
            say_plural(
                "Strength Scale {scale} gives back {steps} attribute level, by house rule "
                "({section}).",
                "Strength Scale {scale} gives back {steps} attribute levels, by house rule "
                "({section}).",
                -strength,
                scale=strength,
                steps=-strength,
                section=section,
            )
        )
    elif strength < 0:
        notes.append(
            say(
                "Strength Scale {scale} gives nothing back: only if the GM allows it "
                "({section}); a race taken as a fault is priced as that fault.",
                scale=strength,
                section=section,
            )
        )
    if mass > 0:
        notes.append(
            say_plural(
                "Mass Scale +{scale} costs {steps} gift ({section}).",
                "Mass Scale +{scale} costs {steps} gifts ({section}).",
                mass,
                scale=mass,
                steps=mass,
                section=section,
            )
        )
    elif mass < 0 and refund:
        notes.append(
            say_plural(
                "Mass Scale {scale} counts as a fault (Easily Wounded) for each of {steps} "
                "step, by house rule ({section}).",
                "Mass Scale {scale} counts as a fault (Easily Wounded) for each of {steps} "
                "steps, by house rule ({section}).",
                -mass,
                scale=mass,
                steps=-mass,
                section=section,
            )
        )
    elif mass < 0:
        notes.append(
            say(
                "Mass Scale {scale} gives nothing back: only if the GM allows it "
                "({section}); a race taken as a fault is priced as that fault.",
                scale=mass,
                section=section,
            )
        )
    return notes


def ruleset_attributes(character: Character, ruleset: Ruleset) -> list[tuple[str, int]]:
    """(name, default) of every attribute the ruleset gives this character: its fixed list,
    the attributes its gifts open (Mana with Magery, Psyche with Psionic: Mudge 2.5, 2.7),
    the GM's extra attributes."""
    r = ruleset
    attributes = [(name, r.attribute_default) for name in r.attribute_names or ()]
    attributes += [
        (attribute, r.attribute_default)
        for gift, attribute in r.attribute_gifts.items()
        if character.has_gift(gift)
    ]
    return attributes + list(r.extra_attributes)


def power_difficulty(power) -> str:
    return power.difficulty or POWER_DIFFICULTY


class _Check:
    def __init__(self, character: Character, ruleset: Ruleset):
        self.c = character
        self.r = ruleset
        self.errors: list[Issue] = []
        self.warnings: list[Issue] = []
        # The highest level creation allows, so the common in-bounds trait costs one compare.
        self.top = 10**6 if ruleset.legendary_at_creation else ruleset.creation_max
        self.gift_names = {g.name.casefold() for g in character.gifts}

    def error(self, code, phrase, topic, trait=None, where=None):
        self.errors.append(Issue(code, phrase, self.r.section(topic), trait, where))

    def warn(self, code, phrase, topic, trait=None, where=None):
        self.warnings.append(Issue(code, phrase, self.r.section(topic), trait, where))

    def amount(self, value, pool: str) -> Phrase:
        """'3 skill levels' in the ruleset's words ('3 knack levels'), as a phrase."""
        return amount_phrase(value, pool, self.r.terms)

    def noun(self, list_name: str, count: int = 1, **form) -> Noun:
        """'attribute', 'fields of expertise': the ruleset's word for `count` of a list
        (`capital`, `article`: rules.words.Noun)."""
        return self.r.terms.list_noun(list_name, count, **form)

    def level(self, level: int) -> Level:
        """A level in the ruleset's ladder words."""
        return Level(level, self.r.ladder)

    def gm(self) -> Term:
        return Term(self.r.terms.gm, "game master")

    # -- shared checks -----------------------------------------------------------------

    def attribute_defaults(self) -> dict[str, int]:
        """Attribute name (casefolded) -> default, for rulesets with a fixed list."""
        r = self.r
        names = {n.casefold(): r.attribute_default for n in r.attribute_names or ()}
        for gift, attribute in r.attribute_gifts.items():
            if gift.casefold() in self.gift_names:
                names[attribute.casefold()] = r.attribute_default
        names.update({n.casefold(): d for n, d in r.extra_attributes})
        return names

    def attribute_costs(self, in_play: list) -> list[int]:
        """Each attribute's cost from its default (Mudge 1.6, DIP III); one defined in play
        (Mudge 1.7) costs nothing here and joins `in_play`."""
        c, r = self.c, self.r
        known = self.attribute_defaults()
        costs = []
        for index, trait in enumerate(c.attributes):
            default = self.attribute_default(trait, index, known)
            if trait.defined_in_play:
                in_play.append(("attributes", index, trait))
                costs.append(0)
                continue
            self.bounds(trait, ("attributes", index), r.creation_min, self.noun("attributes"))
            costs.append((trait.level - default) * r.attribute_cost)
        self.duplicates(c.attributes, "attributes")
        self.caps(c.attributes, r.attribute_caps, "attributes")
        return costs

    def attribute_default(self, trait: Trait, index: int, known: dict[str, int]) -> int:
        key = trait.name.casefold()
        if key in known:
            return known[key]
        if self.r.attribute_names is not None:
            self.unknown_attribute(trait, index)
        return self.r.attribute_default

    def unknown_attribute(self, trait, index):
        for gift, attribute in self.r.attribute_gifts.items():
            if trait.name.casefold() == attribute.casefold():
                kind = next((k for k, g in self.r.power_gifts.items() if g == gift), "creation")
                self.error(
                    "unknown_trait",
                    say(
                        "{attribute} comes with the {gift} gift: take {gift}, or remove "
                        "{attribute}.",
                        attribute=attribute,
                        gift=gift,
                    ),
                    kind,
                    trait.name,
                    f"attributes[{index}]",
                )
                return
        self.error(
            "unknown_trait",
            say(
                "{ruleset} has no {attribute} '{name}'; its {attributes} are {listed}. Rename "
                "it, make it {a_skill}, or ask the {gm} to add it as an extra one.",
                ruleset=Term(self.r.name, "ruleset"),
                attribute=self.noun("attributes"),
                name=trait.name,
                attributes=self.noun("attributes", 2),
                listed=", ".join(self.r.attribute_names),
                a_skill=self.noun("skills", article=True),
                gm=self.gm(),
            ),
            "attribute_names",
            trait.name,
            f"attributes[{index}]",
        )

    def duplicates(self, items, list_name):
        seen = set()
        for index, item in enumerate(items):
            key = item.name.casefold()
            if key in seen:
                self.error(
                    "duplicate_trait",
                    say(
                        "{name} is listed twice among the {nouns}: remove one of them.",
                        name=item.name,
                        nouns=self.noun(list_name, 2),
                    ),
                    "creation",
                    item.name,
                    f"{list_name}[{index}]",
                )
            seen.add(key)

    def bounds(self, trait, where, floor_level, label):
        """Creation bounds: the ladder's floor for this trait, Superb (or Great), Legendary.
        `where` is a (list name, index) pair, formatted only when something is wrong."""
        if floor_level <= trait.level <= self.top:
            return
        r = self.r
        where = f"{where[0]}[{where[1]}]"
        if trait.level < floor_level:
            self.error(
                "level_out_of_range",
                say(
                    "{name} cannot start below {floor} (it is {level}): raise it to {floor} or "
                    "remove it, or the {gm} may allow lower in the house rules.",
                    name=trait.name,
                    floor=self.level(floor_level),
                    level=self.level(trait.level),
                    gm=self.gm(),
                ),
                "creation",
                trait.name,
                where,
            )
        if r.legendary_at_creation:
            return
        if trait.level >= r.ladder.top_word_level:
            self.error(
                "level_out_of_range",
                say(
                    "{name} cannot start at {level}: {top} is not allowed at creation. Lower "
                    "it to {highest}, or the {gm} may allow {top} in the house rules.",
                    name=trait.name,
                    level=self.level(trait.level),
                    top=self.level(r.ladder.top_word_level),
                    highest=self.level(r.creation_max),
                    gm=self.gm(),
                ),
                "legendary",
                trait.name,
                where,
            )
        elif trait.level > r.creation_max:
            self.error(
                "level_out_of_range",
                say(
                    "No {noun} may start above {highest}; {name} is {level}. Lower it to "
                    "{highest}.",
                    noun=label,
                    highest=self.level(r.creation_max),
                    name=trait.name,
                    level=self.level(trait.level),
                ),
                "creation",
                trait.name,
                where,
            )

    def caps(self, traits, caps, list_name):
        """Mudge 1.6's caps (and the house rules'): how many traits may stand at a level
        (those defined in play aside). With cap_trading (Mudge 1.5), an unused slot buys two
        a level lower and two unused slots one a level higher."""
        if not caps:
            return
        by_level = {}
        for index, trait in enumerate(traits):
            if trait.level in caps and not trait.defined_in_play:
                by_level.setdefault(trait.level, []).append((index, trait))
        counts = {level: len(by_level.get(level, ())) for level in caps}
        over = [level for level in sorted(caps, reverse=True) if counts[level] > caps[level]]
        if not over:
            return
        trading = self.r.cap_trading
        if trading and _caps_fit_by_trading(counts, caps):
            self.traded_caps(counts, caps, list_name)
            return
        for level in over:
            at_level, limit = by_level[level], caps[level]
            index, first_over = at_level[limit]
            values = {
                "limit": limit,
                "nouns": self.noun(list_name, limit),
                "level": self.level(level),
                "count": len(at_level),
                "names": ", ".join(t.name for _, t in at_level),
            }
            if trading:
                phrase = say(
                    "Only {limit} {nouns} may be {level}; {count} are ({names}); trading slots "
                    "two lower for one higher does not make room. Lower one of them.",
                    **values,
                )
            else:
                phrase = say(
                    "Only {limit} {nouns} may be {level}; {count} are ({names}). Lower {over} "
                    "of them.",
                    over=len(at_level) - limit,
                    **values,
                )
            self.error(
                "cap_exceeded",
                phrase,
                "caps",  # Ruleset.section falls back to "creation"
                first_over.name,
                f"{list_name}[{index}]",
            )

    def traded_caps(self, counts, caps, list_name):
        used = [
            say(
                "{count} {level} of {limit}",
                count=counts[level],
                level=self.level(level),
                limit=limit,
            )
            for level, limit in sorted(caps.items(), reverse=True)
        ]
        self.warn(
            "cap_slots_traded",
            say(
                "{nouns} fit the caps by trading slots two lower for one higher: {used}. The "
                "{gm} allows this in the house rules.",
                nouns=self.noun(list_name, 2, capital=True),
                used=tuple(used),
                gm=self.gm(),
            ),
            "limits",
        )

    def counts(self, skills, faults):
        """The GM's limits on how many (Mudge 1.5; Fudge Basics, Character Creation); skills
        defined in play do not count."""
        r = self.r
        if r.max_skills is not None and len(skills) > r.max_skills:
            skills = [(i, t) for i, t in enumerate(skills) if not t.defined_in_play]
        if r.max_skills is not None and len(skills) > r.max_skills:
            index, trait = skills[r.max_skills]
            self.error(
                "too_many_skills",
                say(
                    "A new character may take at most {most} {nouns}; this one has {count}. "
                    "Remove {over}.",
                    most=r.max_skills,
                    nouns=self.noun("skills", r.max_skills),
                    count=len(skills),
                    over=len(skills) - r.max_skills,
                ),
                "limits",
                trait.name,
                f"skills[{index}]",
            )
        if faults is not None and len(faults) < r.min_faults:
            self.error(
                "too_few_faults",
                say(
                    "A new character must take at least {least} {nouns}; this one has {count}. "
                    "Add {short}.",
                    least=r.min_faults,
                    nouns=self.noun("faults", r.min_faults),
                    count=len(faults),
                    short=r.min_faults - len(faults),
                ),
                "limits",
            )

    def uncommitted(self, in_play):
        """Mudge 1.7: traits defined in play, each Good or lower, at most the slots left."""
        r = self.r
        for list_name, index, trait in in_play:
            if trait.level > r.uncommitted_max:
                self.error(
                    "uncommitted_too_high",
                    say(
                        "{name} was defined in play at {level}: an uncommitted trait is defined "
                        "as {highest} or lower. Lower it to {highest}.",
                        name=trait.name,
                        level=self.level(trait.level),
                        highest=self.level(r.uncommitted_max),
                    ),
                    "uncommitted",
                    trait.name,
                    f"{list_name}[{index}]",
                )
        if len(in_play) > r.uncommitted_traits:
            list_name, index, trait = in_play[r.uncommitted_traits]
            self.error(
                "too_many_uncommitted",
                say(
                    "{count} traits were defined in play, but a character keeps only {most} "
                    "uncommitted. Price the others at creation: clear their defined_in_play.",
                    count=len(in_play),
                    most=r.uncommitted_traits,
                ),
                "uncommitted",
                trait.name,
                f"{list_name}[{index}]",
            )

    # -- Fudge and Mudge: free levels, gifts and faults --------------------------------

    def price_levels(self) -> Report:
        c, r = self.c, self.r
        in_play = []  # (list, index, trait) of Mudge 1.7's traits defined in play
        attribute_costs = self.attribute_costs(in_play)

        skill_costs = [
            0 if trait.defined_in_play else self.skill_cost(trait, index)
            for index, trait in enumerate(c.skills)
        ]
        in_play += [("skills", i, t) for i, t in enumerate(c.skills) if t.defined_in_play]
        self.duplicates(c.skills, "skills")
        self.caps(c.skills, r.skill_caps, "skills")
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

        # Mudge 2.34: each step of increased Strength Scale costs an attribute level, of Mass
        # Scale a gift. Scale below 0 gives nothing back unless the GM allows it: then each
        # step of Strength returns a level and each of Mass is a fault (Easily Wounded).
        # Plain ints where every input is whole (the common case, and fast); a half-value
        # gift or fault makes its sums Fractions, which mix with ints exactly.
        refund = r.negative_scale_refund
        spent = {
            "attributes": sum(attribute_costs)
            + (c.scale_strength if refund else max(c.scale_strength, 0)),
            "skills": sum(skill_costs)
            + sum(cost for pool, cost in power_costs if pool == "skills"),
            "gifts": sum(gift_costs, max(c.scale_mass, 0))
            + sum(cost for pool, cost in power_costs if pool == "gifts"),
        }
        faults = sum(fault_values, max(-c.scale_mass, 0) if refund else 0)
        budget = {
            "attributes": r.attribute_levels,
            "skills": r.skill_levels,
            "gifts": r.free_gifts,
        }
        value = self.values()
        remaining = {pool: budget[pool] - spent[pool] for pool in POOLS}
        balance = sum(remaining[p] * value[p] for p in POOLS) + faults * value["faults"]
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
        if lowered and balance >= 1:
            self.lowered_too_soon(lowered, balance)
        pools = {pool: {"budget": budget[pool], "spent": spent[pool]} for pool in POOLS}
        pools["faults"] = {"value": faults}
        return Report(
            ruleset=r.slug,
            unit=r.unit,
            pools=pools,
            balance=balance,
            trades=find_trades(remaining, faults, value, r.terms),
            errors=self.errors,
            warnings=self.warnings,
            costs={
                "attributes": attribute_costs,
                "skills": skill_costs,
                "gifts": gift_costs,
                "faults": fault_values,
                "powers": [cost for _, cost in power_costs],
            },
        )

    def values(self) -> dict[str, int | Fraction]:
        tv = self.r.trade_values
        return {
            "attributes": tv["attribute"],
            "skills": 1,
            "gifts": tv["gift"],
            "faults": tv["fault"],
        }

    def skill_default(self, trait: Trait) -> int | None:
        return skill_default(self.r, trait.name, trait.difficulty)

    def skill_cost(self, trait: Trait, index: int) -> int:
        self.bounds(trait, ("skills", index), self.r.creation_min, self.noun("skills"))
        if self.r.skill_difficulties:
            return trait.level + self.r.difficulty_costs[trait.difficulty or SKILL_DIFFICULTY]
        return trait.level - self.skill_default(trait)

    def lowered_skills(self) -> list:
        """Mudge 1.62: up to 5 skills may drop one level below their default, none further.
        Returns the (index, trait) of every lowered skill (those defined in play aside)."""
        limit, floor = self.r.max_lowered_skills, self.r.creation_min
        lowered = []
        for index, trait in enumerate(self.c.skills):
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
                        name=trait.name,
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
                    names=", ".join(t.name for _, t in lowered),
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
                    name=trait.name,
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
                    name=power.name,
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
                        name=power.name,
                        gift=gift,
                    )
                else:
                    phrase = say(
                        "{name} is a psi power: take the {gift} gift first, or remove it.",
                        name=power.name,
                        gift=gift,
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
                        name=power.name,
                        difficulty=Term(difficulty.replace("_", " "), "difficulty"),
                    ),
                    kind,
                    power.name,
                    where,
                )
            if power.level is None:
                self.error(
                    "level_missing",
                    say("{name} needs a level, as a skill does: give it one.", name=power.name),
                    kind,
                    power.name,
                    where,
                )
                return "skills", 0
            trait = Trait(power.name, power.level, difficulty)
            self.bounds(trait, ("powers", index), r.creation_min, self.noun("powers"))
            return "skills", power.level + self.r.difficulty_costs[difficulty]
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

    # -- MicroFudged: one pool of tokens ---------------------------------------------------

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
            self.bounds(trait, ("skills", index), floor, self.noun("skills"))
            skill_costs.append((trait.level - default) * r.skill_cost)
        self.duplicates(c.skills, "skills")
        self.caps(c.skills, r.skill_caps, "skills")
        self.counts(c.skills, None)
        if in_play:
            self.uncommitted(in_play)

        power_costs = []
        for index, power in enumerate(c.powers):
            level = ABYSMAL if power.level is None else power.level
            self.bounds(Trait(power.name, level), ("powers", index), ABYSMAL, self.noun("powers"))
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
                        name=item.name,
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


def power_potential(level: int | None) -> int:
    """A field of power's potential: its card rating once it reaches Poor (DIP VIII.1)."""
    return card_rating(level) if level is not None and level >= POOR else 0


def _catalogued(entry, key):
    """A gift's cost or a fault's value when the file gives none: the catalogue's for that
    name (Mudge 1.33, 1.34: 2 for the starred ones), else 1 (spec: character-file.md)."""
    return getattr(entry, key) if entry is not None else 1


def _caps_fit_by_trading(counts: dict[int, int], caps: dict[int, int]) -> bool:
    """Mudge 1.5's "two lower for one higher" (and its converse): whether the traits fit the
    caps once slots are traded. Slots pass between adjacent capped levels only: an uncapped
    level has no slots to give, and needs none."""
    carry = 0  # slots passed down from the level above (negative: owed to it)
    levels = sorted(caps, reverse=True)
    for position, level in enumerate(levels):
        left = caps[level] + carry - counts[level]
        adjacent = position + 1 < len(levels) and levels[position + 1] == level - 1
        if adjacent:
            carry = 2 * left
        elif left < 0:
            return False
        else:
            carry = 0
    return True


def _either(items: list):
    """Alternatives, 'a or b or c'."""
    phrase = items[0]
    for item in items[1:]:
        phrase = say("{either} or {other}", either=phrase, other=item)
    return phrase
