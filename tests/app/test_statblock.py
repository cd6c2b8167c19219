"""The statblock (issue 41): a character's sheet, compact, as plain text, Markdown and BBCode,
in the reader's language; on the sheet, the builder (opened in place), the shared sheet and
the party view, and as .txt and .md files, for whoever may see the character and no one else.

Every sample character (rules/samples and each built-in ruleset's designer sample) is
written in English, French and German: the three formats say the same lines, each trait
with its built-in name and its ladder word in the language ("Escalade\u00a0: Bon +1")."""

import html as html_text
import re
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from characters.rules_content import rules_name, use_gm_words
from characters.selectors.rulesets import sample_character
from characters.selectors.statblock import (
    BBCODE,
    BBCODE_TAG_BREAK,
    FORMATS,
    MARKDOWN,
    TEXT,
    statblock,
    written,
)
from characters.services.sharing import share_link_create, share_link_revoke
from characters.sheets import build_sheet
from rules.character import Character
from rules.charfile import parse_character_json
from rules.house_rules import apply_house_rules
from rules.rulesets import BUILTIN
from tests.support.play_fixtures import *  # noqa: F403

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"
SAMPLE_STEMS = sorted(path.stem for path in SAMPLES.glob("*.json"))
LANGUAGES = ("en", "fr", "de")
# The ladder in each language, as docs/translations.md's glossaries give it: written out
# here, not read from the catalogue the code reads.
LADDER = {
    "en": {w: w for w in ("Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb")},
    "fr": {
        "Terrible": "Lamentable",
        "Poor": "Mauvais",
        "Mediocre": "Médiocre",
        "Fair": "Moyen",
        "Good": "Bon",
        "Great": "Très bon",
        "Superb": "Excellent",
    },
    "de": {
        "Terrible": "Miserabel",
        "Poor": "Schwach",
        "Mediocre": "Mäßig",
        "Fair": "Ordentlich",
        "Good": "Gut",
        "Great": "Sehr gut",
        "Superb": "Hervorragend",
    },
}
SEPARATOR = {"en": ": ", "fr": "\u00a0: ", "de": ": "}  # French: a no-break space
# What each sample's statblock says, by language: names, levels, points, wounds.
SAYS = {
    "brogo": {
        "en": ["Climbing: Good +1", "Perception: Superb +3", "Elvish **: Fair 0"],
        "fr": [
            "Escalade\u00a0: Bon +1",
            "Perception\u00a0: Excellent +3",
            "Elfique **\u00a0: Moyen 0",
        ],
        "de": ["Klettern: Gut +1", "Wahrnehmung: Hervorragend +3"],
    },
    "dolores": {
        "en": ["Writing: Superb +3", "Strength: Poor -2", "Lucky (costs 2)"],
        "fr": ["Écriture\u00a0: Excellent +3", "Force\u00a0: Mauvais -2", "Chanceux (coûte 2)"],
        "de": ["Schreiben: Hervorragend +3", "Stärke: Schwach -2", "Glückspilz (kostet 2)"],
    },
    "james": {
        "en": ["Dodge: Great +2", "Electron Flow ***: Superb +3", "(Superpower): no level"],
        "fr": [
            "Esquive\u00a0: Très bon +2",
            "Flux d\u2019électrons ***\u00a0: Excellent +3",
            "sans niveau",
        ],
        "de": ["Ausweichen: Sehr gut +2"],
    },
    "jim-bones": {
        "en": ["Medicine: Fair 4 cards", "Bedside Manner: Mediocre 3 cards", "Saved tokens: 3"],
        "fr": [
            "Médecine\u00a0: Moyen 4 cartes",
            "Contact avec les patients\u00a0: Médiocre 3 cartes",
        ],
        "de": ["Medizin: Ordentlich 4 Karten", "Gesparte Marken: 3"],
    },
    "lisa-benny": {
        "en": ["Gunslinger: Good 5 cards", "Setback (Wound) (-1 card): 1 success ☐"],
        "fr": ["Pistolero\u00a0: Bon 5 cartes", "Revers (blessure) (-1 carte)\u00a0: 1 réussite ☐"],
        "de": ["Revolverheld: Gut 5 Karten", "Rückschlag (Wunde) (-1 Karte): 1 Erfolg ☐"],
    },
    "fudge-basics": {
        "en": ["Strength: Good +1", "Fudge points: 3", "Scratch: 1 ☐☐☐☐☐", "Hurt (-1): 2\u20133"],
        "fr": [
            "Force\u00a0: Bon +1",
            "Points Fudge\u00a0: 3",
            "Égratignure\u00a0: 1 ☐☐☐☐☐",
            "Blessé (-1)\u00a0: 2\u20133",
        ],
        "de": ["Stärke: Gut +1", "Fudge-Punkte: 3", "Kratzer: 1 ☐☐☐☐☐", "Verletzt (-1): 2\u20133"],
    },
    "mudge": {
        # The armour left for play, as the sheet says it after a total: German keeps the
        # noun's capital.
        "en": [
            "Acrobatics: Fair 0",
            "Meta points: 3",
            "Absolute Direction",
            "Unarmed 0",
            "Defence: Defensive 0 + armour",
        ],
        "fr": [
            "Acrobatie\u00a0: Moyen 0",
            "Méta-points\u00a0: 3",
            "Sens de l\u2019orientation",
            "Mains nues 0",
            "Défense\u00a0: Défensif 0 + armure",
        ],
        "de": [
            "Akrobatik: Ordentlich 0",
            "Metapunkte: 3",
            "Orientierungssinn",
            "Waffenlos 0",
            "Verteidigung: Defensiv 0 + Rüstung",
        ],
    },
    "microfudged-dip": {
        "en": ["Mind: Mediocre 3 cards", "Athletics: Fair 4 cards", "Saved tokens: 4"],
        "fr": ["Esprit\u00a0: Médiocre 3 cartes", "Athlétisme\u00a0: Moyen 4 cartes"],
        "de": ["Verstand: Mäßig 3 Karten", "Athletik: Ordentlich 4 Karten"],
    },
    "microfudged-streamlined": {
        "en": ["Mind: Good 5 cards", "Presence: Fair 4 cards"],
        "fr": ["Esprit\u00a0: Bon 5 cartes", "Présence\u00a0: Moyen 4 cartes"],
        "de": ["Verstand: Gut 5 Karten", "Ausstrahlung: Ordentlich 4 Karten"],
    },
}


