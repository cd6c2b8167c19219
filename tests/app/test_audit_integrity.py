"""The audit trail nothing can go around (issue 31), on PostgreSQL with the owner/runtime role
split (tests/conftest.py; `bash .ci/run` or /work/wt/fs-test sets it up), every statement
really sent:

- no table of another schema, a TEMP table above all, stands in for one a trigger reads:
  the runtime role may create none, and the trigger functions name their tables with the
  schema and run with a fixed search_path, tried for every protected table;
- an approved build changed behind the app is flagged on the builder, review, sheet (HTML and
  PDF) and audit pages and loses its stamp until the GM approves it again or sends it back;
- both trails are hash chains, and `manage.py verify_audit` finds an edited event, a deleted
  one and a tampered approved build, and exits 1 for each."""

import importlib
import json
import re
from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.db import IntegrityError, ProgrammingError, connection, connections, transaction
from django.urls import reverse

from characters.adapters import build_changed, build_sha256, character_to_rules
from characters.audit_chain import event_hash
from characters.db_roles import APPEND_ONLY_TABLES, OWNER_ALIAS
from characters.errors import ServiceError
from characters.models import (
    Campaign,
    CampaignEvent,
    Character,
    CharacterEvent,
    CommentThread,
    Equipment,
    ThreadMessage,
    Trait,
)
from characters.selectors.advancement import RAISE
from characters.services.advancement import experience_award, experience_spend
from characters.services.audit import record_campaign_event
from characters.services.character_files import character_import
from characters.services.decisions import decision_token_issue
from characters.services.review import character_approve
from characters.services.rows import trait_define_uncommitted
from rules.ladder import GOOD, LEGENDARY
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved
from tests.conftest import SAMPLES, role_split
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.owner import as_owner
from tests.support.pdf_helpers import texts

# Every table a trigger protects: the append-only trails, and the characters they name.
PROTECTED_TABLES = (*APPEND_ONLY_TABLES, "characters_character")
with_role_split = pytest.mark.skipif(
    not role_split(),
    reason="needs PostgreSQL with DATABASE_OWNER_URL (bash .ci/run sets up both roles)",
)
CHANGED_OUTSIDE = "Changed outside Fairsheet."
NOT_STAMPED = "Changed since approval: not approved until the GM looks at it again"


def run(sql, params=None, using="default"):
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


# -- no table of the runtime role's own can stand in for the app's -------------------------------


@with_role_split
@pytest.mark.parametrize("table", PROTECTED_TABLES)
def test_the_runtime_role_cannot_create_a_temp_table_to_shadow(db, table):
    [(temp, create)] = run(
        "SELECT has_database_privilege(current_database(), 'TEMPORARY'), "
        "EXISTS (SELECT FROM pg_namespace WHERE has_schema_privilege(oid, 'CREATE') "
        "AND nspname NOT LIKE 'pg\\_temp\\_%%' AND nspname NOT LIKE 'pg\\_toast\\_temp\\_%%')"
    )
    assert (temp, create) == (False, False)
    with (
        pytest.raises(ProgrammingError, match="permission denied to create temporary tables"),
        transaction.atomic(),
    ):
        run(f"CREATE TEMP TABLE {table} (id bigint, character_id bigint)")


