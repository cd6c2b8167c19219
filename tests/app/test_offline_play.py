"""The play page without a connection (issue 44, docs/offline.md), over HTTP: the endpoint
that takes the changes a phone queued offline (in order, by the online rules and revisions,
the GM's change winning, each answered once however often the batch is sent), who may send
them, bad batches refused with a reason; the manifest, the service worker and the offline
page as the browser fetches them. The journey with the network cut is in
tests/browser/test_offline_play_browser.py."""

import json
import uuid

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse

from characters.models import DiceRoll, OfflineWrite, PlayEvent, PlayState
from characters.services import play as services
from characters.services.webhooks import roll_payload
from tests.support.play_fixtures import *  # noqa: F403

HURT = 1  # Mudge 4.57's track: Scratch, Hurt, Very Hurt, Incapacitated, Near Death
STALE = "Tess was changed meanwhile by someone else (the GM's change wins)"


@pytest.fixture
def pip(client, player):
    client.force_login(player)
    return client


def write(kind, **fields):
    return {"key": str(uuid.uuid4()), "kind": kind, "fields": fields}


def send(client, character, writes):
    return client.post(
        reverse("play_offline", args=[character.pk]),
        data=json.dumps({"writes": writes}),
        content_type="application/json",
    )


def state_of(character) -> PlayState:
    return PlayState.objects.get(character=character)


class TestTheQueuedWrites:
    def test_they_are_applied_in_the_order_they_were_made(self, pip, tess):
        writes = [
            write("wound", box=f"mark:{HURT}", revision=0),
            write("points", action="spend", revision=1),
            write("condition_add", text="Stunned"),
            write(
                "roll",
                quick="Climbing",
                modifier="1",
                against="1",
                dice="1,1,0,-1",
                rolled_at="2026-12-06T20:14:05Z",
            ),
        ]
        answer = send(pip, tess, writes)
        assert answer.status_code == 200
        body = answer.json()
        assert [a["applied"] for a in body["answers"]] == [True] * 4
        assert [a["key"] for a in body["answers"]] == [w["key"] for w in writes]
        assert body["answers"][0]["said"] == (
            "Tess: Hurt box marked. Now Hurt, -1 on every roll; meta points in hand: 3."
        )
        assert body["revision"] == 3
        state = state_of(tess)
        assert (state.points_spent, state.conditions, state.revision) == (1, ["Stunned"], 3)
        actions = list(PlayEvent.objects.filter(character=tess).values_list("action", flat=True))
        assert actions == ["wound_marked", "points_spent", "condition_added"]
        # The roll: the phone's dice, the wound penalty the earlier write brought.
        roll = DiceRoll.objects.get()
        assert roll.dice == [1, 1, 0, -1]
        assert (roll.level, roll.penalty, roll.modifier, roll.result) == (1, -1, 1, 2)
        assert roll.rolled_offline_at.isoformat() == "2026-12-06T20:14:05+00:00"
        assert body["answers"][3]["said"] == (
            "Tess, rolled offline: Climbing Good -1 (Hurt) +1 situational: rolled +1 → Great. "
            "Against Good: success by 1 (61.7% to reach it)."
        )

    def test_a_gm_change_made_meanwhile_wins_and_says_why(self, pip, tess, gm):
        services.play_wound_box(
            character=tess, actor=gm, expected_revision=None, level=HURT, mark=True
        )
        answers = send(
            pip,
            tess,
            [
                write("points", action="spend", revision=0),
                write("condition_add", text="Stunned"),
                write("wound", box=f"clear:{HURT}", revision=2),
            ],
        ).json()["answers"]
        assert [a["applied"] for a in answers] == [False, True, False]
        assert answers[0]["said"].startswith(STALE)
        assert answers[2]["said"].startswith(STALE)
        state = state_of(tess)
        assert (state.points_spent, state.conditions) == (0, ["Stunned"])
        assert any(state.wounds[HURT])  # the GM's mark stands

    def test_a_refused_write_does_not_refuse_the_unrelated_ones_after_it(self, pip, tess):
        answers = send(
            pip,
            tess,
            [
                write("points", action="regain", revision=0),  # only the GM gives points back
                write("points", action="spend", revision=1),
            ],
        ).json()["answers"]
        assert [a["applied"] for a in answers] == [False, True]
        assert answers[0]["said"] == "Only the GM gives meta points back at the table (Mudge 1.36)."
        assert state_of(tess).points_spent == 1

    def test_a_batch_sent_twice_changes_nothing_twice(self, pip, tess):
        writes = [
            write("wound", box=f"mark:{HURT}", revision=0),
            write("roll", trait="", dice="0,0,0,1", rolled_at="2026-12-06T20:14:05Z"),
        ]
        first = send(pip, tess, writes).json()["answers"]
        again = send(pip, tess, writes).json()["answers"]
        assert again == first
        assert state_of(tess).revision == 1
        assert DiceRoll.objects.count() == 1
        assert OfflineWrite.objects.count() == 2

    def test_a_key_another_player_sent_saves_nothing(self, pip, tess, otto, client):
        spend = write("points", action="spend", revision=0)
        send(pip, tess, [spend])
        client.force_login(otto.owner)
        [answer] = send(client, otto, [spend]).json()["answers"]
        assert answer == {
            "key": spend["key"],
            "applied": False,
            "said": "This write's key was already used: nothing was saved.",
        }
        assert not PlayState.objects.filter(character=otto).exists()

    def test_the_discord_post_says_a_roll_was_made_offline(self, pip, tess):
        send(pip, tess, [write("roll", dice="1,0,0,0", rolled_at="2026-12-06T20:14:05Z")])
        fields = roll_payload(DiceRoll.objects.get(), "https://table.example")["embeds"][0]
        assert fields["fields"][-1] == {
            "name": "Rolled offline",
            "value": "on the player's device at 20:14:05 UTC",
            "inline": False,
        }

    def test_the_log_says_a_roll_was_made_offline(self, pip, tess):
        send(pip, tess, [write("roll", dice="1,0,0,0", rolled_at="2026-12-06T20:14:05Z")])
        services.dice_roll(character=tess, actor=tess.owner)
        page = pip.get(reverse("campaign_log", args=[tess.campaign_id])).content.decode()
        assert page.count("rolled offline, on the player's device, at 20:14:05") == 1


