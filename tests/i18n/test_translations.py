"""Fairsheet in French and Spanish (issue 30; docs/translations.md): every shipped catalogue
complete, the built-in rulesets' words all translatable, the report in English unless asked
(`check_character --lang`, the endpoint's Accept-Language), a language choice that sticks,
numbers in the language's own form, notifications in the player's language."""

import ast
import json
import re
import shutil
import subprocess
import sys
from fractions import Fraction
from io import StringIO
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.core.management import call_command
from django.template import Context, Template
from django.test import Client
from django.urls import reverse
from django.utils import translation

from characters import vocabulary
from characters.models import Equipment, Notification, PowerKind, Profile
from characters.services.accounts import account_language_set
from characters.services.review import character_approve, character_submit
from characters.wording import SPEAKER, said
from rules.catalog import POWER_DETAILS, USE_COST_LABELS, CatalogPower
from rules.character import EQUIPMENT_KINDS, PERSONALITY_QUESTIONS
from rules.check import check_file, check_text
from rules.ladder import WORDS
from rules.rulesets import BUILTIN, DIFFICULTIES, LEVELS, Terms
from rules.trades import amount_phrase
from rules.words import Level, Noun, say
from tests.support.builder_fixtures import *  # noqa: F403

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "rules" / "samples").glob("*.json"))
BROGO = ROOT / "rules" / "samples" / "brogo.json"
SHIPPED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]
BRACES = re.compile(r"\{(\w*)\}")
PERCENT = re.compile(r"%\((\w+)\)s")


# -- the catalogues ---------------------------------------------------------------------------


def catalogue(language: str) -> polib.POFile:
    return polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))


def placeholders(text: str) -> tuple[set, set]:
    return set(BRACES.findall(text)), set(PERCENT.findall(text))


@pytest.mark.parametrize("language", SHIPPED)
def test_a_shipped_catalogue_has_no_untranslated_or_fuzzy_entry(language):
    po = catalogue(language)
    assert len(po) > 250  # the whole catalogue was read, not an empty file
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    assert untranslated == [], f"{language}: untranslated entries"
    assert fuzzy == [], f"{language}: fuzzy entries"
    assert not po.metadata_is_fuzzy
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    for entry in po.translated_entries():
        if entry.msgid_plural:
            assert sorted(entry.msgstr_plural) == list(range(forms)), entry.msgid
            said_forms = entry.msgstr_plural.values()
            english = placeholders(entry.msgid_plural)
        else:
            said_forms = [entry.msgstr]
            english = placeholders(entry.msgid)
        for text in said_forms:
            assert text, entry.msgid
            # Every placeholder kept, none invented (a plural's count may be left out).
            assert placeholders(text) == english or (
                entry.msgid_plural and placeholders(text) <= english
            ), (language, entry.msgid, text)


def test_the_completeness_check_finds_an_untranslated_and_a_fuzzy_entry(tmp_path):
    po = catalogue("fr")
    po[0].msgstr = ""
    po[1].flags.append("fuzzy")
    po.save(str(tmp_path / "django.po"))
    broken = polib.pofile(str(tmp_path / "django.po"))
    assert [e.msgid for e in broken.untranslated_entries()] == [po[0].msgid]
    assert [e.msgid for e in broken.fuzzy_entries()] == [po[1].msgid]


# The calls makemessages collects a message from (its command adds the engine's `say`).
GETTEXT_CALLS = {
    "_",
    "gettext",
    "gettext_lazy",
    "gettext_noop",
    "pgettext",
    "pgettext_lazy",
    "ngettext",
    "ngettext_lazy",
    "npgettext",
    "npgettext_lazy",
    "say",
    "say_plural",
}
# What makemessages reads to make the catalogues (it skips tests/ and bench/).
COLLECTED = ("manage.py", "config", "characters", "rules", "templates", "locale")


