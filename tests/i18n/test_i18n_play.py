"""Play at the table and the sheets in French and Spanish (issue 30): the play page, the GM's
party view, the dice log, the HTML sheet and a real PDF, each in the reader's language, with
numbers as the language writes them ("61,7 %"). English stays as it was: the other play and
sheet tests assert it."""

import pytest
from django.urls import reverse
from django.utils import translation

from characters import pdf
from characters.models import PlayEvent
from characters.pdf import render_sheets_pdf
from characters.print_options import PrintOptions
from characters.selectors.play import history_note, note_phrase_of
from characters.services import play as services
from characters.sheets import reference_page
from tests.support.pdf_helpers import campaign_pack, ruleset_of, sample, sheet, texts
from tests.support.play_fixtures import *  # noqa: F403 (the play fixtures: gm, player, campaign, tess)

pytestmark = pytest.mark.django_db

# Headings and sentences the English pages say, which a French or Spanish page must not.
ENGLISH_PLAY = ("Roll 4dF", "Add a condition", "Changes at the table", "Odds of 4dF", "Unhurt")
ENGLISH_SHEET = ("Equipment and gear", "Damage factors", "Personality and history", "Dice")
ENGLISH_PDF = (
    "EQUIPMENT AND GEAR",
    "DAMAGE FACTORS",
    "NOTES IN PLAY",
    "CHARACTER SHEET",
    "Player:",
    "Page 1 of",
    "Trait ladder and cost",
)


def get(client, user, url, language):
    client.force_login(user)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def post(client, user, url, language, data):
    client.force_login(user)
    return client.post(url, data, HTTP_ACCEPT_LANGUAGE=language, HTTP_HX_REQUEST="true")


class TestPlayPage:
    def test_french(self, client, player, tess):
        html = get(client, player, reverse("character_play", args=[tess.pk]), "fr")
        for said in (
            "Lancer 4dF",
            "Ajouter un état",
            "Changements à la table",
            "Probabilités de 4dF",
            "Indemne",
            "méta-points</span> en main",  # the points' name in a span of its forms
            "Compétences",
            "Escalade</span>",  # the skill in French too (issue 38)
            "Bon",  # Escalade Bon
            "<td>61,7 %</td>",  # Fudge Basics' odds of 0 or better, as French writes them
        ):
            assert said in html, said
        for english in ENGLISH_PLAY:
            assert english not in html, english

    def test_the_points_at_the_table_in_french(self, client, player, tess):
        """The points line after a spend, French punctuation too: a space before ';'."""
        services.play_points_spend(character=tess, actor=player, expected_revision=0)
        html = get(client, player, reverse("character_play", args=[tess.pk]), "fr")
        assert "sur la fiche\u00a0; à la table 1 dépensé(s), 0 rendu(s)" in html

    def test_spanish(self, client, player, tess):
        html = get(client, player, reverse("character_play", args=[tess.pk]), "es")
        for said in ("Tirar 4dF", "Añadir un estado", "Cambios en la mesa", "Ileso", "Bueno"):
            assert said in html, said
        assert "<td>61,7 %</td>" in html
        for english in ENGLISH_PLAY:
            assert english not in html, english

    def test_a_wound_and_its_news_in_french(self, client, player, tess):
        url = reverse("play_blow", args=[tess.pk])
        response = post(client, player, url, "fr", {"damage": 4})
        html = response.content.decode()
        assert "Tess : dégâts 4 : Blessé. Désormais Blessé, -1 à chaque jet" in html
        assert "-1 à tout trait logiquement touché" in html  # what Hurt means at the table
        assert "Blessé, case 1 sur 2, cochée : l\u2019effacer" in html
        assert "Hurt" not in html

    def test_a_refusal_in_spanish(self, client, player, tess):
        url = reverse("play_blow", args=[tess.pk])
        response = post(client, player, url, "es", {"damage": 0})
        assert response.status_code == 400
        assert "Un golpe de 0 no hace daño (Mudge 4.57): no se marca nada." in (
            response.content.decode()
        )


class TestPartyAndDiceLog:
    def test_the_party_in_french(self, client, gm, tess, otto):
        html = get(client, gm, reverse("campaign_party", args=[tess.campaign_id]), "fr")
        for said in ("The Watch : le groupe", "Nouvelle séance", "Traits clés", "Mains nues"):
            assert said in html, said
        for english in ("the party", "New session", "Key traits", "Unarmed"):
            assert english not in html, english

    def test_the_dice_log_in_spanish(self, client, gm, player, tess):
        services.dice_roll(character=tess, actor=player, trait="Climbing", against=1)
        services.session_start(campaign=tess.campaign, actor=gm)
        html = get(client, gm, reverse("campaign_log", args=[tess.campaign_id]), "es")
        assert "The Watch: el registro de dados" in html
        assert "Sesión 1" in html
        assert "empezada por gwen" in html
        assert "Escalada Bueno" in html  # the log keeps the key, the reader sees the skill
        assert "de alcanzarlo" in html  # "(61,7 % de alcanzarlo)", whatever the dice said
        english_words = ("the dice log", "Session 1", "rolled", "to reach it", "started by")
        for english in (*english_words, "Climbing"):
            assert english not in html, english

    def test_a_hits_damage_in_french(self, client, gm, player, tess):
        services.dice_roll(
            character=tess,
            actor=player,
            trait="Climbing",
            against=0,
            weapon="Broadsword",
            defence=0,
            randbelow=lambda _: 2,  # every die +1
        )
        html = get(client, gm, reverse("campaign_log", args=[tess.campaign_id]), "fr")
        assert "Broadsword : 5 + 3 + 0 + 1 (dé de dégâts) = 9 : Mourant" in html
        assert "damage die" not in html


