"""An experience plan: the raises, new traits and purchases a player intends, in order
(docs/character-file.md, "The plan"). A plan never changes the character: `price_plan`
prices each step now by the ruleset's advancement costs (rules.advancement), each against
the character as the earlier steps would leave it, so climbing Fair to Great is two raises
priced from each level, and a later raise of the same trait starts where the earlier one
left it.

A step is bought one spend at a time (Mudge 5.2: "a trait can only be raised one level at
a time"): its `purchases` are those spends, in order; the first of the first step not yet
reached is what the player may buy next. A step the rules cannot price (no cost given) is
reported with why and the section, and the steps after it are priced without it.
"""

from dataclasses import dataclass

from rules.advancement import NotAvailable, flat_cost, learn_start, learnable, raise_cost
from rules.character import Character
from rules.json_files import CharacterFileError
from rules.ladder import ABYSMAL, STANDARD, Ladder, LevelError
from rules.rulesets import DIFFICULTIES, LEVELS, STANDARD_TERMS, Ruleset
from rules.words import Level, Name, Phrase, Term, say

RAISE, LEARN, GIFT, POWER, BUY_OFF_FAULT, META_POINT = (
    "raise",
    "learn",
    "gift",
    "power",
    "buy_off_fault",
    "meta_point",
)
WHATS = (RAISE, LEARN, GIFT, POWER, BUY_OFF_FAULT, META_POINT)
# The character's list each kind of step names a trait of.
RAISE_LISTS = ("attributes", "skills", "powers")
LEARN_LISTS = ("skills", "powers")
LISTS = {RAISE: RAISE_LISTS, LEARN: LEARN_LISTS, GIFT: ("gifts",), POWER: ("powers",)}
LISTS[BUY_OFF_FAULT] = ("faults",)
MAX_STEPS = 100  # far past any plan: a campaign's worth of sessions
MAX_NAME = 100  # a trait's name, as the database keeps it
STEP_KEYS = ("what", "list", "name", "to", "difficulty")
KIND_OF_LIST = {"attributes": "attribute", "skills": "skill", "powers": "power"}


@dataclass(frozen=True)
class Step:
    """One intention. `level`: the level a raise or new trait should reach; for meta
    points, how many the character should hold. `list` names the character's list the
    trait is in (a raise, a new skill or field of power); gifts, powers and faults imply it."""

    what: str
    name: str = ""
    list: str = ""
    level: int | None = None
    difficulty: str | None = None  # a new Mudge skill's (Mudge 1.62)


@dataclass(frozen=True)
class Purchase:
    """One spend of a step, as the advancement page makes it."""

    what: str  # RAISE, LEARN, GIFT, POWER, BUY_OFF_FAULT, META_POINT
    from_level: int | None  # a raise or a new trait: the level it goes up from
    cost: int
    needs_gm: bool


@dataclass(frozen=True)
class PricedStep:
    step: Step
    reached: bool  # the character is there already: nothing to buy
    purchases: tuple[Purchase, ...] = ()
    cost: int | None = None  # None: the rules give no price (see `problem`)
    total: int = 0  # the plan's cost up to and including this step
    short: int = 0  # how much more experience than `available` the total needs
    needs_gm: bool = False
    from_level: int | None = None  # where the step starts, after the earlier steps
    problem: Phrase | None = None
    section: str = ""


@dataclass(frozen=True)
class PricedPlan:
    steps: tuple[PricedStep, ...]
    total: int
    unit: str
    available: int

    @property
    def next_step(self) -> int | None:
        """The index of the first step with something to buy, if any."""
        for index, priced in enumerate(self.steps):
            if priced.purchases:
                return index
        return None


def price_plan(
    ruleset: Ruleset, character: Character, steps: tuple[Step, ...] | list[Step], available: int
) -> PricedPlan:
    """Each step priced now, in order, against the character as the steps before it leave
    it; `available`: the experience the character can spend now."""
    state = _State(character, ruleset)
    unit = ruleset.advancement.unit if ruleset.advancement else ""
    section = ruleset.advancement.section if ruleset.advancement else ""
    priced, total = [], 0
    for step in steps:
        reached = _reached(character, ruleset, step)
        try:
            start, purchases = state.purchases(step)
        except NotAvailable as error:
            priced.append(
                PricedStep(
                    step,
                    reached,
                    total=total,
                    short=max(0, total - available),
                    problem=error.phrase,
                    section=section,
                )
            )
            continue
        except _Unplannable as error:
            priced.append(
                PricedStep(
                    step,
                    reached,
                    total=total,
                    short=max(0, total - available),
                    problem=error.phrase,
                    section=error.section,
                )
            )
            continue
        state.apply(step, purchases)
        cost = sum(p.cost for p in purchases)
        total += cost
        priced.append(
            PricedStep(
                step,
                reached,
                tuple(purchases),
                cost,
                total,
                max(0, total - available),
                any(p.needs_gm for p in purchases),
                start,
                section=section,
            )
        )
    return PricedPlan(tuple(priced), total, unit, available)


