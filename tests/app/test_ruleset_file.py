"""The ruleset file (docs/ruleset-file.md): a built-in ruleset written as a file and read back
is the same ruleset, and prices every character exactly as the built-in does (the samples
and a few hundred generated ones); nonsense is refused with every field and reason at once;
the schema is served beside the character file's."""

import html
import json
import random
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from jsonschema import Draft202012Validator

from characters.forms.designer import SEPARATOR
from rules.character import Character, Equipment, Fault, Gift, Power, Trait
from rules.charfile import parse_character_json
from rules.report import build_report
from rules.ruleset_file import (
    dumps_ruleset,
    move_to_ladder,
    parse_ruleset_json,
    read_ruleset,
    ruleset_problems,
    ruleset_to_json,
)
from rules.ruleset_file.file_format import MAX_PROBLEMS
from rules.rulesets import BUILTIN, DIFFICULTIES, LEVELS, Ruleset
from tests.support import commands

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "rules" / "samples").glob("*.json"))
SCHEMA = json.loads((ROOT / "docs" / "ruleset-file.schema.json").read_text())
GENERATED = 300  # characters, spread over the four rulesets


def exported(slug: str) -> Ruleset:
    """The built-in as export_ruleset writes it, read back."""
    code, out, err = commands.run_command("export_ruleset", slug)
    assert (code, err) == (0, "")
    return parse_ruleset_json(out)


@pytest.fixture(scope="module")
def reloaded() -> dict[str, Ruleset]:
    return {slug: exported(slug) for slug in BUILTIN}


@pytest.mark.parametrize("slug", BUILTIN)
def test_a_builtin_read_back_is_the_same_ruleset(slug, reloaded):
    assert reloaded[slug] == BUILTIN[slug]
    assert Draft202012Validator(SCHEMA).is_valid(ruleset_to_json(BUILTIN[slug]))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.stem)
def test_every_sample_gets_the_same_report(path, reloaded):
    character = parse_character_json(path.read_bytes()).character
    builtin = build_report(character, BUILTIN[character.ruleset]).to_json()
    assert build_report(character, reloaded[character.ruleset]).to_json() == builtin
    assert builtin["pools"]  # a real priced report, not an unreadable one


def generated_character(rng: random.Random, ruleset: Ruleset) -> Character:
    """A character anyone might build, rule-breaking or not: levels across the whole ladder,
    catalogue and made-up names, difficulties, gifts and faults at catalogue or own prices."""
    catalog = ruleset.catalog
    attribute_names = ruleset.attribute_names or catalog.attributes or ("Brawn", "Wits")
    level = lambda: rng.randint(-4, 6)  # noqa: E731
    attributes = tuple(
        Trait(name, level())
        for name in rng.sample(attribute_names, rng.randint(0, len(attribute_names)))
    )
    skill_names = [s.name for s in catalog.skills] + ["Basket Weaving", "Juggling"]
    skills = tuple(
        Trait(name, level(), rng.choice((None, *DIFFICULTIES)), rng.random() < 0.05)
        for name in rng.sample(skill_names, min(len(skill_names), rng.randint(0, 14)))
    )
    gifts = tuple(
        Gift(g.name, rng.choice((None, 1, 2)))
        for g in rng.sample(catalog.gifts, min(len(catalog.gifts), rng.randint(0, 4)))
    )
    faults = tuple(
        Fault(f.name, rng.choice((None, 1)))
        for f in rng.sample(catalog.faults, min(len(catalog.faults), rng.randint(0, 4)))
    )
    powers = tuple(
        Power(f"Power {i}", rng.choice(ruleset.power_kinds), rng.choice((None, level())))
        for i in range(rng.randint(0, 2))
    )
    return Character(
        ruleset=ruleset.slug,
        name="Generated",
        attributes=attributes,
        skills=skills,
        gifts=gifts,
        faults=faults,
        powers=powers,
        equipment=(Equipment("Club", "weapon", damage=rng.randint(0, 3)),),
        meta_points=rng.choice((None, 0, 3, 9)),
        scale_strength=rng.randint(-2, 2) if ruleset.has_scale else 0,
    )