@pytest.fixture(autouse=True)
def _no_campaigns_words():
    """A request leaves its campaign's words in the thread (GmWordsMiddleware clears them as
    the next request starts): the statblocks built here without a request start clean."""
    use_gm_words(None)


def sample(key: str) -> tuple[Character, object]:
    """A sample file's character, or a built-in ruleset's designer sample, and its rules."""
    if key in BUILTIN:
        return sample_character(BUILTIN[key]), BUILTIN[key]
    character = parse_character_json((SAMPLES / f"{key}.json").read_text()).character
    return character, apply_house_rules(BUILTIN[character.ruleset], character.house_rules)


def unmarked(text: str, format: str) -> list[str]:
    """A Markdown or BBCode statblock with its markup taken off: the plain text's lines."""
    lines = [line for line in text.splitlines() if line]
    if format == MARKDOWN:
        lines = [re.sub(r"^(### |- )", "", line) for line in lines]
        lines = [re.sub(r"^\*(.*)\*$", r"\1", line) for line in lines]
        lines = [line.replace("**", "") for line in lines]
        lines = [re.sub(r"\\(.)", r"\1", line) for line in lines]
    if format == BBCODE:
        lines = [re.sub(r"\[/?[bi]\]", "", line) for line in lines]
        lines = [line.replace(BBCODE_TAG_BREAK, "[") for line in lines]
    return lines


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("key", [*SAMPLE_STEMS, *BUILTIN])
def test_every_sample_in_three_languages(key, language):
    character, ruleset = sample(key)
    with translation.override(language):
        block = statblock(build_sheet(character, ruleset))
        text, markdown, bbcode = (written(block, f) for f in FORMATS)
        # Each trait: its built-in name in the language, then its ladder word.
        for trait in (*character.attributes, *character.skills):
            word = LADDER[language][ruleset.word(trait.level)]
            entry = rf"{re.escape(rules_name(trait.name))}[ *()\w-]*{SEPARATOR[language]}{word} "
            assert re.search(entry, text), (trait.name, word)
    for said in SAYS[key][language]:
        assert said in text, said
    name = character.name
    assert text.startswith(f"{name}\n")
    assert markdown.startswith(f"### {name}\n") and bbcode.startswith(f"[b]{name}[/b]\n")
    # The three formats say the same lines; only the markup differs.
    assert unmarked(markdown, MARKDOWN) == unmarked(bbcode, BBCODE) == text.splitlines()
    if language != "en":  # the language's own words, not the English ones
        assert "Skills" not in text and "Wounds" not in text and " Good " not in text


