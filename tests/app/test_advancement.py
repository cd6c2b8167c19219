"""Advancement: the GM's awards, spends at the rule texts' costs (Fudge Basics "Experience",
Mudge 5.2 and 1.36, MicroFudged DIP II and VIII.3), the GM's permission, pending spends,
meta points and Fudge points, the ledger, concurrent spends, and the page for each role."""

import json
import re
from functools import partial

import pytest
from django.urls import reverse

from characters.errors import NotAllowed, ServiceError, StaleWrite
from characters.models import Campaign, Character, ExperienceEntry, Membership, Trait
from characters.selectors.advancement import BUY_OFF_FAULT, GIFT, META_POINT, POWER, RAISE
from characters.selectors.review import pending_spend_queue
from characters.services.advancement import (
    experience_award,
    experience_award_party,
    experience_spend,
    fudge_points_convert,
    meta_points_grant,
    meta_points_spend,
    spend_accept,
    spend_refuse,
)
from characters.services.characters import character_create
from characters.services.decisions import decision_token_issue
from characters.services.rows import trait_add
from rules.ladder import FAIR, GOOD, GREAT, LEGENDARY, POOR, SUPERB
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import HTMX, approved
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.races import at_once, postgres_only


@pytest.fixture
def in_play(gm, player):
    """in_play(ruleset, traits=[(kind, name, level)], experience=N, **campaign fields): a
    character of `player` in a campaign of `gm`, approved, with N awarded."""

    def make(ruleset="mudge", traits=(), experience=0, **campaign_fields):
        campaign = Campaign.objects.create(
            name=f"{ruleset} table", gm=gm, base_ruleset=ruleset, **campaign_fields
        )
        Membership.objects.create(campaign=campaign, user=player)
        character = character_create(owner=player, name="Hero", campaign=campaign)
        for kind, name, level in traits:
            existing = character.traits.filter(kind=kind, name=name).first()
            if existing:
                Trait.objects.filter(pk=existing.pk).update(level=level)
            else:
                trait_add(
                    character=character,
                    actor=player,
                    expected_version=None,
                    kind=kind,
                    name=name,
                    level=level,
                )
        # MicroFudged builds with nothing bought break "spend at least 1 token": a reason.
        approved(character, gm, reason="Built for the test")
        if experience:
            experience_award(character=character, actor=gm, amount=experience, reason="Start")
        character.refresh_from_db()
        return character

    return make


def trait(character, name) -> Trait:
    return character.traits.get(name=name)


def ledger_sum(character) -> int:
    return sum(character.ledger.filter(pending=False).values_list("amount", flat=True))


# -- costs from the rule texts -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "kind", "name", "level", "cost"),
    [
        ("mudge", "skill", "Climbing", FAIR, 2),  # Mudge 5.2: Fair -> Good, 2 XP
        ("mudge", "skill", "Climbing", GREAT, 8),  # Great -> Superb, 8 XP
        ("mudge", "attribute", "Strength", FAIR, 6),  # attributes: triple the skill cost
        ("fudge-basics", "skill", "Climbing", POOR, 1),  # Fudge Basics: Poor -> Mediocre 1 EP
        ("fudge-basics", "skill", "Climbing", FAIR, 2),
        ("fudge-basics", "attribute", "Strength", GOOD, 12),  # Good -> Great: 4 EP x 3
        ("microfudged-dip", "skill", "Pilot", FAIR, 1),  # DIP: one token a rank
        ("microfudged-dip", "attribute", "Brawn", GOOD, 1),
        ("microfudged-streamlined", "skill", "Pilot", FAIR, 6),  # VIII.3: Fair -> Good 6
        ("microfudged-streamlined", "attribute", "Mind", FAIR, 18),  # abilities x3
    ],
)
def test_raising_a_trait_costs_what_the_rule_text_says(
    in_play, player, ruleset, kind, name, level, cost
):
    character = in_play(ruleset, traits=[(kind, name, level)], experience=cost)
    raised = trait(character, name)
    entry = experience_spend(
        character=character,
        actor=player,
        expected_version=character.version,
        what=RAISE,
        trait=raised,
    )
    assert entry.amount == -cost and not entry.pending
    raised.refresh_from_db()
    character.refresh_from_db()
    assert raised.level == level + 1
    assert character.experience == 0 == ledger_sum(character)
    event = character.events.get(action="experience_spent")
    assert event.target == f"{kind}:{name}"
    assert event.before["experience"] == cost and event.after["experience"] == 0
    assert event.before["level"] != event.after["level"]


