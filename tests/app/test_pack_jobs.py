"""Campaign packs that outlive a crash, and a queue shared fairly (issue 31): a real
`manage.py db_worker` killed with SIGKILL mid-pack leaves a job the GM's page notices once
its heartbeat is older than the lease, queues again, and a worker then finishes; one
campaign's packs do not make another's wait for all of them."""

import json
import os
import signal
import subprocess
import sys
import time

import pytest
from django.db import connection
from django.urls import reverse

from characters.models import Character, PackJob
from characters.print_options import PrintOptions
from characters.services.printing import pack_job_create
from characters.services.review import character_approve, character_submit
from tests.app.test_two_servers import database_url
from tests.conftest import ROOT
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.commands import run_worker

pytestmark = pytest.mark.django_db(transaction=True)
LEASE = 2  # seconds, for the worker and for this process


def approved_party(campaign, gm, sample_file, count):
    from characters.services.character_files import character_import

    brogo = sample_file("brogo")
    for n in range(count):
        text = {**brogo, "name": f"Brogo {n + 1}"}
        character, _ = character_import(owner=gm, text=json.dumps(text), campaign=campaign)
        character_submit(character=character, actor=gm, expected_version=None)
        character_approve(character=character, actor=gm, expected_version=None, override_reason="t")
    assert campaign.characters.filter(state=Character.State.APPROVED).count() == count


def wait_for(condition, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        found = condition()
        if found:
            return found
        time.sleep(0.1)
    raise AssertionError("waited in vain")


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL only: a worker process cannot share the in-memory SQLite test database",
)
def test_a_pack_whose_worker_is_killed_is_noticed_and_finished(
    client, gm, campaign, sample_file, settings
):
    settings.PACK_LEASE_SECONDS = LEASE
    approved_party(campaign, gm, sample_file, 8)
    client.force_login(gm)
    client.post(reverse("campaign_pack", args=[campaign.pk]), {"paper": "a4", "output": "flat"})
    job = PackJob.objects.get()
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_OWNER_URL"}
    env.update(DATABASE_URL=database_url(), FAIRSHEET_PACK_LEASE=str(LEASE))
    worker = subprocess.Popen(
        [
            *[sys.executable, "manage.py", "db_worker", "--queue-name", "packs"],
            *["--no-startup-delay", "--no-reload"],
        ],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        # Mid-pack: its first sheet laid out, more to come.
        wait_for(lambda: PackJob.objects.filter(pk=job.pk, steps_done__gte=2).exists())
        os.kill(worker.pid, signal.SIGKILL)
    finally:
        worker.kill()
        worker.wait(timeout=30)
    job.refresh_from_db()
    assert (job.state, job.attempts) == (PackJob.State.RUNNING, 1)
    assert job.steps_done < job.steps
    page = reverse("campaign_pack", args=[campaign.pk])
    assert "queued again" not in client.get(page).content.decode()  # its lease still runs
    time.sleep(LEASE + 0.5)
    html = client.get(page).content.decode()
    assert "Its worker stopped before it was done: it is queued again." in html
    job.refresh_from_db()
    assert (job.state, job.steps_done) == (PackJob.State.QUEUED, 0)
    run_worker()  # another worker takes it
    job.refresh_from_db()
    assert (job.state, job.attempts, job.problem) == (PackJob.State.DONE, 2, "")
    assert bytes(job.content).startswith(b"%PDF") and job.characters == 8
    assert "Download the pack (PDF)" in client.get(page).content.decode()


def test_one_campaigns_packs_do_not_make_anothers_wait_for_all_of_them(gm, player):
    from characters.models import Campaign

    busy = Campaign.objects.create(name="Busy", gm=gm, base_ruleset="mudge")
    quiet = Campaign.objects.create(name="Quiet", gm=player, base_ruleset="mudge")
    options = PrintOptions()
    busy_jobs = [pack_job_create(campaign=busy, user=gm, options=options) for _ in range(4)]
    quiet_job = pack_job_create(campaign=quiet, user=player, options=options)
    run_worker()
    finished = sorted(PackJob.objects.all(), key=lambda job: (job.finished_at, job.pk))
    assert (
        [job.pk for job in finished]
        == [
            busy_jobs[0].pk,
            quiet_job.pk,  # its first pack is the busy campaign's second in line
            *[job.pk for job in busy_jobs[1:]],
        ]
    )
