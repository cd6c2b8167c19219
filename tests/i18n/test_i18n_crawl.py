"""Issue 30: no English sentence left. Every page, fragment and PDF of the demo table, as its
player, as its GM and as a signed-out visitor, in French and in Spanish, is crawled (the crawl
of tests/app/test_plain_words.py, plus the pages it leaves out), and every run of text is read
for English: at least two words only English has (the, your, with, ...) and more of them than
words of the page's language. What stays English by design is taken out first: what people
wrote (every name, note, reason and message in the database), the built-in rulesets' trait
and catalogue names (docs/translations.md: never translated), rule-section citations
("Mudge 1.62") and the product's name.

With I18N_CRAWL_OUT set to a file name, each crawl also appends what it found there as JSON
lines (each run with its names taken out), for a report that groups the runs by the template
or module that says them."""

import dataclasses
import json
import os
import re

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.template.loader import render_to_string
from django.test import Client
from django.utils import translation

from characters.forms.designer import SECTIONS
from characters.models import (
    DIFFICULTY_CHOICES,
    Campaign,
    Character,
    DesignedRuleset,
    Licence,
    Membership,
    PublishedGame,
    RulesetVersion,
    ShareLink,
    Trait,
    target_label,
)
from characters.rules_content import rules_name
from characters.selectors.advancement import GIFT, LEARN, RAISE
from characters.services.advancement import experience_award, experience_spend, spend_accept
from characters.services.campaigns import campaign_create
from characters.services.characters import character_create
from characters.services.library import published_game_publish
from characters.services.review import character_approve, character_submit
from characters.services.rows import (
    equipment_add,
    equipment_fields_with_catalog,
    trait_add,
    trait_fields_with_catalog,
)
from characters.services.rulesets import designed_ruleset_save
from characters.services.sharing import share_link_create
from rules.content import NAME as CONTENT_NAME
from rules.content import entries as content_entries
from rules.ladder import FAIR
from rules.ruleset_file import blank_ruleset_file
from rules.rulesets import BUILTIN
from rules.templates import templates_for
from tests.app import test_plain_words
from tests.app.test_plain_words import Text, fragments_of, pages_of
from tests.support.pdf_helpers import pages

pytestmark = pytest.mark.django_db
demo = test_plain_words.demo  # the demo table, as test_plain_words crawls it

LANGUAGES = ("fr", "es")
APOSTROPHE, EN_DASH = "\u2019", "\u2013"
ROLES = ("player", "gm", "visitor")

# -- the detector ------------------------------------------------------------------------------


def _set(words: str) -> frozenset:
    return frozenset(words.split())


# Words only English has: none is a word of French or Spanish ("a", "an", "on", "or", "no",
# "es", "he", "has", "as", "me" are, so they are never counted).
ENGLISH = _set(
    """the and your you you're yours with this that these those will would should could
    have having from which what when where there their they them is isn't are aren't was
    were been being be for of to it it's its by each not can cannot can't don't doesn't
    does did won't into than then any every all who how why here only also our we my his
    her him she at up do about after before until while again yet just must"""
)
# Words of the page's language: a run with as many of them as English words is theirs.
LOCAL = {
    "fr": _set(
        """le la les l des du un une et est sont pour avec dans vous votre vos ce cet cette
        ces sur par pas ne n qui que qu au aux il ils elle elles son sa ses ou où plus sans
        tous tout toute toutes être été peut d de en se s c j je mon ma mes leur leurs lui"""
    ),
    "es": _set(
        """el los las del y con para por una un su sus que es se esta este estos estas
        está están tu tus al en de sin más ya ha han o lo le les mi mis sí ni como pero
        cuando donde todo todos toda todas ser sido puede hay usted"""
    ),
}
# The page's language's abbreviations that an English word spells, capitalised as they are
# written: French "For" (Force, "Échelle (For/Masse)"). Past a run's first word such a word
# is theirs; first, it may start an English sentence ("For each thing desired, why?").
ABBREVIATIONS = {"fr": _set("For"), "es": frozenset()}
WORD = re.compile(rf"[^\W\d_]+(?:['{APOSTROPHE}][^\W\d_]+)*")
CITATION = re.compile(
    r"\b(?:Fudge|Mudge|MicroFudged|DIP|Streamlined)\s+(?:[IVX]+\b\.?\d*|\d+(?:\.\d+)*)"
    rf"(?:\s*(?:[-{EN_DASH},]|and|or)\s*(?:[IVX]+\b\.?\d*|\d+(?:\.\d+)*))*"
)
NAME = "Zzz"  # stands for a name taken out: a word of no language
PRODUCT = ("Fairsheet", "Fudge © Steffan O'Sullivan")


