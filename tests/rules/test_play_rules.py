"""rules.play: the harm tracks marked at the table (Mudge 4.57, Fudge Basics "The Wound
Track", MicroFudged DIP V.3), healing and rest (Mudge 4.8, Fudge Basics "Healing", DIP VI),
the wound penalty, the points spent in play, and 4dF rolls with their odds and damage,
checked against the rule texts' own examples."""

from fractions import Fraction
from pathlib import Path

import pytest

from rules import play
from rules.character import Character, Gift, Power
from rules.charfile import parse_character_json
from rules.house_rules import apply_house_rules
from rules.ladder import ABYSMAL, FAIR, GOOD, GREAT, MEDIOCRE, POOR, TERRIBLE
from rules.rulesets import FUDGE_BASICS, MICROFUDGED_DIP, MUDGE

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"
# ../shared/rules-sources from the repository, looked for upwards so a git worktree finds it.
SOURCES = next(
    path / "shared" / "rules-sources"
    for path in Path(__file__).resolve().parents
    if (path / "shared" / "rules-sources").is_dir()
)
MUDGE_TEXT = next(SOURCES.glob("002_*.txt")).read_text()
DIP_TEXT = next(SOURCES.glob("003_*.txt")).read_text()
SCRATCH, HURT, VERY_HURT, INCAPACITATED, NEAR_DEATH = range(5)


def sample(stem: str) -> Character:
    return parse_character_json((SAMPLES / f"{stem}.json").read_text()).character


def plain(ruleset=MUDGE, **kwargs) -> Character:
    return Character(ruleset=ruleset.slug, name="Tess", **kwargs)


def mudge_track(**kwargs) -> play.HarmTrack:
    return play.harm_track(plain(**kwargs), MUDGE)


def blows(track, marks, *levels):
    for level in levels:
        marks, _ = play.record_blow(track, marks, level)
    return marks


class TestTracks:
    def test_mudge_boxes_and_damage_numbers(self):
        track = mudge_track()
        assert [(lv.name, lv.damage, lv.boxes) for lv in track.levels] == [
            ("Scratch", "1,2", 3),
            ("Hurt", "3,4", 2),
            ("Very Hurt", "5,6", 1),
            ("Incapacitated", "7,8", 1),
            ("Near Death", "9+", 1),
        ]
        assert "O O O\tO O\tO\tO\tO" in MUDGE_TEXT

    def test_toughness_adds_a_scratch_box(self):
        # Brogo's sheet (Mudge 6.3): "1,2 SCRATCH □ □ □ □".
        track = play.harm_track(sample("brogo"), MUDGE)
        assert track.levels[SCRATCH].boxes == 4

    def test_fudge_basics_boxes(self):
        track = play.harm_track(plain(FUDGE_BASICS), FUDGE_BASICS)
        assert [lv.boxes for lv in track.levels] == [5, 4, 3, 2, 1]
        assert track.section == "Fudge Basics, The Wound Track"

    def test_microfudged_keeps_the_largest_setback(self):
        track = play.harm_track(plain(MICROFUDGED_DIP), MICROFUDGED_DIP)
        assert [(lv.name, lv.penalty) for lv in track.levels] == [
            ("Wound", -1),
            ("Severe Wound", -2),
            ("Grievous Injury", -3),
        ]
        assert "A Setbacks is considered as a Wound, a Major Setbacks can be compared" in DIP_TEXT
        marks = blows(track, play.empty_marks(track), 1, 0)
        assert play.wound_penalty(track, marks) == -2  # two Wounds don't add up either
        assert blows(track, marks, 0) == marks

    @pytest.mark.parametrize(
        "ruleset, damage, level",
        [
            (MUDGE, 0, None),
            (MUDGE, -2, None),
            (MUDGE, 2, SCRATCH),
            (MUDGE, 3, HURT),
            (MUDGE, 6, VERY_HURT),
            (MUDGE, 8, INCAPACITATED),
            (MUDGE, 12, NEAR_DEATH),
            (FUDGE_BASICS, 1, SCRATCH),
            (FUDGE_BASICS, 3, HURT),
            (FUDGE_BASICS, 4, VERY_HURT),
            (FUDGE_BASICS, 6, INCAPACITATED),
            (FUDGE_BASICS, 7, NEAR_DEATH),
            (MICROFUDGED_DIP, 1, 0),
            (MICROFUDGED_DIP, 3, 2),
            (MICROFUDGED_DIP, 5, 2),
        ],
    )
    def test_damage_to_level(self, ruleset, damage, level):
        track = play.harm_track(plain(ruleset), ruleset)
        assert track.level_of_damage(damage) == level


