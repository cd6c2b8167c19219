"""Issue 30, the designer's area: every section page, the design and list pages, a refused
post's problems and the rules page, in French and Spanish; the GM's own words as written."""

import html as html_text
import re

import pytest
from django.forms import HiddenInput
from django.urls import reverse
from django.utils import translation

from characters.forms.designer import SECTIONS
from characters.models import DesignedRuleset
from characters.rules_content import _catalogue
from characters.services import rulesets as services
from characters.vocabulary import LADDER, NOUNS, TERMS, ladder_word, noun
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import BUILTIN
from tests.app.test_campaigns import *  # noqa: F403
from tests.app.test_campaigns import client_for
from tests.app.test_designer_sections import beside, fields_of, page, url

pytestmark = pytest.mark.django_db


@pytest.fixture
def design(gm):
    file = ruleset_to_json(BUILTIN["mudge"])
    file.update(slug="my-mudge", name="My Mudge")
    return services.designed_ruleset_save(owner=gm, file=file).ruleset


FRENCH = {"HTTP_ACCEPT_LANGUAGE": "fr"}
# The standard trait ladder's words as the rule texts write them, none of them French.
ENGLISH_LADDER_IN_ORDER = (
    "Abysmal", "Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb", "Legendary"
)  # fmt: skip
ENGLISH_LADDER = set(ENGLISH_LADDER_IN_ORDER)


def _french_says_otherwise() -> set[str]:
    """The English of every built-in word French says otherwise: the app's words of the
    rules (vocabulary) and the rules content's names and notes (rules_content)."""
    with translation.override("fr"):
        words = {str(w) for kind in TERMS.values() for w, said in kind.items() if str(said) != w}
        words |= {one for one, many in NOUNS if noun(one, many, 1) != one}
        words |= {w for w in LADDER if ladder_word(w) != w}
        words |= {english for (_, english), said in _catalogue("fr").items() if said != english}
    return words


FRENCH_SAYS_OTHERWISE = _french_says_otherwise()
SPANISH = {"HTTP_ACCEPT_LANGUAGE": "es"}


def text(response) -> str:
    return html_text.unescape(response.content.decode())


def labels(section, language: str) -> set[str]:
    """The section's own labels (its fields, and its lists' titles) in `language`."""
    fields = [f for f in section.base_fields.values() if not isinstance(f.widget, HiddenInput)]
    rows = [part.title for part in section.parts if hasattr(part, "form")]
    with translation.override(language):
        return {str(f.label) for f in fields if f.label} | {str(title) for title in rows}


@pytest.mark.parametrize("section", list(SECTIONS))
def test_each_section_page_reads_in_french(gm, design, section):
    kind = SECTIONS[section]
    response = client_for(gm).get(url(design, section), **FRENCH)
    assert response.status_code == 200
    body = text(response)
    with translation.override("fr"):
        title, intro = translation.gettext(kind.title), translation.gettext(kind.intro)
    assert title != kind.title or (section == "equipment" and title == "Équipement")
    assert title in body and intro in body
    assert kind.intro not in body
    english = labels(kind, "en")
    for label in labels(kind, "fr"):
        assert label in body, label
    # Its English labels are gone, but for the words French writes the same way.
    same = {"Description", "Points", "Note", "Notes", "Race"}
    left = {label for label in english - same if f">{label}<" in body}
    assert not left, left
    assert "Save as a new version" not in body and "Enregistrer comme nouvelle version" in body
    assert "My Mudge" in body  # the GM's own name, as written
    # Every built-in word the game holds in English is in French wherever it is shown (a
    # field's value, a choice, a label, the sample character), as its players read it: the
    # file keeps it in English (a choice's value), said in each reader's language.
    values = re.findall(r'<input[^>]*type="text"[^>]*value="([^"]*)"', body)
    for lines in re.findall(r"<textarea[^>]*>([^<]*)</textarea>", body):
        for line in lines.splitlines():  # a name a line, or "Strength: Good"
            values += [part.strip() for part in line.split(":")]
    assert not set(values) & FRENCH_SAYS_OTHERWISE, set(values) & FRENCH_SAYS_OTHERWISE
    shown = {words.strip() for words in re.findall(r">([^<>]+)<", body)}
    assert not shown & ENGLISH_LADDER, shown & ENGLISH_LADDER


