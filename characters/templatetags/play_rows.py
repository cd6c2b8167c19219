"""The status panel of play/play.html drawn in Python: `{% wounds_and_points %}` (how bad
it is, the harm tracks with their boxes, the points and field-of-power potential),
`{% conditions_list %}` and `{% rest_forms %}` (selectors.play.AtTable, TrackRow,
rules.play.Rest), and the forms beside it, `{% play_inputs %}`. Every card of the GM's party
view and every play page draws them: through the template engine each box cost a dozen
lookups and tags, and each form its URL, token, hidden fields and sentences, most of a card.
The same HTML, every value escaped as the template escaped it, each sentence said with the
template's own msgid."""

from django import template
from django.template.defaultfilters import capfirst
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from characters.templatetags.drawn import csrf_input, e
from characters.wording import said

register = template.Library()


def _track_rows(rows) -> str:
    return "".join(_row(row) for row in rows)


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
    hidden = _hidden(context, table)
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
            f"      {hidden}\n"
            f'      <button type="submit" name="rest" value="{e(rest.key)}" '
            f'class="secondary">{e(label)}</button>\n'
            f"      <small>{done}</small>\n"
            "    </form>\n    "
        )
    return mark_safe("".join(forms))


# -- the status panel (play/play.html#status): six a party view, one a play page ---------------


@register.simple_tag(takes_context=True)
def wounds_and_points(context) -> SafeString:
    """The status panel's summary, harm tracks (a group NPC's other members' too), points and
    potential."""
    table, character = context["table"], context["character"]
    hidden = _hidden(context, table)
    wound_url = e(reverse("play_wound", args=[character.pk]))
    name = e(character.name)
    title = e(table.title)
    member_1 = _("Member 1") + ": " if table.members else ""
    section = _("(%(section)s; the numbers are the %(counted)s of one blow)") % {
        "section": e(table.track.section),
        "counted": e(table.damage_label),
    }
    levels = _("%(track)s of %(name)s") % {"track": title, "name": name}
    parts = [
        _summary(table),
        f'\n  <form method="post" action="{wound_url}" hx-post="{wound_url}" class="harm-track" '
        'data-offline="wound">\n'
        f"    {hidden}\n"
        f'    <p class="track-title">{member_1}{title} <small>{section}</small></p>\n'
        f'    <ol class="track-levels" aria-label="{levels}">\n'
        f"      {_track_rows(table.rows)}\n"
        "    </ol>\n"
        "  </form>\n  \n  ",
    ]
    for member in table.members:
        parts.append(_member_track(member, wound_url, hidden, name))
    parts.append("\n\n  ")
    parts.append(_points(context, table, character, hidden))
    return mark_safe("".join(parts))


def _hidden(context, table) -> str:
    """{% csrf_token %}{% partial hidden %}: the token, the revision the click was made at,
    and on the party view the way back there."""
    return (
        f'{csrf_input(context)}<input type="hidden" name="revision" value="{table.state.revision}">'
        f"{_back(context)}"
    )


def _back(context) -> str:
    """On the party view, the way back there after a form posts."""
    return '<input type="hidden" name="back" value="party">' if context.get("on_party") else ""


def _summary(table) -> str:
    if table.worst:
        if table.penalty:
            worst = _("<strong>%(wound)s</strong>: %(penalty)s on every roll.") % {
                "wound": e(table.worst_word),
                "penalty": table.penalty,
            }
        else:
            worst = f"<strong>{e(table.worst_word)}</strong>."
        said = f"{worst} <small>{e(capfirst(table.effect))}.</small>\n    "
    else:
        unhurt = _("Unhurt")
        said = f"<strong>{unhurt}</strong>"
    return (
        f'<p class="play-summary severity-{table.severity}" data-severity="{table.severity}">\n'
        f'    <span class="severity-icon" aria-hidden="true">{e(table.severity_icon)}</span>\n'
        f"    {said}\n"
        "  </p>"
    )


