"""The builder: every edit a small POST that re-prices the build, with and without htmx."""

import json
import re

import pytest
from django.urls import reverse

from characters.models import CharacterEvent, Trait
from rules.ladder import GOOD, SUPERB
from tests.builder_fixtures import *  # noqa: F403

HTMX = {"HTTP_HX_REQUEST": "true"}
# A fresh Mudge character: 6 attribute levels x 3 + 45 skill levels + 2 gifts x 6 (1.6, 1.64).
FRESH_MUDGE_BALANCE = 6 * 3 + 45 + 2 * 6


def attribute(character, name):
    return character.traits.get(kind=Trait.ATTRIBUTE, name=name)


def post_trait(client, character, trait, **changes):
    data = {"version": character.version, "name": trait.name, "level": trait.level, **changes}
    return client.post(reverse("trait_update", args=[character.pk, trait.pk]), data, **HTMX)


def test_new_mudge_character_has_the_seven_attributes_at_fair(character):
    names = list(character.traits.filter(kind=Trait.ATTRIBUTE).values_list("name", "level"))
    assert names == [
        ("Strength", 0),
        ("Dexterity", 0),
        ("Constitution", 0),
        ("Speed", 0),
        ("Intelligence", 0),
        ("Willpower", 0),
        ("Perception", 0),
    ]
    assert character.events.get().action == "character_created"


def test_builder_page_shows_the_budget(player_client, character):
    response = player_client.get(reverse("character_builder", args=[character.pk]))
    assert response.status_code == 200
    body = response.content.decode()
    assert f"{FRESH_MUDGE_BALANCE} skill levels" in body
    assert body.count('class="trait-row"') == 7


def test_raising_an_attribute_reprices_and_swaps_the_panel_out_of_band(player_client, character):
    strength = attribute(character, "Strength")
    response = post_trait(player_client, character, strength, level=GOOD)
    assert response.status_code == 200
    body = response.content.decode()
    assert f'id="trait-{strength.pk}"' in body
    assert 'id="budget-panel"' in body and 'hx-swap-oob="true"' in body
    # Mudge 1.61: Good costs 1 attribute level, worth 3 skill levels (1.64).
    assert f"{FRESH_MUDGE_BALANCE - 3} skill levels" in body
    assert json.loads(response["HX-Trigger"]) == {"versionChanged": {"value": 2}}
    strength.refresh_from_db()
    assert strength.level == GOOD
    event = CharacterEvent.objects.filter(action="trait_relevelled").get()
    assert (event.before["level"], event.after["level"], event.target) == (
        "Fair",
        "Good",
        "attribute:Strength",
    )


def test_without_javascript_the_same_form_posts_and_redirects(player_client, character):
    strength = attribute(character, "Strength")
    response = player_client.post(
        reverse("trait_update", args=[character.pk, strength.pk]),
        {"version": 1, "name": "Strength", "level": GOOD},
    )
    assert response.status_code == 302
    assert response["Location"].endswith(f"#trait-{strength.pk}")
    page = player_client.get(response["Location"]).content.decode()
    assert f"{FRESH_MUDGE_BALANCE - 3} skill levels" in page


def test_a_stale_write_from_a_second_tab_is_refused_and_changes_nothing(player_client, character):
    strength, dexterity = attribute(character, "Strength"), attribute(character, "Dexterity")
    assert post_trait(player_client, character, strength, level=GOOD).status_code == 200
    # The second tab still holds version 1.
    response = post_trait(player_client, character, dexterity, level=GOOD)
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#alerts"
    assert "changed in another tab" in response.content.decode()
    dexterity.refresh_from_db()
    character.refresh_from_db()
    assert (dexterity.level, character.version) == (0, 2)


def test_two_superb_attributes_break_the_cap_with_a_message(player_client, character):
    strength, dexterity = attribute(character, "Strength"), attribute(character, "Dexterity")
    post_trait(player_client, character, strength, level=SUPERB)
    character.refresh_from_db()
    body = post_trait(player_client, character, dexterity, level=SUPERB).content.decode()
    assert "Only 1 attribute may be Superb; 2 are (Strength, Dexterity)" in body
    assert "Mudge 1.6" in body


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"level": "99"}, "Select a valid choice"),
        ({"name": "x" * 10_000}, "at most 100 characters"),
        ({"name": ""}, "This field is required"),
    ],
)
def test_bad_input_gets_a_message_and_a_400_and_changes_nothing(
    player_client, character, changes, message
):
    strength = attribute(character, "Strength")
    response = post_trait(player_client, character, strength, **changes)
    assert response.status_code == 400
    assert message in response.content.decode()
    strength.refresh_from_db()
    assert (strength.name, strength.level) == ("Strength", 0)
    assert not CharacterEvent.objects.filter(action__startswith="trait_").exists()


