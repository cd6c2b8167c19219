"""The GM's side of the dice log (issue 43): rolls for an NPC by the campaign's method
(Fudge 1995 4.5, Mudge 3.5 and 4.33), one roll for several NPCs against a lone PC (Fudge
1995 4.64's three pirates), a secret reaction roll only the GM sees (Fudge 1995 4.9), the
campaign's settings for them and its damage thresholds for NPCs (Fudge 1995 4.73)."""

import pytest
from django.test import Client
from django.urls import reverse

from characters.models import DiceRoll, NpcShown
from characters.selectors.play import play_fingerprint
from characters.services import npc_rolls
from characters.services import play as play_services
from characters.services.webhooks import webhook_queue
from rules.ladder import FAIR, GOOD, MEDIOCRE, SUPERB
from tests.support.play_fixtures import *  # noqa: F403
from tests.support.play_fixtures import approved, build, make_npc

HX = {"HTTP_HX_REQUEST": "true"}


def dice(*values):
    """randbelow handing out `values`: a d6 face is value + 1, a Fudge die value - 1."""
    faces = iter(values)
    return lambda _: next(faces)


def npc(campaign, gm, name, level, *, shown=NpcShown.SHEET):
    return make_npc(campaign, gm, name, level, shown=shown)


@pytest.fixture
def pirates(campaign, gm):
    return [
        npc(campaign, gm, "Molly", FAIR),
        npc(campaign, gm, "Annie", GOOD),
        npc(campaign, gm, "Maggie", MEDIOCRE),
    ]


@pytest.fixture
def tucker(campaign, player, gm):
    character = build(player, campaign, "Tucker", skill="Sword", weapon=None)
    character.traits.filter(name="Sword").update(level=SUPERB)
    return approved(character, gm)


@pytest.fixture
def gmc(client, gm):
    client.force_login(gm)
    return client


def test_the_gm_rolls_for_an_npc_by_1d6(campaign, gm, pirates):
    campaign.npc_roll_method = "1d6"
    campaign.save()
    annie = pirates[1]
    # Fudge 1995 4.5: a 6, then a 4 on the second d6: "4,5 = +/-2".
    entry = npc_rolls.npc_roll(character=annie, actor=gm, trait="Sword", randbelow=dice(5, 3))
    assert (entry.method, entry.dice, entry.level, entry.result) == ("1d6", [6, 4], GOOD, GOOD + 2)
    assert entry.detail == {"section": "Fudge 1995 4.5"}
    assert not entry.gm_only
    entry = npc_rolls.npc_roll(
        character=annie, actor=gm, trait="Sword", against=GOOD, randbelow=dice(2)
    )
    assert (entry.dice, entry.result, entry.chance) == ([3], GOOD, None)
    page = _log_page_as(gm, campaign)
    assert "Sword Good by 1d6 (Fudge 4.5): rolled +2 → Superb" in page
    assert "Sword Good by 1d6 (Fudge 4.5): rolled 0 → Good" in page
    assert "Against Good: success" in page


def test_no_roll_and_fudge_dice(campaign, gm, pirates):
    molly = pirates[0]
    campaign.npc_roll_method = "no-roll"
    campaign.save()
    entry = npc_rolls.npc_roll(character=molly, actor=gm, trait="Sword", randbelow=dice())
    assert (entry.dice, entry.result, entry.detail["section"]) == ([], FAIR, "Mudge 4.33")
    campaign.npc_roll_method = "2df"
    campaign.save()
    molly.refresh_from_db()
    entry = npc_rolls.npc_roll(character=molly, actor=gm, trait="Sword", randbelow=dice(2, 1))
    assert (entry.dice, entry.result, entry.detail["section"]) == ([1, 0], GOOD, "Mudge 3.5")
    page = _log_page_as(gm, campaign)
    assert "Sword Fair by 2dF: rolled +1 → Good" in page
    assert "Sword Fair: no roll (Mudge 4.33) → Fair" in page