def test_the_built_in_samples_are_in_the_language_too():
    with translation.override("fr"):
        character, ruleset = sample("mudge")
        text = written(statblock(build_sheet(character, ruleset)), TEXT)
    assert text.startswith("Personnage d\u2019exemple\n")
    assert "Compétences (* Facile, ** Difficile, *** Très difficile)\u00a0: " in text


def test_what_a_player_typed_never_becomes_markup():
    character = Character(
        ruleset="mudge",
        name="*Star* [b]Bold[/b] <i>",
        concept="line one\nline two",
        skills=(),
    )
    block = statblock(build_sheet(character, BUILTIN["mudge"]))
    text, markdown, bbcode = (written(block, f) for f in FORMATS)
    assert text.splitlines()[:2] == ["*Star* [b]Bold[/b] <i>", "line one line two"]
    assert markdown.splitlines()[0] == r"### \*Star\* \[b\]Bold\[/b\] \<i\>"
    assert bbcode.splitlines()[0] == "[b]*Star* [\u200bb]Bold[\u200b/b] <i>[/b]"
    assert "[b]Bold" not in bbcode


# -- the pages -------------------------------------------------------------------------------


def textareas(html: str) -> dict[str, str]:
    """The statblock's textareas by format, their text as the browser reads it."""
    found = re.findall(r'<textarea id="statblock-[\w]+-(\w+)"[^>]*>(.*?)</textarea>', html, re.S)
    return {format: html_text.unescape(text) for format, text in found}


@pytest.fixture
def as_user():
    def make(user, language="en") -> Client:
        client = Client(HTTP_ACCEPT_LANGUAGE=language)
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_sheet_page_shows_it_in_the_readers_language(tess, player, as_user, language):
    html = as_user(player, language).get(reverse("character_sheet", args=[tess.pk])).content
    found = textareas(html.decode())
    assert set(found) == set(FORMATS)
    climbing = {"en": "Climbing: Good +1", "fr": "Escalade\u00a0: Bon +1", "de": "Klettern: Gut +1"}
    skills = {"en": "Skills", "fr": "Compétences", "de": "Fertigkeiten"}
    assert climbing[language] in found[TEXT]
    assert f"- **{skills[language]} (" in found[MARKDOWN]
    assert f"[b]{skills[language]} (" in found[BBCODE]
    # Without script each is a textarea to select; the script shows the Copy buttons.
    buttons = re.findall(r"<button [^>]*data-copy=[^>]*>", html.decode())
    assert len(buttons) == 3 and all(" hidden>" in button for button in buttons)
    assert "js/statblock.js" in html.decode()


def test_the_builder_opens_it_in_place(tess, player, as_user):
    client = as_user(player)
    html = client.get(reverse("character_builder", args=[tess.pk])).content.decode()
    url = reverse("character_statblock", args=[tess.pk])
    assert f'hx-get="{url}"' in html and f'<a href="{url}">Open the statblock</a>' in html
    assert reverse("character_export_fari", args=[tess.pk]) in html
    part = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "<html" not in part and "Climbing: Good +1" in textareas(part)[TEXT]
    page = client.get(url).content.decode()  # without script: a page of its own
    assert "<html" in page and "Tess: statblock" in page


