"""Issue 39: a request the GM accepted stays accepted for the build it was accepted for. A
spend the rules hand to the GM (Mudge 5.2: a gift needs the GM's permission as well as
experience) that the GM let through is not flagged again when the build comes back for
review (after an update from Foundry): not on the review page, the review queue or the
builder. One the GM never saw (a ledger that came in a file) still is."""

import json
from pathlib import Path

import pytest
from django.urls import reverse

from characters.models import Character
from characters.services.advancement import experience_award, experience_spend, spend_accept
from characters.services.character_files import character_import
from characters.services.review import character_submit
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.demo_states import approve, foundry_updated

pytestmark = pytest.mark.django_db

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"
SAMPLE = json.loads((SAMPLES / "brogo.json").read_text())
FLAGGED = "Adding the gift Danger Sense needs the GM&#x27;s permission as well as experience."


def pages(client, gm, player, character) -> dict[str, str]:
    """What the GM and the player read of the build: its review, the queue, the builder."""
    read = {}
    client.force_login(gm)
    for name, address in (
        ("review", reverse("character_review", args=[character.pk])),
        ("queue", reverse("campaign_review_queue", args=[character.campaign_id])),
    ):
        read[name] = client.get(address).content.decode()
    client.force_login(player)
    read["builder"] = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    return read


def brogo(player, campaign, **more) -> Character:
    file = {**SAMPLE, **more}
    character, _ = character_import(owner=player, text=json.dumps(file), campaign=campaign)
    return character


@pytest.mark.parametrize("who", ["an accepted request", "the GM's own spend"])
def test_a_spend_the_gm_let_through_is_not_flagged_when_the_build_comes_back(
    client, gm, player, campaign, who
):
    character = approve(brogo(player, campaign), gm)
    experience_award(character=character, actor=gm, amount=20, reason="Session one")
    spender = player if who == "an accepted request" else gm
    entry = experience_spend(
        character=character, actor=spender, expected_version=None, what="gift", name="Danger Sense"
    )
    if entry.pending:
        spend_accept(entry=entry, actor=gm)
    character = foundry_updated(character)
    assert character.state == Character.State.SUBMITTED
    read = pages(client, gm, player, character)
    for name, html in read.items():
        assert FLAGGED not in html, name
    # What came back is there to review: the skill raised in Foundry.
    assert "<del>Good, average</del> → <ins>Great, average</ins>" in read["review"]


def test_a_spend_the_gm_never_saw_is_still_flagged(client, gm, player, campaign):
    character = brogo(
        player,
        campaign,
        gifts=[*SAMPLE["gifts"], {"name": "Danger Sense"}],
        experience=6,
        advancement=[
            {"award": 10},
            {"spend": 4, "add": {"list": "gifts", "name": "Danger Sense"}},
        ],
    )
    character_submit(character=character, actor=player, expected_version=None)
    read = pages(client, gm, player, character)
    assert FLAGGED in read["review"] and FLAGGED in read["builder"]
