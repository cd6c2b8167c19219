"""A character's life after the build: submissions and pending spends are rows of their own
(never read back from audit-event JSON), and an approval is checked against its append-only
event, so a rewritten snapshot shows as tampered even with its own hash column recomputed."""

import re
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from characters.adapters import character_file, character_to_rules, file_sha256, ruleset_for
from characters.audit_chain import stamp_code, stamp_read
from characters.errors import NotAllowed
from characters.models import (
    Approval,
    Character,
    CharacterEvent,
    Equipment,
    ExperienceEntry,
    Submission,
)
from characters.selectors.advancement import BUY_OFF_FAULT, GIFT, META_POINT, RAISE
from characters.selectors.review import character_versions, pending_spend_queue, review_queue
from characters.services.advancement import experience_award, experience_spend
from characters.services.decisions import decision_token_issue
from characters.services.review import (
    character_approve,
    character_request_changes,
    character_submit,
    character_withdraw,
)
from characters.services.rows import trait_update
from characters.services.threads import comment_thread_start
from characters.sheets import approval_stamp
from rules.house_rules import json_number
from rules.ladder import GOOD, GREAT
from rules.report import build_report
from tests.app.test_advancement import in_play  # noqa: F401
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved
from tests.support.builder_fixtures import *  # noqa: F403


def report_of(character):
    character = Character.objects.prefetch_related("traits", "equipment", "ledger").get(
        pk=character.pk
    )
    return build_report(character_to_rules(character), ruleset_for(character))


def balance(report) -> str:
    amount = json_number(report.balance)
    return f"{amount} skill level{'' if abs(amount) == 1 else 's'}"


def submit(character, player):
    character_submit(character=character, actor=player, expected_version=None)
    character.refresh_from_db()


# -- submissions -------------------------------------------------------------------------------


def test_a_submission_is_a_row_the_queue_reads(character, climbing, player, gm):
    submit(character, player)
    submission = Submission.objects.get(character=character)
    assert submission.outcome == Submission.Outcome.WAITING
    assert submission.version == character.version
    assert submission.submitted_by == player
    [item] = review_queue(gm)
    assert item.character == character
    assert item.submitted_at == submission.submitted_at


def test_the_queue_does_not_read_events(character, climbing, player, gm):
    """Waiting since comes from the Submission row: an older submitted event elsewhere in
    the record does not move it."""
    submit(character, player)
    submission = character.submissions.get()
    assert CharacterEvent.objects.filter(character=character, action="submitted").count() == 1
    Submission.objects.filter(pk=submission.pk).update(submitted_at="2026-01-02T03:04:05Z")
    [item] = review_queue(gm)
    assert item.submitted_at.isoformat().startswith("2026-01-02T03:04:05")


@pytest.mark.parametrize(
    ("decide", "outcome"),
    [
        ("withdraw", Submission.Outcome.WITHDRAWN),
        ("request_changes", Submission.Outcome.CHANGES_REQUESTED),
        ("approve", Submission.Outcome.APPROVED),
    ],
)
def test_each_decision_closes_the_submission(character, climbing, player, gm, decide, outcome):
    if decide == "approve":
        approved(character, gm)  # submits, then approves
    else:
        submit(character, player)
    if decide == "withdraw":
        character_withdraw(character=character, actor=player, expected_version=None)
    if decide == "request_changes":
        character_request_changes(
            character=character, actor=gm, expected_version=None, comments=[("", "More skills")]
        )
    submission = character.submissions.order_by("-id").first()
    assert submission.outcome == outcome
    assert submission.decided_at is not None
    assert not character.submissions.filter(outcome=Submission.Outcome.WAITING).exists()
    assert review_queue(gm) == []


def test_a_resubmission_is_a_new_row(character, climbing, player, gm):
    submit(character, player)
    character_request_changes(
        character=character, actor=gm, expected_version=None, comments=[("", "Fix it")]
    )
    submit(character, player)
    outcomes = list(character.submissions.values_list("outcome", flat=True))
    assert outcomes == [Submission.Outcome.CHANGES_REQUESTED, Submission.Outcome.WAITING]


# -- pending spends ------------------------------------------------------------------------------


