"""How cost grows with the work (issue 40): the builder page and a trait edit at 10, 60 and
300 traits, the GM's party page at 6, 20 and 50 characters, a campaign pack at 10, 50 and
100 sheets. Each figure is a median, beside the work's own growth: a page of 300 traits may
cost up to 30 times one of 10, never more, and the cost of each trait (or character, or
sheet) past the smallest size should not rise with the size. Figures only.

The pages run through Django's test client on a throwaway database (bench.web); the pack is
rendered in this process from copies of one sheet, with no database.
"""

import statistics
import time

from bench.web import PASSWORD, bench_database_url, bench_django, htmx_post

TRAITS = (10, 60, 300)
PARTIES = (6, 20, 50)
PACKS = (10, 50, 100)
ROUNDS = 30
# Noise allowance: a unit past the middle size may cost this much more than one before it
# and still count as linear.
LINEAR_SLACK = 1.25


def seed_builder():
    """A Mudge player with one draft a size of TRAITS; [(client, pk, trait_pk)] by size."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from characters.models import Membership, Trait
    from characters.services.campaigns import campaign_create
    from characters.services.characters import character_create

    User = get_user_model()
    gm = User.objects.create_user("scaling-gm", password=PASSWORD)
    campaign = campaign_create(gm=gm, name="Scaling", base_ruleset="mudge")
    player = User.objects.create_user("scaling-player", password=PASSWORD)
    Membership.objects.create(campaign=campaign, user=player)
    client = Client()
    client.force_login(player)
    built = []
    for size in TRAITS:
        character = character_create(owner=player, name=f"{size} traits", campaign=campaign)
        attributes = character.traits.count()
        Trait.objects.bulk_create(
            Trait(
                character=character,
                kind=Trait.Kind.SKILL,
                name=f"Skill {n}",
                level=n % 3 - 1,
                difficulty="average",
                position=n,
            )
            for n in range(size - attributes)
        )
        trait = character.traits.filter(kind=Trait.Kind.SKILL).first()
        built.append((client, character.pk, trait.pk))
    return built


def seed_parties():
    """A campaign of each size of PARTIES, every character approved: [(client, pk)]."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from characters.models import Campaign, Membership, Trait
    from characters.services.characters import character_create
    from characters.services.review import character_approve, character_submit

    User = get_user_model()
    parties = []
    for size in PARTIES:
        gm = User.objects.create_user(f"scaling-gm-{size}")
        campaign = Campaign.objects.create(name=f"Party {size}", gm=gm, base_ruleset="mudge")
        for n in range(size):
            player = User.objects.create_user(f"scaling-{size}-{n}")
            Membership.objects.create(campaign=campaign, user=player)
            character = character_create(owner=player, name=f"Hero {n}", campaign=campaign)
            Trait.objects.bulk_create(
                Trait(character=character, kind=Trait.Kind.SKILL, name=skill, level=1, position=i)
                for i, skill in enumerate(("Climbing", "Swimming", "Riding", "Stealth"))
            )
            character_submit(character=character, actor=player, expected_version=None)
            character_approve(
                character=character, actor=gm, expected_version=None, override_reason="bench"
            )
        client = Client()
        client.force_login(gm)
        parties.append((client, campaign.pk))
    return parties


def median_of(request, *args, **kwargs) -> float:
    request(*args, **kwargs)  # warm: the catalogue and templates, once per process
    times = []
    for _ in range(ROUNDS):
        start = time.perf_counter()
        response = request(*args, **kwargs)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
    return statistics.median(times)


def edit_median(client, pk, trait_pk) -> float:
    from characters.models import Character

    times = []
    for n in range(ROUNDS):
        version = Character.objects.values_list("version", flat=True).get(pk=pk)
        data = {"version": version, "name": "Skill 0", "level": n % 3 - 1, "difficulty": "average"}
        start = time.perf_counter()
        response = htmx_post(client, f"/characters/{pk}/traits/{trait_pk}/", data)
        times.append(time.perf_counter() - start)
        assert response.status_code == 200, response.status_code
    return statistics.median(times)


def pack_seconds(count: int) -> float:
    """One render of a pack of `count` copies of Brogo's sheet (bench.pdf), to a null file."""
    import io

    from bench.pdf import brogo_sheet
    from characters.pdf import render_campaign_pack_pdf

    sheets = [brogo_sheet()] * count
    start = time.perf_counter()
    render_campaign_pack_pdf(io.BytesIO(), "Scaling", sheets)
    return time.perf_counter() - start


def report(label: str, unit: str, sizes, seconds) -> None:
    """One row: each size's median, its multiple of the smallest beside the work's, and the
    cost of one more unit below and above the middle size."""
    cells = "   ".join(
        f"{size:>3} {unit}: {t * 1000:8.1f} ms {t / seconds[0]:5.1f}x "
        f"(work {size / sizes[0]:4.1f}x)"
        for size, t in zip(sizes, seconds, strict=True)
    )
    lower = (seconds[1] - seconds[0]) / (sizes[1] - sizes[0])
    upper = (seconds[2] - seconds[1]) / (sizes[2] - sizes[1])
    linear = upper <= lower * LINEAR_SLACK or upper * 1000 < 0.01
    print(f"  {label}")
    print(f"    {cells}")
    print(
        f"    a {unit[:-1]} more costs {lower * 1000:.3f} ms up to {sizes[1]}, "
        f"{upper * 1000:.3f} ms past it: {'linear or better' if linear else 'FASTER than linear'}"
    )


def main():
    url, drop = bench_database_url()
    try:
        bench_django(url)
        builder = seed_builder()
        parties = seed_parties()
        print(f"scaling: medians of {ROUNDS} (Django test client, no network)")
        report(
            "builder page",
            "traits",
            TRAITS,
            [median_of(client.get, f"/characters/{pk}/") for client, pk, _ in builder],
        )
        report("trait edit (htmx)", "traits", TRAITS, [edit_median(*built) for built in builder])
        report(
            "party page (GM)",
            "characters",
            PARTIES,
            [median_of(client.get, f"/campaigns/{pk}/party/") for client, pk in parties],
        )
    finally:
        from django.db import connections

        connections.close_all()
        drop()
    pack_seconds(1)  # warm: fonts and stylesheets
    report("campaign pack (one render each)", "sheets", PACKS, [pack_seconds(n) for n in PACKS])


if __name__ == "__main__":
    main()
