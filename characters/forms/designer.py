"""The ruleset designer's forms: one form a section of the ruleset file (docs/ruleset-file.md),
field by field, each field labelled and explained in a line, and lists as rows the GM adds
and removes (plain submit buttons, so they work without scripts; htmx swaps only the rows).

A section reads its fields from a ruleset file (`read`) and writes them back into a copy
(`file()`); everything else in the file is kept. Whether the file then holds is for
rules.ruleset_file to say: its problems each carry a path ("harm.track[2].boxes"), and
`add_problems` puts each beside the field at that path, in plain words, with a problem of
another section listed by that section's title and field label (`describe`)."""

import copy
import re
from dataclasses import dataclass
from decimal import Decimal
from functools import cache

from django import forms
from django.http import QueryDict
from django.utils.text import capfirst, format_lazy, slugify
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from characters.forms.fields import AmountField
from characters.vocabulary import TERMS
from characters.wording import said
from rules.catalog import POWER_DETAILS
from rules.ladder import Ladder
from rules.ruleset_file import move_to_ladder, ruleset_to_json
from rules.ruleset_file.file_format import DIFFICULTY_NAMES, EQUIPMENT_KINDS, MAX_ENTRIES
from rules.rulesets import DIFFICULTIES, FUDGE_BASICS, LEVELS, LISTS, TOKENS, Ruleset

MAX_ROWS = MAX_ENTRIES
SEPARATOR = " \u203a "  # a single right-pointing angle quotation mark, between a title and a label
NAME_LENGTH = 100
POWER_KINDS = {
    "spell": _("Spells"),
    "psi": _("Psionic powers"),
    "superpower": _("Superpowers"),
    "field": _("Fields of power"),
}
# Each kind's checkbox, a sentence of its own (a language may not lower-case a title).
POWER_KINDS_USED = {
    "spell": _("The game has spells"),
    "psi": _("The game has psionic powers"),
    "superpower": _("The game has superpowers"),
    "field": _("The game has fields of power"),
}
SYSTEM_CHOICES = [
    (LEVELS, _("Levels: free attribute and skill levels, gifts and faults, traded (Fudge, Mudge)")),
    (TOKENS, _("Tokens: one pool of tokens for everything (MicroFudged)")),
]
# A difficulty in words, "Very hard", in the reader's language (the rules vocabulary's).
DIFFICULTY_WORDS = {d: capfirst(TERMS["difficulty"][DIFFICULTY_NAMES[d]]) for d in DIFFICULTIES}
DIFFICULTY_CHOICES = list(DIFFICULTY_WORDS.items())
EQUIPMENT_WORDS = {
    "weapon": _("Weapon"),
    "armour": _("Armour"),
    "shield": _("Shield"),
    "gear": _("Gear"),
}
EQUIPMENT_CHOICES = [(k, EQUIPMENT_WORDS[k]) for k in EQUIPMENT_KINDS]
PRICING_CHOICES = [
    ("flat", _("Flat from a default")),
    ("by_difficulty", _("By difficulty")),
    ("per_rank", _("Tokens a rank")),
]
TEMPLATE_KIND_CHOICES = [("class", _("Class")), ("race", _("Race"))]
# The rule sections a check may cite, each in words (a game's file may name others: kept).
TOPICS = {
    "creation": _("Character creation"),
    "attributes": _("Attributes"),
    "attribute_names": _("The attributes' names"),
    "skills": _("Skills"),
    "gifts": _("Gifts and faults"),
    "trading": _("Trading"),
    "limits": _("Limits"),
    "uncommitted": _("Uncommitted traits"),
    "legendary": _("Legendary"),
    "scale": _("Scale"),
    "spell": _("Spells"),
    "psi": _("Psionic powers"),
    "superpower": _("Superpowers"),
    "powers": _("Powers"),
    "meta_points": _("Meta points"),
    "points_in_play": _("Points in play"),
    "advancement": _("Advancement"),
    "harm": _("Wounds"),
    "healing": _("Healing"),
    "equipment": _("Equipment"),
}


# -- fields ----------------------------------------------------------------------------------
# Few checks here: a field only turns what was typed into the file's kind of value (a number,
# a word of the ladder). What the value may be is rules.ruleset_file's to say, so the designer,
# the import and the check command give the same reasons.


def text(label, help_text="", *, long=False, limit=NAME_LENGTH):
    widget = forms.Textarea(attrs={"rows": 3}) if long else forms.TextInput()
    widget.attrs["maxlength"] = limit
    return forms.CharField(label=label, help_text=help_text, required=False, widget=widget)


LINE = _("Line")


