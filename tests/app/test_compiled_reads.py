"""Reads compiled once per process (characters/compiled.py, issue 40): each gives what the
ORM gives for the same values, with each read's own values bound (a player never gets
another's character), in the SQL the ORM compiles; values that would change the SQL are
refused."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import DatabaseError, IntegrityError, connection, transaction
from django.db.models import FETCH_PEERS
from django.db.models.signals import post_init
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from characters.compiled import CompiledRead, insert_rows, update_row, update_rows
from characters.models import (
    BuildStep,
    Campaign,
    Character,
    CharacterEvent,
    Equipment,
    ExperienceEntry,
    Membership,
    Trait,
    UserSession,
)
from characters.selectors import access, play
from characters.services.characters import character_create

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-test-password"
PREFETCHED = "_prefetched_objects_cache"  # the lists prefetch_related keeps: their rows


@pytest.fixture
def table():
    """A GM's campaign with two players' characters, one with equipment; a loner's own."""
    User = get_user_model()
    gm, ann, bob = (User.objects.create_user(n, password=PASSWORD) for n in ("gm", "ann", "bob"))
    campaign = Campaign.objects.create(name="Table", gm=gm, base_ruleset="mudge")
    for player in (ann, bob):
        Membership.objects.create(campaign=campaign, user=player)
    ann_s = character_create(owner=ann, name="Ann's", campaign=campaign)
    bob_s = character_create(owner=bob, name="Bob's", campaign=campaign)
    Equipment.objects.create(character=bob_s, name="Sword", damage=2, position=0)
    loner = character_create(owner=ann, name="Loner", ruleset="fudge-basics")
    return {"gm": gm, "ann": ann, "bob": bob, "characters": [ann_s, bob_s, loner]}


def _state(row) -> dict:
    """A row as read: its fields, annotations and the related rows read with it."""
    values = {k: v for k, v in vars(row).items() if k not in ("_state", PREFETCHED)}
    values[PREFETCHED] = {k: list(v) for k, v in vars(row).get(PREFETCHED, {}).items()}
    cached = {k: _state(v) for k, v in row._state.fields_cache.items() if v is not None}
    return {**values, "related": cached}


@pytest.mark.parametrize(
    ("read", "orm"),
    [
        (access._OWNED_ONE, lambda user, pk: access._owned().owned_by(user).filter(pk=pk)),
        (access._VIEWED_ONE, lambda user, pk: access._viewed().visible_to(user).filter(pk=pk)),
        (
            play._POLLED,
            lambda user, pk: (
                access.characters_visible_to(user).select_related("play_state").filter(pk=pk)
            ),
        ),
        (
            play._PLAYED,
            lambda user, pk: (
                access.characters_visible_to(user)
                .select_related("play_state")
                .prefetch_related(*access.BUILD_ROWS, *access.APPROVAL_RECORD)
                .filter(pk=pk)
            ),
        ),
    ],
    ids=["owned", "viewed", "play poll", "play page"],
)
def test_a_character_read_gives_what_the_orm_gives_for_each_reader(table, read, orm):
    """Every reader and character in turn, through the one compiled statement: a player
    reads their own, a GM (viewed) each in the campaign, nobody anyone else's."""
    for user in (table["ann"], table["bob"], table["gm"]):
        for character in table["characters"]:
            with CaptureQueriesContext(connection) as orm_queries:
                expected = [_state(row) for row in orm(user, character.pk)]
            with CaptureQueriesContext(connection) as queries:
                got = [_state(row) for row in read(user, character.pk)]
            assert got == expected, (user.username, character.name)
            # One statement, and the prefetches' own for a character found.
            assert [q["sql"] for q in queries] == [q["sql"] for q in orm_queries]
    # What each found, said plainly: Ann's own two; the GM the campaign's two, viewed.
    ann_s, bob_s, loner = table["characters"]
    assert [c.name for c in read(table["ann"], ann_s.pk)] == ["Ann's"]
    assert read(table["ann"], bob_s.pk) == []
    assert read(table["gm"], loner.pk) == []
    owned = read is access._OWNED_ONE
    assert [c.name for c in read(table["gm"], bob_s.pk)] == ([] if owned else ["Bob's"])


