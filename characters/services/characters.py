"""Character writes for the builder: create, import, edit details, add/change/remove traits
and equipment. Each call locks the character row, checks the version the page was loaded
at (two tabs: the later stale write is refused), writes, bumps the version and records the
change in the audit trail, all in one transaction."""

import dataclasses

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from characters import vocabulary
from characters.adapters import (
    DETAIL_FIELDS,
    base_ruleset,
    campaign_ruleset,
    character_base,
    character_to_rules,
    ledger_rows,
    read_options,
    rows_from_rules,
    ruleset_for,
    step_label,
    trait_state,
    trait_target,
)
from characters.errors import Locked, ServiceError
from characters.models import (
    LEVEL_MAX,
    LEVEL_MIN,
    Campaign,
    CatalogEntry,
    Character,
    Equipment,
    ExperienceEntry,
    Trait,
)
from characters.services.audit import (
    commit_change,
    ensure_build_as_recorded,
    lock_character,
    record_event,
    stored_build_sha256,
)
from characters.services.history import history_step, restore, snapshot
from characters.services.portraits import portrait_set
from characters.wording import SPEAKER, said
from rules.charfile import (
    MAX_NAME,
    MAX_ROWS,
    CharacterFileError,
    load_json,
    write_character,
)
from rules.foundry import CHANGED, FOUNDRY, LOST, Imported, parse_any, parse_data, picture_bytes
from rules.ladder import STANDARD
from rules.rulesets import BUILTIN, STANDARD_TERMS
from rules.templates import (
    apply_template,
    race_taken,
    raised_to,
    scale_now,
    taken,
    templates_for,
)
from rules.text import unstorable_problem
from rules.words import Level, Term, say

MAX_PARTY = 100  # characters in one party file: a campaign's whole cast and more

TEMPLATE_ROW_LISTS = ("attributes", "skills", "gifts", "faults")  # what a template may add to


def lock_for_edit(
    *, character: Character, expected_version: int | None, in_place: bool = False
) -> Character:
    """The character's row, locked for this transaction, if it may be edited now."""
    locked = lock_character(
        character=character, expected_version=expected_version, in_place=in_place
    )
    if locked.is_locked:
        raise Locked(
            (
                _(
                    "{name} is submitted: it cannot be edited now. Withdraw the submission to "
                    "make changes."
                )
                if locked.state == Character.State.SUBMITTED
                else _(
                    "{name} is approved: it cannot be edited now. An approved character "
                    "changes through advancement."
                )
            ).format(name=locked.name)
        )
    # The build before the edit, for its step in the undo history (audit.commit_change).
    locked.build_before = snapshot(locked)
    return locked


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


def default_attribute_names(ruleset_slug: str, campaign: Campaign | None) -> list[str]:
    if campaign is not None:
        names = list(
            campaign.catalog.filter(kind=CatalogEntry.Kind.ATTRIBUTE)
            .order_by("id")
            .values_list("name", flat=True)
        )
        if names:
            return names
    ruleset = base_ruleset(campaign) if campaign is not None else BUILTIN[ruleset_slug]
    # A fixed list (Mudge's seven), else the ruleset's suggested one for the player to edit.
    return list(ruleset.attribute_names or ruleset.catalog.attributes)


@transaction.atomic
def character_create(
    *,
    owner,
    name: str,
    campaign: Campaign | None = None,
    ruleset: str | None = None,
    concept: str = "",
) -> Character:
    """A new draft with every attribute of its ruleset (or campaign list) at its default."""
    if campaign is not None:
        if not campaign.has_member(owner):
            raise ServiceError(_("Join the campaign before making a character in it."))
        ruleset = campaign.base_ruleset
        rules = campaign_ruleset(campaign)
    elif ruleset not in BUILTIN:
        raise ServiceError(_("Choose a ruleset: {rulesets}.").format(rulesets=", ".join(BUILTIN)))
    else:
        rules = BUILTIN[ruleset]
    character = Character.objects.create(
        owner=owner,
        campaign=campaign,
        ruleset=ruleset,
        name=name,
        concept=concept,
        player=owner.get_username(),
    )
    Trait.objects.bulk_create(
        Trait(
            character=character,
            kind=Trait.Kind.ATTRIBUTE,
            name=attribute,
            level=rules.attribute_default,
            position=i,
        )
        for i, attribute in enumerate(default_attribute_names(ruleset, campaign))
    )
    record_event(
        character=character,
        actor=owner,
        action="character_created",
        after={"name": name, "ruleset": ruleset},
    )
    return character


