"""A decision happens once, and only from a form the server drew (services.decisions): every
decision form carries a one-time token issued with it to its reader, for that decision. A
post whose token is missing, made up, expired, already used, another user's or another
decision's does nothing and says so in the page's alerts; the form's own token decides
once, even posted twice at once. Real pages, real posts, on PostgreSQL with the role split
in CI."""

import html
import re
import secrets
import threading
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.db import connection, connections
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from characters.models import Approval, DecisionToken, DiceRoll, ExperienceEntry, Membership
from characters.selectors.advancement import RAISE
from characters.services import decisions
from characters.services.advancement import experience_spend
from characters.services.characters import character_create
from characters.services.decisions import TOKEN_LIFETIME, decision_token_issue
from rules.ladder import FAIR
from tests.app.test_advancement import in_play  # noqa: F401
from tests.app.test_review import HTMX, approved, login, submitted  # noqa: F401
from tests.support.builder_fixtures import *  # noqa: F403

TOKEN = re.compile(r'name="once" value="([\w-]+)"')
TEMPLATES = ("review/review.html", "review/advancement.html", "play/party.html")


@dataclass(frozen=True)
class Decision:
    """One decision form: the page that draws it, where it posts, what it posts, the row it
    decides on, and how many times it has been made."""

    kind: str
    page: object  # table -> url
    action: object  # table -> url
    data: object  # table -> dict
    target: object  # table -> int
    made: object  # table -> int


DECISIONS = {
    decision.kind: decision
    for decision in [
        Decision(
            DecisionToken.Kind.REVIEW,
            lambda t: reverse("character_review", args=[t.newcomer.pk]),
            lambda t: reverse("character_review", args=[t.newcomer.pk]),
            lambda t: {"decision": "approve", "version": t.newcomer.version, "comment": ""},
            lambda t: t.newcomer.pk,
            lambda t: Approval.objects.filter(character=t.newcomer).count(),
        ),
        Decision(
            DecisionToken.Kind.AWARD,
            lambda t: reverse("character_advancement", args=[t.hero.pk]),
            lambda t: reverse("advancement_award", args=[t.hero.pk]),
            lambda t: {"amount": 2, "reason": "Session 3", "to": "party"},
            lambda t: t.hero.pk,
            lambda t: ExperienceEntry.objects.filter(character=t.hero, reason="Session 3").count(),
        ),
        Decision(
            DecisionToken.Kind.POINTS_GRANT,
            lambda t: reverse("character_advancement", args=[t.hero.pk]),
            lambda t: reverse("points_grant", args=[t.hero.pk]),
            lambda t: {"version": t.hero.version, "count": 1, "reason": "Fine play"},
            lambda t: t.hero.pk,
            lambda t: t.hero.events.filter(action="meta_points_granted").count(),
        ),
        Decision(
            DecisionToken.Kind.SPEND_ACCEPT,
            lambda t: reverse("character_advancement", args=[t.hero.pk]),
            lambda t: reverse("spend_accept", args=[t.hero.pk, t.to_accept.pk]),
            lambda t: {},
            lambda t: t.to_accept.pk,
            lambda t: t.hero.events.filter(action="spend_accepted").count(),
        ),
        Decision(
            DecisionToken.Kind.SPEND_REFUSE,
            lambda t: reverse("character_advancement", args=[t.hero.pk]),
            lambda t: reverse("spend_refuse", args=[t.hero.pk, t.to_refuse.pk]),
            lambda t: {"reason": "Not this session"},
            lambda t: t.to_refuse.pk,
            lambda t: t.hero.events.filter(action="spend_refused").count(),
        ),
        Decision(
            DecisionToken.Kind.SESSION_START,
            lambda t: reverse("campaign_party", args=[t.hero.campaign_id]),
            lambda t: reverse("party_new_session", args=[t.hero.campaign_id]),
            lambda t: {},
            lambda t: t.hero.campaign_id,
            lambda t: DiceRoll.objects.filter(
                campaign=t.hero.campaign_id, kind=DiceRoll.Kind.SESSION
            ).count(),
        ),
    ]
}


@pytest.fixture
def table(in_play, gm, player, outsider):  # noqa: F811 (the fixture imported above)
    """A campaign with something for each decision: Hero approved, with two spends waiting
    for the GM (one to accept, one to refuse), and a newcomer's build submitted for review."""
    hero = in_play(
        "mudge",
        traits=[("skill", "Climbing", FAIR), ("skill", "Swimming", FAIR)],
        experience=10,
        spends_need_approval=True,
    )
    to_accept, to_refuse = (
        experience_spend(
            character=hero,
            actor=player,
            expected_version=None,
            what=RAISE,
            trait=hero.traits.get(name=name),
        )
        for name in ("Climbing", "Swimming")
    )
    Membership.objects.create(campaign=hero.campaign, user=outsider)
    newcomer = submitted(character_create(owner=outsider, name="Newcomer", campaign=hero.campaign))
    hero.refresh_from_db()
    return SimpleNamespace(
        hero=hero, newcomer=newcomer, to_accept=to_accept, to_refuse=to_refuse, gm=gm
    )