def test_the_compiled_statement_is_the_orms_own(table):
    """The SQL run is the ORM's for the same values, byte for byte, and compiled once: the
    second reader's read binds its values to the first one's statement."""
    ann_s, bob_s, _ = table["characters"]
    orm = access._owned().owned_by(table["bob"]).filter(pk=bob_s.pk)
    with CaptureQueriesContext(connection) as expected:
        list(orm)
    with CaptureQueriesContext(connection) as got:
        access._OWNED_ONE(table["ann"], ann_s.pk)
        access._OWNED_ONE(table["bob"], bob_s.pk)
    assert got[1]["sql"] == expected[0]["sql"]
    assert f'"owner_id" = {table["ann"].pk}' in got[0]["sql"].replace("\n", " ")
    assert list(access._OWNED_ONE._compiled) == [connection.alias]


def test_a_characters_rows_are_read_with_it_as_their_character(table):
    """Its traits and equipment in their order, each knowing its character without a query
    of its own; a filter made from the kept list reads the database afresh."""
    bob_s = table["characters"][1]
    character = access.character_for_owner(table["bob"], bob_s.pk)
    expected = list(Trait.objects.filter(character=bob_s).order_by("kind", "position", "id"))
    with CaptureQueriesContext(connection) as queries:
        traits = list(character.traits.all())
        assert [t.character is character for t in traits] == [True] * len(traits)
        assert [item.name for item in character.equipment.all()] == ["Sword"]
        assert list(character.ledger.all()) == []
    assert len(queries) == 0
    assert [t.pk for t in traits] == [t.pk for t in expected] and len(traits) == 7
    with CaptureQueriesContext(connection) as queries:
        attributes = list(character.traits.filter(name="Strength"))
    assert [t.name for t in attributes] == ["Strength"] and len(queries) == 1


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (None, "changes the SQL itself"),
        (True, "changes the SQL itself"),
        (2.5, "no stand-in for float"),
    ],
)
def test_a_value_that_would_change_the_sql_is_refused(table, value, message):
    read = CompiledRead(lambda level: Trait.objects.filter(level=level))
    with pytest.raises(TypeError, match=message):
        read(value)


def test_a_value_that_does_not_reach_the_sql_is_refused(table):
    read = CompiledRead(lambda pk: Character.objects.all())
    with pytest.raises(ValueError, match=r"values \[0\] do not reach the SQL"):
        read(1)


def test_an_expired_session_signs_nobody_in(client, table):
    """The session read checks the expiry as Django's query does (expire_date > now)."""
    client.post(reverse("login"), {"username": "ann", "password": PASSWORD})
    page = reverse("character_builder", args=[table["characters"][0].pk])
    assert client.get(page).status_code == 200
    UserSession.objects.update(expire_date=timezone.now() - timedelta(seconds=1))
    response = client.get(page)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))


def test_the_undo_steps_read_gives_what_the_orm_gives(table):
    """The undo history's read (selectors.history): its steps in order, only the fields the
    buttons read loaded, each character's own."""
    from characters.selectors.history import _STEPS_OF
    from characters.services.rows import trait_update

    ann_s, bob_s, _ = table["characters"]
    for level in (1, 2, 0):
        trait = ann_s.traits.get(name="Strength")
        trait_update(trait=trait, actor=table["ann"], expected_version=None, level=level)
    for character in (ann_s, bob_s):
        orm = character.steps.order_by("id").only("id", "label", "edit", "undone", "version")
        got = _STEPS_OF(character)
        assert [_state(step) for step in got] == [_state(step) for step in orm]
        assert all(
            step.get_deferred_fields() == {"character_id", "target", "before", "after"}
            for step in got
        )
    assert [step.label for step in _STEPS_OF(ann_s)] == [
        "Strength Fair → Good",
        "Strength Good → Great",
        "Strength Great → Fair",
    ]
    assert _STEPS_OF(bob_s) == []


