"""The URLs bench.web times an edit's floor on: the project's own, and two views that do
next to nothing behind the same middleware (session, user, CSRF, CSP, htmx), so the trait
edit's figure can be split into what any signed-in request costs, what one ORM statement
costs, and what is the edit's own. Never in config.urls: they exist only in a benchmark."""

from django.http import HttpResponse
from django.urls import include, path
from django.views.decorators.http import require_POST

from characters.models import Character


@require_POST
def signed_in_post(request):
    return HttpResponse(request.user.username)


@require_POST
def one_statement(request):
    version = Character.objects.filter(owner=request.user).values_list("version", flat=True)
    return HttpResponse(str(version.first()))


urlpatterns = [
    path("bench/signed-in-post", signed_in_post),
    path("bench/one-statement", one_statement),
    path("", include("config.urls")),
]
