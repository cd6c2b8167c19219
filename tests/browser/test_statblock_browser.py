"""The statblock in headless Chromium (issue 41): a player on a 375px phone opens it on the
builder (read in place when asked for), copies the Markdown with its button and is told so;
what lands on the clipboard is the statblock. Open, it has no axe violation and every control
is a 44-pixel target."""

import re

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility_browser import violations
from tests.support.browser import PHONE, fits_the_screen, log_in
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import PASSWORD, with_passwords

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_player_copies_the_statblock_from_the_builder(open_page, tess, player, live_server):
    with_passwords(player)
    page = open_page(PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{tess.pk}/")
    box = page.locator("#statblock")
    box.locator("summary").click()
    markdown = box.get_by_label("Markdown (Discord, wikis)")
    expect(markdown).to_have_value(re.compile(r"^### Tess\n"))
    assert "Climbing: Good +1" in markdown.input_value()
    copy = box.locator("[data-copy$='-markdown']")
    expect(copy).to_be_visible()
    copy.click()
    expect(copy.locator("xpath=..").get_by_role("status")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == markdown.input_value()
    assert fits_the_screen(page)
    # Its controls (the download links sit in a sentence, which WCAG 2.5.5 exempts).
    sides = box.locator("summary, textarea, button").evaluate_all(
        "found => found.map(e => Math.min(e.offsetWidth, e.offsetHeight))"
    )
    assert len(sides) == 7 and min(sides) >= 44
    assert violations(page) == []
    assert errors == []
