"""The keyed audit trail (issue 31, second probe), on PostgreSQL with the owner/runtime role
split (tests/conftest.py), every statement really sent:

- an event written without the audit key (by the runtime role, which may INSERT events, or
  the owner) fails `manage.py verify_audit`, which names its key, and the character it
  stands for loses its stamp on every page: an appended approval, an appended raise, each
  with correctly recomputed hashes and any MAC that can be made without the key; the same
  forgery signed with the key is the control that passes;
- nothing renumbers or orphans: the ids events name are fixed, a character renumbered
  and deleted by the owner behind the triggers leaves events verify_audit names;
- thread messages are append-only;
- the owner's rewrite of a chain, or a chain cut short, is caught against exported heads;
- keys rotate: events under an old key verify with DJANGO_AUDIT_OLD_KEYS, not without;
- the approval stamp carries a short MAC that the check page verifies for the character's
  player and GM, and for nobody else."""

import hashlib
import hmac
import json
import re
import secrets
from datetime import timedelta
from io import StringIO

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError, ProgrammingError, connections, transaction
from django.urls import reverse
from django.utils import timezone

from characters.adapters import (
    build_sha256,
    character_base,
    character_to_rules,
    file_sha256,
)
from characters.audit_chain import event_hash, link, stamp_code
from characters.models import (
    Approval,
    Campaign,
    Character,
    CharacterEvent,
    CommentThread,
    ThreadMessage,
)
from characters.services.advancement import experience_award
from characters.services.audit import record_campaign_event, record_event
from characters.services.threads import comment_thread_start
from rules.charfile import write_character
from rules.ladder import LEGENDARY
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved, submitted
from tests.conftest import role_split
from tests.support.builder_fixtures import *  # noqa: F403
from tests.support.owner import as_owner
from tests.support.pdf_helpers import texts

with_role_split = pytest.mark.skipif(
    not role_split(),
    reason="needs PostgreSQL with DATABASE_OWNER_URL (bash .ci/run sets up both roles)",
)
pytestmark = with_role_split

KEY = f"k2026:{secrets.token_urlsafe(32)}"
DEVELOPMENT_KEY = "dev:dev-only-not-secret-fairsheet-audit"  # config/settings.py, public
CHANGED_OUTSIDE = "Changed outside Fairsheet."
NOT_STAMPED = "Changed since approval: not approved until the GM looks at it again"
STAMPED = "Approved · SHA-256"
STAMP_CODE = re.compile(r"stamp \d+\.\d+\.\d+\.[0-9a-f]{10}")


@pytest.fixture(autouse=True)
def audit_key(settings):
    """A secret key, as production has, set before any event is written."""
    settings.AUDIT_KEY = KEY
    settings.AUDIT_OLD_KEYS = []
    return settings


def run(sql, params=None):
    with connections["default"].cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else None


def verify(*args) -> tuple[int, list[str]]:
    out = StringIO()
    try:
        call_command("verify_audit", *args, stdout=out)
    except CommandError as failed:
        return failed.returncode, out.getvalue().splitlines()
    return 0, out.getvalue().splitlines()


def page_text(response) -> str:
    assert response.status_code == 200
    if response["Content-Type"] == "application/pdf":
        return " ".join(texts(response.content))
    return " ".join(response.content.decode().split())


# -- events forged by the runtime role, without the key -------------------------------------------


def _hmac(key_text: str, message: bytes) -> str:
    return hmac.new(key_text.partition(":")[2].encode(), message, hashlib.sha256).hexdigest()


def no_mac(event, before):
    event.key_id, event.mac = "", ""


def plain_sha_as_mac(event, before):
    event.key_id, event.mac = KEY.partition(":")[0], event.record_hash


def development_key_mac(event, before):
    """Made with the development key everyone can read, under the server's key id."""
    from characters.audit_chain import _canonical

    event.key_id = KEY.partition(":")[0]
    event.mac = _hmac(DEVELOPMENT_KEY, _canonical(event, event.previous_hash))


def mac_of_the_event_before(event, before):
    event.key_id, event.mac = before.key_id, before.mac


