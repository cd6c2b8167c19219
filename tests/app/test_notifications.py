"""A player sees what the GM did: approvals, builds sent back, experience awarded, counted in
the header until read, and e-mailed through Django's e-mail backend when the player gave an
address (issue 12, Notifications)."""

import socket
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from characters.models import Character, Notification, OutgoingMail
from characters.services.advancement import experience_award
from characters.services.decisions import decision_token_issue
from characters.services.review import (
    character_approve,
    character_request_changes,
    character_submit,
)
from tests.app.test_review import *  # noqa: F403
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.commands import send_outbox
from tests.support.smtp import smtp_at

User = get_user_model()

pytestmark = pytest.mark.django_db


def header(client) -> str:
    page = client.get(reverse("dashboard")).content.decode()
    return page[page.index("<header") : page.index("</header>")]


def test_the_gms_answers_reach_the_player(character, gm, player, player_client):
    character_submit(character=character, actor=player, expected_version=None)
    character_request_changes(
        character=character, actor=gm, expected_version=None, comments=[("", "Thin concept.")]
    )
    assert 'aria-label="Notifications, 1 unread"' in header(player_client)
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None, override_reason="ok")
    experience_award(character=character, actor=gm, amount=3, reason="Session 1")
    assert 'aria-label="Notifications, 3 unread"' in header(player_client)
    page = player_client.get(reverse("notifications")).content.decode()
    messages = [n.message for n in Notification.objects.filter(user=player)]
    assert messages == [
        "gm awarded Brogo 3 XP: Session 1",  # Mudge 5.2's unit
        # A legal build keeps no reason (services.review.character_approve).
        "gm approved Brogo.",
        "Brogo is back with you for changes: 1 comment from gm.",
    ]
    for message in messages:
        assert message in page
    assert page.count("<strong>New</strong>") == 3
    player_client.post(reverse("notifications"))
    assert "Notifications, " not in header(player_client)
    page = player_client.get(reverse("notifications")).content.decode()
    assert "<strong>New</strong>" not in page and "gm approved Brogo." in page


def test_opening_a_notification_reads_it_and_goes_where_it_is_about(
    character, gm, player, player_client, client
):
    """A notification's link counts it read (the header's count drops) and opens the page
    it is about: the advancement page for experience, the builder for a decision."""
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None, override_reason="ok")
    experience_award(character=character, actor=gm, amount=3, reason="Session 1")
    award, approval = Notification.objects.filter(user=player)  # newest first
    assert 'aria-label="Notifications, 2 unread"' in header(player_client)
    page = player_client.get(reverse("notifications")).content.decode()
    assert reverse("notification_open", args=[award.pk]) in page

    response = player_client.get(reverse("notification_open", args=[award.pk]))
    assert response.url == reverse("character_advancement", args=[character.pk])
    assert 'aria-label="Notifications, 1 unread"' in header(player_client)
    response = player_client.get(reverse("notification_open", args=[approval.pk]))
    assert response.url == reverse("character_builder", args=[character.pk])
    assert "Notifications, " not in header(player_client)
    # Opened again, it stays read; another's notification is not found.
    assert player_client.get(reverse("notification_open", args=[award.pk])).status_code == 302
    client.force_login(gm)
    assert client.get(reverse("notification_open", args=[award.pk])).status_code == 404
    award.refresh_from_db()
    assert award.read_at is not None


@pytest.mark.django_db(transaction=True)
def test_a_player_with_an_address_gets_an_email_from_the_outbox(
    character, gm, player, player_client
):
    response = player_client.post(reverse("notification_email"), {"email": "pip@example.test"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == "pip@example.test"
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None)
    assert mail.outbox == []  # queued with the decision; the mail sender sends it
    send_outbox()
    (sent,) = mail.outbox
    assert sent.to == ["pip@example.test"]
    assert sent.subject == "Fairsheet: gm approved Brogo."
    assert reverse("character_builder", args=[character.pk]) in sent.body


def test_nobody_hears_of_what_they_did_themselves_or_of_others(character, gm, player, client):
    character_submit(character=character, actor=player, expected_version=None)
    assert not Notification.objects.exists()  # the player's own submission
    character_approve(character=character, actor=gm, expected_version=None)
    client.force_login(gm)
    assert "Notifications, " not in header(client)  # the GM hears nothing of the player's note
    assert "Brogo" not in client.get(reverse("notifications")).content.decode()


def test_a_bad_address_is_refused_with_a_message(player, player_client):
    response = player_client.post(
        reverse("notification_email"), {"email": "not an address"}, follow=True
    )
    assert "Not saved: Enter a valid email address." in response.content.decode()
    player.refresh_from_db()
    assert player.email == ""


@pytest.mark.django_db(transaction=True)
def test_a_mail_server_that_is_down_fails_nothing(character, gm, player, settings, caplog):
    """Nothing listens on the port: the approval stands, the notification is saved, and the
    mail sender logs the failure and keeps the mail to try again."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp_at(settings, port)
    player.email = "pip@example.test"
    player.save()
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None)
    send_outbox()
    character.refresh_from_db()
    assert character.state == character.State.APPROVED
    assert Notification.objects.get(user=player).message == "gm approved Brogo."
    assert "A notification e-mail to pip@example.test was not sent" in caplog.text
    queued = OutgoingMail.objects.get()
    assert (queued.status, queued.attempts) == (OutgoingMail.Status.QUEUED, 1)
    assert queued.last_error.startswith("ConnectionRefusedError")


@pytest.fixture
def hanging_smtp():
    """A mail server on 127.0.0.1 that takes connections and never says a word; the
    connections it has taken, by count."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    taken = []

    def accept():
        while True:
            try:
                connection, _ = server.accept()
            except OSError:  # closed at the end of the test
                return
            taken.append(connection)

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1], taken
    server.close()
    for connection in taken:
        connection.close()


