"""A section of the ruleset file as a form: its groups of fields, its lists of rows the GM
adds and removes, and each of the reader's problems put beside the field it is about."""

import copy
import re
from dataclasses import dataclass
from functools import cache

from django import forms
from django.http import QueryDict
from django.utils.translation import gettext_lazy as _

from characters.forms.designer.fields import MAX_ROWS
from characters.forms.designer.paths import (
    SEPARATOR,
    Spot,
    _best,
    _item,
    describe,
    plain,
    section_of,
    sentence,
)
from characters.forms.designer.words import kept_values, shown_values
from characters.vocabulary import ladder_said
from characters.wording import said
from rules.ladder import Ladder
from rules.rulesets import Ruleset


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


class RowForm(forms.Form):
    """One row. Level fields take the game's ladder words; a row may take other choices from
    the game (`for_game`)."""

    # Each field that holds a built-in word -> its kind (designer.words): shown in the GM's
    # language, kept in English while the GM leaves it so.
    words: dict[str, str] = {}

    def __init__(self, *args, ladder: Ladder, ruleset: Ruleset | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for field in self.fields.values():
            if getattr(field, "none", None) is not None:
                field.choices = level_choices(ladder, field.none)
        if ruleset is not None:
            self.for_game(ruleset)

    def for_game(self, ruleset: Ruleset) -> None:
        """The row's choices that are the game's own (its kinds of power, its values)."""


class RowFormSet(forms.BaseFormSet):
    """Every row shown is a row of the file: an empty one is refused by the reader (a
    nameless attribute), not skipped."""

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "empty_permitted": False}


def level_choices(ladder: Ladder, none: str = "") -> list:
    """The ladder's words, each kept as the file holds it and shown as the GM reads it."""
    words = list(zip(ladder.words, ladder_said(ladder.words), strict=True))
    return [("", none), *words] if none else words


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
    words: dict[str, str] = {}  # as RowForm.words, for the section's own fields

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
        self.typed = file  # the file with the section as typed, once `file()` has made it
        self.ruleset = ruleset
        self.by_key: dict[tuple[str, str], str] = {}  # (prefix, level word) -> field
        self.add_fields()
        # As the file holds them (kept_values), then as the GM reads them (shown_values).
        self.read_values, self.read_rows = self.read(file)
        values = shown_values(self.read_values, self.words)
        rows = {
            part.name: [
                shown_values(row, part.form.words) for row in self.read_rows.get(part.name, [])
            ]
            for part in self.parts
            if isinstance(part, Rows)
        }
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
                form_kwargs={"ladder": self.ladder, "ruleset": self.ruleset},
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
            # A new row starts at its fields' defaults (a tracker counts, a skill is of
            # average difficulty): a radio group would otherwise start with none chosen.
            for field_name, field in rows.form.base_fields.items():
                if field.initial is not None:
                    data[f"{name}-{at}-{field_name}"] = str(field.initial)
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
        values = kept_values({**self.initial, **self.cleaned_data}, self.words, self.read_values)
        rows = {part.name: self._rows_kept(part) for part in self.parts if isinstance(part, Rows)}
        self.typed = self.write(copy.deepcopy(self.source), values, rows)
        return self.typed

    def _rows_kept(self, part: Rows) -> list[dict]:
        """The rows as typed, as the file keeps them (kept_values), each beside the row read
        at its place."""
        read = self.read_rows.get(part.name, [])
        return [
            kept_values(row, part.form.words, read[index] if index < len(read) else None)
            for index, row in enumerate(_rows_typed(self.rowsets[part.name]))
        ]

    # -- problems --

    @classmethod
    @cache
    def spots(cls) -> tuple[Spot, ...]:
        """Where each path of the file is shown in this section. Made once: an imported file's
        every problem is looked for in every section's spots."""
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
        return tuple(out)

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
        keys = self.own_names()
        for where, message in problems:
            spot, match = _best(spots, where)
            if spot is None:
                self.elsewhere.append(
                    (describe(where), sentence(plain(said(message), keys)), section_of(where))
                )
                continue
            start = _item(match.group("rest"), self.field_at(spot))
            self.place(spot, match, sentence(start + plain(said(message), keys)))

    def own_names(self) -> frozenset[str]:
        """The GM's own keys in the design (its derived values'), which a message quotes as
        typed: never read as a field of the file."""
        derived = self.typed.get("derived") if isinstance(self.typed, dict) else None
        return frozenset(
            entry["key"]
            for entry in (derived if isinstance(derived, list) else [])
            if isinstance(entry, dict) and isinstance(entry.get("key"), str)
        )

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
                    # A row by its name where it has one (a derived value's, not its key)
                    "name": str(form[_summary_field(form)].value() or "").strip(),
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


def _declare(section: type[Section], fields: dict) -> None:
    """Fields a section has one of for each list, difficulty or kind of power."""
    section.base_fields.update(fields)
    section.declared_fields.update(fields)


def _summary_field(form) -> str:
    return "name" if "name" in form.fields else next(iter(form.fields))
