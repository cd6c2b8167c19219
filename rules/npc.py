"""The GM's side of the table, as pure rules: how the GM rolls for a non-player character,
once for a crowd of them against a lone PC, and in secret for a stranger's reaction; and
the damage threshold a GM may ignore for NPCs. Every result names the rule section it
comes from, so the dice log can say it.

- Fudge 1995 4.5 (Opposed Actions): "the GM can simply roll 1d6 for an NPC. On a result of
  2-5, the NPC gets the listed trait level": a 1 is worse, a 6 better, and "another d6:
  1,2,3 = +/-1 ...; 4,5 = +/-2; 6 = +/-3" says by how much.
- Mudge 3.5 (Opposed Actions) and 4.33 (PCs vs. NPCs): no roll at all, "the NPC's trait
  becomes the difficulty level"; or "roll 1dF or 2dF when rolling for an NPC".
- Fudge 1995 4.64 (Multiple Combatants in Melee): one roll for all the NPCs, "moved one
  degree closer to zero", the lone fighter "at -1 per extra opponent". Mudge 4.34 applies
  its 2dF (or 4dF) roll to each NPC as it is.
- Fudge 1995 4.9 (NPC Reactions): a secret Situational roll (4dF from Fair), modified by
  the PC's traits and the circumstances.
- Fudge 1995 4.73 (Damage Threshold): at most three wound levels in one blow.

Dice come in as a `randbelow` (secrets.randbelow in play, a fixed sequence in tests) or
as explicit faces, so every face's outcome can be checked.
"""

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rules.play import roll_fudge_dice

Randbelow = Callable[[int], int]

FOUR_DF, ONE_D6, ONE_DF, TWO_DF, NO_ROLL = "4df", "1d6", "1df", "2df", "no-roll"
METHODS = (FOUR_DF, ONE_D6, ONE_DF, TWO_DF, NO_ROLL)
FUDGE_DICE = {FOUR_DF: 4, TWO_DF: 2, ONE_DF: 1, NO_ROLL: 0}

OPPOSED_1D6 = "Fudge 1995 4.5"
MULTIPLE_COMBATANTS = "Fudge 1995 4.64"
DAMAGE_THRESHOLD = "Fudge 1995 4.73"
REACTIONS = "Fudge 1995 4.9"
FUDGE_DICE_NPC = "Mudge 3.5"  # "the GM can roll 1dF or 2dF when rolling for an NPC"
NO_ROLL_NPC = "Mudge 4.33"  # "the NPC's trait becomes the difficulty level"
FOUR_DF_ROLL = "Fudge 1995 4.21"  # reading the dice: the same roll the players make
MUDGE_MULTIPLE = "Mudge 4.34"
SECTIONS = {
    FOUR_DF: FOUR_DF_ROLL,
    ONE_D6: OPPOSED_1D6,
    ONE_DF: FUDGE_DICE_NPC,
    TWO_DF: FUDGE_DICE_NPC,
    NO_ROLL: NO_ROLL_NPC,
}


class NpcRuleError(ValueError):
    """Dice or a method the rules above do not know."""


@dataclass(frozen=True)
class NpcRoll:
    """An NPC's roll: the listed level, the dice as rolled (d6 faces for 1d6, -1/0/+1 for
    Fudge dice, none for no roll), how many degrees they move the level, and where the
    rules say so."""

    method: str
    level: int
    dice: tuple[int, ...]
    shift: int
    section: str

    @property
    def result(self) -> int:
        return self.level + self.shift


# -- one NPC -----------------------------------------------------------------------------------


def one_d6_shift(first: int, second: int | None = None) -> int:
    """Fudge 1995 4.5: 2-5 is the listed level (0); a 1 is worse and a 6 better, by the
    second d6: 1, 2, 3 one degree; 4, 5 two; 6 three. The second die is read only on a 1
    or a 6 (and is then required)."""
    _check_d6(first)
    if 2 <= first <= 5:
        return 0
    if second is None:
        raise NpcRuleError("a 1 or a 6 on the first d6 needs the second d6 to say how much")
    _check_d6(second)
    degrees = 1 if second <= 3 else 2 if second <= 5 else 3
    return degrees if first == 6 else -degrees


