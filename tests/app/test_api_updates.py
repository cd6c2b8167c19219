"""Issue 41: an API that updates. A token owner lists their characters and campaigns, reads a
character (its file or its Foundry actor) with its version as the ETag, and updates it in
place with PUT and If-Match: a stale ETag is refused (412) and nothing changes, the current
one updates the same character; an approved build changed beyond play goes back to the GM.
The OpenAPI 3.1 description the library generates at /api/openapi.json validates."""

import copy
import json

import pytest
from django.test import Client
from django.urls import reverse
from openapi_spec_validator import validate

from characters.models import Character
from characters.services.api_tokens import api_token_create
from tests.app.test_api import (  # noqa: F401 (an autouse fixture)
    BROGO,
    _fresh_throttle,
    assert_no_cookie_or_session,
    bearer,
)
from tests.app.test_review import approved
from tests.support.builder_fixtures import *  # noqa: F403


@pytest.fixture
def script():
    """A client that sends no cookie and enforces CSRF as a browser's would be."""
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def token(player):
    return api_token_create(user=player, name="script")[1]


@pytest.fixture
def gm_token(gm):
    return api_token_create(user=gm, name="gm script")[1]


@pytest.fixture
def brogo(script, token, campaign):
    """Brogo imported through the API into the campaign, as a script would."""
    url = reverse("character_import") + f"?campaign={campaign.pk}"
    response = script.post(url, BROGO, "application/json", **bearer(token))
    assert response.status_code == 201
    return Character.objects.get(pk=response.json()["id"])


def address(character) -> str:
    return reverse("api:character", args=[character.pk])


def read(script, token, character, **query):
    return script.get(address(character), query, **bearer(token))


def put(script, token, character, data: dict, if_match: str | None):
    headers = bearer(token) | ({"HTTP_IF_MATCH": if_match} if if_match is not None else {})
    return script.put(address(character), json.dumps(data), "application/json", **headers)


# -- the description ---------------------------------------------------------------------------


def test_the_openapi_description_is_generated_and_valid(script):
    response = script.get("/api/openapi.json")
    assert response.status_code == 200
    document = response.json()
    validate(document)  # raises on anything OpenAPI 3.1 does not allow
    assert document["openapi"] == "3.1.0"
    operations = {
        (path, method): operation["operationId"]
        for path, methods in document["paths"].items()
        for method, operation in methods.items()
    }
    assert operations == {
        ("/api/characters/", "get"): "characters_list",
        ("/api/campaigns/", "get"): "campaigns_list",
        ("/api/characters/{pk}/", "get"): "character_read",
        ("/api/characters/{pk}/", "put"): "character_update",
    }
    assert document["components"]["securitySchemes"] == {
        "TokenAuth": {"type": "http", "scheme": "bearer"}
    }
    put_operation = document["paths"]["/api/characters/{pk}/"]["put"]
    assert {p["name"] for p in put_operation["parameters"]} == {"pk", "If-Match"}
    assert set(put_operation["responses"]) >= {"200", "412", "428"}
    updated = document["components"]["schemas"]["Updated"]["properties"]
    assert set(updated) >= {"id", "version", "changes", "needs_review", "not_mapped"}


# -- lists -------------------------------------------------------------------------------------


def test_the_token_owner_lists_their_characters_and_campaigns(
    script, token, gm_token, brogo, campaign, outsider
):
    response = script.get(reverse("api:characters_list"), **bearer(token))
    assert response.status_code == 200
    (listed,) = response.json()
    assert listed["id"] == brogo.pk and listed["name"] == "Brogo the Scout"
    assert (listed["ruleset"], listed["state"], listed["version"]) == ("mudge", "draft", 1)
    assert listed["campaign"] == campaign.pk
    assert listed["url"].endswith(address(brogo))
    assert_no_cookie_or_session(response)
    (joined,) = script.get(reverse("api:campaigns_list"), **bearer(token)).json()
    assert (joined["id"], joined["role"], joined["ruleset"]) == (campaign.pk, "player", "mudge")
    # The GM runs the campaign and owns no character: Brogo is the player's.
    assert script.get(reverse("api:characters_list"), **bearer(gm_token)).json() == []
    (run,) = script.get(reverse("api:campaigns_list"), **bearer(gm_token)).json()
    assert run["role"] == "gm"
    stranger = api_token_create(user=outsider, name="x")[1]
    assert script.get(reverse("api:campaigns_list"), **bearer(stranger)).json() == []


