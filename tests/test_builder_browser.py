"""Issue 3 end to end in a real headless Chromium against the live server: a GM creates a
campaign with a house rule, a player joins by link and builds, watching the budget move."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from characters.models import Campaign, Character
from tests.browser import DESKTOP, PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def people(db):
    User = get_user_model()
    return User.objects.create_user("greta", password=PASSWORD), User.objects.create_user(
        "pip", password=PASSWORD
    )


def gm_creates_campaign(page, name, ruleset, house_rules):
    log_in(page, "greta", PASSWORD)
    page.goto("/campaigns/new/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=base_ruleset]", ruleset)
    # Changing the ruleset re-renders the house-rules fields for it (htmx): wait for it.
    page.wait_for_load_state("networkidle")
    for field, value in house_rules.items():
        page.fill(f"input[name={field}]", str(value))
    page.get_by_role("button", name="Create campaign").click()
    page.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    return page.locator("#invite-link").input_value()


def player_joins_and_starts(page, invite_url, character_name):
    log_in(page, "pip", PASSWORD)
    page.goto(invite_url)
    page.get_by_role("button", name=re.compile("Join as pip")).click()
    campaign = Campaign.objects.get(memberships__user__username="pip")
    page.goto(f"/characters/new/?campaign={campaign.pk}")
    page.fill("input[name=name]", character_name)
    page.get_by_role("button", name=re.compile("Create")).click()
    page.wait_for_url(re.compile(r"/characters/\d+/$"))


def level_select(page, trait):
    row = page.locator("form.trait-row", has=page.locator(f"input[name=name][value='{trait}']"))
    return row.locator("select[name=level]")


def build_mudge_character(page):
    balance = page.locator("#balance-value")
    # 6 attribute levels x 3 + 40 skill levels (the house rule) + 2 gifts x 6 (Mudge 1.6).
    expect(balance).to_have_text("70 skill levels")
    level_select(page, "Strength").select_option("Good")
    expect(balance).to_have_text("67 skill levels")  # 1 attribute level = 3 (Mudge 1.64)

    level_select(page, "Dexterity").select_option("Superb")
    expect(balance).to_have_text("58 skill levels")
    level_select(page, "Strength").select_option("Superb")
    panel = page.locator("#budget-panel")
    expect(panel).to_contain_text("Only 1 attribute may be Superb; 2 are (Strength, Dexterity)")
    expect(panel).to_contain_text("1 rule broken")
    level_select(page, "Strength").select_option("Great")
    expect(panel).not_to_contain_text("may be Superb")

    add = page.locator("form#add-skill")
    add.locator("input[name=name]").fill("Climbing")
    add.locator("select[name=level]").select_option("Good")
    add.get_by_role("button", name="Add").click()
    expect(page.locator("#rows-skill")).to_contain_text("3 skill levels")
    # Great Str (2) + Superb Dex (3) = 5 attribute levels; Climbing Good (average) 3 levels.
    expect(balance).to_have_text(f"{70 - 5 * 3 - 3} skill levels")
    expect(panel).to_contain_text("A legal build")


def test_gm_campaign_player_joins_and_builds_on_desktop(open_page, people):
    gm_page = open_page(DESKTOP)
    invite = gm_creates_campaign(gm_page, "Shadows over Cynosure", "mudge", {"skill_levels": 40})
    assert Campaign.objects.get().house_rules == {"skill_levels": 40}

    page = open_page(DESKTOP)
    player_joins_and_starts(page, invite, "Brogo")
    build_mudge_character(page)
    character = Character.objects.get(name="Brogo")
    assert dict(character.traits.values_list("name", "level"))["Climbing"] == 1

    gm_page.goto(f"/characters/{character.pk}/")
    expect(gm_page.locator("#budget-panel")).to_contain_text("A legal build")


def test_the_same_build_on_a_phone(open_page, people):
    invite = gm_creates_campaign(open_page(PHONE), "Phone game", "mudge", {"skill_levels": 40})
    page = open_page(PHONE)
    player_joins_and_starts(page, invite, "Dolores")
    build_mudge_character(page)
    # Nothing spills sideways on a 375-pixel screen.
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]


def test_a_microfudged_campaign(open_page, people):
    invite = gm_creates_campaign(
        open_page(DESKTOP), "Night shift", "microfudged-dip", {"tokens": 6}
    )
    page = open_page(DESKTOP)
    player_joins_and_starts(page, invite, "Jim Bones")
    panel = page.locator("#budget-panel")
    # MicroFudged DIP I: spend at least one token before play.
    expect(panel).to_contain_text("Spend at least 1 token")
    add = page.locator("form#add-skill")
    add.locator("input[name=name]").fill("Medicine")
    add.locator("select[name=level]").select_option("Fair")
    add.get_by_role("button", name="Add").click()
    # Jim Bones: Medicine Fair is 2 tokens from Poor; 4 of 6 are saved.
    expect(page.locator("#balance-value")).to_have_text("4 tokens")
    expect(panel).to_contain_text("A legal build")
