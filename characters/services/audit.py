"""The audit trails, a character's and a campaign's: what changed, by whom, before and after.
Called by the service that makes the change, inside its transaction, so a change and its event
commit or roll back together. A write to a character starts with lock_character and ends
with commit_change: one lock, one version step, one event at the version after."""

from characters.errors import StaleWrite
from characters.models import Campaign, CampaignEvent, Character, CharacterEvent


def lock_character(
    *, character: Character, expected_version: int | None, in_place: bool = False
) -> Character:
    """The character's row, locked for this transaction and checked against the version the
    page was loaded at, whatever its state: each caller checks the state it needs.

    A copy read under the lock comes back. With `in_place`, the caller's own copy does
    when it was read at the version now locked: every write moves the version, so it is the
    committed row, prefetched rows and all, and the lock reads one number. A caller that
    asks for this changes the copy it holds and puts it back if the write is refused."""
    locked = Character.objects.select_for_update(of=("self",))
    if in_place:
        version = locked.values_list("version", flat=True).get(pk=character.pk)
        if version == character.version:
            _check_version(character, expected_version)
            return character
    locked = locked.select_related("campaign", "owner").get(pk=character.pk)
    _check_version(locked, expected_version)
    return locked


def _check_version(locked: Character, expected_version: int | None) -> None:
    if expected_version is not None and locked.version != expected_version:
        raise StaleWrite(
            f"{locked.name} was changed in another tab or window since you loaded this page, "
            "so nothing was saved. Reload the page to see the latest version."
        )


def record_event(
    *,
    character: Character,
    actor,
    action: str,
    target: str = "",
    before=None,
    after=None,
    reason: str = "",
) -> CharacterEvent:
    event = CharacterEvent.objects.create(
        character=character,
        actor=actor,
        action=action,
        target=target,
        before=before,
        after=after,
        version=character.version,
        reason=reason,
    )
    character.latest_event = event
    return event


def record_campaign_event(
    *,
    campaign: Campaign,
    actor,
    action: str,
    target: str = "",
    before=None,
    after=None,
    reason: str = "",
) -> CampaignEvent:
    """One line of the campaign's history (house rules, settings, catalogue, members, invite).
    `before` and `after` are JSON: never a secret such as the invite code."""
    return CampaignEvent.objects.create(
        campaign=campaign,
        actor=actor,
        action=action,
        target=target,
        before=before,
        after=after,
        reason=reason,
    )


def commit_change(
    character: Character, *, actor, action: str, fields=(), **event
) -> CharacterEvent:
    """How every write to a locked character ends: its version goes up once, saved with the
    fields the write changed, and the event records the version after the change (the one
    a page loaded now would carry)."""
    character.version += 1
    character.save(update_fields=[*fields, "version", "updated_at"])
    return record_event(character=character, actor=actor, action=action, **event)
