"""rules.combat: damage factors (Mudge 4.54, 4.55; Fudge Basics), wound tracks (Mudge 4.57,
Fudge Basics) and the odds of 4dF, checked against the printed sample sheets of Mudge 6.3
and the tables of Fudge Basics."""

from fractions import Fraction
from pathlib import Path

import pytest

from rules.character import Character, Equipment, Fault, Gift, Trait
from rules.charfile import parse_character_json
from rules.combat import damage_factors, fudge_dice_odds, wound_track
from rules.ladder import FAIR, GOOD, GREAT, MEDIOCRE, POOR
from rules.rulesets import BUILTIN, FUDGE_BASICS, MICROFUDGED_DIP, MUDGE
from tests.support.sources import RULES_SOURCES as SOURCES

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"
MUDGE_TEXT = next(SOURCES.glob("002_*.txt")).read_text()
BASICS_TEXT = next(SOURCES.glob("000_*.txt")).read_text()
DIP_TEXT = next(SOURCES.glob("003_*.txt")).read_text()


def sample(stem: str) -> Character:
    return parse_character_json((SAMPLES / f"{stem}.json").read_text()).character


def factors(character: Character, ruleset=MUDGE) -> dict[str, tuple]:
    result = damage_factors(character, ruleset)
    return {f.label: (f.terms, f.total, f.open_term) for f in result.offensive + result.defensive}


def boxes(character: Character, ruleset=MUDGE) -> list[int]:
    return [level.boxes for level in wound_track(character, ruleset)]


class TestBrogo:
    """Mudge 6.3, Brogo the Scout: Strength Good (Scale -2), Constitution Good, Mass -2,
    a medium staff (+2), no martial art, Toughness +1."""

    def test_the_printed_sheet(self):
        assert "UNARMED STRENGTH [1] + STRENGTH SCALE [-2] + MISC. [-1] = -2" in MUDGE_TEXT
        assert "STAFF STRENGTH [1] + STRENGTH SCALE [-2] + WEAPON [2] = +1" in MUDGE_TEXT
        assert "1,2 SCRATCH □ □ □ □\t3,4 HURT(-1) □ □\t5,6 VERY HURT(-2) □" in MUDGE_TEXT

    def test_offensive_factors_match_the_printed_sheet(self):
        found = factors(sample("brogo"))
        assert found["Unarmed"] == (
            (("Strength", 1), ("Strength Scale", -2), ("Misc.", -1)),
            -2,
            "",
        )
        assert found["Staff"] == (
            (("Strength", 1), ("Strength Scale", -2), ("Weapon", 2)),
            1,
            "",
        )

    def test_defensive_factor_follows_4_54_not_the_printed_constitution(self):
        # The printed sheet has "CONSTITUTION [2] + MASS SCALE [-2] + ARMOR [*] = 0 + *",
        # but Brogo's Constitution is Good (+1), written relative to humans as 2.35 asks:
        # the sample adds the halfling's +1 racial bonus a second time. Constitution +
        # Mass Scale is 1 - 2 = -1, and armour is left open ([*]) as on the sheet.
        assert "CONSTITUTION [2] + MASS SCALE [-2] + ARMOR [*] = 0 + *" in MUDGE_TEXT
        assert "CONSTITUTION\tGood (Half. Fair)" in MUDGE_TEXT
        assert factors(sample("brogo"))["Defensive"] == (
            (("Constitution", 1), ("Mass Scale", -2)),
            -1,
            "Armour",
        )

    def test_toughness_adds_a_scratch_box(self):
        assert "WOUNDS (Toughness Gift adds 1 Scratch box)" in MUDGE_TEXT
        assert boxes(sample("brogo")) == [4, 2, 1, 1, 1]

    def test_wound_levels_damage_numbers_and_penalties(self):
        track = wound_track(sample("brogo"), MUDGE)
        assert [(w.name, w.damage, w.penalty) for w in track] == [
            ("Scratch", "1,2", 0),
            ("Hurt", "3,4", -1),
            ("Very Hurt", "5,6", -2),
            ("Incapacitated", "7,8", 0),
            ("Near Death", "9+", 0),
        ]


class TestOtherSamples:
    def test_dolores_karate_makes_bare_hands_0(self):
        # "UNARMED STRENGTH [-2] + STRENGTH SCALE [0] + MISC. [0] = -2": Poor Strength, Karate.
        assert "UNARMED STRENGTH [-2] + STRENGTH SCALE [0] + MISC. [0] = -2" in MUDGE_TEXT
        found = factors(sample("dolores"))
        assert found["Unarmed"][1:] == (-2, "")
        assert found["Unarmed"][0][2] == ("Misc.", 0)
        assert found["Defensive"][1] == 1  # "CONSTITUTION [1] + MASS SCALE [0] ... = 1 + *"
        assert boxes(sample("dolores")) == [3, 2, 1, 1, 1]

    def test_james_judo_and_toughness(self):
        assert "UNARMED STRENGTH [0] + STRENGTH SCALE [0] + MISC. [0] = 0" in MUDGE_TEXT
        found = factors(sample("james"))
        assert found["Unarmed"][1] == 0
        assert found["Defensive"][1] == 1
        assert boxes(sample("james")) == [4, 2, 1, 1, 1]


def mudge(**fields) -> Character:
    return Character(ruleset="mudge", name="Test", **fields)


