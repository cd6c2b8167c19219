"""The instance's library of games (issue 42): a GM publishes a version of a game with a
description, languages and a licence; another GM finds it by language and name, previews a
sample character priced under it, and starts a campaign on a copy that says where it came
from; a player builds under that copy; the publisher takes the game out of the library and
the copy stays. The four built-in rulesets are in the library too, published by Fairsheet."""

import dataclasses

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.adapters import base_ruleset, ruleset_for
from characters.errors import ServiceError
from characters.models import Campaign, Character, DesignedRuleset, PublishedGame, Trait
from characters.selectors.library import library_entries
from characters.services import library as services
from characters.services import rulesets as ruleset_services
from rules.ladder import GOOD
from rules.ruleset_file import blank_ruleset_file, read_ruleset
from rules.rulesets import BUILTIN
from tests.app.test_campaigns import *  # noqa: F403
from tests.app.test_campaigns import client_for

pytestmark = pytest.mark.django_db


def moor() -> dict:
    """A game with 30 skill levels, 4 attribute levels and 2 free gifts (the blank game's)."""
    file = blank_ruleset_file()
    file.update(slug="moor", name="Moor")
    file["numbers"]["skill_levels"] = 30
    return file


@pytest.fixture
def version_one(gm):
    return ruleset_services.designed_ruleset_save(owner=gm, file=moor(), note="first cut")


PUBLISH = {
    "version": "1",
    "description": "Fog, peat and <b>old</b> roads.",
    "languages": ["en-gb", "fr"],
    "licence": "cc-by-sa-4.0",
}


def publish(client, designed_version, **changes):
    url = reverse("ruleset_publish", args=[designed_version.ruleset_id])
    return client.post(url, {**PUBLISH, **changes})


