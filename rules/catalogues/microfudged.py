"""MicroFudged DIP v2 reference data: abilities, fields of expertise, fields of power, equipment.

Transcribed from the rule text (rules-sources 003_*.txt):

- attributes: the "Example of Ability list" of section III (repeated as the "Sample Ability
  list" of the reference pages): Mind, Mastery, Presence, Vigour. In MicroFudged DIP it is
  the GM's suggested list (any ability may be rated); Streamlined creation (VIII 3) uses it
  as a fixed list;
- skills: the "Example of Field of expertise list" of section III, in the text's order;
  fields have no difficulty in MicroFudged (all "average" here), the field's description
  is the note; Science and Medicine default to Terrible, the others to Poor;
- fields of power: the Psionic fields of power of appendix VIII 1;
- equipment: the weapons and armour of the reference pages (and VII 2), the card bonus
  stored as ``damage`` (weapons) or ``armour`` (armour, shield).

Standard library only: no Django here.
"""

from rules.catalog import Catalog, CatalogEquipment, CatalogPower, CatalogSkill

# Section III / reference pages, "Sample Ability list", in the text's order.
ABILITIES = ("Mind", "Mastery", "Presence", "Vigour")

# Section III: "Default Field of Expertise rank is Poor, except when noted differently (in
# brackets following the Field's name)."
FIELD_DEFAULTS = {"Science": "Terrible", "Medicine": "Terrible"}

FIELDS = (
    CatalogSkill(
        "Athletics",
        note="covers physical activities such as jumping, running, climbing, throwing, etc.",
    ),
    CatalogSkill(
        "Ballistics",
        note=(
            "covers the use of all kinds of ranged weapons such as handguns, rifles, automatic "
            "weapons, bows, slings and crossbows. Thrown weapons are used with the Athletics "
            "Field."
        ),
    ),
    CatalogSkill(
        "Combat",
        note=(
            "covers armed and unarmed hand-to-hand combat, ranging from brawling to martial "
            "arts and melee."
        ),
    ),
    CatalogSkill(
        "Engineering",
        note=(
            "covers the design, use, maintenance, repair and modifications of industrial and "
            "technical machineries. It governs all the heavy machineries and constructions "
            "depending of the actual gaming background."
        ),
    ),
    CatalogSkill(
        "Gunner",
        note=(
            "covers the use of all kinds of heavy ranged weapons. It governs heavy mounted "
            "weapons, heavy rotating cannons and artillery depending of the actual gaming "
            "background."
        ),
    ),
    CatalogSkill(
        "Technology",
        note=(
            "covers the use, maintenance, repair and modification of technical devices. It "
            "governs mechanics, electronics and computers, depending of the actual gaming "
            "background."
        ),
    ),
    CatalogSkill(
        "Stealth",
        note=(
            "covers the ability to move and perform activities without being noticed, such as "
            "sneaking, hiding, camouflage, disguise and pick pocketing. Lock picking is covered "
            "by the Technology Field."
        ),
    ),
    CatalogSkill(
        "Science",
        note=(
            "default: Terrible; covers knowledge in the established sciences like physics, "
            "chemistry, biology, mathematics and so on."
        ),
    ),
    CatalogSkill(
        "Interaction",
        note=(
            "covers social behaviour and politeness. It governs streetwise, etiquette, "
            "savoir-faire, diplomacy, etc. To influence others the Manipulation Field is used."
        ),
    ),
    CatalogSkill(
        "Manipulation",
        note=(
            "covers the ability to influence others according to your own agenda, such as "
            "negotiation, barter, bargain, haggle, fast talk, persuasion, rhetoric, etc."
        ),
    ),
    CatalogSkill(
        "Medicine",
        note=(
            "default: Terrible; covers the ability to aid the injured and to attend the sick. "
            "It governs first aid, surgery, pharmacy, psychotherapy and forensics."
        ),
    ),
    CatalogSkill(
        "Pilot",
        note=(
            "covers the use of vehicles such as cars, trucks, motorcycles, planes, helicopters, "
            "boats, etc. depending on the actual gaming background."
        ),
    ),
    CatalogSkill(
        "Art",
        note=(
            "covers all fine arts, such as drawing, painting, sculpturing, singing, playing an "
            "instrument, writing, poetry and literature."
        ),
    ),
    CatalogSkill(
        "Knowledge",
        note=(
            "covers expertise in common fields like history, law, customs, natural history, "
            "area knowledge, etc."
        ),
    ),
)