class TestMudgeRules:
    def test_missing_strength_and_constitution_stand_at_fair(self):
        found = factors(mudge())
        assert found["Unarmed"] == (
            (("Strength", FAIR), ("Strength Scale", 0), ("Misc.", -1)),
            -1,
            "",
        )
        assert found["Defensive"][1] == FAIR

    def test_each_weapon_with_a_value_and_each_armour(self):
        character = mudge(
            attributes=(Trait("Strength", GREAT), Trait("Constitution", MEDIOCRE)),
            scale_strength=1,
            scale_mass=2,
            equipment=(
                Equipment("Broadsword", "weapon", damage=2),
                Equipment("Rope", "gear"),
                Equipment("Improvised club", "weapon"),  # no value: nothing to add up
                Equipment("Scale mail", "armour", armour=4),
                Equipment("Buckler", "shield", armour=1),
            ),
        )
        found = factors(character)
        assert list(found) == ["Unarmed", "Broadsword", "Defensive", "In Scale mail"]
        assert found["Broadsword"][1] == 2 + 1 + 2
        assert found["Defensive"][1] == -1 + 2
        assert found["In Scale mail"] == (
            (("Constitution", -1), ("Mass Scale", 2), ("Armour", 4)),
            5,
            "",
        )

    def test_leroy_of_4_55(self):
        # "Offensive damage factors (ODF) = 1+0+2 = 3" / "(DDF) = 1+0+4 = 5."
        assert "*Offensive damage factors (ODF) = 1+0+2 = 3*" in MUDGE_TEXT
        leroy = mudge(
            attributes=(Trait("Strength", GOOD), Trait("Constitution", GOOD)),
            equipment=(
                Equipment("Broadsword", "weapon", damage=2),
                Equipment("Scale mail", "armour", armour=4),
            ),
        )
        found = factors(leroy)
        assert found["Broadsword"][1] == 3
        assert found["In Scale mail"][1] == 5

    @pytest.mark.parametrize(
        ("gifts", "faults", "scratch"),
        [
            ((), (), 3),
            (("Toughness",), (), 4),
            (("High Pain Threshold",), (), 4),
            (("Toughness +1", "High Pain Threshold"), (), 5),
            ((), ("Low Pain Threshold",), 2),
            (("Toughness",), ("Low Pain Threshold",), 3),
            (("Tough Guy Act",), (), 3),  # "Tough" is not "Toughness"
        ],
    )
    def test_scratch_boxes(self, gifts, faults, scratch):
        character = mudge(
            gifts=tuple(Gift(name) for name in gifts), faults=tuple(Fault(n) for n in faults)
        )
        assert boxes(character) == [scratch, 2, 1, 1, 1]


class TestFudgeBasics:
    def test_the_table(self):
        assert "1\tScratch\t\t00000\n2,3\tHurt\t-1\t0000\n4,5\tV.Hurt\t-2\t000" in BASICS_TEXT

    def test_wound_track_5_4_3_2_1(self):
        track = wound_track(Character(ruleset="fudge-basics", name="Test"), FUDGE_BASICS)
        assert [(w.damage, w.boxes, w.penalty) for w in track] == [
            ("1", 5, 0),
            ("2,3", 4, -1),
            ("4,5", 3, -2),
            ("6", 2, 0),
            ("7+", 1, 0),
        ]

    def test_no_weapon_is_0_and_damage_capacity_soaks(self):
        # Fudge Basics: "+0 for no weapon"; defence from the "Damage Capacity comparable
        # attribute", whatever the GM calls the list's other attributes.
        character = Character(
            ruleset="fudge-basics",
            name="Test",
            attributes=(
                Trait("Strength", POOR),
                Trait("Constitution", GOOD),
                Trait("Damage Capacity", GREAT),
            ),
        )
        found = factors(character, FUDGE_BASICS)
        assert found["Unarmed"][0][2] == ("Misc.", 0)
        assert found["Unarmed"][1] == POOR
        assert found["Defensive"][0][0] == ("Damage Capacity", GREAT)


def test_microfudged_has_setbacks_not_damage_factors_or_wound_boxes():
    # MicroFudged resolves harm with cards and Setbacks (DIP V.2-3): "1 success = opponent
    # suffers a Setback (-1 card penalty)", Major -2, Extreme -3; one of each kind at most.
    assert "2 successes = opponent suffers a Major Setback (-2 cards penalty)" in DIP_TEXT
    character = sample("jim-bones")
    assert damage_factors(character, MICROFUDGED_DIP).offensive == ()
    assert damage_factors(character, MICROFUDGED_DIP).defensive == ()
    track = wound_track(character, BUILTIN["microfudged-streamlined"])
    assert [(w.name, w.damage, w.penalty, w.boxes) for w in track] == [
        ("Setback (Wound)", "1 success", -1, 1),
        ("Major Setback (Severe wound)", "2 successes", -2, 1),
        ("Extreme Setback (Grievous injury)", "3 successes", -3, 1),
    ]


def test_odds_of_4df_match_fudge_basics():
    rows = fudge_dice_odds()
    assert [r[0] for r in rows] == [4, 3, 2, 1, 0, -1, -2, -3, -4]
    assert [r[1] * 81 for r in rows] == [1, 4, 10, 16, 19, 16, 10, 4, 1]
    assert rows[-1][2] == Fraction(1)
    printed = BASICS_TEXT[BASICS_TEXT.index("Result\tTarget\tHigher") :].splitlines()[1:10]
    assert [line.split("\t")[1:] for line in printed] == [
        [f"{float(exactly) * 100:.1f}%", f"{float(at_least) * 100:.1f}%"]
        for _, exactly, at_least in rows
    ]
