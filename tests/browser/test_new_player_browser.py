"""A new player's first evening, in headless Chromium on a desktop and on a 375-pixel phone
(issue 12): the invite link names the campaign and survives signing up, the new-character
form starts in that campaign, Undo takes an edit back and Redo puts it back, and the GM's
answer arrives as a notification and as a comment on the row it is about."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from characters.models import Character
from characters.services.campaigns import campaign_create
from characters.services.review import character_request_changes
from tests.support.browser import DESKTOP, PHONE, fits_the_screen

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_invite_build_undo_and_the_gms_answer(open_page, viewport):
    gm = get_user_model().objects.create_user("greta", password=PASSWORD)
    campaign = campaign_create(gm=gm, name="The Long Road", base_ruleset="mudge")
    page = open_page(viewport)

    # The invite link, before any account: the log-in page names the campaign, and the
    # header's Sign up keeps the invite.
    page.goto(f"/join/{campaign.invite_code}/")
    expect(page.locator("main")).to_contain_text("Log in to join The Long Road")
    page.locator("header.site-header").get_by_role("button", name="Sign up").click()
    expect(page.locator("main")).to_contain_text("to join The Long Road")
    page.get_by_label("Username").fill("pip")
    page.get_by_label("Password", exact=True).fill(PASSWORD)
    page.get_by_label("Password confirmation").fill(PASSWORD)
    page.get_by_role("button", name="Create my account").click()
    page.get_by_role("button", name=re.compile("Join as pip")).click()

    # One campaign: the new-character form starts there, with its ruleset.
    page.goto("/characters/new/")
    expect(page.locator("input[name=ruleset][value=mudge]")).to_be_checked()
    page.get_by_label("Name").fill("Tess")
    page.get_by_role("button", name="Create and start building").click()
    page.wait_for_url(re.compile(r"/characters/\d+/$"))
    tess = Character.objects.get(name="Tess")
    assert tess.campaign_id == campaign.pk

    # Undo: Strength Fair -> Good costs 3 skill levels (Mudge 1.64); undone, they return.
    balance = page.locator("#balance-value")
    expect(balance).to_have_text("75 skill levels")
    strength = page.locator("form.trait-row", has=page.locator("input[value='Strength']"))
    strength.locator("select[name=level]").select_option(label="Good")
    expect(balance).to_have_text("72 skill levels")
    # Each answer offers Undo (or Redo) itself, where the player is.
    answer = page.locator(".answer-actions")
    answer.get_by_role("button", name="Undo: Strength Fair → Good").click()
    expect(page.locator(".messages")).to_contain_text("Undone: Strength Fair → Good.")
    expect(balance).to_have_text("75 skill levels")
    answer.get_by_role("button", name="Redo: Strength Fair → Good").click()
    expect(page.locator(".messages")).to_contain_text("Redone: Strength Fair → Good.")
    expect(balance).to_have_text("72 skill levels")
    answer.get_by_role("button", name="Undo: Strength Fair → Good").click()
    expect(balance).to_have_text("75 skill levels")
    # A new edit leaves nothing to redo, and the Undo news' buttons go: the edit's answer
    # offers its own.
    news, redo = page.locator(".messages"), re.compile("Redo")
    expect(news).to_contain_text("Undone: Strength Fair → Good.")
    expect(news.get_by_role("button", name=redo)).to_have_count(1)
    page.wait_for_load_state()  # Undo loaded the page again: its scripts listen once loaded
    strength.locator("select[name=level]").select_option(label="Great")
    expect(balance).to_have_text("69 skill levels")
    expect(page.locator("#redo-form")).to_have_count(0)
    expect(page.get_by_role("button", name=redo)).to_have_count(0)
    # Undone from the top of the page, its news stays there, in view; the next edit takes
    # its Undo and Redo away (named for an edit no longer the latest, they would take back
    # another), and only the answer's own are left.
    strength.locator("select[name=level]").select_option(label="Superb")
    expect(balance).to_have_text("66 skill levels")
    page.evaluate("scrollTo(0, 0)")
    page.locator("#undo-edit").get_by_role("button", name="Undo: Strength Great → Superb").click()
    expect(balance).to_have_text("69 skill levels")
    expect(news.get_by_role("button")).to_have_text(
        ["Undo: Strength Fair → Great", "Redo: Strength Great → Superb"]
    )
    page.wait_for_load_state()
    strength.locator("select[name=level]").select_option(label="Good")
    expect(balance).to_have_text("72 skill levels")
    expect(page.locator(".answer-actions button")).to_have_text(["Undo: Strength Great → Good"])
    assert fits_the_screen(page)

    # The GM answers: a notification in the header, the comment under the row.
    page.get_by_role("button", name="Submit for review").click()
    expect(page.locator("#review-status .state-badge")).to_have_text("Submitted")
    character_request_changes(
        character=tess,
        actor=gm,
        expected_version=None,
        comments=[("attribute:Strength", "A porter needs Good Strength.")],
    )
    page.reload()
    link = page.locator("#notifications-link")
    expect(link).to_have_attribute("aria-label", "Notifications, 1 unread")
    beside = strength.locator("xpath=following-sibling::*[1]")  # the thread under the row
    expect(beside.locator(".thread-body")).to_have_text("A porter needs Good Strength.")
    link.click()
    expect(page.locator(".notifications li.unread")).to_have_text(
        re.compile("Tess is back with you for changes: 1 comment from greta.")
    )
    page.get_by_role("button", name="Mark all as read").click()
    expect(page.locator(".notifications li.unread")).to_have_count(0)
    expect(page.locator("#notifications-link")).not_to_have_attribute(
        "aria-label", re.compile("unread")
    )
    assert fits_the_screen(page)