@pytest.mark.django_db(transaction=True)
def test_a_hanging_mail_server_leaves_the_approval_to_the_mail_sender(
    character, climbing, gm, player, settings, caplog, hanging_smtp
):
    """The GM's approval talks to no mail server: the mail is an outbox row, written with
    it. The sender's wait for the server ends at its timeout, and fails nothing."""
    port, taken = hanging_smtp
    smtp_at(settings, port)
    player.email = "pip@example.test"
    player.save()
    character_submit(character=character, actor=player, expected_version=None)
    client = Client()
    client.force_login(gm)
    review = reverse("character_review", args=[character.pk])
    character.refresh_from_db()
    posted = {"decision": "approve", "version": character.version}
    posted["once"] = decision_token_issue(user=gm, kind="review", target=character.pk)
    response = client.post(review, posted)
    assert response.status_code == 302
    assert taken == []  # the request never connected
    [queued] = OutgoingMail.objects.all()
    assert queued.address == "pip@example.test"
    send_outbox()
    assert len(taken) == 1  # the sender did, and gave up at its timeout
    assert "A notification e-mail to pip@example.test was not sent" in caplog.text
    character.refresh_from_db()
    assert character.state == character.State.APPROVED


@pytest.mark.parametrize("line_break", ["\n", "\r\n", "\u2028", "\u2029", "\x85"])
@pytest.mark.django_db(transaction=True)
def test_a_name_with_a_line_break_makes_a_one_line_subject(
    character, climbing, gm, player, mate, line_break
):
    """The GM's approval and a party award answer as usual; each mail's subject is one line."""
    from characters.services.advancement import experience_award_party
    from characters.services.characters import character_create
    from tests.app.test_review import approved

    player.email = "pip@example.test"
    player.save()
    mate.email = "mate@example.test"
    mate.save()
    friend = character_create(owner=mate, name="Friend", campaign=character.campaign)
    approved(friend, gm)
    Character.objects.filter(pk=character.pk).update(name=f"New{line_break}Line")
    character.refresh_from_db()
    character_submit(character=character, actor=player, expected_version=None)
    client = Client()
    client.force_login(gm)
    review = reverse("character_review", args=[character.pk])
    character.refresh_from_db()
    once = decision_token_issue(user=gm, kind="review", target=character.pk)
    response = client.post(
        review, {"decision": "approve", "version": character.version, "once": once}
    )
    assert response.status_code == 302
    experience_award_party(campaign=character.campaign, actor=gm, amount=1, reason="Up\nlate")
    send_outbox()
    # Friend's approval and award, New Line's approval and award.
    assert sorted(m.to[0] for m in mail.outbox) == [
        "mate@example.test",
        "mate@example.test",
        "pip@example.test",
        "pip@example.test",
    ]
    for sent in mail.outbox:
        subject = sent.message()["Subject"]
        assert len(subject.splitlines()) == 1 and subject.startswith("Fairsheet: ")
    assert "Fairsheet: gm approved New Line." in [m.subject for m in mail.outbox]


@pytest.mark.parametrize(
    "address", ["pip@example.test\r", "pip@example.test\nBcc: x@example.test", "pip"]
)
def test_an_address_is_checked_when_saved(player, address):
    from characters.errors import ServiceError
    from characters.services.notifications import notification_email_set

    with pytest.raises(ServiceError, match="is not an e-mail address"):
        notification_email_set(user=player, email=address)
    player.refresh_from_db()
    assert player.email == ""


@pytest.mark.django_db(transaction=True)
def test_an_address_stored_before_the_check_is_skipped(character, gm, player, caplog):
    User.objects.filter(pk=player.pk).update(email="pip@example.test\r")
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None)
    send_outbox()
    assert mail.outbox == []
    assert "is no address" in caplog.text
