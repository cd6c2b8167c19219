"""What a GM adds to a game beyond numbers (docs/ruleset-file.md, "derived", "trackers",
"prerequisites"): its derived values, its trackers and its prerequisites, a section each.

A file with any of them is format 2; one with none is written as format 1, as it always was,
so a game that adds none is saved as it was."""

import json
import re

from django import forms
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from characters.forms.campaigns import translated_languages
from characters.forms.designer.base import RowForm, Rows, Section
from characters.forms.designer.fields import POWER_KINDS, level, lines, number, text, yes
from rules.ruleset_file.file_format import PARTS_KEYS, format_for
from rules.ruleset_file.game_parts import DERIVED_FIELDS, PREREQUISITE_FIELDS, TRACKER_FIELDS

# A name or message may be given in each of the site's languages other than English.
OTHER_LANGUAGES = translated_languages()
NAME_IN = _("Name in {language}")
MESSAGE_IN = _("Message in {language}")
NAME_IN_HELP = _("Optional: what the sheet says to a player reading in that language.")
MESSAGE_IN_HELP = _("Optional: what a player reading in that language is told.")
KEY_HELP = _(
    "What formulas name it by: lowercase letters, digits and underscores, starting with a "
    "letter, such as capacity."
)
PART_KEY_HELP = _("Lowercase letters, digits, hyphens and underscores: luck, spells-need-magery.")
TRACKER_KINDS = [
    ("boxes", _("Boxes to tick")),
    ("count", _("A count up to a maximum")),
    ("clock", _("A clock of segments")),
]
CHANGED_BY = [("player", _("The player (and the GM)")), ("gm", _("The GM only"))]
WHOLE = re.compile(r"[+-]?\d{1,9}")


class KeptTranslations(forms.CharField):
    """The entry's translations as the file has them (notes, languages the site has no
    field for), carried with the row so that a row moved by Add or Remove keeps its own;
    the visible fields for the site's languages are written over them."""

    widget = forms.HiddenInput

    def __init__(self):
        super().__init__(required=False)

    def prepare_value(self, value):
        return json.dumps(value, ensure_ascii=False) if isinstance(value, dict) else value

    def to_python(self, value):
        if isinstance(value, dict):
            return value
        try:
            kept = json.loads(value or "{}")
        except ValueError:
            return {}
        return kept if isinstance(kept, dict) else {}


def _in_languages(field, label, help_text) -> dict:
    return {
        f"{field}_{code}": text(format_lazy(label, language=language), help_text)
        for code, language in OTHER_LANGUAGES
    }


def _add_after(form: type, after: str, fields: dict) -> None:
    """`fields` added to a row's form right after its field `after`."""
    names = list(form.base_fields)
    at = names.index(after) + 1
    ordered = [*names[:at], *fields, *names[at:]]
    everything = {**form.base_fields, **fields}
    form.base_fields = {name: everything[name] for name in ordered}
    form.declared_fields = dict(form.base_fields)


def _language_paths(field: str) -> dict:
    return {f"{field}_{code}": f"translations.{code}.{field}" for code, _name in OTHER_LANGUAGES}


def _read_languages(row: dict, field: str) -> dict:
    """The row's fields for the site's languages (`field`_fr...), from the entry's
    translations of its `field`."""
    translations = row.get("translations")
    translations = translations if isinstance(translations, dict) else {}
    out = {}
    for code, _name in OTHER_LANGUAGES:
        words = translations.get(code)
        out[f"{field}_{code}"] = words.get(field, "") if isinstance(words, dict) else ""
    return {**out, "translations": translations}


def _written_languages(row: dict, field: str) -> dict:
    """The entry's translations: those kept with the row, each site language's as typed."""
    kept = row.get("translations") or {}
    translations = {code: dict(words) for code, words in kept.items() if isinstance(words, dict)}
    for code, _name in OTHER_LANGUAGES:
        typed = (row.get(f"{field}_{code}") or "").strip()
        words = translations.setdefault(code, {})
        if typed:
            words[field] = typed
        else:
            words.pop(field, None)
    return {code: words for code, words in translations.items() if words}


def _typed(value) -> str:
    return value.strip() if isinstance(value, str) else ""


def _with_format(file: dict) -> dict:
    """The file without its empty parts, in the format the writer gives it (`format_for`)."""
    for key in PARTS_KEYS:
        if not file.get(key):
            file.pop(key, None)
    file["format"] = format_for(file)
    return file


