"""The lines Fairsheet stores for a person to read later (issue 38), said in the reader's
language when they are read: a ledger entry's reason, an audit event's reason and recorded
lines, a notification. Each is written as a Phrase (rules.words) of one of the templates
below and kept two ways: its English, word for word what the record has always said (the
character file's ledger, the API, `verify_audit` and every export read that), and the phrase
as data (rules.recorded), which a page, a PDF or an e-mail says in its reader's language.

A line written before phrases were kept is read back against the templates that wrote it:
`parse` finds the template and its values in the English, and a line no template makes (a
GM's own words, an older wording) is shown as written. Which templates may have written a
line depends on where it is (a spend's reason, an award's, an undo's): a GM's own reason is
never mistaken for one of the app's.
"""

import re
from string import Formatter

from django.utils.translation import gettext_noop, pgettext_lazy

from characters import vocabulary
from characters.wording import said
from rules.ladder import STANDARD, WORDS, LevelError
from rules.recorded import phrase_data, phrase_of
from rules.words import Level, Name, Noun, Phrase, Term, say

# What a spend buys (selectors.advancement.Priced): a ledger entry's reason.
RAISE = gettext_noop("Raise {name} from {old} to {new}")
LEARN = gettext_noop("Learn {name} at {level}")
LEARN_HOW_HARD = gettext_noop("Learn {name} ({difficulty}) at {level}")
ADD = gettext_noop("Add the {noun} {name}")
BUY_OFF = gettext_noop("Buy off the {noun} {name}")
BUY_POINT = gettext_noop("Buy a {point}")
# The ledger's other lines: a spend given back, Fudge points turned into experience.
TAKEN_BACK = gettext_noop("Taken back: {spend}")
CONVERTED = gettext_noop("{rate} {points} converted ({section})")
# The audit trail's reasons.
SPENT = gettext_noop("{what}: {cost} {unit}")
AWARDED = gettext_noop("{amount} {unit}: {reason}")
CONVERTED_TO = gettext_noop("{reason}: +1 {unit}")
COMES_WITH = gettext_noop("comes with {gift}")
WENT_WITH = gettext_noop("went with {trait}")
UNCOMMITTED = gettext_noop("uncommitted trait {number} of {count} ({section})")
FROM_FOUNDRY = gettext_noop("updated from Foundry")
FROM_FILE = gettext_noop("updated from a character file")
UNDO = gettext_noop("undo {edit}")
REDO = gettext_noop("redo {edit}")
TEMPLATE = gettext_noop("template {template}")
COPY = gettext_noop("A copy of {name}")
# An edit, as an undo step and its undo's reason name it (adapters.edit_phrase).
ADDING = gettext_noop("adding {name}")
REMOVING = gettext_noop("removing {name}")
RELEVELLED = gettext_noop("{name} {was} → {now}")
NO_LEVEL = gettext_noop("no level")
CHANGE_TO = gettext_noop("the change to {name}")
CHANGE_TO_DETAILS = gettext_noop("the change to {fields}")

# What each value of a template is, to read it back: a rules name, a level, a rules word of
# a kind (vocabulary's, or a catalogue context), a noun, a number, a phrase of its own (read
# back too), or a person's words (TEXT: as written).
NAME, LEVEL, NOUN, NUMBER, PHRASE, TEXT, DETAILS = (
    "name",
    "level",
    "noun",
    "number",
    "phrase",
    "text",
    "details",
)
VALUES = {
    RAISE: {"name": NAME, "old": LEVEL, "new": LEVEL},
    LEARN_HOW_HARD: {"name": NAME, "difficulty": ("term", "difficulty"), "level": LEVEL},
    LEARN: {"name": NAME, "level": LEVEL},
    ADD: {"noun": NOUN, "name": NAME},
    BUY_OFF: {"noun": NOUN, "name": NAME},
    BUY_POINT: {"point": ("term", "advancement purchase")},
    TAKEN_BACK: {"spend": PHRASE},
    CONVERTED: {"rate": NUMBER, "points": ("term", "points"), "section": TEXT},
    AWARDED: {"amount": NUMBER, "unit": ("term", "experience unit"), "reason": TEXT},
    CONVERTED_TO: {"reason": PHRASE, "unit": ("term", "experience unit")},
    SPENT: {"what": PHRASE, "cost": NUMBER, "unit": ("term", "experience unit")},
    COMES_WITH: {"gift": NAME},
    WENT_WITH: {"trait": NAME},
    UNCOMMITTED: {"number": NUMBER, "count": NUMBER, "section": TEXT},
    FROM_FOUNDRY: {},
    FROM_FILE: {},
    UNDO: {"edit": PHRASE},
    REDO: {"edit": PHRASE},
    TEMPLATE: {"template": NAME},
    COPY: {"name": TEXT},
    ADDING: {"name": NAME},
    REMOVING: {"name": NAME},
    RELEVELLED: {"name": NAME, "was": LEVEL, "now": LEVEL},
    CHANGE_TO_DETAILS: {"fields": DETAILS},
    CHANGE_TO: {"name": NAME},
}

