"""The character file (docs/character-file.md): reading, writing, every kind of malformed
input, and properties that hold for any file (hypothesis)."""

import copy
import dataclasses
import json
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.character import Character, Equipment, Fault, Gift, Power, Trait
from rules.charfile import (
    EQUIPMENT_KINDS,
    POWER_KINDS,
    TOP_LEVEL_KEYS,
    CharacterFileError,
    dumps_character,
    parse_character_json,
    read_character,
    write_character,
)
from rules.check import MAX_PROBLEM_CHARS, UNREADABLE, check_text
from rules.house_rules import apply_house_rules
from rules.ladder import ABYSMAL, FAIR, GOOD, LEGENDARY, SUPERB, TOP
from rules.report import build_report
from rules.rulesets import BUILTIN, DIFFICULTIES
from rules.text import BIDI_CONTROLS, _walked_text_problem, first_text_problem

SAMPLES = ("brogo", "dolores", "james", "jim-bones", "lisa-benny")
SAMPLE_DIR = Path(__file__).resolve().parents[2] / "rules" / "samples"


def minimal(**fields) -> dict:
    return {"ruleset": "mudge", "name": "Test", **fields}


def read_error(data) -> CharacterFileError:
    with pytest.raises(CharacterFileError) as raised:
        read_character(data)
    return raised.value


def parse_error(text) -> CharacterFileError:
    with pytest.raises(CharacterFileError) as raised:
        parse_character_json(text)
    return raised.value


class TestReading:
    @pytest.mark.parametrize("stem", SAMPLES)
    def test_every_sample_reads_with_nothing_ignored(self, sample_file, stem):
        result = read_character(sample_file(stem))
        assert result.ignored == ()
        assert result.character.name

    def test_brogo_as_printed(self, sample_file):
        brogo = read_character(sample_file("brogo")).character
        assert (brogo.ruleset, brogo.race) == ("mudge", "Halfling")
        assert (brogo.scale_strength, brogo.scale_mass) == (-2, -2)
        assert brogo.attributes[6] == Trait("Perception", SUPERB)
        assert brogo.skills[1] == Trait("Area Knowledge", GOOD, "easy")
        assert Gift("Magery", Fraction(2)) in brogo.gifts
        assert brogo.equipment[2] == Equipment("Staff", "weapon", damage=2)
        assert brogo.meta_points == 0

    def test_a_file_that_sets_every_house_rule(self):
        result = read_character(EVERY_HOUSE_RULE)
        ruleset = apply_house_rules(BUILTIN["mudge"], result.character.house_rules)
        report = build_report(result.character, ruleset, result.ignored)
        # Sanity Great from its Good default: 1 of 4 attribute levels; Climbing, easy at
        # Legendary+2 (allowed): 6 + 1 = 7 of 40 skill levels; Flight 3 of 1.5 gifts; a
        # half fault worth 0.5 skill levels a fault:
        # (4 - 1) x 3 + (40 - 7) + (1.5 - 3) x 6 + 0.5 x 0.5 = 9 + 33 - 9 + 0.25 = 33.25.
        assert report.balance == Fraction(133, 4)
        # The 1.5 gifts short are bought exactly (Mudge 1.64 trades balance the pools):
        # 9 skill levels for 1.5 gifts.
        assert report.to_json()["trades"] == [
            {"give": {"pool": "skills", "amount": 9}, "get": {"pool": "gifts", "amount": 1.5}}
        ]
        assert report.errors == []

    def test_the_smallest_file(self):
        character = read_character(minimal()).character
        assert character == Character(ruleset="mudge", name="Test")
        assert character.meta_points is None  # the ruleset's starting number

    def test_level_words_are_case_and_space_insensitive(self):
        data = minimal(
            skills=[
                {"name": "A", "level": "gOOD"},
                {"name": "B", "level": " legendary + 2 "},
            ]
        )
        levels = [t.level for t in read_character(data).character.skills]
        assert levels == [GOOD, LEGENDARY + 2]

    def test_every_optional_field(self):
        data = minimal(
            race="Halfling",
            experience=12,
            personality={"What does he want?": "A quiet pipe."},
            equipment=[
                {"name": "Mail", "kind": "armor", "armor": 2, "notes": "heavy"},
                {"name": "Sword", "kind": "weapon", "damage": 3},
            ],
            powers=[
                {"name": "Flight", "kind": "superpower", "cost": 3},
                {"name": "Fireball", "kind": "spell", "level": "Fair", "difficulty": "very_hard"},
            ],
            meta_points=2,
        )
        character = read_character(data).character
        assert character.race == "Halfling"
        assert character.experience == 12
        assert character.personality == {"What does he want?": "A quiet pipe."}
        assert character.equipment == (
            Equipment("Mail", "armour", armour=2, notes="heavy"),
            Equipment("Sword", "weapon", damage=3),
        )
        assert character.powers == (
            Power("Flight", "superpower", cost=Fraction(3)),
            Power("Fireball", "spell", FAIR, "very_hard"),
        )
        assert character.meta_points == 2

    def test_half_value_faults_and_gifts(self):
        data = minimal(
            gifts=[{"name": "Patron", "cost": 1.5}], faults=[{"name": "Vain", "value": 0.5}]
        )
        character = read_character(data).character
        assert character.gifts[0].cost == Fraction(3, 2)
        assert character.faults[0].value == Fraction(1, 2)

    def test_unknown_fields_are_ignored_and_listed(self):
        data = minimal(colour="red", skills=[{"name": "A", "level": "Fair", "lvl": "Good"}])
        result = read_character(data)
        assert result.ignored == ("colour", "skills[0].lvl")
        report = build_report(result.character, BUILTIN["mudge"], result.ignored)
        assert [(w.code, w.where) for w in report.warnings if w.code == "unknown_field"] == [
            ("unknown_field", "colour"),
            ("unknown_field", "skills[0].lvl"),
        ]

    def test_bytes_in_any_json_encoding(self):
        text = json.dumps(minimal(name="Brögo"), ensure_ascii=False)
        for encoded in (text.encode(), b"\xef\xbb\xbf" + text.encode(), text.encode("utf-16")):
            assert parse_character_json(encoded).character.name == "Brögo"