@with_role_split
@pytest.mark.django_db(databases=["default", OWNER_ALIAS])
@pytest.mark.parametrize("table", PROTECTED_TABLES)
def test_a_temp_table_of_the_same_name_does_not_fool_the_triggers(table):
    """A role that may create TEMP tables (the owner, here) shadows every protected table
    with an empty one of its own, then deletes from the real table by its schema: the
    trigger functions still read the real ones, and refuse."""
    owner = get_user_model().objects.db_manager(OWNER_ALIAS).create_user("shadow-owner")
    campaign = Campaign.objects.using(OWNER_ALIAS).create(
        name="Shadows", gm=owner, base_ruleset="mudge"
    )
    character = Character.all_objects.using(OWNER_ALIAS).create(
        owner=owner, campaign=campaign, ruleset="mudge", name="Recorded"
    )
    CharacterEvent.objects.using(OWNER_ALIAS).create(
        character=character, action="character_created", version=1
    )
    CampaignEvent.objects.using(OWNER_ALIAS).create(campaign=campaign, action="campaign_created")
    thread = CommentThread.objects.using(OWNER_ALIAS).create(character=character, started_by=owner)
    ThreadMessage.objects.using(OWNER_ALIAS).create(
        thread=thread, author=owner, body="Kept", version=1
    )
    [(schema,)] = run("SELECT current_schema()", using=OWNER_ALIAS)
    for shadowed in PROTECTED_TABLES:
        run(f"CREATE TEMP TABLE {shadowed} (LIKE {schema}.{shadowed})", using=OWNER_ALIAS)
    [(found,)] = run(f"SELECT count(*) FROM {table}", using=OWNER_ALIAS)
    assert found == 0, "unqualified, the name finds the empty TEMP table first"
    refusal = "archive it instead" if table == "characters_character" else "append-only"
    with pytest.raises(IntegrityError, match=refusal), transaction.atomic(using=OWNER_ALIAS):
        run(f"DELETE FROM {schema}.{table}", using=OWNER_ALIAS)
    [(kept,)] = run(f"SELECT count(*) FROM {schema}.{table}", using=OWNER_ALIAS)
    assert kept >= 1


@with_role_split
def test_every_trigger_function_names_its_tables_and_fixes_its_search_path(db):
    functions = run(
        "SELECT DISTINCT p.proname, p.proconfig, p.prosrc FROM pg_trigger t "
        "JOIN pg_proc p ON p.oid = t.tgfoid JOIN pg_class c ON c.oid = t.tgrelid "
        "WHERE NOT t.tgisinternal AND c.relnamespace = current_schema()::regnamespace"
    )
    assert {name for name, _, _ in functions} == {
        "characters_characterevent_append_only",
        "characters_campaignevent_append_only",
        "characters_character_keep_recorded",
        "characters_threadmessage_append_only",
        "characters_keep_id",
    }
    [(schema,)] = run("SELECT current_schema()")
    for name, config, source in functions:
        assert config == ["search_path=pg_catalog, pg_temp"], name
        tables = re.findall(r"\b(?:FROM|JOIN|INTO|UPDATE|TABLE)\s+([\w.\"]+)", source, re.I)
        assert all(t.replace('"', "").startswith(f"{schema}.") for t in tables), (name, tables)


# -- an approved build changed behind the app ----------------------------------------------------


@pytest.fixture
def brogo(character, climbing, gm):
    """Approved with Climbing at Fair."""
    approved(character, gm)
    return Character.objects.get(pk=character.pk)


def tamper(character, level=LEGENDARY):
    """What the probe did, as the runtime role: Climbing to Legendary in the row itself."""
    run(
        "UPDATE characters_trait SET level = %s WHERE character_id = %s AND name = 'Climbing'",
        [level, character.pk],
    )


def page_text(response) -> str:
    assert response.status_code == 200
    if response["Content-Type"] == "application/pdf":
        return " ".join(texts(response.content))
    return " ".join(response.content.decode().split())


PAGES = [
    ("character_builder", "player", CHANGED_OUTSIDE),
    ("character_builder", "gm", CHANGED_OUTSIDE),
    ("character_review", "gm", CHANGED_OUTSIDE),
    ("character_audit", "player", CHANGED_OUTSIDE),
    ("character_audit", "gm", CHANGED_OUTSIDE),
    ("character_sheet", "player", NOT_STAMPED),
    ("character_sheet_pdf", "player", NOT_STAMPED),
]


@pytest.mark.parametrize("page, viewer, warning", PAGES)
def test_a_build_changed_behind_the_app_is_flagged_and_loses_its_stamp(
    brogo, page, viewer, warning, login, request
):
    client = login(request.getfixturevalue(viewer))
    url = reverse(page, args=[brogo.pk])
    before = page_text(client.get(url))
    assert warning not in before
    if page.startswith("character_sheet"):
        assert "Approved · SHA-256" in before
    tamper(brogo)
    after = page_text(client.get(url))
    assert warning in after
    assert "Approved · SHA-256" not in after
    if page in ("character_builder", "character_review"):
        assert "Changed since approval" in after  # the state badge, not "Approved"
    if page == "character_sheet_pdf":
        assert "CHANGED SINCE APPROVAL" in after  # the watermark across the page