# -- reading -----------------------------------------------------------------------------------


def test_a_character_reads_as_its_file_or_actor_with_its_version_as_etag(script, token, brogo):
    response = read(script, token, brogo)
    assert response.status_code == 200
    assert response["ETag"] == '"1"'
    assert response.json()["name"] == "Brogo the Scout"
    assert response.json()["format"] == "fairsheet.character/1"
    actor = read(script, token, brogo, format="foundry").json()
    assert actor["type"] == "character"
    assert actor["flags"]["fairsheet"]["character_id"] == brogo.pk
    again = script.get(address(brogo), HTTP_IF_NONE_MATCH='"1"', **bearer(token))
    assert again.status_code == 304 and again["ETag"] == '"1"'
    assert read(script, token, brogo, format="pdf").status_code == 400


# -- updating ----------------------------------------------------------------------------------


def test_a_stale_etag_is_refused_and_the_current_one_updates_in_place(script, token, brogo):
    file = read(script, token, brogo).json()
    file["notes"] = "Owes the ferryman a favour."
    file["skills"][0]["level"] = "Great"
    assert put(script, token, brogo, file, None).status_code == 428
    updated = put(script, token, brogo, file, '"1"')
    assert updated.status_code == 200, updated.content
    body = updated.json()
    assert updated["ETag"] == '"2"' and body["version"] == 2
    assert body["id"] == brogo.pk and body["source"] == "fairsheet"
    assert body["changes"] == [
        "notes changed",
        "skill Dodge: Good, average → Great, average",
    ]
    assert Character.objects.count() == 1
    brogo.refresh_from_db()
    assert (brogo.version, brogo.notes) == (2, "Owes the ferryman a favour.")
    assert brogo.events.filter(action="file_updated").count() == 1
    # Someone read version 1 and writes now: refused, and nothing changes.
    file["notes"] = "An older idea."
    stale = put(script, token, brogo, file, '"1"')
    assert stale.status_code == 412
    assert "version 2" in stale.json()["error"]
    brogo.refresh_from_db()
    assert (brogo.version, brogo.notes) == (2, "Owes the ferryman a favour.")
    # The same write again with the current ETag, in a list or weakened by a proxy.
    assert put(script, token, brogo, file, 'W/"2"').status_code == 200
    brogo.refresh_from_db()
    assert (brogo.version, brogo.notes) == (3, "An older idea.")
    # Nothing to change: the version stays.
    same = put(script, token, brogo, file, '"9", "3"')
    assert (same.status_code, same.json()["changes"], same["ETag"]) == (200, [], '"3"')


def test_a_re_sent_foundry_actor_updates_the_same_character(script, token, brogo):
    actor = read(script, token, brogo, format="foundry").json()
    (bow,) = [item for item in actor["items"] if item["name"] == "Bow"]
    bow["system"]["level"] += 1
    response = put(script, token, brogo, actor, '"1"')
    assert response.status_code == 200, response.content
    assert response.json()["source"] == "foundry"
    assert response.json()["changes"] == ["skill Bow: Good, average → Great, average"]
    assert Character.objects.count() == 1
    again = read(script, token, brogo, format="foundry").json()
    assert {i["_id"] for i in again["items"]} == {i["_id"] for i in actor["items"]}
    # An actor exported from another character is not this one's.
    other = copy.deepcopy(actor)
    other["flags"]["fairsheet"]["character_id"] = brogo.pk + 1000
    refused = put(script, token, brogo, other, "*")
    assert refused.status_code == 400
    assert "was not exported from Brogo the Scout" in refused.json()["error"]


