"""The character file's JSON Schema (docs/character-file.schema.json, draft 2020-12): every
sample and every exported file validates; what the reader refuses for its shape, the schema
refuses too; /schema/character-file.json serves it to anyone, cacheable."""

import copy
import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from django.urls import reverse
from hypothesis import assume, given, settings
from jsonschema import Draft202012Validator

from characters.adapters import character_to_rules
from characters.models import Campaign, Membership, Trait
from characters.services.characters import character_create
from rules.charfile import CharacterFileError, read_character, write_character
from rules.text import first_text_problem
from tests.app.test_review import approved
from tests.rules.test_charfile import (
    EVERY_HOUSE_RULE,
    MALFORMED,
    SAMPLES,
    characters,
    minimal,
    mutated_files,
)
from tests.rules.test_plan import BAD_PLAN_STEPS, PLAN_STEPS
from tests.support.schemas import CHARACTER_FILE, CHARACTER_FILE_SCHEMA

ROOT = Path(__file__).resolve().parents[2]
SCHEMA_PATH = ROOT / "docs" / "character-file.schema.json"
SCHEMA = CHARACTER_FILE_SCHEMA
VALIDATOR = CHARACTER_FILE

# The spec's own example of the Advancement section (character-file.md), on Brogo.
LEDGER = [
    {"award": 5, "note": "Session 1: saved the village"},
    {"spend": 4, "raise": {"list": "skills", "name": "Dodge", "from": "Good", "to": "Great"}},
    {"spend": 4, "add": {"list": "gifts", "name": "Night Vision", "cost": 1}},
    {"spend": 6, "meta_points": 1},
]


def sample(stem: str) -> dict:
    return json.loads((ROOT / "rules" / "samples" / f"{stem}.json").read_text())


def errors(data) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in VALIDATOR.iter_errors(data)]


def test_the_schema_is_a_draft_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"


@pytest.mark.parametrize("stem", SAMPLES)
def test_every_sample_validates(stem):
    assert errors(sample(stem)) == []


@settings(max_examples=200, deadline=None)
@given(characters())
def test_every_written_file_validates(character):
    assert errors(write_character(character)) == []


class TestAdvancement:
    def test_the_specs_example(self):
        assert errors({**sample("brogo"), "experience": 1, "advancement": LEDGER}) == []

    def test_every_kind_of_entry(self):
        ledger = [
            {"carried": 3, "note": "tokens saved at creation"},
            {"award": 0},
            {
                "spend": 1,
                "raise": {"list": "powers", "name": "Wards", "from": "Poor", "to": "Mediocre"},
            },
            {"spend": 8, "add": {"list": "powers", "name": "Flight", "kind": "superpower"}},
            {
                "spend": 3,
                "add": {"list": "skills", "name": "Riding", "level": "Poor", "difficulty": "easy"},
            },
            {"spend": 6, "remove": {"list": "faults", "name": "Greedy", "value": 1}},
        ]
        assert errors(minimal(advancement=ledger)) == []

    @pytest.mark.parametrize(
        "entry",
        [
            {"award": -1},
            {"award": 2.5},
            {"carried": -3},
            {"note": "nothing awarded or spent"},
            {"spend": 4},  # says nothing of what it bought
            {"spend": 4, "meta_points": 1, "raise": LEDGER[1]["raise"]},  # two things
            {"award": 5, "spend": 4, "meta_points": 1},
            {"spend": 4, "raise": {"list": "skills", "name": "Dodge", "from": "Good"}},
            {"spend": 4, "raise": {"list": "gifts", "name": "Luck", "from": "Good", "to": "Great"}},
            {
                "spend": 4,
                "raise": {"list": "skills", "name": "Dodge", "from": "Good", "to": "Gret"},
            },
            {"spend": 4, "add": {"list": "faults", "name": "Vain"}},
            {"spend": 4, "add": {"list": "skills", "name": "Riding"}},  # a skill needs its level
            {"spend": 4, "add": {"list": "gifts", "name": "Luck", "cost": 30}},
            {"spend": 6, "remove": {"list": "gifts", "name": "Luck"}},
            {"spend": 6, "meta_points": -1},
            {"spend": "4", "meta_points": 1},
        ],
        ids=lambda entry: json.dumps(entry)[:50],
    )
    def test_entries_of_the_wrong_shape(self, entry):
        assert errors(minimal(advancement=[entry]))

    def test_the_ledger_is_a_list(self):
        assert errors(minimal(advancement={"award": 5}))


