"""A GM's decision happens once (services.decisions): every decision form carries a one-time
token, so the same post sent twice (a double click, a retry after a timeout, in parallel)
awards, approves or sends back once, and the second answer says so. Real pages, real posts,
on PostgreSQL with the role split in CI."""

import re
import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from characters.models import Character, ExperienceEntry, Membership
from characters.services.characters import character_create
from tests.app.test_advancement import *  # noqa: F403
from tests.app.test_advancement import ledger_sum
from tests.app.test_review import approved, submitted

TOKEN = re.compile(r'name="once" value="([\w-]+)"')


def tokens_on(client, url) -> list[str]:
    return TOKEN.findall(client.get(url).content.decode())


def award_form(client, character, **fields):
    """The award form's fields as the advancement page draws them, with its token."""
    html = client.get(reverse("character_advancement", args=[character.pk])).content.decode()
    form = html[html.index('class="award-form"') :]
    [token] = TOKEN.findall(form[: form.index("</form>")])
    return {"amount": 2, "reason": "Session 3", "to": "character", "once": token, **fields}


@pytest.mark.parametrize("to", ["character", "party"])
def test_a_double_click_awards_once(in_play, login, gm, mate, to):
    hero = in_play("mudge")
    Membership.objects.create(campaign=hero.campaign, user=mate)
    friend = character_create(owner=mate, name="Friend", campaign=hero.campaign)
    approved(friend, gm)
    client = login(gm)
    url = reverse("advancement_award", args=[hero.pk])
    posted = award_form(client, hero, to=to)
    first = client.post(url, posted, HTTP_HX_REQUEST="true")
    second = client.post(url, posted, HTTP_HX_REQUEST="true")
    assert first.status_code == second.status_code == 200
    assert "Awarded 2 XP to" in first.content.decode()
    assert "That was done already: the first click counted" in second.content.decode()
    awarded = [hero, friend] if to == "party" else [hero]
    for character in awarded:
        character.refresh_from_db()
        assert character.experience == 2 == ledger_sum(character)
    # The panel the answer swaps in carries a new token: the next award is a new decision.
    [fresh] = TOKEN.findall(first.content.decode().split('class="award-form"')[1])
    assert fresh != posted["once"]
    client.post(url, {**posted, "once": fresh})
    hero.refresh_from_db()
    assert hero.experience == 4


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="two connections posting at once: SQLite's test database is one connection",
)
@pytest.mark.django_db(transaction=True)
def test_the_same_award_posted_twice_at_once_awards_once(in_play, gm):
    hero = in_play("mudge")
    client = Client()
    client.force_login(gm)
    posted = award_form(client, hero)
    url = reverse("advancement_award", args=[hero.pk])
    start = threading.Barrier(2)
    codes = []

    def post():
        try:
            start.wait()
            codes.append(client.post(url, posted).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert codes == [302, 302]
    assert ExperienceEntry.objects.filter(character=hero, reason__contains="Session 3").count() == 1


@pytest.mark.parametrize("decision", ["approve", "request_changes"])
def test_a_review_decision_posted_twice_is_made_once(character, climbing, login, gm, decision):
    submitted(character)
    client = login(gm)
    review = reverse("character_review", args=[character.pk])
    [token] = tokens_on(client, review)
    posted = {"decision": decision, "version": character.version, "once": token, "comment": "ok"}
    queue = reverse("campaign_review_queue", args=[character.campaign_id])
    assert client.post(review, posted)["Location"] == queue
    second = client.post(review, posted, follow=True)
    assert "That was done already" in second.content.decode()
    character.refresh_from_db()
    expected = (
        Character.State.APPROVED if decision == "approve" else Character.State.CHANGES_REQUESTED
    )
    assert character.state == expected
    assert character.approvals.count() == (1 if decision == "approve" else 0)
    assert character.comments.filter(body="ok").count() == 1


def test_every_gm_decision_form_carries_a_token(in_play, login, gm, player):
    """The award, the meta-point grant, and a pending spend's accept and refuse."""
    from characters.selectors.advancement import RAISE
    from characters.services.advancement import experience_spend
    from rules.ladder import FAIR

    hero = in_play(
        "mudge", traits=[("skill", "Climbing", FAIR)], experience=5, spends_need_approval=True
    )
    climbing = hero.traits.get(name="Climbing")
    experience_spend(
        character=hero, actor=player, expected_version=None, what=RAISE, trait=climbing
    )
    html = login(gm).get(reverse("character_advancement", args=[hero.pk])).content.decode()
    forms = re.findall(r"<form .*?</form>", html, re.S)
    entry = hero.ledger.get(pending=True)
    for url in (
        reverse("advancement_award", args=[hero.pk]),
        reverse("points_grant", args=[hero.pk]),
        reverse("spend_accept", args=[hero.pk, entry.pk]),
        reverse("spend_refuse", args=[hero.pk, entry.pk]),
    ):
        [form] = [f for f in forms if f'action="{url}"' in f]
        assert TOKEN.search(form), url
    tokens = TOKEN.findall(html)
    assert len(tokens) == len(set(tokens)) == 4
