"""Issue 39: a wound's severity is never told by colour alone, and its colours are in order.
On the play page and the GM's party view alike, each level of the track marked as the worst
gives the status its severity (rules.play.severity): a colour from fine green to near-death
black, a shape, and the wound's name with what it means at the table."""

import colorsys
import re
from pathlib import Path

import pytest
from django.urls import reverse

from characters.models import PlayState
from characters.selectors.play import SEVERITY_ICONS
from characters.services import play as services
from characters.vocabulary import TERMS
from rules.play import GRAVEST
from tests.support.play_fixtures import *  # noqa: F403

pytestmark = pytest.mark.django_db

PLAY_CSS = Path(__file__).resolve().parents[2] / "static" / "css" / "play.css"
SUMMARY = re.compile(
    r'<p class="play-summary severity-(\d)" data-severity="\d">\s*'
    r'<span class="severity-icon" aria-hidden="true">([^<]+)</span>(.*?)</p>',
    re.DOTALL,
)
MUDGE_TRACK = ("Scratch", "Hurt", "Very Hurt", "Incapacitated", "Near Death")


def severity_colours() -> dict[int, str]:
    found = re.findall(r"\.severity-(\d) \{ --severity: (#\w+); \}", PLAY_CSS.read_text())
    return {int(n): colour for n, colour in found}


def hue_and_lightness(colour: str) -> tuple[float, float]:
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, lightness, _ = colorsys.rgb_to_hls(red, green, blue)
    return hue * 360, lightness


def test_the_colours_go_from_fine_green_to_near_death_black():
    colours = severity_colours()
    assert sorted(colours) == list(range(GRAVEST + 1))
    found = [hue_and_lightness(colours[n]) for n in range(GRAVEST + 1)]
    hues = [hue for hue, _ in found]
    assert 90 <= hues[0] <= 150  # fine: green
    assert hues == sorted(hues, reverse=True), hues  # through yellow and orange to red
    assert hues[-1] <= 10 or hues[-1] >= 350
    assert found[-1][1] < 0.2 and found[-1][1] < found[-2][1]  # near death: near black
    # The bar is the severity's colour, whatever the penalty (Near Death has none).
    assert "border-left: 6px solid var(--severity)" in PLAY_CSS.read_text()


@pytest.mark.parametrize("worst", [None, *range(len(MUDGE_TRACK))])
def test_each_level_says_its_severity_with_a_colour_a_shape_and_its_name(
    client, gm, player, tess, worst
):
    if worst is not None:
        services.play_wound_box(
            character=tess, actor=player, expected_revision=None, level=worst, mark=True
        )
    client.force_login(gm)
    pages = [
        client.get(reverse("character_play", args=[tess.pk])).content.decode(),
        client.get(reverse("campaign_party", args=[tess.campaign_id])).content.decode(),
    ]
    expected = 0 if worst is None else worst + 1  # Mudge's five levels: 1 to 5
    for html in pages:
        [(severity, icon, words)] = SUMMARY.findall(html)
        assert int(severity) == expected
        word = "Unhurt" if worst is None else MUDGE_TRACK[worst]
        assert f"<strong>{word}</strong>" in words  # the name, never the colour alone
        assert icon.strip()
    if worst is not None:
        assert str(TERMS["wound"][MUDGE_TRACK[worst]]) in pages[0]
    PlayState.objects.filter(character=tess).delete()


def test_every_severity_has_its_own_shape():
    assert len(SEVERITY_ICONS) == GRAVEST + 1 == len(set(SEVERITY_ICONS))
