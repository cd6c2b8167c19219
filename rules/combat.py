"""The numbers a sheet records before play so nobody refigures them each combat round:
damage factors (Mudge 4.54, 4.55; Fudge Basics, "Offensive and Defensive Damage Factors"),
the wound track (Mudge 4.57; Fudge Basics, "The Wound Track") and the odds of 4dF
(Fudge Basics, "Odds of Rolling Exactly on 4dF").

MicroFudged resolves harm with cards and Setbacks, not damage factors and wound boxes, so
its characters get neither (both functions return empty tuples for the token system).
"""

from dataclasses import dataclass
from fractions import Fraction
from itertools import product

from rules.character import Character
from rules.ladder import FAIR
from rules.rulesets import LEVELS, Ruleset

MUDGE = "mudge"
# Mudge 4.54: "Unarmed, with Martial Arts skill: 0 (Judo, Boxing, Karate, etc.)"; Mudge's
# skill list (1.32) calls the family "Unarmed Combat (type): brawling, karate, judo, etc.".
MARTIAL_ARTS = (
    "unarmed combat",
    "martial arts",
    "judo",
    "karate",
    "boxing",
    "brawling",
    "wrestling",
    "kung fu",
    "jujitsu",
    "ju-jitsu",
    "aikido",
    "taekwondo",
)
# The attribute that soaks damage. Fudge Basics names a "Damage Capacity comparable
# attribute" (the GM's list); Mudge uses Constitution (4.52).
TOUGHNESS_ATTRIBUTES = {MUDGE: ("Constitution",), "": ("Damage Capacity", "Constitution")}
# Mudge 1.33/1.34 and the sample sheets (6.3): "Toughness Gift adds 1 Scratch box",
# High Pain Threshold "+1 Scratch box", the fault Low Pain Threshold "-1 Scratch box".
EXTRA_SCRATCH_GIFTS = ("toughness", "high pain threshold")
FEWER_SCRATCH_FAULTS = ("low pain threshold",)


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


@dataclass(frozen=True)
class WoundLevel:
    name: str
    damage: str  # the damage numbers of a single blow that inflict it: "3,4", "9+"
    penalty: int  # to every action while it is the worst wound: 0, -1, -2
    boxes: int


# (name, damage numbers, penalty, boxes)
MUDGE_WOUNDS = (
    ("Scratch", "1,2", 0, 3),
    ("Hurt", "3,4", -1, 2),
    ("Very Hurt", "5,6", -2, 1),
    ("Incapacitated", "7,8", 0, 1),
    ("Near Death", "9+", 0, 1),
)
FUDGE_BASICS_WOUNDS = (
    ("Scratch", "1", 0, 5),
    ("Hurt", "2,3", -1, 4),
    ("Very Hurt", "4,5", -2, 3),
    ("Incapacitated", "6", 0, 2),
    ("Near Death", "7+", 0, 1),
)


def damage_factors(character: Character, ruleset: Ruleset) -> DamageFactors:
    """Offensive: Strength + Strength Scale + weapon value, for bare hands and each weapon
    with a value. Defensive: Constitution + Mass Scale, plus each armour with a value."""
    if ruleset.system != LEVELS:
        return DamageFactors((), ())
    strength = ("Strength", character.attribute_level("Strength", FAIR))
    strength_scale = ("Strength Scale", character.scale_strength)
    unarmed = DamageFactor(
        "Unarmed", (strength, strength_scale, ("Misc.", _unarmed(character, ruleset)))
    )
    weapons = tuple(
        DamageFactor(item.name, (strength, strength_scale, ("Weapon", item.damage)))
        for item in character.equipment
        if item.kind == "weapon" and item.damage is not None
    )
    body = (_toughness_attribute(character, ruleset), ("Mass Scale", character.scale_mass))
    armours = tuple(
        DamageFactor(f"In {item.name}", (*body, ("Armour", item.armour)))
        for item in character.equipment
        if item.kind == "armour" and item.armour is not None
    )
    return DamageFactors(
        offensive=(unarmed, *weapons),
        defensive=(DamageFactor("Defensive", body, open_term="Armour"), *armours),
    )


def _unarmed(character: Character, ruleset: Ruleset) -> int:
    """Mudge 4.54: bare hands are -1, or 0 with a martial art. Fudge Basics: +0."""
    if ruleset.slug != MUDGE:
        return 0
    trained = any(skill.name.casefold().startswith(MARTIAL_ARTS) for skill in character.skills)
    return 0 if trained else -1


def _toughness_attribute(character: Character, ruleset: Ruleset) -> tuple[str, int]:
    names = TOUGHNESS_ATTRIBUTES.get(ruleset.slug, TOUGHNESS_ATTRIBUTES[""])
    for name in names:
        for trait in character.attributes:
            if trait.name.casefold() == name.casefold():
                return trait.name, trait.level
    return names[-1], ruleset.attribute_default


def wound_track(character: Character, ruleset: Ruleset) -> tuple[WoundLevel, ...]:
    """The wound boxes: Mudge 4.57's 3/2/1/1/1, or Fudge Basics' 5/4/3/2/1, with one more
    Scratch box for each Toughness or High Pain Threshold gift and one fewer for Low Pain
    Threshold."""
    if ruleset.system != LEVELS:
        return ()
    levels = MUDGE_WOUNDS if ruleset.slug == MUDGE else FUDGE_BASICS_WOUNDS
    extra = sum(g.name.casefold().startswith(EXTRA_SCRATCH_GIFTS) for g in character.gifts)
    fewer = sum(f.name.casefold().startswith(FEWER_SCRATCH_FAULTS) for f in character.faults)
    track = [WoundLevel(*level) for level in levels]
    scratch = track[0]
    track[0] = WoundLevel(
        scratch.name, scratch.damage, scratch.penalty, max(scratch.boxes + extra - fewer, 0)
    )
    return tuple(track)


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
