"""The built-in rulesets, as data. Everything that differs between rulesets is a field of
`Ruleset`: budgets and costs, limits, what the lists and points are called, how harm is
recorded on the sheet, the seed catalogue and templates, advancement costs. A campaign's
house rules replace some of these numbers (house_rules.py); pricing and validation
(report/), pages and sheets read nothing but these fields, so a new ruleset is a new
`Ruleset(...)` in `BUILTIN` and nothing else (docs/rules-engine.md, "Adding a ruleset").

Two systems share the dataclass: "levels" (Fudge, Mudge: free attribute and skill levels,
gifts and faults, traded at 1.64's rates) and "tokens" (MicroFudged: one pool of tokens).
"""

from dataclasses import dataclass, field
from fractions import Fraction

from rules.catalog import Catalog, Template
from rules.catalogues import fudge_basics, microfudged, mudge
from rules.game_parts import Derived, Prerequisite, Tracker
from rules.ladder import (
    ABYSMAL,
    FAIR,
    GOOD,
    GREAT,
    MEDIOCRE,
    POOR,
    STANDARD,
    SUPERB,
    TERRIBLE,
    Ladder,
)
from rules.words import Noun, plural_count

LEVELS = "levels"
TOKENS = "tokens"
DIFFICULTIES = ("easy", "average", "hard", "very_hard")
LISTS = ("attributes", "skills", "gifts", "faults", "powers")

# Mudge 1.62, "Cost of Skills": the cost of a skill at Fair, by difficulty. Each level up or
# down adds or takes one skill level, so the whole table is FAIR_COST + level.
# Mudge 1.4: the default of a skill by difficulty; very hard skills have none.
MUDGE_SKILL_DEFAULT = {"easy": -1, "average": -2, "hard": -3, "very_hard": None}
MUDGE_SKILL_FAIR_COST = {"easy": 1, "average": 2, "hard": 3, "very_hard": 4}
SKILL_DIFFICULTY = "average"  # a skill with no difficulty given (the character file's default)

# Raising a skill one level, by the level it starts from (Fudge 5.2, Fudge Basics
# "Raising a Skill", Mudge 5.2). Legendary and beyond need the GM's permission.
FUDGE_EXPERIENCE_STEPS = {
    TERRIBLE: 1,
    POOR: 1,
    MEDIOCRE: 1,
    FAIR: 2,
    1: 4,
    GREAT: 8,
    SUPERB: 16,
    SUPERB + 1: 30,
}
FUDGE_EXPERIENCE_BEYOND = 50  # each further level of Legendary
# Streamlined MicroFudged "Raising Fields": Terrible->Poor 3 ... Great->Superb 24 tokens.
STREAMLINED_FIELD_STEPS = {TERRIBLE: 3, POOR: 3, MEDIOCRE: 3, FAIR: 6, 1: 12, GREAT: 24}


@dataclass(frozen=True)
class Advancement:
    """Development costs. A cost left None is one the ruleset does not give."""

    unit: str  # "EP", "XP", "token"
    section: str
    skill_steps: dict[int, int] | None = None  # from-level -> cost; None: one unit a rank
    attribute_multiplier: int = 1
    beyond: int | None = None  # each level past the last step
    gm_permission_from: int | None = None  # raising from this level on needs the GM
    gift: int | None = None
    power: int | None = None
    meta_point: int | None = None
    buy_off_fault: int | None = None
    points_per_unit: int | None = None  # Fudge points that make one EP (Fudge Basics: 3)
    # Flat purchases that need the GM's approval as well as experience (Mudge 5.2, Fudge 5.2).
    gm_approval: tuple[str, ...] = ("gift", "power")


@dataclass(frozen=True)
class WoundLevel:
    """One step of the sheet's damage or setback track."""

    name: str
    damage: str  # what inflicts it: the damage numbers "3,4", "9+", or "2 successes"
    penalty: int  # to every action (or card draw) while it is the worst: 0, -1, -2
    boxes: int