class _Unplannable(ValueError):
    def __init__(self, phrase: Phrase, section: str = ""):
        super().__init__(str(phrase))
        self.phrase = phrase
        self.section = section


def _reached(character: Character, ruleset: Ruleset, step: Step) -> bool:
    """Whether the character as it stands already meets the step."""
    if step.what in (RAISE, LEARN):
        level = _level_of(character, ruleset, step.list, step.name)
        return level is not None and step.level is not None and level >= step.level
    if step.what == GIFT:
        return _named(character.gifts, step.name)
    if step.what == POWER:
        return _named(character.powers, step.name)
    if step.what == BUY_OFF_FAULT:
        return not _named(character.faults, step.name)
    held = ruleset.meta_points_start if character.meta_points is None else character.meta_points
    return step.level is not None and held >= step.level


def _named(items, name: str) -> bool:
    return any(item.name.casefold() == name.casefold() for item in items)


def _level_of(character: Character, ruleset: Ruleset, list_name: str, name: str) -> int | None:
    for item in getattr(character, list_name, ()):
        if item.name.casefold() == name.casefold():
            if item.level is None and list_name == "powers" and ruleset.system != LEVELS:
                return ABYSMAL  # a MicroFudged field of power with no rank yet (DIP VIII.1)
            return item.level
    return None


class _State:
    """The character as the plan's steps so far would leave it."""

    def __init__(self, character: Character, ruleset: Ruleset):
        self.ruleset = ruleset
        self.levels = {}
        for list_name in RAISE_LISTS:
            for item in getattr(character, list_name):
                level = _level_of(character, ruleset, list_name, item.name)
                self.levels[(list_name, item.name.casefold())] = level
        self.gifts = {g.name.casefold() for g in character.gifts}
        self.powers = {p.name.casefold() for p in character.powers}
        self.faults = {f.name.casefold() for f in character.faults}
        start = ruleset.meta_points_start
        self.meta_points = start if character.meta_points is None else character.meta_points

    def purchases(self, step: Step) -> tuple[int | None, list[Purchase]]:
        """Where the step starts, and the spends that take the character there."""
        ruleset, folded = self.ruleset, step.name.casefold()
        section = ruleset.advancement.section if ruleset.advancement else ""
        if step.what in (RAISE, LEARN):
            key = (step.list, folded)
            kind = KIND_OF_LIST[step.list]
            if key in self.levels:
                start = self.levels[key]
                if start is None:
                    raise _Unplannable(
                        say(
                            "{name} has no level to raise: a superpower is bought whole, as a gift",
                            name=Name(step.name),
                        )
                    )
                return start, self._raises(kind, start, step.level, first=RAISE)
            if step.what == RAISE:
                raise _Unplannable(
                    say(
                        "{name} is not on the character: plan to learn it first",
                        name=Name(step.name),
                    )
                )
            if not learnable(ruleset, step.list):
                raise _Unplannable(
                    say(
                        "{ruleset} learns no new {what} level by level: plan the power whole",
                        ruleset=Term(ruleset.name, "ruleset"),
                        what=STANDARD_TERMS.list_noun(step.list, 2),
                    ),
                    section,
                )
            start = learn_start(ruleset, step.list, step.name, step.difficulty)
            return start, self._raises(kind, start, max(step.level, start + 1), first=LEARN)
        if step.what in (GIFT, POWER):
            held = self.gifts if step.what == GIFT else self.powers
            if folded in held:
                return None, []
            cost = flat_cost(ruleset, step.what)
            return None, [Purchase(step.what, None, cost.amount, cost.needs_gm_permission)]
        if step.what == BUY_OFF_FAULT:
            if folded not in self.faults:
                return None, []
            cost = flat_cost(ruleset, step.what)
            return None, [Purchase(step.what, None, cost.amount, cost.needs_gm_permission)]
        # META_POINT: as many as it takes to hold `level`
        most = ruleset.meta_points_max
        if most is not None and step.level > most:
            raise _Unplannable(
                say("a character may hold at most {most} points", most=most),
                ruleset.section("meta_points"),
            )
        if step.level <= self.meta_points:
            return self.meta_points, []
        cost = flat_cost(ruleset, META_POINT)
        count = step.level - self.meta_points
        return self.meta_points, [
            Purchase(META_POINT, None, cost.amount, cost.needs_gm_permission)
        ] * count

    def _raises(self, kind: str, start: int, to: int, *, first: str) -> list[Purchase]:
        purchases = []
        for level in range(start, to):
            cost = raise_cost(self.ruleset, kind, level)
            what = first if level == start else RAISE
            purchases.append(Purchase(what, level, cost.amount, cost.needs_gm_permission))
        return purchases

    def apply(self, step: Step, purchases: list[Purchase]) -> None:
        folded = step.name.casefold()
        if step.what in (RAISE, LEARN):
            key = (step.list, folded)
            if purchases:
                self.levels[key] = purchases[-1].from_level + 1
            if step.what == LEARN and step.list == "powers":
                self.powers.add(folded)
        elif step.what == GIFT:
            self.gifts.add(folded)
        elif step.what == POWER:
            self.powers.add(folded)
        elif step.what == BUY_OFF_FAULT:
            self.faults.discard(folded)
        else:
            self.meta_points += len(purchases)


