"""Text helpers for paper (templates/sheets/print.html and the partials it borrows)."""

from django import template
from django.utils.html import format_html

register = template.Library()


@register.filter
def isolated(value):
    """`value` between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE: on paper, what
    <bdi> does on screen. WeasyPrint ignores unicode-bidi, and an element per name cost a
    tenth of a sheet's render; the isolates do the job inside the text (Pango keeps them)."""
    return format_html("\u2068{}\u2069", value)