@dataclass(frozen=True)
class Harm:
    """How harm is written on the sheet: a wound track (Fudge, Mudge) or MicroFudged's
    setbacks, and what the damage factors add (Mudge 4.54; Fudge Basics)."""

    title: str  # "Wounds", "Setbacks"
    caused_by: str  # the track's first row: "Damage", "Successes"
    track: tuple[WoundLevel, ...]
    penalty_unit: str = ""  # "" (to every action) or "card" (MicroFudged draws)
    damage_factors: bool = True
    unarmed: int = 0  # the Misc. term of bare hands without a martial art (Mudge 4.54: -1)
    unarmed_trained: int = 0  # ... with one (Mudge 4.54: 0)
    martial_arts: tuple[str, ...] = ()  # skill names that train bare hands
    # Gifts that add a Scratch box and faults that take one (Mudge 1.33, 1.34, 6.3).
    more_scratch: tuple[str, ...] = ()
    fewer_scratch: tuple[str, ...] = ()
    note: str = ""  # a line under the track, e.g. how setbacks heal
    # Mudge 4.61: the attack's fourth die adds to the damage of a hit.
    damage_die: bool = False
    # Mudge 4.56, Graze Severity Table: a win by exactly +1 does at most this wound, by the
    # total damage factor (TDF): (lowest TDF, wound), highest first. () for no grazes.
    graze_limits: tuple[tuple[int, str], ...] = ()


# What a list is called where a ruleset does not name it (MicroFudged has no gifts or
# faults): the levels system's words.
LEVELS_LISTS = {
    "attributes": ("Attributes", "attribute"),
    "skills": ("Skills", "skill"),
    "gifts": ("Gifts", "gift"),
    "faults": ("Faults", "fault"),
    "powers": ("Powers", "power"),
}


@dataclass(frozen=True)
class Terms:
    """What a ruleset calls things, on pages and sheets."""

    # list -> (title, one of them): "attributes" -> ("Abilities", "ability")
    lists: dict[str, tuple[str, str]]
    points: str = ""  # "meta points", "Fudge points"; "" where there are none
    gm: str = "GM"  # MicroFudged: "Narrator"
    cost_unit: str = "skill level"  # a skill's creation cost, in the reference table
    weapon_value: str = "Damage"
    armour_value: str = "Armour"
    equipment_hint: str = ""
    personality_hint: str = ""
    dice_note: str = ""  # what the dice roller adds about the dice (Mudge's damage die)

    def title(self, list_name: str) -> str:
        return self._list(list_name)[0]

    def noun(self, list_name: str) -> str:
        return self._list(list_name)[1]

    def plural(self, list_name: str) -> str:
        return self._list(list_name)[0].lower()

    def _list(self, list_name: str) -> tuple[str, str]:
        return self.lists.get(list_name) or LEVELS_LISTS[list_name]

    def kind(self, kind: str) -> str:
        """A trait's kind as the database and the events name it ("skill", "equipment")
        in this ruleset's words: "field of expertise"."""
        list_name = f"{kind}s"
        return self.noun(list_name) if list_name in LEVELS_LISTS else kind

    def pool_words(self, pool: str) -> tuple[str, str]:
        """What one and many of a budget's pool are called: ("attribute level", "attribute
        levels"), ("knack level", ...) where a GM's game calls skills knacks, ("gift",
        "gifts"), ("token", "tokens")."""
        if pool == "tokens":
            return "token", "tokens"
        if pool in ("attributes", "skills"):
            one = f"{self.noun(pool)} level"
            return one, f"{one}s"
        return self.noun(pool), self.plural(pool)

    def list_noun(self, list_name: str, count: int = 1, **form) -> Noun:
        """What `count` of a list are called, for a sentence: "attribute", "fields of
        expertise" (`capital`, `article`: rules.words.Noun)."""
        return Noun(self.noun(list_name), self.plural(list_name), count, **form)

    def pool_noun(self, pool: str, amount) -> Noun:
        """What `amount` of a pool is counted in, one or many by the amount as
        rules.words.plural_count picks it: "1 boon", "0.5 skill levels"."""
        return Noun(*self.pool_words(pool), plural_count(amount))

    @property
    def point(self) -> str:
        """One of the points: "meta point", "Fudge point"."""
        return self.points.removesuffix("s") if self.points else "meta point"


