"""The character's rows: add, change and remove traits and equipment in the builder, and
define an uncommitted trait in play. Each write locks the character for the edit
(services.characters.lock_for_edit), writes, bumps the version and records the change in the
audit trail, all in one transaction."""

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from characters import vocabulary
from characters.adapters import ruleset_for, to_decimal, trait_state, trait_target
from characters.compiled import update_row
from characters.errors import ServiceError
from characters.models import LEVEL_MAX, LEVEL_MIN, Character, Equipment, Trait
from characters.recorded import COMES_WITH, UNCOMMITTED, WENT_WITH
from characters.services.audit import (
    commit_change,
    commit_claimed_change,
    ensure_build_as_recorded,
    lock_character,
    record_event,
    stored_build_sha256,
)
from characters.services.characters import lock_for_edit
from characters.services.history import snapshot
from characters.wording import SPEAKER
from rules.charfile import MAX_ROWS
from rules.ladder import STANDARD
from rules.rulesets import STANDARD_TERMS
from rules.words import Level, Name, say


def ensure_room(character: Character, adding: int = 1) -> None:
    """Refuse a write that would give the character more rows than MAX_ROWS, the limit a
    character file has too (docs/character-file.md)."""
    rows = character.traits.count() + character.equipment.count()
    if rows + adding > MAX_ROWS:
        raise ServiceError(
            _(
                "{name} has {rows} traits and pieces of equipment; the most a character can "
                "have is {most} together. Remove one to make room."
            ).format(name=character.name, rows=rows, most=MAX_ROWS)
        )


def next_position(rows) -> int:
    """Where a new row goes: after the last one. Not the count of rows: after a removal
    that would share a place with a row already there, and sort before it."""
    last = rows.aggregate(last=Max("position"))["last"]
    return 0 if last is None else last + 1


@transaction.atomic
def trait_add(
    *,
    character: Character,
    actor,
    expected_version: int | None,
    kind: str,
    name: str,
    level: int | None = None,
    difficulty: str = "",
    cost=None,
    power_kind: str = "",
) -> Trait:
    locked = lock_for_edit(character=character, expected_version=expected_version)
    ensure_room(locked)
    position = next_position(locked.traits.filter(kind=kind))
    trait = Trait(
        character=locked,
        kind=kind,
        name=name,
        level=level,
        difficulty=difficulty,
        cost=cost,
        power_kind=power_kind,
        position=position,
    )
    if kind == Trait.Kind.GIFT:
        # Before the gift's own record, so that undoing the last edit takes the gift back.
        _add_gift_attribute(locked, gift=trait, actor=actor)
    _add_trait(trait, actor=actor, action="trait_added")
    return trait


def gift_attribute(ruleset, gift_name: str) -> str | None:
    """The attribute a gift brings, from the ruleset's data (Mudge 2.5: Magery brings Mana;
    2.7: Psionic brings Psyche), or None."""
    return next(
        (a for g, a in ruleset.attribute_gifts.items() if g.casefold() == gift_name.casefold()),
        None,
    )


def _add_gift_attribute(character: Character, *, gift: Trait, actor) -> None:
    """Taking a gift that brings an attribute adds it at the ruleset's default, priced as
    any attribute from there; one the character already has stays as it is."""
    ruleset = ruleset_for(character)
    attribute = gift_attribute(ruleset, gift.name)
    if (
        attribute is None
        or character.traits.filter(kind=Trait.Kind.ATTRIBUTE, name__iexact=attribute).exists()
    ):
        return
    ensure_room(character)
    row = Trait(
        character=character,
        kind=Trait.Kind.ATTRIBUTE,
        name=attribute,
        level=ruleset.attribute_default,
        position=next_position(character.traits.filter(kind=Trait.Kind.ATTRIBUTE)),
    )
    save_trait(row)
    record_event(
        character=character,
        actor=actor,
        action="trait_added",
        target=trait_target(row),
        after=trait_state(row),
        reason=say(COMES_WITH, gift=Name(gift.name)),
    )


