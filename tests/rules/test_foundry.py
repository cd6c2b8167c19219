"""Foundry VTT actors for the fudge-rpg system (docs/foundry.md): the export validates
against the system's data models (tests/fixtures/foundry-fudge-rpg-2.7.0.schema.json), its
ids are stable, and characters survive the round trip; actors made in Foundry import with a
list of what could not be mapped; `manage.py export_character` converts both ways."""

import copy
import dataclasses
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from jsonschema import Draft202012Validator

from rules.character import Character, Equipment, Gift, Power, Trait
from rules.charfile import CharacterFileError, read_character
from rules.foundry import FOUNDRY, Provenance, parse_any, read_actor, write_actor
from rules.ladder import ABYSMAL, FAIR, GOOD, GREAT, LEGENDARY, POOR, SUPERB
from tests.rules.test_charfile import SAMPLES, characters

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = (
    Path(__file__).resolve().parents[1]
    / "support"
    / "fixtures"
    / "foundry-fudge-rpg-2.7.0.schema.json"
)
FOUNDRY_ACTOR = Draft202012Validator(json.loads(FIXTURE.read_text()))
ID = re.compile(r"[A-Za-z0-9]{16}")

# A Streamlined MicroFudged hero with fields of power (DIP VIII.1, VIII.3): 15 tokens.
MARA = Character(
    ruleset="microfudged-streamlined",
    name="Mara Quill",
    player="Sam",
    concept="Street mage with a borrowed grimoire",
    attributes=(Trait("Mind", GOOD), Trait("Vigour", POOR)),
    skills=(Trait("Streetwise", GOOD), Trait("Medicine", POOR)),
    powers=(Power("Wards", "field", GREAT), Power("Scrying", "field", ABYSMAL + 1)),
    equipment=(Equipment("Grimoire", notes="borrowed <from Aunt Vi>"),),
    notes="Owes the Guild a favour.\n\nHates the rain.",
)


def export(character: Character, **kwargs) -> dict:
    """The actor as Foundry reads it: through JSON text."""
    return json.loads(json.dumps(write_actor(character, **kwargs)))


def assert_foundry_accepts(actor: dict) -> None:
    errors = sorted(FOUNDRY_ACTOR.iter_errors(actor), key=lambda e: list(e.absolute_path))
    assert not errors, [f"{list(e.absolute_path)}: {e.message}" for e in errors[:5]]
    # Beyond the data models, what the issue asks of every exported item:
    for item in actor["items"]:
        assert ID.fullmatch(item["_id"])
        assert isinstance(item["system"]["description"], str)
    assert len({item["_id"] for item in actor["items"]}) == len(actor["items"])
    assert "_stats" not in actor


def items_of(actor: dict, kind: str) -> list[dict]:
    return [item for item in actor["items"] if item["type"] == kind]


def read(stem: str) -> Character:
    return read_character(
        json.loads((ROOT / "rules" / "samples" / f"{stem}.json").read_text())
    ).character


