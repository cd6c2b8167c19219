"""Drawings the builder page keeps (issue 40): its rows and its lists' add forms and pickers,
drawn once under their rules and then taken as drawn, with what is the request's own put in
at each page: the CSRF token and the character's version. A kept drawing shows the version
only where every builder form carries it, in its version input (name="version").

`{% keep_drawn "name" value... %}...{% endkeep_drawn %}` keeps what it encloses by its name
and values, which must be all it reads besides its rules (the context's `ruleset`) and the
reader's language; a value that is None keeps nothing (a form the player sent back refused
is drawn as it came). builder_rows keeps each row by what it is drawn from."""

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

from characters.kept import KeptUnderRules

register = template.Library()

# Some forty characters' rows, add forms and pickers in a process: the add forms' catalogue
# lists are drawn outside (pages.builder_rows keeps those once for every character).
_KEPT = KeptUnderRules(limit=3072)
# Where the token and the version go: no drawing holds a NUL, which neither PostgreSQL's
# text nor a form's field takes.
_TOKEN, _VERSION = "\x00token", "\x00version"


def kept_drawing(context, key: tuple, rules, draw) -> str:
    """`draw()`, or what it drew for `key` under `rules` in the reader's language, with this
    request's CSRF token and the context's character's version."""
    token = str(context.get("csrf_token") or "")
    version = f'name="version" value="{context["character"].version}"'
    key = (*key, get_language())
    kept = _KEPT.get(key)
    if kept is not None and kept[0] is rules:
        return mark_safe(kept[1].replace(_TOKEN, token).replace(_VERSION, version))
    drawn = draw()
    if len(token) >= 32:  # a real token: "NOTPROVIDED" or none draws no input
        _KEPT.put(key, rules, drawn.replace(token, _TOKEN).replace(version, _VERSION))
    return drawn


@register.tag
def keep_drawn(parser, token):
    values = [parser.compile_filter(bit) for bit in token.split_contents()[1:]]
    nodelist = parser.parse(("endkeep_drawn",))
    parser.delete_first_token()
    return KeepDrawnNode(nodelist, values)


class KeepDrawnNode(template.Node):
    def __init__(self, nodelist, values):
        self.nodelist, self.values = nodelist, values

    def render(self, context):
        key = tuple(value.resolve(context) for value in self.values)
        if None in key:
            return self.nodelist.render(context)
        return kept_drawing(context, key, context["ruleset"], lambda: self.nodelist.render(context))
