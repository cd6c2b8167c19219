"""The threads between the GM and the player (services.threads): the GM starts one on the
review page; either of them answers it, marks it resolved or reopens it, on the builder or
the review page. Anyone else gets a 404 (selectors.access), as for the character itself.

Under htmx a write answers with the thread (or the review page's conversation) as it is now
and the news for #alerts, which static/js/fairsheet.js puts beside the form; a refusal says
why in #alerts. A plain post goes back to the page it came from, to the thread."""

from django.contrib import messages
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from characters.adapters import ruleset_for
from characters.errors import ServiceError
from characters.forms.threads import ThreadReplyForm, ThreadStartForm, first_problem
from characters.selectors.access import character_for_viewer
from characters.selectors.review import character_for_gm
from characters.selectors.threads import thread_of, threads_on
from characters.services import threads as services
from characters.views.htmx import fragments, news, refused

THREAD = "threads/thread.html#thread"
CONVERSATION = "threads/review.html#conversation"
# Where a plain post goes back to: the page the form was on (posted as `page`).
PAGES = {"builder": "character_builder", "review": "character_review"}


@require_POST
def thread_start(request, pk):
    character = character_for_gm(request.user, pk)
    ruleset = ruleset_for(character)
    form = ThreadStartForm(request.POST, character=character, ruleset=ruleset)
    if not form.is_valid():
        return refused(request, first_problem(form), status=400, back=_back(request, character))
    try:
        thread = services.comment_thread_start(
            character=character,
            actor=request.user,
            body=form.cleaned_data["body"],
            about=form.about_row(),
        )
    except ServiceError as error:
        return refused(request, str(error), status=error.status, back=_back(request, character))
    said = _("Thread started: {player} can answer it on the builder.").format(
        player=character.owner.username
    )
    if not request.htmx:
        messages.success(request, said)
        return redirect(_back(request, character, thread.pk))
    context = {
        **_context(request, character, ruleset),
        "start_form": ThreadStartForm(character=character, ruleset=ruleset),
    }
    return fragments(render_to_string(CONVERSATION, context, request), news(request, said))


@require_POST
def thread_reply(request, pk, thread_pk):
    character = character_for_viewer(request.user, pk)
    thread = thread_of(character, thread_pk)
    form = ThreadReplyForm(request.POST)
    if not form.is_valid():
        back = _back(request, character, thread.pk)
        return refused(request, first_problem(form), status=400, back=back)
    return _write(
        request,
        character,
        thread.pk,
        lambda: services.comment_reply(
            thread=thread, actor=request.user, body=form.cleaned_data["body"]
        ),
        _("Sent: {name} is told.").format(name=_other_side(request, character)),
    )


@require_POST
def thread_resolve(request, pk, thread_pk, resolved=True):
    character = character_for_viewer(request.user, pk)
    thread = thread_of(character, thread_pk)
    return _write(
        request,
        character,
        thread.pk,
        lambda: services.comment_thread_resolve(
            thread=thread, actor=request.user, resolved=resolved
        ),
        _("Marked resolved.") if resolved else _("Reopened: the thread takes answers again."),
    )


def _write(request, character, thread_pk, write, said):
    back = _back(request, character, thread_pk)
    try:
        write()
    except ServiceError as error:
        return refused(request, str(error), status=error.status, back=back)
    if not request.htmx:
        messages.success(request, said)
        return redirect(back)
    context = _context(request, character)
    context["t"] = context["threads"].get(thread_pk)
    return fragments(render_to_string(THREAD, context, request), news(request, said))


def _context(request, character, ruleset=None) -> dict:
    return {
        "character": character,
        "threads": threads_on(character, ruleset or ruleset_for(character)),
        "thread_page": _page(request),
    }


def _page(request) -> str:
    page = request.POST.get("page", "")
    return page if page in PAGES else "builder"


def _back(request, character, thread_pk=None) -> str:
    url = reverse(PAGES[_page(request)], args=[character.pk])
    return f"{url}#thread-{thread_pk}" if thread_pk else f"{url}#threads"


def _other_side(request, character) -> str:
    if request.user.pk == character.owner_id:
        return character.campaign.gm.username if character.campaign_id else ""
    return character.owner.username
