"""Issue 9, rules fidelity: starred costs from the catalogue, chained trades, Scale, racial
bonuses, damage capacity, uncommitted traits, lowering skills only once the levels are
spent, and the GM's creation limits. Each test uses the rule text's own numbers, and checks
the text says so. Sections are Mudge 1.0 unless named otherwise."""

import dataclasses
import re
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.catalog import Catalog, CatalogFault, CatalogGift
from rules.character import Character, Fault, Gift, Power, Trait
from rules.charfile import CharacterFileError, dumps_character, read_character
from rules.combat import damage_factors
from rules.diff import diff_files
from rules.house_rules import (
    HOUSE_RULE_KEYS,
    HouseRuleError,
    apply_house_rules,
    house_rules_to_json,
)
from rules.ladder import FAIR, GOOD, GREAT, MEDIOCRE, POOR, SUPERB, TERRIBLE
from rules.report import build_report
from rules.rulesets import BUILTIN, FUDGE_BASICS, MUDGE
from rules.templates import BY_SLUG, apply_template
from rules.trades import MAX_TRADES
from tests.support.sources import ROOT, rule_text

MUDGE_TEXT = rule_text("002")
BASICS_TEXT = rule_text("000")
DIP_TEXT = rule_text("003")


SWIMMING_IN_PLAY = {"name": "Swimming", "level": "Good", "defined_in_play": True}


def check(ruleset="mudge", house_rules=None, **lists):
    character = Character(ruleset=ruleset, name="Test", house_rules=house_rules or {}, **lists)
    return build_report(character, apply_house_rules(BUILTIN[ruleset], house_rules))


def codes(report) -> list[str]:
    return [issue.code for issue in report.errors]


def skills(level, count, difficulty="average", prefix="Skill"):
    return tuple(Trait(f"{prefix} {i}", level, difficulty) for i in range(count))


def trades(report):
    return [(t.give_pool, t.give, t.get_pool, t.get) for t in report.trades]


def one_line(text: str) -> str:
    return " ".join(text.split())


class TestStarredCostsFromTheCatalogue:
    """1.33, 1.34: starred gifts and faults "usually cost 2 levels instead of 1"; a file
    that gives no cost takes the catalogue's (spec), an unknown name costs 1."""

    def test_the_text(self):
        assert "Those which usually cost 2 levels instead of 1" in MUDGE_TEXT
        assert "Magery*" in MUDGE_TEXT and "Blindness*" in MUDGE_TEXT

    def test_magery_with_no_cost_costs_2(self):
        report = check(gifts=(Gift("Magery"),))
        assert report.costs["gifts"] == [2]
        assert report.pools["gifts"]["spent"] == 2

    def test_a_starred_fault_with_no_value_is_worth_2(self):
        report = check(faults=(Fault("Blindness"), Fault("Curious")))
        assert report.costs["faults"] == [2, 1]
        assert report.pools["faults"]["value"] == 3

    def test_an_unknown_name_costs_1_and_a_given_cost_wins(self):
        report = check(gifts=(Gift("Perfect Timing"), Gift("Magery", Fraction(1))))
        assert report.costs["gifts"] == [1, 1]

    def test_a_named_kind_takes_the_base_names_cost(self):
        # The sheet writes "Luck (1/hour, best of 3)*": a kind of the starred Luck.
        assert "Luck (<i>1/hour, best of 3</i>)*" in MUDGE_TEXT
        assert check(gifts=(Gift("Luck (1/hour, best of 3)"),)).costs["gifts"] == [2]

    def test_a_campaign_catalogue_prices_it_instead(self):
        house = Catalog(
            attributes=(),
            gifts=(CatalogGift("Magery", Fraction(3)),),
            faults=(CatalogFault("Curious", Fraction(1, 2)),),
        )
        ruleset = dataclasses.replace(MUDGE, catalog=house)
        character = Character("mudge", "Test", gifts=(Gift("Magery"),), faults=(Fault("Curious"),))
        report = build_report(character, ruleset)
        assert (report.costs["gifts"], report.costs["faults"]) == ([3], [Fraction(1, 2)])

    def test_the_file_keeps_missing_apart_from_1(self):
        data = {"ruleset": "mudge", "name": "Test", "gifts": [{"name": "Magery"}]}
        character = read_character(data).character
        assert character.gifts == (Gift("Magery", None),)
        assert '"gifts": [\n    {\n      "name": "Magery"\n    }\n  ]' in dumps_character(character)
        # null is "not given" too
        data["gifts"] = [{"name": "Magery", "cost": None}]
        assert read_character(data).character.gifts == (Gift("Magery", None),)

    def test_the_gms_diff_says_the_catalogue_prices_it(self):
        old = {"gifts": [{"name": "Magery", "cost": 2}]}
        new = {"gifts": [{"name": "Magery"}], "skills": [SWIMMING_IN_PLAY]}
        assert [str(change) for change in diff_files(old, new)] == [
            "added skill Swimming (Good, defined in play)",
            "gift Magery: cost 2 → catalogue cost",
        ]


