"""A character's portrait: set from an upload (characters.images draws the kept picture),
or removed. Its player sets it, in the builder, whatever the build's state: a picture is
not part of the approved build. Recorded in the audit trail by its SHA-256."""

import hashlib

from django.db import transaction
from django.utils.translation import gettext as _

from characters.errors import NotAllowed, ServiceError
from characters.images import PortraitRefused, portrait_from_upload
from characters.models import Character, Portrait
from characters.services.audit import commit_change, lock_character


def portrait_set(*, character: Character, actor, data: bytes) -> Portrait:
    """PortraitBusy (characters.errors) when no decoding slot came in time."""
    # Decoded before the transaction: no row lock or connection waits on a picture.
    try:
        content = portrait_from_upload(data)
    except PortraitRefused as error:
        raise ServiceError(str(error), field="portrait") from None
    with transaction.atomic():
        return _kept(character, actor, content)


def _kept(character: Character, actor, content: bytes) -> Portrait:
    locked = _lock(character, actor)
    before = Portrait.objects.filter(character=locked).values_list("sha256", flat=True).first()
    digest = hashlib.sha256(content).hexdigest()
    portrait, _ = Portrait.objects.update_or_create(
        character=locked, defaults={"content": content, "sha256": digest}
    )
    commit_change(
        locked,
        actor=actor,
        action="portrait_set",
        target="portrait",
        before={"sha256": before} if before else None,
        after={"sha256": digest},
    )
    return portrait


@transaction.atomic
def portrait_remove(*, character: Character, actor) -> None:
    locked = _lock(character, actor)
    before = Portrait.objects.filter(character=locked).values_list("sha256", flat=True).first()
    if before is None:
        raise ServiceError(_("{name} has no portrait.").format(name=locked.name))
    Portrait.objects.filter(character=locked).delete()
    commit_change(
        locked, actor=actor, action="portrait_removed", target="portrait", before={"sha256": before}
    )


def _lock(character: Character, actor) -> Character:
    locked = lock_character(character=character, expected_version=None)
    if locked.owner_id != actor.pk:
        raise NotAllowed(_("Only the character's player sets its portrait."))
    return locked
