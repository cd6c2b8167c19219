"""Growing a character in play (issue 26): a new skill or field of power learned with
experience at the ruleset's price from where it stands unlisted (Mudge 5.2 and 1.4, Fudge
Basics "Experience", MicroFudged DIP II and VIII.3), a spend asked once, and the player's
last spend taken back until the next session or the GM acts (recorded, never deleted)."""

import pytest
from django.urls import reverse

from characters.adapters import character_file, character_to_rules, ruleset_for
from characters.errors import ServiceError
from characters.models import ExperienceEntry
from characters.selectors.advancement import LEARN, META_POINT, RAISE, spend_to_take_back
from characters.services.advancement import (
    experience_award,
    experience_spend,
    spend_accept,
    spend_take_back,
    spend_withdraw,
)
from characters.services.play import session_start
from rules.ladder import ABYSMAL, FAIR, GOOD, MEDIOCRE, POOR
from rules.report import build_report
from tests.app.test_advancement import in_play, ledger_sum, trait  # noqa: F401
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import HTMX
from tests.support.builder_fixtures import *  # noqa: F403


def learn(character, actor, name, kind="skill", difficulty="", **extra):
    return experience_spend(
        character=character,
        actor=actor,
        expected_version=None,
        what=LEARN,
        name=name,
        kind=kind,
        difficulty=difficulty,
        **extra,
    )


def ledger_issues(character) -> list[str]:
    character.refresh_from_db()
    report = build_report(character_to_rules(character), ruleset_for(character))
    return [i.code for i in report.errors if i.code.startswith(("advancement", "experience"))]


@pytest.mark.parametrize(
    ("ruleset", "name", "kind", "difficulty", "level", "cost"),
    [
        # Mudge 1.4: an average skill stands at Poor unlisted, an easy one at Mediocre, a
        # hard one at Terrible; 5.2: each level up to Fair 1 XP.
        ("mudge", "Climbing", "skill", "average", MEDIOCRE, 1),
        ("mudge", "Acrobatics", "skill", "hard", POOR, 1),
        ("mudge", "Carousing", "skill", "easy", FAIR, 1),
        # Fudge 5.2 and Fudge Basics: skills default to Poor, Poor -> Mediocre 1 EP.
        ("fudge-basics", "Climbing", "skill", "", MEDIOCRE, 1),
        # MicroFudged DIP: every trait from Poor, one token a rank; a field of power from
        # Abysmal (VIII.1).
        ("microfudged-dip", "Pilot", "skill", "", MEDIOCRE, 1),
        ("microfudged-dip", "Telekinesis", "power", "", ABYSMAL + 1, 1),
        # Streamlined (VIII.3): Poor -> Mediocre 3 tokens; Science stands at Terrible.
        ("microfudged-streamlined", "Pilot", "skill", "", MEDIOCRE, 3),
        ("microfudged-streamlined", "Science", "skill", "", POOR, 3),
    ],
)
def test_a_new_skill_is_bought_at_the_rulesets_price_from_its_default(
    in_play,  # noqa: F811
    player,
    ruleset,
    name,
    kind,
    difficulty,
    level,
    cost,
):
    character = in_play(ruleset, experience=cost + 1)
    entry = learn(character, player, f"  {name} ", kind, difficulty)
    assert entry.amount == -cost and not entry.pending
    learned = character.traits.get(kind=kind, name=name)
    assert learned.level == level
    assert learned.difficulty == (difficulty if ruleset == "mudge" else "")
    character.refresh_from_db()
    assert character.experience == 1 == ledger_sum(character)
    assert entry.bought["add"]["list"] == ("powers" if kind == "power" else "skills")
    # The exported file's ledger prices it the same way: no cost or mismatch issue.
    assert ledger_issues(character) == []
    event = character.events.get(action="experience_spent")
    assert event.target == f"{kind}:{name}" and event.after["name"] == name


def test_a_new_skill_is_refused_when_held_or_not_learnable(in_play, player):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)], experience=5)
    with pytest.raises(ServiceError, match="already has the skill Climbing"):
        learn(character, player, "climbing")
    with pytest.raises(ServiceError, match="Mudge learns skills with experience"):
        learn(character, player, "Fireball", kind="power")
    with pytest.raises(ServiceError, match="Name the skill"):
        learn(character, player, "   ")
    character.refresh_from_db()
    assert character.experience == 5


def test_the_player_takes_back_their_last_spend_with_a_reversing_entry(in_play, player, gm):  # noqa: F811
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)], experience=4)
    experience_spend(
        character=character,
        actor=player,
        expected_version=None,
        what=RAISE,
        trait=trait(character, "Climbing"),
    )
    spent = learn(character, player, "Stealth")
    character.refresh_from_db()
    assert spend_to_take_back(character) == spent
    refund = spend_take_back(character=character, actor=player, expected_version=None)
    assert (refund.amount, refund.reverses, refund.reason) == (
        1,
        spent,
        "Taken back: Learn Stealth at Mediocre",
    )
    assert not character.traits.filter(name="Stealth").exists()
    character.refresh_from_db()
    assert character.experience == 2 == ledger_sum(character)
    # Nothing deleted: the spend, its refund and the event stay on the record.
    assert ExperienceEntry.objects.filter(pk=spent.pk).exists()
    event = character.events.get(action="spend_taken_back")
    assert (event.target, event.before["experience"], event.after["experience"]) == (
        "skill:Stealth",
        1,
        2,
    )
    # The file leaves the pair out: its ledger still undoes to the creation build.
    lines = character_file(character)["advancement"]
    assert [line.get("spend") or line.get("award") for line in lines] == [4, 2]
    assert ledger_issues(character) == []
    # Only the last spend: the raise before it stays.
    with pytest.raises(ServiceError, match="no spend to take back"):
        spend_take_back(character=character, actor=player, expected_version=None)
    assert trait(character, "Climbing").level == GOOD
    # The build the trail records moved with it: the next spend is not refused as a build
    # changed behind the app (issue 31).
    learn(character, player, "Swimming")
    assert character.traits.get(name="Swimming").level == MEDIOCRE


