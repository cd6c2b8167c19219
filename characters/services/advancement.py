"""Advancement of an approved character (docs/approval.md): the GM awards experience (EP, XP
or tokens, by ruleset), the player spends it at the ruleset's development costs
(rules.advancement), meta points or Fudge points are spent, granted, bought and converted.

The approved lock of the builder does not apply here: these services lock the character row
themselves (select_for_update), check the version where the page carries one, and keep
Character.experience equal to the sum of the applied ledger entries. Every change bumps the
version and is recorded in the audit trail in the same transaction.

Who does what: the owner spends experience and points and converts Fudge points; the GM
awards experience, grants points, accepts or refuses a pending spend, and may spend a
character's experience too: that is how a spend the rules tie to the GM's permission
(Legendary levels, new gifts and powers) is made.
"""

from collections import defaultdict
from dataclasses import asdict

from django.db import transaction
from django.utils.translation import gettext as _

from characters import vocabulary
from characters.adapters import (
    TRAIT_LISTS,
    ruleset_for,
    trait_fields,
    trait_state,
)
from characters.errors import NotAllowed, ServiceError
from characters.models import (
    Campaign,
    Character,
    ExperienceEntry,
    Notification,
    Trait,
)
from characters.recorded import AWARDED, CONVERTED, CONVERTED_TO, SPENT, TAKEN_BACK, recorded
from characters.selectors.access import is_gm_of
from characters.selectors.advancement import (
    BUY_OFF_FAULT,
    GIFT,
    LEARN,
    MAX_AWARD,
    NAMED,
    POWER,
    RAISE,
    amount_phrase,
    check_new_name,
    label_said,
    meta_points_of,
    new_kind,
    pending_spends,
    points_name,
    price_spend,
    quote_spend,
    spend_phrase,
    spend_to_take_back,
)
from characters.services.audit import (
    commit_change,
    ensure_build_as_recorded,
    lock_character,
    record_event,
    stored_build_sha256,
)
from characters.services.notifications import notifications_mail, notify
from characters.services.rows import ensure_room, next_position
from rules.ladder import level_name, parse_level
from rules.recorded import phrase_of
from rules.rulesets import Ruleset
from rules.words import Term, say

# -- spends ----------------------------------------------------------------------------------


@transaction.atomic
def experience_spend(
    *,
    character: Character,
    actor,
    expected_version: int | None,
    what: str,
    trait: Trait | None = None,
    name: str = "",
    kind: str = "",
    difficulty: str = "",
) -> ExperienceEntry:
    """Spend unspent experience on one thing. Applied at once; or asked of the GM when the
    rules want the GM's permission (a gift, a power, a Legendary level) or the campaign has
    the GM approve every spend. A request holds its experience back until the GM decides."""
    locked = _lock_in_play(character, expected_version)
    acting_gm = is_gm_of(locked, actor)
    if locked.owner_id != actor.pk and not acting_gm:
        raise NotAllowed(_("Only the character's player (or the GM) spends its experience."))
    ensure_build_as_recorded(locked)
    ruleset = ruleset_for(locked)
    if trait is not None:
        trait = locked.traits.get(pk=trait.pk)  # its level as of this lock
    name = " ".join(name.split())
    quote = quote_spend(
        locked,
        ruleset,
        acting_gm=acting_gm,
        what=what,
        trait=trait,
        name=name,
        kind=kind,
        difficulty=difficulty,
    )
    if what in NAMED:
        ensure_room(locked)
    priced = quote.priced
    spec = asdict(priced)
    label = spend_phrase(spec)
    if quote.request:
        entry = ExperienceEntry.objects.create(
            character=locked,
            amount=-priced.cost,
            reason=priced.label,
            reason_phrase=priced.phrase,
            actor=actor,
            pending=True,
            request=spec,
        )
        record_event(
            character=locked,
            actor=actor,
            action="spend_requested",
            target=priced.target,
            after={**spec, "entry": entry.pk},
            reason=label,
        )
        return entry
    entry = ExperienceEntry.objects.create(
        character=locked,
        amount=-priced.cost,
        reason=priced.label,
        reason_phrase=priced.phrase,
        actor=actor,
    )
    _apply(locked, entry, spec, actor=actor, action="experience_spent")
    return entry


