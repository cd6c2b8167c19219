"""Issue 15 end to end in headless Chromium against the live server, with one browser
context per person: a player on a 375px phone marks a wound and spends a meta point; the
GM's party view, open on a desktop, shows both within a few seconds; the player's roll
appears in the other player's log; the approved build and its hash are untouched; an
outsider can neither read nor post to the campaign's log."""

import re

import pytest
from playwright.sync_api import expect

from characters.adapters import character_file, file_sha256
from characters.models import Character, DiceRoll
from tests.support.browser import DESKTOP, PHONE, fits_the_screen, log_in
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import PASSWORD, with_passwords

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LIVE = 8_000  # ms: the pages poll every 3 s


def watch_console(page, errors):
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    return page


def smallest_side(locator) -> float:
    box = locator.bounding_box()
    return min(box["width"], box["height"])


def test_a_wound_a_point_and_a_roll_reach_the_table(
    open_page, tess, otto, gm, player, other_player, live_server
):
    with_passwords(gm, player, other_player)
    approval = tess.approvals.get()
    version = tess.version
    errors = []

    gm = watch_console(open_page(DESKTOP), errors)
    log_in(gm, "gwen", PASSWORD)
    gm.goto(f"/campaigns/{tess.campaign_id}/party/")
    card = gm.locator(f"#party-card-{tess.pk}")
    # Nothing else on the card's status: the severity's shape and its word (issue 39).
    expect(card.locator(".play-summary")).to_have_text(re.compile(r"^\s*\u25cb\s*Unhurt\s*$"))
    expect(card.locator(".points-count strong")).to_have_text("3")

    otto_page = watch_console(open_page(PHONE), errors)
    log_in(otto_page, "otto", PASSWORD)
    otto_page.goto(f"/characters/{otto.pk}/play/")

    player = watch_console(open_page(PHONE), errors)
    log_in(player, "pip", PASSWORD)
    player.goto(f"/characters/{tess.pk}/play/")
    hurt = player.get_by_role("button", name="Hurt box 1 of 2, open: mark a wound")
    assert smallest_side(hurt) >= 44
    # The inline forms' buttons keep their word on one line ("Ad / d" when squeezed).
    for label in ("Add", "Mark"):
        button = player.locator(".inline-fields button", has_text=label).first
        lines = button.evaluate(
            "b => { const r = document.createRange(); r.selectNodeContents(b);"
            " return r.getClientRects().length; }"
        )
        assert lines == 1, (label, lines)
    hurt.click()
    status = player.locator(f"#play-status-{tess.pk}")
    expect(status.locator(".play-summary")).to_contain_text("Hurt: -1 on every roll")
    expect(player.locator(".answer")).to_contain_text("Tess: Hurt box marked.")
    # The poll that follows the change brings the penalty to the traits and the roller.
    climbing = player.locator("#play-traits li", has_text="Climbing")
    expect(climbing.locator(".trait-level")).to_have_text("Good Fair")
    expect(player.locator("#roll-penalty")).to_have_text("Hurt: -1 is applied to this roll.")

    spend = status.get_by_role("button", name="Spend 1")
    assert smallest_side(spend) >= 44
    spend.click()
    expect(status.locator(".points-count strong")).to_have_text("2")
    assert fits_the_screen(player)

    # The GM's party view follows without a reload.
    expect(card.locator(".play-summary")).to_contain_text("Hurt: -1 on every roll", timeout=LIVE)
    expect(card.locator(".points-count strong")).to_have_text("2", timeout=LIVE)
    expect(card.get_by_role("button", name="Hurt box 1 of 2, marked: clear it")).to_be_visible()

    # The player rolls Climbing against Good; the odds say what it takes first.
    player.select_option("#roll-against", label="Good")
    odds = player.locator("#roll-odds")
    expect(odds).to_have_text("A plain roll: 18.5% to reach Good (+2 or better on 4dF).")
    player.select_option("#roll-trait", label="Climbing (Good)")
    expect(odds).to_have_text("Climbing: 38.3% to reach Good (+1 or better on 4dF).")
    climbing.get_by_role("button", name="Roll Climbing").click()
    result = player.locator("#roll-result")
    expect(result).to_contain_text("Climbing Good -1 (Hurt): rolled")
    expect(result).to_contain_text("(38.3% to reach it)")
    roll = DiceRoll.objects.get()
    assert (roll.trait, roll.penalty, roll.against, roll.roller.username) == (
        "Climbing",
        -1,
        1,
        "pip",
    )

    # Otto, at his own sheet, sees it in the campaign's log; so does the GM.
    line = otto_page.locator("#dice-log li.log-roll").first
    expect(line).to_contain_text("Tess", timeout=LIVE)
    expect(line).to_contain_text("pip")
    expect(line).to_contain_text("Climbing Good -1 (Hurt): rolled")
    expect(line).to_contain_text("Against Good")
    expect(gm.locator("#dice-log li.log-roll").first).to_contain_text("Tess", timeout=LIVE)

    # The GM marks a blow of 5 from the party view, by keyboard alone.
    gm.locator(f"#blow-{tess.pk}").focus()
    gm.keyboard.type("5")
    gm.keyboard.press("Enter")
    expect(card.locator(".play-summary")).to_contain_text("Very Hurt: -2 on every roll")
    expect(status.locator(".play-summary")).to_contain_text("Very Hurt", timeout=LIVE)

    assert errors == []
    tess = Character.objects.get(pk=tess.pk)
    assert tess.version == version and tess.state == Character.State.APPROVED
    assert tess.approvals.get().sha256 == approval.sha256
    assert file_sha256(character_file(tess)) == approval.sha256


def test_an_outsider_cannot_read_or_post_to_the_log(open_page, tess, outsider, live_server):
    with_passwords(outsider)
    page = open_page(PHONE)
    log_in(page, "oscar", PASSWORD)
    for url in (
        f"/campaigns/{tess.campaign_id}/log/",
        f"/campaigns/{tess.campaign_id}/log/live/?after=0",
        f"/campaigns/{tess.campaign_id}/party/",
        f"/characters/{tess.pk}/play/",
    ):
        assert page.goto(url).status == 404, url
    page.goto("/table/")  # a page of the outsider's own, for the CSRF cookie
    token = next(c["value"] for c in page.context.cookies() if c["name"] == "csrftoken")
    response = page.request.post(
        f"{live_server.url}/characters/{tess.pk}/play/roll/",
        form={"trait": "Climbing"},
        headers={"X-CSRFToken": token, "Referer": f"{live_server.url}/table/"},
    )
    assert response.status == 404
    assert not DiceRoll.objects.exists()
