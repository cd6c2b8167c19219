"""Mudge reference data (Mudge 1.0, Mook's Fudge, 2001): the lists a GM picks traits from.

Transcribed from the rule text (rules-sources 002_*.txt):

- attributes: Mudge 1.31, in the text's order, without Scale (rated as numbers, kept
  separately) and without the optional Mana (with Magery) and Psyche (with Psionic);
- skills: the sample list of Mudge 1.32, sorted; difficulty from the marks (E), (H), (VH),
  unmarked average; " (type)" stripped from the name and its examples kept in ``note``;
- gifts and faults: the sample lists of Mudge 1.33 and 1.34, starred ones worth 2;
- equipment: the weapon and armour classes of Mudge 4.54 and the swords of Mudge 6.6;
- powers: the sample spells, psi abilities, superpowers and cybernetics of Mudge 2.53,
  2.73, 2.82 and 2.91;
- templates: the class and race templates of Mudge 6.4.

Standard library only: no Django here.
"""

from rules.catalog import (
    Catalog,
    CatalogEquipment,
    CatalogFault,
    CatalogGift,
    CatalogPower,
    CatalogSkill,
    Template,
)

# Extra attributes a character gains with a gift (Mudge 1.31, 2.x): Mana with Magery,
# Psyche with Psionic.
MANA = "Mana"
PSYCHE = "Psyche"

# Mudge 1.31, in the text's order (Scale, listed between Speed and Intelligence, is left out).
# The Mudge ruleset fixes its attributes to this list, so the catalogue and the pricing can
# never disagree.
ATTRIBUTES = (
    "Strength",
    "Dexterity",
    "Constitution",
    "Speed",
    "Intelligence",
    "Willpower",
    "Perception",
)

# Mudge 1.32. (E) easy, (H) hard, (VH) very_hard, unmarked average.
SKILLS = (
    CatalogSkill("Acrobatics", "hard"),
    CatalogSkill("Acting"),
    CatalogSkill("Alchemy", "very_hard"),
    CatalogSkill("Animal Handling"),
    CatalogSkill("Area Knowledge", "easy", note="type"),
    CatalogSkill("Artist", note="type: painter, sculptor, etc."),
    CatalogSkill("Astrogation"),
    CatalogSkill("Blind Fighting", "very_hard"),
    CatalogSkill("Calligraphy"),
    CatalogSkill("Climbing"),
    CatalogSkill("Computer Hacking", "very_hard"),
    CatalogSkill("Computer Operation"),
    CatalogSkill("Computer Programming", "hard"),
    CatalogSkill("Cooking"),
    CatalogSkill(
        "Craft",
        "hard",
        note="type: blacksmith, silversmith, leatherworking, weaving, woodworking, etc.",
    ),
    CatalogSkill("Cryptology", "hard"),
    CatalogSkill("Cyberdeck Operation"),
    CatalogSkill("Dancing"),
    CatalogSkill("Demolition", "hard"),
    CatalogSkill("Diplomacy"),
    CatalogSkill("Disguise"),
    CatalogSkill("Dodge"),
    CatalogSkill("Driving", "easy", note="type"),
    CatalogSkill("Ecology"),
    CatalogSkill("Electronic Operation", note="type"),
    CatalogSkill("Electronics", "hard", note="type"),
    CatalogSkill("Escape", "hard"),
    CatalogSkill("Falconry"),
    CatalogSkill("Fast Talk"),
    CatalogSkill("Fast-Draw", "easy", note="type"),
    CatalogSkill("First Aid", "easy"),
    CatalogSkill("Fishing"),
    CatalogSkill("Flight"),
    CatalogSkill("Forgery", "very_hard"),
    CatalogSkill("Free Fall"),
    CatalogSkill("Gambling"),
    CatalogSkill(
        "Gun",
        "easy",
        note="type: pistol, rifle, smg, assault rifle, machine gun, tangler, etc.",
    ),
    CatalogSkill("Heraldry"),
    CatalogSkill("History"),
    CatalogSkill("Holdout"),
    CatalogSkill("Hypnotism"),
    CatalogSkill("Illusion Art"),
    CatalogSkill("Intelligence Analysis", "hard"),
    CatalogSkill("Interrogation"),
    CatalogSkill("Intimidation"),
    CatalogSkill("Jeweler", "hard"),
    CatalogSkill("Language", note="type"),
    CatalogSkill("Law", "hard"),
    CatalogSkill("Linguistics"),
    CatalogSkill("Lip Reading"),
    CatalogSkill("Literature"),
    CatalogSkill("Lockpicking"),
    CatalogSkill("Magic Breath"),
    CatalogSkill("Magic Jet"),
    CatalogSkill("Mechanic", note="type: car, truck, boat, starship, etc."),
    CatalogSkill("Meditation"),
    CatalogSkill("Musical Instrument", note="type"),
    CatalogSkill("Navigation"),
    CatalogSkill("Occultism"),
    CatalogSkill("Orienteering"),
    CatalogSkill("Parachuting"),
    CatalogSkill("Parry Missile Weapons", "very_hard"),
    CatalogSkill("Performance", note="type"),
    CatalogSkill("Philosophy"),
    CatalogSkill("Photography"),
    CatalogSkill("Pickpocket", "hard"),
    CatalogSkill("Poetry"),
    CatalogSkill("Poisons", "hard"),
    CatalogSkill("Politics"),
    CatalogSkill("Profession", note="type: accountant, farmer, soldier, taxi driver, etc."),
    CatalogSkill("Prospecting"),
    CatalogSkill("Repair", note="type"),
    CatalogSkill("Research"),
    CatalogSkill("Riding", note="type"),
    CatalogSkill(
        "Science",
        "hard",
        note="type: psychology, economics, engineering, genetics, chemistry, biology, astronomy",
    ),
    CatalogSkill("Scrounging"),
    CatalogSkill("Seduction"),
    CatalogSkill("Shadowing"),
    CatalogSkill("Shield"),
    CatalogSkill("Sign Language"),
    CatalogSkill("Sleight of Hand", "hard"),
    CatalogSkill("Speed Load", "easy", note="type"),
    CatalogSkill("Spell Throwing"),
    CatalogSkill("Sports", note="type: golfing, skiing, football"),
    CatalogSkill("Stealth"),
    CatalogSkill("Surgery", "very_hard"),
    CatalogSkill("Survival", "easy", note="type"),
    CatalogSkill("Swimming", "easy"),
    CatalogSkill("Tattooing"),
    CatalogSkill("Teaching"),
    CatalogSkill("Theology"),
    CatalogSkill("Throwing"),
    CatalogSkill("Thrown Weapon", note="type"),
    CatalogSkill("Tracking"),
    CatalogSkill("Traps"),
    CatalogSkill("Unarmed Combat", note="type: brawling, karate, judo, etc."),
    CatalogSkill("Veterinary"),
    CatalogSkill("Weapon", note="type: sword, club, mace, staff, etc."),
    CatalogSkill("Writing"),
)

