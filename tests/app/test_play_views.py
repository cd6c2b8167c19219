"""The play page, the party view and the dice log over HTTP: htmx answers and plain-HTML
fallbacks, stale and bad input, escaping, and the live pages' polls (204 when nothing
changed, a fixed number of queries however large the party)."""

import json
import re
import zoneinfo

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.template import Context, Template
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from characters.models import DiceRoll, PlayState
from characters.selectors import party
from characters.selectors.party import party_fingerprint
from characters.selectors.play import campaign_log
from characters.services import npc_rolls
from characters.services import play as services
from characters.services.advancement import experience_award
from characters.services.campaigns import campaign_create
from characters.services.decisions import decision_token_issue
from characters.services.rulesets import designed_ruleset_save
from rules.ladder import GREAT
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import MUDGE
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import approved, build, make_npc

HX = {"HTTP_HX_REQUEST": "true"}


def points_lines(html: str) -> list[str]:
    """Each points-in-hand line as read: its words, without the tags."""
    lines = re.findall(r'<p class="points-count">(<strong data-points>.*?)<small', html, re.S)
    return [re.sub(r"<[^>]+>", "", line).strip() for line in lines]


# The party poll's answer when something changed (test_the_party_poll_answers_...).
PARTY_POLL_QUERIES = 7
PARTY_PAGE_QUERIES = 8  # the whole party view (test_queries_do_not_grow_with_the_party)
HURT = 1


@pytest.fixture
def pip(client, player):
    client.force_login(player)
    return client


def fingerprint(page) -> str:
    return re.search(r"\?fp=([\w.\-]+)", page.content.decode()).group(1)


def party_poll_statements(client, campaign, changed, size: int) -> int:
    """The statements the GM's party poll costs to answer a change to `changed`, with the
    party's `size` characters each in the answer."""
    page = client.get(reverse("campaign_party", args=[campaign.pk]))
    url = reverse("party_live", args=[campaign.pk]) + "?fp=" + fingerprint(page)
    services.play_points_spend(character=changed, actor=changed.owner, expected_revision=None)
    with CaptureQueriesContext(connection) as queries:
        html = client.get(url, **HX).content.decode()
    assert html.count('class="play-status" hx-target="this"') == size
    return len(queries)