def _if_typed(row: dict, *fields: str) -> dict:
    """The row's `fields` that were typed, as typed: an entry's optional keys."""
    return {field: _typed(row[field]) for field in fields if _typed(row[field])}


def _part_rows(key: str, translated: str, form: type, fields: tuple, title, help_text, add, row):
    """A section's list of parts, at the file's `key`: each of the entry's `fields` (those
    its reader takes) is the row's field of the same name, but for the entry's translations:
    those of `translated` are a field a language."""
    same = {field: field for field in fields if field != "translations"}
    paths = {**same, **_language_paths(translated)}
    return Rows(key, title, help_text, form, key, paths, add, row)


class PartsSection(Section):
    """One of the game's lists of parts (its key in the file is the section's `key`), a row
    an entry: a section says how an entry stands in a row (`row_of`) and a row is written back
    (`entry_of`); the translations of the entry's `translated` are read and written here."""

    translated = "name"

    def read(self, file):
        rows = [
            {
                **entry,
                **self.row_of(entry),
                **_read_languages(entry, self.translated),
            }
            for entry in file.get(self.key, [])
            if isinstance(entry, dict)
        ]
        return {}, {self.key: rows}

    def write(self, file, v, rows):
        entries = []
        for row in rows[self.key]:
            entry = self.entry_of(row)
            translations = _written_languages(row, self.translated)
            if translations:
                entry["translations"] = translations
            entries.append(entry)
        file[self.key] = entries
        return _with_format(file)

    def row_of(self, entry: dict) -> dict:
        """The row's values that are not the entry's own as they stand."""
        return {}

    def entry_of(self, row: dict) -> dict:
        """The file's entry for a row, but for its translations."""
        raise NotImplementedError


class DerivedRow(RowForm):
    key = text(_("Key"), KEY_HELP, limit=40)
    name = text(_("Name"), _("What the sheet calls it: Damage capacity."))
    formula = text(
        _("Formula"),
        _(
            'Numbers, + - * / //, brackets; level("Name") a trait\'s level, has("Name") 1 if '
            'the character has it; scale("Strength") or scale("Mass") its Scale; min, max, abs, '
            "floor, ceil; other values' keys. Rounded down."
        ),
        limit=500,
    )
    note = text(_("Note"), _("Optional: a line for the sheet."), limit=2000)
    translations = KeptTranslations()


_add_after(DerivedRow, "note", _in_languages("name", NAME_IN, NAME_IN_HELP))


class DerivedSection(PartsSection):
    key = "derived"
    translated = "name"
    title = gettext_noop("Derived values")
    intro = gettext_noop(
        "Numbers worked out from a character's traits and shown on the sheet, such as a "
        "damage capacity from Constitution and the Strength scale. A tracker may start at "
        "one, and a prerequisite may need one."
    )
    parts = (
        _part_rows(
            key,
            translated,
            DerivedRow,
            DERIVED_FIELDS,
            _("Derived values"),
            _(
                "Each key once. A formula may read the values above or below it, but never "
                "itself through them."
            ),
            _("Add a derived value"),
            _("Derived value {n}"),
        ),
    )

    def entry_of(self, row):
        return {
            "key": _typed(row["key"]),
            "name": _typed(row["name"]),
            "formula": _typed(row["formula"]),
            **_if_typed(row, "note"),
        }


class TrackerRow(RowForm):
    key = text(_("Key"), PART_KEY_HELP, limit=40)
    name = text(_("Name"), _("What the sheet calls it: Luck, Sanity, Doom."))
    kind = forms.ChoiceField(
        label=_("Kind"),
        help_text=_("Boxes the player ticks, a number up to a maximum, or a clock that fills."),
        choices=TRACKER_KINDS,
        initial="count",
        widget=forms.RadioSelect,  # as choice(): sentences shown whole
    )
    size = number(
        _("Size"), _("How many boxes, the count's maximum, the clock's segments: 1 to 100.")
    )
    start = text(
        _("Start"),
        _("A number, or a derived value's key: where a new character's tracker starts."),
        limit=40,
    )
    changed_by = forms.ChoiceField(
        label=_("Changed in play by"),
        help_text=_("Who may change it on the play page."),
        choices=CHANGED_BY,
        initial="player",
        widget=forms.RadioSelect,  # as choice(): sentences shown whole
    )
    resets_on_rest = yes(
        _("Back to its start after a rest"), _("Left unticked, it stays as play left it.")
    )
    note = text(_("Note"), _("Optional: a line for the sheet."), limit=2000)
    translations = KeptTranslations()