# Mudge 1.33. Starred gifts cost 2; the parenthetical of the text is the note.
GIFTS = (
    CatalogGift("Absolute Direction"),
    CatalogGift("Absolute Timing"),
    CatalogGift("Acute Hearing", note="+1"),
    CatalogGift("Acute Smell/Taste", note="+1"),
    CatalogGift("Acute Vision", note="+1"),
    CatalogGift("Alcohol Tolerance"),
    CatalogGift("Ally", note="varies"),
    CatalogGift("Ambidexterity", note="negates the usual -2 penalty"),
    CatalogGift("Animal Empathy"),
    CatalogGift("Awareness"),
    CatalogGift("Balance"),
    CatalogGift("Blessed"),
    CatalogGift("Catfall"),
    CatalogGift("Clerical Investment"),
    CatalogGift("Collected"),
    CatalogGift("Combat Reflexes", cost=2, note="+1 Offense/+1 Defense"),
    CatalogGift("Daredevil", note="+1 while reckless"),
    CatalogGift("Double Jointed"),
    CatalogGift("Empathy"),
    CatalogGift("Faith"),
    CatalogGift("Fashion Sense"),
    CatalogGift("Fearlessness"),
    CatalogGift("High Pain Threshold", note="+1 Scratch box"),
    CatalogGift("Immunity to Disease"),
    CatalogGift("Knighthood"),
    CatalogGift("Language Talent", note="+1 on language skills"),
    CatalogGift("Legal Enforc. Powers"),
    CatalogGift("Legal Immunity"),
    CatalogGift("Light Hangover"),
    CatalogGift("Literacy"),
    CatalogGift("Luck", cost=2, note="1/hour, best of 3"),
    CatalogGift("Magery", cost=2),
    CatalogGift("Mathematical Ability"),
    CatalogGift("Military Rank"),
    CatalogGift("Musical Ability"),
    CatalogGift("No Hangover"),
    CatalogGift("Patron", note="varies"),
    CatalogGift("Peripheral Vision"),
    CatalogGift("Photographic Memory", cost=2),
    CatalogGift("Pious"),
    CatalogGift("Psionic", cost=2),
    CatalogGift("Rapid Healing"),
    CatalogGift("Rapier Wit"),
    CatalogGift("Reduced Sleep"),
    CatalogGift("Reputation", note="varies"),
    CatalogGift("Resistant to Poison", note="+1 to Con. vs. poison"),
    CatalogGift("Sharpshooter", note="+1 Ranged"),
    CatalogGift("Status", note="varies"),
    CatalogGift("Voice"),
    CatalogGift("Wealth"),
)