def test_generated_characters_get_the_same_reports(reloaded):
    rng = random.Random(29)
    slugs = list(BUILTIN)
    valid = 0
    for index in range(GENERATED):
        slug = slugs[index % len(slugs)]
        character = generated_character(rng, BUILTIN[slug])
        builtin = build_report(character, BUILTIN[slug]).to_json()
        assert build_report(character, reloaded[slug]).to_json() == builtin, index
        valid += builtin["valid"]
    # Both kinds were compared: some build breaks a rule, some is valid.
    assert 0 < valid < GENERATED


def mudge_file() -> dict:
    return ruleset_to_json(BUILTIN["mudge"])


def test_nonsense_is_refused_with_every_field_and_reason_at_once():
    data = mudge_file()
    data["ladder"]["words"][5] = "Fair"  # two Fairs
    data["skills"]["difficulties"]["hard"]["cost_at_fair"] = 1  # below average's 2
    data["numbers"]["skill_levels"] = -1
    data["harm"]["track"][0]["boxes"] = 0
    assert ruleset_problems(data) == [
        ("ladder.words[5]", "'Fair' appears twice"),
        ("ladder.fair", "'Fair' must be one of the ladder's words, exactly once"),
        (
            "skills.difficulties.hard.cost_at_fair",
            "the cost table must increase with difficulty: hard costs 1, no more than average (2)",
        ),
        ("harm.track[0].boxes", "must be from 1 to 20, not 0"),
        ("numbers.skill_levels", "cannot be negative (-1)"),
    ]


@pytest.mark.parametrize(
    ("change", "where", "message"),
    [
        (lambda d: d.update(format="fairsheet.ruleset/9"), "format", "must be"),
        (lambda d: d.update(slug="My Game"), "slug", "lowercase letters, digits and hyphens"),
        (lambda d: d["ladder"].update(fair="Average"), "ladder.fair", "exactly once"),
        (lambda d: d["ladder"].update(fair="Abysmal"), "ladder.fair", "a word below it"),
        (lambda d: d["ladder"].update(creation_max="Legendary"), "ladder.creation_max", "below"),
        (
            lambda d: d["ladder"].update(creation_min="Superb", creation_max="Good"),
            "ladder.creation_min",
            "above",
        ),
        (lambda d: d["attributes"].update(default="Fabulous"), "attributes.default", "not a level"),
        (
            lambda d: d["skills"].update(pricing="per_rank"),
            "skills.pricing",
            "tokens a rank is not for the levels system: use flat from a default or by difficulty",
        ),
        (lambda d: d["numbers"].update(free_gifts=-1), "numbers.free_gifts", "at least zero"),
        (
            lambda d: d["numbers"].update(attribute_caps={"Heroic": 1}),
            "numbers.attribute_caps",
            "not a level",
        ),
        (
            lambda d: d["harm"].update(muscle_attribute="Brawn"),
            "harm.muscle_attribute",
            "not one of",
        ),
        (lambda d: d["terms"]["lists"].pop("skills"), "terms.lists", "needs 'skills'"),
        (
            lambda d: d["catalogue"]["skills"].append({"name": "Climbing"}),
            "catalogue.skills[",
            "appears twice",
        ),
        (lambda d: d["sections"].pop("creation"), "sections.creation", "is required"),
        (lambda d: d.update(colour="red"), "colour", "not a field"),
        (
            lambda d: d["advancement"]["skill_steps"].update(Great=3),
            "advancement.skill_steps.Great",
            "must not fall as the level rises: 3 is less than 4 at Good",
        ),
    ],
)
def test_each_kind_of_nonsense_names_its_field(change, where, message):
    data = mudge_file()
    change(data)
    problems = ruleset_problems(data)
    assert any(w.startswith(where) and message in m for w, m in problems), problems