class TestWhoMaySend:
    def test_another_player_and_an_outsider_get_404(self, client, tess, other_player, outsider):
        for someone in (other_player, outsider):
            client.force_login(someone)
            assert (
                send(client, tess, [write("points", action="spend", revision=0)]).status_code == 404
            )
        assert not PlayState.objects.filter(character=tess, points_spent__gt=0).exists()

    def test_a_visitor_is_sent_to_log_in(self, client, tess):
        answer = send(client, tess, [])
        assert answer.status_code == 302 and "/accounts/login/" in answer["Location"]

    def test_the_csrf_token_is_needed(self, tess, player):
        client = Client(enforce_csrf_checks=True)
        client.force_login(player)
        assert send(client, tess, [write("points", action="spend", revision=0)]).status_code == 403
        assert not OfflineWrite.objects.exists()


class TestBadBatches:
    @pytest.mark.parametrize(
        ("body", "said"),
        [
            ("{not json", "The queued changes are not JSON: nothing was saved."),
            ("[]", 'Send {"writes": […]}, the list of queued changes: nothing was saved.'),
            (
                json.dumps({"writes": [{"key": "nope", "kind": "wound", "fields": {}}]}),
                "Change 1 has no key (a UUID): nothing was saved.",
            ),
            (
                json.dumps(
                    {"writes": [write("points", action="spend", revision=0), write("rest")]}
                ),
                "Change 2: 'rest' is no change the play page queues "
                "(wound, points, condition_add, condition_remove, roll).",
            ),
            (
                json.dumps({"writes": [write("wound", box="mark:x", revision=0)]}),
                "Change 1 (wound): Box: Enter a valid value. Nothing was saved.",
            ),
            (
                json.dumps({"writes": [write("roll", dice="2,0,0,0", rolled_at="now")]}),
                "Change 1 (roll): Dice: Enter a valid value. Nothing was saved.",
            ),
        ],
    )
    def test_it_is_refused_whole_with_a_reason(self, pip, tess, body, said):
        answer = pip.post(
            reverse("play_offline", args=[tess.pk]), data=body, content_type="application/json"
        )
        assert (answer.status_code, answer.json()) == (400, {"error": said})
        assert not PlayState.objects.filter(character=tess, points_spent__gt=0).exists()
        assert not OfflineWrite.objects.exists()


class TestWhatTheBrowserFetches:
    def test_the_manifest_names_the_character_and_opens_its_play_page(self, pip, tess):
        answer = pip.get(reverse("play_manifest", args=[tess.pk]))
        assert answer["Content-Type"] == "application/manifest+json"
        manifest = answer.json()
        play = f"/characters/{tess.pk}/play/"
        assert (manifest["start_url"], manifest["scope"], manifest["display"]) == (
            play,
            play,
            "standalone",
        )
        assert manifest["name"] == "Tess at the table · Fairsheet"
        sizes = {icon["sizes"] for icon in manifest["icons"]}
        assert {"192x192", "512x512"} <= sizes
        for icon in manifest["icons"]:
            assert finders.find(icon["src"].removeprefix("/static/"))
        page = pip.get(reverse("character_play", args=[tess.pk])).content.decode()
        assert f'<link rel="manifest" href="{play}manifest.webmanifest"' in page

    def test_the_service_worker_is_served_from_the_root_uncached(self, client):
        answer = client.get("/sw.js")
        assert answer.status_code == 200
        assert answer["Content-Type"].startswith("text/javascript")
        assert answer["Cache-Control"] == "no-cache"
        text = answer.content.decode()
        assert '"/static/css/play.css"' in text and 'const OFFLINE_URL = "/offline/";' in text

    def test_the_offline_page_says_what_does_not_work_offline(self, client):
        page = client.get(reverse("offline_page")).content.decode()
        assert (
            "The builder, the review, the sheets and the rest of Fairsheet work only online" in page
        )


@pytest.mark.parametrize(
    ("language", "heading", "as_of"),
    [
        ("fr", "Pas de connexion", "Hors ligne — état de {time}"),
        ("es", "Sin conexión", "Sin conexión — estado de las {time}"),
        ("de", "Keine Verbindung", "Offline — Stand von {time}"),
    ],
)
def test_offline_reads_in_the_language(pip, tess, language, heading, as_of):
    pip.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    assert f"<h1>{heading}</h1>" in pip.get(reverse("offline_page")).content.decode()
    play = pip.get(reverse("character_play", args=[tess.pk])).content.decode()
    assert f'data-said-offline="{as_of}"' in play