@transaction.atomic
def trait_update(*, trait: Trait, actor, expected_version: int | None, **changes) -> Trait:
    """Change a trait. The builder's commonest write: when the caller read the character and
    its traits at the version the page was loaded at, the caller's copies are changed in
    place (the trait that comes back then belongs to the caller's character), the row
    claimed rather than locked (_update_claimed); else it is locked, and the copies are
    changed in place if the row is still at the version they were read at, else a copy read
    under the lock is."""
    if _update_claimed(trait, actor=actor, expected_version=expected_version, changes=changes):
        return trait
    locked = lock_for_edit(
        character=trait.character, expected_version=expected_version, in_place=True
    )
    if locked is not trait.character:  # the caller's copy is older than the row it locked
        trait = locked.traits.get(pk=trait.pk)
    before = trait_state(trait)
    was = _changed_fields(trait, changes)
    for key in was:
        setattr(trait, key, changes[key])
    after = trait_state(trait)
    if after == before:
        return trait
    try:
        save_trait(trait, fields=list(was))
    except ServiceError:
        for key, value in was.items():  # refused: the caller's copy stays as committed
            setattr(trait, key, value)
        raise
    commit_change(
        locked,
        actor=actor,
        action=_edit_action(before, after),
        target=trait_target(trait),
        before=before,
        after=after,
    )
    return trait


def _update_claimed(trait: Trait, *, actor, expected_version: int | None, changes: dict) -> bool:
    """trait_update in four statements, where the lock, the row, the step, the event and the
    version were five (audit.commit_claimed_change): for the caller's copy read at the
    page's version of a character that may be edited, and a change that changes something.
    False, with the copies as they were and nothing written, when it cannot be: the lock's
    way then says why (a stale page, a submitted build) or writes it."""
    character = trait.character
    if expected_version != character.version or character.is_locked:
        return False
    was = _changed_fields(trait, changes)
    if not was:  # a row saved as it was: the lock's way checks the page and writes nothing
        return False
    build_before = snapshot(character)  # before the change: its undo step puts it back
    before = trait_state(trait)
    for key in was:
        setattr(trait, key, changes[key])
    after = trait_state(trait)
    recorded = None
    try:
        if after != before:
            character.build_before = build_before
            recorded = commit_claimed_change(
                character,
                actor=actor,
                action=_edit_action(before, after),
                write=lambda: save_trait(trait, fields=list(was)),
                target=trait_target(trait),
                before=before,
                after=after,
            )
    finally:
        if recorded is None:  # not written, or refused: the caller's copies as committed
            for key, value in was.items():
                setattr(trait, key, value)
            character.__dict__.pop("build_before", None)
    return recorded is not None


def _changed_fields(trait: Trait, changes: dict) -> dict:
    """What each field `changes` would change was: the fields a save writes."""
    return {
        key: getattr(trait, key) for key, value in changes.items() if getattr(trait, key) != value
    }


def _edit_action(before: dict, after: dict) -> str:
    differing = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    return "trait_relevelled" if differing == {"level"} else "trait_changed"


@transaction.atomic
def trait_remove(
    *, trait: Trait, actor, expected_version: int | None, with_attribute: bool = False
) -> None:
    """Remove a trait. A gift that brings an attribute (Magery, Mana) leaves it unless
    `with_attribute`: the player chose (the builder asks)."""
    locked = lock_for_edit(character=trait.character, expected_version=expected_version)
    trait = Trait.objects.get(pk=trait.pk, character=locked)
    before = trait_state(trait)
    target = trait_target(trait)
    attribute = gift_attribute(ruleset_for(locked), trait.name) if with_attribute else None
    if attribute and trait.kind == Trait.Kind.GIFT:  # recorded first, as in trait_add
        for row in locked.traits.filter(kind=Trait.Kind.ATTRIBUTE, name__iexact=attribute):
            state = trait_state(row)
            row.delete()
            record_event(
                character=locked,
                actor=actor,
                action="trait_removed",
                target=trait_target(row),
                before=state,
                reason=say(WENT_WITH, trait=Name(trait.name)),
            )
    trait.delete()
    commit_change(locked, actor=actor, action="trait_removed", target=target, before=before)


