"""Checks of the record against itself and against the rows it describes (issue 31), for
`manage.py verify_audit`: every event still hashes to what it recorded and names the hash
of the event before it (characters.audit_chain); a character's trail reaches its version;
every approved character's rows hash to the build its trail records, and its approval's
snapshot to the SHA-256 its `approved` event recorded. Reads only."""

from collections.abc import Iterator
from dataclasses import dataclass

from characters.adapters import build_changed, file_sha256, recorded_build_sha256
from characters.audit_chain import chain_key, event_hash
from characters.models import Campaign, CampaignEvent, Character, CharacterEvent
from characters.selectors.access import APPROVAL_RECORD, BUILD_ROWS

BATCH = 2000


@dataclass(frozen=True)
class Break:
    """Something on the record that does not hold: where, and what, in words."""

    where: str
    what: str

    def __str__(self) -> str:
        return f"{self.where}: {self.what}"


def audit_breaks() -> Iterator[Break]:
    """Every break of every chain and every approved build, chain by chain."""
    characters = {
        c.pk: c for c in Character.all_objects.only("pk", "name", "version", "campaign_id")
    }
    campaigns = {c.pk: c for c in Campaign.objects.only("pk", "name")}
    heads = {}
    for event, problem in _chain_breaks(CharacterEvent, heads):
        yield Break(_character_where(characters.get(event.character_id), event), problem)
    for pk, character in characters.items():
        last = heads.get(pk)
        if last is not None and last.version < character.version:
            yield Break(
                _character_where(character),
                f"its version is {character.version} but its trail ends at version "
                f"{last.version}: the newest events were deleted",
            )
    for event, problem in _chain_breaks(CampaignEvent, {}):
        campaign = campaigns.get(event.campaign_id)
        name = f"campaign {event.campaign_id}" + (f" ({campaign.name})" if campaign else "")
        yield Break(f"{name}, {_event_words(event)}", problem)
    yield from approved_build_breaks()


def approved_build_breaks() -> Iterator[Break]:
    approved = (
        Character.all_objects.filter(state=Character.State.APPROVED)
        .select_related("campaign")
        .prefetch_related(*BUILD_ROWS, *APPROVAL_RECORD)
        .order_by("pk")
    )
    for character in approved.iterator(chunk_size=200):
        where = _character_where(character)
        if not recorded_build_sha256(character):
            yield Break(where, "it is approved, but its trail records no approved build")
        elif build_changed(character):
            yield Break(
                where,
                "its build no longer matches the one its trail records (approved by the GM "
                "and changed only through Fairsheet since): it was changed behind the app",
            )
        approval = next(iter(character.approvals.all()), None)
        if approval is None:
            continue
        event = next((e for e in character.approval_events if e.version == approval.version), None)
        if event is None or event.after.get("sha256") != file_sha256(approval.snapshot):
            yield Break(
                where,
                f"the build kept with its approval of version {approval.version} does not "
                "match the SHA-256 its approval event recorded",
            )


def _chain_breaks(model, heads: dict) -> Iterator[tuple[object, str]]:
    """Walk every chain of `model` in id order; `heads` gets each chain's last event."""
    order = ("character_id" if model is CharacterEvent else "campaign_id", "id")
    for event in model.objects.order_by(*order).iterator(chunk_size=BATCH):
        key = chain_key(event)
        before = heads.get(key)
        expected_previous = before.record_hash if before is not None else ""
        if event.record_hash != event_hash(event, event.previous_hash):
            yield event, "it was changed after it was recorded (it no longer has its hash)"
        if event.previous_hash != expected_previous:
            if not event.previous_hash:
                yield event, "it is not linked to the events recorded before it"
            elif model.objects.filter(record_hash=event.previous_hash).exists():
                yield event, "it follows another event than the one recorded before it"
            else:
                yield (
                    event,
                    (
                        "the event recorded before it is missing: it was deleted, or rewritten "
                        "with a new hash"
                    ),
                )
        heads[key] = event


def _character_where(character, event=None) -> str:
    where = "character " + (
        f"{character.pk} ({character.name})" if character is not None else "(missing)"
    )
    return f"{where}, {_event_words(event)}" if event is not None else where


def _event_words(event) -> str:
    return f"event {event.pk} ({event.action.replace('_', ' ')}, {event.created_at:%Y-%m-%d %H:%M})"
