"""Checking characters against a ruleset file (docs/ruleset-file.md): `check_character
--ruleset`, the check endpoint with a `ruleset` upload, a character file that carries its
ruleset; and fudge-rpg's Extended ladder (Heroic +4, Legendary +5), which prices and prints
the Foundry sample built on it with no level out of range."""

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from characters.services.api_tokens import api_token_create
from rules.charfile import (
    CharacterFileError,
    character_file_with_ruleset,
    parse_character_json,
    write_character,
)
from rules.check import BREAKS_A_RULE, VALID, check_text
from rules.foundry import parse_any, write_actor
from rules.report import build_report
from rules.ruleset_file import parse_ruleset_json, ruleset_to_json
from rules.rulesets import BUILTIN
from tests.support import commands
from tests.support.pdf_helpers import texts

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "rules" / "samples").glob("*.json"))
EXTENDED = ROOT / "docs" / "examples" / "extended-ladder.ruleset.json"
LEGEND = Path("/work/shared/foundry-samples/06-extended-ladder-legend.json")
if not LEGEND.exists():  # the shared folder beside the checkout, wherever it is
    LEGEND = ROOT.parent.parent / "shared" / "foundry-samples" / LEGEND.name


@pytest.fixture(scope="module")
def exported_files(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("rulesets")
    files = {}
    for slug in BUILTIN:
        files[slug] = folder / f"{slug}.json"
        assert commands.run_command("export_ruleset", slug, "-o", files[slug])[0] == 0
    return files


@pytest.fixture(scope="module")
def extended():
    return parse_ruleset_json(EXTENDED.read_bytes())


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_check_character_with_the_exported_ruleset_prints_the_same_report(path, exported_files):
    slug = json.loads(path.read_text())["ruleset"]
    builtin = commands.run_command("check_character", path)
    designed = commands.run_command("check_character", path, "--ruleset", exported_files[slug])
    assert designed == builtin
    assert builtin[0] in (VALID, BREAKS_A_RULE) and json.loads(builtin[1])["ruleset"] == slug


def test_check_character_names_every_problem_of_a_ruleset_file(tmp_path):
    data = ruleset_to_json(BUILTIN["mudge"])
    data["ladder"]["words"][5] = "Fair"
    data["numbers"]["free_gifts"] = -1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    err = StringIO()
    with pytest.raises(CommandError) as refused:
        call_command(
            "check_character", ROOT / "rules/samples/brogo.json", "--ruleset", bad, stderr=err
        )
    assert refused.value.returncode == 2
    err = err.getvalue() + str(refused.value)
    assert f"{bad}: ladder.words[5]: 'Fair' appears twice" in err
    assert f"{bad}: numbers.free_gifts: must be at least zero (-1)" in err


def own_game():
    """A small game of a GM's own: two attributes, Fine for Fair, flat skills, three boxes."""
    data = ruleset_to_json(BUILTIN["fudge-basics"])
    data.update(slug="moor-and-marsh", name="Moor and Marsh", description="Bog-trotting.")
    data["ladder"].update(
        words=[
            "Abysmal",
            "Terrible",
            "Poor",
            "Mediocre",
            "Fine",
            "Good",
            "Great",
            "Superb",
            "Legendary",
        ],
        fair="Fine",
    )
    data["attributes"].update(names=["Grit", "Wits"], default="Fine")
    data["skills"].update(pricing="flat", default="Poor")
    data["numbers"].update(attribute_levels=2, skill_levels=8)
    data["harm"].update(
        track=[{"name": "Muddied", "damage": "1+", "penalty": 0, "boxes": 3}],
        damage_capacity_attribute="Grit",
        muscle_attribute="Grit",
        graze_limits=[],
    )
    data["advancement"]["skill_steps"] = {"Terrible": 1, "Fine": 2, "Good": 4}
    data["advancement"]["gm_permission_from"] = "Superb"
    data["templates"] = []
    return data


def test_a_character_file_carries_its_ruleset():
    ruleset = parse_ruleset_json(json.dumps(own_game()))
    file = {
        "ruleset": "moor-and-marsh",
        "ruleset_file": own_game(),
        "name": "Bog Bertha",
        "attributes": [{"name": "Grit", "level": "Great"}, {"name": "Wits", "level": "Poor"}],
        "skills": [{"name": "Wading", "level": "Fine"}],
    }
    result = check_text(json.dumps(file))
    assert result.exit_code == VALID, result.report
    # Grit Great, Wits Poor: 2 - 2 = 0 of 2 attribute levels; Wading Fine from Poor: 2 of 8.
    assert result.report["ruleset"] == "moor-and-marsh"
    assert result.report["pools"]["skills"] == {"budget": 8, "spent": 2}
    read = parse_character_json(json.dumps(file))
    assert read.ruleset == ruleset
    # Written back in its own words, with its ruleset, it reads the same.
    again = character_file_with_ruleset(read.character, ruleset)
    assert again["attributes"][0] == {"name": "Grit", "level": "Great"}
    assert again["skills"][0] == {"name": "Wading", "level": "Fine"}
    assert list(again)[:3] == ["format", "ruleset", "ruleset_file"]
    assert parse_character_json(json.dumps(again)).character == read.character
    # Another file's words are not this game's: Fair is no level of it.
    file["skills"][0]["level"] = "Fair"
    refused = check_text(json.dumps(file))
    assert refused.problem.startswith(
        "skills[0].level: 'Fair' is not a level: use one of Abysmal, Terrible, Poor, Mediocre, "
        "Fine, Good"
    )


def test_a_carried_ruleset_that_does_not_hold_is_refused_saying_where():
    game = own_game()
    game["ladder"]["fair"] = "Average"
    game["numbers"]["skill_levels"] = -1
    file = {"ruleset": "moor-and-marsh", "ruleset_file": game, "name": "Bertha"}
    result = check_text(json.dumps(file))
    assert result.problem == (
        "ruleset_file.ladder.fair: 'Average' must be one of the ladder's words, exactly once "
        "(and 1 more problem)"
    )
    file["ruleset_file"] = own_game()
    file["ruleset"] = "mudge"
    with pytest.raises(CharacterFileError, match=r"ruleset_file\.slug: is 'moor-and-marsh'"):
        parse_character_json(json.dumps(file))


@pytest.mark.django_db
def test_the_check_endpoint_takes_a_ruleset_upload(django_user_model):
    user = django_user_model.objects.create_user("checker")
    _, token = api_token_create(user=user, name="script")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    character = json.dumps({"ruleset": "moor-and-marsh", "name": "Bertha"}).encode()
    url = reverse("character_check")
    response = api.post(url, {"file": _upload(character), "ruleset": _upload(own_game())})
    assert response.status_code == 200, response.content
    assert response.json()["ruleset"] == "moor-and-marsh"
    # Without the ruleset the file names an unknown one.
    assert api.post(url, {"file": _upload(character)}).status_code == 400
    bad = own_game()
    bad["ladder"]["words"][5] = "Fine"  # two Fines
    bad["skills"]["pricing"] = "per_rank"
    refused = api.post(url, {"file": _upload(character), "ruleset": _upload(bad)})
    assert refused.status_code == 400
    assert [(e["where"], e["code"]) for e in refused.json()["errors"]] == [
        ("ruleset.ladder.words[5]", "unreadable"),
        ("ruleset.ladder.fair", "unreadable"),
        ("ruleset.skills.pricing", "unreadable"),
    ]


def _upload(content):
    from django.core.files.uploadedfile import SimpleUploadedFile

    if not isinstance(content, bytes):
        content = json.dumps(content).encode()
    return SimpleUploadedFile("file.json", content, "application/json")


@pytest.fixture(scope="module")
def hrolf(extended):
    """Foundry sample 06, read for the Extended-ladder ruleset."""
    return parse_any(
        LEGEND.read_bytes(), default_ruleset=extended.slug, rulesets={extended.slug: extended}
    ).character


class TestTheExtendedLadder:
    def test_the_legend_is_read_in_its_ladder_words(self, hrolf, extended):
        file = write_character(hrolf, extended.ladder)
        assert [(a["name"], a["level"]) for a in file["attributes"]] == [
            ("Brawn", "Legendary"),
            ("Agility", "Heroic"),
            ("Stamina", "Superb"),
            ("Reasoning", "Mediocre"),
            ("Perception", "Fair"),
            ("Will", "Abysmal"),
        ]

    def test_it_prices_with_no_level_out_of_range(self, hrolf, extended):
        report = build_report(hrolf, extended).to_json()
        codes = [issue["code"] for issue in report["errors"] + report["warnings"]]
        assert "level_out_of_range" not in codes
        # Fudge Basics' 4 free attribute levels: +5 +4 +3 -1 +0 -4 from Fair = 7 spent.
        assert report["pools"]["attributes"] == {"budget": 4, "spent": 7}
        # On the standard ladder the same build is out of range (Legendary at creation).
        standard = build_report(hrolf, BUILTIN["fudge-basics"]).to_json()
        assert "level_out_of_range" in [e["code"] for e in standard["errors"]]

    def test_it_prints(self, hrolf, extended, tmp_path):
        path = tmp_path / "hrolf.json"
        path.write_text(json.dumps(character_file_with_ruleset(hrolf, extended)))
        pdf = tmp_path / "hrolf.pdf"
        code, _, err = commands.run_command(
            "render_sheet", path, "-o", pdf, "--reference", "--flat"
        )
        assert (code, err) == (0, ""), err
        sheet, reference = texts(pdf.read_bytes())
        for words in ("Brawn: Legendary +5", "Agility: Heroic +4", "Two-handed Axe: Legendary +5"):
            assert words in sheet, words
        assert "Legendary+" not in sheet and "out of range" not in sheet
        assert "Superb → Heroic" in reference

    def test_the_foundry_actor_carries_the_ladder(self, hrolf, extended):
        actor = write_actor(hrolf, ruleset=extended)
        (ladder,) = [item for item in actor["items"] if item["type"] == "traitladder"]
        assert ladder["system"]["traits"][:3] == [
            {"name": "Legendary", "value": 5},
            {"name": "Heroic", "value": 4},
            {"name": "Superb", "value": 3},
        ]
        again = parse_any(
            json.dumps(actor), default_ruleset=extended.slug, rulesets={extended.slug: extended}
        ).character
        assert again.attributes == hrolf.attributes