def unknown_key_id(event, before):
    from characters.audit_chain import _canonical

    event.key_id = "stolen"
    event.mac = _hmac(f"stolen:{secrets.token_hex(16)}", _canonical(event, event.previous_hash))


def the_servers_key(event, before):
    """The control: what only Fairsheet, holding the key, can write."""
    link(event, event.previous_hash)


FORGED_MACS = [
    no_mac,
    plain_sha_as_mac,
    development_key_mac,
    mac_of_the_event_before,
    unknown_key_id,
]


def forge(character, mac, **fields) -> CharacterEvent:
    """An event INSERTed by the runtime role after the character's last one, its hashes
    recomputed as audit_chain does, its MAC made by `mac`, and the row's trail head moved
    to it (the role may update characters: the head is no defence, the key is)."""
    before = CharacterEvent.objects.filter(character=character).latest("id")
    event = CharacterEvent(character=character, **fields)
    event.previous_hash = before.record_hash
    event.record_hash = event_hash(event, before.record_hash)
    mac(event, before)
    event.save(force_insert=True)
    run(
        "UPDATE characters_character SET audit_head = %s WHERE id = %s",
        [event.record_hash, character.pk],
    )
    return event


def tampered_rows(character) -> str:
    """Climbing to Legendary in the rows, the version one up: the build's new digest."""
    run(
        "UPDATE characters_trait SET level = %s WHERE character_id = %s AND name = 'Climbing'",
        [LEGENDARY, character.pk],
    )
    run("UPDATE characters_character SET version = version + 1 WHERE id = %s", [character.pk])
    fresh = Character.objects.prefetch_related("traits", "equipment", "ledger").get(pk=character.pk)
    return fresh, build_sha256(character_to_rules(fresh))


def appended_approval(character, gm, mac):
    """The probe's: a submitted build raised to Legendary, then a GM approval of it,
    backdated a day, with the Approval row the sheet's stamp reads."""
    submitted(character)
    fresh, digest = tampered_rows(character)
    snapshot = write_character(character_to_rules(fresh), character_base(fresh).ladder)
    approval = Approval.objects.create(
        character=fresh,
        version=fresh.version,
        snapshot=snapshot,
        sha256=file_sha256(snapshot),
        approved_by=gm,
    )
    run("UPDATE characters_character SET state = 'approved' WHERE id = %s", [character.pk])
    return forge(
        character,
        mac,
        actor=gm,
        action="approved",
        created_at=timezone.now() - timedelta(days=1),
        before={"state": "submitted"},
        after={"state": "approved", "sha256": approval.sha256, "approval": approval.pk},
        version=fresh.version,
        build_sha256=digest,
    )


def appended_raise(character, gm, mac):
    """An approved build raised to Legendary, with the spend's event recording its digest."""
    approved(character, gm)
    fresh, digest = tampered_rows(character)
    return forge(
        character,
        mac,
        actor=character.owner,
        action="experience_spent",
        target="skill:Climbing",
        before={"level": 0},
        after={"level": LEGENDARY},
        version=fresh.version,
        build_sha256=digest,
    )


ATTACKS = [appended_approval, appended_raise]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("mac", FORGED_MACS)
def test_verify_audit_rejects_an_event_written_without_the_key(
    character, climbing, gm, attack, mac
):
    assert verify()[0] == 0
    event = attack(character, gm, mac)
    returncode, lines = verify()
    assert returncode == 1
    [line] = [line for line in lines if f"event {event.pk} " in line]
    key_id = event.key_id
    if not event.mac:
        assert "it carries no MAC" in line
    elif key_id == "stolen":
        assert "signed with the key 'stolen', which this server does not hold" in line
    else:
        assert f"its MAC does not verify with the key {key_id!r}" in line
    assert all("(it no longer has its hash)" not in line for line in lines), "hashes recomputed"


@pytest.mark.parametrize("attack", ATTACKS)
def test_the_same_forgery_signed_with_the_key_would_pass(character, climbing, gm, attack, login):
    """The control: the attacks above are complete but for the key."""
    attack(character, gm, the_servers_key)
    assert verify()[0] == 0
    sheet = page_text(login(character.owner).get(reverse("character_sheet", args=[character.pk])))
    assert STAMPED in sheet


