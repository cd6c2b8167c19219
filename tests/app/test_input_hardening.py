"""No 500 on input: what a probe got through, each now a clear 400 (or 413) saying what and
where, with nothing saved. Imports and checks run for real, on PostgreSQL in CI (where a NUL
cannot be stored at all) and on SQLite."""

import json
from decimal import Decimal
from io import StringIO

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.urls import reverse
from django.utils.html import escape

from characters.models import Character, Trait
from characters.views.files import MAX_CHECK_BYTES
from rules.charfile import MAX_ROWS
from rules.check import UNREADABLE, check_text
from tests.support.builder_fixtures import *  # noqa: F403

GOOD_FILE = {"ruleset": "mudge", "name": "Brogo", "skills": [{"name": "Bow", "level": "Good"}]}


def import_file(client, data, *, as_upload=False):
    text = json.dumps(data)
    if as_upload:
        payload = {"file": SimpleUploadedFile("c.json", text.encode(), "application/json")}
    else:
        payload = {"text": text}
    return client.post(reverse("character_import"), payload)


def check(client, data):
    body = data if isinstance(data, bytes | str) else json.dumps(data)
    return client.post(reverse("character_check"), body, content_type="application/json")


def refused_everywhere(client, data, where, message):
    """The same refusal from the import page (400, nothing saved), the check endpoint
    (400, an unreadable report) and the check command (exit 2, one line)."""
    problem = f"{where}: {message}" if where else message
    before = Character.all_objects.count()
    for as_upload in (False, True):
        response = import_file(client, data, as_upload=as_upload)
        assert response.status_code == 400
        assert escape(f"The file cannot be read: {problem}") in response.content.decode()
    assert Character.all_objects.count() == before
    response = check(client, data)
    assert response.status_code == 400
    [error] = response.json()["errors"]
    assert (error["code"], error.get("where", ""), error["message"]) == (
        "unreadable",
        where,
        message,
    )
    result = check_text(json.dumps(data))
    assert (result.exit_code, result.problem) == (UNREADABLE, problem)


NUL = "contains a NUL character (U+0000), which cannot be stored: remove it"