def _leaves(node):
    if isinstance(node, dict):
        for value in node.values():
            yield from _leaves(value)
    elif isinstance(node, list):
        for value in node:
            yield from _leaves(value)
    else:
        yield node


# MALFORMED (test_charfile) holds what the reader refuses, with where and why.
def _beyond_json_schema(data) -> bool:
    """What JSON Schema cannot tell apart: text no database can keep (NUL, a lone surrogate)
    or a name with a text-direction control anywhere in the file, the fields the schema
    leaves open included (rules.text); NaN and Infinity (not JSON at all) and a whole
    number written with a decimal point (2.0 is the integer 2 to JSON Schema, draft 2020-12
    section 6.1.1, while the reader wants it written as 2)."""
    return first_text_problem(data) is not None or any(
        isinstance(value, float)
        and (not math.isfinite(value) or value.is_integer() or _past_hundredths(value))
        for value in _leaves(data)
    )


def _past_hundredths(value: float) -> bool:
    """0.125: the reader keeps costs in hundredths. JSON Schema's multipleOf 0.01 would say
    so, but in floating point (0.29 / 0.01 is 28.999...), so the schema leaves it out."""
    return (Fraction(repr(value)) * 100).denominator != 1


@pytest.mark.parametrize(
    ("change", "where"),
    [(change, where) for change, where, _ in MALFORMED if not _beyond_json_schema(change)],
    ids=lambda v: str(v)[:40],
)
def test_what_the_reader_refuses_for_its_shape_the_schema_refuses(change, where):
    data = minimal(**change)
    with pytest.raises(CharacterFileError):
        read_character(data)
    assert errors(data), f"the schema takes what the reader refuses at {where}"


def test_what_json_schema_cannot_see():
    # The reader refuses these; they are documented in docs/character-file.md.
    assert VALIDATOR.is_valid(minimal(meta_points=2.0))
    skipped = [change for change, _, _ in MALFORMED if _beyond_json_schema(change)]
    assert len(skipped) == 5  # meta_points 2.0 and the four NaN and Infinity cases


@pytest.mark.parametrize("data", [[], "mudge", {"name": "No ruleset"}, {"ruleset": "mudge"}])
def test_what_is_not_a_character_at_all(data):
    assert errors(data)


@settings(max_examples=400, deadline=None)
@given(mutated_files())
def test_a_mutated_sample_the_reader_refuses_is_refused_by_the_schema(data):
    assume(not _beyond_json_schema(data))
    try:
        read_character(data)
    except CharacterFileError as error:
        # The one rule between two values, not a shape: meta_points_start <= meta_points_max.
        assume("meta_points_max" not in error.message)
        assert errors(data), f"the schema takes a file the reader refuses: {error}"


def test_house_rules_that_set_everything_validate():
    assert errors(copy.deepcopy(EVERY_HOUSE_RULE)) == []


class TestServed:
    def test_anyone_may_fetch_it_and_caches_keep_it(self, client):
        response = client.get(reverse("character_file_schema"))
        assert response.status_code == 200
        assert response["Content-Type"] == "application/schema+json"
        assert response.content == SCHEMA_PATH.read_bytes()
        assert "public" in response["Cache-Control"]
        assert "max-age=86400" in response["Cache-Control"]
        assert response["Access-Control-Allow-Origin"] == "*"
        again = client.get(reverse("character_file_schema"), HTTP_IF_NONE_MATCH=response["ETag"])
        assert again.status_code == 304
        assert client.post(reverse("character_file_schema")).status_code == 405