def test_a_pending_spend_keeps_its_request_on_the_entry(in_play, gm):  # noqa: F811
    hero = in_play("mudge", [("skill", "Climbing", GOOD)], experience=10)
    hero.campaign.spends_need_approval = True
    hero.campaign.save()
    climbing = hero.traits.get(name="Climbing")
    entry = experience_spend(
        character=hero, actor=hero.owner, expected_version=None, what=RAISE, trait=climbing
    )
    entry.refresh_from_db()
    assert entry.pending
    assert entry.request["label"] == "Raise Climbing from Good to Great"
    assert entry.request["cost"] == 4  # Mudge 5.2: Good -> Great, 4 XP
    [(queued, request)] = pending_spend_queue(gm)
    assert queued == entry
    assert request["target"] == "skill:Climbing"
    assert request["entry"] == entry.pk


def test_a_pending_row_with_no_request_can_only_be_refused(in_play, gm):  # noqa: F811
    hero = in_play("mudge", experience=5)
    entry = ExperienceEntry.objects.create(
        character=hero, amount=-2, reason="By hand", actor=gm, pending=True
    )
    [(queued, request)] = pending_spend_queue(gm)
    assert queued == entry
    assert request["what"] is None
    assert request["label"] == "By hand"


# -- approval against its append-only event ------------------------------------------------------


def test_the_approval_event_records_the_approval(character, climbing, gm):
    approval = approved(character, gm)
    event = approval.recorded_event()
    assert event.after["approval"] == approval.pk
    assert event.after["sha256"] == approval.sha256 == file_sha256(approval.snapshot)
    assert event.version == approval.version == character.version
    stamp = approval_stamp(character)
    assert stamp.verified
    # The line carries the stamp's code, keyed to this character, version and event.
    code = stamp_code(character.pk, approval.version, event.pk)
    assert stamp.code == code
    assert stamp_read(code) == (character.pk, approval.version, event.pk)
    assert stamp.line == f"Approved · SHA-256 {approval.sha256} · stamp {code}"


def test_a_rewritten_snapshot_shows_as_tampered(character, climbing, gm, player_client):
    approval = approved(character, gm)
    forged = {**approval.snapshot, "skills": [{"name": "Climbing", "level": "Superb"}]}
    # The editable row is rewritten with a matching hash column: only the event disagrees.
    Approval.objects.filter(pk=approval.pk).update(snapshot=forged, sha256=file_sha256(forged))
    character = Character.objects.get(pk=character.pk)
    stamp = approval_stamp(character)
    assert not stamp.verified
    assert "does not match its record" in stamp.line
    assert stamp.sha256 == approval.sha256  # the hash the GM approved, from the event
    kept = next(v for v in character_versions(character) if v.key == f"a{approval.pk}")
    assert not kept.verified
    page = player_client.get(reverse("character_sheet", args=[character.pk]))
    assert "Approval does not match its record" in page.content.decode()


def test_an_untouched_snapshot_verifies_on_the_audit_page(character, climbing, gm):
    approval = approved(character, gm)
    character = Character.objects.get(pk=character.pk)
    kept = next(v for v in character_versions(character) if v.key == f"a{approval.pk}")
    assert kept.verified
    assert kept.sha256 == approval.sha256


def test_awards_keep_the_approval_verified(in_play, gm):  # noqa: F811
    hero = in_play("mudge", experience=0)
    experience_award(character=hero, actor=gm, amount=3, reason="Session 1")
    hero = Character.objects.get(pk=hero.pk)
    assert approval_stamp(hero).verified


# -- a locked build looks locked -----------------------------------------------------------------