class TestExport:
    @pytest.mark.parametrize("stem", SAMPLES)
    def test_every_sample_validates_against_the_data_models(self, stem):
        assert_foundry_accepts(export(read(stem)))

    def test_brogo(self):
        actor = export(read("brogo"))
        assert (actor["name"], actor["type"]) == ("Brogo the Scout", "character")
        (attributes,) = items_of(actor, "attributeset")
        # Mudge's seven as printed (Fair = 0, Superb +3), then Mana at Fair: Brogo has Magery.
        assert attributes["system"]["attributes"] == [
            {"name": "Strength", "level": 1},
            {"name": "Dexterity", "level": 2},
            {"name": "Constitution", "level": 1},
            {"name": "Speed", "level": 1},
            {"name": "Intelligence", "level": 1},
            {"name": "Willpower", "level": 1},
            {"name": "Perception", "level": 3},
            {"name": "Mana", "level": 0},
        ]
        assert attributes["system"]["muscleweapon"] == "Strength"
        assert attributes["system"]["damagecap"] == "Constitution"
        skills = {s["name"]: s["system"] for s in items_of(actor, "skill")}
        assert len(skills) == 23
        assert skills["Move Quietly"] == {
            "description": "<p>Average skill (Mudge 1.62).</p>",
            "level": 3,
            "groups": [],
        }
        assert skills["Find Secret Passages"]["level"] == -3  # Terrible
        assert skills["Mimic Animal"]["description"] == "<p>Hard skill (Mudge 1.62).</p>"
        gifts = {g["name"]: g["system"]["description"] for g in items_of(actor, "gift")}
        assert gifts["Lucky"] == "<p>Costs 2 gifts.</p>"
        assert len(items_of(actor, "fault")) == 6
        staff = next(e for e in items_of(actor, "equipment") if e["name"] == "Staff")
        assert staff["system"] == {
            "description": "<p>Weapon, damage +2.</p>",
            "odf": 2,
            "ddf": 0,
            "quantity": 1,
        }
        system = actor["system"]
        assert (system["fp"], system["ep"], system["mana"]) == (0, 0, 0)
        # Mudge 4.57: 3/2/1/1/1, and "Toughness +1 adds 1 Scratch box" (Brogo's sheet, 6.3).
        assert [w["max"] for w in system["wounds"].values()] == [4, 2, 1, 1, 1]
        assert all(w["value"] == 0 for w in system["wounds"].values())
        assert "<p><strong>Scale:</strong> Strength -2, Mass -2 (Mudge 2.3)</p>" in system["notes"]
        assert "<p><strong>Race:</strong> Halfling</p>" in system["notes"]
        # Strength +1, Strength Scale -2; unarmed -1 without a martial art (Mudge 4.54).
        assert "<strong>Offensive damage factors:</strong> Unarmed -2, Staff +1" in system["notes"]
        assert actor["flags"]["fairsheet"]["file"]["ruleset"] == "mudge"

    def test_levels_count_from_fair_and_run_past_legendary(self):
        character = Character(
            ruleset="fudge-basics",
            name="Ladder",
            skills=(
                Trait("Low", ABYSMAL),
                Trait("Mid", FAIR),
                Trait("Top", SUPERB),
                Trait("Myth", LEGENDARY + 2),
            ),
        )
        levels = [s["system"]["level"] for s in items_of(export(character), "skill")]
        assert levels == [-4, 0, 3, 6]

    def test_unspent_levels_are_what_the_trades_leave(self):
        # An empty Mudge character: 6 attribute levels, 45 skill levels, 2 gifts (Mudge 1.6).
        assert export(Character(ruleset="mudge", name="Blank"))["system"]["unspent"] == {
            "attrlevels": 6,
            "skilllevels": 45,
            "gifts": 2,
            "faults": 0,
        }
        # Three gifts against two free: the third is bought with 6 skill levels (Mudge 1.64).
        gifted = Character(ruleset="mudge", name="Gifted", gifts=(Gift("A"), Gift("B"), Gift("C")))
        assert export(gifted)["system"]["unspent"] == {
            "attrlevels": 6,
            "skilllevels": 39,
            "gifts": 0,
            "faults": 0,
        }

    def test_fudge_points_default_to_the_rulesets_start(self):
        assert export(Character(ruleset="mudge", name="New"))["system"]["fp"] == 3  # Mudge 1.36
        actor = export(Character(ruleset="mudge", name="New", meta_points=1))
        assert actor["system"]["fp"] == 1

    def test_fudge_basics_wound_track(self):
        actor = export(Character(ruleset="fudge-basics", name="Plain"))
        assert [w["max"] for w in actor["system"]["wounds"].values()] == [5, 4, 3, 2, 1]

    def test_a_microfudged_character(self):
        actor = export(MARA)
        assert_foundry_accepts(actor)
        (attributes,) = items_of(actor, "attributeset")
        # Mind and Vigour as listed, then Mastery and Presence at their Fair default.
        assert attributes["system"]["attributes"] == [
            {"name": "Mind", "level": 1},
            {"name": "Vigour", "level": -2},
            {"name": "Mastery", "level": 0},
            {"name": "Presence", "level": 0},
        ]
        powers = {g["name"]: g["system"]["description"] for g in items_of(actor, "gift")}
        assert powers == {
            "Wards": "<p>Field of power at Great.</p>",
            "Scrying": "<p>Field of power at Terrible.</p>",
        }
        # No wound track in MicroFudged: the system's own boxes; tokens in the notes.
        assert [w["max"] for w in actor["system"]["wounds"].values()] == [3, 2, 1, 1, 1]
        # DIP VIII.3: Mind one rank up = 3 tokens, Vigour two down = 6 back, Streetwise 3,
        # Medicine 1 (from Terrible), Wards 6 and Scrying 1 (from Abysmal): 8 of 15 spent,
        # and at most 3 carried into play.
        assert actor["flags"]["fairsheet"]["tokens"] == {"budget": 15, "spent": 8, "saved": 3}
        assert (
            "<p><strong>Tokens:</strong> 15 at creation: 8 spent, 3 saved for play</p>"
            in actor["system"]["notes"]
        )
        assert actor["system"]["unspent"] == {
            "attrlevels": 0,
            "skilllevels": 0,
            "gifts": 0,
            "faults": 0,
        }

    def test_user_text_is_escaped(self):
        character = Character(
            ruleset="mudge",
            name='<img src=x onerror="alert(1)">',
            concept="<b>bold</b> & brash",
            personality={"<q>": "<script>alert(2)</script>"},
            notes="line one\nline <two>",
        )
        notes = export(character)["system"]["notes"]
        assert "<img" not in notes and "<script" not in notes and "<b>" not in notes
        assert "&lt;b&gt;bold&lt;/b&gt; &amp; brash" in notes
        assert "<p><strong>&lt;q&gt;</strong> &lt;script&gt;alert(2)&lt;/script&gt;</p>" in notes
        assert notes.endswith("<h3>Notes</h3><p>line one<br>line &lt;two&gt;</p>")
        (attributes,) = items_of(export(character), "attributeset")
        assert (
            "&lt;img src=x onerror=&quot;alert(1)&quot;&gt;" in attributes["system"]["description"]
        )

    def test_a_negative_weapon_value_is_0_for_foundry_and_kept_for_fairsheet(self):
        character = Character(
            ruleset="mudge", name="Brawler", equipment=(Equipment("Sap", "weapon", damage=-1),)
        )
        actor = export(character)
        (sap,) = items_of(actor, "equipment")
        assert (sap["system"]["odf"], sap["system"]["description"]) == (
            0,
            "<p>Weapon, damage -1.</p>",
        )
        assert read_actor(actor).character == character

    def test_provenance_goes_into_flags_and_notes(self):
        provenance = Provenance(
            character_id=42,
            version=7,
            state="Approved",
            approved_version=6,
            sha256="ab" * 32,
            approved_by="gm",
            approved_on="2026-05-01",
        )
        actor = export(read("brogo"), provenance=provenance)
        assert actor["flags"]["fairsheet"]["character_id"] == 42
        assert actor["flags"]["fairsheet"]["version"] == 7
        assert actor["flags"]["fairsheet"]["approval"] == {
            "version": 6,
            "sha256": "ab" * 32,
            "approved_by": "gm",
            "approved_on": "2026-05-01",
        }
        assert (
            f"<p><strong>Approved:</strong> version 6 by gm on 2026-05-01; SHA-256 of the "
            f"approved file {'ab' * 32}</p>" in actor["system"]["notes"]
        )
        assert_foundry_accepts(actor)


