"""A character's statblock: its sheet's content, compact, as plain text, Markdown or BBCode, for
play-by-post games, Discord, forums and wikis, in the reader's language.

`statblock(sheet)` gathers what the sheet shows into lines of plain words: built-in rules
names said by rules_content ("Escalade"), ladder words and the rules' vocabulary as the sheet
already says them ("Bon"). `written(block, format)` writes those lines in one of the three
formats; each format escapes every word it is given before it adds its own markup, so nothing
a player typed ever becomes Markdown or BBCode. One module writes all three: a line reads the
same in each, only the markup differs.
"""

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from characters import adapters
from characters.rules_content import rules_name
from characters.sheets import ListedItem, Sheet, TraitRow, build_sheet

TEXT, MARKDOWN, BBCODE = "text", "markdown", "bbcode"
FORMATS = (TEXT, MARKDOWN, BBCODE)
# A download's file extension: its format and content type.
DOWNLOADS = {"txt": (TEXT, "text/plain"), "md": (MARKDOWN, "text/markdown")}
# Between the facts of a line, and between the entries of a list.
FACT_SEPARATOR = " · "
ENTRY_SEPARATOR = ", "
BOX = "☐"  # an empty wound box, as the sheet prints it
# What CommonMark (and Discord, which follows it) reads as markup inside a line; a backslash
# before any of them is a plain character there.
MARKDOWN_SPECIAL = frozenset("\\`*_~[]<>|#")
MARKDOWN_ESCAPES = str.maketrans({c: f"\\{c}" for c in MARKDOWN_SPECIAL})
# BBCode has no escape: a zero-width space after "[" stops "[b]" in a name from being a tag.
BBCODE_TAG_BREAK = "[\u200b"


@dataclass(frozen=True)
class Statblock:
    """What a statblock says, in plain words: each line is a label and its values."""

    name: str
    concept: str
    facts: tuple[tuple[str, str], ...]  # (label, value): player, race, ruleset, points...
    lists: tuple[tuple[str, tuple[str, ...]], ...]  # (title, entries), the empty ones left out


@dataclass(frozen=True)
class Written:
    """A statblock in one format, for a page's textarea."""

    format: str
    label: str
    text: str


def statblock(sheet: Sheet) -> Statblock:
    """The sheet's content as a statblock. Call it while the character's campaign words are
    in use (sheets.sheet_for_character sets them), so a GM's own translations are said."""
    colon = _colon()
    lists = [
        (sheet.attributes_title, tuple(_trait(row, colon) for row in sheet.attributes)),
        (_skills_title(sheet), tuple(_trait(row, colon) for row in sheet.skills)),
    ]
    if sheet.gifts_and_faults:
        lists.append((sheet.gifts_title, tuple(_item(item) for item in sheet.gifts)))
        lists.append((sheet.faults_title, tuple(_item(item) for item in sheet.faults)))
    lists.append((sheet.powers_title, tuple(_trait(row, colon) for row in sheet.powers)))
    if sheet.offensive:
        lists.append((_("Offence"), tuple(_factor(f) for f in sheet.offensive)))
        lists.append((_("Defence"), tuple(_factor(f) for f in sheet.defensive)))
    lists.append((sheet.harm_title, tuple(_wound(w, colon) for w in sheet.wounds)))
    lists.append((_("Equipment and gear"), tuple(_item(item) for item in sheet.equipment)))
    facts = [(_("Player"), sheet.player), (_("Race"), rules_name(sheet.race)), *sheet.facts]
    return Statblock(
        name=_one_line(sheet.name),
        concept=_one_line(sheet.concept),
        facts=tuple((label, _one_line(value)) for label, value in facts if value),
        lists=tuple((title, entries) for title, entries in lists if title and entries),
    )


def statblock_of(character) -> Statblock:
    """A stored character's statblock (callers prefetch what its sheet prints: selectors.
    printing.SHEET_ROWS). No portrait, ledger or approval: a statblock shows none of them."""
    ruleset = adapters.ruleset_for(character)  # says the campaign's words from here on
    return statblock(build_sheet(adapters.character_to_rules(character), ruleset))


def written(block: Statblock, format: str) -> str:
    """The statblock in `format` (TEXT, MARKDOWN or BBCODE), lines ending in a newline."""
    writer = WRITERS[format]
    return "".join(f"{line}\n" for line in writer(block))


