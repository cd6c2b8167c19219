"""How long printing takes, in one run (`python -m bench.pdf`, also in `make bench`):

- one sheet (Brogo, one page), fillable and flat: the warm median of a render, next to
  WeasyPrint rendering a one-line page with the same fetcher (the floor this machine sets);
- a maximal character (as many traits and pieces of equipment as a character may have,
  rules.charfile.MAX_ROWS), target under 1 s;
- a kept (cached) sheet: the median of its download through Django's test client;
- a campaign pack of 50 of the largest characters a file may hold (rules.charfile's limits:
  300 traits and pieces of equipment, notes and three personality answers of 20,000
  characters each) end to end: asked for on the pack page, rendered by a real `db_worker`
  process, its progress as the page sees it; the worker's peak memory (its resource usage,
  from wait4), next to its memory before it took the pack (a pack is laid out a part at a
  time: its peak should not grow with the party), and the file's size;
- the pack downloaded five times from gunicorn on 127.0.0.1 (one worker, so every download
  is the same process's): the worker's resident memory before and after (a download is
  streamed from the file: it should not grow by the pack's size, or at all).

The database part runs in a child process against a throwaway database (a temporary SQLite
file, or `<DATABASE_URL name>_bench` on PostgreSQL) and a temporary files folder, never the
ones you work in. Targets: a sheet 0.08 s, a kept sheet 10 ms, the pack's worker 300 MiB at
its peak, the web worker 50 MiB more after the downloads. Figures only, no assertions.
"""

import dataclasses
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

from bench.targets import beside

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "rules" / "samples"
RUNS = 15
SHEET_TARGET, MAXIMAL_TARGET, KEPT_TARGET = 0.08, 1.0, 0.010
PACK_CHARACTERS = 50
PACK_PEAK_TARGET_MIB, DOWNLOAD_GROWTH_TARGET_MIB, DOWNLOADS = 300, 50, 5
PASSWORD = "bench-password-123"
# The pack queue's worker, as `make run` starts it (settings.TASKS: packs have their own queue).
WORKER = [sys.executable, "manage.py", "db_worker", "--queue-name", "packs"]


def median_seconds(render, runs=RUNS) -> float:
    render()  # warm up: fonts, templates and CSS parsers load once per process
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        render()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def brogo_sheet():
    from characters.sheets import ApprovalStamp, build_sheet
    from rules.charfile import parse_character_json
    from rules.house_rules import apply_house_rules
    from rules.rulesets import BUILTIN

    brogo = parse_character_json((SAMPLES / "brogo.json").read_text()).character
    ruleset = apply_house_rules(BUILTIN[brogo.ruleset], brogo.house_rules)
    stamp = ApprovalStamp("0" * 64, "approved over budget by 1 skill level: bench")
    return build_sheet(brogo, ruleset, stamp)


def maximal_sheets():
    """Brogo with MAX_ROWS rows, each a realistic length: half skills, half equipment with
    a note (equipment rows are the dearer to lay out), and every skill level in use."""
    from characters.sheets import build_sheet
    from rules.character import Equipment, Trait
    from rules.charfile import MAX_ROWS, parse_character_json
    from rules.house_rules import apply_house_rules
    from rules.rulesets import BUILTIN

    brogo = parse_character_json((SAMPLES / "brogo.json").read_text()).character
    attributes = brogo.attributes
    skills = (MAX_ROWS - len(attributes)) // 2
    character = dataclasses.replace(
        brogo,
        name="Maximal",
        skills=tuple(
            Trait(f"Skill {i:03d} of a long and varied career", i % 7 - 3, "average")
            for i in range(skills)
        ),
        gifts=(),
        faults=(),
        powers=(),
        equipment=tuple(
            Equipment(f"Item {i:03d} from a well-stocked pack", "gear", None, None, "a note " * 8)
            for i in range(MAX_ROWS - len(attributes) - skills)
        ),
    )
    ruleset = apply_house_rules(BUILTIN[character.ruleset], character.house_rules)
    return [build_sheet(character, ruleset, None)]


