"""The audit trail: append-only in the database (really attempted, raw SQL and ORM, on
SQLite and PostgreSQL), written in the same transaction as the change it records, and the
GM's audit page: the timeline and the diff of two builds (rules/diff.py)."""

import re

import pytest
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.urls import reverse

from characters.audit_chain import stamp_code
from characters.errors import ServiceError
from characters.models import Approval, Character, CharacterEvent, Trait
from characters.selectors.advancement import RAISE
from characters.services.advancement import experience_award, experience_spend
from characters.services.characters import character_create
from characters.services.keeping import character_archive
from characters.services.review import character_request_changes
from characters.services.rows import trait_add, trait_update
from rules.diff import ADDED, CHANGED, REMOVED, Change, diff_files
from rules.ladder import GOOD
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import HTMX, approved, submitted
from tests.conftest import role_split
from tests.support.builder_fixtures import *  # noqa: F403

EVENTS = "characters_characterevent"
postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="PostgreSQL only: set DATABASE_URL=postgres://... to run it",
)


# -- append-only, for real ----------------------------------------------------------------------


def trigger_names() -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                [EVENTS],
            )
        else:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
                [EVENTS],
            )
        return {row[0] for row in cursor.fetchall()}


def test_the_append_only_triggers_are_installed(db):
    expected = {
        "postgresql": {
            "characters_characterevent_no_change",
            "characters_characterevent_no_truncate",
        },
        "sqlite": {"characters_characterevent_no_update", "characters_characterevent_no_delete"},
    }[connection.vendor]
    assert trigger_names() == expected


@pytest.fixture
def event(character):
    return character.events.get(action="character_created")


def refusal():
    """How a change to the trail fails: as the runtime role (PostgreSQL with
    DATABASE_OWNER_URL) for want of the right, else the append-only triggers refuse it."""
    if role_split():
        return pytest.raises(ProgrammingError, match=f"permission denied for table {EVENTS}")
    return pytest.raises(IntegrityError, match="append-only")


def refused(statement):
    """Run `statement` in a savepoint: it must fail, saying why."""
    with refusal(), transaction.atomic():
        statement()


def test_raw_sql_cannot_update_or_delete_an_event(event):
    def raw(sql, params):
        with connection.cursor() as cursor:
            cursor.execute(sql, params)

    refused(lambda: raw(f"UPDATE {EVENTS} SET reason = %s WHERE id = %s", ["forged", event.pk]))
    refused(lambda: raw(f"UPDATE {EVENTS} SET action = %s", ["nothing_happened"]))
    refused(lambda: raw(f"DELETE FROM {EVENTS} WHERE id = %s", [event.pk]))
    refused(lambda: raw(f"DELETE FROM {EVENTS}", []))
    event.refresh_from_db()
    assert (event.action, event.reason) == ("character_created", "")
    assert CharacterEvent.objects.count() == 1


def test_the_orm_cannot_update_or_delete_an_event(event):
    event.reason = "forged"
    refused(lambda: event.save())
    refused(lambda: CharacterEvent.objects.filter(pk=event.pk).update(reason="forged"))
    refused(lambda: event.delete())
    refused(lambda: CharacterEvent.objects.all().delete())
    assert CharacterEvent.objects.get(pk=event.pk).reason == ""


def test_inserting_events_stays_open(character, player):
    before = CharacterEvent.objects.count()
    trait_add(character=character, actor=player, expected_version=None, kind="skill", name="Swim")
    assert CharacterEvent.objects.count() == before + 1


def test_archiving_a_character_keeps_its_record(character, player):
    pk = character.pk
    character_archive(character=character, actor=player)
    assert not Character.objects.filter(pk=pk).exists()
    assert not player.characters.exists() and not character.campaign.characters.exists()
    archived = Character.all_objects.get(pk=pk)
    assert archived.archived_at is not None and archived.version == 2
    assert list(
        CharacterEvent.objects.filter(character_id=pk).values_list("action", "version")
    ) == [("character_created", 1), ("character_archived", 2)]


