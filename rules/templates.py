"""Class and race templates (Mudge 6.4): which minimums a character does not meet, and the
character with the template applied. Pure functions over rules.character values."""

import dataclasses
from dataclasses import dataclass

from rules.catalog import Catalog, CatalogFault, CatalogGift, CatalogSkill, Template
from rules.catalogues.mudge import TEMPLATES
from rules.character import Character, Fault, Gift, Trait
from rules.ladder import STANDARD, Ladder, level_name, parse_level
from rules.rulesets import BUILTIN, Ruleset, skill_default
from rules.words import Level, Name, Noun, Phrase, say

BY_SLUG = {t.slug: t for t in TEMPLATES}
# Mudge 6.42's broad classes rate groups of attributes; these are the Mudge attributes
# each group stands for when the character uses Mudge's own list.
ATTRIBUTE_GROUPS = {
    "physical attributes": ("Strength", "Dexterity", "Constitution", "Speed"),
    "mental attributes": ("Intelligence", "Willpower", "Perception"),
    "psyche attributes": ("Mana", "Psyche"),
}


@dataclass(frozen=True)
class Unmet:
    kind: str  # "attribute", "skill", "gift" or "fault"
    name: str
    need: str  # the minimum level word, or "" for a gift or fault
    have: str  # the current level word, or "" when the trait is missing

    @property
    def phrase(self) -> Phrase:
        """What to do about it, for a person in any language (rules.words)."""
        if not self.need:
            kind = Noun(self.kind, f"{self.kind}s")
            return say("Take the {kind} {name}.", kind=kind, name=Name(self.name))
        need = Level(parse_level(self.need), STANDARD)
        if not self.have:
            return say("Add {name} at {level} or better.", name=Name(self.name), level=need)
        have = Level(parse_level(self.have), STANDARD)
        return say(
            "Raise {name} from {have} to {need}.", name=Name(self.name), have=have, need=need
        )

    @property
    def message(self) -> str:
        return str(self.phrase)


def _alternatives(name: str) -> list[str]:
    """'Spear or Sword' -> ['Spear', 'Sword']: either meets the minimum (Mudge 6.41)."""
    return [part.strip() for part in name.split(" or ")]


def _matches(trait_name: str, wanted: str) -> bool:
    """'Riding, Pony' and 'Riding (horse)' are kinds of the template's 'Riding'."""
    name, wanted = trait_name.casefold(), wanted.casefold()
    return name == wanted or (name.startswith(wanted) and name[len(wanted)] in " ,(")


def _find(traits, name):
    return [t for t in traits if any(_matches(t.name, n) for n in _alternatives(name))]


def _attribute_targets(character: Character, name: str) -> list[str]:
    group = ATTRIBUTE_GROUPS.get(name.casefold())
    if group is None:
        return [name]
    present = {t.name.casefold() for t in character.attributes}
    # Psyche attributes exist only for characters with them (Magery, Psionic).
    return [n for n in group if n.casefold() in present or n not in ("Mana", "Psyche")]


def unmet_minimums(character: Character, template: Template) -> list[Unmet]:
    unmet = []
    for name, word in template.minimum_attributes.items():
        need = parse_level(word)
        for target in _attribute_targets(character, name):
            have = character.attribute_level(target, default=0)
            if have < need:
                unmet.append(Unmet("attribute", target, word, level_name(have)))
    for name, word in template.minimum_skills.items():
        if name.casefold() == "all other skills":
            continue  # a floor for untrained skills, not a requirement
        need = parse_level(word)
        found = _find(character.skills, name)
        best = max((t.level for t in found), default=None)
        if best is None or best < need:
            unmet.append(Unmet("skill", name, word, "" if best is None else level_name(best)))
    for gift in template.required_gifts:
        if not character.has_gift(gift):
            unmet.append(Unmet("gift", gift, "", ""))
    for fault in template.required_faults:
        if not any(f.name.casefold() == fault.casefold() for f in character.faults):
            unmet.append(Unmet("fault", fault, "", ""))
    return unmet


# What applying a template changed, one phrase each, for the player's message and the record
# (whose English they are): "Constitution Good", "fault Halfling", "race Halfling", "Scale -2 / -2".
def raised_to(name: str, level: int, ladder: Ladder) -> Phrase:
    return say("{name} {level}", name=Name(name), level=Level(level, ladder))


def taken(kind: str, name: str) -> Phrase:
    """A gift or fault the template gave: `kind` "gift" or "fault"."""
    return say("{kind} {name}", kind=Noun(kind, f"{kind}s"), name=Name(name))


def race_taken(race: str) -> Phrase:
    return say("race {race}", race=Name(race))


def scale_now(strength: int, mass: int) -> Phrase:
    return say("Scale {strength} / {mass}", strength=strength, mass=mass)


def templates_for(ruleset: Ruleset) -> dict[str, Template]:
    """The templates a ruleset offers, by slug."""
    return {t.slug: t for t in ruleset.templates}


