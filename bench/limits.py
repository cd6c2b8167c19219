"""Limits under attack (`python -m bench.limits`, also in `make bench`), against gunicorn as
production runs it (2 workers x 4 threads) on 127.0.0.1:

- portraits: FLOOD users upload a picture at once, each again a second after its answer
  (as a person tries again), while another user's /table/ page is timed. The figures: the
  server's memory (master and workers, resident) at its highest during the flood less
  before it (target <= 300 MB; the probe saw 289 MB -> 1,589 MB with 25-megapixel PNGs),
  and the page's median as a ratio to its quiet median (target <= 3x; the probe saw 24.7x).
  Twice: the probe's 25-megapixel PNG (refused from its header now), then the largest
  picture still taken (16 megapixels);
- the designer's import of a ruleset file with 30,000 unknown skill-step words (Django's
  test client, no network), median of IMPORTS (target <= 1 s; it took 26.9 s), beside the
  ruleset reader alone.

Runs against its own database (a temporary SQLite file, or `<DATABASE_URL name>_bench` on
PostgreSQL), never the one you work in.
"""

import http.client
import io
import json
import os
import statistics
import threading
import time
import uuid
from collections import Counter
from pathlib import Path

from bench.fair import time_pages
from bench.web import Player, Server, bench_database_url, bench_django, ms, percentile, seed

FLOOD = 8  # uploads at once, as the probe sent
AGAIN_SECONDS = 1  # an uploader's pause before it uploads again
MEMORY_TARGET_MB = 300
PAGE_TARGET = 3.0
WORDS = 30_000
IMPORTS = 5
IMPORT_TARGET = 1.0


def png(side: int) -> bytes:
    """A plain PNG `side` pixels square: a few dozen KB of file, side x side of bitmap."""
    from PIL import Image

    out = io.BytesIO()
    Image.new("RGB", (side, side), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def resident_mb(server: Server) -> float:
    """The resident memory of gunicorn's master and its workers, from Linux's /proc."""
    master = server.process.pid
    try:
        workers = Path(f"/proc/{master}/task/{master}/children").read_text().split()
        pids = [master, *map(int, workers)]
        return sum(_rss_kb(pid) for pid in pids) / 1024
    except OSError:
        return 0.0


def _rss_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def upload(port: int, player: Player, picture: bytes) -> int:
    """One portrait upload as the builder's form sends it; the answer's status."""
    boundary = uuid.uuid4().hex
    body = (
        (
            f'--{boundary}\r\nContent-Disposition: form-data; name="portrait"; '
            'filename="portrait.png"\r\nContent-Type: image/png\r\n\r\n'
        ).encode()
        + picture
        + f"\r\n--{boundary}--\r\n".encode()
    )
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    connection.request(
        "POST",
        f"/characters/{player.pk}/portrait/upload/",
        body=body,
        headers={
            "Content-Type": f"multipart/form-data; boundary={boundary}",
            "Cookie": "; ".join(f"{k}={v}" for k, v in player.cookies.items()),
            "X-CSRFToken": player.cookies.get("csrftoken", ""),
        },
    )
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


def flood_run(server: Server, uploaders: list[Player], reader: Player, picture: bytes):
    """The reader's pages while every uploader sends `picture` again and again, the peak
    resident memory meanwhile, and how the uploads were answered."""
    stop, answers, peak = threading.Event(), Counter(), [resident_mb(server)]

    def flood(player):
        while not stop.is_set():
            status = upload(server.port, player, picture)
            answers[status] += 1
            stop.wait(AGAIN_SECONDS)

    def watch():
        while not stop.is_set():
            peak[0] = max(peak[0], resident_mb(server))
            stop.wait(0.02)

    threads = [threading.Thread(target=flood, args=(p,), daemon=True) for p in uploaders]
    threads.append(threading.Thread(target=watch, daemon=True))
    for thread in threads:
        thread.start()
    time.sleep(2)  # the flood under way
    pages = time_pages(reader)
    stop.set()
    for thread in threads:
        thread.join(timeout=120)
    return pages, peak[0], answers


def portrait_flood(env):
    seeded = seed(FLOOD + 1)
    with Server(env) as server:
        players = [Player(server.port, *s, edits=0, think=None) for s in seeded]
        for player in players:
            player.log_in()
        reader, uploaders = players[0], players[1:]
        time_pages(reader, 5)  # warm both workers
        for side in (5_000, 4_000):
            picture = png(side)
            upload(server.port, uploaders[0], picture)  # the upload path warm too
            quiet = time_pages(reader)
            before = resident_mb(server)
            flooded, peak, answers = flood_run(server, uploaders, reader, picture)
            ratio = statistics.median(flooded) / statistics.median(quiet)
            print(
                f"limits: {FLOOD} users uploading a {side * side / 1e6:.0f}-megapixel PNG "
                f"({len(picture) / 1024:.0f} KB) at once, each again {AGAIN_SECONDS} s after its "
                "answer; another user's /table/ page meanwhile"
            )
            print(
                f"  server memory  {before:.0f} MB before, {peak:.0f} MB at most: grew "
                f"{peak - before:.0f} MB (target <= {MEMORY_TARGET_MB} MB)"
            )
            print(
                f"  page   quiet median {ms(statistics.median(quiet))}, flooded median "
                f"{ms(statistics.median(flooded))} (p95 {ms(percentile(flooded, 0.95))}): "
                f"{ratio:.2f}x (target <= {PAGE_TARGET:.0f}x)"
            )
            shown = ", ".join(f"{count} x {status}" for status, count in sorted(answers.items()))
            print(f"  uploads answered: {shown} (302 kept or refused with a message, 503 busy)")


def designer_import():
    from django.contrib.auth import get_user_model
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    from rules.ruleset_file import ruleset_problems, ruleset_to_json
    from rules.rulesets import BUILTIN

    file = ruleset_to_json(BUILTIN["mudge"])
    file["slug"] = "many-words"
    file["advancement"]["skill_steps"] = {f"Step{n}": 1 for n in range(WORDS)}
    content = json.dumps(file).encode()
    client = Client()
    client.force_login(get_user_model().objects.create_user("limits-gm"))
    reads, imports = [], []
    for _ in range(IMPORTS + 1):  # the first warms the page's templates: not counted
        start = time.perf_counter()
        problems = ruleset_problems(json.loads(content))
        reads.append(time.perf_counter() - start)
        upload = SimpleUploadedFile("many.json", content)
        start = time.perf_counter()
        response = client.post("/games/", {"action": "import", "file": upload})
        imports.append(time.perf_counter() - start)
        assert response.status_code == 400, response.status_code
    reads, imports = reads[1:], imports[1:]
    print(
        f"limits: the designer's import of a ruleset file with {WORDS:,} unknown skill-step "
        f"words ({len(content) / 1024:.0f} KB), {IMPORTS} imports (test client, no network)"
    )
    print(
        f"  import median {statistics.median(imports):.3f} s (target <= {IMPORT_TARGET:.0f} s); "
        f"the reader alone {statistics.median(reads):.3f} s"
    )
    print(
        f"  the page: {len(response.content) / 1024:.0f} KB, {len(problems) - 1} problems "
        f"listed and {problems[-1][1]!r}"
    )


def main():
    url, drop = bench_database_url()
    try:
        env = bench_django(url)
        print(f"(a machine of {os.cpu_count()} core(s), shared: figures vary with its load)")
        designer_import()
        from django.db import connections

        connections.close_all()
        portrait_flood(env)
    finally:
        from django.db import connections

        connections.close_all()
        drop()


if __name__ == "__main__":
    main()
