"""The experience plan on the advancement page (issue 44): steps the player adds, reorders
and removes, each priced now by the campaign's rules (Mudge 5.2: Fair->Good 2 XP,
Good->Great 4 XP, a gift 4 XP); re-priced when the GM changes the house rules; its next
spend offered when experience arrives and bought through the spend flow's one
confirmation; read by the GM; carried in the character file."""

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import resolve, reverse

from characters.errors import NotAllowed, StaleWrite
from characters.models import Campaign, Character
from characters.services.advancement import experience_award
from characters.services.campaigns import campaign_update_house_rules
from characters.services.plans import plan_step_add, plan_step_move, plan_step_remove
from rules.ladder import FAIR, GOOD, GREAT
from rules.plan import GIFT, RAISE, Step
from tests.app.test_advancement import in_play, page, trait  # noqa: F401
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import HTMX
from tests.support.builder_fixtures import *  # noqa: F403

CLIMBING_TO_GREAT = {"what": "raise", "trait": "skills:Climbing", "to": GREAT}


def add(client, character, data, **extra):
    character.refresh_from_db()
    return client.post(
        reverse("plan_step_add", args=[character.pk]),
        {"version": character.version, **data},
        **extra,
    )


def text(response) -> str:
    """The page's words, tags left out."""
    return " ".join(re.sub(r"<[^>]+>", "", response.content.decode()).split())


def test_steps_are_added_priced_reordered_and_removed_by_the_player(in_play, login, player):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)])
    client = login(player)
    response = add(client, character, CLIMBING_TO_GREAT, **HTMX)
    assert response.status_code == 200
    panel = text(response)
    # Mudge 5.2: Fair->Good 2 XP + Good->Great 4 XP; nothing unspent yet.
    assert "Climbing to Great" in panel and "6 XP" in panel
    assert "6 XP more needed" in panel
    assert add(client, character, {"what": "gift", "name": "Danger Sense"}).status_code == 302
    shown = text(page(client, character))
    assert "The gift Danger Sense" in shown and "running total 10 XP" in shown
    assert "The whole plan: 10 XP; 0 to spend now." in shown
    character.refresh_from_db()
    assert character.experience_plan == [
        {"what": "raise", "list": "skills", "name": "Climbing", "to": "Great"},
        {"what": "gift", "name": "Danger Sense"},
    ]
    move = reverse("plan_step_move", args=[character.pk])
    client.post(move, {"version": character.version, "index": 1, "offset": -1})
    character.refresh_from_db()
    assert [s["what"] for s in character.experience_plan] == ["gift", "raise"]
    remove = reverse("plan_step_remove", args=[character.pk])
    client.post(remove, {"version": character.version, "index": 0})
    character.refresh_from_db()
    assert [s["what"] for s in character.experience_plan] == ["raise"]
    actions = list(character.events.order_by("id").values_list("action", flat=True))
    assert actions[-4:] == [
        "plan_step_added",
        "plan_step_added",
        "plan_step_moved",
        "plan_step_removed",
    ]
    audit = text(client.get(reverse("character_audit", args=[character.pk])))
    assert "Step added to the plan" in audit and "Plan reordered" in audit
    assert "Step Climbing to Great" in audit  # the step in words, not its JSON
    # The plan changed nothing else: Climbing is still Fair, nothing was spent.
    assert trait(character, "Climbing").level == FAIR
    assert not character.ledger.filter(amount__lt=0).exists()


def test_only_the_player_plans_and_a_stale_page_is_refused(in_play, login, gm, player):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)])
    step = Step(RAISE, "Climbing", "skills", GOOD)
    with pytest.raises(NotAllowed):
        plan_step_add(character=character, actor=gm, expected_version=None, step=step)
    plan_step_add(character=character, actor=player, expected_version=None, step=step)
    with pytest.raises(StaleWrite):
        plan_step_remove(character=character, actor=player, expected_version=1, index=0)
    response = add(login(gm), character, CLIMBING_TO_GREAT)
    assert response.status_code in (403, 404)
    bad = add(login(player), character, {"what": "raise", "trait": "", "to": GREAT})
    assert bad.status_code == 400 and "Choose the trait to raise." in text(bad)


def test_a_house_rule_change_reprices_the_plan(in_play, login, gm, player):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)])
    client = login(player)
    add(client, character, CLIMBING_TO_GREAT)
    add(client, character, {"what": "gift", "name": "Danger Sense"})
    assert "The whole plan: 10 XP" in text(page(client, character))
    campaign_update_house_rules(
        campaign=character.campaign,
        actor=gm,
        house_rules={"advancement_costs": {"skill_steps": {"Fair": 3, "Good": 5}, "gift": 7}},
    )
    shown = text(page(client, character))
    assert "8 XP" in shown and "The whole plan: 15 XP" in shown


