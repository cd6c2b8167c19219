"""What a missing page says (config.urls' handler404). Every lookup of something the user
may not see raises Http404 too (selectors.access), so the page says both without telling
which."""

from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from characters.views.htmx import refused

NOT_HERE = gettext_lazy("There is nothing here, or it is not yours to see.")


def page_not_found(request, exception):
    # An htmx write to a row removed meanwhile (in another tab, say) would otherwise swap a
    # whole page into the row: it says so in #alerts instead, with a way to reload.
    if getattr(request, "htmx", False):
        back = request.htmx.current_url_abs_path or "/"
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
