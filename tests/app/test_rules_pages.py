"""Issue 9 on the pages: the builder fills catalogue costs and difficulties, new power rows
start sensibly, each ruleset's pages speak its own words, the campaign and landing pages
show the numbers in force, the GM's limits in the house-rules form, templates apply racial
bonuses and Scale, a campaign catalogue prices what a file leaves out, and the GM defines
Mudge 1.7's uncommitted traits in play."""

import re

import pytest
from django.urls import reverse

from characters.adapters import character_to_rules, ruleset_for
from characters.errors import ServiceError
from characters.models import Campaign, CatalogEntry, CharacterEvent, Membership, Trait
from characters.selectors.access import character_for_viewer
from characters.services.campaigns import (
    campaign_create,
    campaign_update_house_rules,
    catalog_entry_update,
)
from characters.services.character_files import character_import
from characters.services.characters import character_create
from characters.services.review import character_approve, character_submit
from characters.services.rows import trait_define_uncommitted
from characters.services.templates import character_apply_template
from rules.charfile import write_character
from rules.ladder import FAIR, GOOD, GREAT, MEDIOCRE, POOR
from rules.report import build_report
from tests.support.builder_fixtures import *  # noqa: F403


def page_of(client, name, *args) -> str:
    response = client.get(reverse(name, args=args))
    assert response.status_code == 200
    return response.content.decode()


def main_of(html: str) -> str:
    return html[html.index("<main") : html.index("</main>")]


def selected(html: str, select_id: str) -> str:
    """The text of the selected option of a <select id=...>."""
    select = re.search(rf'<select[^>]*id="{select_id}".*?</select>', html, re.S).group(0)
    return re.search(r"<option[^>]*selected[^>]*>([^<]*)</option>", select).group(1)


@pytest.fixture
def loner(player):
    return character_create(owner=player, name="Loner", ruleset="mudge")


class TestTheAddForm:
    def add(self, client, character, kind, **data):
        character.refresh_from_db()
        return client.post(
            reverse("trait_add", args=[character.pk, kind]),
            {"version": character.version, **data},
        )

    def test_a_catalogue_gift_takes_its_cost_outside_a_campaign_too(self, player_client, loner):
        # Mudge 1.33: Magery* costs 2; a name the catalogue does not know stays unset (1).
        self.add(player_client, loner, Trait.Kind.GIFT, name="Magery")
        self.add(player_client, loner, Trait.Kind.GIFT, name="Perfect Timing")
        costs = dict(loner.traits.filter(kind=Trait.Kind.GIFT).values_list("name", "cost"))
        assert costs == {"Magery": 2, "Perfect Timing": None}
        report = build_report(character_to_rules(loner), ruleset_for(loner))
        assert report.costs["gifts"] == [2, 1]

    def test_a_specialised_skill_takes_its_base_names_difficulty(self, player_client, loner):
        # Mudge 1.32: "Area Knowledge (type) (E)"
        self.add(
            player_client, loner, Trait.Kind.SKILL, name="Area Knowledge (the Shire)", level=GOOD
        )
        skill = loner.traits.get(kind=Trait.Kind.SKILL)
        assert (skill.name, skill.difficulty) == ("Area Knowledge (the Shire)", "easy")

    def test_a_new_power_row_starts_at_fair_or_its_floor(self, player_client, loner, gm):
        mudge = page_of(player_client, "character_builder", loner.pk)
        assert selected(mudge, "add-power-level") == "Fair"
        # The unset difficulty says what it is priced as, in words (issue 39: no "— (hard)").
        assert selected(mudge, "add-power-difficulty") == "Hard (the default)"
        assert selected(mudge, "add-skill-difficulty") == "Average (the default)"
        dip = character_create(owner=loner.owner, name="Dipper", ruleset="microfudged-dip")
        page = page_of(player_client, "character_builder", dip.pk)
        assert selected(page, "add-power-level") == "Abysmal"  # DIP VIII.1: from Abysmal