# The levels system's words, where no ruleset's are at hand: a character file's list keys
# ("skills"), a Foundry export's costs.
STANDARD_TERMS = Terms(LEVELS_LISTS)


@dataclass(frozen=True)
class Ruleset:
    slug: str
    name: str
    system: str  # LEVELS or TOKENS
    unit: str  # the report's unit: "skill level" or "token"
    # Attributes ("abilities" in MicroFudged)
    attribute_names: tuple[str, ...] | None  # a fixed list, or None: the GM's own names
    attribute_default: int
    attribute_cost: int  # per level above the default, in attribute levels or tokens
    # Skills ("fields of expertise" in MicroFudged)
    skill_difficulties: bool  # Mudge prices skills by difficulty (1.62)
    skill_default: int  # default level when difficulty does not set it
    skill_cost: int  # per level (tokens); the levels system uses the 1.62 table
    terms: Terms
    catalog: Catalog  # the lists a campaign starts from; prices gifts and faults with no cost
    named_skill_defaults: dict[str, int] = field(default_factory=dict)
    # Budgets and trade (levels system)
    attribute_levels: int = 0
    skill_levels: int = 0
    free_gifts: Fraction | int = 0
    trade_values: dict[str, Fraction | int] = field(
        default_factory=lambda: {"attribute": 3, "gift": 6, "fault": 6}
    )
    max_lowered_skills: int | None = None
    superpower_cost: Fraction | int = 2  # in gifts (Mudge 2.8)
    # Scale (Mudge 2.34): increases cost levels and gifts; decreases give back only when the
    # GM allows it (negative_scale_refund).
    has_scale: bool = False
    negative_scale_refund: bool = False
    # Tokens (tokens system)
    tokens: int = 0
    power_levels: tuple[int, ...] = ()
    tokens_carried: int | None = None
    must_spend_and_save: bool = False
    power_default: int = ABYSMAL
    # Limits at creation; the GM's own limits (Mudge 1.5; Fudge Basics) default to none
    attribute_caps: dict[int, int] = field(default_factory=dict)  # level -> how many may
    skill_caps: dict[int, int] = field(default_factory=dict)
    cap_trading: bool = False  # Mudge 1.5: "two lower for one higher"
    max_skills: int | None = None
    min_faults: int = 0
    legendary_at_creation: bool = False
    creation_min: int = TERRIBLE
    creation_max: int = SUPERB  # Legendary allowed only with legendary_at_creation
    extra_attributes: tuple[tuple[str, int], ...] = ()  # (name, default level)
    meta_points_start: int = 0
    meta_points_max: int | None = None
    # Mudge 1.7: traits left undefined at creation, defined in play at this level or lower.
    uncommitted_traits: int = 0
    uncommitted_max: int = GOOD
    # Combat on the sheet: the attribute that soaks damage and the one that deals it.
    damage_capacity_attribute: str | None = None
    muscle_attribute: str | None = None
    harm: Harm | None = None
    power_kinds: tuple[str, ...] = ("spell", "psi", "superpower")
    # Mudge 2.5, 2.7: kind -> the gift it needs first; such powers are priced as Hard or Very
    # Hard skills, and the gift opens an extra attribute.
    power_gifts: dict[str, str] = field(default_factory=dict)
    attribute_gifts: dict[str, str] = field(default_factory=dict)  # gift -> attribute
    templates: tuple[Template, ...] = ()
    sections: dict[str, str] = field(default_factory=dict)
    advancement: Advancement | None = None
    description: str = ""  # a line for the GM who picks a ruleset (the ruleset file's)
    ladder: Ladder = STANDARD
    # Skills priced by difficulty (skill_difficulties): the default of each difficulty (None:
    # no default) and the cost at Fair, each level up or down one skill level more or less.
    difficulty_defaults: dict[str, int | None] = field(
        default_factory=lambda: dict(MUDGE_SKILL_DEFAULT)
    )
    difficulty_costs: dict[str, int] = field(default_factory=lambda: dict(MUDGE_SKILL_FAIR_COST))
    # What a GM's game adds beyond numbers (rules.game_parts); the built-ins have none.
    derived: tuple[Derived, ...] = ()
    trackers: tuple[Tracker, ...] = ()
    prerequisites: tuple[Prerequisite, ...] = ()

    def word(self, level: int) -> str:
        """A level in this ruleset's ladder words: 'Good', 'Legendary+2'."""
        return self.ladder.name(level)

    def section(self, topic: str) -> str:
        return self.sections.get(topic) or self.sections["creation"]

    def cites(self, topic: str) -> str:
        """The section of `topic` where this ruleset's text gives one, else "": a page then
        names no section, rather than character creation's or another ruleset's."""
        return self.sections.get(topic, "")

    @property
    def ladder_bottom(self) -> int:
        """The lowest word the ruleset's ladder uses: MicroFudged names Abysmal, the others
        stop at Terrible (below it: "Terrible-1")."""
        return max(TERRIBLE if self.system == LEVELS else ABYSMAL, self.ladder.bottom)

    @property
    def gifts_and_faults(self) -> bool:
        return "gifts" in self.terms.lists