@pytest.mark.parametrize("state", ["submitted", "approved"])
def test_a_locked_build_renders_read_only(character, climbing, gm, player_client, state):
    if state == "submitted":
        submit(character, character.owner)
    else:
        approved(character, gm)
    thread = comment_thread_start(character=character, actor=gm, body="Hm?", about=climbing)
    html = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    # Every control of the build sits in a disabled fieldset (one per part: the details,
    # each row, the personality): nothing posts, nothing snaps back. A thread beside a row
    # is outside them, open to answer. The side panel keeps what the state allows.
    start = html.index('<fieldset disabled class="locked-build">')
    main = html[start : html.index('<aside class="builder-panel"')]
    controls = controls_of(main)
    build = {name for name, _ in controls} - {"body"}
    assert {"name", "level", "difficulty", "player", "notes"} <= build
    assert all(locked for name, locked in controls if name in build)
    assert ("body", False) in controls  # the thread's answer box
    assert f'id="thread-{thread.pk}"' in main
    assert "Remove" not in main
    aside = html[html.index('<aside class="builder-panel"') :]
    if state == "submitted":
        assert "Withdraw" in aside
        assert "Withdraw it</a> to edit again" in html
    else:
        assert reverse("character_advancement", args=[character.pk]) in aside
        assert "ask your GM" in html


def controls_of(html: str) -> list[tuple[str, bool]]:
    """Each form control's name, and whether a disabled fieldset holds it."""

    class Controls(HTMLParser):
        def __init__(self):
            super().__init__()
            self.fieldsets, self.found = [], []

        def handle_starttag(self, tag, attrs):
            attrs = dict(attrs)
            if tag == "fieldset":
                self.fieldsets.append("disabled" in attrs)
            elif tag in ("input", "select", "textarea") and attrs.get("type") != "hidden":
                self.found.append((attrs.get("name", ""), any(self.fieldsets)))

        def handle_endtag(self, tag):
            if tag == "fieldset":
                self.fieldsets.pop()

    parser = Controls()
    parser.feed(html)
    return parser.found


def test_a_draft_is_not_locked(character, climbing, player_client):
    html = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "locked-build" not in html


# -- the ledger records what each spend bought ---------------------------------------------------


def test_each_spend_records_what_it_bought(in_play, gm):  # noqa: F811
    hero = in_play(
        "fudge-basics",
        [("skill", "Climbing", GOOD), ("fault", "Greedy", None)],
        experience=40,
    )
    climbing = hero.traits.get(name="Climbing")
    greedy = hero.traits.get(name="Greedy")
    spend = dict(character=hero, actor=gm, expected_version=None)
    experience_spend(**spend, what=RAISE, trait=climbing)
    experience_spend(**spend, what=BUY_OFF_FAULT, trait=greedy)
    experience_spend(**spend, what=GIFT, name="Night Vision")
    spends = hero.ledger.filter(amount__lt=0).order_by("id")
    assert [(e.amount, e.bought) for e in spends] == [
        # Fudge Basics, Experience: Good -> Great 4 EP; buying off a fault 9 EP; a gift 6 EP.
        (-4, {"raise": {"list": "skills", "name": "Climbing", "from": "Good", "to": "Great"}}),
        (-9, {"remove": {"list": "faults", "name": "Greedy"}}),
        (-6, {"add": {"list": "gifts", "name": "Night Vision", "cost": 1}}),
    ]
    assert hero.ledger.filter(amount__gt=0).get().bought is None  # an award buys nothing


def test_rows_say_what_experience_changed(in_play, gm, player_client):  # noqa: F811
    # A gift from creation has no level to compare: it stays a plain row.
    traits = [("skill", "Climbing", GOOD), ("gift", "Lucky", None)]
    hero = in_play("fudge-basics", traits, experience=40)
    spend = dict(character=hero, actor=gm, expected_version=None)
    experience_spend(**spend, what=RAISE, trait=hero.traits.get(name="Climbing"))
    experience_spend(**spend, what=GIFT, name="Night Vision")
    html = player_client.get(reverse("character_builder", args=[hero.pk])).content.decode()

    def row_of(name):
        start = html.index(f'value="{name}"')
        return html[start : html.index("</form>", start)]

    # A row's cost stays what it cost at creation; the note says where experience took it.
    assert '<small class="row-in-play">Good at creation, raised in play</small>' in row_of(
        "Climbing"
    )
    assert '<small class="row-in-play">bought in play</small>' in row_of("Night Vision")
    assert "row-in-play" not in row_of(hero.traits.get(kind="attribute", position=0).name)
    assert "row-in-play" not in row_of("Lucky")


def test_a_meta_point_spend_records_its_count(in_play, gm):  # noqa: F811
    hero = in_play("mudge", experience=6)
    experience_spend(character=hero, actor=hero.owner, expected_version=None, what=META_POINT)
    spend = hero.ledger.get(amount__lt=0)
    assert (spend.amount, spend.bought) == (-6, {"meta_points": 1})  # Mudge 5.2: 6 XP


