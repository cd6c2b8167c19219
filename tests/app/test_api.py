"""API tokens (docs/api.md): made on the account page or with `manage.py api_token`, stored
hashed, revocable; `Authorization: Bearer TOKEN` works on the check, export (file and
Foundry) and import endpoints only, as its user, with no CSRF token and no cookie; wrong or
revoked tokens get a 401 with a JSON error, too many requests a 429. Also the import page's
Foundry actors, through a browser session."""

import hashlib
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from django.urls import reverse

from characters.adapters import character_to_rules
from characters.models import ApiToken, Character, CharacterEvent, Trait, UserSession
from characters.services.api_tokens import api_token_create, api_token_revoke
from characters.services.characters import character_create
from tests.app.test_review import approved
from tests.rules.test_foundry import FOUNDRY_MADE, assert_foundry_accepts
from tests.support.builder_fixtures import *  # noqa: F403

ROOT = Path(__file__).resolve().parents[2]
BROGO = (ROOT / "rules" / "samples" / "brogo.json").read_bytes()


@pytest.fixture(autouse=True)
def _fresh_throttle(db):
    cache.clear()  # the throttle's counters live in the cache, which outlives a test
    yield
    cache.clear()


@pytest.fixture
def token(player):
    return api_token_create(user=player, name="script")[1]


def bearer(token: str) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {token}"}


@pytest.fixture
def api():
    """A client that sends no cookie and enforces CSRF as a browser's would be."""
    return Client(enforce_csrf_checks=True)


def assert_no_cookie_or_session(response):
    assert response.cookies == {}
    assert "Set-Cookie" not in response.headers
    assert UserSession.objects.count() == 0


class TestTokens:
    def test_stored_hashed_and_shown_once(self, player, client):
        client.force_login(player)
        response = client.post(reverse("account"), {"name": "folder checker"})
        assert response.status_code == 201
        (token,) = ApiToken.objects.filter(user=player)
        raw = response.context["created"]["raw"]
        assert raw.startswith("fs_") and len(raw) == 46
        assert raw in response.content.decode()
        assert token.digest == hashlib.sha256(raw.encode()).hexdigest()
        assert token.prefix == raw[:11]
        assert raw not in {token.name, token.prefix, token.digest}
        assert "no-store" in response["Cache-Control"]
        page = client.get(reverse("account")).content.decode()
        assert raw not in page
        assert f"{token.prefix}…" in page and "folder checker" in page and "never used" in page

    def test_a_name_is_needed(self, player, client):
        client.force_login(player)
        response = client.post(reverse("account"), {"name": ""})
        assert response.status_code == 400
        assert not ApiToken.objects.exists()

    def test_revoked_from_the_account_page(self, player, token, client, api):
        client.force_login(player)
        (row,) = ApiToken.objects.all()
        response = client.post(reverse("api_token_revoke", args=[row.pk]), follow=True)
        assert "Revoked the token “script”" in response.content.decode()
        row.refresh_from_db()
        assert row.revoked_at is not None
        refused = api.post(reverse("character_check"), BROGO, "application/json", **bearer(token))
        assert refused.status_code == 401

    def test_nobody_else_may_revoke_it(self, token, outsider, client):
        client.force_login(outsider)
        (row,) = ApiToken.objects.all()
        assert client.post(reverse("api_token_revoke", args=[row.pk])).status_code == 404
        row.refresh_from_db()
        assert row.is_active

    def test_the_command_prints_the_token_last(self, player, api):
        out = StringIO()
        call_command("api_token", "player", "--name", "cron job", stdout=out)
        raw = out.getvalue().split()[-1]
        assert out.getvalue().startswith("Created the API token 'cron job' for player.")
        response = api.post(reverse("character_check"), BROGO, "application/json", **bearer(raw))
        assert response.status_code == 200
        listed = StringIO()
        call_command("api_token", "player", "--list", stdout=listed)
        assert listed.getvalue().startswith(f"{raw[:11]}…  active  last used 20")
        call_command("api_token", "player", "--revoke", raw[:11], stdout=StringIO())
        response = api.post(reverse("character_check"), BROGO, "application/json", **bearer(raw))
        assert response.status_code == 401

    def test_the_command_names_an_unknown_user(self, db):
        with pytest.raises(CommandError, match="No user is called 'nobody'"):
            call_command("api_token", "nobody")


