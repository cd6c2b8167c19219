"""The form renderer (settings.FORM_RENDERER): Django's own, with its plainest widget
templates drawn in Python. A page of forms draws dozens of widgets (the builder's details,
add forms and personality questions; its rows are drawn once per shape, forms.row_controls),
and a select's template is included once per option: the widget templates took over half the
builder page's time (bench.web). The HTML is byte for byte
what Django's templates write (tests/app/test_form_renderer.py checks it); any other template
goes to Django."""

from functools import lru_cache

from django.forms.renderers import DjangoTemplates
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

WIDGETS = "django/forms/widgets/"
INPUTS = {
    f"{WIDGETS}{name}.html"
    for name in ("input", "text", "hidden", "number", "email", "password", "url", "search")
}


OPTION = f"{WIDGETS}select_option.html"
TEXTAREA = f"{WIDGETS}textarea.html"


class QuickRenderer(DjangoTemplates):
    def render(self, template_name, context, request=None):
        widget = context.get("widget")
        if template_name in INPUTS:
            return draw_input(widget)
        if template_name == TEXTAREA:
            return draw_textarea(widget)
        if template_name == f"{WIDGETS}select.html" and all(
            plain_option(option) for _, options, _ in widget["optgroups"] for option in options
        ):
            return draw_select(widget)
        return super().render(template_name, context, request)


def plain_option(option) -> bool:
    """An option drawn here: Django's option template, a label that is plain text (a date
    or number label would be localized, a safe one left unescaped) and a value not marked
    safe. Anything else keeps Django's templates."""
    return (
        option["template_name"] == OPTION
        and type(option["label"]) is str
        and not hasattr(option["value"], "__html__")
    )


def draw_input(widget) -> SafeString:
    value = widget["value"]
    shown = "" if value is None else f' value="{conditional_escape(str(value))}"'
    return mark_safe(
        f'<input type="{conditional_escape(widget["type"])}" '
        f'name="{conditional_escape(widget["name"])}"{shown}{attributes(widget["attrs"])}>'
    )


def draw_textarea(widget) -> SafeString:
    value = widget["value"]
    text = conditional_escape(value) if value else ""
    return mark_safe(
        f'<textarea name="{conditional_escape(widget["name"])}"{attributes(widget["attrs"])}>\n'
        f"{text}</textarea>"
    )


def draw_select(widget) -> SafeString:
    parts = [f'<select name="{conditional_escape(widget["name"])}"{attributes(widget["attrs"])}>']
    for group_name, options, _ in widget["optgroups"]:
        if group_name:
            parts.append(f'\n  <optgroup label="{conditional_escape(group_name)}">')
        for option in options:
            parts.append("\n  ")
            parts.append(
                draw_option(str(option["value"]), option["label"], option["selected"])
                if set(option["attrs"]) <= {"selected"}
                else _option_with_attributes(option)
            )
            parts.append("\n")  # select_option.html ends with a newline
        if group_name:
            parts.append("\n  </optgroup>")
    parts.append("\n</select>")
    return mark_safe("".join(parts))


@lru_cache(maxsize=4096)
def draw_option(value: str, label: str, selected: bool) -> str:
    """An option as select_option.html writes it; the same few dozen (a ladder's levels,
    the difficulties) come round on every row, so each is escaped once. Plain text only
    (plain_option): the same text marked safe would share the cache entry."""
    chosen = " selected" if selected else ""
    return (
        f'<option value="{conditional_escape(value)}"{chosen}>{conditional_escape(label)}</option>'
    )


def _option_with_attributes(option) -> str:
    return (
        f'<option value="{conditional_escape(str(option["value"]))}"'
        f"{attributes(option['attrs'])}>{conditional_escape(option['label'])}</option>"
    )


def attributes(attrs: dict) -> str:
    """As django/forms/widgets/attrs.html writes them, in their order: True as a bare name,
    False left out."""
    return "".join(
        f" {conditional_escape(name)}"
        if value is True
        else f' {conditional_escape(name)}="{conditional_escape(str(value))}"'
        for name, value in attrs.items()
        if value is not False
    )
