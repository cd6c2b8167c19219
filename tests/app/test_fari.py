"""A character for Fari (issue 41; docs/exports.md, "Fari"): every sample character, of the
rule texts and of each built-in ruleset's designer, exports as a Fari character that holds to
the structure Fari's own types give its files (tests/support/fixtures/fari-character-v6.
schema.json, written from lib/domains/character/types.tsx), with its traits' ladder levels
as the numbers 4dF is added to, its points as a point counter and its wound track as a slot
tracker of one box a box; the export page is for whoever may see the character."""

import json
import uuid
from html import escape
from pathlib import Path

import pytest
from django.test import Client
from django.urls import reverse
from jsonschema import Draft202012Validator

from characters.selectors.rulesets import sample_character
from rules.character import Character, Equipment, Trait
from rules.charfile import parse_character_json
from rules.combat import wound_track
from rules.fari import FARI_VERSION, write_fari
from rules.house_rules import apply_house_rules
from rules.ladder import GOOD
from rules.rulesets import BUILTIN, TOKENS
from tests.support.play_fixtures import *  # noqa: F403

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "rules" / "samples"
FARI = Draft202012Validator(
    json.loads(
        (ROOT / "tests" / "support" / "fixtures" / "fari-character-v6.schema.json").read_text()
    )
)
SAMPLE_KEYS = [*sorted(p.stem for p in SAMPLES.glob("*.json")), *BUILTIN]


def sample(key: str) -> Character:
    if key in BUILTIN:
        return sample_character(BUILTIN[key])
    return parse_character_json((SAMPLES / f"{key}.json").read_text()).character


def exported(character: Character, **kwargs) -> dict:
    """The export as Fari reads it: through JSON text."""
    kwargs.setdefault("identity", "file:test")
    return json.loads(json.dumps(write_fari(character, **kwargs)))


