"""Issue 28: nothing is lost on the way in. A file holding every field of the public contract
(/work/shared/spec/character-file.md), as a character file and as the Foundry actor Fairsheet
writes for it, goes in through each door (the command line, the import page, the API) and the
export that comes out is the file, field for field."""

import copy
import json

import pytest
from django.core.cache import cache
from django.urls import reverse

from characters.models import Character
from rules.charfile import read_character, write_character
from rules.foundry import write_actor
from tests.builder_fixtures import *  # noqa: F403
from tests.commands import run_command
from tests.test_api import bearer, token  # noqa: F401

# Every field the contract names, each with a value that is not its default.
EVERY_FIELD = {
    "format": "fairsheet.character/1",
    "ruleset": "mudge",
    "house_rules": {"skill_levels": 50, "attribute_levels": 7},
    "name": "Every Field",
    "player": "Sam",
    "concept": "A file with every field of the contract",
    "race": "Halfling",
    "scale": {"strength": -2, "mass": -2},
    "attributes": [{"name": "Strength", "level": "Good"}, {"name": "Mana", "level": "Fair"}],
    "skills": [
        {"name": "Climbing", "level": "Good", "difficulty": "average"},
        {"name": "Elvish", "level": "Fair", "difficulty": "hard"},
        {"name": "Juggling", "level": "Good", "defined_in_play": True},
    ],
    "gifts": [{"name": "Magery", "cost": 2}, {"name": "Luck"}],
    "faults": [{"name": "Curious", "value": 0.5}, {"name": "Greedy"}],
    "powers": [
        {"name": "Fireball", "kind": "spell", "level": "Fair", "difficulty": "very_hard"},
        {"name": "Flight", "kind": "superpower", "cost": 3},
    ],
    "equipment": [
        {"name": "Staff", "kind": "weapon", "damage": 2},
        {"name": "Mail", "kind": "armour", "armour": 2, "notes": "heavy"},
        {"name": "Rope", "kind": "gear"},
    ],
    "meta_points": 3,
    "experience": 5,
    "notes": "free text\n\nsecond paragraph",
    "personality": {"What does he want?": "A quiet pipe."},
}
# The same character in play: a ledger that leaves 3 XP (Mudge 5.2: Fair to Good is 2 XP).
WITH_LEDGER = copy.deepcopy(EVERY_FIELD) | {
    "experience": 3,
    "advancement": [
        {"award": 5, "note": "Session 1"},
        {
            "spend": 2,
            "raise": {"list": "skills", "name": "Climbing", "from": "Fair", "to": "Good"},
        },
    ],
}
FILES = {"no ledger": EVERY_FIELD, "ledger": WITH_LEDGER}
DOORS = ("command", "page", "api")
SHAPES = ("file", "foundry")


def as_shape(file: dict, shape: str) -> dict:
    if shape == "file":
        return file
    return json.loads(json.dumps(write_actor(read_character(file).character)))


def through(door: str, data: dict, *, client, api_token, tmp_path) -> dict:
    """The data imported through `door` and exported again as a character file."""
    text = json.dumps(data)
    if door == "command":
        source, out = tmp_path / "in.json", tmp_path / "out.json"
        source.write_text(text)
        code, _, err = run_command("export_character", source, "--to", "fairsheet", "-o", out)
        assert (code, err) == (0, "")
        return json.loads(out.read_text())
    if door == "page":
        response = client.post(reverse("character_import"), {"text": text})
        assert response.status_code == 302
        character = Character.objects.get()
        return client.get(reverse("character_export", args=[character.pk])).json()
    response = client.post(
        reverse("character_import"), text, "application/json", **bearer(api_token)
    )
    assert response.status_code == 201, response.content
    assert response.json()["not_mapped"] == []
    export = client.get(reverse("character_export", args=[response.json()["id"]]))
    return export.json()


def test_the_files_are_written_as_fairsheet_writes_them():
    for file in FILES.values():
        assert write_character(read_character(file).character) == file


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("door", DOORS)
@pytest.mark.parametrize("name", FILES)
def test_every_field_survives_each_door(name, door, shape, player_client, token, tmp_path):  # noqa: F811
    cache.clear()  # the API's throttle counts in the cache
    file = FILES[name]
    exported = through(
        door, as_shape(file, shape), client=player_client, api_token=token, tmp_path=tmp_path
    )
    assert exported == file
