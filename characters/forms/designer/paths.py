"""Where a path of the ruleset file is shown: the spot of a section it is at, and the path in
a GM's words (a section's title and a field's label), for a problem of another section."""

import re
from dataclasses import dataclass
from functools import cache

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from characters.forms.designer.fields import LINE

SEPARATOR = " \u203a "  # a single right-pointing angle quotation mark, between a title and a label


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


def plain(message: str, keys=frozenset()) -> str:
    """The reader's message in a GM's words: a field it names by its key in the file
    ("meta_points_max") is named by its label here. What the GM typed stays as typed: a
    value the message quotes ('damage_capacity', « damage_capacity »), and the GM's own
    `keys` (a loop's path)."""

    def label(match):
        word = match.group()
        if not word[0].isalpha() or word in keys:
            return word
        return f"“{key_labels()[word]}”" if word in key_labels() else word.replace("_", " ")

    return re.sub(QUOTED + r"|\b[a-z]+(?:_[a-z]+)+\b", label, message)


# A value the reader quotes, one word, as each language quotes it: 'key', « key », „key“.
QUOTED = "'[^'\\s]+'|«\\s?[^»\\s]+\\s?»|„[^“\\s]+“"


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
    "derived": "derived",
    "trackers": "trackers",
    "prerequisites": "prerequisites",
}
PART_TITLES = {
    "catalogue": _("The lists"),
    "slug": _("The game's name in files"),
    "format": _("The file"),
}
# Every section by its address, filled by the package once they are all defined.
SECTIONS: dict = {}