TOKENS_LISTS = {
    "attributes": ("Abilities", "ability"),
    "skills": ("Fields of expertise", "field of expertise"),
    "powers": ("Fields of power", "field of power"),
}

# Mudge 4.57 and the sample sheets (6.2, 6.3).
MUDGE_WOUNDS = (
    WoundLevel("Scratch", "1,2", 0, 3),
    WoundLevel("Hurt", "3,4", -1, 2),
    WoundLevel("Very Hurt", "5,6", -2, 1),
    WoundLevel("Incapacitated", "7,8", 0, 1),
    WoundLevel("Near Death", "9+", 0, 1),
)
# Fudge Basics, "The Wound Track".
FUDGE_BASICS_WOUNDS = (
    WoundLevel("Scratch", "1", 0, 5),
    WoundLevel("Hurt", "2,3", -1, 4),
    WoundLevel("Very Hurt", "4,5", -2, 3),
    WoundLevel("Incapacitated", "6", 0, 2),
    WoundLevel("Near Death", "7+", 0, 1),
)
# MicroFudged DIP V.2-3, reference pages: "1 success = opponent suffers a Setback (-1 card
# penalty)", Major -2, Extreme -3; lethal ones are a Wound, a Severe wound, a Grievous injury.
# "Use only the largest Setback of its type": one box each.
SETBACKS = (
    WoundLevel("Setback (Wound)", "1 success", -1, 1),
    WoundLevel("Major Setback (Severe wound)", "2 successes", -2, 1),
    WoundLevel("Extreme Setback (Grievous injury)", "3 successes", -3, 1),
)
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
# Mudge 1.33/1.34 and the sample sheets (6.3): "Toughness Gift adds 1 Scratch box",
# High Pain Threshold "+1 Scratch box", the fault Low Pain Threshold "-1 Scratch box".
MORE_SCRATCH = ("toughness", "high pain threshold")
FEWER_SCRATCH = ("low pain threshold",)
MUDGE_DICE_NOTE = (
    "The odd-coloured fourth die is the damage die (Mudge 3.22). It counts in the roll like "
    "the other three; in combat its result (-1, 0 or +1) is also added to the damage, though "
    "it cannot bring positive damage below 1 (Mudge 4.61); and when an opposed action ties, "
    "the higher damage die wins."
)
PERSONALITY = "Answer what helps the character come alive; none is required."
MUDGE_PERSONALITY = f"Mudge 1.35: {PERSONALITY[0].lower()}{PERSONALITY[1:]}"
TOKENS_TERMS = Terms(
    lists=TOKENS_LISTS,
    gm="Narrator",
    cost_unit="token",
    weapon_value="Cards",
    armour_value="Defence cards",
    equipment_hint=(
        "Gear adds or subtracts cards: a weapon's cards go to Attack or Defence, armour's "
        "always and only to Defence (MicroFudged DIP VII.2)."
    ),
    personality_hint=(
        "MicroFudged DIP I: one sentence says who the character is (the concept), another "
        "what they want; the rest helps them come alive."
    ),
)
TOKENS_HARM = Harm(
    title="Setbacks",
    caused_by="Successes",
    track=SETBACKS,
    penalty_unit="card",
    damage_factors=False,
    note=(
        "Use only the largest Setback of its type (MicroFudged DIP V.3): setbacks heal 1 card "
        "a day, lethal wounds 1 a week."
    ),
)