def form_token(client, decision: Decision, table) -> str:
    """The token of the decision's form, as the page draws it for the client's user."""
    page = client.get(decision.page(table)).content.decode()
    [form] = [
        form
        for form in re.findall(r"<form .*?</form>", page, re.S)
        if f'action="{decision.action(table)}"' in form
    ]
    [token] = TOKEN.findall(form)
    return token


def said(response) -> str:
    return html.unescape(response.content.decode())


def test_every_decision_form_is_covered():
    """The kinds of decision, the forms that ask for a token, and the ones tested below are
    the same six."""
    from django.template.loader import get_template

    asked = set()
    for name in TEMPLATES:
        source = get_template(name).template.source
        asked |= set(re.findall(r'{% decision_token "(\w+)"', source))
    assert asked == set(DecisionToken.Kind) == set(DECISIONS)


@pytest.mark.parametrize("kind", DECISIONS)
def test_only_the_forms_own_token_decides_and_only_once(table, login, player, kind):  # noqa: F811
    decision = DECISIONS[kind]
    client = login(table.gm)
    url, target = decision.action(table), decision.target(table)
    other = next(k for k in DecisionToken.Kind if k != kind)
    expired = decision_token_issue(user=table.gm, kind=kind, target=target)
    refusals = {
        "missing": (None, 400, "This form came without its one-time token: nothing was done."),
        "made up": (secrets.token_urlsafe(32), 400, "is not one Fairsheet issued, or it expired"),
        "not a token": ("x\x00" * 30, 400, "is not one Fairsheet issued, or it expired"),
        "expired": (expired, 409, "This form is more than a day old: nothing was done."),
        "another user's": (
            decision_token_issue(user=player, kind=kind, target=target),
            400,
            "This form was opened by another account: nothing was done.",
        ),
        "another decision's kind": (
            decision_token_issue(user=table.gm, kind=other, target=target),
            400,
            "This form's one-time token is for another decision: nothing was done.",
        ),
        "another row's": (
            decision_token_issue(user=table.gm, kind=kind, target=target + 1000),
            400,
            "This form's one-time token is for another decision: nothing was done.",
        ),
    }
    # Aged once the others are issued, as issuing prunes the expired: left unpruned, it says so.
    DecisionToken.objects.filter(token=expired).update(
        issued_at=timezone.now() - TOKEN_LIFETIME - timedelta(minutes=1)
    )
    for case, (token, status, message) in refusals.items():
        posted = {**decision.data(table), **({"once": token} if token is not None else {})}
        response = client.post(url, posted, **HTMX)
        assert (response.status_code, decision.made(table)) == (status, 0), case
        assert response["HX-Retarget"] == "#alerts", case
        assert message in said(response) and 'role="alert"' in said(response), case

    posted = {**decision.data(table), "once": form_token(client, decision, table)}
    response = client.post(url, posted, **HTMX)
    assert response.status_code == 200 and "HX-Retarget" not in response
    assert decision.made(table) == 1
    assert DecisionToken.objects.get(token=posted["once"]).used_at is not None

    # The same form again, by a double click (htmx) or a plain post: nothing more.
    again = client.post(url, posted, **HTMX)
    assert again.status_code == 409 and again["HX-Retarget"] == "#alerts"
    used = "This form was already sent: nothing was done again. Reload the page to make another"
    assert used in said(again)
    plain = client.post(url, posted)
    assert plain.status_code == 409
    assert used in said(plain).split('class="messages"')[1]  # the page's alerts
    assert decision.made(table) == 1


@pytest.mark.parametrize("to", ["character", "party"])
def test_the_award_panel_comes_back_with_a_new_token(table, login, to):  # noqa: F811
    friend = character_create(
        owner=table.newcomer.owner, name="Friend", campaign=table.hero.campaign
    )
    approved(friend, table.gm)
    client = login(table.gm)
    award = DECISIONS[DecisionToken.Kind.AWARD]
    url = award.action(table)
    posted = {**award.data(table), "to": to, "once": form_token(client, award, table)}
    first = client.post(url, posted, **HTMX)
    assert "Awarded 2 XP to" in said(first)
    for awarded in [table.hero, friend] if to == "party" else [table.hero]:
        assert awarded.ledger.filter(reason="Session 3").count() == 1
    # The panel the answer swaps in carries a new token: the next award is a new decision.
    [fresh] = TOKEN.findall(first.content.decode().split('class="award-form"')[1])
    assert fresh != posted["once"]
    client.post(url, {**posted, "once": fresh}, **HTMX)
    assert table.hero.ledger.filter(reason="Session 3").count() == 2