class TestEachRulesetLooksLikeItself:
    def test_microfudged_builder_has_no_mudge_leftovers(self, player_client, player):
        dip = character_create(owner=player, name="Dipper", ruleset="microfudged-dip")
        page = main_of(page_of(player_client, "character_builder", dip.pk))
        for leftover in ("Strength Scale", "Mass Scale", "Meta points", "Mudge 4.54", "Mudge 1.35"):
            assert leftover not in page, leftover
        for own in (
            "Abilities",
            "Fields of expertise",
            "Fields of power",
            "Cards",
            "Defence cards",
        ):
            assert own in page, own
        assert "MicroFudged DIP VII.2" in page and "MicroFudged DIP I:" in page

    def test_microfudged_sheet_has_setbacks_and_no_damage_die(self, player_client, player):
        dip = character_create(owner=player, name="Dipper", ruleset="microfudged-dip")
        page = main_of(page_of(player_client, "character_sheet", dip.pk))
        assert "Setbacks" in page and "Major Setback (Severe wound) (-2 cards)" in page
        for leftover in ("damage die", "Scale", "Meta points", "Damage factors", "Gifts"):
            assert leftover not in page, leftover
        assert "Cost of a field of expertise at creation, in tokens" in page

    def test_mudge_sheet_prices_magery_from_the_catalogue_and_spells_hard(
        self, player_client, loner
    ):
        Trait.objects.create(character=loner, kind=Trait.Kind.GIFT, name="Magery")
        Trait.objects.create(
            character=loner, kind=Trait.Kind.POWER, name="Light", power_kind="spell", level=FAIR
        )
        page = page_of(player_client, "character_sheet", loner.pk)
        assert "<bdi>Magery</bdi> (costs 2)" in page
        # Mudge 2.5: Hard unless said otherwise; its kind a label, never the key (issue 39).
        assert "<bdi>Light</bdi> ** (Spell): Fair" in page
        assert "damage die (Mudge 3.22)" in page.replace("The odd-coloured fourth die is the ", "")

    def test_a_fudge_basics_gm_who_calls_it_health(self, client, gm, player):
        campaign = campaign_create(
            gm=gm,
            name="Health table",
            base_ruleset="fudge-basics",
            house_rules={"damage_capacity_attribute": "Health"},
        )
        Membership.objects.create(campaign=campaign, user=player)
        hero = character_create(owner=player, name="Hilda", campaign=campaign)
        client.force_login(player)
        page = page_of(client, "character_sheet", hero.pk)
        # The seeded list has no Health: the sheet says so instead of using another.
        assert "Defensive: Health [0] + Mass Scale [0]" in page
        assert "Health: not on this character, counted at Fair." in page
        Trait.objects.create(character=hero, kind=Trait.Kind.ATTRIBUTE, name="Health", level=GREAT)
        page = page_of(client, "character_sheet", hero.pk)
        assert "Defensive: Health [2] + Mass Scale [0]" in page
        assert "not on this character" not in page


class TestTheNumbersInForce:
    def test_the_campaign_page(self, client, gm):
        campaign = campaign_create(
            gm=gm,
            name="Lean",
            base_ruleset="mudge",
            house_rules={"skill_levels": 40, "creation_min": "Poor", "max_skills": 15},
        )
        client.force_login(gm)
        page = main_of(page_of(client, "campaign_detail", campaign.pk))
        assert "7 attributes from Fair with 6 free attribute levels; 40 skill levels" in page
        assert "Number of skills</dt><dd>at most 15" in page
        assert "Levels at creation</dt><dd>Poor to Superb" in page
        # the cost table runs over the creation bounds in force: Superb to Poor
        assert '<th scope="row">-2 Poor</th>' in page and "-3 Terrible" not in page

    def test_the_landing_page_streamlined_card(self, client):
        page = client.get(reverse("home")).content.decode()
        card = page[page.index('id="ruleset-microfudged-streamlined"') :]
        card = card[: card.index("</article>")]
        assert "4 abilities from Fair at 3 tokens a rank" in card
        # Fields and abilities, Great to Poor only (DIP VIII.3): Great 4 and 6 tokens
        rows = re.findall(r'<th scope="row">([^<]+)</th>((?:<td>[^<]*</td>)+)', card)
        cells = [(label, re.findall(r"<td>([^<]*)</td>", tds)) for label, tds in rows]
        assert cells == [
            ("+2 Great", ["4", "6"]),
            ("+1 Good", ["3", "3"]),
            ("0 Fair", ["2", "0"]),
            ("-1 Mediocre", ["1", "-3"]),
            ("-2 Poor", ["0", "-6"]),
        ]


class TestTheGmsLimitsInTheForm:
    def test_each_knob_shows_its_base_and_what_it_checks(self, client, gm):
        campaign = campaign_create(gm=gm, name="Limits", base_ruleset="microfudged-streamlined")
        client.force_login(gm)
        page = page_of(client, "campaign_house_rules", campaign.pk)
        assert "Lowest level at creation" in page and "Base: Poor." in page
        assert "Base: Great. A higher level breaks a rule" in page
        # Each rule cites the campaign's own ruleset, never another's (issue 24).
        assert "Base: no limit. MicroFudged DIP VIII.3: more breaks a rule" in page
        assert "MicroFudged DIP VIII.3: fewer breaks a rule" in page
        assert (
            "MicroFudged DIP VIII.3: a traded slot is a warning; more than the caps allow breaks "
            "a rule" in page
        )
        assert "Mudge 1.5" not in page

    def test_the_narrator_allows_terrible(self, client, gm):
        campaign = campaign_create(gm=gm, name="Limits", base_ruleset="microfudged-streamlined")
        client.force_login(gm)
        url = reverse("campaign_house_rules", args=[campaign.pk])
        response = client.post(
            url, {"creation_min": "-3", "max_skills": "10", "cap_trading": "yes"}
        )
        assert response.status_code == 302
        campaign.refresh_from_db()
        assert campaign.house_rules == {
            "cap_trading": True,
            "creation_min": "Terrible",
            "max_skills": 10,
        }
        refused = client.post(url, {"creation_min": "2", "creation_max": "1"})
        assert refused.status_code == 400
        assert "Good is above “Highest level at creation” (Good)" not in refused.content.decode()
        assert "Great is above “Highest level at creation” (Good)" in refused.content.decode()


