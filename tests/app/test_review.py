"""The approval workflow: every transition for every role, forged requests, the override
reason and its summary line, the snapshot and its SHA-256, the GM's queue.

Also the fixtures of the review, audit and advancement tests (imported by those modules):
a second player in the campaign, a rival campaign with its own GM, player and character.
"""

import hashlib
import json

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.template.loader import render_to_string
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.adapters import approval_summary, character_to_rules, ruleset_for
from characters.errors import Locked, NotAllowed, ServiceError, StaleWrite
from characters.models import Approval, Campaign, Character, Membership, ReviewComment, Trait
from characters.services.characters import character_create
from characters.services.decisions import decision_token_issue
from characters.services.review import (
    character_approve,
    character_request_changes,
    character_submit,
    character_withdraw,
)
from characters.services.rows import trait_add, trait_update
from rules.charfile import write_character
from rules.ladder import FAIR, GOOD
from rules.report import build_report
from tests.support.builder_fixtures import *  # noqa: F403

# The fixtures the audit and advancement tests take (`from tests.app.test_review import *`, next
# to the builder's): a star import of this list, never of this module's tests (they would
# run twice). Helpers are imported by name.
__all__ = [
    "climbing",
    "login",
    "mate",
    "no_budget",
    "rival_campaign",
    "rival_character",
    "rival_gm",
]
HTMX = {"HTTP_HX_REQUEST": "true"}
User = get_user_model()


# -- fixtures shared by the review, audit and advancement tests --------------------------------


@pytest.fixture
def mate(campaign):
    """Another player of the same campaign: sees nothing of the character but the table."""
    # No password: tests log in with force_login, and hashing one costs most of a second.
    user = User.objects.create_user("mate")
    Membership.objects.create(campaign=campaign, user=user)
    return user


@pytest.fixture
def rival_gm(db):
    return User.objects.create_user("rival-gm")


@pytest.fixture
def rival_campaign(rival_gm):
    rival = Campaign.objects.create(name="Rivals", gm=rival_gm, base_ruleset="mudge")
    return rival


@pytest.fixture
def rival_character(rival_campaign):
    owner = User.objects.create_user("rival-player")
    Membership.objects.create(campaign=rival_campaign, user=owner)
    return character_create(owner=owner, name="Rival", campaign=rival_campaign)


@pytest.fixture
def login():
    """A test client logged in as `user`, or anonymous for None."""

    def make(user) -> Client:
        client = Client()
        if user is not None:
            client.force_login(user)
        return client

    return make


@pytest.fixture
def climbing(character, player):
    """A Mudge skill at Fair (average: 2 skill levels, Mudge 1.62)."""
    return trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.SKILL,
        name="Climbing",
        level=FAIR,
        difficulty="average",
    )


def review_token(gm, character) -> str:
    """The one-time token the review page's form carries for `gm` (services.decisions)."""
    return decision_token_issue(user=gm, kind="review", target=character.pk)


def submitted(character):
    character_submit(character=character, actor=character.owner, expected_version=None)
    character.refresh_from_db()
    return character


def approved(character, gm, reason=""):
    submitted(character)
    approval = character_approve(
        character=character, actor=gm, expected_version=None, override_reason=reason
    )
    character.refresh_from_db()
    return approval


# -- transitions through the services ------------------------------------------------------------


def test_submit_locks_the_build_and_records_it(character, climbing, player):
    character_submit(character=character, actor=player, expected_version=character.version + 1)
    character.refresh_from_db()
    assert character.state == Character.State.SUBMITTED
    assert character.version == 3  # created 1, Climbing 2, submitted 3
    event = character.events.get(action="submitted")
    assert event.before == {"state": "draft"}
    assert event.after["state"] == "submitted"
    assert event.after["file"]["skills"] == [
        {"name": "Climbing", "level": "Fair", "difficulty": "average"}
    ]
    assert event.version == 3
    # lock_for_edit (the builder's) now refuses edits.
    with pytest.raises(Locked, match="Withdraw the submission"):
        trait_update(trait=climbing, actor=player, expected_version=3, level=GOOD)


def test_withdraw_makes_a_draft_again(character, player):
    submitted(character)
    character_withdraw(character=character, actor=player, expected_version=character.version)
    character.refresh_from_db()
    assert (character.state, character.version) == (Character.State.DRAFT, 3)
    assert list(character.events.values_list("action", flat=True)) == [
        "character_created",
        "submitted",
        "withdrawn",
    ]


