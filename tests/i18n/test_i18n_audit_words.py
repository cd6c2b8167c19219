"""What the engine and the services record, said in the reader's language (issue 30): the
message after a template is applied, and the audit trail's lines read back from the English
the record keeps (an undo, a redo, a template, an award) or from the event's data (a level
past Legendary, a difficulty). English reads as recorded."""

import pytest
from django.urls import reverse

from characters.models import Trait
from characters.services.advancement import experience_award
from characters.services.rows import trait_add, trait_update
from rules.ladder import LEGENDARY, SUPERB
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved
from tests.support.builder_fixtures import *  # noqa: F403

FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}
ES = {"HTTP_ACCEPT_LANGUAGE": "es"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def applied(client, character, template, language) -> str:
    """The builder's message after the template is applied, as the player reads it."""
    character.refresh_from_db()
    response = client.post(
        reverse("template_apply", args=[character.pk]),
        {"version": character.version, "template": template},
        follow=True,
        **language,
    )
    assert response.status_code == 200
    return response.content.decode()


# The built-in rules names inside the lines are said in the language too (issue 38: the
# rules content catalogue's "Halfelin", "Mediano"), never the English key in a translated line.
@pytest.mark.parametrize(
    ("language", "said", "english"),
    [
        (
            FR,
            [
                "Modèle appliqué",
                "Constitution Bon",
                "défaut Halfelin",
                "race Halfelin",
                "Échelle -2 / -2",
            ],
            [
                "Constitution Good",
                "fault Halfling",
                "Scale -2 / -2",
                "défaut Halfling",
                "race Halfling",
            ],
        ),
        (
            ES,
            [
                "Plantilla aplicada",
                "Constitución Bueno",
                "limitación Mediano",
                "raza Mediano",
                "Escala -2 / -2",
            ],
            [
                "Constitution Good",
                "fault Halfling",
                "race Halfling",
                "Scale -2 / -2",
                "raza Halfling",
            ],
        ),
    ],
)
def test_the_template_applied_message_in_the_players_language(
    player_client, character, language, said, english
):
    body = applied(player_client, character, "halfling", language)
    for text in said:
        assert text in body
    for text in english:
        assert text not in body
    # the record keeps the English the engine said
    event = character.events.get(action="template_applied")
    assert "Constitution Good" in event.after["changed"]
    assert "Scale -2 / -2" in event.after["changed"]


def test_the_template_applied_message_in_english_is_unchanged(player_client, character):
    body = applied(player_client, character, "halfling", EN)
    assert "Template applied: " in body
    assert "Constitution Good" in body
    assert "race Halfling, Scale -2 / -2. Undo takes it back." in body


@pytest.fixture
def recorded(player_client, player, gm, character):
    """A trail with an edit past Legendary, its undo and redo, a template, an approval and an
    award: what the audit page reads back."""
    lockpicking = trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.SKILL,
        name="Lockpicking",
        level=SUPERB,
        difficulty="average",
    )
    character.refresh_from_db()
    trait_update(trait=lockpicking, actor=player, expected_version=None, level=LEGENDARY + 1)
    for way in ("edit_undo", "edit_redo"):
        character.refresh_from_db()
        response = player_client.post(
            reverse(way, args=[character.pk]), {"version": character.version}
        )
        assert response.status_code == 302
    applied(player_client, character, "beginning-fighter", EN)
    character.refresh_from_db()
    approved(character, gm, reason="A Legendary thief, for this one")
    experience_award(character=character, actor=gm, amount=3, reason="Première séance")
    return character


def audit(client, character, language) -> str:
    response = client.get(reverse("character_audit", args=[character.pk]), **language)
    assert response.status_code == 200
    return response.content.decode()


def test_the_audit_trail_reads_its_records_in_french(login, gm, recorded):
    body = audit(login(gm), recorded, FR)
    for text in (
        "annulé\u00a0: Crochetage Excellent → Légendaire+1",
        "rétabli\u00a0: Crochetage Excellent → Légendaire+1",
        "Crochetage Excellent → Légendaire+1</ins>",  # the undo's "edit"
        "<del>Excellent</del> → <ins>Légendaire+1</ins>",  # the level past Legendary
        "<ins>moyenne</ins>",  # the difficulty
        "modèle Guerrier débutant",  # the template's name in the language (issue 38)
        "<ins>Guerrier débutant</ins>",  # the template the event names, as its reason says it
        "Force Très bon, Dextérité Très bon",  # what the template changed
        "Modèle\u00a0: Guerrier débutant",  # the event's heading: the template by its name
        '<span class="field">Approbation</span>',  # a field is a label (issue 39)
        "3 PX\u00a0: Première séance",
    ):
        assert text in body, text
    for text in (
        "undo Lockpicking",
        "redo Lockpicking",
        "Superb",
        "Legendary+1",
        ">average<",
        "template Beginning Fighter",
        "Beginning Fighter",
        "Strength Great",
        "Template: Beginning Fighter",
        "beginning-fighter",  # the slug, which only the file knows
        '<span class="field">Approval</span>',
        '<span class="field">Edit</span>',
        "3 XP",
    ):
        assert text not in body, text


def test_the_audit_trail_in_english_reads_as_recorded(login, gm, recorded):
    body = audit(login(gm), recorded, EN)
    for text in (
        "undo Lockpicking Superb → Legendary+1",
        "redo Lockpicking Superb → Legendary+1",
        "<del>Superb</del> → <ins>Legendary+1</ins>",
        "template Beginning Fighter",
        "Template: Beginning Fighter",
        "3 XP: Première séance",
    ):
        assert text in body, text
    assert "beginning-fighter" not in body


def test_a_races_template_on_the_audit_trail_in_french(login, gm, player_client, character):
    applied(player_client, character, "halfling", EN)
    body = audit(login(gm), character, FR)
    # The race's name in the language too (issue 38): Halfelin.
    assert "Constitution Bon, défaut Halfelin" in body
    assert "race Halfelin, Échelle -2 / -2" in body
    assert "modèle Halfelin" in body
    for text in (
        "Constitution Good",
        "fault Halfling",
        "Scale -2 / -2",
        "template Halfling",
        "défaut Halfling",
        "race Halfling",
        "modèle Halfling",
        "Modèle Halfling",
    ):
        assert text not in body, text
