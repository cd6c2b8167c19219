"""What the tags that draw their HTML in Python share (builder_rows, play_rows,
statblock): the template engine's escaping and its {% csrf_token %}, so each draws the
same HTML the template did. No tag library of its own: it has no `register`."""

from html import escape

from django.template.defaulttags import CsrfTokenNode

_CSRF_TOKEN = CsrfTokenNode()  # {% csrf_token %}


def csrf_input(context) -> str:
    """{% csrf_token %}'s hidden input, drawn once a render: the request's token is one
    value, and a page of sixty rows drew the same input sixty times."""
    drawn = context.render_context.get(_CSRF_TOKEN)
    if drawn is None:
        drawn = context.render_context[_CSRF_TOKEN] = _CSRF_TOKEN.render(context)
    return drawn


def e(value) -> str:
    """conditional_escape without its wrapper for lazy text: safe HTML as it is (as the
    template leaves it), anything else escaped, some ten times a row."""
    if hasattr(value, "__html__"):
        return value.__html__()
    return escape(str(value))