def _member_track(member, wound_url: str, hidden: str, name: str) -> str:
    number = member.number
    worst = ""
    if member.worst_word:
        worst = f": <strong>{e(member.worst_word)}</strong>"
        if member.penalty:
            worst += f" {member.penalty}"
    levels = _("Member %(number)s of %(name)s") % {"number": number, "name": name}
    title = _("Member %(number)s") % {"number": number}
    return (
        f'\n  <form method="post" action="{wound_url}" hx-post="{wound_url}" '
        'class="harm-track group-member">\n'
        f'    {hidden}<input type="hidden" name="member" value="{number}">\n'
        f'    <p class="track-title">{title}{worst}</p>\n'
        f'    <ol class="track-levels" aria-label="{levels}">\n'
        f"      {_track_rows(member.rows)}\n"
        "    </ol>\n"
        "  </form>\n  "
    )


def _points(context, table, character, hidden: str) -> str:
    pool, state, in_hand = table.pool, table.state, table.in_hand
    url = e(reverse("play_points", args=[character.pk]))
    most = ""
    if pool.most is not None:
        at_most = _("(at most %(most)s)") % {"most": pool.most}
        most = f" <small>{at_most}</small>"
    at_table = ""
    if state.points_spent or state.points_regained:
        at_table = _("; at the table %(spent)s spent, %(regained)s given back") % {
            "spent": state.points_spent,
            "regained": state.points_regained,
        }
    regain = ""
    if context.get("may_regain"):
        full = " disabled" if pool.most is not None and in_hand >= pool.most else ""
        give_back = _("Give 1 back")
        regain = (
            '<button type="submit" name="action" value="regain" '
            f'class="secondary outline"{full}>{give_back}</button>'
        )
    in_hand_said = _("<strong data-points>%(count)s</strong> %(points)s in hand") % {
        "count": in_hand,
        "points": _points_word(table),
    }
    on_record = _("%(count)s on record") % {"count": pool.on_record}
    spend = _("Spend 1")
    parts = [
        '<div class="play-points">\n'
        f'    <form method="post" action="{url}" hx-post="{url}" class="points-row" '
        'data-offline="points">\n'
        f"      {hidden}\n"
        f'      <p class="points-count">{in_hand_said}{most}\n'
        f'        <small class="points-record">{on_record}{at_table} · {e(pool.section)}'
        "</small></p>\n"
        '      <span class="points-actions">\n'
        f'        <button type="submit" name="action" value="spend"'
        f"{'' if in_hand else ' disabled'}>{spend}</button>\n"
        f"        {regain}\n"
        "      </span>\n"
        "    </form>\n    "
    ]
    if table.potential_rows:
        potential_url = e(reverse("play_potential", args=[character.pk]))
        section = f"{e(table.potential_section)}: " if table.potential_section else ""
        for power, most_of, left in table.potential_rows:
            parts.append(_potential(potential_url, hidden, section, power, most_of, left))
    parts.append("\n  </div>")
    return "".join(parts)


def _points_word(table) -> str:
    """The points' name for the count in hand, in a span of its own: the offline page says
    it again as the count it changes on the phone takes it (static/js/offline.js)."""
    return f"<span data-points-word>{e(table.points_word)}</span>"


def _potential(url: str, hidden: str, section: str, power: str, most: int, left: int) -> str:
    said = {"left": left, "most": most, "power": e(power)}
    potential_left = _("<strong>%(left)s</strong> of %(most)s %(power)s potential left") % said
    back_after_rest = _("back after a good night's rest")
    use, use_once = _("Use 1"), _("Use %(power)s once") % said
    undo, take_back = _("Undo"), _("Take back a use of %(power)s") % said
    return (
        f'\n    <form method="post" action="{url}" hx-post="{url}" class="points-row">\n'
        f'      {hidden}<input type="hidden" name="power" value="{e(power)}">\n'
        '      <p class="points-count">'
        f"{potential_left} "
        f'<small class="points-record">{section}{back_after_rest}'
        "</small></p>\n"
        '      <span class="points-actions">\n'
        f'        <button type="submit" name="action" value="use"{"" if left else " disabled"} '
        f'aria-label="{use_once}">{use}</button>\n'
        '        <button type="submit" name="action" value="return" class="secondary outline"'
        f"{' disabled' if left == most else ''} "
        f'aria-label="{take_back}">{undo}</button>\n'
        "      </span>\n"
        "    </form>\n    "
    )