class TestWriting:
    @pytest.mark.parametrize("stem", SAMPLES)
    def test_samples_survive_read_write_read(self, sample_file, stem):
        first = read_character(sample_file(stem)).character
        text = dumps_character(first)
        again = parse_character_json(text).character
        assert again == first
        assert dumps_character(again) == text

    def test_the_written_form(self):
        character = Character(
            ruleset="mudge",
            name="Test",
            skills=(Trait("Climbing", GOOD),),
            faults=(Fault("Vain", Fraction(1, 2)),),
            equipment=(Equipment("Mail", "armour", armour=2),),
        )
        data = write_character(character)
        assert data["format"] == "fairsheet.character/1"
        assert data["skills"] == [{"name": "Climbing", "level": "Good"}]
        assert data["faults"] == [{"name": "Vain", "value": 0.5}]
        assert data["equipment"] == [{"name": "Mail", "kind": "armour", "armour": 2}]
        assert "meta_points" not in data  # None: the ruleset's starting number
        # No ledger: no advancement key (spec, "Advancement" is optional).
        # ruleset_file only where a designed ruleset goes with the file (rules.ruleset_file);
        # npc only for NPCs; no plan key without a plan (rules.plan, optional).
        unwritten = ("meta_points", "advancement", "ruleset_file", "npc", "plan")
        assert list(data) == [k for k in TOP_LEVEL_KEYS if k not in unwritten]


