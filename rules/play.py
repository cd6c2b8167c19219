"""Play at the table, as pure rules: the harm track a character marks in play, how a blow
lands on it, what rest heals, the wound penalty on every roll, the points a player spends
at the table, and a 4dF roll read on the ladder with its odds and the damage it does.

Marks on a track are kept per level, each mark naming the level of the blow that filled
the box: Mudge 4.57 writes "H" in the Incapacitated box of a Hurt that rolled up there,
because "for healing (and scarring) purposes" it stays a Hurt wound.

Fudge Basics and Mudge use rules.combat.wound_track. MicroFudged DIP has no wound boxes: a
lethal Setback is a Wound, a Major one a Severe Wound, an Extreme one a Grievous Injury
(DIP V.3), each a card (a rank, on 4dF) off every action, and "use only the largest
Setback": the DIP sheet's "Most hindering wound" with its three boxes.
"""

import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from rules import combat
from rules.character import Character
from rules.combat import WoundLevel
from rules.ladder import STANDARD, Ladder, signed
from rules.report import build_report, power_potential
from rules.rulesets import LEVELS, Ruleset
from rules.words import Phrase, Term, say

# (name, successes that inflict it, penalty, boxes): DIP V.3 and its reference page.
MICROFUDGED_SETBACKS = (
    ("Wound", "1", -1, 1),
    ("Severe Wound", "2", -2, 1),
    ("Grievous Injury", "3+", -3, 1),
)
# What a level means at the table, by its name on the track.
EFFECTS = {
    "Scratch": say("no real game effect"),
    "Hurt": say("-1 to every trait that would logically be affected"),
    "Very Hurt": say("-2 to every trait that would logically be affected"),
    "Incapacitated": say("no action but the most basic (a few feet of crawling, a gasped message)"),
    "Near Death": say("unconscious; dies within the hour without medical help"),
    "Wound": say("-1 card, -1 rank on a roll, to every action"),
    "Severe Wound": say("-2 cards, -2 ranks on a roll, to every action"),
    "Grievous Injury": say("dying, in grave need of medical care; -3 cards, -3 ranks"),
}

Marks = tuple[tuple[int, ...], ...]


class PlayError(ValueError):
    """A change the rules do not allow; `str(error)` says why, with the section, and
    `phrase` the same as a Phrase, for another language (rules.words)."""

    def __init__(self, phrase: Phrase):
        super().__init__(str(phrase))
        self.phrase = phrase


@dataclass(frozen=True)
class HarmTrack:
    title: Phrase | str
    levels: tuple[WoundLevel, ...]
    rolls_up: bool  # a blow with no open box takes the next level up (Mudge 4.57)
    heals_below: int  # a wound healed below this level is gone (Scratches don't count)
    section: str
    damage_label: Phrase | str  # what the numbers over the levels count

    def level_of_damage(self, damage: int) -> int | None:
        """The level a single blow of `damage` inflicts (Mudge 4.55, Fudge Basics "The
        Wound Track", DIP V.3 by successes); None for no damage at all."""
        if damage <= 0:
            return None
        found = 0
        for index, level in enumerate(self.levels):
            if damage >= _lowest(level.damage):
                found = index
        return found


def _lowest(numbers: str) -> int:
    """'3,4' -> 3, '9+' -> 9, '2 successes' -> 2 (MicroFudged's setback rows)."""
    return int(re.match(r"\d+", numbers).group())


def harm_track(character: Character, ruleset: Ruleset) -> HarmTrack:
    if ruleset.system == LEVELS:
        return HarmTrack(
            title=say("Wounds"),
            levels=combat.wound_track(character, ruleset),
            rolls_up=True,
            heals_below=1,
            section=ruleset.section("harm"),
            damage_label=say("damage"),
        )
    return HarmTrack(
        title=say("Setbacks (lethal)"),
        levels=tuple(WoundLevel(*level) for level in MICROFUDGED_SETBACKS),
        rolls_up=False,
        heals_below=0,
        section=ruleset.section("harm"),
        damage_label=say("successes"),
    )


# -- marking and healing -----------------------------------------------------------------------


