"""Issue 9 in a real headless Chromium: a player adds a starred gift and sees its catalogue
cost and the chained trades in the panel; the GM defines an uncommitted trait in play on a
phone; a MicroFudged sheet on a phone reads in its own words."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from characters.models import Membership
from characters.services.campaigns import campaign_create
from characters.services.characters import character_create
from characters.services.review import character_approve, character_submit
from tests.support.browser import DESKTOP, PHONE, fits_the_screen, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def table(db):
    User = get_user_model()
    gm = User.objects.create_user("greta", password=PASSWORD)
    player = User.objects.create_user("pip", password=PASSWORD)
    campaign = campaign_create(
        gm=gm,
        name="Chains",
        base_ruleset="mudge",
        house_rules={"attribute_levels": 1, "skill_levels": 5},
    )
    Membership.objects.create(campaign=campaign, user=player)
    return gm, player, campaign


def test_a_starred_gift_and_a_chain_of_trades(open_page, table):
    _, player, campaign = table
    character = character_create(owner=player, name="Brogo", campaign=campaign)
    page = open_page(DESKTOP)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{character.pk}/")
    for name in ("Luck", "Night Vision"):
        add = page.locator("form#add-gift")
        add.locator("input[name=name]").fill(name)
        add.get_by_role("button", name="Add", exact=True).click()
        expect(page.locator(f"#rows-gift input[name=name][value='{name}']")).to_have_count(1)
    # The campaign's catalogue has Luck at 2 (Mudge 1.33): 3 gifts of 2 free, one short.
    expect(page.locator("#rows-gift")).to_contain_text("2 gifts")
    # 1 attribute level (3) + 5 skill levels - 1 gift (6) = +2: traded as a chain.
    panel = page.locator("#budget-panel")
    expect(page.locator("#balance-value")).to_have_text("2 skill levels")
    expect(panel).to_contain_text("3 skill levels → 1 attribute level")
    expect(panel).to_contain_text("2 attribute levels → 1 gift")
    expect(panel).to_contain_text("A legal build")


def test_the_gm_defines_an_uncommitted_trait_on_a_phone(open_page, table):
    gm, player, campaign = table
    character = character_create(owner=player, name="Dolores", campaign=campaign)
    character_submit(character=character, actor=player, expected_version=None)
    character_approve(character=character, actor=gm, expected_version=None, override_reason="ok")
    page = open_page(PHONE)
    log_in(page, "greta", PASSWORD)
    page.goto(f"/characters/{character.pk}/")
    panel = page.locator("#uncommitted")
    expect(panel.locator("li.open")).to_have_count(2)
    form = panel.locator("form.uncommitted-form")
    form.locator("input[name=name]").fill("Lip Reading")
    form.locator("select[name=level]").select_option("Good")
    form.get_by_role("button", name="Define in play").click()
    expect(page.locator("#uncommitted li.defined")).to_contain_text("Lip Reading: Good")
    expect(page.locator("#uncommitted li.open")).to_have_count(1)
    assert character.traits.get(name="Lip Reading").defined_in_play
    assert fits_the_screen(page)


def test_a_microfudged_sheet_on_a_phone(open_page, table):
    _, player, _ = table
    character = character_create(owner=player, name="Jim Bones", ruleset="microfudged-dip")
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{character.pk}/sheet/")
    sheet = page.locator("article.sheet")
    expect(sheet).to_contain_text("Setbacks")
    expect(sheet).to_contain_text("Extreme Setback (Grievous injury) (-3 cards)")
    expect(sheet).not_to_contain_text("Scale")
    expect(sheet).not_to_contain_text("Meta points")
    page.get_by_role("button", name="Roll 4dF from Fair").click()
    result = page.locator("[data-result]")
    expect(result).to_contain_text("Plain roll: Fair")
    expect(result).not_to_contain_text("Damage die")
    assert fits_the_screen(page)


def test_the_wound_track_fits_a_phone(open_page, table):
    """Fudge Basics' track has sixteen boxes over five levels (5/4/3/2/1): on a 375-pixel
    screen every level shows, with nothing scrolled out of sight (issue 12)."""
    _, player, _ = table
    character = character_create(owner=player, name="Tess", ruleset="fudge-basics")
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{character.pk}/sheet/")
    wounds = page.locator("table.wounds")
    expect(wounds.get_by_role("rowheader")).to_have_text(
        ["Scratch", "Hurt (-1)", "Very Hurt (-2)", "Incapacitated", "Near Death"]
    )
    for row in wounds.get_by_role("rowheader").all() + wounds.locator(".boxes").all():
        box = row.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    assert wounds.locator(".boxes").first.get_attribute("aria-label") == "5 boxes"