def test_a_gm_publishes_another_finds_it_previews_it_and_plays_a_copy(
    gm, outsider, player, version_one
):
    a, b = client_for(gm), client_for(outsider)
    response = publish(a, version_one)
    published = PublishedGame.objects.get()
    assert response.status_code == 302
    assert response["Location"] == reverse("library_game", args=[published.pk])
    assert (published.version, published.publisher, published.name) == (version_one, gm, "Moor")
    assert (published.languages, published.licence_said) == (["en-gb", "fr"], "CC BY-SA 4.0")

    # B finds it in French and by name, not in German nor under another name.
    library = reverse("library")
    in_french = b.get(library, {"language": "fr"}).content.decode()
    assert "Moor" in in_french and "Fog, peat and &lt;b&gt;old&lt;/b&gt; roads." in in_french
    assert "Published by <bdi>gm</bdi>, version 1" in in_french
    assert "Written in English, Français" in in_french
    assert "Licence: <bdi>CC BY-SA 4.0</bdi>" in in_french
    assert "Moor" not in b.get(library, {"language": "de"}).content.decode()
    assert "Moor" in b.get(library, {"name": "moo"}).content.decode()
    assert "Moor" not in b.get(library, {"name": "heath"}).content.decode()

    # The preview: the sample character (Body Good, Climbing and Riding Fair) priced under
    # Moor: 30 skill levels less 2 + 2 for the skills, 3 attribute levels left at 3 skill
    # levels each, 2 free gifts at 6: 26 + 9 + 12 = 47.
    page = b.get(published_entry_url(published)).content.decode()
    assert "a valid build, balance 47 skill levels." in page
    assert "<bdi>Body</bdi>: Good +1" in page and "<bdi>Climbing</bdi>: Fair 0" in page
    assert "Scratch (1): 5 boxes" in page

    # B starts a campaign on a copy of version 1.
    response = b.post(
        reverse("library_game_campaign", args=[published.pk]), {"name": "Across the Moor"}
    )
    campaign = Campaign.objects.get(name="Across the Moor")
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    copy = campaign.ruleset_version.ruleset
    assert (copy.owner, copy.slug, copy.name, copy.copied_from) == (
        outsider,
        "moor",
        "Moor",
        published,
    )
    assert copy != version_one.ruleset and campaign.gm == outsider
    assert campaign.ruleset_version.number == 1
    assert campaign.ruleset_version.file == version_one.file
    assert campaign.ruleset_version.note == (
        "copied from the library: Moor, version 1, published by gm"
    )
    design = b.get(reverse("ruleset_design", args=[copy.pk])).content.decode()
    assert "Copied from the library: <bdi>Moor</bdi>, version 1, published by <bdi>gm</bdi>." in (
        design
    )

    # A player joins and builds under the copy: a fresh character has 30 skill levels, 4
    # attribute levels (12) and 2 free gifts (12): 54; Body raised to Good leaves 51.
    p = client_for(player)
    p.post(reverse("campaign_join", args=[campaign.invite_code]))
    response = p.post(reverse("character_new"), {"name": "Mossy", "campaign": campaign.pk})
    mossy = Character.objects.get(name="Mossy")
    assert response["Location"] == reverse("character_builder", args=[mossy.pk])
    assert mossy.ruleset == "moor" and mossy.campaign == campaign
    assert "54 skill levels" in p.get(response["Location"]).content.decode()
    body = mossy.traits.get(kind=Trait.Kind.ATTRIBUTE, name="Body")
    p.post(
        reverse("trait_update", args=[mossy.pk, body.pk]),
        {"version": mossy.version, "name": "Body", "level": GOOD},
    )
    assert "51 skill levels" in p.get(response["Location"]).content.decode()
    assert ruleset_for(mossy).skill_levels == 30
    assert base_ruleset(campaign) == read_ruleset(campaign.ruleset_version.file)

    # A takes Moor out of the library: gone from it, B's copy and campaign stay.
    unpublish = a.post(reverse("library_game_unpublish", args=[published.pk]))
    assert unpublish["Location"] == reverse("ruleset_design", args=[version_one.ruleset_id])
    assert "Moor" not in b.get(library).content.decode()
    assert b.get(published_entry_url(published)).status_code == 404
    assert a.get(published_entry_url(published)).status_code == 200  # its publisher's still
    copy.refresh_from_db()
    assert copy.copied_from == published
    design = b.get(reverse("ruleset_design", args=[copy.pk])).content.decode()
    assert "published by <bdi>gm</bdi>." in design and "It is no longer in the library." in design
    assert b.get(reverse("campaign_detail", args=[campaign.pk])).status_code == 200
    # Nor can B copy it any more.
    response = b.post(reverse("library_game_copy", args=[published.pk]))
    assert response.status_code == 404
    assert DesignedRuleset.objects.filter(owner=outsider).count() == 1


def published_entry_url(published):
    return reverse("library_game", args=[published.pk])


def test_publishing_refuses_what_does_not_hold_beside_its_field(gm, version_one):
    a = client_for(gm)
    response = publish(a, version_one, licence="own", licence_own_words=" ", languages=[])
    assert response.status_code == 400
    page = response.content.decode()
    assert "Say what others may do with it, or choose a licence." in page
    assert "This field is required." in page  # the languages
    response = publish(a, version_one, description="", version="7", languages=["xx"])
    assert response.status_code == 400
    page = response.content.decode()
    assert "Select a valid choice. 7 is not one of the available choices." in page
    assert "Select a valid choice. xx is not one of the available choices." in page
    assert not PublishedGame.objects.exists()
    # The GM's own words are a licence too.
    publish(a, version_one, licence="own", licence_own_words="Ask me first")
    assert PublishedGame.objects.get().licence_said == "Ask me first"


def test_a_newer_version_published_replaces_the_older_in_the_library(gm, version_one):
    file = moor()
    file["numbers"]["skill_levels"] = 32
    two = ruleset_services.designed_ruleset_save(owner=gm, file=file)
    first = services.published_game_publish(
        publisher=gm, version=version_one, description="v1", languages=["fr"], licence="cc0"
    )
    second = services.published_game_publish(
        publisher=gm, version=two, description="v2", languages=["fr"], licence="cc0"
    )
    first.refresh_from_db()
    assert not first.is_published and second.is_published
    assert [e.version for e in library_entries() if e.published] == [2]