def fit_marks(track: HarmTrack, stored) -> Marks:
    """Stored marks made to fit the track as it is now: a Toughness gift bought since, or a
    level lost, re-records the same blows (Mudge 4.57's roll-up) rather than losing them."""
    marks = tuple(tuple(level) for level in (stored or ()))
    fits = len(marks) == len(track.levels) and all(
        len(boxes) <= level.boxes for boxes, level in zip(marks, track.levels, strict=True)
    )
    if fits:
        return marks
    return _record_all(track, [blow for boxes in marks for blow in boxes])


def fit_group(track: HarmTrack, stored, members: int) -> tuple[Marks, ...]:
    """The marks of a group NPC's other members (the second, the third...: the first's are
    the play state's own), each fitted as fit_marks fits one; a member with none stored is
    unhurt, and members beyond the group's size are dropped."""
    stored = stored if isinstance(stored, list | tuple) else ()
    return tuple(fit_marks(track, stored[i] if i < len(stored) else ()) for i in range(members - 1))


def empty_marks(track: HarmTrack) -> Marks:
    return tuple(() for _ in track.levels)


def mark_box(track: HarmTrack, marks: Marks, level: int) -> Marks:
    """Tick one more box at `level`, for a wound of that level (the box a player clicks)."""
    _check_level(track, level)
    if len(marks[level]) >= track.levels[level].boxes:
        raise PlayError(say("Every {wound} box is marked already.", wound=_wound(track, level)))
    return _replace(marks, level, (*marks[level], level))


def clear_box(track: HarmTrack, marks: Marks, level: int) -> Marks:
    """Clear the last box ticked at `level` (a mistake, or a wound the GM lets go)."""
    _check_level(track, level)
    if not marks[level]:
        raise PlayError(say("No {wound} box is marked.", wound=_wound(track, level)))
    return _replace(marks, level, marks[level][:-1])


def record_blow(track: HarmTrack, marks: Marks, level: int) -> tuple[Marks, int]:
    """A blow of `level` lands: in its own box if one is open, else (Mudge 4.57, Fudge
    Basics) "the next highest wound for which there is an open box". MicroFudged keeps
    only the largest Setback (DIP V.3): a second Wound adds nothing. Returns the new marks
    and the level whose box took the blow."""
    _check_level(track, level)
    if not track.rolls_up:
        if marks[level]:
            return marks, level
        return _replace(marks, level, (level,)), level
    for index in range(level, len(track.levels)):
        if len(marks[index]) < track.levels[index].boxes:
            return _replace(marks, index, (*marks[index], level)), index
    raise PlayError(
        say(
            "No open box is left at {wound} or above: what happens now is the GM's call "
            "({section}).",
            wound=_wound(track, level),
            section=track.section,
        )
    )


def heal_one_level(track: HarmTrack, marks: Marks) -> Marks:
    """Every wound one level better (Mudge 4.8, Fudge Basics "Healing": a Good healing
    roll, or a week of rest; DIP V.3: lethal Setbacks go at one a week). A wound healed to
    a Scratch is healed: "Scratches do not count as a level for healing purposes"."""
    blows = [blow - 1 for boxes in marks for blow in boxes]
    return _record_all(track, [blow for blow in blows if blow >= track.heals_below])


def erase_scratches(track: HarmTrack, marks: Marks) -> Marks:
    """After a battle (Mudge 4.8, Fudge Basics "Healing"): Scratches are erased, including
    a Scratch that rolled up into a Hurt box; Stun results heal the same way (Mudge 4.62)."""
    if not track.heals_below:
        return marks
    return _record_all(track, [blow for boxes in marks for blow in boxes if blow > 0])


def worst_level(marks: Marks) -> int | None:
    marked = [index for index, boxes in enumerate(marks) if boxes]
    return marked[-1] if marked else None


GRAVEST = 5  # the severity of a track's last level: Near Death, a Grievous Injury


def severity(track: HarmTrack, marks: Marks) -> int:
    """How bad the worst wound marked is, from 0 (unhurt) to GRAVEST (the track's last
    level: Mudge's Near Death, "dies within the hour"), its levels spread evenly in between
    (Mudge's five: 1 to 5; MicroFudged's three lethal setbacks: 1, 3, 5). A page says it
    with a colour and an icon beside the wound's name, the same scale on every track."""
    worst = worst_level(marks)
    if worst is None:
        return 0
    last = len(track.levels) - 1
    return GRAVEST if last <= 0 else 1 + round(worst * (GRAVEST - 1) / last)


