"""A designed game's derived values and prerequisites through every door a character is
checked at (issue 42): `check_character --ruleset`, the check endpoint, the builder of a
campaign on the game, and an experience spend, which keeps prerequisites as creation does.
The game is tests/rules/test_game_parts.py's: Mudge with damage factors as derived values
(Mudge 4.55), Magery for spells in the GM's English and French, Sword Mastery at Sword Great."""

import json

import pytest
from django.test import Client
from django.urls import reverse

from characters.errors import ServiceError
from characters.models import Membership, Trait
from characters.selectors.advancement import GIFT, RAISE
from characters.services.advancement import experience_award, experience_spend
from characters.services.api_tokens import api_token_create
from characters.services.campaigns import campaign_create
from characters.services.characters import character_create
from characters.services.rows import trait_add
from characters.services.rulesets import designed_ruleset_save
from rules.check import BREAKS_A_RULE
from tests.app.test_designed_ruleset import _upload
from tests.app.test_review import approved
from tests.rules.test_game_parts import game_file
from tests.support import commands
from tests.support.builder_fixtures import *  # noqa: F403

HEDGE_WITCH = {
    "ruleset": "swords-and-sorcery",
    "name": "Hedge witch",
    "attributes": [
        {"name": "Strength", "level": "Good"},
        {"name": "Constitution", "level": "Good"},
    ],
    "powers": [{"name": "Fireball", "kind": "spell", "level": "Fair", "difficulty": "hard"}],
}


def test_check_character_with_the_game_file(tmp_path):
    game = tmp_path / "game.ruleset.json"
    game.write_text(json.dumps(game_file()))
    character = tmp_path / "witch.json"
    character.write_text(json.dumps(HEDGE_WITCH))
    code, out, _ = commands.run_command("check_character", character, "--ruleset", game)
    report = json.loads(out)
    assert code == BREAKS_A_RULE
    assert report["derived"] == {"body_odf": 1, "body_ddf": 1, "ddf_in_scale_mail": 5}
    assert [e for e in report["errors"] if e["code"] == "prerequisite_unmet"] == [
        {
            "code": "prerequisite_unmet",
            "trait": "Fireball",
            "message": "Spells need the Magery gift.",
            "section": "Mudge 2.5",
            "where": "powers[0]",
        }
    ]


@pytest.mark.parametrize(
    ("language", "message"),
    [("en", "Spells need the Magery gift."), ("fr", "Les sorts demandent le don Magie.")],
)
def test_the_check_endpoint_says_the_gms_words_in_the_readers_language(
    django_user_model, language, message
):
    user = django_user_model.objects.create_user("checker")
    _, token = api_token_create(user=user, name="script")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}", HTTP_ACCEPT_LANGUAGE=language)
    response = api.post(
        reverse("character_check"),
        {"file": _upload(HEDGE_WITCH), "ruleset": _upload(game_file())},
    )
    assert response.status_code == 200, response.content
    body = response.json()
    assert [e["message"] for e in body["errors"] if e["code"] == "prerequisite_unmet"] == [message]
    assert body["derived"]["ddf_in_scale_mail"] == 5


@pytest.fixture
def on_the_game(gm, player):
    """A campaign on the game, with the player in it."""
    version = designed_ruleset_save(owner=gm, file=game_file(), note="Issue 42's game")
    campaign = campaign_create(gm=gm, name="Swords and sorcery", ruleset_version=version)
    Membership.objects.create(campaign=campaign, user=player)
    return campaign


def add(character, player, kind, name, level=None, **fields):
    trait_add(
        character=character,
        actor=player,
        expected_version=None,
        kind=kind,
        name=name,
        level=level,
        **fields,
    )


def test_the_builder_shows_the_broken_prerequisite_in_french(on_the_game, player, client):
    character = character_create(owner=player, name="Morwen", campaign=on_the_game)
    add(character, player, Trait.Kind.POWER, "Fireball", 0, power_kind="spell")
    client.force_login(player)
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Les sorts demandent le don Magie." in page
    assert "Mudge 2.5" in page
    client.cookies["django_language"] = "en"
    page = client.get(reverse("character_builder", args=[character.pk])).content.decode()
    assert "Spells need the Magery gift." in page


def test_a_spend_that_breaks_a_prerequisite_is_refused_in_the_gms_words(on_the_game, gm, player):
    character = character_create(owner=player, name="Aldo", campaign=on_the_game)
    add(character, player, Trait.Kind.SKILL, "Sword", 1)
    approved(character, gm, reason="Built for the test")
    experience_award(character=character, actor=gm, amount=20, reason="Session one")
    character.refresh_from_db()
    with pytest.raises(ServiceError) as refused:
        experience_spend(
            character=character, actor=gm, expected_version=None, what=GIFT, name="Sword Mastery"
        )
    assert str(refused.value) == "Sword Mastery needs Sword at Great. (Mudge 1.6)"
    assert not character.traits.filter(name="Sword Mastery").exists()
    experience_spend(
        character=character,
        actor=player,
        expected_version=None,
        what=RAISE,
        trait=character.traits.get(name="Sword"),
    )  # Good to Great, 4 XP
    character.refresh_from_db()
    experience_spend(
        character=character, actor=gm, expected_version=None, what=GIFT, name="Sword Mastery"
    )
    assert character.traits.filter(name="Sword Mastery").exists()


def test_the_schema_takes_the_game_and_refuses_its_parts_in_format_1():
    from jsonschema import Draft202012Validator

    from tests.app.test_ruleset_file import SCHEMA

    schema = Draft202012Validator(SCHEMA)
    assert list(schema.iter_errors(game_file())) == []
    old = {**game_file(), "format": "fairsheet.ruleset/1"}
    assert not schema.is_valid(old)
    both = game_file()
    both["prerequisites"][2]["needs"] = "Magery"  # "at most" and "needs" together
    assert not schema.is_valid(both)


def test_the_api_reads_the_character_with_its_game_and_checks_it(on_the_game, player):
    """A campaign character read through the API carries its game (format 2), and that file
    checks with the same derived values and prerequisites, wherever it goes next."""
    character = character_create(owner=player, name="Morwen", campaign=on_the_game)
    add(character, player, Trait.Kind.POWER, "Fireball", 0, power_kind="spell")
    character.traits.filter(name="Constitution").update(level=1)  # a draft: no record kept
    _, token = api_token_create(user=player, name="sheet script")
    api = Client(HTTP_AUTHORIZATION=f"Bearer {token}")
    read = api.get(reverse("api:character", args=[character.pk]))
    assert read.status_code == 200, read.content
    carried = read.json()["ruleset_file"]
    assert carried["format"] == "fairsheet.ruleset/2"
    assert [p["key"] for p in carried["prerequisites"]] == [
        "spells-need-magery",
        "sword-mastery",
        "one-backer",
    ]
    checked = api.post(
        reverse("character_check"), read.content, content_type="application/json"
    ).json()
    assert checked["derived"] == {"body_odf": 0, "body_ddf": 1, "ddf_in_scale_mail": 5}
    # Mudge 2.5's own rule, then the GM's words for the same need.
    assert [(e["code"], e["trait"]) for e in checked["errors"]] == [
        ("power_requires_gift", "Fireball"),
        ("prerequisite_unmet", "Fireball"),
    ]