def test_only_the_owner_publishes_and_unpublishes(gm, outsider, version_one):
    b = client_for(outsider)
    assert publish(b, version_one).status_code == 404
    with pytest.raises(ServiceError, match="your own games"):
        services.published_game_publish(
            publisher=outsider,
            version=version_one,
            description="x",
            languages=["fr"],
            licence="cc0",
        )
    published = services.published_game_publish(
        publisher=gm, version=version_one, description="Moor", languages=["fr"], licence="cc0"
    )
    assert b.post(reverse("library_game_unpublish", args=[published.pk])).status_code == 404
    with pytest.raises(ServiceError, match="Only its publisher"):
        services.published_game_unpublish(publisher=outsider, published=published)
    published.refresh_from_db()
    assert published.is_published
    # Signed out: the sign-in page, for the library and its pages.
    for url in (reverse("library"), published_entry_url(published)):
        response = client_for(None).get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    response = client_for(None).post(reverse("library_game_copy", args=[published.pk]))
    assert "/accounts/login/" in response["Location"]


def test_a_copy_of_ones_own_game_is_a_new_game_never_a_version(gm, version_one):
    published = services.published_game_publish(
        publisher=gm, version=version_one, description="Moor", languages=["fr"], licence="cc0"
    )
    copy = services.designed_ruleset_copy_from_library(owner=gm, published=published)
    assert (copy.number, copy.ruleset.slug, copy.file["slug"]) == (1, "moor-2", "moor-2")
    assert version_one.ruleset.versions.count() == 1


def test_the_built_ins_are_in_the_library_published_by_fairsheet(outsider):
    b = client_for(outsider)
    page = b.get(reverse("library")).content.decode()
    for ruleset in BUILTIN.values():
        assert f"<bdi>{ruleset.name}</bdi>" in page
    assert page.count("Published by Fairsheet, built in") == 4
    # Their licences are the source texts' own terms.
    assert (
        "Free to give away with the About Fudge notice (Mudge © 2001 Warren &quot;Mook&quot; "
        "Wilson; Fudge © 1992-1995 Steffan O&#x27;Sullivan)"
    ) in page
    assert "No licence stated in the text (MicroFudged DIP v2" in page
    assert "<bdi>Mudge</bdi>" not in b.get(reverse("library"), {"language": "fr"}).content.decode()

    mudge = b.get(reverse("library_builtin", args=["mudge"])).content.decode()
    assert "Sample character" in mudge and "a valid build, balance" in mudge
    assert b.get(reverse("library_builtin", args=["nope"])).status_code == 404

    response = b.post(reverse("library_builtin_copy", args=["mudge"]))
    copy = DesignedRuleset.objects.get(owner=outsider)
    assert response["Location"] == reverse("ruleset_design", args=[copy.pk])
    assert (copy.slug, copy.copied_from_builtin, copy.copied_from) == ("my-mudge", "mudge", None)
    # The copy is Mudge under a slug of its own (Mudge 1.6: 45 skill levels).
    copied = read_ruleset(copy.latest.file)
    assert copied == dataclasses.replace(BUILTIN["mudge"], slug="my-mudge")
    assert copied.skill_levels == 45
    design = b.get(reverse("ruleset_design", args=[copy.pk])).content.decode()
    assert "Copied from the library: Mudge, built into Fairsheet." in design


