"""Web benchmarks (issues 3, 10 and 24): the trait-edit request and the builder page over a
60-trait character, each as a ratio to a bare view in the same run, the edit with its SQL
statement count; 50 simulated players editing at once against gunicorn, about a second
apart; and a saturation run with no pauses.

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

from bench.targets import SATURATION_RATE, beside

ROOT = Path(__file__).resolve().parent.parent
PLAYERS = 50
EDITS_PER_PLAYER = 30
# A player looks at the panel before the next click: 0.5 to 1.5 s between edits.
THINK_SECONDS = (0.5, 1.5)
# The saturation run: as many players as the server has threads, no pause, for this long,
# each loading the whole builder page once in every PAGE_EVERY requests.
SATURATION_USERS = 8
SATURATION_SECONDS = 15
PAGE_EVERY = 5
TRAITS = 60
# Issue 24: the builder page and a trait edit, each at most this many times the bare view.
PAGE_TARGET, EDIT_TARGET = 40, 15
PASSWORD = "bench-password-123"


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench_database_url() -> tuple[str, callable]:
    """A throwaway database and a function that drops it afterwards. On PostgreSQL set up as
    the README's production (DATABASE_OWNER_URL the owner, DATABASE_URL the runtime role,
    which may create nothing), the owner creates it and owns it, as it does the real one:
    bench_env then points DATABASE_OWNER_URL at it too, so its migrations run there as the
    owner and grant the runtime role, never on the database you work in."""
    url = os.environ.get("DATABASE_URL", "")
    if url.startswith("postgres"):
        base, _, name = url.rpartition("/")
        bench_name = f"{name or 'fairsheet'}_bench"
        creator = os.environ.get("DATABASE_OWNER_URL") or url
        admin = f"{creator.rpartition('/')[0]}/postgres"
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

    from characters.models import Membership, Trait
    from characters.services.campaigns import campaign_create
    from characters.services.characters import character_create

    User = get_user_model()
    gm = User.objects.create_user("bench-gm", password=PASSWORD)
    # Through the service, as a GM makes one: with Mudge's catalogue, which the builder reads.
    campaign = campaign_create(gm=gm, name="Bench", base_ruleset="mudge")
    seeded = []
    for i in range(players):
        user = User.objects.create_user(f"bench-{i}", password=PASSWORD)
        Membership.objects.create(campaign=campaign, user=user)
        character = character_create(owner=user, name=f"Bench {i}", campaign=campaign)
        Trait.objects.bulk_create(
            Trait(
                character=character,
                kind=Trait.Kind.SKILL,
                name=f"Skill {n}",
                level=-1,
                difficulty="average",
                position=n,
            )
            for n in range(TRAITS - 7)
        )
        seeded.append(
            (user.username, character.pk, character.traits.filter(kind=Trait.Kind.SKILL).first().pk)
        )
    return seeded


def htmx_post(client, path: str, data: dict):
    """A form posted as htmx posts it, and as the load runs below do: urlencoded, with its
    header. (The test client's own default is a multipart body, which no page of the site
    sends: parsing one cost the server some 0.3 ms an edit.)"""
    return client.post(
        path,
        urlencode(data),
        content_type="application/x-www-form-urlencoded",
        HTTP_HX_REQUEST="true",
    )


def time_in_process(seeded, rounds=300):
    """Server time of the trait-edit request and of the bare view, through Django's test
    client (no sockets): what the view costs, not the network. Also the edit's SQL queries."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext
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
        response = htmx_post(client, url, data)
        edit.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        start = time.perf_counter()
        client.get("/healthz")
        bare.append(time.perf_counter() - start)
    # The statements of the next ten edits, each a level the one before did not set (a real
    # change, not a save of the same row): their median, since one edit in ten also trims
    # the undo history (services.history).
    counts = []
    for n in range(rounds, rounds + 10):
        version = Character.objects.values_list("version", flat=True).get(pk=pk)
        data = {"version": version, "name": "Skill 0", "level": n % 3 - 1, "difficulty": "average"}
        with CaptureQueriesContext(connection) as queries:
            htmx_post(client, url, data)
        # Transaction control (BEGIN, COMMIT) is left out, as the tests' count leaves it out.
        counts.append(
            sum(not q["sql"].startswith(("BEGIN", "COMMIT")) for q in queries.captured_queries)
        )
    return edit, bare, sorted(counts)[len(counts) // 2]


def time_floor(seeded, rounds=300):
    """The median of a signed-in htmx POST that does nothing (bench/floor_urls.py): the
    floor under any edit. Also the floor's own SQL statements (the session's and the
    user's)."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext, override_settings

    username = seeded[0][0]
    client = Client()
    client.login(username=username, password=PASSWORD)
    times = []
    with override_settings(ROOT_URLCONF="bench.floor_urls"):
        for _ in range(rounds):
            start = time.perf_counter()
            response = htmx_post(client, "/bench/signed-in-post", {"n": 1})
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
        with CaptureQueriesContext(connection) as queries:
            htmx_post(client, "/bench/signed-in-post", {"n": 1})
    return statistics.median(times), len(queries)


def time_waits(seeded, rounds=100):
    """Medians of a trait edit's time waiting on PostgreSQL, and of the whole edit around
    it: what is left is the edit's own work in Python. Every round trip of psycopg's waits
    in its connection's `wait` (a statement, BEGIN, the pipelined inserts, COMMIT), timed
    here on this benchmark's connection only. In a run of its own: the timer costs a
    little, and the edit above is timed without it. None on SQLite, which never waits."""
    from django.db import connection
    from django.test import Client
    from django.urls import reverse

    from characters.models import Character

    if connection.vendor != "postgresql":
        return None
    username, pk, trait_pk = seeded[0]
    client = Client()
    client.login(username=username, password=PASSWORD)
    url = reverse("trait_update", args=[pk, trait_pk])
    connection.ensure_connection()
    psycopg_connection, waited = connection.connection, [0.0]

    def timed_wait(*args, **kwargs):
        start = time.perf_counter()
        try:
            return type(psycopg_connection).wait(psycopg_connection, *args, **kwargs)
        finally:
            waited[0] += time.perf_counter() - start

    psycopg_connection.wait = timed_wait
    waits, edits = [], []
    try:
        for n in range(rounds):
            version = Character.objects.values_list("version", flat=True).get(pk=pk)
            data = {
                "version": version,
                "name": "Skill 0",
                "level": n % 3 - 1,
                "difficulty": "average",
            }
            waited[0] = 0.0
            start = time.perf_counter()
            htmx_post(client, url, data)
            edits.append(time.perf_counter() - start)
            waits.append(waited[0])
    finally:
        del psycopg_connection.wait
    return statistics.median(waits), statistics.median(edits)


def time_page(seeded, rounds=60):
    """Median server times of the whole builder page over the same character and of the
    bare view, each page followed by a bare view (test client)."""
    from django.test import Client

    username, pk, _ = seeded[0]
    client = Client()
    client.login(username=username, password=PASSWORD)
    times, bare = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        response = client.get(f"/characters/{pk}/")
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
        start = time.perf_counter()
        client.get("/healthz")
        bare.append(time.perf_counter() - start)
    return statistics.median(times), statistics.median(bare)


class Player(threading.Thread):
    """One simulated player: logs in over HTTP, then edits a skill level again and again,
    `think` seconds apart (a (low, high) range; None for none). With `page_every`, it loads
    the whole builder page once every that many edits, as a player who reloads or moves
    between characters does. With `until`, it stops at that time instead of after `edits`."""

    def __init__(self, port, username, pk, trait_pk, *, edits, think, page_every=0, until=None):
        super().__init__(daemon=True)
        self.port, self.username, self.pk, self.trait_pk = port, username, pk, trait_pk
        self.edits, self.think, self.page_every, self.until = edits, think, page_every, until
        self.version: int | None = None  # the version the player's page holds
        self.cookies: dict[str, str] = {}
        self.latencies: list[float] = []
        self.page_latencies: list[float] = []
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

    def log_in(self) -> int:
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
        return self.load_page()

    def load_page(self) -> int:
        """The builder page; returns the version its forms carry."""
        start = time.perf_counter()
        response, page = self.request("GET", f"/characters/{self.pk}/")
        self.page_latencies.append(time.perf_counter() - start)
        if response.status != 200:
            raise OSError(f"builder page answered {response.status}")
        return int(re.search(rb'name="version" value="(\d+)"', page).group(1))

    def run(self):
        if self.version is None:
            try:
                self.version = self.log_in()
            except Exception:  # a failed login counts as one error, not a crash
                self.errors += 1
                return
            self.page_latencies.clear()  # the first page warms caches: not in the figures
        pause = random.Random(self.username)  # the same pauses every run
        n = 0
        while n < self.edits if self.until is None else time.perf_counter() < self.until:
            if self.think:
                time.sleep(pause.uniform(*self.think))
            n += 1
            try:
                if self.page_every and n % self.page_every == 0:
                    self.version = self.load_page()
                self.version = self.edit(self.version, n)
            except OSError:
                self.errors += 1

    def edit(self, version: int, n: int) -> int:
        body = urlencode(
            {"version": version, "name": "Skill 0", "level": n % 3 - 1, "difficulty": "average"}
        )
        start = time.perf_counter()
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
        self.latencies.append(time.perf_counter() - start)
        if response.status != 200:
            raise OSError(f"edit answered {response.status}")
        return json.loads(response.getheader("HX-Trigger"))["versionChanged"]["value"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """gunicorn on 127.0.0.1, as production runs it: 2 workers x 4 threads (or `workers`)."""

    def __init__(self, env, workers=2):
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "gunicorn",
                "config.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                str(workers),
                "--threads",
                "4",
                "--log-level",
                "warning",
            ],
            cwd=ROOT,
            env=env,
        )

    def __enter__(self):
        deadline = time.time() + 30
        while time.time() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.2)
        return self

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=30)

    def worker_pids(self) -> list[int]:
        """gunicorn's workers (the master's children), from Linux's /proc."""
        master = self.process.pid
        return [
            int(pid) for pid in Path(f"/proc/{master}/task/{master}/children").read_text().split()
        ]

    def cpu_seconds(self) -> float:
        """CPU time (user + system) gunicorn's master and its workers have used so far: read
        from Linux's /proc, and 0 where there is none."""
        master = self.process.pid
        try:
            ticks = sum(_cpu_ticks(pid) for pid in [master, *self.worker_pids()])
        except OSError:
            return 0.0
        return ticks / os.sysconf("SC_CLK_TCK")


