"""Issue 44's experience plan on a 375px phone, htmx and all: the player plans Climbing to
Great (Mudge 5.2: 2 XP then 4 XP), the plan offers the next spend once the GM's award pays
it, and the spend flow's one confirmation buys it."""

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from characters.models import Campaign, Membership
from characters.services.advancement import experience_award
from characters.services.characters import character_create
from characters.services.rows import trait_add
from rules.ladder import FAIR, GOOD
from tests.app.test_review import approved
from tests.support.browser import PHONE, fits_the_screen, log_in

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
    )
    approved(character, gm)
    experience_award(character=character, actor=gm, amount=3, reason="Session 1")
    return character


def test_plan_a_raise_and_buy_its_next_level_on_a_phone(open_page, brogo):
    page = open_page(PHONE)
    log_in(page, "pip", PASSWORD)
    page.goto(f"/characters/{brogo.pk}/advancement/")
    plan = page.locator("#plan")
    expect(plan.locator("details.plan-add")).to_have_attribute("open", "")  # no step yet
    raise_form = plan.locator("form.plan-form").first
    raise_form.locator("select[name=trait]").select_option("skills:Climbing")
    raise_form.locator("select[name=to]").select_option(str(GOOD + 1))
    raise_form.get_by_role("button").click()
    step = page.locator("#plan .plan-step").first
    expect(step).to_contain_text("Climbing to Great")
    expect(step).to_contain_text("6 XP")
    expect(step).to_contain_text("3 XP more needed")
    assert fits_the_screen(page)
    page.locator("#plan .plan-offer button").click()
    confirm = page.locator(".confirm-spend")
    expect(confirm).to_contain_text("Raise Climbing from Fair to Good?")
    confirm.get_by_role("button", name="Spend 2 XP").click()
    expect(page.locator("#unspent")).to_have_text("1 XP")
    expect(page.locator("#plan .plan-step").first).to_contain_text("4 XP")
    expect(page.locator("#plan .plan-offer")).to_have_count(0)  # Good->Great: 4 XP, 1 held
    assert brogo.traits.get(name="Climbing").level == GOOD
