"""Reading what a GM's game adds beyond numbers (file format 2): its derived values, its
trackers and its prerequisites, and what ties them to the rest of the game (a formula's
names, a tracker's start, what a prerequisite guards and needs)."""

import re

from rules.character import Character
from rules.derived import CharacterScope, reading_order
from rules.formula import FUNCTIONS, FormulaError, evaluate, parse_formula
from rules.game_parts import (
    CHANGED_BY,
    MAX_TRACKER_SIZE,
    TRACKER_KINDS,
    Derived,
    Prerequisite,
    Tracker,
)
from rules.ruleset_file.lists import ListSections
from rules.rulesets import Ruleset
from rules.words import say

# A derived value's key is a name a formula can use: lowercase letters, digits, underscores.
DERIVED_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")
# A tracker's or prerequisite's key: lowercase letters, digits, hyphens and underscores.
PART_KEY = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}")
MAX_PARTS = 50
DERIVED_FIELDS = ("key", "name", "formula", "note", "translations")
TRACKER_FIELDS = (
    "key",
    "name",
    "kind",
    "size",
    "start",
    "changed_by",
    "resets_on_rest",
    "note",
    "translations",
)
PREREQUISITE_FIELDS = (
    "key",
    "message",
    "guards",
    "guards_kind",
    "needs",
    "at_least",
    "at_least_derived",
    "at_most",
    "section",
    "translations",
)


