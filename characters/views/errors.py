"""What a missing page says (config.urls' handler404), and an expired form
(settings.CSRF_FAILURE_VIEW). Every lookup of something the user may not see raises Http404
too (selectors.access), so the page says both without telling which.

An htmx request answered with one of these pages would have the whole page swapped into
the row or form that sent it: it is told in #alerts instead, with a way to reload."""

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.views.htmx import refused

NOT_HERE = gettext_lazy("There is nothing here, or it is not yours to see.")
EXPIRED = gettext_lazy(
    "Nothing was saved: the page was loaded before you last logged in or out, or your "
    "browser did not send its security cookie. Reload the page and try again."
)


def page_not_found(request, exception):
    # An htmx write to a row removed meanwhile (in another tab, say) would otherwise swap a
    # whole page into the row: it says so in #alerts instead, with a way to reload.
    if getattr(request, "htmx", False):
        back = _reload_address(request)
        return refused(
            request,
            _(
                "There is nothing here, or it is not yours to see. Reload the page to see it as it "
                "is now."
            ),
            status=404,
            back=back,
        )
    return render(request, "404.html", {"message": NOT_HERE}, status=404)


def csrf_failure(request, reason=""):
    # A tab loaded before its reader logged out and in again: its forms carry a token the
    # new session refuses.
    if getattr(request, "htmx", False):
        return refused(request, str(EXPIRED), status=403, back=_reload_address(request))
    return render(request, "403_csrf.html", {"message": EXPIRED}, status=403)


def _reload_address(request) -> str:
    return request.htmx.current_url_abs_path or "/"