# Mudge 1.34. Starred faults are worth 2; the parenthetical of the text is the note.
FAULTS = (
    CatalogFault("Absent Mindedness"),
    CatalogFault("Addiction", note="varies"),
    CatalogFault("Age"),
    CatalogFault("Albinism"),
    CatalogFault("Alcoholism"),
    CatalogFault("Amnesia"),
    CatalogFault("Bad Temper"),
    CatalogFault("Berserk"),
    CatalogFault("Blindness", value=2),
    CatalogFault("Bloodlust"),
    CatalogFault("Bully"),
    CatalogFault("Callous"),
    CatalogFault("Charitable"),
    CatalogFault("Chauvinistic"),
    CatalogFault("Chronic Depression"),
    CatalogFault("Code of Honor", note="varies"),
    CatalogFault("Color Blindness"),
    CatalogFault("Combat Paralysis", note="Fair Will roll or be Stunned"),
    CatalogFault("Compulsive Behavior"),
    CatalogFault("Cowardice"),
    CatalogFault("Curious"),
    CatalogFault("Cursed", value=2),
    CatalogFault("Deafness"),
    CatalogFault("Delusions", note="varies"),
    CatalogFault("Dependent", note="varies"),
    CatalogFault("Duty", note="varies"),
    CatalogFault("Dwarfism"),
    CatalogFault("Edgy"),
    CatalogFault("Enemy", note="varies"),
    CatalogFault("Epilepsy"),
    CatalogFault("Eunuch"),
    CatalogFault("Extra Sleep"),
    CatalogFault("Fanaticism"),
    CatalogFault("Fat"),
    CatalogFault("Flashbacks", note="varies"),
    CatalogFault("Gigantism"),
    CatalogFault("Glory Hound"),
    CatalogFault("Gluttony"),
    CatalogFault("Greed"),
    CatalogFault("Gullibility"),
    CatalogFault("Hemophilia"),
    CatalogFault("Honesty", note="varies"),
    CatalogFault("Horrible Hangovers"),
    CatalogFault("Illiteracy"),
    CatalogFault("Impulsiveness"),
    CatalogFault("Intolerance"),
    CatalogFault("Jealousy"),
    CatalogFault("Kleptomania"),
    CatalogFault("Klutz"),
    CatalogFault("Lame"),
    CatalogFault("Laziness"),
    CatalogFault("Lecherousness"),
    CatalogFault("Low Pain Threshold", note="-1 Scratch box"),
    CatalogFault("Migraines"),
    CatalogFault("Miserliness"),
    CatalogFault("Missing Digit"),
    CatalogFault("Motion Sickness"),
    CatalogFault("Mute"),
    CatalogFault("Night Blindness"),
    CatalogFault("Nightmares"),
    CatalogFault("No Sense of Humor"),
    CatalogFault("Nosy"),
    CatalogFault("Obnoxious Drunk"),
    CatalogFault("Obsession", note="varies"),
    CatalogFault("Odious Personal Habit"),
    CatalogFault("On the Edge"),
    CatalogFault("One Arm"),
    CatalogFault("One Eye"),
    CatalogFault("One Hand"),
    CatalogFault("Overconfidence"),
    CatalogFault("Pacifism", note="varies"),
    CatalogFault("Paranoia"),
    CatalogFault("Phobias", note="varies"),
    CatalogFault("Post Combat Shakes"),
    CatalogFault("Reputation", note="varies"),
    CatalogFault("Sadism"),
    CatalogFault("Secret", note="varies"),
    CatalogFault("Selfish"),
    CatalogFault("Sense of Duty"),
    CatalogFault("Shyness"),
    CatalogFault("Skinny"),
    CatalogFault("Sleepwalker"),
    CatalogFault("Slow Healing"),
    CatalogFault("Social Stigma", note="varies"),
    CatalogFault("Split Personality"),
    CatalogFault("Status", note="varies"),
    CatalogFault("Sterile"),
    CatalogFault("Stubbornness"),
    CatalogFault("Terminally Ill"),
    CatalogFault("Truthfulness"),
    CatalogFault("Unluckiness", value=2),
    CatalogFault("Vow", note="varies"),
    CatalogFault("Weirdness Magnet"),
)

