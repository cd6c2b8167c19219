"""Issue 24: the builder's first shape is a phone's. At 375 x 812 the name and the first
trait row are on the first screen; the budget is a sticky chip that opens into the broken
rules, each a link to its row; a level's + says what the next step costs and takes it. On a
desktop the side panel stays."""

import re

import pytest
from playwright.sync_api import expect

from characters.services.characters import trait_update
from rules.ladder import LEGENDARY
from tests.browser import DESKTOP, PHONE, log_in
from tests.play_fixtures import *  # noqa: F403
from tests.play_fixtures import PASSWORD, build, with_passwords

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def on_first_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_phone_shows_the_character_first_and_the_budget_as_a_chip(open_page, campaign, player):
    with_passwords(player)
    bree = build(player, campaign, "Bree")
    # Legendary, which Mudge 1.2 keeps out of creation: a broken rule about one row.
    climbing = bree.traits.get(name="Climbing")
    trait_update(trait=climbing, actor=player, expected_version=None, level=LEGENDARY)
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{bree.pk}/")

    assert on_first_screen(page.locator("#identity h1"))
    first_row = page.locator("form.trait-row").first
    assert on_first_screen(first_row)
    expect(page.locator("#budget-panel")).not_to_be_in_viewport()

    # The chip: the balance and the count; open, the rules link to their rows.
    chip = page.locator("#budget-bar")
    expect(chip.locator("summary")).to_contain_text(re.compile(r"\d+ rules? broken"))
    page.locator("form.trait-row").last.scroll_into_view_if_needed()
    expect(chip).to_be_in_viewport()
    chip.locator("summary").click()
    rule = chip.locator(".chip-rules a").first
    expect(rule).to_be_visible()
    target = rule.get_attribute("href")
    assert target.startswith("#trait-")
    rule.click()
    expect(page.locator(target)).to_be_in_viewport()
    expect(page.locator(target).locator(".row-issue")).not_to_have_count(0)

    # A level's +: it says what it costs, and takes the step.
    strength = page.locator("form.trait-row:has(input[value=Strength])")
    plus = strength.get_by_role("button", name=re.compile(r"^Raise Strength to Great: costs"))
    expect(plus).to_have_attribute("aria-label", "Raise Strength to Great: costs 1 attribute level")
    balance = page.locator("#balance-value").inner_text()
    plus.click()
    expect(strength.locator("select[name=level] option:checked")).to_have_text("Great")
    expect(page.locator("#balance-value")).not_to_have_text(balance)


def test_a_desktop_keeps_the_side_panel(open_page, campaign, player):
    with_passwords(player)
    bree = build(player, campaign, "Bree")
    page = open_page(DESKTOP)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{bree.pk}/")
    expect(page.locator("#budget-panel")).to_be_in_viewport()
    expect(page.locator("#budget-bar")).to_be_hidden()
    panel, rows = page.locator(".builder-panel").bounding_box(), page.locator(".builder-main")
    assert panel["x"] > rows.bounding_box()["x"] + rows.bounding_box()["width"] - 1