def test_the_gm_approves_a_changed_build_as_it_is_now_and_the_record_says_so(
    brogo, gm, player, login
):
    tamper(brogo)
    experience_award(character=brogo, actor=gm, amount=5, reason="session")  # not the build
    with pytest.raises(ServiceError, match="changed outside Fairsheet"):
        experience_spend(
            character=brogo,
            actor=player,
            expected_version=None,
            what=RAISE,
            trait=brogo.traits.get(name="Climbing"),
        )
    brogo.refresh_from_db()
    client = login(gm)
    review = page_text(client.get(reverse("character_review", args=[brogo.pk])))
    assert "Approve as it is now, over the rules" in review  # Legendary breaks Mudge's cap
    response = client.post(
        reverse("character_review", args=[brogo.pk]),
        {
            "version": brogo.version,
            "decision": "approve",
            "override_reason": "I looked: fine",
            "once": decision_token_issue(user=gm, kind="review", target=brogo.pk),
        },
    )
    assert response.status_code == 302
    brogo = Character.objects.get(pk=brogo.pk)
    assert not build_changed(brogo)
    event = brogo.events.latest("id")
    assert (event.action, event.actor, event.reason) == ("approved", gm, "I looked: fine")
    assert event.build_sha256 == build_sha256(character_to_rules(brogo))
    sheet = page_text(login(player).get(reverse("character_sheet", args=[brogo.pk])))
    assert "Approved · SHA-256" in sheet and NOT_STAMPED not in sheet


def test_an_unchanged_approved_build_is_not_approved_twice(brogo, gm):
    with pytest.raises(ServiceError, match="approved already"):
        character_approve(character=brogo, actor=gm, expected_version=None)


def test_changes_made_through_fairsheet_keep_the_approval(brogo, gm, player):
    experience_award(character=brogo, actor=gm, amount=5, reason="session")
    experience_spend(
        character=brogo,
        actor=player,
        expected_version=None,
        what=RAISE,
        trait=brogo.traits.get(name="Climbing"),
    )
    trait_define_uncommitted(
        character=brogo, actor=gm, expected_version=None, name="Juggling", level=GOOD
    )
    brogo = Character.objects.prefetch_related("traits", "equipment", "ledger").get(pk=brogo.pk)
    assert brogo.traits.get(name="Climbing").level == 1
    assert not build_changed(brogo)
    tamper(brogo, level=2)
    assert build_changed(Character.objects.get(pk=brogo.pk))


# -- the chains -----------------------------------------------------------------------------------


def test_each_trail_is_a_chain_that_holds_as_read_back(brogo, campaign, gm):
    record_campaign_event(campaign=campaign, actor=gm, action="campaign_created")
    record_campaign_event(
        campaign=campaign, actor=gm, action="settings_changed", after={"spends": (1, "ü")}
    )
    for events in (
        CharacterEvent.objects.filter(character=brogo).order_by("id"),
        CampaignEvent.objects.filter(campaign=campaign).order_by("id"),
    ):
        previous = ""
        assert len(events) >= 2
        for event in events:
            assert event.previous_hash == previous
            assert event.record_hash == event_hash(event, previous)
            previous = event.record_hash
    out = StringIO()
    call_command("verify_audit", stdout=out)
    assert "The audit trail holds" in out.getvalue()


def edited_event(character):
    event = character.events.get(action="submitted")
    sql = "UPDATE characters_characterevent SET reason = 'forged' WHERE id = %s"
    return [(sql, [event.pk])], f"event {event.pk} (submitted", "changed after it was recorded"


def deleted_event(character):
    event = character.events.get(action="submitted")
    sql = "DELETE FROM characters_characterevent WHERE id = %s"
    return [(sql, [event.pk])], f"character {character.pk} (Brogo)", "missing: it was deleted"


def deleted_newest_event(character):
    event = character.events.latest("id")
    sql = "DELETE FROM characters_characterevent WHERE id = %s"
    return [(sql, [event.pk])], f"character {character.pk} (Brogo)", "newest events were deleted"


