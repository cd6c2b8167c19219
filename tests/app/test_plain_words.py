"""Issue 24: plain words everywhere. Every page, fragment and PDF of the demo table, as its
player and as its GM, reads in the player's words: no error code, enum value, slug,
snake_case word, JSON or ASCII arrow. (The codes stay in the JSON report and the check
command, which are for programs.)"""

import re
from html.parser import HTMLParser
from io import StringIO

import pytest
from django.core.management import call_command

from characters.models import Campaign, Character, CommentThread, Trait
from characters.services.characters import character_update_details
from characters.services.review import character_approve, character_submit
from characters.services.rows import trait_add
from characters.services.threads import (
    comment_reply,
    comment_thread_resolve,
    comment_thread_start,
)
from tests.support.pdf_helpers import texts

pytestmark = pytest.mark.django_db

SLUGS = ("fudge-basics", "microfudged-dip", "microfudged-streamlined")
CODE = re.compile(
    r"\b[a-z]+_[a-z_]+\b"  # snake_case: very_hard, over_budget, cap_exceeded
    r'|[{\[]\s*"'  # JSON
    r"|\b(?:" + "|".join(SLUGS) + r")\b"
    r"|(?<![A-Za-z/.])mudge(?![A-Za-z/.-])"  # the slug, not the name "Mudge"
    r"| -> "
)


class Text(HTMLParser):
    """What a reader meets on a page: its text and the words of its titles, labels and
    placeholders; not scripts, styles or attributes that only programs read."""

    READ = ("title", "aria-label", "placeholder", "alt")

    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        self.parts += [value for name, value in attrs if name in self.READ and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def words_of(response) -> str:
    if response["Content-Type"].startswith("application/pdf"):
        return " ".join(texts(response.content))
    parser = Text()
    parser.feed(response.content.decode())
    return " ".join(" ".join(parser.parts).split())


@pytest.fixture
def demo(settings):
    settings.DEBUG = True  # load_demo is for development
    call_command("load_demo", stdout=StringIO())
    settings.DEBUG = False  # the pages as served, a 404 included
    brogo = Character.objects.get(name="Brogo the Scout")
    player, gm = brogo.owner, brogo.campaign.gm
    # What the words must survive: a very hard skill, a personality change on the record,
    # an approved build (its play and advancement pages).
    trait_add(
        character=brogo,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.SKILL,
        name="Alchemy",
        level=1,
        difficulty="very_hard",
    )
    character_update_details(
        character=brogo,
        actor=player,
        expected_version=None,
        personality={"values": "his friends", "fears": "the dark"},
    )
    character_submit(character=brogo, actor=player, expected_version=None)
    character_approve(character=brogo, actor=gm, expected_version=None, override_reason="demo")
    # A conversation on the record: threads on a trait and on the whole build, answered,
    # one of them resolved (issue 26).
    alchemy = brogo.traits.get(name="Alchemy")
    thread = comment_thread_start(character=brogo, actor=gm, body="Why Alchemy?", about=alchemy)
    comment_reply(thread=thread, actor=player, body="His mother brewed.")
    comment_thread_resolve(thread=thread, actor=gm)
    comment_thread_start(character=brogo, actor=gm, body="Where was he born?")
    return {"player": player, "gm": gm, "brogo": brogo}


def pages_of(user) -> list[str]:
    urls = ["/", "/table/", "/notifications/", "/accounts/", "/characters/new/"]
    urls += ["/characters/import/"]
    for campaign in Campaign.objects.all():
        base = f"/campaigns/{campaign.pk}/"
        urls += [base, base + "catalogue/", base + "party/"]
        if campaign.gm_id == user.pk:
            urls += [base + "house-rules/", base + "history/"]
    for character in Character.objects.filter(campaign__in=Campaign.objects.all()):
        if character.owner_id != user.pk and character.campaign.gm_id != user.pk:
            continue
        base = f"/characters/{character.pk}/"
        urls += [base, base + "sheet/", base + "sheet.pdf", base + "audit/"]
        urls += [base + "advancement/", base + "review/"]
        if character.state == Character.State.APPROVED:
            urls += [base + "play/"]
        if character.ruleset == "mudge":
            urls += [base + "?template=beginning-fighter"]
    return urls


def fragments_of(user, client) -> list:
    """Answers to writes and previews: what htmx swaps in, and what a refusal says."""
    answers = []
    gm_of = Campaign.objects.filter(gm=user).first()
    if gm_of is not None:  # a house-rules preview that changes the budget
        answers.append(
            client.post(
                f"/campaigns/{gm_of.pk}/house-rules/",
                {"skill_levels": "20", "preview": "1"},
                headers={"HX-Request": "true"},
            )
        )
    for thread in CommentThread.objects.filter(resolved_at__isnull=True):  # answered in place
        answers.append(
            client.post(
                f"/characters/{thread.character_id}/threads/{thread.pk}/reply/",
                {"body": f"An answer from {user.username}", "page": "builder"},
                headers={"HX-Request": "true"},
            )
        )
    mine = Character.objects.filter(owner=user, state=Character.State.DRAFT).first()
    if mine is not None:
        trait = mine.traits.filter(kind=Trait.Kind.SKILL).first()
        answers.append(
            client.post(
                f"/characters/{mine.pk}/traits/{trait.pk}/",
                {"version": mine.version, "name": trait.name, "level": "3", "difficulty": "hard"},
                headers={"HX-Request": "true"},
            )
        )
        dip = Campaign.objects.get(base_ruleset="microfudged-dip")
        brogo_file = client.get(f"/characters/{mine.pk}/export.json").content
        answers.append(
            client.post(
                "/characters/import/",
                {"campaign": dip.pk, "file": _upload(brogo_file)},
            )
        )
    return answers


def _upload(content: bytes):
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile("brogo.json", content, content_type="application/json")


@pytest.mark.parametrize("role", ["player", "gm"])
def test_every_page_fragment_and_pdf_speaks_plain_words(client, demo, role):
    user = demo[role]
    client.force_login(user)
    found = {}
    responses = [(url, client.get(url)) for url in pages_of(user)]
    responses += [(r.request["PATH_INFO"], r) for r in fragments_of(user, client)]
    assert len(responses) > 15
    for url, response in responses:
        assert response.status_code < 500, url
        text = words_of(response)
        codes = sorted({match.group(0) for match in CODE.finditer(text)})
        if codes:
            found[url] = codes
    assert not found, "\n".join(f"{url}: {codes}" for url, codes in found.items())
    # The crawl reached what used to show codes, slugs and JSON, now in words.
    everything = " ".join(words_of(response) for _, response in responses)
    said = {
        "player": ["This file is for Mudge, but MicroFudged one-shot plays MicroFudged DIP"],
        "gm": ["over budget", "Mudge 1.7; more, or one set too high, breaks a rule"],
    }[role]
    # The audit trail's titles are labels, capitalised as every label is (issue 39).
    said += ["Alchemy", "very hard", "On Skill: Alchemy", "Resolved by", "Thread started"]
    said += ["Reply added", "His mother brewed.", "Sent:"]
    for words in said:
        assert words in everything, words