def lines(label, help_text="", *, item=LINE):
    """Names or text, one a line: a list in the file."""
    field = forms.CharField(
        label=label,
        help_text=help_text,
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    field.item = item
    return field


def number(label, help_text="", *, required=False):
    return forms.IntegerField(
        label=label,
        help_text=help_text,
        required=required,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        error_messages={"required": _("Give a whole number.")},
    )


def amount(label, help_text=""):
    return AmountField(
        label=label,
        help_text=help_text,
        required=False,
        max_digits=12,
        decimal_places=4,
        widget=forms.NumberInput(attrs={"step": "any", "inputmode": "decimal"}),
        error_messages={"required": _("Give a number.")},
    )


def yes(label, help_text=""):
    return forms.BooleanField(label=label, help_text=help_text, required=False)


def choice(label, help_text, choices):
    return forms.ChoiceField(label=label, help_text=help_text, choices=choices, required=False)


def level(label, help_text="", *, none=""):
    """A word of the game's ladder; its choices are set by the section (`none`: the label of
    the empty choice, for a level that may be left out)."""
    field = forms.ChoiceField(label=label, help_text=help_text, required=False)
    field.none = none
    return field


def _name_lines(value: str) -> list[str]:
    return [line.strip() for line in (value or "").splitlines() if line.strip()]


def _pairs(value: str, field: str, convert=str) -> dict:
    """ "Name: value" lines as a dict; a line that is not one is a form error."""
    out = {}
    for number_, line in enumerate((value or "").splitlines(), start=1):
        if not line.strip():
            continue
        name, colon, rest = line.rpartition(":")
        if not colon or not name.strip() or not rest.strip():
            raise forms.ValidationError(
                gettext("Line {number}: write it as “Name: {value}”.").format(
                    number=number_, value=field
                )
            )
        try:
            out[name.strip()] = convert(rest.strip())
        except ValueError:
            raise forms.ValidationError(
                gettext("Line {number}: “{value}” is not a whole number.").format(
                    number=number_, value=rest.strip()
                )
            ) from None
    return out


# -- layout ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Group:
    """Some of a section's own fields, under a title ("prefix_*" stands for every field
    made for the game's ladder, one a level)."""

    title: str
    fields: tuple[str, ...]
    help: str = ""
    system: str = ""  # used by this system only: folded away in the other


@dataclass(frozen=True)
class Rows:
    """A list the GM adds rows to and removes rows from. A row's fields are an entry of the
    list at `path` (`fields`: form field -> its key in the entry, "" for the entry itself),
    or a name and its value in a mapping (`key`: the field that is the name, None in
    `fields`: its problems are at the entry, shown beside the value)."""

    name: str  # the formset's prefix
    title: str
    help: str
    form: type
    path: str
    fields: dict
    add: str  # its button: "Add a word at the top"
    row: str  # a row in a message: "Word {n}", "Gift {key}"
    key: str = ""
    add_bottom: str = ""  # a second button, for a row before the first
    choice: str = ""  # a field of the section chosen by a radio in each row (the Fair word)
    also: tuple[str, ...] = ()  # another path the same rows may be written at


@dataclass(frozen=True)
class Spot:
    """Where the problems at a path of the file are shown: a field of the section (`rows`
    empty), a field of a row, a row (`field` "*"), or the list (`field` empty)."""

    pattern: str  # the path, with [] for any index and * for any name (last)
    label: str
    field: str = ""
    rows: str = ""


@cache
def _regex(pattern: str) -> re.Pattern:
    body = re.escape(pattern).replace(r"\[\]", r"\[(?P<index>\d+)\]")
    body = body.replace(r"\*", "(?P<key>.+)")
    return re.compile(body + r"(?P<rest>$|[.\[].*)", re.DOTALL)


def _best(spots, where: str) -> tuple[Spot | None, re.Match | None]:
    """The spot whose pattern is the longest beginning of `where`."""
    best, found = None, None
    for spot in spots:
        match = _regex(spot.pattern).match(where)
        if match and (best is None or len(spot.pattern) > len(best.pattern)):
            best, found = spot, match
    return best, found


class RowForm(forms.Form):
    """One row. Level fields take the game's ladder words."""

    def __init__(self, *args, ladder: Ladder, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if getattr(field, "none", None) is not None:
                field.choices = level_choices(ladder, field.none)


class RowFormSet(forms.BaseFormSet):
    """Every row shown is a row of the file: an empty one is refused by the reader (a
    nameless attribute), not skipped."""

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "empty_permitted": False}


def level_choices(ladder: Ladder, none: str = "") -> list:
    words = [(w, w) for w in ladder.words]
    return [("", none), *words] if none else words


# -- sections --------------------------------------------------------------------------------


class Section(forms.Form):
    """One section of the ruleset file as a form, bound to the file it changes."""

    key = ""  # its address: /games/<pk>/<key>/
    # English, said in the reader's language where shown ({% translate section.title %})
    title = ""
    intro = ""
    parts: tuple = ()
    do_not_call_in_templates = True  # the list of sections is of the classes
    paths: dict = {}  # field -> where it is in the file (or a tuple: the places it stands for)
    # "prefix_" of the fields made one a level of the ladder -> (their path with * for the
    # level's word, their label with {key} for it)
    keyed: dict = {}

    based_on = forms.IntegerField(required=False, widget=forms.HiddenInput)
    note = forms.CharField(
        required=False,
        max_length=500,
        label=_("What changed"),
        help_text=_("Kept with the new version, for you and your campaigns' history."),
    )

    def __init__(
        self, data=None, *, file: dict, ruleset: Ruleset, version: int = 0, new_row: str = ""
    ):
        self.source = file
        self.ruleset = ruleset
        self.by_key: dict[tuple[str, str], str] = {}  # (prefix, level word) -> field
        self.add_fields()
        values, rows = self.read(file)
        super().__init__(data, initial={**values, "based_on": version})
        self.fields.update(self.made)
        self.order_fields([n for n in self.fields if n not in ("based_on", "note")])
        for field in self.fields.values():
            if getattr(field, "none", None) is not None:
                field.choices = level_choices(self.ladder, field.none)
        self.rowsets = {
            part.name: forms.formset_factory(
                part.form,
                formset=RowFormSet,
                extra=0,
                max_num=MAX_ROWS,
                absolute_max=MAX_ROWS,
                validate_max=True,
            )(
                data,
                initial=rows.get(part.name, []),
                prefix=part.name,
                form_kwargs={"ladder": self.ladder},
            )
            for part in self.parts
            if isinstance(part, Rows)
        }
        self.row_problems: dict[str, list[str]] = {}
        # Problems of other sections: (where, what is wrong, that section's address).
        self.elsewhere: list[tuple[str, str, str]] = []
        for formset in self.rowsets.values():
            for form in formset.forms:
                if form.prefix == new_row:  # a row just added: where the GM types next
                    first = next(iter(form.fields.values()))
                    first.widget.attrs["autofocus"] = True
        self.new_row = new_row

    # -- what a section is: each says --

    def read(self, file: dict) -> tuple[dict, dict]:
        """The fields' values, and each Rows' rows, from the file."""
        raise NotImplementedError

    def write(self, file: dict, values: dict, rows: dict) -> dict:
        """The file with the section's values in it (`file` is a copy, to change)."""
        raise NotImplementedError

    def add_fields(self) -> None:
        """Fields made for this game: `self.made`, one a word of its ladder."""
        self.made = {}

    @property
    def ladder(self) -> Ladder:
        return self.ruleset.ladder

    def system(self) -> str:
        return self.ruleset.system

    # -- rows added and removed --

    @classmethod
    def rows_named(cls, name: str) -> Rows | None:
        return next((p for p in cls.parts if isinstance(p, Rows) and p.name == name), None)

    @classmethod
    def edited(cls, data: QueryDict) -> tuple[QueryDict, str]:
        """The posted form with a row added ("add": the Rows' name, "name:bottom" for a row
        before the first) or removed ("remove": "name:index"), and the prefix of the row
        added ("" for none). A button that names no rows changes nothing."""
        data = data.copy()
        adding = "add" in data
        name, _, where = (data.get("add") or data.get("remove") or "").partition(":")
        rows = cls.rows_named(name)
        if rows is None:
            return data, ""
        total = _count(data.get(f"{name}-TOTAL_FORMS"))
        fields = list(rows.form.base_fields)
        if adding and total < MAX_ROWS:
            at = 0 if where == "bottom" else total
            _shift(data, name, fields, total, at, +1)
            cls.row_added(data, at)
            total += 1
        elif not adding and _count(where) < total:
            at = _count(where)
            _shift(data, name, fields, total, at, -1)
            cls.row_removed(data, at)
            total -= 1
        else:
            return data, ""
        data[f"{name}-TOTAL_FORMS"] = data[f"{name}-INITIAL_FORMS"] = str(total)
        return data, f"{name}-{at}" if adding else ""

    @classmethod
    def row_added(cls, data: QueryDict, index: int) -> None:
        """A field of the section that names a row by its place follows it."""

    @classmethod
    def row_removed(cls, data: QueryDict, index: int) -> None:
        """As row_added."""

    # -- the file --

    def file(self) -> dict:
        """The ruleset file with this section as the GM set it. A field that is not a value
        yet (a number that is not one) keeps the file's value: its own message says why."""
        self.is_valid()
        values = {**self.initial, **self.cleaned_data}
        rows = {name: _rows_typed(formset) for name, formset in self.rowsets.items()}
        return self.write(copy.deepcopy(self.source), values, rows)

    # -- problems --

    @classmethod
    def spots(cls) -> list[Spot]:
        out = [
            Spot(path, cls.base_fields[name].label, name)
            for name, paths in cls.paths.items()
            for path in ((paths,) if isinstance(paths, str) else paths)
        ]
        out += [Spot(path, label, prefix) for prefix, (path, label) in cls.keyed.items()]
        for part in cls.parts:
            if not isinstance(part, Rows):
                continue
            for path in (part.path, *part.also):
                out.append(Spot(path, part.title, rows=part.name))
                entry = f"{path}.*" if part.key else f"{path}[]"
                # The entry itself: a field when the entry is one value (a word of the
                # ladder, what a gift opens), else the row.
                whole = [name for name, sub in part.fields.items() if sub == ""]
                out.append(Spot(entry, "", whole[0] if whole else "*", part.name))
                for name, sub in part.fields.items():
                    if sub:
                        label = part.form.base_fields[name].label
                        out.append(Spot(f"{entry}.{sub}", label, name, part.name))
        return out

    @classmethod
    def field_at(cls, spot: Spot):
        if spot.rows:
            return cls.rows_named(spot.rows).form.base_fields.get(spot.field)
        return cls.base_fields.get(spot.field)

    def has_problems(self) -> bool:
        rows = self.rowsets.values()
        return self.is_bound and bool(
            not self.is_valid()
            or not all(formset.is_valid() for formset in rows)
            or any(self.row_problems.values())
            or self.elsewhere
        )

    def add_problems(self, problems: list[tuple[str, str]]) -> None:
        """Each of the reader's problems beside the field it is about; one of another
        section in `elsewhere`, named by that section's title and the field's label."""
        spots = self.spots()
        for where, message in problems:
            spot, match = _best(spots, where)
            if spot is None:
                self.elsewhere.append(
                    (describe(where), sentence(plain(said(message))), section_of(where))
                )
                continue
            start = _item(match.group("rest"), self.field_at(spot))
            self.place(spot, match, sentence(start + plain(said(message))))

    def place(self, spot: Spot, match: re.Match, message: str) -> None:
        key = match.groupdict().get("key")
        if not spot.rows:
            name = self.by_key.get((spot.field, key), spot.field) if key else spot.field
            if name not in self.fields:
                self.add_error(None, message)
            elif not self.has_error(name):  # its own message says it first
                self.add_error(name, message)
            return
        row = self.row_at(spot, match)
        if row is None or not spot.field:
            self.row_problems.setdefault(spot.rows, []).append(message)
        elif spot.field == "*":
            row.add_error(None, message)
        elif not row.has_error(spot.field):
            row.add_error(spot.field, message)

    def row_at(self, spot: Spot, match: re.Match):
        formset = self.rowsets[spot.rows]
        found = match.groupdict()
        if found.get("index") is not None:
            index = int(found["index"])
            return formset.forms[index] if index < len(formset.forms) else None
        rows = self.rows_named(spot.rows)
        for form in formset.forms:
            if str(form[rows.key].value() or "").strip() == found.get("key"):
                return form
        return None

    # -- for the template --

    def layout(self) -> list[dict]:
        out = []
        for part in self.parts:
            if isinstance(part, Rows):
                out.append(self.rows_layout(part))
                continue
            fields = [self[n] for n in _in_group(self.fields, part.fields)]
            if fields:
                folded = bool(part.system) and part.system != self.system()
                out.append({"group": part, "fields": fields, "folded": folded})
        return out

    def rows_layout(self, part: Rows) -> dict:
        formset = self.rowsets[part.name]
        choice = self[part.choice] if part.choice else None
        chosen = str(choice.value()) if choice is not None else None
        return {
            "rows": part,
            "formset": formset,
            "problems": self.row_problems.get(part.name, []),
            "choice": choice,
            "items": [
                {
                    "form": form,
                    "index": index,
                    "label": part.row.format(
                        n=index + 1, key=str(form[part.key].value() or "") if part.key else ""
                    ).strip(),
                    "chosen": chosen == str(index),
                    "single": len(form.visible_fields()) == 1,
                    # A row of many fields folds away under its name, open when it needs
                    # the GM (a problem, or just added).
                    "tall": len(form.visible_fields()) > 5,
                    "open": (form.is_bound and bool(form.errors)) or form.prefix == self.new_row,
                    "name": str(form[next(iter(form.fields))].value() or "").strip(),
                }
                for index, form in enumerate(formset.forms)
            ],
        }

    def problem_list(self) -> list[tuple[str, str]]:
        """Every problem of the form, each with where it is: the field's label, the row's."""
        if not self.is_bound:
            return []
        out = [("", error) for error in self.non_field_errors()]
        for name, errors in self.errors.items():
            if name in self.fields:
                out += [(self.fields[name].label, error) for error in errors]
        for part in self.parts:
            if not isinstance(part, Rows):
                continue
            formset = self.rowsets[part.name]
            out += [(part.title, e) for e in formset.non_form_errors()]
            out += [(part.title, p) for p in self.row_problems.get(part.name, [])]
            for index, form in enumerate(formset.forms):
                key = str(form[part.key].value() or "") if part.key else ""
                row = part.row.format(n=index + 1, key=key)
                for name, errors in form.errors.items():
                    label = (
                        row if name not in form.fields else f"{row}{SEPARATOR}{form[name].label}"
                    )
                    out += [(label, error) for error in errors]
        return out + [(where, message) for where, message, _ in self.elsewhere]


def _rows_typed(formset) -> list[dict]:
    """The rows as typed, each field that is not a value yet as the file had it (or empty,
    in a new row), so the reader still checks every other row and field. Rows whose count
    was tampered with are the file's."""
    initial = list(formset.initial or [])
    if not formset.management_form.is_valid():
        return initial
    formset.is_valid()
    out = []
    for index, form in enumerate(formset.forms):
        had = initial[index] if index < len(initial) else {}
        empty = {name: field.to_python("") for name, field in form.fields.items()}
        out.append({**empty, **had, **form.cleaned_data})
    return out


def _in_group(fields, names: tuple[str, ...]) -> list[str]:
    """The group's fields in its order; "prefix_*" is every field made with the prefix."""
    out = []
    for name in names:
        if name.endswith("*"):
            out += [f for f in fields if f.startswith(name[:-1])]
        elif name in fields:
            out.append(name)
    return out


def _count(value) -> int:
    try:
        return max(0, min(int(value), MAX_ROWS))
    except (TypeError, ValueError):
        return 0


def _shift(data: QueryDict, name: str, fields: list[str], total: int, at: int, step: int):
    """Rows from `at` on moved one later (step +1: an empty row at `at`) or one earlier
    (step -1: row `at` gone)."""
    if step > 0:
        moves = [(i, i + 1) for i in range(total - 1, at - 1, -1)]
        emptied = at
    else:
        moves = [(i + 1, i) for i in range(at, total - 1)]
        emptied = total - 1
    for source, target in moves:
        for field in fields:
            key, into = f"{name}-{source}-{field}", f"{name}-{target}-{field}"
            if key in data:
                data.setlist(into, data.getlist(key))
            else:
                data.pop(into, None)
    for field in fields:
        data.pop(f"{name}-{emptied}-{field}", None)


def _item(rest: str, field=None) -> str:
    """What is left of a path past its field, as the start of the message: the line of a
    list typed one a line ("[2]" -> "Line 3: "), the name in a mapping (".Bow" -> "Bow: ")."""
    if not rest:
        return ""
    index = re.match(r"\[(\d+)\]", rest)
    if index:
        return f"{getattr(field, 'item', LINE)} {int(index.group(1)) + 1}: "
    return f"{rest.lstrip('.')}: "


def sentence(message: str) -> str:
    message = message.strip()
    return message[:1].upper() + message[1:] + ("" if message.endswith((".", "?", "!")) else ".")


def plain(message: str) -> str:
    """The reader's message in a GM's words: a field it names by its key in the file
    ("meta_points_max") is named by its label here."""

    def label(match):
        word = match.group()
        return f"“{key_labels()[word]}”" if word in key_labels() else word.replace("_", " ")

    return re.sub(r"\b[a-z]+(?:_[a-z]+)+\b", label, message)


@cache
def key_labels() -> dict[str, str]:
    out = {}
    for section in SECTIONS.values():
        for spot in section.spots():
            last = re.split(r"[.\[]", spot.pattern)[-1]
            if "_" in last and spot.field not in ("", "*"):
                out.setdefault(last, spot.label)
    return out


def _find(where: str):
    """The section, spot and match a path of the file is shown at, or None."""
    found = None
    for section in SECTIONS.values():
        spot, match = _best(section.spots(), where)
        if spot is not None and (found is None or len(spot.pattern) > len(found[1].pattern)):
            found = (section, spot, match)
    return found


def section_of(where: str) -> str:
    """The address of the section a path of the file is edited in ("" for none)."""
    found = _find(where)
    return found[0].key if found else ""


def describe(where: str) -> str:
    """A path of the ruleset file in a GM's words: "harm.track[1].boxes" is the wound track's
    row 2's boxes, "Wound track, Row 2, Boxes" with SEPARATOR between."""
    found = _find(where)
    if found is None:  # the file's shape, not a field of it: its part, by the section's title
        top = re.split(r"[.\[]", where, maxsplit=1)[0]
        section = SECTIONS.get(FILE_PARTS.get(top, ""))
        return gettext(section.title) if section else PART_TITLES.get(top, _("The file"))
    section, spot, match = found
    key = match.groupdict().get("key") or ""
    parts = [gettext(section.title)]
    if spot.rows:
        rows = section.rows_named(spot.rows)
        if spot.field:
            index = match.groupdict().get("index")
            parts.append(rows.row.format(n=int(index) + 1 if index else "", key=key))
            if spot.field != "*":
                parts.append(spot.label)
        else:
            parts.append(rows.title)
    else:
        parts.append(spot.label.format(key=key))
    rest = _item(match.group("rest"), section.field_at(spot)).rstrip(": ")
    return SEPARATOR.join(str(p) for p in (*parts, rest) if p)


def _declare(section: type[Section], fields: dict) -> None:
    """Fields a section has one of for each list, difficulty or kind of power."""
    section.base_fields.update(fields)
    section.declared_fields.update(fields)


def _number_of(value):
    """A form's Decimal as the file's number (2, 0.5); other values as they are."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    return value


def _numbers_in(text: str) -> list[int]:
    """ "6, 11, 16" as numbers (the form has refused what is not one)."""
    return [int(part) for part in re.split(r"[,\s]+", text or "") if _whole_number(part)]


def _whole_number(part: str) -> bool:
    return part.isascii() and part.isdigit() and len(part) <= 9


def _pair_lines(mapping: dict) -> str:
    return "\n".join(f"{name}: {value}" for name, value in (mapping or {}).items())


def _signed(value) -> str:
    return f"{value:+d}" if isinstance(value, int) and value else str(value)


class GameSection(Section):
    key = "game"
    title = gettext_noop("The game")
    intro = gettext_noop(
        "What players see when they pick your game, and how characters are built in it."
    )
    name = text(_("Name"), _("What players and campaigns call the game."))
    description = text(
        _("Description"), _("One short paragraph: what the game is about."), long=True, limit=2000
    )
    system = choice(
        _("How characters are built"),
        _(
            "Free levels (Fudge, Mudge) or one pool of tokens (MicroFudged). Skills are priced to "
            "fit: tokens a rank in the tokens system."
        ),
        SYSTEM_CHOICES,
    )
    parts = (Group("", ("name", "description", "system")),)
    paths = {"name": "name", "description": "description", "system": "system"}

    def read(self, file):
        return {k: file.get(k) for k in ("name", "description", "system")}, {}

    def write(self, file, v, rows):
        file.update(name=v["name"], description=v["description"])
        system = v["system"] or file.get("system")
        skills = file.get("skills")
        if system != file.get("system") and isinstance(skills, dict):
            # The pricing the new system takes (the reader would refuse the old one).
            if system == TOKENS:
                skills["pricing"] = "per_rank"
            else:
                skills["cost"] = 1
                if skills.get("pricing") == "per_rank":
                    skills["pricing"] = "flat"
        file["system"] = system
        return file


class WordRow(RowForm):
    word = text(_("Word"))


class LadderSection(Section):
    key = "ladder"
    title = gettext_noop("Trait ladder")
    intro = gettext_noop(
        "The words a trait is rated in, from lowest to highest. One of them is Fair: the level "
        "everything is counted from. Renaming a word, or adding one at the top or the bottom, "
        "keeps every default, bound, cap and cost at the level it was."
    )
    fair = forms.IntegerField(
        label=_("Which word is Fair"),
        required=False,
        widget=forms.HiddenInput,
    )
    creation_min = forms.TypedChoiceField(
        label=_("Lowest level at creation"),
        help_text=_("The lowest a new character's trait may start at."),
        coerce=int,
        error_messages={"required": _("Choose a level.")},
    )
    creation_max = forms.TypedChoiceField(
        label=_("Highest level at creation"),
        help_text=_("The highest a new character's trait may start at: below the top word."),
        coerce=int,
        error_messages={"required": _("Choose a level.")},
    )
    legendary_at_creation = yes(
        _("The top word is allowed at creation"),
        _("Whether a new character may start a trait at the top word after all."),
    )
    parts = (
        Rows(
            "words",
            _("Words"),
            _(
                "From lowest to highest, each once, each ending in a letter. Choose the one that "
                "is Fair: it needs a word below it and one above it."
            ),
            WordRow,
            "ladder.words",
            {"word": ""},
            _("Add a word at the top"),
            _("Word {n}"),
            add_bottom=_("Add a word at the bottom"),
            choice="fair",
        ),
        Group(
            _("At character creation"), ("creation_min", "creation_max", "legendary_at_creation")
        ),
    )
    paths = {
        "fair": "ladder.fair",
        "creation_min": "ladder.creation_min",
        "creation_max": "ladder.creation_max",
        "legendary_at_creation": "ladder.legendary_at_creation",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        levels = range(self.ladder.bottom, self.ladder.top_word_level + 1)
        for name in ("creation_min", "creation_max"):
            self.fields[name].choices = [(lv, self.ladder.name(lv)) for lv in levels]

    def read(self, file):
        ladder = file["ladder"]
        values = {
            "fair": self.ladder.fair,
            "creation_min": self.ladder.parse(ladder["creation_min"]),
            "creation_max": self.ladder.parse(ladder["creation_max"]),
            "legendary_at_creation": ladder.get("legendary_at_creation", False),
        }
        return values, {"words": [{"word": w} for w in ladder["words"]]}

    def write(self, file, v, rows):
        ladder = file["ladder"]
        for name in ("creation_min", "creation_max"):
            # In the old ladder's words: move_to_ladder puts them in the new one's.
            ladder[name] = self.ladder.name(v[name])
        ladder["legendary_at_creation"] = v["legendary_at_creation"]
        words = [row["word"].strip() for row in rows["words"]]
        fair = v["fair"] if v["fair"] is not None else -1
        return move_to_ladder(file, words, fair)

    def clean_fair(self):
        fair = self.cleaned_data.get("fair")
        if fair is None:
            raise forms.ValidationError(_("Choose the word that is Fair."))
        return fair

    @classmethod
    def row_added(cls, data, index):
        fair = _count(data.get("fair"))
        if index <= fair and "fair" in data:
            data["fair"] = str(fair + 1)

    @classmethod
    def row_removed(cls, data, index):
        fair = _count(data.get("fair"))
        if "fair" not in data:
            return
        if index < fair:
            data["fair"] = str(fair - 1)
        elif index == fair:
            data.pop("fair")


def _caps_fields(section: Section, prefix: str) -> None:
    """One count for each word above Fair: how many traits may stand there."""
    ladder = section.ladder
    for index in range(ladder.fair + 1, len(ladder.words)):
        word = ladder.words[index]
        name = f"{prefix}{index}"
        section.made[name] = number(word)
        section.by_key[(prefix, word)] = name


class NumbersSection(Section):
    key = "numbers"
    title = gettext_noop("Budgets and limits")
    intro = gettext_noop(
        "What a new character has to spend, and the limits on spending it. A campaign's house "
        "rules change these numbers as they change a built-in ruleset's."
    )
    attribute_levels = number(
        _("Free attribute levels"),
        _("Levels above the default to spread over the attributes."),
        required=True,
    )
    skill_levels = number(_("Free skill levels"), _("Levels to spend on skills."), required=True)
    free_gifts = amount(_("Free gifts"), _("Gifts a character takes without paying for them."))
    trade_attribute = amount(
        _("An attribute level is worth"), _("In skill levels, when traded (Fudge: 3).")
    )
    trade_gift = amount(_("A gift is worth"), _("In skill levels, when traded (Fudge: 6)."))
    trade_fault = amount(_("A fault is worth"), _("In skill levels, when traded (Fudge: 6)."))
    meta_points_start = number(
        _("Points at the start"),
        _("Meta or Fudge points a new character starts with."),
        required=True,
    )
    meta_points_max = number(_("Most points held"), _("Empty: no limit."))
    has_scale = yes(
        _("Characters have a Scale"),
        _("Strength and Mass scale for races bigger or smaller than human (Mudge 2.34)."),
    )
    negative_scale_refund = yes(
        _("A Scale below 0 gives levels back"), _("Only if you allow it (Mudge 2.34).")
    )
    tokens = number(
        _("Tokens"), _("The one pool a new character spends on everything."), required=True
    )
    tokens_carried = number(
        _("Tokens carried into play"), _("The most unspent tokens kept. Empty: no limit.")
    )
    must_spend_and_save = yes(
        _("Spend one, save one"),
        _("A new character spends at least one token and saves at least one (MicroFudged DIP)."),
    )
    cap_trading = yes(
        _("Two lower for one higher"),
        _("A place at a capped level may be traded for two a level lower, and back (Mudge 1.5)."),
    )
    max_lowered_skills = number(
        _("Most skills lowered"),
        _("Skills that may drop one level below their default. Empty: no limit."),
    )
    max_skills = number(
        _("Most skills"), _("The most skills a new character takes. Empty: no limit.")
    )
    min_faults = number(
        _("Fewest faults"), _("The fewest faults a new character takes."), required=True
    )
    uncommitted_traits = number(
        _("Uncommitted traits"), _("Traits left to define in play (Mudge 1.7)."), required=True
    )
    parts = (
        Group(
            _("What a new character gets"),
            (
                "attribute_levels",
                "skill_levels",
                "free_gifts",
                "trade_attribute",
                "trade_gift",
                "trade_fault",
            ),
            system=LEVELS,
        ),
        Group(
            _("What a new character gets"),
            ("tokens", "tokens_carried", "must_spend_and_save"),
            system=TOKENS,
        ),
        Group(
            _("How many attributes may stand at a level"),
            ("attribute_cap_*",),
            _("Empty: no limit at that level."),
        ),
        Group(
            _("How many skills may stand at a level"),
            ("skill_cap_*",),
            _("Empty: no limit at that level."),
        ),
        Group(
            _("Other limits"),
            ("cap_trading", "max_lowered_skills", "max_skills", "min_faults", "uncommitted_traits"),
        ),
        Group(_("Points"), ("meta_points_start", "meta_points_max")),
        Group(_("Scale"), ("has_scale", "negative_scale_refund"), system=LEVELS),
    )
    TRADES = {"trade_attribute": "attribute", "trade_gift": "gift", "trade_fault": "fault"}
    paths = {
        **{
            name: f"numbers.{name}"
            for name in (
                "attribute_levels",
                "skill_levels",
                "free_gifts",
                "meta_points_start",
                "meta_points_max",
                "has_scale",
                "negative_scale_refund",
                "tokens",
                "tokens_carried",
                "must_spend_and_save",
                "cap_trading",
                "max_lowered_skills",
                "max_skills",
                "min_faults",
                "uncommitted_traits",
            )
        },
        **{name: f"numbers.trade_values.{key}" for name, key in TRADES.items()},
    }
    keyed = {
        "attribute_cap_": ("numbers.attribute_caps.*", _("Attributes at {key}")),
        "skill_cap_": ("numbers.skill_caps.*", _("Skills at {key}")),
    }

    def add_fields(self):
        super().add_fields()
        _caps_fields(self, "attribute_cap_")
        _caps_fields(self, "skill_cap_")

    def read(self, file):
        numbers = file["numbers"]
        values = {name: numbers.get(path.split(".")[-1]) for name, path in self.paths.items()}
        values.update({name: numbers["trade_values"].get(key) for name, key in self.TRADES.items()})
        for (prefix, word), name in self.by_key.items():
            values[name] = numbers.get(f"{prefix[:-1]}s", {}).get(word)
        return values, {}

    def write(self, file, v, rows):
        numbers = file["numbers"]
        for name, path in self.paths.items():
            if name not in self.TRADES:
                numbers[path.split(".")[-1]] = _number_of(v[name])
        numbers["trade_values"] = {key: _number_of(v[name]) for name, key in self.TRADES.items()}
        for prefix in ("attribute_cap_", "skill_cap_"):
            caps = {
                word: v[name]
                for (p, word), name in reversed(self.by_key.items())
                if p == prefix and v.get(name) is not None
            }
            numbers[f"{prefix[:-1]}s"] = caps
        return file


class NameRow(RowForm):
    name = text(_("Name"))


class ExtraRow(RowForm):
    name = text(_("Name"))
    default = level(_("Default"))


class OpenedRow(RowForm):
    gift = text(_("Gift"))
    attribute = text(_("Attribute it opens"))


WHO_NAMES = [
    ("fixed", _("Every character has the attributes below")),
    ("own", _("Each player names their own: the list below is a suggestion")),
]


class AttributesSection(Section):
    key = "attributes"
    title = gettext_noop("Attributes")
    intro = gettext_noop(
        "The traits every character has, what they cost, and which ones damage reads."
    )
    who = choice(_("Who names them"), "", WHO_NAMES)
    default = level(_("Default level"), _("The level an attribute costs nothing at."))
    cost = number(
        _("Cost a level"),
        _("Each level above the default: attribute levels, or tokens in the tokens system."),
        required=True,
    )
    uncommitted_max = level(
        _("Uncommitted traits up to"), _("The highest an uncommitted trait is defined at in play.")
    )
    damage_capacity_attribute = text(
        _("Damage capacity"),
        _("The attribute that soaks damage (Mudge: Constitution). Empty: none."),
    )
    muscle_attribute = text(
        _("Muscle"), _("The attribute that adds to a blow's damage (Mudge: Strength). Empty: none.")
    )
    parts = (
        Rows(
            "names",
            _("The attributes"),
            _("Each once."),
            NameRow,
            "attributes.names",
            {"name": ""},
            _("Add an attribute"),
            _("Attribute {n}"),
            also=("catalogue.attributes",),
        ),
        Group("", ("who", "default", "cost", "uncommitted_max")),
        Group(
            _("Damage factors"),
            ("damage_capacity_attribute", "muscle_attribute"),
            _("The attributes the wound track's damage factors read."),
        ),
        Rows(
            "extra",
            _("Attributes added beside the list"),
            _("Each with its own default level (a house rule's extra attributes)."),
            ExtraRow,
            "attributes.extra",
            {"name": "name", "default": "default"},
            _("Add an extra attribute"),
            _("Extra attribute {n}"),
        ),
        Rows(
            "opened",
            _("Attributes a gift opens"),
            _("A character with the gift has the attribute too (Mudge: Magery opens Mana)."),
            OpenedRow,
            "attributes.opened_by_gifts",
            {"gift": None, "attribute": ""},
            _("Add a gift that opens an attribute"),
            _("Gift {key}"),
            key="gift",
        ),
    )
    paths = {
        "default": "attributes.default",
        "cost": "attributes.cost",
        "uncommitted_max": "attributes.uncommitted_max",
        "damage_capacity_attribute": "harm.damage_capacity_attribute",
        "muscle_attribute": "harm.muscle_attribute",
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.source.get("harm") is None:  # no wound track: nothing reads damage
            del self.fields["damage_capacity_attribute"], self.fields["muscle_attribute"]

    def read(self, file):
        attributes, harm = file["attributes"], file.get("harm") or {}
        names = attributes.get("names")
        listed = names if names is not None else file.get("catalogue", {}).get("attributes", [])
        values = {
            "who": "own" if names is None else "fixed",
            "default": attributes.get("default"),
            "cost": attributes.get("cost"),
            "uncommitted_max": attributes.get("uncommitted_max"),
            "damage_capacity_attribute": harm.get("damage_capacity_attribute") or "",
            "muscle_attribute": harm.get("muscle_attribute") or "",
        }
        rows = {
            "names": [{"name": n} for n in listed],
            "extra": [dict(e) for e in attributes.get("extra", [])],
            "opened": [
                {"gift": g, "attribute": a}
                for g, a in attributes.get("opened_by_gifts", {}).items()
            ],
        }
        return values, rows

    def write(self, file, v, rows):
        attributes = file["attributes"]
        names = [row["name"].strip() for row in rows["names"]]
        attributes["names"] = None if v["who"] == "own" else names
        file.setdefault("catalogue", {})["attributes"] = names
        for key in ("default", "uncommitted_max"):
            attributes[key] = v[key] or attributes.get(key)
        attributes["cost"] = v["cost"]
        attributes["extra"] = [
            {"name": row["name"].strip(), "default": row["default"] or self.ladder.name(0)}
            for row in rows["extra"]
        ]
        attributes["opened_by_gifts"] = _mapping(rows["opened"], "gift", "attribute")
        if file.get("harm") is not None:
            for key in ("damage_capacity_attribute", "muscle_attribute"):
                file["harm"][key] = (v[key] or "").strip() or None
        return file


def _mapping(rows: list[dict], key: str, value: str) -> dict:
    """Rows of a name and its value as the file's mapping; a row with neither is left out."""
    return {
        str(row[key] or "").strip(): row[value]
        for row in rows
        if str(row[key] or "").strip() or row[value] not in ("", None)
    }


class NamedDefaultRow(RowForm):
    skill = text(_("Skill"))
    level = level(_("Default"))


class SkillsSection(Section):
    key = "skills"
    title = gettext_noop("Skills")
    intro = gettext_noop(
        "How skills are priced, and where a skill stands when a character has not taken it."
    )
    pricing = choice(
        _("How skills are priced"),
        _(
            "Flat: each level above the default costs a skill level (Fudge). By difficulty: the "
            "table below (Mudge 1.62). Tokens a rank: the tokens system."
        ),
        PRICING_CHOICES,
    )
    default = level(
        _("Default level"), _("Where a skill stands when not taken (a difficulty's default first).")
    )
    cost = number(
        _("Tokens a rank"),
        _("What each rank above the default costs, in tokens. 1 in the levels system."),
        required=True,
    )
    parts = (
        Group("", ("pricing", "default", "cost")),
        Group(
            _("By difficulty"),
            tuple(f"{d}_{k}" for d in DIFFICULTIES for k in ("default", "cost")),
            _(
                "Each difficulty's default, and its cost at Fair; each level up or down costs one "
                "more or less. The costs must rise with the difficulty."
            ),
        ),
        Rows(
            "named",
            _("Skills with a default of their own"),
            _("Streamlined MicroFudged: Science and Medicine start at Terrible."),
            NamedDefaultRow,
            "skills.named_defaults",
            {"skill": None, "level": ""},
            _("Add a skill with its own default"),
            _("Skill {key}"),
            key="skill",
        ),
    )
    paths = {"pricing": "skills.pricing", "default": "skills.default", "cost": "skills.cost"}

    def read(self, file):
        skills = file["skills"]
        values = {k: skills.get(k) for k in ("pricing", "default", "cost")}
        for d, row in skills["difficulties"].items():
            values[f"{d}_default"] = row.get("default") or ""
            values[f"{d}_cost"] = row.get("cost_at_fair")
        named = [{"skill": n, "level": lv} for n, lv in skills.get("named_defaults", {}).items()]
        return values, {"named": named}

    def write(self, file, v, rows):
        skills = file["skills"]
        skills.update(
            pricing=v["pricing"] or skills["pricing"],
            default=v["default"] or skills["default"],
            cost=v["cost"],
            named_defaults=_mapping(rows["named"], "skill", "level"),
            difficulties={
                d: {"default": v[f"{d}_default"] or None, "cost_at_fair": v[f"{d}_cost"]}
                for d in DIFFICULTIES
            },
        )
        return file


_declare(
    SkillsSection,
    {
        f"{d}_{k}": field
        for d in DIFFICULTIES
        for k, field in (
            (
                "default",
                level(
                    format_lazy(_("{difficulty}: default"), difficulty=DIFFICULTY_WORDS[d]),
                    none=_("No default"),
                ),
            ),
            (
                "cost",
                number(
                    format_lazy(_("{difficulty}: cost at Fair"), difficulty=DIFFICULTY_WORDS[d]),
                    required=True,
                ),
            ),
        )
    },
)
SkillsSection.paths = {
    **SkillsSection.paths,
    **{f"{d}_default": f"skills.difficulties.{d}.default" for d in DIFFICULTIES},
    **{f"{d}_cost": f"skills.difficulties.{d}.cost_at_fair" for d in DIFFICULTIES},
}


class PowersSection(Section):
    key = "powers"
    title = gettext_noop("Powers")
    intro = gettext_noop(
        "The kinds of power characters may have, the gift each needs first, and what they cost."
    )
    superpower_cost = amount(_("A superpower costs"), _("In gifts (Mudge 2.8: 2)."))
    power_default = level(_("Power default"), _("The level a power costs nothing at."))
    power_levels = text(
        _("Token steps"),
        _(
            "MicroFudged DIP: the tokens each power level costs in all, rising, e.g. 6, 11, 16, "
            "21. Empty: none."
        ),
    )
    power_levels.item = _("Number")
    parts = (
        *(
            Group(title, (f"{kind}_used", f"{kind}_gift", f"{kind}_note"))
            for kind, title in POWER_KINDS.items()
        ),
        Group(_("Costs"), ("superpower_cost", "power_default", "power_levels")),
    )
    paths = {
        "superpower_cost": "numbers.superpower_cost",
        "power_default": "numbers.power_default",
        "power_levels": "numbers.power_levels",
        "spell_used": "powers.kinds",
        **{f"{kind}_gift": f"powers.need_gifts.{kind}" for kind in POWER_KINDS},
        **{f"{kind}_note": f"catalogue.power_kind_notes.{kind}" for kind in POWER_KINDS},
    }

    def read(self, file):
        powers, numbers = file.get("powers") or {}, file["numbers"]
        notes = file.get("catalogue", {}).get("power_kind_notes", {})
        values = {
            "superpower_cost": numbers.get("superpower_cost"),
            "power_default": numbers.get("power_default"),
            "power_levels": ", ".join(map(str, numbers.get("power_levels") or [])),
        }
        for kind in POWER_KINDS:
            values[f"{kind}_used"] = kind in powers.get("kinds", [])
            values[f"{kind}_gift"] = powers.get("need_gifts", {}).get(kind, "")
            values[f"{kind}_note"] = notes.get(kind, "")
        return values, {}

    def clean_power_levels(self):
        value = self.cleaned_data["power_levels"]
        for index, part in enumerate(p for p in re.split(r"[,\s]+", value) if p):
            if not _whole_number(part):
                raise forms.ValidationError(
                    gettext("Number {number}: “{value}” is not a whole number.").format(
                        number=index + 1, value=part
                    )
                )
        return value

    def write(self, file, v, rows):
        kinds = [kind for kind in POWER_KINDS if v[f"{kind}_used"]]
        gifts = {k: v[f"{k}_gift"].strip() for k in POWER_KINDS if v[f"{k}_gift"].strip()}
        file["powers"] = {"kinds": kinds, "need_gifts": gifts}
        catalogue = file.setdefault("catalogue", {})
        catalogue["power_kinds"] = kinds
        catalogue["power_kind_notes"] = {
            k: v[f"{k}_note"].strip() for k in kinds if v[f"{k}_note"].strip()
        }
        numbers = file["numbers"]
        numbers["superpower_cost"] = _number_of(v["superpower_cost"])
        numbers["power_default"] = v["power_default"] or numbers.get("power_default")
        numbers["power_levels"] = _numbers_in(v["power_levels"])
        return file


_declare(
    PowersSection,
    {
        name: field
        for kind, title in POWER_KINDS.items()
        for name, field in (
            (f"{kind}_used", yes(POWER_KINDS_USED[kind])),
            (
                f"{kind}_gift",
                text(_("Gift needed first"), _("Empty: none (Mudge: Magery for spells).")),
            ),
            (
                f"{kind}_note",
                text(
                    _("Note in the catalogue"),
                    _("What the campaign's list says of them."),
                    limit=2000,
                ),
            ),
        )
    },
)

LIST_NAMES = {
    "attributes": TERMS["list title"]["Attributes"],
    "skills": TERMS["list title"]["Skills"],
    "gifts": TERMS["list title"]["Gifts"],
    "faults": TERMS["list title"]["Faults"],
    "powers": TERMS["list title"]["Powers"],
}
TERM_FIELDS = {
    "points": text(
        _("Points"),
        _("What meta points are called (Fudge points, luck). Empty: the game has none."),
    ),
    "gm": text(_("The GM"), _("What the game master is called (MicroFudged: Narrator).")),
    "cost_unit": text(
        _("A skill's cost"), _("What the reference table prices skills in: skill level, token.")
    ),
    "weapon_value": text(_("A weapon's value"), _("What the sheet calls it: Damage.")),
    "armour_value": text(_("An armour's value"), _("What the sheet calls it: Armour.")),
    "equipment_hint": text(
        _("About equipment"), _("A line the builder shows beside equipment."), long=True, limit=2000
    ),
    "personality_hint": text(
        _("About personality"),
        _("A line the builder shows beside personality."),
        long=True,
        limit=2000,
    ),
    "dice_note": text(
        _("About the dice"),
        _("What the dice roller adds (Mudge's damage die)."),
        long=True,
        limit=2000,
    ),
}


class TermsSection(Section):
    key = "terms"
    title = gettext_noop("Names of things")
    intro = gettext_noop("What your game calls its lists and things, on every page and sheet.")
    parts = (
        Group(
            _("The lists"),
            tuple(f"{name}_{k}" for name in LISTS for k in ("title", "one")),
            _(
                "Each list's title and what one of them is called (Knacks, knack). Gifts, faults "
                "and powers: leave both empty for a game without them."
            ),
        ),
        Group(_("Other words"), tuple(TERM_FIELDS)),
    )
    paths = {
        **{
            f"{name}_title": (f"terms.lists.{name}", f"terms.lists.{name}[0]")
            for name in LISTS
            if name != "attributes"
        },
        # A list missing altogether: beside the first.
        "attributes_title": ("terms.lists", "terms.lists.attributes", "terms.lists.attributes[0]"),
        **{f"{name}_one": f"terms.lists.{name}[1]" for name in LISTS},
        **{key: f"terms.{key}" for key in TERM_FIELDS},
    }

    def read(self, file):
        terms = file["terms"]
        values = {key: terms.get(key, "") for key in TERM_FIELDS}
        for name in LISTS:
            title, one = terms["lists"].get(name, ("", ""))
            values.update({f"{name}_title": title, f"{name}_one": one})
        return values, {}

    def write(self, file, v, rows):
        terms = file["terms"]
        terms["lists"] = {
            name: [v[f"{name}_title"].strip(), v[f"{name}_one"].strip()]
            for name in LISTS
            if name in ("attributes", "skills")
            or v[f"{name}_title"].strip()
            or v[f"{name}_one"].strip()
        }
        terms.update({key: v[key].strip() for key in TERM_FIELDS})
        return file


_declare(
    TermsSection,
    {
        **{
            name: field
            for list_name, title in LIST_NAMES.items()
            for name, field in (
                (f"{list_name}_title", text(format_lazy(_("{list}: title"), list=title))),
                (f"{list_name}_one", text(format_lazy(_("{list}: one of them"), list=title))),
            )
        },
        **TERM_FIELDS,
    },
)


class TrackRow(RowForm):
    name = text(_("Name"))
    damage = text(_("Damage"))
    penalty = number(_("Penalty"))
    boxes = number(_("Boxes"))


class GrazeRow(RowForm):
    start = number(_("From damage"))
    wound = text(_("Worst row"))


class HarmSection(Section):
    key = "harm"
    title = gettext_noop("Wound track")
    intro = gettext_noop(
        "The track a character marks when hurt (or set back), lightest row first, and what "
        "a blow does."
    )
    has_track = yes(_("The game has a wound track"), _("Untick for a game without one."))
    track_title = text(_("Title"), _("What the sheet calls it: Wounds, Setbacks."))
    caused_by = text(_("Its first column"), _("What inflicts a row: Damage, Successes."))
    penalty_unit = choice(
        _("The penalty applies to"),
        "",
        [("", _("Every action")), ("card", _("Every card drawn (MicroFudged)"))],
    )
    damage_factors = yes(
        _("The sheet prints damage factors"), _("Offensive and defensive (Mudge 4.54).")
    )
    damage_die = yes(
        _("A damage die"), _("The odd-coloured fourth die adds to damage (Mudge 4.61).")
    )
    unarmed = number(
        _("Bare hands"), _("The damage of a blow with bare hands (Mudge: -1)."), required=True
    )
    unarmed_trained = number(
        _("Bare hands, trained"),
        _("With a martial art among the skills (Mudge: 0)."),
        required=True,
    )
    martial_arts = lines(_("Martial arts"), _("Skills that train bare hands, one a line."))
    more_scratch = lines(
        _("One more light box"), _("Gifts that add a box to the first row, one a line.")
    )
    fewer_scratch = lines(_("One light box fewer"), _("Faults that take one away, one a line."))
    track_note = text(_("A line under the track"), _("How it heals, say."), limit=2000)
    parts = (
        Group("", ("has_track", "track_title", "caused_by", "penalty_unit")),
        Rows(
            "track",
            _("Rows"),
            _(
                "Lightest first. Damage: what inflicts it (1,2 or 3-4 or 9+). Penalty: 0 or less, "
                "to every action while it is the worst. Boxes: 1 to 20."
            ),
            TrackRow,
            "harm.track",
            {"name": "name", "damage": "damage", "penalty": "penalty", "boxes": "boxes"},
            _("Add a row"),
            _("Row {n}"),
        ),
        Group(
            _("Damage"),
            (
                "damage_factors",
                "damage_die",
                "unarmed",
                "unarmed_trained",
                "martial_arts",
                "more_scratch",
                "fewer_scratch",
                "track_note",
            ),
        ),
        Rows(
            "grazes",
            _("Grazes"),
            _(
                "The worst row a graze reaches, from a total damage up (Mudge 4.56). Empty: no "
                "limit."
            ),
            GrazeRow,
            "harm.graze_limits",
            {"start": "from", "wound": "wound"},
            _("Add a graze limit"),
            _("Graze limit {n}"),
        ),
    )
    paths = {
        "has_track": "harm",
        "track_title": "harm.title",
        "caused_by": "harm.caused_by",
        "penalty_unit": "harm.penalty_unit",
        "damage_factors": "harm.damage_factors",
        "damage_die": "harm.damage_die",
        "unarmed": "harm.unarmed",
        "unarmed_trained": "harm.unarmed_trained",
        "martial_arts": "harm.martial_arts",
        "more_scratch": "harm.more_scratch",
        "fewer_scratch": "harm.fewer_scratch",
        "track_note": "harm.note",
    }
    LISTED = ("martial_arts", "more_scratch", "fewer_scratch")

    def read(self, file):
        harm = file.get("harm") or ruleset_to_json(FUDGE_BASICS)["harm"]
        values = {name: harm.get(path.split(".")[-1]) for name, path in self.paths.items()}
        values.update(
            has_track=file.get("harm") is not None,
            track_title=harm["title"],
            track_note=harm.get("note", ""),
            **{key: "\n".join(harm.get(key, [])) for key in self.LISTED},
        )
        rows = {
            "track": [dict(row) for row in harm["track"]],
            "grazes": [
                {"start": g["from"], "wound": g["wound"]} for g in harm.get("graze_limits", [])
            ],
        }
        return values, rows

    def write(self, file, v, rows):
        if not v["has_track"]:
            file["harm"] = None
            return file
        harm = file.get("harm") or {}
        harm.update(
            title=v["track_title"].strip(),
            caused_by=v["caused_by"].strip(),
            track=[
                {
                    "name": r["name"].strip(),
                    "damage": r["damage"].strip(),
                    "penalty": r["penalty"],
                    "boxes": r["boxes"],
                }
                for r in rows["track"]
            ],
            penalty_unit=v["penalty_unit"] or "",
            damage_factors=v["damage_factors"],
            damage_die=v["damage_die"],
            unarmed=v["unarmed"],
            unarmed_trained=v["unarmed_trained"],
            note=v["track_note"].strip(),
            graze_limits=[
                {"from": r["start"], "wound": r["wound"].strip()} for r in rows["grazes"]
            ],
            **{key: _name_lines(v[key]) for key in self.LISTED},
        )
        file["harm"] = harm
        return file


ADVANCEMENT_COSTS = {
    "attribute_multiplier": number(
        _("An attribute costs"),
        _("Times a skill's cost at the same level (Fudge: 3)."),
        required=True,
    ),
    "beyond": number(_("Each level past the table"), _("Empty: none past it.")),
    "gift": number(_("A gift"), _("Empty: gifts are not bought.")),
    "power": number(_("A power"), _("Empty: powers are not bought.")),
    "meta_point": number(_("A meta point"), _("Empty: not bought.")),
    "buy_off_fault": number(_("Buying off a fault"), _("Empty: faults are not bought off.")),
    "points_per_unit": number(
        _("Points for one unit"), _("Fudge points that make one (Fudge: 3). Empty: none.")
    ),
}


class AdvancementSection(Section):
    key = "advancement"
    title = gettext_noop("Advancement")
    intro = gettext_noop("What experience buys after approval, and what it costs.")
    has_advancement = yes(_("Characters advance"), _("Untick for a game without experience."))
    unit = text(_("Unit"), _("What experience is counted in: XP, EP, token."))
    section = text(
        _("Rule section"), _("Where the costs come from, e.g. My game, p. 4."), limit=2000
    )
    gm_permission_from = level(
        _("The GM's permission from"),
        _("Raising a skill from this level on needs the GM."),
        none=_("Never"),
    )
    approve_gift = yes(_("A new gift needs the GM's approval"))
    approve_power = yes(_("A new power needs the GM's approval"))
    parts = (
        Group("", ("has_advancement", "unit", "section")),
        Group(
            _("Raising a skill one level"),
            ("step_*",),
            _(
                "From each level, in the unit; the costs must not fall as the level rises. All "
                "empty: one unit a rank."
            ),
        ),
        Group(
            _("Other costs"),
            (*ADVANCEMENT_COSTS, "gm_permission_from", "approve_gift", "approve_power"),
        ),
    )
    paths = {
        "has_advancement": "advancement",
        "unit": "advancement.unit",
        "section": "advancement.section",
        "gm_permission_from": "advancement.gm_permission_from",
        "approve_gift": "advancement.gm_approval",
        **{key: f"advancement.{key}" for key in ADVANCEMENT_COSTS},
    }
    keyed = {"step_": ("advancement.skill_steps.*", _("From {key}"))}

    def add_fields(self):
        super().add_fields()
        for index, word in enumerate(self.ladder.words):
            self.made[f"step_{index}"] = number(gettext("From {key}").format(key=word))
            self.by_key[("step_", word)] = f"step_{index}"

    def read(self, file):
        advancement = file.get("advancement") or ruleset_to_json(FUDGE_BASICS)["advancement"]
        values = {key: advancement.get(key) for key in ADVANCEMENT_COSTS}
        steps = advancement.get("skill_steps") or {}
        values.update(
            has_advancement=file.get("advancement") is not None,
            unit=advancement["unit"],
            section=advancement.get("section", ""),
            gm_permission_from=advancement.get("gm_permission_from") or "",
            approve_gift="gift" in advancement.get("gm_approval", []),
            approve_power="power" in advancement.get("gm_approval", []),
            **{name: steps.get(word) for (_, word), name in self.by_key.items()},
        )
        return values, {}

    def write(self, file, v, rows):
        if not v["has_advancement"]:
            file["advancement"] = None
            return file
        steps = {
            word: v[name] for (_, word), name in self.by_key.items() if v.get(name) is not None
        }
        advancement = {
            "unit": v["unit"].strip(),
            "section": v["section"].strip(),
            "skill_steps": steps or None,
            **{key: v[key] for key in ADVANCEMENT_COSTS},
            "gm_approval": [k for k in ("gift", "power") if v[f"approve_{k}"]],
        }
        if v["gm_permission_from"]:
            advancement["gm_permission_from"] = v["gm_permission_from"]
        file["advancement"] = advancement
        return file


_declare(AdvancementSection, ADVANCEMENT_COSTS)


# -- the seed catalogue: a section a list ----------------------------------------------------


class CatalogueSection(Section):
    """One of the lists a campaign's catalogue starts from."""

    list_key = ""

    def read(self, file):
        entries = file.get("catalogue", {}).get(self.list_key, [])
        return {}, {self.list_key: [dict(entry) for entry in entries]}

    def write(self, file, v, rows):
        fields = self.rows_named(self.list_key).fields
        entries = []
        for row in rows[self.list_key]:
            entry = {}
            for name, key in fields.items():
                value = _number_of(row.get(name))
                value = value.strip() if isinstance(value, str) else value
                if key == "name" or value not in ("", None):
                    entry[key] = value
            entries.append(entry)
        file.setdefault("catalogue", {})[self.list_key] = entries
        return file


def _catalogue_rows(list_key, title, help_text, form, add, row) -> Rows:
    fields = {name: name for name in form.base_fields}
    return Rows(list_key, title, help_text, form, f"catalogue.{list_key}", fields, add, row)


class SkillRow(RowForm):
    name = text(_("Name"))
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), choices=DIFFICULTY_CHOICES, initial="average"
    )
    note = text(_("Note"), limit=2000)