# Which templates may have written a line, by where it is. A spend's label first, as the
# others name one inside them.
SPEND_LABELS = (RAISE, LEARN_HOW_HARD, LEARN, ADD, BUY_OFF, BUY_POINT)
EDITS = (RELEVELLED, ADDING, REMOVING, TEMPLATE, CHANGE_TO_DETAILS, CHANGE_TO)
EVENT_REASONS = {
    "experience_spent": (SPENT,),
    "spend_accepted": (SPENT,),
    "spend_requested": SPEND_LABELS,
    "spend_withdrawn": SPEND_LABELS,
    "spend_taken_back": (TAKEN_BACK,),
    "experience_awarded": (AWARDED,),
    "fudge_points_converted": (CONVERTED_TO,),
    "trait_added": (COMES_WITH, TEMPLATE),
    "trait_removed": (WENT_WITH,),
    "trait_relevelled": (TEMPLATE,),
    "details_changed": (TEMPLATE,),
    "template_applied": (TEMPLATE,),
    "uncommitted_defined": (UNCOMMITTED,),
    "foundry_updated": (FROM_FOUNDRY,),
    "file_updated": (FROM_FILE,),
    "edit_undone": (UNDO,),
    "edit_redone": (REDO,),
    "character_duplicated": (COPY,),
}
# What a phrase inside another may be: the spend a refund or a reason names, the edit an
# undo names, the conversion an event names.
INNER = {TAKEN_BACK: SPEND_LABELS, SPENT: SPEND_LABELS, UNDO: EDITS, REDO: EDITS}
INNER[CONVERTED_TO] = (CONVERTED,)

# The keys rules.diff and adapters.edit_parts name a character's details by, as an edit's
# label writes them ("scale strength"), with their "edited detail" words: a Term says them at
# read time, these lines are what makemessages finds for it.
DETAIL_WORDS = {
    "name": pgettext_lazy("edited detail", "name"),
    "player": pgettext_lazy("edited detail", "player"),
    "concept": pgettext_lazy("edited detail", "concept"),
    "race": pgettext_lazy("edited detail", "race"),
    "scale strength": pgettext_lazy("edited detail", "scale strength"),
    "scale mass": pgettext_lazy("edited detail", "scale mass"),
    "meta points": pgettext_lazy("edited detail", "meta points"),
    "notes": pgettext_lazy("edited detail", "notes"),
    "personality": pgettext_lazy("edited detail", "personality"),
}
DETAIL_KEYS = tuple(DETAIL_WORDS)


def recorded(phrase: Phrase) -> tuple[str, dict]:
    """What a service stores for `phrase`: its English and its data."""
    return str(phrase), phrase_data(phrase)


def said_recorded(text: str, data: dict | None = None, templates=()) -> str:
    """A stored line in the active language: its phrase when it kept one, else its English
    read back against `templates` (the ones that may have written it), else as written."""
    phrase = recorded_phrase(text, data, templates)
    if phrase is None:
        return text
    try:
        return said(phrase)
    except (KeyError, IndexError, ValueError, AttributeError):  # values its template lacks
        return text


