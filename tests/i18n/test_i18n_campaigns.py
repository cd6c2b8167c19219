"""The campaign pages in French and Spanish (issue 30): the campaign form, the campaign's page
as its GM and as a player, the catalogue, the house rules (refused and previewed), joining,
the history and the messages on the table. What people wrote (the campaign's name, a GM's own
catalogue entry) stays as written; the ruleset's words are the vocabulary's, and a built-in
catalogue entry is said in the language (rules.po)."""

import pytest
from django.urls import reverse
from django.utils import translation

from characters.models import Membership
from characters.selectors.campaigns import BROKEN_RULES, broken_rule
from characters.services.campaigns import (
    campaign_create,
    campaign_update_house_rules,
    catalog_entry_add,
    kind_word,
)
from characters.services.characters import character_create
from rules.rule_names import RULE_NAMES
from tests.support.builder_fixtures import *  # noqa: F403

NBSP = "\u00a0"
FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}
SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es"}


def page(client, user, url, language, **kwargs):
    client.force_login(user)
    return client.get(url, HTTP_ACCEPT_LANGUAGE=language, **kwargs).content.decode()


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", ["Nouvelle campagne", "Nom de la campagne", "Niveaux gratuits en compétence"]),
        ("es", ["Nueva campaña", "Nombre de la campaña", "Niveles de habilidad gratuitos"]),
    ],
)
def test_the_campaign_form_reads_in_the_language(client, gm, language, expected):
    html = page(client, gm, reverse("campaign_new"), language)
    for text in expected:
        assert text in html
    for english in ("Create campaign", "Free skill levels", "Every field starts at the value"):
        assert english not in html


def test_the_campaign_page_reads_in_french_for_its_gm_and_its_player(
    client, gm, player, campaign, character
):
    as_gm = page(client, gm, reverse("campaign_detail", args=[campaign.pk]), "fr")
    assert "Inviter des joueurs" in as_gm and "Enregistrer les réglages" in as_gm
    assert "Les dépenses d\u2019expérience attendent le MJ" in as_gm
    assert "joué par <bdi>player</bdi>" in as_gm
    assert "<bdi>The Watch</bdi>" in as_gm  # the campaign's name as written
    assert "Invite players" not in as_gm and "Save settings" not in as_gm

    as_player = page(client, player, reverse("campaign_detail", args=[campaign.pk]), "fr")
    assert "Mes personnages ici" in as_player and "Quitter la campagne…" in as_player
    assert "Mudge · MJ <bdi>gm</bdi>" in as_player
    assert "My characters here" not in as_player and "Leave the campaign" not in as_player


def test_the_campaign_page_reads_in_spanish(client, gm, player, campaign):
    as_gm = page(client, gm, reverse("campaign_detail", args=[campaign.pk]), "es")
    assert "Invitar a jugadores" in as_gm and "Archivar la campaña" in as_gm
    assert "Todavía no hay personajes: los de tus jugadores aparecen aquí" in as_gm
    as_player = page(client, player, reverse("campaign_detail", args=[campaign.pk]), "es")
    assert "Mis personajes aquí" in as_player and "Dejar la campaña…" in as_player
    assert "Invite players" not in as_gm and "No characters yet" not in as_player


def test_the_catalogue_says_the_rulesets_words_in_the_language(client, gm, player, campaign):
    catalog_entry_add(
        campaign=campaign,
        actor=gm,
        kind="power",
        name="Fire Bolt",
        power_kind="spell",
        difficulty="hard",
        details={"section": "Mudge 2.52", "range": "Near", "effect": "Burns"},
    )
    url = reverse("campaign_catalog", args=[campaign.pk])
    french = page(client, gm, url, "fr")
    assert f"Mudge 2.52{NBSP}: ce que dit le texte" in french
    assert "<dt>Portée</dt><dd>Near</dd>" in french  # the text's own line, quoted
    assert "Ajouter une compétence" in french and "Ajouter un don" in french
    # A built-in entry in the reader's language, its key beside it for the GM.
    assert '<bdi>Acrobatie</bdi> <small class="entry-key">(<bdi>Acrobatics</bdi>)' in french
    assert "Difficile" in french
    assert "coût 2" in french and 'aria-label="Retirer Acrobatie"' in french
    assert "<bdi>Fire Bolt</bdi>" in french  # the GM's own entry as written
    assert "Add skill" not in french and "cost 2" not in french

    spanish = page(client, player, url, "es")
    assert "Lo que puedes elegir al crear tu personaje" in spanish
    assert "Habilidades" in spanish and "Dones" in spanish
    assert "What you pick from" not in spanish


@pytest.mark.parametrize(
    ("language", "refused", "previewed"),
    [
        (
            "fr",
            "Saisissez un nombre entier.",
            ["Ce que fait ce changement", "1 personnage change de prix"],
        ),
        (
            "es",
            "Introduzca un número entero.",
            ["Qué hace este cambio", "1 personaje cambia de precio"],
        ),
    ],
)
def test_the_house_rules_form_refuses_and_previews_in_the_language(
    client, gm, campaign, character, language, refused, previewed
):
    client.force_login(gm)
    url = reverse("campaign_house_rules", args=[campaign.pk])
    answer = client.post(url, {"skill_levels": "many"}, HTTP_ACCEPT_LANGUAGE=language)
    assert answer.status_code == 400 and refused in answer.content.decode()

    preview = client.post(
        url, {"skill_levels": "65", "preview": "1"}, HTTP_ACCEPT_LANGUAGE=language
    )
    html = preview.content.decode()
    assert preview.status_code == 200
    for text in previewed:
        assert text in html
    assert "priced differently" not in html and "What this change does" not in html