# -- templates: previewed, applied with versions after, undone in one click ----------------------


def test_the_template_preview_prices_what_applying_it_does(character, player_client, player):
    url = reverse("character_builder", args=[character.pk])
    page = player_client.get(url, {"template": "cercopes"}).content.decode()
    preview = page[page.index('id="template-preview"') :]
    preview = preview[: preview.index("</div>")]
    # Mudge 6.43: Cercopes are Mediocre Strength (-1 racial), Good Dexterity.
    assert "Strength Fair → Mediocre" in preview
    before = report_of(character)
    player_client.post(
        reverse("template_apply", args=[character.pk]),
        {"version": character.version, "template": "cercopes"},
    )
    character = Character.objects.get(pk=character.pk)
    after = report_of(character)
    assert (
        f"the balance goes from <strong>{balance(before)}</strong> "
        f"to <strong>{balance(after)}</strong>" in preview
    )
    assert character.race == "Cercopes"
    assert character.traits.get(name="Strength").level == -1


def test_template_events_carry_the_version_after(character, player):
    from characters.services.templates import character_apply_template

    changed = character_apply_template(
        character=character, actor=player, expected_version=None, slug="ranger"
    )
    assert changed
    character.refresh_from_db()
    events = character.events.filter(reason="template Ranger")
    assert events.count() > 1
    assert set(events.values_list("version", flat=True)) == {character.version}


def test_a_template_is_undone_in_one_step(character, climbing, player_client):
    """A template is one step of the builder's history (services.history): one Undo puts
    every row it changed back, one Redo applies it again."""
    character = Character.objects.get(pk=character.pk)
    before = character_file(character)
    player_client.post(
        reverse("template_apply", args=[character.pk]),
        {"version": character.version, "template": "cercopes"},
    )
    character = Character.objects.get(pk=character.pk)
    applied = character_file(character)
    assert applied != before
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Undo: template Cercopes</button>" in page
    response = player_client.post(
        reverse("edit_undo", args=[character.pk]), {"version": character.version}
    )
    assert response.status_code == 302
    character = Character.objects.get(pk=character.pk)
    assert character_file(character) == before
    undone = character.events.get(action="edit_undone")
    assert undone.version == character.version
    assert undone.reason == "undo template Cercopes"
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Undo: template Cercopes" not in page
    assert "Redo: template Cercopes</button>" in page
    player_client.post(reverse("edit_redo", args=[character.pk]), {"version": character.version})
    assert character_file(Character.objects.get(pk=character.pk)) == applied


def test_undo_after_a_template_takes_back_the_newest_edit_first(
    character, climbing, player_client, player
):
    character = Character.objects.get(pk=character.pk)
    player_client.post(
        reverse("template_apply", args=[character.pk]),
        {"version": character.version, "template": "cercopes"},
    )
    character = Character.objects.get(pk=character.pk)
    applied = character_file(character)
    trait_update(
        actor=player,
        expected_version=character.version,
        trait=character.traits.get(name="Climbing"),
        level=GREAT,
    )
    character = Character.objects.get(pk=character.pk)
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    # One Undo, not one per kind of change: the header's form takes back the newest edit,
    # and the answer beside the last write offers the same form's button (issue 39).
    assert page.count('id="undo-form"') == 1
    offered = set(re.findall(r">(Undo: [^<]*)</button>", page))
    assert offered == {"Undo: Climbing Good → Great"}
    player_client.post(reverse("edit_undo", args=[character.pk]), {"version": character.version})
    character = Character.objects.get(pk=character.pk)
    assert character_file(character) == applied
    assert character.race == "Cercopes"


# -- Scale is explained --------------------------------------------------------------------------


