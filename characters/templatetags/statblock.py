"""A sheet's statblock in each format, where a page shows many sheets (the party view):
`{% load statblock %}` then `{% with statblock_formats=sheet|statblock_formats %}`."""

from django import template

from characters.selectors.statblock import every_format, statblock

register = template.Library()


@register.filter
def statblock_formats(sheet):
    """characters.selectors.statblock's three formats of a sheet built for the page."""
    return every_format(statblock(sheet))
