"""A shared sheet in another site's frame (issue 41; docs/exports.md, "Embedding"): its
player names the https sites that may frame it (Owlbear Rodeo's token links), and the shared
sheet and its statblock page, and nothing else, say so to browsers: their own
Content-Security-Policy frame-ancestors lists those sites and X-Frame-Options is left off.
Every other page, and those two for a link that names no site, keep DENY."""

import pytest
from django.test import Client
from django.urls import reverse

from characters.forms.sharing import MAX_FRAME_ORIGINS
from characters.models import ShareLink
from characters.services.sharing import share_link_create, share_link_revoke
from tests.support.play_fixtures import *  # noqa: F403

OWLBEAR = "https://www.owlbear.rodeo"
NOT_FRAMED = "frame-ancestors 'none'"


def frame_ancestors(response) -> str:
    policy = response["Content-Security-Policy"]
    return next(part.strip() for part in policy.split(";") if "frame-ancestors" in part)


@pytest.fixture
def link(tess, player):
    return share_link_create(character=tess, actor=player)


@pytest.fixture
def pip(player):
    client = Client()
    client.force_login(player)
    return client


def set_sites(client, character, text: str):
    return client.post(reverse("share_link_framing", args=[character.pk]), {"origins": text})


def shared_pages(link) -> list[str]:
    return [
        reverse("shared_sheet", args=[link.token]),
        reverse("shared_statblock", args=[link.token]),
    ]


def test_no_site_may_frame_a_link_that_names_none(link):
    for url in shared_pages(link):
        response = Client().get(url)
        assert response.status_code == 200
        assert response["X-Frame-Options"] == "DENY"
        assert frame_ancestors(response) == NOT_FRAMED


def test_the_sites_the_player_names_may_frame_it(link, tess, pip):
    response = set_sites(pip, tess, f"{OWLBEAR}\n\n  https://Table.Example.org:8443/  \n{OWLBEAR}/")
    assert response.status_code == 302
    link.refresh_from_db()
    assert link.frame_origins == [OWLBEAR, "https://table.example.org:8443"]
    for url in shared_pages(link):
        response = Client().get(url)
        assert "X-Frame-Options" not in response
        assert (
            frame_ancestors(response) == f"frame-ancestors {OWLBEAR} https://table.example.org:8443"
        )
        # The rest of the policy is the site's own.
        assert "script-src 'self'" in response["Content-Security-Policy"]
        assert "default-src 'self'" in response["Content-Security-Policy"]
    event = tess.events.get(action="share_link_framing_changed")
    assert event.before == {"link": link.pk, "origins": []}
    assert event.after == {"link": link.pk, "origins": [OWLBEAR, "https://table.example.org:8443"]}
    audit = pip.get(reverse("character_audit", args=[tess.pk])).content.decode()
    assert "<strong>Sites that may frame the shared sheet changed</strong>" in audit
    assert f"{OWLBEAR}, https://table.example.org:8443" in audit
    builder = pip.get(reverse("character_builder", args=[tess.pk])).content.decode()
    assert f"{OWLBEAR}\nhttps://table.example.org:8443\n</textarea>" in builder


def test_every_other_page_keeps_deny(link, tess, pip, player):
    set_sites(pip, tess, OWLBEAR)
    others = [
        (Client(), reverse("shared_sheet_pdf", args=[link.token])),
        (Client(), reverse("shared_statblock_download", args=[link.token, "txt"])),
        (pip, reverse("character_sheet", args=[tess.pk])),
        (pip, reverse("character_builder", args=[tess.pk])),
        (pip, reverse("character_statblock", args=[tess.pk])),
        (Client(), reverse("home")),
    ]
    for client, url in others:
        response = client.get(url)
        assert response["X-Frame-Options"] == "DENY", url
        assert frame_ancestors(response) == NOT_FRAMED, url


def test_emptying_the_list_ends_it(link, tess, pip):
    set_sites(pip, tess, OWLBEAR)
    set_sites(pip, tess, "")
    link.refresh_from_db()
    assert link.frame_origins == []
    response = Client().get(reverse("shared_sheet", args=[link.token]))
    assert response["X-Frame-Options"] == "DENY" and frame_ancestors(response) == NOT_FRAMED


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("http://www.owlbear.rodeo", "only https sites may frame the sheet"),
        ("https://*.owlbear.rodeo", "is not a site's address"),
        ("https://www.owlbear.rodeo/room/abc", "is not a site's address"),
        ("https://www.owlbear.rodeo?x=1", "is not a site's address"),
        ("https://user:pw@www.owlbear.rodeo", "is not a site's address"),
        ("https://a.example; script-src *", "is not a site's address"),
        ("https://a.example 'unsafe-inline'", "is not a site's address"),
        ("javascript:alert(1)", "only https sites may frame the sheet"),
        ("www.owlbear.rodeo", "only https sites may frame the sheet"),
        ("https://[::1", "is not a site's address"),
        ("https://a.example:99999", "is not a site's address"),
        ("\n".join(f"https://s{n}.example" for n in range(MAX_FRAME_ORIGINS + 1)), "At most 10"),
    ],
)
def test_anything_but_https_sites_is_refused(link, tess, pip, typed, said):
    set_sites(pip, tess, OWLBEAR)
    response = set_sites(pip, tess, typed)
    assert response.status_code == 302
    page = pip.get(response["Location"]).content.decode()
    assert said in page.replace("&#x27;", "'")
    link.refresh_from_db()
    assert link.frame_origins == [OWLBEAR]  # as it was


def test_only_its_player_sets_it(link, tess, gm, other_player):
    for someone in (gm, other_player):
        client = Client()
        client.force_login(someone)
        assert set_sites(client, tess, OWLBEAR).status_code == 404
    assert (
        Client()
        .post(reverse("share_link_framing", args=[tess.pk]), {"origins": OWLBEAR})["Location"]
        .startswith("/accounts/login/")
    )
    assert ShareLink.objects.get(pk=link.pk).frame_origins == []


def test_a_revoked_link_frames_nothing(link, tess, pip, player):
    set_sites(pip, tess, OWLBEAR)
    share_link_revoke(link=link, actor=player)
    assert Client().get(reverse("shared_sheet", args=[link.token])).status_code == 404
    assert set_sites(pip, tess, OWLBEAR).status_code == 404  # no live link to set it on
