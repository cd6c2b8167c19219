"""Issue 43 at the table, in headless Chromium against the live server: the GM on a 375px
phone rolls for an NPC and rolls a secret reaction from the party view (htmx: the log
follows without a reload); the player's log, open on a desktop, shows the NPC's roll
within a few seconds and never the secret one."""

import pytest
from playwright.sync_api import expect

from characters.models import DiceRoll
from rules.ladder import GOOD
from tests.support.browser import DESKTOP, PHONE, fits_the_screen, log_in
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import PASSWORD, make_npc, with_passwords

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIVE = 8_000  # ms: the log page polls every 3 s


def test_the_gm_rolls_for_an_npc_and_in_secret(open_page, campaign, gm, player, tess, tmp_path):
    with_passwords(gm, player)
    annie = make_npc(campaign, gm, "Annie", GOOD)
    errors = []

    watcher = open_page(DESKTOP)
    watcher.on("console", lambda m: m.type == "error" and errors.append(m.text))
    log_in(watcher, "pip", PASSWORD)
    watcher.goto(f"/campaigns/{campaign.pk}/log/")

    page = open_page(PHONE)
    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
    log_in(page, "gwen", PASSWORD)
    page.goto(f"/campaigns/{campaign.pk}/party/")
    table = page.locator("#npc-table")
    expect(table).to_contain_text("By the campaign's method: 4dF, as for the players.")
    table.get_by_label("NPC and trait").select_option(f"{annie.pk}|Sword")
    table.get_by_role("button", name="Roll", exact=True).click()
    line = page.locator("#dice-log li.log-roll").first
    expect(line).to_contain_text("Annie")
    expect(line).to_contain_text("Sword Good by 4dF, as for the players: rolled")
    assert fits_the_screen(page)
    page.screenshot(path=tmp_path / "party-phone.png", full_page=True)

    table.get_by_text("Secret reaction roll").click()
    table.locator("input[name=why_1]").fill("Charisma")
    table.locator("input[name=value_1]").fill("1")
    table.get_by_role("button", name="Roll in secret").click()
    secret = page.locator("#dice-log li.log-roll").first
    expect(secret).to_contain_text("Reaction roll (Fudge 1995 4.9), Charisma +1")
    expect(secret).to_contain_text("secret: only the GM sees it")
    assert DiceRoll.objects.filter(gm_only=True).count() == 1

    watched = watcher.locator("#dice-log li.log-roll")
    expect(watched.first).to_contain_text("Annie", timeout=LIVE)
    watcher.wait_for_timeout(3_500)  # one more poll after the secret roll
    expect(watched).to_have_count(1)
    expect(watcher.locator("#dice-log")).not_to_contain_text("Reaction")

    desk = open_page(DESKTOP)
    log_in(desk, "gwen", PASSWORD)
    desk.goto(f"/campaigns/{campaign.pk}/party/")
    desk.screenshot(path=tmp_path / "party-desktop.png", full_page=True)
    assert errors == []
