"""The sheet pages: the HTML sheet, its PDF and the campaign pack, for every role.

Users, campaigns and characters are made with the ORM; the sample files give them traits
(through the lead's adapters) so the sheets carry real values."""

import hashlib
import io
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from characters.adapters import rows_from_rules
from characters.models import (
    Approval,
    Campaign,
    Character,
    Equipment,
    ExperienceEntry,
    Membership,
    Trait,
)
from rules.charfile import parse_character_json
from rules.ladder import level_name
from tests.browser import PHONE, log_in

SAMPLES = Path(__file__).resolve().parent.parent / "rules" / "samples"
REASON = "he held the bridge at Dunmoor"
User = get_user_model()


def pdf_texts(response) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(response.content))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def make_character(owner, campaign, stem, state=Character.DRAFT, name=None) -> Character:
    value = parse_character_json((SAMPLES / f"{stem}.json").read_text()).character
    character = Character.objects.create(
        owner=owner,
        campaign=campaign,
        ruleset=value.ruleset,
        name=name or value.name,
        player=value.player,
        concept=value.concept,
        race=value.race,
        scale_strength=value.scale_strength,
        scale_mass=value.scale_mass,
        meta_points=value.meta_points,
        notes=value.notes,
        state=state,
    )
    traits, equipment = rows_from_rules(character, value)
    Trait.objects.bulk_create(traits)
    Equipment.objects.bulk_create(equipment)
    return character


def approve(character, gm, reason="", over_by=0) -> Approval:
    """An approval as the review service stores it: the report at approval included."""
    errors = []
    if over_by:
        errors = [{"code": "over_budget", "message": "Over budget", "section": "Mudge 1.64"}]
    return Approval.objects.create(
        character=character,
        version=character.version,
        snapshot={"name": character.name},
        sha256=hashlib.sha256(character.name.encode()).hexdigest(),
        approved_by=gm,
        override_reason=reason,
        report={"valid": not errors, "unit": "skill level", "balance": -over_by, "errors": errors},
    )


@pytest.fixture
def gm(db):
    return User.objects.create_user("gm", password="pw-gm-12345")


@pytest.fixture
def player(db):
    return User.objects.create_user("player", password="pw-player-12345")


@pytest.fixture
def mate(db):
    return User.objects.create_user("mate", password="pw-mate-12345")


@pytest.fixture
def campaign(gm, player, mate):
    campaign = Campaign.objects.create(name="The Fens", gm=gm, base_ruleset="mudge")
    Membership.objects.create(campaign=campaign, user=gm, role=Membership.GM)
    Membership.objects.create(campaign=campaign, user=player, role=Membership.PLAYER)
    Membership.objects.create(campaign=campaign, user=mate, role=Membership.PLAYER)
    return campaign


@pytest.fixture
def brogo(player, campaign, gm):
    character = make_character(player, campaign, "brogo", Character.APPROVED)
    approve(character, gm, REASON, over_by=2)
    ExperienceEntry.objects.create(character=character, amount=3, reason="The bridge", actor=gm)
    return character


@pytest.fixture
def as_user():
    def client(user) -> Client:
        c = Client()
        if user is not None:
            c.force_login(user)
        return c

    return client


