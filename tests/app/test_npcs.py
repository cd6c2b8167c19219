"""Issue 43, the GM's NPCs: made from a blank, a template, a copy or a file; priced without
a budget (Legendary allowed, the ladder still bounding them); hidden from the players
everywhere until the GM shows one; never in the approval queue; a crew as one NPC with a
wound track each, or as N copies; archived, exported and imported like characters; beside
the party on the GM's party view."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from characters.adapters import character_to_rules, exported_file
from characters.errors import NotAllowed, ServiceError
from characters.models import (
    CampaignWebhook,
    Character,
    CharacterEvent,
    DiceRoll,
    NpcShown,
    PlayState,
    Trait,
)
from characters.selectors.party import party_fingerprint
from characters.services import npcs
from characters.services.api_tokens import api_token_create
from characters.services.character_files import character_import
from characters.services.review import character_submit
from characters.services.rows import trait_add
from characters.services.webhooks import webhook_queue
from rules.ladder import LEGENDARY
from rules.report import build_report
from rules.rulesets import BUILTIN
from tests.support.pdf_helpers import texts
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import approved, build
from tests.support.walk import addresses

HX = {"HTTP_HX_REQUEST": "true"}
# A name no page says unless it names the NPC.
SECRET = "Zebulon Quartermane"


@pytest.fixture
def gwen(client, gm):
    client.force_login(gm)
    return client


def legendary_npc(campaign, gm, name=SECRET, group_size=1) -> Character:
    """The Legendary swordswoman (Mudge 4.33): Sword at Legendary, no fault, no budget."""
    npc = npcs.npc_create(campaign=campaign, actor=gm, name=name, group_size=group_size)
    trait_add(
        character=npc,
        actor=gm,
        expected_version=None,
        kind="skill",
        name="Sword",
        level=LEGENDARY,
        difficulty="average",
    )
    npc.refresh_from_db()
    return npc


def report_of(character: Character):
    return build_report(character_to_rules(character), BUILTIN["mudge"])


# -- made four ways ------------------------------------------------------------------------------


def test_an_npc_made_from_a_blank_a_template_a_copy_and_a_file(gwen, gm, campaign, tess):
    new = reverse("npc_new", args=[campaign.pk])
    assert gwen.get(new).status_code == 200

    blank = gwen.post(new, {"how": "blank", "name": "The Guide", "group_size": 1})
    guide = Character.objects.get(name="The Guide")
    assert blank.url == reverse("character_builder", args=[guide.pk])

    gwen.post(new, {"how": "template", "name": "Sergeant", "group_size": 1, "template": "ranger"})
    sergeant = Character.objects.get(name="Sergeant")
    # Mudge 6.41's Ranger: Perception Good, Bow Good at least.
    assert sergeant.traits.get(name="Perception").level == 1
    assert sergeant.traits.get(name="Bow").level == 1

    gwen.post(new, {"how": "copy", "source": tess.pk, "name": "Tess's twin", "group_size": 3})
    twin = Character.objects.get(name="Tess's twin")
    assert twin.traits.get(name="Climbing").level == tess.traits.get(name="Climbing").level

    data = exported_file(tess) | {"name": "Imported Ines"}
    upload = ("ines.json", json.dumps(data).encode())
    gwen.post(
        new, {"how": "file", "group_size": 1, "file": SimpleUploadedFile(*upload, "text/json")}
    )
    ines = Character.objects.get(name="Imported Ines")

    for npc in (guide, sergeant, twin, ines):
        assert npc.is_npc and npc.owner == gm and npc.campaign == campaign
        assert npc.npc_shown == NpcShown.HIDDEN
        assert npc.state == Character.State.DRAFT
        assert npc.events.exists()  # on the audit trail like any character
    assert twin.group_size == 3
    created = guide.events.get(action="character_created")
    assert created.after["npc"] == {"group_size": 1, "budget": False}
    assert sergeant.events.filter(action="template_applied").exists()
    assert twin.events.get(action="npc_made").after["from"] == tess.pk
    assert ines.events.filter(action="character_imported").exists()
    # Tess is untouched: still her player's approved PC.
    tess.refresh_from_db()
    assert not tess.is_npc and tess.owner != gm


def test_the_npc_form_says_what_is_missing(gwen, campaign):
    new = reverse("npc_new", args=[campaign.pk])
    answer = gwen.post(new, {"how": "template", "name": "", "group_size": 60})
    assert answer.status_code == 400
    page = answer.content.decode()
    assert "Give the NPC a name." in page
    assert "Choose a template." in page
    assert not Character.objects.filter(is_npc=True).exists()


def test_only_the_gm_makes_npcs(client, player, campaign):
    client.force_login(player)
    assert client.get(reverse("npc_new", args=[campaign.pk])).status_code == 404
    with pytest.raises(NotAllowed):
        npcs.npc_create(campaign=campaign, actor=player, name="Sneaky")
    # A player's import of a file that says "npc" makes a player character of it.
    data = exported_file(build(player, campaign, "Mine")) | {"npc": {"group_size": 3}}
    mine, _ = character_import(owner=player, text=json.dumps(data), campaign=campaign)
    assert not mine.is_npc and mine.group_size == 1


# -- no budget, the ladder still ----------------------------------------------------------------


def test_an_npc_has_no_budget_errors_but_the_ladder_still_bounds_it(gwen, gm, player, campaign):
    npc = legendary_npc(campaign, gm)
    assert report_of(npc).valid
    page = gwen.get(reverse("character_builder", args=[npc.pk])).content.decode()
    assert "Over budget" not in page and "cannot start at Legendary" not in page
    # The same build as a player's character: Legendary is refused at creation.
    pc = build(player, campaign, "Copycat", weapon=None)
    trait_add(
        character=pc,
        actor=player,
        expected_version=None,
        kind="skill",
        name="Sword",
        level=LEGENDARY,
        difficulty="average",
    )
    (issue,) = report_of(pc).errors
    assert issue.code == "level_out_of_range" and issue.section == "Mudge 1.2"
    # Beyond the ladder's top word, even an NPC is refused.
    Trait.objects.filter(character=npc, name="Sword").update(level=LEGENDARY + 1)
    npc = Character.objects.get(pk=npc.pk)
    assert [issue.code for issue in report_of(npc).errors] == ["level_out_of_range"]


def test_a_gm_may_ask_for_a_budget(gwen, gm, campaign):
    new = reverse("npc_new", args=[campaign.pk])
    gwen.post(new, {"how": "blank", "name": "Budgeted", "group_size": 1, "budget": "on"})
    npc = Character.objects.get(name="Budgeted")
    assert npc.npc_budget
    trait_add(
        character=npc,
        actor=gm,
        expected_version=None,
        kind="skill",
        name="Sword",
        level=LEGENDARY,
        difficulty="average",
    )
    codes = [i.code for i in report_of(Character.objects.get(pk=npc.pk)).errors]
    assert codes == ["level_out_of_range"]  # Mudge 1.2: no Legendary at creation


# -- never in the approval queue -----------------------------------------------------------------


def test_an_npc_never_enters_the_review_queue(gwen, gm, campaign):
    npc = legendary_npc(campaign, gm)
    with pytest.raises(ServiceError, match="never submitted"):
        character_submit(character=npc, actor=gm, expected_version=None)
    Character.objects.filter(pk=npc.pk).update(state=Character.State.SUBMITTED)
    queue = gwen.get(reverse("review_queue")).content.decode()
    assert SECRET not in queue


# -- hidden from the players ---------------------------------------------------------------------


def text_of(answer) -> str:
    """What an answer says: a PDF's text as pdftotext reads it."""
    if answer.get("Content-Type", "").startswith("application/pdf"):
        document = b"".join(answer.streaming_content) if answer.streaming else answer.content
        return " ".join(texts(document))
    return answer.content.decode()


