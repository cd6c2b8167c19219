"""Issue 41: campaign webhooks. The GM gives an address; each roll of the dice log is posted
there by the task queue's webhook worker (the character, the roll, its result and odds), the
roll never waiting for it; a post that meets a 500 or a timeout is tried again, and none is
ever posted twice; a redirect is not followed; only https on public addresses, with the
address checked when the post is made. A sink on 127.0.0.1 (a tiny http.server thread)
takes the posts, which WEBHOOK_ALLOW_LOOPBACK allows in these tests only: nothing here
connects anywhere else."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from django.test import override_settings
from django.urls import reverse
from django_tasks_db.management.commands.db_worker import Worker
from django_tasks_db.models import DBTaskResult

from characters.models import CampaignEvent, CampaignWebhook, WebhookDelivery
from characters.services import play
from characters.services.webhooks import PostFailed, post_json, webhook_post, webhook_set
from tests.app.test_play import dice
from tests.support.play_fixtures import *  # noqa: F403

TIMEOUT = 0.5  # seconds the worker waits for the sink in these tests
# The worker commits and closes its connections, as it does in production: real transactions.
pytestmark = pytest.mark.django_db(transaction=True)


class Sink(ThreadingHTTPServer):
    """Answers each post with the next of `answers` (a status, or "timeout": an answer only
    after the worker stopped waiting), then 204; keeps each post it took, answered or not."""

    def __init__(self):
        super().__init__(("127.0.0.1", 0), SinkHandler)
        self.answers: list = []
        self.posts: list[dict] = []
        self.accepted: list[dict] = []  # the posts it answered with a 2xx

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/hook?wait=true"


class SinkHandler(BaseHTTPRequestHandler):
    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        sink = self.server
        sink.posts.append(body)
        answer = sink.answers.pop(0) if sink.answers else 204
        if answer == "timeout":
            time.sleep(TIMEOUT * 3)
            answer = 204  # too late: the worker has given this try up
        elif 200 <= answer < 300:
            sink.accepted.append(body)
        self.send_response(answer)
        if answer == 302:
            self.send_header("Location", "http://127.0.0.1:1/elsewhere")
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture
def sink():
    server = Sink()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def _loopback_sink_only():
    with override_settings(
        WEBHOOK_ALLOW_LOOPBACK=True, WEBHOOK_TIMEOUT_SECONDS=TIMEOUT, WEBHOOK_RETRY_SECONDS=0
    ):
        yield


def run_webhook_worker():
    """django-tasks-db's worker on the webhooks queue, in this process, until it is empty."""
    Worker(
        queue_names=["webhooks"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-webhooks",
        excluded_queue_names=[],
    ).run()


def roll(character, actor, **options):
    return play.dice_roll(
        character=character, actor=actor, trait="Climbing", randbelow=dice(1, 1, 0, -1), **options
    )


@pytest.fixture
def hooked(client, gm, campaign, sink):
    """The GM sets the sink as the campaign's webhook on the campaign's page."""
    client.force_login(gm)
    response = client.post(reverse("campaign_webhook", args=[campaign.pk]), {"url": sink.url})
    assert response.status_code == 302
    return CampaignWebhook.objects.get(campaign=campaign)


def test_each_roll_is_posted_once_by_the_worker_never_by_the_roll(hooked, sink, tess, player):
    first = roll(tess, player, against=1)
    # The roll is made and logged; nothing is posted until the worker runs.
    assert sink.posts == []
    (task,) = DBTaskResult.objects.all()
    assert (task.queue_name, task.task_path) == (
        "webhooks",
        "characters.services.webhooks.webhook_post",
    )
    second = roll(tess, player)
    run_webhook_worker()
    assert len(sink.posts) == len(sink.accepted) == 2
    post = sink.accepted[0]
    (embed,) = post["embeds"]
    assert post["content"] == "Tess: Climbing → +2"
    assert embed["title"] == "Tess rolls Climbing"
    fields = {field["name"]: field["value"] for field in embed["fields"]}
    # Climbing Good (+1), dice + + 0 - (+1): +2; the odds of reaching Good from Good: 50 in 81.
    assert fields == {
        "Roll": "Climbing: +1",
        "Dice": "+ + 0 -",
        "Result": "+2",
        "Odds": "62% to reach +1",
    }
    assert embed["url"] == f"http://testserver/characters/{tess.pk}/sheet/"
    assert post["allowed_mentions"] == {"parse": []}
    assert "Odds" not in {field["name"] for field in sink.accepted[1]["embeds"][0]["fields"]}
    assert {d.roll_id: d.status for d in WebhookDelivery.objects.all()} == {
        first.pk: "sent",
        second.pk: "sent",
    }
    # Run again, or the task run again: nothing is posted twice.
    for delivery in WebhookDelivery.objects.all():
        webhook_post.enqueue(delivery.pk)
    run_webhook_worker()
    assert len(sink.posts) == 2
    hooked.refresh_from_db()
    assert hooked.delivered_at is not None and hooked.failed_at is None


def test_a_500_and_a_timeout_are_tried_again_and_it_is_posted_once(
    hooked, sink, tess, player, client, campaign
):
    sink.answers = [500, "timeout"]
    made = roll(tess, player)
    run_webhook_worker()
    assert len(sink.posts) == 3  # the 500, the one answered too late, the one that went
    assert len(sink.accepted) == 1
    delivery = WebhookDelivery.objects.get(roll=made)
    assert (delivery.status, delivery.attempts) == ("sent", 3)
    # The GM saw the failures meanwhile; once posted, the page says when.
    hooked.refresh_from_db()
    assert hooked.failed_at is not None and "timed out" in hooked.last_error
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "Last posted on" in page


def test_a_redirect_is_not_followed_and_the_gm_sees_why(
    hooked, sink, tess, player, client, campaign
):
    sink.answers = [302]
    made = roll(tess, player)
    run_webhook_worker()
    assert len(sink.posts) == 1  # and nothing went to the Location it named
    delivery = WebhookDelivery.objects.get(roll=made)
    assert (delivery.status, delivery.attempts) == ("given_up", 1)
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "The last post failed on" in page
    assert "HTTP 302: a redirect, not followed" in page
    assert "Given up: 1." in page


def test_the_address_is_shown_masked_and_revoked(hooked, sink, tess, player, client, campaign):
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert sink.url not in page
    port = sink.server_address[1]
    assert f"http://127.0.0.1:{port}/…true" in page
    assert hooked.masked_url == f"http://127.0.0.1:{port}/…true"
    event = CampaignEvent.objects.get(action="webhook_set")
    assert sink.url not in json.dumps(event.after)
    roll(tess, player)  # queued, not yet posted
    response = client.post(reverse("campaign_webhook_revoke", args=[campaign.pk]))
    assert response.status_code == 302
    assert not CampaignWebhook.objects.exists() and not WebhookDelivery.objects.exists()
    run_webhook_worker()
    roll(tess, player)
    run_webhook_worker()
    assert sink.posts == []


def test_only_the_gm_sets_it(client, player, campaign, sink):
    client.force_login(player)
    response = client.post(reverse("campaign_webhook", args=[campaign.pk]), {"url": sink.url})
    assert response.status_code == 404
    assert not CampaignWebhook.objects.exists()


@pytest.mark.parametrize(
    "url",
    [
        "http://discord.com/api/webhooks/1/abc",  # not https
        "https://10.0.0.7/hook",
        "https://192.168.1.20/hook",
        "https://172.16.0.1/hook",
        "https://169.254.169.254/latest/meta-data",
        "https://[::1]/hook",
        "https://[fd00::1]/hook",
        "https://localhost/hook",
        "https://user:secret@discord.com/api/webhooks/1/abc",
    ],
)
def test_a_private_or_plain_address_is_refused(url, client, gm, campaign):
    client.force_login(gm)
    response = client.post(
        reverse("campaign_webhook", args=[campaign.pk]), {"url": url}, follow=True
    )
    assert not CampaignWebhook.objects.exists()
    assert "A webhook address" in response.content.decode()


def test_loopback_is_refused_outside_the_tests_setting(gm, campaign, sink):
    with override_settings(WEBHOOK_ALLOW_LOOPBACK=False):
        with pytest.raises(Exception, match="A webhook address starts with https://"):
            webhook_set(campaign=campaign, actor=gm, url=sink.url, site_url="https://x/")
        with pytest.raises(PostFailed, match="not an https address"):
            post_json(sink.url, {})
    assert sink.posts == []


def test_an_address_that_is_private_when_the_post_is_made_is_given_up_unposted(
    gm, campaign, tess, player, sink
):
    """A webhook stored before the rules, or a name that now points inside: checked at each
    post, refused before any connection."""
    CampaignWebhook.objects.create(
        campaign=campaign, url="https://10.11.12.13/hook", site_url="https://x/", created_by=gm
    )
    made = roll(tess, player)
    run_webhook_worker()
    delivery = WebhookDelivery.objects.get(roll=made)
    assert (delivery.status, delivery.attempts) == ("given_up", 1)
    assert delivery.last_error == "10.11.12.13 is at 10.11.12.13, which is not a public address"
    with pytest.raises(PostFailed, match="not a public address") as refused:
        post_json("https://192.168.0.1:8443/", {})
    assert refused.value.retry is False