def read_npc_roll(method: str, level: int, dice: Sequence[int]) -> NpcRoll:
    """The NPC's result from dice already rolled: for 1d6 the first d6 and, on a 1 or a
    6, the second; for Fudge dice one face (-1, 0, +1) a die."""
    dice = tuple(dice)
    if method == ONE_D6:
        if not dice:
            raise NpcRuleError("1d6 needs a die")
        first, second = dice[0], (dice[1] if len(dice) > 1 else None)
        shift = one_d6_shift(first, second)
        used = dice[:1] if 2 <= first <= 5 else dice[:2]
        return NpcRoll(method, level, used, shift, OPPOSED_1D6)
    if method not in FUDGE_DICE:
        raise NpcRuleError(f"no NPC roll method {method!r}: use one of {', '.join(METHODS)}")
    if len(dice) != FUDGE_DICE[method] or any(face not in (-1, 0, 1) for face in dice):
        raise NpcRuleError(f"{method} needs {FUDGE_DICE[method]} Fudge dice of -1, 0 or +1")
    return NpcRoll(method, level, dice, sum(dice), SECTIONS[method])


def roll_npc(method: str, level: int, randbelow: Randbelow = secrets.randbelow) -> NpcRoll:
    """Roll for an NPC by the campaign's method."""
    if method == ONE_D6:
        first = randbelow(6) + 1
        dice = (first,) if 2 <= first <= 5 else (first, randbelow(6) + 1)
        return read_npc_roll(method, level, dice)
    if method not in FUDGE_DICE:
        raise NpcRuleError(f"no NPC roll method {method!r}: use one of {', '.join(METHODS)}")
    return read_npc_roll(method, level, list(roll_fudge_dice(randbelow, FUDGE_DICE[method])))


def _check_d6(face: int) -> None:
    if face not in range(1, 7):
        raise NpcRuleError(f"a d6 shows 1 to 6, not {face!r}")


# -- several NPCs against one PC ----------------------------------------------------------------


def closer_to_zero(total: int) -> int:
    """Fudge 1995 4.64: "the GM's single roll is moved one degree closer to zero. For
    example, if the GM gets a +4 result, each attacker actually scores a +3. A zero result
    remains a zero." """
    return total - 1 if total > 0 else total + 1 if total < 0 else 0


def lone_fighter_penalty(opponents: int) -> int:
    """ "The lone fighter is at -1 to his skill for each additional foe beyond the first"
    (Fudge 1995 4.64, Mudge 4.34)."""
    return -max(opponents - 1, 0)


@dataclass(frozen=True)
class Foe:
    name: str
    level: int  # the NPC's listed level
    result: int  # what the NPC scored this round


@dataclass(frozen=True)
class GroupRoll:
    """One roll for all the NPCs against a lone PC: each NPC's result, the PC's skill with
    the lone fighter's penalty, and where the rules say so."""

    method: str
    dice: tuple[int, ...]  # the single roll (one entry per NPC for 1d6: see group_roll)
    shift: int  # what the roll adds to each NPC (after moving it closer to zero)
    foes: tuple[Foe, ...]
    pc_level: int
    penalty: int
    section: str

    @property
    def pc_effective(self) -> int:
        return self.pc_level + self.penalty


def group_roll(
    method: str,
    foes: Sequence[tuple[str, int]],
    pc_level: int,
    dice: Sequence[int] | Sequence[Sequence[int]],
) -> GroupRoll:
    """The GM rolls once for all the NPCs (`foes`: name and level each) against a PC of
    `pc_level`:

    - 4dF: Fudge 1995 4.64, the total moved one degree closer to zero for every NPC;
    - 1dF, 2dF: Mudge 4.34, "applies the result to each NPC" as it is;
    - no roll: Mudge 4.34 refers to 4.33, each NPC at its level;
    - 1d6: Fudge 1995 4.64 ends "the GM could simply use the 1d6 method" of 4.5, which is
      one NPC's roll: `dice` then holds one 1d6 roll (one or two faces) for each NPC.
    """
    if not foes:
        raise NpcRuleError("a group roll needs at least one NPC")
    penalty = lone_fighter_penalty(len(foes))
    if method == ONE_D6:
        if len(dice) != len(foes):
            raise NpcRuleError("the 1d6 method rolls once for each NPC")
        rolls = [
            read_npc_roll(ONE_D6, level, faces)
            for (_, level), faces in zip(foes, dice, strict=True)
        ]
        found = tuple(
            Foe(name, level, roll.result) for (name, level), roll in zip(foes, rolls, strict=True)
        )
        flat = tuple(face for roll in rolls for face in roll.dice)
        return GroupRoll(method, flat, 0, found, pc_level, penalty, MULTIPLE_COMBATANTS)
    roll = read_npc_roll(method, 0, dice)
    if method == FOUR_DF:
        shift, section = closer_to_zero(roll.shift), MULTIPLE_COMBATANTS
    else:
        shift, section = roll.shift, MUDGE_MULTIPLE
    found = tuple(Foe(name, level, level + shift) for name, level in foes)
    return GroupRoll(method, roll.dice, shift, found, pc_level, penalty, section)


