"""The sheet pages: the HTML sheet, its PDF and the campaign pack, for every role.

Users, campaigns and characters are made with the ORM; the sample files give them traits
(through the lead's adapters) so the sheets carry real values."""

import io
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone
from django_tasks_db.models import DBTaskResult
from playwright.sync_api import expect
from pypdf import PdfReader

from characters import pdf
from characters.adapters import file_sha256, rows_from_rules
from characters.audit_chain import stamp_code
from characters.models import (
    Approval,
    Campaign,
    Character,
    Equipment,
    ExperienceEntry,
    Membership,
    PackJob,
    SheetPDF,
    Trait,
)
from characters.selectors.printing import pack_characters
from characters.services.advancement import experience_award
from characters.services.audit import record_event
from characters.services.printing import pack_storage
from characters.sheets import sheet_for_character
from rules.charfile import parse_character_json
from rules.ladder import level_name
from tests.support.browser import PHONE, fits_the_screen, log_in
from tests.support.commands import run_worker
from tests.support.pdf_helpers import fields

SAMPLES = Path(__file__).resolve().parents[2] / "rules" / "samples"
REASON = "he held the bridge at Dunmoor"
User = get_user_model()


def pdf_texts(response) -> list[str]:
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    body = b"".join(response.streaming_content) if response.streaming else response.content
    assert body.startswith(b"%PDF-")
    reader = PdfReader(io.BytesIO(body))
    return [" ".join(page.extract_text().split()) for page in reader.pages]


def make_character(owner, campaign, stem, state=Character.State.DRAFT, name=None) -> Character:
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
    snapshot = {"name": character.name}
    approval = Approval.objects.create(
        character=character,
        version=character.version,
        snapshot=snapshot,
        sha256=file_sha256(snapshot),
        approved_by=gm,
        override_reason=reason,
        report={"valid": not errors, "unit": "skill level", "balance": -over_by, "errors": errors},
    )
    # The append-only record the sheet's stamp is checked against.
    record_event(
        character=character,
        actor=gm,
        action="approved",
        after={"state": "approved", "sha256": approval.sha256, "approval": approval.pk},
        reason=reason,
    )
    return approval


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
    Membership.objects.create(campaign=campaign, user=player)
    Membership.objects.create(campaign=campaign, user=mate)
    return campaign


@pytest.fixture
def brogo(player, campaign, gm):
    character = make_character(player, campaign, "brogo", Character.State.APPROVED)
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
        assert '<h1 class="sheet-name"><bdi>Brogo the Scout</bdi></h1>' in html
        assert "<bdi>Perception</bdi>: Superb +3" in html
        assert 'data-trait="Move Quietly" data-level="3"' in html
        assert "Staff: Strength [1] + Strength Scale [-2] + Weapon [2] = +1" in html
        assert "☐☐☐☐</td>" in html
        assert f"approved over budget by 2 skill levels: {REASON}" in html
        assert "<td>23.5%</td><td>61.7%</td>" in html  # Fudge Basics' odds of exactly 0
        # The print options: a GET form for the PDF, A4 and fillable unless changed.
        assert f'<form method="get" action="/characters/{brogo.pk}/sheet.pdf"' in html
        assert 'name="paper" value="letter"' in html
        assert 'name="output" value="flat"' in html
        assert 'name="reference"' in html and 'name="pencil"' in html

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
        assert '<p class="sheet-stamp">Draft · not approved</p>' in html

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
        sha = file_sha256({"name": "Brogo the Scout"})
        event = brogo.events.get(action="approved")
        stamp = stamp_code(brogo.pk, event.version, event.pk)
        for text in texts:  # the hash and the stamp in every footer, the reason once
            assert f"Approved · SHA-256 {sha} stamp {stamp} Page" in text
        whole = " ".join(texts)
        assert whole.count(f"Approved over budget by 2 skill levels: {REASON}") == 1
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

    def test_unknown_paper_is_refused_saying_why(self, as_user, player, brogo):
        response = as_user(player).get(
            reverse("character_sheet_pdf", args=[brogo.pk]), {"paper": "a3"}
        )
        assert response.status_code == 400
        assert response.content.decode() == (
            "paper: Select a valid choice. a3 is not one of the available choices."
        )

    def test_the_options_of_the_form(self, as_user, player, brogo):
        url = reverse("character_sheet_pdf", args=[brogo.pk])
        client = as_user(player)
        fillable = client.get(url, {"paper": "a4", "output": "fillable"})
        assert fields(fillable.content)["s1-experience"] == "0"
        flat_pdf = client.get(url, {"paper": "a4", "output": "flat", "pencil": "on"})
        assert fields(flat_pdf.content) == {}
        assert "Experience: XP Meta points:" in pdf_texts(flat_pdf)[0]
        with_reference = pdf_texts(client.get(url, {"reference": "on"}))
        assert len(with_reference) == 2
        assert "Mudge: trait ladder and costs" in with_reference[1]

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