def _api_answers(user, npc) -> list[tuple[str, str]]:
    token = api_token_create(user=user, name="walk")[1]
    api = Client()
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    urls = ["/api/characters/", "/api/campaigns/", f"/api/characters/{npc.pk}/"]
    return [(url, api.get(url, **auth).content.decode()) for url in urls]


@pytest.mark.parametrize("shown", [NpcShown.HIDDEN, NpcShown.NAME])
def test_a_player_never_sees_a_hidden_npc_and_only_the_name_of_a_named_one(
    client, gm, player, campaign, tess, shown
):
    """Every page a player can reach (tests.support.walk: found from the URL patterns), the
    polls, the dice log, the NPC's own pages by id, and the API."""
    npc = legendary_npc(campaign, gm, group_size=3)
    npcs.npc_show(npc=npc, actor=gm, shown=shown)
    DiceRoll.objects.create(
        campaign=campaign, character=npc, roller=gm, kind="roll", subject=SECRET, trait="Sword"
    )
    PlayState.objects.create(character=npc, wounds=[[0]])
    client.force_login(player)
    seen = {}
    for address, _kind in addresses(player):
        answer = client.get(address)
        assert answer.status_code < 500, address
        seen[address] = text_of(answer)
    for name in ("character_sheet", "character_builder", "character_play", "character_audit"):
        answer = client.get(reverse(name, args=[npc.pk]))
        assert answer.status_code == 404, name
        seen[name] = answer.content.decode()
    seen["play poll"] = client.get(reverse("play_live", args=[tess.pk])).content.decode()
    seen.update(_api_answers(player, npc))
    assert len(seen) > 40  # the walk reached the site, not a login page
    naming = sorted(address for address, text in seen.items() if SECRET in text)
    if shown == NpcShown.HIDDEN:
        assert naming == []
    else:
        # The name, where the campaign's players see the NPCs they met and the log: never
        # its sheet (the sheet page 404s above).
        assert naming == sorted(
            [
                reverse("campaign_detail", args=[campaign.pk]),
                reverse("campaign_log", args=[campaign.pk]),
                reverse("campaign_log_live", args=[campaign.pk]),
                reverse("character_play", args=[tess.pk]),  # its dice log
            ]
        )