def roll_group(
    method: str,
    foes: Sequence[tuple[str, int]],
    pc_level: int,
    randbelow: Randbelow = secrets.randbelow,
) -> GroupRoll:
    if method == ONE_D6:
        dice = [roll_npc(ONE_D6, 0, randbelow).dice for _ in foes]
    elif method in FUDGE_DICE:
        dice = list(roll_fudge_dice(randbelow, FUDGE_DICE[method]))
    else:
        raise NpcRuleError(f"no NPC roll method {method!r}: use one of {', '.join(METHODS)}")
    return group_roll(method, foes, pc_level, dice)


@dataclass(frozen=True)
class Exchange:
    """How a round ends when the lone PC scores `pc_result` against the NPCs' results."""

    hit_by: tuple[str, ...]  # every NPC whose result beats the PC's
    may_hit: tuple[str, ...]  # the NPCs the PC may wound (one of them, his choice)
    stand_off: bool  # nobody is hurt on either side


def exchange(foes: Sequence[Foe], pc_result: int, *, two_below: bool = False) -> Exchange:
    """Fudge 1995 4.64: "The solo combatant has to defeat all of the opponents in order to
    inflict a wound on one of them"; "he takes multiple wounds in a single round if two or
    more enemies hit him". With `two_below` (Fudge's option "for either method", Mudge
    4.34's rule), a PC who ties his best foe may still wound one "at least two levels
    below his"."""
    hit_by = tuple(foe.name for foe in foes if foe.result > pc_result)
    best = max(foe.result for foe in foes)
    if pc_result > best:
        may_hit = tuple(foe.name for foe in foes)
    elif pc_result == best and two_below:
        may_hit = tuple(foe.name for foe in foes if pc_result - foe.result >= 2)
    else:
        may_hit = ()
    return Exchange(hit_by, may_hit, not hit_by and not may_hit)


# -- a stranger's reaction ----------------------------------------------------------------------

UNHELPFUL, MILDLY_HELPFUL, REACTS_WELL = "unhelpful", "mildly", "well"


@dataclass(frozen=True)
class Reaction:
    """Fudge 1995 4.9: a Situational roll (4dF, "a result of 0 means a Fair result"),
    modified by the PC's traits and the circumstances."""

    dice: tuple[int, ...]
    modifiers: tuple[tuple[str, int], ...]  # (why, how much): "Charisma", +1
    section: str = REACTIONS

    @property
    def modifier(self) -> int:
        return sum(value for _, value in self.modifiers)

    @property
    def result(self) -> int:
        """The rolled degree, relative to Fair (0)."""
        return sum(self.dice) + self.modifier

    @property
    def reaction(self) -> str:
        """ "On a Fair result ... the NPC will be mildly helpful, but only if it's not too
        much effort. She won't be helpful at all on Mediocre or worse results, but will
        react well on a Good result or better." """
        if self.result >= 1:
            return REACTS_WELL
        if self.result == 0:
            return MILDLY_HELPFUL
        return UNHELPFUL


def read_reaction(dice: Sequence[int], modifiers: Sequence[tuple[str, int]] = ()) -> Reaction:
    dice = tuple(dice)
    if len(dice) != 4 or any(face not in (-1, 0, 1) for face in dice):
        raise NpcRuleError("a Situational roll is 4 Fudge dice of -1, 0 or +1")
    return Reaction(dice, tuple((str(why), int(value)) for why, value in modifiers))


def roll_reaction(
    modifiers: Sequence[tuple[str, int]] = (), randbelow: Randbelow = secrets.randbelow
) -> Reaction:
    return read_reaction(list(roll_fudge_dice(randbelow)), modifiers)


# -- damage threshold ---------------------------------------------------------------------------

THRESHOLD_LEVELS = 3  # "cannot take more than three levels of wounds in one blow"


def within_threshold(worst: int | None, level: int) -> int:
    """Fudge 1995 4.73: "an unwounded character could be Scratched, Hurt, or Very Hurt in
    one blow, but any excess damage points beyond that would be lost. A Hurt character
    could go all the way to Near Death in one blow". `worst` is the index of the worst
    wound marked (None unhurt), `level` the blow's on the track (Scratch 0, Hurt 1...)."""
    start = -1 if worst is None else worst
    return min(level, start + THRESHOLD_LEVELS)
