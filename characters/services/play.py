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
from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext as _

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
    level_word,
    may_change_tracker,
    may_regain,
    not_in_play,
    play_state_of,
    reads_log,
    rollable_traits,
    weapons,
)
from characters.services.webhooks import webhook_queue
from characters.sheets import list_noun, sheet_for_character
from characters.vocabulary import term
from characters.wording import said
from rules import npc, play
from rules.game_parts import part_words
from rules.ladder import FAIR, POOR, signed
from rules.recorded import phrase_data
from rules.words import Phrase, Term, say

Randbelow = Callable[[int], int]


@dataclass(frozen=True)
class OfflineDice:
    """4dF rolled on a phone without a connection (docs/offline.md), and when."""

    dice: tuple[int, ...]  # four of -1, 0, +1
    rolled_at: datetime


@dataclass(frozen=True)
class Change:
    table: AtTable  # the play state after the change
    said: str  # what happened, in words, for the page's news (in the reader's language)


# -- wounds ------------------------------------------------------------------------------------


@transaction.atomic
def play_wound_box(
    *, character, actor, expected_revision: int | None, level: int, mark: bool, member: int = 1
) -> Change:
    """Tick a box of that level for a wound of that level (the box a player clicks), or
    clear the last one ticked there (a mistake, or a wound the GM lets go). `member`: which
    of a group NPC's members (1, its own track, to its group size)."""
    table = _lock(character, actor, expected_revision)
    if not 1 <= member <= character.group_size:
        raise ServiceError(
            _("{name} has no member {member}.").format(name=character.name, member=member)
        )
    change = play.mark_box if mark else play.clear_box
    marks = table.marks if member == 1 else table.group_marks[member - 2]
    marks = _rules_call(change, table.track, marks, level)
    wound = Term(table.track.levels[level].name, "wound")
    if member > 1:
        group = list(table.group_marks)
        group[member - 2] = marks
        written = {"group_wounds": group}
        if mark:
            action = "wound_marked"
            note = say("{wound} box marked for member {member}", wound=wound, member=member)
        else:
            action = "wound_cleared"
            note = say("{wound} box cleared for member {member}", wound=wound, member=member)
        return _commit(table, actor, action, note=note, **written)
    if mark:
        action, note = "wound_marked", say("{wound} box marked", wound=wound)
    else:
        action, note = "wound_cleared", say("{wound} box cleared", wound=wound)
    return _commit(table, actor, action, wounds=marks, note=note)


@transaction.atomic
def play_blow_record(*, character, actor, damage: int) -> Change:
    """A blow of `damage` (successes, in MicroFudged) lands where the rules put it."""
    table = _lock(character, actor, None)
    track = table.track
    level = track.level_of_damage(damage)
    if level is None:
        raise ServiceError(
            _("A blow of {damage} does no damage ({section}): nothing marked.").format(
                damage=damage, section=track.section
            )
        )
    if _thresholds_apply(character) and track.rolls_up:
        level = npc.within_threshold(play.worst_level(table.marks), level)
    marks, landed = _rules_call(play.record_blow, track, table.marks, level)
    wound = Term(track.levels[level].name, "wound")
    if landed == level:
        note = say(
            "{counted} {damage}: {wound}", counted=track.damage_label, damage=damage, wound=wound
        )
    else:
        note = say(
            "{counted} {damage}: {wound}, in the {landed} box",
            counted=track.damage_label,
            damage=damage,
            wound=wound,
            landed=Term(track.levels[landed].name, "wound"),
        )
    return _commit(table, actor, "blow_recorded", wounds=marks, note=note)


def _thresholds_apply(character: Character) -> bool:
    """Fudge 1995 4.73's damage threshold, at most three wound levels in one blow, for the
    GM's NPCs unless the campaign ignores it for them ("An indulgent GM ... can use damage
    thresholds for PCs but ignore them for NPCs"). Player characters' blows land as the
    damage says, as they always have."""
    return character.is_npc and character.campaign.npc_damage_thresholds


# -- points and potential ----------------------------------------------------------------------