class TestRecordingWounds:
    """Mudge 4.57, "Recording Wounds", step by step."""

    def test_the_worked_example(self):
        track = mudge_track()
        marks = blows(track, play.empty_marks(track), VERY_HURT)
        assert play.wound_penalty(track, marks) == -2  # "at -2 to all skills"
        marks = blows(track, marks, HURT)
        assert play.wound_penalty(track, marks) == -2  # "still at -2": not cumulative
        marks, landed = play.record_blow(track, marks, HURT)
        assert landed == HURT
        marks, landed = play.record_blow(track, marks, HURT)
        # "X X  X  H": no open box at Hurt or Very Hurt, so Incapacitated takes it, as a Hurt.
        assert landed == INCAPACITATED
        assert marks == ((), (HURT, HURT), (VERY_HURT,), (HURT,), ())
        assert play.worst_level(marks) == INCAPACITATED

    def test_the_fourth_scratch_hurts(self):
        # "A Scratch wound will not make a fighter Hurt until he receives his fourth Scratch."
        track = mudge_track()
        marks = blows(track, play.empty_marks(track), SCRATCH, SCRATCH, SCRATCH)
        assert play.wound_penalty(track, marks) == 0
        marks = blows(track, marks, SCRATCH)
        assert marks[HURT] == (SCRATCH,)
        assert play.wound_penalty(track, marks) == -1

    def test_two_very_hurts_incapacitate(self):
        track = mudge_track()
        marks = blows(track, play.empty_marks(track), VERY_HURT, VERY_HURT)
        assert play.worst_level(marks) == INCAPACITATED

    def test_a_full_track_is_the_gms_call(self):
        track = mudge_track()
        marks = blows(track, play.empty_marks(track), NEAR_DEATH)
        with pytest.raises(play.PlayError, match="GM's call"):
            play.record_blow(track, marks, NEAR_DEATH)

    def test_clicking_boxes(self):
        track = mudge_track()
        marks = play.mark_box(track, play.empty_marks(track), HURT)
        marks = play.mark_box(track, marks, HURT)
        with pytest.raises(play.PlayError, match="Every Hurt box is marked"):
            play.mark_box(track, marks, HURT)
        marks = play.clear_box(track, marks, HURT)
        assert marks[HURT] == (HURT,)
        with pytest.raises(play.PlayError, match="No Scratch box is marked"):
            play.clear_box(track, marks, SCRATCH)
        with pytest.raises(play.PlayError, match="no level 9"):
            play.mark_box(track, marks, 9)

    def test_marks_follow_a_track_that_changed(self):
        # Four Scratches on Brogo's track (Toughness), then the gift is gone: the fourth
        # rolls up into Hurt instead of vanishing.
        brogo = play.harm_track(sample("brogo"), MUDGE)
        marks = blows(brogo, play.empty_marks(brogo), *[SCRATCH] * 4)
        assert marks[SCRATCH] == (SCRATCH,) * 4
        fitted = play.fit_marks(mudge_track(), marks)
        assert fitted[SCRATCH] == (SCRATCH,) * 3 and fitted[HURT] == (SCRATCH,)
        assert play.fit_marks(mudge_track(), None) == play.empty_marks(mudge_track())


class TestHealing:
    def test_a_good_healing_roll(self):
        # Mudge 4.8: "two Hurt results and one Very Hurt ... the two Hurt wounds will be
        # fully healed, while the Very Hurt wound will now be a Hurt wound".
        track = mudge_track()
        marks = blows(track, play.empty_marks(track), HURT, HURT, VERY_HURT)
        healed = play.heal_one_level(track, marks)
        assert healed == ((), (HURT,), (), (), ())
        assert play.wound_penalty(track, healed) == -1

    def test_after_the_fight_scratches_go_even_rolled_up(self):
        track = mudge_track()
        marks = blows(track, play.empty_marks(track), *[SCRATCH] * 4, VERY_HURT)
        after = play.rest_marks(track, marks, play.rests(MUDGE)[0])
        assert after == ((), (), (VERY_HURT,), (), ())

    def test_a_week_of_rest_in_microfudged(self):
        track = play.harm_track(plain(MICROFUDGED_DIP), MICROFUDGED_DIP)
        marks = blows(track, play.empty_marks(track), 2)
        week = next(r for r in play.rests(MICROFUDGED_DIP) if r.key == "week")
        assert week.potential and week.section == "MicroFudged DIP V.3, VI"
        once = play.rest_marks(track, marks, week)
        assert play.wound_penalty(track, once) == -2
        assert play.rest_marks(track, play.rest_marks(track, once, week), week) == ((), (), ())

    def test_what_each_ruleset_offers(self):
        assert [(r.key, r.section) for r in play.rests(MUDGE)] == [
            ("after-fight", "Mudge 4.8"),
            ("week", "Mudge 4.8"),
        ]
        assert [r.section for r in play.rests(FUDGE_BASICS)] == ["Fudge Basics, Healing"] * 2
        night = play.rests(MICROFUDGED_DIP)[0]
        assert (night.key, night.potential, night.one_level) == ("night", True, False)
        assert "usually recovered after a good night rest" in DIP_TEXT


