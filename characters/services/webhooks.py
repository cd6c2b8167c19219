"""Campaign webhooks: the GM gives an address (a Discord webhook, or any https endpoint) and
each roll of the campaign's dice log is posted there by the task queue's webhook worker
(`manage.py db_worker --queue-name webhooks`), never by the request that rolled.

- The roll writes a WebhookDelivery in its own transaction and enqueues its task: the roll
  never waits for the other end, and a roll that is not saved posts nothing.
- A post is made only by the worker that moves the delivery from queued to sending, so a
  task run twice posts once. A post that fails (a timeout, a refused connection, a 5xx or
  429 answer) is tried again later, twice as long each time; a 4xx answer, a redirect (never
  followed) or an address that is not public is given up at once. The GM sees the last
  failure on the campaign's page.
- Only https addresses on public hosts: the name is resolved when the post is made and
  every address it gives must be a public one (no loopback, private, link-local, shared or
  reserved range), and the connection goes to the address that was checked, so a name that
  changes its answer between the check and the post reaches nothing else. In tests,
  WEBHOOK_ALLOW_LOOPBACK lets a sink on 127.0.0.1 take plain-http posts.
"""

import http.client
import ipaddress
import json
import logging
import socket
import ssl
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.tasks import task
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from characters.errors import NotAllowed, ServiceError
from characters.models import Campaign, CampaignWebhook, DiceRoll, Portrait, WebhookDelivery
from characters.services.audit import record_campaign_event

logger = logging.getLogger(__name__)
ERROR_LENGTH = WebhookDelivery._meta.get_field("last_error").max_length
LOOPBACK = "127.0.0.1"
USER_AGENT = "Fairsheet-Webhook/1"


class PostFailed(Exception):
    """The post did not go through, and may later (`retry`) or never will."""

    def __init__(self, reason: str, *, retry: bool):
        super().__init__(reason)
        self.retry = retry


# -- the GM's side ---------------------------------------------------------------------------------


def webhook_url_problem(url: str) -> str | None:
    """Why the address cannot be a webhook, or None. Its host's addresses are checked again
    at each post (a name may point elsewhere later); here, what can be told without asking
    anyone: https, a host, no credentials, and an address written as digits that is public."""
    parts = urlsplit(url.strip())
    if parts.scheme != "https" and not (_loopback_allowed() and parts.hostname == LOOPBACK):
        return _("A webhook address starts with https://.")
    if not parts.hostname or parts.username or parts.password:
        return _("A webhook address names a host, with no user name or password in it.")
    private = _(
        "A webhook address must be on a public host, not this machine or a private network."
    )
    if parts.hostname == "localhost" or parts.hostname.endswith(".localhost"):
        return private
    try:
        literal = ipaddress.ip_address(parts.hostname)
    except ValueError:
        return None  # a name: its addresses are checked at each post
    if _public(literal) or (_loopback_allowed() and parts.hostname == LOOPBACK):
        return None
    return private


@transaction.atomic
def webhook_set(*, campaign: Campaign, actor, url: str, site_url: str) -> CampaignWebhook:
    """The campaign's webhook, new or replacing the one it had; the history records that it
    was set, and its masked address only (the address lets anyone post to the channel)."""
    _check_gm(campaign, actor)
    problem = webhook_url_problem(url)
    if problem:
        raise ServiceError(problem, field="url")
    CampaignWebhook.objects.filter(campaign=campaign).delete()
    webhook = CampaignWebhook.objects.create(
        campaign=campaign, url=url.strip(), site_url=site_url, created_by=actor
    )
    record_campaign_event(
        campaign=campaign,
        actor=actor,
        action="webhook_set",
        after={"webhook": webhook.masked_url},
    )
    return webhook


@transaction.atomic
def webhook_revoke(*, campaign: Campaign, actor) -> None:
    """No more posts: the webhook and every delivery not yet made are gone."""
    _check_gm(campaign, actor)
    webhook = CampaignWebhook.objects.filter(campaign=campaign).first()
    if webhook is None:
        raise ServiceError(_("The campaign has no webhook."))
    masked = webhook.masked_url
    webhook.delete()
    record_campaign_event(
        campaign=campaign, actor=actor, action="webhook_revoked", before={"webhook": masked}
    )


def _check_gm(campaign: Campaign, actor) -> None:
    if campaign.gm_id != actor.pk:
        raise NotAllowed(_("Only the campaign's GM sets its webhook."))


