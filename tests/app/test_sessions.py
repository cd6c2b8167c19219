"""Sessions that know their user (characters/sessions.py, issue 40): a signed-in request reads
its session and its user in one statement, and every check Django makes of a session still
holds: a changed password, a deactivated or deleted account, a logout each end it."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from characters.models import UserSession

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password"


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


@pytest.fixture
def signed_in(client, alice):
    assert (
        client.post(reverse("login"), {"username": "alice", "password": PASSWORD}).status_code
        == 302
    )
    return client


def statements_of(client, path) -> list[str]:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(path).status_code == 200
    return [q["sql"] for q in queries.captured_queries]


def test_the_session_row_names_its_user(signed_in, alice):
    assert list(UserSession.objects.values_list("user", flat=True)) == [alice.pk]


def test_a_signed_in_request_reads_session_and_user_in_one_statement(signed_in):
    statements = statements_of(signed_in, reverse("account"))
    session = [sql for sql in statements if "characters_usersession" in sql]
    assert len(session) == 1 and 'JOIN "auth_user"' in session[0]
    assert not [sql for sql in statements if sql.startswith('SELECT "auth_user"')]


def test_a_changed_password_ends_other_sessions(signed_in, alice):
    alice.set_password("another-long-password")
    alice.save()
    response = signed_in.get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_a_deactivated_account_is_signed_out(signed_in, alice):
    alice.is_active = False
    alice.save()
    assert signed_in.get(reverse("account")).status_code == 302


def test_deleting_an_account_deletes_its_sessions(signed_in, alice):
    alice.delete()
    assert not UserSession.objects.exists()
    assert signed_in.get(reverse("account")).status_code == 302


def test_logging_out_ends_the_session(signed_in):
    signed_in.post(reverse("logout"))
    assert not UserSession.objects.filter(user__isnull=False).exists()
    assert signed_in.get(reverse("account")).status_code == 302


def test_one_visitor_never_gets_the_user_of_the_request_before(signed_in):
    """The user read with a session is kept for the request that read it: a visitor with no
    session, on the same thread right after, is nobody."""
    signed_in.get(reverse("account"))
    stranger = Client()
    response = stranger.get(reverse("account"))
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_clearsessions_removes_the_expired_sessions_and_keeps_the_live_one(signed_in, alice):
    """The README's daily `manage.py clearsessions` works on this session store: an expired
    session goes, the signed-in one stays and still signs its user in."""
    live = UserSession.objects.get(user=alice)
    UserSession.objects.create(
        session_key="x" * 32,
        session_data="",
        expire_date=timezone.now() - timedelta(days=1),
        user=alice,
    )
    call_command("clearsessions")
    assert list(UserSession.objects.values_list("session_key", flat=True)) == [live.session_key]
    assert signed_in.get(reverse("account")).status_code == 200