def test_the_house_rules_labels_keep_the_rulesets_words(client, gm, campaign):
    html = page(client, gm, reverse("campaign_house_rules", args=[campaign.pk]), "fr")
    assert "Compétences à chaque niveau, au plus" in html
    assert "Méta-points, au plus" in html and "Racheter un défaut" in html
    assert f"Base{NBSP}: 45" in html and "Excellent" in html  # the ladder's French word
    assert "Mudge 1.5" in html  # a rule-section citation keeps its number
    spanish = page(client, gm, reverse("campaign_house_rules", args=[campaign.pk]), "es")
    assert "Número de habilidades que puede haber en cada nivel" in spanish
    assert "Metapuntos, como máximo" in spanish and "Eliminar una limitación" in spanish


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("fr", [f"Rejoindre <bdi>The Watch</bdi>{NBSP}?", "En tant que joueur"]),
        ("es", ["¿Unirte a <bdi>The Watch</bdi>?", "Como jugador, creas tus personajes"]),
    ],
)
def test_the_join_page_reads_in_the_language(client, outsider, campaign, language, expected):
    html = page(client, outsider, reverse("campaign_join", args=[campaign.invite_code]), language)
    for text in expected:
        assert text in html
    assert "As a player you make" not in html


def test_a_join_that_does_not_work_says_so_in_french(client, outsider, db):
    client.force_login(outsider)
    answer = client.get(reverse("campaign_join", args=["nothing-here"]), **FRENCH)
    assert answer.status_code == 404
    assert "Ce lien d\u2019invitation ne marche pas" in answer.content.decode()


def test_the_history_reads_in_the_language(client, gm, campaign):
    campaign_update_house_rules(campaign=campaign, actor=gm, house_rules={"skill_levels": 50})
    catalog_entry_add(campaign=campaign, actor=gm, kind="skill", name="Sailing")
    url = reverse("campaign_history", args=[campaign.pk])
    french = page(client, gm, url, "fr")
    assert "Règles maison modifiées" in french and "Entrée du catalogue ajoutée" in french
    assert f"Compétence{NBSP}: Sailing" in french and "Niveaux de compétence" in french
    assert "House rules changed" not in french and "Skill: Sailing" not in french
    spanish = page(client, gm, url, "es")
    assert "Reglas de la casa cambiadas" in spanish and "Habilidad: Sailing" in spanish


def test_the_tables_messages_are_in_the_language(client, outsider, player, campaign, character):
    client.force_login(outsider)
    joined = client.post(
        reverse("campaign_join_by_code"), {"code": campaign.invite_code}, follow=True, **FRENCH
    )
    assert f"Bienvenue dans The Watch{NBSP}!" in joined.content.decode()

    client.force_login(player)
    archived = client.post(
        reverse("character_archive", args=[character.pk]), follow=True, **SPANISH
    )
    html = archived.content.decode()
    assert "Mi mesa" in html
    assert "Brogo está archivado: lo encontrarás en Archivados en tu mesa" in html
    left = client.post(reverse("campaign_leave", args=[campaign.pk]), follow=True, **SPANISH)
    assert "Has dejado The Watch." in left.content.decode()


def test_the_previews_broken_rules_are_the_engines_in_english():
    assert {code: str(name) for code, name in BROKEN_RULES.items()} == RULE_NAMES
    with translation.override("fr"):
        assert broken_rule("too_many_skills") == "trop de compétences"
        assert broken_rule("a_new_code") == "a new code"  # not listed yet: as words


def test_a_catalogue_line_is_called_by_its_kinds_word():
    with translation.override("fr"):
        assert [kind_word(k) for k in ("skill", "power_kind", "equipment")] == [
            "compétence",
            "type de pouvoir",
            "équipement",
        ]


def test_the_house_rules_table_reads_in_the_language(client, gm, player, campaign):
    campaign_update_house_rules(
        campaign=campaign,
        actor=gm,
        house_rules={"skill_caps": {"Superb": 3}, "advancement_costs": {"gift": 5}},
    )
    url = reverse("campaign_detail", args=[campaign.pk])
    english = page(client, gm, url, "en")
    assert '<th scope="row">Advancement costs</th>' in english and "A new gift: 5" in english
    french = page(client, player, url, "fr")
    assert "Plafonds de compétences" in french and "<td>3 Excellent</td>" in french
    assert f"Nouveau don{NBSP}: 5" in french and f"Nouveau don{NBSP}: 4" in french
    assert "Mudge, avec des règles maison" in french


@pytest.mark.parametrize(
    ("language", "group", "effect"),
    [
        ("fr", "cybernétique", "Ces implants cybernétiques greffent des armes rétractables"),
        ("es", "cibernética", "Estos implantes cibernéticos injertan armas retráctiles"),
    ],
)
def test_a_built_in_powers_lines_read_in_the_language_in_the_catalogue_and_the_picker(
    client, gm, player, language, group, effect
):
    """Mudge 2.91's Claws, copied into a new campaign's catalogue: its group badge and its
    lines from the text are said in the reader's language on the catalogue page, as they
    are in the builder's power picker, not in English."""
    campaign = campaign_create(gm=gm, name="Zzz", base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    character = character_create(owner=player, name="Zzz", campaign=campaign)
    catalogue = page(client, player, reverse("campaign_catalog", args=[campaign.pk]), language)
    url = reverse("character_builder", args=[character.pk]) + "?picker=power"
    picker = page(client, player, url, language)
    for said in (catalogue, picker):
        assert f'<span class="badge">{group}</span>' in said
        assert effect in said
        assert "These cybernetics graft retractable weapons" not in said
        assert '<span class="badge">cybernetics</span>' not in said
