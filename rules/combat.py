"""The numbers a sheet records before play so nobody refigures them each combat round:
damage factors (Mudge 4.54, 4.55; Fudge Basics, "Offensive and Defensive Damage Factors"),
the wound or setback track (Mudge 4.57; Fudge Basics, "The Wound Track"; MicroFudged DIP
V.3) and the odds of 4dF (Fudge Basics, "Odds of Rolling Exactly on 4dF").

Everything that differs between rulesets is the ruleset's `harm` data and its damage-capacity
and muscle attributes (house rules may rename them): MicroFudged resolves harm with cards and
setbacks, so it has a setback track and no damage factors.
"""

from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import product

from rules.character import Character
from rules.rulesets import Ruleset, WoundLevel

__all__ = ["DamageFactor", "DamageFactors", "WoundLevel", "damage_factors", "wound_track"]


@dataclass(frozen=True)
class DamageFactor:
    """One line of the sheet's damage factors: what is added, and the total.

    `open_term` names a term left for play, as the printed sheet's "ARMOR [*]": armour
    counts only against the weapons it stops (Mudge 4.54), so the total excludes it."""

    label: str
    terms: tuple[tuple[str, int], ...]
    open_term: str = ""

    @property
    def total(self) -> int:
        return sum(value for _, value in self.terms)


@dataclass(frozen=True)
class DamageFactors:
    offensive: tuple[DamageFactor, ...]
    defensive: tuple[DamageFactor, ...]
    # Attributes the factors use that the character does not list (they stand at default)
    unlisted: tuple[str, ...] = ()


def damage_factors(character: Character, ruleset: Ruleset) -> DamageFactors:
    """Offensive: muscle (Strength) + Strength Scale + weapon value, for bare hands and each
    weapon with a value. Defensive: damage capacity (Constitution) + Mass Scale, plus each
    armour with a value."""
    harm = ruleset.harm
    if harm is None or not harm.damage_factors:
        return DamageFactors((), ())
    muscle, muscle_listed = _attribute(character, ruleset, ruleset.muscle_attribute)
    toughness, toughness_listed = _attribute(character, ruleset, ruleset.damage_capacity_attribute)
    # Scale adds to both (Mudge 4.54); a ruleset without Scale has no such terms.
    if ruleset.has_scale:
        strength = (muscle, ("Strength Scale", character.scale_strength))
        body = (toughness, ("Mass Scale", character.scale_mass))
    else:
        strength, body = (muscle,), (toughness,)
    unarmed = DamageFactor("Unarmed", (*strength, ("Misc.", _unarmed(character, ruleset))))
    weapons = tuple(
        DamageFactor(item.name, (*strength, ("Weapon", item.damage)))
        for item in character.equipment
        if item.kind == "weapon" and item.damage is not None
    )
    armours = tuple(
        DamageFactor(f"In {item.name}", (*body, ("Armour", item.armour)))
        for item in character.equipment
        if item.kind == "armour" and item.armour is not None
    )
    unlisted = tuple(
        name
        for (name, _), listed in ((muscle, muscle_listed), (toughness, toughness_listed))
        if not listed
    )
    return DamageFactors(
        offensive=(unarmed, *weapons),
        defensive=(DamageFactor("Defensive", body, open_term="Armour"), *armours),
        unlisted=unlisted,
    )


def _unarmed(character: Character, ruleset: Ruleset) -> int:
    """Mudge 4.54: bare hands are -1, or 0 with a martial art. Fudge Basics: +0."""
    harm = ruleset.harm
    trained = any(skill.name.casefold().startswith(harm.martial_arts) for skill in character.skills)
    return harm.unarmed_trained if trained else harm.unarmed


def _attribute(character: Character, ruleset: Ruleset, name: str) -> tuple[tuple[str, int], bool]:
    """(name, level) of the attribute the ruleset names, and whether the character lists it;
    one it does not list stands at the default."""
    for trait in character.attributes:
        if trait.name.casefold() == name.casefold():
            return (trait.name, trait.level), True
    return (name, ruleset.attribute_default), False


def wound_track(character: Character, ruleset: Ruleset) -> tuple[WoundLevel, ...]:
    """The wound boxes: Mudge 4.57's 3/2/1/1/1, or Fudge Basics' 5/4/3/2/1, with one more
    Scratch box for each Toughness or High Pain Threshold gift and one fewer for Low Pain
    Threshold; MicroFudged's setbacks, one box each."""
    harm = ruleset.harm
    if harm is None:
        return ()
    track = list(harm.track)
    extra = sum(g.name.casefold().startswith(harm.more_scratch) for g in character.gifts)
    fewer = sum(f.name.casefold().startswith(harm.fewer_scratch) for f in character.faults)
    if extra or fewer:
        first = track[0]
        track[0] = WoundLevel(
            first.name, first.damage, first.penalty, max(first.boxes + extra - fewer, 0)
        )
    return tuple(track)


@cache  # the dice never change: every roll and every play page reads the same table
def fudge_dice_odds() -> tuple[tuple[int, Fraction, Fraction], ...]:
    """(result, chance of exactly it, chance of it or higher) on 4dF, from +4 down to -4."""
    counts = {total: 0 for total in range(-4, 5)}
    for dice in product((-1, 0, 1), repeat=4):
        counts[sum(dice)] += 1
    rows, at_least = [], 0
    for total in range(4, -5, -1):
        at_least += counts[total]
        rows.append((total, Fraction(counts[total], 81), Fraction(at_least, 81)))
    return tuple(rows)
