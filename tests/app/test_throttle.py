"""Throttling (characters/throttle.py): 10 failed logins per account or per address, 10 wrong
invite codes per user or per address, 10 sign-ups per address, each in 15 minutes; then a
429 that says when to try again, until the window closes. Counted in the database cache."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from characters import throttle
from characters.models import Campaign, Membership
from tests.support.builder_fixtures import *  # noqa: F403

PASSWORD = "pw-gm-12345"  # builder_fixtures' gm
START = 1_800_000_000.0  # 2027-01-15 08:00:00 UTC


@pytest.fixture
def clock(monkeypatch):
    """The throttles' clock, at START, moved on with clock.now += seconds."""

    class Clock:
        now = START

    monkeypatch.setattr(throttle, "clock", lambda: Clock.now)
    return Clock


def from_address(address):
    return Client(REMOTE_ADDR=address)


def log_in(client, username, password="wrong-password"):
    return client.post(reverse("login"), {"username": username, "password": password})


def assert_too_many(response, what, seconds, at):
    assert response.status_code == 429
    assert response["Retry-After"] == str(seconds)
    minutes = -(-seconds // 60)
    body = response.content.decode()
    assert (
        f"Too many {what} (10 in 15 minutes). Try again in {minutes} minute"
        f"{'s' if minutes != 1 else ''}, at {at} UTC." in body
    )


def test_ten_failed_logins_lock_the_account_from_every_address(gm, clock):
    for attempt in range(10):
        response = log_in(from_address(f"10.0.0.{attempt}"), "GM ")  # any case, any spaces
        assert response.status_code == 200 and "Please enter a correct username" in (
            response.content.decode()
        )
    clock.now += 60
    # The eleventh try is refused before the password is checked, even the right one.
    response = log_in(from_address("10.0.1.1"), "gm", PASSWORD)
    assert_too_many(response, "failed logins to this account", 14 * 60, "08:15")
    assert "_auth_user_id" not in response.wsgi_request.session
    assert 'value="gm"' in response.content.decode()  # the form keeps the username
    clock.now += 14 * 60 - 1
    assert log_in(from_address("10.0.1.1"), "gm", PASSWORD).status_code == 429
    clock.now += 1  # 15 minutes after the first failure: the window closes
    response = log_in(from_address("10.0.1.1"), "gm", PASSWORD)
    assert (response.status_code, response["Location"]) == (302, reverse("dashboard"))


def test_ten_failed_logins_from_one_address_lock_the_address(db, clock):
    names = [f"guess{n}" for n in range(10)]
    for name in names:
        assert log_in(from_address("192.0.2.7"), name).status_code == 200
    clock.now += 30
    assert_too_many(
        log_in(from_address("192.0.2.7"), "someone-else"),
        "failed logins from your address",
        15 * 60 - 30,
        "08:15",
    )
    assert log_in(from_address("192.0.2.8"), "someone-else").status_code == 200


def test_successful_logins_are_not_counted(gm, clock):
    for _ in range(12):
        client = from_address("192.0.2.9")
        assert log_in(client, "gm", PASSWORD).status_code == 302


def test_behind_a_proxy_the_address_is_the_proxys_last_forwarded_entry(db, clock, settings):
    settings.CLIENT_IP_HEADER = "HTTP_X_FORWARDED_FOR"
    for n in range(10):  # a client forging the first entry does not escape its own count
        client = Client(REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR=f"1.2.3.{n}, 198.51.100.4")
        log_in(client, f"user{n}")
    other = Client(REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="198.51.100.5")
    assert log_in(other, "user99").status_code == 200
    same = Client(REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert log_in(same, "user99").status_code == 429


def test_ten_wrong_invite_codes_lock_joining_for_the_user(player, gm, clock):
    campaign = Campaign.objects.create(name="Hidden", gm=gm, base_ruleset="mudge")
    client = from_address("203.0.113.1")
    client.force_login(player)
    for n in range(5):  # the dashboard's code form and the link, counted together
        assert client.post(reverse("campaign_join_by_code"), {"code": f"x{n}"}).status_code == 400
        assert client.get(reverse("campaign_join", args=[f"y{n}"])).status_code == 404
    response = client.post(reverse("campaign_join_by_code"), {"code": campaign.invite_code})
    assert_too_many(response, "invite codes that did not work", 15 * 60, "08:15")
    response = client.get(reverse("campaign_join", args=[campaign.invite_code]))
    assert_too_many(response, "invite codes that did not work", 15 * 60, "08:15")
    assert "Too many tries for now" in response.content.decode()
    assert not Membership.objects.filter(campaign=campaign, user=player).exists()
    clock.now += 15 * 60
    response = client.post(reverse("campaign_join_by_code"), {"code": campaign.invite_code})
    assert response.status_code == 302
    assert Membership.objects.filter(campaign=campaign, user=player).exists()


def test_a_gm_typing_their_own_code_is_no_wrong_guess(gm, clock):
    """The GM trying the code they hand out is sent to their campaign, and the tries count
    against neither them nor the address their players share at the table."""
    campaign = Campaign.objects.create(name="Ours", gm=gm, base_ruleset="mudge")
    client = from_address("203.0.113.3")
    client.force_login(gm)
    for _ in range(11):
        response = client.post(reverse("campaign_join_by_code"), {"code": campaign.invite_code})
        assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    page = client.get(response["Location"]).content.decode()
    assert "You run Ours: this code is for your players." in page
    assert not Membership.objects.filter(campaign=campaign).exists()
    assert client.post(reverse("campaign_join_by_code"), {"code": "nope"}).status_code == 400


def test_wrong_invite_codes_from_one_address_lock_it_for_every_user(db, clock):
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"user{n}") for n in range(11)
    )
    for user in users[:10]:
        client = from_address("203.0.113.2")
        client.force_login(user)
        assert client.post(reverse("campaign_join_by_code"), {"code": "nope"}).status_code == 400
    client = from_address("203.0.113.2")
    client.force_login(users[10])
    response = client.post(reverse("campaign_join_by_code"), {"code": "nope"})
    assert_too_many(response, "invite codes from your address", 15 * 60, "08:15")