# Mudge 4.54 (Offensive Factors: Weapon Value; Defensive Factors: Armor Value), then the
# concrete items of Mudge 6.6 Equipment Examples.
EQUIPMENT = (
    # Mudge 4.54, Weapon Value
    CatalogEquipment("Unarmed, no Martial Arts skill", "weapon", damage=-1),
    CatalogEquipment(
        "Unarmed, with Martial Arts skill", "weapon", damage=0, note="Judo, Boxing, Karate, etc."
    ),
    CatalogEquipment(
        "Small Weapon", "weapon", damage=1, note="knife, brass knuckles, club, derringers, etc."
    ),
    CatalogEquipment(
        "Medium Weapon",
        "weapon",
        damage=2,
        note="sword, axe, longbow, crossbow, most pistols, etc.",
    ),
    CatalogEquipment(
        "Large Weapon",
        "weapon",
        damage=3,
        note="polearm, trident, most rifles, some pistols, etc.",
    ),
    CatalogEquipment(
        "Huge Weapon",
        "weapon",
        damage=4,
        note="small ballista, some rifles, mortars, grenades, etc. (in parentheses in the text)",
    ),
    # Mudge 4.54, Armor Value
    CatalogEquipment(
        "Ineffective/Unarmored", "armour", armour=0, note="same as wearing normal clothing"
    ),
    CatalogEquipment("Somewhat Effective", "armour", armour=2),
    CatalogEquipment("Effective", "armour", armour=4),
    CatalogEquipment("Very Effective", "armour", armour=6),
    CatalogEquipment(
        "Impervious",
        "armour",
        armour=8,
        note=(
            "the weapon has almost no chance of damaging the defender (in parentheses in the text)"
        ),
    ),
    # Mudge 6.6, Equipment Examples: the swords (a sword is a Medium Weapon, +2, in 4.54)
    CatalogEquipment(
        "Old Battered Sword",
        "weapon",
        damage=1,
        note=(
            "Mudge 6.6: treated as a club for damage (Small Weapon +1), no Sharpness bonus; "
            "Sharpness: Terrible, Durability: Poor; fault: Looks Shabby; breaks on a Mediocre "
            "or worse Situational roll from parrying or being parried"
        ),
    ),
    CatalogEquipment(
        "Sword (when new)",
        "weapon",
        damage=3,
        note=(
            "Mudge 6.6: the same sword when new: sword +2 and perhaps +1 to damage for "
            "Sharpness; Sharpness: Good, Sturdiness: Great; gift: Beautifully Made; never "
            "breaks under ordinary circumstances"
        ),
    ),
    CatalogEquipment(
        "Bejeweled Magic Sword",
        "weapon",
        damage=2,
        note=(
            "Mudge 6.6: sword +2; Appearance: Superb (+3 to impress those who value wealth); "
            "gift: Troll-slaying (+3 to hit when fighting Trolls; such wounds will never heal); "
            "fault: Dedicated Purpose (it tries to control the wielder to hunt trolls); "
            "skill: Dominate Wielder: Fair (Opposed action against a Will attribute)"
        ),
    ),
    CatalogEquipment(
        "Flaming Magic Sword",
        "weapon",
        damage=2,
        note=(
            "Mudge 6.6 ('a different magic sword'): a regular sword, +2; supernormal power: "
            "Flame Creation (+2 damage); skill: Flame Shooting: Great, range three yards "
            "(meters); fault: Flame Creation only works on a Good or better Situational roll"
        ),
    ),
)