class GiftRow(RowForm):
    name = text(_("Name"))
    cost = amount(_("Cost"))
    note = text(_("Note"), limit=2000)


class FaultRow(RowForm):
    name = text(_("Name"))
    value = amount(_("Value"))
    note = text(_("Note"), limit=2000)


class EquipmentRow(RowForm):
    name = text(_("Name"))
    kind = forms.ChoiceField(label=_("Kind"), choices=EQUIPMENT_CHOICES, initial="gear")
    damage = number(_("Weapon value"))
    armour = number(_("Armour value"))
    note = text(_("Note"), limit=2000)


POWER_DETAIL_LABELS = {
    "section": _("Rule section"),
    "cost": _("Cost of a use"),
    "target": _("Target"),
    "damage_factor": _("Damage factor"),
    "range": _("Range"),
    "duration": _("Duration"),
    "effect": _("Effect"),
    "group": _("Group"),
}


class PowerRow(RowForm):
    name = text(_("Name"))
    kind = forms.ChoiceField(label=_("Kind"), choices=list(POWER_KINDS.items()))
    difficulty = forms.ChoiceField(
        label=_("Difficulty"), choices=[("", _("None")), *DIFFICULTY_CHOICES], required=False
    )


PowerRow.base_fields.update(
    {key: text(POWER_DETAIL_LABELS[key], long=key == "effect", limit=2000) for key in POWER_DETAILS}
)