FUDGE_BASICS = Ruleset(
    slug="fudge-basics",
    name="Fudge objective creation (Fudge Basics)",
    system=LEVELS,
    unit="skill level",
    attribute_names=None,
    attribute_default=FAIR,
    attribute_cost=1,
    skill_difficulties=False,
    skill_default=POOR,
    skill_cost=1,
    # Fudge Basics has no lists of its own: it borrows Mudge's skills, gifts and faults, and
    # its attributes (free in Fudge) start as Mudge's seven for the GM to rename, drop or
    # extend; its equipment is its own damage factors. It has no class or race templates.
    catalog=fudge_basics.CATALOG,
    terms=Terms(
        lists=LEVELS_LISTS,
        points="Fudge points",
        equipment_hint=(
            "Weapons feed the offensive damage factor, armour the defensive one (Fudge "
            "Basics, Offensive and Defensive Damage Factors)."
        ),
        personality_hint=PERSONALITY,
    ),
    # Fudge Basics leaves the free levels to the GM; these are Fairsheet's starting values.
    attribute_levels=4,
    skill_levels=40,
    free_gifts=2,
    has_scale=True,
    meta_points_start=3,
    # Fudge Basics, Offensive and Defensive Damage Factors: "Damage Capacity Comparable
    # Attribute". A GM who calls it Health names it in the house rules.
    damage_capacity_attribute=fudge_basics.DAMAGE_CAPACITY,
    muscle_attribute="Strength",
    harm=Harm(
        title="Wounds",
        caused_by="Damage",
        track=FUDGE_BASICS_WOUNDS,
        more_scratch=MORE_SCRATCH,
        fewer_scratch=FEWER_SCRATCH,
    ),
    power_kinds=("spell", "psi", "superpower"),
    sections={
        "creation": "Fudge Basics, Character Creation",
        "trading": "Fudge Basics, Trading Values of Traits and Trait Levels",
        "legendary": "Fudge Basics, Characters and Traits",
        "limits": "Fudge Basics, Character Creation",
        # Fudge Basics prices no Scale: the costs are Fairsheet's (as Mudge's, 2.34).
        "scale": "Fudge Basics, Scale - Strength and Mass; the costs are Fairsheet's",
        "powers": "Fudge Basics, Characters and Traits (powers as potent gifts)",
        "meta_points": "Fudge Basics, Fudge Points and Experience",
        "advancement": "Fudge Basics, Experience",
        "harm": "Fudge Basics, The Wound Track",
        "healing": "Fudge Basics, Healing",
        "points_in_play": "Fudge Basics, In-Game Use of Fudge Points",
        "equipment": "Fudge Basics, Offensive and Defensive Damage Factors",
        "damage": "Fudge Basics, Determining Wound Levels",
        "dice": "Fudge Basics, Odds of Rolling Exactly on 4dF",
    },
    advancement=Advancement(
        unit="EP",
        skill_steps=FUDGE_EXPERIENCE_STEPS,
        beyond=FUDGE_EXPERIENCE_BEYOND,
        attribute_multiplier=3,
        # Fudge 5.2: Legendary "(or more), and GM approval".
        gm_permission_from=SUPERB,
        gift=6,
        power=12,  # Fudge 5.2
        buy_off_fault=9,
        points_per_unit=3,
        section="Fudge Basics, Experience",
    ),
)

