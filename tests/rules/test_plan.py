"""The experience plan (rules.plan), priced by the rule texts' costs: Mudge 5.2's XP table,
MicroFudged DIP's token a rank, and a campaign's house-ruled costs."""

import json
from pathlib import Path

import pytest

from rules.charfile import CharacterFileError, read_character, write_character
from rules.house_rules import apply_house_rules
from rules.ladder import FAIR, GOOD, GREAT, LEGENDARY, POOR, SUPERB
from rules.plan import (
    BUY_OFF_FAULT,
    GIFT,
    LEARN,
    META_POINT,
    RAISE,
    Step,
    price_plan,
    read_steps,
    write_steps,
)
from rules.rulesets import BUILTIN, LEVELS, MICROFUDGED_DIP, MUDGE
from tests.support.sources import RULES_SOURCES as SOURCES

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"
MUDGE_TEXT = next(SOURCES.glob("002_*.txt")).read_text()


def sample(stem: str):
    return read_character(json.loads((SAMPLES / f"{stem}.json").read_text())).character


BROGO = sample("brogo")  # Mudge 6.3: Elvish Fair, Strength Good, 0 meta points left
JIM = sample("jim-bones")  # DIP I: Medicine Fair, Bedside Manner Mediocre


class TestMudge:
    # Mudge 5.2: Fair->Good 2 XP, Good->Great 4, Great->Superb 8, Superb->Legendary 16 + GM
    # permission; attributes triple; a gift 4 XP; a meta point 6 XP (Mudge 1.36).
    def test_the_table_is_the_texts(self):
        for row in ("Fair\tGood\t2 XP", "Good\tGreat\t4 XP", "Great\tSuperb\t8 XP"):
            assert row in MUDGE_TEXT
        assert "cost of six experience points" in MUDGE_TEXT

    def test_a_plan_is_priced_step_by_step_from_where_the_earlier_steps_leave_it(self):
        steps = [
            Step(RAISE, "Elvish", "skills", GREAT),  # Fair->Good 2 + Good->Great 4
            Step(GIFT, "Danger Sense"),  # 4
            Step(RAISE, "elvish", "skills", SUPERB),  # from Great, where step 1 left it: 8
            Step(RAISE, "Strength", "attributes", GREAT),  # Good->Great: 4 x 3
            Step(META_POINT, level=2),  # Brogo holds none: two, 6 each
        ]
        plan = price_plan(MUDGE, BROGO, steps, available=7)
        assert [s.cost for s in plan.steps] == [6, 4, 8, 12, 12]
        assert [s.total for s in plan.steps] == [6, 10, 18, 30, 42]
        assert [s.short for s in plan.steps] == [0, 3, 11, 23, 35]
        assert [s.from_level for s in plan.steps[:4]] == [FAIR, None, GREAT, GOOD]
        assert [p.cost for p in plan.steps[0].purchases] == [2, 4]
        assert [s.reached for s in plan.steps] == [False] * 5
        assert plan.total == 42 and plan.unit == "XP"
        assert plan.next_step == 0

    def test_the_gm_permission_and_what_is_reached(self):
        steps = [
            Step(RAISE, "Perception", "attributes", LEGENDARY),  # Superb already: 16 x 3
            Step(RAISE, "Climbing", "skills", GOOD),  # Good already
            Step(BUY_OFF_FAULT, "Curious"),
        ]
        plan = price_plan(MUDGE, BROGO, steps, available=100)
        legendary, climbing, fault = plan.steps
        assert (legendary.cost, legendary.needs_gm) == (48, True)
        assert climbing.reached and climbing.cost == 0 and not climbing.purchases
        # Mudge 5.2 gives no price for buying off a fault: said, not a crash.
        assert fault.cost is None and "no cost for buy off fault" in str(fault.problem)
        assert fault.section == "Mudge 5.2"
        assert plan.total == 48

    def test_a_new_skill_from_its_default_by_difficulty(self):
        # Mudge 1.4: a Hard skill defaults to Terrible; learning it to Fair is three
        # 1-XP steps (Terrible->Poor->Mediocre->Fair), then Fair->Good 2.
        plan = price_plan(
            MUDGE, BROGO, [Step(LEARN, "Sailing", "skills", GOOD, "hard")], available=0
        )
        (step,) = plan.steps
        assert [(p.what, p.cost) for p in step.purchases] == [
            (LEARN, 1),
            (RAISE, 1),
            (RAISE, 1),
            (RAISE, 2),
        ]
        assert step.cost == 5 and step.short == 5

    def test_a_raise_of_a_trait_the_character_lacks_is_explained(self):
        plan = price_plan(MUDGE, BROGO, [Step(RAISE, "Sailing", "skills", GOOD)], available=0)
        assert "not on the character" in str(plan.steps[0].problem)
        assert plan.next_step is None

    def test_more_meta_points_than_a_character_may_hold(self):
        plan = price_plan(MUDGE, BROGO, [Step(META_POINT, level=6)], available=0)
        assert "at most 5" in str(plan.steps[0].problem)


