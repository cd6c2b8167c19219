"""The pull macro of docs/foundry.md, as written there, run in headless Chromium on a page of
another origin standing in for a Foundry server: the browser's own CORS checks decide what
it may read. Foundry's few objects the macro touches (game.actors, Actor.create,
importFromJSON, ui.notifications) are recorded by the page; the server and the browser are
real."""

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings

from characters.models import Trait
from characters.services.api_tokens import api_token_create
from characters.services.characters import character_create
from tests.support.browser import DESKTOP

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
DOC = Path(__file__).resolve().parents[2] / "docs" / "foundry.md"
FOUNDRY_PAGE = """<!doctype html><title>Foundry</title><script>
window.said = []; window.imported = []; window.created = [];
window.ui = {notifications: {
  info: m => said.push(["info", m]), error: m => said.push(["error", m])}};
const actor = (data) => ({name: data.name, flags: {}, async importFromJSON(text) {
  const parsed = JSON.parse(text); this.name = parsed.name; this.flags = parsed.flags;
  imported.push(parsed);
}});
window.game = {actors: []};
window.Actor = {async create(data) { created.push(data); const a = actor(data);
  game.actors.push(a); return a; }};
</script>"""


def the_macro(site: str, token: str, character: int) -> str:
    """The macro's block in docs/foundry.md, its three constants set as a player would."""
    block = re.search(r"```js\n(// Fairsheet: pull.*?)```", DOC.read_text(), re.S).group(1)
    block = re.sub(r'const SITE = ".*?";', f"const SITE = {json.dumps(site)};", block)
    block = re.sub(r'const TOKEN = ".*?";', f"const TOKEN = {json.dumps(token)};", block)
    return re.sub(r"const CHARACTER = \d+;", f"const CHARACTER = {character};", block)


class FoundryPage(BaseHTTPRequestHandler):
    def do_GET(self):
        body = FOUNDRY_PAGE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def foundry():
    """The stand-in Foundry server's origin, on 127.0.0.1 (a page Playwright made up would be
    a public one, which Chromium forbids to read a loopback server at all)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), FoundryPage)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    server.server_close()


@pytest.fixture
def foundry_page(browser, live_server, foundry):
    """A page of the Foundry origin; anything but it and the live server is aborted and fails
    the test."""
    context = browser.new_context(viewport=DESKTOP)
    foreign = []

    def route(route):
        if route.request.url.startswith((foundry, live_server.url)):
            return route.continue_()
        foreign.append(route.request.url)
        return route.abort()

    context.route("**/*", route)
    page = context.new_page()
    page.goto(f"{foundry}/game")
    yield page
    context.close()
    assert not foreign


def run(page, macro: str):
    """A Foundry script macro is the body of an async function."""
    page.evaluate(
        "async (body) => { await new (Object.getPrototypeOf(async function(){}).constructor)"
        "(body)(); }",
        macro,
    )
    return page.evaluate("({said, imported, created, names: game.actors.map(a => a.name)})")


@pytest.fixture
def pip(db):
    player = get_user_model().objects.create_user("pip", password="correct-horse-battery")
    character = character_create(owner=player, name="Pip Underbough", ruleset="mudge")
    Trait.objects.create(character=character, kind=Trait.Kind.SKILL, name="Climbing", level=2)
    return character, api_token_create(user=player, name="foundry")[1]


def test_the_macro_pulls_into_one_actor_and_again_into_the_same(
    foundry_page, foundry, live_server, pip
):
    character, token = pip
    macro = the_macro(live_server.url, token, character.pk)
    with override_settings(FOUNDRY_ORIGINS=frozenset({foundry})):
        first = run(foundry_page, macro)
        again = run(foundry_page, macro)
    assert first["created"] == [{"name": "Pip Underbough", "type": "character"}]
    actor = first["imported"][0]
    assert actor["flags"]["fairsheet"]["character_id"] == character.pk
    assert any(i["name"] == "Climbing" for i in actor["items"])
    assert first["said"] == [["info", "Fairsheet: Pip Underbough pulled (version 1)."]]
    # The second run finds the actor by its flags: no new actor, the same one imported again.
    assert (len(again["created"]), len(again["imported"]), again["names"]) == (
        1,
        2,
        ["Pip Underbough"],
    )


def test_a_wrong_token_is_said_in_foundry(foundry_page, foundry, live_server, pip):
    character, _ = pip
    with override_settings(FOUNDRY_ORIGINS=frozenset({foundry})):
        done = run(foundry_page, the_macro(live_server.url, "fs_revoked", character.pk))
    assert done["imported"] == []
    [(kind, message)] = done["said"]
    assert kind == "error" and "make a new one on your account page" in message


def test_a_server_not_listed_reads_nothing(foundry_page, live_server, pip):
    character, token = pip
    with pytest.raises(Exception, match="Failed to fetch"):
        run(foundry_page, the_macro(live_server.url, token, character.pk))
    assert foundry_page.evaluate("imported") == []
