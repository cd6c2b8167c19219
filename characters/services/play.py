"""Play at the table (docs/play.md): the writes of a character's play state and of the dice
log. None of them touches the build: the character's version, traits, approval and
snapshot stay as the GM approved them.

Who: a character's player and its campaign's GM change its play state; points come back
only from the GM (selectors.play.may_regain); a new session is the GM's. Each change locks
the play state's row, checks the revision the page showed (StaleWrite when someone else
changed it first), bumps the revision and records a PlayEvent, in one transaction. A blow
recorded by its damage composes with whatever happened meanwhile, so it skips that check.
Rolls are made here, with the operating system's randomness (rules.play.roll_fudge_dice).
"""

import secrets
from collections.abc import Callable
from dataclasses import dataclass

from django.db import transaction

from characters.errors import NotAllowed, ServiceError, StaleWrite
from characters.models import (
    CONDITION_LENGTH,
    CONDITIONS_MAX,
    Campaign,
    Character,
    DiceRoll,
    PlayEvent,
    PlayState,
)
from characters.selectors.access import is_gm_of
from characters.selectors.play import (
    AtTable,
    at_table,
    in_play,
    may_regain,
    play_state_of,
    reads_log,
    rollable_traits,
    weapons,
)
from characters.sheets import sheet_for_character
from rules import play
from rules.ladder import FAIR, POOR, signed

Randbelow = Callable[[int], int]


@dataclass(frozen=True)
class Change:
    table: AtTable  # the play state after the change
    said: str  # what happened, in words, for the page's news


# -- wounds ------------------------------------------------------------------------------------


@transaction.atomic
def play_wound_box(
    *, character, actor, expected_revision: int | None, level: int, mark: bool
) -> Change:
    """Tick a box of that level for a wound of that level (the box a player clicks), or
    clear the last one ticked there (a mistake, or a wound the GM lets go)."""
    table = _lock(character, actor, expected_revision)
    change = play.mark_box if mark else play.clear_box
    marks = _rules_call(change, table.track, table.marks, level)
    name = table.track.levels[level].name
    action, done = ("wound_marked", "marked") if mark else ("wound_cleared", "cleared")
    return _commit(table, actor, action, wounds=marks, note=f"{name} box {done}")


@transaction.atomic
def play_blow_record(*, character, actor, damage: int) -> Change:
    """A blow of `damage` (successes, in MicroFudged) lands where the rules put it."""
    table = _lock(character, actor, None)
    track = table.track
    level = track.level_of_damage(damage)
    if level is None:
        raise ServiceError(f"A blow of {damage} does no damage ({track.section}): nothing marked.")
    marks, landed = _rules_call(play.record_blow, track, table.marks, level)
    wound = track.levels[level].name
    where = "" if landed == level else f", in the {track.levels[landed].name} box"
    note = f"{track.damage_label} {damage}: {wound}{where}"
    return _commit(table, actor, "blow_recorded", wounds=marks, note=note)


# -- points and potential ----------------------------------------------------------------------


@transaction.atomic
def play_points_spend(*, character, actor, expected_revision: int | None) -> Change:
    table = _lock(character, actor, expected_revision)
    pool = table.pool
    if table.in_hand < 1:
        raise ServiceError(f"{character.name} has no {pool.name} left to spend ({pool.section}).")
    spent = table.state.points_spent + 1
    note = f"spent 1 of the {pool.name}"
    return _commit(table, actor, "points_spent", points_spent=spent, note=note)


@transaction.atomic
def play_points_regain(*, character, actor, expected_revision: int | None) -> Change:
    table = _lock(character, actor, expected_revision)
    pool = table.pool
    if not may_regain(table.character, actor):
        raise NotAllowed(f"Only the GM gives {pool.name} back at the table ({pool.section}).")
    if pool.most is not None and table.in_hand >= pool.most:
        raise ServiceError(
            f"{character.name} holds {table.in_hand} {pool.name}, the most a character may "
            f"hold ({pool.section})."
        )
    regained = table.state.points_regained + 1
    note = f"gave back 1 of the {pool.name}"
    return _commit(table, actor, "points_regained", points_regained=regained, note=note)


