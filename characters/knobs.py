"""The ruleset's knobs: the numbers, limits and switches a ruleset file sets and a campaign's
house rules change, each once, with its label, its help and its name in a campaign's history.

The designer's sections, the house-rules form, the rule pages and the campaign history all
build from KNOBS, so a knob has one label everywhere. A label is said in a ruleset's own words
(`rule_words`: "Free {skill} levels" is "Free field of expertise levels" in a game that calls
its skills so); `said` puts them in."""

from dataclasses import dataclass

from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from characters import vocabulary
from characters.wording import SPEAKER
from rules.rulesets import Ruleset
from rules.words import Level

# What a knob's field takes.
COUNT = "count"  # a whole number
AMOUNT = "amount"  # a number, halves allowed
YES_NO = "yes_no"
LEVEL = "level"  # a word of the ladder
ATTRIBUTE = "attribute"  # an attribute's name
EXTRAS = "extras"  # attributes with their defaults, one a line
CAPS = "caps"  # a table of counts by level: a field a level
PARTS = "parts"  # a mapping whose parts are knobs of their own (trade values, experience costs)


@dataclass(frozen=True)
class Knob:
    """One knob. `key` is the house rule's key (and the ruleset file's, under `place`); a
    knob with a `part` is that part of the key's mapping. `help` says what the knob is
    (the designer's line under the field); `note` says what the rules check, after the
    section of `topic` the base ruleset's text cites (the house-rules form's line)."""

    key: str
    kind: str
    label: str
    help: str = ""
    note: str = ""
    topic: str = ""
    joiner: str = ": "  # between the cited section and the note
    history: str = ""  # the key in a campaign's history
    part: str = ""
    place: str = "numbers"  # the part of the ruleset file it is in
    required: bool = False  # the ruleset file always gives it a value (no "no limit")
    house_rule: bool = True  # a campaign may change it on the house-rules form

    @property
    def path(self) -> str:
        """Where it is in the ruleset file: "numbers.max_skills", "advancement.gift"."""
        if self.key == "advancement_costs":
            return f"advancement.{self.part}"
        return ".".join(p for p in (self.place, self.key, self.part) if p)