# (what to change in a minimal file, the `where` the error names, part of its message)
MALFORMED = [
    ({"format": "fairsheet.character/2"}, "format", "must be 'fairsheet.character/1'"),
    ({"ruleset": "mudgee"}, "ruleset", "unknown ruleset 'mudgee': use one of fudge-basics"),
    ({"ruleset": None}, "ruleset", "missing: a character file names its ruleset"),
    ({"ruleset": ["mudge"]}, "ruleset", "unknown ruleset ['mudge']"),
    ({"house_rules": []}, "house_rules", "must be an object of overrides"),
    ({"house_rules": {"tokens": -1}}, "house_rules.tokens", "cannot be negative (-1)"),
    ({"house_rules": {"free_gifts": float("nan")}}, "house_rules.free_gifts", "must be a number"),
    (
        {"house_rules": {"trade_values": {"gift": float("inf")}}},
        "house_rules.trade_values.gift",
        "must be a number",
    ),
    (
        {"house_rules": {"skill_caps": {"Great": -1}}},
        "house_rules.skill_caps.Great",
        "cannot be negative",
    ),
    ({"house_rules": {"skil_levels": 4}}, "house_rules.skil_levels", "unknown house rule"),
    (
        {"house_rules": {"skill_levels": 10**400}},
        "house_rules.skill_levels",
        "cannot be above 1,000,000",
    ),
    (
        {"house_rules": {"trade_values": {"fault": 1e300}}},
        "house_rules.trade_values.fault",
        "cannot be above 1,000,000 (1e+300)",
    ),
    ({"name": None}, "name", "must be text, not null"),
    ({"name": "   "}, "name", "is required and cannot be empty"),
    ({"name": "x" * 201}, "name", "is 201 characters long; the most is 200"),
    ({"player": 7}, "player", "must be text, not a number"),
    ({"scale": []}, "scale", "must be an object, not a list"),
    ({"scale": {"strength": 1.5}}, "scale.strength", "must be a whole number"),
    ({"scale": {"mass": 51}}, "scale.mass", "must be between -50 and 50, not 51"),
    ({"attributes": {}}, "attributes", "must be a list, not an object"),
    ({"skills": ["Climbing"]}, "skills[0]", "must be an object, not text"),
    ({"skills": [{"name": "Climbing"}]}, "skills[0].level", "is required"),
    (
        {
            "skills": [
                {"name": "A", "level": "Fair"},
                {"name": "B", "level": "Good"},
                {"name": "C", "level": "Goood"},
            ]
        },
        "skills[2].level",
        "'Goood' is not a level: use one of Abysmal, Terrible",
    ),
    ({"skills": [{"name": "A", "level": 3}]}, "skills[0].level", "must be a word of the trait"),
    ({"skills": [{"name": "A", "level": "Legendary+1000"}]}, "skills[0].level", "not a level"),
    (
        {"skills": [{"name": "A", "level": "Fair", "difficulty": "hardish"}]},
        "skills[0].difficulty",
        "unknown difficulty 'hardish'",
    ),
    (
        {"skills": [{"name": True, "level": "Fair"}]},
        "skills[0].name",
        "must be text, not true/false",
    ),
    (
        {"attributes": [{"name": "x" * 101, "level": "Fair"}]},
        "attributes[0].name",
        "the most is 100",
    ),
    ({"gifts": [{"name": "Luck", "cost": "2"}]}, "gifts[0].cost", "must be a number, not text"),
    ({"gifts": [{"name": "Luck", "cost": True}]}, "gifts[0].cost", "must be a number"),
    ({"gifts": [{"name": "Luck", "cost": -1}]}, "gifts[0].cost", "between 0 and 20"),
    ({"faults": [{"name": "Vain", "value": 21}]}, "faults[0].value", "between 0 and 20"),
    ({"faults": [{"name": "Vain", "value": float("nan")}]}, "faults[0].value", "between 0 and 20"),
    ({"powers": [{"name": "Zap", "kind": "cantrip"}]}, "powers[0].kind", "unknown kind 'cantrip'"),
    ({"powers": [{"name": "Zap", "level": "Mighty"}]}, "powers[0].level", "not a level"),
    ({"powers": [{"name": "Zap", "cost": [2]}]}, "powers[0].cost", "must be a number, not a list"),
    (
        {"equipment": [{"name": "Bow", "kind": "missile"}]},
        "equipment[0].kind",
        "unknown kind 'missile'",
    ),
    ({"equipment": [{"name": "Bow", "kind": ["weapon"]}]}, "equipment[0].kind", "unknown kind"),
    (
        {"equipment": [{"name": "Bow", "damage": "2"}]},
        "equipment[0].damage",
        "must be a whole number",
    ),
    ({"equipment": [{"name": "Mail", "armor": 99}]}, "equipment[0].armour", "between -10 and 50"),
    ({"equipment": [{"name": "Bow", "notes": ["a"]}]}, "equipment[0].notes", "must be text"),
    ({"meta_points": 2.0}, "meta_points", "must be a whole number"),
    ({"meta_points": 101}, "meta_points", "between 0 and 100"),
    ({"experience": -1}, "experience", "between 0 and 100000"),
    ({"experience": 10**400}, "experience", "between 0 and 100000"),
    ({"notes": "x" * 20_001}, "notes", "is 20,001 characters long; the most is 20,000"),
    ({"personality": ["a"]}, "personality", "must be an object, not a list"),
    ({"personality": {"Why?": 3}}, "personality.Why?", "must be text, not a number"),
]