def test_request_changes_goes_back_with_comments_per_trait_and_on_the_build(
    character, climbing, gm
):
    submitted(character)
    comments = character_request_changes(
        character=character,
        actor=gm,
        expected_version=character.version,
        comments=[("", "  Looks thin.  "), ("skill:Climbing", "Raise it to Good"), ("", " ")],
    )
    character.refresh_from_db()
    assert character.state == Character.State.CHANGES_REQUESTED
    assert [(c.target, c.body, c.version) for c in comments] == [
        ("", "Looks thin.", character.version),
        ("skill:Climbing", "Raise it to Good", character.version),
    ]
    # Each comment starts a thread the player can answer (tests/app/test_threads.py).
    on_build, on_climbing = character.threads.order_by("id")
    events = list(character.events.filter(action="comment_added").values("target", "after"))
    assert events == [
        {"target": "", "after": {"comment": "Looks thin.", "thread": on_build.pk}},
        {
            "target": "skill:Climbing",
            "after": {"comment": "Raise it to Good", "thread": on_climbing.pk},
        },
    ]
    # Back with the player: the builder works again, and it can be submitted once more.
    trait_update(trait=climbing, actor=character.owner, expected_version=None, level=GOOD)
    submitted(character)
    assert character.state == Character.State.SUBMITTED


def test_the_review_page_says_where_a_build_stands(login, character, gm):
    submitted(character)
    character_request_changes(
        character=character, actor=gm, expected_version=None, comments=[("", "Looks thin.")]
    )
    page = login(gm).get(reverse("character_review", args=[character.pk])).content.decode()
    # A state in a sentence (issue 12, Wording): not "Brogo is changes requested".
    assert (
        "<bdi>Brogo</bdi> is back with its player for changes: there is nothing to decide now."
        in page
    )


def test_request_changes_needs_a_comment_on_something_the_build_has(character, climbing, gm):
    submitted(character)
    with pytest.raises(ServiceError, match="Say what to change"):
        character_request_changes(
            character=character, actor=gm, expected_version=None, comments=[("", "   ")]
        )
    with pytest.raises(ServiceError, match="has no trait Swimming"):
        character_request_changes(
            character=character,
            actor=gm,
            expected_version=None,
            comments=[("skill:Swimming", "Take it")],
        )
    character.refresh_from_db()
    assert character.state == Character.State.SUBMITTED
    assert not ReviewComment.objects.exists()
    assert not character.events.filter(action__in=["changes_requested", "comment_added"]).exists()


def test_approve_keeps_the_build_as_a_file_with_its_sha256(character, climbing, gm):
    approval = approved(character, gm)
    assert character.state == Character.State.APPROVED
    approval = Approval.objects.get(pk=approval.pk)  # as stored (a JSON column)
    fresh = Character.objects.prefetch_related("traits", "equipment").get(pk=character.pk)
    assert approval.snapshot == write_character(character_to_rules(fresh))
    canonical = json.dumps(
        approval.snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    ).encode()
    assert approval.sha256 == hashlib.sha256(canonical).hexdigest()
    assert len(approval.sha256) == 64
    assert (approval.version, approval.approved_by, approval.override_reason) == (
        character.version,
        gm,
        "",
    )
    assert approval.report["valid"] is True
    assert approval_summary(approval) == "approved"
    event = character.events.get(action="approved")
    assert event.after == {"state": "approved", "sha256": approval.sha256, "approval": approval.pk}
    # Approved: the builder refuses edits; changes go through advancement.
    with pytest.raises(Locked, match="through advancement"):
        trait_update(trait=climbing, actor=character.owner, expected_version=None, level=GOOD)


def test_a_non_ascii_snapshot_hashes_its_utf8_canonical_form(character, gm, player):
    trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.SKILL,
        name="Épée — Fechten",
        level=FAIR,
    )
    approval = Approval.objects.get(pk=approved(character, gm).pk)
    canonical = json.dumps(
        approval.snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False
    )
    assert "Épée — Fechten" in canonical
    assert approval.sha256 == hashlib.sha256(canonical.encode("utf-8")).hexdigest()


