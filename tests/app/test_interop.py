"""Issue 28: nothing is lost on the way in. A file holding every field of the public contract
(/work/shared/spec/character-file.md), as a character file and as the Foundry actor Fairsheet
writes for it, goes in through each door (the command line, the import page, the API) and the
export that comes out is the file, field for field."""

import base64
import copy
import io
import json
from pathlib import Path

import pytest
from django.core.cache import cache
from django.urls import resolve, reverse
from PIL import Image

from characters.adapters import portrait_bytes, portrait_data_url
from characters.models import Character
from characters.services.portraits import portrait_set
from characters.services.updates import character_update_from_foundry
from rules.charfile import CharacterFileError, read_character, write_character
from rules.foundry import parse_any, write_actor
from rules.ladder import signed
from tests.app.test_api import bearer, token  # noqa: F401
from tests.app.test_portraits_sharing import picture
from tests.app.test_review import approved
from tests.rules.test_foundry import assert_foundry_accepts
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.commands import run_command

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


def through(door: str, data: dict, *, client, api_token, tmp_path, clean=True) -> dict:
    """The data imported through `door` and exported again as a character file; with
    `clean`, the import must report nothing lost."""
    text = json.dumps(data)
    if door == "command":
        source, out = tmp_path / "in.json", tmp_path / "out.json"
        source.write_text(text)
        code, _, err = run_command("export_character", source, "--to", "fairsheet", "-o", out)
        assert code == 0 and (err == "" or not clean)
        return json.loads(out.read_text())
    if door == "page":
        response = client.post(reverse("character_import"), {"text": text})
        assert response.status_code == 302
        pk = resolve(response.url).kwargs["pk"]
    else:
        response = client.post(
            reverse("character_import"), text, "application/json", **bearer(api_token)
        )
        assert response.status_code == 201, response.content
        assert response.json()["not_mapped"] == [] or not clean
        pk = response.json()["id"]
    return client.get(reverse("character_export", args=[pk])).json() | {"_pk": pk}


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
    exported.pop("_pk", None)
    assert exported == file


# -- a Foundry round trip that updates rather than duplicates -----------------------------------

SHARED = Path("/work/shared/foundry-samples")
BROGO = (Path(__file__).resolve().parents[2] / "rules" / "samples" / "brogo.json").read_text()
DANGER_SENSE_ID = "dGSZo8T5ZbxJ1Vbq"  # an id as a compendium item brings it


def import_brogo(client) -> Character:
    assert client.post(reverse("character_import"), {"text": BROGO}).status_code == 302
    return Character.objects.get()


def foundry_export(client, character) -> dict:
    return client.get(reverse("character_export_foundry", args=[character.pk])).json()


def played_in_foundry(actor: dict) -> dict:
    """What a session in Foundry does: Bow raised, a gift dragged in from a compendium, a
    line added to the notes, a meta point granted... and nothing else touched."""
    actor = copy.deepcopy(actor)
    (bow,) = [i for i in actor["items"] if i["name"] == "Bow"]
    bow["system"]["level"] += 1
    actor["items"].append(
        {
            "_id": DANGER_SENSE_ID,
            "name": "Danger Sense",
            "type": "gift",
            "system": {"description": "<p>Warns of danger.</p>"},
            "effects": [],
        }
    )
    actor["system"]["notes"] += "<p><strong>Session 2:</strong> owes the ferryman a favour.</p>"
    actor["system"]["fp"] = 1
    return actor


def ids_by_name(actor: dict) -> dict:
    return {(item["type"], item["name"]): item["_id"] for item in actor["items"]}


def test_an_actor_from_your_character_offers_an_update_and_keeps_every_id(player_client):
    brogo = import_brogo(player_client)
    played = played_in_foundry(foundry_export(player_client, brogo))
    preview = player_client.post(reverse("character_import"), {"text": json.dumps(played)})
    html = preview.content.decode()
    assert preview.status_code == 200 and Character.objects.count() == 1
    assert "Update <bdi>Brogo the Scout</bdi> from Foundry?" in html
    changes = [str(c) for c in preview.context["update"].changes]
    assert changes == [
        "meta points: 0 → 1",
        "notes changed",
        "skill Bow: Good, average → Great, average",
        "added gift Danger Sense (catalogue cost)",
    ]
    version = brogo.version
    response = player_client.post(
        reverse("character_import"),
        {"text": json.dumps(played), "update": "1", "version": version},
    )
    assert response.status_code == 302
    brogo.refresh_from_db()
    # One recorded change, on the same character: no copy.
    assert Character.objects.count() == 1 and brogo.version == version + 1
    event = brogo.events.get(action="foundry_updated")
    assert event.after["changes"] == changes
    assert brogo.notes.endswith("Staff: medium, +2.\n\nSession 2: owes the ferryman a favour.")
    again = foundry_export(player_client, brogo)
    assert_foundry_accepts(again)
    assert ids_by_name(again) == ids_by_name(played)
    assert again["_id"] == played["_id"]
    # Nothing changed since: importing the re-export is no change at all.
    preview = player_client.post(reverse("character_import"), {"text": json.dumps(again)})
    assert preview.context["update"].changes == ()


