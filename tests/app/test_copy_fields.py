"""Issue 39: what a person is meant to send on (the campaign's invite link, a sheet's share
link, a new API token) is shown whole, in a field to select and copy without scripts, with a
Copy button beside it (static/js/fairsheet.js; templates/partials/copy_field.html)."""

import re

import pytest
from django.urls import reverse

from characters.services.characters import character_create
from characters.services.sharing import share_link_create
from tests.support.builder_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db


def field_and_button(html: str, field_id: str) -> str:
    """The whole text of the field `field_id`, once a Copy button names it."""
    assert (
        f'<button type="button" class="copy-button small secondary" data-copy="{field_id}"' in html
    )
    found = re.search(
        rf'<textarea id="{field_id}" class="copy-text"[^>]* readonly[^>]*>([^<]*)<', html
    )
    if found is None:  # a token: a code element, selected whole
        found = re.search(rf'<code class="token-value" id="{field_id}">([^<]*)<', html)
    return found.group(1)


def test_the_invite_link(client, gm, campaign):
    client.force_login(gm)
    html = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    link = field_and_button(html, "invite-link")
    assert link == f"http://testserver/join/{campaign.invite_code}/"


def test_the_share_link(client, player, campaign):
    character = character_create(owner=player, name="Brogo", campaign=campaign)
    share = share_link_create(character=character, actor=player)
    client.force_login(player)
    html = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert field_and_button(html, "share-link") == f"http://testserver/shared/{share.token}/"


def test_a_new_token(client, player):
    client.force_login(player)
    html = client.post(reverse("account"), {"name": "script"}).content.decode()
    assert len(field_and_button(html, "new-token")) > 20
