"""Issue 38: the rules themselves in the players' language. A character made of catalogue picks
prints on its French, Spanish and German PDFs (the sheet and the campaign pack) with no
English built-in rules name, as pdftotext reads them back; a file written with French names
imports as the canonical file; the picker finds an entry by its name in the reader's language
and in English, and posts its key. (The pages of that character are counted in the crawl,
tests/i18n/test_i18n_crawl.py.)"""

import json
import re
import subprocess
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from characters.adapters import NAMED_LISTS, character_file
from characters.rules_content import rules_name
from characters.services.character_files import character_import
from characters.sheets import sheet_for_character
from characters.wording import said
from rules.ladder import FAIR
from rules.templates import Unmet
from tests.i18n.test_i18n_crawl import (
    RULES_LANGUAGES,
    _rules_character,
    choose_language,
    english_rules_names,
    said_rules_names,
)
from tests.support.pdf_helpers import campaign_pack

pytestmark = pytest.mark.django_db
ERRORS = re.compile(r'class="[^"]*(?:error|errorlist)[^"]*"[^>]*>.{0,300}', re.S)


def pdf_text(document: bytes, tmp_path: Path) -> str:
    path = tmp_path / "sheet.pdf"
    path.write_bytes(document)
    done = subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, check=True)
    return done.stdout.decode()


def english_names_in(text: str, language: str) -> list[str]:
    return english_rules_names(language).findall(said_rules_names(language).sub("Zzz", text))


@pytest.mark.parametrize("language", RULES_LANGUAGES)
def test_the_pdfs_of_a_catalogue_character_name_no_rule_in_english(language, tmp_path):
    table = _rules_character()
    character = table["character"]
    reader = Client()
    reader.force_login(table["player"])
    choose_language(reader, language)
    sheet = reader.get(reverse("character_sheet_pdf", args=[character.pk]))
    assert sheet.status_code == 200 and sheet["Content-Type"].startswith("application/pdf")
    text = pdf_text(sheet.content, tmp_path)
    with translation.override(language):
        assert rules_name("Climbing") in text.replace("\u00ad", "")  # the picks are there
        pack = campaign_pack("Zzz", [sheet_for_character(character)])
    assert english_names_in(text, language) == []
    assert english_names_in(pdf_text(pack, tmp_path), language) == []


def test_a_file_written_with_french_names_imports_as_the_canonical_file():
    table = _rules_character()
    canonical = character_file(table["draft"])
    french = json.loads(json.dumps(canonical))
    with translation.override("fr"):
        for list_name in NAMED_LISTS:
            for entry in french.get(list_name) or ():
                entry["name"] = rules_name(entry["name"])
    names = {e["name"] for name in NAMED_LISTS for e in french.get(name) or ()}
    assert {"Escalade", "Force"} <= names and "Climbing" not in names  # a French file
    with translation.override("fr"):
        imported, _report = character_import(owner=table["player"], text=json.dumps(french))
    assert character_file(imported) == canonical
    assert imported.traits.filter(name="Climbing").exists()
    # And back out the same, in any language: the file is language-neutral.
    for language in RULES_LANGUAGES:
        with translation.override(language):
            assert character_file(imported) == canonical


@pytest.mark.parametrize("language", RULES_LANGUAGES)
def test_the_picker_finds_an_entry_by_either_name_and_posts_its_key(language):
    table = _rules_character()
    reader = Client()
    reader.force_login(table["player"])
    choose_language(reader, language)
    url = reverse("character_builder", args=[table["draft"].pk])
    page = reader.get(url, {"picker": "skill"}).content.decode()
    with translation.override(language):
        said = rules_name("Lockpicking")
    assert said != "Lockpicking"
    # What the search matches (static/js/fairsheet.js reads data-name), what is shown, what
    # Add posts: the key, here of an entry the draft lacks (it has Lockpicking already,
    # which the picker says in the reader's language).
    assert f'data-name="{"lockpicking " + said.lower()}"' in page.replace("&#x27;", "'")
    assert f"<bdi>{said}</bdi>" in page
    assert 'name="name" value="Lockpicking"' not in page
    with translation.override(language):
        assert (
            f'<small class="pick-taken">{translation.gettext("Already on the list")}</small>'
            in page
        )
    assert 'name="name" value="Swimming"' in page
    # A name typed in the add row in the reader's language is saved by its key.
    table["draft"].refresh_from_db()
    response = reader.post(
        reverse("trait_add", args=[table["draft"].pk, "skill"]),
        {
            "name": rules_name_in(language, "Swimming"),
            "level": FAIR,
            "version": table["draft"].version,
        },
    )
    assert response.status_code in (200, 302), ERRORS.findall(response.content.decode())
    assert table["draft"].traits.filter(name="Swimming").exists()


def rules_name_in(language: str, name: str) -> str:
    with translation.override(language):
        return rules_name(name)


@pytest.mark.parametrize(
    "unmet",
    [
        Unmet(kind="gift", name="Absolute Direction", need="", have=""),
        Unmet(kind="skill", name="Climbing", need="Good", have=""),
        Unmet(kind="skill", name="Climbing", need="Good", have="Fair"),
    ],
    ids=["take", "add", "raise"],
)
@pytest.mark.parametrize("language", ["fr", "de"])
def test_a_templates_minimum_names_the_trait_as_the_rows_do(unmet, language):
    """Mudge 6.4's minimums in the reader's language, the trait's name too (the engine marks
    it a rules name: tests/rules/test_message_names.py)."""
    with translation.override(language):
        shown = rules_name(unmet.name)
        text = said(unmet.phrase)
    assert shown != unmet.name and shown in text, text
    assert unmet.name not in text, text


@pytest.mark.parametrize(("language", "race"), [("fr", "Halfelin"), ("es", "Mediano")])
def test_a_race_from_a_template_reads_in_the_language_wherever_the_character_is_shown(
    language, race, tmp_path
):
    """The Halfling template stores its race by its key, "Halfling", as it does its fault:
    the sheet, its PDF, the statblock and the GM's review say it as they say the fault."""
    table = _rules_character()
    character = table["character"]
    character.race = "Halfling"
    character.save(update_fields=["race"])
    pages = []
    for user, name in ((table["player"], "character_sheet"), (table["gm"], "character_review")):
        reader = Client()
        reader.force_login(user)
        choose_language(reader, language)
        pages.append(reader.get(reverse(name, args=[character.pk])).content.decode())
    statblock = reverse("character_statblock_download", args=[character.pk, "txt"])
    pages.append(reader.get(statblock).content.decode())
    pdf = reader.get(reverse("character_sheet_pdf", args=[character.pk])).content
    pages.append(pdf_text(pdf, tmp_path))
    for page in pages:
        assert race in page
        assert "Halfling" not in page