def test_sample_09_updates_brogo_and_a_re_export_gives_its_39_ids(player_client, player):
    brogo = import_brogo(player_client)
    actor = json.loads((SHARED / "09-fairsheet-brogo-played.json").read_text())
    actor["flags"]["fairsheet"]["character_id"] = brogo.pk  # as the site's export writes it
    update = character_update_from_foundry(
        character=brogo, actor=player, text=json.dumps(actor), expected_version=brogo.version
    )
    assert "added gift Danger Sense (catalogue cost)" in [str(c) for c in update.changes]
    again = foundry_export(player_client, brogo)
    assert len(actor["items"]) == 39
    # Every item keeps its id (Danger Sense, added in Foundry, moves up among the gifts).
    assert ids_by_name(again) == ids_by_name(actor)


def test_an_approved_build_changed_in_foundry_goes_back_to_the_gm(client, campaign, player, gm):
    client.force_login(player)
    url = reverse("character_import")
    assert client.post(url, {"text": BROGO, "campaign": campaign.pk}).status_code == 302
    brogo = Character.objects.get()
    approved(brogo, gm, reason="sample character")
    played = played_in_foundry(foundry_export(client, brogo))
    preview = client.post(url, {"text": json.dumps(played)})
    assert preview.context["update"].needs_review
    assert "once updated it goes back to the GM for review" in preview.content.decode()
    client.post(url, {"text": json.dumps(played), "update": "1", "version": brogo.version})
    brogo.refresh_from_db()
    assert brogo.state == Character.State.SUBMITTED
    assert list(brogo.events.values_list("action", flat=True).order_by("id"))[-2:] == [
        "foundry_updated",
        "submitted",
    ]
    # Play alone (a point spent, a note) needs no review.
    brogo.state = Character.State.APPROVED
    brogo.save(update_fields=["state"])
    again = foundry_export(client, brogo)
    again["system"]["fp"] -= 1
    preview = client.post(url, {"text": json.dumps(again)})
    assert [str(c) for c in preview.context["update"].changes] == ["meta points: 1 → 0"]
    assert not preview.context["update"].needs_review


def test_as_new_imports_a_copy_and_someone_elses_actor_is_never_an_update(
    player_client, outsider, client
):
    brogo = import_brogo(player_client)
    actor = foundry_export(player_client, brogo)
    response = player_client.post(
        reverse("character_import"), {"text": json.dumps(actor), "as_new": "1"}
    )
    assert response.status_code == 302 and Character.objects.count() == 2
    client.force_login(outsider)
    response = client.post(reverse("character_import"), {"text": json.dumps(actor)})
    assert response.status_code == 302
    assert Character.objects.filter(owner=outsider).count() == 1


# -- every sample actor through every door ------------------------------------------------------

SAMPLE_ACTORS = sorted(SHARED.glob("[0-9][0-9]-*.json"))


def test_there_are_ten_samples():
    assert len(SAMPLE_ACTORS) == 10


@pytest.mark.parametrize("path", SAMPLE_ACTORS, ids=lambda path: path.stem[:2])
def test_every_sample_through_each_door(path, player_client, token, tmp_path):  # noqa: F811
    """Each door gives the same character; its Foundry export validates against the data
    models and gives back every item id the actor had (the trait ladder, which Fairsheet
    does not keep, aside)."""
    cache.clear()
    actor = json.loads(path.read_text())
    files = {
        door: through(
            door, actor, client=player_client, api_token=token, tmp_path=tmp_path, clean=False
        )
        for door in DOORS
    }
    pk = files["api"].pop("_pk")
    files["page"].pop("_pk")
    # The site names the importing user as the player of an actor that names none.
    files["command"]["player"] = files["command"]["player"] or "player"
    assert files["command"] == files["page"] == files["api"]
    assert files["api"]["experience"] == actor["system"]["ep"]
    exported = foundry_export(player_client, Character.objects.get(pk=pk))
    assert_foundry_accepts(exported)
    kept = {item["_id"] for item in exported["items"]}
    expected = {i["_id"] for i in actor["items"] if i["type"] != "traitladder" and "_id" in i}
    assert expected <= kept