def test_a_refused_post_says_its_problems_in_french_beside_each_field(gm, design):
    client = client_for(gm)
    data = page(client, design, "ladder")
    data["words-5-word"] = ["Fair"]
    response = client.post(url(design, "ladder"), {**data, "save": "1"}, **FRENCH)
    assert response.status_code == 400
    assert "« Fair » apparaît deux fois." in beside(response, "id_words-5-word")
    body = text(response)
    assert "Non enregistré :" in body and "signalé à côté de son champ" in body
    assert "appears twice" not in body and "Not saved" not in body
    # A field that is not a number yet: the form's own words, in French too.
    harm = page(client, design, "harm")
    harm.update({"track-0-boxes": ["three"], "track-1-boxes": ["0"]})
    response = client.post(url(design, "harm"), {**harm, "save": "1"}, **FRENCH)
    assert "Doit être entre 1 et 20, pas 0." in beside(response, "id_track-1-boxes")
    assert design.versions.count() == 1


def test_a_refused_post_in_spanish(gm, design):
    client = client_for(gm)
    data = page(client, design, "sources")
    data["topic_creation"] = [""]
    response = client.post(url(design, "sources"), {**data, "save": "1"}, **SPANISH)
    assert response.status_code == 400
    assert "Es obligatorio" in beside(response, "id_topic_creation")
    assert "No se ha guardado:" in text(response)


def test_the_design_and_list_pages_read_in_spanish(gm, design):
    client = client_for(gm)
    body = text(client.get(reverse("ruleset_design", args=[design.pk]), **SPANISH))
    assert "Tu juego, versión 1" in body and "Versiones y campañas" in body
    assert "Personaje de ejemplo" in body and "con este diseño" in body
    assert "Escala de rasgos" in body and "Presupuestos y límites" in body
    assert "Your game" not in body and "Sample character" not in body
    listing = text(client.get(reverse("ruleset_designs"), **SPANISH))
    assert "Mis juegos" in listing and "Diseñar un juego nuevo" in listing
    assert "Nada: un juego en blanco" in listing and "My games" not in listing


def test_a_new_game_is_announced_in_french(gm):
    client = client_for(gm)
    response = client.post(
        reverse("ruleset_designs"),
        {"action": "start", "start": "mudge", "name": "Ma partie"},
        follow=True,
        **FRENCH,
    )
    body = text(response)
    assert "Ma partie est à vous : modifiez-le section par section." in body
    assert "Votre jeu, version 1" in body


def test_a_blank_game_starts_in_the_gms_language(gm):
    """Its attributes and the sections its checks cite are the game's own words, in German
    from the start; its ladder stays the standard one, which each player reads in theirs."""
    client_for(gm).post(
        reverse("ruleset_designs"),
        {"action": "start", "start": "blank", "name": "Drachenjagd"},
        HTTP_ACCEPT_LANGUAGE="de",
    )
    file = DesignedRuleset.objects.get(owner=gm).latest.file
    assert file["attributes"]["names"] == ["Körper", "Geist"]
    assert file["harm"]["damage_capacity_attribute"] == "Körper"
    assert file["sections"]["creation"] == "Drachenjagd, Charaktererschaffung"
    assert file["advancement"]["section"] == "Drachenjagd, Erfahrung"
    assert file["ladder"]["words"] == list(ENGLISH_LADDER_IN_ORDER)