@pytest.fixture
def no_budget(campaign):
    """House rules with no free levels: any skill puts the build over budget."""
    campaign.house_rules = {"attribute_levels": 0, "skill_levels": 0, "free_gifts": 0}
    campaign.save()
    return campaign


def test_a_build_over_budget_is_approved_only_with_a_reason_that_stays(
    no_budget, character, climbing, gm
):
    report = build_report(character_to_rules(character), ruleset_for(character))
    assert report.balance == -2  # Climbing at Fair, average: 2 skill levels (Mudge 1.62)
    submitted(character)
    with pytest.raises(ServiceError, match=r"breaks 1 rule .*Over budget by 2 skill levels"):
        character_approve(character=character, actor=gm, expected_version=None)
    character.refresh_from_db()
    assert character.state == Character.State.SUBMITTED
    assert not Approval.objects.exists()

    approval = character_approve(
        character=character,
        actor=gm,
        expected_version=character.version,
        override_reason="  A veteran of the siege.  ",
    )
    approval = Approval.objects.get(pk=approval.pk)
    assert approval.override_reason == "A veteran of the siege."
    assert approval.report["valid"] is False
    assert approval_summary(approval) == (
        "approved over budget by 2 skill levels: A veteran of the siege."
    )
    assert character.events.get(action="approved").reason == "A veteran of the siege."


def test_the_builder_of_a_build_approved_over_the_rules_says_so(
    no_budget, character, climbing, gm, login
):
    """Its broken rules are no task for the locked player: the GM chose, and said why."""
    approved(character, gm, reason="A veteran of the siege.")
    page = (
        login(character.owner)
        .get(reverse("character_builder", args=[character.pk]))
        .content.decode()
    )
    assert "1 rule broken, and the GM approved the build over it (see Review):" in page
    assert '<p class="approval-words">Approved over budget by 2 skill levels: A veteran' in page


def test_summary_names_other_broken_rules(no_budget, character, gm, player):
    for name in ("Strength", "Dexterity"):  # two Superb attributes: Mudge allows one (1.6)
        trait_update(
            trait=character.traits.get(name=name), actor=player, expected_version=None, level=3
        )
    approval = approved(character, gm, reason="Twins of the giant")
    # 6 attribute levels over a budget of 0, at 3 skill levels each (Mudge 1.64).
    assert approval_summary(approval) == (
        "approved over budget by 18 skill levels and despite 1 other rule broken: "
        "Twins of the giant"
    )


def test_a_legal_build_keeps_no_override_reason(character, gm):
    approval = approved(character, gm, reason="not needed")
    assert approval.override_reason == ""
    assert approval_summary(approval) == "approved"


def test_a_character_outside_a_campaign_has_no_gm_to_submit_to(player):
    loner = character_create(owner=player, name="Loner", ruleset="mudge")
    with pytest.raises(ServiceError, match="not in a campaign, so there is no GM"):
        character_submit(character=loner, actor=player, expected_version=None)
    loner.refresh_from_db()
    assert loner.state == Character.State.DRAFT


def test_transitions_check_role_state_and_version(character, gm, player, mate):
    with pytest.raises(NotAllowed):
        character_submit(character=character, actor=gm, expected_version=None)
    with pytest.raises(NotAllowed):
        character_submit(character=character, actor=mate, expected_version=None)
    with pytest.raises(StaleWrite):
        character_submit(character=character, actor=player, expected_version=99)
    with pytest.raises(ServiceError, match="not waiting for review"):
        character_approve(character=character, actor=gm, expected_version=None)
    with pytest.raises(ServiceError, match="nothing to withdraw"):
        character_withdraw(character=character, actor=player, expected_version=None)
    submitted(character)
    with pytest.raises(NotAllowed):
        character_approve(character=character, actor=player, expected_version=None)
    with pytest.raises(NotAllowed):
        character_withdraw(character=character, actor=gm, expected_version=None)
    with pytest.raises(ServiceError, match="submitted already"):
        character_submit(character=character, actor=player, expected_version=None)
    character.refresh_from_db()
    assert (character.state, character.version) == (Character.State.SUBMITTED, 2)


# -- every transition over HTTP, for every role --------------------------------------------------

ROLES = ["owner", "mate", "gm", "outsider", "rival_gm", "anonymous"]


