"""Between the database and the rules engine: model rows <-> rules.character values.

Callers prefetch `traits` and `equipment` (selectors do) so a conversion costs no query.
"""

from decimal import Decimal
from fractions import Fraction

from characters.models import Character, Equipment, Trait
from rules import character as rc
from rules.house_rules import apply_house_rules
from rules.rulesets import BUILTIN, Ruleset


def ruleset_for(character: Character) -> Ruleset:
    """The character's rules: its campaign's base ruleset and house rules, or a built-in."""
    campaign = character.campaign
    if campaign is None:
        return BUILTIN[character.ruleset]
    return campaign_ruleset(campaign)


def campaign_ruleset(campaign) -> Ruleset:
    # House rules were validated when the GM saved them; applying them is cheap.
    return apply_house_rules(BUILTIN[campaign.base_ruleset], campaign.house_rules)


def character_to_rules(character: Character) -> rc.Character:
    by_kind = {kind: [] for kind, _ in Trait.KINDS}
    for trait in character.traits.all():
        by_kind[trait.kind].append(trait)
    return rc.Character(
        ruleset=ruleset_for(character).slug,
        name=character.name,
        house_rules=character.campaign.house_rules if character.campaign else {},
        player=character.player,
        concept=character.concept,
        race=character.race,
        scale_strength=character.scale_strength,
        scale_mass=character.scale_mass,
        attributes=tuple(_trait(t) for t in by_kind[Trait.ATTRIBUTE]),
        skills=tuple(_trait(t) for t in by_kind[Trait.SKILL]),
        gifts=tuple(rc.Gift(t.name, _fraction(t.cost, 1)) for t in by_kind[Trait.GIFT]),
        faults=tuple(rc.Fault(t.name, _fraction(t.cost, 1)) for t in by_kind[Trait.FAULT]),
        powers=tuple(
            rc.Power(
                name=t.name,
                kind=t.power_kind or None,
                level=t.level,
                difficulty=t.difficulty or None,
                cost=None if t.cost is None else Fraction(t.cost),
            )
            for t in by_kind[Trait.POWER]
        ),
        equipment=tuple(
            rc.Equipment(e.name, e.kind, e.damage, e.armour, e.notes)
            for e in character.equipment.all()
        ),
        meta_points=character.meta_points,
        experience=character.experience,
        notes=character.notes,
        personality=dict(character.personality or {}),
    )


def rows_from_rules(character: Character, value: rc.Character):
    """Unsaved Trait and Equipment rows for `character` holding `value`'s traits."""
    traits = []
    for kind, items in (
        (Trait.ATTRIBUTE, value.attributes),
        (Trait.SKILL, value.skills),
    ):
        traits += [
            Trait(
                character=character,
                kind=kind,
                name=t.name,
                level=t.level,
                difficulty=t.difficulty or "",
                position=i,
            )
            for i, t in enumerate(items)
        ]
    traits += [
        Trait(character=character, kind=Trait.GIFT, name=g.name, cost=_decimal(g.cost), position=i)
        for i, g in enumerate(value.gifts)
    ]
    traits += [
        Trait(
            character=character, kind=Trait.FAULT, name=f.name, cost=_decimal(f.value), position=i
        )
        for i, f in enumerate(value.faults)
    ]
    traits += [
        Trait(
            character=character,
            kind=Trait.POWER,
            name=p.name,
            level=p.level,
            difficulty=p.difficulty or "",
            power_kind=p.kind or "",
            cost=None if p.cost is None else _decimal(p.cost),
            position=i,
        )
        for i, p in enumerate(value.powers)
    ]
    equipment = [
        Equipment(
            character=character,
            name=e.name,
            kind=e.kind,
            damage=e.damage,
            armour=e.armour,
            notes=e.notes,
            position=i,
        )
        for i, e in enumerate(value.equipment)
    ]
    return traits, equipment


def _trait(trait: Trait) -> rc.Trait:
    return rc.Trait(
        trait.name, trait.level if trait.level is not None else 0, trait.difficulty or None
    )


def _fraction(value: Decimal | None, default) -> Fraction:
    return Fraction(default) if value is None else Fraction(value)


def _decimal(value: Fraction) -> Decimal:
    return Decimal(value.numerator) / Decimal(value.denominator)