def test_the_party_reads_give_what_the_orm_gives(table):
    """The GM's party page and poll: the campaign (with how many wait for approval) only
    for its GM, and the characters at the table, each with what the cards read."""
    from characters.selectors import party
    from characters.services.review import character_approve, character_submit

    bob_s = table["characters"][1]
    character_submit(character=bob_s, actor=table["bob"], expected_version=None)
    character_approve(
        character=bob_s, actor=table["gm"], expected_version=None, override_reason="a test"
    )
    campaign = bob_s.campaign
    for user in (table["gm"], table["ann"]):
        orm = party._with_waiting().run_by(user).filter(pk=campaign.pk)
        got = party._PARTY_CAMPAIGN(user, campaign.pk)
        assert [_state(c) for c in got] == [_state(c) for c in orm]
    assert [c.waiting for c in party._PARTY_CAMPAIGN(table["gm"], campaign.pk)] == [1]
    assert party._PARTY_CAMPAIGN(table["ann"], campaign.pk) == []
    orm = party._party_rows().filter(campaign=campaign)
    got = party._PARTY_ROWS(campaign)
    assert [_state(c) for c in got] == [_state(c) for c in orm]
    assert [(c.name, c.has_equipment, c.owner.username) for c in got] == [("Bob's", True, "bob")]
    # Their rows, each list in one statement: in the list's order, each knowing its character.
    access.prefetch_build_rows(got, lambda name: party._TABLE_ROWS_OF[name](campaign))
    with CaptureQueriesContext(connection) as queries:
        traits, items = list(got[0].traits.all()), list(got[0].equipment.all())
        assert [row.character is got[0] for row in traits + items] == [True] * 8
        assert list(got[0].ledger.all()) == []
    assert len(queries) == 0
    expected = Trait.objects.filter(character=bob_s).order_by("kind", "position", "id")
    assert [t.pk for t in traits] == [t.pk for t in expected] and [i.name for i in items] == [
        "Sword"
    ]
    # The poll's fingerprint: Bob's at the table (one approved, no roll yet), in one statement.
    assert party._PARTY_NOW(campaign) == list(party._party_now().filter(pk=campaign.pk))
    bob_s.refresh_from_db()
    assert party.party_fingerprint(campaign) == f"1-{bob_s.pk}-{bob_s.version}.0.0"
    # Any GM page's campaign: its GM's only.
    assert [c.name for c in access._RUN_ONE(table["gm"], campaign.pk)] == ["Table"]
    assert access._RUN_ONE(table["ann"], campaign.pk) == []


def test_a_read_leaves_the_querysets_others_hold_as_they_were(table):
    """A character's kept list, which its related manager hands to the read's maker, is read
    again as it was: a filter made from it afterwards reads the database afresh."""
    ann_s = table["characters"][0]
    character = access.character_for_owner(table["ann"], ann_s.pk)
    access._BUILD_ROWS_OF["traits"](character)
    assert [t.name for t in character.traits.filter(name="Strength")] == ["Strength"]


def test_a_read_makes_its_queryset_once_unless_its_rows_know_their_parent(table):
    """A character's read copies the queryset it compiled (the stand-ins'), never making one
    per read, and still gives each reader their own; a related manager's read, whose rows
    know their character, is made at each read."""
    made = []

    def owned(user, pk):
        made.append(pk)
        return access._owned().owned_by(user).filter(pk=pk)

    def traits(character):
        made.append(character.pk)
        return character.traits.all()

    ann, bob = table["ann"], table["bob"]
    ann_s, bob_s, loner = table["characters"]
    read = CompiledRead(owned)
    got = [
        [c.name for c in read(user, c.pk)] for user, c in [(ann, ann_s), (bob, ann_s), (ann, loner)]
    ]
    assert got == [["Ann's"], [], ["Loner"]]
    assert len(made) == 2  # the first read's own, and the stand-ins' it compiled
    made.clear()
    read_traits = CompiledRead(traits)
    rows = [read_traits(c) for c in (ann_s, bob_s, bob_s)]
    assert len(made) == 4  # each read's own, and the stand-ins'
    assert [row.character is bob_s for row in rows[2]] == [True] * 7


