"""The experience ledger of a character in play (spec: character-file.md, "Advancement").

The trait lists hold the character as it stands now; the creation build is what is left
after undoing every spend, newest first. The build report prices that creation build
against the creation budgets, caps and bounds, and checks the ledger on its own: running
spends never exceed awards (`experience_overspent`), each spend costs what the ruleset's
advancement costs charge (`advancement_cost`, Mudge 5.2, Fudge Basics "Experience",
MicroFudged DIP II), and undoing each spend fits the character (`advancement_mismatch`).
"""

import dataclasses
from dataclasses import dataclass

from rules.advancement import NotAvailable, flat_cost, learn_cost, learnable, raise_cost
from rules.character import Character, Fault, Gift, Power, Trait
from rules.ladder import STANDARD
from rules.rulesets import LISTS, STANDARD_TERMS, TOKENS, Ruleset
from rules.words import Level, Name, Noun, Phrase, Term, say, say_plural

# The lists a ledger entry may name, and the advancement cost kind of a raise in each.
RAISE_KINDS = {"attributes": "attribute", "skills": "skill", "powers": "power"}
ADD_LISTS = ("skills", "gifts", "powers")

REMOVE_LISTS = ("faults",)
FILE_SECTION = "Fairsheet character file, Advancement"


@dataclass(frozen=True)
class Raise:
    """One level of one listed trait (Mudge 5.2: "one level at a time")."""

    list: str
    name: str
    from_level: int
    to_level: int


@dataclass(frozen=True)
class Add:
    """A new gift, power or skill, as it appears in its list."""

    list: str
    item: Trait | Gift | Power


@dataclass(frozen=True)
class Remove:
    """A fault bought off (Fudge Basics), as it was, so undoing restores it."""

    list: str
    item: Fault


@dataclass(frozen=True)
class Entry:
    """One line of the ledger: an award, tokens carried from creation, or a spend of
    `amount` on exactly one of raise / add / remove / meta_points."""

    kind: str  # "award" | "carried" | "spend"
    amount: int
    note: str | None = None
    bought: Raise | Add | Remove | None = None
    meta_points: int | None = None  # a spend on meta points: how many


@dataclass(frozen=True)
class LedgerIssue:
    code: str
    phrase: Phrase
    section: str
    where: str
    warning: bool = False


@dataclass(frozen=True)
class Summary:
    unit: str
    awarded: int
    spent: int

    @property
    def unspent(self) -> int:
        return self.awarded - self.spent

    def to_json(self) -> dict:
        return {
            "unit": self.unit,
            "awarded": self.awarded,
            "spent": self.spent,
            "unspent": self.unspent,
        }


@dataclass(frozen=True)
class Undone:
    """The creation build, and where each of its list items stands in the current lists
    (None for an item a spend removed since), so issues and costs can name current rows."""

    character: Character
    positions: dict[str, list[int | None]]
    issues: list[LedgerIssue]


def unit_of(ruleset: Ruleset) -> str:
    return ruleset.advancement.unit if ruleset.advancement else "experience"


def summarize(character: Character, ruleset: Ruleset) -> Summary:
    awarded = sum(e.amount for e in character.advancement or () if e.kind != "spend")
    spent = sum(e.amount for e in character.advancement or () if e.kind == "spend")
    return Summary(unit_of(ruleset), awarded, spent)


# -- the creation build ------------------------------------------------------------------------


def creation_build(character: Character, ruleset: Ruleset) -> Undone:
    """Undo every spend, newest first. A spend that does not fit what the character holds
    at that point is an `advancement_mismatch` and is skipped."""
    lists = {name: list(getattr(character, name)) for name in LISTS}
    # Where each item now stands; a restored fault has no current row.
    positions = {name: list(range(len(items))) for name, items in lists.items()}
    meta_points = character.meta_points
    issues = []
    entries = list(enumerate(character.advancement or ()))
    for index, entry in reversed(entries):
        if entry.kind != "spend":
            continue
        where = f"advancement[{index}]"
        if entry.meta_points is not None:
            current = ruleset.meta_points_start if meta_points is None else meta_points
            if current < entry.meta_points:
                issues.append(
                    _mismatch(
                        where,
                        say_plural(
                            "this spend bought {count} meta point, but the character has "
                            "{current}: set meta_points to what the character holds now",
                            "this spend bought {count} meta points, but the character has "
                            "{current}: set meta_points to what the character holds now",
                            entry.meta_points,
                            count=entry.meta_points,
                            current=current,
                        ),
                    )
                )
                continue
            meta_points = current - entry.meta_points
            continue
        problem = _undo(entry.bought, lists, positions)
        if problem is not None:
            issues.append(_mismatch(where, problem))
    creation = dataclasses.replace(
        character,
        **{name: tuple(items) for name, items in lists.items()},
        meta_points=meta_points,
        advancement=None,
    )
    return Undone(creation, positions, issues)


