"""A table with every kind of line Fairsheet stores for a person to read later (issue 38): each
spend, award, refund and conversion on a ledger; every reason and recorded change the
services write on a character's and a campaign's audit trail (an undo and a redo, a
template, a gift that brings an attribute, an uncommitted trait, a copy, a Foundry update
and import, a share link, a portrait); an undo step's label; the notes of play at the
table; the notifications. Made through the services, as the app makes them."""

import copy
import io
import json
from pathlib import Path

from django.contrib.auth import get_user_model
from PIL import Image

from characters.adapters import character_base, character_file, character_to_rules
from characters.models import Campaign, CatalogEntry, Character, Membership, Trait
from characters.selectors.advancement import BUY_OFF_FAULT, GIFT, LEARN, META_POINT, RAISE
from characters.selectors.interop import character_provenance
from characters.services.advancement import (
    experience_award,
    experience_spend,
    fudge_points_convert,
    meta_points_grant,
    meta_points_spend,
    spend_accept,
    spend_take_back,
)
from characters.services.campaigns import (
    campaign_regenerate_invite,
    campaign_update_house_rules,
    campaign_update_settings,
    catalog_entry_add,
    catalog_entry_remove,
    catalog_entry_update,
)
from characters.services.character_files import character_import
from characters.services.characters import character_create
from characters.services.keeping import character_duplicate
from characters.services.play import (
    play_blow_record,
    play_condition_add,
    play_points_spend,
    play_rest,
)
from characters.services.portraits import portrait_remove, portrait_set
from characters.services.review import character_approve, character_submit
from characters.services.rows import (
    equipment_add,
    trait_add,
    trait_define_uncommitted,
    trait_remove,
    trait_update,
)
from characters.services.sharing import share_link_create, share_link_revoke
from characters.services.templates import character_apply_template
from characters.services.undo import character_undo_edit
from characters.services.updates import character_update_from_foundry
from rules.foundry import write_actor
from rules.ladder import FAIR, GOOD, GREAT

BROGO = Path(__file__).resolve().parents[2] / "rules" / "samples" / "brogo.json"
CLIMB = "Climbing"  # a built-in skill: said in the reader's language by its rules name


def _picture() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (64, 64), (200, 30, 30)).save(out, "PNG")
    return out.getvalue()


def _approve(character: Character, gm) -> None:
    character_submit(character=character, actor=character.owner, expected_version=None)
    character_approve(
        character=character, actor=gm, expected_version=None, override_reason="For the table"
    )


def _mudge_hero(campaign: Campaign, player, gm) -> Character:
    hero = character_create(owner=player, name="Hero", campaign=campaign)
    add = {"character": hero, "actor": player, "expected_version": None}
    trait_add(**add, kind=Trait.Kind.SKILL, name="Stealth", level=GOOD)
    trait_add(**add, kind=Trait.Kind.SKILL, name=CLIMB, level=FAIR, difficulty="average")
    trait_add(**add, kind=Trait.Kind.FAULT, name="Greedy", cost=1)
    trait_add(**add, kind=Trait.Kind.GIFT, name="Magery", cost=1)  # comes with Mana
    equipment_add(**add, name="Sword", kind="weapon", damage=2)
    # An edit, its undo and its redo: an undo step and two recorded reasons.
    stealth = hero.traits.get(name="Stealth")
    trait_update(trait=stealth, actor=player, expected_version=None, level=GREAT)
    character_undo_edit(character=hero, actor=player, expected_version=None)
    character_undo_edit(character=hero, actor=player, expected_version=None, redo=True)
    character_undo_edit(character=hero, actor=player, expected_version=None)
    _approve(hero, gm)
    hero.refresh_from_db()
    # The ledger: an award, spends of each kind, one asked of the GM, one taken back.
    experience_award(character=hero, actor=gm, amount=40, reason="First session")
    spend = {"character": hero, "actor": player, "expected_version": None}
    experience_spend(**spend, what=RAISE, trait=hero.traits.get(name="Stealth"))
    experience_spend(**spend, what=RAISE, trait=hero.traits.get(name=CLIMB))
    experience_spend(**spend, what=LEARN, kind="skill", name="Swimming", difficulty="easy")
    request = experience_spend(**spend, what=GIFT, name="Lantern-lore")
    spend_accept(entry=request, actor=gm)
    experience_spend(**spend, what=META_POINT)
    spend_take_back(character=hero, actor=player, expected_version=None)
    meta_points_spend(**spend, reason="Dodged the troll")
    meta_points_grant(character=hero, actor=gm, expected_version=None, reason="Good play")
    trait_define_uncommitted(
        character=hero, actor=gm, expected_version=None, name="Riding", level=FAIR
    )
    # At the table: a blow, a condition, a point spent, a rest.
    at_table = {"character": hero, "actor": player, "expected_revision": None}
    play_blow_record(character=hero, actor=player, damage=2)
    play_condition_add(**at_table, text="Dazed")
    play_points_spend(**at_table)
    play_rest(**at_table, rest="after-fight")
    link = share_link_create(character=hero, actor=player)
    share_link_revoke(link=link, actor=player)
    portrait_set(character=hero, actor=player, data=_picture())
    portrait_remove(character=hero, actor=player)
    character_duplicate(character=hero, actor=player)
    hero.refresh_from_db()
    return hero


