"""Price a character against a ruleset and check every creation rule: the build report.

`build_report(character, ruleset)` never raises for a legal-but-broken build; everything wrong
becomes an Issue with a stable code, a message that says how to fix it, and the section of
the rule text it comes from. The JSON form is the public contract (spec: character-file.md).
"""

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

from rules.character import Character, Trait
from rules.house_rules import json_number
from rules.ladder import ABYSMAL, LEGENDARY, POOR, TERRIBLE, card_rating, level_name
from rules.rulesets import ATTRIBUTE_GIFTS, LEVELS, MUDGE_SKILL_FAIR_COST, Ruleset

# Mudge 1.4: the default of a skill by difficulty; very hard skills have none.
MUDGE_SKILL_DEFAULT = {"easy": -1, "average": -2, "hard": -3, "very_hard": None}
POOLS = ("attributes", "skills", "gifts")
# Which surplus pays for which deficit first: faults are traded before levels (Mudge 1.63).
TRADE_SOURCES = {
    "gifts": ("faults", "skills", "attributes"),
    "attributes": ("faults", "skills", "gifts"),
    "skills": ("faults", "attributes", "gifts"),
}
POOL_UNITS = {
    "attributes": ("attribute level", "attribute levels"),
    "skills": ("skill level", "skill levels"),
    "gifts": ("gift", "gifts"),
    "faults": ("fault", "faults"),
    "tokens": ("token", "tokens"),
}


@dataclass(frozen=True)
class Issue:
    code: str
    message: str
    section: str
    trait: str | None = None
    where: str | None = None  # e.g. "skills[3]": the row the builder highlights

    def to_json(self) -> dict:
        out = {"code": self.code}
        if self.trait is not None:
            out["trait"] = self.trait
        out["message"] = self.message
        out["section"] = self.section
        if self.where is not None:
            out["where"] = self.where
        return out


@dataclass(frozen=True)
class Trade:
    give_pool: str
    give: Fraction
    get_pool: str
    get: Fraction

    def to_json(self) -> dict:
        return {
            "give": {"pool": self.give_pool, "amount": json_number(self.give)},
            "get": {"pool": self.get_pool, "amount": json_number(self.get)},
        }

    def __str__(self) -> str:
        return f"{amount(self.give, self.give_pool)} -> {amount(self.get, self.get_pool)}"


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

    @property
    def valid(self) -> bool:
        return not self.errors

    def to_json(self) -> dict:
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
            "errors": [e.to_json() for e in self.errors],
            "warnings": [w.to_json() for w in self.warnings],
        }


def amount(value, pool: str) -> str:
    """'3 skill levels', '1 gift', '0.5 faults'."""
    one, many = POOL_UNITS[pool]
    return f"{json_number(value)} {one if value == 1 else many}"


def build_report(character: Character, ruleset: Ruleset, ignored_fields=()) -> Report:
    check = _Check(character, ruleset)
    report = check.price_levels() if ruleset.system == LEVELS else check.price_tokens()
    for path in ignored_fields:
        report.warnings.append(
            Issue(
                "unknown_field",
                f"'{path}' is not a field of the character file and was ignored; "
                "check its spelling (docs/character-file.md).",
                "Fairsheet character file",
                where=path,
            )
        )
    return report