def test_the_standard_ladder_saved_in_french_stays_standard(gm, design):
    """The ladder page shows the standard words in French; saved as shown, the file keeps
    them in English (every player reads them in their language); one word of the GM's own
    makes the ladder the GM's, kept as typed, every word as the GM read it."""
    client = client_for(gm)
    data = fields_of(client.get(url(design, "ladder"), **FRENCH))
    assert [data[f"words-{n}-word"][0] for n in range(9)] == [
        "Abyssal", "Lamentable", "Mauvais", "Médiocre", "Moyen",
        "Bon", "Très bon", "Excellent", "Légendaire",
    ]  # fmt: skip
    data["legendary_at_creation"] = ["on"]
    response = client.post(url(design, "ladder"), {**data, "save": "1"}, **FRENCH)
    assert response.status_code == 302
    file = DesignedRuleset.objects.get(pk=design.pk).latest.file
    assert file["ladder"]["words"] == list(ENGLISH_LADDER_IN_ORDER)
    assert file["ladder"]["legendary_at_creation"] is True
    data = fields_of(client.get(url(design, "ladder"), **FRENCH))
    data["words-6-word"] = ["Fort"]
    response = client.post(url(design, "ladder"), {**data, "save": "1"}, **FRENCH)
    assert response.status_code == 302
    ladder = DesignedRuleset.objects.get(pk=design.pk).latest.file["ladder"]
    assert ladder["words"] == [
        "Abyssal", "Lamentable", "Mauvais", "Médiocre", "Moyen",
        "Bon", "Fort", "Excellent", "Légendaire",
    ]  # fmt: skip
    assert ladder["creation_max"] == "Excellent"  # Superb, where it was, in the GM's words


def test_the_rules_page_reads_in_spanish(client):
    body = text(client.get(reverse("ruleset", args=["mudge"]), **SPANISH))
    assert "Presupuestos" in body and "Topes y límites" in body
    assert "Coste de habilidades, en niveles de habilidad" in body
    assert "7 atributos desde Normal con 6 niveles de atributo gratuitos" in body
    assert '<th scope="col">Muy difícil</th>' in body and "+3 Excelente" in body
    assert "Progreso (PX)" in body and "Permiso del DJ" in body
    assert "Caps and bounds" not in body and "Cost of skills" not in body
    assert "Superb" not in body and "free attribute levels" not in body


def test_a_sample_powers_and_an_items_kind_are_the_games_words_in_french(gm, design):
    """A power's kind is the word the builder's choice says ("Sort"), not its section's title
    ("Sorts"); an item's is the capitalised word of a choice."""
    client = client_for(gm)

    def options(section, select_id):
        body = text(client.get(url(design, section), **FRENCH))
        select = re.search(rf'<select[^>]*id="{select_id}"[^>]*>(.*?)</select>', body, re.S)
        return re.findall(r'<option value="([^"]*)"[^>]*>([^<]*)</option>', select.group(1))

    assert options("power-list", "id_powers-0-kind") == [
        ("spell", "Sort"),
        ("psi", "Psi"),
        ("superpower", "Superpouvoir"),
        ("field", "Domaine"),
    ]
    assert options("equipment", "id_equipment-0-kind") == [
        ("weapon", "Arme"),
        ("armour", "Armure"),
        ("shield", "Bouclier"),
        ("gear", "Matériel"),
    ]


def test_a_built_in_word_left_as_shown_stays_english_one_retyped_is_the_gms(gm, design):
    """Names of things in French: the GM's title saved as shown ("MJ") stays the built-in's
    "GM", which each player reads in their language; the points retyped in other letters
    ("Méta-points") are the GM's own word, kept as typed."""
    client = client_for(gm)
    data = fields_of(client.get(url(design, "terms"), **FRENCH))
    assert (data["gm"], data["points"], data["skills_one"]) == (
        ["MJ"],
        ["méta-points"],
        ["compétence"],
    )
    data["points"] = ["Méta-points"]
    response = client.post(url(design, "terms"), {**data, "save": "1"}, **FRENCH)
    assert response.status_code == 302
    terms = DesignedRuleset.objects.get(pk=design.pk).latest.file["terms"]
    assert (terms["gm"], terms["points"], terms["lists"]["skills"]) == (
        "GM",
        "Méta-points",
        ["Skills", "skill"],
    )