@pytest.fixture
def as_role(request, login, player, mate, gm, outsider, rival_gm):
    users = {
        "owner": player,
        "mate": mate,
        "gm": gm,
        "outsider": outsider,
        "rival_gm": rival_gm,
        "anonymous": None,
    }
    return lambda role: login(users[role])


def assert_refused_without_trace(response, role, character, state, version):
    if role == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))
    else:
        assert response.status_code == 404
    character.refresh_from_db()
    assert (character.state, character.version) == (state, version)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_owner_submits(role, as_role, character):
    response = as_role(role).post(reverse("character_submit", args=[character.pk]), {"version": 1})
    if role == "owner":
        assert response.status_code == 302
        assert response["Location"] == reverse("character_builder", args=[character.pk])
        character.refresh_from_db()
        assert character.state == Character.State.SUBMITTED
    else:
        assert_refused_without_trace(response, role, character, Character.State.DRAFT, 1)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_owner_withdraws(role, as_role, character):
    submitted(character)
    response = as_role(role).post(
        reverse("character_withdraw", args=[character.pk]), {"version": 2}
    )
    if role == "owner":
        assert response.status_code == 302
        character.refresh_from_db()
        assert character.state == Character.State.DRAFT
    else:
        assert_refused_without_trace(response, role, character, Character.State.SUBMITTED, 2)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_campaigns_gm_sees_the_review_page(role, as_role, character, climbing):
    submitted(character)
    response = as_role(role).get(reverse("character_review", args=[character.pk]))
    if role == "gm":
        assert response.status_code == 200
        body = response.content.decode()
        assert "Comment on <bdi>Climbing</bdi>" in body
        assert "✓ A legal build." in body
    else:
        assert_refused_without_trace(response, role, character, Character.State.SUBMITTED, 3)


@pytest.mark.parametrize("role", ROLES)
def test_only_the_campaigns_gm_approves(role, as_role, character, gm):
    submitted(character)
    response = as_role(role).post(
        reverse("character_review", args=[character.pk]),
        {"version": 2, "decision": "approve", "once": review_token(gm, character)},
    )
    if role == "gm":
        assert response.status_code == 302
        assert response["Location"] == reverse(
            "campaign_review_queue", args=[character.campaign_id]
        )
        character.refresh_from_db()
        assert character.state == Character.State.APPROVED
        assert character.approvals.count() == 1
    else:
        assert_refused_without_trace(response, role, character, Character.State.SUBMITTED, 2)
        assert not Approval.objects.exists()


@pytest.mark.parametrize("role", ROLES)
def test_only_the_campaigns_gm_requests_changes(role, as_role, character, climbing, gm):
    submitted(character)
    response = as_role(role).post(
        reverse("character_review", args=[character.pk]),
        {
            "version": 3,
            "decision": "request_changes",
            f"trait_{climbing.pk}": "Good, please",
            "once": review_token(gm, character),
        },
    )
    if role == "gm":
        assert response.status_code == 302
        character.refresh_from_db()
        assert character.state == Character.State.CHANGES_REQUESTED
        assert list(character.comments.values_list("target", "body")) == [
            ("skill:Climbing", "Good, please")
        ]
    else:
        assert_refused_without_trace(response, role, character, Character.State.SUBMITTED, 3)
        assert not ReviewComment.objects.exists()


def test_another_campaigns_character_is_not_found_by_our_gm(login, gm, rival_character, rival_gm):
    submitted(rival_character)
    client = login(gm)
    for name in ("character_review", "character_audit", "character_advancement"):
        assert client.get(reverse(name, args=[rival_character.pk])).status_code == 404
    response = client.post(
        reverse("character_review", args=[rival_character.pk]),
        {"version": 2, "decision": "approve"},
    )
    assert response.status_code == 404
    assert (
        client.get(reverse("campaign_review_queue", args=[rival_character.campaign_id])).status_code
        == 404
    )
    rival_character.refresh_from_db()
    assert rival_character.state == Character.State.SUBMITTED
    # Its own GM sees it waiting; ours does not.
    assert "Rival" in login(rival_gm).get(reverse("review_queue")).content.decode()
    assert "Rival" not in client.get(reverse("review_queue")).content.decode()


