"""Issue 29 end to end in headless Chromium: a GM designs a small game of their own in the
browser, field by field, a section at a time (two attributes of its own, "Fine" for Fair,
flat skills, a three-box wound track), is refused nonsense beside the field it is in, saves
each section as a version, starts a campaign with it; a player on a phone builds a
character under it, the GM approves, the sheet prints."""

import io
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect
from pypdf import PdfReader

from characters.models import Campaign, Character, DesignedRuleset
from tests.browser.test_builder_browser import level_select
from tests.support.browser import DESKTOP, PHONE, fits_the_screen, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"
LADDER = ["Abysmal", "Terrible", "Poor", "Mediocre", "Fine", "Good", "Great", "Superb", "Legendary"]


@pytest.fixture
def people(db):
    User = get_user_model()
    return User.objects.create_user("gwen", password=PASSWORD), User.objects.create_user(
        "pip", password=PASSWORD
    )


def open_section(page, title: str) -> None:
    """From the game's page, one of its sections."""
    page.goto(page.url.split("/games/")[0] + f"/games/{game_id(page)}/")
    page.locator(".design-section-list").get_by_role("link", name=title, exact=True).click()
    expect(page.locator("h1")).to_have_text(title)


def game_id(page) -> str:
    return re.search(r"/games/(\d+)/", page.url).group(1)


def save(page, saved: str = "Saved as version") -> None:
    page.get_by_role("button", name="Save as a new version").click()
    expect(page.locator("[role=status]")).to_contain_text(saved)