def _words(text: str, language: str) -> list[str]:
    """The run's words in lower case, but for the language's abbreviations (ABBREVIATIONS),
    kept as written so that no word list counts them. A token with a digit in it is an
    identifier, not words: an approval stamp's "825.5.2770.dd3f2be997" spelled "be" between
    the digits of its random digest, and a French sheet was English once in a few runs."""
    text = " ".join(token for token in text.split() if not any(c.isdigit() for c in token))
    words = [word.replace(APOSTROPHE, "'") for word in WORD.findall(text)]
    own = ABBREVIATIONS[language]
    return [word if i and word in own else word.lower() for i, word in enumerate(words)]


def is_english(run: str, language: str) -> bool:
    """At least two English-only words and more of them than words of `language`; or, in a
    run of three words or more, one English-only word and none of `language` ("The next
    level costs 1 skill level", "Levels at creation"). A single word is never a sentence:
    "Budgets" and "Total" are left to the eye."""
    words = _words(run, language)
    english = sum(word in ENGLISH for word in words)
    local = sum(word in LOCAL[language] for word in words)
    return (english >= 2 and english > local) or (english and not local and len(words) >= 3)


def english_runs(runs, language: str, allowed) -> list[str]:
    """The runs that say English once what may stay English is taken out of them. `allowed`
    is longest first; a run is only stripped when it could be English (taking words out
    never adds an English one), which keeps a page's thousands of runs quick."""
    return [
        run
        for run in runs
        if not ADDRESS.fullmatch(run.strip())  # a link to copy: its random token is no word
        and is_english(run, language)
        and is_english(stripped(run, allowed), language)
    ]


ADDRESS = re.compile(r"https?://\S+")


def stripped(run: str, allowed) -> str:
    """`run` with what may stay English taken out, each piece replaced by NAME (it still
    counts as a word: "Talk with player1" is a sentence). A run that is only part of an
    allowed text (a note a PDF wraps over lines) is taken out whole."""
    if len(run) > 20 and any(run in text for text in allowed):
        return NAME
    for text in allowed:
        if text in run:
            run = run.replace(text, f" {NAME} ")
    return CITATION.sub(f" {NAME} ", run)


class Runs(Text):
    """The Text of test_plain_words cut into runs: a block (paragraph, cell, list item,
    button, option, heading...) is one run, inline tags (a link, <bdi>, <strong>) inside a
    sentence keep it whole; each title, label and placeholder is a run of its own."""

    BLOCKS = _set(
        """p div li td th h1 h2 h3 h4 h5 h6 section article header footer nav main aside
        form label button option select textarea dt dd tr table caption ul ol br hr
        summary details fieldset legend figure figcaption dialog input title"""
    )

    def __init__(self):
        super().__init__()
        self.runs, self.current = [], []

    def _break(self):
        text = " ".join("".join(self.current).split())
        if text:
            self.runs.append(text)
        self.current = []

    def handle_starttag(self, tag, attrs):
        if tag in self.BLOCKS:
            self._break()
        before = len(self.parts)
        super().handle_starttag(tag, attrs)
        self.runs += [" ".join(part.split()) for part in self.parts[before:]]

    def handle_endtag(self, tag):
        super().handle_endtag(tag)
        if tag in self.BLOCKS:
            self._break()

    def handle_data(self, data):
        if not self.skip:
            self.current.append(data)

    def close(self):
        super().close()
        self._break()


def runs_of(response) -> list[str]:
    """A response's runs of text: an HTML page's blocks, a PDF's lines, a JSON answer's
    strings."""
    content_type = response.get("Content-Type", "")
    if content_type.startswith("application/pdf"):
        return [
            " ".join(line.split())
            for page in pages(response.content)
            for line in page.extract_text().splitlines()
            if line.strip()
        ]
    if content_type.startswith("application/json"):
        return [text for text in _strings(json.loads(response.content))]
    return html_runs(response.content.decode())