def assert_fari_reads(fari: dict) -> None:
    errors = sorted(FARI.iter_errors(fari), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    ids = [fari["id"]]
    for page in fari["pages"]:
        ids.append(page["id"])
        for row in page["rows"]:
            assert row["columns"], "a row with no column"
            for column in row["columns"]:
                for section in column["sections"]:
                    assert section["blocks"], f"an empty section: {section['label']}"
                    ids += [section["id"], *(block["id"] for block in section["blocks"])]
    assert all(uuid.UUID(value).version == 5 for value in ids)
    assert len(set(ids)) == len(ids)


def blocks(fari: dict, section_label: str) -> list[dict]:
    for page in fari["pages"]:
        for row in page["rows"]:
            for column in row["columns"]:
                for section in column["sections"]:
                    if section["label"] == section_label:
                        return section["blocks"]
    raise AssertionError(f"no section {section_label}")


@pytest.mark.parametrize("key", SAMPLE_KEYS)
def test_every_sample_character_exports_as_fari_reads_it(key):
    character = sample(key)
    ruleset = apply_house_rules(BUILTIN[character.ruleset], character.house_rules)
    fari = exported(character, group="The Watch", updated=1_765_000_000)
    assert_fari_reads(fari)
    assert (fari["name"], fari["group"], fari["version"]) == (
        escape(character.name),
        "The Watch",
        6,
    )
    assert (fari["fariType"], fari["lastUpdated"], fari["wide"]) == (
        "character",
        1_765_000_000,
        False,
    )
    # Every attribute and skill a Skill block: its level the number 4dF is added to.
    skills = {b["label"]: b for b in blocks(fari, ruleset.terms.title("skills"))}
    for trait in character.skills:
        block = skills[escape(trait.name)]  # a label is HTML to Fari
        assert (block["type"], block["value"]) == ("Skill", str(trait.level))
        assert block["meta"]["commands"] == ["4dF"]
        assert block["meta"]["helperText"].startswith(ruleset.word(trait.level))
    if character.attributes:
        attributes = {
            b["label"]: b["value"] for b in blocks(fari, ruleset.terms.title("attributes"))
        }
        for trait in character.attributes:
            assert attributes[escape(trait.name)] == str(trait.level)
    # The points spent at the table: the main point counter.
    counters = [b for b in blocks(fari, "Points") if b["type"] == "PointCounter"]
    assert len(counters) == 1 and counters[0]["meta"]["isMainPointCounter"] is True
    if ruleset.system == TOKENS:
        assert counters[0]["label"] == "Saved tokens"
    else:
        points = (
            ruleset.meta_points_start if character.meta_points is None else character.meta_points
        )
        assert counters[0]["value"] == str(points)
        assert counters[0]["label"].lower() == ruleset.terms.points.lower()
    # The wound track: a slot tracker a level, a box a box, none ticked.
    track = blocks(fari, ruleset.harm.title)
    levels = wound_track(character, ruleset)
    assert [b["label"] for b in track] == [level.name for level in levels]
    assert [len(b["value"]) for b in track] == [level.boxes for level in levels]
    assert all(
        box == {"label": str(n), "checked": False}
        for b in track
        for n, box in enumerate(b["value"], 1)
    )


def test_brogos_sheet_in_fari():
    fari = exported(sample("brogo"))
    skills = {b["label"]: b for b in blocks(fari, "Skills")}
    assert (
        skills["Climbing"]["value"] == "1"
        and skills["Climbing"]["meta"]["helperText"] == "Good, average"
    )
    assert skills["Find Secret Passages"]["value"] == "-3"
    assert skills["Move Quietly"]["value"] == "3"
    assert skills["Elvish"]["meta"]["helperText"] == "Fair, hard"
    points = blocks(fari, "Points")
    assert [(b["type"], b["label"], b["value"]) for b in points] == [
        ("PointCounter", "Meta points", "0"),
        ("Numeric", "Experience", "0"),
        ("Text", "Scale", "Strength -2, Mass -2"),
    ]
    assert points[0]["meta"] == {"isMainPointCounter": True, "max": "5"}  # Mudge 1.36
    wounds = {b["label"]: b for b in blocks(fari, "Wounds")}
    assert len(wounds["Scratch"]["value"]) == 4  # Toughness adds a box (Mudge 6.3)
    assert wounds["Hurt"]["meta"]["helperText"] == "Damage 3,4; -1"
    gifts = {b["label"]: b["value"] for b in blocks(fari, "Gifts")}
    assert gifts["Lucky"] == "Costs 2 gifts." and gifts["Night Vision"] == ""
    factors = {b["label"]: b["value"] for b in blocks(fari, "Damage factors")}
    assert factors["Staff (offensive)"] == "+1 (Strength +1, Strength Scale -2, Weapon +2)"
    assert factors["Defensive"] == "-1 + Armour (Constitution +1, Mass Scale -2)"
    notes = blocks(fari, "Personality and notes")
    assert notes[-1]["label"] == "Notes" and "Mudge 6.3" in notes[-1]["value"]


def test_a_microfudged_hero_draws_cards():
    fari = exported(sample("lisa-benny"))
    (gunslinger,) = blocks(fari, "Fields of expertise")
    assert (gunslinger["label"], gunslinger["value"]) == ("Gunslinger", "1")
    assert gunslinger["meta"]["helperText"] == "Good, 5 cards"
    setbacks = blocks(fari, "Setbacks")
    assert setbacks[1]["meta"]["helperText"] == "2 successes; -2 cards"


def test_what_a_player_typed_is_text_to_fari():
    """Fari shows labels and texts as HTML (keeping <b>, <i>, <br>): everything is escaped,
    and a line break is a <br>."""
    character = Character(
        ruleset="mudge",
        name="<b>Vex</b>",
        skills=(Trait("<img src=x onerror=alert(1)>", GOOD, "average"),),
        equipment=(Equipment("Rope & hook", notes="50 ft\n<knotted>"),),
        notes="Line one\nLine two",
    )
    fari = exported(character)
    assert_fari_reads(fari)
    assert (fari["name"], fari["group"]) == ("&lt;b&gt;Vex&lt;/b&gt;", "Mudge")
    (skill,) = blocks(fari, "Skills")
    assert skill["label"] == "&lt;img src=x onerror=alert(1)&gt;"
    (rope,) = blocks(fari, "Equipment")
    assert (rope["label"], rope["value"]) == ("Rope &amp; hook", "50 ft<br>&lt;knotted&gt;")
    assert blocks(fari, "Personality and notes")[-1]["value"] == "Line one<br>Line two"


def test_the_same_character_keeps_its_ids_and_another_does_not():
    brogo = sample("brogo")
    first, again = exported(brogo, identity="site:a:1"), exported(brogo, identity="site:a:1")
    other = exported(brogo, identity="site:a:2")
    assert first == again
    assert first["id"] != other["id"]
    assert blocks(first, "Skills")[0]["id"] != blocks(other, "Skills")[0]["id"]


def test_a_portrait_goes_with_it():
    fari = exported(sample("brogo"), image="data:image/jpeg;base64,/9j/AAAA")
    portrait = blocks(fari, "Character")[0]
    assert (portrait["type"], portrait["value"]) == ("Image", "data:image/jpeg;base64,/9j/AAAA")
    assert_fari_reads(fari)


def test_the_export_page(tess, player, gm, outsider):
    client = Client()
    client.force_login(player)
    response = client.get(reverse("character_export_fari", args=[tess.pk]))
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == 'attachment; filename="tess.fari.json"'
    fari = json.loads(response.content)
    assert_fari_reads(fari)
    assert (fari["name"], fari["group"], fari["version"]) == ("Tess", "The Watch", FARI_VERSION)
    assert fari["lastUpdated"] == int(tess.updated_at.timestamp())
    climbing = next(b for b in blocks(fari, "Skills") if b["label"] == "Climbing")
    assert climbing["value"] == "1"
    assert blocks(fari, "Points")[0]["value"] == "3"  # Mudge 1.36: three to start
    assert client.get(reverse("character_export_fari", args=[tess.pk])).content == response.content