def moved_head(character):
    """The row's head set back to an older event: the next change would fork the trail."""
    older = character.events.order_by("id").first()
    sql = "UPDATE characters_character SET audit_head = %s WHERE id = %s"
    where = f"character {character.pk} (Brogo)"
    return [(sql, [older.record_hash, character.pk])], where, "head is not its newest"


def edited_campaign_event(character):
    event = CampaignEvent.objects.get(campaign=character.campaign)
    sql = "UPDATE characters_campaignevent SET after = '{\"x\": 1}' WHERE id = %s"
    where = f"campaign {character.campaign_id} (The Watch), event {event.pk}"
    return [(sql, [event.pk])], where, "changed after it was recorded"


def forged_phrase(character):
    """The award's reason said otherwise on every page, its English left as it was."""
    event = character.events.get(action="experience_awarded")
    forged = '{"reason": {"text": "{amount} {unit}: {reason}", "values": {"reason": "forged"}}}'
    sql = "UPDATE characters_characterevent SET phrases = %s WHERE id = %s"
    where = f"event {event.pk} (experience awarded"
    return [(sql, [forged, event.pk])], where, "changed after it was recorded"


def dropped_phrase(character):
    """The award's phrase taken away, as if the event were older than phrases."""
    event = character.events.get(action="experience_awarded")
    sql = "UPDATE characters_characterevent SET phrases = NULL WHERE id = %s"
    where = f"event {event.pk} (experience awarded"
    return [(sql, [event.pk])], where, "changed after it was recorded"


def tampered_build(character):
    sql = "UPDATE characters_trait SET level = %s WHERE character_id = %s AND name = 'Climbing'"
    return [(sql, [LEGENDARY, character.pk])], f"character {character.pk}", "behind the app"


@with_role_split
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "break_it",
    [
        edited_event,
        deleted_event,
        deleted_newest_event,
        moved_head,
        edited_campaign_event,
        forged_phrase,
        dropped_phrase,
        tampered_build,
    ],
)
def test_verify_audit_finds_each_break_and_exits_1(campaign, character, gm, break_it):
    Trait.objects.create(character=character, kind="skill", name="Climbing", level=0)
    approved(character, gm)
    experience_award(character=character, actor=gm, amount=1, reason="session")
    with transaction.atomic():  # as the campaign's services call it
        record_campaign_event(campaign=campaign, actor=gm, action="settings_changed")
    call_command("verify_audit", stdout=StringIO())  # holds before
    statements, where, what = break_it(character)
    as_owner(*statements)
    out = StringIO()
    with pytest.raises(CommandError, match="does not hold: 1 break") as failed:
        call_command("verify_audit", stdout=out)
    assert failed.value.returncode == 1
    [line] = out.getvalue().splitlines()
    assert where in line and what in line, line
    assert connection.vendor == "postgresql"


# -- one digest of a build, however it is read ----------------------------------------------------


@pytest.mark.parametrize("sample", ["brogo", "dolores", "james", "jim-bones", "lisa-benny"])
def test_a_build_hashes_the_same_from_its_rows_its_snapshot_and_the_migration(
    sample, player, gm, campaign
):
    """The digest the approval records, the one the pages compute from the rows, and the
    ones migration 0016 recorded for builds approved before it (from the kept snapshot, or
    from the rows with the migration's own reading of them) are one."""
    migration = importlib.import_module("characters.migrations.0016_audit_integrity")
    text = (SAMPLES / f"{sample}.json").read_text()
    campaign.base_ruleset = json.loads(text)["ruleset"]  # the campaign plays the file's rules
    campaign.save(update_fields=["base_ruleset"])
    character, _ = character_import(owner=player, text=text, campaign=campaign)
    Equipment.objects.create(character=character, name="Rope", kind="gear", quantity=3)
    approval = approved(character, gm, reason="a sample as printed")
    rows = Character.objects.prefetch_related("traits", "equipment", "ledger").get(pk=character.pk)
    recorded = rows.events.get(action="approved").build_sha256
    assert build_sha256(character_to_rules(rows)) == recorded
    assert build_sha256(migration._build_of_rows(rows)) == recorded
    assert build_sha256(migration._snapshot_build(approval.snapshot)) == recorded
    assert not build_changed(rows)
