"""What an actor holds that Fairsheet has no field of its own for, but gives back to Foundry as
it came (rules.character's `foundry_kept`): each item's picture and compendium links, the
attribute set's and the trait ladder's names, the actor's picture in its world and its
prototype token's settings. Read from an actor here; put back on the actor the export writes
by `put_back`. Whatever else the actor holds is named in the import's report."""

import copy
import json

from rules.foundry.fields import ActorFields, as_dict
from rules.foundry.tables import BY_DESIGN, FLAG, ID, LOST, PICTURE
from rules.ladder import Ladder
from rules.text import first_text_problem, unstorable_problem
from rules.words import say

# An item's links and picture: the key kept under, and where the item holds it. Foundry 12 on
# records the compendium an item was dragged from in _stats; Foundry 11 and fudge-rpg 2.3
# did so in flags.core.sourceId.
ITEM_LINKS = (
    ("img", ("img",)),
    ("compendiumSource", ("_stats", "compendiumSource")),
    ("duplicateSource", ("_stats", "duplicateSource")),
    ("sourceId", ("flags", "core", "sourceId")),
)
# Items whose own name Fairsheet has no field for: it writes one of its own unless kept.
NAMED_TYPES = ("attributeset", "traitladder")
# Where a document sits in its world, who may see it and when it was made: Foundry's own
# bookkeeping, which it sets again when it imports the actor. (Its `sort`, the items' order,
# Fairsheet writes again from its own lists' order.)
BOOKKEEPING = ("folder", "ownership", "_stats")
ACTOR_KEYS = {
    "_id",
    "name",
    "type",
    "img",
    "system",
    "prototypeToken",
    "items",
    "effects",
    "flags",
    "sort",
    *BOOKKEEPING,
}
ITEM_KEYS = {"_id", "name", "type", "img", "system", "effects", "flags", "sort", *BOOKKEEPING}
MAX_KEPT_TEXT = 2_000  # a link or a picture's path; a picture carried inline is longer
MAX_TOKEN = 20_000  # characters of the token's settings as JSON: Foundry's own take ~2,000


class KeptReading(ActorFields):
    def keep_item(self, where: str, item: dict, *, named: bool = False) -> None:
        """The item's picture and compendium links (and its name, for an attribute set or
        a trait ladder), by its id; what else it holds is named in the report."""
        self.keep_bookkeeping(item, ITEM_KEYS, where)
        self.other_flags(f"{where}.flags", as_dict(item.get("flags")), "sourceId")
        item_id = item.get("_id")
        if not isinstance(item_id, str) or not ID.fullmatch(item_id):
            if any(_at(item, path) not in (None, "") for _, path in ITEM_LINKS):
                self.note(
                    LOST,
                    say(
                        "{where}: no Foundry id, so its picture and compendium link are not kept.",
                        where=where,
                    ),
                )
            return
        links = ITEM_LINKS + ((("name", ("name",)),) if named else ())
        extras = {}
        for key, path in links:
            value = _at(item, path)
            if value is None or value == "":
                continue
            at = ".".join((where, *path))
            if _keepable(value):
                extras[key] = value
            else:
                self.note(LOST, say("{where}: not kept, not a short text.", where=at))
        if extras:
            self.kept_items[item_id] = extras

    def keep_actor(self, data: dict) -> None:
        """The actor's picture in its world (one it carries is the portrait instead) and its
        prototype token's settings, the portrait taken out of them."""
        self.keep_bookkeeping(data, ACTOR_KEYS, "")
        self.other_flags("flags", as_dict(data.get("flags")), None)
        image = data.get("img")
        if isinstance(image, str) and image and not PICTURE.fullmatch(image):
            if _keepable(image):
                self.kept["img"] = image
            else:
                self.note(LOST, say("{where}: not kept, not a short text.", where="img"))
        token = data.get("prototypeToken")
        if token is None:
            return
        if not isinstance(token, dict):
            self.note(LOST, say("prototypeToken: not an object; not kept."))
            return
        token = copy.deepcopy(token)
        texture = as_dict(token.get("texture"))
        if isinstance(texture.get("src"), str) and PICTURE.fullmatch(texture["src"]):
            del texture["src"]  # the portrait, which the export puts back
        problem = first_text_problem(token)
        if problem is not None:
            where, phrase = problem
            self.note(
                LOST,
                say(
                    "prototypeToken.{where}: {problem}; the token's settings are not kept.",
                    where=where,
                    problem=phrase,
                ),
            )
        elif len(json.dumps(token)) > MAX_TOKEN:
            self.note(
                LOST,
                say(
                    "prototypeToken: its settings are longer than {most} characters; not kept.",
                    most=MAX_TOKEN,
                ),
            )
        else:
            self.kept["prototypeToken"] = token

    def keep_bookkeeping(self, document: dict, known: set, where: str) -> None:
        self.bookkeeping.update(key for key in BOOKKEEPING if key in document)
        if "exportSource" in as_dict(document.get("flags")):
            self.bookkeeping.add("flags.exportSource")
        for key in document:
            if key not in known:
                self.note(
                    LOST,
                    say(
                        "{where}: not a field of a fudge-rpg document; not imported.",
                        where=f"{where}.{key}" if where else str(key),
                    ),
                )

    def other_flags(self, where: str, flags: dict, kept_core: str | None) -> None:
        """Flags other modules wrote (and Foundry's own but for the compendium link): named,
        not kept."""
        others = [
            key
            for key, value in flags.items()
            if key not in (FLAG, "core", "exportSource") and value not in (None, {}, [], "")
        ]
        core = as_dict(flags.get("core"))
        others += [
            f"core.{key}"
            for key, value in core.items()
            if key != kept_core and value not in (None, {}, [], "")
        ]
        if others:
            self.note(
                LOST,
                say(
                    "{where}: {keys} (other modules' data) not imported.",
                    where=where,
                    keys=", ".join(others),
                ),
            )

    def note_bookkeeping(self) -> None:
        if self.bookkeeping:
            self.note(
                BY_DESIGN,
                say(
                    "{keys}: where the actor and its items sat in their Foundry world, who "
                    "could see them and when they were made; Foundry sets these again when it "
                    "imports the actor.",
                    keys=", ".join(sorted(self.bookkeeping)),
                ),
            )