class TestChainedTrades:
    """1.63-1.64: free levels "may be traded (in either direction)" at 1 attribute level = 3
    skill levels, 1 gift = 6 skill levels, 1 gift = 2 attribute levels, 1 fault = 1 gift."""

    def test_the_text(self):
        assert "free levels may be traded (in either direction) at the following rate" in (
            MUDGE_TEXT
        )

    def test_one_gift_short_with_five_skill_levels_and_an_attribute_level_to_spare(self):
        # Balance (1) x 3 + 5 - 1 x 6 = +2: legal, paid by a chain of two trades.
        report = check(
            house_rules={"attribute_levels": 1, "skill_levels": 5},
            gifts=(Gift("Luck"), Gift("Night Vision")),  # 3 of 2 free
        )
        assert report.balance == 2
        assert report.valid
        assert trades(report) == [("skills", 3, "attributes", 1), ("attributes", 2, "gifts", 1)]
        assert [str(t) for t in report.trades] == [
            "3 skill levels → 1 attribute level",
            "2 attribute levels → 1 gift",
        ]

    def test_a_half_fault_buys_three_skill_levels(self):
        report = check(
            house_rules={"attribute_levels": 0, "free_gifts": 0},
            skills=skills(FAIR, 24),  # 48 of 45
            faults=(Fault("Mild Vanity", Fraction(1, 2)),),
        )
        assert trades(report) == [("faults", Fraction(1, 2), "skills", 3)]
        assert str(report.trades[0]) == "0.5 faults → 3 skill levels"
        assert report.balance == 0 and report.valid

    def test_a_whole_fault_is_traded_whole(self):
        # 3 skill levels short: the GM writes "1 fault -> 6 skill levels", not half a fault.
        report = check(
            house_rules={"attribute_levels": 0, "free_gifts": 0},
            skills=skills(FAIR, 24),
            faults=(Fault("Curious"),),
        )
        assert trades(report) == [("faults", 1, "skills", 6)]
        assert report.balance == 3

    def test_a_balance_of_zero_is_never_over_budget(self):
        report = check(
            house_rules={"attribute_levels": 2, "skill_levels": 0, "free_gifts": 0},
            skills=(Trait("Climbing", MEDIOCRE),),  # 1 skill level short
            gifts=(Gift("Night Vision"),),  # 1 gift short: 7 short in all, 6 to spare
            faults=(Fault("Curious", Fraction(1, 6)),),  # +1
        )
        assert report.balance == 0
        assert "over_budget" not in codes(report)
        assert len(report.trades) == 2

    def test_over_budget_lists_no_trades(self):
        report = check(
            house_rules={"attribute_levels": 0, "free_gifts": 0}, skills=skills(GOOD, 16)
        )
        assert report.balance == -3 and codes(report) == ["over_budget"]
        assert report.trades == []


# -- the trades' property test --------------------------------------------------------------

VALUES = {"attribute": (2, 3, 4, Fraction(5, 2)), "gift": (4, 5, 6, 8), "fault": (3, 6, 9, 4.5)}
HALVES = st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2)])