def ruleset_name(slug: str) -> str:
    """A ruleset as people call it ("MicroFudged DIP"), never its slug."""
    return BUILTIN[slug].name if slug in BUILTIN else slug


@transaction.atomic
def character_import(
    *, owner, text: str | bytes, campaign: Campaign | None = None
) -> tuple[Character, Imported]:
    """A character file (the public contract), or a Foundry actor of the fudge-rpg system
    (best effort: `Imported.not_mapped` lists what it could not take), as a new draft.
    Nothing is saved if any part of the file is unreadable or does not fit the campaign."""
    try:
        imported = parse_any(text, **read_options(campaign))
    except CharacterFileError as error:
        raise ServiceError(_unreadable(error)) from None
    return _import(owner=owner, imported=imported, campaign=campaign)


@dataclasses.dataclass(frozen=True)
class PartyMember:
    """One entry of a party file and what became of it: a new draft, or why not."""

    index: int
    name: str
    character: Character | None = None
    imported: Imported | None = None
    refused: str = ""


def party_import(*, owner, text: str | bytes, campaign: Campaign | None = None):
    """A party file: a JSON array of character files or Foundry actors (or both), each
    imported as its own draft, or refused on its own, with the reason, while the others
    still come in. Returns a PartyMember per entry, in the file's order."""
    try:
        data = load_json(text)
    except CharacterFileError as error:
        raise ServiceError(_unreadable(error)) from None
    if not isinstance(data, list) or not data:
        raise ServiceError(_("A party file is a JSON list of characters: this one holds none."))
    if len(data) > MAX_PARTY:
        raise ServiceError(
            _("The party file holds {count} characters; import at most {most} at once.").format(
                count=len(data), most=MAX_PARTY
            )
        )
    if campaign is not None and not campaign.has_member(owner):
        raise ServiceError(_("Join the campaign before importing a character into it."))
    read_for = read_options(campaign)
    members = []
    for index, entry in enumerate(data):
        name = _entry_name(entry, index)
        try:
            with transaction.atomic():  # each its own: a refused one leaves the others
                imported = parse_data(entry, **read_for)
                character, imported = _import(owner=owner, imported=imported, campaign=campaign)
        except CharacterFileError as error:
            members.append(PartyMember(index, name, refused=_unreadable(error)))
        except ServiceError as error:
            members.append(PartyMember(index, name, refused=str(error)))
        else:
            members.append(PartyMember(index, character.name, character, imported))
    return members


def _unreadable(error: CharacterFileError) -> str:
    return _("The file cannot be read: {error}").format(error=said(error.phrase))


def is_party(text: str | bytes) -> bool:
    """A party file, a JSON list, rather than one character (a JSON object)."""
    return text.lstrip()[:1] in ("[", b"[")


def _entry_name(entry, index: int) -> str:
    name = entry.get("name") if isinstance(entry, dict) else None
    if isinstance(name, str) and name.strip() and unstorable_problem(name) is None:
        return name.strip()[:MAX_NAME]
    return _("Entry {number}").format(number=index + 1)


