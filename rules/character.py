"""A character as plain values: what the builder edits, the file carries and the report prices.

Levels are ladder offsets (rules.ladder); gift costs and fault values are Fractions because a
GM may set a half-value fault (spec: character-file.md). A gift's cost or a fault's value left
None is "not given": the report prices it from the catalogue (an unknown name costs 1).

`foundry_id` is the id of the Foundry item a trait or piece of equipment came from (or was
last exported as): not part of the character file and not of a character's equality, it
only lets a re-export give Foundry the ids it knows (rules.foundry).
"""

from dataclasses import dataclass, field
from fractions import Fraction

# Mudge 1.35: the questionnaire's four numbered questions, plus the summary fields a sheet
# prints under personality and history. A character's personality is keyed by these keys
# (a file may bring others: their key is their question).
PERSONALITY_QUESTIONS = (
    ("values", "What really matters to you? Anything you would give your life for?"),
    ("desires", "What do you want? Which one thing do you desire most?"),
    ("reasons", "For each thing desired, why?"),
    ("change", "How might getting what you want change you?"),
    ("personality", "Personality summary"),
    ("history", "History and background"),
)


# The kinds a power and a piece of equipment may be, as the character and ruleset files
# write them (docs/character-file.md); the app says them in the reader's words
# (characters.models.PowerKind, Equipment.Kind).
POWER_KINDS = ("spell", "psi", "superpower", "field")
EQUIPMENT_KINDS = ("weapon", "armour", "shield", "gear")


@dataclass(frozen=True)
class Trait:
    """An attribute or a skill (in MicroFudged: an ability or a field of expertise)."""

    name: str
    level: int
    difficulty: str | None = None  # Mudge skills: easy | average | hard | very_hard
    defined_in_play: bool = False  # Mudge 1.7: an uncommitted trait, defined after creation
    foundry_id: str = field(default="", compare=False)


@dataclass(frozen=True)
class Gift:
    name: str
    cost: Fraction | int | None = None
    foundry_id: str = field(default="", compare=False)


@dataclass(frozen=True)
class Fault:
    name: str
    value: Fraction | int | None = None
    foundry_id: str = field(default="", compare=False)


@dataclass(frozen=True)
class Power:
    """A spell or psi power (priced as a Hard or Very Hard skill), a superpower (priced in
    gifts), or a MicroFudged field of power (priced in tokens from Abysmal)."""

    name: str
    kind: str
    level: int | None = None
    difficulty: str | None = None
    cost: Fraction | int | None = None  # superpowers: in gifts, when not the ruleset's default
    foundry_id: str = field(default="", compare=False)


@dataclass(frozen=True)
class Equipment:
    name: str
    kind: str = "gear"  # weapon | armour | shield | gear
    damage: int | None = None  # weapon value (Mudge 4.54)
    armour: int | None = None  # armour value (Mudge 4.54)
    notes: str = ""
    quantity: int = 1
    foundry_id: str = field(default="", compare=False)


@dataclass(frozen=True)
class Npc:
    """What makes a character a GM's non-player character (docs/character-file.md, "npc").
    An NPC is made with only the traits that matter: no creation budget unless the GM asks
    for one, and Legendary allowed, which a PC may not start at (Mudge 4.33, Fudge 1995
    1.2); the ladder's bounds and Scale still apply (rules.report)."""

    group_size: int = 1  # a crew made as one NPC: one set of traits, a wound track each
    budget: bool = False  # priced against the creation budget, as a PC is


@dataclass(frozen=True)
class Character:
    ruleset: str
    name: str
    house_rules: dict = field(default_factory=dict)
    player: str = ""
    concept: str = ""
    race: str = ""
    scale_strength: int = 0
    scale_mass: int = 0
    attributes: tuple[Trait, ...] = ()
    skills: tuple[Trait, ...] = ()
    gifts: tuple[Gift, ...] = ()
    faults: tuple[Fault, ...] = ()
    powers: tuple[Power, ...] = ()
    equipment: tuple[Equipment, ...] = ()
    meta_points: int | None = None  # None: the ruleset's starting number
    experience: int = 0  # unspent EP, XP or tokens
    # The experience ledger (rules.ledger.Entry, oldest first), or None: the file has none.
    # The lists above hold the character as it stands now; rules.ledger undoes the spends.
    advancement: tuple | None = None
    notes: str = ""
    personality: dict[str, str] = field(default_factory=dict)
    # The player's experience plan (rules.plan.Step, in order), or None: the file has none.
    plan: tuple | None = None
    # The Foundry ids of the actor, its attribute set and its trait ladder ({"actor": ...,
    # "attributeset": ..., "traitladder": ...})
    foundry_ids: dict = field(default_factory=dict, compare=False)
    # What else an actor held that Fairsheet gives back to Foundry as it came (rules.foundry):
    # {"items": {item id: its picture, compendium links, and for the attribute set and the
    # trait ladder their names}, "img": the actor's picture in its world, "prototypeToken":
    # the token's settings}
    foundry_kept: dict = field(default_factory=dict, compare=False)
    npc: Npc | None = None  # None: a player character

    @property
    def without_budget(self) -> bool:
        """An NPC its GM builds without a creation budget."""
        return self.npc is not None and not self.npc.budget

    def attribute_level(self, name: str, default: int) -> int:
        for trait in self.attributes:
            if trait.name.casefold() == name.casefold():
                return trait.level
        return default

    def has_gift(self, name: str) -> bool:
        return any(g.name.casefold() == name.casefold() for g in self.gifts)