def wound_penalty(track: HarmTrack, marks: Marks) -> int:
    """The penalty of the worst wound on the track: "The Hurt result is not cumulative
    with the Very Hurt result; only the penalty for the highest recorded wound level
    counts" (Mudge 4.57). Past Very Hurt the track's own penalty stops (the character is
    Incapacitated); the worst penalty marked on the way still applies to what he can do."""
    return min((track.levels[i].penalty for i, boxes in enumerate(marks) if boxes), default=0)


def _record_all(track: HarmTrack, blows: list[int]) -> Marks:
    """The blows recorded afresh, the worst first, so each takes its own level's box where
    one is open and the lesser ones roll up (Mudge 4.57's example: two Hurts and a Very
    Hurt in their boxes, the third Hurt an "H" under Incapacitated)."""
    marks = empty_marks(track)
    top = len(track.levels) - 1
    for blow in sorted((min(blow, top) for blow in blows), reverse=True):
        try:
            marks, _ = record_blow(track, marks, blow)
        except PlayError:
            break  # the track is full: nothing left to mark
    return marks


def _replace(marks: Marks, level: int, boxes: tuple[int, ...]) -> Marks:
    return (*marks[:level], boxes, *marks[level + 1 :])


def _check_level(track: HarmTrack, level: int) -> None:
    if not 0 <= level < len(track.levels):
        raise PlayError(
            say(
                "The {track} track has no level {level}.",
                track=str(track.title).lower(),
                level=level,
            )
        )


def _wound(track: HarmTrack, level: int) -> Term:
    """A level of the track as a rules word: a built-in one is said in the reader's language."""
    return Term(track.levels[level].name, "wound")


# -- rest ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Rest:
    key: str
    label: Phrase
    does: Phrase
    section: str
    scratches: bool = False  # erase Scratches
    one_level: bool = False  # heal every wound one level
    potential: bool = False  # field-of-power potential back


def rests(ruleset: Ruleset) -> tuple[Rest, ...]:
    """What rest heals in this ruleset. A new session heals nothing by itself: wounds go
    with time in the story, and spent points stay spent (docs/play.md)."""
    if ruleset.system == LEVELS:
        healing = ruleset.section("healing")
        return (
            Rest(
                "after-fight",
                say("After the fight"),
                say("Scratches erased (five or ten minutes to tend them)"),
                healing,
                scratches=True,
            ),
            Rest(
                "week",
                say("A week of rest"),
                say("every wound one level better; Scratches erased"),
                healing,
                scratches=True,
                one_level=True,
            ),
        )
    return (
        Rest(
            "night",
            say("A good night's rest"),
            say("field-of-power potential back"),
            ruleset.section("potential"),
            potential=True,
        ),
        Rest(
            "week",
            say("A week of rest"),
            say("every lethal Setback one degree better; potential back"),
            ruleset.section("healing"),
            one_level=True,
            potential=True,
        ),
    )


def rest_marks(track: HarmTrack, marks: Marks, rest: Rest) -> Marks:
    if rest.one_level:
        marks = heal_one_level(track, marks)
    if rest.scratches:
        marks = erase_scratches(track, marks)
    return marks


# -- points at the table -----------------------------------------------------------------------


@dataclass(frozen=True)
class TablePool:
    """The points a player spends at the table, as the build and its advancement hold them.

    Fudge and Mudge: meta points (Fudge points), the character's own number or the
    ruleset's start (Mudge 1.36: three, at most five held). MicroFudged: the tokens saved
    at creation for play (DIP I: "It must be saved so you can use it during play";
    Streamlined: at most 3 carried); tokens earned later are experience, spent between
    sessions (DIP IV)."""

    name: str
    on_record: int
    most: int | None
    section: str


def table_pool(character: Character, ruleset: Ruleset) -> TablePool:
    if ruleset.system == LEVELS:
        points = character.meta_points
        return TablePool(
            name=ruleset.terms.points,
            on_record=ruleset.meta_points_start if points is None else points,
            most=ruleset.meta_points_max,
            section=ruleset.section("points_in_play"),
        )
    saved = build_report(character, ruleset).pools["tokens"]["saved"]
    return TablePool("tokens", int(saved), None, ruleset.section("points_in_play"))


def potentials(character: Character, ruleset: Ruleset) -> tuple[tuple[str, int], ...]:
    """(field of power, potential) for each field raised to Poor or better: the times it
    can be activated before a good night's rest (DIP VI, VIII.1)."""
    if ruleset.system == LEVELS:
        return ()
    found = []
    for power in character.powers:
        level = ruleset.power_default if power.level is None else power.level
        if potential := power_potential(level):
            found.append((power.name, potential))
    return tuple(found)


