"""A designed game's trackers and derived values wherever a character is (issue 42): the
builder, the HTML sheet, the PDF, the play page and the GM's party view. The game is Mudge
(its own file) with a Luck count, Sanity boxes, a GM's clock and a damage capacity worked
out from Constitution and Strength Scale."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from characters.models import PlayEvent, PlayState
from characters.services import campaigns as campaign_services
from characters.services import play as services
from characters.services import rulesets as ruleset_services
from characters.services.characters import character_create
from characters.services.rows import trait_update
from rules.ladder import GOOD, GREAT
from rules.ruleset_file import ruleset_to_json
from rules.rulesets import BUILTIN
from tests.support.pdf_helpers import fields, texts
from tests.support.play_fixtures import approved, user

pytestmark = pytest.mark.django_db
HX = {"HTTP_HX_REQUEST": "true"}


def mudge_with_trackers() -> dict:
    file = ruleset_to_json(BUILTIN["mudge"])
    file.update(format="fairsheet.ruleset/2", slug="mudge-luck", name="Mudge with Luck")
    file["derived"] = [
        {
            "key": "damage_capacity",
            "name": "Damage capacity",
            "formula": 'level("Constitution") + scale("Strength") + 3',
            "note": "",
            "translations": {"fr": {"name": "Capacité de dégâts", "note": ""}},
        },
        {
            # Fine at the defaults (Constitution Fair: 10 / -1), but not for Constitution Good.
            "key": "grit",
            "name": "Grit",
            "formula": '10 / (level("Constitution") - 1)',
            "note": "",
        },
    ]
    file["trackers"] = [
        {
            "key": "luck",
            "name": "Luck",
            "kind": "count",
            "size": 5,
            "start": 3,
            "changed_by": "player",
            "resets_on_rest": True,
            "note": "",
            "translations": {"fr": {"name": "Chance"}},
        },
        {
            "key": "sanity",
            "name": "Sanity",
            "kind": "boxes",
            "size": 6,
            "start": 0,
            "changed_by": "player",
            "resets_on_rest": False,
            "note": "",
        },
        {
            "key": "doom",
            "name": "Doom",
            "kind": "clock",
            "size": 4,
            "start": 0,
            "changed_by": "gm",
            "resets_on_rest": False,
            "note": "",
        },
        {
            "key": "stamina",
            "name": "Stamina",
            "kind": "count",
            "size": 30,
            "start": "damage_capacity",
            "changed_by": "player",
            "resets_on_rest": True,
            "note": "",
        },
    ]
    return file


def mudge_without_them() -> dict:
    """The same game with neither derived values nor trackers: what a page costs without."""
    plain = mudge_with_trackers()
    del plain["derived"], plain["trackers"]
    plain["format"] = "fairsheet.ruleset/1"
    return plain


@pytest.fixture
def gm():
    return user("gm")


@pytest.fixture
def player():
    return user("pat")


@pytest.fixture
def table(gm, player):
    version = ruleset_services.designed_ruleset_save(owner=gm, file=mudge_with_trackers())
    campaign = campaign_services.campaign_create(gm=gm, name="Dark Moor", ruleset_version=version)
    campaign_services.campaign_join(user=player, code=campaign.invite_code)
    return campaign


def with_constitution(character, level):
    constitution = character.traits.get(name="Constitution")
    trait_update(trait=constitution, actor=character.owner, expected_version=None, level=level)
    character.refresh_from_db()
    return character


@pytest.fixture
def vera(table, player):
    """Constitution Good (+1), Strength Scale 0: a damage capacity of 1 + 0 + 3 = 4."""
    return with_constitution(character_create(owner=player, name="Vera", campaign=table), GOOD)


@pytest.fixture
def in_play(vera, gm):
    return approved(vera, gm)


def page(client, who, url, language="en") -> str:
    client.force_login(who)
    response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 200
    return response.content.decode()


def test_the_builder_shows_the_derived_value_and_the_trackers_at_their_start(client, player, vera):
    html = page(client, player, reverse("character_builder", args=[vera.pk]))
    assert '<section id="game-values"' in html
    assert "<dt><bdi>Damage capacity</bdi></dt><dd><strong>4</strong></dd>" in html
    assert "<bdi>Luck</bdi>: 3 / 5" in html
    assert "<bdi>Sanity</bdi>: 0 of 6 boxes ticked" in html
    assert "<bdi>Doom</bdi>: 0 of 4 segments filled" in html
    assert "<bdi>Stamina</bdi>: 4 / 30" in html  # it starts at the damage capacity
    assert "<dt><bdi>Grit</bdi></dt><dd>— <small>divides by zero</small></dd>" in html
    french = page(client, player, reverse("character_builder", args=[vera.pk]), "fr")
    assert "<dt><bdi>Capacité de dégâts</bdi></dt><dd><strong>4</strong></dd>" in french
    assert "<bdi>Chance</bdi>" in french and "0 sur 6 cases cochées" in french


def test_the_builder_panel_follows_an_edit(client, player, vera):
    client.force_login(player)
    constitution = vera.traits.get(name="Constitution")
    response = client.post(
        reverse("trait_update", args=[vera.pk, constitution.pk]),
        {"level": GREAT, "version": vera.version, "name": "Constitution"},
        **HX,
    )
    html = response.content.decode()
    assert response.status_code == 200, html
    # Great is +2: 2 + 0 + 3.
    assert '<section id="game-values" class="game-values-panel" hx-swap-oob="true"' in html
    assert "<dt><bdi>Damage capacity</bdi></dt><dd><strong>5</strong></dd>" in html


def test_the_html_sheet_has_the_derived_values_and_boxes_to_tick(client, player, vera):
    html = page(client, player, reverse("character_sheet", args=[vera.pk]))
    assert '<th scope="row"><bdi>Damage capacity</bdi></th><td><strong>4</strong></td>' in html
    assert '<th scope="row"><bdi>Luck</bdi></th><td>3 / 5</td>' in html
    sanity = html.split("<bdi>Sanity</bdi>", 1)[1].split("</tr>", 1)[0]
    assert 'aria-label="6 boxes">☐☐☐☐☐☐</td>' in sanity
    doom = html.split("<bdi>Doom</bdi>", 1)[1].split("</tr>", 1)[0]
    assert 'aria-label="a clock of 4 segments">☐☐☐☐</td>' in doom
    # A count too long to tick box by box is its number alone.
    stamina = html.split("<bdi>Stamina</bdi>", 1)[1].split("</tr>", 1)[0]
    assert '<td>4 / 30</td><td class="boxes"></td>' in stamina


def test_the_pdf_prints_them_and_the_fillable_one_has_a_checkbox_a_box(client, player, vera):
    client.force_login(player)
    url = reverse("character_sheet_pdf", args=[vera.pk])
    flat = client.get(url, {"paper": "a4", "output": "flat"})
    text = " ".join(texts(flat.content))
    assert "DERIVED VALUES Damage capacity: 4" in text
    assert "Luck: 3 / 5 ☐☐☐☐☐" in text
    assert "Sanity: ☐☐☐☐☐☐" in text
    fillable = fields(client.get(url, {"paper": "a4", "output": "fillable"}).content)
    assert fillable["s1-tracker-luck"] == "3"
    assert [f"s1-tracker-sanity-{n}" for n in range(1, 7)] == sorted(
        name for name in fillable if name.startswith("s1-tracker-sanity-")
    )
    assert {fillable[f"s1-tracker-doom-{n}"] for n in range(1, 5)} == {"/Off"}


def test_a_player_spends_luck_on_the_play_page_and_it_is_recorded(client, player, in_play):
    html = page(client, player, reverse("character_play", args=[in_play.pk]))
    assert "<dt><bdi>Damage capacity</bdi></dt><dd><strong>4</strong></dd>" in html
    assert "<dt><bdi>Grit</bdi></dt><dd>— <small>divides by zero</small></dd>" in html
    assert "<strong data-tracker-value>3 / 5</strong>" in html
    response = client.post(
        reverse("play_tracker", args=[in_play.pk]),
        {"tracker": "luck", "step": "-1", "revision": 0},
        **HX,
    )
    answer = response.content.decode()
    assert response.status_code == 200, answer
    assert "<strong data-tracker-value>2 / 5</strong>" in answer
    assert "Vera: Luck: 3 → 2." in answer
    assert PlayState.objects.get(character=in_play).trackers == {"luck": 2}
    event = PlayEvent.objects.get(character=in_play, action="tracker_changed")
    assert (event.note, event.before, event.after) == (
        "Luck: 3 → 2",
        {"trackers": {"luck": 3, "sanity": 0, "doom": 0, "stamina": 4}},
        {"trackers": {"luck": 2, "sanity": 0, "doom": 0, "stamina": 4}},
    )
    # The history says it in the reader's language, with the GM's own name for it.
    french = page(client, player, reverse("character_play", args=[in_play.pk]), "fr")
    assert "Chance : 3 → 2" in french


def test_a_plain_post_ticks_a_sanity_box_and_goes_back(client, player, in_play):
    client.force_login(player)
    url = reverse("play_tracker", args=[in_play.pk])
    response = client.post(url, {"tracker": "sanity", "value": "2", "revision": 0})
    assert response.status_code == 302
    html = client.get(response["Location"]).content.decode()
    assert "<strong data-tracker-value>2 of 6 boxes ticked</strong>" in html
    assert 'aria-label="Sanity 2 of 6, ticked: clear it"' in html
    # Clicking a ticked box clears back to the one before it.
    client.post(url, {"tracker": "sanity", "value": "1", "revision": 1})
    assert PlayState.objects.get(character=in_play).trackers == {"sanity": 1}


def test_the_gms_clock_is_the_gms_alone(client, player, gm, in_play):
    html = page(client, player, reverse("character_play", args=[in_play.pk]))
    doom = html.split('data-tracker="doom"', 1)[1].split("</form>", 1)[0]
    assert "<button" not in doom  # the player sees the clock, with nothing to press
    url = reverse("play_tracker", args=[in_play.pk])
    refused = client.post(url, {"tracker": "doom", "value": "1", "revision": 0}, **HX)
    assert refused.status_code == 403
    assert "Only the GM changes Doom at the table." in refused.content.decode()
    assert not PlayState.objects.filter(character=in_play, trackers__has_key="doom").exists()
    client.force_login(gm)
    done = client.post(url, {"tracker": "doom", "value": "1", "revision": 0}, **HX)
    assert done.status_code == 200
    assert "<strong data-tracker-value>1 of 4 segments filled</strong>" in done.content.decode()


def test_a_stale_click_is_refused_like_a_wound(client, player, gm, in_play):
    services.play_tracker_change(
        character=in_play, actor=gm, expected_revision=0, tracker="luck", step=-1
    )
    client.force_login(player)
    url = reverse("play_tracker", args=[in_play.pk])
    response = client.post(url, {"tracker": "luck", "step": "-1", "revision": 0}, **HX)
    assert response.status_code == 409
    html = response.content.decode()
    assert "someone else clicked first" in html
    assert "<strong data-tracker-value>2 / 5</strong>" in html
    assert PlayState.objects.get(character=in_play).trackers == {"luck": 2}


def test_out_of_range_and_unknown_trackers_are_refused_saying_why(client, player, in_play):
    client.force_login(player)
    url = reverse("play_tracker", args=[in_play.pk])
    over = client.post(url, {"tracker": "sanity", "value": "7", "revision": 0}, **HX)
    assert over.status_code == 400
    assert "Sanity goes from 0 to 6: nothing changed." in over.content.decode()
    unknown = client.post(url, {"tracker": "corruption", "step": "1", "revision": 0}, **HX)
    assert unknown.status_code == 400
    assert "has no tracker &#x27;corruption&#x27;" in unknown.content.decode()
    neither = client.post(url, {"tracker": "luck", "revision": 0}, **HX)
    assert neither.status_code == 400
    assert not PlayEvent.objects.filter(character=in_play).exists()


def test_rest_resets_only_the_trackers_that_reset_on_rest(player, in_play):
    for tracker, step in (("luck", -1), ("luck", -1), ("sanity", 1), ("stamina", -1)):
        services.play_tracker_change(
            character=in_play, actor=player, expected_revision=None, tracker=tracker, step=step
        )
    state = PlayState.objects.get(character=in_play)
    assert state.trackers == {"luck": 1, "sanity": 1, "stamina": 3}
    rest = services.play_rest(
        character=in_play, actor=player, expected_revision=state.revision, rest="after-fight"
    )
    values = {row.key: row.value for row in rest.table.trackers}
    assert values == {"luck": 3, "sanity": 1, "doom": 0, "stamina": 4}
    assert PlayState.objects.get(character=in_play).trackers == {"sanity": 1}


def test_the_party_view_shows_each_members_trackers(client, gm, player, in_play):
    services.play_tracker_change(
        character=in_play, actor=player, expected_revision=None, tracker="luck", step=-1
    )
    html = page(client, gm, reverse("campaign_party", args=[in_play.campaign_id]))
    card = html.split(f'id="party-card-{in_play.pk}"', 1)[1]
    assert "<strong data-tracker-value>2 / 5</strong>" in card
    assert "<strong data-tracker-value>0 of 6 boxes ticked</strong>" in card
    doom = card.split('data-tracker="doom"', 1)[1].split("</form>", 1)[0]
    assert 'aria-label="Doom 1 of 4, open: tick it"' in doom  # the GM's to change
    assert "<dt><bdi>Damage capacity</bdi></dt><dd><strong>4</strong></dd>" in card
    # The GM's poll brings a change made since, in the member's status panel.
    seen = re.search(r"\?fp=([\w.\-]+)", html).group(1)
    services.play_tracker_change(
        character=in_play, actor=player, expected_revision=None, tracker="luck", step=-1
    )
    live = client.get(reverse("party_live", args=[in_play.campaign_id]), {"fp": seen})
    assert "<strong data-tracker-value>1 / 5</strong>" in live.content.decode()


def poll_statements(client, campaign, change) -> tuple[int, str]:
    """The statements of the GM's party poll answering `change`, and its answer."""
    party = client.get(reverse("campaign_party", args=[campaign.pk]))
    seen = re.search(r"\?fp=([\w.\-]+)", party.content.decode()).group(1)
    change()
    url = reverse("party_live", args=[campaign.pk]) + "?fp=" + seen
    with CaptureQueriesContext(connection) as queries:
        html = client.get(url, **HX).content.decode()
    return len(queries), html


