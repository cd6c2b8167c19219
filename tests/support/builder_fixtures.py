"""Fixtures for the builder's tests: users, a Mudge campaign with a player, a character.
Imported by the builder test modules (`from tests.support.builder_fixtures import *`)."""

import pytest
from django.contrib.auth import get_user_model

from characters.models import Campaign, CatalogEntry, Membership
from characters.services.characters import character_create


@pytest.fixture
def gm(db):
    return get_user_model().objects.create_user("gm", password="pw-gm-12345")


@pytest.fixture
def player(db):
    return get_user_model().objects.create_user("player", password="pw-player-12345")


@pytest.fixture
def outsider(db):
    return get_user_model().objects.create_user("outsider", password="pw-out-12345")


@pytest.fixture
def campaign(gm, player):
    campaign = Campaign.objects.create(name="The Watch", gm=gm, base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    CatalogEntry.objects.create(
        campaign=campaign, kind="skill", name="Acrobatics", difficulty="hard"
    )
    CatalogEntry.objects.create(campaign=campaign, kind="gift", name="Magery", cost=2)
    return campaign


@pytest.fixture
def character(campaign, player):
    return character_create(owner=player, name="Brogo", campaign=campaign)


@pytest.fixture
def player_client(client, player):
    client.force_login(player)
    return client
