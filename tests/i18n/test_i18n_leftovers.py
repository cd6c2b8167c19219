"""What the French and Spanish crawl still found in English (issue 30): the Undo and Redo
buttons' labels, the approval over broken rules on every page that shows it, and the sheet's
personality questions. English is the source: test_undo_history.py, test_review.py and the
sheet tests keep asserting it word for word."""

import pytest
from django.urls import reverse

from characters.models import BuildStep, Trait
from characters.services.rows import trait_add
from rules.ladder import GOOD
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved
from tests.app.test_undo_history import add, add_item, change_item, concept, relevel
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.pdf_helpers import flat, texts

pytestmark = pytest.mark.django_db
LANGUAGES = ("fr", "es")


def page(client, name, character, language, **extra) -> str:
    url = reverse(name, args=[character.pk])
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language, **extra)
    assert response.status_code == 200
    return spaced(response.content.decode())


def spaced(text: str) -> str:
    """French puts a no-break space before its colons and question marks: a space here."""
    return text.replace("\u00a0", " ").replace("\u202f", " ")


# -- the Undo and Redo buttons ---------------------------------------------------------------

UNDO = {
    "fr": [
        "Annuler : Force Moyen → Bon",
        "Annuler : ajouter Escalade",
        "Annuler : modifier Sword",
        "Annuler : modifier le concept",
    ],
    "es": [
        "Deshacer: Fuerza Normal → Bueno",
        "Deshacer: añadir Escalada",
        "Deshacer: cambiar Sword",
        "Deshacer: cambiar el concepto",
    ],
}
REDO = {"fr": "Rétablir : modifier le concept", "es": "Rehacer: cambiar el concepto"}
UNDONE = {"fr": "Annulé : modifier le concept.", "es": "Deshecho: cambiar el concepto."}
ENGLISH_LABELS = [
    "Strength Fair → Good",
    "adding Climbing",
    "adding Sword",
    "the change to Sword",
    "the change to concept",
]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_undo_and_redo_buttons_say_the_edit_in_the_readers_language(
    player_client, character, language
):
    edits = [
        relevel("Strength", GOOD),
        add("skill", "Climbing", level=GOOD),
        add_item("Sword", "weapon", damage=2),
        change_item("Sword", "weapon", damage=3),
        concept("A thief of the old town"),
    ]
    said = []
    for edit in edits:
        character.refresh_from_db()
        assert edit(player_client, character).status_code == 302
        builder = page(player_client, "character_builder", character, language)
        said += [label for label in UNDO[language] if label in builder]
    assert said == UNDO[language]
    # The history keeps the English the audit trail says: undo and redo name it so.
    assert list(BuildStep.objects.order_by("id").values_list("label", flat=True)) == (
        ENGLISH_LABELS
    )
    character.refresh_from_db()
    undone = player_client.post(
        reverse("edit_undo", args=[character.pk]),
        {"version": character.version},
        HTTP_ACCEPT_LANGUAGE=language,
        follow=True,
    ).content.decode()
    undone = spaced(undone)
    assert UNDONE[language] in undone
    assert REDO[language] in undone
    assert "the change to" not in undone and "adding" not in undone
    assert character.events.filter(reason="undo the change to concept").exists()


# -- the approval over broken rules -----------------------------------------------------------

APPROVAL = {
    "fr": "pprouvé malgré un budget dépassé de 2 niveaux de compétence : A veteran",
    "es": "probado con el presupuesto superado en 2 niveles de habilidad: A veteran",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_an_approval_over_budget_is_said_in_the_readers_language_where_it_shows(
    no_budget, character, climbing, gm, login, language
):
    approved(character, gm, reason="A veteran of the siege.")
    said = APPROVAL[language]
    player = login(character.owner)
    shown = {
        "builder": page(player, "character_builder", character, language),
        "sheet": page(player, "character_sheet", character, language),
        "play": page(player, "character_play", character, language),
        "review": page(login(gm), "character_review", character, language),
    }
    for where, html in shown.items():
        # The play page's header gives the hash and the stamp whole, the summary's start.
        assert (said[:20] if where == "play" else said) in html, where
        assert "over budget by" not in html, where
        if where != "play":
            assert "A veteran of the siege." in html, where  # the GM's words, as written
    response = player.get(
        reverse("character_sheet_pdf", args=[character.pk]), HTTP_ACCEPT_LANGUAGE=language
    )
    pdf = flat(" ".join(texts(response.content)))
    assert flat(APPROVAL[language]) in spaced(pdf)
    assert "over budget" not in pdf


# -- the sheet's personality questions --------------------------------------------------------

QUESTION = {
    "fr": "Qu\u2019est-ce qui compte vraiment pour vous ?",
    "es": "¿Qué te importa de verdad?",
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_asks_its_personality_questions_in_the_readers_language(
    player_client, character, player, language
):
    character.personality = {"values": "My brothers", "Lucky charms": "A rabbit's foot"}
    character.save()
    trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.SKILL,
        name="Climbing",
        level=GOOD,
        difficulty="average",
    )
    sheet = page(player_client, "character_sheet", character, language)
    assert QUESTION[language] in sheet
    assert "What really matters to you?" not in sheet
    assert "My brothers" in sheet
    assert "Lucky charms" in sheet  # a file's own question, as written
