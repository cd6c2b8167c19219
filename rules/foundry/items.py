"""Reading an actor's items: its attribute set, skills, gifts, faults and equipment."""

from rules.charfile import MAX_QUANTITY, MAX_ROWS
from rules.foundry.fields import as_dict
from rules.foundry.html_text import html_to_text
from rules.foundry.kept import KeptReading, ladder_of, same_ladder
from rules.foundry.tables import (
    BY_DESIGN,
    CHANGED,
    DAMAGE_LINKS,
    FLAG,
    ID,
    ITEM_TYPES,
    LIST_TYPES,
    LOST,
    MAX_EQUIPMENT_NOTES,
    MAX_ITEM_NAME,
    REPEATABLE,
)
from rules.words import say, say_plural

# The list each item type goes to when Fairsheet's flags name none.
_KIND_LISTS = {"skill": "skills", "gift": "gifts", "fault": "faults"}


class ItemReading(KeptReading):
    def items(self, items: list, flags: dict) -> dict:
        lists = {"attributes": [], **{name: [] for name in LIST_TYPES}}
        sets, described = [], 0
        # The attributes are read last but come first: room is kept for the first set's.
        first_set = next((i for i in items if as_dict(i).get("type") == "attributeset"), {})
        self.rows = min(len(_attribute_list(first_set)), MAX_ROWS)
        for index, item in enumerate(items):
            where = f"items[{index}]"
            if not isinstance(item, dict):
                self.note(LOST, say("{where}: not an object; skipped.", where=where))
                continue
            kind = item.get("type")
            if kind == "attributeset":
                sets.append((where, item))
            elif kind == "traitladder":
                self.trait_ladder(where, item)
            elif kind not in ITEM_TYPES:
                self.skipped_item(where, kind, item)
            else:
                described += self.list_item(where, kind, item, lists)
        self.notes_after_reading(described)
        lists["attributes"] = self.attributes(sets, flags)
        return lists

    def trait_ladder(self, where: str, item: dict) -> None:
        """The actor's trait ladder is the character's where it is the ruleset's own (a
        designed game's Extended ladder, say): kept, id and all, and exported again. Any
        other is named in the report: the ruleset's ladder says the levels' words."""
        ladder = ladder_of(item)
        if (
            "traitladder" not in self.foundry_ids
            and ladder is not None
            and same_ladder(ladder, self.ladder)
            and isinstance(item.get("_id"), str)
            and ID.fullmatch(item["_id"])
        ):
            self.foundry_ids["traitladder"] = item["_id"]
            self.keep_item(where, item, named=True)
            return
        self.skipped_item(where, "traitladder", item)

    def skipped_item(self, where: str, kind, item: dict) -> None:
        """A trait ladder (by design) or an item fudge-rpg does not have (lost)."""
        reason = (
            self.ladder_note() if kind == "traitladder" else say("not an item type of fudge-rpg")
        )
        self.note(
            BY_DESIGN if kind == "traitladder" else LOST,
            say(
                "{where} ({kind} {name}): not imported; {reason}.",
                where=where,
                kind=str(kind),
                name=repr(item.get("name")),
                reason=reason,
            ),
        )

    def list_item(self, where: str, kind: str, item: dict, lists: dict) -> bool:
        """A skill, gift, fault or piece of equipment added to its list, when it has a name
        and there is room. Whether the import drops its description (a gift's, fault's or
        skill's Fairsheet did not write: the notes say how many)."""
        name = self.text(item.get("name"), f"{where}.name", MAX_ITEM_NAME)
        if not name:
            self.note(LOST, say("{where}: a {kind} with no name; skipped.", where=where, kind=kind))
            return False
        system = as_dict(item.get("system"))
        own = as_dict(as_dict(item.get("flags")).get(FLAG))
        list_name = _list_for(kind, own)
        entries = lists[list_name]
        name = self.repeat_name(list_name, name, entries, system, where)
        if not self.room_for(list_name, name, entries):
            return False
        entry = as_dict(own.get("entry")) if own.get("list") == list_name else {}
        dropped = not entry and bool(system.get("description")) and kind != "equipment"
        if item.get("effects"):
            self.note(
                LOST,
                say(
                    "{where} ({name}): its active effects are not imported.",
                    where=where,
                    name=name,
                ),
            )
        flagged = set(entry) - {"name", "level"}  # Foundry's own name and level win
        entry = {**entry, "name": name}
        if kind == "skill":
            self.skill(entry, system, where)
        elif kind == "equipment":
            entry = self.equipment(entry, system, where, exported=bool(flagged))
        entries.append(entry)
        self.ids[list_name].append(item.get("_id"))
        self.keep_item(where, item)
        self.from_flags.update((list_name, len(entries) - 1, k) for k in flagged)
        return dropped

    def skill(self, entry: dict, system: dict, where: str) -> None:
        """A skill's level; its groups are noted, not kept."""
        entry["level"] = self.ladder.name(self.level(system.get("level"), f"{where}.system.level"))
        # groups (2.4 on); group and group2 (fudge-rpg 2.3)
        if system.get("groups") or system.get("group") or system.get("group2"):
            self.grouped.append(entry["name"])

    def notes_after_reading(self, described: int) -> None:
        """What the items lost by design, said once for them all: skill groups, and the
        descriptions of gifts, faults and skills."""
        if self.grouped:
            self.note(
                BY_DESIGN,
                say_plural(
                    "Skill groups are not imported ({count} skill): {skills}.",
                    "Skill groups are not imported ({count} skills): {skills}.",
                    len(self.grouped),
                    count=len(self.grouped),
                    skills=", ".join(self.grouped),
                ),
            )
        if described:
            self.note(
                BY_DESIGN,
                say_plural(
                    "The descriptions of {count} gifts, faults or skills are not kept: "
                    "Fairsheet keeps their names.",
                    "The descriptions of {count} gifts, faults or skills are not kept: "
                    "Fairsheet keeps their names.",
                    described,
                    count=described,
                ),
            )

    def attributes(self, sets: list, flags: dict) -> list:
        if not sets:
            self.note(LOST, say("The actor has no attribute set: no attributes imported."))
            return []
        for where, extra in sets[1:]:
            self.note(
                LOST,
                say(
                    "{where} (attribute set {name}): only the first is read.",
                    where=where,
                    name=repr(extra.get("name")),
                ),
            )
        where, item = sets[0]
        if isinstance(item.get("_id"), str) and ID.fullmatch(item["_id"]):
            self.foundry_ids["attributeset"] = item["_id"]
        self.keep_item(where, item, named=True)
        system = as_dict(item.get("system"))
        for link in DAMAGE_LINKS:
            if isinstance(system.get(link), str) and system[link].strip():
                self.links[link] = system[link].strip()
        raw = _attribute_list(item)
        if len(raw) > MAX_ROWS:
            self.note(
                LOST,
                say(
                    "{where}: more than {most} attributes; the rest skipped.",
                    where=where,
                    most=MAX_ROWS,
                ),
            )
            raw = raw[:MAX_ROWS]
        # The attributes the export added at their default: still there, they stay unlisted.
        own = as_dict(as_dict(item.get("flags")).get(FLAG))
        added = own.get("added_attributes", flags.get("added_attributes"))
        added = {
            (str(a.get("name")).casefold(), a.get("level"))
            for a in (added if isinstance(added, list) else [])
            if isinstance(a, dict) and isinstance(a.get("level"), str)  # a ladder word
        }
        attributes = []
        for index, attribute in enumerate(raw):
            at = f"{where}.system.attributes[{index}]"
            attribute = as_dict(attribute)
            name = self.text(attribute.get("name"), f"{at}.name", MAX_ITEM_NAME)
            if not name:
                self.note(LOST, say("{where}: an attribute with no name; skipped.", where=at))
                continue
            level = self.ladder.name(self.level(attribute.get("level"), f"{at}.level"))
            if (name.casefold(), level) not in added and self.room_for(
                "attributes", name, attributes
            ):
                attributes.append({"name": name, "level": level})
                self.ids["attributes"].append(None)
        return attributes

    def equipment(self, entry: dict, system: dict, where: str, *, exported: bool) -> dict:
        """Offence and defence as Foundry has them now; Fairsheet's own values where Foundry
        still shows what the export wrote (a negative value is written as 0). The notes of
        an item Fairsheet did not write are its description."""
        odf = self.count(system.get("odf"), f"{where}.system.odf", 50) or 0
        ddf = self.count(system.get("ddf"), f"{where}.system.ddf", 50) or 0
        # A flag that is no number is no value of Fairsheet's: Foundry's stands.
        if odf != max(_number_or_none(entry.get("damage", 0)) or 0, 0):
            entry["damage"] = odf
        if ddf != max(_number_or_none(entry.get("armour", 0)) or 0, 0):
            entry["armour"] = ddf
        entry.setdefault("kind", "weapon" if odf else "armour" if ddf else "gear")
        if not exported and isinstance(system.get("description"), str):
            notes = self.free_text(
                html_to_text(system["description"]),
                f"{where}.system.description",
                MAX_EQUIPMENT_NOTES,
            )
            if notes:
                entry["notes"] = notes
        quantity = self.count(system.get("quantity"), f"{where}.system.quantity", MAX_QUANTITY)
        if quantity is not None:  # Foundry's count wins; 1 is the file's default
            entry.pop("quantity", None)
            if quantity != 1:
                entry["quantity"] = quantity
        return entry

    def repeat_name(self, list_name: str, name: str, entries: list, system: dict, where) -> str:
        """A second gift or skill of a name its own text allows more than once (Magical
        Talent, Language) is kept, numbered: "Language (2)". Any other is left to room_for."""
        taken = {e["name"].casefold() for e in entries}
        description = system.get("description")
        if (
            name.casefold() not in taken
            or list_name not in ("gifts", "skills")
            or not isinstance(description, str)
            or not REPEATABLE.search(description)
        ):
            return name
        number = 2
        while f"{name} ({number})".casefold() in taken:
            number += 1
        renamed = f"{name} ({number})"[:MAX_ITEM_NAME]
        self.note(
            CHANGED,
            say(
                "{where} ({name}): a second {quoted}, which its text allows; kept as {renamed} "
                "(rename it for what it is).",
                where=where,
                name=name,
                quoted=repr(name),
                renamed=repr(renamed),
            ),
        )
        return renamed

    def room_for(self, list_name: str, name: str, entries: list) -> bool:
        """Whether the list takes one more entry of this name: names are unique but for
        equipment (case ignored), and a character holds at most MAX_ROWS traits and pieces
        of equipment together. Counts the entry taken: the caller adds it."""
        if list_name != "equipment" and any(
            e["name"].casefold() == name.casefold() for e in entries
        ):
            self.note(
                LOST,
                say(
                    "{list}: {name} appears twice; the second is skipped.",
                    list=list_name,
                    name=repr(name),
                ),
            )
            return False
        if list_name == "attributes":  # counted before the items (see `items`)
            return True
        if self.rows == MAX_ROWS:
            if not self.full:
                self.full = True
                self.note(
                    LOST,
                    say(
                        "{list}: more than {most} traits and pieces of equipment; {name} and "
                        "every one after it skipped.",
                        list=list_name,
                        most=MAX_ROWS,
                        name=repr(name),
                    ),
                )
            return False
        self.rows += 1
        return True


def _number_or_none(value):
    return value if isinstance(value, int | float) and not isinstance(value, bool) else None


def _list_for(kind: str, own: dict) -> str:
    """The character file's list an item goes to: the one Fairsheet's flags name, when that
    list holds items of its kind ("powers" for a gift); else its kind's own."""
    listed = own.get("list")
    if isinstance(listed, str) and LIST_TYPES.get(listed) == kind:
        return listed
    return _KIND_LISTS.get(kind, "equipment")


def _attribute_list(attribute_set: dict) -> list:
    attributes = as_dict(attribute_set.get("system")).get("attributes")
    return attributes if isinstance(attributes, list) else []
