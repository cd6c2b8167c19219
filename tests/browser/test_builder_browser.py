"""Issue 3 end to end in a real headless Chromium against the live server: a GM creates a
campaign with a house rule, a player joins by link and builds, watching the budget move."""

import re

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from characters.models import Campaign, Character
from characters.services.campaigns import campaign_create, campaign_join
from characters.services.characters import character_create
from rules.ladder import GREAT
from tests.support.browser import DESKTOP, PHONE, fits_the_screen, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def people(db):
    User = get_user_model()
    return User.objects.create_user("greta", password=PASSWORD), User.objects.create_user(
        "pip", password=PASSWORD
    )


def gm_creates_campaign(page, name, ruleset, house_rules):
    log_in(page, "greta", PASSWORD)
    page.goto("/campaigns/new/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=base_ruleset]", ruleset)
    # Changing the ruleset re-renders the house-rules fields for it (htmx): wait for it.
    page.wait_for_load_state("networkidle")
    for field, value in house_rules.items():
        page.fill(f"input[name={field}]", str(value))
    page.get_by_role("button", name="Create campaign").click()
    page.wait_for_url(re.compile(r"/campaigns/\d+/$"))
    invite = page.locator("#invite-link")
    link = invite.input_value()
    # The whole link shows, on a phone too (issue 39), and Copy copies it, and says so.
    assert invite.evaluate("field => field.scrollWidth <= field.clientWidth")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    page.get_by_role("button", name="Copy").click()
    expect(page.locator(".copy-said")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == link
    return link


def player_joins_and_starts(page, invite_url, character_name):
    log_in(page, "pip", PASSWORD)
    page.goto(invite_url)
    page.get_by_role("button", name=re.compile("Join as pip")).click()
    campaign = Campaign.objects.get(memberships__user__username="pip")
    page.goto(f"/characters/new/?campaign={campaign.pk}")
    page.fill("input[name=name]", character_name)
    page.get_by_role("button", name=re.compile("Create")).click()
    page.wait_for_url(re.compile(r"/characters/\d+/$"))


@pytest.fixture
def builder_of(open_page, people):
    """builder_of(name) -> pip's page on the builder of a new Mudge draft of that name, in a
    campaign of greta's with 40 skill levels: what the journeys above reach through the
    campaign form, the invite and the new-character form, made by the same services, for the
    tests of the builder alone."""
    gm, player = people

    def builder_of(name):
        campaign = campaign_create(
            gm=gm, name="Builder", base_ruleset="mudge", house_rules={"skill_levels": 40}
        )
        campaign_join(user=player, code=campaign.invite_code)
        character = character_create(owner=player, name=name, campaign=campaign)
        page = open_page(DESKTOP)
        log_in(page, "pip", PASSWORD)
        page.goto(f"/characters/{character.pk}/")
        return page

    return builder_of


def level_select(page, trait):
    row = page.locator("form.trait-row", has=page.locator(f"input[name=name][value='{trait}']"))
    return row.locator("select[name=level]")


def build_mudge_character(page):
    balance = page.locator("#balance-value")
    # 6 attribute levels x 3 + 40 skill levels (the house rule) + 2 gifts x 6 (Mudge 1.6).
    expect(balance).to_have_text("70 skill levels")
    level_select(page, "Strength").select_option("Good")
    expect(balance).to_have_text("67 skill levels")  # 1 attribute level = 3 (Mudge 1.64)

    level_select(page, "Dexterity").select_option("Superb")
    expect(balance).to_have_text("58 skill levels")
    level_select(page, "Strength").select_option("Superb")
    panel = page.locator("#budget-panel")
    expect(panel).to_contain_text("Only 1 attribute may be Superb; 2 are (Strength, Dexterity)")
    expect(panel).to_contain_text("1 rule broken")
    level_select(page, "Strength").select_option("Great")
    expect(panel).not_to_contain_text("may be Superb")

    add = page.locator("form#add-skill")
    add.locator("input[name=name]").fill("Climbing")
    add.locator("select[name=level]").select_option("Good")
    add.get_by_role("button", name="Add", exact=True).click()
    expect(page.locator("#rows-skill")).to_contain_text("3 skill levels")
    # Great Str (2) + Superb Dex (3) = 5 attribute levels; Climbing Good (average) 3 levels.
    expect(balance).to_have_text(f"{70 - 5 * 3 - 3} skill levels")
    expect(panel).to_contain_text("A legal build")


def test_gm_campaign_player_joins_and_builds_on_desktop(open_page, people):
    gm_page = open_page(DESKTOP)
    invite = gm_creates_campaign(gm_page, "Shadows over Cynosure", "mudge", {"skill_levels": 40})
    assert Campaign.objects.get().house_rules == {"skill_levels": 40}

    page = open_page(DESKTOP)
    player_joins_and_starts(page, invite, "Brogo")
    build_mudge_character(page)
    character = Character.objects.get(name="Brogo")
    assert dict(character.traits.values_list("name", "level"))["Climbing"] == 1

    gm_page.goto(f"/characters/{character.pk}/")
    expect(gm_page.locator("#budget-panel")).to_contain_text("A legal build")


def test_the_same_build_on_a_phone(open_page, people):
    invite = gm_creates_campaign(open_page(PHONE), "Phone game", "mudge", {"skill_levels": 40})
    page = open_page(PHONE)
    player_joins_and_starts(page, invite, "Dolores")
    build_mudge_character(page)
    # Nothing spills sideways on a 375-pixel screen.
    assert fits_the_screen(page)


def test_a_microfudged_campaign(open_page, people):
    invite = gm_creates_campaign(
        open_page(DESKTOP), "Night shift", "microfudged-dip", {"tokens": 6}
    )
    page = open_page(DESKTOP)
    player_joins_and_starts(page, invite, "Jim Bones")
    panel = page.locator("#budget-panel")
    # MicroFudged DIP I: spend at least one token before play.
    expect(panel).to_contain_text("Spend at least 1 token")
    add = page.locator("form#add-skill")
    add.locator("input[name=name]").fill("Medicine")
    add.locator("select[name=level]").select_option("Fair")
    add.get_by_role("button", name="Add", exact=True).click()
    # Jim Bones: Medicine Fair is 2 tokens from Poor; 4 of 6 are saved.
    expect(page.locator("#balance-value")).to_have_text("4 tokens")
    expect(panel).to_contain_text("A legal build")


def test_a_change_right_after_a_swap_is_not_lost(builder_of):
    """htmx wires up a swapped-in form only when it settles (20 ms later by default); a
    change made in between posted nothing, so a quick second edit was silently dropped."""
    page = builder_of("Quick")
    # Once the first edit's row is swapped in, pick Great on it on the next tick of the loop.
    page.evaluate(
        """() => document.body.addEventListener('htmx:afterSwap', () => setTimeout(() => {
            const select = [...document.querySelectorAll('form.trait-row')]
              .find(form => form.querySelector("input[name=name][value=Strength]"))
              .querySelector('select[name=level]');
            select.value = [...select.options].find(option => option.text === 'Great').value;
            select.dispatchEvent(new Event('change', {bubbles: true}));
        }), {once: true})"""
    )
    level_select(page, "Strength").select_option("Good")
    # Great Strength is 2 attribute levels, 6 skill levels (Mudge 1.64).
    expect(page.locator("#balance-value")).to_have_text("64 skill levels")
    expect(level_select(page, "Strength")).to_have_value(
        str(Character.objects.get(name="Quick").traits.get(name="Strength").level)
    )


def test_two_rows_changed_at_once_both_count(builder_of):
    """Edits on two rows sent before the first answer: the second used to carry the version
    the page was loaded at and was refused as stale (409) though nothing else had changed."""
    page = builder_of("Twice")
    refused = []
    page.on("response", lambda response: response.status == 409 and refused.append(response.url))
    page.evaluate(
        """() => [['Strength', 'Good'], ['Dexterity', 'Great']].forEach(([trait, level]) => {
            const select = [...document.querySelectorAll('form.trait-row')]
              .find(form => form.querySelector(`input[name=name][value=${trait}]`))
              .querySelector('select[name=level]');
            select.value = [...select.options].find(option => option.text === level).value;
            select.dispatchEvent(new Event('change', {bubbles: true}));
        })"""
    )
    # Good Strength (1) and Great Dexterity (2): 3 attribute levels, 9 skill levels (Mudge 1.64).
    expect(page.locator("#balance-value")).to_have_text(f"{70 - 9} skill levels")
    levels = dict(Character.objects.get(name="Twice").traits.values_list("name", "level"))
    assert (levels["Strength"], levels["Dexterity"], refused) == (1, 2, [])


def test_a_swap_sets_no_inline_style(builder_of):
    """A browser's autofill leaves an empty style attribute on the fields it looked at (seen
    after signing up); htmx copied it onto the swapped-in row, which the CSP (style-src
    'self') refused with a console error on every edit. The page settles no style."""
    page = builder_of("Filled")
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    # As autofill leaves them (the CSP reports setting them, which is not the page's doing).
    page.evaluate(
        "() => document.querySelectorAll('input').forEach(i => i.setAttribute('style', ''))"
    )
    assert page.locator("form.trait-row input[style]").count() > 0
    errors.clear()
    level_select(page, "Strength").select_option("Good")
    expect(page.locator("#balance-value")).to_have_text("67 skill levels")
    assert errors == []


def test_a_refused_row_shows_its_message_and_logs_no_error(builder_of):
    """A 400 is an answer the page shows (the form with its message), not a failure of
    htmx's: it logged "Response Status Error Code 400" on every refused edit."""
    page = builder_of("Twice over")
    errors = []
    # Chromium's own network log ("Failed to load resource: ... 400") is not the page's.
    page.on(
        "console",
        lambda message: (
            message.type == "error"
            and not message.text.startswith("Failed to load resource")
            and errors.append(message.text)
        ),
    )
    page.reload()  # the console watched from the page's load on
    page.fill("#add-attribute input[name=name]", "Strength")
    page.locator("#add-attribute button[type=submit]").click()
    expect(page.locator("#add-attribute")).to_contain_text(
        "Twice over already has the attribute Strength"
    )
    expect(page.locator("#balance-value")).to_have_text("70 skill levels")
    assert errors == []


DIP_AND_MUDGE = ("microfudged-dip", "mudge")


def test_the_new_character_form_follows_the_campaign(open_page, people):
    """A player in one campaign starts there, with its ruleset shown; building alone lets
    them choose the ruleset again."""
    invite = gm_creates_campaign(open_page(DESKTOP), "Night shift", "microfudged-dip", {})
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(invite)
    page.get_by_role("button", name=re.compile("Join as pip")).click()
    page.goto("/characters/new/")
    campaign = page.locator("select[name=campaign]")
    tokens, mudge = (page.locator(f"input[name=ruleset][value={slug}]") for slug in DIP_AND_MUDGE)
    # The campaign by its name, under its game's (a phone showed "Night shift — Micro…").
    expect(campaign.locator("option:checked")).to_have_text("Night shift")
    expect(campaign.locator("optgroup")).to_have_attribute("label", "MicroFudged DIP (tokens)")
    expect(tokens).to_be_checked()
    expect(tokens).to_be_disabled()
    plays = page.locator("#campaign-plays")
    expect(plays).to_have_text("The campaign plays MicroFudged DIP (tokens).")
    campaign.select_option(label="No campaign")
    expect(plays).to_be_hidden()
    expect(mudge).to_be_enabled()
    mudge.check()
    campaign.select_option(label="Night shift")
    expect(tokens).to_be_checked()
    # Building alone again, the ruleset the player chose comes back.
    campaign.select_option(label="No campaign")
    expect(mudge).to_be_checked()
    campaign.select_option(label="Night shift")
    expect(tokens).to_be_checked()
    page.fill("input[name=name]", "Jim Bones")
    page.get_by_role("button", name=re.compile("Create")).click()
    page.wait_for_url(re.compile(r"/characters/\d+/$"))
    jim = Character.objects.get(name="Jim Bones")
    assert (jim.campaign.name, jim.ruleset) == ("Night shift", "microfudged-dip")


def skills_picker_open(page, people):
    """pip's new Mudge character Mira, her builder open in `page` at the skills picker."""
    greta, pip = people
    campaign = campaign_create(gm=greta, name="Pickers", base_ruleset="mudge")
    campaign.memberships.create(user=pip)
    mira = character_create(owner=pip, name="Mira", campaign=campaign)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{mira.pk}/?picker=skill#picker-skill")
    return page, mira


def test_a_pickers_add_at_quotes_each_cost_at_its_level(open_page, people):
    """The skills picker quotes each cost at its Add at (Mudge 1.62: an average skill takes
    1 at Mediocre, 4 at Great); set to Great it says so, keeping the search as typed, and
    adding Climbing there takes the 4 it said. Undo brings the picker back as it was: open,
    at Great, the search kept."""
    page, mira = skills_picker_open(open_page(PHONE), people)
    climbing = page.locator("#picker-list-skill > li", has_text="Climbing")
    expect(climbing.locator(".pick-effect")).to_contain_text("at Mediocre it takes 1 skill level")
    page.locator("#picker-skill input[type=search]").fill("clim")
    page.locator("#picker-skill .picker-level select").select_option(label="Great")
    expect(climbing.locator(".pick-effect")).to_contain_text("at Great it takes 4 skill levels")
    expect(page.locator("#picker-skill input[type=search]")).to_have_value("clim")
    expect(page.locator("#picker-list-skill > li", has_text="Acrobatics")).to_be_hidden()
    expect(page.locator("#picker-skill .picker-level select")).to_be_focused()
    balance = int(page.locator("#balance-value").get_attribute("data-balance"))
    climbing.get_by_role("button", name="Add Climbing").click()
    expect(page.locator("#balance-value")).to_have_attribute("data-balance", str(balance - 4))
    assert mira.traits.get(name="Climbing").level == GREAT
    page.locator("#undo-form button").click()
    expect(page.locator("#balance-value")).to_have_attribute("data-balance", str(balance))
    expect(page.locator("#picker-skill .picker-level select")).to_have_value(str(GREAT))
    expect(climbing.locator(".pick-effect")).to_contain_text("at Great it takes 4 skill levels")
    expect(page.locator("#picker-skill input[type=search]")).to_have_value("clim")


def test_a_picker_search_that_finds_nothing_says_so(open_page, people):
    """Searching the skill picker for "Chanter" leaves nothing: its status line says so and
    points to the add row; a search that finds one empties it again."""
    page, _ = skills_picker_open(open_page(DESKTOP), people)
    search = page.locator("#picker-skill input[type=search]")
    status = page.locator('#picker-skill [role="status"]')
    search.fill("Chanter")
    expect(page.locator("#picker-list-skill > li:visible")).to_have_count(0)
    expect(status).to_have_text(
        "No entry matches “Chanter”: add it as your own skill in the field above."
    )
    search.fill("Acro")
    expect(page.locator("#picker-list-skill > li:visible")).to_have_count(1)
    expect(status).to_have_text("")
