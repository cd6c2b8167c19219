"""A designed game's derived values, trackers and prerequisites (docs/ruleset-file.md):
read from the file, checked, worked out and reported, with Mudge 4.55's own example
(Leroy against Theodora) as the numbers a formula must give."""

import copy
import json
from pathlib import Path

import pytest

from rules.character import Character, Fault, Gift, Power, Trait
from rules.derived import derived_values
from rules.formula import FormulaError, parse_formula
from rules.prerequisites import broken_by, check, with_spend
from rules.report import build_report
from rules.ruleset_file import move_to_ladder, read_ruleset, ruleset_problems, ruleset_to_json
from rules.rulesets import BUILTIN, MUDGE
from rules.trackers import tracker_start, tracker_value
from rules.words import ENGLISH, GameWords, say_in


def game_file() -> dict:
    """docs/examples' Swords and sorcery: Mudge with issue 42's parts. Its damage factors
    are derived values (Mudge 4.55), Luck a tracker, Magery for spells and Sword Mastery
    at Sword Great prerequisites in the GM's words (English, French, Spanish, German), and
    at most one of Patron and Ally."""
    return json.loads(EXAMPLE.read_text(encoding="utf-8"))


EXAMPLE = Path(__file__).resolve().parents[2] / "docs/examples/swords-and-sorcery.ruleset.json"
GAME = read_ruleset(game_file())
LEROY = Character(
    ruleset="mudge",
    name="Leroy",
    attributes=(Trait("Strength", 1), Trait("Constitution", 1)),
)
THEODORA = Character(
    ruleset="mudge",
    name="Theodora",
    attributes=(Trait("Strength", 3), Trait("Constitution", 0)),
)


def values(character) -> dict:
    return {v.derived.key: v.value for v in derived_values(GAME, character)}


def test_mudge_4_55_damage_factors_as_derived_values():
    # Leroy: ODF 1+0(+2 broadsword), DDF 1+0+4 = 5; Theodora: ODF 3+0(+3), DDF 0+0(+2).
    assert values(LEROY) == {"body_odf": 1, "body_ddf": 1, "ddf_in_scale_mail": 5}
    assert values(THEODORA) == {"body_odf": 3, "body_ddf": 0, "ddf_in_scale_mail": 4}


def test_scale_is_added_as_mudge_4_55_adds_it():
    # "The attacker's Strength Scale is added to his ODF, the defender's Mass Scale to her DDF."
    giant = Character(
        ruleset="mudge",
        name="Giant",
        scale_strength=3,
        scale_mass=2,
        attributes=(Trait("Strength", 1),),
    )
    assert values(giant) == {"body_odf": 4, "body_ddf": 2, "ddf_in_scale_mail": 6}


def test_a_trait_the_character_lacks_is_at_its_default():
    # Mudge 1.6: attributes default to Fair (0).
    assert values(Character(ruleset="mudge", name="Nobody")) == {
        "body_odf": 0,
        "body_ddf": 0,
        "ddf_in_scale_mail": 4,
    }


@pytest.mark.parametrize(
    ("formula", "value"),
    [
        ("7 / 2", 3),  # rounded down
        ("-7 / 2", -4),
        ("7 // 2 + 0.5", 3),
        ("ceil(7 / 2)", 4),
        ('max(level("Strength"), level("Constitution")) * 2', 6),
        ("min(1, 2, -3) + abs(-2)", -1),
        ('has("Magery") + has("Luck")', 1),
        ("floor(10 / 3) + 1", 4),
    ],
)
def test_formula_arithmetic(formula, value):
    data = game_file()
    data["derived"] = [{"key": "x", "name": "X", "formula": formula}]
    data["trackers"] = []
    game = read_ruleset(data)
    theodora = Character(
        ruleset="mudge", name="T", attributes=THEODORA.attributes, gifts=(Gift("Magery"),)
    )
    assert [v.value for v in derived_values(game, theodora)] == [value]