def templates_catalog(ruleset: Ruleset) -> Catalog:
    """What the ruleset's templates bring, as a catalogue: the skills a class names (Mudge
    6.42's "Covert skills", either of 6.41's "Spear or Sword"), a race's bonus skills, and the
    gifts and faults either asks for or recommends. These are the game's own as much as its
    catalogue's lists, though the catalogue does not list them. A template gives a skill no
    difficulty (apply_template adds it as average unless the catalogue says otherwise) and a
    gift or fault no cost (the report's 1), so those are what it lists."""
    attributes = {n.casefold() for n in ruleset.attribute_names or ruleset.catalog.attributes}
    skills, gifts, faults = {}, {}, {}
    for template in ruleset.templates:
        for name in template.minimum_skills:
            if name.casefold() != "all other skills":  # a floor, never a skill of its own
                skills.update((n, CatalogSkill(n)) for n in _alternatives(name))
        for name in template.racial_bonuses:
            if name.casefold() not in attributes:
                skills[name] = CatalogSkill(name)
        for name in (*template.required_gifts, *template.recommended_gifts):
            gifts[name] = CatalogGift(name)
        faults.update((name, CatalogFault(name)) for name in template.required_faults)
    return Catalog(
        attributes=(),
        skills=tuple(skills.values()),
        gifts=tuple(gifts.values()),
        faults=tuple(faults.values()),
    )


def apply_template(
    character: Character, template: Template, ruleset: Ruleset | None = None
) -> Character:
    """The character raised to every minimum of the template (missing skills added at the
    minimum, the first alternative where the text offers a choice), with a race's gifts,
    faults, racial bonuses and Scale. Traits already above a minimum are left alone.

    Racial bonuses and penalties shift levels, written relative to humans (Mudge 2.35:
    "halfling Fair Constitution equals human Good Constitution"), and cost (or give back)
    a level each as any other; a race already taken is not shifted twice. `ruleset` gives
    the defaults of traits the character does not list (the character's own, by default)."""
    ruleset = ruleset or BUILTIN[character.ruleset]
    attributes = list(character.attributes)
    skills = list(character.skills)
    gifts = list(character.gifts)
    faults = list(character.faults)
    new_race = template.kind == "race" and character.race.casefold() != template.name.casefold()
    if new_race:
        for name, shift in template.racial_bonuses.items():
            if _is_attribute(name, attributes, ruleset):
                attributes = _shifted(attributes, name, shift, ruleset.attribute_default)
            else:
                skills = _shifted_skill(skills, name, shift, ruleset)
        character = dataclasses.replace(
            character, attributes=tuple(attributes), skills=tuple(skills)
        )
    unmet = unmet_minimums(character, template)
    for item in unmet:
        if item.kind == "attribute":
            attributes = _raised(attributes, item.name, parse_level(item.need))
        elif item.kind == "skill":
            skills = _raised(skills, _alternatives(item.name)[0], parse_level(item.need))
        elif item.kind == "gift":
            gifts.append(Gift(item.name))
        else:
            faults.append(Fault(item.name))
    changes = {
        "attributes": tuple(attributes),
        "skills": tuple(skills),
        "gifts": tuple(gifts),
        "faults": tuple(faults),
    }
    if new_race:
        changes |= {
            "race": template.name,
            "scale_strength": template.scale_strength,
            "scale_mass": template.scale_mass,
        }
    return dataclasses.replace(character, **changes)


def _is_attribute(name: str, attributes: list[Trait], ruleset: Ruleset) -> bool:
    names = [t.name for t in attributes] + list(ruleset.attribute_names or ())
    return any(n.casefold() == name.casefold() for n in names)


def _shifted(traits: list[Trait], name: str, shift: int, default: int) -> list[Trait]:
    for index, trait in enumerate(traits):
        if trait.name.casefold() == name.casefold():
            traits[index] = dataclasses.replace(trait, level=trait.level + shift)
            return traits
    return [*traits, Trait(name, default + shift)]


def _shifted_skill(skills: list[Trait], name: str, shift: int, ruleset: Ruleset) -> list[Trait]:
    """A racial bonus to a skill: on the listed skill, or else from its default (Mudge 1.4:
    Terrible for a hard one), with the catalogue's difficulty. A very hard skill has no
    default, so an untrained one gains nothing."""
    if any(t.name.casefold() == name.casefold() for t in skills):
        return _shifted(skills, name, shift, ruleset.skill_default)
    entry = ruleset.catalog.skill(name)
    difficulty = entry.difficulty if entry is not None and ruleset.skill_difficulties else None
    default = skill_default(ruleset, name, difficulty)
    if default is None:
        return skills
    return [*skills, Trait(name, default + shift, difficulty)]


def _raised(traits: list[Trait], name: str, level: int) -> list[Trait]:
    for index, trait in enumerate(traits):
        if trait.name.casefold() == name.casefold():
            traits[index] = dataclasses.replace(trait, level=max(trait.level, level))
            return traits
    return [*traits, Trait(name, level)]