@register.simple_tag(takes_context=True)
def conditions_list(context) -> SafeString:
    """The status panel's conditions, each with its form to remove it."""
    table, character = context["table"], context["character"]
    back = _back(context)
    items = []
    if table.state.conditions:
        url = e(reverse("play_condition_remove", args=[character.pk]))
        csrf = csrf_input(context)
        for condition in table.state.conditions:
            text = e(condition)
            remove = _("Remove the condition %(condition)s") % {"condition": text}
            items.append(
                "\n      <li>\n"
                f'        <form method="post" action="{url}" hx-post="{url}" class="condition" '
                'data-offline="condition_remove">\n'
                f'          {csrf}{back}<input type="hidden" name="text" value="{text}">\n'
                f"          <span>{text}</span>\n"
                '          <button type="submit" class="secondary outline remove" '
                f'aria-label="{remove}">×</button>\n'  # noqa: RUF001 (the times sign, as drawn)
                "        </form>\n"
                "      </li>\n      "
            )
    else:
        none = _("None.")
        items.append(f'\n      <li class="empty">{none}</li>\n      ')
    conditions = _("Conditions")
    return mark_safe(
        '<div class="play-conditions">\n'
        f'    <p class="track-title">{conditions}</p>\n'
        f'    <ul class="conditions">\n      {"".join(items)}\n    </ul>\n'
        "  </div>"
    )


@register.simple_tag(takes_context=True)
def play_inputs(context) -> SafeString:
    """The forms to add a condition and to mark a blow, beside the status panel."""
    table, character = context["table"], context["character"]
    pk = character.pk
    hidden = csrf_input(context) + _back(context)
    condition_url = e(reverse("play_condition_add", args=[pk]))
    blow_url = e(reverse("play_blow", args=[pk]))
    swap = f'hx-target="#play-status-{pk}" hx-swap="outerHTML" class="inline-form"'
    blow = _("Mark a blow of (%(counted)s)") % {"counted": e(table.damage_label)}
    add_condition, example = _("Add a condition"), _("stunned, -1 until healed")
    add, mark = _("Add"), _("Mark")
    lands = _(
        "It lands where the rules put it: the next open box up when its own are full (%(section)s)."
    ) % {"section": e(table.track.section)}
    return mark_safe(
        '<div class="play-inputs">\n'
        f'  <form method="post" action="{condition_url}" hx-post="{condition_url}" {swap} '
        'data-reset-on-success data-offline="condition_add">\n'
        f"    {hidden}\n"
        f'    <label for="condition-{pk}">{add_condition}</label>\n'
        '    <span class="inline-fields">\n'
        f'      <input type="text" id="condition-{pk}" name="text" maxlength="60" required '
        f'placeholder="{example}">\n'
        f'      <button type="submit" class="secondary">{add}</button>\n'
        "    </span>\n"
        "  </form>\n"
        f'  <form method="post" action="{blow_url}" hx-post="{blow_url}" {swap} '
        "data-reset-on-success>\n"
        f"    {hidden}\n"
        f'    <label for="blow-{pk}">{blow}</label>\n'
        '    <span class="inline-fields">\n'
        f'      <input type="number" id="blow-{pk}" name="damage" min="-30" max="60" required '
        'inputmode="numeric">\n'
        f'      <button type="submit" class="secondary">{mark}</button>\n'
        "    </span>\n"
        f"    <small>{lands}</small>\n"
        "  </form>\n"
        "</div>"
    )