# -- rolling -----------------------------------------------------------------------------------


def roll_fudge_dice(
    randbelow: Callable[[int], int] = secrets.randbelow, count: int = 4
) -> tuple[int, ...]:
    """`count` Fudge dice (4dF unless said) from the operating system's randomness: each die
    -1, 0 or +1, equally likely (two faces each). A 4dF's fourth is Mudge's damage die
    (3.22); an NPC may roll 1dF or 2dF (rules.npc)."""
    return tuple(randbelow(3) - 1 for _ in range(count))


def chance_to_reach(effective: int, against: int) -> Fraction:
    """The chance that `effective` + 4dF reaches `against` (Fudge Basics, "Odds of Rolling
    Exactly on 4dF": the "or higher" column)."""
    need = against - effective
    if need <= -4:
        return Fraction(1)
    for total, _, at_least in combat.fudge_dice_odds():
        if total == need:
            return at_least
    return Fraction(0)


def result_name(level: int, bottom: int, ladder: Ladder = STANDARD) -> str:
    """A rolled degree on the ladder: 'Great', 'Legendary+2', 'Terrible-1'."""
    if level < bottom:
        return f"{ladder.name(bottom)}{level - bottom}"
    return ladder.name(level)


# MicroFudged DIP V, "Difficulty levels": the rank a Simple test needs, by difficulty.
DIP_DIFFICULTIES = {
    -2: "Easy",
    -1: "Simple",
    0: "Average",
    1: "Hard",
    2: "Daunting",
    3: "Extreme",
    4: "Impossible",
}


def against_choices(ruleset: Ruleset) -> tuple[tuple[int, str], ...]:
    """The difficulties a roll may be made against, bottom to Legendary+2; MicroFudged
    names its difficulties beside the ranks ("Good (Hard)")."""
    named = {} if ruleset.system == LEVELS else DIP_DIFFICULTIES
    return tuple(
        (
            level,
            f"{ruleset.word(level)} ({named[level]})" if level in named else ruleset.word(level),
        )
        for level in range(ruleset.ladder_bottom, ruleset.ladder.top_word_level + 3)
    )


@dataclass(frozen=True)
class Blow:
    """The damage of a winning attack (Mudge 4.55, Fudge Basics "Determining Wound
    Levels"): relative degree + offensive - defensive factor (+ Mudge's damage die)."""

    damage: int
    wound: str  # the level it inflicts on a standard track, or "" for none
    working: str  # "2 + 3 - 2 + die 1 = 4"
    note: str = ""


def blow(
    ruleset: Ruleset, *, margin: int, offense: int, defence: int, damage_die: int
) -> Blow | None:
    """None unless the attacker won (relative degree +1 or more) and factors are known."""
    if margin < 1:
        return None
    harm = ruleset.harm
    total_factor = offense - defence
    damage = margin + total_factor
    working = f"{margin} {_term(offense)} {_term(-defence)}"
    if harm.damage_die:
        # Mudge 4.61: the die counts, but a positive damage never drops below 1 for it.
        with_die = damage + damage_die
        damage = max(with_die, 1) if damage > 0 else with_die
        working += f" {_term(damage_die)} (damage die)"
    track = HarmTrack("", harm.track, True, 1, "", "")
    index = track.level_of_damage(damage)
    wound = "" if index is None else track.levels[index].name
    note = ""
    if harm.graze_limits and margin == 1:
        wound, note = _graze(
            track, index, total_factor, harm.graze_limits, ruleset.section("graze")
        )
    return Blow(max(damage, 0), wound, f"{working} = {damage}", note)


def _graze(
    track: HarmTrack, index: int | None, total_factor: int, limits, section: str
) -> tuple[str, str]:
    limit = next((name for floor, name in limits if total_factor >= floor), "")
    most = f"at most {limit}" if limit else "no damage"
    note = f"a graze, {section}: {most} at TDF {signed(total_factor)}"
    if not limit or index is None:
        return "", note
    names = [level.name for level in track.levels]
    return names[min(index, names.index(limit))], note


def _term(value: int) -> str:
    return f"+ {value}" if value >= 0 else f"- {-value}"