@pytest.mark.parametrize(("change", "where", "message"), MALFORMED, ids=lambda v: str(v)[:40])
def test_malformed_input_names_where(change, where, message):
    error = read_error(minimal(**change))
    assert error.where == where
    assert message in error.message
    assert str(error) == f"{where}: {error.message}"


@pytest.mark.parametrize(
    ("text", "where", "message"),
    [
        ("", "line 1 column 1", "not valid JSON (Expecting value)"),
        ('{"ruleset": "mudge",\n "name": }', "line 2 column 10", "not valid JSON"),
        (b'{"name": "\xff"}', "", "the file is not UTF-8 text"),
        ('{"experience": ' + "9" * 5000 + "}", "", "a number has too many digits"),
        ("[" * 100_000 + "]" * 100_000, "", "lists or objects nest too deep"),
        ("[]", "", "must be an object, not a list"),
        ('"mudge"', "", "must be an object, not text"),
    ],
    ids=["empty", "syntax", "not-utf8", "huge-int", "deep", "list", "string"],
)
def test_unreadable_text_names_where(text, where, message):
    error = parse_error(text)
    assert error.where == where
    assert message in error.message


def test_a_direction_control_is_refused_in_a_name_only():
    assert first_text_problem({"skills": [{"name": "Dolores", "notes": "gnp\u202eexe"}]}) is None
    where, problem = first_text_problem({"skills": [{"name": "gnp\u202eexe"}]})
    assert (where, str(problem)) == (
        "skills[0].name",
        "contains a text-direction control (U+202E), which can make a name read backwards: "
        "remove it",
    )


def test_a_backslash_written_out_is_text_and_a_nul_in_a_key_is_not():
    assert first_text_problem({"notes": "C:\\u0000 and Éowyn"}) is None
    where, problem = first_text_problem({"personality": {"values": "x", "a\x00b": "y"}})
    assert where == "personality.a\\u0000b"
    assert str(problem).startswith("the key contains a NUL character (U+0000)")


# -- properties ----------------------------------------------------------------------------