def test_a_new_session_answer_brings_a_new_form(table, login):  # noqa: F811
    """The party page is not reloaded after a new session: its form comes back, out of band,
    with a new token."""
    client = login(table.gm)
    session = DECISIONS[DecisionToken.Kind.SESSION_START]
    url = session.action(table)
    first = client.post(url, {"once": form_token(client, session, table)}, **HTMX)
    [form] = re.findall(r'<form id="new-session".*?</form>', first.content.decode(), re.S)
    assert 'hx-swap-oob="true"' in form
    [fresh] = TOKEN.findall(form)
    assert client.post(url, {"once": fresh}, **HTMX).status_code == 200
    assert session.made(table) == 2


def expire(token: str) -> None:
    DecisionToken.objects.filter(token=token).update(
        issued_at=timezone.now() - TOKEN_LIFETIME - timedelta(seconds=1)
    )


def deletes(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as drawn:
        client.get(url)
    return [q["sql"] for q in drawn.captured_queries if q["sql"].startswith("DELETE")]


def test_a_page_drawn_deletes_the_expired_tokens_once(table, login, monkeypatch):  # noqa: F811
    """Six forms on the GM's advancement page, one statement for the expired tokens (this
    process has not pruned yet)."""
    monkeypatch.setattr(decisions, "_pruned_at", None)
    kept, old = (
        decision_token_issue(user=table.gm, kind="award", target=table.hero.pk) for _ in range(2)
    )
    expire(old)
    client = login(table.gm)
    pruned = deletes(client, reverse("character_advancement", args=[table.hero.pk]))
    assert len(pruned) == 1 and "characters_decisiontoken" in pruned[0]
    assert DecisionToken.objects.filter(token=kept).exists()
    assert not DecisionToken.objects.filter(token=old).exists()


def test_the_expired_tokens_go_at_most_once_every_few_minutes(
    table,
    login,  # noqa: F811
    monkeypatch,
):
    """Pages drawn within PRUNE_EVERY of the process's last prune cost their tokens' inserts
    alone; the first page after it prunes again, so no token outlives a day by more."""
    monkeypatch.setattr(decisions, "_pruned_at", None)
    client = login(table.gm)
    url = reverse("character_advancement", args=[table.hero.pk])
    assert len(deletes(client, url)) == 1
    old = decision_token_issue(user=table.gm, kind="award", target=table.hero.pk)
    expire(old)
    assert deletes(client, url) == []
    assert DecisionToken.objects.filter(token=old).exists()
    # PRUNE_EVERY later, by this process's clock.
    later = decisions._pruned_at - decisions.PRUNE_EVERY.total_seconds() - 1
    monkeypatch.setattr(decisions, "_pruned_at", later)
    assert len(deletes(client, url)) == 1
    assert not DecisionToken.objects.filter(token=old).exists()


def test_a_token_is_a_new_row_at_every_render_for_its_reader(table, login):  # noqa: F811
    """Six forms on the GM's advancement page (the award, the grant, and each of the two
    pending spends' accept and refuse), each with its own token, issued to the GM for its
    decision."""
    client = login(table.gm)
    url = reverse("character_advancement", args=[table.hero.pk])
    first, second = (set(TOKEN.findall(client.get(url).content.decode())) for _ in range(2))
    assert len(first) == len(second) == 6 and not first & second
    issued = DecisionToken.objects.filter(token__in=first)
    assert {(t.user, t.kind, t.target, t.used_at) for t in issued} == {
        (table.gm, "award", table.hero.pk, None),
        (table.gm, "points_grant", table.hero.pk, None),
        (table.gm, "spend_accept", table.to_accept.pk, None),
        (table.gm, "spend_refuse", table.to_accept.pk, None),
        (table.gm, "spend_accept", table.to_refuse.pk, None),
        (table.gm, "spend_refuse", table.to_refuse.pk, None),
    }


@pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="two connections posting at once: SQLite's test database is one connection",
)
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", DECISIONS)
def test_one_form_posted_twice_at_once_decides_once(table, kind):
    decision = DECISIONS[kind]
    client = Client()
    client.force_login(table.gm)
    posted = {**decision.data(table), "once": form_token(client, decision, table)}
    start = threading.Barrier(2)
    codes = []

    def post():
        try:
            start.wait()
            codes.append(client.post(decision.action(table), posted).status_code)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=post) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    assert sorted(codes) == [302, 409]
    assert decision.made(table) == 1


def decision_forms() -> list[tuple[str, str]]:
    """Every <form ...> tag (with its template) that holds a decision token."""
    forms = []
    for path in sorted((Path(settings.BASE_DIR) / "templates").rglob("*.html")):
        text = path.read_text()
        for token in re.finditer(r"\{% decision_token", text):
            start = text.rfind("<form", 0, token.start())
            forms.append((path.name, text[start : text.index(">", start) + 1]))
    return forms


def test_no_decision_form_is_filled_in_again_by_the_browser():
    """Back, then Send: the page is fetched again with a fresh token, and a browser puts the
    typed amount and reason back into a form it may restore, so the award went twice. A
    decision form is never restored (autocomplete="off"), so its fields come back empty."""
    forms = decision_forms()
    assert len(forms) >= 6
    assert [name for name, tag in forms if 'autocomplete="off"' not in tag] == []