@transaction.atomic
def spend_accept(*, entry: ExperienceEntry, actor) -> ExperienceEntry:
    """The GM accepts a pending spend: it is bought now, in the same recorded step, if it
    still fits the character; the player is told."""
    locked, spec = _lock_pending(entry, actor)
    ensure_build_as_recorded(locked)
    if spec["what"] is None:
        raise ServiceError(
            _("Nothing records what “{what}” buys: refuse it.").format(what=label_said(spec))
        )
    trait = locked.traits.filter(pk=spec["trait"]).first() if spec["trait"] else None
    asked = {"kind": spec.get("kind", ""), "difficulty": spec.get("difficulty", "")}
    try:
        if spec["what"] in NAMED:
            check_new_name(locked, new_kind(spec["what"], asked["kind"]), spec["name"])
            ensure_room(locked)
        now = price_spend(
            locked,
            ruleset_for(locked),
            what=spec["what"],
            trait=trait,
            name=spec["name"],
            **asked,
        )
    except ServiceError as error:
        raise ServiceError(
            _("{what} no longer applies ({error}): refuse it.").format(
                what=label_said(spec), error=error
            )
        ) from None
    if (now.target, now.cost, now.from_level) != (
        spec["target"],
        spec["cost"],
        spec["from_level"],
    ):
        raise ServiceError(
            _(
                "{what} no longer matches the character (now: {now}, {cost} {unit}): refuse "
                "it, and the player can ask again."
            ).format(
                what=label_said(spec),
                now=label_said(asdict(now)),
                cost=now.cost,
                unit=vocabulary.term(now.unit, "experience unit"),
            )
        )
    entry = locked.ledger.get(pk=entry.pk)
    entry.pending = False
    entry.save(update_fields=["pending"])
    _apply(locked, entry, spec, actor=actor, action="spend_accepted")
    notify(
        character=locked,
        actor=actor,
        kind=Notification.Kind.SPEND_ACCEPTED,
        message=say(
            "{gm} accepted {name}'s request: {what} ({cost} {unit}).",
            gm=actor.username,
            name=locked.name,
            what=spend_phrase(spec),
            cost=spec["cost"],
            unit=Term(spec["unit"], "experience unit"),
        ),
    )
    return entry


@transaction.atomic
def spend_refuse(*, entry: ExperienceEntry, actor, reason: str) -> None:
    """The GM refuses a pending spend, saying why: its experience is free again. The ledger
    row goes (it never was a spend); the request and the refusal stay in the audit trail,
    and the player is told why."""
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Say why you refuse: the player reads it."), field="reason")
    locked, spec = _lock_pending(entry, actor)
    locked.ledger.filter(pk=entry.pk).delete()
    record_event(
        character=locked,
        actor=actor,
        action="spend_refused",
        target=spec["target"],
        before={**spec, "entry": entry.pk},
        reason=reason,
    )
    notify(
        character=locked,
        actor=actor,
        kind=Notification.Kind.SPEND_REFUSED,
        message=say(
            "{gm} refused {name}'s request ({what}): {reason}",
            gm=actor.username,
            name=locked.name,
            what=spend_phrase(spec),
            reason=reason,
        ),
    )


@transaction.atomic
def spend_withdraw(*, entry: ExperienceEntry, actor) -> None:
    """The player takes back a request the GM has not decided yet: as a refusal, the
    ledger row goes (it never was a spend) and the audit trail keeps the request and this."""
    locked = lock_character(character=entry.character, expected_version=None)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the character's player takes back its requests."))
    spec = next((spec for e, spec in pending_spends(locked) if e.pk == entry.pk), None)
    if spec is None:
        raise ServiceError(_("That request is no longer waiting: the GM decided already."))
    locked.ledger.filter(pk=entry.pk).delete()
    record_event(
        character=locked,
        actor=actor,
        action="spend_withdrawn",
        target=spec["target"],
        before={**spec, "entry": entry.pk},
        reason=spend_phrase(spec),
    )