def test_an_npc_shown_whole_gives_the_players_its_sheet(client, gm, player, campaign):
    npc = legendary_npc(campaign, gm)
    npcs.npc_show(npc=npc, actor=gm, shown=NpcShown.SHEET)
    client.force_login(player)
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert reverse("character_sheet", args=[npc.pk]) in page
    sheet = client.get(reverse("character_sheet", args=[npc.pk]))
    assert sheet.status_code == 200 and "Legendary" in sheet.content.decode()
    # Read only: the builder and the play page stay the GM's.
    assert client.get(reverse("character_builder", args=[npc.pk])).status_code == 404
    assert client.get(reverse("character_play", args=[npc.pk])).status_code == 404


def test_the_gm_shows_an_npc_with_htmx_and_it_is_recorded(gwen, gm, campaign):
    npc = legendary_npc(campaign, gm)
    url = reverse("npc_show", args=[npc.pk])
    answer = gwen.post(url, {"shown": "name"}, **HX)
    assert answer.status_code == 200
    assert 'id="npcs"' in answer.content.decode()
    assert "The players now see" in answer.content.decode()
    npc.refresh_from_db()
    assert npc.npc_shown == NpcShown.NAME
    event = npc.events.get(action="npc_shown")
    assert (event.before, event.after) == ({"shown": "hidden"}, {"shown": "name"})
    # Without JavaScript: a redirect to the campaign's NPCs.
    plain = gwen.post(url, {"shown": "sheet"})
    assert plain.url == reverse("campaign_detail", args=[campaign.pk]) + "#npcs"
    assert gwen.post(url, {"shown": "everything"}).status_code == 302  # refused, said
    npc.refresh_from_db()
    assert npc.npc_shown == NpcShown.SHEET


# -- groups and copies ---------------------------------------------------------------------------


def test_a_crew_of_three_has_three_wound_tracks(gwen, gm, campaign):
    pirates = legendary_npc(campaign, gm, name="Three pirates", group_size=3)
    wound = reverse("play_wound", args=[pirates.pk])
    for revision, (member, box) in enumerate(
        ((1, "mark:0"), (2, "mark:1"), (3, "mark:0"), (3, "mark:0"))
    ):
        posted = {"box": box, "member": member, "revision": revision}
        answer = gwen.post(wound, posted, **HX)
        assert answer.status_code == 200, answer.content
    state = PlayState.objects.get(character=pirates)
    # Mudge 4.55: three Scratch boxes, then Hurt... : each member its own track.
    assert state.wounds[0] == [0] and state.wounds[1] == []
    assert [marks[:2] for marks in state.group_wounds] == [[[], [1]], [[0, 0], []]]
    page = gwen.get(reverse("campaign_party", args=[campaign.pk])).content.decode()
    assert page.count('class="harm-track') == 3
    assert "Member 2" in page and "Member 3" in page
    refused = gwen.post(wound, {"box": "mark:0", "member": 4, "revision": 4}, **HX)
    assert refused.status_code == 400
    assert "no member 4" in refused.content.decode()
    assert pirates.play_events.filter(note__contains="for member 3").count() == 2


def test_make_n_copies_as_separate_npcs(gwen, gm, campaign):
    molly = legendary_npc(campaign, gm, name="Molly")
    gwen.post(reverse("npc_copies", args=[molly.pk]), {"count": 2})
    copies = Character.objects.filter(name__in=["Molly 2", "Molly 3"])
    assert copies.count() == 2
    for copy in copies:
        assert copy.is_npc and copy.traits.get(name="Sword").level == LEGENDARY


# -- kept like characters ------------------------------------------------------------------------


