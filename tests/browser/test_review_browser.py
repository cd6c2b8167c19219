"""Issue 4 end to end in headless Chromium against the live server: the player submits, the
GM asks for a change on one trait, the player fixes it in the builder and submits again,
the GM reads the diff and approves; later the GM awards XP and the player raises a skill.
The player plays on a 375px phone, the GM on a desktop."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from characters.models import Campaign, Character, Membership, Trait
from characters.services.characters import character_create
from characters.services.review import character_submit
from characters.services.rows import trait_add
from rules.ladder import FAIR, GREAT, SUPERB
from tests.support.browser import (
    DESKTOP,
    PHONE,
    fits_the_screen,
    log_in,
    log_in_with_the_form,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def brogo(db):
    User = get_user_model()
    gm = User.objects.create_user("gwen", password=PASSWORD)
    player = User.objects.create_user("pip", password=PASSWORD)
    campaign = Campaign.objects.create(name="The Watch", gm=gm, base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    character = character_create(owner=player, name="Brogo", campaign=campaign)
    trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind="skill",
        name="Climbing",
        level=FAIR,
        difficulty="average",
    )
    return character


def watch_console(page, errors):
    """Collect the page's console errors: a Content-Security-Policy violation shows there."""

    def record(message):
        if message.type == "error":
            errors.append(message.text)

    page.on("console", record)
    return page


def test_submit_review_fix_approve_then_advance(open_page, brogo):
    builder = f"/characters/{brogo.pk}/"
    panel_state = "#review-status .state-badge"

    console_errors = []
    player = watch_console(open_page(PHONE), console_errors)
    # The one journey that signs in through the form, on a phone (the others set the cookie).
    log_in_with_the_form(player, "pip", PASSWORD)
    player.goto(builder)
    player.get_by_role("button", name="Submit for review").click()
    expect(player.locator(panel_state)).to_have_text("Submitted")
    assert fits_the_screen(player)

    gm = watch_console(open_page(DESKTOP), console_errors)
    log_in(gm, "gwen", PASSWORD)
    gm.goto("/review/")
    gm.get_by_role("link", name="Brogo").click()
    gm.wait_for_url(re.compile(r"/characters/\d+/review/$"))
    gm.locator("summary", has_text="Comment on Climbing").click()  # unfold its comment box
    gm.get_by_label("Your comment on Climbing").fill("A scout climbs well: raise it to Good.")
    gm.get_by_role("button", name="Request changes").click()
    gm.wait_for_url(re.compile(r"/campaigns/\d+/review/$"))
    expect(gm.locator("#queue-builds + p.empty")).to_have_text("No build is waiting.")

    player.reload()
    expect(player.locator(panel_state)).to_have_text("Changes requested")
    comment = player.locator('#review-status li[data-target="skill:Climbing"]')
    expect(comment).to_contain_text("raise it to Good")
    row = player.locator("form.trait-row", has=player.locator("input[name=name][value='Climbing']"))
    # The comment also sits under the row it is about (issue 12), a thread the player
    # answers there (issue 26); it stays while the row changes.
    thread = row.locator("xpath=following-sibling::*[1]")
    expect(thread.locator(".thread-title")).to_have_text("On Skill: Climbing")
    expect(thread.locator(".thread-body")).to_have_text("A scout climbs well: raise it to Good.")
    row.locator("select[name=level]").select_option(label="Good")
    thread.get_by_label("Your answer on Skill: Climbing").fill("Raised: he grew up on cliffs.")
    thread.get_by_role("button", name="Send").click()
    expect(thread.get_by_role("status")).to_have_text("Sent: gwen is told.")
    expect(thread.locator(".thread-body").last).to_have_text("Raised: he grew up on cliffs.")
    # The builder saves on change and sends the new version to every form on the page,
    # the panel's Submit included: without it the submission would be refused as stale.
    expect(player.locator("#review-status input[name=version]")).to_have_value("5")
    player.get_by_role("button", name="Submit again").click()
    expect(player.locator(panel_state)).to_have_text("Submitted")

    gm.goto(f"/characters/{brogo.pk}/audit/")
    diff = gm.locator("#diff")
    expect(diff).to_contain_text("Skill Climbing")  # what changed, a label (issue 39)
    expect(diff.locator("del")).to_have_text("Fair, average")
    expect(diff.locator("ins")).to_have_text("Good, average")
    expect(gm.locator(".timeline")).to_contain_text("raise it to Good")
    gm.goto(f"/characters/{brogo.pk}/review/")
    expect(gm.locator("#threads")).to_contain_text("Raised: he grew up on cliffs.")
    gm.get_by_role("button", name="Approve", exact=True).click()
    gm.wait_for_url(re.compile(r"/campaigns/\d+/review/$"))
    expect(gm.locator(".messages")).to_contain_text("Brogo: approved.")

    gm.goto(f"/characters/{brogo.pk}/advancement/")
    gm.get_by_label("Amount").fill("4")
    gm.get_by_label("Reason").fill("Session 1: the siege wall")
    gm.get_by_role("button", name="Award").click()
    expect(gm.locator("#unspent")).to_have_text("4 XP")
    expect(gm.locator(".answer")).to_contain_text("Awarded 4 XP to Brogo.")

    player.goto(f"/characters/{brogo.pk}/advancement/")
    expect(player.locator("#unspent")).to_have_text("4 XP")
    option = player.locator(".spend-option", has_text="Raise Climbing from Good to Great")
    expect(option.get_by_role("button")).to_have_text("4 XP")
    expect(
        player.locator(".spend-option", has_text="Raise Strength from Fair to Good").get_by_role(
            "button"
        )
    ).to_be_disabled()
    assert fits_the_screen(player)
    option.get_by_role("button").click()
    # The spend asks once, with its price, in view and focused (a phone scrolls to it).
    confirm = player.locator("#confirm-spend")
    expect(confirm).to_contain_text("Raise Climbing from Good to Great?")
    expect(confirm).to_contain_text("It costs 4 XP of the 4 unspent.")
    expect(player.locator("#unspent")).to_have_text("4 XP")
    spend = confirm.get_by_role("button", name="Spend 4 XP")
    expect(spend).to_be_focused()
    expect(spend).to_be_in_viewport()
    spend.click()
    expect(player.locator("#unspent")).to_have_text("0 XP")
    expect(player.locator(".answer")).to_contain_text("Done: Raise Climbing from Good to Great.")

    # htmx logs a refused (4xx) response as an error too: none happened on this path.
    assert console_errors == []
    brogo.refresh_from_db()
    assert brogo.state == Character.State.APPROVED
    assert brogo.experience == 0
    assert brogo.traits.get(name="Climbing").level == GREAT
    assert list(brogo.ledger.values_list("amount", flat=True)) == [4, -4]