@st.composite
def levels_builds(draw):
    """Random Mudge and Fudge Basics builds around the budgets, with half-value faults and
    gifts and house trade values."""
    slug = draw(st.sampled_from(["mudge", "fudge-basics"]))
    house_rules = {
        "attribute_levels": draw(st.integers(0, 8)),
        "skill_levels": draw(st.integers(0, 50)),
        "free_gifts": float(draw(st.sampled_from([0, 1, 1.5, 2, 3]))),
    }
    if draw(st.booleans()):
        house_rules["trade_values"] = {
            key: float(draw(st.sampled_from(choices))) for key, choices in VALUES.items()
        }
    level = st.integers(TERRIBLE, SUPERB)
    return Character(
        ruleset=slug,
        name="Random",
        house_rules=house_rules,
        attributes=tuple(
            Trait(name, draw(level))
            for name in draw(st.sets(st.sampled_from(MUDGE.attribute_names)))
        ),
        skills=tuple(
            Trait(
                f"Skill {i}",
                draw(st.integers(POOR, SUPERB)),
                draw(st.sampled_from(["easy", "average", "hard"])),
            )
            for i in range(draw(st.integers(0, 20)))
        ),
        gifts=tuple(Gift(f"Gift {i}", draw(HALVES)) for i in range(draw(st.integers(0, 5)))),
        faults=tuple(Fault(f"Fault {i}", draw(HALVES)) for i in range(draw(st.integers(0, 5)))),
        scale_strength=draw(st.integers(-1, 2)),
        scale_mass=draw(st.integers(-1, 1)),
    )


def pool_values(report, ruleset) -> dict[str, Fraction]:
    """Each pool's remaining value, in skill levels."""
    tv = ruleset.trade_values
    worth = {"attributes": tv["attribute"], "skills": 1, "gifts": tv["gift"]}
    values = {
        p: Fraction(n["budget"] - n["spent"]) * worth[p]
        for p, n in report.pools.items()
        if p in worth
    }
    values["faults"] = Fraction(report.pools["faults"]["value"]) * tv["fault"]
    return values


def fewest_possible(values: dict[str, Fraction]) -> int:
    """The fewest trades that can leave no pool short, amounts unrestricted: every group of
    pools that pays for itself (its total is 0 or more) costs one trade fewer than it has
    pools, and pools in no group cost nothing. An independent count over every grouping."""
    pools = [p for p, v in values.items() if v != 0]
    best = None
    for grouping in _groupings(pools):
        cost = 0
        for group in grouping:
            if any(values[p] < 0 for p in group):
                if sum(values[p] for p in group) < 0:
                    break
                cost += len(group) - 1
        else:
            best = cost if best is None else min(best, cost)
    return best


