"""Campaign packs that outlive a crash, and a queue shared fairly (issue 31): a real
`manage.py db_worker` killed with SIGKILL mid-pack leaves a job the GM's page notices once
its heartbeat is older than the lease, queues again, and a worker then finishes; one
campaign's packs do not make another's wait for all of them. A finished pack is a file of
the "packs" storage, not a row's bytes: streamed on download, deleted with its job."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from django.db import connection
from django.http import FileResponse
from django.urls import reverse
from django.utils import timezone

from characters.models import Character, PackJob
from characters.print_options import PrintOptions
from characters.services.printing import PACK_KEEP, pack_job_create, pack_storage
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
    with pack_storage().open(job.file_name) as file:
        assert file.read(5) == b"%PDF-" and job.characters == 8
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


def finished_pack(client, gm, campaign, sample_file) -> PackJob:
    approved_party(campaign, gm, sample_file, 2)
    client.force_login(gm)
    client.post(reverse("campaign_pack", args=[campaign.pk]), {"paper": "a4", "output": "flat"})
    run_worker()
    job = PackJob.objects.get()
    assert job.state == PackJob.State.DONE
    return job


def test_a_pack_is_a_file_in_storage_streamed_on_download(client, gm, campaign, sample_file):
    job = finished_pack(client, gm, campaign, sample_file)
    storage = pack_storage()
    assert job.file_name == f"pack-{job.pk}.pdf"
    path = Path(storage.path(job.file_name))
    assert path.is_relative_to(Path(os.environ["FAIRSHEET_FILES_DIR"]))
    on_disk = path.read_bytes()
    assert on_disk.startswith(b"%PDF-") and len(on_disk) > 10_000
    with connection.cursor() as cursor:  # no column of the row holds the PDF
        cursor.execute(
            "SELECT octet_length(t::text) FROM characters_packjob t WHERE id = %s", [job.pk]
        )
        assert cursor.fetchone()[0] < 1000
    response = client.get(reverse("campaign_pack_download", args=[campaign.pk, job.pk]))
    assert isinstance(response, FileResponse) and response.streaming
    assert response["Content-Length"] == str(len(on_disk))
    assert response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == 'attachment; filename="the-watch-pack.pdf"'
    chunks = list(response.streaming_content)
    assert len(chunks) > 1  # sent a block at a time, never as one string
    assert b"".join(chunks) == on_disk


def test_pruning_a_pack_deletes_its_file(client, gm, campaign, sample_file):
    job = finished_pack(client, gm, campaign, sample_file)
    storage = pack_storage()
    assert storage.exists(job.file_name)
    PackJob.objects.filter(pk=job.pk).update(created_at=timezone.now() - PACK_KEEP * 2)
    newer = pack_job_create(campaign=campaign, user=gm, options=PrintOptions())
    assert list(PackJob.objects.values_list("pk", flat=True)) == [newer.pk]
    assert not storage.exists(job.file_name)


def test_a_campaign_deleted_takes_its_packs_files(gm):
    from characters.models import Campaign

    campaign = Campaign.objects.create(name="Never played", gm=gm, base_ruleset="mudge")
    job = pack_job_create(campaign=campaign, user=gm, options=PrintOptions())
    run_worker()
    job.refresh_from_db()
    assert pack_storage().exists(job.file_name)
    campaign.delete()
    assert not pack_storage().exists(job.file_name)


def test_nobody_but_the_gm_downloads_the_file(client, gm, player, campaign, sample_file):
    job = finished_pack(client, gm, campaign, sample_file)
    download = reverse("campaign_pack_download", args=[campaign.pk, job.pk])
    client.force_login(player)  # a player of the campaign
    assert client.get(download).status_code == 404
    client.logout()
    assert client.get(download).status_code == 302  # to the login page
    client.force_login(gm)
    assert client.get(download).status_code == 200


def test_a_pack_whose_file_is_gone_is_a_404_not_a_500(client, gm, campaign, sample_file):
    job = finished_pack(client, gm, campaign, sample_file)
    pack_storage().delete(job.file_name)
    assert (
        client.get(reverse("campaign_pack_download", args=[campaign.pk, job.pk])).status_code == 404
    )