# Mudge 2.53, 2.73, 2.82 and 2.91, transcribed line by line from the text's spell form
# (2.52): the name with its difficulty (VH very hard, H hard), then Cost (what one use lowers
# Mana or Psyche by, 2.51 and 2.71; an attribute for superpowers, 2.81), Target, DF,
# Range, Duration and the Effect's paragraph (the examples are left in the book).
POWERS = (
    CatalogPower(
        "Fireball",
        "spell",
        "Mudge 2.53",
        difficulty="very_hard",
        cost="1",
        target="1 target within range; 1 additional target per extra mana",
        damage_factor="+2 ODF; +1 per extra mana",
        range="Far, Very Far for +1 mana, target must be seen (max. Very Far)",
        duration="instant",
        effect=(
            "This spell will inflict damage on any target it successfully hits (in addition to "
            "the normal difference between the characters' relative degrees). The mage's Mana "
            "level is also factored in to damage. Normal armor, Constitution and Mass scale "
            "apply. The usual Opposed Action will be Fireball skill vs. Dodge or Weapon skill."
        ),
    ),
    CatalogPower(
        "Mystic Shield",
        "spell",
        "Mudge 2.53",
        difficulty="hard",
        cost="1",
        target="1 target within range; 1 additional target per extra mana",
        damage_factor="+2 DDF; +1 per extra mana; effective against magic attacks for 2 extra mana",
        range="Touch, Near for 1 extra mana or Far for 2 extra mana (max. range)",
        duration=(
            "1 hour, +1 per extra mana; each successful attack reduces this time by 10 minutes"
        ),
        effect=(
            "This spell will grant a +2 DDF to any target it is successfully cast upon for 1 "
            "hour. This bonus applies to all physical attacks, but not to magical energy unless "
            "the 2 extra mana are spent. The spell's bonus is in addition to any DDF from armor. "
            "The mage's Mana level is not counted."
        ),
    ),
    CatalogPower(
        "Root",
        "spell",
        "Mudge 2.53",
        difficulty="hard",
        cost="1",
        target="1 target within range; 1 additional target per extra mana",
        damage_factor="not applicable",
        range="Near, Far for 1 extra mana (max. range)",
        duration="1 round + relative degree, +1 round per extra mana, +1 round/mage's Mana level",
        effect=(
            "When this spell is successfully cast its target(s) must succeed at a Good Strength "
            "check (one try each round) or have his feet rooted to the ground for 1 combat round "
            "+ the relative degree rolled (or more, if extra mana is spent) + the mage's current "
            "Mana level. This Strength check can be made more difficult by 1 level per 1 extra "
            "mana."
        ),
    ),
    CatalogPower(
        "Clairvoyance",
        "psi",
        "Mudge 2.73",
        difficulty="very_hard",
        cost="1",
        target="a 10' cube, +10' per extra Psyche",
        damage_factor="not applicable",
        range=(
            "Far, Very Far +1, Several Miles +2, Dozens of Miles +3, Hundreds of Miles +4 Psyche,"
            " etc; these costs are lowered by 1 for each (current) level of Psyche"
        ),
        duration="1 minute, +1 minute per extra Psyche",
        effect=(
            "This ability allows the psionicist to mentally 'see' an area from a distance. The "
            "difficulty level of using this ability is determined by how well the psionicist "
            "knows the area he wishes to view (the text's table of difficulties follows)."
        ),
    ),
    CatalogPower(
        "Telepathy",
        "psi",
        "Mudge 2.73",
        difficulty="hard",
        cost="1",
        target="1 target within range; 1 additional target per extra Psyche",
        damage_factor="not applicable",
        range=(
            "Far, Very Far +1, Several Miles +2, Dozens of Miles +3, Hundreds of Miles +4 Psyche,"
            " etc. these costs are lowered by 1 for each (current) level of Psyche"
        ),
        duration="1 minute, +1 minute per extra Psyche",
        effect=(
            "This ability allows the psionist to mentally speak mind-to-mind with another being. "
            "The difficulty level of using this ability is determined by how well the psionist "
            "knows the person he wishes to communicate with (the text's table of difficulties "
            "follows)."
        ),
    ),
    CatalogPower(
        "Psi Blast",
        "psi",
        "Mudge 2.73",
        difficulty="very_hard",
        cost="2",
        target="1 target within range, +1 target per 2 extra Psyche",
        damage_factor="not applicable",
        range="Near, Far for 1 extra Psyche, Very Far for 2 extra Psyche (max. range)",
        duration="instant",
        effect=(
            "Successfully using this ability requires an Opposed Action of the psionist's Psi "
            "Blast skill vs. the target's Willpower or Intelligence, whichever is lower. If the "
            "target is also psionic, he may choose to use his own Psyche attribute in the Action."
            " If successful this ability will lower the target's attribute (Willpower, "
            "Intelligence, or Psyche) by 2 + relative degree + attacker's current Psyche level. "
            "If a target's attribute ever reaches Terrible he must make a Good attribute check or"
            " go into mental shock and simply stand there until his attribute regenerates to Fair"
            " (or its normal level, if lower). For purposes of this recovery, an attribute will "
            "regenerate 1 level each combat round."
        ),
    ),
    CatalogPower(
        "Flight",
        "superpower",
        "Mudge 2.82",
        cost="0 (can be used at will)",
        target="self only",
        damage_factor="not applicable",
        range="not applicable",
        duration=(
            "after six hours of continuous flight, each further hour lowers Constitution one level"
        ),
        effect=(
            "This superpower allows the character to fly. Maximum speed and altitude are "
            "determined by the GM and character. This superpower covers the ability to fly from "
            "one point to another- if the character needs to attempt complex maneuvers while "
            "airborne the Flying skill should be used to determine success or failure. If a "
            "character flies so long his Constitution reaches Terrible, he must make a Fair "
            "attribute check; failure results in unconsciousness; Terrible -1 is automatic "
            "unconsciousness."
        ),
    ),
    CatalogPower(
        "Wall Crawling",
        "superpower",
        "Mudge 2.82",
        cost="0 (can be used at will)",
        target="self only",
        damage_factor="not applicable",
        range="not applicable",
        duration="always on",
        effect=(
            "This superpower allows the character to crawl along normal walls and ceilings. The "
            "GM will decide if any specific surfaces are too slippery to properly traverse, or "
            "require some kind of attribute check."
        ),
    ),
    CatalogPower(
        "Bioenergy Blast",
        "superpower",
        "Mudge 2.82",
        cost="0",
        target="1",
        damage_factor="+3 ODF, +1 per Constitution levels spent",
        range="Far",
        duration="instant",
        effect=(
            "This superpower allows the character to fire Bioenergy Blasts from his hands. Each "
            "blast inflicts damage on any target successfully struck. Normal armor and Mass scale"
            " apply to the target's DDF."
        ),
    ),
    CatalogPower(
        "Claws",
        "superpower",
        "Mudge 2.91",
        cost="not applicable",
        target="any in melee combat",
        damage_factor="+3 ODF",
        range="melee only",
        duration="always available",
        effect=(
            "These cybernetics graft retractable weapons to a character's hand; they can be used "
            "normally in combat, in effect nothing more than an undroppable sword."
        ),
        group="cybernetics",
    ),
    CatalogPower(
        "Cybervision",
        "superpower",
        "Mudge 2.91",
        cost="not applicable",
        target="not applicable",
        damage_factor="not applicable",
        range="human norm, or better",
        duration="always available",
        effect=(
            "This cybernetic eye replaces a character's organic eye, and allows him to see things"
            " in more detail, at a greater range and/or at different frequencies. (Details vary "
            "with the 'model' chosen)."
        ),
        group="cybernetics",
    ),
    CatalogPower(
        "Smartlink",
        "superpower",
        "Mudge 2.91",
        cost="not applicable",
        target="any missile weapon target",
        damage_factor=(
            "+1 or +2 to missile weapon skill when Smartlink is engaged (bonus depends on the "
            "'model' chosen)."
        ),
        range="not affected",
        duration="always available",
        effect=(
            "This cybernetic brain implant allows the character to be much more skilled with any "
            "weapon that has been 'smartlinked'. The weapon's onboard computer chip feeds "
            "information to the character's smartlink chip, and this information is used to "
            "increase the weapon's accuracy. Smartlinked weapons are much more expensive and "
            "fragile than their standard counterparts."
        ),
        group="cybernetics",
    ),
)