def test_a_party_file_of_ten(player_client):
    """The ten samples in one list: ten drafts, one report."""
    party = [json.loads(path.read_text()) for path in SAMPLE_ACTORS]
    response = player_client.post(reverse("character_import"), {"text": json.dumps(party)})
    html = response.content.decode()
    assert response.status_code == 200
    assert "Party file: 10 of 10 imported" in html
    assert Character.objects.count() == 10
    names = [m.name for m in response.context["party"]]
    assert names == [p["name"] for p in party]


def test_a_party_member_that_cannot_be_read_is_refused_alone(client, token):  # noqa: F811
    party = [json.loads(path.read_text()) for path in SAMPLE_ACTORS]
    party[4]["type"] = "npc"  # not a character
    party[7] = {
        "format": "fairsheet.character/1",
        "ruleset": "mudge",
        "name": "Bad",
        "skills": [{"name": "X", "level": "Goood"}],
    }
    response = client.post(
        reverse("character_import"), json.dumps(party), "application/json", **bearer(token)
    )
    assert response.status_code == 201
    report = response.json()["characters"]
    assert [entry["index"] for entry in report] == list(range(10))
    refused = {entry["index"]: entry["error"] for entry in report if "error" in entry}
    assert refused == {
        4: "The file cannot be read: type: must be 'character', not 'npc': only characters import",
        7: "The file cannot be read: skills[0].level: 'Goood' is not a level: use one of "
        "Abysmal, Terrible, Poor, Mediocre, Fair, Good, Great, Superb, Legendary or "
        "Legendary+N",
    }
    assert Character.objects.count() == 8


@pytest.mark.parametrize("path", SAMPLE_ACTORS[:1] + SAMPLE_ACTORS[8:9], ids=("01", "09"))
def test_the_check_endpoint_checks_an_actor_as_it_would_import(path, client, token):  # noqa: F811
    response = client.post(
        reverse("character_check"), path.read_bytes(), "application/json", **bearer(token)
    )
    report = response.json()
    assert response.status_code == 200
    assert report["source"] == "foundry"
    assert report["ruleset"] == ("mudge" if path.stem.startswith("09") else "fudge-basics")
    assert "unknown ruleset" not in json.dumps(report)
    assert report["not_mapped"] == list(parse_any(path.read_bytes()).not_mapped)


@pytest.mark.parametrize(
    ("stem", "unarmed", "defensive"),
    [("06", "Brawn", "Stamina"), ("03", "Strength", "Vigor")],
)
def test_damage_links_are_the_sheets_damage_factors(stem, unarmed, defensive, player_client):
    """muscleweapon and damagecap naming any attribute are the character's damage
    attributes: 06's Brawn at Legendary+1 (+5) makes Unarmed +5, not 0."""
    (path,) = [p for p in SAMPLE_ACTORS if p.stem.startswith(stem)]
    actor = json.loads(path.read_text())
    (attribute_set,) = [i for i in actor["items"] if i["type"] == "attributeset"]
    levels = {a["name"]: a["level"] for a in attribute_set["system"]["attributes"]}
    response = player_client.post(reverse("character_import"), {"text": path.read_text()})
    character = Character.objects.get(pk=resolve(response.url).kwargs["pk"])
    assert character.house_rules.get("damage_capacity_attribute") == defensive
    sheet = player_client.get(reverse("character_sheet", args=[character.pk]))
    factors = sheet.context["sheet"]
    (bare,) = [f for f in factors.offensive if f.label == "Unarmed"]
    assert bare.terms[0] == (unarmed, levels[unarmed])
    assert bare.total == signed(levels[unarmed])  # Fudge Basics: bare hands +0
    assert factors.defensive[0].terms[0] == (defensive, levels[defensive])
    exported = foundry_export(player_client, character)
    (written,) = [i for i in exported["items"] if i["type"] == "attributeset"]
    assert written["system"]["damagecap"] == defensive
    assert written["system"]["muscleweapon"] == attribute_set["system"]["muscleweapon"]


def sample(stem: str) -> dict:
    (path,) = [p for p in SAMPLE_ACTORS if p.stem.startswith(stem)]
    return json.loads(path.read_text())


def read_sample(actor: dict):
    return parse_any(json.dumps(actor))


