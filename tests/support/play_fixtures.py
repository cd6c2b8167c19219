"""Fixtures for play at the table: a GM, two players and an outsider, a Mudge campaign and
its approved characters, built and approved the way players and GMs do it. Imported by the
play test modules (`from tests.support.play_fixtures import *`)."""

import pytest
from django.contrib.auth import get_user_model

from characters.models import Campaign, Membership
from characters.services.characters import character_create
from characters.services.review import character_approve, character_submit
from characters.services.rows import equipment_add, trait_add, trait_update
from rules.ladder import GOOD

PASSWORD = "correct-horse-battery"


def user(name):
    """A user who cannot log in with a password: hashing one costs a second of CPU, which
    only the browser tests need (with_passwords)."""
    return get_user_model().objects.create_user(name)


def with_passwords(*users):
    for someone in users:
        someone.set_password(PASSWORD)
        someone.save(update_fields=["password"])


def approved(character, gm):
    character_submit(character=character, actor=character.owner, expected_version=None)
    character_approve(
        character=character, actor=gm, expected_version=None, override_reason="table test"
    )
    character.refresh_from_db()
    return character


def build(owner, campaign, name, *, skill="Climbing", weapon=("Broadsword", 2), ruleset=None):
    """A character with Strength Good, one skill at Good and a weapon (Mudge 4.54: a medium
    weapon is +2)."""
    character = character_create(owner=owner, name=name, campaign=campaign, ruleset=ruleset)
    strength = character.traits.filter(name="Strength").first()
    if strength is not None:
        trait_update(trait=strength, actor=owner, expected_version=None, level=GOOD)
    trait_add(
        character=character,
        actor=owner,
        expected_version=None,
        kind="skill",
        name=skill,
        level=GOOD,
        difficulty="average" if (campaign and campaign.base_ruleset == "mudge") else "",
    )
    if weapon:
        equipment_add(
            character=character,
            actor=owner,
            expected_version=None,
            name=weapon[0],
            kind="weapon",
            damage=weapon[1],
        )
    return character


def make_npc(campaign, gm, name, level, *, skill="Sword", shown="sheet", group_size=1, weapon=None):
    """One of the GM's NPCs, made directly (the NPC builder is another part's): a skill at
    `level` and, with `weapon`, a +2 weapon (Mudge 4.54: a medium weapon)."""
    character = character_create(owner=gm, name=name, campaign=campaign)
    trait_add(
        character=character,
        actor=gm,
        expected_version=None,
        kind="skill",
        name=skill,
        level=level,
        difficulty="average",
    )
    if weapon:
        equipment_add(
            character=character,
            actor=gm,
            expected_version=None,
            name=weapon,
            kind="weapon",
            damage=2,
        )
    type(character).objects.filter(pk=character.pk).update(
        is_npc=True, npc_shown=shown, group_size=group_size
    )
    character.refresh_from_db()
    return character


@pytest.fixture
def gm(db):
    return user("gwen")


@pytest.fixture
def player(db):
    return user("pip")


@pytest.fixture
def other_player(db):
    return user("otto")


@pytest.fixture
def outsider(db):
    return user("oscar")


@pytest.fixture
def campaign(gm, player, other_player):
    campaign = Campaign.objects.create(name="The Watch", gm=gm, base_ruleset="mudge")
    for member in (player, other_player):
        Membership.objects.create(campaign=campaign, user=member)
    return campaign


@pytest.fixture
def tess(campaign, player, gm):
    """Pip's approved Mudge character: 3 meta points (Mudge 1.36), Climbing Good, a
    broadsword."""
    return approved(build(player, campaign, "Tess"), gm)


@pytest.fixture
def otto(campaign, other_player, gm):
    return approved(build(other_player, campaign, "Otto", skill="Swimming", weapon=None), gm)