# Strings full of what the text check looks for, and of what only looks like it.
TRICKY_TEXT = st.lists(
    st.sampled_from(["a", "é", " ", "\\", "u0000", "\x00", "\ud800", "\udc00", "\u202e"])
    | st.characters(),
    max_size=8,
).map("".join)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | TRICKY_TEXT,
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(TRICKY_TEXT | st.sampled_from(["name", "notes"]), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(data=JSON_VALUES)
def test_the_text_check_finds_what_walking_every_string_finds(data):
    # first_text_problem walks only data its JSON text says to look closer at (issue 40).
    assert first_text_problem(data) == _walked_text_problem(data)


LEVELS_FROM_ABYSMAL = st.integers(ABYSMAL, TOP)
# Text as the reader keeps it: stripped, non-empty, storable (no NUL), names without
# text-direction controls (rules/text.py).
STORABLE = st.characters(exclude_categories=["Cs"], exclude_characters="\x00")
NAME_CHARACTERS = st.characters(
    exclude_categories=["Cs"], exclude_characters="\x00" + "".join(BIDI_CONTROLS)
)
NAMES = st.text(NAME_CHARACTERS, max_size=100).map(str.strip).filter(bool)
NOTES = st.text(STORABLE, max_size=300).map(str.strip)
AMOUNTS = st.builds(  # hundredths at most: what the database stores exactly
    Fraction, st.integers(0, 40), st.sampled_from([1, 2, 4, 5, 10, 20, 25, 100])
).filter(lambda f: f <= 20)
HOUSE_RULES = st.sampled_from(
    [
        {},
        {"tokens": 21},
        {"skill_levels": 40, "attribute_levels": 4},
        {"legendary_at_creation": True},
        {"trade_values": {"fault": 3}},
        {"extra_attributes": [{"name": "Sanity", "default": "Good"}]},
    ]
)


def traits(names, difficulties):
    return st.lists(st.builds(Trait, names, LEVELS_FROM_ABYSMAL, difficulties), max_size=10)


@st.composite
def characters(draw, slug=None):
    slug = slug or draw(st.sampled_from(sorted(BUILTIN)))
    ruleset = BUILTIN[slug]
    attribute_names = st.sampled_from(ruleset.attribute_names) if ruleset.attribute_names else NAMES
    skill_difficulty = st.none() | st.sampled_from(DIFFICULTIES)
    return Character(
        ruleset=slug,
        name=draw(NAMES),
        house_rules=draw(HOUSE_RULES),
        player=draw(NAMES | st.just("")),
        concept=draw(NOTES),
        race=draw(NAMES | st.just("")),
        scale_strength=draw(st.integers(-50, 50)),
        scale_mass=draw(st.integers(-50, 50)),
        attributes=tuple(draw(traits(attribute_names | NAMES, st.none()))),
        skills=tuple(
            draw(traits(NAMES | st.sampled_from(["Science", "Medicine"]), skill_difficulty))
        ),
        gifts=tuple(draw(st.lists(st.builds(Gift, NAMES, AMOUNTS), max_size=5))),
        faults=tuple(draw(st.lists(st.builds(Fault, NAMES, AMOUNTS), max_size=5))),
        powers=tuple(
            draw(
                st.lists(
                    st.builds(
                        Power,
                        NAMES,
                        st.none() | st.sampled_from(POWER_KINDS),
                        st.none() | LEVELS_FROM_ABYSMAL,
                        skill_difficulty,
                        st.none() | AMOUNTS,
                    ),
                    max_size=4,
                )
            )
        ),
        equipment=tuple(
            draw(
                st.lists(
                    st.builds(
                        Equipment,
                        NAMES,
                        st.sampled_from(EQUIPMENT_KINDS),
                        st.none() | st.integers(-10, 50),
                        st.none() | st.integers(-10, 50),
                        NOTES,
                    ),
                    max_size=4,
                )
            )
        ),
        meta_points=draw(st.none() | st.integers(0, 100)),
        experience=draw(st.integers(0, 100_000)),
        notes=draw(NOTES),
        personality=draw(
            st.dictionaries(
                st.text(STORABLE, min_size=1, max_size=200).map(str.strip).filter(bool),
                NOTES,
                max_size=3,
            )
        ),
    )


def balance(character: Character):
    ruleset = apply_house_rules(BUILTIN[character.ruleset], character.house_rules)
    return build_report(character, ruleset).balance


@pytest.mark.parametrize("slug", sorted(BUILTIN))  # both systems: levels and tokens
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_raising_any_trait_one_level_never_raises_the_balance(slug, data):
    character = data.draw(characters(slug))
    before = balance(character)
    system = BUILTIN[slug].system
    for list_name in ("attributes", "skills", "powers"):
        items = getattr(character, list_name)
        for index, item in enumerate(items):
            if item.level is None:
                continue
            raised = list(items)
            raised[index] = dataclasses.replace(item, level=item.level + 1)
            after = balance(dataclasses.replace(character, **{list_name: tuple(raised)}))
            assert after <= before
            if list_name != "powers":  # a superpower's price does not follow its level
                assert after < before, f"raising {item.name} cost nothing ({system})"


@settings(max_examples=200, deadline=None)
@given(characters())
def test_a_valid_file_survives_write_read_write(character):
    text = dumps_character(character)
    again = parse_character_json(text)
    assert again.ignored == ()
    assert again.character == character
    assert dumps_character(again.character) == text


JSON_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats()
    | st.text(max_size=20)
    | st.sampled_from(
        ["Good", "goood", "Legendary+7", "mudge", "microfudged-dip", "spell", "armor"]
    )
)
FIELD_NAMES = st.sampled_from(
    [
        *TOP_LEVEL_KEYS,
        "name",
        "level",
        "difficulty",
        "cost",
        "value",
        "kind",
        "damage",
        "armour",
        "armor",
        "strength",
        "mass",
        "tokens",
        "skill_caps",
        "trade_values",
        "extra_attributes",
        "default",
    ]
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda children: (
        st.lists(children, max_size=5)
        | st.dictionaries(FIELD_NAMES | st.text(max_size=10), children, max_size=6)
    ),
    max_leaves=40,
)