def test_one_level_at_a_time_and_never_beyond_the_balance(in_play, player):
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)], experience=5)
    climbing = trait(character, "Climbing")
    experience_spend(
        character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
    )
    with pytest.raises(ServiceError, match=r"Raise Climbing from Good to Great costs 4 XP; .*3"):
        experience_spend(
            character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
        )
    climbing.refresh_from_db()
    character.refresh_from_db()
    assert (climbing.level, character.experience, ledger_sum(character)) == (GOOD, 3, 3)


def test_a_stale_page_spends_nothing(in_play, player):
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)], experience=2)
    with pytest.raises(StaleWrite):
        experience_spend(
            character=character,
            actor=player,
            expected_version=character.version - 1,
            what=RAISE,
            trait=trait(character, "Climbing"),
        )
    assert trait(character, "Climbing").level == FAIR


@pytest.mark.parametrize(
    ("ruleset", "what", "cost"),
    [
        ("mudge", GIFT, 4),  # Mudge 5.2: adding a gift, 4 XP + GM approval
        ("mudge", POWER, 8),  # a supernormal power, 8 XP + GM approval
        ("fudge-basics", GIFT, 6),  # Fudge Basics: 6 EP; Fudge 5.2: GM approval
        ("fudge-basics", POWER, 12),  # Fudge 5.2: 12 EP
    ],
)
def test_gifts_and_powers_cost_their_price_and_need_the_gm(
    in_play, player, gm, ruleset, what, cost
):
    """The player's spend is a request the GM sees; accepted, it is bought in the same
    recorded step and the player is told; the GM may also spend it directly."""
    character = in_play(ruleset, experience=cost)
    request = experience_spend(
        character=character, actor=player, expected_version=None, what=what, name="Luck"
    )
    assert request.pending and request.amount == -cost
    assert not character.traits.filter(name="Luck").exists()
    assert [(e.character, s["label"]) for e, s in pending_spend_queue(gm)] == [
        (character, f"Add the {what} Luck")
    ]
    spend_accept(entry=request, actor=gm)
    added = character.traits.get(kind=Trait.Kind.GIFT if what == GIFT else Trait.Kind.POWER)
    assert added.name == "Luck"
    character.refresh_from_db()
    assert character.experience == 0 == ledger_sum(character)
    accepted = character.events.get(action="spend_accepted")
    assert (accepted.actor, accepted.target) == (gm, f"{what}:Luck")
    assert accepted.after["experience"] == 0
    note = player.notifications.order_by("-id").first()
    assert note.kind == "spend_accepted" and f"Add the {what} Luck ({cost} " in note.message
    with pytest.raises(ServiceError, match="already has"):
        experience_spend(
            character=character, actor=gm, expected_version=None, what=what, name="luck"
        )


def test_a_refused_request_frees_its_experience_and_tells_the_player_why(in_play, player, gm):
    character = in_play("mudge", experience=4)
    request = experience_spend(
        character=character, actor=player, expected_version=None, what=GIFT, name="Luck"
    )
    with pytest.raises(ServiceError, match="Say why you refuse"):
        spend_refuse(entry=request, actor=gm, reason="  ")
    spend_refuse(entry=request, actor=gm, reason="Not in this setting")
    character.refresh_from_db()
    assert character.experience == 4 and not character.ledger.filter(pending=True).exists()
    assert not character.traits.filter(name="Luck").exists()
    assert list(character.events.values_list("action", "reason").order_by("id"))[-2:] == [
        ("spend_requested", "Add the gift Luck"),
        ("spend_refused", "Not in this setting"),
    ]
    note = player.notifications.order_by("-id").first()
    assert (note.kind, note.message) == (
        "spend_refused",
        "gm refused Hero's request (Add the gift Luck): Not in this setting",
    )
    assert pending_spend_queue(gm) == []


def test_a_request_counts_on_the_gms_table_until_decided(in_play, login, player, gm):
    """The table's "to review" badge counts what the review queue lists: a build waiting
    for approval, and a spend waiting for the GM's permission."""
    character = in_play("mudge", experience=4)
    table = login(gm)

    def badge():
        page = table.get(reverse("dashboard")).content.decode()
        return re.findall(r'class="badge state-submitted">([^<]*)</a>', page)

    assert badge() == []
    request = experience_spend(
        character=character, actor=player, expected_version=None, what=GIFT, name="Luck"
    )
    assert badge() == ["1 to review"]
    spend_refuse(entry=request, actor=gm, reason="Not in this setting")
    assert badge() == []


