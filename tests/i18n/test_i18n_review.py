"""The review area in French and Spanish (issue 30): the review queue, the review page, the
audit trail with its diff, the advancement page and a thread, read by the GM and the player
in the language their browser asks for; and a notification said in the player's own
language, whoever's request made it."""

import pytest
from django.urls import reverse
from django.utils import translation

from characters.adapters import ruleset_for
from characters.forms.builder import DetailsForm
from characters.models import CatalogEntry, Equipment, Notification, PowerKind, Trait
from characters.selectors.notifications import notification_said
from characters.services.accounts import account_language_set
from characters.services.review import character_request_changes
from characters.services.rows import equipment_add, trait_add, trait_update
from characters.services.threads import comment_thread_start
from rules.ladder import FAIR, GOOD
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved, submitted
from tests.support.builder_fixtures import *  # noqa: F403

FR = {"HTTP_ACCEPT_LANGUAGE": "fr"}
ES = {"HTTP_ACCEPT_LANGUAGE": "es"}


def page(client, name, character, language) -> str:
    response = client.get(reverse(name, args=[character.pk]), **language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize(
    ("language", "said", "english"),
    [
        (
            FR,
            [
                "File d\u2019examen",
                "Personnages en attente d\u2019approbation",
                "Aucune dépense n\u2019attend.",
            ],
            ["Builds waiting for approval", "No spend is waiting."],
        ),
        (
            ES,
            ["Cola de revisión", "Personajes esperando aprobación", "Ningún gasto espera."],
            ["Builds waiting for approval", "No spend is waiting."],
        ),
    ],
)
def test_the_review_queue_speaks_the_gms_language(
    login, gm, character, climbing, language, said, english
):
    submitted(character)
    body = login(gm).get(reverse("review_queue"), **language).content.decode()
    for text in said:
        assert text in body
    for text in english:
        assert text not in body


def test_the_review_page_in_french_for_the_gm(login, gm, character, climbing):
    submitted(character)
    body = page(login(gm), "character_review", character, FR)
    assert "Rapport de création" in body
    assert "Traits et équipement" in body
    assert "Approuver" in body and "Demander des modifications" in body
    assert "compétence" in body  # the row's kind, Mudge's "skill"
    assert "Moyen" in body  # Fair on the ladder
    assert "Discuter avec <bdi>player</bdi>" in body
    assert "Ouvrir une discussion" in body
    for english in ("Build report", "Request changes", "Start a thread", "Traits and equipment"):
        assert english not in body


def test_the_review_page_in_spanish_for_the_gm(login, gm, character, climbing):
    submitted(character)
    body = page(login(gm), "character_review", character, ES)
    assert "Informe de creación" in body
    assert "Pedir cambios" in body
    assert "Hablar con <bdi>player</bdi>" in body
    assert "Request changes" not in body


def test_a_kind_other_than_the_catalogues_is_said_in_french(login, gm, player, character):
    """The campaign lists Fireball as a spell and the Medium Weapon as a weapon; the
    character has them as a psionic power and an armour: the review says both kinds, the
    catalogue's and the character's, in the GM's words."""
    CatalogEntry.objects.bulk_create(
        [
            CatalogEntry(
                campaign=character.campaign,
                kind=CatalogEntry.Kind.POWER,
                name="Fireball",
                power_kind=PowerKind.SPELL,
            ),
            CatalogEntry(
                campaign=character.campaign,
                kind=CatalogEntry.Kind.EQUIPMENT,
                name="Medium Weapon",
                equipment_kind=Equipment.Kind.WEAPON,
            ),
        ]
    )
    trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.POWER,
        name="Fireball",
        level=FAIR,
        power_kind=PowerKind.PSI,
    )
    equipment_add(
        character=character,
        actor=player,
        expected_version=None,
        name="Medium Weapon",
        kind=Equipment.Kind.ARMOUR,
    )
    submitted(character)
    body = page(login(gm), "character_review", character, FR)

    def row(name):
        start = body.index(f"<bdi>{name}</bdi>")
        return body[start : body.index("</li>", start)]

    # The power by its French name (issue 38), the kinds in French words.
    assert "Diffère du catalogue\u00a0: il indique type sort (ici psi)." in row("Boule de feu")
    assert "Diffère du catalogue\u00a0: il indique type arme (ici armure)." in row("Arme moyenne")
    # The item's own kind is a label, a word with its capital (issue 39).
    assert '<span class="trait-level-label">Armure</span>' in row("Arme moyenne")
    assert "spell" not in row("Boule de feu") and "Spell" not in row("Boule de feu")
    assert "weapon" not in row("Arme moyenne") and "armour" not in row("Arme moyenne").lower()


def resubmitted_with_a_change(character, climbing, gm, player):
    """Sent back, Climbing raised from Fair to Good, submitted again: the diff has a change."""
    submitted(character)
    character_request_changes(
        character=character, actor=gm, expected_version=None, comments=[("", "Raise it")]
    )
    trait_update(trait=climbing, actor=player, expected_version=None, level=GOOD)
    submitted(character)