class TestTemplates:
    def test_the_halfling_brings_scale_and_constitution(self, character, player):
        changed = character_apply_template(
            character=character, actor=player, expected_version=None, slug="halfling"
        )
        character.refresh_from_db()
        assert (character.race, character.scale_strength, character.scale_mass) == (
            "Halfling",
            -2,
            -2,
        )
        assert character.traits.get(name="Constitution").level == GOOD
        assert "Scale -2 / -2" in changed and "Constitution Good" in changed
        event = character.events.get(action="details_changed")
        assert event.after == {"race": "Halfling", "scale_strength": -2, "scale_mass": -2}

    def test_the_cercopes_skills_keep_their_difficulty(self, character, player):
        character_apply_template(
            character=character, actor=player, expected_version=None, slug="cercopes"
        )
        skills = {t.name: (t.level, t.difficulty) for t in character.traits.filter(kind="skill")}
        assert skills["Acrobatics"] == (POOR, "hard")
        assert character.traits.get(name="Strength").level == MEDIOCRE
        # the racial gifts take no cost: priced from the campaign's catalogue, else 1
        assert set(character.traits.filter(kind="gift").values_list("cost", flat=True)) == {None}


def test_a_campaign_catalogue_prices_a_gift_the_file_leaves_out(campaign, player):
    catalog_entry_update(
        entry=CatalogEntry.objects.get(campaign=campaign, name="Magery"),
        actor=campaign.gm,
        name="Magery",
        cost=3,
    )
    text = '{"ruleset": "mudge", "name": "Mage", "gifts": [{"name": "Magery"}]}'
    mage, _ = character_import(owner=player, text=text, campaign=campaign)
    mage = character_for_viewer(player, mage.pk)
    assert mage.traits.get(kind=Trait.Kind.GIFT).cost is None  # still "not given"
    report = build_report(character_to_rules(mage), ruleset_for(mage))
    assert report.costs["gifts"] == [3]
    assert write_character(character_to_rules(mage))["gifts"] == [{"name": "Magery"}]