@transaction.atomic
def trait_define_uncommitted(
    *,
    character: Character,
    actor,
    expected_version: int | None,
    name: str,
    level: int,
    difficulty: str = "",
) -> Trait:
    """Mudge 1.7: define one of the character's uncommitted traits in play, as a skill "Good
    (or lower), subject to the GM's approval". The campaign's GM records it, on an approved
    character; a character outside a campaign, its owner. It is not priced at creation."""
    locked = lock_character(character=character, expected_version=expected_version)
    ruleset = ruleset_for(locked)
    if locked.campaign is not None and locked.state != Character.State.APPROVED:
        raise ServiceError(
            _(
                "{name} is not in play yet: an uncommitted trait is defined after creation, "
                "once the GM has approved the build. Until then, add the skill."
            ).format(name=locked.name)
        )
    allowed = locked.campaign.gm_id if locked.campaign is not None else locked.owner_id
    if actor.pk != allowed:
        raise ServiceError(
            _("Only the {gm} defines an uncommitted trait.").format(
                gm=vocabulary.term(ruleset.terms.gm, "game master")
            )
        )
    approved = locked.state == Character.State.APPROVED
    if approved:
        ensure_build_as_recorded(locked)
    used = locked.traits.filter(defined_in_play=True).count()
    if used >= ruleset.uncommitted_traits:
        raise ServiceError(
            _("{name} has no uncommitted trait left ({count} at creation, all defined).").format(
                name=locked.name, count=ruleset.uncommitted_traits
            )
        )
    if level > ruleset.uncommitted_max:
        top = SPEAKER.level(Level(ruleset.uncommitted_max, ruleset.ladder))
        raise ServiceError(
            _("An uncommitted trait is defined as {level} or lower.").format(level=top)
        )
    if not difficulty and ruleset.skill_difficulties:
        entry = ruleset.catalog.skill(name)
        difficulty = entry.difficulty if entry is not None else ""
    trait = Trait(
        character=locked,
        kind=Trait.Kind.SKILL,
        name=name,
        level=level,
        difficulty=difficulty,
        defined_in_play=True,
        position=next_position(locked.traits.filter(kind=Trait.Kind.SKILL)),
    )
    save_trait(trait)
    commit_change(
        locked,
        actor=actor,
        action="uncommitted_defined",
        target=trait_target(trait),
        after=trait_state(trait),
        reason=say(
            UNCOMMITTED,
            number=used + 1,
            count=ruleset.uncommitted_traits,
            section=ruleset.section("uncommitted"),
        ),
        # An approved build's new digest: the record it is checked against from now on.
        build_sha256=stored_build_sha256(locked) if approved else "",
    )
    return trait


def _add_trait(trait: Trait, *, actor, action: str, reason: str = "") -> None:
    """Save a new trait on its locked character, bump the version, record the event."""
    save_trait(trait)
    commit_change(
        trait.character,
        actor=actor,
        action=action,
        target=trait_target(trait),
        after=trait_state(trait),
        reason=reason,
    )


def save_trait(trait: Trait, *, fields=None) -> None:
    """Save a new trait, or the `fields` of one that changed."""
    if trait.level is not None and not LEVEL_MIN <= trait.level <= LEVEL_MAX:
        raise ServiceError(
            _("{name}'s level is out of range: the ladder goes from {bottom} to {top}.").format(
                name=trait.name,
                bottom=SPEAKER.level(Level(LEVEL_MIN, STANDARD)),
                top=SPEAKER.level(Level(LEVEL_MAX, STANDARD)),
            )
        )
    if fields is not None and "name" not in fields:
        update_row(trait, fields)  # the name stays: no clash to catch
        return
    try:
        with transaction.atomic():  # a savepoint, so a clash leaves the outer write usable
            trait.save(update_fields=fields)
    except IntegrityError:
        raise ServiceError(
            _(
                "{character} already has the {kind} {name}: change its level instead, or give "
                "this one another name."
            ).format(
                character=trait.character.name,
                kind=SPEAKER.noun(STANDARD_TERMS.list_noun(f"{trait.kind}s")),
                name=SPEAKER.name(Name(trait.name)),  # as its row says it: "Discrétion"
            )
        ) from None