class TestStableIds:
    def test_exporting_twice_gives_the_same_ids(self):
        first, second = export(read("brogo")), export(read("brogo"))
        assert [i["_id"] for i in first["items"]] == [i["_id"] for i in second["items"]]
        assert first["_id"] == second["_id"]

    def test_a_change_moves_only_the_changed_items_id(self):
        brogo = read("brogo")
        raised = dataclasses.replace(
            brogo, skills=(dataclasses.replace(brogo.skills[0], level=GREAT), *brogo.skills[1:])
        )
        renamed = dataclasses.replace(
            brogo, skills=(Trait("Evasion", GOOD, "average"), *brogo.skills[1:])
        )
        ids = {i["name"]: i["_id"] for i in export(brogo)["items"]}
        assert {i["name"]: i["_id"] for i in export(raised)["items"]} == ids
        moved = {i["name"]: i["_id"] for i in export(renamed)["items"]}
        assert "Evasion" in moved and moved["Evasion"] != ids["Dodge"]
        assert {k: v for k, v in moved.items() if k != "Evasion"} == {
            k: v for k, v in ids.items() if k != "Dodge"
        }

    def test_the_site_id_survives_a_rename(self):
        brogo = read("brogo")
        before = export(brogo, provenance=Provenance(character_id=5, version=1, state="Draft"))
        after = export(
            dataclasses.replace(brogo, name="Brogo Underhill"),
            provenance=Provenance(character_id=5, version=2, state="Draft"),
        )
        assert [i["_id"] for i in before["items"]] == [i["_id"] for i in after["items"]]
        other = export(brogo, provenance=Provenance(character_id=6, version=1, state="Draft"))
        assert not {i["_id"] for i in before["items"]} & {i["_id"] for i in other["items"]}

    def test_same_names_get_their_own_ids(self):
        character = Character(
            ruleset="mudge",
            name="Packer",
            gifts=(Gift("Luck"),),
            powers=(Power("Luck", "superpower"),),
            equipment=(Equipment("Torch"), Equipment("Torch")),
        )
        assert_foundry_accepts(export(character))