def test_a_file_exported_from_the_site_validates(client, db, django_user_model):
    player = django_user_model.objects.create_user("exporter", password="pw-x-12345")
    character = character_create(owner=player, name="Export Me", ruleset="mudge")
    Trait.objects.create(character=character, kind=Trait.Kind.SKILL, name="Climbing", level=1)
    Trait.objects.create(
        character=character, kind=Trait.Kind.POWER, name="Zap", power_kind="superpower"
    )
    client.force_login(player)
    response = client.get(reverse("character_export", args=[character.pk]))
    data = json.loads(response.content)
    assert data == write_character(character_to_rules(character))
    assert errors(data) == []


def test_an_approval_snapshot_validates(db, django_user_model):
    gm = django_user_model.objects.create_user("gm", password="pw-gm-12345")
    player = django_user_model.objects.create_user("player", password="pw-pl-12345")
    campaign = Campaign.objects.create(name="Watch", gm=gm, base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=player)
    character = character_create(owner=player, name="Approved", campaign=campaign)
    approval = approved(character, gm, reason="a test build")
    assert errors(approval.snapshot) == []


class TestADesignedLadder:
    """A file that carries its designed ruleset (`ruleset_file`) is on that ruleset's ladder
    (fudge-rpg's Extended ladder: Heroic +4, Legendary +5): the schema does not refuse its
    words, and the reader checks them against that ladder. Without `ruleset_file`, every
    level is still a word of the standard ladder."""

    RULESET = json.loads((ROOT / "docs" / "examples" / "extended-ladder.ruleset.json").read_text())
    HEROIC = {
        "name": "Hrolf",
        "attributes": [{"name": "Strength", "level": "Heroic"}],
        "skills": [{"name": "Climbing", "level": "heroic"}],
        "house_rules": {
            "skill_caps": {"Heroic": 1},
            "extra_attributes": [{"name": "Sanity", "default": "Heroic"}],
        },
        "experience": 0,
        "advancement": [
            {"award": 90},
            {
                "spend": 90,
                "raise": {
                    "list": "attributes",
                    "name": "Strength",
                    "from": "Superb",
                    "to": "Heroic",
                },
            },
        ],
    }

    def test_its_own_words_validate_and_the_reader_checks_them(self):
        data = {"ruleset": self.RULESET["slug"], "ruleset_file": self.RULESET, **self.HEROIC}
        assert errors(data) == []
        assert read_character(data).character.skills[0].level == 4
        data["skills"] = [{"name": "Climbing", "level": "Heroik"}]
        assert errors(data) == []  # its shape is a level's; the reader knows its ladder
        with pytest.raises(CharacterFileError, match="'Heroik' is not a level"):
            read_character(data)

    def test_without_it_every_level_is_the_standard_ladders(self):
        data = {"ruleset": "fudge-basics", **self.HEROIC}
        found = {tuple(e.absolute_path) for e in VALIDATOR.iter_errors(data)}
        assert found == {
            ("advancement", 1, "raise", "to"),
            ("attributes", 0, "level"),
            ("house_rules", "extra_attributes", 0, "default"),
            ("house_rules", "skill_caps"),
            ("skills", 0, "level"),
        }


class TestPlan:
    """The optional experience plan (character-file.md, The plan; rules.plan)."""

    def test_a_plan_of_every_kind_of_step_validates(self):
        data = {**sample("brogo"), "plan": PLAN_STEPS}
        read_character(data)
        assert errors(data) == []

    @pytest.mark.parametrize(("step", "where"), BAD_PLAN_STEPS)
    def test_a_step_the_reader_refuses_the_schema_refuses(self, step, where):
        data = {**sample("brogo"), "plan": [step]}
        with pytest.raises(CharacterFileError):
            read_character(data)
        assert errors(data), f"the schema takes the step the reader refuses at {where}"

    def test_more_steps_than_a_plan_holds(self):
        step = {"what": "gift", "name": "Luck"}
        data = {**sample("brogo"), "plan": [step] * 101}
        with pytest.raises(CharacterFileError):
            read_character(data)
        assert errors(data)