class SkillListSection(CatalogueSection):
    key = list_key = "skills"
    key = "skill-list"
    title = gettext_noop("Skill list")
    intro = gettext_noop("The skills a campaign's catalogue starts with, for players to pick from.")
    parts = (
        _catalogue_rows(
            "skills",
            _("Skills"),
            _("Each name once. Difficulty: what the skill costs when priced by difficulty."),
            SkillRow,
            _("Add a skill"),
            _("Skill {n}"),
        ),
    )


class GiftListSection(CatalogueSection):
    list_key = "gifts"
    key = "gift-list"
    title = gettext_noop("Gift list")
    intro = gettext_noop("The gifts a campaign's catalogue starts with.")
    parts = (
        _catalogue_rows(
            "gifts",
            _("Gifts"),
            _("Each name once. Cost: in gifts (2 for a costly one)."),
            GiftRow,
            _("Add a gift"),
            _("Gift {n}"),
        ),
    )


class FaultListSection(CatalogueSection):
    list_key = "faults"
    key = "fault-list"
    title = gettext_noop("Fault list")
    intro = gettext_noop("The faults a campaign's catalogue starts with.")
    parts = (
        _catalogue_rows(
            "faults",
            _("Faults"),
            _("Each name once. Value: in gifts (2 for a grave one)."),
            FaultRow,
            _("Add a fault"),
            _("Fault {n}"),
        ),
    )


