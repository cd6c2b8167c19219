"""Web benchmarks (issue 3): the trait-edit request over a 60-trait character, next to a bare
view in the same run, and 20 simulated players editing at once against gunicorn.

Runs against its own database (a temporary SQLite file, or `<DATABASE_URL name>_bench` on
PostgreSQL), never the one you work in; gunicorn listens on 127.0.0.1 only.
"""

import http.client
import json
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 20
EDITS_PER_PLAYER = 30
# A player looks at the panel before the next click: 0.5 to 1.5 s between edits.
THINK_SECONDS = (0.5, 1.5)
TRAITS = 60
PASSWORD = "bench-password-123"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench_database_url() -> tuple[str, callable]:
    """A throwaway database and a function that drops it afterwards."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        base, _, name = url.rpartition("/")
        bench_name = f"{name or 'fairsheet'}_bench"
        admin = f"{base}/postgres"
        psql = ["psql", admin, "-q", "-c"]
        subprocess.run([*psql, f'DROP DATABASE IF EXISTS "{bench_name}"'], check=True)
        subprocess.run([*psql, f'CREATE DATABASE "{bench_name}"'], check=True)
        return f"{base}/{bench_name}", lambda: subprocess.run(
            [*psql, f'DROP DATABASE IF EXISTS "{bench_name}" WITH (FORCE)'], check=False
        )
    folder = tempfile.mkdtemp(prefix="fairsheet-bench-")
    return f"sqlite:///{folder}/bench.sqlite3", lambda: None


def seed(players: int):
    """Users each with a Mudge character of TRAITS traits; returns [(username, pk, trait)]."""
    from django.contrib.auth import get_user_model

    from characters.models import Campaign, Membership, Trait
    from characters.services.characters import character_create

    User = get_user_model()
    gm = User.objects.create_user("bench-gm", password=PASSWORD)
    campaign = Campaign.objects.create(name="Bench", gm=gm, base_ruleset="mudge")
    seeded = []
    for i in range(players):
        user = User.objects.create_user(f"bench-{i}", password=PASSWORD)
        Membership.objects.create(campaign=campaign, user=user, role=Membership.PLAYER)
        character = character_create(owner=user, name=f"Bench {i}", campaign=campaign)
        Trait.objects.bulk_create(
            Trait(
                character=character,
                kind=Trait.SKILL,
                name=f"Skill {n}",
                level=-1,
                difficulty="average",
                position=n,
            )
            for n in range(TRAITS - 7)
        )
        seeded.append(
            (user.username, character.pk, character.traits.filter(kind=Trait.SKILL).first().pk)
        )
    return seeded


def time_in_process(seeded, rounds=300):
    """Server time of the trait-edit request and of the bare view, through Django's test
    client (no sockets): what the view costs, not the network."""
    from django.test import Client
    from django.urls import reverse

    from characters.models import Character

    username, pk, trait_pk = seeded[0]
    client = Client()
    client.login(username=username, password=PASSWORD)
    url = reverse("trait_update", args=[pk, trait_pk])
    edit, bare = [], []
    for n in range(rounds):
        version = Character.objects.values_list("version", flat=True).get(pk=pk)
        data = {"version": version, "name": "Skill 0", "level": n % 3 - 1, "difficulty": "average"}
        start = time.perf_counter()
        response = client.post(url, data, HTTP_HX_REQUEST="true")
        edit.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        start = time.perf_counter()
        client.get("/healthz")
        bare.append(time.perf_counter() - start)
    return edit, bare


class Player(threading.Thread):
    """One simulated player: logs in over HTTP, then edits a skill level again and again."""

    def __init__(self, port, username, pk, trait_pk):
        super().__init__(daemon=True)
        self.port, self.username, self.pk, self.trait_pk = port, username, pk, trait_pk
        self.cookies: dict[str, str] = {}
        self.latencies: list[float] = []
        self.errors = 0

    def request(self, method, path, body=None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        data = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        connection.close()
        return response, data

    def run(self):
        try:
            _, page = self.request("GET", "/accounts/login/")
            token = re.search(rb'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)
            self.request(
                "POST",
                "/accounts/login/",
                urlencode(
                    {
                        "csrfmiddlewaretoken": token.decode(),
                        "username": self.username,
                        "password": PASSWORD,
                    }
                ),
                {"Referer": f"http://127.0.0.1:{self.port}/accounts/login/"},
            )
            _, page = self.request("GET", f"/characters/{self.pk}/")
            version = int(re.search(rb'name="version" value="(\d+)"', page).group(1))
        except Exception:  # a failed login counts as one error, not a crash
            self.errors += 1
            return
        pause = random.Random(self.username)  # the same pauses every run
        for n in range(EDITS_PER_PLAYER):
            time.sleep(pause.uniform(*THINK_SECONDS))
            body = urlencode(
                {"version": version, "name": "Skill 0", "level": n % 3 - 1, "difficulty": "average"}
            )
            start = time.perf_counter()
            try:
                response, _ = self.request(
                    "POST",
                    f"/characters/{self.pk}/traits/{self.trait_pk}/",
                    body,
                    {
                        "HX-Request": "true",
                        "X-CSRFToken": self.cookies.get("csrftoken", ""),
                        "Referer": f"http://127.0.0.1:{self.port}/characters/{self.pk}/",
                    },
                )
            except OSError:
                self.errors += 1
                continue
            self.latencies.append(time.perf_counter() - start)
            if response.status != 200:
                self.errors += 1
                continue
            version = json.loads(response.getheader("HX-Trigger"))["versionChanged"]["value"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def load_run(env, seeded):
    port = free_port()
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--threads",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=env,
    )
    try:
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        players = [Player(port, *s) for s in seeded]
        start = time.perf_counter()
        for p in players:
            p.start()
        for p in players:
            p.join(timeout=300)
        elapsed = time.perf_counter() - start
    finally:
        server.terminate()
        server.wait(timeout=30)
    latencies = [t for p in players for t in p.latencies]
    return latencies, sum(p.errors for p in players), elapsed


def bench_env(url: str) -> dict:
    """The environment of a benchmark's processes: production settings on `url`."""
    return {
        **os.environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-only-secret",
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
        "DJANGO_HTTPS": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }


def bench_django(url: str) -> dict:
    """Production-like settings on the database at `url`, migrated, and Django set up in
    this process; returns the environment, for servers started from it."""
    env = bench_env(url)
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    return env


def main():
    url, drop = bench_database_url()
    try:
        env = bench_django(url)
        seeded = seed(PLAYERS)
        edit, bare = time_in_process(seeded)
        print(
            f"web: trait edit over a {TRAITS}-trait character, {len(edit)} requests "
            "(Django test client, no network)"
        )
        print(
            f"  trait edit  median {statistics.median(edit) * 1000:6.2f} ms   "
            f"p95 {percentile(edit, 0.95) * 1000:6.2f} ms   (target p95 < 40 ms)"
        )
        print(
            f"  bare view   median {statistics.median(bare) * 1000:6.2f} ms   "
            f"p95 {percentile(bare, 0.95) * 1000:6.2f} ms"
        )
        ratio = statistics.median(edit) / statistics.median(bare)
        print(f"  ratio of medians {ratio:.1f}x (target within 10x)")
        from django.db import connections

        connections.close_all()
        latencies, errors, elapsed = load_run(env, seeded)
        print(
            f"web: load run, {PLAYERS} players x {EDITS_PER_PLAYER} edits against gunicorn "
            f"(2 workers x 4 threads) on 127.0.0.1, {THINK_SECONDS[0]}-{THINK_SECONDS[1]} s "
            "between a player's clicks"
        )
        if latencies:
            print(
                f"  {len(latencies)} edits in {elapsed:.1f} s "
                f"({len(latencies) / elapsed:.0f}/s), median "
                f"{statistics.median(latencies) * 1000:.1f} ms, p95 "
                f"{percentile(latencies, 0.95) * 1000:.1f} ms (target < 100 ms), "
                f"errors {errors} (target 0)"
            )
        else:
            print(f"  no edit completed; errors {errors}")
    finally:
        from django.db import connections

        connections.close_all()
        drop()


if __name__ == "__main__":
    main()