def _cpu_ticks(pid: int) -> int:
    # /proc/<pid>/stat: utime and stime are the 14th and 15th fields, counted after the
    # parenthesised command name (which may hold spaces).
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


def run_players(players):
    """Start every player, wait for all; the seconds it took."""
    start = time.perf_counter()
    for p in players:
        p.start()
    for p in players:
        p.join(timeout=600)
    return time.perf_counter() - start


def load_run(env, seeded):
    """PLAYERS players, each EDITS_PER_PLAYER edits about a second apart."""
    with Server(env) as server:
        players = [
            Player(server.port, *s, edits=EDITS_PER_PLAYER, think=THINK_SECONDS) for s in seeded
        ]
        elapsed = run_players(players)
    latencies = [t for p in players for t in p.latencies]
    return latencies, sum(p.errors for p in players), elapsed


def saturation_run(env, seeded, *, users=SATURATION_USERS, seconds=SATURATION_SECONDS):
    """As many requests as the server answers: `users` players with no pause between
    clicks, each loading the builder page once every PAGE_EVERY edits."""
    with Server(env) as server:
        # Logged in before the clock starts: the figure is the builder's, not the log-in's.
        players = [
            Player(server.port, *s, edits=0, think=None, page_every=PAGE_EVERY)
            for s in seeded[:users]
        ]
        for p in players:
            p.version = p.log_in()
            p.page_latencies.clear()
        until = time.perf_counter() + seconds
        for p in players:
            p.until = until
        # Where the machine's CPU went: the server, and this process, the load generator.
        server_cpu, generator_cpu = server.cpu_seconds(), time.process_time()
        elapsed = run_players(players)
        cpu = (server.cpu_seconds() - server_cpu, time.process_time() - generator_cpu)
    edits = [t for p in players for t in p.latencies]
    pages = [t for p in players for t in p.page_latencies]
    return edits, pages, sum(p.errors for p in players), elapsed, cpu


