"""Play at the table, through the services (characters.services.play): wounds, points,
potential, conditions, rest and the dice log, each recorded, each refused when stale, and
none of them touching the approved build."""

import pytest

from characters.adapters import character_file, file_sha256
from characters.errors import NotAllowed, ServiceError, StaleWrite
from characters.models import Character, DiceRoll, PlayEvent, Trait
from characters.selectors.play import at_table
from characters.services import play as services
from characters.services.characters import character_create
from characters.services.rows import trait_add
from rules.ladder import GOOD
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import approved, build
from tests.support.races import at_once, postgres_only

SCRATCH, HURT, VERY_HURT, INCAPACITATED = range(4)


def fresh(character) -> Character:
    return Character.objects.prefetch_related("traits", "equipment", "approvals").get(
        pk=character.pk
    )


def table(character):
    return at_table(fresh(character))


def dice(*faces):
    """A stand-in for secrets.randbelow that rolls the given faces (-1, 0, +1) in order."""
    values = iter(face + 1 for face in faces)
    return lambda n: next(values)


class TestTheBuildStaysAsApproved:
    def test_a_game_leaves_version_traits_and_hash_alone(self, tess, player, gm):
        approval = tess.approvals.get()
        version, traits = tess.version, list(tess.traits.values_list("name", "level"))
        events = tess.events.count()
        services.play_wound_box(
            mark=True, character=tess, actor=player, expected_revision=0, level=HURT
        )
        services.play_points_spend(character=tess, actor=player, expected_revision=1)
        services.play_blow_record(character=tess, actor=gm, damage=5)
        services.play_condition_add(
            character=tess, actor=gm, expected_revision=None, text="stunned"
        )
        services.play_rest(character=tess, actor=player, expected_revision=4, rest="week")
        services.dice_roll(character=fresh(tess), actor=player, trait="Climbing")
        tess = fresh(tess)
        assert tess.version == version and tess.state == Character.State.APPROVED
        assert list(tess.traits.values_list("name", "level")) == traits
        assert tess.approvals.get().sha256 == approval.sha256
        assert file_sha256(character_file(tess)) == approval.sha256
        assert tess.events.count() == events  # the build's audit trail: nothing new
        assert PlayEvent.objects.filter(character=tess).count() == 5


class TestWounds:
    def test_a_box_is_marked_and_recorded(self, tess, player):
        change = services.play_wound_box(
            mark=True, character=tess, actor=player, expected_revision=0, level=HURT
        )
        assert change.table.penalty == -1
        assert (
            change.said
            == "Tess: Hurt box marked. Now Hurt, -1 on every roll; meta points in hand: 3."
        )
        event = PlayEvent.objects.get(character=tess)
        assert (event.action, event.actor, event.revision) == ("wound_marked", player, 1)
        assert event.before == {"wounds": [[], [], [], [], []], "worst": ""}
        assert event.after == {"wounds": [[], [HURT], [], [], []], "worst": "Hurt"}

    def test_a_stale_click_is_refused(self, tess, player, gm):
        services.play_wound_box(
            mark=True, character=tess, actor=gm, expected_revision=0, level=SCRATCH
        )
        with pytest.raises(StaleWrite, match="someone else clicked first"):
            services.play_wound_box(
                mark=True, character=tess, actor=player, expected_revision=0, level=HURT
            )
        assert table(tess).marks == ((SCRATCH,), (), (), (), ())
        assert PlayEvent.objects.count() == 1

    def test_clearing_a_box(self, tess, player):
        services.play_wound_box(
            mark=True, character=tess, actor=player, expected_revision=0, level=HURT
        )
        services.play_wound_box(
            mark=False, character=tess, actor=player, expected_revision=1, level=HURT
        )
        assert table(tess).worst is None
        with pytest.raises(ServiceError, match="No Hurt box is marked"):
            services.play_wound_box(
                mark=False, character=tess, actor=player, expected_revision=2, level=HURT
            )

    def test_blows_roll_up_as_mudge_4_57_records_them(self, tess, gm):
        # Very Hurt (5), Hurt (3), then two more Hurts (4, 3): "X X  X  H".
        for damage in (5, 3, 4):
            services.play_blow_record(character=tess, actor=gm, damage=damage)
        change = services.play_blow_record(character=tess, actor=gm, damage=3)
        assert change.said.startswith("Tess: damage 3: Hurt, in the Incapacitated box. Now")
        assert table(tess).marks == ((), (HURT, HURT), (VERY_HURT,), (HURT,), ())
        assert table(tess).rows[INCAPACITATED].boxes[0].symbol == "H"

    def test_no_damage_marks_nothing(self, tess, gm):
        with pytest.raises(ServiceError, match="A blow of 0 does no damage"):
            services.play_blow_record(character=tess, actor=gm, damage=0)

    def test_the_wound_penalty_on_rolls(self, tess, player):
        services.play_blow_record(character=tess, actor=player, damage=6)  # Very Hurt
        roll = services.dice_roll(
            character=fresh(tess), actor=player, trait="Climbing", randbelow=dice(1, 0, 0, 0)
        )
        assert (roll.level, roll.penalty, roll.penalty_reason) == (GOOD, -2, "Very Hurt")
        assert roll.result == GOOD - 2 + 1