def test_the_play_polls_newest_log_line_is_what_each_reader_may_read(table):
    """The play page's poll (selectors.play._last_roll): a loner's own roll, the campaign's
    newest line for its GM and its players, a secret roll the GM's alone, and nothing for
    someone no longer in the campaign."""
    from characters.models import DiceRoll, Membership
    from characters.selectors.play import play_fingerprint

    gm, ann, bob = table["gm"], table["ann"], table["bob"]
    ann_s, bob_s, loner = table["characters"]

    def roll(**fields):
        return DiceRoll.objects.create(roller=gm, kind="roll", subject="x", **fields).pk

    own = roll(character=loner)
    shown = roll(campaign=ann_s.campaign, character=ann_s)
    secret = roll(campaign=ann_s.campaign, gm_only=True)

    def newest(character, user) -> int:
        return int(play_fingerprint(character, user).rsplit(".", 1)[1])

    assert newest(loner, ann) == own
    assert (newest(ann_s, gm), newest(ann_s, ann), newest(bob_s, bob)) == (secret, shown, shown)
    Membership.objects.filter(user=bob).delete()
    assert newest(bob_s, bob) == 0


def test_an_update_sets_what_the_orms_would_and_only_where_it_matches(table):
    """update_rows, the builder edit's claim of its character: one statement, which moves
    the version, the trail's head and the time only where the row is still as read, and
    never on an archived character; the values read back as the ORM's update writes them."""
    ann_s, bob_s, loner = table["characters"]
    now = timezone.now()
    claim = {"version": ann_s.version + 1, "audit_head": "f" * 64, "updated_at": now}
    stale = {"id": ann_s.pk, "version": ann_s.version - 1, "archived_at": None}
    current = {"id": ann_s.pk, "version": ann_s.version, "archived_at": None}
    with CaptureQueriesContext(connection) as queries:
        assert update_rows(Character, where=stale, values=claim) == 0
        assert update_rows(Character, where=current, values=claim) == 1
    assert len(queries) == 2
    ann_s.refresh_from_db()
    assert (ann_s.version, ann_s.audit_head, ann_s.updated_at) == tuple(claim.values())
    # Bob's character untouched; the loner's, archived, is not claimed.
    assert Character.objects.get(pk=bob_s.pk).updated_at < now
    Character.objects.filter(pk=loner.pk).update(archived_at=now)
    where = {"id": loner.pk, "version": loner.version, "archived_at": None}
    assert update_rows(Character, where=where, values=claim) == 0
    assert Character.all_objects.get(pk=loner.pk).version == loner.version


def test_a_row_updated_saves_its_fields_and_a_gone_row_raises(table):
    """update_row, the trait edit's save of its new level: the fields given, nothing else;
    a row deleted meanwhile raises as save(update_fields=...) does."""
    trait = Trait.objects.filter(character=table["characters"][0], name="Strength").get()
    trait.level, trait.name = 2, "Not saved"
    update_row(trait, ["level"])
    assert Trait.objects.values_list("name", "level").get(pk=trait.pk) == ("Strength", 2)
    Trait.objects.filter(pk=trait.pk).delete()
    with pytest.raises(DatabaseError, match="did not affect any rows"):
        update_row(trait, ["level"])


def test_a_row_inserted_is_the_row_save_would_insert(table):
    """insert_rows, the edit's undo step and event: one statement a row; the row gets the
    id the database gave it, its creation time as save() sets it, and reads back field for
    field as the ORM's own save wrote its twin."""
    character = table["characters"][0]
    fields = {"character": character, "label": "Strength Fair → Good", "before": {"traits": []}}
    twin = BuildStep.objects.create(**fields, edit={"action": "trait_relevelled"}, version=3)
    row = BuildStep(**fields, edit={"action": "trait_relevelled"}, version=3)
    with CaptureQueriesContext(connection) as queries:
        insert_rows(row)
    assert len(queries) == 1 and row.pk > twin.pk and not row._state.adding
    stored = [BuildStep.objects.values().get(pk=pk) for pk in (twin.pk, row.pk)]
    assert [{k: v for k, v in s.items() if k != "id"} for s in stored] == [
        {k: v for k, v in stored[0].items() if k != "id"}
    ] * 2
    event = CharacterEvent(character=character, actor=table["ann"], action="note", version=3)
    insert_rows(event)
    assert event.created_at is not None
    assert CharacterEvent.objects.get(pk=event.pk).created_at == event.created_at


