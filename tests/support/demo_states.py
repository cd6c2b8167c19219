"""The demo table (manage.py load_demo, as tests/app/test_plain_words.py loads it) with a
character in every state a character has, each reached the way players and GMs reach it:

- Brogo (player1, Mudge): approved, a gift bought with experience on a request the GM
  accepted, then updated from Foundry: back with the GM for review;
- Dolores (player1, Mudge): approved and in play, a wound at every severity of the track
  but one, a request waiting for the GM;
- James (player2, Mudge): sent back for changes;
- Jim Bones (player1, MicroFudged DIP): submitted;
- Lisa Benny (player2, MicroFudged DIP): a draft.

Imported by the modules that use it (`from tests.support.demo_states import table`)."""

import json

import pytest
from django.test import Client

from characters.models import Character
from characters.services.advancement import experience_award, experience_spend, spend_accept
from characters.services.play import play_wound_box
from characters.services.review import (
    character_approve,
    character_request_changes,
    character_submit,
)
from characters.services.rulesets import designed_ruleset_save
from characters.services.sharing import share_link_create
from characters.services.updates import character_update_from_foundry
from rules.ruleset_file import blank_ruleset_file
from tests.app.test_plain_words import demo

__all__ = ["approve", "demo", "foundry_updated", "table"]


def approve(character, gm):
    """Submitted by its player and approved by the GM (over the rules if it must be)."""
    character_submit(character=character, actor=character.owner, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None, override_reason="demo")
    character.refresh_from_db()
    return character


def foundry_updated(character) -> Character:
    """Exported to Foundry, a skill raised there, and brought back: back for review."""
    character = Character.objects.get(pk=character.pk)
    client = Client()
    client.force_login(character.owner)
    actor = client.get(f"/characters/{character.pk}/foundry.json").json()
    skill = next(item for item in actor["items"] if item["type"] == "skill")
    skill["system"]["level"] += 1
    character_update_from_foundry(
        character=character,
        actor=character.owner,
        text=json.dumps(actor),
        expected_version=character.version,
    )
    character.refresh_from_db()
    return character


@pytest.fixture
def table(demo):
    gm, player = demo["gm"], demo["player"]
    by_name = {c.name: c for c in Character.objects.all()}
    brogo, dolores = demo["brogo"], by_name["Dolores Ramirez"]
    james, jim = by_name["James Stoddard"], by_name["Jim Bones"]
    share_link_create(character=brogo, actor=player)
    # Brogo: a gift the rules hand to the GM (Mudge 5.2), accepted, then a Foundry update.
    experience_award(character=brogo, actor=gm, amount=20, reason="Session one")
    request = experience_spend(
        character=brogo, actor=player, expected_version=None, what="gift", name="Danger Sense"
    )
    spend_accept(entry=request, actor=gm)
    brogo = foundry_updated(Character.objects.get(pk=brogo.pk))
    # Dolores: in play, wounded, asking for a gift.
    dolores = approve(dolores, gm)
    experience_award(character=dolores, actor=gm, amount=10, reason="Session one")
    experience_spend(
        character=dolores, actor=player, expected_version=None, what="gift", name="Night Vision"
    )
    for level in (0, 1, 4):  # Scratch, Hurt, Near Death
        play_wound_box(
            character=dolores, actor=player, expected_revision=None, level=level, mark=True
        )
    # James: sent back for changes.
    character_submit(character=james, actor=james.owner, expected_version=None)
    character_request_changes(
        character=james, actor=gm, expected_version=None, comments=[("", "More skills, please.")]
    )
    # Jim Bones: submitted.
    character_submit(character=jim, actor=jim.owner, expected_version=None)
    # A game of the GM's own design, from nothing.
    designed_ruleset_save(owner=gm, file=blank_ruleset_file())
    return {**demo, "brogo": brogo, "dolores": Character.objects.get(pk=dolores.pk)}
