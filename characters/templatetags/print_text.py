"""Text helpers for paper (templates/sheets/print.html and the partials it borrows)."""

import unicodedata
from string import Formatter

from django import template
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe

register = template.Library()

# Bidi classes that take a left-to-right line's direction, whatever follows them: Latin and
# other left-to-right letters, European digits and their signs, marks, spaces, punctuation.
# Anything else (Hebrew, Arabic, Arabic-Indic digits, explicit controls, and code points
# Python's Unicode tables do not know yet, which Pango's may read as right-to-left) is isolated.
_TAKES_LINE_DIRECTION = frozenset(("L", "EN", "ES", "ET", "CS", "NSM", "BN", "B", "S", "WS", "ON"))


@register.filter
def isolated(value):
    """`value`, escaped, between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE unless every
    character of it takes the line's direction: on paper, what <bdi> does on screen. An
    element per name cost a tenth of a sheet's render; the isolates do the same job inside
    the text (Pango's bidi keeps them). A name that starts a left-to-right line (every use
    here does) and holds no right-to-left text needs none: it keeps its place whatever
    follows, and the isolates cost a sheet about 1%. Mid-line, after a player's text, a name
    would need them whatever it holds. Names cannot hold these controls themselves
    (rules/text.py), so none can end the isolation early."""
    if all(unicodedata.bidirectional(char) in _TAKES_LINE_DIRECTION for char in str(value)):
        return conditional_escape(value)
    return format_html("\u2068{}\u2069", value)


@register.filter
def unbroken(value):
    """`value`, escaped, that a line of paper must never break inside: its spaces no-break
    ("Très bon", "sans niveau"), and where a line could still break (the slash of
    "Maßstab (Stärke/Masse):", the hyphen of "Méta-points :") all of it in a nowrap span,
    a box drawn only where one is needed."""
    text = conditional_escape(value).replace(" ", "\u00a0")
    if "/" in text or "-" in text:
        return mark_safe(f'<span class="nowrap">{text}</span>')
    return mark_safe(text)


@register.filter
def in_rows(items, columns):
    """`items` in rows of `columns`, the last filled out with None: a fixed-layout table takes
    its column widths from its first row, so every row, the first too, has them all."""
    items, columns = list(items), int(columns)
    rows = [items[start : start + columns] for start in range(0, len(items), columns)]
    if rows:
        rows[-1] += [None] * (columns - len(rows[-1]))
    return rows


@register.filter
def code_points(text):
    """ "U+26EF, U+1FAE8": characters named by their code points, for the ones no font draws."""
    return ", ".join(f"U+{ord(char):04X}" for char in str(text))


def _css_text(text: str) -> str:
    """`text` inside a CSS string: quotes, backslashes and "<" escaped (a <style> element
    decodes no entity, and nothing in it may close it)."""
    return "".join(f"\\{ord(char):x} " if char in '"\\<' else char for char in str(text))


@register.filter
def css_string(text):
    """A translated word for a CSS string in print.html's <style> ("(suite)")."""
    return mark_safe(_css_text(text))


@register.filter
def css_counters(text):
    """ "Page {page} of {pages}", translated, as a CSS content value with the page counters
    in place: "Page " counter(page) " of " counter(pages)."""
    parts = []
    for literal, field, _spec, _conversion in Formatter().parse(str(text)):
        if literal:
            parts.append(f'"{_css_text(literal)}"')
        if field in ("page", "pages"):
            parts.append(f"counter({field})")
    return mark_safe(" ".join(parts))