@transaction.atomic
def play_points_spend(*, character, actor, expected_revision: int | None) -> Change:
    table = _lock(character, actor, expected_revision)
    pool = table.pool
    if table.in_hand < 1:
        raise ServiceError(
            _("{name} has no {points} left to spend ({section}).").format(
                name=character.name, points=_points(pool), section=pool.section
            )
        )
    spent = table.state.points_spent + 1
    note = say("spent 1 of the {points}", points=Term(pool.name, "points"))
    return _commit(table, actor, "points_spent", points_spent=spent, note=note)


@transaction.atomic
def play_points_regain(*, character, actor, expected_revision: int | None) -> Change:
    table = _lock(character, actor, expected_revision)
    pool = table.pool
    if not may_regain(table.character, actor):
        raise NotAllowed(
            _("Only the GM gives {points} back at the table ({section}).").format(
                points=_points(pool), section=pool.section
            )
        )
    if pool.most is not None and table.in_hand >= pool.most:
        raise ServiceError(
            _("{name} holds {count} {points}, the most a character may hold ({section}).").format(
                name=character.name, count=table.in_hand, points=_points(pool), section=pool.section
            )
        )
    regained = table.state.points_regained + 1
    note = say("gave back 1 of the {points}", points=Term(pool.name, "points"))
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
            _("{name} has no {noun} {power} raised to {level} or better ({section}).").format(
                name=character.name,
                noun=list_noun(ruleset.terms.noun("powers")),
                power=repr(power),
                level=level_word(ruleset.ladder, POOR),
                section=ruleset.section("powers"),
            )
        )
    used = dict(table.state.potential_used)
    now = used.get(power, 0) + count
    if not 0 <= now <= potentials[power]:
        raise ServiceError(
            _(
                "{power} has {potential} potential; {used} used ({section}): nothing changed."
            ).format(
                power=power,
                potential=potentials[power],
                used=used.get(power, 0),
                section=ruleset.section("potential"),
            )
        )
    used[power] = now
    action, note = (
        ("potential_used", say("{power} used", power=power))
        if count > 0
        else ("potential_returned", say("{power} use taken back", power=power))
    )
    return _commit(table, actor, action, potential_used=used, note=note)


# -- a designed game's trackers ---------------------------------------------------------------


@transaction.atomic
def play_tracker_change(
    *,
    character,
    actor,
    expected_revision: int | None,
    tracker: str,
    step: int = 0,
    value: int | None = None,
) -> Change:
    """Move a tracker of the character's game by `step`, or to `value` (a box or segment
    clicked): Luck spent, Sanity ticked, a clock filled. A tracker the game gives to the GM
    is the GM's alone to change."""
    table = _lock(character, actor, expected_revision)
    row = next((r for r in table.trackers if r.key == tracker), None)
    if row is None:
        raise ServiceError(
            _("{ruleset} has no tracker {tracker}.").format(
                ruleset=term(table.ruleset.name, "ruleset"), tracker=repr(tracker)
            )
        )
    if not may_change_tracker(table.character, actor, row.tracker):
        raise NotAllowed(_("Only the GM changes {tracker} at the table.").format(tracker=row.name))
    new = row.value + step if value is None else value
    if not 0 <= new <= row.size:
        raise ServiceError(
            _("{tracker} goes from 0 to {most}: nothing changed.").format(
                tracker=row.name, most=row.size
            )
        )
    if new == row.value:
        raise ServiceError(
            _("{tracker} is already at {value}: nothing changed.").format(
                tracker=row.name, value=new
            )
        )
    trackers = {**table.state.trackers, row.key: new}
    name = part_words(row.tracker.name, row.tracker.translations)
    note = say("{tracker}: {old} → {new}", tracker=name, old=row.value, new=new)
    return _commit(table, actor, "tracker_changed", trackers=trackers, note=note)


# -- conditions --------------------------------------------------------------------------------