# -- the file's form ---------------------------------------------------------------------------


def read_steps(value, ladder: Ladder = STANDARD, where: str = "plan") -> tuple[Step, ...]:
    """A plan in its file form (a list of steps), or CharacterFileError saying where."""
    if not isinstance(value, list):
        raise CharacterFileError(where, say("must be a list of steps"))
    if len(value) > MAX_STEPS:
        raise CharacterFileError(
            where, say("has {count} steps; the most is {most}", count=len(value), most=MAX_STEPS)
        )
    return tuple(read_step(item, ladder, f"{where}[{index}]") for index, item in enumerate(value))


def read_step(value, ladder: Ladder = STANDARD, where: str = "plan[0]") -> Step:
    if not isinstance(value, dict):
        raise CharacterFileError(where, say("must be an object"))
    unknown = [key for key in value if key not in STEP_KEYS]
    if unknown:
        raise CharacterFileError(f"{where}.{unknown[0]}", say("is not a field of a plan step"))
    what = value.get("what")
    if what not in WHATS:
        raise CharacterFileError(
            f"{where}.what", say("must be one of {whats}", whats=", ".join(WHATS))
        )
    if what == META_POINT:
        count = value.get("to")
        if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 100:
            raise CharacterFileError(
                f"{where}.to", say("must be how many points to hold, from 1 to 100")
            )
        return Step(META_POINT, level=count)
    name = value.get("name")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise CharacterFileError(
            f"{where}.name", say("must name the trait, 1 to {most} characters", most=MAX_NAME)
        )
    name = " ".join(name.split())
    if what in (GIFT, POWER, BUY_OFF_FAULT):
        return Step(what, name)
    list_name = value.get("list")
    if list_name not in LISTS[what]:
        raise CharacterFileError(
            f"{where}.list", say("must be one of {lists}", lists=", ".join(LISTS[what]))
        )
    try:
        level = ladder.parse(value.get("to"))
    except LevelError as error:
        raise CharacterFileError(f"{where}.to", error.phrase) from None
    difficulty = value.get("difficulty")
    if difficulty is not None and (what != LEARN or difficulty not in DIFFICULTIES):
        raise CharacterFileError(
            f"{where}.difficulty",
            say("a new skill's difficulty, one of {values}", values=", ".join(DIFFICULTIES)),
        )
    return Step(what, name, list_name, level, difficulty)


def write_step(step: Step, ladder: Ladder = STANDARD) -> dict:
    if step.what == META_POINT:
        return {"what": META_POINT, "to": step.level}
    if step.what in (GIFT, POWER, BUY_OFF_FAULT):
        return {"what": step.what, "name": step.name}
    out = {"what": step.what, "list": step.list, "name": step.name, "to": ladder.name(step.level)}
    if step.difficulty is not None:
        out["difficulty"] = step.difficulty
    return out


def write_steps(steps, ladder: Ladder = STANDARD) -> list[dict]:
    return [write_step(step, ladder) for step in steps]


def step_phrase(step: Step, ladder: Ladder) -> Phrase:
    """What a step intends, in words: "Climbing to Great"."""
    if step.what == RAISE:
        return say("{name} to {level}", name=Name(step.name), level=Level(step.level, ladder))
    if step.what == LEARN:
        return say("learn {name} to {level}", name=Name(step.name), level=Level(step.level, ladder))
    if step.what == GIFT:
        return say("the gift {name}", name=Name(step.name))
    if step.what == POWER:
        return say("the power {name}", name=Name(step.name))
    if step.what == BUY_OFF_FAULT:
        return say("buy off {name}", name=Name(step.name))
    return say("hold {count} points", count=step.level)