class TestRoundTrip:
    @pytest.mark.parametrize("stem", SAMPLES)
    def test_every_sample(self, stem):
        character = read(stem)
        imported = read_actor(export(character))
        assert imported.character == character
        assert (imported.source, imported.not_mapped, imported.ignored) == (FOUNDRY, (), ())

    def test_a_microfudged_character(self):
        assert read_actor(export(MARA)).character == MARA

    def test_changes_made_in_foundry_come_back(self):
        actor = export(read("brogo"))
        dodge = next(i for i in actor["items"] if i["name"] == "Dodge")
        dodge["system"]["level"] = 2  # raised to Great at the table
        dodge["name"] = "Dodge (acrobatic)"
        staff = next(i for i in items_of(actor, "equipment") if i["name"] == "Staff")
        staff["system"]["odf"] = 3
        actor["system"]["ep"] = 4
        actor["items"].append(
            {"name": "Keen Ears", "type": "gift", "system": {"description": "<p>Hears all.</p>"}}
        )
        imported = read_actor(actor)
        character = imported.character
        assert character.skills[0] == Trait("Dodge (acrobatic)", GREAT, "average")
        assert character.equipment[2] == Equipment("Staff", "weapon", damage=3)
        assert character.experience == 4
        assert character.gifts[-1] == Gift("Keen Ears")  # no cost: the catalogue's, or 1
        assert imported.not_mapped == (
            "The descriptions of 1 gifts, faults or skills are not kept: Fairsheet keeps "
            "their names.",
        )

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(characters())
    def test_any_character_validates_and_comes_back(self, character):
        actor = export(character)
        assert_foundry_accepts(actor)
        imported = read_actor(actor)
        # Names are unique in each list but equipment (case ignored): Foundry keeps the
        # duplicates a file may hold, the way back keeps the first.
        assert imported.character == _first_of_each_name(character)
        assert all("appears twice" in note for note in imported.not_mapped)


def _first_of_each_name(character: Character) -> Character:
    def first(items):
        seen, kept = set(), []
        for item in items:
            if item.name.casefold() not in seen:
                seen.add(item.name.casefold())
                kept.append(item)
        return tuple(kept)

    return dataclasses.replace(
        character,
        **{
            name: first(getattr(character, name))
            for name in ("attributes", "skills", "gifts", "faults", "powers")
        },
    )


