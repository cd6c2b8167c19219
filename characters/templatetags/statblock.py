"""`{% statblock_boxes %}`: each format of a character's statblock in its box, drawn in Python
(sheets/statblock.html)."""

from django import template
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from characters.templatetags.drawn import e

register = template.Library()


@register.simple_tag(takes_context=True)
def statblock_boxes(context) -> SafeString:
    """Each format of `statblock_formats` in a read-only box with its label and Copy button,
    as sheets/statblock.html's loop drew them; `statblock_key` tells one character's boxes
    from another's. Three a card, six cards on the party view: through the template engine
    the boxes cost more than the statblock's own text."""
    key = context.get("statblock_key", "")
    copied, failed, copy = (
        e(_("Copied")),
        e(_("Select the text and copy it.")),
        e(_("Copy")),
    )
    boxes = []
    for written in context.get("statblock_formats", ()):
        box = e(f"statblock-{key}-{written.format}")
        boxes.append(
            '\n  <div class="statblock-format">\n'
            f'    <label for="{box}" id="{box}-label">{e(written.label)}</label>\n'
            f'    <textarea id="{box}" rows="6" readonly spellcheck="false">'
            f"{e(written.text)}</textarea>\n"
            f'    <p class="statblock-copy"><button type="button" class="small secondary" '
            f'data-copy="{box}" data-said-copied="{copied}" data-said-failed="{failed}" '
            f'aria-describedby="{box}-label" hidden>{copy}</button> '
            '<span role="status" data-copy-status></span></p>\n'
            "  </div>\n  "
        )
    return mark_safe("".join(boxes))