class TestThePlayPage:
    def test_it_shows_the_track_the_points_and_the_roller(self, pip, tess):
        page = pip.get(reverse("character_play", args=[tess.pk]))
        html = page.content.decode()
        assert page.status_code == 200
        assert html.count('aria-label="Scratch box') == 3  # Mudge 4.57: 3/2/1/1/1
        assert 'aria-label="Hurt box 2 of 2, open: mark a wound"' in html
        assert points_lines(html) == ["3 meta points in hand"]
        assert 'name="quick" value="Climbing"' in html
        assert '<option value="Broadsword">Broadsword (+3)</option>' in html
        assert "Approved · SHA-256 " + tess.approvals.get().sha256 in html

    @pytest.mark.parametrize(
        "language, spent, said",
        [
            ("en", 2, "1 meta point in hand"),
            ("en", 3, "0 meta points in hand"),
            ("fr", 2, "1 méta-point en main"),
            ("de", 2, "1 Metapunkt auf der Hand"),
            ("de", 1, "2 Metapunkte auf der Hand"),
        ],
    )
    def test_the_points_in_hand_are_counted_as_the_language_counts(
        self, pip, tess, player, language, spent, said
    ):
        for revision in range(spent):
            services.play_points_spend(character=tess, actor=player, expected_revision=revision)
        url = reverse("character_play", args=[tess.pk])
        html = pip.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert points_lines(html) == [said]

    @pytest.mark.parametrize(
        "language, one, other, many",
        [
            ("en", "meta point", "meta points", "meta points"),
            ("fr", "méta-point", "méta-points", "méta-points"),
            ("de", "Metapunkt", "Metapunkte", "Metapunkte"),
        ],
    )
    def test_the_points_name_comes_with_each_plural_form_for_the_offline_page(
        self, pip, tess, language, one, other, many
    ):
        """The offline page changes the count on the phone (static/js/offline.js): it says
        the name in the form the new count takes, by Intl.PluralRules' names for them."""
        html = pip.get(
            reverse("character_play", args=[tess.pk]), HTTP_ACCEPT_LANGUAGE=language
        ).content.decode()
        forms = re.search(
            r'data-points-one="[^"]*" data-points-other="[^"]*" data-points-many="[^"]*"', html
        )
        assert forms.group(0) == (
            f'data-points-one="{one}" data-points-other="{other}" data-points-many="{many}"'
        )

    def test_the_wound_penalty_shows_on_traits_and_roller(self, pip, tess, player):
        services.play_blow_record(character=tess, actor=player, damage=3)
        html = pip.get(reverse("character_play", args=[tess.pk])).content.decode()
        assert "Hurt: -1 is applied to every trait below and to every roll." in html
        assert "<del>Good</del> <strong>Fair</strong>" in html  # Climbing, Hurt
        assert 'data-penalty="-1"' in html

    def test_a_draft_is_not_in_play(self, pip, campaign, player):
        draft = build(player, campaign, "Sketch")
        html = pip.get(reverse("character_play", args=[draft.pk])).content.decode()
        assert "Sketch is a draft: play starts once the GM approves the build." in html
        assert 'id="roller-form"' not in html

    def test_links_from_the_sheet_and_the_builder(self, pip, tess):
        play_url = reverse("character_play", args=[tess.pk])
        for name in ("character_sheet", "character_builder"):
            assert play_url in pip.get(reverse(name, args=[tess.pk])).content.decode()


class TestChanges:
    def test_htmx_answers_with_the_status_panel(self, pip, tess):
        url = reverse("play_wound", args=[tess.pk])
        response = pip.post(url, {"box": f"mark:{HURT}", "revision": 0}, **HX)
        html = response.content.decode()
        assert response.status_code == 200
        assert html.startswith(f'\n<section id="play-status-{tess.pk}"')
        assert "<strong>Hurt</strong>: -1 on every roll" in html
        assert 'id="alerts" hx-swap-oob="innerHTML"' in html
        assert json.loads(response["HX-Trigger"]) == {
            "playChanged": {"character": tess.pk, "revision": 1}
        }

    def test_a_plain_post_goes_back(self, pip, tess):
        url = reverse("play_points", args=[tess.pk])
        response = pip.post(url, {"action": "spend", "revision": 0})
        assert response.status_code == 302
        assert response["Location"] == reverse("character_play", args=[tess.pk])
        page = pip.get(response["Location"])
        said = "Tess: spent 1 of the meta points. Now unhurt; meta points in hand: 2."
        assert said in page.content.decode()

    def test_the_gm_goes_back_to_the_party(self, client, gm, tess):
        client.force_login(gm)
        url = reverse("play_blow", args=[tess.pk])
        response = client.post(url, {"damage": 5, "back": "party"})
        assert response["Location"] == reverse("campaign_party", args=[tess.campaign_id])

    def test_a_stale_click_shows_how_things_stand(self, pip, tess, gm):
        services.play_wound_box(mark=True, character=tess, actor=gm, expected_revision=0, level=0)
        url = reverse("play_wound", args=[tess.pk])
        response = pip.post(url, {"box": f"mark:{HURT}", "revision": 0}, **HX)
        html = response.content.decode()
        assert response.status_code == 409
        assert "someone else clicked first" in html
        assert 'aria-label="Scratch box 1 of 3, marked: clear it"' in html
        assert PlayState.objects.get(character=tess).wounds == [[0], [], [], [], []]

    @pytest.mark.parametrize(
        "name, data",
        [
            ("play_wound", {"box": "mark:x", "revision": 0}),
            ("play_wound", {"box": "mark:99", "revision": 0}),
            ("play_wound", {"box": "mark:1", "revision": "-1"}),
            ("play_blow", {"damage": "lots"}),
            ("play_points", {"action": "steal", "revision": 0}),
            ("play_potential", {"power": "Telepathy", "action": "use", "revision": 0}),
            ("play_condition_add", {"text": ""}),
            ("play_rest", {"rest": "../../etc", "revision": 0}),
            ("play_roll", {"modifier": "99"}),
            ("play_roll", {"against": "Great"}),
            ("play_roll", {"trait": "Flying"}),
        ],
    )
    def test_bad_input_is_a_clear_400(self, pip, tess, name, data):
        response = pip.post(reverse(name, args=[tess.pk]), data, **HX)
        assert response.status_code == 400
        assert response["HX-Retarget"] == "#alerts"
        assert "Reload" in response.content.decode()
        assert not DiceRoll.objects.exists()

    def test_a_refusal_names_the_field_by_its_label(self, pip, tess):
        response = pip.post(reverse("play_blow", args=[tess.pk]), {"damage": "61"}, **HX)
        assert response.status_code == 400
        message = "Nothing was saved. Damage: Ensure this value is less than or equal to 60."
        assert f"<p>{message}</p>" in response.content.decode()

    def test_conditions_are_escaped(self, pip, tess):
        pip.post(
            reverse("play_condition_add", args=[tess.pk]), {"text": "<script>alert(1)</script>"}
        )
        html = pip.get(reverse("character_play", args=[tess.pk])).content.decode()
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
        assert "<script>alert(1)" not in html


