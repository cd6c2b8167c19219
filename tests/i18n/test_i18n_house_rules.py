"""Issue 30, house rules: the rules engine's refusal of a house-rule value is said in the
reader's language beside its field (the designer's sections, a campaign's house-rules form),
while the character file's report keeps its English words (a public contract)."""

import json

import pytest
from django.urls import reverse
from django.utils import translation

from characters.forms.designer import SECTIONS
from characters.services import rulesets as services
from characters.services.characters import character_create
from characters.wording import said
from rules.check import check_text
from rules.house_rules import house_rule_problems
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import BUILTIN
from tests.app.test_campaigns import *  # noqa: F403
from tests.app.test_campaigns import client_for
from tests.app.test_designer_sections import beside, page, url
from tests.i18n.test_i18n_designer import FRENCH, SPANISH, text

pytestmark = pytest.mark.django_db


@pytest.fixture
def design(gm):
    file = ruleset_to_json(BUILTIN["mudge"])
    file.update(slug="my-mudge", name="My Mudge")
    return services.designed_ruleset_save(owner=gm, file=file).ruleset


def designer_label(section: str, field: str, language: str) -> str:
    with translation.override(language):
        return str(SECTIONS[section].base_fields[field].label)


def test_the_designer_refuses_a_negative_budget_in_french(gm, design):
    client = client_for(gm)
    data = page(client, design, "numbers")
    response = client.post(
        url(design, "numbers"), {**data, "skill_levels": ["-1"], "save": "1"}, **FRENCH
    )
    assert response.status_code == 400
    assert beside(response, "id_skill_levels").strip() == "Ne peut pas être négatif (-1)."
    assert "annot be negative" not in text(response)
    assert design.versions.count() == 1


def test_the_designer_names_the_other_field_by_its_french_label(gm, design):
    client = client_for(gm)
    data = page(client, design, "numbers")
    posted = {**data, "meta_points_start": ["9"], "meta_points_max": ["5"], "save": "1"}
    response = client.post(url(design, "numbers"), posted, **FRENCH)
    assert response.status_code == 400
    label = designer_label("numbers", "meta_points_max", "fr")
    assert beside(response, "id_meta_points_start").strip() == f"Ne peut pas dépasser “{label}”."
    assert "cannot be above" not in text(response)


def test_the_designer_says_the_ladder_bounds_in_spanish_ladder_words(gm, design):
    client = client_for(gm)
    data = page(client, design, "ladder")
    posted = {**data, "creation_min": ["3"], "creation_max": ["-3"], "save": "1"}
    response = client.post(url(design, "ladder"), posted, **SPANISH)
    assert response.status_code == 400
    label = designer_label("ladder", "creation_max", "es")
    assert f"Excelente está por encima de “{label}” (Terrible)." in beside(
        response, "id_creation_min"
    )
    assert "is above" not in text(response)


def house_rules_post(campaign, gm, language, **data):
    return client_for(gm).post(
        reverse("campaign_house_rules", args=[campaign.pk]), data, **language
    )


def test_a_campaign_refuses_meta_points_above_the_max_in_french(campaign, gm):
    response = house_rules_post(campaign, gm, FRENCH, meta_points_start="6", skill_levels="40")
    assert response.status_code == 400
    form = response.context["rules_form"]
    label = form.fields["meta_points_max"].label
    assert form.errors["meta_points_start"] == [f"Ne peut pas dépasser “{label}”."]
    assert f"Ne peut pas dépasser “{label}”." in text(response)
    assert "Cannot be above" not in text(response)
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


def test_a_campaign_marks_every_refused_value_in_french(campaign, gm):
    response = house_rules_post(
        campaign, gm, FRENCH, attribute_levels="-1", trade_fault="0", muscle_attribute="Zork"
    )
    assert response.status_code == 400
    errors = response.context["rules_form"].errors
    assert errors["attribute_levels"] == ["Ne peut pas être négatif (-1)."]
    assert errors["trade_fault"] == ["Doit être supérieur à zéro (0)."]
    # The game's name as the ruleset writes it, its attributes' as the builder's rows do.
    assert errors["muscle_attribute"][0].startswith(
        "Mudge n\u2019a pas de caractéristique «\xa0Zork\xa0»\xa0: choisissez parmi Force, "
        "Dextérité, Constitution, "
    )


GERMAN = {"HTTP_ACCEPT_LANGUAGE": "de"}