def test_ten_sign_ups_from_one_address_then_a_wait(db, clock):
    def sign_up(n, address="198.51.100.20"):
        return from_address(address).post(
            reverse("signup"),
            {"username": f"player{n}", "password1": "a-long-pw-9x", "password2": "a-long-pw-9x"},
        )

    assert [sign_up(n).status_code for n in range(10)] == [302] * 10
    clock.now += 5 * 60
    assert_too_many(sign_up(10), "sign-ups from your address", 10 * 60, "08:15")
    assert not get_user_model().objects.filter(username="player10").exists()
    assert sign_up(10, address="198.51.100.21").status_code == 302
    clock.now += 10 * 60
    assert sign_up(11).status_code == 302


def test_a_full_width_username_counts_against_the_account_it_logs_in_to(gm, clock):
    """NFKC, as the login form reads a username: gm in full-width letters is gm."""
    full_width = "\uff47\uff4d"
    response = log_in(from_address("10.0.2.1"), full_width, PASSWORD)
    assert response.status_code == 302  # it is gm's login
    for attempt in range(10):
        assert log_in(from_address(f"10.0.3.{attempt}"), full_width).status_code == 200
    assert_too_many(
        log_in(from_address("10.0.4.1"), "gm", PASSWORD),
        "failed logins to this account",
        15 * 60,
        "08:15",
    )


def burst(count, request):
    """`count` requests at once, each from a thread of its own with its own connection;
    their status codes."""
    from concurrent.futures import ThreadPoolExecutor
    from threading import Barrier

    from django.db import connections

    start = Barrier(count)

    def one(n):
        try:
            start.wait()
            return request(n)
        finally:
            connections.close_all()

    with ThreadPoolExecutor(count) as pool:
        return list(pool.map(one, range(count)))


@pytest.mark.django_db(transaction=True)
def test_a_parallel_burst_of_wrong_guesses_checks_no_more_than_the_limit(clock):
    get_user_model().objects.create_user("gm", password=PASSWORD)
    codes = burst(40, lambda n: log_in(from_address(f"10.9.{n}.1"), "gm").status_code)
    assert sorted(set(codes)) == [200, 429]
    assert codes.count(200) == 10  # checked; the other 30 refused before the password
    assert log_in(from_address("10.9.99.1"), "gm", PASSWORD).status_code == 429


@pytest.mark.django_db(transaction=True)
def test_a_parallel_burst_of_api_requests_is_served_no_more_than_the_limit(settings, clock):
    from characters.services.api_tokens import api_token_create
    from characters.services.characters import character_create

    settings.API_TOKEN_THROTTLE = (12, 60)
    owner = get_user_model().objects.create_user("scripter", password=PASSWORD)
    character = character_create(owner=owner, name="Brogo", ruleset="mudge")
    token = api_token_create(user=owner, name="script")[1]
    url = reverse("character_export", args=[character.pk])
    headers = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    codes = burst(40, lambda n: Client().get(url, **headers).status_code)
    assert (codes.count(200), codes.count(429)) == (12, 28)
