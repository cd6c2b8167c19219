"""Issue 41: Foundry without silent loss. Each of the ten shared actors, imported and exported
again, comes back with every compendium link (`_stats.compendiumSource`, `flags.core.
sourceId`), item picture and attribute-set name it came with, and its prototype token's
settings even without a portrait; sample 06's Extended Trait Ladder is the character's where
the campaign's game has that ladder, and is named in the report where it does not; what is
still not kept is named in the report. Re-sending an exported actor to the character's API
address updates that character, never a new one."""

import copy
import json
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import Character
from characters.services import campaigns as campaign_services
from characters.services import rulesets as ruleset_services
from characters.services.api_tokens import api_token_create
from rules.foundry import parse_any, write_actor
from tests.app.test_api import _fresh_throttle, bearer  # noqa: F401 (an autouse fixture)
from tests.rules.test_foundry import FOUNDRY_ACTOR, assert_foundry_accepts
from tests.support.builder_fixtures import *  # noqa: F403

ROOT = Path(__file__).resolve().parents[2]
SHARED = Path("/work/shared/foundry-samples")
if not SHARED.exists():  # the shared folder beside the checkout, wherever it is
    SHARED = ROOT.parent.parent / "shared" / "foundry-samples"
SAMPLE_ACTORS = sorted(SHARED.glob("[0-9][0-9]-*.json"))
EXTENDED = ROOT / "docs" / "examples" / "extended-ladder.ruleset.json"


@pytest.fixture
def script():
    return Client(enforce_csrf_checks=True)


@pytest.fixture
def token(player):
    return api_token_create(user=player, name="vtt")[1]


@pytest.fixture
def extended_campaign(gm, player):
    """A campaign playing the Extended-ladder game (Heroic +4, Legendary +5)."""
    version = ruleset_services.designed_ruleset_save(
        owner=gm, file=json.loads(EXTENDED.read_text())
    )
    campaign = campaign_services.campaign_create(gm=gm, name="Saga", ruleset_version=version)
    campaign_services.campaign_join(user=player, code=campaign.invite_code)
    return campaign


def import_actor(script, token, actor: dict, campaign=None) -> dict:
    url = reverse("character_import") + (f"?campaign={campaign.pk}" if campaign else "")
    response = script.post(url, json.dumps(actor), "application/json", **bearer(token))
    assert response.status_code == 201, response.content
    return response.json()


def exported(script, token, pk: int) -> tuple[dict, str]:
    response = script.get(
        reverse("api:character", args=[pk]), {"format": "foundry"}, **bearer(token)
    )
    assert response.status_code == 200
    return response.json(), response["ETag"]


def links(item: dict) -> dict:
    """What an item brings from Foundry that Fairsheet has no field for."""
    return {
        "img": item.get("img"),
        "compendiumSource": (item.get("_stats") or {}).get("compendiumSource"),
        "sourceId": ((item.get("flags") or {}).get("core") or {}).get("sourceId"),
        "name": item["name"] if item["type"] in ("attributeset", "traitladder") else None,
    }


def sample_for(path: Path, extended_campaign):
    """Sample 06 plays on the Extended ladder: imported into a campaign whose game has it."""
    return extended_campaign if path.stem.startswith("06") else None


@pytest.mark.parametrize("path", SAMPLE_ACTORS, ids=lambda path: path.stem[:2])
def test_every_sample_comes_back_with_its_links_pictures_names_and_token(
    path, script, token, extended_campaign
):
    actor = json.loads(path.read_text())
    imported = import_actor(script, token, actor, sample_for(path, extended_campaign))
    again, _ = exported(script, token, imported["id"])
    assert_foundry_accepts(again)
    by_id = {item["_id"]: item for item in again["items"]}
    for item in actor["items"]:
        assert item["_id"] in by_id, f"{item['type']} {item['name']} not exported"
        assert links(by_id[item["_id"]]) == links(item), item["name"]
    # Not one compendium link, picture or attribute-set name went missing.
    assert sum(1 for i in again["items"] if links(i)["compendiumSource"]) == sum(
        1 for i in actor["items"] if links(i)["compendiumSource"]
    )
    assert again["prototypeToken"] == actor["prototypeToken"]
    assert again["img"] == actor["img"]