class TestRolling:
    def test_a_roll_goes_to_the_campaign_log(self, pip, tess, client, other_player, otto):
        response = pip.post(
            reverse("play_roll", args=[tess.pk]),
            {"quick": "Climbing", "trait": "", "modifier": "1", "against": "2"},
            **HX,
        )
        html = response.content.decode()
        entry = DiceRoll.objects.get()
        assert (entry.trait, entry.modifier, entry.against) == ("Climbing", 1, 2)
        assert entry.result == 1 + 1 + sum(entry.dice)  # Good, +1 situational
        assert 'id="roll-result"' in html
        assert '<section id="dice-log" class="dice-log" hx-swap-oob="true"' in html
        client.force_login(other_player)
        log = client.get(reverse("character_play", args=[otto.pk])).content.decode()
        assert "Climbing Good +1 situational: rolled" in log
        assert "Against Great:" in log

    @pytest.mark.parametrize("zone", ["UTC", "Pacific/Auckland"])
    def test_a_log_line_draws_its_dice_and_time_as_the_template_filters_did(
        self, pip, tess, player, zone
    ):
        """The log's line says its dice (Mudge's damage die filled, a 0 blank) and when it
        was rolled in the reader's time zone, made once in Python, as the template's own
        tags and date filters said them."""
        entry = services.dice_roll(
            character=tess, actor=player, trait="Climbing", randbelow=lambda n: 1
        )
        entry.dice = [0, 1, -1, 1]
        entry.save(update_fields=["dice"])
        with timezone.override(zoneinfo.ZoneInfo(zone)):
            [line] = campaign_log(tess.campaign, player)
            stamp = Template("{{ at|date:'c' }} {{ at|date:'H:i:s' }}").render(
                Context({"at": entry.created_at})
            )
            assert f"{line.rolled_at_iso} {line.rolled_at_time}" == stamp
        assert [(die.css, die.shown) for die in line.dice] == [
            ("mini-die", ""),
            ("mini-die", "+"),
            ("mini-die", "\u2212"),
            ("mini-die damage-die", "+"),
        ]
        html = pip.get(reverse("character_play", args=[tess.pk])).content.decode()
        assert (
            '<span class="mini-die"></span><span class="mini-die">+</span>'
            '<span class="mini-die">\u2212</span><span class="mini-die damage-die">+</span>'
        ) in html

    def test_the_client_cannot_choose_the_dice(self, pip, tess):
        for _ in range(3):
            pip.post(reverse("play_roll", args=[tess.pk]), {"dice": "[1,1,1,1]", "result": 8})
        results = list(DiceRoll.objects.values_list("dice", "result"))
        assert all(result == sum(dice) for dice, result in results)


