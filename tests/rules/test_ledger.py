"""The character file's Advancement section (spec: character-file.md): the creation build is
the character with every spend undone and is priced as at creation; the ledger is checked
on its own at the rule texts' costs (Mudge 5.2, Fudge Basics "Experience", MicroFudged)."""

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules import ledger
from rules.character import Trait
from rules.charfile import CharacterFileError, dumps_character, parse_character_json
from rules.check import UNREADABLE, VALID, check_text
from rules.ladder import MEDIOCRE
from rules.ledger import Add, Entry
from rules.rulesets import MICROFUDGED_STREAMLINED
from tests.support.schemas import CHARACTER_FILE

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"


def brogo(**changes) -> dict:
    """Brogo the Scout (Mudge 6.3) on a house rule that makes his creation build legal:
    65 skill levels (Mudge 1.6 gives 45 with his gifts; the sample is 20 over)."""
    data = json.loads((SAMPLES / "brogo.json").read_text())
    data["house_rules"] = {"skill_levels": 65}
    return data | changes


def set_level(data, list_name, name, level):
    for item in data[list_name]:
        if item["name"] == name:
            item["level"] = level
            return
    raise LookupError(name)


def raise_(list_name, name, from_level, to_level, cost):
    return {
        "spend": cost,
        "raise": {"list": list_name, "name": name, "from": from_level, "to": to_level},
    }


def report(data) -> dict:
    return check_text(json.dumps(data)).report


def codes(result) -> list[str]:
    return [issue["code"] for issue in result["errors"]]


def veteran_file() -> dict:
    """Brogo after 45 XP: two attributes Good -> Great (4 XP x 3 each, Mudge 5.2) and two
    skills Great -> Superb (8 XP each), past the creation caps of 2 Great attributes and 2
    Superb skills (Mudge 1.5)."""
    data = brogo()
    for name in ("Intelligence", "Willpower"):
        set_level(data, "attributes", name, "Great")
    for name in ("Fellowship", "Mimic Animal"):
        set_level(data, "skills", name, "Superb")
    data["experience"] = 5
    data["advancement"] = [
        {"award": 45, "note": "Three sessions"},
        raise_("attributes", "Intelligence", "Good", "Great", 12),
        raise_("attributes", "Willpower", "Good", "Great", 12),
        raise_("skills", "Fellowship", "Great", "Superb", 8),
        raise_("skills", "Mimic Animal", "Great", "Superb", 8),
    ]
    return data


@pytest.fixture
def veteran():
    return veteran_file()


# -- creation stays creation ---------------------------------------------------------------------


def test_levels_bought_in_play_never_count_at_creation(veteran):
    result = check_text(json.dumps(veteran))
    assert result.exit_code == VALID
    created = report(brogo())
    # The creation build is priced exactly as Brogo was at creation.
    assert result.report["pools"] == created["pools"]
    assert result.report["balance"] == created["balance"] == 0
    assert result.report["advancement"] == {"unit": "XP", "awarded": 45, "spent": 40, "unspent": 5}


def test_the_same_levels_without_the_ledger_break_the_creation_caps(veteran):
    del veteran["advancement"]
    result = report(veteran)
    assert "cap_exceeded" in codes(result) and "over_budget" in codes(result)
    assert "advancement" not in result


def test_a_file_without_advancement_reports_as_before():
    assert "advancement" not in report(brogo())


def test_an_empty_ledger_reports_nothing_spent():
    result = report(brogo(advancement=[]))
    assert result["advancement"] == {"unit": "XP", "awarded": 0, "spent": 0, "unspent": 0}
    assert result["valid"]


# -- the ledger's own rules ----------------------------------------------------------------------


def test_spends_beyond_the_awards_are_overspent(veteran):
    veteran["advancement"][0]["award"] = 30
    veteran["experience"] = 0
    result = report(veteran)
    [overspent] = [e for e in result["errors"] if e["code"] == "experience_overspent"]
    assert overspent["where"] == "advancement[3]"  # 30 - 12 - 12 - 8 = -2 at the third spend
    assert overspent["section"] == "Mudge 5.2"
    assert "2 XP more were spent than awarded" in overspent["message"]


@pytest.mark.parametrize(
    ("line", "paid", "due"),
    [
        # Mudge 5.2: Great -> Superb is 8 XP for a skill, attributes triple (Good -> Great 12).
        (3, 7, "costs 8 XP, not 7"),
        (1, 4, "costs 12 XP, not 4"),
    ],
)
def test_a_mispriced_spend(veteran, line, paid, due):
    veteran["advancement"][line]["spend"] = paid
    veteran["advancement"][0]["award"] += paid - veteran["advancement"][line]["spend"]
    result = report(veteran)
    [wrong] = [e for e in result["errors"] if e["code"] == "advancement_cost"]
    assert wrong["where"] == f"advancement[{line}]"
    assert due in wrong["message"]