class TestUncommittedTraits:
    """Mudge 1.7: two per character, defined in play "as being Good (or lower), subject to
    the GM's approval"."""

    @pytest.fixture
    def in_play(self, character, player, gm):
        character_submit(character=character, actor=player, expected_version=None)
        character_approve(
            character=character, actor=gm, expected_version=None, override_reason="a test"
        )
        character.refresh_from_db()
        return character

    def define(self, client, character, **data):
        character.refresh_from_db()
        return client.post(
            reverse("uncommitted_define", args=[character.pk]),
            {"version": character.version, **data},
        )

    def test_the_builder_shows_two_open_slots(self, player_client, character):
        page = page_of(player_client, "character_builder", character.pk)
        assert page.count('<li class="open">Open: Good or lower</li>') == 2
        assert "uncommitted-form" not in page  # the player asks the GM
        sheet = page_of(player_client, "character_sheet", character.pk)
        assert sheet.count("Uncommitted: define in play, Good or lower") == 2

    def test_the_gm_defines_one_in_play(self, client, gm, in_play):
        client.force_login(gm)
        assert "uncommitted-form" in page_of(client, "character_builder", in_play.pk)
        version = in_play.version
        response = self.define(client, in_play, name="Swimming", level=GOOD)
        assert response.status_code == 302
        swimming = in_play.traits.get(name="Swimming")
        assert (swimming.level, swimming.difficulty, swimming.defined_in_play) == (
            GOOD,
            "",  # not in this campaign's catalogue
            True,
        )
        in_play.refresh_from_db()
        assert in_play.version == version + 1
        event = CharacterEvent.objects.get(action="uncommitted_defined")
        assert (event.actor, event.target, event.version) == (gm, "skill:Swimming", version + 1)
        assert event.after == {"name": "Swimming", "level": "Good", "defined_in_play": True}
        assert event.reason == "uncommitted trait 1 of 2 (Mudge 1.7)"
        page = page_of(client, "character_builder", in_play.pk)
        assert page.count('<li class="open">') == 1 and "Swimming: Good" in page
        # not priced at creation: the approved build's report is unchanged
        report = build_report(character_to_rules(in_play), ruleset_for(in_play))
        assert report.costs["skills"] == [0]
        sheet = page_of(client, "character_sheet", in_play.pk)
        assert "<bdi>Swimming</bdi> (uncommitted, defined in play): Good" in sheet

    def test_the_gms_banner_says_what_they_may_do(self, client, gm, character, in_play):
        """Read only, until the build is in play with a slot open: then the banner says the
        GM may define one, linked to the form; read only again once both are defined."""
        client.force_login(gm)
        granted = (
            "only its player changes the build. You may "
            '<a href="#uncommitted">define its uncommitted traits in play</a>.'
        )
        page = page_of(client, "character_builder", in_play.pk)
        assert granted in page and "read only" not in page and 'id="uncommitted"' in page
        for name in ("Swimming", "Singing"):
            assert self.define(client, in_play, name=name, level=FAIR).status_code == 302
        page = page_of(client, "character_builder", in_play.pk)
        assert "character: read only." in page and granted not in page
        draft = character_create(owner=character.owner, name="Draft", campaign=character.campaign)
        page = page_of(client, "character_builder", draft.pk)
        assert "character: read only." in page and granted not in page

    def test_good_or_lower_only_and_two_at_most(self, client, gm, in_play):
        client.force_login(gm)
        too_high = self.define(client, in_play, name="Swimming", level=GREAT)
        assert too_high.status_code == 400
        assert "Select a valid choice" in too_high.content.decode()
        for name in ("Swimming", "Singing"):
            assert self.define(client, in_play, name=name, level=FAIR).status_code == 302
        third = self.define(client, in_play, name="Dancing", level=FAIR)
        assert third.status_code == 400
        assert "has no uncommitted trait left (2 at creation, all defined)" in (
            third.content.decode()
        )

    def test_a_draft_is_not_in_play_and_the_player_cannot_define(
        self, client, gm, player, character
    ):
        client.force_login(gm)
        draft = self.define(client, character, name="Swimming", level=GOOD)
        assert draft.status_code == 400
        assert "is not in play yet" in draft.content.decode()
        client.force_login(player)
        assert self.define(client, character, name="Swimming", level=GOOD).status_code == 404
        assert not character.traits.filter(name="Swimming").exists()

    def test_outside_a_campaign_the_owner_defines_them(self, player, loner):
        trait = trait_define_uncommitted(
            character=loner, actor=player, expected_version=None, name="Fishing", level=FAIR
        )
        assert (trait.defined_in_play, trait.difficulty) == (True, "average")  # Mudge 1.32
        with pytest.raises(ServiceError, match="defined as Good or lower"):
            trait_define_uncommitted(
                character=loner, actor=player, expected_version=None, name="Poker", level=GREAT
            )

    def test_a_ruleset_without_them_has_no_panel(self, player_client, player):
        dip = character_create(owner=player, name="Dipper", ruleset="microfudged-dip")
        assert "Uncommitted traits" not in page_of(player_client, "character_builder", dip.pk)
        campaign = Campaign.objects.create(name="None", gm=player, base_ruleset="mudge")
        campaign_update_house_rules(
            campaign=campaign, actor=player, house_rules={"uncommitted_traits": 0}
        )
        assert campaign.house_rules == {"uncommitted_traits": 0}


@pytest.mark.parametrize(
    ("ruleset", "hint"),
    [
        ("mudge", "Left empty, it counts as the 3 every new character starts with (Mudge 1.36)."),
        (
            "fudge-basics",
            "Left empty, it counts as the 3 every new character starts with "
            "(Fudge Basics, Fudge Points and Experience).",
        ),
        ("microfudged-dip", None),  # no points in MicroFudged: no field
        ("microfudged-streamlined", None),
    ],
)
def test_an_empty_points_field_says_what_it_counts_as(player_client, player, ruleset, hint):
    """A character's meta (or Fudge) points left empty are the rules' starting number
    (rules.character): the field shows it, and its hint says so, citing the rule."""
    character = character_create(owner=player, name="New", ruleset=ruleset)
    page = page_of(player_client, "character_builder", character.pk)
    field = re.search(r'<input[^>]*name="meta_points"[^>]*>', page)
    if hint is None:
        assert field is None and "field-hint" not in page
        return
    assert 'placeholder="3"' in field.group(0)
    assert 'aria-describedby="details-meta_points-hint"' in field.group(0)
    assert f'<small class="field-hint" id="details-meta_points-hint">{hint}</small>' in page
