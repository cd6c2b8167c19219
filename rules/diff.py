"""The difference between two character files (rules.charfile's dict form): what a GM reads
before approving a build again. Trait by trait, matched by name within each list: added,
removed, or changed with the old and the new value ("Climbing: Fair → Good").

Pure: both sides are plain dicts, as write_character makes them and as approvals store them.
"""

from dataclasses import dataclass, field

from rules.rulesets import BUILTIN, Terms

ADDED, REMOVED, CHANGED = "added", "removed", "changed"
# The lists of a character file, with the word a change names its entries by.
LISTS = (
    ("attributes", "attribute"),
    ("skills", "skill"),
    ("gifts", "gift"),
    ("faults", "fault"),
    ("powers", "power"),
    ("equipment", "equipment"),
)
DETAILS = (
    ("ruleset", "ruleset"),
    ("name", "name"),
    ("player", "player"),
    ("concept", "concept"),
    ("race", "race"),
    ("meta_points", "meta points"),
    ("experience", "experience"),
)
LONG_TEXT = (("notes", "notes"),)  # reported as changed, not printed in full


@dataclass(frozen=True)
class Change:
    section: str  # "skills", "details", ...
    label: str  # "skill", "scale", "name", ...
    name: str  # the trait's name, or the detail's label
    kind: str  # ADDED | REMOVED | CHANGED
    old: str = ""
    new: str = ""
    # A list entry as each side of the file has it, for a reader in another language to
    # word it again (characters.selectors.review.said_change); None on a detail's change.
    before: dict | None = field(default=None, compare=False, repr=False)
    after: dict | None = field(default=None, compare=False, repr=False)

    @property
    def title(self) -> str:
        return f"{self.label} {self.name}" if self.name else self.label

    def __str__(self) -> str:
        if self.kind == ADDED:
            return f"added {self.title}" + (f" ({self.new})" if self.new else "")
        if self.kind == REMOVED:
            return f"removed {self.title}" + (f" ({self.old})" if self.old else "")
        if self.old or self.new:
            return f"{self.title}: {self.old or '—'} → {self.new or '—'}"
        return f"{self.title} changed"


def diff_files(old: dict, new: dict, terms: Terms | None = None) -> list[Change]:
    """Every difference from `old` to `new`: details first, then each list in file order
    (entries of `new` in their order, then what `old` had and `new` lost). With the
    character's ruleset's `terms`, a change names its entry in the ruleset's words ("field
    of expertise Riding", "luck points")."""
    changes = _details(old, new, terms)
    for key, label in LISTS:
        if terms is not None:
            label = terms.kind(label)
        changes += _list(key, label, old.get(key, []), new.get(key, []))
    return changes


def describe(section: str, entry: dict) -> str:
    """One entry of a list, without its name: "Good, hard", "cost 2", "weapon, damage 2"."""
    parts = []
    if "kind" in entry and section in ("powers", "equipment"):
        parts.append(entry["kind"])
    if "level" in entry:
        parts.append(entry["level"])
    if entry.get("difficulty"):
        parts.append(entry["difficulty"].replace("_", " "))
    # A cost or value left out is the catalogue's for the name (Mudge 1.33: Magery 2).
    if section == "gifts":
        parts.append(f"cost {entry['cost']}" if "cost" in entry else "catalogue cost")
    if section == "faults":
        parts.append(f"value {entry['value']}" if "value" in entry else "catalogue value")
    if section == "powers" and "cost" in entry:
        parts.append(f"cost {entry['cost']}")
    for key in ("damage", "armour"):
        if key in entry:
            parts.append(f"{key} {entry[key]}")
    if entry.get("quantity") is not None:
        parts.append(f"quantity {entry['quantity']}")
    if entry.get("notes"):
        parts.append(entry["notes"])
    if entry.get("defined_in_play"):
        parts.append("defined in play")  # Mudge 1.7
    return ", ".join(str(p) for p in parts)


def _list(key: str, label: str, old_items: list, new_items: list) -> list[Change]:
    old_by_name = {item["name"].casefold(): item for item in old_items}
    new_names = {item["name"].casefold() for item in new_items}
    changes = []
    for item in new_items:
        before = old_by_name.get(item["name"].casefold())
        if before is None:
            changes.append(
                Change(key, label, item["name"], ADDED, new=describe(key, item), after=item)
            )
        elif _without_name(before) != _without_name(item):
            changes.append(
                Change(
                    key,
                    label,
                    item["name"],
                    CHANGED,
                    old=describe(key, before),
                    new=describe(key, item),
                    before=before,
                    after=item,
                )
            )
    for item in old_items:
        if item["name"].casefold() not in new_names:
            changes.append(
                Change(key, label, item["name"], REMOVED, old=describe(key, item), before=item)
            )
    return changes


def _without_name(item: dict) -> dict:
    # A change of case alone ("climbing" -> "Climbing") is not a change of the build.
    return {k: v for k, v in item.items() if k != "name"}


def _detail(file: dict, key: str):
    # An empty text is no text: a build compared with nothing shows no empty race.
    value = file.get(key)
    return None if value == "" else value


def _details(old: dict, new: dict, terms: Terms | None) -> list[Change]:
    changes = []
    for key, label in DETAILS:
        if key == "meta_points" and terms is not None and terms.points:
            label = terms.points
        before, after = _detail(old, key), _detail(new, key)
        if before != after:
            shown = _ruleset_name if key == "ruleset" else _text
            changes.append(
                Change("details", label, "", CHANGED, old=shown(before), new=shown(after))
            )
    for part in ("strength", "mass"):
        before = old.get("scale", {}).get(part, 0)
        after = new.get("scale", {}).get(part, 0)
        if before != after:
            changes.append(
                Change("details", "scale", part, CHANGED, old=str(before), new=str(after))
            )
    for key, label in LONG_TEXT:
        if old.get(key, "") != new.get(key, ""):
            changes.append(Change("details", label, "", CHANGED))
    for key in ("house_rules", "personality"):
        before, after = old.get(key) or {}, new.get(key) or {}
        for name in sorted(set(before) | set(after)):
            words = name.replace("_", " ")  # "skill levels", not the file's key
            if name not in after:
                changes.append(Change("details", key.replace("_", " "), words, REMOVED))
            elif name not in before:
                changes.append(Change("details", key.replace("_", " "), words, ADDED))
            elif before[name] != after[name]:
                changes.append(Change("details", key.replace("_", " "), words, CHANGED))
    return changes


def _ruleset_name(slug) -> str:
    """A ruleset by its name ("Mudge"), not the slug the file holds."""
    return BUILTIN[slug].name if slug in BUILTIN else _text(slug)


def _text(value) -> str:
    return "" if value is None else str(value)