class TestBearer:
    def test_check_needs_no_csrf_token_and_sets_no_cookie(self, api, token, player):
        response = api.post(reverse("character_check"), BROGO, "application/json", **bearer(token))
        assert response.status_code == 200
        assert response.json()["ruleset"] == "mudge"
        assert response.json()["errors"][0]["code"] == "over_budget"  # Brogo as printed
        assert_no_cookie_or_session(response)
        assert "Authorization" in response["Vary"]
        assert ApiToken.objects.get().last_used_at is not None

    def test_a_session_still_needs_the_csrf_token(self, api, player):
        api.force_login(player)
        response = api.post(reverse("character_check"), BROGO, content_type="application/json")
        assert response.status_code == 403

    @pytest.mark.parametrize("header", ["Bearer fs_wrong", "Bearer ", "bearer " + "x" * 500])
    def test_a_wrong_token_is_a_401_with_a_json_error(self, api, header, db):
        response = api.post(
            reverse("character_check"), BROGO, "application/json", HTTP_AUTHORIZATION=header
        )
        assert response.status_code == 401
        assert response.json() == {
            "error": "The API token is wrong or has been revoked: make a new one on your "
            "account page."
        }
        assert response["WWW-Authenticate"] == 'Bearer error="invalid_token"'

    def test_a_revoked_token_or_an_inactive_user(self, api, token, player):
        player.is_active = False
        player.save()
        assert api.get(reverse("character_export", args=[1]), **bearer(token)).status_code == 401
        player.is_active = True
        player.save()
        api_token_revoke(token=ApiToken.objects.get())
        assert api.get(reverse("character_export", args=[1]), **bearer(token)).status_code == 401

    @pytest.mark.parametrize("name", ["dashboard", "account", "character_new"])
    def test_other_addresses_refuse_a_token(self, api, token, name):
        response = api.get(reverse(name), **bearer(token))
        assert response.status_code == 401
        assert "does not take API tokens" in response.json()["error"]
        assert_no_cookie_or_session(response)

    def test_without_a_token_scripts_are_sent_to_log_in(self, api, character):
        response = api.get(reverse("character_export", args=[character.pk]))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]

    @override_settings(API_TOKEN_THROTTLE=(3, 60))
    def test_throttled_per_token(self, api, token, player):
        other = api_token_create(user=player, name="other")[1]
        url = reverse("character_check")
        codes = [
            api.post(url, BROGO, "application/json", **bearer(token)).status_code for _ in range(4)
        ]
        assert codes == [200, 200, 200, 429]
        refused = api.post(url, BROGO, "application/json", **bearer(token))
        assert 1 <= int(refused["Retry-After"]) <= 60
        assert "Too many requests with this token" in refused.json()["error"]
        assert api.post(url, BROGO, "application/json", **bearer(other)).status_code == 200


class TestExports:
    def test_the_file_of_your_character(self, api, token, character):
        response = api.get(reverse("character_export", args=[character.pk]), **bearer(token))
        assert response.status_code == 200
        assert response.json()["name"] == "Brogo"
        assert response["Content-Disposition"] == 'attachment; filename="brogo.json"'
        assert_no_cookie_or_session(response)

    def test_the_same_permissions_as_the_user(self, api, character, outsider, gm):
        outsiders = api_token_create(user=outsider, name="o")[1]
        url = reverse("character_export_foundry", args=[character.pk])
        assert api.get(url, **bearer(outsiders)).status_code == 404
        gms = api_token_create(user=gm, name="g")[1]  # the campaign's GM sees every character
        assert api.get(url, **bearer(gms)).status_code == 200

    def test_a_foundry_actor_with_the_approval_stamp(self, api, token, character, gm):
        Trait.objects.create(character=character, kind=Trait.Kind.SKILL, name="Climbing", level=1)
        approval = approved(character, gm, reason="testing the export")
        response = api.get(
            reverse("character_export_foundry", args=[character.pk]), **bearer(token)
        )
        assert response["Content-Disposition"] == 'attachment; filename="fvtt-Actor-brogo.json"'
        actor = response.json()
        assert_foundry_accepts(actor)
        flags = actor["flags"]["fairsheet"]
        assert (flags["character_id"], flags["state"]) == (character.pk, "Approved")
        assert flags["version"] == Character.objects.get(pk=character.pk).version
        assert flags["approval"]["sha256"] == approval.sha256
        assert flags["approval"]["approved_by"] == "gm"
        assert f"SHA-256 of the approved file {approval.sha256}" in actor["system"]["notes"]
        (climbing,) = [i for i in actor["items"] if i["type"] == "skill"]
        assert climbing["system"]["level"] == 1
        again = api.get(reverse("character_export_foundry", args=[character.pk]), **bearer(token))
        assert [i["_id"] for i in again.json()["items"]] == [i["_id"] for i in actor["items"]]

    def test_the_builder_links_both_exports(self, player_client, character):
        page = player_client.get(reverse("character_builder", args=[character.pk]))
        html = page.content.decode()
        assert f'href="{reverse("character_export", args=[character.pk])}">Export file' in html
        assert f'href="{reverse("character_export_foundry", args=[character.pk])}"' in html
        assert ">Export for Foundry</a>" in html


