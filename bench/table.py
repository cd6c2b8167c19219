"""Table benchmarks (issue 15): what the live pages cost the server. A party of six approved
Mudge characters; the GM's party view polls every 3 s and each player's play page too, so
the poll that finds nothing new must be nearly free. Timed through Django's test client
(no network), next to the bare /healthz view in the same run; medians and ratios.

Runs against its own database (bench.web.bench_database_url), never the one you work in.
"""

import re
import statistics
import time

from bench.targets import beside
from bench.web import bench_database_url, bench_django, htmx_post, percentile

PARTY = 6
ROUNDS = 200


def seed():
    from django.contrib.auth import get_user_model

    from characters.models import Campaign, Membership
    from characters.services.characters import character_create
    from characters.services.review import character_approve, character_submit
    from characters.services.rows import trait_add

    User = get_user_model()
    # Its own names: under `make bench` the modules share one process and one database.
    gm = User.objects.create_user("table-gm")
    campaign = Campaign.objects.create(name="Bench table", gm=gm, base_ruleset="mudge")
    party = []
    for n in range(PARTY):
        player = User.objects.create_user(f"table-player-{n}")
        Membership.objects.create(campaign=campaign, user=player)
        character = character_create(owner=player, name=f"Hero {n}", campaign=campaign)
        for skill in ("Climbing", "Swimming", "Riding", "Tracking", "Stealth"):
            trait_add(
                character=character,
                actor=player,
                expected_version=None,
                kind="skill",
                name=skill,
                level=1,
                difficulty="average",
            )
        character_submit(character=character, actor=player, expected_version=None)
        character_approve(
            character=character, actor=gm, expected_version=None, override_reason="bench"
        )
        party.append((player, character.pk))
    return gm, campaign, party


def timed(request, *args, **kwargs) -> float:
    start = time.perf_counter()
    request(*args, **kwargs)
    return time.perf_counter() - start


def measure(gm, campaign, party):
    from django.test import Client
    from django.urls import reverse

    from characters.models import PlayState

    hx = {"HTTP_HX_REQUEST": "true"}
    gm_client, player_client = Client(), Client()
    gm_client.force_login(gm)
    player, pk = party[0]
    player_client.force_login(player)

    def fingerprint(client, url):
        page = client.get(url).content.decode()
        return re.search(r"\?fp=([\w.\-]+)", page).group(1)

    party_url = reverse("campaign_party", args=[campaign.pk])
    play_url = reverse("character_play", args=[pk])
    party_fp, play_fp = fingerprint(gm_client, party_url), fingerprint(player_client, play_url)
    party_live = reverse("party_live", args=[campaign.pk]) + f"?fp={party_fp}"
    play_live = reverse("play_live", args=[pk]) + f"?fp={play_fp}"
    wound = reverse("play_wound", args=[pk])
    roll = reverse("play_roll", args=[pk])

    names = (
        "bare",
        "party idle",
        "play idle",
        "party changed",
        "party page",
        "play page",
        "mark",
        "roll",
    )
    figures = {name: [] for name in names}
    for n in range(ROUNDS):
        figures["bare"].append(timed(gm_client.get, "/healthz"))
        figures["party idle"].append(timed(gm_client.get, party_live, **hx))
        figures["play idle"].append(timed(player_client.get, play_live, **hx))
        if n % 4 == 0:
            figures["party page"].append(timed(gm_client.get, party_url))
            figures["play page"].append(timed(player_client.get, play_url))
            revision = PlayState.objects.filter(character_id=pk).values_list("revision", flat=True)
            data = {"box": f"{'clear' if n % 8 else 'mark'}:0", "revision": revision.first() or 0}
            figures["mark"].append(timed(htmx_post, player_client, wound, data))
            figures["party changed"].append(timed(gm_client.get, party_live, **hx))
            figures["roll"].append(timed(htmx_post, player_client, roll, {}))
            party_fp = fingerprint(gm_client, party_url)
            party_live = reverse("party_live", args=[campaign.pk]) + f"?fp={party_fp}"
            play_fp = fingerprint(player_client, play_url)
            play_live = reverse("play_live", args=[pk]) + f"?fp={play_fp}"
    return figures


def main():
    url, drop = bench_database_url()
    try:
        bench_django(url)
        figures = measure(*seed())
        medians = {name: statistics.median(times) for name, times in figures.items()}
        bare = medians["bare"]
        print(f"table: a party of {PARTY}, Django test client (no network), {ROUNDS} rounds")
        for name, label, page in (
            ("bare", "bare view (/healthz)", None),
            ("party page", "party page, whole", None),
            ("party idle", "party poll, nothing new", "party page"),
            ("party changed", "party poll after a change", "party page"),
            ("play page", "play page, whole", None),
            ("play idle", "play poll, nothing new", "play page"),
            ("mark", "mark a wound (htmx)", None),
            ("roll", "roll 4dF into the log (htmx)", None),
        ):
            times = figures[name]
            share = f"   {medians[name] / medians[page]:4.0%} of the page" if page else ""
            print(
                f"  {label:<28} median {medians[name] * 1000:6.2f} ms   p95 "
                f"{percentile(times, 0.95) * 1000:6.2f} ms   {medians[name] / bare:5.1f}x bare"
                + share
            )
        print("  target: a poll that finds nothing new costs under a fifth of its page")
        print(beside(f"party page, {PARTY} characters", medians["party page"] / bare))
    finally:
        from django.db import connections

        connections.close_all()
        drop()


if __name__ == "__main__":
    main()