def test_the_three_pirates_against_tucker(campaign, gm, pirates, tucker):
    """Fudge 1995 4.64: "On the first round, she gets a +2. This becomes a +1 (moved closer
    to zero), and the pirates have just gotten Good, Great, and Fair results ... If poor
    Tucker rolls a Fair result, both Molly and Annie would hit him." """
    campaign.base_ruleset = "fudge"  # not read by the roll's method: the option of Paco stays off
    entry = npc_rolls.npc_group_roll(
        campaign=campaign,
        actor=gm,
        foes=[(pirate, "Sword") for pirate in pirates],
        pc=tucker,
        pc_trait="Sword",
        pc_result=FAIR,
        randbelow=dice(2, 2, 1, 1),  # + + 0 0: +2
    )
    assert entry.kind == DiceRoll.Kind.GROUP and entry.method == "4df"
    assert entry.result == GOOD  # "his skill is Good for this combat"
    assert [foe["result"] for foe in entry.detail["foes"]] == [GOOD, GOOD + 1, FAIR]
    assert entry.detail["exchange"] == {
        "hit_by": ["Molly", "Annie"],
        "may_hit": [],
        "stand_off": False,
    }
    page = _log_page_as(gm, campaign)
    assert "Molly Fair → Good, Annie Good → Great, Maggie Mediocre → Fair" in page
    assert "one roll for all by 4dF, as for the players: +1 each (Fudge 1995 4.64)" in page
    assert "Tucker fights at Good: Sword Superb, -2 for 2 extra foes" in page
    assert "Tucker rolled Fair: hit by Molly, Annie" in page