def test_the_audit_trail_and_its_diff_in_spanish_for_the_player(
    login, gm, player, character, climbing
):
    resubmitted_with_a_change(character, climbing, gm, player)
    body = page(login(player), "character_audit", character, ES)
    assert "Qué ha cambiado" in body
    assert "Cronología" in body
    # The diff names the trait in the reader's words: its list's, a label with its capital
    # (issue 39), and the built-in skill's own name (issue 38).
    assert '<span class="diff-what">Habilidad Escalada</span>' in body
    assert "<del>Normal, media</del> → <ins>Bueno, media</ins>" in body
    assert "<strong>Cambios pedidos</strong>" in body  # the timeline's event
    for english in ("What changed", "Timeline", "hanges requested", "kill Climbing"):
        assert english not in body
    assert "Habilidad Climbing" not in body


def test_the_audit_trail_in_french_for_the_gm(login, gm, player, character, climbing):
    resubmitted_with_a_change(character, climbing, gm, player)
    body = page(login(gm), "character_audit", character, FR)
    assert "<del>Moyen, moyenne</del> → <ins>Bon, moyenne</ins>" in body
    assert "modifié" in body
    assert "Chronologie" in body
    assert "No difference" not in body


@pytest.mark.parametrize(
    ("language", "said", "english"),
    [
        (
            FR,
            ["Registre", "En attente du MJ", "Attribuer des PX", "Tout le groupe"],
            ["Ledger", "Waiting for the GM", "Award XP"],
        ),
        (
            ES,
            ["Registro", "Esperando al DJ", "Otorgar PX", "Todo el grupo"],
            ["Ledger", "Waiting for the GM", "Award XP"],
        ),
    ],
)
def test_the_advancement_page_for_the_gm(login, gm, character, language, said, english):
    approved(character, gm)
    body = page(login(gm), "character_advancement", character, language)
    for text in said:
        assert text in body
    for text in english:
        assert text not in body


def test_the_advancement_page_for_the_player_in_french(login, gm, player, character):
    approved(character, gm)
    body = page(login(player), "character_advancement", character, FR)
    assert "Non dépensé" in body
    assert "Chaque dépense affiche son prix" in body
    assert "Unspent" not in body


def test_a_thread_in_french_and_spanish(login, gm, player, character, climbing):
    submitted(character)
    comment_thread_start(character=character, actor=gm, body="Why Climbing?", about=climbing)
    body = page(login(gm), "character_review", character, FR)
    assert "Sur <bdi>Compétence\u00a0: Escalade</bdi>" in body
    assert "Marquer comme résolue" in body
    assert "Why Climbing?" in body  # what the GM wrote stays as written
    body = page(login(player), "character_builder", character, ES)
    assert "Hablar con tu DJ" in body
    assert "Sobre <bdi>Habilidad: Escalada</bdi>" in body
    assert "Responder…" in body
    assert "Talk with your GM" not in body


def test_a_notification_is_said_in_the_players_language(gm, player, character, climbing):
    account_language_set(user=player, language="es")
    submitted(character)
    comment_thread_start(character=character, actor=gm, body="Why Climbing?", about=climbing)
    note = Notification.objects.get(user=player, kind=Notification.Kind.MESSAGE)
    # The built-in skill by the rules catalogue; what the GM wrote as written.
    assert note.message == "gm ha abierto un hilo sobre Escalada de Brogo: «Why Climbing?»"
    # Kept as a phrase too: the list says it again in whatever language its reader reads in.
    assert note.message_phrase["text"] == "{actor} started a thread on {about}: “{excerpt}”"
    with translation.override("fr"):
        assert notification_said(note) == (
            "gm a ouvert une discussion sur Escalade (Brogo)\u00a0: «\u00a0Why Climbing?\u00a0»"
        )
    approved_note = approved_in_english(character, gm, player)
    assert approved_note.message == "gm ha aprobado a Brogo."


def approved_in_english(character, gm, player):
    from characters.services.review import character_approve

    character_approve(character=character, actor=gm, expected_version=None)
    return Notification.objects.get(user=player, kind=Notification.Kind.APPROVED)


@pytest.mark.parametrize(
    "language, shown",
    [({"HTTP_ACCEPT_LANGUAGE": "fr"}, "Halfelin"), ({"HTTP_ACCEPT_LANGUAGE": "de"}, "Halbling")],
)
def test_a_built_in_race_is_said_in_the_readers_language_wherever_it_shows(
    login, gm, player, character, language, shown
):
    """A Mudge template sets the race by its key ("Halfling"): the builder's field, the
    sheet, its statblock, the review page and the audit's diff say it as the template panel
    does; the builder keeps the key when the player saves the field as shown."""
    character.race = "Halfling"
    character.save(update_fields=["race"])
    player_page = login(player)
    builder = page(player_page, "character_builder", character, language)
    assert f'name="race" value="{shown}"' in builder
    for name in ("character_sheet", "character_statblock"):
        assert shown in page(player_page, name, character, language), name
    submitted(character)
    gm_page = login(gm)
    review = page(gm_page, "character_review", character, language)
    assert f"<bdi>{shown}</bdi>" in review
    audit = gm_page.get(
        reverse("character_audit", args=[character.pk]), {"old": ""}, **language
    ).content.decode()
    assert shown in audit and "Halfling" not in audit
    for text in (builder, review):
        assert "Halfling" not in text


def test_the_race_saved_as_shown_keeps_its_key(login, player, character):
    form = DetailsForm(
        {
            "version": character.version,
            "name": character.name,
            "race": "Halfelin",
            "scale_strength": 0,
            "scale_mass": 0,
        },
        ruleset=ruleset_for(character),
    )
    with translation.override("fr"):
        assert form.is_valid(), form.errors
    assert form.cleaned_data["race"] == "Halfling"