def main():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from weasyprint import HTML

    from characters.pdf import StaticFilesOnly, render_sheets_pdf
    from characters.print_options import PrintOptions
    from tests.support.pdf_helpers import pages

    brogo = brogo_sheet()
    floor = median_seconds(
        lambda: HTML(string="<p>One line.</p>", url_fetcher=StaticFilesOnly()).write_pdf()
    )
    fillable = median_seconds(lambda: render_sheets_pdf([brogo]))
    flat = median_seconds(lambda: render_sheets_pdf([brogo], PrintOptions(fillable=False)))
    count = len(pages(render_sheets_pdf([brogo])))
    maximal = maximal_sheets()
    most = median_seconds(lambda: render_sheets_pdf(maximal), runs=5)

    print(f"PDF rendering (median of {RUNS}, seconds)")
    print(f"  WeasyPrint one-line page   {floor:7.3f}")
    print(
        f"  one sheet, fillable        {fillable:7.3f}  {fillable / floor:4.1f}x the floor, "
        f"{count} page(s); target {SHEET_TARGET}"
    )
    print(f"  one sheet, flat            {flat:7.3f}  {flat / floor:4.1f}x the floor")
    print(beside("one fillable sheet", fillable / floor, "the one-line page"))
    print(
        f"  maximal character          {most:7.3f}  {most / floor:4.1f}x the floor, "
        f"{most / fillable:.1f}x Brogo's; target {MAXIMAL_TARGET}"
    )
    sys.stdout.flush()
    _run_database_part()


