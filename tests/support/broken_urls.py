"""The site's URLs and one address that fails, for the tests of what an error shows
(tests/app/test_error_pages.py): ROOT_URLCONF in those tests only."""

from django.contrib.auth.decorators import login_not_required
from django.urls import include, path


@login_not_required
def broken(request):
    raise RuntimeError("broken on purpose, for the error page's test")


urlpatterns = [path("broken/", broken), path("", include("config.urls"))]
handler404 = "characters.views.errors.page_not_found"