class TestPoints:
    def test_spent_and_given_back(self, tess, player, gm):
        for revision in range(3):
            services.play_points_spend(character=tess, actor=player, expected_revision=revision)
        with pytest.raises(ServiceError, match="Tess has no meta points left to spend"):
            services.play_points_spend(character=tess, actor=player, expected_revision=3)
        with pytest.raises(NotAllowed, match="Only the GM gives meta points back"):
            services.play_points_regain(character=tess, actor=player, expected_revision=3)
        change = services.play_points_regain(character=tess, actor=gm, expected_revision=3)
        assert change.table.in_hand == 1
        assert (change.table.state.points_spent, change.table.state.points_regained) == (3, 1)
        assert fresh(tess).meta_points is None  # the record: still the ruleset's start

    def test_mudge_caps_what_a_character_holds(self, tess, gm):
        services.play_points_regain(character=tess, actor=gm, expected_revision=0)
        services.play_points_regain(character=tess, actor=gm, expected_revision=1)
        with pytest.raises(ServiceError, match=r"holds 5 meta points.*\(Mudge 1.36\)"):
            services.play_points_regain(character=tess, actor=gm, expected_revision=2)

    def test_alone_the_player_gives_points_back(self, player):
        loner = build(player, None, "Lone", ruleset="fudge-basics", weapon=None)
        services.play_points_spend(character=fresh(loner), actor=player, expected_revision=0)
        change = services.play_points_regain(
            character=fresh(loner), actor=player, expected_revision=1
        )
        assert change.said.endswith("; Fudge points in hand: 3.")


class TestMicroFudged:
    @pytest.fixture
    def medium(self, gm, player):
        from characters.models import Campaign, Membership

        campaign = Campaign.objects.create(
            name="Haunted", gm=gm, base_ruleset="microfudged-dip", house_rules={"tokens": 11}
        )
        Membership.objects.create(campaign=campaign, user=player)
        character = character_create(owner=player, name="Medium", campaign=campaign)
        trait_add(
            character=character,
            actor=player,
            expected_version=None,
            kind=Trait.Kind.POWER,
            name="Telepathy",
            level=GOOD,
            power_kind="psi",
        )
        return approved(character, gm)

    def test_tokens_potential_and_setbacks(self, medium, player, gm):
        start = table(medium)
        # Telepathy from Abysmal to Good: 5 tokens of 11 (DIP I), 6 saved for play (DIP II).
        assert (start.pool.name, start.in_hand) == ("tokens", 6)
        assert start.potentials == (("Telepathy", 5),)  # DIP VIII.1: Good is 5 cards
        for revision in range(5):
            services.play_potential_use(
                character=medium, actor=player, expected_revision=revision, power="Telepathy"
            )
        with pytest.raises(ServiceError, match="Telepathy has 5 potential; 5 used"):
            services.play_potential_use(
                character=medium, actor=player, expected_revision=5, power="Telepathy"
            )
        services.play_blow_record(character=medium, actor=gm, damage=2)  # a Major Setback
        assert table(medium).penalty == -2
        night = services.play_rest(
            character=medium, actor=player, expected_revision=6, rest="night"
        )
        assert night.table.potential_left("Telepathy") == 5
        assert night.table.penalty == -2  # a night heals no lethal Setback (DIP V.3)
        week = services.play_rest(character=medium, actor=player, expected_revision=7, rest="week")
        assert week.table.worst.name == "Wound"

    def test_no_weapons_in_microfudged(self, medium, player):
        with pytest.raises(ServiceError, match="no weapon 'Sword'"):
            services.dice_roll(
                character=fresh(medium), actor=player, weapon="Sword", against=0, defence=0
            )


