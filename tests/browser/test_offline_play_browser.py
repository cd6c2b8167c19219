"""Issue 44 end to end in headless Chromium with the network cut (Playwright's offline
mode): a player opens Tess's play page once on a 375px phone; Chromium finds it installable;
offline, the page opens again as last synced and says since when, a wound ticked, a point
spent and a roll made there wait on the phone as not yet sent, and the builder says it
needs the network; back online they reach the server once each, the roll logged as made
offline. Then a change the GM makes while the phone is offline wins over the player's,
and the page says what was refused and why. Logging out forgets the kept page."""

import re
import time

import pytest
from playwright.sync_api import expect

from characters.models import DiceRoll, OfflineWrite, PlayEvent, PlayState
from characters.services import play as services
from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, fits_the_screen, log_in
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import PASSWORD, with_passwords

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
HURT = 1

KEPT = """async () => {
  await navigator.serviceWorker.ready;
  const cache = await caches.open("fairsheet-play-pages");
  return Boolean(navigator.serviceWorker.controller && (await cache.match(location.pathname)));
}"""


@pytest.fixture
def phone(browser, live_server, tmp_path):
    """A 375px page in a browser profile of its own on disk: Chromium installs no app from
    an incognito context (Playwright's new_context), so its installability check would
    only say that. As open_page: anything but the live server is aborted, and fails."""
    foreign = []

    def route(route):
        url = route.request.url
        if url.startswith(live_server.url) or url.startswith("data:"):
            return route.continue_()
        foreign.append(url)
        return route.abort()

    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=CHROMIUM,
        headless=True,
        args=CHROMIUM_ARGS,
        viewport=PHONE,
        base_url=live_server.url,
    )
    context.site_url = live_server.url  # where log_in's session cookie belongs
    context.route("**/*", route)
    context.set_default_timeout(10_000)
    yield context.pages[0] if context.pages else context.new_page()
    context.close()
    assert not foreign, f"the page tried to reach beyond 127.0.0.1: {foreign}"


def until_kept(page, seconds=10):
    """Until the service worker controls the page and its copy of the page is kept."""
    for _ in range(seconds * 5):
        if page.evaluate(KEPT):
            return
        time.sleep(0.2)
    raise AssertionError("the play page was not kept for offline use")


