"""Issue 39: every label is a word. Every page, fragment and PDF of the demo table, walked
from the URL patterns as its GM and as a player, with its characters in every state a
character has (a draft, submitted, sent back for changes, approved and in play, back for
review after an update from Foundry), is read for identifiers: what a program calls a thing
where a person should read its word. None is found.

An identifier is
- a snake_case word (`changes_requested`, `max_skills`);
- a value alone that is a key of a model's choices as the code writes it (`draft`,
  `very_hard`, `spell`), whether a text of its own or one of a list ("spell / psi");
- a power's or a piece of equipment's kind key in a list of facts ("Broadsword, weapon");
- a slug phrase: lower-case words either side of a spaced hyphen ("draft - not approved");
- a placeholder code: a dash and a word in brackets standing for a value ("— (catalogue)").
"""

import re
from collections import Counter
from html.parser import HTMLParser

import pytest
from django.apps import apps

from characters.models import PowerKind
from tests.app.test_plain_words import fragments_of
from tests.i18n.test_i18n_crawl import more_fragments_of
from tests.support import demo_states
from tests.support.pdf_helpers import pages
from tests.support.walk import addresses

pytestmark = pytest.mark.django_db
demo, table = demo_states.demo, demo_states.table  # the demo table, a character in each state

SNAKE = re.compile(r"\b[a-z]+_[a-z0-9_]+\b")
SLUG_PHRASE = re.compile(r"^[a-z]+(?: [a-z]+)* - [a-z]+(?: [a-z]+)*$")
PLACEHOLDER = re.compile(r"^— \(.+\)$")
SEPARATORS = re.compile(r"\s*[/,·|()]\s*")


def choice_keys() -> frozenset[str]:
    """Every key of every model's choices, as the code writes it."""
    keys = {value for value, _ in PowerKind.choices}
    for model in apps.get_models():
        for field in model._meta.get_fields():
            if getattr(field, "choices", None):
                keys |= {str(value) for value, _ in field.flatchoices if value}
    return frozenset(keys)


KIND_KEYS = frozenset(
    {value for value, _ in PowerKind.choices} | {"weapon", "armour", "shield", "gear"}
)


class Texts(HTMLParser):
    """Each piece of text a reader meets on a page, as the page has it: every text between
    two tags, and the words of titles, labels, placeholders and alternative texts; not
    scripts or styles, nor what is shown as code to type or copy (<code>, a copy field's
    text: a command, an invite code, a share link, whose random letters can hold
    "n_y" by chance). A link's text is a word of the sentence around it ("It grows through
    <a>experience</a>"), marked so (Linked) to be read as one."""

    READ = ("title", "aria-label", "placeholder", "alt")
    UNREAD = ("script", "style", "code", "textarea")  # a textarea only as a copy field

    def __init__(self):
        super().__init__()
        self.texts, self.skip, self.links = [], 0, 0
        self.copy_fields = []  # each open textarea: whether it is a copy field

    def handle_starttag(self, tag, attrs):
        if tag == "textarea":
            self.copy_fields.append("copy-text" in (dict(attrs).get("class") or "").split())
        if tag in self.UNREAD and (tag != "textarea" or self.copy_fields[-1]):
            self.skip += 1
        self.links += tag == "a"
        self.texts += [value for name, value in attrs if name in self.READ and value]

    def handle_endtag(self, tag):
        if tag in self.UNREAD and (tag != "textarea" or self.copy_fields.pop()):
            self.skip -= 1
        self.links -= tag == "a" and self.links > 0

    def handle_data(self, data):
        if not self.skip:
            self.texts.append(Linked(data) if self.links else data)


class Linked(str):
    """A link's text: a word of a sentence, never a value standing alone."""


def texts_of(response) -> list[str]:
    if response.get("Content-Type", "").startswith("application/pdf"):
        return [
            line for page in pages(response.content) for line in page.extract_text().splitlines()
        ]
    parser = Texts()
    parser.feed(response.content.decode())
    parser.close()
    return parser.texts


