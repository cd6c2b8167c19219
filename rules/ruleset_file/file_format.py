"""The ruleset file's version, its keys and its limits, which its reader and writer share."""

from rules.house_rules import HOUSE_RULE_KEYS
from rules.rulesets import DIFFICULTIES, LEVELS, TOKENS
from rules.words import Phrase, say

FORMAT = "fairsheet.ruleset/1"
# Format 2 is format 1 with what a GM adds beyond numbers (PARTS_KEYS): a file with none of
# them is written as format 1, so every file format 1's readers read still reads the same,
# and one with them is refused by those readers rather than read without its prerequisites.
FORMAT_2 = "fairsheet.ruleset/2"
FORMATS = (FORMAT, FORMAT_2)
PARTS_KEYS = ("derived", "trackers", "prerequisites")
SYSTEMS = (LEVELS, TOKENS)
UNITS = {LEVELS: "skill level", TOKENS: "token"}
# How skills are priced: "flat" from a default (Fudge Basics), "by_difficulty" from Mudge
# 1.62's table, "per_rank" in tokens (MicroFudged).
PRICINGS = {LEVELS: ("flat", "by_difficulty"), TOKENS: ("per_rank",)}
# Each pricing and difficulty in words, for the messages a GM reads.
PRICING_NAMES = {
    "flat": "flat from a default",
    "by_difficulty": "by difficulty",
    "per_rank": "tokens a rank",
}
DIFFICULTY_NAMES = {d: d.replace("_", " ") for d in DIFFICULTIES}
# The same, for a message another language says (rules.words).
PRICING_WORDS = {
    "flat": say("flat from a default"),
    "by_difficulty": say("by difficulty"),
    "per_rank": say("tokens a rank"),
}
# Keys of the `ladder` section that are house-rule keys too.
LADDER_RULES = ("creation_min", "creation_max", "legendary_at_creation")
# House-rule keys that live in a section of their own: the ladder's bounds, the attributes'
# extras, harm's attributes, advancement's costs.
ELSEWHERE = (*LADDER_RULES, "extra_attributes", "damage_capacity_attribute", "muscle_attribute")
NUMBER_KEYS = tuple(k for k in HOUSE_RULE_KEYS if k not in ELSEWHERE and k != "advancement_costs")
# Numbers only a ruleset file sets (a campaign's house rules leave them as designed).
DESIGN_NUMBERS = ("has_scale", "power_levels", "must_spend_and_save", "power_default")
TEMPLATE_KINDS = ("class", "race")
NOT_A_LEVEL = "is not a level"  # rules.ladder's message for a word off the ladder
MAX_NAME = 100
MAX_TEXT = 2000
MAX_WORDS = 30
MAX_ENTRIES = 1000
# Problems a reader lists; past them it only counts ("… and 29,950 more problems"): a file
# of 30,000 wrong words is told so in a page, not in 30,000 lines.
MAX_PROBLEMS = 50
TOP_KEYS = (
    "format",
    "slug",
    "name",
    "description",
    "system",
    "ladder",
    "numbers",
    "attributes",
    "skills",
    "powers",
    "terms",
    "harm",
    "advancement",
    "catalogue",
    "templates",
    "sections",
    *PARTS_KEYS,
)


class RulesetFileError(ValueError):
    """A ruleset file that cannot be used: every problem, each (where, what is wrong)."""

    def __init__(self, problems: list[tuple[str, Phrase | str]]):
        # Each message as a Phrase (or a string another module made), for another language
        # (characters.wording), and in English, as the file's readers have always had it.
        self.phrases = problems
        self.problems = [(w, str(m)) for w, m in problems]
        super().__init__("; ".join(f"{w}: {m}" if w else m for w, m in self.problems))


def format_for(file: dict) -> str:
    """The format a file is written as: format 2 when it has any of the game's own parts
    (PARTS_KEYS, not empty), else format 1. The writer and the designer both ask here."""
    return FORMAT_2 if any(file.get(key) for key in PARTS_KEYS) else FORMAT