# -- a roll, queued ----------------------------------------------------------------------------


def webhook_queue(roll: DiceRoll) -> WebhookDelivery | None:
    """The roll's delivery to its campaign's webhook, and the task that posts it: in the
    roll's transaction (the caller's), so both commit with it or neither does. A roll only
    the GM sees (DiceRoll.gm_only) never leaves the server."""
    if roll.campaign_id is None or roll.kind != DiceRoll.Kind.ROLL or roll.gm_only:
        return None
    webhook = CampaignWebhook.objects.filter(campaign_id=roll.campaign_id).first()
    if webhook is None:
        return None
    if not DiceRoll.objects.filter(pk=roll.pk).shown_to_players().exists():
        return None  # the table's channel is the players': never the GM's secrets
    delivery = WebhookDelivery.objects.create(
        webhook=webhook, roll=roll, payload=roll_payload(roll, webhook.site_url)
    )
    webhook_post.enqueue(delivery.pk)
    return delivery


def roll_payload(roll: DiceRoll, site_url: str) -> dict:
    """The post, in the shape Discord's webhooks take (`content` and an embed), which any
    other receiver reads as JSON: the character, its portrait, the roll, result and odds.
    In English, as the log's lines are stored: a channel has no one reader's language."""
    base = site_url.rstrip("/")
    if roll.method == "1d6":  # an NPC's d6 faces (rules.npc), not Fudge dice
        dice = " ".join(str(die) for die in roll.dice)
    else:
        dice = " ".join({-1: "-", 0: "0", 1: "+"}[die] for die in roll.dice[:4]) or "-"
    rolled = roll.trait or "a plain roll"
    fields = [
        {"name": "Roll", "value": f"{rolled}: {_signed(roll.level)}", "inline": True},
        {"name": "Dice", "value": dice, "inline": True},
        {"name": "Result", "value": _signed(roll.result), "inline": True},
    ]
    if roll.modifier or roll.penalty:
        parts = [f"modifier {_signed(roll.modifier)}"] if roll.modifier else []
        if roll.penalty:
            parts.append(f"{roll.penalty_reason or 'wounds'} {_signed(roll.penalty)}")
        fields.append({"name": "Modifiers", "value": ", ".join(parts), "inline": True})
    if roll.against is not None and roll.chance is not None:  # an NPC's 1d6 has no 4dF odds
        odds = f"{round(roll.chance * 100 / 81)}% to reach {_signed(roll.against)}"
        fields.append({"name": "Odds", "value": odds, "inline": True})
    if roll.damage_note:
        fields.append({"name": "Damage", "value": roll.damage_note[:1000], "inline": False})
    if roll.rolled_offline_at is not None:  # docs/offline.md: the player's dice, not ours
        when = roll.rolled_offline_at.strftime("%H:%M:%S UTC")
        fields.append(
            {
                "name": "Rolled offline",
                "value": f"on the player's device at {when}",
                "inline": False,
            }
        )
    embed = {
        "title": f"{roll.subject} rolls {rolled}"[:256],
        "description": f"Result {_signed(roll.result)}",
        "fields": fields,
        "timestamp": roll.created_at.isoformat(),
    }
    if roll.character_id is not None:
        embed["url"] = base + reverse("character_sheet", args=[roll.character_id])
        if Portrait.objects.filter(character_id=roll.character_id).exists():
            portrait = base + reverse("character_portrait", args=[roll.character_id])
            embed["thumbnail"] = {"url": portrait}
    return {
        "username": "Fairsheet",
        "content": f"{roll.subject}: {rolled} → {_signed(roll.result)}"[:2000],
        "embeds": [embed],
        "allowed_mentions": {"parse": []},  # a name with @everyone in it pings nobody
    }


def _signed(value: int) -> str:
    return f"{value:+d}" if value else "0"


# -- the worker's side -------------------------------------------------------------------------


