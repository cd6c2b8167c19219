"""The builder in French and Spanish (issue 30): its page, pickers, template preview and an
edit's answer, for Mudge and MicroFudged DIP. English is the source: test_builder.py and the
others keep asserting it word for word."""

import re

import pytest
from django.urls import reverse

from characters.models import Trait
from characters.services.characters import character_create
from rules.ladder import FAIR, GOOD, LEGENDARY, SUPERB
from tests.support.builder_fixtures import *  # noqa: F403

HTMX = {"HTTP_HX_REQUEST": "true"}

# What the page says in each language, and English it must no longer say.
MUDGE_PAGE = {
    "fr": [
        "Personnalité et histoire",
        "Toutes les règles sont respectées.",
        'placeholder="Ajouter une compétence…"',
        "Caractéristiques",
        "Très bon",  # the ladder in the level selects
        "Ce que cela coûte à la création",
        "Monter Force à Bon : coûte 1 niveau de caractéristique",
        "Traits en suspens",
        "Choisissez une classe ou une race…",
        "Ce que votre MJ propose : compétences, dons, défauts et équipement, avec leurs notes",
        "Mudge 1.35 : répondez à ce qui aide le personnage à prendre vie",
    ],
    "es": [
        "Personalidad e historia",
        "Se cumplen todas las reglas.",
        'placeholder="Añadir una habilidad…"',
        "Atributos",
        "Grande",
        "Lo que cuesta en la creación",
        "Subir Fuerza a Bueno: cuesta 1 nivel de atributo",
        "Rasgos pendientes",
        "Elige una clase o raza…",
        "Lo que tu DJ ofrece: habilidades, dones, limitaciones y equipo, con sus notas",
        "Mudge 1.35: responde lo que ayude a dar vida al personaje",
    ],
}
ENGLISH = [
    "Personality and history",
    "Every rule is kept.",
    "Add a skill…",
    "What this costs at creation",
    "Raise Strength to Good",
    "Uncommitted traits",
    "Choose a class or race…",
    "Save details",
    ">Great<",
    "skill levels",
]


def builder(client, character, language, query=""):
    url = reverse("character_builder", args=[character.pk]) + query
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_mudge_builder_reads_in_the_language(player_client, character, language):
    page = builder(player_client, character, language)
    for text in MUDGE_PAGE[language]:
        assert text in page
    for text in ENGLISH:
        assert text not in page


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            [
                "MicroFudged DIP (jetons)",
                "Domaines d\u2019expertise",
                "Ajouter un domaine d\u2019expertise…",
                "11 jetons",
                "1 règle enfreinte",
                "Cartes de défense",
                "(8 entrées)",  # the equipment picker's count, a plural: issue 30's 500
            ],
        ),
        (
            "es",
            [
                "MicroFudged DIP (fichas)",
                "Campos de pericia",
                "Añadir un campo de pericia…",
                "11 fichas",
                "1 regla incumplida",
                "Cartas de defensa",
                "(8 entradas)",
            ],
        ),
    ],
)
def test_the_microfudged_dip_builder_reads_in_the_language(
    player_client, player, language, expected
):
    jim = character_create(owner=player, name="Jim", ruleset="microfudged-dip")
    page = builder(player_client, jim, language)
    for text in expected:
        assert text in page
    for text in ("Fields of expertise", "1 rule broken", "entries)", "11 tokens"):
        assert text not in page


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            [
                "Chercher dans la liste « équipement »",
                "ne coûte rien sur le budget ; ses valeurs entrent dans vos facteurs de dégâts",
                "Cartes de défense +1",
                ">Armure<",  # a kind standing as a badge: a label, capitalised (issue 39)
                "<bdi>Bouclier</bdi>",  # the catalogue's entries and notes too (issue 38)
                "Option\u00a0: boucliers, +1 carte de Défense",
            ],
        ),
        (
            "es",
            [
                "Buscar en la lista «equipo»",
                "no cuesta nada del presupuesto; sus valores van a tus factores de daño",
                "Cartas de defensa +1",
                ">Armadura<",
                "<bdi>Escudo</bdi>",
                "Opción: escudos, +1 carta de Defensa",
            ],
        ),
    ],
)
def test_the_equipment_picker_reads_in_the_language(player_client, player, language, expected):
    jim = character_create(owner=player, name="Jim", ruleset="microfudged-dip")
    url = reverse("character_builder", args=[jim.pk]) + "?picker=equipment"
    picker = player_client.get(url, HTTP_ACCEPT_LANGUAGE=language, **HTMX)
    assert picker.status_code == 200
    for text in expected:
        assert text in picker.text
    assert "costs nothing from the budget" not in picker.text
    assert "Option: Shields" not in picker.text
    # The Add button still posts the entry's key: files and the database keep the English.
    assert 'name="name" value="Shield"' in picker.text


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        # A hard skill at Mediocre, the picker's "Add at": 2 (3 at Fair, Mudge 1.62).
        ("fr", ["(1 entrée)", "En l\u2019ajoutant : à Médiocre, coûte 2 niveaux de compétence"]),
        ("es", ["(1 entrada)", "Al añadirlo: a Mediocre cuesta 2 niveles de habilidad"]),
    ],
)
def test_the_skill_picker_reads_in_the_language(player_client, character, language, expected):
    page = builder(player_client, character, language, "?picker=skill")
    for text in expected:
        assert text in page
    assert "Adding it:" not in page


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            "Aucune entrée ne correspond à « {query} »\u00a0: saisissez-la dans le champ "
            "ci-dessus pour l\u2019ajouter à la liste « compétence » comme la vôtre.",
        ),
        (
            "es",
            "Ninguna entrada coincide con «{query}»: escríbela en el campo de arriba para "
            "añadirla a la lista «habilidad» como propia.",
        ),
    ],
)
def test_a_skill_search_that_finds_nothing_says_so_in_the_language(
    player_client, character, language, expected
):
    page = builder(player_client, character, language, "?picker=skill")
    assert f'data-said="{expected}"' in page
    assert "No entry matches" not in page


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            [
                "L\u2019appliquer ajoute ou monte :",
                "Force Moyen → Très bon",
                "Compétences de combat (ajout) → Très bon",
                "Il enfreindrait une règle :",
                "Une classe large (Mudge 6.42) :",
                "Appliquer Guerrier débutant",
            ],
        ),
        (
            "es",
            [
                "Aplicarla añade o sube:",
                "Fuerza Normal → Grande",
                "Habilidades de combate (añadido) → Grande",
                "Incumpliría una regla:",
                "Una clase amplia (Mudge 6.42):",
                "Aplicar Guerrero novato",
            ],
        ),
    ],
)
def test_the_template_preview_reads_in_the_language(player_client, character, language, expected):
    page = builder(player_client, character, language, "?template=beginning-fighter")
    for text in expected:
        assert text in page
    for text in ("Applying it adds or raises", "Fair → Great", "It would break"):
        assert text not in page