def test_rows_inserted_together_go_in_one_round_trip_and_fail_together(table, monkeypatch):
    """insert_rows of an undo step and an event: two statements, sent together on
    PostgreSQL (psycopg's pipeline, entered once), each row then knowing its id; a row the
    database refuses raises Django's IntegrityError and neither is kept."""
    character = table["characters"][0]
    pipelines = []
    if connection.vendor == "postgresql":
        raw = type(connection.connection)
        monkeypatch.setattr(
            raw,
            "pipeline",
            lambda self, *a, _own=raw.pipeline: pipelines.append(1) or _own(self, *a),
        )

    def rows(label):
        step = BuildStep(character=character, label=label, before={}, edit={}, version=4)
        return step, CharacterEvent(character=character, actor=table["ann"], action="x", version=4)

    step, event = rows("Together")
    with CaptureQueriesContext(connection) as queries:
        insert_rows(step, event)
    assert len(queries) == 2 and step.pk and event.pk
    assert pipelines == ([1] if connection.vendor == "postgresql" else [])
    assert BuildStep.objects.get(pk=step.pk).label == "Together"
    assert CharacterEvent.objects.get(pk=event.pk).action == "x"
    steps, events = BuildStep.objects.count(), CharacterEvent.objects.count()
    refused, kept = rows(None)  # a step without a label: NOT NULL
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_rows(refused, kept)
    assert (BuildStep.objects.count(), CharacterEvent.objects.count()) == (steps, events)


@pytest.mark.parametrize("model", [Character, Trait, Equipment, ExperienceEntry])
def test_a_row_read_by_the_score_is_the_one_djangos_own_read_makes(table, model):
    """models.ReadByTheScore: a whole row read without Model.__init__ is the instance
    Django's from_db makes (read again with a listener on post_init, which takes Django's
    way): the same values of the same types, read from the same database, each loaded
    field saved back as read. A row read in part loads the rest when asked, as Django's."""
    bob_s = table["characters"][1]
    ExperienceEntry.objects.create(character=bob_s, amount=3, reason="A session", actor=table["gm"])
    rows = model.objects.filter(pk__in=model.objects.values("pk")[:3]).order_by("pk")
    quick = list(rows.all())
    heard = []

    def listener(sender, instance, **kwargs):
        heard.append(instance)

    post_init.connect(listener, sender=model)
    try:
        own = list(rows.all())
    finally:
        post_init.disconnect(listener, sender=model)
    assert heard == own and len(own) > 0  # Django's own way, with its signal, and rows to compare
    for made, expected in zip(quick, own, strict=True):
        assert type(made) is model and _state(made) == _state(expected)
        assert (made._state.adding, made._state.db) == (False, "default")
        assert {k: type(v) for k, v in vars(made).items()} == {
            k: type(v) for k, v in vars(expected).items()
        }
    # A fetch mode asked for is the row's, as Django's own read makes it (Django 6.1).
    peers = list(rows.all().fetch_mode(FETCH_PEERS))
    assert [row._state.fetch_mode for row in peers] == [FETCH_PEERS] * len(own)
    assert [len(row._state.peers) for row in peers] == [len(own)] * len(own)
    first = quick[0]
    first.save()  # every field as read: a save changes nothing but a time it sets itself
    touched = {f.attname for f in model._meta.concrete_fields if getattr(f, "auto_now", False)}
    after = model.objects.get(pk=first.pk)
    saved = {k: v for k, v in _state(after).items() if k not in touched}
    assert saved == {k: v for k, v in _state(own[0]).items() if k not in touched}
    partial = model.objects.only("pk").get(pk=first.pk)
    assert partial.get_deferred_fields() and _state(partial) != _state(after)
    for name in partial.get_deferred_fields():
        assert getattr(partial, name) == getattr(after, name)