@st.composite
def mutated_files(draw):
    """A sample file with one value anywhere in it replaced, or one key dropped."""
    data = copy.deepcopy(draw(st.sampled_from(SAMPLE_DATA)))
    paths = list(_paths(data))
    parent, key = draw(st.sampled_from(paths))
    if isinstance(parent, dict) and draw(st.booleans()):
        del parent[key]
    else:
        parent[key] = draw(JSON_VALUES)
    return data


def _paths(node):
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in list(items):
        yield node, key
        if isinstance(value, dict | list):
            yield from _paths(value)


EVERY_HOUSE_RULE = minimal(
    house_rules={
        "attribute_levels": 4,
        "skill_levels": 40,
        "free_gifts": 1.5,
        "tokens": 21,
        "attribute_caps": {"Superb": 1},
        "skill_caps": {"Great": 3, "Legendary": 0},
        "legendary_at_creation": True,
        "trade_values": {"attribute": 3, "gift": 6, "fault": 0.5},
        "max_lowered_skills": 4,
        "tokens_carried": None,
        "extra_attributes": [{"name": "Sanity", "default": "Good"}],
        "meta_points_start": 2,
        "meta_points_max": 4,
        "superpower_cost": 3,
    },
    attributes=[{"name": "Sanity", "level": "Great"}],
    skills=[{"name": "Climbing", "level": "Legendary+2", "difficulty": "easy"}],
    faults=[{"name": "Vain", "value": 0.5}],
    powers=[{"name": "Flight", "kind": "superpower"}],
)
# Mutation bases: the samples, and a file that sets every house rule.
SAMPLE_DATA = [
    *(json.loads((SAMPLE_DIR / f"{stem}.json").read_text()) for stem in SAMPLES),
    EVERY_HOUSE_RULE,
]


def assert_reads_or_refuses(data):
    try:
        read_character(data)
    except CharacterFileError as error:
        assert error.message


def assert_checks(text):
    result = check_text(text)
    assert result.exit_code in (0, 1, 2)
    json.dumps(result.report)  # the report is JSON, whatever the file held
    assert (result.exit_code == UNREADABLE) == bool(result.problem)
    # where and message are each cut to MAX_PROBLEM_CHARS, joined by ": "
    assert "\n" not in result.problem and len(result.problem) <= 2 * MAX_PROBLEM_CHARS + 2


@settings(max_examples=500, deadline=None)
@given(JSON_VALUES)
def test_arbitrary_json_only_ever_raises_character_file_error(data):
    assert_reads_or_refuses(data)
    assert_checks(json.dumps(data))


@settings(max_examples=500, deadline=None)
@given(mutated_files())
def test_a_mutated_sample_only_ever_raises_character_file_error(data):
    assert_reads_or_refuses(data)
    assert_checks(json.dumps(data))


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200))
def test_arbitrary_bytes_and_text_are_checked_without_raising(content):
    assert_checks(content)