def _run_database_part():
    from bench.web import bench_database_url, bench_env

    url, drop = bench_database_url()
    files = tempfile.mkdtemp(prefix="fairsheet-bench-files-")
    env = {**bench_env(url), "FAIRSHEET_FILES_DIR": files}
    try:
        manage = [sys.executable, "manage.py"]
        subprocess.run([*manage, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True)
        subprocess.run(
            [sys.executable, "-m", "bench.pdf", "database"], cwd=ROOT, env=env, check=True
        )
    finally:
        drop()
        shutil.rmtree(files)


def database_part():
    """In a child process whose DATABASE_URL is the throwaway database, migrated."""
    import django

    # WhiteNoise looks for STATIC_ROOT even when it serves through the finders.
    warnings.filterwarnings("ignore", "No directory at", UserWarning)

    django.setup()
    from django.test import Client
    from django.urls import reverse

    gm, campaign = _seed()
    client = Client()
    client.login(username=gm.username, password=PASSWORD)
    # An approved sheet: a draft's changes with every edit and is never kept.
    kept_one = campaign.characters.order_by("pk").first()
    url = reverse("character_sheet_pdf", args=[kept_one.pk])
    first = time.perf_counter()
    client.get(url)
    rendered = time.perf_counter() - first
    kept = median_seconds(lambda: client.get(url), runs=50)
    print("Kept sheets (Django test client, the GM downloading an approved sheet again)")
    print(f"  first download (rendered)  {rendered:7.3f} s")
    print(f"  kept download, median      {kept * 1000:7.2f} ms  target {KEPT_TARGET * 1000:.0f} ms")
    sys.stdout.flush()
    job = _pack_run(client, campaign)
    _download_run(client, campaign, job)


def largest_files(count: int) -> list[str]:
    """Brogo `count` times over, each as large as a character file may be (rules.charfile):
    MAX_ROWS rows (his attributes, then half skills at every level, half equipment with a
    note), notes and three personality answers of MAX_TEXT characters each."""
    from rules.charfile import MAX_ROWS, MAX_TEXT

    brogo = json.loads((SAMPLES / "brogo.json").read_text())
    levels = ["Poor", "Mediocre", "Fair", "Good", "Great", "Superb"]
    rows = MAX_ROWS - len(brogo["attributes"])
    skills = [
        {"name": f"Skill {i:03d} of a long career", "level": levels[i % 6], "difficulty": "average"}
        for i in range(rows // 2)
    ]
    equipment = [
        {"name": f"Item {i:03d} from a full pack", "kind": "gear", "notes": "a note " * 8}
        for i in range(rows - rows // 2)
    ]
    prose = ("The road north was long and the rain did not stop. " * 400)[:MAX_TEXT].strip()
    personality = {key: prose for key in ("values", "desires", "history")}
    return [
        json.dumps(
            {
                **brogo,
                "name": f"{brogo['name']} {n + 1}",
                "skills": skills,
                "gifts": [],
                "faults": [],
                "powers": [],
                "equipment": equipment,
                "notes": prose,
                "personality": personality,
            }
        )
        for n in range(count)
    ]


def _seed():
    """A GM and a Mudge campaign of PACK_CHARACTERS of the largest characters, imported,
    submitted and approved through the services, as at a real table."""
    from django.contrib.auth import get_user_model

    from characters.services.campaigns import campaign_create
    from characters.services.character_files import character_import
    from characters.services.review import character_approve, character_submit

    gm = get_user_model().objects.create_user("bench-gm", password=PASSWORD)
    campaign = campaign_create(gm=gm, name="Bench", base_ruleset="mudge")
    for text in largest_files(PACK_CHARACTERS):
        character, _ = character_import(owner=gm, text=text, campaign=campaign)
        character_submit(character=character, actor=gm, expected_version=None)
        character_approve(
            character=character, actor=gm, expected_version=None, override_reason="bench"
        )
    return gm, campaign


def _pack_run(client, campaign):
    """The GM asks for the pack; a real worker process renders it while this process reads
    its progress as the page's polling would."""
    from django.urls import reverse

    from characters.models import PackJob
    from characters.services.printing import pack_storage

    start = time.perf_counter()
    data = {"paper": "a4", "output": "fillable", "reference": "on"}
    client.post(reverse("campaign_pack", args=[campaign.pk]), data)
    job = PackJob.objects.get()
    worker = subprocess.Popen(
        [*WORKER, "--batch", "--no-startup-delay", "--no-reload", "--verbosity", "0"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
    )
    print(
        f"Campaign pack, {PACK_CHARACTERS} approved characters as large as a file may be, "
        "A4, fillable, reference page"
    )
    seen, exited, taken_rss = None, 0, None
    while not exited:
        # wait4 rather than Popen.poll: it also gives the worker's own peak memory.
        exited, status, usage = os.wait4(worker.pid, os.WNOHANG)
        progress = PackJob.objects.values_list("state", "steps_done", "steps").get(pk=job.pk)
        if progress[0] == "running" and taken_rss is None:
            taken_rss = _rss_mib(worker.pid)
        if progress != seen:
            state, done, steps = progress
            print(f"  {time.perf_counter() - start:6.2f} s  {state:8} step {done:2d} of {steps}")
            seen = progress
        time.sleep(0.2)
    worker.returncode = os.waitstatus_to_exitcode(status)
    elapsed = time.perf_counter() - start
    job.refresh_from_db()
    size = pack_storage().size(job.file_name) if job.file_name else 0
    print(f"  {job.state} after {elapsed:.2f} s end to end, {size / 2**20:.1f} MiB")
    print(
        f"  worker peak RSS {usage.ru_maxrss / 2**10:7.1f} MiB  target {PACK_PEAK_TARGET_MIB} "
        f"(exit code {worker.returncode})"
    )
    print(f"  worker RSS when it took the pack {taken_rss or 0:7.1f} MiB")
    sys.stdout.flush()
    return job


def _download_run(client, campaign, job):
    """The pack downloaded DOWNLOADS times from one gunicorn worker, read a block at a time
    and dropped; the worker's resident memory after a first visit (Django loaded) and after
    the downloads."""
    from django.conf import settings
    from django.urls import reverse

    from bench.web import Server

    cookie = f"{settings.SESSION_COOKIE_NAME}={client.cookies[settings.SESSION_COOKIE_NAME].value}"

    def get(port, path) -> tuple[int, int]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        connection.request("GET", path, headers={"Cookie": cookie})
        response = connection.getresponse()
        received = 0
        while block := response.read(2**16):
            received += len(block)
        connection.close()
        return response.status, received

    print(f"Downloads of the pack, {DOWNLOADS} in turn, from gunicorn (1 worker) on 127.0.0.1")
    with Server(dict(os.environ), workers=1) as server:
        (worker,) = server.worker_pids()
        get(server.port, reverse("campaign_pack", args=[campaign.pk]))  # Django loaded
        before = _rss_mib(worker)
        download = reverse("campaign_pack_download", args=[campaign.pk, job.pk])
        answers = [get(server.port, download) for _ in range(DOWNLOADS)]
        after = _rss_mib(worker)
    print(f"  answers {sorted(set(answers))} (status, bytes)")
    print(f"  web worker RSS before {before:7.1f} MiB, after {after:7.1f} MiB")
    print(
        f"  growth                 {after - before:7.1f} MiB  target {DOWNLOAD_GROWTH_TARGET_MIB}"
    )


def _rss_mib(pid: int) -> float:
    """A process's resident memory now, from Linux's /proc (0 where there is none)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0.0
    line = next(line for line in status.splitlines() if line.startswith("VmRSS:"))
    return int(line.split()[1]) / 1024


if __name__ == "__main__":
    if sys.argv[1:] == ["database"]:
        database_part()
    else:
        main()