def test_a_file_of_another_ruleset_or_unreadable_is_refused(script, token, brogo):
    file = read(script, token, brogo).json()
    file["ruleset"] = "fudge-basics"
    response = put(script, token, brogo, file, '"1"')
    assert response.status_code == 400
    assert "but Brogo the Scout plays Mudge" in response.json()["error"]
    broken = script.put(
        address(brogo), b"{not json", "application/json", HTTP_IF_MATCH='"1"', **bearer(token)
    )
    assert broken.status_code == 400 and broken.json()["error"].startswith("The file cannot")
    big = script.put(
        address(brogo),
        b" " * 1_000_001,
        "application/json",
        HTTP_IF_MATCH='"1"',
        **bearer(token),
    )
    assert big.status_code == 413
    brogo.refresh_from_db()
    assert brogo.version == 1


def test_an_approved_build_changed_beyond_play_goes_back_to_the_gm(script, token, brogo, gm):
    approved(brogo, gm, reason="sample character")
    version = brogo.version
    file = read(script, token, brogo).json()
    file["meta_points"] = 2  # play alone: stays approved
    response = put(script, token, brogo, file, f'"{version}"')
    assert response.json()["needs_review"] is False
    brogo.refresh_from_db()
    assert brogo.state == Character.State.APPROVED
    file["skills"][0]["level"] = "Superb"
    response = put(script, token, brogo, file, f'"{brogo.version}"')
    assert response.status_code == 200
    assert response.json()["needs_review"] is True
    assert response.json()["state"] == "submitted"
    brogo.refresh_from_db()
    assert brogo.state == Character.State.SUBMITTED
    assert list(brogo.events.values_list("action", flat=True).order_by("id"))[-2:] == [
        "file_updated",
        "submitted",
    ]
    # Waiting for the review, it is not updated.
    waiting = put(script, token, brogo, file, f'"{brogo.version}"')
    assert waiting.status_code == 400 and "waiting for the GM's review" in waiting.json()["error"]


# -- who may -----------------------------------------------------------------------------------


def test_permissions(script, token, gm_token, brogo, outsider, player):
    file = read(script, token, brogo).json()
    file["notes"] = "changed"
    # The GM reads every character of the campaign, but only its player updates it.
    assert read(script, gm_token, brogo).status_code == 200
    refused = put(script, gm_token, brogo, file, '"1"')
    assert refused.status_code == 403
    # Anyone else: as if it did not exist.
    stranger = api_token_create(user=outsider, name="x")[1]
    assert read(script, stranger, brogo).status_code == 404
    assert put(script, stranger, brogo, file, '"1"').status_code == 404
    assert read(script, stranger, brogo).json()["error"]
    # No token, a wrong one, or a browser's session: no access.
    for response in (
        script.get(address(brogo)),
        script.put(address(brogo), json.dumps(file), "application/json", HTTP_IF_MATCH='"1"'),
    ):
        assert response.status_code == 401 and response.json()["error"]
    assert read(script, "fs_" + "x" * 43, brogo).status_code == 401
    browser = Client()
    browser.force_login(player)
    assert browser.get(address(brogo)).status_code == 401
    assert browser.put(address(brogo), json.dumps(file), "application/json").status_code == 401
    brogo.refresh_from_db()
    assert brogo.version == 1
    # A method the address does not take: said as every endpoint says it.
    refused = script.delete(address(brogo), **bearer(token))
    assert (refused.status_code, refused["Allow"]) == (405, "GET, PUT")
    assert refused.json() == {"error": "This address does not take a DELETE: it takes GET, PUT."}