class TestImport:
    def test_a_file_posted_as_json(self, api, token, player, campaign):
        url = reverse("character_import") + f"?campaign={campaign.pk}"
        response = api.post(url, BROGO, "application/json", **bearer(token))
        assert response.status_code == 201
        body = response.json()
        character = Character.objects.get(pk=body["id"])
        assert (character.owner, character.campaign, character.name) == (
            player,
            campaign,
            "Brogo the Scout",
        )
        assert body == {
            "id": character.pk,
            "name": "Brogo the Scout",
            "ruleset": "mudge",
            "source": "fairsheet",
            "not_mapped": [],
            "url": f"http://testserver/characters/{character.pk}/",
        }
        assert character.traits.filter(kind=Trait.Kind.SKILL).count() == 23
        assert_no_cookie_or_session(response)

    def test_a_foundry_actor_as_an_upload(self, api, token):
        upload = SimpleUploadedFile("tobin.json", json.dumps(FOUNDRY_MADE).encode())
        response = api.post(reverse("character_import"), {"file": upload}, **bearer(token))
        assert response.status_code == 201
        body = response.json()
        assert (body["source"], body["ruleset"]) == ("foundry", "fudge-basics")
        assert "system.mana (4): Fairsheet keeps no mana pool." in body["not_mapped"]
        event = CharacterEvent.objects.get(action="character_imported")
        assert event.after["not_mapped"] == body["not_mapped"]

    def test_an_unreadable_file_is_a_400_with_the_reason(self, api, token):
        bad = json.loads(BROGO)
        bad["skills"][2]["level"] = "Goood"
        response = api.post(
            reverse("character_import"), json.dumps(bad), "application/json", **bearer(token)
        )
        assert response.status_code == 400
        assert response.json()["error"].startswith(
            "The file cannot be read: skills[2].level: 'Goood' is not a level"
        )
        assert not Character.objects.exists()
        assert_no_cookie_or_session(response)

    def test_a_campaign_you_are_not_in(self, api, outsider, campaign):
        raw = api_token_create(user=outsider, name="o")[1]
        url = reverse("character_import") + f"?campaign={campaign.pk}"
        response = api.post(url, BROGO, "application/json", **bearer(raw))
        assert response.status_code == 400
        assert "campaign: Select a valid choice" in response.json()["error"]

    def test_get_is_not_an_import(self, api, token):
        response = api.get(reverse("character_import"), **bearer(token))
        assert response.status_code == 405
        assert_no_cookie_or_session(response)

    def test_the_import_page_lists_what_a_foundry_actor_could_not_map(self, player_client):
        response = player_client.post(
            reverse("character_import"), {"text": json.dumps(FOUNDRY_MADE)}, follow=True
        )
        html = response.content.decode()
        character = Character.objects.get()
        assert response.redirect_chain[-1][0] == reverse("character_builder", args=[character.pk])
        assert "Imported Tobin Ashgrove from the Foundry actor as a draft." in html
        assert "Changed on the way in: check these (3):" in html
        assert "Not imported (2):" in html
        assert html.index("Changed on the way in") < html.index("Not imported (2):")
        assert "system.wounds: current wounds (scratch 2, hurt 1) are not imported" in html
        assert character.traits.filter(kind=Trait.Kind.ATTRIBUTE).count() == 4

    def test_a_foundry_actor_takes_the_campaigns_ruleset(self, player_client, campaign):
        response = player_client.post(
            reverse("character_import"),
            {"text": json.dumps(FOUNDRY_MADE), "campaign": campaign.pk},
        )
        assert response.status_code == 302
        assert Character.objects.get().ruleset == "mudge"

    def test_a_fairsheet_file_through_the_page(self, player_client):
        response = player_client.post(
            reverse("character_import"), {"text": BROGO.decode()}, follow=True
        )
        assert "Imported Brogo the Scout from the file as a draft." in response.content.decode()
        assert "Not imported" not in response.content.decode()


def test_an_export_round_trips_through_the_import(api, token, player):
    """Export for Foundry, import the actor: the same character as a new draft."""
    original = character_create(owner=player, name="Round Trip", ruleset="fudge-basics")
    Trait.objects.create(character=original, kind=Trait.Kind.SKILL, name="Swimming", level=2)
    actor = api.get(reverse("character_export_foundry", args=[original.pk]), **bearer(token))
    response = api.post(
        reverse("character_import"), actor.content, "application/json", **bearer(token)
    )
    copy = Character.objects.get(pk=response.json()["id"])
    assert response.json()["not_mapped"] == []
    assert character_to_rules(copy) == character_to_rules(original)