def test_buying_off_a_fault_costs_9_ep_in_fudge_basics(in_play, player):
    character = in_play("fudge-basics", traits=[(Trait.Kind.FAULT, "Greedy", None)], experience=9)
    experience_spend(
        character=character,
        actor=player,
        expected_version=None,
        what=BUY_OFF_FAULT,
        trait=trait(character, "Greedy"),
    )
    assert not character.traits.filter(kind=Trait.Kind.FAULT).exists()
    character.refresh_from_db()
    assert character.experience == 0
    event = character.events.get(action="experience_spent")
    assert (event.target, event.before["name"], event.reason) == (
        "fault:Greedy",
        "Greedy",
        "Buy off the fault Greedy: 9 EP",
    )


def test_mudge_gives_no_cost_for_buying_off_a_fault(in_play, player):
    character = in_play("mudge", traits=[(Trait.Kind.FAULT, "Greedy", None)], experience=20)
    with pytest.raises(ServiceError, match="gives no cost for buy off fault"):
        experience_spend(
            character=character,
            actor=player,
            expected_version=None,
            what=BUY_OFF_FAULT,
            trait=trait(character, "Greedy"),
        )


@pytest.mark.parametrize("ruleset", ["mudge", "fudge-basics"])
def test_legendary_only_with_the_gms_permission(in_play, player, gm, ruleset):
    character = in_play(ruleset, traits=[("skill", "Climbing", SUPERB)], experience=16)
    climbing = trait(character, "Climbing")
    asked = experience_spend(
        character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
    )
    assert asked.pending and asked.request["needs_gm"]
    spend_refuse(entry=asked, actor=gm, reason="Not yet")
    experience_spend(
        character=character, actor=gm, expected_version=None, what=RAISE, trait=climbing
    )
    climbing.refresh_from_db()
    assert climbing.level == LEGENDARY
    character.refresh_from_db()
    assert character.experience == 0


def test_streamlined_microfudged_has_no_cost_above_superb(in_play, gm):
    character = in_play("microfudged-streamlined", traits=[("skill", "Pilot", SUPERB)])
    with pytest.raises(ServiceError, match="gives no cost for raising a trait above Superb"):
        experience_spend(
            character=character,
            actor=gm,
            expected_version=None,
            what=RAISE,
            trait=trait(character, "Pilot"),
        )


def test_only_an_approved_character_advances(character, player, gm, climbing):
    with pytest.raises(ServiceError, match="draft: experience and meta points come with play"):
        experience_award(character=character, actor=gm, amount=2, reason="Early")
    assert not ExperienceEntry.objects.exists()


# -- awards ---------------------------------------------------------------------------------------


def test_the_gm_awards_one_character_or_the_approved_party(
    in_play, gm, player, mate, campaign, character
):
    hero = in_play("mudge")
    Membership.objects.create(campaign=hero.campaign, user=mate)
    friend = character_create(owner=mate, name="Friend", campaign=hero.campaign)
    approved(friend, gm)
    drafting = character_create(owner=mate, name="Drafting", campaign=hero.campaign)

    with pytest.raises(NotAllowed):
        experience_award(character=hero, actor=player, amount=2, reason="Self-service")
    with pytest.raises(ServiceError, match="reason"):
        experience_award(character=hero, actor=gm, amount=2, reason="  ")
    with pytest.raises(ServiceError, match="between 1 and 100"):
        experience_award(character=hero, actor=gm, amount=0, reason="Nothing")

    experience_award(character=hero, actor=gm, amount=3, reason="Great roleplaying")
    entries = experience_award_party(campaign=hero.campaign, actor=gm, amount=2, reason="Session 4")
    assert sorted(e.character.name for e in entries) == ["Friend", "Hero"]
    for c, expected in ((hero, 5), (friend, 2), (drafting, 0)):
        c.refresh_from_db()
        assert c.experience == expected == ledger_sum(c)
    event = hero.events.filter(action="experience_awarded").last()
    assert (event.before, event.after, event.reason) == (
        {"experience": 3},
        {"experience": 5},
        "2 XP: Session 4",
    )
    with pytest.raises(NotAllowed):
        experience_award_party(campaign=hero.campaign, actor=player, amount=1, reason="x")


