"""`{% track_rows rows %}` and `{% rest_forms %}`: a harm track's levels and the rests
drawn in Python, as play/play.html drew them (selectors.play.TrackRow, rules.play.Rest).
Every card of the GM's party view and every play page draws five rows of boxes a track and
a form a rest: through the template engine each box cost a dozen lookups and tags, the
largest part of a card. The same HTML, every value escaped as the template escaped it."""

from django import template
from django.template.defaultfilters import capfirst
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from characters.templatetags.drawn import csrf_input, e
from characters.wording import said

register = template.Library()


@register.simple_tag
def track_rows(rows) -> SafeString:
    return mark_safe("".join(_row(row) for row in rows))


def _row(row) -> str:
    name = e(row.name)
    penalty = f' <span class="level-penalty">{e(row.penalty)}</span>' if row.penalty else ""
    boxes = "".join(_box(box, row.index) for box in row.boxes)
    return (
        f'\n      <li class="track-level{" has-marks" if row.has_marks else ""}" '
        f'data-wound="{name}">\n'
        f'        <span class="level-name">{name}{penalty} <small>{e(row.damage)}</small>'
        "</span>\n"
        f'        <span class="boxes">{boxes}</span>\n'
        "      </li>\n"
    )


def _box(box, index: int) -> str:
    label = e(box.label)
    if box.marked:
        return (
            f'<button type="submit" name="box" value="clear:{index}" class="box marked" '
            f'aria-pressed="true" aria-label="{label}">{e(box.symbol)}</button>'
        )
    return (
        f'<button type="submit" name="box" value="mark:{index}" class="box" '
        f'aria-pressed="false" aria-label="{label}"></button>'
    )


@register.simple_tag(takes_context=True)
def rest_forms(context) -> SafeString:
    """The rests a character may take (rules.play.rests), each a form asking before it
    posts, as the play page's template drew them: two a card on the party view."""
    table, character = context["table"], context["character"]
    url = e(reverse("play_rest", args=[character.pk]))
    hidden = f'<input type="hidden" name="revision" value="{table.state.revision}">'
    if context.get("on_party"):
        hidden += '<input type="hidden" name="back" value="party">'
    csrf = csrf_input(context)
    forms = []
    for rest in table.rests:
        label, does = said(rest.label), said(rest.does)
        # As {% blocktranslate %} says them: the words escaped, the translation as it is.
        confirm = _("%(rest)s: %(does)s?") % {"rest": e(label), "does": e(does)}
        done = _("%(does)s (%(section)s).") % {
            "does": e(capfirst(does)),
            "section": e(rest.section),
        }
        forms.append(
            f'\n    <form method="post" action="{url}" hx-post="{url}" hx-confirm="{confirm}" '
            'class="rest-row">\n'
            f"      {csrf}{hidden}\n"
            f'      <button type="submit" name="rest" value="{e(rest.key)}" '
            f'class="secondary">{e(label)}</button>\n'
            f"      <small>{done}</small>\n"
            "    </form>\n    "
        )
    return mark_safe("".join(forms))
