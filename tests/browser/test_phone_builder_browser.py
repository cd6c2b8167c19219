"""Issue 24: the builder's first shape is a phone's. At 375 x 812 the name and the first
trait row are on the first screen; the budget is a sticky chip that opens into the broken
rules, each a link to its row; a level's + says what the next step costs and takes it. On a
desktop the side panel stays."""

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from characters.services.rows import trait_update
from rules.ladder import LEGENDARY
from tests.support.browser import DESKTOP, PHONE, log_in
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import PASSWORD, build, with_passwords

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


def in_language(page, code):
    """Choose the pages' language with the header's form, as a reader does."""
    page.select_option("#header-language-select", code)
    with page.expect_navigation():
        page.locator("#header-language button[type=submit]").click()


@pytest.mark.parametrize("language", ["en-gb", "fr"])
def test_the_name_and_the_whole_first_row_fit_the_first_screen_with_undo(
    open_page, campaign, player, language
):
    """Issue 24 with an edit to undo: the header, the actions and the Undo button leave the
    name and the first trait row, its stepper included, on a phone's first screen."""
    with_passwords(player)
    bree = build(player, campaign, "Bree")
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    strength = bree.traits.get(name="Strength")
    trait_update(trait=strength, actor=player, expected_version=None, level=strength.level + 1)
    page.goto(f"/characters/{bree.pk}/")
    in_language(page, language)
    first_row = page.locator("form.trait-row").first
    undo = page.locator("#undo-edit .undo-edit button")

    expect(undo).to_be_visible()
    assert on_first_screen(page.locator("#identity h1"))
    assert on_first_screen(first_row)
    assert on_first_screen(first_row.locator(".stepper"))
    # The label may be cut short on screen (one line of small buttons); its whole text is
    # still the button's, which a screen reader reads out.
    strength_said = {"en-gb": "Strength", "fr": "Force"}[language]  # issue 38
    expect(undo).to_have_accessible_name(re.compile(rf"{strength_said} .+ → .+"))
    # ...and its title's, shown whole to a pointer over it.
    expect(undo).to_have_attribute("title", undo.inner_text().strip())


def test_undo_partway_down_keeps_the_readers_place(open_page, campaign, player):
    """Undo loads the page again: the row the reader was looking at stays where it was on
    the screen, rather than the page going back to its top."""
    with_passwords(player)
    bree = build(player, campaign, "Bree")
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    strength = bree.traits.get(name="Strength")
    trait_update(trait=strength, actor=player, expected_version=None, level=strength.level + 1)
    page.goto(f"/characters/{bree.pk}/")
    undo = page.locator("#undo-edit .undo-edit button")
    expect(undo).to_be_visible()
    page.evaluate("window.scrollTo(0, 300)")
    # What the reader looks at: the part of the page in the middle of the screen.
    looked_at = page.evaluate(
        "() => document.elementFromPoint(innerWidth / 2, innerHeight / 2).closest('[id]').id"
    )
    row = page.locator(f"#{looked_at}")
    before = row.bounding_box()["y"]
    page.evaluate("window.before_undo = true")
    undo.evaluate("button => button.click()")  # as a tap would, without scrolling to it
    # The page loads again (the same address): wait for the new one.
    for _ in range(100):
        page.wait_for_timeout(100)
        with contextlib.suppress(PlaywrightError):  # the old page went while asked
            if page.evaluate("() => !window.before_undo && document.readyState === 'complete'"):
                break
    assert page.evaluate("window.scrollY") > 0
    assert abs(row.bounding_box()["y"] - before) <= 2
    # Its news is where the reader is, at the foot of the screen, not out of sight above.
    news = page.locator(".messages [role=status]")
    expect(news).to_contain_text("Undone: Strength")
    box = news.bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_french_review_page_is_no_wider_than_a_phone(open_page, campaign, player, gm):
    """Longer words than English (« CARACTÉRISTIQUE », « 0 niveau de caractéristique »):
    the kind has its own line and the cost wraps, within 375 px."""
    with_passwords(gm)
    bree = build(player, campaign, "Bree")
    page = open_page(PHONE)
    log_in(page, gm.username, PASSWORD)
    page.goto(f"/characters/{bree.pk}/review/")
    in_language(page, "fr")
    expect(page.locator(".review-cost").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    label = page.locator(".trait-kind-label").first
    # One line: the word is not broken inside.
    assert label.bounding_box()["height"] < 2 * float(
        label.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
    )


def test_the_french_campaign_rules_are_no_wider_than_a_phone(open_page, campaign, player):
    """The rules at a glance (caps and bounds): a long French label (« Compétences sous leur
    niveau par défaut ») wraps rather than pushing the values past 375 px; on a desktop each
    label keeps one line."""
    with_passwords(player)
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/")
    in_language(page, "fr")
    expect(page.locator("#rules dl.facts").last).to_contain_text("Lamentable")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    page.set_viewport_size(DESKTOP)
    label = page.locator("#rules dl.facts dt").last
    assert label.bounding_box()["height"] < 2 * float(
        label.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
    )