def test_trackers_and_derived_values_add_no_statement_to_the_party_poll(
    client, gm, player, table, in_play
):
    """The values are worked out from the rows the poll reads already, the trackers' from
    the play state: the poll costs what it costs for the same game without them."""
    client.force_login(gm)
    with_trackers, html = poll_statements(
        client,
        table,
        lambda: services.play_tracker_change(
            character=in_play, actor=player, expected_revision=None, tracker="sanity", value=3
        ),
    )
    assert "<strong data-tracker-value>3 of 6 boxes ticked</strong>" in html
    version = ruleset_services.designed_ruleset_save(owner=gm, file=mudge_without_them())
    ruleset_services.campaign_move_ruleset(campaign=table, actor=gm, version=version)
    without, html = poll_statements(
        client,
        table,
        lambda: services.play_condition_add(
            character=in_play, actor=player, expected_revision=None, text="shaken"
        ),
    )
    assert "data-tracker" not in html and "shaken" in html
    assert with_trackers == without


def page_statements(client, url) -> int:
    client.get(url)  # the page read once first: what a first read caches is not counted
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_trackers_and_derived_values_add_no_statement_to_the_play_page_or_the_builder(
    client, gm, player, table, vera
):
    """The play page's values come from the play state it reads already, the builder's from
    the report it builds already: each page costs what it costs for the same game without
    them."""
    approved(vera, gm)
    client.force_login(player)
    builder = reverse("character_builder", args=[vera.pk])
    play = reverse("character_play", args=[vera.pk])
    with_trackers = page_statements(client, builder)
    with_trackers_in_play = page_statements(client, play)
    assert "data-tracker-value" in client.get(play).content.decode()
    assert 'id="game-values"' in client.get(builder).content.decode()
    version = ruleset_services.designed_ruleset_save(owner=gm, file=mudge_without_them())
    ruleset_services.campaign_move_ruleset(campaign=table, actor=gm, version=version)
    assert "data-tracker-value" not in client.get(play).content.decode()
    assert 'id="game-values"' not in client.get(builder).content.decode()
    assert page_statements(client, play) == with_trackers_in_play
    assert page_statements(client, builder) == with_trackers