@pytest.mark.parametrize(
    ("formula", "message"),
    [
        ("2 ** 8", "'2 ** 8' is not allowed"),
        ('__import__("os")', "__import__() is not a function here"),
        ("(lambda: 1)()", "is not allowed"),
        ("x.y", "'x.y' is not allowed"),
        ('"text"', "'text' is not a number"),
        ("1 / 0", "divides by zero"),
        ("level(Strength)", "level() takes a name in quotes"),
        ("min(1)", "min() takes from 2 to 10 values"),
        ('scale("Size")', 'scale() takes "Strength" or "Mass"'),
        ("scale_strength", None),  # a name: a derived value's key, checked by the reader
        ("1 +", "cannot be read at character"),
        ("1 if 2 else 3", "is not allowed"),
        ("1" * 201, "is 201 characters long; the most is 200"),
        ("", "must not be empty"),
    ],
)
def test_formulas_outside_the_language_are_refused(formula, message):
    if message is None:
        assert parse_formula(formula).keys == {formula}
        return
    with pytest.raises(FormulaError) as refused:
        parse_formula(formula)
    assert message in str(refused.value)


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (
            lambda d: (
                d["derived"].append({"key": "a", "name": "A", "formula": "b + 1"})
                or d["derived"].append({"key": "b", "name": "B", "formula": "a * 2"})
            ),
            "derived[3].formula",
            "reads itself: a → b → a",
        ),
        (
            lambda d: d["derived"].append({"key": "c", "name": "C", "formula": 'level("Swrod")'}),
            "derived[3].formula",
            "'Swrod' is not an attribute, skill, gift, fault or power",
        ),
        (
            lambda d: d["derived"].append({"key": "c", "name": "C", "formula": "nothing + 1"}),
            "derived[3].formula",
            "'nothing' is not a derived value of the game",
        ),
        (
            lambda d: d["derived"].append(
                {"key": "c", "name": "C", "formula": '10 / level("Strength")'}
            ),
            "derived[3].formula",
            "cannot be worked out for a character at the defaults",
        ),
        (
            lambda d: d["derived"].append({"key": "level", "name": "L", "formula": "1"}),
            "derived[3].key",
            "'level' is a name formulas use already",
        ),
        (
            lambda d: d["derived"].append({"key": "Big", "name": "B", "formula": "1"}),
            "derived[3].key",
            "must start with a lowercase letter",
        ),
        (
            lambda d: d["derived"].append({"key": "body_odf", "name": "Again", "formula": "1"}),
            "derived[3].key",
            "'body_odf' appears twice",
        ),
        (
            lambda d: d["trackers"][0].update(start="nope"),
            "trackers[0].start",
            "'nope' is not a derived value of the game",
        ),
        (lambda d: d["trackers"][0].update(size=0), "trackers[0].size", "must be from 1 to 100"),
        (lambda d: d["trackers"][0].update(kind="dial"), "trackers[0].kind", "must be one of"),
        (
            lambda d: d["prerequisites"][1].update(needs="Swrod"),
            "prerequisites[1].needs",
            "'Swrod' is not an attribute, skill",
        ),
        (
            lambda d: d["prerequisites"][1].update(at_least="Grand"),
            "prerequisites[1].at_least",
            "is not a level",
        ),
        (
            lambda d: d["prerequisites"][0].update(guards_kind="ritual"),
            "prerequisites[0].guards_kind",
            "'ritual' is not one of the game's kinds of power",
        ),
        (
            lambda d: d["prerequisites"][2].update(needs="Magery"),
            "prerequisites[2].at_most",
            "either limits how many may be taken, or needs a trait",
        ),
        (
            lambda d: d["prerequisites"][1].update(at_least_derived="missing"),
            "prerequisites[1].at_least_derived",
            "either a level or a derived value",
        ),
        (lambda d: d["prerequisites"][1].pop("needs"), "prerequisites[1].needs", "is required"),
        (
            lambda d: d.update(format="fairsheet.ruleset/1"),
            "format",
            "must be 'fairsheet.ruleset/2' for a game with derived values",
        ),
    ],
)
def test_each_problem_is_refused_where_it_stands(change, where, message):
    data = game_file()
    change(data)
    problems = ruleset_problems(data)
    assert any(w == where and message in m for w, m in problems), problems


def test_a_refused_entry_leaves_the_others_where_they_stand():
    """A problem found after reading (an unknown start key) names the entry's own place in
    the file, even when an entry before it was refused."""
    data = game_file()
    data["trackers"].insert(0, {"key": "bad", "name": "Bad", "kind": "dial", "size": 1})
    data["trackers"][2]["start"] = "nope"
    problems = dict(ruleset_problems(data))
    assert "trackers[0].kind" in problems
    assert problems["trackers[2].start"] == "'nope' is not a derived value of the game"


def test_the_file_reads_back_as_written():
    data = game_file()
    assert ruleset_to_json(read_ruleset(data)) == ruleset_to_json(GAME)
    again = ruleset_to_json(read_ruleset(ruleset_to_json(GAME)))
    assert again == ruleset_to_json(GAME)
    assert again["format"] == "fairsheet.ruleset/2"
    assert again["prerequisites"][0]["translations"] == {
        "fr": {"message": "Les sorts demandent le don Magie."},
        "es": {"message": "Los hechizos requieren el don Magia."},
        "de": {"message": "Zauber erfordern die Gabe Magie."},
    }


@pytest.mark.parametrize("slug", sorted(BUILTIN))
def test_a_game_without_parts_is_still_format_1(slug):
    data = ruleset_to_json(BUILTIN[slug])
    assert data["format"] == "fairsheet.ruleset/1"
    assert not {"derived", "trackers", "prerequisites"} & set(data)