# An actor made in Foundry with the system's own compendium items (packs-src of
# release-2.6.0: Fantasy Fudge Attributes, the Expanded Trait Ladder, Fantasy Fudge skills),
# played for a while: wounds marked, mana spent.
FOUNDRY_MADE = {
    "name": "Tobin Ashgrove",
    "type": "character",
    "system": {
        "fp": 2,
        "ep": 5,
        "mana": 4,
        "wounds": {
            "scratch": {"value": 2, "max": 3},
            "hurt": {"value": 1, "max": 2},
            "veryhurt": {"value": 0, "max": 1},
            "incapacitated": {"value": 0, "max": 1},
            "neardeath": {"value": 0, "max": 1},
        },
        "notes": "<p>Born in <em>Hollowmere</em>.</p><p>Fears deep water &amp; bees.</p>",
        "unspent": {"attrlevels": 0, "skilllevels": 2, "gifts": 0, "faults": 0},
    },
    "items": [
        {
            "_id": "RqHSqHtArZYVOJap",
            "name": "Fantasy Fudge Attributes",
            "type": "attributeset",
            "system": {
                "description": "<ul><li>Reasoning: thinking ability</li></ul>",
                "attributes": [
                    {"name": "Reasoning", "level": 1},
                    {"name": "Perception", "level": 0},
                    {"name": "Strength", "level": 2},
                    {"name": "Health", "level": -6},
                ],
                "muscleweapon": "Strength",
                "damagecap": "Health",
            },
        },
        {
            "_id": "wHEx7fq7ZtyA1JTU",
            "name": "Expanded Trait Ladder",
            "type": "traitladder",
            "system": {"description": "", "traits": [{"name": "Fair", "value": 0}]},
        },
        {
            "_id": "sr6WTIHXZEULg1xo",
            "name": "Acrobatics/Tumbling",
            "type": "skill",
            "system": {
                "description": "<p>Moving your body.</p>",
                "level": 1,
                "groups": ["Athletic"],
            },
        },
        {"name": "Ambidexterity", "type": "gift", "system": {"description": ""}},
        {"name": "Greedy", "type": "fault", "system": {"description": ""}},
        {
            "name": "Longsword",
            "type": "equipment",
            "system": {
                "description": "<p>Well <b>balanced</b>.</p>",
                "odf": 3,
                "ddf": 0,
                "quantity": 1,
            },
        },
        {
            "name": "Arrows",
            "type": "equipment",
            "system": {"description": "", "odf": 0, "ddf": 0, "quantity": 20},
        },
    ],
    "effects": [],
    "_stats": {"systemId": "fudge-rpg", "systemVersion": "2.6.0", "coreVersion": "12.331"},
}