def html_runs(html: str) -> list[str]:
    parser = Runs()
    parser.feed(html)
    parser.close()
    return parser.runs


# -- what stays English -----------------------------------------------------------------------

# What people wrote, model by model (never what the code writes: an event's action, a build
# step's label, an approval's report).
WRITTEN = {
    "auth.User": ("username", "first_name", "last_name"),
    "characters.DesignedRuleset": ("name",),
    "characters.RulesetVersion": ("note",),
    "characters.PublishedGame": ("name", "description", "licence_own_words"),
    "characters.Campaign": ("name", "house_rules", "invite_code"),  # a code: as it is
    "characters.CatalogEntry": ("name", "note", "details"),
    "characters.Character": ("name", "player", "concept", "race", "notes", "personality"),
    "characters.Trait": ("name",),
    "characters.Equipment": ("name", "notes"),
    "characters.CharacterEvent": ("target", "reason"),
    "characters.CampaignEvent": ("target", "reason"),
    "characters.Approval": ("override_reason",),
    "characters.ExperienceEntry": ("reason",),
    "characters.ReviewComment": ("body",),
    "characters.CommentThread": ("target",),
    "characters.ThreadMessage": ("body",),
    "characters.ApiToken": ("name",),
    "characters.PlayState": ("conditions",),
    "characters.PlayEvent": ("note",),
    "characters.DiceRoll": ("subject", "trait", "weapon"),
    # Said in the reader's language when it was sent: the demo's, before the crawl chose one.
    "characters.Notification": ("message",),
}


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(key)
            yield from _strings(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _strings(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for each in dataclasses.fields(value):
            yield from _strings(getattr(value, each.name))


# A line the app wrote keeps its phrase and is said in the reader's language (issue 38): only
# a row that kept none holds a person's words there.
SAID = {
    ("characters.CharacterEvent", "reason"): "phrases__reason",
    ("characters.ExperienceEntry", "reason"): "reason_phrase",
    ("characters.Notification", "message"): "message_phrase",
}


def written_in_database() -> set[str]:
    found = set()
    for label, fields in WRITTEN.items():
        model = apps.get_model(label)
        for field in fields:
            rows = model.objects.all()
            if (label, field) in SAID:
                rows = rows.filter(**{f"{SAID[(label, field)]}__isnull": True})
            for value in rows.values_list(field, flat=True):
                found.update(_strings(value))
    return found


def builtin_names() -> set[str]:
    """The built-in rulesets' trait, catalogue and template names and notes, as written."""
    found = set()
    for ruleset in BUILTIN.values():
        found.update(ruleset.attribute_names or ())
        found.update(name for name, _ in ruleset.extra_attributes)
        found.update(ruleset.named_skill_defaults)
        found.update(_strings(ruleset.catalog))
        found.update(_strings(tuple(templates_for(ruleset).values())))
    return found


def allowed_english() -> list[str]:
    texts = written_in_database() | builtin_names() | set(PRODUCT)
    # The Creative Commons licences' names are their own, in every language ("CC BY 4.0").
    texts |= {label for value, label in Licence.choices if value.startswith("cc")}
    # Each line of a text too (a page shows notes line by line); longest first, so a name
    # inside a longer note goes with the note.
    texts |= {line.strip() for text in list(texts) for line in text.splitlines()}
    texts |= {" ".join(text.split()) for text in list(texts)}  # as a page folds it
    return sorted((t for t in texts if len(t.strip()) > 2), key=len, reverse=True)


# -- the crawl --------------------------------------------------------------------------------


def choose_language(client, language: str) -> None:
    """The header's language form, as a reader uses it (an account keeps it)."""
    response = client.post("/language/", {"language": language, "next": "/"})
    assert response.status_code == 302


def more_pages_of(user) -> list[str]:
    """What test_plain_words' crawl leaves out: the error pages, the review queues, the games
    and each section of one, the rulesets, a campaign's settings, dice log, pack and invite
    link, leaving it, deleting a draft, changing a password."""
    urls = ["/review/", "/games/", "/campaigns/new/", "/accounts/password/", "/no-such-page/"]
    urls += [f"/rulesets/{slug}/" for slug in BUILTIN]
    for campaign in Campaign.objects.all():
        base = f"/campaigns/{campaign.pk}/"
        urls += [base + "log/", f"/join/{campaign.invite_code}/"]
        if campaign.gm_id == user.pk:
            urls += [base + "settings/", base + "pack/", base + "review/"]
        else:
            urls += [base + "leave/"]
    for design in DesignedRuleset.objects.filter(owner=user):
        urls += [f"/games/{design.pk}/", f"/games/{design.pk}/campaign/"]
        urls += [f"/games/{design.pk}/{key}/" for key in SECTIONS]
        urls += [f"/games/{design.pk}/publish/"]
    # The library: its list found by a language, each game's page, built-in or published.
    urls += ["/games/library/", "/games/library/?language=fr&name=a"]
    urls += [f"/games/library/fairsheet/{slug}/" for slug in BUILTIN]
    urls += [f"/games/library/{game.pk}/" for game in PublishedGame.objects.all()]
    draft = Character.objects.filter(owner=user, state=Character.State.DRAFT).first()
    if draft is not None:
        urls += [f"/characters/{draft.pk}/delete/"]
    brogo = Character.objects.get(name="Brogo the Scout")
    urls += [f"/characters/{brogo.pk}/submit/"]  # a GET: the 405 page
    return urls


def more_fragments_of(user, client) -> list:
    """At the table: a roll, a blow, a condition, a refused roll, the live panels."""
    hx = {"HX-Request": "true"}
    answers = []
    for character in Character.objects.filter(state=Character.State.APPROVED):
        if character.owner_id == user.pk:
            base = f"/characters/{character.pk}/play/"
            answers.append(
                client.post(base + "roll/", {"quick": "Alchemy", "against": "1"}, headers=hx)
            )
            answers.append(client.post(base + "blow/", {"damage": "3"}, headers=hx))
            answers.append(client.post(base + "conditions/", {"text": "Dazed"}, headers=hx))
            answers.append(client.post(base + "roll/", {"modifier": "999"}, headers=hx))
            answers.append(client.get(base + "live/", {"fp": "stale"}, headers=hx))
    for campaign in Campaign.objects.filter(gm=user):
        base = f"/campaigns/{campaign.pk}/"
        answers.append(client.get(base + "party/live/", {"fp": "stale"}, headers=hx))
        answers.append(client.get(base + "log/live/", {"after": "0"}, headers=hx))
    return answers


def visitor_pages() -> list[str]:
    link = ShareLink.objects.first()
    urls = ["/", "/accounts/login/", "/accounts/signup/", "/no-such-page/", "/language/"]
    urls += [f"/rulesets/{slug}/" for slug in BUILTIN]
    urls += [f"/shared/{link.token}/", f"/shared/{link.token}/sheet.pdf"]
    return urls


def crawl(client, demo, role: str, language: str) -> list[tuple[str, object]]:
    brogo = demo["brogo"]
    share_link_create(character=brogo, actor=demo["player"])
    choose_language(client, language)
    if role == "visitor":
        responses = [(url, client.get(url, follow=True)) for url in visitor_pages()]
        # An expired form: the 403 page, in the language of the cookie the form set.
        strict = Client(enforce_csrf_checks=True)
        strict.cookies = client.cookies
        responses.append(("(no CSRF token) /accounts/login/", strict.post("/accounts/login/")))
        return responses
    user = demo[role]
    if role == "gm":  # a game of the GM's own design, from nothing, in the library
        version = designed_ruleset_save(owner=user, file=blank_ruleset_file())
        published_game_publish(
            publisher=user,
            version=version,
            description="A moor of fog",
            languages=["fr"],
            licence=Licence.PLAY_ONLY,
        )
    client.force_login(user)
    choose_language(client, language)  # stored on the account too
    urls = pages_of(user) + more_pages_of(user)
    responses = [(url, client.get(url, follow=True)) for url in urls]
    answers = fragments_of(user, client) + more_fragments_of(user, client)
    responses += [(r.request["PATH_INFO"], r) for r in answers]
    return responses


def error_page(language: str) -> tuple[str, str]:
    """The 500 page, which no request should reach: rendered as the handler renders it."""
    with translation.override(language):
        return "(template) 500.html", render_to_string("500.html")


def designed_words() -> list[str]:
    """A GM's own game, as written: on its own pages only, since a game designed from a
    built-in starts with that ruleset's English, which the built-in's pages translate."""
    texts = {t for v in RulesetVersion.objects.values_list("file", flat=True) for t in _strings(v)}
    return sorted((t for t in texts if len(t.strip()) > 2), key=len, reverse=True)


def english_found(responses, language: str) -> dict[str, list[str]]:
    allowed = allowed_english()
    in_games = sorted({*allowed, *designed_words()}, key=len, reverse=True)
    found = {}
    for url, response in responses:
        runs = html_runs(response) if isinstance(response, str) else runs_of(response)
        here = in_games if url.startswith("/games/") else allowed
        english = english_runs(runs, language, here)
        if english:
            found.setdefault(url, [])
            found[url] += [run for run in english if run not in found[url]]
    return found


def _record(language: str, role: str, found: dict) -> None:
    """For the report: each run with its names taken out, to find the file that says it."""
    out = os.environ.get("I18N_CRAWL_OUT")
    if out:
        allowed = allowed_english()
        found = {
            url: [[run, stripped(run, allowed)] for run in runs] for url, runs in found.items()
        }
        with open(out, "a", encoding="utf-8") as stream:
            stream.write(json.dumps({"language": language, "role": role, "found": found}) + "\n")


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_sentence_on_any_page_fragment_or_pdf(client, demo, language, role):
    responses = crawl(client, demo, role, language)
    assert len(responses) > (6 if role == "visitor" else 30)
    for url, response in responses:
        assert response.status_code < 500, url
    # The crawl read the pages in the language it chose.
    lang = f'<html lang="{language}"'
    assert any(lang in response.content.decode() for _, response in responses[:3])
    if role == "visitor":
        responses.append(error_page(language))
    found = english_found(responses, language)
    _record(language, role, found)
    assert not found, f"English on {len(found)} pages in {language} as the {role}:\n" + "\n".join(
        f"{url}\n" + "".join(f"    {run}\n" for run in runs) for url, runs in found.items()
    )


# -- the detector itself ----------------------------------------------------------------------

FRENCH_PAGE = """<html lang="fr"><body><h1>Brogo the Scout</h1>
<p>Le MJ a approuvé <bdi>Brogo the Scout</bdi> : il joue à la <a href="/c/1/">Mudge sample
table</a>.</p>
<p>Caractéristiques : Strength Bon, Dexterity Très bon (Mudge 1.62 et Mudge 1.7).</p>
<p title="Ce que le joueur a écrit">Why Alchemy? His mother brewed.</p>
<p>Il n'y a rien ici, ou ce n'est pas à vous de le voir.</p>
%s
<footer>Fairsheet crée des personnages pour Fudge. Fudge © Steffan O'Sullivan.</footer>
</body></html>"""
SPANISH_PAGE = """<html lang="es"><body><p>El DJ ha aprobado a <bdi>Brogo the Scout</bdi>; no
hay nada aquí, o no es tuyo: <a href="/">vuelve a la mesa</a>.</p>
<p>Un don cuesta 1 (Mudge 1.33), y en la mesa de Fudge un atributo es Bueno.</p>%s</body></html>"""
ALLOWED = ["Brogo the Scout", "Mudge sample table", "Why Alchemy? His mother brewed.", "Fairsheet"]


def test_the_detector_finds_one_english_sentence_in_a_french_page():
    sentence = "Your character has no skill yet: add one from the catalogue."
    runs = html_runs(FRENCH_PAGE % f"<p>{sentence}</p>")
    assert english_runs(runs, "fr", ALLOWED) == [sentence]
    label = (
        "<td>The next level costs 1 skill level</td><td>Talk with <bdi>Brogo the Scout</bdi></td>"
    )
    assert english_runs(html_runs(FRENCH_PAGE % label), "fr", ALLOWED) == [
        "The next level costs 1 skill level",
        "Talk with Brogo the Scout",
    ]
    title = '<button title="Send it to the GM for review">Envoyer</button>'
    assert english_runs(html_runs(SPANISH_PAGE % title), "es", ALLOWED) == [
        "Send it to the GM for review"
    ]
    # French's "For" (Force) is only the abbreviation past a run's first word.
    question = "<dt>For each thing desired, why?</dt><dt>Scale (for mass)</dt>"
    assert english_runs(html_runs(FRENCH_PAGE % question), "fr", ALLOWED) == [
        "For each thing desired, why?",
        "Scale (for mass)",
    ]


def test_the_detector_finds_nothing_in_french_or_spanish_with_allowed_names():
    assert english_runs(html_runs(FRENCH_PAGE % ""), "fr", ALLOWED) == []
    # An identifier's letters are no words: a digest spells "be", "a", "fade"... by chance.
    stamp = "<small>tampon 825.5.2770.dd3f2be997, version 4be2</small>"
    assert english_runs(html_runs(FRENCH_PAGE % stamp), "fr", ALLOWED) == []
    abbreviation = "<th>Échelle (For/Masse)</th>"  # For: Force
    assert english_runs(html_runs(FRENCH_PAGE % abbreviation), "fr", ALLOWED) == []
    assert english_runs(html_runs(SPANISH_PAGE % ""), "es", ALLOWED) == []
    # What people wrote is taken out only when it is allowed: the same note unlisted is found.
    assert english_runs(html_runs(FRENCH_PAGE % ""), "fr", ALLOWED[:2]) == [
        "Why Alchemy? His mother brewed."
    ]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_language_form_names_each_language_in_its_own_words(client, language):
    choose_language(client, language)
    page = client.get("/").content.decode()
    for name in ("English", "Français", "Español"):
        assert f">{name}</option>" in page
    assert "Anglais" not in page and "Inglés" not in page


@pytest.mark.parametrize(
    "language, said",
    [
        ("en-gb", ["Skill: Alchemy", "Field of expertise: Riding", "The build", "Very hard"]),
        (
            "fr",
            [
                "Compétence\u00a0: Alchimie",  # the skill said too (issue 38)
                f"Domaine d{APOSTROPHE}expertise\u00a0: Équitation",
                "Le personnage",
                "Très difficile",
            ],
        ),
        (
            "es",
            ["Habilidad: Alquimia", "Campo de pericia: Equitación", "El personaje", "Muy difícil"],
        ),
    ],
)
def test_what_an_event_is_about_and_a_difficulty_are_said_in_the_readers_language(language, said):
    with translation.override(language):
        assert [
            target_label("skill:Alchemy"),
            target_label("skill:Riding", BUILTIN["microfudged-dip"].terms),
            target_label(""),
            str(dict(DIFFICULTY_CHOICES)["very_hard"]),
        ] == said


# -- rules content: the built-in names in the reader's language (issue 38) --------------------

RULES_LANGUAGES = ("fr", "es", "de")
# The picks the character is made of: each list of the Mudge catalogue, a template's check.
PICKS = {
    Trait.Kind.SKILL: ("Climbing", "Lockpicking", "Haggle", "Storytelling", "Area Knowledge"),
    Trait.Kind.GIFT: ("Night Vision", "Absolute Direction", "Magery"),
    Trait.Kind.FAULT: ("Curious", "Glutton"),
    Trait.Kind.POWER: ("Fireball",),
}
ITEMS = ("Medium Weapon", "Effective")
TEMPLATE = "beginning-magician"


def _rules_character():
    """A Mudge character made only of catalogue picks (Magery brings Mana), approved, with a
    ledger: an award, a raise, a skill learnt, a gift asked of the GM and granted."""
    users = get_user_model().objects
    gm = users.create_user("gm", password="pw-gm-12345")
    player = users.create_user("player", password="pw-player-12345")
    # As a GM makes it: its catalogue copied from Mudge's, which the pickers offer.
    campaign = campaign_create(gm=gm, name="Zzz", base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    character, draft = _picked(player, campaign), _picked(player, campaign)
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None, override_reason="")
    character.refresh_from_db()
    experience_award(character=character, actor=gm, amount=40, reason="Zzz")
    spend = {"character": character, "actor": player, "expected_version": None}
    experience_spend(**spend, what=RAISE, trait=character.traits.get(name="Climbing"))
    experience_spend(**spend, what=LEARN, kind="skill", name="Swimming", difficulty="easy")
    spend_accept(entry=experience_spend(**spend, what=GIFT, name="Acute Hearing"), actor=gm)
    character.refresh_from_db()
    return {
        "gm": gm,
        "player": player,
        "campaign": campaign,
        "character": character,
        "draft": draft,
    }


def _picked(player, campaign):
    character = character_create(owner=player, name="Zzz", campaign=campaign)
    ruleset = BUILTIN["mudge"]
    add = {"character": character, "actor": player, "expected_version": None}
    for kind, names in PICKS.items():
        for name in names:
            fields = trait_fields_with_catalog(ruleset=ruleset, kind=kind, fields={"name": name})
            trait_add(**add, kind=kind, level=FAIR if kind != Trait.Kind.GIFT else None, **fields)
    for name in ITEMS:
        fields = equipment_fields_with_catalog(ruleset=ruleset, fields={"name": name})
        equipment_add(**add, **fields)
    return character


def rules_pages(table) -> list[tuple[str, str]]:
    """(reader, url): the player's builder (each picker open, a template checked), sheet, PDF,
    play page and ledger; the GM's review, queue, audit trail, party view and ruleset page."""
    pk, campaign = table["character"].pk, table["campaign"].pk
    draft = f"/characters/{table['draft'].pk}/"
    pages = [("player", draft), ("player", f"{draft}?template={TEMPLATE}")]
    pages += [("player", f"{draft}?picker={kind}") for kind in (*PICKS, "equipment")]
    pages += [("gm", f"{draft}review/"), ("gm", f"{draft}audit/")]
    base = f"/characters/{pk}/"
    pages += [("player", base + path) for path in ("sheet/", "sheet.pdf", "play/", "advancement/")]
    pages += [("gm", base + path) for path in ("review/", "audit/", "advancement/")]
    pages += [
        ("gm", "/review/"),
        ("gm", f"/campaigns/{campaign}/party/"),
        ("gm", "/rulesets/mudge/"),
    ]
    return pages


# An English rules name that is a word of the page's language too: German "Art" (kind), in
# "Art Waffe" on the audit trail and as the builder's column label, is not the skill Art.
FALSE_FRIENDS = {"fr": set(), "es": set(), "de": {"Art"}}


def english_rules_names(language: str) -> re.Pattern:
    """The built-in names the language says otherwise ("Climbing", not "Mana"), as whole
    words, longest first."""
    with translation.override(language):
        names = {
            entry.english
            for entry in content_entries()
            if entry.context == CONTENT_NAME
            and rules_name(entry.english) != entry.english
            and entry.english not in FALSE_FRIENDS[language]
        }
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def said_rules_names(language: str) -> re.Pattern:
    """The language's own names for them: taken out first, a translation may spell an English
    name inside it."""
    with translation.override(language):
        names = {rules_name(entry.english) for entry in content_entries()}
    alternatives = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    return re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")


def english_rules_names_on(table, language: str) -> dict[str, list[str]]:
    readers = {}
    for role in ("gm", "player"):
        readers[role] = Client()
        readers[role].force_login(table[role])
        choose_language(readers[role], language)
    english, said_names = english_rules_names(language), said_rules_names(language)
    found = {}
    for role, url in rules_pages(table):
        response = readers[role].get(url)
        assert response.status_code == 200, url
        for run in runs_of(response):
            names = english.findall(said_names.sub("Zzz", run))
            if names:
                found.setdefault(f"{role} {url}", []).append((run, names))
    return found


@pytest.mark.parametrize("language", RULES_LANGUAGES)
def test_no_english_rules_name_on_a_catalogue_characters_pages(language):
    found = english_rules_names_on(_rules_character(), language)
    count = sum(len(names) for runs in found.values() for _run, names in runs)
    print(f"\n{language}: {count} English rules names on {len(found)} pages")
    assert not found, f"{count} English rules names in {language}:\n" + "\n".join(
        f"{url}\n" + "".join(f"    {names}: {run[:200]}\n" for run, names in runs)
        for url, runs in found.items()
    )
