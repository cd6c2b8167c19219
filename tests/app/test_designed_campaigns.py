"""Designed rulesets in the database: each save is a numbered version; a campaign plays one
version and keeps it until its GM moves it on, after a preview of what the move does to each
character, recorded in the campaign's history; the designer refuses an invalid file saying
where, and shows nobody else's games."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from characters.adapters import base_ruleset, ruleset_for
from characters.errors import RulesetRefused, ServiceError
from characters.models import CampaignEvent, DesignedRuleset, Trait
from characters.selectors.campaigns import campaign_history, ruleset_move_preview
from characters.services import campaigns as campaign_services
from characters.services import rulesets as services
from characters.services.character_files import character_import
from characters.services.characters import character_create
from characters.services.review import character_approve, character_submit
from rules.ladder import GOOD
from rules.ruleset_file import blank_ruleset_file, ruleset_to_json
from rules.rulesets import BUILTIN
from tests.app.test_campaigns import *  # noqa: F403
from tests.app.test_campaigns import client_for

pytestmark = pytest.mark.django_db


def game(**numbers) -> dict:
    file = blank_ruleset_file()
    file.update(slug="moor", name="Moor")
    file["numbers"].update(numbers)
    return file


@pytest.fixture
def version_one(gm):
    return services.designed_ruleset_save(owner=gm, file=game(skill_levels=10))


@pytest.fixture
def bog(gm, player, version_one):
    campaign = campaign_services.campaign_create(gm=gm, name="The Bog", ruleset_version=version_one)
    campaign_services.campaign_join(user=player, code=campaign.invite_code)
    return campaign


def test_each_save_is_a_new_version_and_the_same_file_is_not(gm, version_one):
    assert (version_one.number, version_one.ruleset.slug) == (1, "moor")
    again = services.designed_ruleset_save(owner=gm, file=game(skill_levels=10))
    assert again.pk == version_one.pk
    two = services.designed_ruleset_save(owner=gm, file=game(skill_levels=12), note="more")
    assert (two.number, two.note, two.ruleset_id) == (2, "more", version_one.ruleset_id)


def test_a_file_that_does_not_hold_is_refused_with_every_problem(gm):
    bad = game(skill_levels=-1)
    bad["ladder"]["words"][5] = "Fair"
    with pytest.raises(RulesetRefused) as refused:
        services.designed_ruleset_save(owner=gm, file=bad)
    assert [where for where, _ in refused.value.problems] == [
        "ladder.words[5]",
        "ladder.fair",
        "numbers.skill_levels",
    ]
    builtin = ruleset_to_json(BUILTIN["mudge"])
    with pytest.raises(RulesetRefused, match="slug: 'mudge' is a built-in ruleset's"):
        services.designed_ruleset_save(owner=gm, file=builtin)
    assert not DesignedRuleset.objects.exists()


def test_a_campaign_plays_its_version_and_keeps_it_until_moved(gm, player, bog, version_one):
    assert bog.get_base_ruleset_display() == "Moor, version 1"
    assert base_ruleset(bog).skill_levels == 10
    # its catalogue starts from the game's attributes
    assert list(bog.catalog.filter(kind="attribute").values_list("name", flat=True)) == [
        "Body",
        "Mind",
    ]
    bertha = character_create(owner=player, name="Bertha", campaign=bog)
    assert bertha.ruleset == "moor"
    assert list(bertha.traits.values_list("name", flat=True)) == ["Body", "Mind"]
    Trait.objects.filter(character=bertha, name="Body").update(level=GOOD)
    character_submit(character=bertha, actor=player, expected_version=None)
    character_approve(character=bertha, actor=gm, expected_version=None)

    two = services.designed_ruleset_save(owner=gm, file=game(skill_levels=4, attribute_levels=0))
    bog.refresh_from_db()
    assert base_ruleset(bog).skill_levels == 10  # still version 1

    preview = ruleset_move_preview(bog, two)
    (impact,) = preview.affected
    assert impact.character == bertha and impact.keeps_approval
    # Version 1: Body Good is 1 of 4 attribute levels (3 left = 9 skill levels) + 10 skill
    # levels + 2 free gifts (12): 31. Version 2: 1 of 0 (-3) + 4 + 12: 13.
    assert impact.balance_text == "31 skill levels → 13 skill levels"
    assert (preview.before, preview.after) == ({"ruleset_version": 1}, {"ruleset_version": 2})

    services.campaign_move_ruleset(campaign=bog, actor=gm, version=two, reason="leaner")
    bog.refresh_from_db()
    assert bog.ruleset_version == two and ruleset_for(bertha).skill_levels == 4
    event = CampaignEvent.objects.get(campaign=bog, action="ruleset_moved")
    assert (event.before, event.after, event.reason) == (
        {"ruleset_version": 1},
        {"ruleset_version": 2},
        "leaner",
    )
    assert campaign_history(bog)[0].title == "Moved to another version of the ruleset"
    # The approval keeps the snapshot it was approved with.
    assert bertha.approvals.get().snapshot["ruleset"] == "moor"


def test_another_gms_version_is_refused(gm, outsider, bog):
    theirs = services.designed_ruleset_save(owner=outsider, file=game())
    with pytest.raises(ServiceError, match="the campaign's own ruleset"):
        services.campaign_move_ruleset(campaign=bog, actor=gm, version=theirs)
    with pytest.raises(ServiceError, match="your own rulesets"):
        campaign_services.campaign_create(gm=gm, name="Theirs", ruleset_version=theirs)


def test_the_pages(gm, outsider, bog, version_one):
    mine = client_for(gm)
    design = reverse("ruleset_design", args=[version_one.ruleset_id])
    page = mine.get(design).content.decode()
    # Each section named and explained, each a page of its own.
    assert "Trait ladder" in page and "The words a trait is rated in, from lowest" in page
    assert "Sample character" in page
    exported = mine.get(reverse("ruleset_export", args=[version_one.ruleset_id, 1]))
    assert json.loads(exported.content)["slug"] == "moor"
    assert "moor-v1.ruleset.json" in exported["Content-Disposition"]
    # Nobody else sees, exports or moves it.
    theirs = client_for(outsider)
    assert theirs.get(design).status_code == 404
    assert (
        theirs.get(reverse("ruleset_export", args=[version_one.ruleset_id, 1])).status_code == 404
    )
    services.designed_ruleset_save(owner=gm, file=game(skill_levels=11))
    move = reverse("campaign_ruleset_move", args=[bog.pk, 2])
    assert theirs.post(move).status_code == 404
    detail = mine.get(reverse("campaign_detail", args=[bog.pk])).content.decode()
    assert "see what moving to version 2 changes" in detail
    # No link to a built-in's page that does not exist: the designer and the file instead.
    assert "/rulesets/moor/" not in detail and "Your game in the designer" in detail
    assert "No character is priced differently" in mine.get(move).content.decode()
    assert mine.post(move, {"reason": "tidy"}).status_code == 302
    bog.refresh_from_db()
    assert bog.ruleset_version.number == 2


def test_import_refuses_an_invalid_file_saying_where(gm):
    bad = game()
    bad["skills"]["difficulties"]["hard"]["cost_at_fair"] = 0
    upload = SimpleUploadedFile("moor.json", json.dumps(bad).encode(), "application/json")
    response = client_for(gm).post(reverse("ruleset_designs"), {"action": "import", "file": upload})
    assert response.status_code == 400
    assert (
        "Skills \u203a Hard: cost at Fair: the cost table must increase with difficulty"
        in response.content.decode()
    )
    good = SimpleUploadedFile("moor.json", json.dumps(game()).encode(), "application/json")
    response = client_for(gm).post(reverse("ruleset_designs"), {"action": "import", "file": good})
    assert response.status_code == 302 and DesignedRuleset.objects.get().name == "Moor"


def test_an_exported_character_carries_its_game_and_imports_into_its_campaign(
    gm, player, bog, outsider
):
    bertha = character_create(owner=player, name="Bertha", campaign=bog)
    response = client_for(player).get(reverse("character_export", args=[bertha.pk]))
    file = json.loads(response.content)
    assert file["ruleset"] == "moor" and file["ruleset_file"]["slug"] == "moor"
    actor = json.loads(
        client_for(player).get(reverse("character_export_foundry", args=[bertha.pk])).content
    )
    assert "attributeset" in [item["type"] for item in actor["items"]]
    text = json.dumps(file)
    copy, _ = character_import(owner=player, text=text, campaign=bog)
    assert copy.ruleset == "moor" and copy.campaign == bog
    with pytest.raises(ServiceError, match="import it into a campaign that plays that game"):
        character_import(owner=outsider, text=text)