def bench_env(url: str, environ=os.environ) -> dict:
    """The environment of a benchmark's processes: production settings on `url`, and the
    owner's role (if the environment names one) on the same database."""
    environ = dict(environ)
    owner = environ.pop("DATABASE_OWNER_URL", "")
    if owner and url.startswith("postgres"):
        environ["DATABASE_OWNER_URL"] = f"{owner.rpartition('/')[0]}/{url.rpartition('/')[2]}"
    return {
        **environ,
        "DATABASE_URL": url,
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": "bench-only-secret",
        # Production settings refuse to start without the audit trail's key (settings.py).
        "DJANGO_AUDIT_KEY": "bench:bench-only-audit-key",
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
    _connect(url)
    return env


def _connect(url: str) -> None:
    """Point this process's default connection at `url`. Django reads DATABASE_URL once, at
    the first setup: under `make bench` every module after the first gets a database of its
    own, which its connections would otherwise never reach (they would seed and time the
    first module's, and a seed that reuses a name, "bench-gm", fails on it)."""
    import dj_database_url
    from django.conf import settings
    from django.db import connections

    connections.close_all()
    # Where the database is, only: the engine's options (SQLite's WAL) stay as settings made them.
    where = ("NAME", "USER", "PASSWORD", "HOST", "PORT")
    owner = bench_env(url).get("DATABASE_OWNER_URL")
    for alias, at in (("default", url), ("owner", owner)):
        if alias in settings.DATABASES and at:
            settings.DATABASES[alias].update(
                {key: value for key, value in dj_database_url.parse(at).items() if key in where}
            )
            connections[alias].close()
            del connections[alias]  # made again, from the settings above, when next used


def main():
    url, drop = bench_database_url()
    try:
        env = bench_django(url)
        seeded = seed(PLAYERS)
        edit, bare, queries = time_in_process(seeded)
        print(
            f"web: trait edit over a {TRAITS}-trait character, {len(edit)} requests "
            "(Django test client, no network)"
        )
        print(
            f"  trait edit  median {ms(statistics.median(edit))}   "
            f"p95 {ms(percentile(edit, 0.95))}   (target median <= 6 ms, p95 <= 10 ms)"
        )
        print(
            f"  bare view   median {ms(statistics.median(bare))}   p95 {ms(percentile(bare, 0.95))}"
        )
        ratio = statistics.median(edit) / statistics.median(bare)
        print(f"  ratio of medians {ratio:.1f}x; SQL statements per edit {queries} (median of ten)")
        floor, floor_queries = time_floor(seeded)
        print(
            f"  under it: a signed-in htmx POST that does nothing {ms(floor)} "
            f"({floor_queries} of the statements)"
        )
        waited = time_waits(seeded)
        if waited is not None:
            waits, timed_edit = waited
            print(
                f"  in a run timing its round trips to PostgreSQL (edit median "
                f"{ms(timed_edit)}): its statements, BEGIN and COMMIT waited {ms(waits)}, "
                f"and the rest, {ms(timed_edit - waits)}, is its work in Python"
            )
        page, page_bare = time_page(seeded)
        # The saturation run's mix, one page in every PAGE_EVERY requests, as CPU time of one
        # core: what the server could serve at most with every core its own.
        mix = (page + (PAGE_EVERY - 1) * statistics.median(edit)) / PAGE_EVERY
        cores = os.cpu_count() or 1
        print(
            f"  the builder page, same character: median {ms(page)}; the saturation mix "
            f"(a page every {PAGE_EVERY} requests) costs {ms(mix)} a request, so {cores} "
            f"core(s) serve at most {cores / mix:.0f}/s before the load generator's share"
        )
        # Issue 24's targets, as ratios to the bare view timed beside each (medians).
        print(
            f"  issue 24: builder page {page / page_bare:5.1f}x bare (target <= {PAGE_TARGET}x), "
            f"trait edit {ratio:5.1f}x bare (target <= {EDIT_TARGET}x), {queries} statements"
        )
        print(beside("trait edit", ratio))
        print(beside(f"builder page, {TRAITS} traits", page / page_bare))
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
                f"({len(latencies) / elapsed:.0f}/s), median {ms(statistics.median(latencies))}, "
                f"p95 {ms(percentile(latencies, 0.95))} (target <= 100 ms), "
                f"errors {errors} (target 0)"
            )
        else:
            print(f"  no edit completed; errors {errors}")
        edits, pages, errors, elapsed, (server_cpu, generator_cpu) = saturation_run(env, seeded)
        done = len(edits) + len(pages)
        print(
            f"web: saturation, {SATURATION_USERS} players with no pause against the same "
            f"gunicorn for {SATURATION_SECONDS} s, a builder page every {PAGE_EVERY} requests, "
            "the load generator on the same machine"
        )
        if edits:
            print(
                f"  {done} requests, {done / elapsed:.0f}/s (target >= 200/s); edits median "
                f"{ms(statistics.median(edits))}, p95 {ms(percentile(edits, 0.95))}; pages "
                f"median {ms(statistics.median(pages) if pages else 0)}; errors {errors}"
            )
            print(
                f"  CPU of the {elapsed:.1f} s x {cores} core(s): gunicorn {server_cpu:.1f} s "
                f"({ms(server_cpu / done)} a request), the load generator {generator_cpu:.1f} s"
            )
            # The bare view of the in-process run above: gunicorn's CPU a request against it.
            print(
                beside("saturation mix, CPU a request", server_cpu / done / statistics.median(bare))
            )
            print(
                f"  issue 40: saturation rate {done / elapsed:.0f}/s  target >= "
                f"{SATURATION_RATE}/s  {'met' if done / elapsed >= SATURATION_RATE else 'MISSED'}"
            )
        else:
            print(f"  no request completed; errors {errors}")
    finally:
        from django.db import connections

        connections.close_all()
        drop()


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


if __name__ == "__main__":
    main()