# -- pending spends -------------------------------------------------------------------------------


def test_with_spends_needing_approval_the_gm_accepts_or_refuses(in_play, player, gm):
    character = in_play(
        "mudge",
        traits=[("skill", "Climbing", FAIR), ("skill", "Stealth", FAIR)],
        experience=5,
        spends_need_approval=True,
    )
    climbing, stealth = trait(character, "Climbing"), trait(character, "Stealth")
    asked = experience_spend(
        character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
    )
    assert (asked.amount, asked.pending) == (-2, True)
    character.refresh_from_db()
    climbing.refresh_from_db()
    assert (character.experience, climbing.level) == (5, FAIR)  # nothing applied yet
    with pytest.raises(ServiceError, match="already waiting for the GM"):
        experience_spend(
            character=character, actor=player, expected_version=None, what=RAISE, trait=climbing
        )
    other = experience_spend(
        character=character, actor=player, expected_version=None, what=RAISE, trait=stealth
    )
    # 5 XP, 4 held back for the two requests: a meta point (6 XP) is out of reach.
    with pytest.raises(ServiceError, match=r"costs 6 XP; Hero has 1 unspent \(4 more waiting"):
        experience_spend(character=character, actor=player, expected_version=None, what=META_POINT)

    with pytest.raises(NotAllowed):
        spend_accept(entry=asked, actor=player)
    spend_accept(entry=asked, actor=gm)
    spend_refuse(entry=other, actor=gm, reason="Not this session")
    character.refresh_from_db()
    climbing.refresh_from_db()
    stealth.refresh_from_db()
    assert (climbing.level, stealth.level, character.experience) == (GOOD, FAIR, 3)
    assert list(character.ledger.values_list("amount", "pending")) == [(5, False), (-2, False)]
    assert ledger_sum(character) == 3
    actions = list(character.events.values_list("action", flat=True))[-4:]
    assert actions == ["spend_requested", "spend_requested", "spend_accepted", "spend_refused"]
    refused = character.events.get(action="spend_refused")
    assert (refused.target, refused.reason) == ("skill:Stealth", "Not this session")
    with pytest.raises(ServiceError, match="no longer waiting"):
        spend_accept(entry=asked, actor=gm)


def test_a_request_that_no_longer_fits_is_not_applied(in_play, player, gm):
    character = in_play("mudge", experience=18, spends_need_approval=True)
    character.meta_points = 4
    character.save()
    first, second = (
        experience_spend(character=character, actor=player, expected_version=None, what=META_POINT)
        for _ in range(2)
    )
    spend_accept(entry=first, actor=gm)
    with pytest.raises(ServiceError, match=r"no longer applies \(Hero has 5 meta points, the most"):
        spend_accept(entry=second, actor=gm)
    character.refresh_from_db()
    second.refresh_from_db()
    assert (character.meta_points, character.experience, second.pending) == (5, 12, True)
    spend_refuse(entry=second, actor=gm, reason="It no longer fits")
    assert ledger_sum(character) == 12 and not character.ledger.filter(pending=True).exists()


# -- meta points and Fudge points -----------------------------------------------------------------


def test_mudge_meta_points_start_at_3_and_hold_at_most_5(in_play, player, gm):
    character = in_play("mudge", experience=12)
    assert character.meta_points is None  # the ruleset's start: 3 (Mudge 1.36)
    for _ in range(2):  # Mudge 5.2: a meta point for 6 XP
        experience_spend(character=character, actor=player, expected_version=None, what=META_POINT)
    character.refresh_from_db()
    assert (character.meta_points, character.experience) == (5, 0)
    character.experience = 6
    with pytest.raises(ServiceError, match="has 5 meta points, the most"):
        experience_spend(character=character, actor=player, expected_version=None, what=META_POINT)
    with pytest.raises(ServiceError, match="at most 0"):
        meta_points_grant(character=character, actor=gm, expected_version=None, count=1)

    with pytest.raises(NotAllowed):  # the player spends, the GM grants
        meta_points_spend(character=character, actor=gm, expected_version=None, count=1)
    meta_points_spend(
        character=character, actor=player, expected_version=None, count=2, reason="Lessen a wound"
    )
    with pytest.raises(NotAllowed):
        meta_points_grant(character=character, actor=player, expected_version=None, count=1)
    meta_points_grant(
        character=character, actor=gm, expected_version=None, count=1, reason="Fine roleplaying"
    )
    with pytest.raises(ServiceError, match="spend between 1 and 4"):
        meta_points_spend(character=character, actor=player, expected_version=None, count=5)
    character.refresh_from_db()
    assert character.meta_points == 4
    events = list(
        character.events.filter(action__startswith="meta_points").values_list(
            "action", "before", "after", "reason"
        )
    )
    assert events == [
        ("meta_points_spent", {"meta_points": 5}, {"meta_points": 3}, "Lessen a wound"),
        ("meta_points_granted", {"meta_points": 3}, {"meta_points": 4}, "Fine roleplaying"),
    ]


