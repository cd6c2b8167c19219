"""Issue 39: under `make run` (DJANGO_DEBUG=1) a missing page, a revoked share link or an
error shows the site's own page, as in production, not Django's technical page with the
site's URL patterns or a traceback; DJANGO_DEBUG_PAGES=1 asks for those (README)."""

import pytest
from django.test import Client, override_settings

from characters.services.characters import character_create
from characters.services.sharing import share_link_create, share_link_revoke
from tests.support.builder_fixtures import campaign, gm, player  # noqa: F401

pytestmark = pytest.mark.django_db

TECHNICAL = ("Using the URLconf", "Traceback", "DEBUG = True", "Request Method")
OWN_404, OWN_500 = "There is nothing here, or it is not yours to see.", "Something went wrong"


@pytest.fixture
def revoked(player, campaign):  # noqa: F811
    character = character_create(owner=player, name="Brogo", campaign=campaign)
    link = share_link_create(character=character, actor=player)
    share_link_revoke(link=link, actor=player)
    return f"/shared/{link.token}/"


def addresses(revoked) -> dict[str, tuple[str, int, str]]:
    """What each kind of failure answers with the site's own pages: (address, status, page)."""
    return {
        "no such address": ("/no-such-page/", 404, OWN_404),
        "a revoked share link": (revoked, 404, OWN_404),
        "nothing by that number": ("/shared/no-such-token/sheet.pdf", 404, OWN_404),
        "an error": ("/broken/", 500, OWN_500),
    }


@pytest.mark.parametrize("signed_in", [False, True])
@pytest.mark.parametrize(
    "failure", ["no such address", "a revoked share link", "nothing by that number", "an error"]
)
@override_settings(DEBUG=True, DEBUG_PAGES=False, ROOT_URLCONF="tests.support.broken_urls")
def test_under_debug_the_site_answers_with_its_own_pages(failure, signed_in, revoked, player):  # noqa: F811
    client = Client(raise_request_exception=False)
    if signed_in:
        client.force_login(player)
    address, status, page = addresses(revoked)[failure]
    response = client.get(address)
    assert response.status_code == status
    html = response.content.decode()
    assert page in html
    assert not any(words in html for words in TECHNICAL), html[:400]


@override_settings(DEBUG=True, DEBUG_PAGES=False, ROOT_URLCONF="tests.support.broken_urls")
def test_an_address_without_its_slash_is_still_sent_to_it(client):
    assert client.get("/accounts/login").headers["Location"] == "/accounts/login/"


@override_settings(DEBUG=True, DEBUG_PAGES=True, ROOT_URLCONF="tests.support.broken_urls")
def test_django_debug_pages_asks_for_the_technical_pages(revoked):
    client = Client(raise_request_exception=False)
    assert "Using the URLconf" in client.get("/no-such-page/").content.decode()
    assert "broken on purpose" in client.get("/broken/").content.decode()


@override_settings(DEBUG=False, ROOT_URLCONF="tests.support.broken_urls")
def test_in_production_the_pages_are_the_same(revoked):
    client = Client(raise_request_exception=False)
    for address, status, page in addresses(revoked).values():
        response = client.get(address)
        assert (response.status_code, page in response.content.decode()) == (status, True)