@transaction.atomic
def play_potential_use(
    *, character, actor, expected_revision: int | None, power: str, count: int = 1
) -> Change:
    """Use a field of power once (count 1), or take back a use (count -1)."""
    table = _lock(character, actor, expected_revision)
    potentials = dict(table.potentials)
    ruleset = table.ruleset
    if power not in potentials:
        raise ServiceError(
            f"{character.name} has no {ruleset.terms.noun('powers')} {power!r} raised to "
            f"{ruleset.word(POOR)} or better ({ruleset.section('powers')})."
        )
    used = dict(table.state.potential_used)
    now = used.get(power, 0) + count
    if not 0 <= now <= potentials[power]:
        raise ServiceError(
            f"{power} has {potentials[power]} potential; {used.get(power, 0)} used "
            f"({ruleset.section('potential')}): nothing changed."
        )
    used[power] = now
    action, note = (
        ("potential_used", f"{power} used")
        if count > 0
        else ("potential_returned", f"{power} use taken back")
    )
    return _commit(table, actor, action, potential_used=used, note=note)


# -- conditions --------------------------------------------------------------------------------


@transaction.atomic
def play_condition_add(*, character, actor, expected_revision: int | None, text: str) -> Change:
    table = _lock(character, actor, expected_revision)
    text = " ".join(text.split())
    conditions = list(table.state.conditions)
    if not text or len(text) > CONDITION_LENGTH:
        raise ServiceError(f"Write the condition in 1 to {CONDITION_LENGTH} characters.")
    if any(c.casefold() == text.casefold() for c in conditions):
        raise ServiceError(f"{character.name} is already marked “{text}”.")
    if len(conditions) >= CONDITIONS_MAX:
        raise ServiceError(f"At most {CONDITIONS_MAX} conditions: remove one first.")
    conditions.append(text)
    note = f"condition “{text}”"
    return _commit(table, actor, "condition_added", conditions=conditions, note=note)


@transaction.atomic
def play_condition_remove(*, character, actor, expected_revision: int | None, text: str) -> Change:
    table = _lock(character, actor, expected_revision)
    conditions = list(table.state.conditions)
    if text not in conditions:
        raise ServiceError(f"{character.name} is not marked “{text}” (any more).")
    conditions.remove(text)
    note = f"condition “{text}” removed"
    return _commit(table, actor, "condition_removed", conditions=conditions, note=note)


# -- rest --------------------------------------------------------------------------------------


@transaction.atomic
def play_rest(*, character, actor, expected_revision: int | None, rest: str) -> Change:
    """What rest heals in this ruleset (rules.play.rests), all at once."""
    table = _lock(character, actor, expected_revision)
    chosen = next((r for r in table.rests if r.key == rest), None)
    if chosen is None:
        offered = ", ".join(r.label for r in table.rests)
        raise ServiceError(f"{table.ruleset.name} rests are: {offered}.")
    changes = {"wounds": play.rest_marks(table.track, table.marks, chosen)}
    if chosen.potential:
        changes["potential_used"] = {}
    note = f"{chosen.label}: {chosen.does} ({chosen.section})"
    return _commit(table, actor, "rested", note=note, **changes)


# -- the dice log ------------------------------------------------------------------------------


@transaction.atomic
def dice_roll(
    *,
    character: Character,
    actor,
    trait: str = "",
    modifier: int = 0,
    against: int | None = None,
    weapon: str = "",
    defence: int | None = None,
    randbelow: Randbelow = secrets.randbelow,
) -> DiceRoll:
    """Roll 4dF for one of the character's traits ("" for a plain roll from Fair) with its
    wound penalty and a situational modifier, into the table's log. With a weapon, a
    difficulty and the defender's defensive factor, the damage of a win (Mudge 4.55)."""
    _check_may_play(character, actor)
    if not reads_log(character, actor):
        raise NotAllowed(
            f"You are no longer a player in {character.campaign.name}: "
            "its dice log is for its table, so the roll was not made."
        )
    table = at_table(character, play_state_of(character))
    ruleset = table.ruleset
    sheet = sheet_for_character(character, with_ledger=False)
    levels = {t.name: t.level for t in rollable_traits(sheet, 0, ruleset)}
    if trait and trait not in levels:
        raise ServiceError(f"{character.name} has no trait {trait!r} with a level to roll.")
    level = levels.get(trait, FAIR)
    effective = level + table.penalty + modifier
    dice = play.roll_fudge_dice(randbelow)
    result = effective + sum(dice)
    worst = table.worst
    entry = DiceRoll(
        campaign_id=character.campaign_id,
        character=character,
        roller=actor,
        kind=DiceRoll.Kind.ROLL,
        subject=character.name,
        trait=trait,
        level=level,
        penalty=table.penalty,
        penalty_reason=worst.name if worst and table.penalty else "",
        modifier=modifier,
        dice=list(dice),
        result=result,
        against=against,
    )
    if against is not None:
        entry.chance = int(play.chance_to_reach(effective, against) * 81)
    if weapon:
        _damage(entry, table, weapon, defence)
    entry.save()
    return entry