class TestHTMLSheet:
    def test_french(self, client, player, tess):
        html = get(client, player, reverse("character_sheet", args=[tess.pk]), "fr")
        for said in (
            "Équipement et matériel",
            "Facteurs de dégâts",
            "Feuille de personnage Mudge",
            "Imprimer cette feuille (PDF)",
            "Échelle des traits et coût des compétences",
            "<td>61,7 %</td>",
            "Approuvé · SHA-256",
        ):
            assert said in html, said
        for english in ENGLISH_SHEET:
            assert f">{english}<" not in html, english

    def test_spanish(self, client, player, tess):
        html = get(client, player, reverse("character_sheet", args=[tess.pk]), "es")
        for said in ("Equipo y material", "Factores de daño", "Hoja de personaje de Mudge"):
            assert said in html, said
        for english in ENGLISH_SHEET:
            assert f">{english}<" not in html, english


def _pdf_text(language: str, stem: str = "brogo") -> str:
    character = sample(stem)
    with translation.override(language):
        document = render_sheets_pdf(
            [sheet(character)],
            PrintOptions(reference=True),
            [reference_page(ruleset_of(character))],
        )
    return " ".join(texts(document))


class TestPDF:
    def test_a_french_sheet(self):
        text = _pdf_text("fr")
        for said in (
            "FEUILLE DE PERSONNAGE MUDGE",
            "ÉQUIPEMENT ET MATÉRIEL",
            "FACTEURS DE DÉGÂTS",
            "NOTES EN JEU",
            "Joueur",
            "Page 1 sur 1",
            "Égratignure",
            "Très bon",
            "Mudge : échelle des traits et coûts",
        ):
            assert said in text, said
        for english in ENGLISH_PDF:
            assert english not in text, english

    def test_a_spanish_sheet(self):
        text = _pdf_text("es", "jim-bones")
        for said in (
            "HOJA DE PERSONAJE DE MICROFUDGED DIP (FICHAS)",
            "EQUIPO Y MATERIAL",
            "NOTAS DE JUEGO",
            "Jugador",
            "Página 1 de 1",
            "Fichas guardadas",
            "4 cartas",
        ):
            assert said in text, said
        for english in ENGLISH_PDF:
            assert english not in text, english

    def test_a_french_pack(self):
        with translation.override("fr"):
            brogo = sheet(sample("brogo"))
            document = campaign_pack("La Garde", [brogo], PrintOptions())
        text = " ".join(texts(document))
        assert "La Garde : dossier de campagne" in text
        assert "1 personnage approuvé" in text
        assert "Page du dossier 1 sur" in text
        assert "campaign pack" not in text

    def test_the_fonts_draw_every_letter_of_the_languages_shipped(self):
        """The PDF's fonts (static/fonts) draw French and Spanish whole: no letter of theirs
        would print as an empty box."""
        assert pdf.undrawable("éèêëàâçîïôœùûüÿæÉÈÀÇŒÑñáíóú¿¡«»\u2019") == ""


class TestHistory:
    NOTES = (
        "Hurt box marked",
        "damage 2: Scratch, in the Hurt box",
        "spent 1 of the meta points",
        "condition “stunned” removed",
        "After the fight: Scratches erased (five or ten minutes to tend them) (Mudge 4.8)",
    )

    def test_a_recorded_note_reads_as_recorded_in_english(self):
        """The templates a note kept in English only is read back with are services.play's
        own: a note it recorded, said again in English, is the note."""
        for note in self.NOTES:
            assert str(note_phrase_of(note)) == note

    def test_the_play_page_says_its_history_in_french(self, client, player, tess):
        services.play_condition_add(
            character=tess, actor=player, expected_revision=None, text="sonné"
        )
        services.play_blow_record(character=tess, actor=player, damage=1)
        html = get(client, player, reverse("character_play", args=[tess.pk]), "fr")
        assert "dégâts 1 : Égratignure" in html
        assert "état « sonné »" in html
        assert "condition “sonné”" not in html

    def test_a_note_no_template_knows_is_shown_as_recorded(self):
        with translation.override("fr"):
            assert note_phrase_of("an older wording") is None
            assert history_note(PlayEvent(note="an older wording")) == "an older wording"
