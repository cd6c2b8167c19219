"""Share links: a read-only link to a character's sheet (HTML and PDF) for people without an
account. Its player makes one (one live link at a time) and revokes it; the audit trail
records both, never the token itself."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from characters.errors import NotAllowed, ServiceError
from characters.models import Character, ShareLink
from characters.services.audit import lock_character, record_event


@transaction.atomic
def share_link_create(*, character: Character, actor) -> ShareLink:
    locked = lock_character(character=character, expected_version=None)
    if locked.owner_id != actor.pk:
        raise NotAllowed("Only the character's player shares it.")
    if locked.share_links.filter(revoked_at__isnull=True).exists():
        raise ServiceError(
            _("{name} has a share link already: revoke it to make a new one.").format(
                name=locked.name
            )
        )
    link = ShareLink.objects.create(character=locked, created_by=actor)
    record_event(
        character=locked,
        actor=actor,
        action="share_link_created",
        target="share_link",
        after={"link": link.pk},
    )
    return link


@transaction.atomic
def share_link_revoke(*, link: ShareLink, actor) -> None:
    """The link stops working at once: a plain 404 from then on."""
    locked = lock_character(character=link.character, expected_version=None)
    if locked.owner_id != actor.pk:
        raise NotAllowed("Only the character's player revokes its share link.")
    revoked = ShareLink.objects.filter(pk=link.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if revoked:
        record_event(
            character=locked,
            actor=actor,
            action="share_link_revoked",
            target="share_link",
            before={"link": link.pk},
        )


def share_links_revoke_all(character: Character) -> None:
    """Archiving or deleting a character ends its links (inside the caller's transaction)."""
    character.share_links.filter(revoked_at__isnull=True).update(revoked_at=timezone.now())


def share_link_opened(link: ShareLink) -> None:
    """When it was last opened and how often, for its player: one UPDATE, no lock."""
    ShareLink.objects.filter(pk=link.pk).update(
        last_opened_at=timezone.now(), opened_count=F("opened_count") + 1
    )


@transaction.atomic
def share_link_frame_origins_set(*, link: ShareLink, origins: list[str], actor) -> None:
    """The sites that may show the shared sheet in a frame (forms.sharing.frame_origin made
    each one an https origin): from the next request on, its pages say so to browsers."""
    locked = lock_character(character=link.character, expected_version=None)
    if locked.owner_id != actor.pk:
        raise NotAllowed("Only the character's player sets where its sheet may be framed.")
    live = ShareLink.objects.select_for_update().filter(pk=link.pk, revoked_at__isnull=True)
    before = live.values_list("frame_origins", flat=True).first()
    if before is None:
        raise ServiceError(_("The link was revoked: make a new one to share the sheet."))
    if before == origins:
        return
    live.update(frame_origins=origins)
    record_event(
        character=locked,
        actor=actor,
        action="share_link_framing_changed",
        target="share_link",
        before={"link": link.pk, "origins": before},
        after={"link": link.pk, "origins": origins},
    )