class TestConditionsAndRest:
    def test_conditions(self, tess, player, gm):
        services.play_condition_add(
            character=tess, actor=gm, expected_revision=None, text="  stunned  "
        )
        with pytest.raises(ServiceError, match="already marked “Stunned”"):
            services.play_condition_add(
                character=tess, actor=player, expected_revision=None, text="Stunned"
            )
        with pytest.raises(ServiceError, match="1 to 60 characters"):
            services.play_condition_add(
                character=tess, actor=player, expected_revision=None, text="x" * 61
            )
        for n in range(7):
            services.play_condition_add(
                character=tess, actor=player, expected_revision=None, text=f"mark {n}"
            )
        with pytest.raises(ServiceError, match="At most 8 conditions"):
            services.play_condition_add(
                character=tess, actor=player, expected_revision=None, text="one more"
            )
        services.play_condition_remove(
            character=tess, actor=player, expected_revision=None, text="stunned"
        )
        assert table(tess).state.conditions == [f"mark {n}" for n in range(7)]

    def test_after_the_fight_and_a_week(self, tess, gm, player):
        for damage in (1, 2, 1, 2, 4):  # four Scratches (one rolls up) and a Hurt
            services.play_blow_record(character=tess, actor=gm, damage=damage)
        after = services.play_rest(
            character=tess, actor=player, expected_revision=5, rest="after-fight"
        )
        assert after.table.marks == ((), (HURT,), (), (), ())
        assert "Scratches erased" in PlayEvent.objects.last().note
        week = services.play_rest(character=tess, actor=player, expected_revision=6, rest="week")
        assert week.table.worst is None
        with pytest.raises(ServiceError, match="Mudge rests are: After the fight, A week"):
            services.play_rest(character=tess, actor=player, expected_revision=7, rest="night")


class TestWhoPlays:
    def test_a_draft_in_a_campaign_is_not_in_play(self, campaign, player):
        draft = build(player, campaign, "Draft")
        with pytest.raises(ServiceError, match="Draft is a draft: play starts once the GM"):
            services.play_wound_box(
                mark=True, character=fresh(draft), actor=player, expected_revision=0, level=0
            )

    def test_another_player_is_refused(self, tess, other_player):
        with pytest.raises(NotAllowed):
            services.play_points_spend(character=tess, actor=other_player, expected_revision=0)
        with pytest.raises(NotAllowed):
            services.dice_roll(character=fresh(tess), actor=other_player)

    def test_only_the_gm_opens_a_session(self, campaign, gm, player):
        first = services.session_start(campaign=campaign, actor=gm)
        second = services.session_start(campaign=campaign, actor=gm)
        assert (first.subject, second.subject) == ("Session 1", "Session 2")
        with pytest.raises(NotAllowed):
            services.session_start(campaign=campaign, actor=player)