class _Check:
    def __init__(self, character: Character, ruleset: Ruleset):
        self.c = character
        self.r = ruleset
        self.errors: list[Issue] = []
        self.warnings: list[Issue] = []
        # The highest level creation allows, so the common in-bounds trait costs one compare.
        self.top = 10**6 if ruleset.legendary_at_creation else ruleset.creation_max
        self.named_defaults = {n.casefold(): lv for n, lv in ruleset.named_skill_defaults.items()}

    def error(self, code, message, topic, trait=None, where=None):
        self.errors.append(Issue(code, message, self.r.section(topic), trait, where))

    def warn(self, code, message, topic, trait=None, where=None):
        self.warnings.append(Issue(code, message, self.r.section(topic), trait, where))

    # -- shared checks -----------------------------------------------------------------

    def attribute_defaults(self) -> dict[str, int]:
        """Attribute name (casefolded) -> default, for rulesets with a fixed list."""
        r = self.r
        names = {n.casefold(): r.attribute_default for n in r.attribute_names or ()}
        for gift, attribute in ATTRIBUTE_GIFTS.items():
            if r.system == LEVELS and self.c.has_gift(gift):
                names[attribute.casefold()] = r.attribute_default
        names.update({n.casefold(): d for n, d in r.extra_attributes})
        return names

    def attribute_default(self, trait: Trait, index: int, known: dict[str, int]) -> int:
        key = trait.name.casefold()
        if key in known:
            return known[key]
        if self.r.attribute_names is not None:
            self.unknown_attribute(trait, index)
        return self.r.attribute_default

    def unknown_attribute(self, trait, index):
        for gift, attribute in ATTRIBUTE_GIFTS.items():
            if trait.name.casefold() == attribute.casefold() and self.r.system == LEVELS:
                self.error(
                    "unknown_trait",
                    f"{attribute} comes with the {gift} gift: take {gift}, or remove {attribute}.",
                    "spell" if gift == "Magery" else "psi",
                    trait.name,
                    f"attributes[{index}]",
                )
                return
        listed = ", ".join(self.r.attribute_names)
        self.error(
            "unknown_trait",
            f"{self.r.name} has no attribute '{trait.name}'; its attributes are {listed}. "
            "Rename it, make it a skill, or ask the GM to add it as an extra attribute.",
            "attribute_names",
            trait.name,
            f"attributes[{index}]",
        )

    def duplicates(self, items, list_name, label):
        seen = set()
        for index, item in enumerate(items):
            key = item.name.casefold()
            if key in seen:
                self.error(
                    "duplicate_trait",
                    f"{item.name} is listed twice among the {label}: remove one of them.",
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
                f"{trait.name} cannot start below {level_name(floor_level)} "
                f"(it is {level_name(trait.level)}): raise it to {level_name(floor_level)} "
                "or remove it.",
                "creation",
                trait.name,
                where,
            )
        if r.legendary_at_creation:
            return
        if trait.level >= LEGENDARY:
            self.error(
                "level_out_of_range",
                f"{trait.name} cannot start at {level_name(trait.level)}: Legendary is not "
                f"allowed at creation. Lower it to {level_name(r.creation_max)}, or the GM may "
                "allow Legendary in the house rules.",
                "legendary",
                trait.name,
                where,
            )
        elif trait.level > r.creation_max:
            self.error(
                "level_out_of_range",
                f"No {label} may start above {level_name(r.creation_max)}; {trait.name} is "
                f"{level_name(trait.level)}. Lower it to {level_name(r.creation_max)}.",
                "creation",
                trait.name,
                where,
            )

    def caps(self, traits, caps, list_name, label):
        if not caps:
            return
        by_level = {}
        for index, trait in enumerate(traits):
            if trait.level in caps:
                by_level.setdefault(trait.level, []).append((index, trait))
        for level, limit in sorted(caps.items(), reverse=True):
            at_level = by_level.get(level, [])
            if len(at_level) > limit:
                names = ", ".join(t.name for _, t in at_level)
                index, first_over = at_level[limit]
                self.error(
                    "cap_exceeded",
                    f"Only {limit} {label if limit == 1 else label + 's'} may be "
                    f"{level_name(level)}; {len(at_level)} are ({names}). "
                    f"Lower {len(at_level) - limit} of them.",
                    "caps" if "caps" in self.r.sections else "creation",
                    first_over.name,
                    f"{list_name}[{index}]",
                )

    # -- Fudge and Mudge: free levels, gifts and faults --------------------------------

    def price_levels(self) -> Report:
        c, r = self.c, self.r
        known = self.attribute_defaults()
        attribute_costs = []
        for index, trait in enumerate(c.attributes):
            default = self.attribute_default(trait, index, known)
            self.bounds(trait, ("attributes", index), TERRIBLE, "attribute")
            attribute_costs.append((trait.level - default) * r.attribute_cost)
        self.duplicates(c.attributes, "attributes", "attributes")
        self.caps(c.attributes, r.attribute_caps, "attributes", "attribute")

        skill_costs = [self.skill_cost(t, i) for i, t in enumerate(c.skills)]
        self.duplicates(c.skills, "skills", "skills")
        self.caps(c.skills, r.skill_caps, "skills", "skill")
        self.lowered_skills()

        gift_costs = [g.cost for g in c.gifts]
        fault_values = [f.value for f in c.faults]
        power_costs = [self.power_cost(p, i) for i, p in enumerate(c.powers)]
        self.duplicates(c.gifts, "gifts", "gifts")
        self.duplicates(c.faults, "faults", "faults")
        self.meta_points()

        # Mudge 2.34: Strength Scale costs an attribute level a step, Mass Scale a gift a
        # step; below 0, each step of Mass is a fault (Easily Wounded).
        # Plain ints where every input is whole (the common case, and fast); a half-value
        # gift or fault makes its sums Fractions, which mix with ints exactly.
        spent = {
            "attributes": sum(attribute_costs) + c.scale_strength,
            "skills": sum(skill_costs)
            + sum(cost for pool, cost in power_costs if pool == "skills"),
            "gifts": sum(gift_costs, max(c.scale_mass, 0))
            + sum(cost for pool, cost in power_costs if pool == "gifts"),
        }
        faults = sum(fault_values, max(-c.scale_mass, 0))
        budget = {
            "attributes": r.attribute_levels,
            "skills": r.skill_levels,
            "gifts": r.free_gifts,
        }
        value = self.values()
        remaining = {pool: budget[pool] - spent[pool] for pool in POOLS}
        balance = sum(remaining[p] * value[p] for p in POOLS) + faults * value["faults"]
        trades = balance_trades(remaining, faults, value)
        if balance < 0:
            self.error(
                "over_budget",
                f"Over budget by {amount(-balance, 'skills')}: lower or drop traits worth that "
                "much, or take a fault (1 fault = "
                f"{amount(value['faults'], 'skills')}).",
                "trading",
            )
        elif any(remaining[p] < 0 for p in POOLS) and not _covered(remaining, faults, trades):
            self.error(
                "over_budget",
                "The pools cannot be balanced with whole trades: adjust a trait by one level.",
                "trading",
            )
        elif balance > 0:
            self.warn(
                "levels_unspent",
                f"{amount(balance, 'skills')} left unspent: spend them now, or they are lost "
                "when play starts.",
                "creation",
            )
        pools = {pool: {"budget": budget[pool], "spent": spent[pool]} for pool in POOLS}
        pools["faults"] = {"value": faults}
        return Report(
            ruleset=r.slug,
            unit=r.unit,
            pools=pools,
            balance=balance,
            trades=trades,
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
        if self.r.skill_difficulties:
            return MUDGE_SKILL_DEFAULT[trait.difficulty or "average"]
        # Fix: names match case-insensitively, as attribute names and duplicates do; a
        # "science" field was priced from Poor and refused at Terrible.
        if not self.named_defaults:
            return self.r.skill_default
        return self.named_defaults.get(trait.name.casefold(), self.r.skill_default)

    def skill_cost(self, trait: Trait, index: int) -> int:
        self.bounds(trait, ("skills", index), TERRIBLE, "skill")
        if self.r.skill_difficulties:
            return trait.level + MUDGE_SKILL_FAIR_COST[trait.difficulty or "average"]
        return trait.level - self.skill_default(trait)

    def lowered_skills(self):
        """Mudge 1.62: up to 5 skills may drop one level below their default, none further."""
        limit = self.r.max_lowered_skills
        lowered = []
        for index, trait in enumerate(self.c.skills):
            default = self.skill_default(trait)
            if default is None or trait.level >= default or trait.level < TERRIBLE:
                continue
            if default - trait.level > 1 and limit is not None:
                self.error(
                    "too_many_lowered",
                    f"{trait.name} is {default - trait.level} levels below its default "
                    f"({level_name(default)}); a skill may drop only one level. "
                    f"Raise it to {level_name(default - 1)}.",
                    "skills",
                    trait.name,
                    f"skills[{index}]",
                )
            lowered.append((index, trait))
        if limit is not None and len(lowered) > limit:
            index, trait = lowered[limit]
            names = ", ".join(t.name for _, t in lowered)
            self.error(
                "too_many_lowered",
                f"At most {limit} skills may drop below their default; {len(lowered)} do "
                f"({names}). Put {len(lowered) - limit} of them back at their default.",
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
                f"{r.name} has no '{kind}' powers: make {power.name} a "
                f"{' or '.join(r.power_kinds)}.",
                "powers",
                power.name,
                where,
            )
            return "gifts", 0
        if kind in ("spell", "psi") and r.skill_difficulties:
            gift = "Magery" if kind == "spell" else "Psionic"
            if not self.c.has_gift(gift):
                self.error(
                    "power_requires_gift",
                    f"{power.name} is a {'spell' if kind == 'spell' else 'psi power'}: "
                    f"take the {gift} gift first, or remove it.",
                    kind,
                    power.name,
                    where,
                )
            difficulty = power.difficulty or "hard"
            if difficulty not in ("hard", "very_hard"):
                self.error(
                    "difficulty_not_allowed",
                    f"{power.name} must be priced as a Hard or Very Hard skill, not "
                    f"{difficulty.replace('_', ' ')}: change its difficulty.",
                    kind,
                    power.name,
                    where,
                )
            if power.level is None:
                self.error(
                    "level_missing",
                    f"{power.name} needs a level, as a skill does: give it one.",
                    kind,
                    power.name,
                    where,
                )
                return "skills", 0
            trait = Trait(power.name, power.level, difficulty)
            self.bounds(trait, ("powers", index), TERRIBLE, "power")
            return "skills", power.level + MUDGE_SKILL_FAIR_COST[difficulty]
        return "gifts", power.cost if power.cost is not None else r.superpower_cost

    def meta_points(self):
        r, points = self.r, self.c.meta_points
        if points is None or points <= r.meta_points_start:
            return
        self.error(
            "meta_points_out_of_range",
            f"A new character starts with {r.meta_points_start} meta points; {points} were "
            f"given. Meta points cannot be traded for at creation: set them to "
            f"{r.meta_points_start}.",
            "meta_points",
        )

    # -- MicroFudged: one pool of tokens ---------------------------------------------------

    def price_tokens(self) -> Report:
        c, r = self.c, self.r
        known = self.attribute_defaults()
        attribute_costs = []
        for index, trait in enumerate(c.attributes):
            default = self.attribute_default(trait, index, known)
            self.bounds(trait, ("attributes", index), r.creation_min, "ability")
            attribute_costs.append((trait.level - default) * r.attribute_cost)
        self.duplicates(c.attributes, "attributes", "abilities")
        self.caps(c.attributes, r.attribute_caps, "attributes", "ability")

        skill_costs = []
        for index, trait in enumerate(c.skills):
            default = self.skill_default(trait)
            # Fields that start below Poor (Science, Medicine) may stay at their default.
            self.bounds(trait, ("skills", index), min(default, r.creation_min), "field")
            skill_costs.append((trait.level - default) * r.skill_cost)
        self.duplicates(c.skills, "skills", "fields of expertise")
        self.caps(c.skills, r.skill_caps, "skills", "field")

        power_costs = []
        for index, power in enumerate(c.powers):
            level = ABYSMAL if power.level is None else power.level
            self.bounds(Trait(power.name, level), ("powers", index), ABYSMAL, "field of power")
            power_costs.append(level - r.power_default)
        self.duplicates(c.powers, "powers", "fields of power")
        for list_name, items in (("gifts", c.gifts), ("faults", c.faults)):
            for index, item in enumerate(items):
                self.error(
                    "not_in_ruleset",
                    f"{r.name} has no {list_name}: make {item.name} an ability or a field "
                    "of expertise, or remove it.",
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
                f"Over budget by {amount(-left, 'tokens')}: lower a trait by that many ranks.",
                "creation",
            )
        if r.must_spend_and_save:
            if spent < 1:
                self.error(
                    "must_spend_token",
                    "Spend at least 1 token before play: raise an ability or a field.",
                    "creation",
                )
            if left < 1:
                self.error(
                    "must_save_token",
                    "Save at least 1 token for play: lower a trait so one token is left.",
                    "creation",
                )
        if r.tokens_carried is not None and left > r.tokens_carried:
            self.warn(
                "tokens_lost",
                f"{amount(left, 'tokens')} unspent, but only {r.tokens_carried} carry into "
                f"play: spend {amount(left - r.tokens_carried, 'tokens')} more or lose them.",
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


def balance_trades(remaining: dict, faults, value: dict) -> list[Trade]:
    """The trades that cover each pool's deficit from faults and other pools' surplus,
    written as a GM would ("1 gift -> 6 skill levels"). Trades move value, never change
    the balance: a deficit nothing can cover is left for the over_budget error.
    Amounts stay ints while every division is exact, Fractions otherwise."""
    left = dict(remaining, faults=faults)
    trades = []
    for target, sources in TRADE_SOURCES.items():
        for source in sources:
            if left[target] >= 0:
                break
            available = left[source]
            if available <= 0:
                continue
            need = -left[target] * value[target]  # in skill levels
            if value[source] >= value[target]:
                give = min(-(-need // value[source]), available)  # whole source units
                get = _exact(give * value[source], value[target])
            else:
                # Whole units of the dearer pool when the surplus allows ("3 skill levels ->
                # 1 attribute level"); else exactly what is missing (half a gift).
                affordable = available * value[source]
                get = min(-(left[target] // 1), affordable // value[target])
                if get <= 0:
                    if affordable < need:
                        continue  # crumbs of a pool do not make a trade worth writing down
                    get = -left[target]
                give = _exact(get * value[target], value[source])
            left[source] -= give
            left[target] += get
            trades.append(Trade(source, give, target, get))
    return trades


def _exact(numerator, denominator):
    """numerator / denominator, as an int when it divides evenly, else a Fraction."""
    quotient, remainder = divmod(numerator, denominator)
    return quotient if remainder == 0 else Fraction(numerator) / denominator


def _covered(remaining, faults, trades) -> bool:
    received = Counter()
    for trade in trades:
        received[trade.get_pool] += trade.get
        received[trade.give_pool] -= trade.give
    return all(remaining[p] + received[p] >= 0 for p in POOLS)