PAGES = [
    ("character_builder", "player", CHANGED_OUTSIDE),
    ("character_review", "gm", CHANGED_OUTSIDE),
    ("character_audit", "gm", CHANGED_OUTSIDE),
    ("character_sheet", "player", NOT_STAMPED),
    ("character_sheet_pdf", "player", NOT_STAMPED),
]


@pytest.mark.parametrize("attack", ATTACKS)
@pytest.mark.parametrize("page, viewer, warning", PAGES)
def test_a_forged_event_flags_the_character_and_takes_its_stamp(
    character, climbing, gm, player, attack, page, viewer, warning, login
):
    attack(character, gm, plain_sha_as_mac)
    users = {"gm": gm, "player": player}
    text = page_text(login(users[viewer]).get(reverse(page, args=[character.pk])))
    assert warning in text
    assert STAMPED not in text
    assert not STAMP_CODE.search(text)
    if page == "character_sheet_pdf":
        assert "CHANGED SINCE APPROVAL" in text


# -- nothing renumbers or orphans -----------------------------------------------------------------


@pytest.mark.parametrize("model", [Character, Campaign, CommentThread])
def test_the_ids_events_name_are_never_renumbered(character, climbing, gm, model):
    comment_thread_start(character=character, actor=gm, body="Why Climbing?")
    row = {Character: character, Campaign: character.campaign}.get(
        model
    ) or CommentThread.objects.get()
    table = model._meta.db_table
    refusal = f"rows of {table} by id: renumbering {row.pk}"
    with pytest.raises(IntegrityError, match=refusal), transaction.atomic():
        run(f"UPDATE {table} SET id = id + 1000000 WHERE id = %s", [row.pk])
    with pytest.raises(IntegrityError, match="archive it instead"), transaction.atomic():
        run("DELETE FROM characters_character WHERE id = %s", [character.pk])
    assert Character.all_objects.filter(pk=character.pk).exists()


@pytest.mark.django_db(transaction=True)
def test_verify_audit_names_every_event_of_a_character_renumbered_and_deleted(campaign, gm):
    recorded = Character.all_objects.create(
        owner=gm, campaign=campaign, ruleset="mudge", name="Renumbered"
    )
    with transaction.atomic():
        events = [
            record_event(character=recorded, actor=gm, action=action)
            for action in ("character_created", "character_renamed")
        ]
    assert verify()[0] == 0
    as_owner(
        ("UPDATE characters_character SET id = id + 1000000 WHERE id = %s", [recorded.pk]),
        ("DELETE FROM characters_character WHERE id = %s", [recorded.pk + 1000000]),
        triggers_off=["characters_character"],
    )
    returncode, lines = verify()
    assert returncode == 1
    assert lines == [
        f"character {recorded.pk} (missing), event {event.pk} ({event.action.replace('_', ' ')}, "
        f"{event.created_at:%Y-%m-%d %H:%M}): the character it names is gone: renumbered or "
        "deleted behind the app"
        for event in events
    ]


# -- thread messages are append-only --------------------------------------------------------------


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE characters_threadmessage SET body = 'I never said that' WHERE id = %s",
        "UPDATE characters_threadmessage SET author_id = author_id WHERE id = %s",
        "DELETE FROM characters_threadmessage WHERE id = %s",
    ],
)
def test_a_thread_message_cannot_be_edited_or_removed(character, gm, statement):
    thread = comment_thread_start(character=character, actor=gm, body="Why Climbing?")
    message = thread.messages.get()
    with pytest.raises(ProgrammingError, match="permission denied"), transaction.atomic():
        run(statement, [message.pk])
    assert ThreadMessage.objects.get(pk=message.pk).body == "Why Climbing?"


@pytest.mark.django_db(transaction=True)
def test_not_even_the_owner_edits_a_thread_message_with_its_triggers_on(character, gm):
    thread = comment_thread_start(character=character, actor=gm, body="Why Climbing?")
    message = thread.messages.get()
    sql = "UPDATE characters_threadmessage SET body = 'I never said that' WHERE id = %s"
    with pytest.raises(psycopg.errors.RestrictViolation, match="append-only"):
        as_owner((sql, [message.pk]), triggers_off=())
    assert ThreadMessage.objects.get(pk=message.pk).body == "Why Climbing?"