def ladder_of(item: dict) -> Ladder | None:
    """A trait ladder item's ladder (its words from the lowest, Fair = 0), or None when its
    words are not one step apart around a Fair."""
    traits = as_dict(item.get("system")).get("traits")
    if not isinstance(traits, list) or not traits:
        return None
    steps = {}
    for trait in traits:
        trait = as_dict(trait)
        name, value = trait.get("name"), trait.get("value")
        if not isinstance(name, str) or not name.strip() or isinstance(value, bool):
            return None
        if not isinstance(value, int) or value in steps:
            return None
        steps[value] = name.strip()
    low, high = min(steps), max(steps)
    if low > 0 or high < 0 or len(steps) != high - low + 1:
        return None
    return Ladder(tuple(steps[value] for value in range(low, high + 1)), fair=-low)


def same_ladder(one: Ladder, other: Ladder) -> bool:
    return one.fair == other.fair and [w.casefold() for w in one.words] == [
        w.casefold() for w in other.words
    ]


def put_back(actor: dict, kept: dict, image: str) -> dict:
    """The actor with what was kept of the one it came from: each item's picture and links
    (and the attribute set's and trait ladder's names) by its id, the actor's picture in its
    world unless it has a portrait, and the token's settings with the portrait as its
    picture. The portrait (`image`) wins over a kept picture."""
    by_id = as_dict(kept.get("items"))
    for item in actor["items"]:
        extras = as_dict(by_id.get(item["_id"]))
        if isinstance(extras.get("name"), str) and item["type"] in NAMED_TYPES:
            item["name"] = extras["name"]
        for key, path in ITEM_LINKS:
            if isinstance(extras.get(key), str):
                _set(item, path, extras[key])
    token = copy.deepcopy(as_dict(kept.get("prototypeToken")))
    if image:
        token.setdefault("texture", {})
        if isinstance(token["texture"], dict):
            token["texture"]["src"] = image
    picture = image or kept.get("img")
    head = {"img": picture} if isinstance(picture, str) and picture else {}
    if token:
        head["prototypeToken"] = token
    return head | actor


def _keepable(value) -> bool:
    return (
        isinstance(value, str) and len(value) <= MAX_KEPT_TEXT and unstorable_problem(value) is None
    )


def _at(document: dict, path: tuple[str, ...]):
    value = document
    for key in path:
        value = as_dict(value).get(key)
    return value


def _set(document: dict, path: tuple[str, ...], value: str) -> None:
    for key in path[:-1]:
        document = document.setdefault(key, {})
    document[path[-1]] = value