class EquipmentListSection(CatalogueSection):
    list_key = "equipment"
    key = "equipment"
    title = gettext_noop("Equipment")
    intro = gettext_noop("The weapons, armour and gear a campaign's catalogue starts with.")
    parts = (
        _catalogue_rows(
            "equipment",
            _("Equipment"),
            _("Each name once. Weapon value: what it adds to damage; armour: what it takes off."),
            EquipmentRow,
            _("Add an item"),
            _("Item {n}"),
        ),
    )


class PowerListSection(CatalogueSection):
    list_key = "powers"
    key = "power-list"
    title = gettext_noop("Sample powers")
    intro = gettext_noop(
        "Spells, psionic powers and superpowers written out, for players to pick from."
    )
    parts = (
        _catalogue_rows(
            "powers",
            _("Powers"),
            _(
                "Each name once, of a kind the game has. Cost of a use: what one use lowers "
                "(Mudge 2.51), as the rules word it."
            ),
            PowerRow,
            _("Add a power"),
            _("Power {n}"),
        ),
    )


class TemplateRow(RowForm):
    name = text(_("Name"))
    kind = forms.ChoiceField(label=_("Kind"), choices=TEMPLATE_KIND_CHOICES, initial="class")
    section = text(_("Rule section"), limit=2000)
    description = text(_("Description"), long=True, limit=2000)
    minimum_attributes = lines(_("Least attributes"), _("One a line: Strength: Good."))
    minimum_skills = lines(_("Least skills"), _("One a line: Bow: Good."))
    recommended_gifts = lines(_("Gifts it suggests"), _("One a line."))
    required_gifts = lines(_("Gifts it needs"), _("One a line."))
    required_faults = lines(_("Faults it needs"), _("One a line."))
    scale_strength = number(_("Strength scale"), _("Races: 0 is human."))
    scale_mass = number(_("Mass scale"), _("Races: 0 is human."))
    racial_bonuses = lines(_("Racial bonuses"), _("One a line: Dexterity: +1."))
    notes = lines(_("Notes"), _("One a line."))
    broad = yes(_("Broad groups"), _("The least skills are groups, for a loose game (Mudge 6.42)."))
    slug = forms.CharField(required=False, widget=forms.HiddenInput)

    def clean_minimum_attributes(self):
        _pairs(self.cleaned_data["minimum_attributes"], gettext("level"))
        return self.cleaned_data["minimum_attributes"]

    def clean_minimum_skills(self):
        _pairs(self.cleaned_data["minimum_skills"], gettext("level"))
        return self.cleaned_data["minimum_skills"]

    def clean_racial_bonuses(self):
        _pairs(self.cleaned_data["racial_bonuses"], "+1", int)
        return self.cleaned_data["racial_bonuses"]