@pytest.mark.parametrize(
    "field, typed, kept, shown",
    [
        ("damage_capacity_attribute", "Willenskraft", "Willpower", "Willenskraft"),
        ("muscle_attribute", "geschicklichkeit", "Dexterity", "Geschicklichkeit"),
        ("muscle_attribute", "Constitution", "Constitution", "Konstitution"),  # the key too
    ],
)
def test_a_campaign_takes_an_attribute_named_as_the_rows_name_it(
    campaign, gm, field, typed, kept, shown
):
    """A German GM types the attribute as the builder shows it ("Willenskraft"); the house
    rules keep its key, which the characters' rows and the damage factors read, and the form
    shows it again in the GM's words."""
    response = house_rules_post(campaign, gm, GERMAN, **{field: typed})
    assert response.status_code == 302, response.context["rules_form"].errors
    campaign.refresh_from_db()
    assert campaign.house_rules == {field: kept}
    page = client_for(gm).get(reverse("campaign_house_rules", args=[campaign.pk]), **GERMAN)
    assert page.context["rules_form"][field].value() == shown


def test_a_house_rules_attribute_reads_as_the_rows_name_it_wherever_it_shows(campaign, gm, player):
    """The campaign page's house rules (beside the base ruleset's), its history and a
    character's audit diff say the attribute a house rule names in the reader's words, as
    the form and the rows do: "Willenskraft", not the key."""
    character = character_create(owner=player, name="Tess", campaign=campaign)
    house_rules_post(campaign, gm, GERMAN, damage_capacity_attribute="Willenskraft")
    reader = client_for(gm)
    history = reader.get(reverse("campaign_history", args=[campaign.pk]), **GERMAN)
    audit = reader.get(reverse("character_audit", args=[character.pk]), {"old": ""}, **GERMAN)
    for response in (history, audit):
        assert "Willenskraft" in text(response) and "Willpower" not in text(response)
    page = text(reader.get(reverse("campaign_detail", args=[campaign.pk]), **GERMAN))
    assert "Willenskraft" in page and "Konstitution" in page  # here, and Mudge's own
    assert "Willpower" not in page and "Constitution" not in page


def test_a_campaign_shows_the_base_attributes_in_the_readers_words(campaign, gm):
    page = client_for(gm).get(reverse("campaign_house_rules", args=[campaign.pk]), **GERMAN)
    form = page.context["rules_form"]
    assert form.fields["damage_capacity_attribute"].base_value == "Konstitution"
    assert form.fields["muscle_attribute"].widget.attrs["placeholder"] == "Stärke"
    assert "Basis: Konstitution" in text(page) and "Basis: Constitution" not in text(page)


def test_a_campaign_refuses_in_spanish(campaign, gm):
    response = house_rules_post(campaign, gm, SPANISH, skill_levels="-5", trade_gift="0")
    errors = response.context["rules_form"].errors
    assert errors["skill_levels"] == ["No puede ser negativo (-5)."]
    assert errors["trade_gift"] == ["Debe ser mayor que cero (0)."]


def report(house_rules: dict) -> dict:
    file = {"ruleset": "mudge", "name": "X", "house_rules": house_rules}
    return check_text(json.dumps(file)).report


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_character_files_report_of_a_bad_house_rule_is_english_as_before(language):
    """Word for word what the report said before the messages were phrases, whatever
    language is active: the report says another language only when asked."""
    expected = [
        ({"skill_levels": -3}, "house_rules.skill_levels", "cannot be negative (-3)"),
        (
            {"meta_points_start": 9, "meta_points_max": 5},
            "house_rules.meta_points_start",
            "cannot be above meta_points_max",
        ),
        (
            {"creation_max": "Legendary"},
            "house_rules.creation_max",
            "must be below Legendary, not Legendary: legendary_at_creation allows Legendary",
        ),
        (
            {"creation_min": "Great", "creation_max": "Good"},
            "house_rules.creation_min",
            "Great is above creation_max (Good)",
        ),
        ({"free_gifts": -0.5}, "house_rules.free_gifts", "must be at least zero (-0.5)"),
        ({"free_gifts": 2e6}, "house_rules.free_gifts", "cannot be above 1,000,000 (2000000.0)"),
        (
            {"trade_values": {"gift": 1, "x": 2}},
            "house_rules.trade_values",
            "unknown key 'x': use attribute, gift, fault",
        ),
        (
            {"muscle_attribute": "Zork"},
            "house_rules.muscle_attribute",
            "Mudge has no attribute 'Zork': use one of Strength, Dexterity, Constitution, "
            "Speed, Intelligence, Willpower, Perception, Mana, Psyche",
        ),
    ]
    with translation.override(language):
        for house_rules, where, message in expected:
            assert report(house_rules) == {
                "valid": False,
                "errors": [
                    {
                        "code": "unreadable",
                        "message": message,
                        "section": "Fairsheet character file",
                        "where": where,
                    }
                ],
                "warnings": [],
            }


def test_a_house_rule_error_is_english_and_keeps_its_phrase():
    (problem,) = house_rule_problems(BUILTIN["mudge"], {"extra_attributes": [{"name": ""}]})
    assert str(problem) == "house_rules.extra_attributes[0]: needs a name of 1 to 100 characters"
    assert problem.message == "needs a name of 1 to 100 characters"
    with translation.override("fr"):
        assert said(problem) == "il faut un nom de 1 à 100 caractères"