def test_a_group_roll_from_the_party_view(gmc, campaign, pirates, tucker):
    page = gmc.get(reverse("campaign_party", args=[campaign.pk])).content.decode()
    assert 'id="npc-table"' in page
    assert "not approved yet" not in page  # the GM's NPCs wait for no approval
    assert f'value="{pirates[0].pk}|Sword"' in page and f'value="{tucker.pk}|Sword"' in page
    url = reverse("party_group_roll", args=[campaign.pk])
    posted = {"foes": [f"{p.pk}|Sword" for p in pirates], "pc_trait": f"{tucker.pk}|Sword"}
    response = gmc.post(url, {**posted, "pc_result": SUPERB}, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert 'id="dice-log" class="dice-log" hx-swap-oob="true"' in html
    assert "Tucker fights at Good" in html
    plain = gmc.post(url, posted)
    assert plain.status_code == 302 and plain["Location"].endswith("#npc-table")
    refused = gmc.post(url, {"foes": [f"{pirates[0].pk}|Sword"], "pc_trait": f"{tucker.pk}|Sword"})
    assert refused.status_code == 302
    assert DiceRoll.objects.filter(kind=DiceRoll.Kind.GROUP).count() == 2
    bad = gmc.post(url, {"foes": ["999|Sword"], "pc_trait": "x"}, **HX)
    assert bad.status_code == 400 and "Nothing was saved" in bad.content.decode()


def test_an_npc_roll_from_the_party_view(gmc, campaign, pirates):
    url = reverse("party_npc_roll", args=[campaign.pk])
    response = gmc.post(url, {"npc_trait": f"{pirates[1].pk}|Sword", "modifier": 1}, **HX)
    assert response.status_code == 200
    entry = DiceRoll.objects.get()
    assert (entry.subject, entry.modifier, entry.method) == ("Annie", 1, "4df")
    assert "Annie: Sword Good +1 situational by 4dF" in response.content.decode()


def _log_page_as(user, campaign) -> str:
    """The log page's lines as `user` reads them, spaces collapsed."""
    client = Client()
    client.force_login(user)
    page = client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
    text = " ".join(page[page.index('<ol class="log-lines">') : page.index("</ol>")].split())
    return text


def test_a_reaction_roll_only_the_gm_sees(campaign, gm, player, pirates, tess, client):
    """Fudge 1995 4.9: "the GM should secretly make a Situational roll". No view of the log
    a player has shows it: the log page, its poll, the play page, its poll's fingerprint,
    the party view (the GM's alone) nor the campaign's webhook."""
    npc_rolls.npc_roll(character=pirates[0], actor=gm, trait="Sword", randbelow=dice(1, 1, 1, 1))
    client.force_login(player)
    before = _log_page_as(player, campaign)
    last = DiceRoll.objects.latest("pk").pk
    fingerprint = play_fingerprint(tess, player)
    entry = npc_rolls.npc_reaction_roll(
        campaign=campaign,
        actor=gm,
        character=pirates[1],
        modifiers=[("Charisma", 1), ("small talk", 1), ("the sinister duke", -2)],
        randbelow=dice(2, 0, 1, 1),
    )
    assert entry.gm_only and entry.detail["reaction"] == "mildly"
    after = _log_page_as(player, campaign)
    assert after == before
    assert "Reaction roll" not in after
    live = client.get(reverse("campaign_log_live", args=[campaign.pk]), {"after": last})
    assert live.status_code == 204
    play_page = client.get(reverse("character_play", args=[tess.pk])).content.decode()
    assert "Reaction roll" not in play_page and "Charisma" not in play_page
    assert play_fingerprint(tess, player) == fingerprint
    assert client.get(reverse("campaign_party", args=[campaign.pk])).status_code == 404
    assert webhook_queue(entry) is None
    gm_page = _log_page_as(gm, campaign)
    assert "Annie" in gm_page and "secret: only the GM sees it" in gm_page
    assert (
        "Reaction roll (Fudge 1995 4.9), Charisma +1, small talk +1, the sinister duke -2: "
        "rolled 0 → Fair"
    ) in gm_page
    assert "Mildly helpful, but only if it&#x27;s not too much effort" in gm_page


def test_a_hidden_npcs_roll_is_the_gms_alone(campaign, gm, player, client):
    lurker = npc(campaign, gm, "The Lurker", GOOD, shown=NpcShown.HIDDEN)
    entry = npc_rolls.npc_roll(
        character=lurker, actor=gm, trait="Sword", randbelow=dice(1, 1, 1, 1)
    )
    assert entry.gm_only
    client.force_login(player)
    assert (
        "The Lurker" not in client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
    )


def test_a_player_may_not_roll_for_npcs(campaign, player, pirates, client):
    from characters.errors import NotAllowed

    with pytest.raises(NotAllowed):
        npc_rolls.npc_roll(character=pirates[0], actor=player, trait="Sword")
    client.force_login(player)
    url = reverse("party_reaction_roll", args=[campaign.pk])
    assert client.post(url, {"value_1": 1}).status_code == 404
    assert not DiceRoll.objects.exists()


def test_a_reaction_roll_from_the_party_view(gmc, campaign):
    url = reverse("party_reaction_roll", args=[campaign.pk])
    response = gmc.post(url, {"why_1": "<b>bribe</b>", "value_1": 2}, **HX)
    html = response.content.decode()
    assert response.status_code == 200
    assert "&lt;b&gt;bribe&lt;/b&gt; +2" in html and "<b>bribe" not in html
    assert DiceRoll.objects.get().subject == ""
    assert "A stranger" in html


def test_the_campaign_settings(gmc, campaign):
    page = gmc.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert '<option value="1d6">1d6 (Fudge 4.5)</option>' in page
    assert "Use damage thresholds for NPCs" in page
    url = reverse("campaign_settings", args=[campaign.pk])
    gmc.post(url, {"npc_roll_method": "1d6"})
    campaign.refresh_from_db()
    assert (campaign.npc_roll_method, campaign.npc_damage_thresholds) == ("1d6", False)
    event = campaign.events.get(action="settings_changed")
    assert event.after == {"npc_roll_method": "1d6", "npc_damage_thresholds": False}
    gmc.post(url, {"npc_roll_method": "3d6"})
    campaign.refresh_from_db()
    assert campaign.npc_roll_method == "1d6"


def test_damage_thresholds_for_npcs(campaign, gm):
    """Fudge 1995 4.73: "an unwounded character could be Scratched, Hurt, or Very Hurt in
    one blow"; "An indulgent GM ... can use damage thresholds for PCs but ignore them for
    NPCs". Mudge 4.55: 9 or more is Near Death."""
    brute = npc(campaign, gm, "Brute", GOOD)
    change = play_services.play_blow_record(character=brute, actor=gm, damage=9)
    assert change.table.worst.name == "Very Hurt"
    campaign.npc_damage_thresholds = False
    campaign.save()
    other = npc(campaign, gm, "Other brute", GOOD)
    change = play_services.play_blow_record(character=other, actor=gm, damage=9)
    assert change.table.worst.name == "Near Death"


def test_the_gms_lines_in_french(campaign, gm, pirates, tucker):
    npc_rolls.npc_reaction_roll(
        campaign=campaign, actor=gm, modifiers=[("pot-de-vin", 2)], randbelow=dice(1, 1, 1, 1)
    )
    npc_rolls.npc_group_roll(
        campaign=campaign,
        actor=gm,
        foes=[(pirate, "Sword") for pirate in pirates],
        pc=tucker,
        pc_trait="Sword",
        pc_result=GOOD + 1,
        randbelow=dice(2, 2, 1, 1),
    )
    client = Client()
    client.force_login(gm)
    client.cookies["django_language"] = "fr"
    page = client.get(reverse("campaign_log", args=[campaign.pk])).content.decode()
    page = " ".join(page[page.index('<ol class="log-lines">') :].split())
    assert "Jet de réaction (Fudge 1995 4.9), pot-de-vin +2 : jet de 0 → Très bon" in page
    assert "Réagit bien" in page and "secret : seul le MJ le voit" in page
    assert "Tucker se bat à Bon : Sword Excellent, -2 pour 2 adversaires en plus" in page
    # Mudge 4.34, a Mudge campaign: tying the best foe, he may still wound one two below.
    assert "Tucker a obtenu Très bon : peut blesser l\u2019un de Maggie" in page