@task(queue_name="webhooks")
def webhook_post(delivery_pk: int) -> str:
    """Post one delivery, once: claimed from queued to sending, posted, and settled as sent,
    queued again for later (a new task then) or given up. Returns the status it is left in."""
    claimed = WebhookDelivery.objects.filter(
        pk=delivery_pk, status=WebhookDelivery.Status.QUEUED
    ).update(status=WebhookDelivery.Status.SENDING, attempts=F("attempts") + 1)
    if not claimed:
        return "not queued"  # another run posted it, or it was revoked
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_pk)
    try:
        post_json(delivery.webhook.url, delivery.payload)
    except PostFailed as failure:
        return _failed(delivery, str(failure), retry=failure.retry)
    now = timezone.now()
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        status=WebhookDelivery.Status.SENT, sent_at=now, last_error=""
    )
    CampaignWebhook.objects.filter(pk=delivery.webhook_id).update(delivered_at=now)
    return WebhookDelivery.Status.SENT


def _failed(delivery: WebhookDelivery, reason: str, *, retry: bool) -> str:
    now = timezone.now()
    reason = reason[:ERROR_LENGTH]
    logger.warning("A roll was not posted to a webhook (try %s): %s", delivery.attempts, reason)
    CampaignWebhook.objects.filter(pk=delivery.webhook_id).update(failed_at=now, last_error=reason)
    if not retry or delivery.attempts >= settings.WEBHOOK_ATTEMPTS:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.GIVEN_UP, last_error=reason
        )
        return WebhookDelivery.Status.GIVEN_UP
    wait = settings.WEBHOOK_RETRY_SECONDS * 2 ** (delivery.attempts - 1)
    later = now + timedelta(seconds=min(wait, settings.WEBHOOK_RETRY_MOST_SECONDS))
    with transaction.atomic():
        WebhookDelivery.objects.filter(pk=delivery.pk).update(
            status=WebhookDelivery.Status.QUEUED, next_attempt_at=later, last_error=reason
        )
        webhook_post.using(run_after=later).enqueue(delivery.pk)
    return WebhookDelivery.Status.QUEUED


def post_json(url: str, payload: dict) -> int:
    """POST the payload to the address, connecting only to a public address its host
    resolves to now (or 127.0.0.1 where the tests allow it); the answer's status when it is
    a 2xx. Raises PostFailed otherwise, saying whether trying later may help."""
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    if not secure and not (_loopback_allowed() and parts.hostname == LOOPBACK):
        raise PostFailed("not an https address", retry=False)
    host = parts.hostname or ""
    port = parts.port or (443 if secure else 80)
    address = _checked_address(host, port)
    body = json.dumps(payload).encode()
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    timeout = settings.WEBHOOK_TIMEOUT_SECONDS
    connection = (
        _PinnedHTTPS(host, address, port, timeout)
        if secure
        else _Pinned(host, address, port, timeout)
    )
    try:
        connection.request(
            "POST",
            path,
            body=body,
            headers={"Content-Type": "application/json", "User-Agent": USER_AGENT},
        )
        answer = connection.getresponse()
        answer.read(65_536)
    except (OSError, http.client.HTTPException) as error:  # timeouts are OSErrors
        raise PostFailed(
            f"{type(error).__name__}: {error}" if str(error) else type(error).__name__, retry=True
        ) from None
    finally:
        connection.close()
    status = answer.status
    if 200 <= status < 300:
        return status
    if 300 <= status < 400:
        raise PostFailed(f"HTTP {status}: a redirect, not followed", retry=False)
    raise PostFailed(f"HTTP {status} {answer.reason}", retry=status == 429 or status >= 500)


def _checked_address(host: str, port: int) -> str:
    """The address to connect to: the host's first, once every address it resolves to has
    been found public. A literal address is checked as it is."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise PostFailed(f"the host {host!r} was not found: {error}", retry=True) from None
    addresses = [info[4][0] for info in found]
    for address in addresses:
        ip = ipaddress.ip_address(address.split("%", 1)[0])
        if not _public(ip) and not (_loopback_allowed() and address == LOOPBACK):
            raise PostFailed(f"{host} is at {address}, which is not a public address", retry=False)
    return addresses[0]


def _public(ip) -> bool:
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return ip.is_global and not ip.is_multicast


def _loopback_allowed() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_LOOPBACK", False))


class _Pinned(http.client.HTTPConnection):
    """A connection to the address that was checked, whatever the name resolves to now."""

    def __init__(self, host, address, port, timeout):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self):
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    """The same over TLS, the certificate checked against the host's name."""

    def __init__(self, host, address, port, timeout):
        super().__init__(host, port, timeout=timeout, context=ssl.create_default_context())
        self.address = address

    def connect(self):
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)