# -- the owner's rewrite, against heads kept outside the database ---------------------------------


def rewritten_and_rehashed(character, campaign):
    """The owner edits the newest event and re-hashes it with plain SHA-256, MAC and all."""
    event = CharacterEvent.objects.filter(character=character).latest("id")
    event.reason = "rewritten"
    new_hash = event_hash(event, event.previous_hash)
    sql = (
        "UPDATE characters_characterevent SET reason = 'rewritten', record_hash = %s, mac = %s "
        "WHERE id = %s"
    )
    return [(sql, [new_hash, new_hash, event.pk])], f"character {character.pk}, event {event.pk}"


def campaign_chain_cut_short(character, campaign):
    """The campaign's newest event deleted: nothing else on record counts them."""
    event = campaign.events.latest("id")
    sql = "DELETE FROM characters_campaignevent WHERE id = %s"
    return [(sql, [event.pk])], f"campaign {campaign.pk}, event {event.pk}"


def character_chain_cut_short(character, campaign):
    """The character's newest event deleted and its version and trail head put back to
    match."""
    event, before = CharacterEvent.objects.filter(character=character).order_by("-id")[:2]
    return [
        ("DELETE FROM characters_characterevent WHERE id = %s", [event.pk]),
        (
            "UPDATE characters_character SET version = version - 1, audit_head = %s WHERE id = %s",
            [before.record_hash, character.pk],
        ),
    ], f"character {character.pk}, event {event.pk}"


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "rewrite", [rewritten_and_rehashed, campaign_chain_cut_short, character_chain_cut_short]
)
def test_an_owners_rewrite_is_caught_against_the_exported_heads(
    campaign, character, climbing, gm, rewrite, tmp_path
):
    approved(character, gm)
    experience_award(character=character, actor=gm, amount=1, reason="session")
    with transaction.atomic():
        record_campaign_event(campaign=campaign, actor=gm, action="campaign_created")
        record_campaign_event(campaign=campaign, actor=gm, action="settings_changed")
    out = StringIO()
    call_command("audit_heads", stdout=out)
    heads = tmp_path / "heads.json"
    heads.write_text(out.getvalue())
    exported = {head["chain"]: head for head in json.loads(out.getvalue())["heads"]}
    assert set(exported) == {f"character:{character.pk}", f"campaign:{campaign.pk}"}
    assert verify("--heads", str(heads)) == (
        0,
        [
            "The audit trail holds: every chain and the heads exported and every approved build "
            "checks out."
        ],
    )
    statements, where = rewrite(character, campaign)
    as_owner(*statements, triggers_off=("characters_characterevent", "characters_campaignevent"))
    returncode, lines = verify("--heads", str(heads))
    assert returncode == 1
    [head_line] = [line for line in lines if "(its head when exported)" in line]
    assert head_line.startswith(f"{where} (its head when exported): ")
    if rewrite is rewritten_and_rehashed:
        assert "its MAC is not the one exported" in head_line
        assert any("its MAC does not verify" in line for line in lines)
    else:
        assert "the chain no longer reaches it" in head_line
        assert verify()[0] == 0, "without the heads, a chain cut short still holds"


def test_a_heads_file_that_is_not_one_is_refused(db, tmp_path):
    wrong = tmp_path / "heads.json"
    wrong.write_text('{"chains": []}')
    with pytest.raises(CommandError, match="is not a head export") as refused:
        call_command("verify_audit", "--heads", str(wrong), stdout=StringIO())
    assert refused.value.returncode == 2


# -- rotating the key -----------------------------------------------------------------------------


