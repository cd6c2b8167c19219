"""The play page (docs/play.md): a character's live sheet at the table, for its player and
its campaign's GM. Every change is a small post; under htmx it answers with the fresh
status panel (the same partial on the GM's party view), the news in #alerts, and the
event playChanged, on which the page's poll fetches the rest at once. A plain post goes
back to the page it came from. Anyone else gets a 404.

The page polls play_live every few seconds: 204 when nothing changed (two queries), else
the changed panels as out-of-band swaps."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe
from django_htmx.http import trigger_client_event

from characters.adapters import ruleset_for
from characters.errors import ServiceError, StaleWrite
from characters.forms import play as forms
from characters.selectors.play import (
    at_table,
    character_for_play,
    character_for_poll,
    log_context,
    log_lines,
    play_context,
    play_fingerprint,
    status_context,
)
from characters.services import play as services
from characters.views.htmx import fragments, news, refused, reload_page

PAGE = "play/play.html"


@require_safe
def character_play(request, pk):
    character = character_for_play(request.user, pk)
    return render(request, PAGE, play_context(character, request.user))


@require_safe
def play_live(request, pk):
    character = character_for_poll(request.user, pk)
    now = play_fingerprint(character, request.user)
    unchanged = poll_unchanged(request, now)
    if unchanged:
        return unchanged
    fresh = character_for_play(request.user, pk)
    return render(request, f"{PAGE}#live", play_context(fresh, request.user, fingerprint=now))


def poll_unchanged(request, now: str) -> HttpResponse | None:
    """The answer to a poll when the page needs no panel: 204 when its fingerprint (`fp`)
    is the current one, a full reload when the fingerprint's first part, the builds it
    shows, changed (the whole page is different then); else None."""
    seen = request.GET.get("fp", "")
    if seen == now:
        return HttpResponse(status=204)
    if seen.split(".")[0] != now.split(".")[0]:
        return reload_page()
    return None


# -- changes -------------------------------------------------------------------------------------


@require_POST
def play_wound(request, pk):
    def call(character, form):
        what, level = form.action()
        return services.play_wound_box(
            **_who(request, character, form),
            level=level,
            mark=what == "mark",
            member=form.cleaned_data["member"] or 1,
        )

    return _change(request, pk, forms.WoundForm, call)


@require_POST
def play_blow(request, pk):
    def call(character, form):
        damage = form.cleaned_data["damage"]
        return services.play_blow_record(character=character, actor=request.user, damage=damage)

    return _change(request, pk, forms.BlowForm, call)


@require_POST
def play_points(request, pk):
    def call(character, form):
        spend = form.cleaned_data["action"] == "spend"
        service = services.play_points_spend if spend else services.play_points_regain
        return service(**_who(request, character, form))

    return _change(request, pk, forms.PointsForm, call)


@require_POST
def play_potential(request, pk):
    def call(character, form):
        data = form.cleaned_data
        count = 1 if data["action"] == "use" else -1
        return services.play_potential_use(
            **_who(request, character, form), power=data["power"], count=count
        )

    return _change(request, pk, forms.PotentialForm, call)


@require_POST
def play_condition(request, pk, remove):
    service = services.play_condition_remove if remove else services.play_condition_add

    def call(character, form):
        return service(**_who(request, character), text=form.cleaned_data["text"])

    return _change(request, pk, forms.ConditionForm, call)


@require_POST
def play_rest(request, pk):
    def call(character, form):
        return services.play_rest(**_who(request, character, form), rest=form.cleaned_data["rest"])

    return _change(request, pk, forms.RestForm, call)


@require_POST
def play_tracker(request, pk):
    def call(character, form):
        data = form.cleaned_data
        return services.play_tracker_change(
            **_who(request, character, form),
            tracker=data["tracker"],
            step=data["step"],
            value=data["value"],
        )

    return _change(request, pk, forms.TrackerForm, call)


@require_POST
def play_roll(request, pk):
    character = character_for_play(request.user, pk)
    form = forms.RollForm(request.POST)
    back = reverse("character_play", args=[pk])
    if not form.is_valid():
        return refused(request, form_problem(form), status=400, back=back)
    try:
        entry = services.dice_roll(character=character, actor=request.user, **form.roll())
    except ServiceError as error:
        return refused(request, str(error), status=error.status, back=back)
    ruleset = ruleset_for(character)
    rolled = log_lines([entry], ruleset)[0]
    if not request.htmx:
        messages.success(request, f"{entry.subject}: {rolled.roll}. {rolled.outcome}".strip())
        return redirect(back)
    context = {**log_context(character, ruleset, request.user), "rolled": rolled}
    return render(request, f"{PAGE}#rolled", context)


def _who(request, character, form=None) -> dict:
    """The service's common arguments; the revision the page showed, where it matters."""
    return {
        "character": character,
        "actor": request.user,
        "expected_revision": form.cleaned_data["revision"] if form else None,
    }


def _change(request, pk, form_class, call):
    """Bind the form, make the change, answer: the fresh status panel and the news (htmx),
    or back to the page the post came from."""
    character = character_for_play(request.user, pk)
    back = _back(request, character)
    form = form_class(request.POST)
    if not form.is_valid():
        return refused(request, form_problem(form), status=400, back=back)
    try:
        change = call(character, form)
    except StaleWrite as error:
        if not request.htmx:
            return refused(request, str(error), status=error.status, back=back)
        fresh = character_for_play(request.user, pk)
        return _status(request, at_table(fresh), str(error), error=True, status=error.status)
    except ServiceError as error:
        return refused(request, str(error), status=error.status, back=back)
    if not request.htmx:
        messages.success(request, change.said)
        return redirect(back)
    return _status(request, change.table, change.said)


def _status(request, table, message, *, error=False, status=200) -> HttpResponse:
    context = {**status_context(table, request.user), "on_party": _on_party(request)}
    response = fragments(
        render_to_string(f"{PAGE}#status", context, request),
        news(request, message, error=error),
        status=status,
    )
    return trigger_client_event(
        response,
        "playChanged",
        {"character": table.character.pk, "revision": table.state.revision},
    )


def _on_party(request) -> bool:
    return request.POST.get("back") == "party"


def _back(request, character) -> str:
    if _on_party(request) and character.campaign_id is not None:
        return reverse("campaign_party", args=[character.campaign_id])
    return reverse("character_play", args=[character.pk])


def form_problem(form) -> str:
    """The first thing wrong with what was sent, by its field's label ("Damage: Ensure
    this value is less than or equal to 60.")."""
    field, errors = next(iter(form.errors.items()))
    if field == "__all__":
        return _("Nothing was saved. {errors}").format(errors=" ".join(errors))
    return _("Nothing was saved. {field}: {errors}").format(
        field=form[field].label, errors=" ".join(errors)
    )
