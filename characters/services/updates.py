"""A character updated in place from a file rather than copied: a Foundry actor exported from
it, brought back through the import page (docs/foundry.md, "Update from Foundry"), or a
character file or actor sent to its address over the API (docs/api.md, `PUT`). One recorded
change, made by the owner, and the GM's review again when an approved build changed beyond
play."""

import contextlib
import json

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
from characters.models import Character, Equipment, Trait, ruleset_name
from characters.recorded import FROM_FILE, FROM_FOUNDRY
from characters.selectors.interop import FileUpdate, file_update_of
from characters.services.audit import commit_change, lock_character
from characters.services.portraits import portrait_set
from characters.services.review import submit_for_review
from characters.wording import said
from rules import character as rc
from rules.charfile import ROW_LISTS, CharacterFileError, write_character
from rules.foundry import FOUNDRY, Imported, parse_any, picture_bytes
from rules.words import Term, say


@transaction.atomic
def character_update_from_foundry(
    *, character: Character, actor, text: str | bytes, expected_version: int | None
) -> FileUpdate:
    """Make `character` what the actor exported from it says now: its traits and equipment
    (each keeping its Foundry id), details, points and notes; its ruleset, the campaign's
    house rules and the experience ledger stay. Returns the update, changes and all."""
    return _update(character, actor, text, expected_version, exported_only=True)


@transaction.atomic
def character_update_from_file(
    *, character: Character, actor, text: str | bytes, expected_version: int | None
) -> FileUpdate:
    """The same for a character file, or a Foundry actor, sent to the character's own address
    (the API's PUT): an actor made in Foundry updates it too, one exported from another
    character is refused. A file keeps the Foundry ids the character had."""
    return _update(character, actor, text, expected_version, exported_only=False)


def _update(character, actor, text, expected_version, *, exported_only: bool) -> FileUpdate:
    locked = lock_character(character=character, expected_version=expected_version)
    if locked.owner_id != actor.pk:
        raise NotAllowed(
            _("Only the character's player updates it from Foundry.")
            if exported_only
            else _("Only the character's player updates it.")
        )
    if locked.state == Character.State.SUBMITTED:
        raise ServiceError(
            _(
                "{name} is waiting for the GM's review: withdraw the submission to update it "
                "from Foundry, or import the actor as a new character."
            ).format(name=locked.name)
            if exported_only
            else _(
                "{name} is waiting for the GM's review: withdraw the submission to update it, "
                "or import the file as a new character."
            ).format(name=locked.name)
        )
    try:
        imported = parse_any(text, **read_options(locked.campaign))
    except CharacterFileError as error:
        raise ServiceError(
            _("The file cannot be read: {error}").format(error=said(error.phrase))
        ) from None
    current = (
        Character.objects.select_related("campaign")
        .prefetch_related("traits", "equipment", "ledger")
        .get(pk=locked.pk)
    )
    was = character_to_rules(current)
    _check_source(locked, imported, was, exported_only=exported_only)
    update = file_update_of(current, imported)
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
        "foundry_kept": after.foundry_kept,
    }
    if locked.campaign_id is None:
        values["house_rules"] = after.house_rules
    for key, value in values.items():
        setattr(locked, key, value)
    from_foundry = imported.source == FOUNDRY
    commit_change(
        locked,
        fields=list(values),
        actor=actor,
        action="foundry_updated" if from_foundry else "file_updated",
        before={"file": before},
        after={"file": write_character(after), "changes": [str(c) for c in update.changes]},
        reason=say(FROM_FOUNDRY if from_foundry else FROM_FILE),
    )
    if update.needs_review:
        data = character_file(locked)
        submit_for_review(locked, actor=actor, file=data, sha256=file_sha256(data))
    _keep_picture(locked, actor, imported.image)
    return update


def _check_source(
    character: Character, imported: Imported, was: rc.Character, *, exported_only: bool
) -> None:
    """Whether the file may update the character: an actor exported from it (or, over the
    API, one that names no character), or a character file of its ruleset."""
    if imported.source == FOUNDRY:
        if imported.character_id == character.pk:
            return
        if imported.character_id is None and not exported_only:
            return
    elif not exported_only:
        if imported.character.ruleset == was.ruleset:
            return
        raise ServiceError(
            _(
                "This file is for {ruleset}, but {name} plays {plays}: change the file's "
                "ruleset or import it as a new character."
            ).format(
                ruleset=said(Term(ruleset_name(imported.character.ruleset), "ruleset")),
                name=character.name,
                plays=said(Term(ruleset_name(was.ruleset), "ruleset")),
            )
        )
    raise ServiceError(
        _("This file was not exported from {name}: import it as a new character.").format(
            name=character.name
        )
    )


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
    """What the character keeps of Foundry's: its ids and the rest (rules.character's
    foundry_kept) alone count as no change of the build, but are saved when they change."""
    rows = tuple(row.foundry_id for name in ROW_LISTS for row in getattr(value, name))
    kept = json.dumps(value.foundry_kept, sort_keys=True)
    return (*rows, tuple(sorted(value.foundry_ids.items())), kept)
