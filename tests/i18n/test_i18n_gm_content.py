"""A GM's own catalogue in the players' languages (issue 38): the GM gives an entry's name and
note in French, Spanish or German on the catalogue page; a player reading that language
sees them, one reading another sees the built-in translation if the entry is built in, else
the GM's name as written. The entry's name stays its key: characters and files name it."""

import pytest
from django.urls import reverse

from characters import adapters, rules_content
from characters.models import CatalogEntry
from characters.services.campaigns import campaign_create, catalog_entry_add
from characters.services.rulesets import designed_ruleset_save
from rules.ruleset_file import read_ruleset, ruleset_to_json
from rules.ruleset_file.file_format import RulesetFileError
from rules.rulesets import BUILTIN
from tests.support.builder_fixtures import *  # noqa: F403


def catalogue(client, user, campaign, language):
    client.force_login(user)
    url = reverse("campaign_catalog", args=[campaign.pk])
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()


@pytest.fixture
def lantern_lore(campaign, gm):
    return catalog_entry_add(
        campaign=campaign,
        actor=gm,
        kind="gift",
        name="Lantern-lore",
        cost=1,
        note="reads the old lamps",
    )


def test_the_gm_saves_an_entrys_words_in_each_language(client, gm, campaign, lantern_lore):
    client.force_login(gm)
    url = reverse("catalog_entry", args=[campaign.pk, lantern_lore.pk])
    response = client.post(
        url,
        {
            "name": "Lantern-lore",
            "cost": "1",
            "note": "reads the old lamps",
            "name_fr": "Savoir des lanternes",
            "note_fr": "lit les vieilles lampes",
            "name_es": "Saber de los faroles",
            "name_de": "Laternenkunde",
        },
    )
    assert response.status_code == 302
    lantern_lore.refresh_from_db()
    assert lantern_lore.name == "Lantern-lore"  # the key characters and files name
    assert lantern_lore.translations == {
        "fr": {"name": "Savoir des lanternes", "note": "lit les vieilles lampes"},
        "es": {"name": "Saber de los faroles"},
        "de": {"name": "Laternenkunde"},
    }
    history = campaign.events.filter(action="catalog_entry_changed").get()
    assert history.after["translations"]["de"] == {"name": "Laternenkunde"}
    # The edit form gives them back, folded open.
    form = client.get(f"{reverse('campaign_catalog', args=[campaign.pk])}?edit={lantern_lore.pk}")
    html = form.content.decode()
    assert 'value="Laternenkunde"' in html and '<details class="entry-translations" open>' in html


@pytest.mark.parametrize(
    ("language", "name", "note"),
    [
        ("fr", "Savoir des lanternes", "lit les vieilles lampes"),
        ("es", "Saber de los faroles", "reads the old lamps"),  # no Spanish note: the GM's
        ("de", "Laternenkunde", "reads the old lamps"),
        ("en", "Lantern-lore", "reads the old lamps"),
    ],
)
def test_a_player_reads_the_gms_words_in_their_language(
    client, gm, player, campaign, character, lantern_lore, language, name, note
):
    CatalogEntry.objects.filter(pk=lantern_lore.pk).update(
        translations={
            "fr": {"name": "Savoir des lanternes", "note": "lit les vieilles lampes"},
            "es": {"name": "Saber de los faroles"},
            "de": {"name": "Laternenkunde"},
        }
    )
    campaign.catalog_version += 1
    campaign.save(update_fields=["catalog_version"])
    html = catalogue(client, player, campaign, language)
    assert f"<bdi>{name}</bdi>" in html
    assert f'<small class="entry-note">{note}</small>' in html
    assert "(<bdi>Lantern-lore</bdi>)" not in html  # the key is the GM's to see, not the player's


def test_the_gm_sees_a_built_in_entrys_translation_and_its_key(client, gm, campaign):
    catalog_entry_add(campaign=campaign, actor=gm, kind="skill", name="Climbing")
    html = catalogue(client, gm, campaign, "fr")
    assert '<bdi>Escalade</bdi> <small class="entry-key">(<bdi>Climbing</bdi>)</small>' in html


def test_a_gms_translated_name_maps_back_to_its_key(campaign, lantern_lore):
    CatalogEntry.objects.filter(pk=lantern_lore.pk).update(
        translations={"fr": {"name": "Savoir des lanternes"}}
    )
    campaign.refresh_from_db()
    adapters.speak_campaign(campaign)
    try:
        assert rules_content.canonical("savoir des lanternes") == "Lantern-lore"
        assert rules_content.canonical("Escalade") == "Climbing"  # the built-in still maps
    finally:
        adapters.speak_campaign(None)


def test_a_translation_for_a_language_the_site_does_not_speak_is_refused(
    client, gm, campaign, lantern_lore
):
    from characters.errors import ServiceError
    from characters.services.campaigns import catalog_entry_update

    with pytest.raises(ServiceError, match="xx"):
        catalog_entry_update(
            entry=lantern_lore,
            actor=gm,
            name="Lantern-lore",
            cost=1,
            translations={"xx": {"name": "?"}},
        )


def test_a_designed_games_entries_carry_their_words_from_the_designer_to_the_campaign(gm):
    """The designer's gift list takes "fr: name | note" lines; the file keeps them as
    translations; a campaign on the game seeds its catalogue with them."""
    from tests.app.test_designer_sections import client_for, page, url

    file = ruleset_to_json(BUILTIN["mudge"])
    file.update(slug="lantern-mudge", name="Lantern Mudge")
    designed = designed_ruleset_save(owner=gm, file=file).ruleset
    client = client_for(gm)
    data = page(client, designed, "gift-list")
    first = next(key for key in data if key.endswith("-name"))
    data[first] = ["Lantern-lore"]
    data[first.replace("-name", "-translations")] = [
        "fr: Savoir des lanternes | lit les vieilles lampes\nde: Laternenkunde"
    ]
    response = client.post(url(designed, "gift-list"), {**data, "save": "1"})
    assert response.status_code == 302, response.content.decode()[:2000]
    saved = designed.latest.file["catalogue"]["gifts"][0]
    assert saved["translations"] == {
        "fr": {"name": "Savoir des lanternes", "note": "lit les vieilles lampes"},
        "de": {"name": "Laternenkunde"},
    }
    # The page shows them back as lines.
    assert "de: Laternenkunde" in client.get(url(designed, "gift-list")).content.decode()

    gift = read_ruleset(designed.latest.file).catalog.gifts[0]
    assert sorted(gift.translations) == [  # the database keeps a JSON object's keys its way
        ("de", "Laternenkunde", ""),
        ("fr", "Savoir des lanternes", "lit les vieilles lampes"),
    ]
    assert ruleset_to_json(read_ruleset(designed.latest.file))["catalogue"]["gifts"][0] == saved

    campaign = campaign_create(gm=gm, name="Lamps", ruleset_version=designed.latest)
    seeded = campaign.catalog.get(kind="gift", name="Lantern-lore")
    assert seeded.translations["de"] == {"name": "Laternenkunde"}


def test_a_translation_under_a_code_that_is_no_language_is_refused_where_it_is():
    file = ruleset_to_json(BUILTIN["mudge"])
    file["catalogue"]["gifts"][0]["translations"] = {"French": {"name": "x"}}
    with pytest.raises(RulesetFileError) as refused:
        read_ruleset(file)
    assert "catalogue.gifts[0].translations.French" in str(refused.value)