# Appendix VIII 1, "Psionic fields of power" (they default to Abysmal and can't be used
# until raised to Poor).
FIELDS_OF_POWER = ("Telekinesis", "Telepathy", "Consciousness")
_FIELD_OF_POWER = "MicroFudged DIP VIII.1"
# A use costs a point of the field's potential, its card rating once it reaches Poor.
_POTENTIAL = "1 point of its potential a use"
POWERS = (
    CatalogPower(
        "Telekinesis",
        "field",
        _FIELD_OF_POWER,
        cost=_POTENTIAL,
        target="visible objects",
        duration="1 Story element at Poor to 6 at Superb",
        effect=(
            "This is the art of moving objects from a distance. Higher ratings of expertise "
            "allows the psionicist to move heavier objects for a longer time. Maximum weight: "
            "10 grams at Poor, 100 grams Mediocre, 1 kilogram Fair, 10 kilograms Good, 100 "
            "kilograms Great, 1 ton or oneself and 100 kilograms Superb."
        ),
    ),
    CatalogPower(
        "Telepathy",
        "field",
        _FIELD_OF_POWER,
        cost=_POTENTIAL,
        range="10 meters (Mediocre) to field of vision (Superb)",
        effect=(
            "This is the art of projecting and perceiving thoughts. Poor Mental screen, "
            "Mediocre Empathy (10 meters), Fair Thoughts reading (20 meters), Good Mind probe "
            "(50 meters), Great Mind control (100 meters), Superb Mind assault (field of "
            "vision)."
        ),
    ),
    CatalogPower(
        "Consciousness",
        "field",
        _FIELD_OF_POWER,
        cost=_POTENTIAL,
        target="self",
        effect=(
            "This is the mastery of the mind over the body, the art of improving one's body "
            "through the use of one's mind. Poor Thermal resistance, Mediocre Accelerated "
            "healing, Fair Suspended animation, Good Regenerating, Great Increased toughness, "
            "Superb Increased coordination."
        ),
    ),
)

# Reference pages, "Equipment: Test and Conflict modifiers" (and VII 2 b, c): weapon cards
# apply toward Attack or Defence; armour cards always and only toward Defence.
EQUIPMENT = (
    CatalogEquipment(
        "Light Weapon",
        "weapon",
        damage=0,
        note=(
            "+0 card: knife, small bore pistol, .22 rifle; allow lethal wounds and attacking "
            "from a distance"
        ),
    ),
    CatalogEquipment("Medium Weapon", "weapon", damage=1, note="+1 card: sword, pistol, carbine"),
    CatalogEquipment("Heavy Weapon", "weapon", damage=2, note="+2 cards: pole axe, rifle, shotgun"),
    CatalogEquipment(
        "Massive Weapon", "weapon", damage=3, note="+3 cards: boulder, grenade, .50 BMG"
    ),
    CatalogEquipment("Light Armour", "armour", armour=1, note="+1 card: leather"),
    CatalogEquipment(
        "Medium Armour",
        "armour",
        armour=2,
        note='+2 cards: chain mail, breastplate, Kevlar "bullet-proof" vest',
    ),
    CatalogEquipment(
        "Heavy Armour", "armour", armour=3, note="+3 cards: full plate, anti-rifle armour"
    ),
    CatalogEquipment("Shield", "shield", armour=1, note="Option: Shields, +1 Defence card"),
)

# MicroFudged's named fields of power are powers a character takes, not kinds of power:
# the note lists them for the GM and the players.
POWER_KIND_NOTES = {"field": "Psionic fields of power (DIP VIII.1): " + ", ".join(FIELDS_OF_POWER)}

DIP_CATALOG = Catalog(
    attributes=ABILITIES,
    skills=FIELDS,
    equipment=EQUIPMENT,
    power_kinds=("field",),
    powers=POWERS,
    section="MicroFudged DIP III",
    power_kind_notes=POWER_KIND_NOTES,
)

# Streamlined MicroFudged character creation (VIII 3): the same lists, the four abilities
# fixed.
STREAMLINED_CATALOG = Catalog(
    attributes=ABILITIES,
    skills=FIELDS,
    equipment=EQUIPMENT,
    power_kinds=("field",),
    powers=POWERS,
    section="MicroFudged DIP VIII 3",
    power_kind_notes=POWER_KIND_NOTES,
)
