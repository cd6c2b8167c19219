"""Interop in headless Chromium on a 375px phone: a player makes an API token on the account
page (shown once), uses it from a script, sees when it was last used and revokes it; exports
a character for Foundry from the builder and imports the actor back with the import page."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import expect

from characters.models import Character, Trait
from characters.services import api_tokens
from characters.services.characters import character_create
from tests.rules.test_foundry import assert_foundry_accepts
from tests.support.browser import PHONE, fits_the_screen, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def pip(db):
    player = get_user_model().objects.create_user("pip", password=PASSWORD)
    character = character_create(owner=player, name="Pip Underbough", ruleset="mudge")
    Trait.objects.create(character=character, kind=Trait.Kind.SKILL, name="Climbing", level=2)
    return character


def test_a_token_from_the_account_page(open_page, pip, monkeypatch):
    # The worst case for a phone: a token with no "-", so no place a line may break.
    monkeypatch.setattr(api_tokens.secrets, "token_urlsafe", lambda n: "Ab_" * 14 + "x")
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto("/table/")
    page.get_by_role("link", name="Account").click()
    page.get_by_label("What will use it").fill("folder checker")
    page.get_by_role("button", name="Create a token").click()
    token = page.locator("#new-token").inner_text()
    assert token.startswith("fs_") and len(token) == 46
    assert fits_the_screen(page)

    script = Client(enforce_csrf_checks=True)
    response = script.get(f"/characters/{pip.pk}/export.json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.json()["name"] == "Pip Underbough"

    page.goto("/accounts/")
    row = page.locator("#token-list li", has_text="folder checker")
    expect(row).to_contain_text("last used just now")  # used a moment ago, not "0 minutes ago"
    expect(page.locator("main")).not_to_contain_text(token)
    row.get_by_role("button", name="Revoke").click()
    expect(page.locator(".messages")).to_contain_text("Revoked the token “folder checker”")
    expect(page.locator("#token-list li", has_text="folder checker")).to_contain_text("revoked")
    refused = script.get(f"/characters/{pip.pk}/export.json", HTTP_AUTHORIZATION=f"Bearer {token}")
    assert refused.status_code == 401


def test_export_for_foundry_and_import_it_back(open_page, pip, tmp_path):
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{pip.pk}/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Export for Foundry").click()
    assert download.value.suggested_filename == "fvtt-Actor-pip-underbough.json"
    path = tmp_path / "actor.json"
    download.value.save_as(path)
    actor = json.loads(path.read_text())
    assert_foundry_accepts(actor)
    # Raised at the table, then brought home.
    climbing = next(i for i in actor["items"] if i["name"] == "Climbing")
    climbing["system"]["level"] = 3
    actor["system"]["wounds"]["hurt"]["value"] = 1
    path.write_text(json.dumps(actor))

    page.goto("/characters/import/")
    page.set_input_files("input[name=file]", str(path))
    page.locator("main form button[type=submit]").click()
    # Pip's own actor: an update of Pip, not a copy (issue 28), with what changed in Foundry.
    expect(page.locator("main h1")).to_have_text("Update Pip Underbough from Foundry?")
    expect(page.locator(".update-changes")).to_contain_text("skill Climbing:")
    assert fits_the_screen(page)
    page.get_by_role("button", name="Update Pip Underbough").click()
    expect(page.locator(".messages")).to_contain_text(
        "Updated Pip Underbough from Foundry: 1 change, recorded as one."
    )
    assert fits_the_screen(page)
    assert Character.objects.count() == 1
    assert pip.traits.get(kind=Trait.Kind.SKILL, name="Climbing").level == 3
    # The same actor as a copy, when the player asks for one.
    page.goto("/characters/import/")
    page.set_input_files("input[name=file]", str(path))
    page.locator("main form button[type=submit]").click()
    page.get_by_role("button", name="Import as a new character").click()
    expect(page.locator(".messages")).to_contain_text(
        "Imported Pip Underbough from the Foundry actor as a draft."
    )
    expect(page.locator(".messages")).to_contain_text(
        "system.wounds: current wounds (hurt 1) are not imported"
    )
    copy = Character.objects.exclude(pk=pip.pk).get()
    assert copy.traits.get(kind=Trait.Kind.SKILL, name="Climbing").level == 3