def create_from_rules(*, owner, value, campaign: Campaign | None) -> Character:
    """A new draft of `owner` holding `value` (an engine character: an imported file's, or
    a duplicated character's), its ledger too. The caller records how it came."""
    character = Character.objects.create(
        owner=owner,
        campaign=campaign,
        ruleset=value.ruleset,
        # Every field of the file (spec): a character outside a campaign keeps its house
        # rules, and the experience is the file's unless a ledger says otherwise (below).
        house_rules={} if campaign is not None else value.house_rules,
        name=value.name,
        player=value.player or owner.get_username(),
        concept=value.concept,
        race=value.race,
        scale_strength=value.scale_strength,
        scale_mass=value.scale_mass,
        meta_points=value.meta_points,
        experience=value.experience,
        notes=value.notes,
        personality=value.personality,
        foundry_ids=value.foundry_ids,
    )
    traits, equipment = rows_from_rules(character, value)
    try:
        with transaction.atomic():
            Trait.objects.bulk_create(traits)
    except IntegrityError:
        raise ServiceError(
            _("The file lists the same trait twice: remove the duplicate and import again.")
        ) from None
    Equipment.objects.bulk_create(equipment)
    if value.advancement:
        # The ledger comes along (spec, "Advancement"): the creation build stays what was
        # approved, and the unspent experience is what the ledger leaves.
        rows = ExperienceEntry.objects.bulk_create(
            ledger_rows(character, value.advancement, actor=owner)
        )
        character.experience = max(sum(row.amount for row in rows), 0)
        character.save(update_fields=["experience"])
    return character


def _import(*, owner, imported: Imported, campaign: Campaign | None):
    value = imported.character
    if campaign is None and value.ruleset not in BUILTIN:
        raise ServiceError(
            _(
                "This character plays {ruleset}, a game its GM designed: import it into a "
                "campaign that plays that game."
            ).format(ruleset=value.ruleset)
        )
    if campaign is not None:
        if not campaign.has_member(owner):
            raise ServiceError(_("Join the campaign before importing a character into it."))
        if value.ruleset != campaign.base_ruleset:
            raise ServiceError(
                _(
                    "This file is for {ruleset}, but {campaign} plays {plays}: change the "
                    "file's ruleset or import it elsewhere."
                ).format(
                    ruleset=said(Term(ruleset_name(value.ruleset), "ruleset")),
                    campaign=campaign.name,
                    plays=said(Term(ruleset_name(campaign.base_ruleset), "ruleset")),
                )
            )
        if value.house_rules and value.house_rules != campaign.house_rules:
            imported = imported.with_note(
                CHANGED,
                say(
                    "house_rules: {campaign}'s house rules apply, not the file's.",
                    campaign=campaign.name,
                ),
                first=True,
            )
    character = create_from_rules(owner=owner, value=value, campaign=campaign)
    if imported.image:
        imported = _with_portrait(character, owner, imported)
    record_event(
        character=character,
        actor=owner,
        action="character_imported",
        after={"name": value.name, "ruleset": value.ruleset}
        | (
            {"from": FOUNDRY, "not_mapped": list(imported.not_mapped)}
            if imported.source == FOUNDRY
            else {}
        ),
    )
    return character, imported


def _with_portrait(character: Character, owner, imported: Imported) -> Imported:
    """The actor's picture as the new character's portrait, drawn again like an upload; one
    the portrait rules refuse is left out and the report says why."""
    try:
        portrait_set(character=character, actor=owner, data=picture_bytes(imported.image))
    except ServiceError as error:
        return imported.with_note(
            LOST, say("img: the picture is not imported: {problem}", problem=str(error))
        )
    return imported