def test_a_raise_to_a_level_the_trait_is_not_at_is_a_mismatch(veteran):
    set_level(veteran, "skills", "Fellowship", "Great")  # the raise says Superb
    result = report(veteran)
    [mismatch] = [e for e in result["errors"] if e["code"] == "advancement_mismatch"]
    assert mismatch["where"] == "advancement[3]"
    assert "Fellowship is at Great" in mismatch["message"]


def test_adding_a_gift_the_character_lacks_is_a_mismatch():
    data = brogo(
        experience=0,
        advancement=[
            {"award": 4},
            {"spend": 4, "add": {"list": "gifts", "name": "Danger Sense", "cost": 1}},
        ],
    )
    assert "advancement_mismatch" in codes(report(data))
    data["gifts"].append({"name": "Danger Sense", "cost": 1})
    result = report(data)
    assert result["valid"], result["errors"]  # Mudge 5.2: a gift 4 XP or more


def test_experience_must_agree_with_the_ledger(veteran):
    veteran["experience"] = 9
    [mismatch] = [e for e in report(veteran)["errors"] if e["code"] == "advancement_mismatch"]
    assert mismatch["where"] == "experience"
    assert "leaves 5 XP unspent" in mismatch["message"]


def test_a_meta_point_costs_6_xp(veteran):
    veteran["meta_points"] = 1
    veteran["advancement"].append({"spend": 5, "meta_points": 1})
    veteran["advancement"][0]["award"] += 5
    assert "costs 6 XP, not 5" in json.dumps(report(veteran)["errors"])
    veteran["advancement"][-1]["spend"] = 6
    veteran["advancement"][0]["award"] += 1
    assert report(veteran)["valid"]


def test_legendary_needs_the_gms_permission():
    data = brogo(experience=0)
    set_level(data, "skills", "Move Quietly", "Legendary")
    data["advancement"] = [
        {"award": 16},
        raise_("skills", "Move Quietly", "Superb", "Legendary", 16),  # Mudge 5.2: 16 XP + GM
    ]
    result = report(data)
    assert result["valid"]
    assert [w["code"] for w in result["warnings"]] == ["gm_permission"]


def fudge_basics(**changes) -> dict:
    data = {
        "format": "fairsheet.character/1",
        "ruleset": "fudge-basics",
        "name": "Ulla",
        "attributes": [{"name": "Strength", "level": "Good"}],
        "skills": [{"name": "Climbing", "level": "Good"}],
        "gifts": [],
        "faults": [{"name": "Greedy", "value": 1}],
    }
    return data | changes


def test_fudge_basics_gift_and_buying_off_a_fault():
    """Fudge Basics, Experience: a gift costs 6 EP, buying off a fault 9 EP (or more)."""
    data = fudge_basics(
        gifts=[{"name": "Lucky", "cost": 1}],
        faults=[],
        experience=0,
        advancement=[
            {"award": 15},
            {"spend": 6, "add": {"list": "gifts", "name": "Lucky", "cost": 1}},
            {"spend": 9, "remove": {"list": "faults", "name": "Greedy", "value": 1}},
        ],
    )
    result = report(data)
    assert result["advancement"] == {"unit": "EP", "awarded": 15, "spent": 15, "unspent": 0}
    assert result["errors"] == []
    # The creation build has Greedy back and no Lucky: the same pools as the plain build.
    assert result["pools"] == report(fudge_basics())["pools"]
    data["advancement"][2]["spend"] = 8
    data["advancement"][0]["award"] = 14
    assert "costs at least 9 EP, not 8" in json.dumps(report(data)["errors"])


def test_buying_off_a_fault_the_character_still_has_is_a_mismatch():
    data = fudge_basics(
        experience=0,
        advancement=[
            {"award": 9},
            {"spend": 9, "remove": {"list": "faults", "name": "Greedy", "value": 1}},
        ],
    )
    assert codes(report(data)) == ["advancement_mismatch"]


def test_microfudged_tokens_carried_from_creation():
    """MicroFudged DIP: Jim Bones saves 3 tokens at creation; he may carry those, no more."""
    data = json.loads((SAMPLES / "jim-bones.json").read_text())
    assert report(data)["balance"] == 3
    data |= {"experience": 3, "advancement": [{"carried": 3}]}
    result = report(data)
    assert result["valid"]
    assert result["advancement"] == {"unit": "token", "awarded": 3, "spent": 0, "unspent": 3}
    data |= {"experience": 4, "advancement": [{"carried": 4}]}
    assert codes(report(data)) == ["experience_overspent"]


# -- reading and writing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entry", "where"),
    [
        ({"award": 3, "spend": 2}, "advancement[0]"),
        ({"spend": 2}, "advancement[0]"),
        ({"award": -1}, "advancement[0].award"),
        ({"award": 1, "raise": {}}, "advancement[0].raise"),
        (
            {"spend": 2, "raise": {"list": "skills", "name": "X", "from": "Goood", "to": "Good"}},
            "advancement[0].raise.from",
        ),
        ({"spend": 2, "add": {"list": "attributes", "name": "X"}}, "advancement[0].add.list"),
        ({"spend": 2, "add": {"list": "skills", "name": "X"}}, "advancement[0].add.level"),
        ({"spend": 6, "meta_points": 0}, "advancement[0].meta_points"),
        ("award 3", "advancement[0]"),
    ],
)
def test_a_malformed_ledger_is_unreadable_with_a_path(entry, where):
    data = brogo(advancement=[entry])
    with pytest.raises(CharacterFileError) as error:
        parse_character_json(json.dumps(data))
    assert error.value.where == where
    assert check_text(json.dumps(data)).exit_code == UNREADABLE


