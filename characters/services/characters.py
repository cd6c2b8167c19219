"""Character writes for the builder: create, import, edit details, add/change/remove traits
and equipment. Each call locks the character row, checks the version the page was loaded
at (two tabs: the later stale write is refused), writes, bumps the version and records the
change in the audit trail, all in one transaction."""

from django.db import IntegrityError, transaction

from characters.adapters import campaign_ruleset, character_to_rules, rows_from_rules
from characters.models import Campaign, Character, Equipment, Membership, Trait
from characters.services import Locked, ServiceError, StaleWrite
from characters.services.audit import record_event, trait_state, trait_target
from rules.charfile import CharacterFileError, parse_character_json
from rules.rulesets import BUILTIN
from rules.templates import BY_SLUG, apply_template

DETAIL_FIELDS = (
    "name",
    "player",
    "concept",
    "race",
    "scale_strength",
    "scale_mass",
    "meta_points",
    "notes",
    "personality",
)


def lock_for_edit(*, character: Character, expected_version: int | None) -> Character:
    """The character's row, locked for this transaction, if it may be edited now."""
    locked = Character.objects.select_for_update().get(pk=character.pk)
    if expected_version is not None and locked.version != expected_version:
        raise StaleWrite(
            "This character was changed in another tab or window since you loaded it, so "
            "your change was not saved. Reload the page to see the latest version."
        )
    if locked.is_locked:
        raise Locked(
            f"{locked.name} is {locked.get_state_display().lower()}: it cannot be edited now. "
            + (
                "Withdraw the submission to make changes."
                if locked.state == Character.SUBMITTED
                else "An approved character changes through advancement."
            )
        )
    return locked


def bump_version(character: Character) -> None:
    character.version += 1
    character.save(update_fields=["version", "updated_at"])


def default_attribute_names(ruleset_slug: str, campaign: Campaign | None) -> list[str]:
    if campaign is not None:
        names = list(
            campaign.catalog.filter(kind="attribute").order_by("id").values_list("name", flat=True)
        )
        if names:
            return names
    ruleset = BUILTIN[ruleset_slug]
    return list(ruleset.attribute_names or ())


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
        if not Membership.objects.filter(campaign=campaign, user=owner).exists():
            raise ServiceError("Join the campaign before making a character in it.")
        ruleset = campaign.base_ruleset
        rules = campaign_ruleset(campaign)
    elif ruleset not in BUILTIN:
        raise ServiceError(f"Choose a ruleset: {', '.join(BUILTIN)}.")
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
            kind=Trait.ATTRIBUTE,
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


