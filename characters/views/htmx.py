"""How the views answer htmx, in one place, on django_htmx.http rather than headers set by
hand. A write that worked answers with the fragments it changed (`fragments`), tells the
page's other forms the new version (`with_version`), or, when it changes what the whole page
may do, sends the browser to a page (`done`). A write that was refused says why in #alerts
(`refused`). Each of these is also a plain-HTML answer when the request is not htmx."""

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect
from django.template.loader import render_to_string
from django_htmx.http import (
    HttpResponseClientRedirect,
    HttpResponseClientRefresh,
    reswap,
    retarget,
    trigger_client_event,
)

from characters.views.params import strict_number

ALERTS = "#alerts"


def fragments(*html: str, status: int = 200) -> HttpResponse:
    """The changed fragments: the main one first (it replaces the element that asked), the
    rest carrying their own hx-swap-oob."""
    return HttpResponse("".join(html), status=status)


def oob_append(html: str, *, to: str) -> str:
    """A new row for the end of a list: htmx strips this wrapper and appends what it holds."""
    return f'<div hx-swap-oob="beforeend:{to}">{html}</div>'


def with_version(response: HttpResponse, version: int) -> HttpResponse:
    """Every form on the page carries the version it was loaded at; after a write they take
    the new one (static/js/fairsheet.js listens for versionChanged)."""
    return trigger_client_event(response, "versionChanged", {"value": version})


def news(request, message: str, *, error: bool = False, actions: str = "") -> str:
    """A line for #alerts, swapped out of band beside the fragments of a write; `actions`,
    rendered HTML, is what the reader may do next (the builder's Undo)."""
    return render_to_string(
        "review/alert.html",
        {"message": message, "error": error, "oob": True, "actions": actions},
        request,
    )


def posted_version(request) -> int | None:
    """The version the page was loaded at, which every write form posts (kept current by
    with_version): the service refuses a write made on an older one."""
    # None when none (or no number) is posted: the write is checked for state, not staleness.
    return strict_number(request.POST.get("version"))


def posted_decision_token(request) -> str:
    """The one-time token of a decision form ({% decision_token %}) as posted, "" when there
    is none: services.decisions.decision_once checks it."""
    return request.POST.get("once", "")


def done(request, url: str) -> HttpResponse:
    """After a write that changes the whole page: load it (or another) again."""
    return HttpResponseClientRedirect(url) if request.htmx else redirect(url)


def reload_page() -> HttpResponse:
    return HttpResponseClientRefresh()


def refused(request, message: str, *, status: int, back: str) -> HttpResponse:
    """A write the service refused: nothing was saved. Under htmx the reason goes to
    #alerts with the error status and a way to reload; a plain post goes back with the
    reason as a message."""
    if not request.htmx:
        messages.error(request, message)
        return redirect(back)
    response = HttpResponse(
        render_to_string(
            "review/alert.html", {"message": message, "error": True, "reload": back}, request
        ),
        status=status,
    )
    retarget(response, ALERTS)
    return reswap(response, "innerHTML")