KNOBS = (
    Knob(
        "attribute_levels",
        COUNT,
        _("Free {attribute} levels"),
        _("Levels above the default to spread over the attributes."),
        history=pgettext_lazy("history field", "Attribute levels"),
        required=True,
    ),
    Knob(
        "skill_levels",
        COUNT,
        _("Free {skill} levels"),
        _("Levels to spend on skills."),
        history=pgettext_lazy("history field", "Skill levels"),
        required=True,
    ),
    Knob(
        "free_gifts",
        AMOUNT,
        _("Free {gifts}"),
        _("Gifts a character takes without paying for them."),
        history=pgettext_lazy("history field", "Free gifts"),
    ),
    Knob(
        "tokens",
        COUNT,
        _("Starting tokens"),
        _("The one pool a new character spends on everything."),
        history=pgettext_lazy("history field", "Tokens"),
        required=True,
    ),
    Knob(
        "tokens_carried",
        COUNT,
        _("Tokens carried into play"),
        _("The most unspent tokens kept. Empty: no limit."),
        history=pgettext_lazy("history field", "Tokens carried"),
    ),
    Knob(
        "must_spend_and_save",
        YES_NO,
        _("Spend one, save one"),
        _("A new character spends at least one token and saves at least one (MicroFudged DIP)."),
        house_rule=False,
    ),
    Knob(
        "attribute_caps",
        CAPS,
        _("Attribute caps"),
        history=pgettext_lazy("history field", "Attribute caps"),
    ),
    Knob("skill_caps", CAPS, _("Skill caps"), history=pgettext_lazy("history field", "Skill caps")),
    Knob(
        "trade_values",
        PARTS,
        _("Trade values"),
        history=pgettext_lazy("history field", "Trade values"),
    ),
    Knob(
        "trade_values",
        AMOUNT,
        _("1 {attribute} level"),
        _("In skill levels, when traded (Fudge: 3)."),
        part="attribute",
    ),
    Knob(
        "trade_values",
        AMOUNT,
        _("1 {gift}"),
        _("In skill levels, when traded (Fudge: 6)."),
        part="gift",
    ),
    Knob(
        "trade_values",
        AMOUNT,
        _("1 {fault}"),
        _("In skill levels, when traded (Fudge: 6)."),
        part="fault",
    ),
    Knob(
        "cap_trading",
        YES_NO,
        _("Trade cap slots two lower for one higher"),
        _("A place at a capped level may be traded for two a level lower, and back (Mudge 1.5)."),
        note=_("a traded slot is a warning; more than the caps allow breaks a rule"),
        topic="limits",
        history=pgettext_lazy("history field", "Cap trading"),
    ),
    Knob(
        "legendary_at_creation",
        YES_NO,
        _("{top} at creation"),
        _("Whether a new character may start a trait at the top word after all."),
        history=pgettext_lazy("history field", "Legendary at creation"),
        place="ladder",
    ),
    Knob(
        "creation_min",
        LEVEL,
        _("Lowest level at creation"),
        _("The lowest a new character's trait may start at."),
        note=_("unless the {gm} allows it; a lower level breaks a rule"),
        topic="limits",
        history=pgettext_lazy("history field", "Creation min"),
        place="ladder",
    ),
    Knob(
        "creation_max",
        LEVEL,
        _("Highest level at creation"),
        _("The highest a new character's trait may start at: below the top word."),
        note=_("A higher level breaks a rule"),
        history=pgettext_lazy("history field", "Creation max"),
        place="ladder",
    ),
    Knob(
        "max_lowered_skills",
        COUNT,
        _("{skills} lowered below default"),
        _("Skills that may drop one level below their default. Empty: no limit."),
        topic="skills",
        history=pgettext_lazy("history field", "Max lowered skills"),
    ),
    Knob(
        "max_skills",
        COUNT,
        _("Number of {skills}"),
        _("The most skills a new character takes. Empty: no limit."),
        note=_("more breaks a rule"),
        topic="limits",
        history=pgettext_lazy("history field", "Max skills"),
    ),
    Knob(
        "min_faults",
        COUNT,
        _("{faults}, at least"),
        _("The fewest faults a new character takes."),
        note=_("fewer breaks a rule"),
        topic="limits",
        history=pgettext_lazy("history field", "Min faults"),
        required=True,
    ),
    Knob(
        "meta_points_start",
        COUNT,
        _("{points} at start"),
        _("Meta or Fudge points a new character starts with."),
        history=pgettext_lazy("history field", "Meta points start"),
        required=True,
    ),
    Knob(
        "meta_points_max",
        COUNT,
        _("{points}, at most"),
        _("Empty: no limit."),
        topic="meta_points",
        history=pgettext_lazy("history field", "Meta points max"),
    ),
    Knob(
        "superpower_cost",
        AMOUNT,
        _("Superpower cost, in {gifts}"),
        _("In gifts (Mudge 2.8: 2)."),
        history=pgettext_lazy("history field", "Superpower cost"),
    ),
    Knob(
        "uncommitted_traits",
        COUNT,
        _("Uncommitted traits"),
        _("Traits left to define in play (Mudge 1.7)."),
        note=_("more, or one set too high, breaks a rule"),
        topic="uncommitted",
        joiner="; ",
        history=pgettext_lazy("history field", "Uncommitted traits"),
        required=True,
    ),
    Knob(
        "has_scale",
        YES_NO,
        _("Characters have a Scale"),
        _("Strength and Mass scale for races bigger or smaller than human (Mudge 2.34)."),
        house_rule=False,
    ),
    Knob(
        "negative_scale_refund",
        YES_NO,
        _("Scale below 0 gives levels back"),
        _("Only if you allow it (Mudge 2.34)."),
        note=_("only if the {gm} allows"),
        topic="scale",
        history=pgettext_lazy("history field", "Negative scale refund"),
    ),
    Knob(
        "damage_capacity_attribute",
        ATTRIBUTE,
        _("{attribute} that soaks damage"),
        _("The attribute that soaks damage (Mudge: Constitution). Empty: none."),
        note=_("The defensive damage factor on the sheet"),
        history=pgettext_lazy("history field", "Damage capacity attribute"),
        place="harm",
    ),
    Knob(
        "muscle_attribute",
        ATTRIBUTE,
        _("{attribute} that adds to damage"),
        _("The attribute that adds to a blow's damage (Mudge: Strength). Empty: none."),
        note=_("The offensive damage factors on the sheet"),
        history=pgettext_lazy("history field", "Muscle attribute"),
        place="harm",
    ),
    Knob(
        "extra_attributes",
        EXTRAS,
        _("Extra {attributes}"),
        history=pgettext_lazy("history field", "Extra attributes"),
        place="attributes",
    ),
    Knob(
        "advancement_costs",
        PARTS,
        _("Advancement costs"),
        history=pgettext_lazy("history field", "Advancement costs"),
    ),
    Knob(
        "advancement_costs",
        COUNT,
        _("Raising {an_attribute}, times {a_skill}'s cost"),
        _("Times a skill's cost at the same level (Fudge: 3)."),
        part="attribute_multiplier",
        required=True,
    ),
    Knob(
        "advancement_costs",
        COUNT,
        _("Each level past the table"),
        _("Empty: none past it."),
        part="beyond",
        house_rule=False,
    ),
    Knob(
        "advancement_costs",
        COUNT,
        _("A new {gift}"),
        _("Empty: gifts are not bought."),
        part="gift",
    ),
    Knob(
        "advancement_costs",
        COUNT,
        _("A new {power}"),
        _("Empty: powers are not bought."),
        part="power",
    ),
    Knob(
        "advancement_costs",
        COUNT,
        _("A {point}"),
        _("Empty: not bought."),
        part="meta_point",
    ),
    Knob(
        "advancement_costs",
        COUNT,
        _("Buying off {a_fault}"),
        _("Empty: faults are not bought off."),
        part="buy_off_fault",
    ),
    Knob(
        "advancement_costs",
        COUNT,
        _("Points for one unit"),
        _("Fudge points that make one (Fudge: 3). Empty: none."),
        part="points_per_unit",
        house_rule=False,
    ),
)
# Each knob by its key, and by key and part for a part of a mapping.
BY_KEY = {(knob.key, knob.part): knob for knob in KNOBS}