def _undo(bought, lists, positions) -> Phrase | None:
    """Undoes one spend on `lists`; what does not fit, or None."""
    items = lists[bought.list]
    in_list = list_noun(bought.list)
    if isinstance(bought, Raise):
        at = _find(items, bought.name)
        if at is None:
            return say(
                "it raises {name}, which is not in {list}", name=Name(bought.name), list=in_list
            )
        level = items[at].level
        if level != bought.to_level:
            values = {"name": Name(bought.name), "to": _level(bought.to_level)}
            if level is None:
                return say(
                    "it raises {name} to {to}, but {name} is at no level (undoing the later "
                    "spends first)",
                    **values,
                )
            return say(
                "it raises {name} to {to}, but {name} is at {level} (undoing the later spends "
                "first)",
                level=_level(level),
                **values,
            )
        items[at] = dataclasses.replace(items[at], level=bought.from_level)
        return None
    if isinstance(bought, Add):
        at = _find(items, bought.item.name)
        if at is None:
            return say(
                "it adds {name}, which is not in {list}", name=Name(bought.item.name), list=in_list
            )
        level = getattr(bought.item, "level", None)
        if level is not None and items[at].level != level:
            return say(
                "it adds {name} at {level}, but {name} is at {now} (undoing the later spends "
                "first)",
                name=Name(bought.item.name),
                level=_level(level),
                now=_level(items[at].level),
            )
        del items[at]
        del positions[bought.list][at]
        return None
    # Remove: the fault must be gone, and comes back.
    if _find(items, bought.item.name) is not None:
        return say(
            "it buys off {name}, but the character still has it", name=Name(bought.item.name)
        )
    items.append(bought.item)
    positions[bought.list].append(None)
    return None


def list_noun(list_name: str, count: int = 2) -> Noun:
    """A list as a message names it by its key in the character file: "skills"."""
    return STANDARD_TERMS.list_noun(list_name, count)


def _level(level: int) -> Level:
    # The ledger's levels read in the standard ladder's words, as the file writes them.
    return Level(level, STANDARD)


def _find(items, name: str) -> int | None:
    folded = name.casefold()
    return next((i for i, item in enumerate(items) if item.name.casefold() == folded), None)


def _mismatch(where: str, problem: Phrase) -> LedgerIssue:
    return LedgerIssue(
        "advancement_mismatch",
        say("Undoing this spend does not fit the character: {problem}.", problem=problem),
        FILE_SECTION,
        where,
    )


# -- the ledger on its own -----------------------------------------------------------------------


def check_ledger(character: Character, ruleset: Ruleset, *, creation_balance) -> list[LedgerIssue]:
    """Overspending, costs and the unspent total. `creation_balance` is the creation build's
    report balance (MicroFudged: the tokens saved, which is what `carried` may bring)."""
    issues = []
    summary = summarize(character, ruleset)
    running, overspent = 0, False
    for index, entry in enumerate(character.advancement or ()):
        where = f"advancement[{index}]"
        if entry.kind == "carried":
            issues += _check_carried(entry, ruleset, creation_balance, where)
        if entry.kind == "spend":
            running -= entry.amount
            issues += _check_cost(entry, ruleset, where)
        else:
            running += entry.amount
        if running < 0 and not overspent:
            overspent = True  # once: every later line would repeat it
            issues.append(
                LedgerIssue(
                    "experience_overspent",
                    say(
                        "By this spend {over} {unit} more were spent than awarded: record the "
                        "award that paid for it before it, or remove the spend.",
                        over=-running,
                        unit=_unit(summary.unit),
                    ),
                    _section(ruleset),
                    where,
                )
            )
    if character.experience != summary.unspent:
        issues.append(
            LedgerIssue(
                "advancement_mismatch",
                say(
                    "experience is {experience} but the ledger leaves {unspent} {unit} unspent "
                    "(awards {awarded} minus spends {spent}): make the two agree.",
                    experience=character.experience,
                    unspent=summary.unspent,
                    unit=_unit(summary.unit),
                    awarded=summary.awarded,
                    spent=summary.spent,
                ),
                FILE_SECTION,
                "experience",
            )
        )
    return issues


