"""A player sees what the GM did: approvals, builds sent back, experience awarded, counted in
the header until read, and e-mailed through Django's e-mail backend when the player gave an
address (issue 12, Notifications)."""

import socket

import pytest
from django.core import mail
from django.urls import reverse

from characters.models import Notification
from characters.services.advancement import experience_award
from characters.services.review import (
    character_approve,
    character_request_changes,
    character_submit,
)
from tests.builder_fixtures import *  # noqa: F403

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


def test_a_player_with_an_address_gets_an_email_once_the_decision_commits(
    character, gm, player, player_client, django_capture_on_commit_callbacks
):
    response = player_client.post(reverse("notification_email"), {"email": "pip@example.test"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.email == "pip@example.test"
    character_submit(character=character, actor=player, expected_version=None)
    with django_capture_on_commit_callbacks(execute=True):
        character_approve(character=character, actor=gm, expected_version=None)
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


def test_a_mail_server_that_is_down_fails_nothing(
    character, gm, player, settings, caplog, django_capture_on_commit_callbacks
):
    """Production's SMTP backend, aimed at a port of 127.0.0.1 where nothing listens: the
    approval stands, the notification is saved, and the failure is logged."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    smtp = {"host": "127.0.0.1", "port": port, "timeout": 2}
    settings.MAILERS = {
        "default": {"BACKEND": "django.core.mail.backends.smtp.EmailBackend", "OPTIONS": smtp}
    }
    player.email = "pip@example.test"
    player.save()
    character_submit(character=character, actor=player, expected_version=None)
    with django_capture_on_commit_callbacks(execute=True):
        character_approve(character=character, actor=gm, expected_version=None)
    character.refresh_from_db()
    assert character.state == character.State.APPROVED
    assert Notification.objects.get(user=player).message == "gm approved Brogo."
    assert "A notification e-mail to pip@example.test was not sent" in caplog.text