def test_the_party_view_has_one_for_each_character(tess, otto, gm, as_user):
    html = as_user(gm, "fr").get(reverse("campaign_party", args=[tess.campaign_id])).content
    html = html.decode()
    tess_text = re.search(rf'id="statblock-{tess.pk}-text"[^>]*>(.*?)</textarea>', html, re.S)
    otto_text = re.search(rf'id="statblock-{otto.pk}-text"[^>]*>(.*?)</textarea>', html, re.S)
    assert "Escalade\u00a0: Bon +1" in tess_text.group(1)
    assert "Natation\u00a0: Bon +1" in otto_text.group(1)
    assert "Escalade" not in otto_text.group(1)
    assert reverse("character_statblock_download", args=[otto.pk, "md"]) in html


@pytest.mark.parametrize(
    ("extension", "content_type"), [("txt", "text/plain"), ("md", "text/markdown")]
)
def test_the_files(tess, player, as_user, extension, content_type):
    url = reverse("character_statblock_download", args=[tess.pk, extension])
    response = as_user(player, "fr").get(url)
    assert response["Content-Type"] == f"{content_type}; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="tess-statblock.{extension}"'
    text = response.content.decode()
    assert ("### Tess\n" in text) == (extension == "md")
    assert "Escalade\u00a0: Bon +1" in text


def test_an_unknown_format_is_a_404(tess, player, as_user):
    url = reverse("character_statblock_download", args=[tess.pk, "exe"])
    assert as_user(player).get(url).status_code == 404


@pytest.mark.parametrize(
    "name", ["character_statblock", "character_statblock_download", "character_export_fari"]
)
def test_only_who_may_see_the_character(tess, player, gm, other_player, outsider, as_user, name):
    args = [tess.pk, "txt"] if name == "character_statblock_download" else [tess.pk]
    url = reverse(name, args=args)
    assert as_user(player).get(url).status_code == 200  # its player
    assert as_user(gm).get(url).status_code == 200  # its campaign's GM
    assert as_user(other_player).get(url).status_code == 404  # a player at the same table
    assert as_user(outsider).get(url).status_code == 404
    anonymous = as_user(None).get(url)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith("/accounts/login/")


def test_a_share_link_has_it_until_it_is_revoked(tess, player, as_user):
    link = share_link_create(character=tess, actor=player)
    anyone = as_user(None, "de")
    page = anyone.get(reverse("shared_sheet", args=[link.token])).content.decode()
    assert "Klettern: Gut +1" in textareas(page)[TEXT]
    alone = anyone.get(reverse("shared_statblock", args=[link.token]))
    assert "Klettern: Gut +1" in textareas(alone.content.decode())[TEXT]
    assert alone["Referrer-Policy"] == "no-referrer"
    download = reverse("shared_statblock_download", args=[link.token, "txt"])
    assert reverse("shared_statblock_download", args=[link.token, "md"]) in page
    assert "Klettern: Gut +1" in anyone.get(download).content.decode()
    share_link_revoke(link=link, actor=player)
    for url in (reverse("shared_statblock", args=[link.token]), download):
        assert anyone.get(url).status_code == 404


def test_a_campaigns_own_translation_is_said(tess, player, gm, as_user):
    """A GM's catalogue translations (issue 40) reach the statblock as they reach the sheet."""
    from characters.models import CatalogEntry

    CatalogEntry.objects.create(
        campaign=tess.campaign,
        kind="skill",
        name="Climbing",
        translations={"fr": {"name": "Varappe"}},
    )
    tess.campaign.catalog_version += 1
    tess.campaign.save(update_fields=["catalog_version"])
    url = reverse("character_statblock_download", args=[tess.pk, "txt"])
    assert "Varappe\u00a0: Bon +1" in as_user(player, "fr").get(url).content.decode()
    assert "Climbing: Good +1" in as_user(player, "en").get(url).content.decode()