def identifiers(texts, keys=None) -> list[str]:
    """The identifiers among `texts` (see the module's docstring)."""
    keys = choice_keys() if keys is None else keys
    found = []
    for text in texts:
        text = type(text)(" ".join(text.split()))
        if not text:
            continue
        found += SNAKE.findall(text)
        parts = [part for part in SEPARATORS.split(text) if part]
        bare_keys = parts and all(part in keys for part in parts) and not isinstance(text, Linked)
        kind_key = any(part in KIND_KEYS for part in parts)
        if bare_keys or kind_key or SLUG_PHRASE.match(text) or PLACEHOLDER.match(text):
            found.append(text)
    return found


# Answers read by programs, not people: JSON, the play page's web manifest, the service worker.
PROGRAMS = ("application/json", "application/manifest+json", "text/javascript")


def responses(client, user):
    """(page kind, address, response) of every page the walk reaches as `user`, and of the
    fragments and refusals its writes answer with; a pattern that only takes posts is read
    once (its 405 page), a redirect not at all (its page is walked on its own)."""
    only_posts = set()
    for address, kind in addresses(user):
        if kind in only_posts:
            continue
        response = client.get(address)
        if response.status_code == 405:
            only_posts.add(kind)
        if response.status_code in (301, 302):
            continue
        if response.get("Content-Type", "").startswith(PROGRAMS):
            continue  # for programs: its keys are the file's, its code the worker's
        yield kind, address, response
    for response in fragments_of(user, client) + more_fragments_of(user, client):
        yield "fragment", response.request["PATH_INFO"], response


@pytest.mark.parametrize("role", ["gm", "player"])
def test_no_identifier_on_any_page_fragment_or_pdf(client, table, role):
    user = table[role]
    client.force_login(user)
    found, by_kind, read = {}, Counter(), Counter()
    for kind, address, response in responses(client, user):
        assert response.status_code < 500, address
        read[kind] += 1
        seen = sorted(set(identifiers(texts_of(response))))
        if seen:
            found[address] = seen
            by_kind[kind] += len(seen)
    assert not found, f"{sum(by_kind.values())} in {sum(read.values())} answers, by page kind: " + (
        f"{dict(by_kind.most_common())}\n"
        + "\n".join(f"{url}: {codes}" for url, codes in found.items())
    )


# -- the detector itself ----------------------------------------------------------------------

PAGE = """<html><body><h1>Brogo <span class="badge">%s</span></h1>
<p>It grows through <a href="/a/">experience</a>; %s</p><select><option>%s</option></select>
</body></html>"""


@pytest.mark.parametrize(
    ("badge", "sentence", "option", "found"),
    [
        ("psi", "", "", ["psi"]),  # a power's kind by its key
        ("Psi", "a state changes_requested here", "", ["changes_requested"]),
        ("Draft", "", "spell / psi / superpower", ["spell / psi / superpower"]),
        ("Draft", "", "— (catalogue)", ["— (catalogue)"]),
        ("draft - not approved", "", "", ["draft - not approved"]),
        ("Approved", "Staff (weapon, damage +2)", "", ["; Staff (weapon, damage +2)"]),
        ("submitted", "", "Very hard", ["submitted"]),  # a state by its key
        # Words: a label, a sentence with a link, a capitalised kind, a GM's own word.
        ("Submitted", "the spell is hard", "Spell", []),
        ("Changes requested", "Staff (Weapon, damage +2)", "As the catalogue lists it", []),
    ],
)
def test_the_detector_finds_each_kind_of_identifier_and_no_word(badge, sentence, option, found):
    page = PAGE % (badge, sentence, option)
    parser = Texts()
    parser.feed(page)
    assert identifiers(parser.texts) == found


def test_code_and_copy_fields_are_not_read_but_text_beside_them_is():
    copy = '<textarea class="copy-text" readonly>http://x/join/Ab-n_y-9Q/</textarea>'
    note = '<textarea name="notes">a note: max_skills</textarea>'
    parser = Texts()
    parser.feed(PAGE % ("Draft", f"the code <code>Ab-n_y-9Q</code>{copy}{note} or very_hard", ""))
    assert identifiers(parser.texts) == ["max_skills", "very_hard"]