@transaction.atomic
def character_update_details(
    *, character: Character, actor, expected_version: int | None, **changes
) -> Character:
    locked = lock_for_edit(character=character, expected_version=expected_version)
    unknown = set(changes) - set(DETAIL_FIELDS)
    if unknown:
        raise ValueError(f"not a detail field: {sorted(unknown)}")
    before = {k: getattr(locked, k) for k in changes if getattr(locked, k) != changes[k]}
    if not before:
        return locked
    for key in before:
        setattr(locked, key, changes[key])
    commit_change(
        locked,
        fields=[*before],
        actor=actor,
        action="details_changed",
        before=before,
        after={k: changes[k] for k in before},
    )
    return locked


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
    _save_trait(row)
    record_event(
        character=character,
        actor=actor,
        action="trait_added",
        target=trait_target(row),
        after=trait_state(row),
        reason=f"comes with {gift.name}",
    )


@transaction.atomic
def trait_update(*, trait: Trait, actor, expected_version: int | None, **changes) -> Trait:
    """Change a trait. The builder's commonest write: when the caller read the character and
    its traits at the version it locks, the caller's copies are changed in place (the trait
    that comes back then belongs to the caller's character), else a copy read under the
    lock is."""
    locked = lock_for_edit(
        character=trait.character, expected_version=expected_version, in_place=True
    )
    if locked is not trait.character:  # the caller's copy is older than the row it locked
        trait = locked.traits.get(pk=trait.pk)
    before = trait_state(trait)
    was = {
        key: getattr(trait, key) for key, value in changes.items() if getattr(trait, key) != value
    }
    for key in was:
        setattr(trait, key, changes[key])
    after = trait_state(trait)
    if after == before:
        return trait
    try:
        _save_trait(trait, fields=list(was))
    except ServiceError:
        for key, value in was.items():  # refused: the caller's copy stays as committed
            setattr(trait, key, value)
        raise
    differing = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    action = "trait_relevelled" if differing == {"level"} else "trait_changed"
    commit_change(
        locked,
        actor=actor,
        action=action,
        target=trait_target(trait),
        before=before,
        after=after,
    )
    return trait


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
                reason=f"went with {trait.name}",
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
    _save_trait(trait)
    commit_change(
        locked,
        actor=actor,
        action="uncommitted_defined",
        target=trait_target(trait),
        after=trait_state(trait),
        reason=f"uncommitted trait {used + 1} of {ruleset.uncommitted_traits} "
        f"({ruleset.section('uncommitted')})",
        # An approved build's new digest: the record it is checked against from now on.
        build_sha256=stored_build_sha256(locked) if approved else "",
    )
    return trait


@transaction.atomic
def character_undo_edit(
    *, character: Character, actor, expected_version: int | None, redo: bool = False
) -> str:
    """Take back the newest edit in the builder's history (services.history), or with
    `redo` put back the last one taken back: a new recorded change, so the audit trail
    keeps both. Returns what was undone or redone, in the active language."""
    locked = lock_for_edit(character=character, expected_version=expected_version)
    del locked.build_before  # an undo is not a step of its own
    if locked.owner_id != actor.pk:
        raise ServiceError(_("Only the character's player undoes or redoes an edit."))
    step = history_step(locked, redo=redo)
    now = snapshot(locked)
    restore(locked, step.after if redo else step.before)
    commit_change(
        locked,
        actor=actor,
        action="edit_redone" if redo else "edit_undone",
        target=step.target,
        after={"edit": step.label},
        reason=f"{'redo' if redo else 'undo'} {step.label}",
    )
    if not redo:
        step.after = now
    step.undone = not redo
    step.version = locked.version
    step.save(update_fields=["after", "undone", "version"])
    return step_label(step)


def _add_trait(trait: Trait, *, actor, action: str, reason: str = "") -> None:
    """Save a new trait on its locked character, bump the version, record the event."""
    _save_trait(trait)
    commit_change(
        trait.character,
        actor=actor,
        action=action,
        target=trait_target(trait),
        after=trait_state(trait),
        reason=reason,
    )


def _save_trait(trait: Trait, *, fields=None) -> None:
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
        trait.save(update_fields=fields)  # the name stays: no clash to catch
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
                name=trait.name,
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