class TestThePartyView:
    def test_every_approved_character(self, client, gm, tess, otto, campaign, player):
        build(player, campaign, "Sketch")
        client.force_login(gm)
        html = client.get(reverse("campaign_party", args=[campaign.pk])).content.decode()
        assert f'id="play-status-{tess.pk}"' in html and f'id="play-status-{otto.pk}"' in html
        assert "Sketch" not in html
        assert "1 character is not approved yet, so not in play." in html
        assert "Broadsword +3" in html  # Strength Good +1, medium weapon +2 (Mudge 4.54)
        assert "Climbing Good" in html  # key traits

    def test_a_card_is_worked_out_again_only_when_what_it_shows_changed(
        self, client, gm, tess, otto, campaign, monkeypatch
    ):
        """The party view keeps each card (selectors.party._card) by what it is made of:
        the same party again works out no card; a level changed, even behind the app's
        back (no version moved), another language and other house rules are each a card
        worked out again, showing the change."""
        worked_out = []
        work_out = party.sheet_for_character
        monkeypatch.setattr(
            party,
            "sheet_for_character",
            lambda character, **kw: worked_out.append(character.name) or work_out(character, **kw),
        )
        client.force_login(gm)
        url = reverse("campaign_party", args=[campaign.pk])

        def cards(**headers) -> str:
            worked_out.clear()
            return client.get(url, **headers).content.decode()

        assert "Climbing Good" in cards() and sorted(worked_out) == ["Otto", "Tess"]
        assert "Climbing Good" in cards() and worked_out == []
        tess.traits.filter(name="Climbing").update(level=GREAT)
        assert "Climbing Great" in cards() and worked_out == ["Tess"]
        assert "Escalade Très bon" in cards(HTTP_ACCEPT_LANGUAGE="fr") and len(worked_out) == 2
        campaign.house_rules = {"skill_levels": 40}
        campaign.save(update_fields=["house_rules"])
        assert "Climbing Great" in cards() and sorted(worked_out) == ["Otto", "Tess"]

    def test_a_card_is_drawn_again_only_when_what_it_shows_changed(
        self, client, gm, tess, otto, campaign, monkeypatch
    ):
        """The party view keeps each card as drawn (templatetags.kept_drawings) by what it
        shows is made of (selectors.party._drawn_from): the same party again draws no card;
        a wound marked on Tess draws hers alone, showing the box marked, its forms posting
        her new revision with the reader's own token; a level changed behind the app's
        back draws hers again, showing it."""
        from django.middleware.csrf import _unmask_cipher_token

        from characters.kept import KeptUnderRules
        from characters.templatetags import kept_drawings

        monkeypatch.setattr(kept_drawings, "_KEPT", KeptUnderRules(limit=3072))
        drawn = []
        keep = kept_drawings.kept_drawing

        def counted(context, key, rules, draw):
            return keep(context, key, rules, lambda: drawn.append(key[0]) or draw())

        monkeypatch.setattr(kept_drawings, "kept_drawing", counted)
        client.force_login(gm)
        url = reverse("campaign_party", args=[campaign.pk])

        def page() -> str:
            drawn.clear()
            return client.get(url).content.decode()

        page()
        assert drawn == ["party_card", "party_card"]
        page()
        assert drawn == []
        services.play_wound_box(mark=True, character=tess, actor=gm, expected_revision=0, level=0)
        html = page()
        assert drawn == ["party_card"]
        card = re.search(
            rf'<article class="party-card" id="party-card-{tess.pk}".*?</article>', html, re.S
        )
        assert 'aria-label="Scratch box 1 of 3, marked: clear it"' in card.group(0)
        assert set(re.findall(r'name="revision" value="(\d+)"', card.group(0))) == {"1"}
        tokens = re.findall(r'name="csrfmiddlewaretoken" value="([^"]+)"', html)
        assert {_unmask_cipher_token(t) for t in tokens} == {client.cookies["csrftoken"].value}
        tess.traits.filter(name="Climbing").update(level=GREAT)
        assert "Climbing Great" in page() and drawn == ["party_card"]

    def test_the_open_armour_term_reads_as_each_language_writes_it(
        self, client, gm, tess, campaign
    ):
        """The defensive factor leaves armour for play: "+ armour" in English, "+ Rüstung" in
        German, whose nouns keep their capital (the word lowered read "+ rüstung")."""
        client.force_login(gm)
        url = reverse("campaign_party", args=[campaign.pk])
        english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
        german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
        assert re.search(r"Defensive [+-]?\d+ \+ armour", english)
        assert re.search(r"Defensiv [+-]?\d+ \+ Rüstung", german)
        assert "+ rüstung" not in german

    def test_queries_do_not_grow_with_the_party(self, client, gm, campaign):
        client.force_login(gm)
        url = reverse("campaign_party", args=[campaign.pk])
        counts = []
        for n in range(3):
            owner = get_user_model().objects.create_user(f"p{n}")
            campaign.memberships.create(user=owner)
            approved(build(owner, campaign, f"Hero {n}"), gm)
            # The campaign's catalogue words, which the statblocks say names with, are read
            # once a process (adapters.campaign_words): read before counting.
            client.get(url)
            with CaptureQueriesContext(connection) as queries:
                assert client.get(url).status_code == 200
            counts.append(len(queries))
        assert counts[0] == counts[1] == counts[2]
        # The session with its user, the campaign with its waiting count, the characters
        # with their traits and equipment (their ledgers: none has a row, so none is read),
        # the dice log, the unread notifications, the new session form's token (the expired
        # ones went with the first page drawn).
        assert counts[0] == PARTY_PAGE_QUERIES

    def test_a_ledger_costs_the_party_page_one_statement_for_any_party(
        self, client, gm, campaign, tess, otto
    ):
        """The characters' ledgers are read only when one of them has a row: in one statement
        then, however many have one."""
        client.force_login(gm)
        url = reverse("campaign_party", args=[campaign.pk])
        counts = []
        for character in (tess, otto):
            experience_award(character=character, actor=gm, amount=2, reason="Session")
            client.get(url)
            with CaptureQueriesContext(connection) as queries:
                html = client.get(url).content.decode()
            assert f'id="play-status-{character.pk}"' in html
            counts.append(len(queries))
        assert counts == [PARTY_PAGE_QUERIES + 1] * 2


