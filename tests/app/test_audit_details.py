"""Issue 39: the audit trail's diff names a house rule and a personality answer by what a
person reads (the house-rules form's label, the question asked) with its values, never by
the file's key with nothing beside it ("added house rules max skills", "ADDED personality
values"). Every house-rule key and every personality question is walked."""

import pytest
from django.urls import reverse
from django.utils import translation

from characters import knobs
from characters.selectors.review import said_change
from characters.services.characters import character_create, character_update_details
from rules.character import PERSONALITY_QUESTIONS
from rules.diff import diff_files
from rules.house_rules import BOOLEAN_KEYS, HOUSE_RULE_KEYS, LEVEL_KEYS
from rules.rulesets import MUDGE
from tests.support.builder_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db

# A value of each shape a house rule takes, as a character file writes it.
VALUES = {
    "attribute_caps": ({"Superb": 1}, "Superb 1"),
    "skill_caps": ({"Great": 4}, "Great 4"),
    "trade_values": ({"gift": 6}, "gift 6"),
    "extra_attributes": ([{"name": "Mana", "default": "Fair"}], "Mana (Fair)"),
    "advancement_costs": ({"gift": 4}, "gift 4"),
    "damage_capacity_attribute": ("Toughness", "Toughness"),
    "muscle_attribute": ("Might", "Might"),
    **{key: ("Great", "Great") for key in LEVEL_KEYS},
    **{key: (True, "yes") for key in BOOLEAN_KEYS},
}


def said(field: str, key: str, value) -> tuple[str, str]:
    changes = diff_files({}, {field: {key: value}}, MUDGE.terms)
    [change] = [said_change(c, MUDGE, {}, {field: {key: value}}) for c in changes]
    return change.title, change.new


@pytest.mark.parametrize("key", HOUSE_RULE_KEYS)
def test_a_house_rule_is_named_by_its_label_with_its_value(key):
    value, shown = VALUES.get(key, (3, "3"))
    title, new = said("house_rules", key, value)
    assert title == f"house rules: {knobs.label(MUDGE, key)}"
    assert new == shown and ("_" not in key or key not in title)


@pytest.mark.parametrize(("key", "question"), PERSONALITY_QUESTIONS)
@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_personality_answer_is_named_by_its_question_with_its_answer(key, question, language):
    with translation.override(language):
        title, new = said("personality", key, "His friends, and a quiet pipe.")
        asked = str(translation.pgettext("personality question", question))
    assert title.endswith(f": {asked}")
    assert new == "His friends, and a quiet pipe."


def test_the_audit_page_shows_them(client, player, campaign):
    character = character_create(owner=player, name="Brogo", campaign=campaign)
    character_update_details(
        character=character,
        actor=player,
        expected_version=None,
        personality={"values": "his friends"},
    )
    client.force_login(player)
    html = client.get(reverse("character_audit", args=[character.pk])).content.decode()
    assert "Personality: What really matters to you?" in html
    assert "<ins>his friends</ins>" in html
