"""Printed NPC cards (issue 43): several a page on A4 and Letter, each with the NPC's
levels in ladder words, its damage factors as the sheet computes them and a wound track
to tick, one a member of a group; in the GM's language; the GM's alone."""

import subprocess

import pytest
from django.urls import reverse

from characters.models import NpcShown, PackJob
from characters.print_options import PrintOptions
from characters.services.printing import pack_job_create, pack_storage
from rules.ladder import FAIR, GOOD, GREAT, MEDIOCRE
from tests.support.commands import run_worker
from tests.support.pdf_helpers import flat, pages, size
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import make_npc

A4, LETTER = (595, 842), (612, 792)
# Mudge 4.57: 3 Scratch, 2 Hurt and 1 each of Very Hurt, Incapacitated, Near Death.
MUDGE_BOXES = 3 + 2 + 1 + 1 + 1


def npc(campaign, gm, name, level, *, group_size=1, weapon=None):
    return make_npc(
        campaign, gm, name, level, shown=NpcShown.HIDDEN, group_size=group_size, weapon=weapon
    )


@pytest.fixture
def crew(campaign, gm):
    return [
        npc(campaign, gm, "Molly <b>the Red</b>", FAIR, weapon="Cutlass"),
        npc(campaign, gm, "Annie", GOOD),
        npc(campaign, gm, "Maggie", MEDIOCRE),
        npc(campaign, gm, "Deckhands", MEDIOCRE, group_size=3),
        npc(campaign, gm, "The Legendary swordswoman", GREAT + 2),
    ]


def pdftotext(document: bytes, tmp_path) -> str:
    path = tmp_path / "cards.pdf"
    path.write_bytes(document)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout


@pytest.mark.parametrize(("paper", "mediabox"), [("a4", A4), ("letter", LETTER)])
def test_a_page_of_npc_cards(client, gm, campaign, crew, paper, mediabox, tmp_path):
    client.force_login(gm)
    url = reverse("campaign_npc_cards", args=[campaign.pk])
    response = client.get(url, {"paper": paper})
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert 'filename="the-watch-npc-cards.pdf"' in response["Content-Disposition"]
    document = response.content
    found = pages(document)
    assert len(found) == 1 and size(found[0]) == mediabox
    (tmp_path / f"cards-{paper}.pdf").write_bytes(document)
    text = pdftotext(document, tmp_path)
    words = flat(text)
    assert "The Watch: NPC cards" in words
    assert "Molly <b>the Red</b>" in words  # the name as typed, escaped, not markup
    assert "Sword: Good +1" in words and "Sword: Mediocre -1" in words
    assert "Sword: Legendary +4" in words  # an NPC may be Legendary (Mudge 1.2)
    # Damage factors as the sheet computes them (Mudge 4.54): Strength Fair, a +2 weapon.
    assert "Cutlass +2" in words and "Unarmed -1" in words
    assert "a group of 3" in words
    # One wound track a card, three for the group of deckhands: 4 + 3 tracks of 8 boxes.
    assert text.count("☐") == (4 + 3) * MUDGE_BOXES
    assert words.count("Near Death") == 4 + 3


def test_chosen_npcs_and_the_gms_language(client, gm, campaign, crew, tmp_path):
    client.force_login(gm)
    url = reverse("campaign_npc_cards", args=[campaign.pk])
    client.cookies["django_language"] = "fr"
    response = client.get(url, {"npc": [crew[1].pk]})
    words = flat(pdftotext(response.content, tmp_path))
    assert "Annie" in words and "Maggie" not in words
    assert "Épée" not in words and "Sword" in words  # a name the GM typed stays as typed
    assert "Bon" in words  # Good, in French
    assert client.get(url, {"paper": "a3"}).status_code == 400
    assert client.get(url, {"npc": ["999999"]}).status_code == 400


def test_only_the_gm_prints_them(client, player, campaign, crew):
    client.force_login(player)
    assert client.get(reverse("campaign_npc_cards", args=[campaign.pk])).status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_campaign_pack_prints_the_npcs_on_cards(gm, campaign, tess, tmp_path):
    """The party's sheets first, then the NPC cards; an NPC never gets a party sheet."""
    make_npc(campaign, gm, "Annie", GOOD, shown=NpcShown.SHEET)
    make_npc(campaign, gm, "Deckhands", MEDIOCRE, group_size=2)
    job = pack_job_create(campaign=campaign, user=gm, options=PrintOptions(fillable=False))
    run_worker()
    job.refresh_from_db()
    assert job.state == PackJob.State.DONE and job.characters == 1
    document = pack_storage().open(job.file_name).read()
    text = pdftotext(document, tmp_path)
    last = flat(text.split("\f")[-2])  # the page after the last is empty
    assert "The Watch: NPC cards" in last and "Annie" in last and "a group of 2" in last
    assert last.count("Near Death") == 1 + 2
    assert "Tess" in flat(text) and "Annie" not in flat(text.split("\f")[0])