def _halfling(campaign: Campaign, player) -> Character:
    """A draft with a template applied and a gift that brings an attribute taken off."""
    draft = character_create(owner=player, name="Pip", campaign=campaign)
    character_apply_template(character=draft, actor=player, expected_version=None, slug="halfling")
    add = {"character": draft, "actor": player, "expected_version": None}
    trait_add(**add, kind=Trait.Kind.GIFT, name="Magery", cost=1)
    trait_remove(
        trait=draft.traits.get(name="Magery"),
        actor=player,
        expected_version=None,
        with_attribute=True,
    )
    trait_add(**add, kind=Trait.Kind.SKILL, name="Swimming", level=FAIR, difficulty="easy")
    return draft


def _fudge_points(player, gm) -> Character:
    campaign = Campaign.objects.create(name="Basics", gm=gm, base_ruleset="fudge-basics")
    Membership.objects.create(campaign=campaign, user=player)
    keeper = character_create(owner=player, name="Keeper", campaign=campaign)
    add = {"character": keeper, "actor": player, "expected_version": None}
    trait_add(**add, kind=Trait.Kind.FAULT, name="Greedy", cost=1)
    _approve(keeper, gm)
    keeper.refresh_from_db()
    keeper.meta_points = 3
    keeper.save(update_fields=["meta_points"])
    fudge_points_convert(**add)
    experience_award(character=keeper, actor=gm, amount=20, reason="Second session")
    experience_spend(**add, what=BUY_OFF_FAULT, trait=keeper.traits.get(name="Greedy"))
    return keeper


def _from_foundry(player) -> Character:
    """A character imported, exported to Foundry, played there, and updated from it."""
    brogo, _report = character_import(owner=player, text=BROGO.read_text())
    actor = write_actor(
        character_to_rules(brogo),
        provenance=character_provenance(brogo),
        ruleset=character_base(brogo),
    )
    played = copy.deepcopy(actor)
    (bow,) = [item for item in played["items"] if item["name"] == "Bow"]
    bow["system"]["level"] += 1
    played["items"].append(
        {"_id": "dGSZo8T5ZbxJ1Vbq", "name": "Danger Sense", "type": "gift", "system": {}}
    )
    brogo.refresh_from_db()
    character_update_from_foundry(
        character=brogo, actor=player, text=json.dumps(played), expected_version=None
    )
    brogo.refresh_from_db()
    # The same actor imported as a new character: its report's lines on the record.
    played["items"].append({"_id": "aaaaaaaaaaaaaaaa", "name": "Lute", "type": "song"})
    character_import(owner=player, text=json.dumps(played))
    return brogo


def _campaign_trail(campaign: Campaign, gm) -> None:
    campaign_update_house_rules(
        campaign=campaign, actor=gm, house_rules={"meta_points_start": 2}, reason=""
    )
    campaign_update_settings(campaign=campaign, actor=gm, spends_need_approval=False)
    campaign_regenerate_invite(campaign=campaign, actor=gm)
    entry = catalog_entry_add(campaign=campaign, actor=gm, kind="equipment", name="Lantern")
    catalog_entry_update(entry=entry, actor=gm, name="Lantern", equipment_kind="weapon", damage=1)
    catalog_entry_remove(entry=CatalogEntry.objects.get(pk=entry.pk), actor=gm)


def stored_table() -> dict:
    """The table: a GM, a player, their characters, every stored line on them."""
    users = get_user_model().objects
    gm = users.create_user("gm", password="pw-gm-12345")
    player = users.create_user("player", password="pw-player-12345")
    campaign = Campaign.objects.create(name="The Watch", gm=gm, base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    hero = _mudge_hero(campaign, player, gm)
    pip = _halfling(campaign, player)
    keeper = _fudge_points(player, gm)
    brogo = _from_foundry(player)
    _campaign_trail(campaign, gm)
    return {
        "gm": gm,
        "player": player,
        "campaign": campaign,
        "hero": hero,
        "pip": pip,
        "keeper": keeper,
        "brogo": brogo,
        "files": {c.pk: character_file(c) for c in (hero, pip, keeper, brogo)},
    }