class TestPolling:
    def test_nothing_changed_is_a_204_in_three_queries(
        self, pip, tess, player, django_assert_num_queries
    ):
        page = pip.get(reverse("character_play", args=[tess.pk]))
        url = reverse("play_live", args=[tess.pk]) + "?fp=" + fingerprint(page)
        # The session with its user (characters/sessions.py), the character with its play
        # state, the newest log line.
        with django_assert_num_queries(3):
            assert pip.get(url, **HX).status_code == 204

    def test_a_change_comes_as_out_of_band_swaps(self, pip, tess, gm):
        page = pip.get(reverse("character_play", args=[tess.pk]))
        services.play_blow_record(character=tess, actor=gm, damage=5)
        url = reverse("play_live", args=[tess.pk]) + "?fp=" + fingerprint(page)
        html = pip.get(url, **HX).content.decode()
        assert f'id="play-status-{tess.pk}" class="play-status" hx-target="this"' in html
        assert 'hx-swap-oob="true"' in html and "<strong>Very Hurt</strong>" in html
        assert 'id="play-traits" class="play-traits" hx-swap-oob="true"' in html
        assert 'id="play-poll"' in html and fingerprint(page) not in html
        # The play state's own record: who marked what.
        assert 'id="play-history" class="play-history" hx-swap-oob="true"' in html
        assert "<strong>gwen</strong>: damage 5: Very Hurt</li>" in html

    def test_a_changed_build_reloads_the_page(self, pip, tess):
        page = pip.get(reverse("character_play", args=[tess.pk]))
        tess.version += 1  # as advancement does
        tess.save(update_fields=["version"])
        url = reverse("play_live", args=[tess.pk]) + "?fp=" + fingerprint(page)
        assert pip.get(url, **HX)["HX-Refresh"] == "true"

    def test_the_party_poll(self, client, gm, tess, otto, player, django_assert_num_queries):
        client.force_login(gm)
        page = client.get(reverse("campaign_party", args=[tess.campaign_id]))
        url = reverse("party_live", args=[tess.campaign_id]) + "?fp=" + fingerprint(page)
        # The session with its user, the campaign, and the party's sums with the newest log
        # line (selectors.party.party_fingerprint).
        with django_assert_num_queries(3):
            assert client.get(url, **HX).status_code == 204
        services.play_points_spend(character=tess, actor=player, expected_revision=0)
        html = client.get(url, **HX).content.decode()
        assert (
            html.count('class="play-status" hx-target="this" hx-swap="outerHTML" hx-swap-oob') == 2
        )
        assert "2 meta points in hand" in points_lines(html)

    def test_the_party_page_works_out_the_polls_fingerprint(
        self, client, gm, campaign, tess, otto, player
    ):
        """The page says its fingerprint from the characters and the log it read, the poll
        asks the database for its own: the same string, so the poll right after the page
        finds nothing new. Played and unplayed characters, an NPC never played, a draft
        outside the party, the GM's secret roll in the log."""
        build(player, campaign, "Sketch")
        npc = make_npc(campaign, gm, "Bandit", 2)
        services.play_blow_record(character=tess, actor=gm, damage=5)
        services.play_points_spend(character=tess, actor=player, expected_revision=None)
        services.dice_roll(character=tess, actor=player, trait="Climbing")
        npc_rolls.npc_roll(character=npc, actor=gm, trait="Sword", secret=True)
        client.force_login(gm)
        url = reverse("campaign_party", args=[campaign.pk])
        said = fingerprint(client.get(url))
        newest = DiceRoll.objects.filter(campaign=campaign).latest("id").pk
        versions = tess.version + otto.version + npc.version
        assert said == party_fingerprint(campaign) == f"3-{npc.pk}-{versions}.2.{newest}"
        live = reverse("party_live", args=[campaign.pk]) + "?fp=" + said
        assert client.get(live, **HX).status_code == 204
        # Nothing played and nothing rolled yet: zeros where the aggregates find no row.
        quiet = campaign_create(gm=gm, name="Quiet table", base_ruleset="mudge")
        assert fingerprint(client.get(reverse("campaign_party", args=[quiet.pk]))) == (
            party_fingerprint(quiet)
        )
        assert party_fingerprint(quiet) == "0-0-0.0.0"

    def test_the_party_poll_answers_a_change_in_a_fixed_number_of_statements(
        self, client, gm, campaign, tess
    ):
        """A GM's screen polls every few seconds: the answer to a change costs the same for a
        party of one as of four. The session with its user, the campaign, the party's sums,
        the newest log line; then the approved characters with their traits and equipment
        (their ledgers only when one has a row: none here), and the dice log."""
        client.force_login(gm)
        counts = []
        for size, joining in ((1, 0), (4, 3)):
            for n in range(joining):
                owner = get_user_model().objects.create_user(f"p{n}")
                campaign.memberships.create(user=owner)
                approved(build(owner, campaign, f"Hero {n}"), gm)
            counts.append(party_poll_statements(client, campaign, tess, size))
        assert counts == [PARTY_POLL_QUERIES] * 2

    def test_a_gms_own_game_costs_the_party_poll_the_same_for_any_party(self, client, gm):
        """A campaign on a designed game: each member's campaign brings its game's version
        with it, so a larger party costs the poll no more statements."""
        game = {**ruleset_to_json(MUDGE), "slug": "house-mudge", "name": "House Mudge"}
        version = designed_ruleset_save(owner=gm, file=game)
        campaign = campaign_create(gm=gm, name="House table", ruleset_version=version)
        client.force_login(gm)
        counts, first = [], None
        for size, joining in ((1, 1), (4, 3)):
            for n in range(joining):
                owner = get_user_model().objects.create_user(f"h{size}{n}")
                campaign.memberships.create(user=owner)
                hero = approved(build(owner, campaign, f"Hero {size}{n}"), gm)
                first = first or hero
            counts.append(party_poll_statements(client, campaign, first, size))
        assert counts[0] == counts[1], counts

    def test_the_log_poll(self, client, other_player, tess, player):
        client.force_login(other_player)
        url = reverse("campaign_log_live", args=[tess.campaign_id])
        assert client.get(url + "?after=0", **HX).status_code == 204
        services.dice_roll(character=tess, actor=player, trait="Climbing")
        html = client.get(url + "?after=0", **HX).content.decode()
        assert "Tess" in html and "Climbing Good: rolled" in html