def _groupings(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for size in range(len(rest) + 1):
        for partners in combinations(rest, size):
            left = [item for item in rest if item not in partners]
            for grouping in _groupings(left):
                yield [(first, *partners), *grouping]


@settings(max_examples=400, deadline=None)
@given(levels_builds())
def test_trades_balance_the_pools_with_the_fewest_trades(character):
    ruleset = apply_house_rules(BUILTIN[character.ruleset], character.house_rules)
    report = build_report(character, ruleset)
    tv = ruleset.trade_values
    worth = {"attributes": tv["attribute"], "skills": 1, "gifts": tv["gift"], "faults": tv["fault"]}
    # over_budget exactly when the balance is negative
    assert ("over_budget" in codes(report)) == (report.balance < 0)
    values = pool_values(report, ruleset)
    assert sum(values.values()) == report.balance
    if report.balance < 0:
        assert report.trades == []
        return
    held = {p: values[p] / worth[p] for p in values}  # in each pool's own units
    for trade in report.trades:
        # at the rate, from a pool that has it, never into the faults
        assert trade.give * worth[trade.give_pool] == trade.get * worth[trade.get_pool]
        assert 0 < trade.give <= held[trade.give_pool]
        assert trade.get_pool != "faults" and trade.give_pool != trade.get_pool
        # a GM's amounts: whole units, all the source has, or the target's exact shortfall
        natural_give = Fraction(trade.give).denominator == 1 or trade.give == held[trade.give_pool]
        natural_get = Fraction(trade.get).denominator == 1 or trade.get == -held[trade.get_pool]
        assert natural_give or natural_get, trade
        held[trade.give_pool] -= trade.give
        held[trade.get_pool] += trade.get
    # the pools balance, with the fewest trades possible
    assert all(amount >= 0 for amount in held.values()), (report.trades, held)
    assert len(report.trades) == fewest_possible(values) <= MAX_TRADES


def test_the_fewest_count_itself():
    # one gift short (6), 5 skill levels and an attribute level (3) to spare: two trades
    assert fewest_possible({"attributes": 3, "skills": 5, "gifts": -6, "faults": 0}) == 2
    assert fewest_possible({"attributes": 0, "skills": 6, "gifts": -6, "faults": 6}) == 1
    assert fewest_possible({"attributes": -3, "skills": -1, "gifts": 0, "faults": 6}) == 2


class TestNegativeScale:
    """2.34: each step of *increased* Strength Scale costs an attribute level and of Mass a
    gift; below the human norm each step of Mass "includes a fault equivalent to Easily
    Wounded, and the GM may allow this to be used to balance other traits"."""

    def test_the_text(self):
        text = one_line(MUDGE_TEXT)
        assert "Each step of increased Strength Scale for a player character costs one " in text
        assert "includes a fault equivalent to Easily Wounded, and the GM may allow this" in text

    def scaled(self, strength, mass, house_rules=None):
        character = Character(
            "mudge", "Test", house_rules=house_rules or {}, scale_strength=strength, scale_mass=mass
        )
        return build_report(character, apply_house_rules(MUDGE, house_rules))

    def test_no_refund_by_default(self):
        report = self.scaled(-2, -2)
        assert report.pools["attributes"]["spent"] == 0
        assert report.pools["faults"]["value"] == 0
        assert report.balance == 75

    def test_the_house_rule_grants_it(self):
        report = self.scaled(-2, -2, {"negative_scale_refund": True})
        assert report.pools["attributes"]["spent"] == -2
        assert report.pools["faults"]["value"] == 2
        assert report.balance == 75 + 2 * 3 + 2 * 6

    def test_increases_always_cost(self):
        report = self.scaled(3, 1)
        assert (report.pools["attributes"]["spent"], report.pools["gifts"]["spent"]) == (3, 1)

    def test_refused_unless_true_or_false(self):
        with pytest.raises(HouseRuleError, match="must be true or false"):
            apply_house_rules(MUDGE, {"negative_scale_refund": "yes"})


class TestRacialTemplates:
    """2.35 racial bonuses shift levels and cost a level each; 6.43 Cercopes: Mediocre
    Strength, Good Dexterity, +1 to Acrobatics, Move Quietly, Climbing and Fast Talk, three
    racial gifts and five faults. Brogo the halfling (6.3, named by 2.35): Scale -2, +1
    Constitution."""

    def test_the_text(self):
        assert "The average cercop has a Mediocre Strength but a Good Dexterity." in MUDGE_TEXT
        assert "bonus of +1 to the following skills: Acrobatics, Move Quietly, Climbing" in (
            MUDGE_TEXT
        )
        assert "give them a +1 bonus to Constitution: halfling Fair Constitution" in one_line(
            MUDGE_TEXT
        )

    def test_cercopes(self):
        human = Character("mudge", "Kerkops", skills=(Trait("Climbing", GOOD),))
        cercop = apply_template(human, BY_SLUG["cercopes"])
        levels = {t.name: t.level for t in cercop.attributes}
        assert levels == {"Strength": MEDIOCRE, "Dexterity": GOOD}
        skills_ = {t.name: (t.level, t.difficulty) for t in cercop.skills}
        assert skills_ == {
            "Climbing": (GREAT, None),  # Good, +1
            "Acrobatics": (POOR, "hard"),  # untrained: Terrible (hard, 1.4), +1
            "Move Quietly": (MEDIOCRE, None),  # not in 1.32: average, Poor +1
            "Fast Talk": (MEDIOCRE, "average"),
        }
        assert len(cercop.gifts) == 3 and len(cercop.faults) == 5
        assert (cercop.race, cercop.scale_strength, cercop.scale_mass) == ("Cercopes", 0, 0)
        report = build_report(cercop, MUDGE)
        # -1 + 1 attribute levels; racial gifts cost 3, faults give 5: "it counts as a fault"
        assert report.pools["attributes"]["spent"] == 0
        assert (report.pools["gifts"]["spent"], report.pools["faults"]["value"]) == (3, 5)
        # applied once: a second time shifts nothing
        assert apply_template(cercop, BY_SLUG["cercopes"]) == cercop

    def test_the_halfling_brings_its_scale(self):
        halfling = apply_template(Character("mudge", "Brogo"), BY_SLUG["halfling"])
        assert (halfling.scale_strength, halfling.scale_mass) == (-2, -2)
        assert halfling.attributes == (Trait("Constitution", GOOD),)
        assert [f.name for f in halfling.faults] == ["Halfling (scale -2, bonus to Constitution)"]
        report = build_report(halfling, MUDGE)
        # Constitution +1 is an attribute level; Scale -2 gives nothing back (2.34).
        assert report.pools["attributes"]["spent"] == 1
        assert report.pools["faults"]["value"] == 1


class TestDamageCapacity:
    """Fudge Basics, Offensive and Defensive Damage Factors: "For Character's Damage Capacity
    Comparable Attribute"; Mudge 4.52 uses Constitution. The ruleset names the attribute, and
    a GM's house rule renames it."""

    def test_the_text(self):
        assert "For Character's Damage Capacity Comparable Attribute" in BASICS_TEXT

    def test_a_gm_who_calls_it_health(self):
        character = Character(
            "fudge-basics",
            "Hilda",
            house_rules={"damage_capacity_attribute": "Health", "muscle_attribute": "Brawn"},
            attributes=(Trait("Brawn", GREAT), Trait("Health", GOOD), Trait("Constitution", POOR)),
        )
        ruleset = apply_house_rules(FUDGE_BASICS, character.house_rules)
        factors = damage_factors(character, ruleset)
        assert factors.defensive[0].terms == (("Health", GOOD), ("Mass Scale", 0))
        assert factors.offensive[0].terms[0] == ("Brawn", GREAT)
        assert factors.unlisted == ()

    def test_an_attribute_the_character_lacks_is_named_not_replaced(self):
        character = Character("fudge-basics", "Hilda", attributes=(Trait("Constitution", GOOD),))
        factors = damage_factors(character, FUDGE_BASICS)
        assert factors.defensive[0].terms[0] == ("Damage Capacity", FAIR)
        assert factors.unlisted == ("Strength", "Damage Capacity")

    def test_mudge_refuses_an_attribute_it_does_not_have(self):
        with pytest.raises(HouseRuleError) as raised:
            apply_house_rules(MUDGE, {"damage_capacity_attribute": "Health"})
        assert raised.value.key == "damage_capacity_attribute"
        assert "Mudge has no attribute 'Health'" in raised.value.message
        ruleset = apply_house_rules(
            MUDGE,
            {
                "extra_attributes": [{"name": "Health"}],
                "damage_capacity_attribute": "health",
            },
        )
        assert ruleset.damage_capacity_attribute == "Health"


class TestSpellDifficulty:
    def test_a_spell_with_no_difficulty_is_hard(self):
        # 2.5: "each equal in value to one Hard or Very Hard skill": unset means Hard.
        assert "each equal in value to one Hard or Very Hard skill" in MUDGE_TEXT
        report = check(gifts=(Gift("Magery"),), powers=(Power("Light", "spell", FAIR),))
        assert report.costs["powers"] == [3]  # Hard at Fair (1.62)


class TestUncommittedTraits:
    """1.7: "each character will still retain two uncommitted traits", defined in play "as
    being Good (or lower), subject to the GM's approval"."""

    def test_the_text(self):
        assert "each character will still retain two uncommitted traits" in MUDGE_TEXT
        assert "define a previously undefined trait as being Good (or lower)" in MUDGE_TEXT
        assert MUDGE.uncommitted_traits == 2

    def test_one_defined_in_play_is_not_priced_at_creation(self):
        swimming = Trait("Swimming", GOOD, "easy", defined_in_play=True)
        report = check(skills=(swimming,))
        assert report.costs["skills"] == [0]
        assert report.pools["skills"]["spent"] == 0
        assert report.errors == []

    def test_above_good_is_refused(self):
        (issue,) = check(skills=(Trait("Swimming", GREAT, defined_in_play=True),)).errors
        assert (issue.code, issue.where, issue.section) == (
            "uncommitted_too_high",
            "skills[0]",
            "Mudge 1.7",
        )

    def test_a_third_is_one_too_many(self):
        three = tuple(Trait(f"Lore {i}", FAIR, defined_in_play=True) for i in range(3))
        (issue,) = check(skills=three).errors
        assert (issue.code, issue.trait) == ("too_many_uncommitted", "Lore 2")

    def test_the_house_rule_and_microfudged(self):
        three = tuple(Trait(f"Lore {i}", FAIR, defined_in_play=True) for i in range(3))
        assert check(house_rules={"uncommitted_traits": 3}, skills=three).errors == []
        report = check("microfudged-dip", skills=(Trait("Lore", FAIR, defined_in_play=True),))
        assert "too_many_uncommitted" in codes(report)

    def test_the_file_carries_it(self):
        data = {
            "ruleset": "mudge",
            "name": "Test",
            "skills": [{"name": "Swimming", "level": "Good", "defined_in_play": True}],
        }
        character = read_character(data).character
        assert character.skills[0].defined_in_play
        assert '"defined_in_play": true' in dumps_character(character)
        data["skills"][0]["defined_in_play"] = "yes"
        with pytest.raises(CharacterFileError) as raised:
            read_character(data)
        assert raised.value.where == "skills[0].defined_in_play"


class TestLoweringOnlyOnceTheLevelsAreSpent:
    """1.62: "Once all the free skill levels are used up, as many as 5 skills can be dropped
    one level from their default to raise another skill one level"."""

    def test_the_text(self):
        assert "Once all the free skill levels are used up, as many as 5 skills can be dropped" in (
            MUDGE_TEXT
        )

    def test_a_lowered_skill_beside_unspent_levels(self):
        report = check(skills=(Trait("Singing", TERRIBLE),))
        (issue,) = report.errors
        assert (issue.code, issue.trait, issue.section) == (
            "lowered_with_levels_unspent",
            "Singing",
            "Mudge 1.62",
        )
        assert "while 76 skill levels are unspent" in issue.message

    def test_lowered_to_pay_for_a_raise(self):
        # 21 average skills at Fair (42) and Lore at Great (4) are one over the 45 levels;
        # Singing dropped to Terrible (-1) pays it back.
        report = check(
            house_rules={"attribute_levels": 0, "free_gifts": 0},
            skills=(*skills(FAIR, 21), Trait("Lore", GREAT), Trait("Singing", TERRIBLE)),
        )
        assert report.balance == 0
        assert report.errors == []


class TestTheGmsLimits:
    """1.5: "limit the number of skills a character can take at character creation: 10, 15,
    or 20"; "must take at least three faults"; the "two lower for one higher" trait
    conversion; Fudge Basics: the GM "may also grant 'free' gifts, or require one or more
    faults"; DIP VIII.3: no trait "lower than Poor or higher than Great ... (unless the
    Narrator allows it, of course)"."""

    def test_the_texts(self):
        text = one_line(MUDGE_TEXT)
        assert "limit the number of skills a character can take at character creation: 10, 15" in (
            text
        )
        assert "he must take at least three faults" in text
        assert 'A simple "two lower for one higher" trait-conversion mechanic' in text
        assert "or require one or more faults" in BASICS_TEXT
        assert "(unless the Narrator allows it, of course)" in DIP_TEXT

    def test_at_most_ten_skills(self):
        assert check(house_rules={"max_skills": 10}, skills=skills(POOR, 10)).errors == []
        (issue,) = check(house_rules={"max_skills": 10}, skills=skills(POOR, 11)).errors
        assert (issue.code, issue.where, issue.section) == (
            "too_many_skills",
            "skills[10]",
            "Mudge 1.5",
        )

    def test_at_least_three_faults(self):
        report = check(house_rules={"min_faults": 3}, faults=(Fault("Curious"), Fault("Greed")))
        (issue,) = [i for i in report.errors if i.code == "too_few_faults"]
        assert "at least 3 faults; this one has 2. Add 1." in issue.message

    def test_the_jack_of_all_trades(self):
        """1.5's example: limits of one Superb, two Great and six Good skills; trading the
        Superb for two Greats, then the four Greats for eight Goods: 14 skills at Good."""
        caps = {"skill_caps": {"Superb": 1, "Great": 2, "Good": 6}, "skill_levels": 100}
        traded = {**caps, "cap_trading": True}
        fourteen = skills(GOOD, 14)
        report = check(house_rules=traded, skills=fourteen)
        assert codes(report) == []
        (warning,) = [w for w in report.warnings if w.code == "cap_slots_traded"]
        assert "0 Superb of 1, 0 Great of 2, 14 Good of 6" in warning.message
        assert "cap_exceeded" in codes(check(house_rules=traded, skills=skills(GOOD, 15)))
        assert "cap_exceeded" in codes(check(house_rules=caps, skills=skills(GOOD, 7)))
        # one Superb forgone for two Greats: four Greats; with a Superb too, the two more
        # Greats cost four of the Good slots (the converse: two Goods for one Great)
        assert codes(check(house_rules=traded, skills=skills(GREAT, 4))) == []
        five = (*skills(GREAT, 4), Trait("Top", SUPERB))
        assert codes(check(house_rules=traded, skills=(*five, *skills(GOOD, 2, prefix="G")))) == []
        assert "cap_exceeded" in codes(
            check(house_rules=traded, skills=(*five, *skills(GOOD, 3, prefix="G")))
        )

    def test_mudges_attribute_caps_trade_too(self):
        # 1.6's "max. 1 Superb, 2 Great": forgo the Superb, take two more Greats.
        four = tuple(Trait(n, GREAT) for n in MUDGE.attribute_names[:4])
        assert "cap_exceeded" in codes(check(attributes=four))
        assert "cap_exceeded" not in codes(
            check(house_rules={"cap_trading": True}, attributes=four)
        )

    def test_the_narrator_allows_below_poor(self):
        low = (Trait("Vigour", TERRIBLE),)
        assert "level_out_of_range" in codes(check("microfudged-streamlined", attributes=low))
        allowed = check(
            "microfudged-streamlined", house_rules={"creation_min": "Terrible"}, attributes=low
        )
        assert "level_out_of_range" not in codes(allowed)
        assert allowed.costs["attributes"] == [-9]  # 3 ranks below Fair, 3 tokens a rank

    def test_bad_values_are_refused_with_the_key(self):
        for rules, key in (
            ({"max_skills": -1}, "max_skills"),
            ({"min_faults": 1.5}, "min_faults"),
            ({"cap_trading": 1}, "cap_trading"),
            ({"creation_min": "Goood"}, "creation_min"),
            ({"creation_max": "Legendary"}, "creation_max"),
            ({"creation_min": "Great", "creation_max": "Good"}, "creation_min"),
            ({"uncommitted_traits": None}, "uncommitted_traits"),
        ):
            with pytest.raises(HouseRuleError) as raised:
                apply_house_rules(MUDGE, rules)
            assert raised.value.key == key, rules

    def test_they_are_written_back_as_the_file_holds_them(self):
        rules = {"creation_min": "Terrible", "cap_trading": True, "max_skills": 15}
        streamlined = BUILTIN["microfudged-streamlined"]
        assert house_rules_to_json(apply_house_rules(streamlined, rules), streamlined) == rules


DOCS = (ROOT / "docs" / "character-file.md").read_text()
NEW_CODES = (
    "too_many_skills",
    "too_few_faults",
    "cap_slots_traded",
    "uncommitted_too_high",
    "too_many_uncommitted",
    "lowered_with_levels_unspent",
)


@pytest.mark.parametrize("key", HOUSE_RULE_KEYS)
def test_every_house_rule_key_is_documented(key):
    assert re.search(rf"^\| `{key}` \|", DOCS, re.M)


@pytest.mark.parametrize("code", NEW_CODES)
def test_every_new_code_is_documented(code):
    assert re.search(rf"^\| `{code}` \|", DOCS, re.M)