def test_the_extended_ladder_is_the_characters_where_the_game_has_it(
    script, token, extended_campaign
):
    (path,) = [p for p in SAMPLE_ACTORS if p.stem.startswith("06")]
    actor = json.loads(path.read_text())
    (ladder,) = [item for item in actor["items"] if item["type"] == "traitladder"]
    kept = import_actor(script, token, actor, extended_campaign)
    assert not [line for line in kept["not_mapped"] if "traitladder" in line]
    again, _ = exported(script, token, kept["id"])
    (written,) = [item for item in again["items"] if item["type"] == "traitladder"]
    assert (written["_id"], written["name"]) == (ladder["_id"], "Extended Trait Ladder")
    assert written["system"]["traits"] == ladder["system"]["traits"]
    assert len(again["items"]) == len(actor["items"]) == 9
    # Fudge Basics has the standard ladder: the item is named in the report, not kept.
    elsewhere = import_actor(script, token, actor)
    (line,) = [line for line in elsewhere["not_mapped"] if "traitladder" in line]
    assert line == (
        "items[1] (traitladder 'Extended Trait Ladder'): not imported; Fairsheet uses its own "
        "trait ladder."
    )


@pytest.mark.parametrize("path", SAMPLE_ACTORS, ids=lambda path: path.stem[:2])
def test_a_re_sent_export_updates_the_same_character(path, script, token, extended_campaign):
    actor = json.loads(path.read_text())
    pk = import_actor(script, token, actor, sample_for(path, extended_campaign))["id"]
    again, etag = exported(script, token, pk)
    count = Character.objects.count()
    response = script.put(
        reverse("api:character", args=[pk]),
        json.dumps(again),
        "application/json",
        HTTP_IF_MATCH=etag,
        **bearer(token),
    )
    assert response.status_code == 200, response.content
    assert response.json()["id"] == pk and response.json()["changes"] == []
    assert Character.objects.count() == count
    # Played in Foundry and sent back: the same character changes, links and all kept.
    played = copy.deepcopy(again)
    played["system"]["ep"] += 2
    response = script.put(
        reverse("api:character", args=[pk]),
        json.dumps(played),
        "application/json",
        HTTP_IF_MATCH=response["ETag"],
        **bearer(token),
    )
    assert response.status_code == 200 and response.json()["changes"], response.content
    assert Character.objects.count() == count
    after, _ = exported(script, token, pk)
    assert [links(i) for i in after["items"]] == [links(i) for i in again["items"]]
    assert after["prototypeToken"] == again["prototypeToken"]


def test_what_is_still_not_kept_is_named():
    actor = json.loads(SAMPLE_ACTORS[1].read_text())  # 02, exported from a Foundry world
    actor["flags"]["dice-so-nice"] = {"colorset": "fire"}
    actor["items"][1]["flags"]["babele"] = {"translated": True}
    actor["items"][2]["flags"]["core"] = {"sheetClass": "fudge.SkillSheet"}
    lines = parse_any(json.dumps(actor)).not_mapped
    assert "flags: dice-so-nice (other modules' data) not imported." in lines
    assert "items[1].flags: babele (other modules' data) not imported." in lines
    assert "items[2].flags: core.sheetClass (other modules' data) not imported." in lines
    assert (
        "_stats, flags.exportSource, folder, ownership: where the actor and its items sat in "
        "their Foundry world, who could see them and when they were made; Foundry sets these "
        "again when it imports the actor." in lines
    )


def test_a_token_that_cannot_be_stored_is_named_and_the_rest_kept():
    actor = json.loads(SAMPLE_ACTORS[0].read_text())
    actor["prototypeToken"]["name"] = "Ald\x00ric"
    imported = parse_any(json.dumps(actor))
    assert "prototypeToken" not in imported.character.foundry_kept
    assert (
        "prototypeToken.name: contains a NUL character (U+0000), which cannot be stored: "
        "remove it; the token's settings are not kept." in imported.not_mapped
    )
    assert imported.character.foundry_kept["img"] == "icons/svg/mystery-man.svg"


def test_a_portrait_is_the_tokens_picture_and_its_settings_stay():
    actor = json.loads(SAMPLE_ACTORS[0].read_text())
    character = parse_any(json.dumps(actor)).character
    portrait = "data:image/jpeg;base64,AAAA"
    written = write_actor(character, image=portrait)
    assert written["img"] == written["prototypeToken"]["texture"]["src"] == portrait
    token = copy.deepcopy(actor["prototypeToken"])
    token["texture"]["src"] = portrait
    assert written["prototypeToken"] == token
    assert not list(FOUNDRY_ACTOR.iter_errors(written))
    # Read back, the portrait is not kept twice: the token keeps its settings only.
    again = parse_any(json.dumps(written)).character
    assert "src" not in again.foundry_kept["prototypeToken"]["texture"]