@postgres_only
def test_truncate_is_refused_on_postgresql(event):
    def truncate():
        with connection.cursor() as cursor:
            # Run the test transaction's deferred foreign-key checks first: PostgreSQL will
            # not truncate a table with pending trigger events, whatever its own triggers.
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute(f"TRUNCATE {EVENTS}")

    refused(truncate)
    assert CharacterEvent.objects.filter(pk=event.pk).exists()


@postgres_only
@pytest.mark.skipif(
    role_split(), reason="run as the runtime role itself: tests/app/test_db_roles.py covers it"
)
def test_an_ordinary_role_cannot_switch_the_triggers_off(event):
    """Replica mode is the only way past the triggers, and only a superuser may use it:
    the application's own role cannot, and as that role the triggers still refuse."""
    from django.db import ProgrammingError

    with connection.cursor() as cursor:
        cursor.execute("CREATE ROLE fairsheet_app_test NOLOGIN")  # rolled back with the test
        cursor.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON {EVENTS} TO fairsheet_app_test")
        cursor.execute("SET LOCAL ROLE fairsheet_app_test")
        with pytest.raises(ProgrammingError, match="permission denied"), transaction.atomic():
            cursor.execute("SET session_replication_role = replica")
        with pytest.raises(IntegrityError, match="append-only"), transaction.atomic():
            cursor.execute(f"DELETE FROM {EVENTS} WHERE id = %s", [event.pk])
        cursor.execute("RESET ROLE")
    assert CharacterEvent.objects.filter(pk=event.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_committed_events_cannot_be_changed_outside_a_test_transaction(campaign, player):
    """Autocommit, as in production: each service commits, and the trail stays fixed. The
    flush after this test goes through conftest's audit_trail_flushable (migration 0002)."""
    character = character_create(owner=player, name="Committed", campaign=campaign)
    submitted(character)
    assert not connection.in_atomic_block
    with refusal():
        CharacterEvent.objects.filter(character=character).update(reason="forged")
    with refusal():
        CharacterEvent.objects.filter(character=character).delete()
    assert list(character.events.values_list("action", "reason")) == [
        ("character_created", ""),
        ("submitted", ""),
    ]


# -- the change and its event commit together ----------------------------------------------------


def test_a_refused_write_leaves_no_event_behind(character, climbing, gm, player):
    approved(character, gm)
    count = CharacterEvent.objects.count()
    with pytest.raises(ServiceError, match="costs 2 XP"):
        experience_spend(
            character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
        )
    with pytest.raises(ServiceError, match="Say what to change"):
        character_request_changes(
            character=character, actor=gm, expected_version=None, comments=[("", "  ")]
        )
    assert CharacterEvent.objects.count() == count
    character.refresh_from_db()
    assert (character.experience, character.ledger.count(), character.comments.count()) == (0, 0, 0)


def test_an_event_is_rolled_back_with_its_change(character, player):
    count = CharacterEvent.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        trait_add(
            character=character, actor=player, expected_version=None, kind="skill", name="Swim"
        )
        raise RuntimeError("the request failed after the service call")
    assert CharacterEvent.objects.count() == count
    assert not Trait.objects.filter(name="Swim").exists()


# -- the audit page ------------------------------------------------------------------------------


def audit(client, character, **params):
    return client.get(reverse("character_audit", args=[character.pk]), params)


@pytest.mark.parametrize("role", ["owner", "gm", "mate", "outsider", "rival_gm", "anonymous"])
def test_the_audit_page_is_for_the_owner_and_the_gm(
    role, login, player, gm, mate, outsider, rival_gm, character
):
    users = {
        "owner": player,
        "gm": gm,
        "mate": mate,
        "outsider": outsider,
        "rival_gm": rival_gm,
        "anonymous": None,
    }
    response = audit(login(users[role]), character)
    if role in ("owner", "gm"):
        assert response.status_code == 200
        assert "Character created" in response.content.decode()
    elif role == "anonymous":
        assert response.status_code == 302
    else:
        assert response.status_code == 404


def test_the_timeline_says_who_when_what_before_and_after(login, gm, character, climbing):
    trait_update(trait=climbing, actor=character.owner, expected_version=None, level=GOOD)
    approved(character, gm, reason="")
    body = audit(login(gm), character).content.decode()
    # Newest first: approved, submitted, relevelled, added, created.
    titles = ("Approved", "Submitted", "Trait relevelled", "Trait added")
    order = [body.index(f"<strong>{title}</strong>") for title in titles]
    assert order == sorted(order)
    assert "<bdi>Skill: Climbing</bdi>" in body
    assert "<del>Fair</del> → <ins>Good</ins>" in body
    # The state as every page says it (characters.states).
    assert "<del>Submitted</del> → <ins>Approved</ins>" in body
    assert body.count("· player</small>") >= 3 and body.count("· gm</small>") == 1


def test_the_default_diff_is_the_last_approval_against_now(login, gm, player, character, climbing):
    approved(character, gm)
    experience_award(character=character, actor=gm, amount=2, reason="Session 1")
    experience_spend(
        character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
    )
    approval = character.approvals.get()
    response = audit(login(gm), character)
    assert response.context["old"].key == f"a{approval.pk}"
    assert response.context["new"].key == "current"
    assert [str(c) for c in response.context["changes"]] == [
        "skill Climbing: Fair, average → Good, average"
    ]
    body = response.content.decode()
    assert "✓ snapshot matches its SHA-256" in body
    assert "<del>Fair, average</del> → <ins>Good, average</ins>" in body


def test_before_any_approval_the_diff_shows_what_the_resubmission_fixed(
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
    trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind="skill",
        name="Swim",
        level=GOOD,
        difficulty="easy",
    )
    submitted(character)
    response = audit(login(gm), character)
    first = character.events.filter(action="submitted").earliest("id")
    assert response.context["old"].key == f"s{first.pk}"
    assert [str(c) for c in response.context["changes"]] == [
        "skill Climbing: Fair, average → Good, average",
        "added skill Swim (Good, easy)",
    ]


def test_the_version_pickers_swap_the_diff_alone(login, gm, character, climbing):
    approved(character, gm)
    approval = character.approvals.get()
    client = login(gm)
    response = audit(client, character, old="", new=f"a{approval.pk}")
    assert response.context["old"] is None
    # From nothing: the whole approved build, as added.
    body = response.content.decode()
    assert f"From <strong>nothing</strong> to <strong>approved v{approval.version}</strong>" in body
    added = [str(c) for c in response.context["changes"] if c.kind == "added"]
    assert "added skill Climbing (Fair, average)" in added
    assert "added attribute Strength (Fair)" in added
    details = {c.label: (c.old, c.new) for c in response.context["changes"] if c.kind == "changed"}
    assert details["name"] == ("", character.name)
    assert "race" not in details  # an empty race against nothing is no change
    response = client.get(
        reverse("character_audit", args=[character.pk]),
        {"old": f"a{approval.pk}", "new": "current"},
        **HTMX,
    )
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="diff"')
    assert "No difference: the two builds are the same." in body
    assert "Timeline" not in body
    assert audit(client, character, old="a999999").status_code == 404
    assert audit(client, character, new="bogus").status_code == 404


def test_the_compared_versions_stay_in_the_address(login, gm, character, climbing):
    """The pickers push their choice into the address (hx-push-url): a reload, a link or
    the way back there shows the same comparison, as the whole page; a cache keeps the
    fragment and the page apart (Vary: HX-Request)."""
    approved(character, gm)
    approval = character.approvals.get()
    client = login(gm)
    url = reverse("character_audit", args=[character.pk])
    chosen = {"old": "", "new": f"a{approval.pk}"}
    page = client.get(url).content.decode()
    assert 'hx-push-url="true"' in page
    fragment = client.get(url, chosen, **HTMX)
    assert fragment.content.decode().lstrip().startswith('<div id="diff"')
    restored = client.get(url, chosen, **HTMX, HTTP_HX_HISTORY_RESTORE_REQUEST="true")
    reloaded = client.get(url, chosen)
    for whole in (restored, reloaded):
        body = whole.content.decode()
        assert "Timeline" in body and "<html" in body
        assert f'<option value="a{approval.pk}" selected>' in body
        assert (
            f"From <strong>nothing</strong> to <strong>approved v{approval.version}</strong>"
            in body
        )
    for response in (fragment, restored, reloaded):
        assert "HX-Request" in response["Vary"]


def test_a_changed_snapshot_no_longer_matches_its_sha256(login, gm, character, climbing):
    approved(character, gm)
    approval = character.approvals.get()
    snapshot = dict(approval.snapshot, name="Someone Else")
    Approval.objects.filter(pk=approval.pk).update(snapshot=snapshot)
    body = audit(login(gm), character).content.decode()
    assert "✗ snapshot does not match its SHA-256" in body


def test_the_stamp_check_says_when_in_one_sentence(login, character, climbing, gm):
    # English's own date format ends its time in "a.m.", and the sentence its full stop.
    approved(character, gm)
    event = character.events.get(action="approved")
    code = stamp_code(character.pk, event.version, event.pk)
    response = login(character.owner).get(reverse("approval_stamp_check"), {"code": code})
    text = " ".join(response.content.decode().split())
    when = re.search(r"approved version \d+ of <bdi>.+?</bdi>, (.+?)\. This approval", text)
    assert when and re.fullmatch(r"\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}", when[1]), text


# -- rules/diff.py -------------------------------------------------------------------------------


def test_diff_names_added_removed_and_changed_traits_with_old_and_new_levels():
    old = {
        "name": "Brogo",
        "scale": {"strength": 0, "mass": 0},
        "attributes": [{"name": "Strength", "level": "Fair"}],
        "skills": [
            {"name": "Climbing", "level": "Fair", "difficulty": "average"},
            {"name": "Bow", "level": "Good"},
        ],
        "gifts": [{"name": "Luck", "cost": 1}],
        "faults": [],
        "equipment": [{"name": "Dagger", "kind": "weapon", "damage": 1}],
        "meta_points": 3,
        "experience": 4,
    }
    new = {
        "name": "Brogo the Scout",
        "scale": {"strength": -2, "mass": 0},
        "attributes": [{"name": "strength", "level": "Fair"}],  # case only: no change
        "skills": [
            {"name": "Climbing", "level": "Great", "difficulty": "average"},
            {"name": "Stealth", "level": "Good", "difficulty": "hard"},
        ],
        "gifts": [{"name": "Luck", "cost": 2}],
        "faults": [{"name": "Curious", "value": 1}],
        "equipment": [{"name": "Dagger", "kind": "weapon", "damage": 1}],
        "meta_points": 3,
        "experience": 0,
    }
    changes = diff_files(old, new)
    assert [str(c) for c in changes] == [
        "name: Brogo → Brogo the Scout",
        "experience: 4 → 0",
        "scale strength: 0 → -2",
        "skill Climbing: Fair, average → Great, average",
        "added skill Stealth (Good, hard)",
        "removed skill Bow (Good)",
        "gift Luck: cost 1 → cost 2",
        "added fault Curious (value 1)",
    ]
    assert changes[3] == Change(
        "skills", "skill", "Climbing", CHANGED, "Fair, average", "Great, average"
    )
    assert [c.kind for c in changes[4:6]] == [ADDED, REMOVED]
    assert diff_files(new, new) == []


def test_diff_of_details_house_rules_and_notes():
    old = {"notes": "a", "house_rules": {"skill_levels": 40}, "personality": {"Fear": "dark"}}
    new = {"notes": "b", "house_rules": {}, "personality": {"Fear": "heights", "Hope": "home"}}
    assert [str(c) for c in diff_files(old, new)] == [
        "notes changed",
        "removed house rules skill levels",
        "personality Fear changed",
        "added personality Hope",
    ]


def test_the_timeline_shows_a_spend_request_by_what_it_buys(login, gm, player, character, climbing):
    approved(character, gm)
    character.campaign.spends_need_approval = True
    character.campaign.save()
    experience_award(character=character, actor=gm, amount=2, reason="Session 1")
    experience_spend(
        character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
    )
    response = audit(login(gm), character)
    request = response.context["timeline"][0]
    assert (request.title, request.event.reason) == (
        "spend requested",
        "Raise Climbing from Fair to Good",
    )
    assert request.changes == [("cost", "", "2")]
