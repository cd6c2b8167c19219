"""Character files in French and Spanish (issue 30): the import page, why a file cannot be
read (bad text, bad JSON, another ruleset or game system), a Foundry actor's import report,
the update from Foundry, a party file, the check endpoint's unreadable report and refused
tokens, a 429. The files themselves are the same in every language (the public contract)."""

import json
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from characters import throttle
from characters.services.api_tokens import api_token_create
from rules.check import check_text
from tests.support.builder_fixtures import *  # noqa: F403

BROGO = (Path(__file__).resolve().parents[2] / "rules" / "samples" / "brogo.json").read_text()
# A fudge-rpg actor without Fairsheet's flags: its import report has a line in each group.
ACTOR = {
    "name": "Aldo",
    "type": "character",
    "system": {"mana": 3},
    "items": [{"type": "traitladder", "name": "Ladder"}],
}


@pytest.fixture
def french(player_client):
    player_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "fr"
    return player_client


@pytest.fixture
def spanish(player_client):
    player_client.defaults["HTTP_ACCEPT_LANGUAGE"] = "es"
    return player_client


def text_of(response) -> str:
    return response.content.decode()


def refusal(client, content, **data) -> str:
    """The import page's answer to `content`, which it refuses."""
    response = client.post(reverse("character_import"), {"text": content, **data})
    assert response.status_code == 400
    return text_of(response)


def test_the_import_page_in_french(french):
    page = text_of(french.get(reverse("character_import")))
    assert "Importer un fichier de personnage" in page
    assert "devient un nouveau brouillon que vous pouvez modifier" in page
    assert "Un fichier de personnage Fairsheet ou un acteur Foundry (.json)" in page
    assert "…ou collez le fichier" in page
    assert ">Importer</button>" in page
    assert "Import a character file" not in page
    assert "becomes a new draft you can edit" not in page


def test_the_import_page_in_spanish(spanish):
    page = text_of(spanish.get(reverse("character_import")))
    assert "Importar un archivo de personaje" in page
    assert "se convierte en un borrador nuevo que puedes editar" in page
    assert "importa cada uno como su propio borrador" in page
    assert "A party file, a JSON list of characters" not in page


def test_nothing_chosen_is_said_in_french(french):
    page = refusal(french, "")
    assert "Choisissez un fichier de personnage ou collez-en un." in page
    assert "Choose a character file" not in page


def test_a_file_that_is_not_text_is_refused_in_french(french):
    upload = SimpleUploadedFile("brogo.json", b"\xff\xfe\x00garbage\xff", "application/json")
    response = french.post(reverse("character_import"), {"file": upload})
    page = text_of(response)
    assert response.status_code == 400
    assert "Le fichier ne peut pas être lu\u00a0: le fichier n\u2019est pas du texte UTF-8" in page
    assert "cannot be read" not in page


def test_invalid_json_is_refused_in_french(french):
    page = refusal(french, '{"name": "Brogo",')
    assert "Le fichier ne peut pas être lu\u00a0: ligne 1 colonne 18\u00a0: JSON non valide" in page
    assert "not valid JSON" not in page


def test_a_wrong_type_and_a_wrong_level_are_refused_in_french(french):
    data = json.loads(BROGO)
    data["skills"][0]["level"] = "Goood"
    page = refusal(french, json.dumps(data))
    assert (
        "skills[0].level\u00a0: &#x27;Goood&#x27; n\u2019est pas un niveau\u00a0: "
        "utilisez l\u2019un de" in page
    )
    data = json.loads(BROGO)
    data["notes"] = 3
    assert "notes\u00a0: doit être du texte, pas un nombre" in refusal(french, json.dumps(data))


def test_a_file_of_another_ruleset_is_refused_in_french(french, campaign):
    data = json.loads(BROGO) | {"ruleset": "fudge-basics"}
    page = refusal(french, json.dumps(data), campaign=campaign.pk)
    assert "Ce fichier est pour" in page
    assert "mais The Watch joue à Mudge\u00a0: changez les règles du fichier" in page
    assert "This file is for" not in page
    unknown = refusal(french, json.dumps(data | {"ruleset": "gurps"}))
    assert (
        "ruleset\u00a0: règles inconnues &#x27;gurps&#x27;\u00a0: utilisez l\u2019une de" in unknown
    )


def test_an_actor_of_another_game_system_is_refused_in_french(french):
    actor = ACTOR | {"_stats": {"systemId": "dnd5e"}}
    page = refusal(french, json.dumps(actor))
    assert "cet acteur appartient au système de jeu &#x27;dnd5e&#x27;" in page
    assert "belongs to the" not in page


def test_a_foundry_actors_import_report_is_in_french(french):
    response = french.post(reverse("character_import"), {"text": json.dumps(ACTOR)}, follow=True)
    page = text_of(response)
    assert "Aldo importé depuis l\u2019acteur Foundry, en brouillon." in page
    assert "Modifié à l\u2019import\u00a0: à vérifier (1)\u00a0:" in page
    assert (
        "L\u2019acteur ne nomme pas de règles Fairsheet\u00a0: importé pour fudge-basics." in page
    )
    assert "system.mana (3)\u00a0: Fairsheet ne garde pas de réserve de mana." in page
    assert "Fairsheet utilise sa propre échelle de traits" in page
    assert "Not imported" not in page
    assert "Fairsheet keeps no mana pool" not in page


