"""No stale verdicts, in a real headless Chromium: after one edit, everything on the builder
that shows the report (the budget panel, the review panel's count of broken rules, the
issue marks on every row) agrees."""

import json
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from characters.adapters import character_to_rules, ruleset_for
from characters.models import Campaign, Character, Membership, Trait
from characters.services.character_files import character_import
from characters.services.characters import character_create
from characters.services.review import character_submit
from rules.ladder import SUPERB
from rules.report import build_report
from tests.browser.test_builder_browser import level_select
from tests.support.browser import PHONE, log_in

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
PASSWORD = "correct-horse-battery"


@pytest.fixture
def two_superb(db):
    """A Mudge draft with Strength and Dexterity both Superb: Mudge 1.5 allows one."""
    User = get_user_model()
    gm = User.objects.create_user("greta", password=PASSWORD)
    player = User.objects.create_user("pip", password=PASSWORD)
    campaign = Campaign.objects.create(name="Shire", gm=gm, base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    character = character_create(owner=player, name="Brogo", campaign=campaign)
    character.traits.filter(kind=Trait.Kind.ATTRIBUTE, name__in=["Strength", "Dexterity"]).update(
        level=SUPERB
    )
    return character


def marks(page):
    return page.locator(".trait-row .row-issue:not(.warning)")


@pytest.mark.parametrize("viewport", [None, PHONE], ids=["desktop", "phone"])
def test_fixing_a_second_superb_updates_every_mark(open_page, two_superb, viewport):
    page = open_page(viewport) if viewport else open_page()
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{two_superb.pk}/")
    panel = page.locator("#budget-panel")
    verdict = page.locator("#review-verdict")
    cap = "Only 1 attribute may be Superb; 2 are (Strength, Dexterity)"
    expect(panel).to_contain_text(cap)
    broken = panel.locator(".issues.errors li").count()
    expect(verdict).to_contain_text(f"breaks {broken} rule")
    # The cap marks the row of the second Superb attribute: the one to fix is the other.
    strength_row = page.locator("#section-attribute form.trait-row").filter(
        has=page.locator("input[name=name][value='Strength']")
    )
    dexterity_row = page.locator("#section-attribute form.trait-row").filter(
        has=page.locator("input[name=name][value='Dexterity']")
    )
    expect(dexterity_row.locator("[data-code=cap_exceeded]")).to_have_count(1)
    expect(strength_row.locator("[data-code=cap_exceeded]")).to_have_count(0)

    level_select(page, "Strength").select_option("Great")

    # The edited row, the other row, the panel and the review verdict all agree.
    expect(panel).not_to_contain_text(cap)
    expect(page.locator("[data-code=cap_exceeded]")).to_have_count(0)
    expect(dexterity_row.locator(".row-issue")).to_have_count(0)
    errors_left = panel.locator(".issues.errors li").count()
    if errors_left:
        expect(verdict).to_contain_text(f"breaks {errors_left} rule")
    else:
        expect(panel).to_contain_text("A legal build")
        expect(verdict).to_have_text("")
    # Every rule the panel lists that names a row is marked on a row, and no more.
    row_codes = sorted(marks(page).evaluate_all("els => els.map(e => e.dataset.code)"))
    panel_codes = sorted(
        panel.locator(".issues.errors li").evaluate_all("els => els.map(e => e.dataset.code)")
    )
    assert set(row_codes) <= set(panel_codes)


@pytest.fixture
def table(db):
    """Greta runs two Mudge campaigns on 65 skill levels, where the Mudge 6.3 Brogo is a
    legal build; Pip plays in both and has Brogo submitted in the first."""
    User = get_user_model()
    gm = User.objects.create_user("greta", password=PASSWORD)
    player = User.objects.create_user("pip", password=PASSWORD)
    campaigns = []
    for name in ("The Shire", "Bree"):
        campaign = Campaign.objects.create(
            name=name, gm=gm, base_ruleset="mudge", house_rules={"skill_levels": 65}
        )
        Membership.objects.create(campaign=campaign, user=player)
        campaigns.append(campaign)
    text = (Path(__file__).resolve().parents[2] / "rules/samples/brogo.json").read_text()
    brogo, _ = character_import(owner=player, text=text, campaign=campaigns[0])
    character_submit(character=brogo, actor=player, expected_version=None)
    return brogo, campaigns[1]


SPENDS = (  # Mudge 5.2: past the caps of 1 Superb attribute and 2 Superb skills (1.5)
    ("Raise Dexterity from Great to Superb", "24 XP"),
    ("Raise Mimic Animal from Great to Superb", "8 XP"),
    ("Raise Fellowship from Great to Superb", "8 XP"),
)


def test_approved_build_stays_legal_through_play_and_export(open_page, table, tmp_path):
    brogo, bree = table
    gm = open_page()
    log_in(gm, "greta", PASSWORD)
    gm.goto(f"/characters/{brogo.pk}/review/")
    gm.get_by_role("button", name="Approve", exact=True).click()
    expect(gm.locator(".messages")).to_contain_text("Brogo the Scout: approved.")
    gm.goto(f"/characters/{brogo.pk}/advancement/")
    gm.get_by_label("Amount").fill("40")
    gm.get_by_label("Reason").fill("The Battle of Bywater")
    gm.get_by_role("button", name="Award").click()
    expect(gm.locator("#unspent")).to_have_text("40 XP")

    player = open_page(PHONE)
    log_in(player, "pip", PASSWORD)
    player.goto(f"/characters/{brogo.pk}/advancement/")
    for label, cost in SPENDS:
        button = player.locator(".spend-option", has_text=label).get_by_role("button")
        expect(button).to_have_text(cost)
        button.click()
        player.locator("#confirm-spend").get_by_role("button", name=f"Spend {cost}").click()
        expect(player.get_by_role("status").filter(has_text=f"Done: {label}.")).to_be_in_viewport()
    expect(player.locator("#unspent")).to_have_text("0 XP")

    # The builder: approved, locked, and legal, the creation build priced as approved.
    player.goto(f"/characters/{brogo.pk}/")
    expect(player.locator("#review-status .state-badge")).to_have_text("Approved")
    expect(player.locator("#budget-panel")).to_contain_text("A legal build")
    expect(player.locator(".row-issue")).to_have_count(0)
    expect(player.locator("fieldset.locked-build select[name=level]").first).to_be_disabled()
    # The GM's review page and the sheet agree.
    gm.goto(f"/characters/{brogo.pk}/audit/")
    expect(gm.locator("body")).not_to_contain_text("snapshot does not match")
    player.goto(f"/characters/{brogo.pk}/sheet/")
    expect(player.locator(".sheet-stamp")).to_contain_text("Approved · SHA-256")
    expect(player.locator("body")).to_contain_text("The Battle of Bywater")
    expect(player.locator("body")).to_contain_text("Raise Dexterity from Great to Superb")

    # Export, then import into Bree: the ledger travels and the copy stays legal.
    with player.expect_download() as download:
        player.goto(f"/characters/{brogo.pk}/")
        player.get_by_role("link", name="Export file").click()
    exported = tmp_path / "brogo.json"
    download.value.save_as(exported)
    data = json.loads(exported.read_text())
    assert [next(iter(line)) for line in data["advancement"]] == [
        "award",
        "spend",
        "spend",
        "spend",
    ]
    assert data["experience"] == 0
    player.goto("/characters/import/")
    player.set_input_files("input[name=file]", str(exported))
    player.select_option("select[name=campaign]", label="Bree")
    player.get_by_role("button", name="Import").click()
    player.wait_for_url(lambda url: "/import/" not in url)
    copy = Character.objects.get(campaign=bree)
    assert [e.amount for e in copy.ledger.order_by("id")] == [40, -24, -8, -8]
    player.goto(f"/characters/{copy.pk}/")
    expect(player.locator("#budget-panel")).to_contain_text("A legal build")
    assert build_report(character_to_rules(copy), ruleset_for(copy)).valid
