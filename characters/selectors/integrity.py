"""Checks of the record against itself and against the rows it describes (issue 31), for
`manage.py verify_audit`: every event still hashes to what it recorded, names the hash of
the event before it and carries a MAC the audit key gives it (characters.audit_chain), and
the character or campaign it names still exists; a character's trail reaches its version,
and its row names the trail's newest event as its head;
each chain still extends the heads exported earlier (`manage.py audit_heads`); every
approved character's rows hash to the build its trail records, and its approval's snapshot
to the SHA-256 its `approved` event recorded. Reads only."""

from collections.abc import Iterator
from dataclasses import dataclass

from django.db.models import Max

from characters.adapters import (
    build_changed,
    file_sha256,
    record_forged,
    recorded_build_sha256,
)
from characters.audit_chain import chain_key, event_hash, mac_holds, mac_problem, stamp_read
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


def audit_breaks(exported_heads: list[dict] | None = None) -> Iterator[Break]:
    """Every break of every chain and every approved build, chain by chain; with
    `exported_heads` (chain_heads' output, kept outside the database), every chain that no
    longer extends its head there."""
    characters = {
        c.pk: c
        for c in Character.all_objects.only("pk", "name", "version", "campaign_id", "audit_head")
    }
    campaigns = {c.pk: c for c in Campaign.objects.only("pk", "name")}
    heads = {}
    for event, problem in _chain_breaks(CharacterEvent, heads, characters):
        yield Break(_character_where(characters.get(event.character_id), event), problem)
    for pk, character in characters.items():
        last = heads.get(pk)
        if last is not None and last.version < character.version:
            yield Break(
                _character_where(character),
                f"its version is {character.version} but its trail ends at version "
                f"{last.version}: the newest events were deleted",
            )
        # The head the next write links to (services.audit): one that is not the newest
        # event's hash would link that write after another event, or after none.
        elif character.audit_head != (last.record_hash if last is not None else ""):
            yield Break(
                _character_where(character),
                "its trail's head is not its newest event: the next change would be linked "
                "after the wrong event",
            )
    for event, problem in _chain_breaks(CampaignEvent, {}, campaigns):
        yield Break(_campaign_where(campaigns.get(event.campaign_id), event), problem)
    if exported_heads is not None:
        yield from head_breaks(exported_heads)
    yield from approved_build_breaks()


# -- the heads of the chains, kept outside the database ------------------------------------------

CHAIN_MODELS = {"character": CharacterEvent, "campaign": CampaignEvent}


def chain_heads() -> list[dict]:
    """Every chain's newest event: its chain ("character:12", "campaign:3"), id and MAC. Kept
    outside the database, these show a chain rewritten or cut short since (head_breaks)."""
    found = []
    for kind, model in CHAIN_MODELS.items():
        owner = f"{kind}_id"
        newest = model.objects.values(owner).annotate(newest=Max("id")).values("newest")
        for pk, chain, mac in (
            model.objects.filter(pk__in=newest).order_by(owner).values_list("pk", owner, "mac")
        ):
            found.append({"chain": f"{kind}:{chain}", "event": pk, "mac": mac})
    return found


def head_breaks(exported: list[dict]) -> Iterator[Break]:
    """Each chain whose exported head is no longer in it as it was exported: the owner cut
    the chain short, or rewrote it (a rewritten event has another MAC)."""
    for head in exported:
        kind, _, number = str(head.get("chain", "")).partition(":")
        model = CHAIN_MODELS.get(kind)
        if model is None or not number.isdigit() or not str(head.get("event", "")).isdigit():
            yield Break(f"exported head {head!r}", "it names no chain: is this file a head export?")
            continue
        event = model.objects.filter(pk=head["event"], **{f"{kind}_id": number}).first()
        where = f"{kind} {number}, event {head['event']} (its head when exported)"
        if event is None:
            yield Break(
                where,
                "the chain no longer reaches it: it was cut short or rewritten since the heads "
                "were exported",
            )
        elif event.mac != head.get("mac"):
            yield Break(where, "its MAC is not the one exported: the chain was rewritten since")


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
        elif record_forged(character):
            yield Break(
                where,
                "an event its approval rests on has no MAC this server verifies (listed "
                "above): it is not approved until the GM looks at it again",
            )
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


def _chain_breaks(model, heads: dict, named: dict) -> Iterator[tuple[object, str]]:
    """Walk every chain of `model` in id order; `heads` gets each chain's last event. `named`:
    the characters (or campaigns) there are, by id."""
    order = ("character_id" if model is CharacterEvent else "campaign_id", "id")
    for event in model.objects.order_by(*order).iterator(chunk_size=BATCH):
        key = chain_key(event)
        before = heads.get(key)
        expected_previous = before.record_hash if before is not None else ""
        if key not in named:
            what = "character" if model is CharacterEvent else "campaign"
            yield event, f"the {what} it names is gone: renumbered or deleted behind the app"
        if event.record_hash != event_hash(event, event.previous_hash):
            yield event, "it was changed after it was recorded (it no longer has its hash)"
        elif problem := mac_problem(event):
            yield event, problem
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
        f"{character.pk} ({character.name})"
        if character is not None
        else f"{event.character_id} (missing)"
    )
    return f"{where}, {_event_words(event)}" if event is not None else where


def _campaign_where(campaign, event) -> str:
    where = "campaign " + (
        f"{campaign.pk} ({campaign.name})"
        if campaign is not None
        else f"{event.campaign_id} (missing)"
    )
    return f"{where}, {_event_words(event)}"


def _event_words(event) -> str:
    return f"event {event.pk} ({event.action.replace('_', ' ')}, {event.created_at:%Y-%m-%d %H:%M})"


# -- a printed approval stamp ---------------------------------------------------------------------


@dataclass(frozen=True)
class StampCheck:
    """What a stamp's code names, when this server issued it for a character the viewer plays
    or runs: the approval, and whether it is still the character's standing approval."""

    character: Character
    event: CharacterEvent
    current: bool


def stamp_check(user, code: str) -> StampCheck | None:
    """The approval a printed stamp's code (audit_chain.stamp_code) names, for its player or
    its GM; None for any code that is not one (made up, altered, of another character, or of
    an `approved` event that is not on record with its MAC), so the answer tells nobody else
    anything."""
    named = stamp_read(code)
    if named is None:
        return None
    character_id, version, event_id = named
    character = (
        Character.objects.visible_to(user)
        .select_related("campaign__gm", "owner")
        .prefetch_related(*BUILD_ROWS, *APPROVAL_RECORD)
        .filter(pk=character_id)
        .first()
    )
    if character is None:
        return None
    event = next((e for e in character.approval_events if e.pk == event_id), None)
    if event is None or event.version != version or not mac_holds(event):
        return None
    newest = next(iter(character.approvals.all()), None)
    current = (
        character.state == Character.State.APPROVED
        and newest is not None
        and newest.version == version
        and not build_changed(character)
    )
    return StampCheck(character, event, current)