TEMPLATE_LINES = ("recommended_gifts", "required_gifts", "required_faults", "notes")
TEMPLATE_PAIRS = ("minimum_attributes", "minimum_skills")


class TemplatesSection(Section):
    key = "templates"
    title = gettext_noop("Templates")
    intro = gettext_noop(
        "Class and race templates (Mudge 6.4): the least a character of the kind has, and "
        "what a race brings."
    )
    parts = (
        Rows(
            "templates",
            _("Templates"),
            _("Each name once. Levels are words of the game's ladder."),
            TemplateRow,
            "templates",
            {name: name for name in TemplateRow.base_fields if name != "slug"} | {"slug": "slug"},
            _("Add a template"),
            _("Template {n}"),
        ),
    )

    def read(self, file):
        rows = []
        for template in file.get("templates", []):
            row = dict(template)
            for key in TEMPLATE_LINES:
                row[key] = "\n".join(template.get(key, []))
            for key in TEMPLATE_PAIRS:
                row[key] = _pair_lines(template.get(key))
            row["racial_bonuses"] = "\n".join(
                f"{name}: {_signed(shift)}"
                for name, shift in template.get("racial_bonuses", {}).items()
            )
            rows.append(row)
        return {}, {"templates": rows}

    def write(self, file, v, rows):
        templates, taken = [], set()
        for index, row in enumerate(rows["templates"]):
            slug = (
                row.get("slug") or slugify(row["name"])[:40].strip("-") or f"template-{index + 1}"
            )
            while slug in taken:
                slug = f"{slug[:36]}-{index + 1}"
            taken.add(slug)
            templates.append(
                {
                    "slug": slug,
                    "name": row["name"].strip(),
                    "kind": row["kind"] or "class",
                    "section": row["section"].strip(),
                    "description": row["description"].strip(),
                    **{key: _lenient_pairs(row[key]) for key in TEMPLATE_PAIRS},
                    **{key: _name_lines(row[key]) for key in TEMPLATE_LINES},
                    "scale_strength": row["scale_strength"] or 0,
                    "scale_mass": row["scale_mass"] or 0,
                    "racial_bonuses": {
                        name: _whole(shift)
                        for name, shift in _lenient_pairs(row["racial_bonuses"]).items()
                    },
                    "broad": bool(row["broad"]),
                }
            )
        file["templates"] = templates
        return file