MUDGE = Ruleset(
    slug="mudge",
    name="Mudge",
    system=LEVELS,
    unit="skill level",
    attribute_names=mudge.ATTRIBUTES,
    attribute_default=FAIR,
    attribute_cost=1,
    skill_difficulties=True,
    skill_default=POOR,
    skill_cost=1,
    catalog=mudge.CATALOG,
    templates=mudge.TEMPLATES,
    terms=Terms(
        lists=LEVELS_LISTS,
        points="meta points",
        equipment_hint=(
            "Weapons feed the offensive damage factor, armour the defensive one (Mudge 4.54)."
        ),
        personality_hint=MUDGE_PERSONALITY,
        dice_note=MUDGE_DICE_NOTE,
    ),
    attribute_levels=6,
    skill_levels=45,
    free_gifts=2,
    max_lowered_skills=5,
    has_scale=True,
    attribute_caps={SUPERB: 1, GREAT: 2},
    skill_caps={SUPERB: 2, GREAT: 4},
    meta_points_start=3,
    meta_points_max=5,
    uncommitted_traits=2,
    power_gifts={"spell": "Magery", "psi": "Psionic"},
    attribute_gifts={"Magery": mudge.MANA, "Psionic": mudge.PSYCHE},
    damage_capacity_attribute="Constitution",  # Mudge 4.52
    muscle_attribute="Strength",
    harm=Harm(
        title="Wounds",
        caused_by="Damage",
        track=MUDGE_WOUNDS,
        unarmed=-1,
        unarmed_trained=0,
        martial_arts=MARTIAL_ARTS,
        more_scratch=MORE_SCRATCH,
        fewer_scratch=FEWER_SCRATCH,
        damage_die=True,
        graze_limits=((9, "Very Hurt"), (5, "Hurt"), (0, "Scratch")),
    ),
    sections={
        "creation": "Mudge 1.6",
        "attributes": "Mudge 1.61",
        "attribute_names": "Mudge 1.31",
        "skills": "Mudge 1.62",
        "gifts": "Mudge 1.63",
        "trading": "Mudge 1.64",
        "limits": "Mudge 1.5",
        "uncommitted": "Mudge 1.7",
        "legendary": "Mudge 1.2",
        "scale": "Mudge 2.34",
        "spell": "Mudge 2.5",
        "psi": "Mudge 2.7",
        "superpower": "Mudge 2.8",
        "powers": "Mudge 2.2",
        "meta_points": "Mudge 1.36",
        "advancement": "Mudge 5.2",
        "harm": "Mudge 4.57",
        "healing": "Mudge 4.8",
        "points_in_play": "Mudge 1.36",
        "equipment": "Mudge 4.54",
        "damage": "Mudge 4.55",
        "graze": "Mudge 4.56",
        "dice": "Mudge 3.24",
        "damage_die": "Mudge 3.22",
    },
    advancement=Advancement(
        unit="XP",
        skill_steps=FUDGE_EXPERIENCE_STEPS,
        beyond=FUDGE_EXPERIENCE_BEYOND,
        attribute_multiplier=3,
        gm_permission_from=SUPERB,
        gift=4,
        power=8,
        meta_point=6,
        section="Mudge 5.2",
    ),
)

