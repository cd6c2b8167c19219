"""The four built-in rulesets, as data. A campaign's house rules replace these numbers
(house_rules.py); pricing and validation (report.py) read nothing but these fields.

Two systems share the dataclass: "levels" (Fudge, Mudge: free attribute and skill levels,
gifts and faults, traded at 1.64's rates) and "tokens" (MicroFudged: one pool of tokens).
"""

from dataclasses import dataclass, field
from fractions import Fraction

from rules.ladder import ABYSMAL, FAIR, GREAT, MEDIOCRE, POOR, SUPERB, TERRIBLE

LEVELS = "levels"
TOKENS = "tokens"
DIFFICULTIES = ("easy", "average", "hard", "very_hard")

# Mudge 1.62, "Cost of Skills": the cost of a skill at Fair, by difficulty. Each level up or
# down adds or takes one skill level, so the whole table is FAIR_COST + level.
MUDGE_SKILL_FAIR_COST = {"easy": 1, "average": 2, "hard": 3, "very_hard": 4}

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


@dataclass(frozen=True)
class Ruleset:
    slug: str
    name: str
    system: str  # LEVELS or TOKENS
    unit: str  # the report's unit: "skill level" or "token"
    summary: str
    # Attributes ("abilities" in MicroFudged)
    attribute_names: tuple[str, ...] | None  # a fixed list, or None: the GM's own names
    attribute_default: int
    attribute_cost: int  # per level above the default, in attribute levels or tokens
    # Skills ("fields of expertise" in MicroFudged)
    skill_difficulties: bool  # Mudge prices skills by difficulty (1.62)
    skill_default: int  # default level when difficulty does not set it
    skill_cost: int  # per level (tokens); the levels system uses the 1.62 table
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
    gifts_and_faults: bool = True
    # Tokens (tokens system)
    tokens: int = 0
    power_levels: tuple[int, ...] = ()
    tokens_carried: int | None = None
    must_spend_and_save: bool = False
    power_default: int = ABYSMAL
    # Limits at creation
    attribute_caps: dict[int, int] = field(default_factory=dict)  # level -> how many may
    skill_caps: dict[int, int] = field(default_factory=dict)
    legendary_at_creation: bool = False
    creation_min: int = TERRIBLE
    creation_max: int = SUPERB  # Legendary allowed only with legendary_at_creation
    extra_attributes: tuple[tuple[str, int], ...] = ()  # (name, default level)
    meta_points_start: int = 3
    meta_points_max: int | None = None
    power_kinds: tuple[str, ...] = ("spell", "psi", "superpower")
    sections: dict[str, str] = field(default_factory=dict)
    advancement: Advancement | None = None

    def section(self, topic: str) -> str:
        return self.sections.get(topic) or self.sections["creation"]