class TestMicroFudged:
    def test_a_token_a_rank(self):
        # DIP: "Spending a Token increases one of a character's Traits by 1 Rank"
        steps = [
            Step(RAISE, "Medicine", "skills", GREAT),  # Fair->Good->Great: 2
            Step(LEARN, "Wards", "powers", POOR),  # a field of power from Abysmal: 2
            Step(RAISE, "Wards", "powers", FAIR),  # Poor->Mediocre->Fair: 2
        ]
        plan = price_plan(MICROFUDGED_DIP, JIM, steps, available=3)
        assert plan.unit == "token"
        assert [s.cost for s in plan.steps] == [2, 2, 2]
        assert [s.total for s in plan.steps] == [2, 4, 6]
        assert [s.short for s in plan.steps] == [0, 1, 3]

    def test_a_gift_the_ruleset_does_not_sell(self):
        plan = price_plan(MICROFUDGED_DIP, JIM, [Step(GIFT, "Luck")], available=3)
        assert plan.steps[0].cost is None
        assert "gives no cost for gift" in str(plan.steps[0].problem)


def test_house_ruled_costs_reprice_the_plan():
    steps = [Step(RAISE, "Elvish", "skills", GREAT), Step(GIFT, "Danger Sense")]
    assert price_plan(MUDGE, BROGO, steps, available=0).total == 6 + 4
    house = apply_house_rules(
        MUDGE, {"advancement_costs": {"skill_steps": {"Fair": 3, "Good": 5}, "gift": 7}}
    )
    plan = price_plan(house, BROGO, steps, available=0)
    assert [s.cost for s in plan.steps] == [8, 7]
    assert plan.total == 15


# A plan of every kind of step, and steps the reader refuses with where.
PLAN_STEPS = [
    {"what": "raise", "list": "skills", "name": "Elvish", "to": "Great"},
    {"what": "learn", "list": "skills", "name": "Sailing", "to": "Good", "difficulty": "hard"},
    {"what": "gift", "name": "Danger Sense"},
    {"what": "buy_off_fault", "name": "Curious"},
    {"what": "meta_point", "to": 4},
]

BAD_PLAN_STEPS = [
    ({"what": "teleport"}, "plan[0].what"),
    ({"what": "raise", "list": "gifts", "name": "X", "to": "Good"}, "plan[0].list"),
    ({"what": "raise", "list": "skills", "name": "X", "to": "Goood"}, "plan[0].to"),
    ({"what": "raise", "list": "skills", "name": "", "to": "Good"}, "plan[0].name"),
    ({"what": "raise", "list": "skills", "name": "X"}, "plan[0].to"),
    (
        {"what": "raise", "list": "skills", "name": "X", "to": "Good", "difficulty": "hard"},
        "plan[0].difficulty",
    ),
    ({"what": "learn", "list": "attributes", "name": "X", "to": "Good"}, "plan[0].list"),
    ({"what": "meta_point", "to": 0}, "plan[0].to"),
    ({"what": "meta_point", "to": True}, "plan[0].to"),
    ({"what": "gift", "name": "X", "cost": 3}, "plan[0].cost"),
    ({"what": "gift"}, "plan[0].name"),
    ("raise Climbing", "plan[0]"),
]


class TestFile:
    def test_steps_round_trip(self):
        assert write_steps(read_steps(PLAN_STEPS)) == PLAN_STEPS

    def test_the_plan_travels_in_the_file_and_a_file_without_one_is_unchanged(self):
        data = json.loads((SAMPLES / "brogo.json").read_text())
        assert "plan" not in write_character(read_character(data).character)
        planned = {**data, "plan": PLAN_STEPS}
        character = read_character(planned).character
        assert character.plan[0] == Step(RAISE, "Elvish", "skills", GREAT)
        assert write_character(character)["plan"] == PLAN_STEPS
        empty = read_character({**data, "plan": []}).character
        assert write_character(empty)["plan"] == []

    @pytest.mark.parametrize(("step", "where"), BAD_PLAN_STEPS)
    def test_a_bad_step_says_where(self, step, where):
        data = json.loads((SAMPLES / "brogo.json").read_text())
        with pytest.raises(CharacterFileError) as error:
            read_character({**data, "plan": [step]})
        assert error.value.where == where


def test_every_builtin_prices_a_raise():
    for ruleset in BUILTIN.values():
        character = sample("brogo") if ruleset.system == LEVELS else JIM
        name = character.skills[0].name
        plan = price_plan(ruleset, character, [Step(RAISE, name, "skills", SUPERB)], 0)
        assert plan.steps[0].cost and plan.steps[0].cost > 0