@transaction.atomic
def play_condition_add(*, character, actor, expected_revision: int | None, text: str) -> Change:
    table = _lock(character, actor, expected_revision)
    text = " ".join(text.split())
    conditions = list(table.state.conditions)
    if not text or len(text) > CONDITION_LENGTH:
        raise ServiceError(
            _("Write the condition in 1 to {most} characters.").format(most=CONDITION_LENGTH)
        )
    if any(c.casefold() == text.casefold() for c in conditions):
        raise ServiceError(
            _("{name} is already marked “{text}”.").format(name=character.name, text=text)
        )
    if len(conditions) >= CONDITIONS_MAX:
        raise ServiceError(
            _("At most {most} conditions: remove one first.").format(most=CONDITIONS_MAX)
        )
    conditions.append(text)
    note = say("condition “{text}”", text=text)
    return _commit(table, actor, "condition_added", conditions=conditions, note=note)


@transaction.atomic
def play_condition_remove(*, character, actor, expected_revision: int | None, text: str) -> Change:
    table = _lock(character, actor, expected_revision)
    conditions = list(table.state.conditions)
    if text not in conditions:
        raise ServiceError(
            _("{name} is not marked “{text}” (any more).").format(name=character.name, text=text)
        )
    conditions.remove(text)
    note = say("condition “{text}” removed", text=text)
    return _commit(table, actor, "condition_removed", conditions=conditions, note=note)


# -- rest --------------------------------------------------------------------------------------


@transaction.atomic
def play_rest(*, character, actor, expected_revision: int | None, rest: str) -> Change:
    """What rest heals in this ruleset (rules.play.rests), all at once."""
    table = _lock(character, actor, expected_revision)
    chosen = next((r for r in table.rests if r.key == rest), None)
    if chosen is None:
        offered = ", ".join(said(r.label) for r in table.rests)
        raise ServiceError(
            _("{ruleset} rests are: {offered}.").format(
                ruleset=term(table.ruleset.name, "ruleset"), offered=offered
            )
        )
    changes = {"wounds": play.rest_marks(table.track, table.marks, chosen)}
    if chosen.potential:
        changes["potential_used"] = {}
    resets = {row.key for row in table.trackers if row.tracker.resets_on_rest}
    if resets:  # back to their start: a tracker with no value is at its start
        changes["trackers"] = {k: v for k, v in table.state.trackers.items() if k not in resets}
    note = say(
        "{rest}: {does} ({section})", rest=chosen.label, does=chosen.does, section=chosen.section
    )
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
    offline: OfflineDice | None = None,
) -> DiceRoll:
    """Roll 4dF for one of the character's traits ("" for a plain roll from Fair) with its
    wound penalty and a situational modifier, into the table's log. With a weapon, a
    difficulty and the defender's defensive factor, the damage of a win (Mudge 4.55).
    `offline`: the dice a phone rolled without a connection, logged as such; everything
    else is worked out here as for a roll made here."""
    _check_may_play(character, actor)
    if not reads_log(character, actor):
        raise NotAllowed(
            _(
                "You are no longer a player in {campaign}: its dice log is for its table, so "
                "the roll was not made."
            ).format(campaign=character.campaign.name)
        )
    table = at_table(character, play_state_of(character))
    level = trait_level(table, trait)
    effective = level + table.penalty + modifier
    dice = offline.dice if offline else play.roll_fudge_dice(randbelow)
    entry = trait_roll_line(
        table,
        actor=actor,
        trait=trait,
        level=level,
        modifier=modifier,
        dice=dice,
        result=effective + sum(dice),
        against=against,
        rolled_offline_at=offline.rolled_at if offline else None,
    )
    if against is not None:
        entry.chance = int(play.chance_to_reach(effective, against) * 81)
    if weapon:
        _damage(entry, table, weapon, defence)
    entry.save()
    webhook_queue(entry)  # posted later by the task queue, never while the player waits
    return entry


def trait_level(table: AtTable, trait: str) -> int:
    """The level of the character's trait as its sheet lists it (Fair for "", a plain roll);
    a trait the character lacks is refused by name."""
    if not trait:
        return FAIR
    sheet = sheet_for_character(table.character, with_ledger=False)
    levels = {t.name: t.level for t in rollable_traits(sheet, 0, table.ruleset)}
    if trait not in levels:
        raise ServiceError(
            _("{name} has no trait {trait} with a level to roll.").format(
                name=table.character.name, trait=repr(trait)
            )
        )
    return levels[trait]