class TestHTMLSheet:
    def test_owner_sees_the_sheet_with_dice(self, as_user, player, brogo):
        response = as_user(player).get(reverse("character_sheet", args=[brogo.pk]))
        assert response.status_code == 200
        html = response.content.decode()
        assert '<h1 class="sheet-name">Brogo the Scout</h1>' in html
        assert "Perception: Superb +3" in html
        assert 'data-trait="Move Quietly" data-level="3"' in html
        assert "Staff: Strength [1] + Strength Scale [-2] + Weapon [2] = +1" in html
        assert "☐☐☐☐</td>" in html
        assert f"approved over budget by 2 skill levels: {REASON}" in html
        assert "<td>23.5%</td><td>61.7%</td>" in html  # Fudge Basics' odds of exactly 0
        assert reverse("character_sheet_pdf", args=[brogo.pk]) + "?paper=letter" in html

    def test_no_inline_script_or_style_for_the_csp(self, as_user, player, brogo):
        response = as_user(player).get(reverse("character_sheet", args=[brogo.pk]))
        html = response.content.decode()
        assert "script-src 'self'" in response["Content-Security-Policy"]
        assert '<script src="/static/js/dice.js" defer></script>' in html
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
        assert not re.search(r"<style\b|\sstyle=", html)

    def test_gm_sees_it(self, as_user, gm, brogo):
        response = as_user(gm).get(reverse("character_sheet", args=[brogo.pk]))
        assert response.status_code == 200

    def test_a_draft_says_so(self, as_user, player, campaign):
        draft = make_character(player, campaign, "dolores")
        html = as_user(player).get(reverse("character_sheet", args=[draft.pk])).content.decode()
        assert '<p class="sheet-stamp">draft - not approved</p>' in html

    def test_user_text_is_escaped(self, as_user, player, campaign):
        character = make_character(
            player, campaign, "dolores", name='<img src="http://10.0.0.1/x.png">'
        )
        html = as_user(player).get(reverse("character_sheet", args=[character.pk])).content
        assert b"&lt;img src=&quot;http://10.0.0.1/x.png&quot;&gt;" in html
        assert b'<img src="http://10.0.0.1' not in html

    @pytest.mark.parametrize("who", ["mate", "outsider"])
    def test_anyone_else_gets_404(self, as_user, brogo, mate, who):
        user = mate if who == "mate" else User.objects.create_user("outsider", password="x-12345")
        response = as_user(user).get(reverse("character_sheet", args=[brogo.pk]))
        assert response.status_code == 404

    def test_anonymous_is_sent_to_log_in(self, as_user, brogo):
        url = reverse("character_sheet", args=[brogo.pk])
        response = as_user(None).get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


class TestSheetPDF:
    def test_owner_gets_an_a4_pdf_with_the_approval_on_every_page(self, as_user, player, brogo):
        response = as_user(player).get(reverse("character_sheet_pdf", args=[brogo.pk]))
        texts = pdf_texts(response)
        assert response["Content-Disposition"] == 'attachment; filename="brogo-the-scout.pdf"'
        sha = hashlib.sha256(b"Brogo the Scout").hexdigest()
        for text in texts:
            assert f"SHA-256 {sha} · approved over budget by 2 skill levels: {REASON}" in text
        assert "EXPERIENCE LEDGER" in texts[-1] and "+3 The bridge" in texts[-1]

    def test_gm_gets_letter(self, as_user, gm, brogo):
        response = as_user(gm).get(
            reverse("character_sheet_pdf", args=[brogo.pk]), {"paper": "letter"}
        )
        pdf_texts(response)
        reader = PdfReader(io.BytesIO(response.content))
        assert {(round(p.mediabox.width), round(p.mediabox.height)) for p in reader.pages} == {
            (612, 792)
        }

    def test_unknown_paper_is_refused(self, as_user, player, brogo):
        response = as_user(player).get(
            reverse("character_sheet_pdf", args=[brogo.pk]), {"paper": "a3"}
        )
        assert response.status_code == 400

    def test_a_name_with_no_ascii_gets_a_safe_filename(self, as_user, player, campaign):
        character = make_character(player, campaign, "dolores", name="李小龍")
        response = as_user(player).get(reverse("character_sheet_pdf", args=[character.pk]))
        assert "李小龍" in pdf_texts(response)[0]
        assert response["Content-Disposition"] == (
            f'attachment; filename="character-{character.pk}.pdf"'
        )

    def test_another_player_and_anonymous_get_nothing(self, as_user, mate, brogo):
        url = reverse("character_sheet_pdf", args=[brogo.pk])
        assert as_user(mate).get(url).status_code == 404
        response = as_user(None).get(url)
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