def test_trackers_start_from_their_number_or_derived_value():
    luck, grit, doom = GAME.trackers
    assert tracker_start(luck, values(LEROY)) == 3
    assert tracker_start(grit, values(LEROY)) == 5  # Leroy's DDF in scale mail
    big = {"ddf_in_scale_mail": 40}
    assert tracker_start(grit, big) == 6  # no more than its boxes
    assert (doom.kind, doom.size, doom.changed_by, tracker_start(doom, {})) == ("clock", 4, "gm", 0)


def test_a_tracker_in_play_is_at_its_start_until_changed_and_within_its_boxes():
    luck, grit, _doom = GAME.trackers
    assert tracker_value(luck, 3, {}) == 3  # never changed, or reset by a rest
    assert tracker_value(luck, 3, {"luck": 0}) == 0  # spent to nothing is not "at its start"
    assert tracker_value(grit, 5, {"grit": 40}) == 6  # the game made smaller since


def test_prerequisites_in_the_report_say_the_gms_words():
    mage = Character(
        ruleset="mudge",
        name="Hedge witch",
        attributes=LEROY.attributes,
        powers=(Power("Fireball", "spell", 0, "hard"),),
        gifts=(Gift("Patron"), Gift("Ally"), Gift("Sword Mastery")),
        skills=(Trait("Sword", 1),),
    )
    report = build_report(mage, GAME)
    unmet = [i for i in report.errors if i.code == "prerequisite_unmet"]
    assert [(i.trait, i.where, i.section, i.message) for i in unmet] == [
        ("Fireball", "powers[0]", "Mudge 2.5", "Spells need the Magery gift."),
        ("Sword Mastery", "gifts[2]", "Mudge 1.6", "Sword Mastery needs Sword at Great."),
        ("Ally", "gifts[1]", "Mudge 1.6", "At most one of Patron and Ally."),
    ]
    french = unmet[0].phrase.values[0][1]
    assert isinstance(french, GameWords)
    assert french.in_language("fr") == "Les sorts demandent le don Magie."
    assert french.in_language("fr-ca") == "Les sorts demandent le don Magie."
    assert french.in_language("pt-br") == "Spells need the Magery gift."  # none given
    assert report.to_json()["derived"] == {"body_odf": 1, "body_ddf": 1, "ddf_in_scale_mail": 5}


def test_prerequisites_met():
    mage = Character(
        ruleset="mudge",
        name="Magus",
        powers=(Power("Fireball", "spell", 0, "hard"),),
        gifts=(Gift("Magery"), Gift("Sword Mastery"), Gift("Patron")),
        skills=(Trait("Sword", 2),),  # Great
    )
    assert check(mage, GAME) == []


def test_a_spend_that_breaks_a_prerequisite_is_found():
    fighter = Character(
        ruleset="mudge", name="F", skills=(Trait("Sword", 1),), faults=(Fault("Greedy"),)
    )
    mastery = with_spend(fighter, list_name="gifts", name="Sword Mastery")
    assert [b.trait for b in broken_by(fighter, mastery, GAME)] == ["Sword Mastery"]
    raised = with_spend(fighter, list_name="skills", name="Sword", level=2)
    assert (
        broken_by(raised, with_spend(raised, list_name="gifts", name="Sword Mastery"), GAME) == []
    )
    spell = with_spend(fighter, list_name="powers", name="Light", level=0, power_kind="spell")
    assert [b.prerequisite.key for b in broken_by(fighter, spell, GAME)] == ["spells-need-magery"]
    # What was broken already (a build the GM approved) is not the spend's doing.
    broken_before = with_spend(fighter, list_name="gifts", name="Sword Mastery")
    assert (
        broken_by(
            broken_before,
            with_spend(broken_before, list_name="faults", name="Greedy", removed=True),
            GAME,
        )
        == []
    )


def test_the_english_report_is_the_message_as_written():
    phrase = build_report(
        Character(ruleset="mudge", name="x", gifts=(Gift("Patron"), Gift("Ally"))), GAME
    ).errors
    assert [say_in(i.phrase, ENGLISH) for i in phrase if i.code == "prerequisite_unmet"] == [
        "At most one of Patron and Ally."
    ]


def test_built_in_rulesets_have_no_parts_and_report_nothing_new():
    report = build_report(copy.deepcopy(LEROY), MUDGE).to_json()
    assert "derived" not in report


def test_a_renamed_ladder_word_moves_a_prerequisites_level():
    words = list(MUDGE.ladder.words)
    words[words.index("Great")] = "Grand"
    moved = move_to_ladder(game_file(), words, MUDGE.ladder.fair)
    assert moved["prerequisites"][1]["at_least"] == "Grand"
    assert read_ruleset(moved).prerequisites[1].at_least == 2
