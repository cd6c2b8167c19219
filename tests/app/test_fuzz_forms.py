"""No 5xx on any input: Hypothesis posts random and malformed data to every URL of the site
(the resolver walk of tests/app/test_permissions.py, each URL as a user allowed to use it), as
a form, a form with htmx, a multipart upload or a raw body, and asserts no response is a
server error. The field names it fills are the ones the site's own pages use, and versions
are sometimes the current one, so writes really go through. On PostgreSQL in CI."""

import re

import pytest
from django.db import transaction
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from characters.models import Character, Equipment, Trait
from characters.services.characters import character_create
from tests.app.test_permissions import ACCESS, GM, PUBLIC, url_for, world  # noqa: F401 (fixture)

ROLE_FOR = {PUBLIC: "anonymous", GM: "gm"}  # every other rule: the character's owner
FIELD_NAME = re.compile(r'\bname="([^"]+)"')
CURRENT_VERSION = "<the character's version now>"
AWKWARD = [
    "",
    " ",
    "0",
    "-1",
    "1.005",
    "1e400",
    "-1e-400",
    "NaN",
    "Infinity",
    "9" * 40,
    "Legendary+21",
    "Legendary+999",
    "Superb",
    "very_hard",
    "\x00",
    "a\x00b",
    "\u202egnp.exe",
    "\ufeff",
    "<script>alert(1)</script>",
    "{{ request }}",
    "'; DROP TABLE characters_character; --",
    '{"format": "fairsheet.character/1", "ruleset": "mudge", "name": "\\u0000"}',
    "x" * 5000,
]
VALUES = st.one_of(
    st.sampled_from(AWKWARD),
    st.text(max_size=40),
    st.integers().map(str),
    st.decimals(allow_nan=True, allow_infinity=True).map(str),
    st.just(CURRENT_VERSION),
)
KINDS = ["attribute", "skill", "gift", "fault", "power", "power_kind", "equipment", "x"]


@pytest.fixture
def site(world, client):  # noqa: F811 (the fixture imported above)
    """The permission walk's world, a draft character beside its approved one (so builder
    writes get past the lock), and every field name the site's pages use."""
    users, approved, args = world
    draft = character_create(owner=users["owner"], name="Draft", campaign=approved.campaign)
    item = Equipment.objects.create(character=draft, name="Rope")
    trait = draft.traits.first()
    draft_args = {
        **args,
        "trait_update": [draft.pk, trait.pk],
        "trait_delete": [draft.pk, trait.pk],
        "equipment_update": [draft.pk, item.pk],
        "equipment_delete": [draft.pk, item.pk],
    }
    names = {"version", "file", "text", "next"}
    for name, (rule, method) in ACCESS.items():
        if method == "get" and rule != PUBLIC:
            client.force_login(users["gm" if rule == GM else "owner"])
            response = client.get(url_for(name, approved, args))
            if response["Content-Type"].startswith("text/html"):
                names |= set(FIELD_NAME.findall(response.text))
    names.discard("csrfmiddlewaretoken")
    return users, {"approved": (approved, args), "draft": (draft, draft_args)}, sorted(names)


@st.composite
def requests(draw, field_names):
    fields = draw(
        st.dictionaries(
            st.sampled_from(field_names) | st.text(max_size=12),
            VALUES | st.lists(VALUES, min_size=2, max_size=3),
            max_size=8,
        )
    )
    return {
        "url_name": draw(st.sampled_from(sorted(ACCESS))),
        "character": draw(st.sampled_from(["draft", "approved"])),
        "kind": draw(st.sampled_from(KINDS)),
        "fields": fields,
        "as": draw(st.sampled_from(["form", "htmx", "multipart", "raw"])),
        "upload": draw(st.binary(max_size=200) | st.sampled_from(AWKWARD).map(str.encode)),
        "raw": draw(st.binary(max_size=300)),
        "content_type": draw(st.sampled_from(["application/json", "text/plain", "x/y", ""])),
    }


def send(client, url, request, version):
    def value(v):
        return str(version) if v == CURRENT_VERSION else v

    data = {
        key: [value(v) for v in values] if isinstance(values, list) else value(values)
        for key, values in request["fields"].items()
    }
    match request["as"]:
        case "form":
            return client.post(url, data)
        case "htmx":
            return client.post(url, data, HTTP_HX_REQUEST="true")
        case "multipart":
            from django.core.files.uploadedfile import SimpleUploadedFile

            upload = SimpleUploadedFile("c.json", request["upload"], "application/json")
            return client.post(url, {**data, "file": upload})
        case _:
            return client.generic("POST", url, request["raw"], request["content_type"])


@settings(
    max_examples=300,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_no_input_makes_a_server_error(site, data):
    users, characters, field_names = site
    request = data.draw(requests(field_names))
    character, args = characters[request["character"]]
    if request["url_name"] == "trait_add":
        args = {**args, "trait_add": [character.pk, request["kind"]]}
    if request["url_name"] == "catalog_entry_add":
        args = {**args, "catalog_entry_add": [args["campaign_detail"][0], request["kind"]]}
    rule, _ = ACCESS[request["url_name"]]
    role = ROLE_FOR.get(rule, "owner" if rule != GM else "gm")
    client = Client()
    with transaction.atomic():
        if role != "anonymous":
            client.force_login(users[role])
        version = Character.all_objects.get(pk=character.pk).version
        url = url_for(request["url_name"], character, args)
        response = send(client, url, request, version)
        assert response.status_code < 500, f"{url}: {response.status_code}"
        transaction.set_rollback(True)
    assert Trait.objects.filter(character=character).exists()  # nothing half-written leaked