@transaction.atomic
def character_import(*, owner, text: str | bytes, campaign: Campaign | None = None) -> Character:
    """A character file (the public contract) as a new draft. Nothing is saved if any part
    of the file is unreadable or does not fit the campaign."""
    try:
        value = parse_character_json(text).character
    except CharacterFileError as error:
        raise ServiceError(f"The file cannot be read: {error}") from None
    if campaign is not None:
        if not Membership.objects.filter(campaign=campaign, user=owner).exists():
            raise ServiceError("Join the campaign before importing a character into it.")
        if value.ruleset != campaign.base_ruleset:
            raise ServiceError(
                f"This file is for {value.ruleset}, but {campaign.name} plays "
                f"{campaign.base_ruleset}: change the file's ruleset or import it elsewhere."
            )
    character = Character.objects.create(
        owner=owner,
        campaign=campaign,
        ruleset=value.ruleset,
        name=value.name,
        player=value.player or owner.get_username(),
        concept=value.concept,
        race=value.race,
        scale_strength=value.scale_strength,
        scale_mass=value.scale_mass,
        meta_points=value.meta_points,
        notes=value.notes,
        personality=value.personality,
    )
    traits, equipment = rows_from_rules(character, value)
    try:
        with transaction.atomic():
            Trait.objects.bulk_create(traits)
    except IntegrityError:
        raise ServiceError(
            "The file lists the same trait twice: remove the duplicate and import again."
        ) from None
    Equipment.objects.bulk_create(equipment)
    record_event(
        character=character,
        actor=owner,
        action="character_imported",
        after={"name": value.name, "ruleset": value.ruleset},
    )
    return character


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
    locked.version += 1
    locked.save(update_fields=[*before, "version", "updated_at"])
    record_event(
        character=locked,
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
    position = locked.traits.filter(kind=kind).count()
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
    _save_trait(trait)
    bump_version(locked)
    record_event(
        character=locked,
        actor=actor,
        action="trait_added",
        target=trait_target(trait),
        after=trait_state(trait),
    )
    return trait


@transaction.atomic
def trait_update(*, trait: Trait, actor, expected_version: int | None, **changes) -> Trait:
    locked = lock_for_edit(character=trait.character, expected_version=expected_version)
    trait = Trait.objects.get(pk=trait.pk, character=locked)
    before = trait_state(trait)
    for key, value in changes.items():
        setattr(trait, key, value)
    after = trait_state(trait)
    if after == before:
        return trait
    _save_trait(trait)
    bump_version(locked)
    differing = {k for k in before.keys() | after.keys() if before.get(k) != after.get(k)}
    action = "trait_relevelled" if differing == {"level"} else "trait_changed"
    record_event(
        character=locked,
        actor=actor,
        action=action,
        target=trait_target(trait),
        before=before,
        after=after,
    )
    return trait


@transaction.atomic
def trait_remove(*, trait: Trait, actor, expected_version: int | None) -> None:
    locked = lock_for_edit(character=trait.character, expected_version=expected_version)
    trait = Trait.objects.get(pk=trait.pk, character=locked)
    before = trait_state(trait)
    target = trait_target(trait)
    trait.delete()
    bump_version(locked)
    record_event(
        character=locked, actor=actor, action="trait_removed", target=target, before=before
    )


def _save_trait(trait: Trait) -> None:
    try:
        with transaction.atomic():  # a savepoint, so a clash leaves the outer write usable
            trait.save()
    except IntegrityError:
        raise ServiceError(
            f"{trait.character.name} already has the {trait.kind} {trait.name}: change its "
            "level instead, or give this one another name."
        ) from None


def equipment_state(item: Equipment) -> dict:
    state = {"name": item.name, "kind": item.kind}
    for key in ("damage", "armour"):
        if getattr(item, key) is not None:
            state[key] = getattr(item, key)
    if item.notes:
        state["notes"] = item.notes
    return state


@transaction.atomic
def equipment_add(
    *, character: Character, actor, expected_version: int | None, **fields
) -> Equipment:
    locked = lock_for_edit(character=character, expected_version=expected_version)
    item = Equipment.objects.create(character=locked, position=locked.equipment.count(), **fields)
    bump_version(locked)
    record_event(
        character=locked,
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
    bump_version(locked)
    record_event(
        character=locked,
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
    bump_version(locked)
    record_event(
        character=locked,
        actor=actor,
        action="equipment_removed",
        target=f"equipment:{before['name']}",
        before=before,
    )


@transaction.atomic
def character_delete(*, character: Character, actor) -> None:
    locked = lock_for_edit(character=character, expected_version=None)
    if locked.approvals.exists():
        raise ServiceError("An approved character is part of the campaign record: ask the GM.")
    locked.delete()


@transaction.atomic
def character_apply_template(
    *, character: Character, actor, expected_version: int | None, slug: str
) -> list[str]:
    """Raise the character to a Mudge 6.4 template's minimums (and take a race's gifts,
    faults and Scale). Returns what changed, one line each, for the player's message."""
    template = BY_SLUG.get(slug)
    if template is None:
        raise ServiceError("Choose one of the templates listed.")
    locked = lock_for_edit(character=character, expected_version=expected_version)
    locked = Character.objects.prefetch_related("traits", "equipment").get(pk=locked.pk)
    before = character_to_rules(locked)
    after = apply_template(before, template)
    existing = {(t.kind, t.name.casefold()): t for t in locked.traits.all()}
    changed = []
    for kind, old_items, new_items in (
        (Trait.ATTRIBUTE, before.attributes, after.attributes),
        (Trait.SKILL, before.skills, after.skills),
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
                    position=len(old_items) + len(changed),
                )
            row.level = item.level
            _save_trait(row)
            record_event(
                character=locked,
                actor=actor,
                action="trait_relevelled" if old_state else "trait_added",
                target=trait_target(row),
                before=old_state,
                after=trait_state(row),
                reason=f"template {template.name}",
            )
            changed.append(f"{item.name} {trait_state(row)['level']}")
    for kind, old_items, new_items in (
        (Trait.GIFT, before.gifts, after.gifts),
        (Trait.FAULT, before.faults, after.faults),
    ):
        for item in new_items[len(old_items) :]:
            row = Trait(
                character=locked, kind=kind, name=item.name, cost=1, position=len(old_items)
            )
            _save_trait(row)
            record_event(
                character=locked,
                actor=actor,
                action="trait_added",
                target=trait_target(row),
                after=trait_state(row),
                reason=f"template {template.name}",
            )
            changed.append(f"{kind} {item.name}")
    if template.kind == "race" and locked.race != template.name:
        record_event(
            character=locked,
            actor=actor,
            action="details_changed",
            before={"race": locked.race},
            after={"race": template.name},
            reason=f"template {template.name}",
        )
        locked.race = template.name
        locked.save(update_fields=["race"])
        changed.append(f"race {template.name}")
    if changed:
        bump_version(locked)
    return changed