def test_the_next_step_is_offered_and_bought_through_the_spend_flow(in_play, login, gm, player):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)])
    client = login(player)
    add(client, character, CLIMBING_TO_GREAT)
    add(client, character, {"what": "gift", "name": "Danger Sense"})
    assert "Next spend" not in text(page(client, character))  # 0 XP: nothing offered
    experience_award(character=character, actor=gm, amount=3, reason="Session 1")
    shown = text(page(client, character))
    assert "Next in the plan: Climbing to Great." in shown
    assert "Next spend: 2 XP" in shown
    offered = _offered_form(page(client, character).content.decode())
    assert offered["what"] == "raise" and "confirmed" not in offered
    # The offer goes to the spend flow's confirmation first: nothing is bought yet.
    quote = client.post(reverse("advancement_spend", args=[character.pk]), offered)
    assert "Raise Climbing from Fair to Good?" in text(quote)
    assert trait(character, "Climbing").level == FAIR
    confirmed = client.post(
        reverse("advancement_spend", args=[character.pk]), {**offered, "confirmed": "1"}
    )
    assert confirmed.status_code == 302
    assert trait(character, "Climbing").level == GOOD
    # 1 XP left; Good->Great is 4 XP: the step waits, 3 more needed.
    shown = text(page(client, character))
    assert "Next spend" not in shown and "3 XP more needed" in shown
    experience_award(character=character, actor=gm, amount=3, reason="Session 2")
    offered = _offered_form(page(client, character).content.decode())
    client.post(reverse("advancement_spend", args=[character.pk]), {**offered, "confirmed": "1"})
    assert trait(character, "Climbing").level == GREAT
    shown = text(page(client, character))
    assert "Reached" in shown
    # Next: the gift, which Mudge 5.2 gives to the GM: the offer becomes a request.
    experience_award(character=character, actor=gm, amount=4, reason="Session 3")
    offered = _offered_form(page(client, character).content.decode())
    assert (offered["what"], offered["name"]) == ("gift", "Danger Sense")
    quote = text(client.post(reverse("advancement_spend", args=[character.pk]), offered))
    assert "Ask the GM" in quote
    client.post(reverse("advancement_spend", args=[character.pk]), {**offered, "confirmed": "1"})
    assert character.ledger.filter(pending=True).count() == 1


def _offered_form(html: str) -> dict:
    """The hidden fields of the plan's offer form."""
    form = re.search(r'<form[^>]*class="plan-offer".*?</form>', html, re.S).group(0)
    fields = dict(re.findall(r'name="([a-z]+)" value="([^"]*)"', form))
    fields.pop("csrfmiddlewaretoken", None)
    return fields


def test_the_gm_reads_the_plans_of_the_party(in_play, login, gm, player):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)])
    add(login(player), character, CLIMBING_TO_GREAT)
    client = login(gm)
    shown = page(client, character).content.decode()
    assert "Climbing to Great" in shown
    assert reverse("plan_step_add", args=[character.pk]) not in shown
    assert reverse("plan_step_remove", args=[character.pk]) not in shown
    plans = client.get(reverse("campaign_plans", args=[character.campaign.pk]))
    listed = text(plans)
    assert plans.status_code == 200
    assert "Hero" in listed and "Climbing to Great" in listed and "6 XP more needed" in listed
    detail = client.get(reverse("campaign_detail", args=[character.campaign.pk])).content
    assert reverse("campaign_plans", args=[character.campaign.pk]).encode() in detail
    assert login(player).get(plans.request["PATH_INFO"]).status_code == 404


def test_the_plan_travels_in_the_file(in_play, login, player, tmp_path):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)])
    client = login(player)
    plain = json.loads(client.get(reverse("character_export", args=[character.pk])).content)
    assert "plan" not in plain  # a character without a plan: the file as before
    add(client, character, CLIMBING_TO_GREAT)
    add(client, character, {"what": "learn", "name": "Sailing", "difficulty": "hard", "to": GOOD})
    exported = json.loads(client.get(reverse("character_export", args=[character.pk])).content)
    assert exported["plan"] == [
        {"what": "raise", "list": "skills", "name": "Climbing", "to": "Great"},
        {"what": "learn", "list": "skills", "name": "Sailing", "to": "Good", "difficulty": "hard"},
    ]
    response = client.post(reverse("character_import"), {"text": json.dumps(exported)})
    assert response.status_code == 302
    copy = Character.objects.get(pk=resolve(response.url).kwargs["pk"])
    again = json.loads(client.get(reverse("character_export", args=[copy.pk])).content)
    assert again == exported  # the whole file, plan and all
    character.refresh_from_db()
    assert copy.experience_plan == character.experience_plan
    path = Path(tmp_path) / "planned.json"
    path.write_text(json.dumps(exported))
    call_command("check_character", str(path), stdout=(out := _Out()))
    assert '"warnings"' in out.text
    assert "unknown_field" not in out.text  # the plan is a field of the file


class _Out:
    def __init__(self):
        self.text = ""

    def write(self, value):
        self.text += value

    def flush(self):
        pass


def test_the_services_keep_the_order(in_play, player):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)])
    steps = [Step(RAISE, "Climbing", "skills", GOOD), Step(GIFT, "Luck")]
    for step in steps:
        plan_step_add(character=character, actor=player, expected_version=None, step=step)
    plan_step_move(character=character, actor=player, expected_version=None, index=0, offset=1)
    character.refresh_from_db()
    assert [s["what"] for s in character.experience_plan] == ["gift", "raise"]
    assert Campaign.objects.count() == 1
