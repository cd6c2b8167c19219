"""Issue 39: a level list offers only what the rules allow there. At creation every row's list
and every add row's runs from the lowest level a trait of its list may start at to the
highest (rules.tables.creation_choices: Superb in Mudge, Great in Streamlined MicroFudged),
Legendary and past it only where the house rules allow Legendary at creation; a row already
past them (raised with experience, or imported so) keeps its level among its choices."""

import re

import pytest
from django.urls import reverse

from characters.adapters import TRAIT_LISTS, ruleset_for
from characters.models import Campaign, Membership, Trait
from characters.services.characters import character_create
from rules.ladder import LEGENDARY
from rules.tables import creation_choices
from tests.support.builder_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db

SELECT = re.compile(
    r'<select name="level" id="(trait-\d+|add-\w+)-level"[^>]*>(.*?)</select>', re.S
)
OPTION = re.compile(r'<option value="(-?\d*)"')
HTMX = {"HTTP_HX_REQUEST": "true"}

RULESETS = [
    ("mudge", {}),
    ("mudge", {"legendary_at_creation": True}),
    ("fudge-basics", {}),
    ("microfudged-dip", {}),
    ("microfudged-streamlined", {}),
]


def level_lists(html: str) -> dict[str, list[int]]:
    """Each row's level list (by its form: "trait-12", "add-skill"), its levels in order."""
    return {
        form: [int(value) for value in OPTION.findall(options) if value]
        for form, options in SELECT.findall(html)
    }


@pytest.mark.parametrize(("slug", "house_rules"), RULESETS)
def test_every_level_list_offers_the_levels_creation_allows(client, gm, player, slug, house_rules):
    campaign = Campaign.objects.create(
        name="The Watch", gm=gm, base_ruleset=slug, house_rules=house_rules
    )
    Membership.objects.create(campaign=campaign, user=player)
    character = character_create(owner=player, name="Brogo", campaign=campaign)
    ruleset = ruleset_for(character)
    client.force_login(player)
    lists = level_lists(
        client.get(reverse("character_builder", args=[character.pk])).content.decode()
    )
    kinds = {f"trait-{t.pk}": t.kind for t in character.traits.all()}
    kinds |= {f"add-{kind}": kind for kind in TRAIT_LISTS}
    assert any(form.startswith("trait-") for form in lists)
    for form, levels in lists.items():
        allowed = list(creation_choices(ruleset, TRAIT_LISTS[kinds[form]]))
        assert levels == allowed, form
        assert (LEGENDARY in levels) == bool(house_rules.get("legendary_at_creation")), form


def test_a_row_past_what_creation_allows_keeps_its_level(client, player, character):
    skill = Trait.objects.create(
        character=character, kind=Trait.Kind.SKILL, name="Lore", level=LEGENDARY, position=0
    )
    client.force_login(player)
    html = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    levels = level_lists(html)[f"trait-{skill.pk}"]
    assert LEGENDARY in levels and levels.count(LEGENDARY) == 1
    assert f'<option value="{LEGENDARY}" selected>' in html
    # Renamed, it stays where it is: the form takes the level it already has.
    character.refresh_from_db()
    response = client.post(
        reverse("trait_update", args=[character.pk, skill.pk]),
        {"version": character.version, "name": "Old Lore", "level": LEGENDARY, "difficulty": ""},
        **HTMX,
    )
    assert response.status_code == 200
    skill.refresh_from_db()
    assert (skill.name, skill.level) == ("Old Lore", LEGENDARY)
    # Another row cannot be set there: creation does not offer it.
    strength = character.traits.get(name="Strength")
    character.refresh_from_db()
    response = client.post(
        reverse("trait_update", args=[character.pk, strength.pk]),
        {"version": character.version, "name": "Strength", "level": LEGENDARY},
        **HTMX,
    )
    assert response.status_code == 400
    strength.refresh_from_db()
    assert strength.level != LEGENDARY
