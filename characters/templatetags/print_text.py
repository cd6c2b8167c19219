"""Text helpers for paper (templates/sheets/print.html and the partials it borrows)."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def isolated(value):
    """`value`, escaped, between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: on paper,
    what <bdi> does on screen. An element per name cost a tenth of a sheet's render; the
    isolates do the same job inside the text (Pango's bidi keeps them). Names cannot hold
    these controls themselves (rules/text.py), so none can end the isolation early."""
    return format_html("\u2068{}\u2069", value)