class TestCampaignPack:
    @pytest.fixture
    def party(self, campaign, player, mate, gm, brogo):
        james = make_character(mate, campaign, "james", Character.APPROVED)
        approve(james, gm)
        make_character(mate, campaign, "dolores", Character.SUBMITTED)
        make_character(player, campaign, "brogo", Character.DRAFT, name="Brogo's Twin")
        return [brogo, james]

    def test_gm_gets_the_approved_characters_only(self, as_user, gm, campaign, party):
        response = as_user(gm).get(reverse("campaign_pack_pdf", args=[campaign.pk]))
        texts = pdf_texts(response)
        assert response["Content-Disposition"] == 'attachment; filename="the-fens-pack.pdf"'
        summary = texts[0]
        assert "The Fens: campaign pack" in summary
        assert "Brogo the Scout sample character Medieval military scout" in summary
        assert "James Stoddard" in summary
        whole = " ".join(texts)
        assert "Dolores Ramirez" not in whole
        assert "Brogo's Twin" not in whole
        assert sum("MUDGE CHARACTER SHEET" in text for text in texts) == 2
        assert "EXPERIENCE LEDGER" not in whole  # ledgers stay with the single sheets

    def test_queries_do_not_grow_with_the_party(self, as_user, gm, campaign, party, mate):
        url = reverse("campaign_pack_pdf", args=[campaign.pk])
        client = as_user(gm)
        with CaptureQueriesContext(connection) as two:
            pdf_texts(client.get(url))
        for index in range(3):
            extra = make_character(mate, campaign, "dolores", Character.APPROVED, f"Extra {index}")
            approve(extra, gm)
        with CaptureQueriesContext(connection) as five:
            texts = pdf_texts(client.get(url))
        assert sum("MUDGE CHARACTER SHEET" in text for text in texts) == 5
        assert len(five) == len(two)

    @pytest.mark.parametrize("who", ["player", "mate"])
    def test_players_get_404(self, as_user, campaign, party, player, mate, who):
        user = player if who == "player" else mate
        assert (
            as_user(user).get(reverse("campaign_pack_pdf", args=[campaign.pk])).status_code == 404
        )

    def test_another_campaigns_gm_gets_404(self, as_user, campaign, party):
        other = User.objects.create_user("other-gm", password="pw-other-12345")
        Campaign.objects.create(name="Elsewhere", gm=other, base_ruleset="mudge")
        assert (
            as_user(other).get(reverse("campaign_pack_pdf", args=[campaign.pk])).status_code == 404
        )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_dice_roller_on_a_phone(open_page, campaign, player):
    """Chromium at 375 px: every trait has a Roll button, a roll shows four dice (the
    fourth the odd-coloured damage die), their total and the rolled degree, in view and
    without any CSP violation."""
    player.set_password("pw-player-12345")
    player.save()
    brogo = make_character(player, campaign, "brogo")
    page = open_page(PHONE)
    violations = []
    page.on("console", lambda m: violations.append(m.text) if "Content Security" in m.text else 0)
    log_in(page, "player", "pw-player-12345")
    page.goto(reverse("character_sheet", args=[brogo.pk]))
    buttons = page.locator("button[data-roll]:visible")
    assert buttons.count() == 7 + 23 + 1  # attributes, skills, the plain roll
    faces = {"+": 1, "\u2212": -1, "": 0}
    for _ in range(12):
        page.locator("li", has_text="Move Quietly").get_by_role("button", name="Roll").click()
        dice = [faces[d.inner_text()] for d in page.locator(".dice .die").all()]
        result = page.locator("[data-result]").inner_text()
        total = sum(dice)
        expected = f"Move Quietly: Superb {total:+d}" if total else "Move Quietly: Superb 0"
        assert result.startswith(f"{expected} \u2192 {level_name(3 + total)}."), result
        assert result.endswith(f"Damage die {dice[3]:+d}." if dice[3] else "Damage die 0.")
    damage_die = page.locator(".dice .die.damage-die")
    assert damage_die.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(183, 28, 28)"
    box = page.locator("[data-result-panel]").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert violations == []