CATALOG = Catalog(
    attributes=ATTRIBUTES,
    skills=SKILLS,
    gifts=GIFTS,
    faults=FAULTS,
    equipment=EQUIPMENT,
    power_kinds=("spell", "psi", "superpower"),
    powers=POWERS,
    section="Mudge 1.31-1.34",
)


# Mudge 6.42: notes shared by every broad class template.
_BROAD_CLASS_NOTES = (
    "Broad class template: the keys are broad attribute and skill groups, not single traits, "
    "and the levels are the levels the class gets in them (Mudge 6.42).",
    "Each character class has unlisted Knowledge skills appropriate to its class.",
    "Some skills could fall under more than one heading: a rogue would be Great at climbing "
    "(a Covert skill for him); moving quietly is a Covert skill, but a fighter would be Fair "
    "at it, and a ranger Great.",
)

TEMPLATES: tuple[Template, ...] = (
    Template(
        slug="ranger",
        name="Ranger",
        kind="class",
        section="Mudge 6.41",
        description=(
            "Fantasy character class, a sample template the GM should customize. An apprentice "
            "is one or two levels less than a full ranger in any given attribute or skill."
        ),
        minimum_attributes={
            "Dexterity": "Good",
            "Intelligence": "Fair",
            "Perception": "Good",
            "Strength": "Good",
        },
        minimum_skills={
            "Area Knowledge": "Fair",
            "Bow": "Good",
            "Climbing": "Fair",
            "Mimic Animal Sounds": "Fair",
            "Move Quietly": "Good",
            "Riding": "Fair",
            "Scouting": "Fair",
            "Spear or Sword": "Good",
            "Survival": "Good",
            "Woods Lore": "Good",
        },
        recommended_gifts=(
            "Animal Empathy",
            "Absolute Direction",
            "Combat Reflexes",
            "Night Vision",
        ),
        notes=(
            "Gifts: none mandatory; recommended also: other combat gifts.",
            "Faults: a ranger should not be the type of person who dislikes being alone. Some "
            "rangers work for the authorities, which might imply a Duty and/or a Vow of "
            "Obedience.",
            "Scouting is the skill of observing and remembering.",
            "Spear or Sword: Good or better in one of the two.",
            "Intelligence, Willpower and Speed are listed a second time with no level: no minimum.",
        ),
    ),
    Template(
        slug="beginning-fighter",
        name="Beginning Fighter",
        kind="class",
        section="Mudge 6.42",
        broad=True,
        minimum_attributes={
            "Physical Attributes": "Great",
            "Mental Attributes": "Mediocre",
            "Psyche Attributes": "Poor",
        },
        minimum_skills={
            "Animal Skills": "Mediocre",
            "Athletic skills": "Great",
            "Combat skills": "Great",
            "Outdoor skills": "Fair",
            "Social skills (Fellowship)": "Fair",
            "All other skills": "Poor",
        },
        notes=(
            *_BROAD_CLASS_NOTES,
            "A fighter has Good Knowledge of tactics, determining weapon quality, judging how "
            "well-trained an army is by observing it for a while, etc.",
        ),
    ),
    Template(
        slug="beginning-ranger",
        name="Beginning Ranger",
        kind="class",
        section="Mudge 6.42",
        broad=True,
        minimum_attributes={
            "Physical Attributes": "Good",
            "Mental Attributes": "Fair",
            "Psyche Attributes": "Poor",
        },
        minimum_skills={
            "Animal Skills": "Good",
            "Athletic skills": "Fair",
            "Combat skills": "Good",
            "Covert skills": "Fair",
            "Craft skills": "Fair",
            "Outdoor skills": "Great",
            "All other skills": "Poor",
        },
        notes=_BROAD_CLASS_NOTES,
    ),
    Template(
        slug="beginning-rogue",
        name="Beginning Rogue",
        kind="class",
        section="Mudge 6.42",
        broad=True,
        minimum_attributes={
            "Physical Attributes": "Fair",
            "Mental Attributes": "Good",
            "Psyche Attributes": "Poor",
        },
        minimum_skills={
            "Athletic skills": "Fair",
            "Combat skills": "Mediocre",
            "Covert skills": "Great",
            "Manipulative skills": "Great",
            "Merchant skills": "Fair",
            "Social skills (Fellowship)": "Mediocre",
            "Urban skills": "Good",
            "All other skills": "Poor",
        },
        notes=(
            *_BROAD_CLASS_NOTES,
            "A rogue has Good Knowledge of types of locks, how many guards a wealthy merchant "
            "might have, the value of a given material for disguising oneself, etc.",
        ),
    ),
    Template(
        slug="beginning-magician",
        name="Beginning Magician",
        kind="class",
        section="Mudge 6.42",
        broad=True,
        minimum_attributes={
            "Physical Attributes": "Poor",
            "Mental Attributes": "Good",
            "Psyche Attributes": "Fair",
        },
        minimum_skills={
            "Craft skills": "Mediocre",
            "Knowledge skills": "Fair",
            "Spiritual skills": "Fair",
            "Supernormal Power skills": "Great",
            "All other skills": "Poor",
        },
        required_gifts=("Supernormal Power",),
        notes=_BROAD_CLASS_NOTES,
    ),
    Template(
        slug="beginning-cleric",
        name="Beginning Cleric",
        kind="class",
        section="Mudge 6.42",
        broad=True,
        minimum_attributes={
            "Physical Attributes": "Poor",
            "Mental Attributes": "Fair",
            "Psyche Attributes": "Great",
        },
        minimum_skills={
            "Animal Skills": "Fair",
            "Craft skills": "Mediocre",
            "Knowledge skills": "Fair",
            "Medical skills": "Good",
            "Social skills (Formal)": "Good",
            "Spiritual skills": "Great",
            "Supernormal Power skills": "Fair",
            "All other skills": "Poor",
        },
        required_gifts=("Divine Favor",),
        notes=_BROAD_CLASS_NOTES,
    ),
    Template(
        slug="beginning-diplomat-scholar",
        name="Beginning Diplomat/Scholar",
        kind="class",
        section="Mudge 6.42",
        broad=True,
        minimum_attributes={
            "Physical Attributes": "Poor",
            "Mental Attributes": "Great",
            "Psyche Attributes": "Mediocre",
        },
        minimum_skills={
            "Artistic skills": "Mediocre",
            "Knowledge skills": "Great",
            "Language skills": "Good",
            "Manipulative skills": "Good",
            "Medical skills": "Fair",
            "Social skills (Fellowship)": "Mediocre",
            "Social skills (Formal)": "Great",
            "Spiritual skills": "Mediocre",
            "Technical skills": "Mediocre",
            "All other skills": "Poor",
        },
        notes=_BROAD_CLASS_NOTES,
    ),
    Template(
        slug="beginning-jack-of-all-trades",
        name="Beginning Jack of All Trades",
        kind="class",
        section="Mudge 6.42",
        broad=True,
        minimum_attributes={
            "Physical Attributes": "Fair",
            "Mental Attributes": "Fair",
            "Psyche Attributes": "Mediocre",
        },
        minimum_skills={
            "Animal Skills": "Mediocre",
            "Artistic skills": "Mediocre",
            "Athletic skills": "Mediocre",
            "Combat skills": "Fair",
            "Covert skills": "Mediocre",
            "Craft skills": "Mediocre",
            "Knowledge skills": "Mediocre",
            "Manipulative skills": "Mediocre",
            "Merchant skills": "Mediocre",
            "Outdoor skills": "Fair",
            "Social skills (Fellowship)": "Good",
            "Social skills (Formal)": "Mediocre",
            "Spiritual skills": "Mediocre",
            "Technical skills": "Mediocre",
            "Urban skills": "Fair",
        },
        notes=_BROAD_CLASS_NOTES,
    ),
    Template(
        slug="cercopes",
        name="Cercopes",
        kind="race",
        section="Mudge 6.43",
        description=(
            "Fantasy race from Greek mythology (singular: cercop): small, apish humanoids with "
            "a prehensile tail who love to play tricks and pranks; born thieves."
        ),
        # The text gives no Scale for cercopes (about four feet, 120 cm, high): 0 / 0.
        scale_strength=0,
        scale_mass=0,
        racial_bonuses={
            "Strength": -1,
            "Dexterity": 1,
            "Acrobatics": 1,
            "Move Quietly": 1,
            "Climbing": 1,
            "Fast Talk": 1,
        },
        required_gifts=(
            "Exceptional Balance",
            "Ability to Land on their Feet",
            "Prehensile Tail",
        ),
        required_faults=(
            "Impulsiveness",
            "Compulsive Joker",
            "Kleptomania",
            "Unattractive Appearance",
            "Bad Reputation",
        ),
        notes=(
            "Racial bonuses are applied to the character's levels, written relative to "
            "humans (Mudge 2.35): Strength one lower, Dexterity and the four skills one "
            "higher, each costing (or giving back) a level as any other.",
            "The average cercop has a Mediocre Strength but a Good Dexterity; their "
            "intelligence runs the same range as humans.",
            "Exceptional Balance: +2 to any action requiring balance, even in difficult "
            "situations.",
            "Ability to Land on their Feet: no harm from twice the distance a human could.",
            "Prehensile Tail: strong enough to be used in combat and to aid in climbing, but no "
            "fine manipulation (such as picking a lock).",
            "Impulsiveness: act first, think later. Compulsive Jokers: practical and otherwise. "
            "Unattractive Appearance: to other races. Bad Reputation: as Thieves and "
            "Tricksters.",
            "-1 penalty to use any weapon of Medium size or bigger.",
            "The net result is that it counts as a fault to be a Cercop.",
            "Kleptomania can be bought off with the gift Not a Kleptomaniac (costs one gift, "
            "which would nullify the free fault level); Unattractive Appearance and Bad "
            "Reputation cannot be bought off.",
            "A cercop may take the fault No Tail (perhaps lost in battle), e.g. to get levels to "
            "overcome the -1 penalty to medium and large weapons.",
            "Cercopes speak their own language and need to learn another to speak with the "
            "rest of the party.",
            "No Scale is given in the text (a cercop stands about four feet, 120 cm, high).",
        ),
    ),
    Template(
        slug="halfling",
        name="Halfling",
        kind="race",
        section="Mudge 2.35, 6.3",
        description=(
            "The halfling of Mudge 2.35 and of the sample Brogo the Scout (6.3), which 2.35 "
            "names as its example of both a racial bonus and a different Scale."
        ),
        scale_strength=-2,
        scale_mass=-2,
        # 2.35: "she can give them a +1 bonus to Constitution: halfling Fair Constitution
        # equals human Good Constitution".
        racial_bonuses={"Constitution": 1},
        # Brogo's sheet lists the race among his faults, as priced there.
        required_faults=("Halfling (scale -2, bonus to Constitution)",),
        notes=(
            "Scale -2 Strength and Mass, as on Brogo's sheet: Strength is written relative to "
            "the halfling, with the Scale (2.35).",
            "Constitution +1: written relative to humans (Brogo's 'Good (Half. Fair)'); the "
            "bonus costs an attribute level as any other (2.35).",
            "Brogo's sheet takes the race as a fault. Mudge 2.34 prices only increased Scale: "
            "a GM who also counts Mass Scale -2 as two Easily Wounded faults (the house rule "
            "that a Scale below 0 gives levels back) credits the race twice.",
        ),
    ),
)