def test_a_refused_approval_says_why_beside_the_button(open_page, brogo):
    """Approving a build that breaks a rule without a reason: the message is under the
    reason box, which is marked invalid, described by it and focused, in view with the
    button (issue 12: errors where the eye is)."""
    Trait.objects.filter(character=brogo, kind=Trait.Kind.ATTRIBUTE).update(level=SUPERB)
    character_submit(character=brogo, actor=brogo.owner, expected_version=None)
    gm = open_page(DESKTOP)
    log_in(gm, "gwen", PASSWORD)
    gm.goto(f"/characters/{brogo.pk}/review/")
    button = gm.get_by_role("button", name="Approve over the rules")
    button.click()
    reason = gm.get_by_label("Why approve it over the rules")
    error = gm.locator("#id_override_reason_error")
    expect(error).to_contain_text("Approve it over the rules only with a reason")
    expect(reason).to_have_attribute("aria-invalid", "true")
    expect(reason).to_have_attribute(
        "aria-describedby", "id_override_reason_helptext id_override_reason_error"
    )
    expect(reason).to_be_focused()
    expect(error).to_be_in_viewport()
    expect(button).to_be_in_viewport()
    assert Character.objects.get(pk=brogo.pk).state == Character.State.SUBMITTED


def test_on_a_phone_a_comment_summary_keeps_the_space_before_the_name(open_page, brogo):
    """A flex summary (for its 44 px) dropped the space between its text and the <bdi>
    name: "Comment onClimbing"."""
    from characters.services.review import character_submit

    character_submit(character=brogo, actor=brogo.owner, expected_version=None)
    gm = open_page(PHONE)
    log_in(gm, "gwen", PASSWORD)
    gm.goto(f"/characters/{brogo.pk}/review/")
    summary = gm.locator("summary", has_text="Comment on").first
    box = summary.bounding_box()
    assert box["height"] >= 44
    # The gap between the end of "Comment on" and the name: a space's width, not none.
    gap = summary.evaluate(
        """s => {
          const range = document.createRange();
          range.setStart(s.firstChild, 0);
          range.setEnd(s.firstChild, "Comment on".length);
          return s.querySelector("bdi").getBoundingClientRect().left
                 - range.getBoundingClientRect().right;
        }"""
    )
    assert gap >= 2, gap