MICROFUDGED_DIP = Ruleset(
    slug="microfudged-dip",
    name="MicroFudged DIP (tokens)",
    system=TOKENS,
    unit="token",
    attribute_names=None,
    attribute_default=POOR,
    attribute_cost=1,
    skill_difficulties=False,
    skill_default=POOR,
    skill_cost=1,
    catalog=microfudged.DIP_CATALOG,
    terms=TOKENS_TERMS,
    tokens=11,
    power_levels=(6, 11, 16, 21),
    must_spend_and_save=True,
    creation_min=POOR,
    power_default=ABYSMAL,
    harm=TOKENS_HARM,
    power_kinds=("field",),
    sections={
        "creation": "MicroFudged DIP I",
        "powers": "MicroFudged DIP VIII.1",
        "legendary": "MicroFudged DIP V",
        "limits": "MicroFudged DIP I",
        "advancement": "MicroFudged DIP II",
        "harm": "MicroFudged DIP V.3",
        "healing": "MicroFudged DIP V.3, VI",
        "potential": "MicroFudged DIP VI",
        "points_in_play": "MicroFudged DIP II",
        "equipment": "MicroFudged DIP VII.2",
        "dice": "MicroFudged DIP V, Tests and Conflicts",
    },
    advancement=Advancement(unit="token", section="MicroFudged DIP II"),
)

MICROFUDGED_STREAMLINED = Ruleset(
    slug="microfudged-streamlined",
    name="Streamlined MicroFudged",
    system=TOKENS,
    unit="token",
    attribute_names=microfudged.ABILITIES,
    attribute_default=FAIR,
    attribute_cost=3,
    skill_difficulties=False,
    skill_default=POOR,
    skill_cost=1,
    catalog=microfudged.STREAMLINED_CATALOG,
    terms=TOKENS_TERMS,
    named_skill_defaults={"Science": TERRIBLE, "Medicine": TERRIBLE},
    tokens=15,
    tokens_carried=3,
    # DIP VIII.3: nothing "lower than Poor or higher than Great during the character
    # creation process (unless the Narrator allows it, of course)": creation_min/max.
    creation_min=POOR,
    creation_max=GREAT,
    power_default=ABYSMAL,
    harm=TOKENS_HARM,
    power_kinds=("field",),
    sections={
        "creation": "MicroFudged DIP VIII.3",
        "attribute_names": "MicroFudged DIP III",
        "powers": "MicroFudged DIP VIII.1",
        "limits": "MicroFudged DIP VIII.3",
        "advancement": "MicroFudged DIP VIII.3, Character development",
        "harm": "MicroFudged DIP V.3",
        "healing": "MicroFudged DIP V.3, VI",
        "potential": "MicroFudged DIP VI",
        "points_in_play": "MicroFudged DIP II",
        "equipment": "MicroFudged DIP VII.2",
        "dice": "MicroFudged DIP V, Tests and Conflicts",
    },
    advancement=Advancement(
        unit="token",
        section="MicroFudged DIP VIII.3, Character development",
        skill_steps=STREAMLINED_FIELD_STEPS,
        attribute_multiplier=3,
    ),
)

# Every ruleset the reader, the database and the pages accept, by slug. Read it at the time
# of use (never copy it at import time), so a ruleset added here needs nothing else.
BUILTIN = {r.slug: r for r in (FUDGE_BASICS, MUDGE, MICROFUDGED_DIP, MICROFUDGED_STREAMLINED)}
DEFAULT = MUDGE  # what a form proposes first


def ruleset_choices() -> list[tuple[str, str]]:
    """(slug, name) for a form's select, read when the form is built."""
    return [(slug, ruleset.name) for slug, ruleset in BUILTIN.items()]


def skill_default(ruleset: Ruleset, name: str, difficulty: str | None) -> int | None:
    """Where a skill stands unlisted: by difficulty in Mudge 1.4 (None for a Very Hard
    skill, which has no default), else the ruleset's default or the one it names for the
    skill (Streamlined MicroFudged: Science, Medicine). Names match case-insensitively, as
    attribute names and duplicates do."""
    if ruleset.skill_difficulties:
        return ruleset.difficulty_defaults[difficulty or SKILL_DIFFICULTY]
    folded = name.casefold()
    named = (level for n, level in ruleset.named_skill_defaults.items() if n.casefold() == folded)
    return next(named, ruleset.skill_default)