class TestImportFromFoundry:
    def test_an_actor_made_in_foundry(self):
        imported = read_actor(FOUNDRY_MADE)
        assert imported.character == Character(
            ruleset="fudge-basics",
            name="Tobin Ashgrove",
            attributes=(
                Trait("Reasoning", GOOD),
                Trait("Perception", FAIR),
                Trait("Strength", GREAT),
                Trait("Health", ABYSMAL),
            ),
            skills=(Trait("Acrobatics/Tumbling", GOOD),),
            gifts=(Gift("Ambidexterity"),),
            faults=(imported.character.faults[0],),
            # The attribute set's damagecap, kept for the damage factors (issue 28)
            house_rules={"damage_capacity_attribute": "Health"},
            equipment=(
                Equipment("Longsword", "weapon", damage=3, notes="Well balanced."),
                Equipment("Arrows", "gear", quantity=20),
            ),
            meta_points=2,
            experience=5,
            notes="Born in Hollowmere.\n\nFears deep water & bees.",
        )
        assert imported.character.faults[0].name == "Greedy"
        # Grouped, the most important first (issue 28): what changed, what is lost, and
        # what Fairsheet has no place for.
        assert imported.report() == [
            (
                "Changed on the way in: check these",
                [
                    "The actor names no Fairsheet ruleset: imported for fudge-basics.",
                    "items[0].system.attributes[3].level: -6 is off Fairsheet's ladder; "
                    "read as Abysmal.",
                    "attribute set damagecap: Health is the character's damage capacity "
                    "attribute (house rule damage_capacity_attribute), for its damage factors.",
                ],
            ),
            (
                "Not imported",
                [
                    "system.wounds: current wounds (scratch 2, hurt 1) are not imported: mark "
                    "them on the play page.",
                    "system.mana (4): Fairsheet keeps no mana pool.",
                ],
            ),
            (
                "Left out: Fairsheet has no place for these",
                [
                    "items[1] (traitladder 'Expanded Trait Ladder'): not imported; Fairsheet "
                    "uses its own trait ladder.",
                    "Skill groups are not imported (1 skill): Acrobatics/Tumbling.",
                    "The descriptions of 1 gifts, faults or skills are not kept: Fairsheet "
                    "keeps their names.",
                    "_stats: where the actor and its items sat in their Foundry world, who "
                    "could see them and when they were made; Foundry sets these again when it "
                    "imports the actor.",
                ],
            ),
        ]

    def test_a_level_past_the_ladder_is_read_as_its_top(self):
        actor = copy.deepcopy(FOUNDRY_MADE)
        actor["items"][2]["system"]["level"] = 100  # Acrobatics/Tumbling
        imported = read_actor(actor)
        assert imported.character.skills == (Trait("Acrobatics/Tumbling", LEGENDARY + 20),)
        assert (
            "items[2].system.level: +100 is off Fairsheet's ladder; read as Legendary+20."
            in imported.not_mapped
        )

    def test_an_actor_past_the_row_limit_keeps_its_attributes_and_the_first_items(self):
        """A character file holds at most 300 traits and pieces of equipment together: an
        actor with more is imported with the first 300, the attributes among them."""
        actor = copy.deepcopy(FOUNDRY_MADE)
        skill = actor["items"][2]
        actor["items"] += [{**skill, "name": f"Lore {n}"} for n in range(300)]
        imported = read_actor(actor)
        character = imported.character
        assert len(character.attributes) == 4
        rows = (character.attributes, character.skills, character.gifts, character.faults)
        assert sum(map(len, rows)) + len(character.equipment) == 300
        assert character.skills[-1].name == "Lore 290"
        assert (
            "skills: more than 300 traits and pieces of equipment; 'Lore 291' and every one "
            "after it skipped." in imported.not_mapped
        )

    def test_the_campaigns_ruleset_when_the_actor_names_none(self):
        imported = read_actor(FOUNDRY_MADE, default_ruleset="mudge")
        assert imported.character.ruleset == "mudge"
        assert imported.not_mapped[0] == (
            "The actor names no Fairsheet ruleset: imported for mudge."
        )

    def test_bad_values_in_the_flags_are_dropped_and_listed(self):
        actor = export(read("brogo"))
        actor["flags"]["fairsheet"]["file"]["house_rules"] = {"skil_levels": 4}
        actor["flags"]["fairsheet"]["file"]["scale"] = {"strength": "big"}
        actor["items"][1]["flags"]["fairsheet"]["entry"]["difficulty"] = "hardish"
        imported = read_actor(actor)
        assert imported.character.house_rules == {}
        assert imported.character.scale_strength == 0
        assert imported.character.skills[0] == Trait("Dodge", GOOD)
        assert [n.split(":")[1].strip() for n in imported.not_mapped] == [
            "house_rules.skil_levels",
            "scale.strength",
            "skills[0].difficulty",
        ]

    @pytest.mark.parametrize(
        ("change", "where", "message"),
        [
            ({"type": "npc"}, "type", "must be 'character', not 'npc'"),
            ({"system": []}, "system", "must be an object"),
            ({"items": {}}, "items", "must be a list"),
            (
                {"_stats": {"systemId": "dnd5e"}},
                "_stats.systemId",
                "this actor belongs to the 'dnd5e' game system",
            ),
        ],
    )
    def test_what_is_not_a_fudge_character_is_refused(self, change, where, message):
        with pytest.raises(CharacterFileError) as raised:
            read_actor({**FOUNDRY_MADE, **change})
        assert raised.value.where == where
        assert message in raised.value.message

    def test_the_format_is_told_from_the_shape(self):
        brogo = (ROOT / "rules" / "samples" / "brogo.json").read_text()
        assert parse_any(brogo).source == "fairsheet"
        assert parse_any(json.dumps(FOUNDRY_MADE)).source == "foundry"


def test_fractional_costs_survive():
    character = Character(ruleset="mudge", name="Halves", gifts=(Gift("Patron", Fraction(3, 2)),))
    assert read_actor(export(character)).character == character
