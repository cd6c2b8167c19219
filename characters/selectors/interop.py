"""Reads for interoperability: a user's API tokens, where an exported character stands (its
version, state and the GM's approval stamp) for a Foundry actor's notes and flags, and what
an actor exported from one of the user's characters (or a file sent to update one) would
change in it."""

import dataclasses
from dataclasses import dataclass

from django.shortcuts import get_object_or_404
from django.utils import translation

from characters.adapters import (
    character_base,
    character_to_rules,
    portrait_data_url,
    read_options,
    ruleset_for,
)
from characters.models import ApiToken, Character
from characters.selectors.review import said_change
from rules import character as rc
from rules.charfile import ROW_LISTS, CharacterFileError, load_json, write_character
from rules.diff import Change, diff_files
from rules.foundry import FLAG, FOUNDRY, Imported, Provenance, is_actor, parse_data, write_actor


def api_tokens_of(user):
    return ApiToken.objects.filter(user=user)


def api_token_for_owner(user, pk) -> ApiToken:
    """The user's own token; anyone else's is a 404."""
    return get_object_or_404(api_tokens_of(user), pk=pk)


def character_provenance(character: Character) -> Provenance:
    approval = character.approvals.select_related("approved_by").first()  # the latest
    stamp = {}
    if approval is not None:
        stamp = {
            "approved_version": approval.version,
            "sha256": approval.sha256,
            "approved_by": approval.approved_by.get_username(),
            "approved_on": approval.created_at.date().isoformat(),
        }
    return Provenance(
        character_id=character.pk,
        version=character.version,
        # The file is the same in every language: its state in English, as the rest of it.
        state=_english(character.get_state_display),
        **stamp,
    )


def foundry_actor(character: Character) -> dict:
    """The character as a Foundry actor (docs/foundry.md), as every export gives it: where it
    stands on the site, its designed ruleset's ladder, and its portrait."""
    return write_actor(
        character_to_rules(character),
        provenance=character_provenance(character),
        ruleset=character_base(character),
        image=portrait_data_url(character),
    )


# What a player may change at the table, in Foundry, without the GM's review: the diff's
# labels (rules.diff). Experience too, for a character with no ledger to keep in step.
PLAY_LABELS = frozenset(("meta points", "notes"))


@dataclass(frozen=True)
class FileUpdate:
    """A Foundry actor exported from one of the user's characters, or a file sent to update
    one, read back: the character it would become and what changed."""

    character: Character
    imported: Imported
    after: rc.Character  # the character as the update would leave it
    changes: tuple[Change, ...]

    @property
    def needs_review(self) -> bool:
        """An approved build changed beyond play: the GM reviews it again (docs/foundry.md)."""
        if self.character.state != Character.State.APPROVED:
            return False
        play = PLAY_LABELS | ({"experience"} if not self.character.ledger.exists() else set())
        return any(change.label not in play for change in self.changes)

    @property
    def said_changes(self) -> list:
        """The changes as the page says them, in the reader's language and the ruleset's
        words (a house rule by its label, with its values)."""
        before = write_character(character_to_rules(self.character))
        after = write_character(self.after)
        ruleset = ruleset_for(self.character)
        return [said_change(change, ruleset, before, after) for change in self.changes]


def foundry_update_for(user, text: str | bytes) -> FileUpdate | None:
    """The update a posted actor offers: one exported from a character the user owns
    (flags.fairsheet.character_id) and that still exists. None for anything else, a file
    that cannot be read included: it imports as a new character (or the import says why)."""
    try:
        data = load_json(text)
    except CharacterFileError:
        return None
    if not is_actor(data):
        return None
    site_id = _dict(_dict(data.get("flags")).get(FLAG)).get("character_id")
    if not isinstance(site_id, int) or isinstance(site_id, bool):
        return None
    character = (
        Character.objects.filter(owner=user, pk=site_id)
        .select_related("campaign")
        .prefetch_related("traits", "equipment", "ledger")
        .first()
    )
    if character is None:
        return None
    try:
        imported = parse_data(data, **read_options(character.campaign))
    except CharacterFileError:
        return None
    return file_update_of(character, imported)


def file_update_of(character: Character, imported: Imported) -> FileUpdate:
    before = character_to_rules(character)
    # What a file cannot change: the ruleset, the campaign's house rules and the ledger.
    after = dataclasses.replace(
        imported.character,
        ruleset=before.ruleset,
        house_rules=before.house_rules if character.campaign_id else imported.character.house_rules,
        advancement=before.advancement,
    )
    if imported.source != FOUNDRY:
        after = _with_foundry_ids(after, before)
    changes = diff_files(write_character(before), write_character(after))
    return FileUpdate(character, imported, after, tuple(changes))


def _with_foundry_ids(after: rc.Character, before: rc.Character) -> rc.Character:
    """A character file carries no Foundry ids: each row keeps the id of the row of its list
    and name it updates, and the character what Foundry gave it, so the next export still
    updates the actor's items in Foundry."""
    rows = {}
    for name in ROW_LISTS:
        ids = {row.name.casefold(): row.foundry_id for row in getattr(before, name)}
        rows[name] = tuple(
            dataclasses.replace(row, foundry_id=ids.get(row.name.casefold(), ""))
            for row in getattr(after, name)
        )
    return dataclasses.replace(
        after, **rows, foundry_ids=before.foundry_ids, foundry_kept=before.foundry_kept
    )


def _english(label) -> str:
    """`label()` untranslated, whatever language the request is in."""
    with translation.override(None):
        return str(label())


def _dict(value) -> dict:
    return value if isinstance(value, dict) else {}