def test_a_negative_gift_cost_is_refused(player_client, character):
    url = reverse("trait_create", args=[character.pk, "gift"])
    response = player_client.post(url, {"version": 1, "name": "Luck", "cost": "-2"}, **HTMX)
    assert response.status_code == 400
    assert "greater than or equal to 0" in response.content.decode()
    assert not character.traits.filter(kind=Trait.GIFT).exists()


def test_gift_and_fault_costs_show_as_written(player_client, character):
    """A cost of 1 shows as "1" and a half as "0.5", not as the column's "1.00" (issue 12)."""
    Trait.objects.create(character=character, kind=Trait.GIFT, name="Lucky", cost=1, position=0)
    Trait.objects.create(character=character, kind=Trait.FAULT, name="Shy", cost="0.5", position=0)
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    costs = re.findall(r'name="cost"[^>]*value="([^"]*)"', page)
    assert costs == ["1", "0.5"]


def test_adding_a_catalogue_skill_takes_its_difficulty(player_client, character):
    url = reverse("trait_create", args=[character.pk, "skill"])
    response = player_client.post(url, {"version": 1, "name": "Acrobatics", "level": 0}, **HTMX)
    assert response.status_code == 200
    skill = character.traits.get(kind=Trait.SKILL)
    assert (skill.name, skill.difficulty) == ("Acrobatics", "hard")
    body = response.content.decode()
    # Mudge 1.62: a Hard skill at Fair costs 3 skill levels.
    assert "3 skill levels" in body
    assert 'hx-swap-oob="beforeend:#rows-skill"' in body
    assert f"{FRESH_MUDGE_BALANCE - 3} skill levels" in body


def test_a_second_trait_of_the_same_name_is_refused(player_client, character):
    url = reverse("trait_create", args=[character.pk, "attribute"])
    response = player_client.post(url, {"version": 1, "name": "strength", "level": 0}, **HTMX)
    assert response.status_code == 400
    assert "Brogo already has the attribute strength" in response.content.decode()
    assert character.traits.filter(kind=Trait.ATTRIBUTE).count() == 7


def test_someone_elses_character_is_not_found(client, outsider, character):
    client.force_login(outsider)
    strength = attribute(character, "Strength")
    assert client.get(reverse("character_builder", args=[character.pk])).status_code == 404
    response = post_trait(client, character, strength, level=SUPERB)
    assert response.status_code == 404
    strength.refresh_from_db()
    assert strength.level == 0


def test_the_gm_sees_but_cannot_edit_a_players_character(client, gm, character):
    client.force_login(gm)
    page = client.get(reverse("character_builder", args=[character.pk]))
    assert page.status_code == 200
    assert "viewing <bdi>player</bdi>" in page.content.decode()
    strength = attribute(character, "Strength")
    assert post_trait(client, character, strength, level=GOOD).status_code == 404


def test_removing_a_trait(player_client, character):
    strength = attribute(character, "Strength")
    url = reverse("trait_delete", args=[character.pk, strength.pk])
    response = player_client.post(url, {"version": 1}, **HTMX)
    assert response.status_code == 200
    assert not character.traits.filter(pk=strength.pk).exists()
    assert CharacterEvent.objects.filter(action="trait_removed").get().before == {
        "name": "Strength",
        "level": "Fair",
    }


def test_applying_the_ranger_template_raises_minimums(player_client, character):
    url = reverse("template_apply", args=[character.pk])
    response = player_client.post(url, {"version": 1, "template": "ranger"})
    assert response.status_code == 302
    levels = dict(character.traits.values_list("name", "level"))
    # Mudge 6.41: Dexterity, Perception, Strength Good or better; Bow Good; Survival Good.
    assert levels["Dexterity"] == levels["Perception"] == levels["Strength"] == GOOD
    assert levels["Bow"] == levels["Survival"] == GOOD
    page = player_client.get(response["Location"]).content.decode()
    assert "Every minimum is met." in page


def test_builder_query_count_does_not_grow_with_traits(
    player_client, character, django_assert_max_num_queries
):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    url = reverse("character_builder", args=[character.pk])
    with CaptureQueriesContext(connection) as few:
        assert player_client.get(url).status_code == 200
    Trait.objects.bulk_create(
        Trait(
            character=character,
            kind=Trait.SKILL,
            name=f"Skill {i}",
            level=0,
            difficulty="average",
            position=i,
        )
        for i in range(53)
    )
    with django_assert_max_num_queries(len(few)) as many:
        assert player_client.get(url).status_code == 200
    assert len(many) == len(few)
    assert len(few) <= 15