class TestPoints:
    def test_mudge_meta_points(self):
        pool = play.table_pool(plain(), MUDGE)
        assert (pool.name, pool.on_record, pool.most, pool.section) == (
            "meta points",
            3,
            5,
            "Mudge 1.36",
        )
        assert play.table_pool(sample("brogo"), MUDGE).on_record == 0

    def test_fudge_points(self):
        pool = play.table_pool(plain(FUDGE_BASICS, meta_points=4), FUDGE_BASICS)
        assert (pool.name, pool.on_record, pool.most) == ("Fudge points", 4, None)

    def test_microfudged_tokens_saved_at_creation(self):
        # Jim Bones (DIP I) assigns 3 of his 6 tokens and saves the rest for play.
        jim = sample("jim-bones")
        ruleset = apply_house_rules(MICROFUDGED_DIP, {"tokens": 6})
        assert "Jim's player assigns 3 of his 6 starting Tokens" in DIP_TEXT
        pool = play.table_pool(jim, ruleset)
        assert (pool.name, pool.on_record, pool.section) == ("tokens", 3, "MicroFudged DIP II")

    def test_field_of_power_potential(self):
        # DIP VIII.1: potential is the field's card rating once it reaches Poor (2 cards).
        character = plain(
            MICROFUDGED_DIP,
            powers=(Power("Telepathy", "psi", GOOD), Power("Telekinesis", "psi", TERRIBLE)),
        )
        assert play.potentials(character, MICROFUDGED_DIP) == (("Telepathy", 5),)
        assert "a Psionic Field of power rated as Good can be used 5 times" in DIP_TEXT
        assert play.potentials(plain(gifts=(Gift("Magery"),)), MUDGE) == ()


class TestRolling:
    def test_dice_are_fudge_dice(self):
        faces = iter([0, 1, 2, 2])
        assert play.roll_fudge_dice(lambda n: next(faces)) == (-1, 0, 1, 1)
        rolled = {die for _ in range(200) for die in play.roll_fudge_dice()}
        assert rolled == {-1, 0, 1}

    def test_odds_match_fudge_basics(self):
        # Mudge 1.4: "a character with a trait at Fair will succeed at ordinary tasks 62%
        # of the time": 0 or better on 4dF is 50 of 81.
        assert play.chance_to_reach(FAIR, FAIR) == Fraction(50, 81)
        assert play.chance_to_reach(GOOD, GREAT) == Fraction(31, 81)
        assert play.chance_to_reach(MEDIOCRE, GREAT + 1) == Fraction(1, 81)
        assert play.chance_to_reach(POOR, GREAT + 2) == 0
        assert play.chance_to_reach(GREAT, TERRIBLE) == 1

    def test_results_on_the_ladder(self):
        assert play.result_name(-4, MUDGE.ladder_bottom) == "Terrible-1"
        assert play.result_name(ABYSMAL, MICROFUDGED_DIP.ladder_bottom) == "Abysmal"
        assert play.result_name(6, TERRIBLE) == "Legendary+2"
        assert play.against_choices(MUDGE)[0] == (TERRIBLE, "Terrible")
        assert play.against_choices(MICROFUDGED_DIP)[0] == (ABYSMAL, "Abysmal")
        # DIP V, "Difficulty levels": "Hard Good", "Daunting Great".
        assert dict(play.against_choices(MICROFUDGED_DIP))[GOOD] == "Good (Hard)"
        assert dict(play.against_choices(MICROFUDGED_DIP))[GREAT] == "Great (Daunting)"