def equipment_state(item: Equipment) -> dict:
    state = {"name": item.name, "kind": item.kind}
    for key in ("damage", "armour"):
        if getattr(item, key) is not None:
            state[key] = getattr(item, key)
    if item.notes:
        state["notes"] = item.notes
    if item.quantity != 1:
        state["quantity"] = item.quantity
    return state


@transaction.atomic
def equipment_add(
    *, character: Character, actor, expected_version: int | None, **fields
) -> Equipment:
    locked = lock_for_edit(character=character, expected_version=expected_version)
    ensure_room(locked)
    item = Equipment.objects.create(
        character=locked, position=next_position(locked.equipment.all()), **fields
    )
    commit_change(
        locked,
        actor=actor,
        action="equipment_added",
        target=f"equipment:{item.name}",
        after=equipment_state(item),
    )
    return item


@transaction.atomic
def equipment_update(
    *, item: Equipment, actor, expected_version: int | None, **fields
) -> Equipment:
    locked = lock_for_edit(character=item.character, expected_version=expected_version)
    item = Equipment.objects.get(pk=item.pk, character=locked)
    before = equipment_state(item)
    for key, value in fields.items():
        setattr(item, key, value)
    if equipment_state(item) == before:
        return item
    item.save()
    commit_change(
        locked,
        actor=actor,
        action="equipment_changed",
        target=f"equipment:{item.name}",
        before=before,
        after=equipment_state(item),
    )
    return item


@transaction.atomic
def equipment_remove(*, item: Equipment, actor, expected_version: int | None) -> None:
    locked = lock_for_edit(character=item.character, expected_version=expected_version)
    item = Equipment.objects.get(pk=item.pk, character=locked)
    before = equipment_state(item)
    item.delete()
    commit_change(
        locked,
        actor=actor,
        action="equipment_removed",
        target=f"equipment:{before['name']}",
        before=before,
    )


def trait_fields_with_catalog(*, ruleset, kind: str, fields: dict) -> dict:
    """A pick from the catalogue (the campaign's, else the ruleset's own) brings what the
    entry says wherever the player left a field empty: a value typed still wins. A skill's
    difficulty ("Area Knowledge (the Shire)" takes that of "Area Knowledge"); a gift's or
    fault's cost (Mudge 1.33's starred ones: 2); a power's kind and difficulty (Mudge 2.53's
    Fireball: a very hard spell)."""
    catalog, name = ruleset.catalog, fields["name"]
    if kind == Trait.Kind.SKILL and ruleset.skill_difficulties and not fields.get("difficulty"):
        entry = catalog.skill(name)
        if entry is not None:
            fields["difficulty"] = entry.difficulty
    elif kind in (Trait.Kind.GIFT, Trait.Kind.FAULT) and "cost" not in fields:
        entry = catalog.gift(name) if kind == Trait.Kind.GIFT else catalog.fault(name)
        if entry is not None:
            fields["cost"] = to_decimal(entry.cost if kind == Trait.Kind.GIFT else entry.value)
    elif kind == Trait.Kind.POWER:
        entry = catalog.power(name)
        if entry is not None:
            if not fields.get("power_kind") and entry.kind in ruleset.power_kinds:
                fields["power_kind"] = entry.kind
            if "difficulty" in fields and not fields["difficulty"]:
                fields["difficulty"] = entry.difficulty
    return fields


def equipment_fields_with_catalog(*, ruleset, fields: dict) -> dict:
    """A piece of equipment picked from the catalogue brings its kind, weapon and armour
    values and note (Mudge 4.54: a Large Weapon +3, Effective armour +4), each only where
    the player left the field empty."""
    entry = ruleset.catalog.equipment_item(fields["name"])
    if entry is None:
        fields.setdefault("kind", "gear")
        return fields
    fields.setdefault("kind", entry.kind)
    for key, value in (("damage", entry.damage), ("armour", entry.armour)):
        if fields.get(key) is None:
            fields[key] = value
    if not fields.get("notes"):
        fields["notes"] = entry.note[:1000]
    return fields