class TestRolls:
    def test_a_roll_against_a_difficulty(self, tess, player):
        roll = services.dice_roll(
            character=fresh(tess),
            actor=player,
            trait="Climbing",
            modifier=-1,
            against=GOOD,
            randbelow=dice(1, 1, 0, -1),
        )
        assert roll.dice == [1, 1, 0, -1]
        assert (roll.campaign_id, roll.subject, roll.roller) == (tess.campaign_id, "Tess", player)
        assert roll.result == GOOD - 1 + 1  # Good, -1 situational, +1 on the dice
        # Good -1 needs +1 or better to reach Good: 31 of the 81 rolls (Fudge Basics).
        assert roll.chance == 31

    def test_a_plain_roll_is_from_fair(self, tess, gm):
        roll = services.dice_roll(character=fresh(tess), actor=gm, randbelow=dice(0, 0, 0, 0))
        assert (roll.trait, roll.level, roll.result, roll.roller) == ("", 0, 0, gm)

    def test_a_hit_with_damage(self, tess, player):
        # Broadsword: Strength Good +1, medium weapon +2 = ODF 3 (Mudge 4.54). Climbing Good
        # +2 on the dice beats Fair by 3; the defender's DDF is 2; damage die +1 (4.61).
        roll = services.dice_roll(
            character=fresh(tess),
            actor=player,
            trait="Climbing",
            against=0,
            weapon="Broadsword",
            defence=2,
            randbelow=dice(1, 0, 0, 1),
        )
        assert roll.damage == 5
        assert roll.damage_note == "Broadsword: 3 + 3 - 2 + 1 (damage die) = 5: Very Hurt"

    def test_a_miss_does_no_damage(self, tess, player):
        roll = services.dice_roll(
            character=fresh(tess),
            actor=player,
            against=4,
            weapon="Broadsword",
            defence=0,
            randbelow=dice(0, 0, 0, 0),
        )
        assert (roll.damage, roll.damage_note) == (None, "Broadsword +3: no hit, no damage")

    def test_bad_requests(self, tess, player):
        with pytest.raises(ServiceError, match="no trait 'Flying'"):
            services.dice_roll(character=fresh(tess), actor=player, trait="Flying")
        with pytest.raises(ServiceError, match="defender's defensive damage factor"):
            services.dice_roll(character=fresh(tess), actor=player, weapon="Broadsword")
        assert not DiceRoll.objects.exists()

    def test_rolls_are_fair(self, tess, player):
        """A hundred rolls with the server's own randomness: every face comes up, and the
        mean of the 400 dice is near 0 (one die: mean 0, variance 2/3; the mean of 400 is
        off by more than 0.25, six standard deviations, about once in a billion runs)."""
        character = fresh(tess)
        faces = []
        for _ in range(100):
            faces += services.dice_roll(character=character, actor=player).dice
        assert set(faces) == {-1, 0, 1}
        assert abs(sum(faces) / len(faces)) < 0.25


@postgres_only
@pytest.mark.django_db(transaction=True)
class TestPlayerAndGMAtOnce:
    """The player and the GM click at the same moment, on a character with no play state
    yet: the row is made once, and the second click waits for the first's lock."""

    def test_two_clicks_on_what_both_saw_one_wins(self, tess, player, gm):
        outcomes = at_once(
            lambda: services.play_wound_box(
                character=tess, actor=player, expected_revision=0, level=HURT, mark=True
            ),
            lambda: services.play_wound_box(
                character=tess, actor=gm, expected_revision=0, level=SCRATCH, mark=True
            ),
        )
        assert sorted(type(o).__name__ for o in outcomes) == ["Change", "StaleWrite"]
        state = table(tess).state
        assert state.revision == 1 and PlayEvent.objects.filter(character=tess).count() == 1
        assert sum(len(boxes) for boxes in state.wounds) == 1

    def test_two_blows_at_once_both_land(self, tess, player, gm):
        outcomes = at_once(
            lambda: services.play_blow_record(character=tess, actor=player, damage=3),
            lambda: services.play_blow_record(character=tess, actor=gm, damage=4),
        )
        assert [type(o).__name__ for o in outcomes] == ["Change", "Change"]
        assert table(tess).marks == ((), (HURT, HURT), (), (), ())
        assert table(tess).state.revision == 2