def gettext_calls_in_f_strings(source: str, name: str) -> list[str]:
    """Each `_("…")` (or any of GETTEXT_CALLS) inside an f-string of `source`: xgettext reads
    an f-string as one string literal, so the message inside is never collected."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.JoinedStr):
            for call in ast.walk(node):
                if isinstance(call, ast.Call) and getattr(call.func, "id", None) in GETTEXT_CALLS:
                    found.append(f"{name}:{call.lineno} {ast.unparse(call)}")
    return found


def test_no_message_is_marked_inside_an_f_string():
    """The next makemessages would drop such a message from every catalogue, and the page
    would say it in English: the status panel's "Spend 1" and 16 more once did. Said before
    the f-string, it is collected."""
    found = [
        hit
        for folder in ("config", "characters", "rules")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for hit in gettext_calls_in_f_strings(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_f_string_check_finds_a_message_inside_one():
    source = 'label = f"<b>{_(\'Spend 1\')}</b>"\nsaid = _("Spend 1")\n'
    assert gettext_calls_in_f_strings(source, "x.py") == ["x.py:1 _('Spend 1')"]


def entries_of(path: Path) -> dict:
    """A catalogue's entries, (context, English, plural) -> (translation, plural forms,
    flags), and its obsolete ones under "obsolete"."""
    po = polib.pofile(str(path))
    kept = {
        (e.msgctxt, e.msgid, e.msgid_plural): (e.msgstr, sorted(e.msgstr_plural.items()), e.flags)
        for e in po
        if not e.obsolete
    }
    return {**kept, "obsolete": sorted(e.msgid for e in po if e.obsolete)}


def test_the_catalogues_are_what_makemessages_makes(tmp_path):
    """docs/translations.md: after a change to English text, makemessages and translate. Run on
    a copy of the code, it finds every message the catalogues hold and no other: none would go
    obsolete (a message the code still says, that xgettext could not read) and none comes in
    empty (a message nobody translated)."""
    copy = tmp_path / "fairsheet"
    copy.mkdir()
    for name in COLLECTED:
        source = ROOT / name
        if source.is_dir():
            ignored = shutil.ignore_patterns("__pycache__", "*.mo")
            shutil.copytree(source, copy / name, ignore=ignored)
        else:
            shutil.copy2(source, copy / name)
    made = subprocess.run(
        [sys.executable, "manage.py", "makemessages", *(f"--locale={code}" for code in SHIPPED)],
        cwd=copy,
        capture_output=True,
        text=True,
        check=False,
    )
    said = made.stdout + made.stderr  # makemessages passes xgettext's warnings on to stdout
    assert made.returncode == 0, said
    assert "warning" not in said, said  # xgettext could not read some of the code
    for language in SHIPPED:
        for domain in ("django", "rules"):
            where = Path("locale") / language / "LC_MESSAGES" / f"{domain}.po"
            assert entries_of(copy / where) == entries_of(ROOT / where), where


def builtin_words():
    """(kind, word) of every word a built-in ruleset shows, beside its ladder."""
    for ruleset in BUILTIN.values():
        terms = ruleset.terms
        yield "ruleset", ruleset.name
        yield "game master", terms.gm
        if terms.points:
            yield "points", terms.points
        yield "cost unit", terms.cost_unit
        yield "equipment value", terms.weapon_value
        yield "equipment value", terms.armour_value
        for note in (terms.equipment_hint, terms.personality_hint, terms.dice_note):
            if note:
                yield "ruleset note", note
        for title, _noun in terms.lists.values():
            yield "list title", title
        for kind in ruleset.power_kinds:
            yield "power kind", kind
        if ruleset.advancement:
            yield "experience unit", ruleset.advancement.unit
        if ruleset.harm:
            yield "harm", ruleset.harm.title
            yield "harm", ruleset.harm.caused_by
            for wound in ruleset.harm.track:
                yield "wound", wound.name
            if ruleset.harm.note:
                yield "ruleset note", ruleset.harm.note
    for difficulty in DIFFICULTIES:
        yield "difficulty", difficulty.replace("_", " ")
    for _key, question in PERSONALITY_QUESTIONS:
        yield "personality question", question
    for kind in USE_COST_LABELS:  # every line of a sample power, labelled
        lines = {name: "x" for name in POWER_DETAILS}
        for label, _value in CatalogPower("Sample", kind, **lines).details():
            yield "power detail", label


def test_every_word_of_the_builtin_rulesets_has_a_translation():
    missing = [(k, w) for k, w in builtin_words() if w not in vocabulary.TERMS[k]]
    assert missing == []
    assert tuple(vocabulary.LADDER) == WORDS
    nouns = {
        (noun, title.lower()) for r in BUILTIN.values() for title, noun in r.terms.lists.values()
    }
    assert nouns <= set(vocabulary.NOUNS)
    assert {one for one, _many in nouns} <= set(vocabulary.WITH_ARTICLE)
    # What the budgets are counted in: '3 skill levels' is '3 niveaux de compétence'.
    units = {
        r.terms.pool_words(pool)
        for r in BUILTIN.values()
        for pool in (("attributes", "skills", "gifts", "faults") if r.system == LEVELS else ())
    } | {BUILTIN["microfudged-dip"].terms.pool_words("tokens")}
    assert units <= set(vocabulary.NOUNS)


def test_the_apps_kinds_of_equipment_and_power_are_the_rules_and_each_has_its_word():
    assert tuple(Equipment.Kind) == EQUIPMENT_KINDS
    assert set(PowerKind) == {kind for r in BUILTIN.values() for kind in r.power_kinds}
    assert set(vocabulary.TERMS["equipment kind"]) == set(EQUIPMENT_KINDS)
    assert set(vocabulary.TERMS["power kind"]) == set(PowerKind)
    with translation.override("fr"):
        said_words = [vocabulary.term(kind, "equipment kind") for kind in EQUIPMENT_KINDS]
        assert said_words == ["arme", "armure", "bouclier", "matériel"]
        assert vocabulary.term("field", "power kind") == "domaine"


def test_an_amount_is_said_in_the_languages_words_and_a_gms_as_written():
    knacks = Terms(lists={"skills": ("Knacks", "knack")})
    with translation.override("fr"):
        assert said(amount_phrase(3, "skills")) == "3 niveaux de compétence"
        assert said(amount_phrase(1, "tokens")) == "1 jeton"
        assert said(amount_phrase(2, "skills", knacks)) == "2 knack levels"
    assert str(amount_phrase(1, "skills", knacks)) == "1 knack level"


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("fr", ["Lamentable", "Mauvais", "Moyen", "Très bon", "Excellent", "Légendaire"]),
        ("es", ["Terrible", "Pobre", "Normal", "Grande", "Excelente", "Legendario"]),
    ],
)
def test_the_ladder_reads_in_the_communities_words(language, words):
    with translation.override(language):
        said_words = [vocabulary.ladder_word(w) for w in WORDS[1:]]
    assert [said_words[i] for i in (0, 1, 3, 5, 6, 7)] == words


# -- engine messages --------------------------------------------------------------------------


def test_a_phrase_is_english_by_default_and_said_in_the_active_language():
    ruleset = BUILTIN["mudge"]
    phrase = say(
        "Only {limit} {nouns} may be {level}; {count} are ({names}). Lower {over} of them.",
        limit=1,
        nouns=Noun("attribute", "attributes", 1),
        level=Level(3, ruleset.ladder),
        count=2,
        names="Strength, Dexterity",
        over=1,
    )
    english = "Only 1 attribute may be Superb; 2 are (Strength, Dexterity). Lower 1 of them."
    assert str(phrase) == english
    assert said(phrase) == english  # English is active: the same words
    with translation.override("fr"):
        assert said(phrase) == (
            "Au plus 1 caractéristique au niveau Excellent\u00a0; il y en a 2 "
            "(Strength, Dexterity). Baissez-en 1."
        )
    with translation.override("es"):
        assert said(phrase) == (
            "Como máximo 1 atributo en Excelente; hay 2 (Strength, Dexterity). Baja 1."
        )


def test_a_gms_own_ladder_and_words_stay_as_written():
    from rules.ladder import Ladder

    heroic = Ladder(words=("Terrible", "Poor", "Fair", "Good", "Superb", "Heroic"), fair=2)
    phrase = say("{level} or {other}", level=Level(2, heroic), other=Level(3, heroic))
    noun = Noun("talent", "talents", 3)
    with translation.override("fr"):
        assert said(phrase) == "Superb or Heroic"  # not one word French, the next English
        assert SPEAKER.noun(noun) == "talents"
        assert SPEAKER.level(Level(6, BUILTIN["mudge"].ladder)) == "Légendaire+2"


def test_a_gms_own_noun_keeps_its_english_article_on_an_english_page():
    phrase = say(
        "make it {a_skill} or {an_attribute}",
        a_skill=Noun("knack", "knacks", 1, article=True),
        an_attribute=Noun("attribute", "attributes", 1, article=True),
    )
    assert said(phrase) == str(phrase) == "make it a knack or an attribute"
    with translation.override("fr"):  # no English article in a French sentence
        assert said(phrase) == "make it knack or une caractéristique"


def test_plural_forms_follow_the_language():
    half = amount_phrase(Fraction(3, 2), "faults")
    assert str(half) == "1.5 faults"
    with translation.override("fr"):
        assert said(half) == "1,5 défaut"  # French: below 2 is singular
    with translation.override("es"):
        assert said(half) == "1,5 limitaciones"


def test_the_english_speaker_and_the_catalogue_give_the_same_english_report():
    for path in SAMPLES:
        assert check_file(path, speaker=SPEAKER).report == check_file(path).report


# -- the check command and the endpoint -------------------------------------------------------


def check_command(*args) -> dict:
    out = StringIO()
    with pytest.raises(SystemExit):  # brogo breaks a rule: exit code 1
        call_command("check_character", str(BROGO), *args, stdout=out, stderr=StringIO())
    return json.loads(out.getvalue())


def issues(report: dict) -> list:
    return [
        (i["code"], i.get("trait"), i["section"]) for i in report["errors"] + report["warnings"]
    ]


def test_check_character_speaks_french_with_lang_fr_and_english_without():
    english, french = check_command(), check_command("--lang", "fr")
    assert english == check_file(BROGO).report  # the contract's words, unchanged
    assert issues(french) == issues(english)  # codes, traits and section numbers never change
    assert {k: v for k, v in french.items() if k not in ("errors", "warnings")} == {
        k: v for k, v in english.items() if k not in ("errors", "warnings")
    }
    assert [i["message"] for i in french["errors"]] == [
        "Budget dépassé de 20 niveaux de compétence\u00a0: baissez ou retirez des traits pour "
        "autant, ou prenez un défaut (1 défaut = 6 niveaux de compétence)."
    ]


def test_check_character_refuses_a_language_it_does_not_have():
    from django.core.management import CommandError

    with pytest.raises(CommandError, match="use one of en-gb, fr, es"):
        call_command("check_character", str(BROGO), "--lang", "tlh", stdout=StringIO())


@pytest.mark.django_db
def test_the_check_endpoint_speaks_the_requests_language(player):
    from characters.services.api_tokens import api_token_create

    token = api_token_create(user=player, name="script")[1]
    api, body = Client(), BROGO.read_bytes()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    english = api.post(reverse("character_check"), body, "application/json", **auth)
    assert english.json() == check_text(body).report
    spanish = api.post(
        reverse("character_check"), body, "application/json", HTTP_ACCEPT_LANGUAGE="es", **auth
    )
    assert spanish["Content-Language"] == "es"
    assert issues(spanish.json()) == issues(english.json())
    assert spanish.json()["errors"][0]["message"].startswith(
        "Presupuesto superado en 20 niveles de habilidad"
    )


# -- pages ---------------------------------------------------------------------------------


def test_the_browsers_language_is_the_default(client, db):
    page = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")
    assert '<html lang="fr">' in page.text
    assert "Se connecter" in page.text and "Log in" not in page.text
    assert '<html lang="en-gb">' in client.get(reverse("login")).text


def test_a_language_chosen_in_the_header_sticks_and_the_account_keeps_it(client, player):
    client.force_login(player)
    chosen = client.post(reverse("language_set"), {"language": "fr", "next": reverse("account")})
    assert chosen.status_code == 302 and chosen["Location"] == reverse("account")
    assert chosen.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    assert Profile.objects.get(user=player).language == "fr"
    account = client.get(reverse("account"), HTTP_ACCEPT_LANGUAGE="es")
    assert "Votre compte" in account.text and '<option value="fr" lang="fr" selected>' in (
        account.text
    )

    # Another browser, in Spanish, with a Spanish cookie: the account's French wins at log-in.
    elsewhere = Client(HTTP_ACCEPT_LANGUAGE="es")
    elsewhere.cookies[settings.LANGUAGE_COOKIE_NAME] = "es"
    logged_in = elsewhere.post(
        reverse("login"), {"username": "player", "password": "pw-player-12345"}
    )
    assert logged_in.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    table = elsewhere.get(reverse("dashboard"))
    assert "Ma table" in table.text and "Mes personnages" in table.text
    # Logged out, the browser keeps reading French (the cookie followed the account).
    elsewhere.post(reverse("logout"))
    assert "Se connecter" in elsewhere.get(reverse("home")).text


def test_a_visitor_chooses_a_language_without_an_account(client, db):
    answer = client.post(reverse("language_set"), {"language": "es", "next": "/"})
    assert answer["Location"] == "/" and Profile.objects.count() == 0
    assert "Iniciar sesión" in client.get(reverse("home")).text
    # A language Fairsheet has not, or a next leading off the site: nothing changes, no error.
    refused = client.post(
        reverse("language_set"), {"language": "xx", "next": "https://elsewhere.example/"}
    )
    assert refused.status_code == 302 and refused["Location"] == reverse("home")
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "es"


PASSWORD = "Pw-long-enough-42"


def test_a_language_chosen_before_signing_up_is_the_new_accounts(client, db):
    client.post(reverse("language_set"), {"language": "fr", "next": "/"})
    client.post(
        reverse("signup"),
        {
            "username": "nouvelle",
            "password1": "Pw-long-enough-42",
            "password2": "Pw-long-enough-42",
        },
    )
    assert Profile.objects.get(user__username="nouvelle").language == "fr"


@pytest.mark.parametrize("language", ["fr", "es"])
def test_numbers_are_written_the_languages_way(language):
    rendered = Template("{{ value|floatformat:1 }}").render(Context({"value": 1.5}))
    assert rendered == "1.5"
    with translation.override(language):
        assert Template("{{ value|floatformat:1 }}").render(Context({"value": 1.5})) == "1,5"
        assert SPEAKER.number(Fraction(1, 2)) == "0,5"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("home", ["Des personnages équilibrés, créés ensemble.", "Règles intégrées"]),
        ("login", ["Pas encore de compte", "Inscrivez-vous"]),
        ("signup", ["Créer mon compte"]),
    ],
)
def test_the_first_pages_read_in_french(client, db, name, expected):
    page = client.get(reverse(name), HTTP_ACCEPT_LANGUAGE="fr")
    for text in expected:
        assert text in page.text
    assert "Fairsheet crée des personnages pour Fudge" in page.text  # the footer


def test_a_missing_page_and_a_wrong_method_say_so_in_french(player_client):
    french = {"HTTP_ACCEPT_LANGUAGE": "fr"}
    player_client.post(reverse("language_set"), {"language": "fr"})
    missing = player_client.get("/nowhere/", **french)
    assert missing.status_code == 404 and "Introuvable" in missing.text
    assert "Il n\u2019y a rien ici" in missing.text
    wrong = player_client.get(reverse("language_set"))
    assert wrong.status_code == 405
    assert "Cette adresse n\u2019accepte pas de GET" in wrong.text


# -- notifications ----------------------------------------------------------------------------


def test_the_headers_unread_count_is_said_in_the_language(player_client, character, player):
    Notification.objects.create(user=player, character=character, kind="approved", message="x")
    page = player_client.get(reverse("dashboard"), HTTP_ACCEPT_LANGUAGE="fr")
    assert 'aria-label="Notifications, 1 non lue"' in page.text
    assert '<span class="badge count" aria-hidden="true">1</span>' in page.text


def test_a_notification_is_kept_in_the_players_language(gm, player, character):
    account_language_set(user=player, language="es")
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None)
    note = Notification.objects.get(user=player)
    assert note.message == "gm ha aprobado a Brogo."
    assert note.get_kind_display() == "Approved"  # the page says the kind in its own language


@pytest.mark.django_db
def test_a_request_leaves_no_empty_catalogue_behind_a_language(client):
    """characters.languages.drop_empty_fallbacks: the header-only catalogues Django chains
    behind British English (one per Django app) are gone once a request has started, and
    every word still reads as before."""
    from django.utils.translation import trans_real

    def empty_behind(code):
        link = trans_real.translation(code)
        while (link := getattr(link, "_fallback", None)) is not None:
            if isinstance(link._catalog, dict) and set(link._catalog) <= {""}:
                yield link

    trans_real._translations.clear()  # as Django does when a setting they read changes
    assert len(list(empty_behind("en-gb"))) >= 1
    client.get("/")
    for code, _name in settings.LANGUAGES:
        assert not list(empty_behind(code)), code
    with translation.override("fr"):
        assert (translation.gettext("Log in"), translation.pgettext("dice log line", "roll")) == (
            "Se connecter",
            "jet",
        )
    with translation.override("en-gb"):
        assert translation.gettext("Log in") == "Log in"
