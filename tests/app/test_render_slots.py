"""Fair shares of the PDF renderer (characters/render_slots.py): one user's flood of sheet
PDFs renders one at a time, the surplus is told to try again (429, Retry-After, the reason),
and another user's PDF and pages are served meanwhile. Real threads, real renders, real
PostgreSQL advisory locks."""

import threading

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse

from characters.services.characters import character_create
from tests.support.builder_fixtures import *  # noqa: F403

pytestmark = [
    pytest.mark.skipif(
        connection.vendor != "postgresql",
        reason="several connections at once: SQLite's test database is one connection",
    ),
    pytest.mark.django_db(transaction=True),
]
FLOOD = 6


def test_one_users_flood_of_pdfs_leaves_the_renderer_to_others(gm, player, campaign, settings):
    settings.PDF_WAIT_SECONDS = 0.5
    mine = character_create(owner=player, name="Brogo", campaign=campaign)
    theirs = character_create(owner=gm, name="Gm's own", ruleset="mudge")
    flooder, other = Client(), Client()
    flooder.force_login(player)
    other.force_login(gm)
    start = threading.Barrier(FLOOD + 1)
    answers, others = [], []

    def flood():
        try:
            start.wait()
            answers.append(flooder.get(reverse("character_sheet_pdf", args=[mine.pk])))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=flood) for _ in range(FLOOD)]
    for thread in threads:
        thread.start()
    start.wait()
    try:
        others.append(other.get(reverse("character_sheet_pdf", args=[theirs.pk])))
        others.append(other.get(reverse("dashboard")))
    finally:
        for thread in threads:
            thread.join(timeout=120)
    assert [r.status_code for r in others] == [200, 200]
    assert others[0]["Content-Type"] == "application/pdf"
    codes = sorted(r.status_code for r in answers)
    assert codes.count(200) >= 1 and codes.count(429) >= 1, codes
    assert set(codes) == {200, 429}
    refused = next(r for r in answers if r.status_code == 429)
    assert refused["Retry-After"] == "5"
    assert (
        "You are printing other sheets at this moment, so this sheet was not printed. "
        "Try again in a few seconds: PDFs are made 1 at a time for each person."
    ) in refused.content.decode()
    # The flood over, the same request renders again.
    assert flooder.get(reverse("character_sheet_pdf", args=[mine.pk])).status_code == 200