class GamePartSections(ListSections):
    def __init__(self):
        super().__init__()
        self.at: dict[str, list[int]] = {"derived": [], "trackers": [], "prerequisites": []}

    def parts(self, value, list_name: str, read) -> tuple:
        """A list of the game's parts, each entry read by `read`, each key once."""
        rows = self.list(value, list_name, limit=MAX_PARTS)
        out = [
            self.field(read, row, f"{list_name}[{i}]", fallback=None) for i, row in enumerate(rows)
        ]
        self.unique([entry.key if entry else "" for entry in out], list_name, ".key")
        # Where each entry the reader kept stands in the file, for the problems found later.
        self.at[list_name] = [i for i, entry in enumerate(out) if entry]
        return tuple(entry for entry in out if entry)

    def where(self, list_name: str, index: int) -> str:
        """The file's path of the `index`th entry the reader kept of `list_name`."""
        return f"{list_name}[{self.at[list_name][index]}]"

    def derived_list(self, value) -> tuple[Derived, ...]:
        return self.parts(value, "derived", self.derived_entry)

    def derived_entry(self, value, where) -> Derived:
        obj = self.object(value, where, DERIVED_FIELDS)
        key = self.key(obj.get("key"), f"{where}.key", DERIVED_KEY)
        if key in FUNCTIONS:
            self.refuse(f"{where}.key", say("'{key}' is a name formulas use already", key=key))
        formula = self.text(obj.get("formula"), f"{where}.formula", required=True)
        try:
            parse_formula(formula)
        except FormulaError as error:
            self.refuse(f"{where}.formula", error.phrase)
        return Derived(
            key,
            self.name(obj.get("name"), f"{where}.name"),
            formula,
            self.text(obj.get("note", ""), f"{where}.note"),
            self.translations(obj.get("translations", {}), f"{where}.translations"),
        )

    def trackers(self, value) -> tuple[Tracker, ...]:
        return self.parts(value, "trackers", self.tracker)

    def tracker(self, value, where) -> Tracker:
        obj = self.object(value, where, TRACKER_FIELDS)
        start = obj.get("start", 0)
        if isinstance(start, str):
            start = self.key(start, f"{where}.start", DERIVED_KEY)
        else:
            start = self.integer(start, f"{where}.start", 0, MAX_TRACKER_SIZE)
        return Tracker(
            key=self.key(obj.get("key"), f"{where}.key", PART_KEY),
            name=self.name(obj.get("name"), f"{where}.name"),
            kind=self.choice(obj.get("kind"), f"{where}.kind", TRACKER_KINDS),
            size=self.integer(obj.get("size"), f"{where}.size", 1, MAX_TRACKER_SIZE),
            start=start,
            changed_by=self.choice(
                obj.get("changed_by", "player"), f"{where}.changed_by", CHANGED_BY
            ),
            resets_on_rest=self.boolean(
                obj.get("resets_on_rest", False), f"{where}.resets_on_rest"
            ),
            note=self.text(obj.get("note", ""), f"{where}.note"),
            translations=self.translations(obj.get("translations", {}), f"{where}.translations"),
        )

    def prerequisites(self, value) -> tuple[Prerequisite, ...]:
        return self.parts(value, "prerequisites", self.prerequisite)

    def prerequisite(self, value, where) -> Prerequisite:
        obj = self.object(value, where, PREREQUISITE_FIELDS)
        guards = self.names(obj.get("guards", []), f"{where}.guards", limit=MAX_PARTS)
        guards_kind = self.text(obj.get("guards_kind", ""), f"{where}.guards_kind", limit=40)
        if not guards and not guards_kind:
            self.refuse(
                f"{where}.guards",
                say("names no trait: name the traits it guards, or a kind of power"),
            )
        needs = self.text(obj.get("needs", ""), f"{where}.needs", limit=100)
        at_most = obj.get("at_most")
        at_least = obj.get("at_least")
        at_least_derived = obj.get("at_least_derived", "")
        if at_most is not None:
            at_most = self.integer(at_most, f"{where}.at_most", 0, MAX_PARTS)
            if needs or at_least is not None or at_least_derived:
                self.refuse(
                    f"{where}.at_most",
                    say("either limits how many may be taken, or needs a trait: not both"),
                )
        elif not needs:
            self.refuse(
                f"{where}.needs",
                say("is required: the trait the guarded ones need, or an 'at most' number"),
            )
        if at_least is not None and at_least_derived:
            self.refuse(
                f"{where}.at_least_derived",
                say("either a level or a derived value: not both"),
            )
        return Prerequisite(
            key=self.key(obj.get("key"), f"{where}.key", PART_KEY),
            message=self.text(obj.get("message"), f"{where}.message", limit=300, required=True),
            guards=guards,
            guards_kind=guards_kind,
            needs=needs,
            at_least=None if at_least is None else self.level(at_least, f"{where}.at_least"),
            at_least_derived=at_least_derived
            and self.key(at_least_derived, f"{where}.at_least_derived", DERIVED_KEY),
            at_most=at_most,
            section=self.text(obj.get("section", ""), f"{where}.section", limit=200),
            translations=self.messages(obj.get("translations", {}), f"{where}.translations"),
        )

    def messages(self, value, where) -> tuple[tuple[str, str], ...]:
        """A prerequisite's message in other languages: {"fr": {"message": ...}}."""
        rows = []
        for language, words in self.object(value, where).items():
            self.language(language, f"{where}.{language}")
            said = self.object(words, f"{where}.{language}", ("message",))
            rows.append(
                (
                    language,
                    self.text(said.get("message", ""), f"{where}.{language}.message", limit=300),
                )
            )
        return tuple(rows)

    def key(self, value, where, pattern) -> str:
        key = self.text(value, where, limit=40, required=True)
        if not pattern.fullmatch(key):
            self.refuse(
                where,
                say(
                    "'{key}' must start with a lowercase letter and hold only lowercase "
                    "letters, digits and underscores",
                    key=key,
                )
                if pattern is DERIVED_KEY
                else say(
                    "'{key}' must be lowercase letters, digits, hyphens and underscores", key=key
                ),
            )
        return key

    def check_game_parts(self, r: Ruleset) -> None:
        """What ties the game's own parts to the rest of it: each name a formula reads, each
        derived value a tracker or prerequisite names, each trait a prerequisite guards or
        needs, no formula reading itself, none dividing by zero at the defaults."""
        keys = {d.key for d in r.derived}
        known = _known_names(r)
        for index, d in enumerate(r.derived):
            where = f"{self.where('derived', index)}.formula"
            formula = parse_formula(d.formula)
            for key in sorted(formula.keys - keys):
                self.problems.append(
                    (where, say("'{key}' is not a derived value of the game", key=key))
                )
            for name in sorted(formula.traits):
                if known is not None and name.casefold() not in known:
                    self.problems.append((where, _unknown(name)))
        order = reading_order(r.derived)
        if isinstance(order, tuple):
            key, path = order
            index = next(i for i, d in enumerate(r.derived) if d.key == key)
            self.problems.append(
                (
                    f"{self.where('derived', index)}.formula",
                    say("reads itself: {path}", path=" → ".join(path)),
                )
            )
        elif not self.problems:
            self._check_at_defaults(r, order)
        for index, t in enumerate(r.trackers):
            if isinstance(t.start, str) and t.start not in keys:
                self.problems.append(
                    (
                        f"{self.where('trackers', index)}.start",
                        say("'{key}' is not a derived value of the game", key=t.start),
                    )
                )
        for index, p in enumerate(r.prerequisites):
            where = self.where("prerequisites", index)
            if p.at_least_derived and p.at_least_derived not in keys:
                self.problems.append(
                    (
                        f"{where}.at_least_derived",
                        say("'{key}' is not a derived value of the game", key=p.at_least_derived),
                    )
                )
            if p.guards_kind and p.guards_kind not in r.power_kinds:
                self.problems.append(
                    (
                        f"{where}.guards_kind",
                        say("'{kind}' is not one of the game's kinds of power", kind=p.guards_kind),
                    )
                )
            for name in (*p.guards, *([p.needs] if p.needs else [])):
                if known is not None and name.casefold() not in known:
                    field = "needs" if name == p.needs else "guards"
                    self.problems.append((f"{where}.{field}", _unknown(name)))

    def _check_at_defaults(self, r: Ruleset, order) -> None:
        """Each formula worked out for a character with nothing but the defaults: one that
        divides by zero there would for many characters."""
        scope = CharacterScope(r, Character(ruleset=r.slug, name=""))
        for d in order:
            index = r.derived.index(d)
            try:
                value = evaluate(parse_formula(d.formula), scope)
            except FormulaError as error:
                self.problems.append(
                    (
                        f"{self.where('derived', index)}.formula",
                        say(
                            "cannot be worked out for a character at the defaults: {reason}",
                            reason=error.phrase,
                        ),
                    )
                )
                return
            scope.values[d.key] = value


def _known_names(r: Ruleset) -> set[str] | None:
    """Every trait name the game knows, casefolded, or None when its attributes are each
    character's own (Fudge Basics) and its lists name none: nothing can be refused then."""
    attributes = r.attribute_names or r.catalog.attributes
    if not attributes and r.attribute_names is None:
        return None
    names = [
        *attributes,
        *(n for n, _ in r.extra_attributes),
        *r.attribute_gifts.values(),
        *r.attribute_gifts,
        *r.power_gifts.values(),
    ]
    for list_name in ("skills", "gifts", "faults", "powers"):
        names.extend(entry.name for entry in getattr(r.catalog, list_name))
    return {n.casefold() for n in names}


def _unknown(name: str):
    return say(
        "'{name}' is not an attribute, skill, gift, fault or power of the game: add it to "
        "its list first, or check the spelling",
        name=name,
    )