def knob(key: str, part: str = "") -> Knob:
    return BY_KEY[key, part]


def parts_of(key: str) -> list[Knob]:
    """The knobs that are parts of a mapping: trade values, experience costs."""
    return [k for k in KNOBS if k.key == key and k.part]


# One of the built-in rulesets' points, for "A {point}" (a GM's own as written).
ONE_POINT = {
    "meta point": pgettext_lazy("one of the points", "meta point"),
    "Fudge point": pgettext_lazy("one of the points", "Fudge point"),
}


def rule_words(ruleset: Ruleset) -> dict[str, str]:
    """What a ruleset calls the things its knobs count: its lists, points, GM and the top
    of its ladder ("field of expertise", "Fudge points", "Narrator", "Legendary"), in the
    reader's language (characters.vocabulary); a GM's own words as written."""
    terms = ruleset.terms
    english = (get_language() or "en").startswith("en")
    words = {
        "points": vocabulary.term(terms.points or "meta points", "points"),
        "point": str(ONE_POINT.get(terms.point, terms.point)),
        "gm": vocabulary.term(terms.gm, "game master"),
        "top": level_word(ruleset, ruleset.ladder.top_word_level),
    }
    for list_name in ("attributes", "skills", "gifts", "faults", "powers"):
        one, many = terms.noun(list_name), terms.plural(list_name)
        words[list_name[:-1]] = vocabulary.noun(one, many, 1) or one
        words[list_name] = vocabulary.noun(one, many, 2) or many
        if english:
            with_article = f"{'an' if one[:1] in 'aeiouAEIOU' else 'a'} {one}"
        else:  # only the language knows the article ("une compétence")
            with_article = vocabulary.noun_with_article(one) or words[list_name[:-1]]
        words[f"a_{list_name[:-1]}"] = with_article
        words[f"an_{list_name[:-1]}"] = with_article
    return words


def level_word(ruleset: Ruleset, level: int) -> str:
    """A level in the ruleset's ladder words, in the reader's language when the ladder is
    the standard one; a GM's own ladder as written."""
    return SPEAKER.level(Level(level, ruleset.ladder))


def said(text: str, words: dict[str, str]) -> str:
    """A label in the ruleset's words, its first letter a capital."""
    text = str(text).format(**words)
    return text[:1].upper() + text[1:]


def label(ruleset: Ruleset, key: str, part: str = "") -> str:
    """A knob's label in the ruleset's words: "Number of fields of expertise"."""
    return said(knob(key, part).label, rule_words(ruleset))
