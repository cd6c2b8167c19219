"""The Foundry pull macro's address read from another site (docs/foundry.md, "Pull with a
macro"): only `foundry.json`, only for the origins in FOUNDRY_ORIGINS, only with a token.
The macro itself runs in Chromium in tests/browser/test_foundry_pull_browser.py."""

import pytest
from django.test import override_settings
from django.urls import reverse

from tests.app import test_api
from tests.app.test_api import bearer
from tests.support.builder_fixtures import *  # noqa: F403

FOUNDRY = "https://foundry.example.org"
listed = override_settings(FOUNDRY_ORIGINS=frozenset({FOUNDRY}))


# The API tests' token (the player's) and their cookie-less client, a script's or a page's.
token, api = test_api.token, test_api.api


def actor_url(character) -> str:
    return reverse("character_export_foundry", args=[character.pk])


def preflight(api, url, origin):
    return api.options(
        url,
        HTTP_ORIGIN=origin,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization",
    )


@listed
def test_a_listed_foundry_reads_the_actor_with_a_token(api, token, character):
    allowed = preflight(api, actor_url(character), FOUNDRY)
    assert allowed.status_code == 204
    assert allowed["Access-Control-Allow-Origin"] == FOUNDRY
    assert allowed["Access-Control-Allow-Methods"] == "GET"
    assert allowed["Access-Control-Allow-Headers"] == "Authorization"
    read = api.get(actor_url(character), HTTP_ORIGIN=FOUNDRY, **bearer(token))
    assert read.status_code == 200
    assert read.json()["flags"]["fairsheet"]["character_id"] == character.pk
    assert read["Access-Control-Allow-Origin"] == FOUNDRY
    assert "Origin" in read["Vary"]
    # No cookie is ever allowed across sites: the token is the only way in.
    assert "Access-Control-Allow-Credentials" not in read


@listed
def test_a_refused_token_is_said_to_the_macro(api, character):
    refused = api.get(actor_url(character), HTTP_ORIGIN=FOUNDRY, **bearer("fs_wrong"))
    assert refused.status_code == 401
    assert refused["Access-Control-Allow-Origin"] == FOUNDRY
    assert "revoked" in refused.json()["error"]


@listed
@pytest.mark.parametrize("origin", ["https://evil.example", "http://foundry.example.org", ""])
def test_an_origin_not_listed_reads_nothing(api, token, character, origin):
    assert preflight(api, actor_url(character), origin).status_code == 403
    read = api.get(actor_url(character), HTTP_ORIGIN=origin, **bearer(token))
    assert "Access-Control-Allow-Origin" not in read


@listed
@pytest.mark.parametrize(
    "address",
    ["/characters/{pk}/export.json", "/api/characters/{pk}/", "/characters/{pk}/fari.json"],
)
def test_no_other_address_is_readable_from_foundry(api, token, character, address):
    url = address.format(pk=character.pk)
    read = api.get(url, HTTP_ORIGIN=FOUNDRY, **bearer(token))
    assert read.status_code == 200, url  # read, as a script would: only not across sites
    assert "Access-Control-Allow-Origin" not in read
    assert "Access-Control-Allow-Origin" not in preflight(api, url, FOUNDRY)


def test_no_origin_is_listed_unless_the_admin_lists_it(api, token, character):
    assert preflight(api, actor_url(character), FOUNDRY).status_code == 403