def test_a_gm_designs_a_game_a_player_builds_under_it_and_the_sheet_prints(open_page, people):
    gm = open_page(DESKTOP)
    log_in(gm, "gwen", PASSWORD)
    gm.goto("/games/")
    gm.check("input[name=start][value=blank]")
    gm.fill("input[name=name]", "Moor and Marsh")
    gm.get_by_role("button", name="Start designing").click()
    gm.wait_for_url(re.compile(r"/games/\d+/$"))
    design = DesignedRuleset.objects.get()

    # The ladder, word by word: a row added at the top (htmx, focused) and taken away again,
    # then Fair renamed Fine; every level of the game moves with it.
    open_section(gm, "Trait ladder")
    gm.get_by_role("button", name="Add a word at the top").click()
    expect(gm.get_by_label("Word 10", exact=True)).to_be_focused()
    gm.get_by_role("button", name="Remove word 10").click()
    expect(gm.locator("#rows-words li.design-row")).to_have_count(9)
    assert gm.locator("input[name=fair]:checked").get_attribute("value") == "4"
    gm.get_by_label("Word 5", exact=True).fill("Fine")
    save(gm)

    # Its own attributes, and the one damage reads.
    open_section(gm, "Attributes")
    gm.get_by_label("Attribute 1", exact=True).fill("Grit")
    gm.get_by_label("Attribute 2", exact=True).fill("Wits")
    expect(gm.get_by_label("Default level")).to_have_value("Fine")
    gm.get_by_label("Attribute that soaks damage").fill("Grit")
    gm.get_by_label("Attribute that adds to damage").fill("Grit")
    save(gm)

    # Skills flat from Poor (the blank game's already: nothing to save).
    open_section(gm, "Skills")
    gm.get_by_label("Flat from a default").check()
    gm.get_by_label("Default level").select_option("Poor")
    save(gm, "Nothing changed")

    # A wound track of one row of three boxes; nonsense first, refused beside its field.
    open_section(gm, "Wound track")
    gm.get_by_label("Title", exact=True).fill("Mud")
    for left in (4, 3, 2, 1):
        gm.get_by_role("button", name="Remove row 2").click()
        expect(gm.locator("#rows-track li.design-row")).to_have_count(left)
    gm.locator("#id_track-0-name").fill("Muddied")
    gm.locator("#id_track-0-damage").fill("1+")
    gm.locator("#id_track-0-boxes").fill("0")
    gm.get_by_role("button", name="Save as a new version").click()
    expect(gm.locator("#id_track-0-boxes_error")).to_have_text("Must be from 1 to 20, not 0.")
    expect(gm.locator("#id_track-0-boxes")).to_be_focused()
    assert design.versions.count() == 3  # nothing saved
    # The live preview follows the change (htmx): the sample character's three boxes.
    gm.locator("#id_track-0-boxes").fill("3")
    gm.locator("#id_track-0-boxes").press("Tab")
    expect(gm.locator("#preview")).to_contain_text("Muddied (1+): 3 boxes")
    gm.get_by_label("What changed").fill("Grit and Wits, three boxes of mud")
    save(gm)

    # A budget of -1 is refused beside its field; ten is saved.
    open_section(gm, "Budgets and limits")
    gm.get_by_label("Free skill levels").fill("-1")
    gm.get_by_role("button", name="Save as a new version").click()
    expect(gm.locator("#id_skill_levels_error")).to_have_text("Cannot be negative (-1).")
    gm.get_by_label("Free skill levels").fill("10")
    save(gm)

    open_section(gm, "Skill list")
    gm.get_by_role("button", name="Add a skill").click()
    expect(gm.locator("#id_skills-0-name")).to_be_focused()
    gm.locator("#id_skills-0-name").fill("Wading")
    save(gm)
    assert fits_the_screen(gm)

    latest = design.latest.number
    gm.goto(f"/games/{design.pk}/")
    preview = gm.locator("#preview")
    expect(preview).to_contain_text("Grit: Good +1")
    expect(preview).to_contain_text("Muddied (1+): 3 boxes")

    # On a phone, the same pages fit the screen.
    phone = open_page(PHONE)
    log_in(phone, "gwen", PASSWORD)
    for section in ("ladder", "harm", "skill-list"):
        phone.goto(f"/games/{design.pk}/{section}/")
        assert fits_the_screen(phone), section

    gm.get_by_label(f"Start a campaign with version {latest}").fill("The Bog")
    gm.get_by_role("button", name="Start the campaign").click()
    gm.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    expect(gm.locator("hgroup")).to_contain_text(f"Moor and Marsh, version {latest}")
    campaign = Campaign.objects.get(name="The Bog")
    invite = gm.locator("#invite-link").input_value()

    player = open_page(PHONE)
    log_in(player, "pip", PASSWORD)
    player.goto(invite)
    player.get_by_role("button", name=re.compile("Join as pip")).click()
    player.goto(f"/characters/new/?campaign={campaign.pk}")
    player.fill("input[name=name]", "Bog Bertha")
    player.get_by_role("button", name=re.compile("Create")).click()
    player.wait_for_url(re.compile(r"/characters/\d+/$"))
    grit = level_select(player, "Grit")
    expect(grit.locator("option:checked")).to_have_text("Fine")
    assert "Fair" not in grit.locator("option").all_inner_texts()
    grit.select_option(label="Good")
    add = player.locator("#add-skill")
    add.locator("input[name=name]").fill("Wading")
    add.locator("select[name=level]").select_option(label="Good")
    add.get_by_role("button", name="Add", exact=True).click()
    expect(player.locator("form.trait-row input[value='Wading']")).to_have_count(1)
    assert fits_the_screen(player)
    player.get_by_role("button", name="Submit for review").click()
    expect(player.locator("#review-status .state-badge")).to_have_text("Submitted")

    bertha = Character.objects.get(name="Bog Bertha")
    gm.goto(f"/characters/{bertha.pk}/review/")
    gm.get_by_role("button", name="Approve", exact=True).click()
    gm.wait_for_url(re.compile(r"/campaigns/\d+/review/$"))
    bertha.refresh_from_db()
    assert bertha.state == Character.State.APPROVED
    snapshot = bertha.approvals.get().snapshot
    assert {"name": "Grit", "level": "Good"} in snapshot["attributes"]

    # The sheet's dice roller speaks the game's ladder: a plain roll starts from Fine. A
    # result below the rolls' bottom reads from it (rules.play.result_name): -4 from Fine,
    # 1 roll in 81, is "Terrible-1".
    player.goto(f"/characters/{bertha.pk}/sheet/")
    player.get_by_role("button", name="Roll 4dF from Fine").click()
    words = "|".join(LADDER)
    expect(player.locator("[data-result]")).to_have_text(
        re.compile(rf"^Plain roll: Fine, rolled [+-]?\d → ({words})([+-]\d)?\.$")
    )

    response = player.request.get(f"/characters/{bertha.pk}/sheet.pdf?paper=a4")
    assert response.status == 200, response.text()
    text = " ".join(PdfReader(io.BytesIO(response.body())).pages[0].extract_text().split())
    for words in ("Moor and Marsh", "Grit: Good +1", "Wits: Fine 0", "Wading: Good +1", "Muddied"):
        assert words in text, words
    assert "not approved" not in text