LEVEL_WORDS = ["Terrible", "Poor", "Mediocre", "Fair", "Good", "Great", "Superb", "Legendary"]
notes = st.none() | st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=30
)


def with_note(entry, note):
    return entry if note is None or not note.strip() else entry | {"note": note.strip()}


entries = st.one_of(
    st.builds(lambda n, note: with_note({"award": n}, note), st.integers(0, 50), notes),
    st.builds(
        lambda n, i, kind, note: with_note(
            {
                "spend": n,
                "raise": {
                    "list": kind,
                    "name": "Climbing" if kind == "skills" else "Strength",
                    "from": LEVEL_WORDS[i],
                    "to": LEVEL_WORDS[i + 1],
                },
            },
            note,
        ),
        st.integers(0, 50),
        st.integers(0, 6),
        st.sampled_from(["skills", "attributes"]),
        notes,
    ),
    st.builds(
        lambda n, cost: {"spend": n, "add": {"list": "gifts", "name": "Lucky", "cost": cost}},
        st.integers(0, 20),
        st.sampled_from([1, 2, 0.5]),
    ),
    st.builds(
        lambda n: {"spend": n, "remove": {"list": "faults", "name": "Greedy", "value": 1}},
        st.integers(0, 20),
    ),
    st.builds(lambda n, m: {"spend": n, "meta_points": m}, st.integers(0, 30), st.integers(1, 5)),
)


@settings(max_examples=150, deadline=None)
@given(ledger=st.lists(entries, max_size=12), experience=st.integers(0, 200))
def test_export_import_export_is_byte_for_byte(ledger, experience):
    """write(read(x)) is a fixed point: a file written once is written again unchanged,
    whatever its ledger holds (a legal one or not: the report judges, the file keeps)."""
    data = fudge_basics(experience=experience, advancement=ledger)
    first = dumps_character(parse_character_json(json.dumps(data)).character)
    second = dumps_character(parse_character_json(first).character)
    assert first == second
    assert json.loads(first)["advancement"] == ledger


def test_the_json_schema_takes_the_ledgers(veteran):
    assert list(CHARACTER_FILE.iter_errors(veteran)) == []
    bad = veteran | {"advancement": [{"spend": 4}]}  # a spend that says nothing it bought
    assert list(CHARACTER_FILE.iter_errors(bad))


def test_house_rules_change_the_advancement_costs(veteran):
    """Mudge 5.2: "these costs could be doubled" for a long campaign."""
    veteran["house_rules"]["advancement_costs"] = {
        "skill_steps": {"Great": 16},
        "attribute_multiplier": 3,
        "gift": 8,
    }
    result = report(veteran)
    wrong = [e["where"] for e in result["errors"] if e["code"] == "advancement_cost"]
    assert wrong == ["advancement[3]", "advancement[4]"]  # Great -> Superb now 16 XP
    assert "costs 16 XP, not 8" in json.dumps(result["errors"])
    # Attributes triple the house step too: Good -> Great stays 4 x 3.
    for line in (3, 4):
        veteran["advancement"][line]["spend"] = 16
    veteran["advancement"][0]["award"] = 61
    assert report(veteran)["valid"]


def test_advancement_costs_round_trip_as_house_rules():
    from rules.house_rules import HouseRuleError, apply_house_rules, house_rules_to_json
    from rules.rulesets import BUILTIN

    mudge = BUILTIN["mudge"]
    rules = {"advancement_costs": {"gift": 8, "skill_steps": {"Fair": 4}}}
    changed = apply_house_rules(mudge, rules)
    assert changed.advancement.gift == 8 and changed.advancement.skill_steps[0] == 4
    assert house_rules_to_json(changed, mudge) == rules
    with pytest.raises(HouseRuleError) as error:
        apply_house_rules(mudge, {"advancement_costs": {"gift": -1}})
    assert error.value.key == "advancement_costs.gift"
    with pytest.raises(HouseRuleError):
        apply_house_rules(mudge, {"advancement_costs": {"gifts": 8}})


@pytest.mark.parametrize(("name", "due"), [("Science", 6), ("science", 6), ("Pilot", 3)])
def test_a_new_skill_is_bought_from_its_default(name, due):
    """Streamlined MicroFudged: Science starts at Terrible, other skills at Poor; raising a
    skill a level up to Fair costs 3 tokens (DIP VIII.3). So adding one at Mediocre costs
    6 for Science, whatever its case, and 3 for Pilot."""
    entry = Entry("spend", due, bought=Add("skills", Trait(name, MEDIOCRE)))
    assert ledger._due(entry, MICROFUDGED_STREAMLINED)[0] == due