def trait_roll_line(
    table: AtTable,
    *,
    actor,
    trait: str,
    level: int,
    modifier: int,
    dice,
    result: int,
    against: int | None,
    **fields,
) -> DiceRoll:
    """The log line of a roll of the character's trait, with the wound penalty its table
    gives (unsaved: the caller adds what its roll has more, then saves it)."""
    worst = table.worst
    character = table.character
    return DiceRoll(
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
        **fields,
    )


def _damage(entry: DiceRoll, table: AtTable, weapon: str, defence: int | None) -> None:
    factors = dict(weapons(table))  # none in MicroFudged: harm comes from its cards
    if weapon not in factors:
        raise ServiceError(
            _("{name} has no weapon {weapon} with a damage factor.").format(
                name=table.character.name, weapon=repr(weapon)
            )
        )
    if entry.against is None or defence is None:
        raise ServiceError(
            _(
                "For the damage of a hit, give what the roll is against (the defender's "
                "result) and the defender's defensive damage factor ({section})."
            ).format(section=table.ruleset.section("damage"))
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
        raise NotAllowed(_("Only the campaign's GM starts a session."))
    number = campaign.dice_log.filter(kind=DiceRoll.Kind.SESSION).count() + 1
    return DiceRoll.objects.create(
        campaign=campaign, roller=actor, kind=DiceRoll.Kind.SESSION, subject=f"Session {number}"
    )


# -- the play state's lock and record ----------------------------------------------------------


def _check_may_play(character: Character, actor) -> None:
    if character.owner_id != actor.pk and not is_gm_of(character, actor):
        raise NotAllowed(_("Only the character's player and the campaign's GM play it."))
    if not in_play(character):
        raise ServiceError(not_in_play(character))


def _lock(character: Character, actor, expected_revision: int | None) -> AtTable:
    """The character's play state, created on first use and locked for this transaction."""
    _check_may_play(character, actor)
    PlayState.objects.get_or_create(character=character)
    state = PlayState.objects.select_for_update().get(character=character)
    if expected_revision is not None and state.revision != expected_revision:
        raise StaleWrite(
            _(
                "{name} changed at the table a moment ago (someone else clicked first), so "
                "nothing was saved. This is how things stand now: click again if you still "
                "mean it."
            ).format(name=character.name)
        )
    return at_table(character, state)


def _commit(table: AtTable, actor, action: str, *, note: Phrase, **changes) -> Change:
    """The change saved with its PlayEvent, whose note the record keeps in English (the
    engine's words, as every event's) and as its phrase, which the history says in its
    reader's language (characters.recorded); the page's news says it now."""
    before = table.snapshot()
    state = table.state
    for field, value in changes.items():
        if field == "wounds":
            value = [list(boxes) for boxes in value]
        elif field == "group_wounds":
            value = [[list(boxes) for boxes in marks] for marks in value]
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
        note=str(note),
        note_phrase=phrase_data(note),
    )
    return Change(after_table, _said(after_table, note))


def _said(table: AtTable, note: Phrase) -> str:
    worst = table.worst
    # "in hand: 1", not "1 meta points": the count reads right whatever it is.
    values = {
        "name": table.character.name,
        "note": said(note),
        "points": _points(table.pool),
        "count": table.in_hand,
    }
    if not worst:
        return _("{name}: {note}. Now unhurt; {points} in hand: {count}.").format(**values)
    values["wound"] = term(worst.name, "wound")
    if not table.penalty:
        return _("{name}: {note}. Now {wound}; {points} in hand: {count}.").format(**values)
    return _(
        "{name}: {note}. Now {wound}, {penalty} on every roll; {points} in hand: {count}."
    ).format(penalty=signed(table.penalty), **values)


def _points(pool: play.TablePool) -> str:
    """The points a player spends at the table, in the reader's language (a GM's as written)."""
    return term(pool.name, "points")


def _rules_call(function, *args):
    try:
        return function(*args)
    except play.PlayError as error:
        raise ServiceError(said(error.phrase)) from None