def recorded_phrase(text: str, data: dict | None = None, templates=()) -> Phrase | None:
    """The phrase a stored line kept, or read back from its English (said_recorded)."""
    if data:
        try:
            return phrase_of(data)
        except (KeyError, TypeError, ValueError):  # data not written by phrase_data
            return None
    return parse(text, templates) if text else None


def parse(text: str, templates) -> Phrase | None:
    """The phrase of the first of `templates` that says `text` word for word, its values read
    back by kind (VALUES); None when none does."""
    for template in templates:
        found = _pattern(template).fullmatch(text)
        if found is None:
            continue
        values = {}
        for key, kind in VALUES[template].items():
            value = _value(found[key], kind, INNER.get(template, ()))
            if value is None:
                break
            values[key] = value
        else:
            phrase = say(template, **values)
            if str(phrase) == text:  # read back whole: nothing of it lost or changed
                return phrase
    return None


_PATTERNS: dict[str, re.Pattern] = {}
# What a value of each kind may look like in the English: a level is one word ("Legendary+1")
# or none; a person's words may be empty; anything else is the shortest run that fits.
BODIES = {LEVEL: r"no level|\S+", NUMBER: r"-?\d+", TEXT: r".*"}


def _pattern(template: str) -> re.Pattern:
    if template not in _PATTERNS:
        parts = []
        for literal, field, _spec, _conversion in Formatter().parse(template):
            parts.append(re.escape(literal))
            if field is not None:
                kind = VALUES[template][field]
                body = _nouns() if kind == NOUN else BODIES.get(kind, r".+?")
                parts.append(f"(?P<{field}>{body})")
        _PATTERNS[template] = re.compile("".join(parts), re.DOTALL)
    return _PATTERNS[template]


def _nouns() -> str:
    """A list's noun in a line: a built-in one, longest first ("field of power"), else one
    word (a GM's own)."""
    ones = sorted((re.escape(one) for one, _many in vocabulary.NOUNS), key=len, reverse=True)
    return "|".join([*ones, r"\S+"])


def _value(text: str, kind, inner):
    if kind == NAME:
        return Name(text)
    if kind == TEXT:
        return text
    if kind == NUMBER:
        return int(text) if re.fullmatch(r"-?\d+", text) else None
    if kind == LEVEL:
        return said_level(text)
    if kind == NOUN:
        many = next((m for one, m in vocabulary.NOUNS if one == text), f"{text}s")
        return Noun(text, many)
    if kind == PHRASE:
        return parse(text, inner) or text
    if kind == DETAILS:
        fields = text.split(", ")
        if not all(field in DETAIL_KEYS for field in fields):
            return None  # a trait's name with a comma: the other template
        return tuple(Term(field, "edited detail") for field in fields)
    return Term(text, kind[1])


def said_level(word: str):
    """A level as a record wrote it: on the standard ladder when it is one of its words
    ("Legendary+1" too), said in the reader's language; a GM's own word as written."""
    if word == NO_LEVEL:
        return say(NO_LEVEL)
    if word.split("+")[0] not in WORDS:
        return word
    try:
        return Level(STANDARD.parse(word), STANDARD)
    except LevelError:
        return word


def ledger_reason_said(entry) -> str:
    """A ledger entry's reason in the active language (an award's, the GM's words, as
    written)."""
    return said_recorded(entry.reason, entry.reason_phrase)


def event_reason_said(event) -> str:
    """An audit event's reason in the active language: its phrase, else its English read back
    against the templates its action's service writes; a person's own words as written."""
    phrase = (event.phrases or {}).get("reason")
    return said_recorded(event.reason, phrase, EVENT_REASONS.get(event.action, ()))


def event_lines_said(event, key: str, templates=()) -> list[str] | None:
    """The lines `after[key]` of an event in the active language, from the phrases it kept
    for them (a line kept as text as written), else its English read back against
    `templates`; None when `after[key]` is not a list of lines."""
    english = (event.after or {}).get(key)
    if not isinstance(english, list):
        return None
    kept = (event.phrases or {}).get(key)
    if isinstance(kept, list) and len(kept) == len(english):
        return [
            said_recorded(text, data if isinstance(data, dict) else None)
            for text, data in zip(english, kept, strict=True)
        ]
    return [said_recorded(str(text), None, templates) for text in english]