def test_quantities_and_the_duplicates_a_text_allows_are_kept():
    gear = read_sample(sample("07")).character
    assert {e.name: e.quantity for e in gear.equipment} == {
        "Trail rations": 7,
        "Dagger": 2,
        "Leather jerkin": 1,
    }
    assert [s.name for s in gear.skills][:2] == ["Language", "Language (2)"]
    assert [s.level for s in gear.skills][:2] == [1, -1]
    written = write_actor(gear)
    assert {
        i["name"]: i["system"]["quantity"] for i in written["items"] if i["type"] == "equipment"
    }["Trail rations"] == 7
    scholar = read_sample(sample("03")).character
    assert [g.name for g in scholar.gifts][:2] == [
        "Magical Talent (Scholarly Magic)",
        "Magical Talent (Scholarly Magic) (2)",
    ]


def test_a_legacy_actor_reports_its_wounds_groups_and_five_point_groups():
    report = dict(read_sample(sample("05")).report())
    assert (
        "system.wounds: current wounds (scratch 1) are not imported: mark them on the play page."
        in report["Not imported"]
    )
    left_out = report["Left out: Fairsheet has no place for these"]
    assert left_out[0].startswith("Skill groups are not imported (9 skills): Tracking, ")
    assert (
        "system.fivePoint: the five-point skill groups (Fudge's five-point character "
        "creation) are not imported; the skills they bought are." in left_out
    )


def test_notes_edited_in_foundry_win():
    imported = read_sample(sample("09"))
    assert imported.character.notes.endswith(
        "Staff: medium, +2.\n\nSession 2: owes the ferryman a favour."
    )
    assert imported.report()[0] == (
        "Changed on the way in: check these",
        ["system.notes: edited in Foundry; Foundry's notes are kept, as plain text."],
    )


def test_a_nul_in_a_description_thrown_away_does_not_refuse_the_actor():
    actor = sample("02")
    actor["items"][1]["system"]["description"] += "\x00"  # a skill's: not kept
    assert read_sample(actor).character.skills[0].name == "One-handed Sword"
    actor["items"][1]["name"] += "\x00"  # a name is kept: that one refuses it, and says where
    with pytest.raises(CharacterFileError) as refused:
        read_sample(actor)
    assert str(refused.value).startswith("items[1].name: contains a NUL character")


def test_the_portrait_goes_to_foundry_and_comes_back(player_client, player):
    """The portrait is the actor's picture and its token's, as a data: URL; imported, it is
    the new character's portrait; an update that brings the same picture back leaves it."""
    brogo = import_brogo(player_client)
    portrait_set(character=brogo, actor=player, data=picture(size=(640, 480)))
    kept = portrait_bytes(brogo)
    actor = foundry_export(player_client, brogo)
    assert actor["img"] == actor["prototypeToken"]["texture"]["src"] == portrait_data_url(brogo)
    assert_foundry_accepts(actor)
    picture_events = brogo.events.filter(action="portrait_set").count()
    brogo.refresh_from_db()
    character_update_from_foundry(
        character=brogo, actor=player, text=json.dumps(actor), expected_version=brogo.version
    )
    assert portrait_bytes(brogo) == kept
    assert brogo.events.filter(action="portrait_set").count() == picture_events

    del actor["flags"]["fairsheet"]["character_id"]  # someone else's copy: a new character
    response = player_client.post(reverse("character_import"), {"text": json.dumps(actor)})
    assert response.status_code == 302
    copy_of = Character.objects.exclude(pk=brogo.pk).get()
    with Image.open(io.BytesIO(portrait_bytes(copy_of))) as image:
        assert (image.format, image.size) == ("JPEG", (480, 480))


def test_a_picture_that_stays_in_the_foundry_world_is_reported():
    imported = parse_any((SHARED / "02-objective-swordsman.json").read_text())
    assert imported.image == ""
    (line,) = [line for line in imported.not_mapped if line.startswith("img:")]
    assert "worlds/fudge-playtesting/portraits/corwin.webp" in line
    assert "upload it as the portrait" in line
    default = parse_any((SHARED / "01-new-default-character.json").read_text())
    assert not [line for line in default.not_mapped if "img" in line]  # Foundry's placeholder


def test_a_picture_the_portrait_rules_refuse_is_left_out_with_the_reason(player_client):
    actor = write_actor(read_character(EVERY_FIELD).character)
    actor["img"] = "data:image/png;base64," + base64.b64encode(b"not a picture").decode()
    response = player_client.post(reverse("character_import"), {"text": json.dumps(actor)})
    assert response.status_code == 302
    character = Character.objects.get()
    assert portrait_bytes(character) is None
    (line,) = [
        line
        for line in character.events.get(action="character_imported").after["not_mapped"]
        if line.startswith("img:")
    ]
    assert line.startswith("img: the picture is not imported: ")