_add_after(TrackerRow, "note", _in_languages("name", NAME_IN, NAME_IN_HELP))


class TrackersSection(PartsSection):
    key = "trackers"
    translated = "name"
    title = gettext_noop("Trackers")
    intro = gettext_noop(
        "Pools and tracks of the game's own, such as Luck points, Sanity or a clock: on the "
        "sheet, and changed on the play page."
    )
    parts = (
        _part_rows(
            key,
            translated,
            TrackerRow,
            TRACKER_FIELDS,
            _("Trackers"),
            _("Each key once. The start is at most the size."),
            _("Add a tracker"),
            _("Tracker {n}"),
        ),
    )

    def row_of(self, entry):
        return {"start": str(entry.get("start", ""))}

    def entry_of(self, row):
        entry = {
            "key": _typed(row["key"]),
            "name": _typed(row["name"]),
            "kind": row["kind"] or "count",
        }
        if row["size"] is not None:
            entry["size"] = row["size"]
        start = _typed(row["start"])
        if start:
            entry["start"] = int(start) if WHOLE.fullmatch(start) else start
        entry["changed_by"] = row["changed_by"] or "player"
        entry["resets_on_rest"] = bool(row["resets_on_rest"])
        entry.update(_if_typed(row, "note"))
        return entry


class PrerequisiteRow(RowForm):
    key = text(_("Key"), PART_KEY_HELP, limit=40)
    guards = lines(
        _("What it guards"),
        _("Gifts, skills, powers or attributes, by name: one a line or with commas between."),
        item=_("Name"),
    )
    guards_kind = forms.ChoiceField(
        label=_("Or every power of a kind"),
        help_text=_("Optional: every spell, say, as well as the names above."),
        required=False,
    )
    needs = text(
        _("What it needs"),
        _("The trait or gift a character must have: Magery. Empty with “At most”."),
    )
    at_least = level(_("At least"), _("Optional: the level the trait needs."), none=_("Any level"))
    at_least_derived = forms.ChoiceField(
        label=_("Or at least a derived value"),
        help_text=_("Optional: the trait's level must reach that value."),
        required=False,
    )
    at_most = number(
        _("At most"),
        _("Optional, instead of what it needs: how many of the guarded a character may take."),
    )
    message = text(
        _("Message"),
        _("What the player is told when it is broken: Spells need the Magery gift."),
        limit=300,
    )
    section = text(_("Rule section"), _("Optional: the game's section it cites."), limit=200)
    translations = KeptTranslations()

    def for_game(self, ruleset):
        self.fields["guards_kind"].choices = [
            ("", _("None")),
            *((kind, POWER_KINDS.get(kind, kind)) for kind in ruleset.power_kinds),
        ]
        self.fields["at_least_derived"].choices = [
            ("", _("None")),
            *((d.key, d.name) for d in ruleset.derived),
        ]


_add_after(PrerequisiteRow, "message", _in_languages("message", MESSAGE_IN, MESSAGE_IN_HELP))


class PrerequisitesSection(PartsSection):
    key = "prerequisites"
    translated = "message"
    title = gettext_noop("Prerequisites")
    intro = gettext_noop(
        "What a trait needs, in your own words: spells need Magery, Sword Mastery needs Sword "
        "at Great, at most one patron. A character who breaks one is told your message."
    )
    parts = (
        _part_rows(
            key,
            translated,
            PrerequisiteRow,
            PREREQUISITE_FIELDS,
            _("Prerequisites"),
            _(
                "Each key once. It guards traits by name or a kind of power, and needs a trait "
                "(at a level, or at a derived value) or limits how many may be taken."
            ),
            _("Add a prerequisite"),
            _("Prerequisite {n}"),
        ),
    )

    def row_of(self, entry):
        guards = entry.get("guards", [])
        if not isinstance(guards, list):
            return {"guards": ""}
        return {"guards": "\n".join(g for g in guards if isinstance(g, str))}

    def entry_of(self, row):
        entry = {"key": _typed(row["key"]), "message": _typed(row["message"])}
        guards = [name.strip() for name in re.split(r"[,\n]", row["guards"] or "")]
        if any(guards):
            entry["guards"] = [name for name in guards if name]
        entry.update(
            _if_typed(row, "guards_kind", "needs", "at_least", "at_least_derived", "section")
        )
        if row["at_most"] is not None:
            entry["at_most"] = row["at_most"]
        return entry