def test_forged_decisions_on_a_build_that_is_not_submitted_change_nothing(login, gm, character):
    client = login(gm)
    response = client.post(
        reverse("character_review", args=[character.pk]),
        {"version": 1, "decision": "approve", "once": review_token(gm, character)},
    )
    assert response.status_code == 400
    assert "not waiting for review" in response.content.decode()
    character.refresh_from_db()
    assert (character.state, character.version) == (Character.State.DRAFT, 1)
    response = client.post(
        reverse("character_review", args=[character.pk]), {"version": 1, "decision": "promote"}
    )
    assert response.status_code == 400
    assert not Approval.objects.exists()


def test_a_stale_review_is_refused_with_409(login, gm, character):
    submitted(character)
    response = login(gm).post(
        reverse("character_review", args=[character.pk]),
        {"version": 1, "decision": "approve", "once": review_token(gm, character)},
    )
    assert response.status_code == 409
    assert "changed in another tab" in response.content.decode()
    character.refresh_from_db()
    assert character.state == Character.State.SUBMITTED


def test_approving_over_budget_in_the_form_needs_the_reason(
    login, gm, no_budget, character, climbing
):
    submitted(character)
    client = login(gm)
    url = reverse("character_review", args=[character.pk])
    page = client.get(url).content.decode()
    assert "Approve over the rules" in page and "Why approve it over the rules" in page
    # Refused, the decision leaves its token unused: the same form is sent again.
    posted = {"version": 3, "decision": "approve", "once": review_token(gm, character)}
    response = client.post(url, posted, **HTMX)
    assert response.status_code == 400
    body = response.content.decode()
    assert body.lstrip().startswith('<form id="review-form"')  # the form fragment alone
    assert "Approve it over the rules only with a reason" in body
    response = client.post(url, {**posted, "override_reason": "House favourite"}, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("campaign_review_queue", args=[no_budget.pk])
    approval = character.approvals.get()
    assert approval_summary(approval) == "approved over budget by 2 skill levels: House favourite"


def test_the_approval_message_ends_with_one_full_stop(login, gm, no_budget, character, climbing):
    """The GM's reason often ends a sentence of its own: "…: House favourite.." read badly."""
    submitted(character)
    client = login(gm)
    url = reverse("character_review", args=[character.pk])
    data = {"version": 3, "decision": "approve", "override_reason": "House favourite."}
    data["once"] = review_token(gm, character)
    queue = client.post(url, data, follow=True).content.decode()
    said = "approved over budget by 2 skill levels: House favourite."
    assert f"{character.name}: {said}</p>" in queue


def test_a_gift_line_on_the_review_page_starts_with_its_cost(login, gm, character, player):
    trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind=Trait.Kind.GIFT,
        name="Lucky",
        cost=1,
    )
    submitted(character)
    page = login(gm).get(reverse("character_review", args=[character.pk])).content.decode()
    # The cost stands in the row's cost column (issue 25), said once, with no separator
    # before an empty level.
    assert (
        '<span class="trait-level-label"></span>\n          <span class="review-cost">1 gift</span>'
        in page
    )


def test_submit_under_htmx_reloads_or_explains(login, player, character):
    client = login(player)
    url = reverse("character_submit", args=[character.pk])
    response = client.post(url, {"version": 7}, **HTMX)
    assert response.status_code == 409
    assert response["HX-Retarget"] == "#alerts"
    assert "changed in another tab" in response.content.decode()
    response = client.post(url, {"version": 1}, **HTMX)
    assert response.status_code == 200
    assert response["HX-Redirect"] == reverse("character_builder", args=[character.pk])


def test_a_refused_plain_submit_goes_back_with_the_reason(login, player):
    loner = character_create(owner=player, name="Loner", ruleset="mudge")
    client = login(player)
    response = client.post(reverse("character_submit", args=[loner.pk]), {"version": 1})
    assert response.status_code == 302
    messages = [str(m) for m in response.wsgi_request._messages]
    assert any("no GM to review it" in m for m in messages)


# -- the queue ----------------------------------------------------------------------------------