@pytest.mark.parametrize("then", ["session", "award"])
def test_a_spend_stays_once_a_session_starts_or_the_gm_acts(in_play, player, gm, then):  # noqa: F811
    character = in_play("mudge", experience=7)
    experience_spend(character=character, actor=player, expected_version=None, what=META_POINT)
    character.refresh_from_db()
    assert spend_to_take_back(character) is not None
    if then == "session":
        session_start(campaign=character.campaign, actor=gm)
    else:
        experience_award(character=character, actor=gm, amount=1, reason="Session 2")
    character.refresh_from_db()
    assert spend_to_take_back(character) is None
    with pytest.raises(ServiceError, match="until the next session starts or the GM acts"):
        spend_take_back(character=character, actor=player, expected_version=None)
    character.refresh_from_db()
    assert character.meta_points == 4


def test_a_request_the_gm_accepted_is_not_taken_back_but_one_waiting_is(in_play, player, gm):  # noqa: F811
    character = in_play("mudge", experience=8)
    request = experience_spend(
        character=character, actor=player, expected_version=None, what="gift", name="Luck"
    )
    spend_withdraw(entry=request, actor=player)
    character.refresh_from_db()
    assert character.experience == 8 and not character.ledger.filter(pending=True).exists()
    assert character.events.order_by("-id").first().action == "spend_withdrawn"
    with pytest.raises(ServiceError, match="no longer waiting"):
        spend_withdraw(entry=request, actor=player)


def test_a_spend_asks_once_with_its_price_and_works_without_script(in_play, login, player):  # noqa: F811
    character = in_play("mudge", experience=2)
    client = login(player)
    url = reverse("advancement_spend", args=[character.pk])
    asked = {"version": character.version, "what": LEARN, "name": "Climbing", "kind": "skill"}
    for headers in ({}, HTMX):
        response = client.post(url, {**asked, "difficulty": "hard"}, **headers)
        assert response.status_code == 200
        body = response.content.decode()
        assert "Learn Climbing (hard) at Poor?" in body
        assert "It costs <strong>1 XP</strong> of the 2 unspent." in body
        assert '<input type="hidden" name="confirmed" value="1">' in body
        assert '<input type="hidden" name="difficulty" value="hard">' in body
    assert not character.traits.filter(name="Climbing").exists()
    response = client.post(url, {**asked, "difficulty": "hard", "confirmed": "1"})
    assert response.status_code == 302
    assert character.traits.get(name="Climbing").level == POOR
    followed = client.get(response.url).content.decode()
    assert "Done: Learn Climbing (hard) at Poor." in followed
    assert "Last spend: Learn Climbing (hard) at Poor (1 XP)." in followed
    character.refresh_from_db()
    response = client.post(
        reverse("spend_take_back", args=[character.pk]), {"version": character.version}
    )
    assert response.status_code == 302
    assert not character.traits.filter(name="Climbing").exists()  # taken back


def test_a_gift_request_is_priced_as_a_request_in_the_confirmation(in_play, login, player):  # noqa: F811
    character = in_play("mudge", experience=4)
    response = login(player).post(
        reverse("advancement_spend", args=[character.pk]),
        {"version": character.version, "what": "gift", "name": "Luck"},
    )
    body = response.content.decode()
    assert "It goes to the GM as a request (Mudge 5.2: the GM's permission)" in body
    assert ">Ask the GM</button>" in body


def test_an_approved_builder_drops_the_advice_its_approval_settled(in_play, login, player, gm):  # noqa: F811
    """Creation's "left unspent: spend them now" and a bought gift's "needs the GM's
    permission" are settled once the GM approved the build and accepted the request: the
    panel of the character in play no longer says them. The report still has them."""
    character = in_play("mudge", experience=4)
    request = experience_spend(
        character=character, actor=player, expected_version=None, what="gift", name="Luck"
    )
    spend_accept(entry=request, actor=gm)
    character.refresh_from_db()
    codes = {
        i.code for i in build_report(character_to_rules(character), ruleset_for(character)).warnings
    }
    assert {"levels_unspent", "gm_permission"} <= codes
    page = login(player).get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Luck" in page
    assert 'data-code="levels_unspent"' not in page
    assert 'data-code="gm_permission"' not in page
    assert "needs the GM's permission as well as experience" not in page


def test_a_gift_bought_with_experience_is_on_the_sheet_without_a_price(in_play, login, player, gm):  # noqa: F811
    """It cost nothing at creation, so the sheet says nothing of its cost, not "costs 0"."""
    character = in_play("mudge", experience=4)
    experience_spend(character=character, actor=gm, expected_version=None, what="gift", name="Luck")
    sheet = login(player).get(reverse("character_sheet", args=[character.pk])).content.decode()
    assert "<bdi>Luck</bdi>" in sheet
    assert "costs 0" not in sheet
