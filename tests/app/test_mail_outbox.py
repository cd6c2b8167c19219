"""The outbox (services.mail_outbox) against a real SMTP server on 127.0.0.1, run in this
process (tests.support.smtp): a mail sent while the server hangs goes out once when it
answers; a sender killed mid-send leaves its mail to another once the lease is over; a pack
never waits behind mail; a party award is one mail per player. Timeouts and leases are a
few seconds here, so each test is over in well under a minute."""

import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.urls import reverse
from django.utils import timezone

from characters.models import Notification, OutgoingMail, PackJob
from characters.print_options import PrintOptions
from characters.services.advancement import experience_award_party
from characters.services.characters import character_create
from characters.services.mail_outbox import mail_queue, mail_retry_wait
from characters.services.printing import pack_job_create
from characters.services.review import character_approve, character_submit
from tests.app.test_review import approved
from tests.app.test_two_servers import database_url
from tests.conftest import ROOT
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.commands import send_outbox
from tests.support.smtp import ACCEPT, HANG, REFUSE, SMTPServer, smtp_at, smtp_environment

pytestmark = pytest.mark.django_db(transaction=True)
postgresql_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL only: another process cannot share the in-memory SQLite test database",
)


def wait_for(condition, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if found := condition():
            return found
        time.sleep(0.05)
    raise AssertionError("waited in vain")


def manage(*args, env: dict[str, str]) -> subprocess.Popen:
    """A `manage.py` process on the test database."""
    environment = {k: v for k, v in os.environ.items() if k != "DATABASE_OWNER_URL"}
    environment.update(DATABASE_URL=database_url(), **env)
    return subprocess.Popen(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=environment,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def approve_for(character, gm, player, address="pip@example.test"):
    player.email = address
    player.save(update_fields=["email"])
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None)
    return OutgoingMail.objects.get()


def test_a_retry_waits_twice_as_long_each_time_up_to_an_hour():
    waits = [mail_retry_wait(n).total_seconds() for n in (1, 2, 3, 6, 7, 40)]
    assert waits == [60, 120, 240, 1920, 3600, 3600]


def test_mail_sent_while_the_server_hangs_is_delivered_once_when_it_answers(
    character, gm, player, player_client, settings
):
    settings.MAIL_RETRY_SECONDS = 1.5
    with SMTPServer(HANG) as server:
        smtp_at(settings, server.port, timeout=1)
        queued = approve_for(character, gm, player)
        assert send_outbox() == 1  # tried: no answer within the timeout
        queued.refresh_from_db()
        assert (queued.status, queued.attempts) == (OutgoingMail.Status.QUEUED, 1)
        assert (
            queued.last_error == "SMTPServerDisconnected: Connection unexpectedly closed: timed out"
        )
        assert queued.next_attempt_at > timezone.now()
        page = player_client.get(reverse("notifications")).content.decode()
        assert (
            "E-mail not delivered yet, retrying (SMTPServerDisconnected: Connection unexpectedly "
            "closed: timed out)" in page
        )
        assert send_outbox() == 0  # not due yet

        server.mode = ACCEPT
        wait_for(lambda: queued.next_attempt_at <= timezone.now(), seconds=5)
        assert send_outbox() == 1
        assert send_outbox() == 0  # sent is sent: never again
        (received,) = server.received
        assert received["To"] == "pip@example.test"
        assert received["Subject"] == "Fairsheet: gm approved Brogo."
        assert server.connections == 2
    queued.refresh_from_db()
    assert (queued.status, queued.attempts, queued.last_error) == ("sent", 2, "")
    assert queued.sent_at is not None
    assert "E-mail" not in player_client.get(reverse("notifications")).content.decode()


def test_a_mail_the_server_keeps_refusing_is_given_up_with_the_reason(
    character, gm, player, player_client, settings
):
    settings.MAIL_RETRY_SECONDS = 0
    settings.MAIL_ATTEMPTS = 3
    with SMTPServer(REFUSE) as server:
        smtp_at(settings, server.port)
        queued = approve_for(character, gm, player)
        assert send_outbox() == 3  # due again at once, so tried again in the same round
        assert send_outbox() == 0
        assert server.connections == 3 and server.received == []
    queued.refresh_from_db()
    assert (queued.status, queued.attempts) == (OutgoingMail.Status.GIVEN_UP, 3)
    assert queued.last_error == "SMTPConnectError: (421, b'127.0.0.1 busy, try again later')"
    page = player_client.get(reverse("notifications")).content.decode()
    assert (
        "E-mail given up: SMTPConnectError: (421, b&#x27;127.0.0.1 busy, try again later&#x27;)"
        in page
    )


def test_a_mail_is_given_up_a_day_after_it_was_queued(character, gm, player, settings):
    settings.MAIL_RETRY_SECONDS = 0
    with SMTPServer(REFUSE) as server:
        smtp_at(settings, server.port)
        queued = approve_for(character, gm, player)
        OutgoingMail.objects.update(created_at=timezone.now() - timedelta(hours=24))
        assert send_outbox() == 1
    queued.refresh_from_db()
    assert (queued.status, queued.attempts) == (OutgoingMail.Status.GIVEN_UP, 1)


def test_a_mail_whose_senders_kept_stopping_is_given_up(character, gm, player, settings):
    settings.MAIL_ATTEMPTS = 3
    with SMTPServer(ACCEPT) as server:
        smtp_at(settings, server.port)
        queued = approve_for(character, gm, player)
        # Its third sender was killed mid-send, its lease is over.
        lapsed = timezone.now() - timedelta(seconds=1)
        OutgoingMail.objects.update(status="sending", attempts=3, lease_until=lapsed)
        assert send_outbox() == 1
        assert server.connections == 0
    queued.refresh_from_db()
    assert (queued.status, queued.attempts) == (OutgoingMail.Status.GIVEN_UP, 4)
    assert queued.last_error == "its sender stopped every time it sent it"


@pytest.mark.parametrize(
    "language, address, attempts, said",
    [
        ("fr", "pip at example", 0, "E-mail abandonné\u00a0: ce n\u2019est pas une adresse e-mail"),
        ("es", "pip@example.test", 3, "Correo abandonado: su remitente se detuvo en cada envío"),
    ],
)
def test_the_senders_own_reasons_are_said_in_the_readers_language(
    character, gm, player, player_client, settings, language, address, attempts, said
):
    # A mail server's error is shown as it came; the sender's own reasons are Fairsheet's words.
    settings.MAIL_ATTEMPTS = 3
    approve_for(character, gm, player, address=address)
    if attempts:  # its senders were killed mid-send, the last lease is over
        lapsed = timezone.now() - timedelta(seconds=1)
        OutgoingMail.objects.update(status="sending", attempts=attempts, lease_until=lapsed)
    assert send_outbox() == 1
    assert OutgoingMail.objects.get().status == OutgoingMail.Status.GIVEN_UP
    page = player_client.get(reverse("notifications"), HTTP_ACCEPT_LANGUAGE=language)
    assert said in page.content.decode()


@postgresql_only
def test_a_sender_killed_mid_send_leaves_the_mail_to_another_once_its_lease_is_over(
    character, gm, player, settings
):
    lease = 4  # seconds: the sender's 2-second timeout and a margin
    settings.MAIL_LEASE_SECONDS = lease
    with SMTPServer(HANG) as server:
        queued = approve_for(character, gm, player)
        sender = manage(
            *["send_mail_outbox", "--no-reload", "--interval", "0.2"],
            env={**smtp_environment(server.port, timeout=2), "FAIRSHEET_MAIL_LEASE": str(lease)},
        )
        try:
            wait_for(lambda: server.connections == 1)  # it waits for the server's greeting
            queued.refresh_from_db()
            assert (queued.status, queued.attempts) == (OutgoingMail.Status.SENDING, 1)
            os.kill(sender.pid, signal.SIGKILL)
        finally:
            sender.kill()
            sender.wait(timeout=30)
        server.mode = ACCEPT
        smtp_at(settings, server.port)
        assert send_outbox() == 0  # the dead sender's lease still runs
        wait_for(lambda: queued.lease_until < timezone.now(), seconds=lease + 1)
        assert send_outbox() == 1
        assert send_outbox() == 0
        (received,) = server.received
        assert received["To"] == "pip@example.test"
    queued.refresh_from_db()
    assert (queued.status, queued.attempts) == (OutgoingMail.Status.SENT, 2)


@postgresql_only
def test_a_pack_never_waits_behind_mail_to_a_hanging_server(gm, player):
    from characters.models import Campaign

    busy = Campaign.objects.create(name="Busy", gm=gm, base_ruleset="mudge")
    quiet = Campaign.objects.create(name="Quiet", gm=player, base_ruleset="mudge")
    for n in range(30):
        mail_queue(address=f"p{n}@example.test", subject="Fairsheet", body="-", language="en")
    with SMTPServer(HANG) as server:
        env = smtp_environment(server.port, timeout=10)
        processes = [
            manage("send_mail_outbox", "--no-reload", env=env),
            manage(
                *["db_worker", "--queue-name", "packs", "--interval", "0.2"],
                *["--no-startup-delay", "--no-reload"],
                env=env,
            ),
        ]
        try:
            # The worker is up once it has rendered a first pack; the sender, once it hangs.
            first = pack_job_create(campaign=busy, user=gm, options=PrintOptions())
            wait_for(lambda: PackJob.objects.filter(pk=first.pk, state="done").exists())
            wait_for(lambda: server.connections >= 1)
            queued_at = time.monotonic()
            job = pack_job_create(campaign=quiet, user=player, options=PrintOptions())
            wait_for(lambda: PackJob.objects.filter(pk=job.pk, state="done").exists(), 10)
            waited = time.monotonic() - queued_at
        finally:
            for process in processes:
                process.kill()
                process.wait(timeout=30)
        assert server.received == []
    print(f"the pack waited {waited:.2f} s behind 30 mails to a hanging server")
    assert waited < 10
    assert OutgoingMail.objects.filter(status__in=("queued", "sending")).count() == 30


def test_a_party_award_mails_each_player_once_naming_their_characters(
    character, gm, player, settings, player_client
):
    from django.contrib.auth import get_user_model

    from characters.models import Membership

    mate = get_user_model().objects.create_user("mate")
    Membership.objects.create(campaign=character.campaign, user=mate)
    player.email = "pip@example.test"
    player.save(update_fields=["email"])
    mate.email = "mate@example.test"
    mate.save(update_fields=["email"])
    approved(character, gm)
    for name in ("Nim", "Oswin"):
        approved(character_create(owner=player, name=name, campaign=character.campaign), gm)
    approved(character_create(owner=mate, name="Friend", campaign=character.campaign), gm)
    OutgoingMail.objects.all().delete()  # the approvals' mail and notifications
    Notification.objects.all().delete()
    experience_award_party(campaign=character.campaign, actor=gm, amount=2, reason="Session 3")
    notes = Notification.objects.filter(kind="experience").order_by("pk")
    assert [(n.user.username, n.character.name) for n in notes] == [
        ("player", "Brogo"),
        ("player", "Nim"),
        ("player", "Oswin"),
        ("mate", "Friend"),
    ]
    assert len({n.mail_id for n in notes[:3]}) == 1 and notes[3].mail_id != notes[0].mail_id
    with SMTPServer(ACCEPT) as server:
        smtp_at(settings, server.port)
        assert send_outbox() == 2
    by_address = {m["To"]: m for m in server.received}
    assert sorted(by_address) == ["mate@example.test", "pip@example.test"]
    pip = by_address["pip@example.test"]
    assert pip["Subject"] == "Fairsheet: gm awarded Brogo 2 XP: Session 3 (and 2 more)"
    body = pip.get_payload(decode=True).decode()
    for name in ("Brogo", "Nim", "Oswin"):
        assert f"gm awarded {name} 2 XP: Session 3" in body
    assert "Friend" not in body
    assert (
        by_address["mate@example.test"]["Subject"] == "Fairsheet: gm awarded Friend 2 XP: Session 3"
    )
    # In the app, still one notification per character.
    assert (
        'aria-label="Notifications, 3 unread"'
        in player_client.get(reverse("dashboard")).content.decode()
    )
