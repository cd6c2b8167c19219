"""Text that lies: a name with a text-direction control (U+202E and friends) would show
"gnp.exe" as "exe.png"; every form that takes a name refuses one (character files do too:
tests/app/test_input_hardening.py). Names render inside <bdi>, so a right-to-left name cannot
reorder the words around it."""

import pytest
from django.urls import reverse

from characters.models import Campaign, CatalogEntry, Character, Equipment, Trait
from characters.selectors.advancement import GIFT
from characters.services.review import character_approve, character_submit
from tests.support.builder_fixtures import *  # noqa: F403

LIAR = "\u202egnp.exe"  # displays as "exe.png"
ISOLATE = "Bro\u2067go"  # a right-to-left isolate
REFUSAL = "This name contains a text-direction control (U+{:04X})"
HEBREW = "\u05d3\u05d5\u05d3"  # a name written right to left


def refused(response, code="202E"):
    assert response.status_code == 400
    assert REFUSAL.format(int(code, 16)) in response.content.decode()


@pytest.mark.parametrize("name", [LIAR, ISOLATE])
def test_the_builder_refuses_direction_controls_in_names(player_client, character, name):
    code = f"{ord(name[0] if name == LIAR else name[3]):04X}"
    version = character.version
    url = reverse("trait_add", args=[character.pk, Trait.Kind.SKILL])
    refused(player_client.post(url, {"version": version, "name": name, "level": 0}), code)
    url = reverse("equipment_add", args=[character.pk])
    refused(player_client.post(url, {"version": version, "name": name, "kind": "gear"}), code)
    strength = character.traits.get(name="Strength")
    url = reverse("trait_update", args=[character.pk, strength.pk])
    refused(player_client.post(url, {"version": version, "name": name, "level": 0}), code)
    details = {"version": version, "name": "Brogo", "scale_strength": 0, "scale_mass": 0}
    url = reverse("details_update", args=[character.pk])
    refused(player_client.post(url, {**details, "name": name}), code)
    refused(player_client.post(url, {**details, "race": name}), code)
    url = reverse("character_new")
    refused(player_client.post(url, {"name": name, "ruleset": "mudge"}), code)
    assert not Trait.objects.filter(name=name).exists()
    assert not Equipment.objects.exists()
    assert set(Character.all_objects.values_list("name", flat=True)) == {"Brogo"}


def test_campaign_and_catalogue_names_refuse_them(client, gm, campaign):
    client.force_login(gm)
    refused(client.post(reverse("campaign_new"), {"name": LIAR, "base_ruleset": "mudge"}))
    url = reverse("catalog_entry_add", args=[campaign.pk, "skill"])
    refused(client.post(url, {"name": LIAR, "difficulty": "average"}))
    url = reverse("campaign_house_rules", args=[campaign.pk])
    response = client.post(url, {"extra_attributes": f"Sanity: Fair\n{LIAR}: Good"})
    assert response.status_code == 400
    [error] = response.context["rules_form"].errors["extra_attributes"]
    assert error.startswith("Line 2: The name contains a text-direction control (U+202E)")
    assert not Campaign.objects.filter(name=LIAR).exists()
    assert not CatalogEntry.objects.filter(name=LIAR).exists()


def test_a_gift_bought_with_experience_refuses_them(player_client, character, gm):
    character_submit(character=character, actor=character.owner, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None, override_reason="x")
    character.refresh_from_db()
    url = reverse("advancement_spend", args=[character.pk])
    response = player_client.post(
        url, {"version": character.version, "what": GIFT, "name": LIAR}, follow=True
    )
    assert REFUSAL.format(0x202E) in response.content.decode()
    assert not character.traits.filter(name=LIAR).exists()


def test_usernames_refuse_them(client, db):
    response = client.post(
        reverse("signup"),
        {"username": f"gm{LIAR}", "password1": "a-long-pw-9x", "password2": "a-long-pw-9x"},
    )
    assert response.status_code == 400
    assert "Enter a valid username" in response.content.decode()


def test_names_render_inside_bdi(player_client, character, campaign):
    Character.objects.filter(pk=character.pk).update(name=HEBREW)
    Campaign.objects.filter(pk=campaign.pk).update(name=f"{HEBREW} 2")
    isolated = f"<bdi>{HEBREW}</bdi>"
    for url in (
        reverse("dashboard"),
        reverse("character_builder", args=[character.pk]),
        reverse("character_sheet", args=[character.pk]),
        reverse("campaign_detail", args=[campaign.pk]),
        reverse("character_audit", args=[character.pk]),
    ):
        body = player_client.get(url).content.decode()
        assert isolated in body or f"<bdi>{HEBREW} 2</bdi>" in body, url
    dashboard = player_client.get(reverse("dashboard")).content.decode()
    assert f'class="item-name">{isolated}</a>' in dashboard
    assert f"<bdi>{HEBREW} 2</bdi> · " in dashboard  # the campaign beside it
    assert "<bdi>player</bdi>" in dashboard  # usernames too
