"""Text helpers for paper (templates/sheets/print.html and the partials it borrows)."""

import unicodedata

from django import template
from django.utils.html import conditional_escape, format_html

register = template.Library()

# Bidi classes that can reorder the text around them: right-to-left letters (Hebrew R,
# Arabic AL) and Arabic-Indic digits (AN).
_REORDERING = frozenset(("R", "AL", "AN"))


@register.filter
def isolated(value):
    """`value`, escaped, between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE when it
    holds right-to-left text: on paper, what <bdi> does on screen. An element per name cost
    a tenth of a sheet's render; the isolates do the same job inside the text (Pango's bidi
    keeps them). A name with no such character needs none: in a left-to-right line it takes
    the line's direction whatever follows it, and the isolates cost a sheet about 1%.
    Names cannot hold these controls themselves (rules/text.py), so none can end the
    isolation early."""
    if any(unicodedata.bidirectional(char) in _REORDERING for char in str(value)):
        return format_html("\u2068{}\u2069", value)
    return conditional_escape(value)
