"""`{% track_rows rows %}`: a harm track's levels drawn in Python, as play/play.html's
track_rows partial drew them (selectors.play.TrackRow). Every card of the GM's party view
and every play page draws five rows of boxes a track: through the template engine each box
cost a dozen lookups and tags, the largest part of a card. The same HTML, every value
escaped as the template escaped it."""

from html import escape

from django import template
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.simple_tag
def track_rows(rows) -> SafeString:
    return mark_safe("".join(_row(row) for row in rows))


def _row(row) -> str:
    name = escape(row.name)
    penalty = f' <span class="level-penalty">{escape(row.penalty)}</span>' if row.penalty else ""
    boxes = "".join(_box(box, row.index) for box in row.boxes)
    return (
        f'\n      <li class="track-level{" has-marks" if row.has_marks else ""}" '
        f'data-wound="{name}">\n'
        f'        <span class="level-name">{name}{penalty} <small>{escape(row.damage)}</small>'
        "</span>\n"
        f'        <span class="boxes">{boxes}</span>\n'
        "      </li>\n"
    )


def _box(box, index: int) -> str:
    label = escape(box.label)
    if box.marked:
        return (
            f'<button type="submit" name="box" value="clear:{index}" class="box marked" '
            f'aria-pressed="true" aria-label="{label}">{escape(box.symbol)}</button>'
        )
    return (
        f'<button type="submit" name="box" value="mark:{index}" class="box" '
        f'aria-pressed="false" aria-label="{label}"></button>'
    )
