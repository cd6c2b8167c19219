"""Accounts: sign up, log in, log out, change password, and the login every other page needs."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from characters.services.campaigns import campaign_create, campaign_join
from characters.services.characters import character_create

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password"


@pytest.fixture
def alice():
    return get_user_model().objects.create_user("alice", password=PASSWORD)


@pytest.mark.parametrize("name", ["home", "login", "signup"])
def test_public_pages_need_no_login(client, name):
    assert client.get(reverse(name)).status_code == 200


@pytest.mark.parametrize(
    "path",
    ["/table/", "/accounts/password/", "/accounts/password/done/", "/campaigns/new/", "/join/x/"],
)
def test_other_pages_send_anonymous_visitors_to_log_in(client, path):
    response = client.get(path)
    assert response.status_code == 302
    assert response["Location"] == f"{reverse('login')}?next={path}"


def test_signup_creates_the_account_and_logs_in(client):
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("dashboard")
    assert client.get(reverse("dashboard")).status_code == 200
    assert get_user_model().objects.filter(username="newbie").exists()


def test_signup_follows_next_on_this_site_only(client):
    data = {"username": "joiner", "password1": PASSWORD, "password2": PASSWORD}
    response = client.post(reverse("signup"), {**data, "next": "/join/abc/"})
    assert response["Location"] == "/join/abc/"
    client.logout()
    data["username"] = "joiner2"
    response = client.post(reverse("signup"), {**data, "next": "https://evil.example/"})
    assert response["Location"] == reverse("dashboard")


def test_signup_refuses_mismatched_passwords_with_a_message(client):
    response = client.post(
        reverse("signup"),
        {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD + "x"},
    )
    assert response.status_code == 400
    assert "password2" in response.context["form"].errors  # "The two password fields didn…"
    assert not get_user_model().objects.filter(username="newbie").exists()


def test_signup_page_keeps_next_for_the_login_link(client):
    page = client.get(reverse("signup") + "?next=/join/abc/").content.decode()
    assert 'name="next" value="/join/abc/"' in page
    assert "?next=/join/abc/" in page


def test_signed_in_user_skips_signup(client, alice):
    client.force_login(alice)
    assert client.get(reverse("signup"))["Location"] == reverse("dashboard")


def test_login_and_logout(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": PASSWORD})
    assert response["Location"] == reverse("dashboard")
    assert client.get(reverse("logout")).status_code == 405  # logging out takes a POST
    assert client.post(reverse("logout"))["Location"] == reverse("home")
    assert client.get(reverse("dashboard")).status_code == 302


def test_login_with_a_wrong_password_says_so(client, alice):
    response = client.post(reverse("login"), {"username": "alice", "password": "nope"})
    assert response.status_code == 200
    assert "enter a correct username and password" in response.content.decode()


def test_login_page_carries_next(client):
    page = client.get(reverse("login") + "?next=/join/abc/").content.decode()
    assert 'name="next" value="/join/abc/"' in page


def test_an_invite_link_names_its_campaign_and_the_invite_survives_signing_up(client, alice):
    """Issue 12, Invites: the log-in page an invite leads to names the campaign; its
    header's Sign up keeps the invite, and the new account lands on the join page."""
    campaign = campaign_create(gm=alice, name="The Long Road", base_ruleset="mudge")
    join = reverse("campaign_join", args=[campaign.invite_code])
    login_page = client.get(client.get(join)["Location"]).content.decode()
    assert "Log in to join <strong><bdi>The Long Road</bdi></strong>" in login_page
    header = login_page[login_page.index("<header") : login_page.index("</header>")]
    signup = f"{reverse('signup')}?next={join}"
    assert f'href="{signup}"' in header
    signup_page = client.get(signup).content.decode()
    assert "to join <strong><bdi>The Long Road</bdi></strong>" in signup_page
    data = {"username": "newbie", "password1": PASSWORD, "password2": PASSWORD, "next": join}
    assert client.post(reverse("signup"), data)["Location"] == join
    assert "Join as <bdi>newbie</bdi>" in client.get(join).content.decode()


def test_a_wrong_invite_code_on_the_log_in_page_counts_as_a_guess(client):
    """Naming the campaign is no way round the join throttle: ten codes that lead nowhere
    and the eleventh, right or wrong, names nothing (characters/throttle.py)."""
    gm = get_user_model().objects.create_user("gm", password=PASSWORD)
    campaign = campaign_create(gm=gm, name="Hidden Vale", base_ruleset="mudge")
    for guess in range(10):
        client.get(reverse("login"), {"next": f"/join/wrong{guess}/"})
    page = client.get(reverse("login"), {"next": f"/join/{campaign.invite_code}/"})
    assert "Hidden Vale" not in page.content.decode()


def test_change_password(client, alice):
    client.force_login(alice)
    assert client.get(reverse("password_change")).status_code == 200
    refused = client.post(
        reverse("password_change"),
        {
            "old_password": "wrong",
            "new_password1": "x-new-pass-99",
            "new_password2": "x-new-pass-99",
        },
    )
    assert "Your old password was entered incorrectly" in refused.content.decode()
    response = client.post(
        reverse("password_change"),
        {
            "old_password": PASSWORD,
            "new_password1": "x-new-pass-99",
            "new_password2": "x-new-pass-99",
        },
        follow=True,
    )
    assert response.redirect_chain[-1][0] == reverse("password_change_done")
    assert "Password changed" in response.content.decode()
    assert Client().login(username="alice", password="x-new-pass-99")


def test_signup_needs_the_csrf_token():
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        reverse("signup"), {"username": "x", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert response.status_code == 403


def test_dashboard_lists_campaigns_and_characters(client, alice):
    bob = get_user_model().objects.create_user("bob")
    mine = campaign_create(gm=alice, name="Alice's table", base_ruleset="mudge")
    theirs = campaign_create(gm=bob, name="Bob's table", base_ruleset="microfudged-dip")
    campaign_join(user=alice, code=theirs.invite_code)
    character_create(owner=alice, name="Zora", campaign=theirs)
    character_create(owner=alice, name="Loner", ruleset="fudge-basics")
    character_create(owner=bob, name="Bob's hero", campaign=theirs)
    client.force_login(alice)
    response = client.get(reverse("dashboard"))
    page = response.content.decode()
    assert [c.name for c in response.context["gm_campaigns"]] == [mine.name]
    assert [c.name for c in response.context["player_campaigns"]] == [theirs.name]
    assert [c.name for c in response.context["characters"]] == ["Loner", "Zora"]
    assert "Bob&#x27;s hero" not in page
    assert "Draft" in page and "Fudge objective creation" in page
    assert reverse("character_new") in page and reverse("campaign_new") in page