def test_an_npc_is_archived_restored_exported_and_imported(gwen, gm, campaign):
    crew = legendary_npc(campaign, gm, name="Crew", group_size=3)
    data = json.loads(gwen.get(reverse("character_export", args=[crew.pk])).content)
    assert data["npc"] == {"group_size": 3, "budget": False}
    gwen.post(reverse("npc_archive", args=[crew.pk]))
    crew = Character.all_objects.get(pk=crew.pk)
    assert crew.archived_at is not None
    page = gwen.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert reverse("npc_restore", args=[crew.pk]) in page
    gwen.post(reverse("npc_restore", args=[crew.pk]))
    assert Character.objects.filter(pk=crew.pk).exists()
    again, _ = npcs.npc_import(campaign=campaign, actor=gm, text=json.dumps(data))
    assert again.is_npc and again.group_size == 3
    actions = set(CharacterEvent.objects.filter(character=crew).values_list("action", flat=True))
    assert {"character_archived", "character_restored"} <= actions


# -- at the table --------------------------------------------------------------------------------


def test_the_party_view_shows_npcs_beside_the_party(gwen, gm, campaign, tess, otto):
    npc = legendary_npc(campaign, gm)
    draft = build(gm, campaign, "Gwen's own draft", weapon=None)  # a PC, not approved
    page = gwen.get(reverse("campaign_party", args=[campaign.pk])).content.decode()
    for name in ("Tess", "Otto", SECRET):
        assert name in page
    assert "Gwen&#x27;s own draft" not in page and draft.name not in page
    npcs_part = page[page.index('id="party-npcs-title"') :]
    assert SECRET in npcs_part and "Tess" not in npcs_part.split("party-side")[0]
    # Its wounds and points, as a character's: the status panel, live.
    assert f'id="play-status-{npc.pk}"' in page
    # A poll after a change at the table (the party itself unchanged): each panel again.
    same_party = party_fingerprint(campaign).split(".")[0]
    poll = gwen.get(reverse("party_live", args=[campaign.pk]), {"fp": f"{same_party}.9.9"})
    assert f'id="play-status-{npc.pk}"' in poll.content.decode()


def test_an_npc_is_played_though_never_approved(gwen, gm, campaign):
    npc = legendary_npc(campaign, gm)
    posted = {"box": "mark:0", "revision": 0}
    answer = gwen.post(reverse("play_wound", args=[npc.pk]), posted, **HX)
    assert answer.status_code == 200
    assert PlayState.objects.get(character=npc).wounds[0] == [0]


def test_the_campaign_page_lists_npcs_for_the_gm(gwen, gm, campaign):
    approved  # noqa: B018 (fixtures module imported for its fixtures)
    legendary_npc(campaign, gm, name="Pirates", group_size=3)
    page = gwen.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert 'id="npcs"' in page and "Pirates" in page and "group of 3" in page
    assert reverse("npc_new", args=[campaign.pk]) in page


@pytest.mark.parametrize(
    "language, words",
    [
        ("fr", ("Créer un PNJ", "Les joueurs voient", "groupe de 3", "Membre 2")),
        ("es", ("Crear un PNJ", "Los jugadores ven", "grupo de 3", "Miembro 2")),
        ("de", ("NSC erstellen", "Spieler sehen", "Gruppe von 3", "Mitglied 2")),
    ],
)
def test_the_npc_pages_speak_the_gms_language(gwen, gm, campaign, language, words):
    legendary_npc(campaign, gm, name="Pirates", group_size=3)
    gwen.cookies["django_language"] = language
    pages = "".join(
        gwen.get(reverse(name, args=[campaign.pk])).content.decode()
        for name in ("campaign_detail", "npc_new", "campaign_party")
    )
    for word in words:
        assert word in pages, word
    for english in ("Make an NPC", "Players see", "group of 3", "Member 2", "How many in"):
        assert english not in pages, english


def test_the_gms_table_lists_their_characters_not_their_npcs(gwen, gm, campaign):
    legendary_npc(campaign, gm)
    build(gm, campaign, "Gwen's own")
    table = gwen.get(reverse("dashboard")).content.decode()
    assert "Gwen&#x27;s own" in table and SECRET not in table


def test_a_hidden_npcs_roll_never_goes_to_the_tables_webhook(gm, campaign, tess):
    CampaignWebhook.objects.create(
        campaign=campaign, url="https://example.org/hook", site_url="https://x/", created_by=gm
    )
    npc = legendary_npc(campaign, gm)

    def rolled(character, **flags):
        line = DiceRoll.objects.create(
            campaign=campaign, character=character, roller=gm, kind="roll", subject="x", **flags
        )
        return webhook_queue(line)

    assert rolled(npc) is None  # hidden
    assert rolled(tess, gm_only=True) is None  # the GM's secret (Fudge 1995 4.9)
    assert rolled(tess) is not None
    npcs.npc_show(npc=npc, actor=gm, shown=NpcShown.NAME)
    assert rolled(npc) is not None