FUDGE_BASICS = Ruleset(
    slug="fudge-basics",
    name="Fudge objective creation (Fudge Basics)",
    system=LEVELS,
    unit="skill level",
    summary=(
        "Attributes start at Fair, skills at Poor, each level one free level of its kind; "
        "gifts and faults trade at Fudge's rates. The GM sets the free levels."
    ),
    attribute_names=None,
    attribute_default=FAIR,
    attribute_cost=1,
    skill_difficulties=False,
    skill_default=POOR,
    skill_cost=1,
    # Fudge Basics leaves the free levels to the GM; these are Fairsheet's starting values.
    attribute_levels=4,
    skill_levels=40,
    free_gifts=2,
    meta_points_start=3,
    power_kinds=("spell", "psi", "superpower"),
    sections={
        "creation": "Fudge Basics, Character Creation",
        "trading": "Fudge Basics, Trading Values of Traits and Trait Levels",
        "legendary": "Fudge Basics, Characters and Traits",
        "scale": "Fudge Basics, Scale - Strength and Mass; costs from Mudge 2.34",
        "powers": "Fudge Basics, Characters and Traits (powers as potent gifts)",
        "meta_points": "Fudge Basics, Fudge Points and Experience",
        "advancement": "Fudge Basics, Experience",
    },
    advancement=Advancement(
        unit="EP",
        skill_steps=FUDGE_EXPERIENCE_STEPS,
        beyond=FUDGE_EXPERIENCE_BEYOND,
        attribute_multiplier=3,
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
    summary=(
        "Seven attributes from Fair with 6 free levels, 45 skill levels priced by difficulty, "
        "2 free gifts, starred gifts and faults worth 2, trades at 1.64's rates."
    ),
    attribute_names=(
        "Strength",
        "Dexterity",
        "Constitution",
        "Speed",
        "Intelligence",
        "Willpower",
        "Perception",
    ),
    attribute_default=FAIR,
    attribute_cost=1,
    skill_difficulties=True,
    skill_default=POOR,
    skill_cost=1,
    attribute_levels=6,
    skill_levels=45,
    free_gifts=2,
    max_lowered_skills=5,
    attribute_caps={SUPERB: 1, GREAT: 2},
    skill_caps={SUPERB: 2, GREAT: 4},
    meta_points_start=3,
    meta_points_max=5,
    sections={
        "creation": "Mudge 1.6",
        "attributes": "Mudge 1.61",
        "attribute_names": "Mudge 1.31",
        "skills": "Mudge 1.62",
        "gifts": "Mudge 1.63",
        "trading": "Mudge 1.64",
        "legendary": "Mudge 1.2",
        "scale": "Mudge 2.34",
        "spell": "Mudge 2.5",
        "psi": "Mudge 2.7",
        "superpower": "Mudge 2.8",
        "powers": "Mudge 2.2",
        "meta_points": "Mudge 1.36",
        "advancement": "Mudge 5.2",
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
    summary=(
        "6, 11, 16 or 21 tokens; every trait starts at Poor and costs 1 token a rank; "
        "spend at least one token and save at least one for play."
    ),
    attribute_names=None,
    attribute_default=POOR,
    attribute_cost=1,
    skill_difficulties=False,
    skill_default=POOR,
    skill_cost=1,
    gifts_and_faults=False,
    tokens=11,
    power_levels=(6, 11, 16, 21),
    must_spend_and_save=True,
    creation_min=POOR,
    power_default=ABYSMAL,
    meta_points_start=0,
    power_kinds=("field",),
    sections={
        "creation": "MicroFudged DIP I",
        "powers": "MicroFudged DIP VIII.1",
        "legendary": "MicroFudged DIP V",
        "advancement": "MicroFudged DIP II",
    },
    advancement=Advancement(unit="token", section="MicroFudged DIP II"),
)

MICROFUDGED_STREAMLINED = Ruleset(
    slug="microfudged-streamlined",
    name="Streamlined MicroFudged",
    system=TOKENS,
    unit="token",
    summary=(
        "15 tokens; the four abilities start at Fair and cost 3 tokens a rank, fields start at "
        "Poor at 1 a rank; nothing below Poor or above Great; at most 3 tokens carried over."
    ),
    attribute_names=("Mind", "Mastery", "Presence", "Vigour"),
    attribute_default=FAIR,
    attribute_cost=3,
    skill_difficulties=False,
    skill_default=POOR,
    skill_cost=1,
    named_skill_defaults={"Science": TERRIBLE, "Medicine": TERRIBLE},
    gifts_and_faults=False,
    tokens=15,
    tokens_carried=3,
    creation_min=POOR,
    creation_max=GREAT,
    power_default=ABYSMAL,
    meta_points_start=0,
    power_kinds=("field",),
    sections={
        "creation": "MicroFudged DIP VIII.3",
        "attribute_names": "MicroFudged DIP III",
        "powers": "MicroFudged DIP VIII.1",
        "advancement": "MicroFudged DIP VIII.3, Character development",
    },
    advancement=Advancement(
        unit="token",
        section="MicroFudged DIP VIII.3, Character development",
        skill_steps=STREAMLINED_FIELD_STEPS,
        attribute_multiplier=3,
    ),
)

BUILTIN = {r.slug: r for r in (FUDGE_BASICS, MUDGE, MICROFUDGED_DIP, MICROFUDGED_STREAMLINED)}

# Mudge 2.5 and 2.7: these gifts open an extra attribute.
ATTRIBUTE_GIFTS = {"Magery": "Mana", "Psionic": "Psyche"}
