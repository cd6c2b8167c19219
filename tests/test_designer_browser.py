"""Issue 29 end to end in headless Chromium: a GM designs a small game of their own in the
browser (two attributes of its own, "Fine" for Fair, flat skills, a three-box wound track),
is refused nonsense with every field and reason at once, saves it, starts a campaign with
it; a player on a phone builds a character under it, the GM approves, the sheet prints."""

import io
import json
import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect
from pypdf import PdfReader

from characters.models import Campaign, Character, DesignedRuleset
from tests.browser import DESKTOP, PHONE, fits_the_screen, log_in
from tests.test_builder_browser import level_select

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"
LADDER = ["Abysmal", "Terrible", "Poor", "Mediocre", "Fine", "Good", "Great", "Superb", "Legendary"]


@pytest.fixture
def people(db):
    User = get_user_model()
    return User.objects.create_user("gwen", password=PASSWORD), User.objects.create_user(
        "pip", password=PASSWORD
    )


def edit_section(page, title: str, change) -> None:
    """Open a section of the designer, change its JSON with `change(value) -> value`."""
    section = page.locator("details.design-section", has=page.locator("summary", has_text=title))
    if section.get_attribute("open") is None:
        section.locator("summary").click()
    box = section.locator("textarea")
    box.fill(json.dumps(change(json.loads(box.input_value())), indent=2))


def test_a_gm_designs_a_game_a_player_builds_under_it_and_the_sheet_prints(open_page, people):
    gm = open_page(DESKTOP)
    log_in(gm, "gwen", PASSWORD)
    gm.goto("/games/")
    gm.select_option("select[name=start]", "blank")
    gm.fill("input[name=name]", "Moor and Marsh")
    gm.get_by_role("button", name="Start designing").click()
    gm.wait_for_url(re.compile(r"/games/\d+/$"))

    edit_section(gm, "Trait ladder", lambda v: {**v, "words": LADDER, "fair": "Fine"})
    edit_section(gm, "Attributes", lambda v: {**v, "names": ["Grit", "Wits"], "default": "Fine"})
    edit_section(gm, "Skills", lambda v: {**v, "pricing": "flat", "default": "Poor"})
    edit_section(
        gm,
        "Wound track",
        lambda v: {
            **v,
            "title": "Mud",
            "track": [{"name": "Muddied", "damage": "1+", "penalty": 0, "boxes": 3}],
            "damage_capacity_attribute": "Grit",
            "muscle_attribute": "Grit",
        },
    )
    edit_section(gm, "Budgets and limits", lambda v: {**v, "skill_levels": -1})
    gm.get_by_role("button", name="Preview").click()
    # Every problem at once, each with its field: the old word Fair in the advancement costs,
    # the negative budget; each also marked on its own section.
    problems = gm.locator("#preview .problems")
    expect(problems).to_contain_text("advancement.skill_steps.Fair: 'Fair' is not a level")
    expect(problems).to_contain_text("numbers.skill_levels: cannot be negative (-1)")
    expect(gm.locator("summary", has_text="Advancement")).to_contain_text("1 problem")
    assert DesignedRuleset.objects.get().versions.count() == 1  # nothing saved

    def fine_steps(value):
        steps = value["skill_steps"]
        steps["Fine"] = steps.pop("Fair")
        return value

    edit_section(gm, "Advancement", fine_steps)
    edit_section(gm, "Budgets and limits", lambda v: {**v, "skill_levels": 10})
    edit_section(
        gm,
        "Seed catalogue",
        lambda v: {**v, "attributes": ["Grit", "Wits"], "skills": [{"name": "Wading"}]},
    )
    # The live preview follows the change (htmx, on change): the sample character stands at
    # the new ladder's words, with the new track.
    preview = gm.locator("#preview")
    expect(preview).to_contain_text("Grit: Good +1")
    expect(preview).to_contain_text("Muddied (1+): 3 boxes")
    gm.get_by_label("What changed").fill("Fine, Grit and Wits, three boxes of mud")
    gm.get_by_role("button", name="Save as a new version").click()
    expect(gm.locator(".messages")).to_contain_text("Saved as version 2.")
    assert fits_the_screen(gm)

    gm.get_by_label("Start a campaign with version 2").fill("The Bog")
    gm.get_by_role("button", name="Start the campaign").click()
    gm.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    expect(gm.locator("hgroup")).to_contain_text("Moor and Marsh, version 2")
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
    add.get_by_role("button", name="Add").click()
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

    # The sheet's dice roller speaks the game's ladder: a plain roll starts from Fine.
    player.goto(f"/characters/{bertha.pk}/sheet/")
    player.get_by_role("button", name="Roll 4dF from Fine").click()
    words = "|".join(LADDER)
    expect(player.locator("[data-result]")).to_have_text(
        re.compile(rf"^Plain roll: Fine, rolled [+-]?\d → ({words})\.$")
    )

    response = player.request.get(f"/characters/{bertha.pk}/sheet.pdf?paper=a4")
    assert response.status == 200, response.text()
    text = " ".join(PdfReader(io.BytesIO(response.body())).pages[0].extract_text().split())
    for words in ("Moor and Marsh", "Grit: Good +1", "Wits: Fine 0", "Wading: Good +1", "Muddied"):
        assert words in text, words
    assert "not approved" not in text