def test_three_fudge_points_make_one_ep(in_play, player):
    character = in_play("fudge-basics")
    assert character.meta_points is None  # Fudge Basics starts with 3 Fudge points
    entry = fudge_points_convert(
        character=character, actor=player, expected_version=character.version
    )
    assert entry.amount == 1
    character.refresh_from_db()
    assert (character.meta_points, character.experience) == (0, 1)
    assert ledger_sum(character) == 1
    event = character.events.get(action="fudge_points_converted")
    assert (event.before, event.after) == (
        {"meta_points": 3, "experience": 0},
        {"meta_points": 0, "experience": 1},
    )
    with pytest.raises(ServiceError, match="has 0 Fudge points; 3 make 1 EP"):
        fudge_points_convert(character=character, actor=player, expected_version=None)


def test_mudge_does_not_convert_meta_points(in_play, player):
    character = in_play("mudge")
    with pytest.raises(ServiceError, match="does not turn meta points into experience"):
        fudge_points_convert(character=character, actor=player, expected_version=None)


# -- two spends of the last XP at once ------------------------------------------------------------


@postgres_only
@pytest.mark.django_db(transaction=True)
def test_two_spends_of_the_last_xp_at_once_one_wins(in_play, player):
    """Two threads, two connections, two different skills, 2 XP for one raise: the row
    lock queues them, the second sees the balance the first left. No version check, so
    the balance alone has to refuse the loser."""
    character = in_play(
        "mudge", traits=[("skill", "Climbing", FAIR), ("skill", "Stealth", FAIR)], experience=2
    )
    targets = [trait(character, "Climbing"), trait(character, "Stealth")]
    outcomes = at_once(
        *(
            partial(
                experience_spend,
                character=character,
                actor=player,
                expected_version=None,
                what=RAISE,
                trait=target,
            )
            for target in targets
        )
    )
    refused = [str(o) for o in outcomes if isinstance(o, Exception)]
    assert len(refused) == 1 and "costs 2 XP; Hero has 0 unspent" in refused[0]
    character.refresh_from_db()
    assert character.experience == 0 == ledger_sum(character)
    assert character.ledger.count() == 2  # the award and one spend
    assert sorted(character.traits.filter(kind="skill").values_list("level", flat=True)) == [
        FAIR,
        GOOD,
    ]


# -- the page -------------------------------------------------------------------------------------


def page(client, character, **extra):
    return client.get(reverse("character_advancement", args=[character.pk]), **extra)


def test_a_draft_holding_experience_says_it_waits_for_the_approval(character, login, player):
    """A file imported with its experience, or a build reopened in play, holds some: the
    sheet prints it, so the page says it is there, to spend once the GM approves."""
    Character.objects.filter(pk=character.pk).update(experience=7)
    html = page(login(player), character).content.decode()
    assert "come with play, once the GM approves the build. It holds 7 XP already" in html


def test_the_player_sees_each_option_with_its_cost_or_why_not(in_play, login, player):
    character = in_play(
        "mudge", traits=[("skill", "Climbing", FAIR), ("skill", "Stealth", GREAT)], experience=2
    )
    response = page(login(player), character)
    assert response.status_code == 200
    options = {o.label: o for o in response.context["options"]}
    climbing = options["Raise Climbing from Fair to Good"]
    assert (climbing.cost, climbing.enabled) == (2, True)
    stealth = options["Raise Stealth from Great to Superb"]
    assert (stealth.cost, stealth.enabled, stealth.why_not) == (8, False, "needs 8 XP; 2 unspent")
    strength = options["Raise Strength from Fair to Good"]
    assert (strength.cost, strength.enabled) == (6, False)
    gift = options["Add the gift"]
    assert (gift.cost, gift.needs_gm, gift.why_not) == (4, True, "needs 4 XP; 2 unspent")
    assert options["Buy a meta point"].cost == 6
    body = response.content.decode()
    assert "needs 8 XP; 2 unspent" in body
    assert "Award XP" not in body  # the GM's form


