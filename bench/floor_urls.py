"""The URLs bench.web times an edit's floor on: the project's own, and a view that does
next to nothing behind the same middleware (session, user, CSRF, CSP, htmx): what any
signed-in request costs, under the trait edit's figure. Never in config.urls: it exists
only in a benchmark."""

from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_POST


@require_POST
def signed_in_post(request):
    return HttpResponse(request.user.username)


urlpatterns = [
    path("bench/signed-in-post", signed_in_post),
    path("", include("config.urls")),
]