def test_the_play_page_works_offline_and_sends_its_changes_back(phone, tess, gm, player, tmp_path):
    with_passwords(player)
    page = phone
    log_in(page, "pip", PASSWORD)
    play_url = f"/characters/{tess.pk}/play/"
    page.goto(play_url)
    until_kept(page)

    # The manifest and the worker make the page installable (Chromium's own check).
    cdp = page.context.new_cdp_session(page)
    assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["errors"] == [] and f"{play_url}manifest.webmanifest" in manifest["url"]

    # Offline: the page opens again as last synced, and says so.
    page.context.set_offline(True)
    page.reload()
    state = page.locator("[data-offline-state]")
    expect(state).to_have_text(re.compile(r"^Offline — as of \d\d:\d\d$"))
    status = page.locator(f"#play-status-{tess.pk}")
    status.get_by_role("button", name="Hurt box 1 of 2, open: mark a wound").click()
    status.get_by_role("button", name="Spend 1").click()
    page.locator("#play-traits li", has_text="Climbing").get_by_role(
        "button", name="Roll Climbing"
    ).click()
    expect(
        page.locator("#play-traits li", has_text="Climbing").locator("#offline-roll")
    ).to_contain_text("Rolled on this device")
    page.screenshot(path=tmp_path / "offline-roll-375.png")
    pending = page.locator("[data-pending-list] li")
    expect(pending).to_have_count(3)
    expect(pending.nth(0)).to_have_text("Hurt box marked")
    expect(pending.nth(1)).to_have_text("1 of the meta points spent")
    # The roll, on the phone, with the penalty of the wound it has queued: Good -1.
    expect(pending.nth(2)).to_contain_text("Climbing: Fair, rolled ")
    expect(status.locator(".points-count strong")).to_have_text("2")
    assert not PlayState.objects.filter(character=tess).exists()  # nothing reached it
    assert fits_the_screen(page)
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=tmp_path / "offline-375.png")
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=tmp_path / "offline-desktop.png")
    page.set_viewport_size(PHONE)

    # The builder needs the network: the worker's offline page says so.
    page.goto(f"/characters/{tess.pk}/builder/")
    expect(page.locator("h1")).to_have_text("No connection")
    expect(page.locator("main")).to_contain_text("The builder, the review")
    assert fits_the_screen(page)
    page.screenshot(path=tmp_path / "offline-page-375.png")
    # Back on the play page, still offline: the queue is still there, not yet sent.
    page.goto(play_url)
    expect(pending).to_have_count(3)

    # Back online: sent in order, once each; the page reloads with what became of them.
    page.context.set_offline(False)
    answers = page.locator("[data-answers-list] li")
    # The first send can meet the network still coming back (a failed fetch leaves the
    # writes queued); the page sends again at its next poll, 3 s on (static/js/offline.js).
    expect(answers).to_have_count(3, timeout=15_000)
    expect(answers.nth(0)).to_have_text("Saved: Hurt box marked. ")
    expect(pending).to_have_count(0)
    expect(state).to_be_hidden()
    expect(status.locator(".play-summary")).to_contain_text("Hurt: -1 on every roll")
    time.sleep(4)  # a poll or two later: nothing is sent again
    played = PlayState.objects.get(character=tess)
    assert (played.points_spent, played.revision) == (1, 2)
    assert sum(map(bool, played.wounds[HURT])) == 1
    assert PlayEvent.objects.filter(character=tess).count() == 2
    roll = DiceRoll.objects.get()
    assert roll.rolled_offline_at is not None
    assert (roll.trait, roll.level, roll.penalty) == ("Climbing", 1, -1)
    expect(page.locator("#dice-log li.log-roll").first).to_contain_text(
        "rolled offline, on the player's device"
    )
    assert OfflineWrite.objects.filter(applied=True).count() == 3

    # Offline again; the GM gives a point back meanwhile: the player's spend, made on the
    # state before it, is refused, and the page says why.
    page.context.set_offline(True)
    expect(state).to_be_visible(timeout=8_000)
    status.get_by_role("button", name="Spend 1").click()
    expect(pending).to_have_count(1)
    # The count changed on the phone, 2 to 1, and the name with it: one point.
    expect(status.locator(".points-count").first).to_contain_text("1 meta point in hand")
    services.play_points_regain(character=tess, actor=gm, expected_revision=None)
    page.context.set_offline(False)
    expect(answers).to_have_count(1)
    expect(answers.first).to_contain_text(
        "Refused: 1 of the meta points spent. Tess was changed meanwhile by someone else "
        "(the GM's change wins)"
    )
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=tmp_path / "answers-375.png")
    played.refresh_from_db()
    assert (played.points_spent, played.points_regained) == (1, 1)
    expect(status.locator(".points-count strong")).to_have_text("3")

    # Logging out forgets the kept play pages: the next person at this phone, offline,
    # gets the offline page at that address.
    page.get_by_role("button", name="Log out pip").click()
    page.wait_for_url(lambda url: "/play/" not in url)
    assert page.evaluate("caches.has('fairsheet-play-pages')") is False
    page.context.set_offline(True)
    page.goto(play_url)
    expect(page.locator("h1")).to_have_text("No connection")


def test_offline_the_last_point_spent_leaves_nothing_to_spend(phone, tess, player):
    """Offline, each point spent on the phone counts down with its name as the count takes
    it, and at none left Spend is off, as the server draws it: the phone queues no spend
    the server would refuse."""
    with_passwords(player)
    page = phone
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{tess.pk}/play/")
    until_kept(page)
    page.context.set_offline(True)
    page.reload()
    status = page.locator(f"#play-status-{tess.pk}")
    spend = status.get_by_role("button", name="Spend 1")
    for left in ("2 meta points", "1 meta point", "0 meta points"):
        spend.click()
        expect(status.locator(".points-count").first).to_contain_text(f"{left} in hand")
    expect(spend).to_be_disabled()
    expect(page.locator("[data-pending-list] li")).to_have_count(3)
