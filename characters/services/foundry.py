"""A Foundry actor exported from a character, brought back to update that character rather
than to make a copy (docs/foundry.md, "Update from Foundry"): one recorded change, accepted
by the owner, and the GM's review again when an approved build changed beyond play."""

import contextlib

from django.db import transaction
from django.utils.translation import gettext as _

from characters.adapters import (
    character_file,
    character_to_rules,
    file_sha256,
    portrait_bytes,
    read_options,
    rows_from_rules,
)
from characters.errors import NotAllowed, ServiceError
from characters.models import Character, Equipment, Trait
from characters.recorded import FROM_FOUNDRY
from characters.selectors.interop import FoundryUpdate, foundry_update_of
from characters.services.audit import commit_change, lock_character
from characters.services.portraits import portrait_set
from characters.services.review import submit_for_review
from characters.wording import said
from rules import character as rc
from rules.charfile import ROW_LISTS, CharacterFileError, write_character
from rules.foundry import FOUNDRY, parse_any, picture_bytes
from rules.words import say


@transaction.atomic
def character_update_from_foundry(
    *, character: Character, actor, text: str | bytes, expected_version: int | None
) -> FoundryUpdate:
    """Make `character` what the actor exported from it says now: its traits and equipment
    (each keeping its Foundry id), details, points and notes; its ruleset, the campaign's
    house rules and the experience ledger stay. Returns the update, changes and all."""
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the character's player updates it from Foundry."))
    if locked.state == Character.State.SUBMITTED:
        raise ServiceError(
            _(
                "{name} is waiting for the GM's review: withdraw the submission to update it "
                "from Foundry, or import the actor as a new character."
            ).format(name=locked.name)
        )
    try:
        imported = parse_any(text, **read_options(locked.campaign))
    except CharacterFileError as error:
        raise ServiceError(
            _("The file cannot be read: {error}").format(error=said(error.phrase))
        ) from None
    if imported.source != FOUNDRY or imported.character_id != locked.pk:
        raise ServiceError(
            _("This file was not exported from {name}: import it as a new character.").format(
                name=locked.name
            )
        )
    current = (
        Character.objects.select_related("campaign")
        .prefetch_related("traits", "equipment", "ledger")
        .get(pk=locked.pk)
    )
    update = foundry_update_of(current, imported)
    was = character_to_rules(current)
    if not update.changes and _foundry_ids(was) == _foundry_ids(update.after):
        _keep_picture(locked, actor, imported.image)
        return update
    before = write_character(was)
    locked.traits.all().delete()
    locked.equipment.all().delete()
    traits, equipment = rows_from_rules(locked, update.after)
    Trait.objects.bulk_create(traits)
    Equipment.objects.bulk_create(equipment)
    after = update.after
    values = {
        "name": after.name,
        "player": after.player,
        "concept": after.concept,
        "race": after.race,
        "scale_strength": after.scale_strength,
        "scale_mass": after.scale_mass,
        "meta_points": after.meta_points,
        "experience": after.experience,
        "notes": after.notes,
        "personality": after.personality,
        "foundry_ids": after.foundry_ids,
    }
    if locked.campaign_id is None:
        values["house_rules"] = after.house_rules
    for key, value in values.items():
        setattr(locked, key, value)
    commit_change(
        locked,
        fields=list(values),
        actor=actor,
        action="foundry_updated",
        before={"file": before},
        after={"file": write_character(after), "changes": [str(c) for c in update.changes]},
        reason=say(FROM_FOUNDRY),
    )
    if update.needs_review:
        data = character_file(locked)
        submit_for_review(locked, actor=actor, file=data, sha256=file_sha256(data))
    _keep_picture(locked, actor, imported.image)
    return update


def _keep_picture(character: Character, actor, image: str) -> None:
    """A picture changed in Foundry becomes the portrait; the one Fairsheet exported comes
    back as it went, and drawing it again would only blur it. One the portrait rules refuse
    leaves the portrait as it was."""
    data = picture_bytes(image) if image else b""
    if not data or data == portrait_bytes(character):
        return
    with contextlib.suppress(ServiceError):
        portrait_set(character=character, actor=actor, data=data)


def _foundry_ids(value: rc.Character) -> tuple:
    """Every Foundry id the character keeps: the ids alone count as no change of the build."""
    rows = tuple(row.foundry_id for name in ROW_LISTS for row in getattr(value, name))
    return (*rows, tuple(sorted(value.foundry_ids.items())))