def test_a_spend_under_htmx_returns_the_panel_and_the_new_version(in_play, login, player):
    character = in_play("mudge", traits=[("skill", "Climbing", FAIR)], experience=2)
    climbing = trait(character, "Climbing")
    response = login(player).post(
        reverse("advancement_spend", args=[character.pk]),
        {"version": character.version, "what": RAISE, "trait": climbing.pk, "confirmed": 1},
        **HTMX,
    )
    assert response.status_code == 200
    body = response.content.decode()
    assert body.lstrip().startswith('<div id="advancement"')
    assert '<strong id="unspent">0 XP</strong>' in body
    assert "Done: Raise Climbing from Fair to Good." in body  # the news, out of band
    assert json.loads(response["HX-Trigger"]) == {
        "versionChanged": {"value": character.version + 1}
    }


def test_a_refused_plain_spend_shows_why_with_its_status(in_play, login, player):
    character = in_play("mudge", traits=[("skill", "Climbing", GREAT)], experience=2)
    response = login(player).post(
        reverse("advancement_spend", args=[character.pk]),
        {"version": character.version, "what": RAISE, "trait": trait(character, "Climbing").pk},
    )
    assert response.status_code == 400
    assert "costs 8 XP; Hero has 2 unspent" in response.content.decode()


def test_the_gm_awards_from_the_page(in_play, login, gm):
    character = in_play("mudge")
    client = login(gm)
    assert "Award XP" in page(client, character).content.decode()
    url = reverse("advancement_award", args=[character.pk])
    once = decision_token_issue(user=gm, kind="award", target=character.pk)
    response = client.post(url, {"amount": 0, "reason": "", "to": "character", "once": once})
    assert response.status_code == 400
    response = client.post(url, {"amount": 3, "reason": "Session 1", "to": "party", "once": once})
    assert response.status_code == 302
    character.refresh_from_db()
    assert character.experience == 3
    followed = client.get(response.url).content.decode()
    assert "Awarded 3 XP to Hero." in followed  # with its unit (issue 12, Wording)


@pytest.mark.parametrize(("amount", "said"), [(1, "1 token"), (2, "2 tokens")])
def test_an_award_of_tokens_is_said_with_its_plural(in_play, login, gm, amount, said):
    character = in_play("microfudged-dip", traits=[("skill", "Stealth", FAIR)])
    response = login(gm).post(
        reverse("advancement_award", args=[character.pk]),
        {
            "amount": amount,
            "reason": "Session 1",
            "to": "character",
            "once": decision_token_issue(user=gm, kind="award", target=character.pk),
        },
        HTTP_HX_REQUEST="true",
    )
    assert f"Awarded {said} to Hero." in response.content.decode()


@pytest.mark.parametrize(
    ("language", "amount", "said"),
    [
        ("fr", 1, "1 PX attribué à Hero."),
        ("fr", 2, "2 PX attribués à Hero."),
        ("es", 1, "1 PX otorgado a Hero."),
        ("es", 2, "2 PX otorgados a Hero."),
    ],
)
def test_an_award_agrees_with_its_amount(in_play, login, gm, language, amount, said):
    character = in_play("mudge")
    response = login(gm).post(
        reverse("advancement_award", args=[character.pk]),
        {
            "amount": amount,
            "reason": "Session 1",
            "to": "character",
            "once": decision_token_issue(user=gm, kind="award", target=character.pk),
        },
        HTTP_HX_REQUEST="true",
        HTTP_ACCEPT_LANGUAGE=language,
    )
    assert said in response.content.decode()


ROLES = ["owner", "mate", "gm", "outsider", "rival_gm", "anonymous"]