@pytest.mark.parametrize(("language", "race"), [("fr", "race Halfelin"), ("es", "raza Mediano")])
def test_a_race_templates_preview_names_the_race_in_the_language(
    player_client, character, language, race
):
    page = builder(player_client, character, language, "?template=halfling")
    changes = page[page.index('class="template-changes"') :]
    changes = changes[: changes.index("</ul>")]
    assert f"<li>{race}</li>" in changes
    assert "Halfling" not in changes


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "fr",
            [
                "Enregistré. Solde 72 niveaux de compétence : un personnage conforme aux règles.",
                "Monter Force à Très bon : coûte 1 niveau de caractéristique",
                "Solde <strong>72 niveaux de compétence</strong>",
            ],
        ),
        (
            "es",
            [
                "Guardado. Saldo 72 niveles de habilidad: un personaje válido.",
                "Subir Fuerza a Grande: cuesta 1 nivel de atributo",
                "Saldo <strong>72 niveles de habilidad</strong>",
            ],
        ),
    ],
)
def test_an_edits_answer_reads_in_the_language(player_client, character, language, expected):
    strength = character.traits.get(kind=Trait.Kind.ATTRIBUTE, name="Strength")
    answer = player_client.post(
        reverse("trait_update", args=[character.pk, strength.pk]),
        {"version": character.version, "name": "Strength", "level": GOOD},
        HTTP_ACCEPT_LANGUAGE=language,
        **HTMX,
    )
    assert answer.status_code == 200
    for text in expected:
        assert text in answer.text
    assert "Saved. Balance" not in answer.text


def test_a_refused_name_says_why_in_french(player_client, character):
    strength = character.traits.get(kind=Trait.Kind.ATTRIBUTE, name="Strength")
    answer = player_client.post(
        reverse("trait_update", args=[character.pk, strength.pk]),
        {"version": character.version, "name": "Str\u202eength", "level": GOOD},
        HTTP_ACCEPT_LANGUAGE="fr",
        **HTMX,
    )
    assert answer.status_code == 400
    assert "Ce nom contient un caractère de contrôle du sens du texte (U+202E)" in answer.text


def test_the_rows_controls_are_drawn_in_each_language_not_the_first(player_client, character):
    """The row controls are drawn once and kept (forms.builder): once per language."""
    assert ">Très bon<" in builder(player_client, character, "fr")
    english = builder(player_client, character, "en")
    assert ">Great<" in english and "Très bon" not in english
    assert ">Grande<" in builder(player_client, character, "es")


def test_a_half_reads_the_languages_way_and_the_browser_still_gets_a_number(
    player_client, character
):
    Trait.objects.create(
        character=character, kind=Trait.Kind.GIFT, name="Lucky", cost="0.5", position=0
    )
    page = builder(player_client, character, "fr")
    assert "<strong>0,5</strong> / 2" in page
    assert '<progress value="0.5" max="2">' in page
    assert "½ don" in page