@pytest.fixture
def renders(monkeypatch):
    """Counts the sheets laid out by WeasyPrint (the renderer still renders them)."""
    counted = []
    original = pdf.render_sheets_pdf

    def counting(sheets, *args, **kwargs):
        counted.extend(sheet.name for sheet in sheets)
        return original(sheets, *args, **kwargs)

    monkeypatch.setattr(pdf, "render_sheets_pdf", counting)
    return counted


class TestKeptPDFs:
    """An approved sheet is rendered once per (what it prints, options); the next download
    of the same sheet comes from the database."""

    def test_a_second_download_is_not_rendered_again(self, as_user, player, brogo, renders):
        url = reverse("character_sheet_pdf", args=[brogo.pk])
        first = as_user(player).get(url)
        second = as_user(player).get(url)
        assert renders == ["Brogo the Scout"]
        assert second.content == first.content
        assert SheetPDF.objects.get(character=brogo).options == "a4-fillable"

    def test_the_gm_gets_the_same_kept_pdf(self, as_user, player, gm, brogo, renders):
        url = reverse("character_sheet_pdf", args=[brogo.pk])
        assert as_user(player).get(url).content == as_user(gm).get(url).content
        assert len(renders) == 1

    def test_other_options_are_rendered_and_kept_apart(self, as_user, player, brogo, renders):
        url = reverse("character_sheet_pdf", args=[brogo.pk])
        client = as_user(player)
        for query in ({}, {"paper": "letter"}, {"output": "flat"}, {"paper": "letter"}, {}):
            pdf_texts(client.get(url, query))
        assert len(renders) == 3
        assert set(SheetPDF.objects.values_list("options", flat=True)) == {
            "a4-fillable",
            "letter-fillable",
            "a4-flat",
        }

    def test_a_change_in_play_is_rendered_again(self, as_user, player, gm, brogo, renders):
        url = reverse("character_sheet_pdf", args=[brogo.pk])
        client = as_user(player)
        pdf_texts(client.get(url))
        experience_award(character=brogo, actor=gm, amount=2, reason="Session 2")
        assert fields(client.get(url).content)["s1-experience"] == "2"
        assert len(renders) == 2
        assert SheetPDF.objects.filter(character=brogo).count() == 1  # the new one replaced it

    def test_a_draft_is_never_kept(self, as_user, player, campaign, renders):
        draft = make_character(player, campaign, "dolores")
        url = reverse("character_sheet_pdf", args=[draft.pk])
        pdf_texts(as_user(player).get(url))
        pdf_texts(as_user(player).get(url))
        assert len(renders) == 2
        assert not SheetPDF.objects.exists()