def every_format(block: Statblock) -> tuple[Written, ...]:
    """The statblock in each format, with the name a page gives the format."""
    labels = {
        TEXT: _("Plain text"),
        MARKDOWN: _("Markdown (Discord, wikis)"),
        BBCODE: _("BBCode (forums)"),
    }
    return tuple(Written(format, labels[format], written(block, format)) for format in FORMATS)


# -- the lines, in plain words ----------------------------------------------------------------


def _colon() -> str:
    """Between a label and its value in the reader's language (": ", " : " in French): said
    once a statblock or a format, not once a line."""
    return pgettext("label: value", ": ")


def _label_value(label: str, value: str, colon: str) -> str:
    return f"{label}{colon}{value}"


def _trait(row: TraitRow, colon: str) -> str:
    """ "Climbing: Good +1", "Elvish ** (default): Fair 0", "Escalade : Bon +1"."""
    name = rules_name(row.name)
    if row.mark:
        name = f"{name} {row.mark}"
    if row.note:
        name = f"{name} ({row.note})"
    level = f"{row.level} {row.rating}" if row.level else _("no level")
    return _label_value(_one_line(name), level, colon)


def _skills_title(sheet: Sheet) -> str:
    if not sheet.skill_marks:
        return sheet.skills_title
    return f"{sheet.skills_title} ({sheet.skill_marks})"


def _item(item: ListedItem) -> str:
    name = rules_name(item.name)
    return _one_line(f"{name} ({item.note})" if item.note else name)


def _factor(factor) -> str:
    """ "Staff +1" (a weapon's name is rules content), "Defensive -1 + armour"."""
    total = f"{factor.total} + {factor.open_term}" if factor.open_term else factor.total
    return _one_line(f"{rules_name(factor.label)} {total}")


def _wound(wound, colon: str) -> str:
    """ "Hurt (-1): 3-4 ☐☐", as the sheet's track reads; a level left with no box (a fault
    took them) says its damage only."""
    name = f"{wound.name} ({wound.penalty})" if wound.penalty else wound.name
    return _label_value(name, f"{wound.damage} {BOX * len(wound.boxes)}".strip(), colon)


def _one_line(text: str) -> str:
    """Whatever a player typed, on one line: a statblock's lines are its structure."""
    return " ".join(str(text).split())


# -- the three formats ------------------------------------------------------------------------


def _text_lines(block: Statblock):
    colon = _colon()
    yield block.name
    if block.concept:
        yield block.concept
    if block.facts:
        facts = (_label_value(label, value, colon) for label, value in block.facts)
        yield FACT_SEPARATOR.join(facts)
    for title, entries in block.lists:
        yield _label_value(title, ENTRY_SEPARATOR.join(entries), colon)


def _markdown(text: str) -> str:
    return text.translate(MARKDOWN_ESCAPES)


def _markdown_lines(block: Statblock):
    """A heading, the concept in italics, then one list item a line: a list keeps its lines
    apart in every Markdown (a plain line break does not, outside Discord)."""
    colon = _colon()
    yield f"### {_markdown(block.name)}"
    if block.concept:
        yield f"*{_markdown(block.concept)}*"
    yield ""
    if block.facts:
        facts = (_markdown_label(label, value, colon) for label, value in block.facts)
        yield f"- {FACT_SEPARATOR.join(facts)}"
    for title, entries in block.lists:
        yield f"- {_markdown_label(title, ENTRY_SEPARATOR.join(entries), colon)}"


def _markdown_label(label: str, value: str, colon: str) -> str:
    return f"**{_markdown(label)}**{colon}{_markdown(value)}"


def _bbcode(text: str) -> str:
    return text.replace("[", BBCODE_TAG_BREAK)


def _bbcode_lines(block: Statblock):
    colon = _colon()
    yield f"[b]{_bbcode(block.name)}[/b]"
    if block.concept:
        yield f"[i]{_bbcode(block.concept)}[/i]"
    if block.facts:
        facts = (_bbcode_label(label, value, colon) for label, value in block.facts)
        yield FACT_SEPARATOR.join(facts)
    for title, entries in block.lists:
        yield _bbcode_label(title, ENTRY_SEPARATOR.join(entries), colon)


def _bbcode_label(label: str, value: str, colon: str) -> str:
    return f"[b]{_bbcode(label)}[/b]{colon}{_bbcode(value)}"


WRITERS = {TEXT: _text_lines, MARKDOWN: _markdown_lines, BBCODE: _bbcode_lines}