def test_a_stale_edit_is_refused_in_spanish(player_client, character):
    strength = character.traits.get(kind=Trait.Kind.ATTRIBUTE, name="Strength")
    url = reverse("trait_update", args=[character.pk, strength.pk])
    data = {"version": character.version, "name": "Strength", "level": GOOD}
    assert player_client.post(url, data, HTTP_ACCEPT_LANGUAGE="es", **HTMX).status_code == 200
    stale = player_client.post(url, data, HTTP_ACCEPT_LANGUAGE="es", **HTMX)
    assert stale.status_code == 409
    assert "Brogo se ha cambiado en otra pestaña o ventana" in stale.text


@pytest.mark.parametrize(
    ("language", "expected", "english"),
    [
        (
            "fr",
            [
                "(Dextérité, Constitution)",
                "Mana va avec le don Aptitude magique",
                "Force, Dextérité, Constitution, Vitesse, Intelligence",
            ],
            ["Strength", "Dexterity", "Magery"],
        ),
        (
            "es",
            [
                "(Destreza, Constitución)",
                "Mana viene con el don Aptitud mágica",
                "Fuerza, Destreza, Constitución, Velocidad, Inteligencia",
            ],
            ["Strength", "Magery"],
        ),
    ],
)
def test_a_broken_rule_names_the_traits_as_their_rows_do(
    player_client, character, language, expected, english
):
    """A rule's message names a built-in trait in the reader's words, as its row and the
    gift's remove button do, not by the catalogue's English key."""
    for name in ("Dexterity", "Constitution"):  # Mudge 1.6: at most one Superb attribute
        character.traits.filter(name=name).update(level=SUPERB)
    Trait.objects.create(
        character=character, kind=Trait.Kind.ATTRIBUTE, name="Mana", level=FAIR, position=9
    )  # without the Magery gift that brings it
    Trait.objects.create(  # not one of Mudge's attributes: the message lists them
        character=character, kind=Trait.Kind.ATTRIBUTE, name="Zzz", level=FAIR, position=10
    )
    page = builder(player_client, character, language)
    for text in expected:
        assert text in page
    errors = page[page.index('class="issues errors"') :]
    errors = errors[: errors.index("</ul>")]
    for word in english:
        assert word not in errors


def test_a_skill_added_twice_is_refused_in_the_readers_words(player_client, character):
    url = reverse("trait_add", args=[character.pk, "skill"])
    data = {"version": character.version, "name": "Climbing", "level": GOOD}
    assert player_client.post(url, data, HTTP_ACCEPT_LANGUAGE="fr", **HTMX).status_code == 200
    data["version"] = character.version + 1
    again = player_client.post(url, data, HTTP_ACCEPT_LANGUAGE="fr", **HTMX)
    assert again.status_code == 400
    assert "Brogo a déjà Escalade (compétence)" in again.text
    # The refused name stays in the add row to correct, as the reader's picker showed it.
    assert 'value="Escalade"' in again.text and 'value="Climbing"' not in again.text


@pytest.mark.parametrize("count", [1, 2])
def test_the_faults_taken_read_right_in_spanish_for_one_and_more(player_client, character, count):
    """Mudge's "Defectos" and Fudge Basics' "Limitaciones" alike: no gender, no plural to get
    wrong ("1 tomados")."""
    for position, name in enumerate(["Greedy", "Coward"][:count]):
        Trait.objects.create(
            character=character, kind=Trait.Kind.FAULT, name=name, cost=1, position=position
        )
    page = builder(player_client, character, "es")
    assert f"<strong>{count}</strong> en total" in page
    assert "tomados" not in page


def test_a_trait_out_of_bounds_is_named_in_spanish(player_client, character):
    """Mudge 1.2: no Legendary at creation. The message names the row as the row does."""
    character.traits.filter(name="Constitution").update(level=LEGENDARY)
    page = builder(player_client, character, "es")
    errors = page[page.index('class="issues errors"') :]
    errors = errors[: errors.index("</ul>")]
    assert "Constitución" in errors and "Constitution" not in errors


@pytest.mark.parametrize("language", ["en", "fr", "es", "de"])
def test_the_add_rows_placeholders_start_as_a_sentence_does(player_client, character, language):
    """German's add rows say "Eine Gabe hinzufügen…": its translation starts with the article,
    which the page capitalises, as each language's sentence starts."""
    page = builder(player_client, character, language)
    placeholders = re.findall(r'<input type="text" name="name"[^>]* placeholder="([^"]+)"', page)
    assert len(placeholders) == 6  # attributes, skills, gifts, faults, powers, equipment
    for text in placeholders:
        assert text[0].isupper(), text
    if language == "de":
        assert 'placeholder="Eine Gabe hinzufügen…"' in page