@pytest.mark.parametrize(
    "change, where",
    [
        ({"name": "Bro\x00go"}, "name"),
        (
            {"skills": [{"name": "Bow", "level": "Good"}, {"name": "\x00", "level": "Fair"}]},
            "skills[1].name",
        ),
        ({"notes": "fine\x00"}, "notes"),
        ({"equipment": [{"name": "Staff", "notes": "\x00"}]}, "equipment[0].notes"),
        ({"personality": {"Fear": "the \x00 dark"}}, "personality.Fear"),
        (
            {"house_rules": {"extra_attributes": [{"name": "San\x00ity"}]}},
            "house_rules.extra_attributes[0].name",
        ),
        ({"nickname": "\x00"}, "nickname"),  # a field Fairsheet does not know
        ({"skills": [{"name": "Bow", "level": "Good\x00"}]}, "skills[0].level"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_a_nul_anywhere_is_refused_naming_the_field(player_client, change, where):
    refused_everywhere(player_client, {**GOOD_FILE, **change}, where, NUL)


def test_a_nul_in_a_key_is_refused_naming_it(player_client):
    data = {**GOOD_FILE, "personality": {"Fe\x00ar": "dark"}}
    refused_everywhere(player_client, data, "personality.Fe\\u0000ar", f"the key {NUL}")


def test_the_check_command_exits_2_naming_the_field(tmp_path):
    path = tmp_path / "nul.json"
    path.write_text(json.dumps({**GOOD_FILE, "race": "Half\x00ling"}))
    err = StringIO()
    with pytest.raises(SystemExit) as exit_:
        call_command("check_character", str(path), stderr=err, stdout=StringIO())
    assert exit_.value.code == 2
    assert err.getvalue() == f"{path}: race: {NUL}\n"


def test_a_level_past_the_top_of_the_ladder_is_out_of_range_not_a_duplicate(player_client):
    data = {**GOOD_FILE, "skills": [{"name": "Bow", "level": "Legendary+21"}]}
    refused_everywhere(
        player_client,
        data,
        "skills[0].level",
        "'Legendary+21' is out of range: the ladder goes up to Legendary+20",
    )
    assert "twice" not in import_file(player_client, data).content.decode()
    top = {**GOOD_FILE, "skills": [{"name": "Bow", "level": "Legendary+20"}]}
    assert import_file(player_client, top).status_code == 302
    assert Trait.objects.get(name="Bow").level == 24


def test_a_cost_the_database_cannot_keep_exactly_is_refused(player_client):
    refused_everywhere(
        player_client,
        {**GOOD_FILE, "gifts": [{"name": "Luck", "cost": 1 / 3}]},
        "gifts[0].cost",
        "0.3333333333333333 has more than two decimals: use hundredths at most, e.g. 0.5",
    )
    refused_everywhere(
        player_client,
        {**GOOD_FILE, "faults": [{"name": "Curious", "value": 0.125}]},
        "faults[0].value",
        "0.125 has more than two decimals: use hundredths at most, e.g. 0.5",
    )
    data = {
        **GOOD_FILE,
        "gifts": [{"name": "Luck", "cost": 0.25}],
        "faults": [{"name": "Curious", "value": 1.5}],
    }
    assert import_file(player_client, data).status_code == 302
    assert dict(Trait.objects.filter(cost__isnull=False).values_list("name", "cost")) == {
        "Luck": Decimal("0.25"),
        "Curious": Decimal("1.5"),
    }


def test_names_that_read_backwards_are_refused(player_client):
    """U+202E turns "gnp.exe" into what reads as "exe.png"."""
    refused_everywhere(
        player_client,
        {**GOOD_FILE, "equipment": [{"name": "\u202egnp.exe"}]},
        "equipment[0].name",
        "contains a text-direction control (U+202E), which can make a name read backwards: "
        "remove it",
    )
    for key in ("name", "player", "race"):
        data = {**GOOD_FILE, key: "Bro\u2066go"}
        assert check_text(json.dumps(data)).problem.startswith(f"{key}: contains a text-dir")
    # In free text a direction control is writing, not a name: it stays.
    shalom = "\u202b\u05e9\u05dc\u05d5\u05dd\u202c"  # embedded right-to-left Hebrew
    assert check_text(json.dumps({**GOOD_FILE, "notes": shalom})).exit_code == 0


# -- too many rows -------------------------------------------------------------------------------


def test_a_file_over_the_row_limit_is_refused(player_client):
    skills = [{"name": f"Skill {i}", "level": "Fair"} for i in range(MAX_ROWS - 10)]
    data = {**GOOD_FILE, "skills": skills, "equipment": [{"name": f"Item {i}"} for i in range(11)]}
    refused_everywhere(
        player_client,
        data,
        "",
        "the character has 301 traits and pieces of equipment (290 skills, 11 equipment); "
        "the most is 300 together",
    )
    data["equipment"].pop()
    assert import_file(player_client, data).status_code == 302  # exactly 300


def test_the_builder_refuses_a_row_past_the_limit(player_client, character):
    Trait.objects.bulk_create(
        Trait(character=character, kind=Trait.Kind.SKILL, name=f"Skill {i}", level=0, position=i)
        for i in range(MAX_ROWS - 7)  # with the seven attributes: 300
    )
    version = character.version
    response = player_client.post(
        reverse("trait_add", args=[character.pk, Trait.Kind.SKILL]),
        {"version": version, "name": "One more", "level": 0},
    )
    assert response.status_code == 400
    message = (
        "Brogo has 300 traits and pieces of equipment; the most a character can have is 300 "
        "together. Remove one to make room."
    )
    assert message in response.content.decode()
    response = player_client.post(
        reverse("equipment_add", args=[character.pk]),
        {"version": version, "name": "Rope", "kind": "gear"},
    )
    assert response.status_code == 400
    assert message in response.content.decode()
    assert character.traits.count() + character.equipment.count() == MAX_ROWS


# -- signing up with a next page ----------------------------------------------------------------


@pytest.mark.parametrize("next_url", ["dashboard", "foo", "javascript:alert(1)", "//evil.example"])
def test_signup_with_a_next_that_is_no_local_path_goes_to_the_table(db, client, next_url):
    url = f"{reverse('signup')}?next={next_url}"
    response = client.get(url)
    assert response.status_code == 200
    assert f'value="{next_url}"' not in response.content.decode()
    response = client.post(
        url, {"username": "newbie", "password1": "a-long-pw-9x", "password2": "a-long-pw-9x"}
    )
    assert (response.status_code, response["Location"]) == (302, reverse("dashboard"))
    assert client.get(url).status_code == 302  # signed in: straight on, to the table
    assert client.get(url)["Location"] == reverse("dashboard")


# -- the check endpoint's size limit ------------------------------------------------------------

TOO_BIG = {"error": "The file is larger than 1 MB."}


def padded(size: int) -> bytes:
    """A readable character file of exactly `size` bytes (JSON may end in white space)."""
    text = json.dumps(GOOD_FILE).encode()
    return text + b" " * (size - len(text))


@pytest.mark.parametrize("size", [MAX_CHECK_BYTES + 1, 2_000_000, 2_700_000, 30_000_000])
def test_a_body_over_the_limit_gets_the_same_413_at_every_size(player_client, size):
    """Below, at and above DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB), raw or uploaded."""
    body = b"{" + b" " * (size - 2) + b"}"
    url = reverse("character_check")
    response = player_client.post(url, body, content_type="application/json")
    assert (response.status_code, response.json()) == (413, TOO_BIG)
    upload = SimpleUploadedFile("big.json", body, "application/json")
    response = player_client.post(url, {"file": upload})
    assert (response.status_code, response.json()) == (413, TOO_BIG)


def test_a_body_at_the_limit_is_checked(player_client):
    url = reverse("character_check")
    body = padded(MAX_CHECK_BYTES)
    assert len(body) == MAX_CHECK_BYTES
    response = player_client.post(url, body, content_type="application/json")
    assert response.status_code == 200 and response.json()["ruleset"] == "mudge"
    upload = SimpleUploadedFile("c.json", body, "application/json")
    response = player_client.post(url, {"file": upload})
    assert response.status_code == 200 and response.json()["ruleset"] == "mudge"


def test_a_lying_content_length_gets_no_500(player_client):
    url = reverse("character_check")
    small = json.dumps(GOOD_FILE).encode()
    # Claims more than it sends: refused before a byte is read (a server would wait).
    response = player_client.generic(
        "POST", url, small, content_type="application/json", CONTENT_LENGTH="50000000"
    )
    assert (response.status_code, response.json()) == (413, TOO_BIG)
    # Claims less: only what it claims is read, and that is not a whole file.
    response = player_client.generic(
        "POST", url, padded(3_000_000), content_type="application/json", CONTENT_LENGTH="40"
    )
    assert response.status_code == 400
    assert response.json()["errors"][0]["code"] == "unreadable"
    response = player_client.generic(
        "POST", url, small, content_type="multipart/form-data; boundary=x", CONTENT_LENGTH="9"
    )
    assert response.status_code == 400 and "error" in response.json()


# -- numbers from a request: every place one is read, with what isdigit or int take wrongly --

NOT_NUMBERS = ["²", "①", "٣", " 7", "1_0", "+1", "-1", "9" * 30, ""]


@pytest.mark.parametrize("text", NOT_NUMBERS)
@pytest.mark.parametrize("place", ["catalogue edit", "posted version", "content length"])
def test_a_number_from_a_request_is_parsed_strictly(client, gm, player, character, place, text):
    """No 500 for a digit `int` refuses (or a number past a bigint), and no number read
    from one it takes ("٣" is 3 to `int`)."""
    if place == "catalogue edit":
        client.force_login(gm)
        entry = character.campaign.catalog.first()
        response = client.get(
            reverse("campaign_catalog", args=[character.campaign_id]), {"edit": text}
        )
        assert response.status_code == 200
        assert f'name="name" value="{entry.name}"' not in response.content.decode()
    elif place == "posted version":
        client.force_login(player)
        url = reverse("character_submit", args=[character.pk])
        response = client.post(url, {"version": text})
        assert response.status_code in (302, 409)
    else:
        client.force_login(player)
        response = client.generic(
            "POST",
            reverse("character_check"),
            json.dumps(GOOD_FILE),
            content_type="application/json",
            CONTENT_LENGTH=text,
        )
        assert response.status_code in (200, 400, 413)  # a length past any limit: 413


def test_a_catalogue_entry_opens_for_editing_by_its_plain_id(client, gm, character):
    client.force_login(gm)
    entry = character.campaign.catalog.first()
    response = client.get(
        reverse("campaign_catalog", args=[character.campaign_id]), {"edit": str(entry.pk)}
    )
    assert f'value="{entry.name}"' in response.content.decode()
