"""Character files in: import a character file or a Foundry actor as a new draft, or a
party file (a list of them), each entry its own draft or refused on its own."""

import dataclasses

from django.db import transaction
from django.utils.translation import gettext as _

from characters.adapters import base_ruleset, read_options, with_rules_keys
from characters.errors import ServiceError
from characters.models import Campaign, Character, ruleset_name
from characters.services.audit import record_event
from characters.services.characters import create_from_rules
from characters.services.portraits import portrait_set
from characters.wording import said
from rules.character import Npc
from rules.charfile import MAX_NAME, CharacterFileError, load_json
from rules.foundry import CHANGED, FOUNDRY, LOST, Imported, parse_any, parse_data, picture_bytes
from rules.rulesets import BUILTIN
from rules.text import unstorable_problem
from rules.words import Term, say

MAX_PARTY = 100  # characters in one party file: a campaign's whole cast and more


@transaction.atomic
def character_import(
    *, owner, text: str | bytes, campaign: Campaign | None = None, as_npc: bool = False
) -> tuple[Character, Imported]:
    """A character file (the public contract), or a Foundry actor of the fudge-rpg system
    (best effort: `Imported.not_mapped` lists what it could not take), as a new draft.
    Nothing is saved if any part of the file is unreadable or does not fit the campaign.
    `as_npc`: the campaign's GM imports it as an NPC, whether or not the file says so (its
    `npc` section, when it has one, says how)."""
    try:
        imported = parse_any(text, **read_options(campaign))
    except CharacterFileError as error:
        raise ServiceError(_unreadable(error)) from None
    if as_npc:
        if campaign is None or campaign.gm_id != owner.pk:
            raise ServiceError(_("Only the campaign's GM makes its NPCs."))
        value = imported.character
        imported = dataclasses.replace(
            imported, character=dataclasses.replace(value, npc=value.npc or Npc())
        )
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
    # A file written with the names of another language keeps the rules' keys.
    value = with_rules_keys(value, base_ruleset(campaign) if campaign else BUILTIN[value.ruleset])
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
        lines={"not_mapped": imported.phrases} if imported.source == FOUNDRY else None,
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