@pytest.mark.django_db(transaction=True)
class TestCampaignPack:
    @pytest.fixture
    def party(self, campaign, player, mate, gm, brogo):
        james = make_character(mate, campaign, "james", Character.State.APPROVED)
        approve(james, gm)
        make_character(mate, campaign, "dolores", Character.State.SUBMITTED)
        make_character(player, campaign, "brogo", Character.State.DRAFT, name="Brogo's Twin")
        return [brogo, james]

    def ask_for_pack(self, client, campaign, **options) -> PackJob:
        data = {"paper": "a4", "output": "fillable", "reference": "on", **options}
        response = client.post(reverse("campaign_pack", args=[campaign.pk]), data)
        job = PackJob.objects.get()
        assert response.status_code == 302
        assert response["Location"] == reverse("campaign_pack", args=[campaign.pk])
        return job

    def test_the_worker_renders_the_approved_characters_only(self, as_user, gm, campaign, party):
        client = as_user(gm)
        job = self.ask_for_pack(client, campaign)
        task = DBTaskResult.objects.get()
        assert task.task_path == "characters.services.printing.render_campaign_pack"
        assert task.queue_name == "packs"  # its own: no mail or other task takes its turn
        assert task.args_kwargs == {"args": [job.pk], "kwargs": {}}
        page = client.get(reverse("campaign_pack", args=[campaign.pk])).content.decode()
        assert "It prints 2 approved characters: Brogo the Scout, James Stoddard." in page
        assert "Queued: a background worker starts it in a moment." in page
        assert f'hx-get="{reverse("campaign_pack_job", args=[campaign.pk, job.pk])}"' in page

        run_worker()

        task.refresh_from_db()
        assert task.status == "SUCCESSFUL"
        job.refresh_from_db()
        assert (job.state, job.characters, job.steps_done, job.steps) == ("done", 2, 5, 5)
        status = client.get(
            reverse("campaign_pack_job", args=[campaign.pk, job.pk]), headers={"HX-Request": "true"}
        )
        html = status.content.decode()
        assert "hx-get" not in html  # finished: the polling stops
        download = reverse("campaign_pack_download", args=[campaign.pk, job.pk])
        assert f'href="{download}"' in html
        response = client.get(download)
        texts = pdf_texts(response)
        assert response["Content-Disposition"] == 'attachment; filename="the-fens-pack.pdf"'
        assert len(texts) == 4  # the summary, Brogo, James, the reference page
        assert "The Fens: campaign pack" in texts[0]
        assert "Brogo the Scout sample character · Medieval military scout" in texts[0]
        assert "James Stoddard" in texts[0]
        whole = " ".join(texts)
        assert "Dolores Ramirez" not in whole and "Brogo's Twin" not in whole
        assert sum("MUDGE CHARACTER SHEET" in text for text in texts) == 2
        assert "EXPERIENCE LEDGER" not in whole  # ledgers stay with the single sheets
        assert "Mudge: trait ladder and costs" in texts[3]

    def test_the_options_reach_the_worker(self, as_user, gm, campaign, party):
        job = self.ask_for_pack(as_user(gm), campaign, paper="letter", output="flat", reference="")
        assert job.options == "letter-flat"
        run_worker()
        job.refresh_from_db()
        with pack_storage().open(job.file_name) as file:
            document = file.read()
        assert fields(document) == {}
        assert len(PdfReader(io.BytesIO(document)).pages) == 3  # no reference page
        assert {
            (round(p.mediabox.width), round(p.mediabox.height))
            for p in PdfReader(io.BytesIO(document)).pages
        } == {(612, 792)}

    def test_a_failed_render_says_so(self, as_user, gm, campaign, party, monkeypatch):
        def broken(*args, **kwargs):
            raise OSError("disk full")

        monkeypatch.setattr(pdf, "render_campaign_pack_pdf", broken)
        job = self.ask_for_pack(as_user(gm), campaign)
        run_worker()
        job.refresh_from_db()
        assert job.state == "failed"
        assert job.problem.startswith("The pack could not be rendered.")
        assert DBTaskResult.objects.get().status == "FAILED"
        page = as_user(gm).get(reverse("campaign_pack", args=[campaign.pk])).content.decode()
        assert "The pack could not be rendered." in page
        download = reverse("campaign_pack_download", args=[campaign.pk, job.pk])
        assert as_user(gm).get(download).status_code == 404

    def test_the_party_is_read_with_a_fixed_number_of_queries(self, campaign, party, mate, gm):
        def read_party():
            with CaptureQueriesContext(connection) as queries:
                sheets = [
                    sheet_for_character(c, with_ledger=False) for c in pack_characters(campaign)
                ]
            return sheets, len(queries)

        # The campaign's catalogue translations, read once and then kept by the process
        # (adapters.campaign_words): not counted against either party.
        read_party()
        two, two_queries = read_party()
        for index in range(3):
            extra = make_character(
                mate, campaign, "dolores", Character.State.APPROVED, f"Extra {index}"
            )
            approve(extra, gm)
        five, five_queries = read_party()
        assert (len(two), len(five)) == (2, 5)
        assert five_queries == two_queries

    @pytest.mark.parametrize("who", ["player", "mate", "other-gm"])
    def test_nobody_but_the_gm_gets_anything(self, as_user, campaign, party, gm, player, mate, who):
        job = self.ask_for_pack(as_user(gm), campaign)
        run_worker()
        if who == "other-gm":
            user = User.objects.create_user("other-gm", password="pw-other-12345")
            Campaign.objects.create(name="Elsewhere", gm=user, base_ruleset="mudge")
        else:
            user = player if who == "player" else mate
        client = as_user(user)
        for name, args in (
            ("campaign_pack", [campaign.pk]),
            ("campaign_pack_job", [campaign.pk, job.pk]),
            ("campaign_pack_download", [campaign.pk, job.pk]),
        ):
            assert client.get(reverse(name, args=args)).status_code == 404, name
        assert client.post(reverse("campaign_pack", args=[campaign.pk])).status_code == 404
        assert PackJob.objects.count() == 1

    def test_a_pack_left_waiting_says_what_may_be_wrong(self, as_user, gm, campaign, party):
        job = self.ask_for_pack(as_user(gm), campaign)
        url = reverse("campaign_pack", args=[campaign.pk])
        assert "is a worker running?" not in as_user(gm).get(url).content.decode()
        half_a_minute_ago = timezone.now() - timedelta(seconds=30)
        PackJob.objects.filter(pk=job.pk).update(created_at=half_a_minute_ago)
        page = as_user(gm).get(url).content.decode()
        assert "It has waited 0\xa0minutes: is a worker running?" in page
        assert "<code>python manage.py db_worker --queue-name packs</code> starts one" in page
        # A running pack whose worker has said nothing for longer than the lease lost it:
        # queued again once, then given up, with words for the GM each time.
        an_hour_ago = timezone.now() - timedelta(hours=1)
        running = {"state": PackJob.State.RUNNING, "heartbeat_at": an_hour_ago}
        PackJob.objects.filter(pk=job.pk).update(**running, attempts=1)
        page = as_user(gm).get(url).content.decode()
        assert "Its worker stopped before it was done: it is queued again." in page
        job.refresh_from_db()
        assert (job.state, job.steps_done) == (PackJob.State.QUEUED, 0)
        assert DBTaskResult.objects.filter(args_kwargs__args=[job.pk]).count() == 2
        PackJob.objects.filter(pk=job.pk).update(**running, attempts=2)
        page = as_user(gm).get(url).content.decode()
        assert "The worker rendering this pack stopped 2 times before it was done" in page
        assert PackJob.objects.get(pk=job.pk).state == PackJob.State.FAILED
        assert "Print it again</a>" in page

    def test_with_no_approved_character_the_page_says_so(self, as_user, gm, campaign):
        page = as_user(gm).get(reverse("campaign_pack", args=[campaign.pk])).content.decode()
        assert "No character here is approved yet" in page
        assert reverse("campaign_review_queue", args=[campaign.pk]) in page

    def test_bad_options_are_refused_on_the_page(self, as_user, gm, campaign):
        response = as_user(gm).post(reverse("campaign_pack", args=[campaign.pk]), {"paper": "a3"})
        assert response.status_code == 400
        assert "Select a valid choice. a3 is not one of the available choices." in (
            response.content.decode()
        )
        assert not PackJob.objects.exists() and not DBTaskResult.objects.exists()


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
    # A trait's name and level read as one piece, with its Roll button at the row's end.
    gap = page.locator("li", has_text="Dexterity").evaluate(
        """li => {
            const name = li.querySelector("bdi"), level = document.createRange();
            level.selectNodeContents(name.nextSibling);  // ": Great +2"
            return level.getBoundingClientRect().left - name.getBoundingClientRect().right;
        }"""
    )
    assert 0 <= gap < 2, gap
    faces = {"+": 1, "\u2212": -1, "": 0}
    said = []
    for _ in range(12):
        # The roll answers in the row's list item, with its own close button ("Close the
        # roll", issue 39): the row's Roll button by its exact name.
        row = page.locator("li", has_text="Move Quietly")
        row.get_by_role("button", name="Roll", exact=True).click()
        dice = [faces[d.inner_text()] for d in page.locator(".dice .die").all()]
        result = page.locator("[data-result]").inner_text()
        total = sum(dice)
        # "rolled +1": the dice's total, told apart from a level's modifier (issue 12).
        rolled = f"rolled {total:+d}" if total else "rolled 0"
        expected = f"Move Quietly: Superb, {rolled} \u2192 {level_name(3 + total)}."
        assert result.startswith(expected), result
        assert result.endswith(f"Damage die {dice[3]:+d}." if dice[3] else "Damage die 0.")
        said.insert(0, result)
    # The last roll, and the three before it, newest first.
    expect(page.locator("[data-history] li")).to_have_text(said[1:4])
    damage_die = page.locator(".dice .die.damage-die")
    assert damage_die.evaluate("e => getComputedStyle(e).backgroundColor") == "rgb(183, 28, 28)"
    box = page.locator("[data-result-panel]").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]
    assert fits_the_screen(page)
    assert violations == []