def test_the_queue_lists_waiting_builds_oldest_first_with_their_reports(
    login, gm, player, campaign, character, no_budget, climbing
):
    later = character_create(owner=player, name="Aaron Later", campaign=campaign)
    submitted(later)  # created after Brogo, submitted before it
    submitted(character)
    draft = character_create(owner=player, name="Still Drafting", campaign=campaign)
    body = login(gm).get(reverse("campaign_review_queue", args=[campaign.pk])).content.decode()
    assert body.index("Aaron Later") < body.index("Brogo")
    assert draft.name not in body
    assert "Over budget by 2 skill levels" in body  # Brogo's report
    assert body.count("1 rule broken") == 1
    across = login(gm).get(reverse("review_queue")).content.decode()
    assert across.index("Aaron Later") < across.index("Brogo") and "The Watch" in across


def test_the_queue_of_a_player_who_runs_nothing_is_empty(login, player, character):
    submitted(character)
    body = login(player).get(reverse("review_queue")).content.decode()
    assert "You run no campaign" in body and "Brogo" not in body


# -- the builder's review panel -----------------------------------------------------------------


def panel(character, user):
    character = Character.objects.select_related("campaign").get(pk=character.pk)
    ruleset = ruleset_for(character)
    report = build_report(character_to_rules(character), ruleset)
    return render_to_string(
        "review/character_status.html",
        {"character": character, "report": report, "user": user, "ruleset": ruleset},
    )


def test_the_panel_offers_each_role_its_own_buttons(character, climbing, player, gm):
    html = panel(character, player)
    assert "Submit for review" in html and "Withdraw" not in html
    assert "Review this build" not in panel(character, gm)
    submitted(character)
    html = panel(character, player)
    assert "Withdraw" in html and "Submit for review" not in html
    assert "Review this build" in panel(character, gm)
    character_request_changes(
        character=character,
        actor=gm,
        expected_version=None,
        comments=[("skill:Climbing", "Raise it to Good"), ("", "Nice concept")],
    )
    html = panel(character, player)
    assert "Submit again" in html
    assert 'data-target="skill:Climbing"' in html and "Raise it to Good" in html
    assert "Nice concept" in html
    # Named for people: "Skill: Climbing", "The build" (issue 12, Wording).
    assert '<span class="comment-target">Skill: Climbing</span>' in html
    assert '<span class="comment-target">The build</span>' in html


def test_the_panel_shows_only_the_latest_comments(character, climbing, player, gm):
    submitted(character)
    character_request_changes(
        character=character, actor=gm, expected_version=None, comments=[("", "First round")]
    )
    submitted(character)
    character_request_changes(
        character=character, actor=gm, expected_version=None, comments=[("", "Second round")]
    )
    html = panel(character, player)
    assert "Second round" in html and "First round" not in html


def test_the_panel_of_an_approved_character_links_advancement(character, player, gm):
    approved(character, gm)
    html = panel(character, player)
    assert "Unspent experience: <strong>0 XP</strong>" in html
    assert reverse("character_advancement", args=[character.pk]) in html


def test_the_panel_explains_why_a_character_outside_a_campaign_is_not_submitted(player):
    loner = character_create(owner=player, name="Loner", ruleset="fudge-basics")
    html = panel(loner, player)
    assert "Not in a campaign, so no GM reviews <bdi>Loner</bdi>" in html
    assert "Submit" not in html


def test_the_review_page_shows_what_the_resubmission_changed(
    login, gm, player, character, climbing
):
    submitted(character)
    character_request_changes(
        character=character,
        actor=gm,
        expected_version=None,
        comments=[("skill:Climbing", "Good, please")],
    )
    trait_update(trait=climbing, actor=player, expected_version=None, level=GOOD)
    submitted(character)
    body = login(gm).get(reverse("character_review", args=[character.pk])).content.decode()
    assert "What changed" in body
    assert "<del>Fair, average</del> → <ins>Good, average</ins>" in body
    assert "Good, please" in body  # the last comments, to check against


def test_the_queue_costs_the_same_queries_for_one_build_or_many(
    login, gm, player, campaign, character, django_assert_num_queries
):
    client = login(gm)
    submitted(character)
    client.get(reverse("review_queue"))  # warm the session
    with CaptureQueriesContext(connection) as one:
        assert "Brogo" in client.get(reverse("review_queue")).content.decode()
    for name in ("Ann", "Bea", "Cy"):
        submitted(character_create(owner=player, name=name, campaign=campaign))
    with django_assert_num_queries(len(one)):
        body = client.get(reverse("review_queue")).content.decode()
    assert all(name in body for name in ("Ann", "Bea", "Cy", "Brogo"))
