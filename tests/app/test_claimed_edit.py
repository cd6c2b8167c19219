"""The builder's trait edit claims its character's row rather than locking it first
(services.audit.commit_claimed_change, issue 40): one UPDATE moves the version and the audit
trail's head only if neither moved since the page's copy was read. Whatever happened since
that read, the edit ends as the lock's way ends it: saved and linked after the real head,
refused as stale, or refused with the copies as committed; the trail always verifies."""

from functools import partial

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from characters.errors import ServiceError, StaleWrite
from characters.models import BuildStep, Character, CharacterEvent
from characters.selectors.access import character_for_owner
from characters.selectors.integrity import audit_breaks
from characters.services.rows import trait_update
from characters.services.sharing import share_link_create
from characters.services.undo import character_undo_edit
from rules.ladder import GOOD, GREAT
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.races import at_once, postgres_only

pytestmark = pytest.mark.django_db


def page_copy(character, player):
    """The character and its Strength as the builder's edit reads them."""
    copy = character_for_owner(player, character.pk)
    return copy, next(t for t in copy.traits.all() if t.name == "Strength")


def stored(character) -> tuple:
    row = Character.objects.get(pk=character.pk)
    return row.version, row.audit_head, character.events.count(), character.steps.count()


def statements(write) -> list[str]:
    """The statements `write()` makes, less the test's savepoint around its transaction."""
    with CaptureQueriesContext(connection) as queries:
        write()
    return [q["sql"].split(" ")[0] for q in queries if "SAVEPOINT" not in q["sql"]]


def test_an_edit_of_a_fresh_copy_is_claimed_and_recorded_as_a_locked_one_is(character, player):
    """The claim, the row, the step and the event: four statements, where the lock's way
    (the same edit without a page's version) takes five."""
    copy, strength = page_copy(character, player)
    version = copy.version
    assert statements(
        lambda: trait_update(trait=strength, actor=player, expected_version=version, level=GOOD)
    ) == ["UPDATE", "UPDATE", "INSERT", "INSERT"]
    event = CharacterEvent.objects.filter(character=character).latest("id")
    assert (event.action, event.version, event.before["level"], event.after["level"]) == (
        "trait_relevelled",
        version + 1,
        "Fair",
        "Good",
    )
    assert copy.version == version + 1 and copy.audit_head == event.record_hash
    assert stored(character)[:2] == (version + 1, event.record_hash)
    step = BuildStep.objects.filter(character=character).latest("id")
    assert (step.label, step.version) == ("Strength Fair → Good", version + 1)
    copy, strength = page_copy(character, player)
    assert statements(
        lambda: trait_update(trait=strength, actor=player, expected_version=None, level=GREAT)
    ) == ["SELECT", "UPDATE", "INSERT", "INSERT", "UPDATE"]
    assert list(audit_breaks()) == []


def test_a_trail_moved_since_the_read_is_linked_after_its_real_head(character, player):
    """A share link recorded between the page's read and the edit moves the trail's head,
    not the version: the claim finds another head, and the locked way links the edit's
    event after the share link's."""
    copy, strength = page_copy(character, player)
    read_head = copy.audit_head
    share_link_create(character=character, actor=player)
    shared = CharacterEvent.objects.filter(character=character).latest("id")
    trait_update(trait=strength, actor=player, expected_version=copy.version, level=GOOD)
    event = CharacterEvent.objects.filter(character=character).latest("id")
    assert (shared.previous_hash, event.previous_hash) == (read_head, shared.record_hash)
    assert event.after["level"] == "Good" and stored(character)[1] == event.record_hash
    assert list(audit_breaks()) == []


def test_an_edit_of_a_copy_read_before_another_edit_is_stale(character, player):
    """Another tab's edit since the read moved the version: nothing is saved, and the copy
    the page renders the refusal from keeps its version and level."""
    copy, strength = page_copy(character, player)
    other, other_strength = page_copy(character, player)
    trait_update(trait=other_strength, actor=player, expected_version=other.version, level=GREAT)
    before = stored(character)
    with pytest.raises(StaleWrite):
        trait_update(trait=strength, actor=player, expected_version=copy.version, level=GOOD)
    assert stored(character) == before
    assert (copy.version, strength.level) == (before[0] - 1, 0)
    assert list(audit_breaks()) == []


def test_a_refused_rename_leaves_the_copies_and_the_row_as_committed(character, player):
    """Renaming Strength to another attribute's name is refused after the claim: the claim
    rolls back with it, and the copies read as before the edit."""
    copy, strength = page_copy(character, player)
    version, head = copy.version, copy.audit_head
    before = stored(character)
    with pytest.raises(ServiceError, match="already has"):
        trait_update(trait=strength, actor=player, expected_version=version, name="Dexterity")
    assert stored(character) == before
    assert (copy.version, copy.audit_head, strength.name) == (version, head, "Strength")
    assert "build_before" not in vars(copy)
    trait_update(trait=strength, actor=player, expected_version=version, level=GOOD)
    assert stored(character)[0] == version + 1 and list(audit_breaks()) == []


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_tabs_saving_at_once_one_saves_and_the_other_is_stale(character, player):
    """Two requests from pages loaded at one version, two connections, two traits, let go
    together: the claims queue on the row, one saves and the other is refused as stale
    (never both, never a deadlock). Then a claimed edit against an Undo, which locks the row
    before it rewrites the rows: both take the row first, so one waits for the other. The
    trail verifies after each."""

    def step_from_a_page(name: str, step: int):
        """A level step on `name` from a page loaded now, to be sent later."""
        page = character_for_owner(player, character.pk)
        trait = next(t for t in page.traits.all() if t.name == name)
        return partial(
            trait_update,
            trait=trait,
            actor=player,
            expected_version=page.version,
            level=trait.level + step,
        )

    for _ in range(3):
        outcomes = at_once(step_from_a_page("Strength", +1), step_from_a_page("Dexterity", +1))
        assert sorted(type(o).__name__ for o in outcomes) == ["StaleWrite", "Trait"]
        assert list(audit_breaks()) == []
    undoing = character_for_owner(player, character.pk)
    outcomes = at_once(
        partial(
            character_undo_edit, character=undoing, actor=player, expected_version=undoing.version
        ),
        step_from_a_page("Strength", -1),
    )
    assert [type(o) for o in outcomes].count(StaleWrite) == 1
    assert not [o for o in outcomes if isinstance(o, Exception) and not isinstance(o, StaleWrite)]
    assert list(audit_breaks()) == []