def test_a_new_session(client, gm, campaign):
    client.force_login(gm)
    once = decision_token_issue(user=gm, kind="session_start", target=campaign.pk)
    response = client.post(reverse("party_new_session", args=[campaign.pk]), {"once": once}, **HX)
    assert "Session 1 started" in response.content.decode()
    log = client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
    assert "<strong>Session 1</strong> <small>started by gwen" in log


class TestARemovedPlayer:
    """Removed from the campaign, a player keeps their character and its play page, but
    the campaign's dice log is read and written by its members only: the page, its poll
    and a roll each ask."""

    @pytest.fixture
    def removed(self, pip, tess, otto, gm, other_player, campaign):
        from characters.services.campaigns import membership_remove

        services.dice_roll(character=otto, actor=other_player, trait="Swimming")
        page = pip.get(reverse("character_play", args=[tess.pk]))
        assert "Otto" in page.content.decode()  # a member reads the table's rolls
        before = fingerprint(page)
        membership = campaign.memberships.get(user__username="pip")
        membership_remove(membership=membership, actor=gm)
        return before

    def test_reads_no_log_on_the_play_page_or_its_poll(
        self, pip, tess, otto, other_player, removed
    ):
        url = reverse("character_play", args=[tess.pk])
        html = pip.get(url).content.decode()
        assert "You are no longer a player in The Watch: its dice log is for its table." in html
        assert "Otto" not in html
        now = fingerprint(pip.get(url))
        services.dice_roll(character=otto, actor=other_player, trait="Swimming")
        live = reverse("play_live", args=[tess.pk])
        assert pip.get(live, {"fp": now}, **HX).status_code == 204  # a new roll tells nothing
        stale = f"{now.split('.')[0]}.-1.0"  # the same build, an older play state
        fresh = pip.get(live, {"fp": stale}, **HX).content.decode()
        assert "Otto" not in fresh and "no longer a player" in fresh
        assert pip.get(reverse("campaign_log", args=[tess.campaign_id])).status_code == 404

    @pytest.mark.parametrize("headers", [{}, HX])
    def test_writes_no_roll_into_it(self, pip, tess, removed, headers):
        before = DiceRoll.objects.count()
        response = pip.post(
            reverse("play_roll", args=[tess.pk]),
            {"trait": "Climbing"},
            follow=not headers,
            **headers,
        )
        assert "You are no longer a player in The Watch" in response.content.decode()
        assert DiceRoll.objects.count() == before
