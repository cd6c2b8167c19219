"""Two app servers, one database: the scale-out story (README, "Running more than one app
server"). Two gunicorn processes on 127.0.0.1 share nothing but PostgreSQL (as the runtime
role, with CI's role split); one player's browser (one cookie jar) and the GM's are served
by either. A session started on one is valid on the other, a stale edit is refused across
them (optimistic locking), a decision form drawn by one is taken by the other, and an
approval made on one shows on the other."""

import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest
from django.db import connection

from characters.models import Character, Trait
from tests.conftest import PRODUCTION_HASHERS, ROOT
from tests.support.builder_fixtures import *  # noqa: F403

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="PostgreSQL only: two processes cannot share the in-memory SQLite test database",
    ),
    pytest.mark.django_db(transaction=True),
]
SECRET = "two-servers-test-secret-" + "x" * 40


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def database_url() -> str:
    """The test database, as the tests' own connection reaches it (the runtime role)."""
    s = connection.settings_dict
    login = urllib.parse.quote(s["USER"]) + (
        ":" + urllib.parse.quote(s["PASSWORD"]) if s["PASSWORD"] else ""
    )
    return f"postgres://{login}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


@pytest.fixture(autouse=True)
def production_hasher(settings):
    """The users' passwords hashed as the servers, with the real settings, check them."""
    settings.PASSWORD_HASHERS = PRODUCTION_HASHERS


@pytest.fixture
def servers(tmp_path):
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("DATABASE_OWNER_URL", "DJANGO_ALLOW_ASYNC_UNSAFE")
    }
    env.update(DATABASE_URL=database_url(), DJANGO_SECRET_KEY=SECRET, DJANGO_DEBUG="1")
    started = []
    for name in ("a", "b"):
        port = free_port()
        log = (tmp_path / f"{name}.log").open("w")
        process = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}"],
            cwd=ROOT,
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        started.append((process, f"http://127.0.0.1:{port}"))
    try:
        for process, url in started:
            wait_until_up(process, url)
        yield [url for _, url in started]
    finally:
        for process, _ in started:
            process.terminate()
            process.wait(timeout=30)


def wait_until_up(process, url):
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server stopped: see its log in the test's tmp_path"
        try:
            with urllib.request.urlopen(f"{url}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within 60 s")


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """One user's browser: one cookie jar, whichever server answers."""

    def __init__(self):
        self.cookies = CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.cookies), NoRedirects()
        )

    def request(self, url, data=None):
        if data is not None:
            token = next(c.value for c in self.cookies if c.name == "csrftoken")
            data = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token}).encode()
        try:
            with self.opener.open(url, data, timeout=30) as response:
                return response.status, response.read().decode(), response.headers
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(), error.headers

    def log_in(self, server, username, password):
        self.request(f"{server}/accounts/login/")  # the CSRF cookie
        status, _, headers = self.request(
            f"{server}/accounts/login/", {"username": username, "password": password}
        )
        assert (status, headers["Location"]) == (302, "/table/")


def version_on_page(html) -> int:
    return int(re.search(r'name="version" value="(\d+)"', html).group(1))


def token_on_page(html) -> str:
    """The decision token the page's form carries ({% decision_token %}), as a browser
    posts it back."""
    return re.search(r'name="once" value="([\w-]+)"', html).group(1)


def test_a_session_an_edit_and_an_approval_across_two_servers(servers, character, player, gm):
    a, b = servers
    assert a != b
    player_browser, gm_browser = Browser(), Browser()
    builder = f"/characters/{character.pk}/"
    strength = character.traits.get(name="Strength")

    # The session made on A is good on B.
    player_browser.log_in(a, "player", "pw-player-12345")
    status, page, _ = player_browser.request(f"{b}/table/")
    assert status == 200 and "Log out <bdi>player</bdi>" in page and ">Brogo</bdi>" in page

    # Both servers showed the same version; the edit through B wins, A's is stale: 409.
    _, page_on_a, _ = player_browser.request(f"{a}{builder}")
    _, page_on_b, _ = player_browser.request(f"{b}{builder}")
    version = version_on_page(page_on_a)
    assert version_on_page(page_on_b) == version == character.version
    edit = f"/characters/{character.pk}/traits/{strength.pk}/"
    status, _, _ = player_browser.request(
        f"{b}{edit}", {"version": version, "name": "Strength", "level": 1}
    )
    assert status == 302
    status, page, _ = player_browser.request(
        f"{a}{edit}", {"version": version, "name": "Strength", "level": 3}
    )
    assert status == 409 and "changed in another tab or window" in page
    assert Trait.objects.get(pk=strength.pk).level == 1  # Good, from B; A saved nothing

    # Submitted through A, approved by the GM through B with the decision token the review
    # page drawn by A issued (tokens are rows, not a server's memory), approved as seen
    # through A.
    status, _, _ = player_browser.request(
        f"{a}/characters/{character.pk}/submit/", {"version": version + 1}
    )
    assert status == 302
    gm_browser.log_in(a, "gm", "pw-gm-12345")
    status, page, _ = gm_browser.request(f"{a}/characters/{character.pk}/review/")
    assert status == 200
    status, _, _ = gm_browser.request(
        f"{b}/characters/{character.pk}/review/",
        {"version": version_on_page(page), "decision": "approve", "once": token_on_page(page)},
    )
    assert status == 302
    _, page, _ = player_browser.request(f"{a}{builder}")
    assert "Approved" in page
    character = Character.objects.get(pk=character.pk)
    assert (character.state, character.approvals.get().approved_by) == ("approved", gm)