def _check_carried(entry, ruleset, creation_balance, where) -> list[LedgerIssue]:
    if ruleset.system != TOKENS:
        return [
            LedgerIssue(
                "advancement_mismatch",
                say(
                    "{ruleset} carries no tokens from creation: record it as an award.",
                    ruleset=Term(ruleset.name, "ruleset"),
                ),
                FILE_SECTION,
                where,
            )
        ]
    most = max(int(creation_balance), 0)
    if ruleset.tokens_carried is not None:
        most = min(most, ruleset.tokens_carried)  # Streamlined: at most 3 are kept
    if entry.amount <= most:
        return []
    return [
        LedgerIssue(
            "experience_overspent",
            say(
                "{carried} tokens carried from creation, but the creation build saved {most} "
                "that can be kept: carry at most {most}.",
                carried=entry.amount,
                most=most,
            ),
            ruleset.section("tokens"),
            where,
        )
    ]


def _check_cost(entry: Entry, ruleset: Ruleset, where: str) -> list[LedgerIssue]:
    unit = _unit(unit_of(ruleset))
    try:
        due, at_least, permission, label = _due(entry, ruleset)
    except NotAvailable as error:
        return [
            LedgerIssue(
                "advancement_unpriced",
                say(
                    "{what}: the GM sets this spend's cost; check it by hand.",
                    what=error.phrase,
                ),
                _section(ruleset),
                where,
                warning=True,
            )
        ]
    issues = []
    if entry.amount != due and not (at_least and entry.amount >= due):
        values = {"label": label, "due": due, "unit": unit, "amount": entry.amount}
        if at_least:
            phrase = say(
                "{label} costs at least {due} {unit}, not {amount}: correct the spend.", **values
            )
        else:
            phrase = say("{label} costs {due} {unit}, not {amount}: correct the spend.", **values)
        issues.append(LedgerIssue("advancement_cost", phrase, _section(ruleset), where))
    if permission:
        issues.append(
            LedgerIssue(
                "gm_permission",
                say("{label} needs the GM's permission as well as experience.", label=label),
                _section(ruleset),
                where,
                warning=True,
            )
        )
    return issues


def _due(entry: Entry, ruleset: Ruleset) -> tuple[int, bool, bool, Phrase]:
    """(cost, whether it is a minimum, whether the GM must permit it, what it buys)."""
    if entry.meta_points is not None:
        cost = flat_cost(ruleset, "meta_point")
        label = say("{count} meta point(s)", count=entry.meta_points)
        return cost.amount * entry.meta_points, False, False, label
    bought = entry.bought
    if isinstance(bought, Raise):
        label = say(
            "Raising {name} from {start} to {end}",
            name=Name(bought.name),
            start=_level(bought.from_level),
            end=_level(bought.to_level),
        )
        cost = raise_cost(ruleset, RAISE_KINDS[bought.list], bought.from_level)
        return cost.amount, False, cost.needs_gm_permission, label
    if isinstance(bought, Remove):
        cost = flat_cost(ruleset, "buy_off_fault")
        label = say("Buying off {name}", name=Name(bought.item.name))
        return cost.amount, True, cost.needs_gm_permission, label
    # Add
    item = bought.item
    if learnable(ruleset, bought.list):
        # A new skill (or field of power) is raised from where it stood unlisted.
        cost = learn_cost(ruleset, bought.list, item.name, item.difficulty, item.level)
        label = say("Adding {name} at {level}", name=Name(item.name), level=_level(item.level))
        return cost.amount, False, cost.needs_gm_permission, label
    if bought.list == "gifts":
        cost, label = (
            flat_cost(ruleset, "gift"),
            say("Adding the gift {name}", name=Name(item.name)),
        )
    else:
        cost, label = (
            flat_cost(ruleset, "power"),
            say("Adding the power {name}", name=Name(item.name)),
        )
    return cost.amount, True, cost.needs_gm_permission, label


def _unit(unit: str) -> Term:
    """The ledger's unit as a message says it: "XP", "EP", "token"."""
    return Term(unit, "experience unit")


def _section(ruleset: Ruleset) -> str:
    return ruleset.advancement.section if ruleset.advancement else FILE_SECTION