@transaction.atomic
def spend_take_back(*, character: Character, actor, expected_version: int | None):
    """The player takes back their last spend, until the next session starts or the GM acts
    (selectors.advancement.spend_to_take_back): what it bought is undone and an entry of
    the same amount that names it gives the experience back. Nothing is deleted."""
    locked = _lock_in_play(character, expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the character's player takes back their spends."))
    ensure_build_as_recorded(locked)
    spend = spend_to_take_back(locked)
    if spend is None:
        raise ServiceError(
            _(
                "There is no spend to take back: a spend can be taken back until the next "
                "session starts or the GM acts on the character."
            )
        )
    before, after = {"experience": locked.experience}, {}
    _undo(locked, spend.bought, before, after)
    bought = phrase_of(spend.reason_phrase) if spend.reason_phrase else spend.reason
    reason, reason_phrase = recorded(say(TAKEN_BACK, spend=bought))
    refund = ExperienceEntry.objects.create(
        character=locked,
        amount=-spend.amount,
        reason=reason,
        reason_phrase=reason_phrase,
        actor=actor,
        reverses=spend,
    )
    locked.experience += refund.amount
    after["experience"] = locked.experience
    commit_change(
        locked,
        fields=["experience", "meta_points"],
        actor=actor,
        action="spend_taken_back",
        target=_bought_target(spend.bought),
        before=before,
        after=after,
        reason=phrase_of(reason_phrase),
        build_sha256=stored_build_sha256(locked),
    )
    return refund


def _undo(locked: Character, bought: dict, before: dict, after: dict) -> None:
    """Undo what a spend bought (its ledger form: spec, "Advancement"), refusing when the
    character no longer holds it."""
    if "meta_points" in bought:
        current = meta_points_of(locked, ruleset_for(locked))
        if current < bought["meta_points"]:
            raise ServiceError(
                _(
                    "The meta points it bought are spent already; the character changed "
                    "since: ask your GM."
                )
            )
        before["meta_points"] = current
        locked.meta_points = after["meta_points"] = current - bought["meta_points"]
        return
    ((how, listed),) = bought.items()
    kind = LIST_KINDS[listed["list"]]
    if how == "remove":  # a fault bought off comes back
        state = {k: v for k, v in listed.items() if k != "list"}
        if "value" in state:
            state["cost"] = state.pop("value")
        ensure_room(locked)
        fault = Trait.objects.create(
            character=locked,
            kind=kind,
            position=next_position(locked.traits.filter(kind=kind)),
            **trait_fields(state),
        )
        after.update(trait_state(fault))
        return
    trait = locked.traits.filter(kind=kind, name__iexact=listed["name"]).first()
    level = listed["to"] if how == "raise" else listed.get("level")
    if trait is None or (level is not None and trait.level != parse_level(level)):
        raise ServiceError(
            _(
                "{name} is not what the spend left; the character changed since: ask your GM."
            ).format(name=listed["name"])
        )
    before.update(trait_state(trait))
    if how == "raise":
        trait.level = parse_level(listed["from"])
        trait.save(update_fields=["level"])
        after.update(trait_state(trait))
    else:
        trait.delete()


def _bought_target(bought: dict) -> str:
    if "meta_points" in bought:
        return ""
    (listed,) = bought.values()
    return f"{LIST_KINDS[listed['list']]}:{listed['name']}"


def _lock_pending(entry: ExperienceEntry, actor) -> tuple[Character, dict]:
    locked = lock_character(character=entry.character, expected_version=None)
    if not is_gm_of(locked, actor):
        raise NotAllowed(_("Only the campaign's GM accepts or refuses a spend."))
    for pending, spec in pending_spends(locked):
        if pending.pk == entry.pk:
            return locked, spec
    raise ServiceError(_("That spend is no longer waiting: it was accepted or refused already."))


def _apply(locked: Character, entry: ExperienceEntry, spec: dict, *, actor, action: str) -> None:
    """Make the change a spend bought, take its cost from the unspent experience, note on
    the ledger entry what it bought (as the character file's ledger writes it), and record
    it all in one event: the trait's state and the balance, before and after, and the
    build's new digest (the record an approved build is checked against)."""
    before, after = {"experience": locked.experience}, {}
    what = spec["what"]
    if what in (RAISE, BUY_OFF_FAULT):
        trait = locked.traits.get(pk=spec["trait"])
        before.update(trait_state(trait))
        entry.bought = _bought(trait, spec)
        if what == RAISE:
            trait.level = spec["from_level"] + 1
            trait.save(update_fields=["level"])
            after.update(trait_state(trait))
        else:
            trait.delete()
    elif what == LEARN:
        kind = spec["kind"]
        trait = Trait.objects.create(
            character=locked,
            kind=kind,
            name=spec["name"],
            level=spec["from_level"] + 1,
            difficulty=spec.get("difficulty", ""),
            power_kind=ruleset_for(locked).power_kinds[0] if kind == Trait.Kind.POWER else "",
            position=next_position(locked.traits.filter(kind=kind)),
        )
        after.update(trait_state(trait))
        entry.bought = _bought(trait, spec)
    elif what in (GIFT, POWER):
        trait = Trait.objects.create(
            character=locked,
            kind=Trait.Kind.GIFT if what == GIFT else Trait.Kind.POWER,
            name=spec["name"],
            cost=1 if what == GIFT else None,
            power_kind="" if what == GIFT else "superpower",
            position=next_position(
                locked.traits.filter(kind=Trait.Kind.GIFT if what == GIFT else Trait.Kind.POWER)
            ),
        )
        after.update(trait_state(trait))
        entry.bought = _bought(trait, spec)
    else:  # META_POINT
        ruleset = ruleset_for(locked)
        before["meta_points"] = meta_points_of(locked, ruleset)
        locked.meta_points = before["meta_points"] + 1
        after["meta_points"] = locked.meta_points
        entry.bought = {"meta_points": 1}
    entry.save(update_fields=["bought"])
    locked.experience -= spec["cost"]
    after["experience"] = locked.experience
    commit_change(
        locked,
        fields=["experience", "meta_points"],
        actor=actor,
        action=action,
        target=spec["target"],
        before=before,
        after=after,
        reason=say(
            SPENT,
            what=spend_phrase(spec),
            cost=spec["cost"],
            unit=Term(spec["unit"], "experience unit"),
        ),
        build_sha256=stored_build_sha256(locked),
    )


def _bought(trait: Trait, spec: dict) -> dict:
    """What a spend bought, as a ledger entry of the character file says it (spec,
    "Advancement"): undoing it, newest first, gives back the creation build."""
    listed = {"list": TRAIT_LISTS[trait.kind], **trait_state(trait)}
    if spec["what"] == RAISE:
        return {
            "raise": {
                "list": TRAIT_LISTS[trait.kind],
                "name": trait.name,
                "from": level_name(spec["from_level"]),
                "to": level_name(spec["from_level"] + 1),
            }
        }
    if spec["what"] == BUY_OFF_FAULT:
        if "cost" in listed:  # a fault's cost is its value in the file
            listed["value"] = listed.pop("cost")
        return {"remove": listed}
    return {"add": listed}


# The trait kind of each list a ledger entry names (adapters.TRAIT_LISTS, the other way).
LIST_KINDS = {list_name: kind for kind, list_name in TRAIT_LISTS.items()}


# -- awards ----------------------------------------------------------------------------------


@transaction.atomic
def experience_award(
    *, character: Character, actor, amount: int, reason: str, expected_version: int | None = None
) -> ExperienceEntry:
    locked = _lock_in_play(character, expected_version)
    if not is_gm_of(locked, actor):
        raise NotAllowed(_("Only the campaign's GM awards experience."))
    entry, _note = _award(locked, actor=actor, amount=amount, reason=reason)
    return entry


@transaction.atomic
def experience_award_party(
    *, campaign: Campaign, actor, amount: int, reason: str
) -> list[ExperienceEntry]:
    """The same award to every approved character of the campaign."""
    if campaign.gm_id != actor.pk:
        raise NotAllowed(_("Only the campaign's GM awards experience."))
    # Rows locked in id order, so two awards at once queue instead of deadlocking.
    party = list(
        Character.objects.select_for_update(of=("self",))
        .with_game()
        .select_related("owner")  # the owner: each award notifies them
        .filter(campaign=campaign, state=Character.State.APPROVED)
        .order_by("pk")
    )
    if not party:
        raise ServiceError(
            _("No character of {campaign} is approved yet: nobody to award.").format(
                campaign=campaign.name
            )
        )
    # Each character's notification is its own; its player gets one mail naming them all
    # (a player with 31 characters gets one, not 31).
    awarded = [_award(c, actor=actor, amount=amount, reason=reason, mailed=False) for c in party]
    told = defaultdict(list)
    for _entry, note in awarded:
        if note is not None:
            told[note.user_id].append(note)
    for notes in told.values():
        notifications_mail(notes)
    return [entry for entry, _note in awarded]


def _award(
    locked: Character, *, actor, amount: int, reason: str, mailed: bool = True
) -> tuple[ExperienceEntry, Notification | None]:
    reason = reason.strip()
    if not reason:
        raise ServiceError(_("Give the award a reason: it goes on the character's record."))
    if not 1 <= amount <= MAX_AWARD:
        raise ServiceError(_("Award between 1 and {most} at a time.").format(most=MAX_AWARD))
    ruleset = ruleset_for(locked)
    unit = ruleset.advancement.unit
    entry = ExperienceEntry.objects.create(
        character=locked, amount=amount, reason=reason, actor=actor
    )
    before = locked.experience
    locked.experience += amount
    commit_change(
        locked,
        fields=["experience"],
        actor=actor,
        action="experience_awarded",
        before={"experience": before},
        after={"experience": locked.experience},
        reason=say(AWARDED, amount=amount, unit=Term(unit, "experience unit"), reason=reason),
    )
    note = notify(
        character=locked,
        actor=actor,
        kind=Notification.Kind.EXPERIENCE,
        message=say(
            "{gm} awarded {name} {amount}: {reason}",
            gm=actor.username,
            name=locked.name,
            amount=amount_phrase(amount, ruleset),
            reason=reason,
        ),
        mailed=mailed,
    )
    return entry, note


# -- meta points and Fudge points ------------------------------------------------------------


@transaction.atomic
def meta_points_spend(
    *, character: Character, actor, expected_version: int | None, count: int = 1, reason=""
) -> Character:
    """A point spent in play (Mudge 1.36, Fudge Basics: alter a roll, lessen a wound...)."""
    locked, ruleset, current = _lock_points(character, expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the character's player spends its points; the GM grants them."))
    if not 1 <= count <= current:
        raise ServiceError(
            _("{name} has {current} {points}: spend between 1 and {current}.").format(
                name=locked.name, current=current, points=_points_said(ruleset)
            )
        )
    _set_points(locked, actor, "meta_points_spent", current, current - count, reason)
    return locked


@transaction.atomic
def meta_points_grant(
    *, character: Character, actor, expected_version: int | None, count: int = 1, reason=""
) -> Character:
    locked, ruleset, current = _lock_points(character, expected_version)
    if not is_gm_of(locked, actor):
        raise NotAllowed(_("Only the campaign's GM grants points."))
    most = ruleset.meta_points_max
    if count < 1 or (most is not None and current + count > most):
        said = {"name": locked.name, "current": current, "points": _points_said(ruleset)}
        if most is None:
            raise ServiceError(_("{name} has {current} {points}; grant at least 1.").format(**said))
        raise ServiceError(
            _(
                "{name} has {current} {points}; grant at least 1 and at most {room} "
                "({section}: at most {most})."
            ).format(**said, room=most - current, section=ruleset.section("meta_points"), most=most)
        )
    _set_points(locked, actor, "meta_points_granted", current, current + count, reason)
    return locked


@transaction.atomic
def fudge_points_convert(
    *, character: Character, actor, expected_version: int | None
) -> ExperienceEntry:
    """Fudge Basics, Experience: three Fudge points make one EP."""
    locked, ruleset, current = _lock_points(character, expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the character's player converts its points."))
    rate = ruleset.advancement.points_per_unit
    if rate is None:
        raise ServiceError(
            _("{ruleset} does not turn {points} into experience.").format(
                ruleset=vocabulary.term(ruleset.name, "ruleset"), points=_points_said(ruleset)
            )
        )
    if current < rate:
        raise ServiceError(
            _("{name} has {current} {points}; {rate} make 1 {unit}.").format(
                name=locked.name,
                current=current,
                points=_points_said(ruleset),
                rate=rate,
                unit=vocabulary.term(ruleset.advancement.unit, "experience unit"),
            )
        )
    unit = ruleset.advancement.unit
    converted = say(
        CONVERTED,
        rate=rate,
        points=Term(points_name(ruleset), "points"),
        section=ruleset.advancement.section,
    )
    reason, reason_phrase = recorded(converted)
    entry = ExperienceEntry.objects.create(
        character=locked, amount=1, reason=reason, reason_phrase=reason_phrase, actor=actor
    )
    before = {"meta_points": current, "experience": locked.experience}
    locked.meta_points = current - rate
    locked.experience += 1
    commit_change(
        locked,
        fields=["meta_points", "experience"],
        actor=actor,
        action="fudge_points_converted",
        before=before,
        after={"meta_points": locked.meta_points, "experience": locked.experience},
        reason=say(CONVERTED_TO, reason=converted, unit=Term(unit, "experience unit")),
    )
    return entry


def _lock_points(character, expected_version) -> tuple[Character, Ruleset, int]:
    locked = _lock_in_play(character, expected_version)
    ruleset = ruleset_for(locked)
    if not ruleset.terms.points:
        raise ServiceError(
            _("{ruleset} has no meta points: tokens do that work.").format(
                ruleset=vocabulary.term(ruleset.name, "ruleset")
            )
        )
    return locked, ruleset, meta_points_of(locked, ruleset)


def _points_said(ruleset: Ruleset) -> str:
    """The ruleset's word for its points, in the reader's language: "points Fudge"."""
    return vocabulary.term(points_name(ruleset), "points")


def _set_points(locked, actor, action, before, after, reason) -> None:
    locked.meta_points = after
    commit_change(
        locked,
        fields=["meta_points"],
        actor=actor,
        action=action,
        before={"meta_points": before},
        after={"meta_points": after},
        reason=reason.strip(),
    )


def _lock_in_play(character: Character, expected_version: int | None) -> Character:
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.state != Character.State.APPROVED:
        raise ServiceError(
            _(
                "{name} is {state}: experience and meta points come with play, once the GM "
                "approves the build."
            ).format(name=locked.name, state=locked.state_phrase)
        )
    return locked