def _damage(entry: DiceRoll, table: AtTable, weapon: str, defence: int | None) -> None:
    factors = dict(weapons(table))  # none in MicroFudged: harm comes from its cards
    if weapon not in factors:
        raise ServiceError(f"{table.character.name} has no weapon {weapon!r} with a damage factor.")
    if entry.against is None or defence is None:
        raise ServiceError(
            "For the damage of a hit, give what the roll is against (the defender's result) "
            f"and the defender's defensive damage factor ({table.ruleset.section('damage')})."
        )
    hit = play.blow(
        table.ruleset,
        margin=entry.result - entry.against,
        offense=factors[weapon],
        defence=defence,
        damage_die=entry.dice[3],
    )
    entry.weapon = weapon
    if hit is None:
        entry.damage_note = f"{weapon} {signed(factors[weapon])}: no hit, no damage"
        return
    entry.damage = hit.damage
    entry.damage_note = f"{weapon}: {hit.working}: {hit.wound or 'no damage'}"
    if hit.note:
        entry.damage_note += f"; {hit.note}"


@transaction.atomic
def session_start(*, campaign: Campaign, actor) -> DiceRoll:
    """The GM opens a new session in the campaign's log. The rules reset nothing at a
    session's start (docs/play.md): wounds heal with time in the story, points stay spent."""
    if campaign.gm_id != actor.pk:
        raise NotAllowed("Only the campaign's GM starts a session.")
    number = campaign.dice_log.filter(kind=DiceRoll.Kind.SESSION).count() + 1
    return DiceRoll.objects.create(
        campaign=campaign, roller=actor, kind=DiceRoll.Kind.SESSION, subject=f"Session {number}"
    )


# -- the play state's lock and record ----------------------------------------------------------


def _check_may_play(character: Character, actor) -> None:
    if character.owner_id != actor.pk and not is_gm_of(character, actor):
        raise NotAllowed("Only the character's player and the campaign's GM play it.")
    if not in_play(character):
        raise ServiceError(
            f"{character.name} is {character.state_phrase}: play starts once "
            "the GM approves the build."
        )


def _lock(character: Character, actor, expected_revision: int | None) -> AtTable:
    """The character's play state, created on first use and locked for this transaction."""
    _check_may_play(character, actor)
    PlayState.objects.get_or_create(character=character)
    state = PlayState.objects.select_for_update().get(character=character)
    if expected_revision is not None and state.revision != expected_revision:
        raise StaleWrite(
            f"{character.name} changed at the table a moment ago (someone else clicked "
            "first), so nothing was saved. This is how things stand now: click again if you "
            "still mean it."
        )
    return at_table(character, state)


def _commit(table: AtTable, actor, action: str, *, note: str, **changes) -> Change:
    before = table.snapshot()
    state = table.state
    for field, value in changes.items():
        if field == "wounds":
            value = [list(boxes) for boxes in value]
        setattr(state, field, value)
    state.revision += 1
    state.save()
    after_table = at_table(table.character, state)
    after = after_table.snapshot()
    PlayEvent.objects.create(
        character=table.character,
        actor=actor,
        action=action,
        before={k: v for k, v in before.items() if after[k] != v},
        after={k: v for k, v in after.items() if before[k] != v},
        revision=state.revision,
        note=note,
    )
    return Change(after_table, _said(after_table, note))


def _said(table: AtTable, note: str) -> str:
    worst = table.worst
    where = f"{worst.name}, {signed(table.penalty)} on every roll" if worst else "unhurt"
    if worst and not table.penalty:
        where = worst.name
    # "in hand: 1", not "1 meta points": the count reads right whatever it is.
    return (
        f"{table.character.name}: {note}. Now {where}; {table.pool.name} in hand: {table.in_hand}."
    )


def _rules_call(function, *args):
    try:
        return function(*args)
    except play.PlayError as error:
        raise ServiceError(str(error)) from None