class TestDamage:
    """Mudge 4.55, 4.56, 4.58 and 4.61 with their own examples."""

    def test_leroy_hits_theodora(self):
        # "If Leroy hits Theodora with a relative degree of +2, he adds that to his TDF of
        # 0 and the result of his 'damage die' (say +1) to produce a damage number of
        # three ... Theodora is Hurt".
        hit = play.blow(MUDGE, margin=2, offense=3, defence=3, damage_die=1)
        assert (hit.damage, hit.wound) == (3, "Hurt")
        assert hit.working == "2 + 3 - 3 + 1 (damage die) = 3"

    def test_sheba_kicks_mcmurtree(self):
        # "Sheba's damage factor against McMurtree is 1 - (-3) = +4 ... relative degree of
        # +2 she scores a total of 4 + 2 = six points ... Very Hurt".
        hit = play.blow(MUDGE, margin=2, offense=1, defence=-3, damage_die=0)
        assert (hit.damage, hit.wound) == (6, "Very Hurt")

    def test_fionn_does_nothing(self):
        hit = play.blow(MUDGE, margin=3, offense=-1, defence=2, damage_die=0)
        assert (hit.damage, hit.wound) == (0, "")

    def test_wilbur_scratches_the_dragon(self):
        hit = play.blow(MUDGE, margin=4, offense=5, defence=8, damage_die=0)
        assert (hit.damage, hit.wound) == (1, "Scratch")

    def test_the_damage_die_never_takes_a_hit_below_1(self):
        hit = play.blow(MUDGE, margin=2, offense=0, defence=1, damage_die=-1)
        assert (hit.damage, hit.wound) == (1, "Scratch")

    def test_a_graze_is_capped(self):
        # Leroy wins by +1 with a TDF of 0: "the most damage he can inflict is a Scratch".
        hit = play.blow(MUDGE, margin=1, offense=6, defence=3, damage_die=1)
        assert hit.damage == 5 and hit.wound == "Scratch"
        assert hit.note == "a graze, Mudge 4.56: at most Scratch at TDF +3"
        titan = play.blow(MUDGE, margin=1, offense=9, defence=3, damage_die=0)
        assert titan.wound == "Hurt"
        fist_on_plate = play.blow(MUDGE, margin=1, offense=0, defence=6, damage_die=1)
        assert fist_on_plate.wound == ""
        assert fist_on_plate.note == "a graze, Mudge 4.56: no damage at TDF -6"

    def test_fudge_basics_has_no_damage_die(self):
        hit = play.blow(FUDGE_BASICS, margin=2, offense=2, defence=1, damage_die=1)
        assert (hit.damage, hit.wound, hit.working) == (3, "Hurt", "2 + 2 - 1 = 3")

    def test_microfudged_setbacks_count_successes(self):
        # DIP V.3: two successes over the defence are a Major Setback (a Severe wound).
        hit = play.blow(MICROFUDGED_DIP, margin=2, offense=0, defence=0, damage_die=0)
        assert (hit.damage, hit.wound) == (2, "Major Setback (Severe wound)")
        worst = play.blow(MICROFUDGED_DIP, margin=5, offense=0, defence=0, damage_die=0)
        assert worst.wound == "Extreme Setback (Grievous injury)"

    def test_no_win_no_blow(self):
        assert play.blow(MUDGE, margin=0, offense=3, defence=0, damage_die=1) is None


class TestSeverity:
    """How bad the worst wound is (rules.play.severity): what a page's colour and icon say."""

    @pytest.mark.parametrize("ruleset", [MUDGE, FUDGE_BASICS, MICROFUDGED_DIP])
    def test_it_rises_with_each_level_from_unhurt_to_the_gravest(self, ruleset):
        track = play.harm_track(plain(ruleset), ruleset)
        unhurt = tuple(() for _ in track.levels)
        found = [play.severity(track, unhurt)]
        for level in range(len(track.levels)):
            found.append(play.severity(track, blows(track, unhurt, level)))
        assert found[0] == 0 and found[-1] == play.GRAVEST
        assert found == sorted(set(found)), found  # each level graver than the one before

    def test_mudge_near_death_is_the_gravest_and_a_scratch_the_lightest(self):
        track = mudge_track()
        unhurt = tuple(() for _ in track.levels)
        assert [play.severity(track, blows(track, unhurt, level)) for level in range(5)] == [
            1,
            2,
            3,
            4,
            5,
        ]
        # The worst wound marked counts, whatever lies below it.
        assert play.severity(track, blows(track, unhurt, SCRATCH, NEAR_DEATH)) == play.GRAVEST


class TestGroupTracks:
    """Issue 43: three pirates made as one NPC, a Mudge wound track each (4.55)."""

    def test_each_other_member_has_a_track_of_its_own(self):
        track = mudge_track()
        members = play.fit_group(track, [], 3)
        assert members == (play.empty_marks(track), play.empty_marks(track))
        hurt = play.mark_box(track, members[1], 1)
        assert play.wound_penalty(track, hurt) == -1  # Mudge 4.55: Hurt, -1
        assert play.fit_group(track, [[], [list(b) for b in hurt]], 3)[1] == hurt

    def test_stored_tracks_fit_the_group_as_it_is_now(self):
        track = mudge_track()
        scratched = [[0], [], [], [], []]
        # A group grown from 2 to 4: the new members are unhurt; shrunk to 2: the rest go.
        grown = play.fit_group(track, [scratched], 4)
        assert len(grown) == 3 and grown[0][0] == (0,) and grown[1] == play.empty_marks(track)
        assert len(play.fit_group(track, [scratched, scratched, scratched], 2)) == 1
        assert play.fit_group(track, "not a list", 2) == (play.empty_marks(track),)
        assert play.fit_group(track, [], 1) == ()