def test_a_file_of_thirty_thousand_wrong_words_is_told_in_a_short_page(client, django_user_model):
    data = mudge_file()
    data["slug"] = "many-words"
    data["advancement"]["skill_steps"] = {f"Step{n}": 1 for n in range(30_000)}
    problems = ruleset_problems(data)
    assert len(problems) == MAX_PROBLEMS + 1 == 51
    assert problems[0] == (
        "advancement.skill_steps.Step0",
        "'Step0' is not a level: use one of Abysmal, Terrible, Poor, Mediocre, Fair, Good, "
        "Great, Superb, Legendary or Legendary+N",
    )
    assert problems[-2][0] == "advancement.skill_steps.Step49"
    assert problems[-1] == ("", "… and 29,950 more problems")
    # The designer's import says the same in a page of a few kilobytes.
    client.force_login(django_user_model.objects.create_user("many-words-gm"))
    upload = SimpleUploadedFile("many.json", json.dumps(data).encode())
    response = client.post(reverse("ruleset_designs"), {"action": "import", "file": upload})
    assert response.status_code == 400
    assert len(response.content) < 100_000
    page = html.unescape(response.content.decode())
    assert page.count("is not a level: use one of") == MAX_PROBLEMS
    assert f"Advancement{SEPARATOR}From Step49: 'Step49' is not a level" in page
    assert "Step50" not in page
    assert "<li>The file: … and 29,950 more problems</li>" in page
    # One more than the bound is one more problem, in the singular.
    data["advancement"]["skill_steps"] = {f"Step{n}": 1 for n in range(MAX_PROBLEMS + 1)}
    assert ruleset_problems(data)[-1] == ("", "… and 1 more problem")


def test_a_new_ladder_keeps_every_level_in_its_place():
    """Levels are relative to Fair: a word renamed, one added below the bottom and one above
    the top, and every level word of the file names the same level on the new ladder."""
    data = mudge_file()
    old = data["ladder"]["words"]
    words = ["Dreadful", *old[:4], "Fine", *old[5:], "Mythic"]
    moved = move_to_ladder(data, words, 5)
    assert data["ladder"]["words"] == old  # the file given is left as it was
    ruleset, mudge = read_ruleset(moved), BUILTIN["mudge"]
    assert ruleset.ladder.words == tuple(words) and ruleset.ladder.name(0) == "Fine"
    for field in ("creation_min", "creation_max", "attribute_default", "skill_default"):
        assert getattr(ruleset, field) == getattr(mudge, field), field
    assert ruleset.attribute_caps == mudge.attribute_caps
    assert ruleset.advancement.skill_steps == mudge.advancement.skill_steps
    assert ruleset.difficulty_defaults == mudge.difficulty_defaults
    assert moved["advancement"]["skill_steps"]["Fine"] == 2
    assert moved["templates"][0]["minimum_attributes"]["Intelligence"] == "Fine"
    # A level the new ladder has no word for keeps its old one, refused where it stands.
    short = move_to_ladder(data, old[1:], 3)
    assert ("numbers.power_default", "'Abysmal' is not a level") in [
        (w, m.split(":")[0]) for w, m in ruleset_problems(short)
    ]
    # A ladder that does not hold is put in as it is, for the reader to refuse.
    assert ruleset_problems(move_to_ladder(data, ["Low", "Low", "High"], 1))[:2] == [
        ("ladder.words[1]", "'Low' appears twice"),
        ("ladder.fair", "'Low' must be one of the ladder's words, exactly once"),
    ]


def test_text_that_is_not_a_file_is_refused_saying_where():
    with pytest.raises(ValueError, match="line 1 column 2"):
        parse_ruleset_json("{,}")


def test_the_file_is_stable():
    """Written, read and written again, a ruleset gives the same text (a fixed point)."""
    for ruleset in BUILTIN.values():
        text = dumps_ruleset(ruleset)
        assert dumps_ruleset(parse_ruleset_json(text)) == text


def test_export_ruleset_writes_a_file(tmp_path):
    out = tmp_path / "mudge.json"
    code, stdout, _ = commands.run_command("export_ruleset", "mudge", "-o", str(out))
    assert code == 0 and "Wrote" in stdout
    data = json.loads(out.read_text())
    assert (data["format"], data["slug"], data["system"]) == (
        "fairsheet.ruleset/1",
        "mudge",
        LEVELS,
    )
    assert data["numbers"]["skill_levels"] == 45 and data["skills"]["pricing"] == "by_difficulty"


def test_the_schema_is_served_beside_the_character_files(client):
    Draft202012Validator.check_schema(SCHEMA)
    response = client.get(reverse("ruleset_file_schema"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/schema+json"
    assert json.loads(response.content)["$id"] == "urn:fairsheet:ruleset-file:1"
    assert client.get(reverse("character_file_schema")).status_code == 200