def test_a_party_file_reports_in_spanish(spanish):
    party = [json.loads(BROGO), ACTOR, {"name": "Nadie", "ruleset": "gurps"}]
    page = text_of(spanish.post(reverse("character_import"), {"text": json.dumps(party)}))
    assert "Archivo de grupo: 2 de 3 importados" in page
    assert ": importado como borrador" in page
    assert "<strong>rechazado</strong>. No se puede leer el archivo: ruleset: reglamento" in page
    assert "No importado" in page
    assert "imported as a draft" not in page


def test_the_update_from_foundry_page_in_french(french, player, campaign):
    french.post(reverse("character_import"), {"text": BROGO, "campaign": campaign.pk})
    brogo = player.characters.get()
    actor = json.loads(french.get(reverse("character_export_foundry", args=[brogo.pk])).content)
    actor["name"] = "Brogo"
    page = text_of(french.post(reverse("character_import"), {"text": json.dumps(actor)}))
    assert "Mettre à jour <bdi>Brogo the Scout</bdi> depuis Foundry\u00a0?" in page
    assert "Cet acteur Foundry a été exporté depuis votre personnage" in page
    assert "Ce qui a changé dans Foundry (1)" in page
    assert "Importer comme nouveau personnage" in page
    assert "Update Brogo" not in page


def test_the_files_are_the_same_in_every_language(player_client, player, campaign):
    player_client.post(reverse("character_import"), {"text": BROGO, "campaign": campaign.pk})
    brogo = player.characters.get()
    for name in ("character_export", "character_export_foundry"):
        url = reverse(name, args=[brogo.pk])
        english = player_client.get(url)
        french = player_client.get(url, HTTP_ACCEPT_LANGUAGE="fr")
        assert french["Content-Disposition"] == english["Content-Disposition"]
        assert french.content == english.content


def test_the_check_endpoint_says_an_unreadable_file_in_french_keeping_its_keys(player):
    token = api_token_create(user=player, name="script")[1]
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    body = b'{"ruleset": "fudge-basics",'
    url = reverse("character_check")
    english = Client().post(url, body, "application/json", **auth)
    assert english.json() == check_text(body).report
    french = Client().post(url, body, "application/json", HTTP_ACCEPT_LANGUAGE="fr", **auth)
    (error,) = french.json()["errors"]
    (was,) = english.json()["errors"]
    assert {k: v for k, v in error.items() if k != "message"} == {
        k: v for k, v in was.items() if k != "message"
    }
    assert error["where"] == "line 1 column 28"
    assert error["message"].startswith("JSON non valide")


def test_a_refused_token_is_said_in_spanish(db):
    answer = Client().get(
        reverse("character_export", args=[1]),
        HTTP_AUTHORIZATION="Bearer fs_wrong",
        HTTP_ACCEPT_LANGUAGE="es",
    )
    assert answer.status_code == 401
    assert answer.json()["error"].startswith("El token de API es incorrecto o ha sido revocado")


def test_a_429_page_in_spanish(gm, monkeypatch):
    monkeypatch.setattr(throttle, "clock", lambda: 1_800_000_000.0)
    client = Client(HTTP_ACCEPT_LANGUAGE="es")
    for _ in range(10):
        client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    response = client.post(reverse("login"), {"username": "gm", "password": "wrong"})
    assert response.status_code == 429
    page = text_of(response)
    assert (
        "Demasiados inicios de sesión fallidos en esta cuenta (10 en 15 minutos). "
        "Vuelve a intentarlo en 15 minutos, a las 08:15 UTC." in page
    )
    assert "Too many" not in page


def test_a_long_texts_length_is_grouped_as_the_language_writes_it(french):
    data = json.loads(BROGO) | {"notes": "x" * 20_001}
    page = refusal(french, json.dumps(data))
    assert "notes\u00a0: fait 20\u00a0001 caract\u00e8res\u00a0; le maximum est 20\u00a0000" in page


def test_a_notification_mail_is_in_the_readers_language(player, character, mailoutbox):
    from characters.models import Notification, Profile
    from characters.services.notifications import notifications_mail
    from tests.support.commands import send_outbox

    Profile.objects.update_or_create(user=player, defaults={"language": "fr"})
    player.email = "joueur@example.com"
    player.save(update_fields=["email"])
    notes = [
        Notification.objects.create(
            user=player, character=character, kind="approved", message=message
        )
        for message in ("Brogo est approuvé.", "Brogo gagne 1 XP.", "Brogo gagne 2 XP.")
    ]
    notifications_mail(notes[:1])
    notifications_mail(notes[1:])
    assert send_outbox() == 2
    one, two = mailoutbox
    assert one.subject == "Fairsheet\u00a0: Brogo est approuvé."
    path = f"/characters/{character.pk}/"
    assert one.body == f"Brogo est approuvé.\n\nOuvrir le personnage\u00a0: {path}"
    assert two.subject == "Fairsheet\u00a0: Brogo gagne 1 XP. (et 1 autre)"
    assert two.body.startswith(f"Brogo gagne 1 XP.\n\nOuvrir le personnage\u00a0: {path}\n\n")