def test_scale_is_explained_on_the_builder_and_the_review_page(
    character, climbing, player_client, client, gm
):
    Character.objects.filter(pk=character.pk).update(scale_strength=2, scale_mass=-1)
    Equipment.objects.create(character=character, name="Staff", kind="weapon", damage=2)
    page = player_client.get(reverse("character_builder", args=[character.pk])).content.decode()
    # Mudge 2.34: increased Strength Scale costs an attribute level a step; below 0 nothing
    # comes back unless the GM allows it.
    assert "Strength Scale +2 costs 2 attribute levels (Mudge 2.34)." in page
    assert "Mass Scale -1 gives nothing back: only if the GM allows it (Mudge 2.34)" in page
    submit(character, character.owner)
    client.force_login(gm)
    review = client.get(reverse("character_review", args=[character.pk])).content.decode()
    assert "Strength 2 · Mass -1" in review
    assert "Strength Scale +2 costs 2 attribute levels" in review
    # The kind is a label, a word with its capital (issue 39), its facts follow it.
    assert "<strong><bdi>Staff</bdi></strong>" in review and "Weapon · damage +2" in review


def test_a_house_rule_refund_is_explained():
    from rules.character import Character as Value
    from rules.house_rules import apply_house_rules
    from rules.report import scale_notes
    from rules.rulesets import BUILTIN

    ruleset = apply_house_rules(BUILTIN["mudge"], {"negative_scale_refund": True})
    notes = scale_notes(Value("mudge", "Brogo", scale_strength=-2, scale_mass=-2), ruleset)
    assert notes == [
        "Strength Scale -2 gives back 2 attribute levels, by house rule (Mudge 2.34).",
        "Mass Scale -2 counts as a fault (Easily Wounded) for each of 2 steps, by house rule "
        "(Mudge 2.34).",
    ]
    assert scale_notes(Value("microfudged-dip", "Jim"), BUILTIN["microfudged-dip"]) == []


# -- an approved build is reopened when the player asks for a change ----------------------------


def test_the_gm_reopens_an_approved_build(character, climbing, gm, client, player):
    first = approved(character, gm)
    client.force_login(gm)
    url = reverse("character_review", args=[character.pk])
    page = client.get(url).content.decode()
    assert "Reopen for changes" in page
    response = client.post(
        url,
        {
            "version": character.version,
            "decision": "request_changes",
            "comment": "Pip asked to swap Climbing for Swimming.",
            "once": decision_token_issue(user=gm, kind="review", target=character.pk),
        },
    )
    assert response.status_code == 302
    character = Character.objects.get(pk=character.pk)
    assert character.state == Character.State.CHANGES_REQUESTED
    event = character.events.filter(action="changes_requested").latest("id")
    assert event.before == {"state": "approved"}
    assert character.comments.latest("id").body == "Pip asked to swap Climbing for Swimming."
    # The record stays; a resubmission is approved again, as a second approval.
    submit(character, player)
    again = character_approve(character=character, actor=gm, expected_version=None)
    assert list(character.approvals.order_by("id")) == [first, again]


def test_only_the_gm_reopens(character, climbing, gm, player):
    approved(character, gm)
    with pytest.raises(NotAllowed):
        character_request_changes(
            character=character, actor=player, expected_version=None, comments=[("", "Please")]
        )


def test_spends_from_before_the_ledger_recorded_them_are_backfilled(in_play, gm):  # noqa: F811
    """Migration 0011: the events that applied older spends say what they bought."""
    import importlib
    from types import SimpleNamespace

    from django.apps import apps
    from django.db import connection

    backfill = importlib.import_module("characters.migrations.0011_ledger_backfill").backfill
    hero = in_play(
        "fudge-basics",
        [("skill", "Climbing", GOOD), ("fault", "Greedy", None)],
        experience=40,
    )
    spend = dict(character=hero, actor=gm, expected_version=None)
    experience_spend(**spend, what=RAISE, trait=hero.traits.get(name="Climbing"))
    experience_spend(**spend, what=BUY_OFF_FAULT, trait=hero.traits.get(name="Greedy"))
    experience_spend(**spend, what=GIFT, name="Night Vision")
    recorded = list(
        hero.ledger.filter(amount__lt=0).order_by("id").values_list("bought", flat=True)
    )
    hero.ledger.update(bought=None)
    backfill(apps, SimpleNamespace(connection=connection))
    again = list(hero.ledger.filter(amount__lt=0).order_by("id").values_list("bought", flat=True))
    assert again == recorded
    assert report_of(hero).valid