@transaction.atomic
def character_apply_template(
    *, character: Character, actor, expected_version: int | None, slug: str
) -> list[str]:
    """Raise the character to a Mudge 6.4 template's minimums (and take a race's gifts,
    faults and Scale). Returns what changed, one line each, for the player's message, in the
    active language; the record keeps them in English."""
    build_before = lock_for_edit(
        character=character, expected_version=expected_version
    ).build_before
    locked = (
        Character.objects.select_related("campaign")
        .prefetch_related("traits", "equipment")
        .get(pk=character.pk)
    )
    locked.build_before = build_before  # its step in the undo history
    ruleset = ruleset_for(locked)
    template = templates_for(ruleset).get(slug)
    if template is None:
        raise ServiceError(_("Choose one of the templates listed."))
    before = character_to_rules(locked)
    after = apply_template(before, template, ruleset)
    if after == before:
        return []
    ensure_room(
        locked,
        sum(len(getattr(after, k)) - len(getattr(before, k)) for k in TEMPLATE_ROW_LISTS),
    )
    events = []  # recorded after the version moves, so each carries the version after
    existing = {(t.kind, t.name.casefold()): t for t in locked.traits.all()}
    changed = []
    for kind, old_items, new_items in (
        (Trait.Kind.ATTRIBUTE, before.attributes, after.attributes),
        (Trait.Kind.SKILL, before.skills, after.skills),
    ):
        old_levels = {t.name.casefold(): t.level for t in old_items}
        for item in new_items:
            if old_levels.get(item.name.casefold()) == item.level:
                continue
            row = existing.get((kind, item.name.casefold()))
            old_state = trait_state(row) if row else None
            if row is None:
                row = Trait(
                    character=locked,
                    kind=kind,
                    name=item.name,
                    level=item.level,
                    difficulty=item.difficulty or "",
                    position=next_position(locked.traits.filter(kind=kind)),
                )
            row.level = item.level
            _save_trait(row)
            events.append(
                dict(
                    action="trait_relevelled" if old_state else "trait_added",
                    target=trait_target(row),
                    before=old_state,
                    after=trait_state(row),
                    reason=f"template {template.name}",
                )
            )
            changed.append(raised_to(item.name, row.level, ruleset.ladder))
    for kind, old_items, new_items in (
        (Trait.Kind.GIFT, before.gifts, after.gifts),
        (Trait.Kind.FAULT, before.faults, after.faults),
    ):
        for item in new_items[len(old_items) :]:
            # No cost: the catalogue prices it (Mudge 1.33's starred ones at 2), else 1.
            position = next_position(locked.traits.filter(kind=kind))
            row = Trait(character=locked, kind=kind, name=item.name, position=position)
            _save_trait(row)
            events.append(
                dict(
                    action="trait_added",
                    target=trait_target(row),
                    after=trait_state(row),
                    reason=f"template {template.name}",
                )
            )
            changed.append(taken(str(kind), item.name))
    details = {
        key: getattr(after, key)
        for key in ("race", "scale_strength", "scale_mass")
        if getattr(after, key) != getattr(locked, key)
    }
    if details:
        events.append(
            dict(
                action="details_changed",
                before={key: getattr(locked, key) for key in details},
                after=details,
                reason=f"template {template.name}",
            )
        )
        for key, value in details.items():
            setattr(locked, key, value)
        locked.save(update_fields=list(details))
        if "race" in details:
            changed.append(race_taken(template.name))
        if {"scale_strength", "scale_mass"} & details.keys():
            changed.append(scale_now(after.scale_strength, after.scale_mass))
    commit_change(
        locked,
        actor=actor,
        action="template_applied",
        target=f"template:{template.slug}",
        before={"file": write_character(before, character_base(locked).ladder)},
        after={"template": template.name, "changed": [str(line) for line in changed]},
        reason=f"template {template.name}",
    )
    for event in events:
        record_event(character=locked, actor=actor, **event)
    return [said(line) for line in changed]