def test_events_under_an_old_key_verify_only_with_it(character, climbing, gm, login, audit_key):
    approval = approved(character, gm)
    event = character.events.get(action="approved")
    code = stamp_code(character.pk, approval.version, event.pk)
    new_key = f"k2027:{secrets.token_urlsafe(32)}"
    audit_key.AUDIT_KEY, audit_key.AUDIT_OLD_KEYS = new_key, [KEY]
    experience_award(character=character, actor=gm, amount=1, reason="session")
    assert character.events.latest("id").key_id == "k2027"
    assert verify()[0] == 0
    client = login(character.owner)
    sheet = page_text(client.get(reverse("character_sheet", args=[character.pk])))
    assert STAMPED in sheet
    [now_printed] = STAMP_CODE.findall(sheet)
    assert now_printed != f"stamp {code}", "a sheet printed now carries the new key's stamp"
    check = reverse("approval_stamp_check")
    for printed in (code, now_printed.removeprefix("stamp ")):
        assert "Valid: Fairsheet issued" in page_text(client.get(check, {"code": printed}))

    audit_key.AUDIT_OLD_KEYS = []
    returncode, lines = verify()
    assert returncode == 1
    old_events = CharacterEvent.objects.filter(character=character, key_id="k2026")
    unheld = "it is signed with the key 'k2026', which this server does not hold"
    assert [line for line in lines if unheld in line] == lines[:-1]
    assert len(lines) - 1 == old_events.count() > 0
    assert lines[-1].endswith(
        "an event its approval rests on has no MAC this server verifies "
        "(listed above): it is not approved until the GM looks at it again"
    )
    sheet = page_text(client.get(reverse("character_sheet", args=[character.pk])))
    assert NOT_STAMPED in sheet and STAMPED not in sheet
    assert "Not valid" in page_text(client.get(check, {"code": code}))


# -- the approval stamp and its check page --------------------------------------------------------


@pytest.fixture
def stamp(character, climbing, gm):
    approval = approved(character, gm)
    event = character.events.get(action="approved")
    return stamp_code(character.pk, approval.version, event.pk)


@pytest.mark.parametrize("page", ["character_sheet", "character_sheet_pdf", "character_play"])
def test_the_sheet_prints_the_stamp(character, stamp, page, login):
    text = page_text(login(character.owner).get(reverse(page, args=[character.pk])))
    assert f"{STAMPED} " in text
    assert f"stamp {stamp}" in text


def _altered(code: str) -> str:
    last = code[-1]
    return code[:-1] + ("0" if last != "0" else "1")


@pytest.mark.parametrize(
    "viewer, code_of, answer",
    [
        ("player", lambda code: code, "Valid: Fairsheet issued this stamp when"),
        ("gm", lambda code: code, "This approval still stands."),
        ("outsider", lambda code: code, "Not valid"),
        ("player", _altered, "Not valid"),
        ("player", lambda code: code.replace(".", ".9", 1), "Not valid"),  # another version
        ("player", lambda code: "12.7.345.not-a-code", "Not valid"),
        ("player", lambda code: "9" * 99, "Not valid"),
    ],
)
def test_the_check_page_answers_the_players_and_the_gm_only(
    stamp, viewer, code_of, answer, login, request
):
    client = login(request.getfixturevalue(viewer))
    text = page_text(client.get(reverse("approval_stamp_check"), {"code": code_of(stamp)}))
    assert answer in text
    assert ("Valid:" in text) == ("Not valid" not in answer)


def test_a_stamp_no_longer_standing_says_so(character, stamp, gm, login):
    run(
        "UPDATE characters_trait SET level = %s WHERE character_id = %s AND name = 'Climbing'",
        [LEGENDARY, character.pk],
    )
    text = page_text(login(gm).get(reverse("approval_stamp_check"), {"code": stamp}))
    assert "Valid: Fairsheet issued this stamp" in text
    assert "This approval no longer stands" in text


def test_the_check_page_needs_a_sign_in(client, stamp):
    response = client.get(reverse("approval_stamp_check"), {"code": stamp})
    assert response.status_code == 302 and "/login" in response["Location"]


@pytest.mark.parametrize(
    "language, valid, stamp_word",
    [("fr", "Valide : Fairsheet", "tampon"), ("es", "Válido: Fairsheet", "sello")],
)
def test_the_stamp_and_its_check_speak_the_readers_language(
    character, stamp, login, language, valid, stamp_word
):
    client = login(character.owner)
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    sheet = page_text(client.get(reverse("character_sheet", args=[character.pk]), **headers))
    assert f"{stamp_word} {stamp}" in sheet
    check = client.get(reverse("approval_stamp_check"), {"code": stamp}, **headers)
    assert valid in page_text(check)