def _lenient_pairs(value: str) -> dict:
    """ "Name: value" lines (already checked by the row's form)."""
    out = {}
    for line in (value or "").splitlines():
        name, colon, rest = line.rpartition(":")
        if colon and name.strip() and rest.strip():
            out[name.strip()] = rest.strip()
    return out


def _whole(value: str) -> int:
    try:
        return int(value)
    except ValueError:
        return 0


class SourcesSection(Section):
    key = "sources"
    title = gettext_noop("Rule sections")
    intro = gettext_noop(
        "What a check cites for each topic: your game's own text (My game, p. 3). Character "
        "creation is required: every check falls back to it."
    )
    catalogue_section = text(
        _("Where the lists come from"), _("The source of the seed catalogue."), limit=2000
    )
    parts = (
        Group(_("Topics"), tuple(f"topic_{t}" for t in TOPICS)),
        Group(_("The lists"), ("catalogue_section",)),
    )
    paths = {
        **{f"topic_{t}": f"sections.{t}" for t in TOPICS},
        "catalogue_section": "catalogue.section",
    }

    def read(self, file):
        sections = file.get("sections", {})
        values = {f"topic_{t}": sections.get(t, "") for t in TOPICS}
        values["catalogue_section"] = file.get("catalogue", {}).get("section", "")
        return values, {}

    def write(self, file, v, rows):
        kept = {t: text for t, text in file.get("sections", {}).items() if t not in TOPICS}
        chosen = {t: v[f"topic_{t}"].strip() for t in TOPICS if v[f"topic_{t}"].strip()}
        if "creation" not in chosen:
            chosen = {"creation": "", **chosen}  # for the reader to say it is required
        file["sections"] = {**chosen, **kept}
        file.setdefault("catalogue", {})["section"] = v["catalogue_section"].strip()
        return file


_declare(
    SourcesSection,
    {f"topic_{t}": text(label, limit=2000) for t, label in TOPICS.items()},
)

# Each part of the file, and the section that edits it (a problem with the part's shape, in an
# imported file, is named by the section's title).
FILE_PARTS = {
    "name": "game",
    "description": "game",
    "system": "game",
    "ladder": "ladder",
    "numbers": "numbers",
    "attributes": "attributes",
    "skills": "skills",
    "powers": "powers",
    "terms": "terms",
    "harm": "harm",
    "advancement": "advancement",
    "templates": "templates",
    "sections": "sources",
}
PART_TITLES = {
    "catalogue": _("The lists"),
    "slug": _("The game's name in files"),
    "format": _("The file"),
}
SECTIONS = {
    section.key: section
    for section in (
        GameSection,
        LadderSection,
        NumbersSection,
        AttributesSection,
        SkillsSection,
        PowersSection,
        TermsSection,
        HarmSection,
        AdvancementSection,
        SkillListSection,
        GiftListSection,
        FaultListSection,
        EquipmentListSection,
        PowerListSection,
        TemplatesSection,
        SourcesSection,
    )
}