def test_a_campaign_without_a_name_is_refused_and_copies_nothing(outsider):
    b = client_for(outsider)
    url = reverse("library_builtin_campaign", args=["fudge-basics"])
    response = b.post(url, {"name": ""}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("library_builtin", args=["fudge-basics"])
    assert "Campaign name: This field is required." in response.content.decode()
    assert not DesignedRuleset.objects.exists() and not Campaign.objects.exists()
    # A language the site does not have finds what no language finds, and says why.
    page = b.get(reverse("library"), {"language": "xx"})
    assert page.status_code == 200
    assert "Select a valid choice. xx is not one of the available choices." in page.content.decode()


def test_the_library_reads_its_games_in_one_statement_however_many(gm, outsider):
    """Each entry shows its publisher and version number: read with the games, not once an
    entry (the session, the user and the games: three statements for one game as for five)."""
    b = client_for(outsider)
    counts = []
    for number in range(1, 6):
        file = moor()
        file.update(slug=f"moor-{number}", name=f"Moor {number}")
        version = ruleset_services.designed_ruleset_save(owner=gm, file=file, note="first cut")
        services.published_game_publish(
            publisher=gm, version=version, description="Fog.", languages=["fr"], licence="cc0"
        )
        with CaptureQueriesContext(connection) as statements:
            page = b.get(reverse("library")).content.decode()
        assert page.count("Published by <bdi>gm</bdi>, version 1") == number
        counts.append(len(statements))
    assert counts == [3] * 5


def test_lists_name_each_campaigns_game_with_the_list(gm, player):
    """A player in campaigns on copies of GMs' games: the new-character page lists each
    campaign under its game, the dashboard names each character's, read with the list,
    whether one campaign or four (three statements, eight)."""
    p = client_for(player)
    name = "Fudge objective creation (Fudge Basics)"  # the copy's own name, its file's
    counts = []
    for number in range(1, 5):
        campaign = services.library_campaign_start(
            gm=gm, name=f"Heath {number}", builtin="fudge-basics"
        )
        p.post(reverse("campaign_join", args=[campaign.invite_code]))
        p.post(reverse("character_new"), {"name": f"Reed {number}", "campaign": campaign.pk})
        statements = []
        for page, shown in (
            ("character_new", (f'<optgroup label="{name}, version 1">', f">Heath {number}<")),
            ("dashboard", (f"<bdi>Heath {number}</bdi> · {name}</small>",)),
        ):
            with CaptureQueriesContext(connection) as read:
                content = p.get(reverse(page)).content.decode()
            assert all(words in content for words in shown), shown
            statements.append(len(read))
        counts.append(statements)
    assert counts == [[3, 8]] * 4


def test_a_published_file_that_no_longer_reads_is_refused_and_copies_nothing(
    gm, outsider, version_one
):
    published = services.published_game_publish(
        publisher=gm, version=version_one, description="Moor", languages=["fr"], licence="cc0"
    )
    # A version written before the reader learned to refuse what it now refuses.
    broken = {**version_one.file, "numbers": {**version_one.file["numbers"], "skill_levels": -3}}
    type(version_one).objects.filter(pk=version_one.pk).update(file=broken)
    b = client_for(outsider)
    response = b.post(reverse("library_game_copy", args=[published.pk]))
    assert response["Location"] == reverse("library_game", args=[published.pk])
    assert not DesignedRuleset.objects.filter(owner=outsider).exists()
    said = b.get(reverse("library")).content.decode()  # the refusal, on the next page
    assert "numbers.skill_levels: cannot be negative (-3)" in said


def test_a_games_page_and_its_campaigns_say_its_rules_at_a_glance(outsider):
    """Mudge 1.6: 45 skill levels, 6 attribute levels, 2 free gifts; at most 2 Superb
    skills. The library's page and a campaign on a copy say them alike."""
    b = client_for(outsider)
    campaign = services.library_campaign_start(gm=outsider, name="Marsh", builtin="mudge")
    for url in (
        reverse("library_builtin", args=["mudge"]),
        reverse("campaign_detail", args=[campaign.pk]),
    ):
        page = b.get(url).content.decode()
        assert "<dt>Skill levels</dt><dd>45</dd>" in page
        assert "<dt>Attribute levels</dt><dd>6</dd>" in page
        assert "<h3>Caps and bounds</h3>" in page
        assert "<dt>Skills</dt><dd>at most 2 Superb, 4 Great</dd>" in page
        # A built-in's rules in a line are said once, where its rules at a glance begin.
        assert page.count("45 skill levels, skills priced by difficulty") == 1
