"""`{% log_rows log %}`: the dice log's lines (selectors.play.LogLine) drawn in Python, as
play/log.html drew them. The party view and the play page draw thirty lines, the log page
a hundred: through the template engine a line cost some thirty lookups, tags and filters,
the log 2.8 ms of the party view. The same HTML, every value escaped as the template
escaped it, each sentence said with the template's own msgid."""

from django import template
from django.template.defaultfilters import capfirst
from django.utils.formats import date_format
from django.utils.safestring import SafeString, mark_safe
from django.utils.timezone import localtime
from django.utils.translation import gettext as _

from characters.models import DiceRoll
from characters.templatetags.drawn import e

register = template.Library()


@register.simple_tag
def log_rows(log) -> SafeString:
    return mark_safe(
        "".join(
            _session(line) if line.entry.kind == DiceRoll.Kind.SESSION else _roll(line)
            for line in log
        )
    )


def _session(line) -> str:
    # As {% blocktranslate %} says it: the name escaped, the translation as it is.
    started = _("started by %(who)s") % {"who": e(line.entry.roller.username)}
    # The date filter's: the time in the reader's zone, in the reader's language's format.
    when = e(date_format(line.rolled_at, _("j M H:i")))
    return (
        f'\n    \n    <li class="log-session"><strong>{e(line.subject)}</strong> '
        f'<small>{started} · <time datetime="{e(line.rolled_at_iso)}">{when}</time></small></li>'
        "\n    \n    "
    )


def _roll(line) -> str:
    entry = line.entry
    if line.success:
        verdict = " is-success"
    elif line.success is False:
        verdict = " is-failure"
    else:
        verdict = ""
    secret = ""
    if entry.gm_only:
        only_gm = _("secret: only the GM sees it")
        secret = f' <span class="badge log-secret">{only_gm}</span>'
    offline = ""
    if entry.rolled_offline_at:
        offline = ' · <span class="log-offline">%s</span>' % (
            _("rolled offline, on the player's device, at %(time)s")
            % {"time": e(date_format(localtime(entry.rolled_offline_at), "H:i:s"))}
        )
    faces = _("dice %(faces)s") % {"faces": " ".join(e(face) for face in line.faces)}
    dice = "".join(f'<span class="{e(die.css)}">{e(die.shown)}</span>' for die in line.dice)
    outcome = f'<p class="log-outcome">{e(capfirst(line.outcome))}</p>' if line.outcome else ""
    damage = f'<p class="log-damage">{e(line.damage_note)}</p>' if entry.damage_note else ""
    return (
        f'\n    \n    <li class="log-roll{verdict}">\n'
        f'      <p class="log-who"><strong>{e(line.subject)}</strong>{secret} '
        f'<small>{e(entry.roller.username)} · <time datetime="{e(line.rolled_at_iso)}">'
        f"{e(line.rolled_at_time)}</time>{offline}</small></p>\n"
        f'      <p class="log-text"><span class="log-dice" role="img" aria-label="{faces}">'
        f"{dice}</span> {e(line.roll)}</p>\n"
        f"      {outcome}\n"
        f"      {damage}\n"
        "    </li>\n    \n    "
    )