@pytest.mark.parametrize("role", ROLES)
def test_who_may_post_what_on_the_advancement_page(
    role, in_play, login, player, mate, gm, outsider, rival_gm
):
    character = in_play(
        "mudge",
        traits=[("skill", "Climbing", FAIR), ("skill", "Stealth", FAIR)],
        experience=4,
        spends_need_approval=True,
    )
    pending, other = (
        experience_spend(
            character=character,
            actor=player,
            expected_version=None,
            what=RAISE,
            trait=trait(character, name),
        )
        for name in ("Climbing", "Stealth")
    )
    users = {
        "owner": player,
        "mate": mate,
        "gm": gm,
        "outsider": outsider,
        "rival_gm": rival_gm,
        "anonymous": None,
    }
    client = login(users[role])
    pk, version = character.pk, character.version

    def once(kind, target):  # the GM's form's token: no use to anyone else
        return decision_token_issue(user=gm, kind=kind, target=target)

    posts = {  # name: (url, data, the roles it is for)
        "award": (
            reverse("advancement_award", args=[pk]),
            {"amount": 1, "reason": "x", "once": once("award", pk)},
            {"gm"},
        ),
        "grant": (
            reverse("points_grant", args=[pk]),
            {"version": version, "count": 1, "once": once("points_grant", pk)},
            {"gm"},
        ),
        "accept": (
            reverse("spend_accept", args=[pk, pending.pk]),
            {"once": once("spend_accept", pending.pk)},
            {"gm"},
        ),
        "refuse": (
            reverse("spend_refuse", args=[pk, other.pk]),
            {"reason": "No", "once": once("spend_refuse", other.pk)},
            {"gm"},
        ),
        "spend_points": (
            reverse("points_spend", args=[pk]),
            {"version": version, "count": 1},
            {"owner"},
        ),
        "convert": (reverse("points_convert", args=[pk]), {"version": version}, {"owner"}),
        "buy": (
            reverse("advancement_spend", args=[pk]),
            {"version": version, "what": "gift"},
            {"owner", "gm"},
        ),
    }
    for name, (url, data, allowed) in posts.items():
        status = client.post(url, data).status_code
        if role == "anonymous":
            assert status == 302, name
        elif role in allowed:
            assert status < 500 and status not in (403, 404), name
        else:
            assert status == 404, name
    character.refresh_from_db()
    pending.refresh_from_db()
    if role != "gm":
        assert pending.pending and ExperienceEntry.objects.filter(pk=other.pk).exists()
        assert character.experience == 4
        # Only the owner's own post spent a point (Mudge starts with 3).
        assert character.meta_points == (2 if role == "owner" else None)
    else:  # the GM accepted one request, refused the other, and granted a point
        assert not pending.pending and not ExperienceEntry.objects.filter(pk=other.pk).exists()
        assert (character.experience, character.meta_points) == (2, 4)
    assert page(client, character).status_code == {
        "owner": 200,
        "gm": 200,
        "anonymous": 302,
    }.get(role, 404)


def test_the_gm_accepts_a_pending_spend_from_the_page(in_play, login, player, gm):
    character = in_play(
        "mudge", traits=[("skill", "Climbing", FAIR)], experience=2, spends_need_approval=True
    )
    pending = experience_spend(
        character=character,
        actor=player,
        expected_version=None,
        what=RAISE,
        trait=trait(character, "Climbing"),
    )
    client = login(gm)
    body = page(client, character).content.decode()
    assert "Raise Climbing from Fair to Good: <strong>2 XP</strong>" in body
    queue = client.get(reverse("review_queue")).content.decode()
    assert "Raise Climbing from Fair to Good: 2 XP" in queue
    once = decision_token_issue(user=gm, kind="spend_accept", target=pending.pk)
    response = client.post(
        reverse("spend_accept", args=[character.pk, pending.pk]), {"once": once}, **HTMX
    )
    assert response.status_code == 200
    assert "Accepted: Raise Climbing from Fair to Good." in response.content.decode()
    assert trait(character, "Climbing").level == GOOD


def test_a_pending_row_written_by_hand_can_only_be_refused(in_play, login, player, gm):
    character = in_play("mudge", experience=3)
    entry = ExperienceEntry.objects.create(
        character=character, amount=-1, reason="Something", actor=player, pending=True
    )
    client = login(gm)
    assert "Something: <strong>1 </strong>" in page(client, character).content.decode()
    once = decision_token_issue(user=gm, kind="spend_accept", target=entry.pk)
    response = client.post(reverse("spend_accept", args=[character.pk, entry.pk]), {"once": once})
    assert response.status_code == 400
    assert "Nothing records what “Something” buys: refuse it." in response.content.decode()
    spend_refuse(entry=entry, actor=gm, reason="Nothing says what it buys")
    assert not character.ledger.filter(pending=True).exists()
