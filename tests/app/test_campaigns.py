"""Campaigns: creating one, its house rules, its catalogue, invites and members, and who may
see or change what."""

from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from characters.errors import ServiceError
from characters.models import Campaign, CatalogEntry, Membership
from characters.services import campaigns as services
from characters.services.characters import character_create
from characters.services.keeping import character_delete
from rules.catalogues import microfudged, mudge

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}
# The fixtures the campaign history tests share (a star import of this list, never of the
# tests, which would run twice).
__all__ = ["campaign", "gm", "outsider", "player"]


@pytest.fixture
def gm():
    return get_user_model().objects.create_user("gm")


@pytest.fixture
def player():
    return get_user_model().objects.create_user("player")


@pytest.fixture
def outsider():
    return get_user_model().objects.create_user("outsider")


@pytest.fixture
def campaign(gm, player):
    campaign = services.campaign_create(gm=gm, name="The Table", base_ruleset="mudge")
    services.campaign_join(user=player, code=campaign.invite_code)
    return campaign


def client_for(user):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def entry(campaign, kind, name):
    return campaign.catalog.get(kind=kind, name=name)


# -- services ----------------------------------------------------------------------------------


def test_campaign_create_stores_the_gm_once_and_seeds_mudge_lists(gm):
    campaign = services.campaign_create(gm=gm, name="  Saturday   game ", base_ruleset="mudge")
    assert campaign.name == "Saturday game"
    assert campaign.gm == gm and campaign.has_member(gm)
    assert not campaign.memberships.exists()  # Campaign.gm says who runs it, nothing else
    counts = {
        kind: campaign.catalog.filter(kind=kind).count() for kind, _ in CatalogEntry.Kind.choices
    }
    assert counts == {
        "attribute": len(mudge.ATTRIBUTES),
        "skill": len(mudge.SKILLS),
        "gift": len(mudge.GIFTS),
        "fault": len(mudge.FAULTS),
        "power_kind": len(mudge.CATALOG.power_kinds),
        "power": len(mudge.POWERS),  # Mudge 2.53, 2.73, 2.82, 2.91
        "equipment": len(mudge.EQUIPMENT),
    }
    assert entry(campaign, "skill", "Alchemy").difficulty == "very_hard"
    starred = {g.name for g in mudge.GIFTS if g.cost == 2}
    assert {e.name for e in campaign.catalog.filter(kind="gift", cost=2)} == starred
    assert entry(campaign, "equipment", "Medium Weapon").damage == 2
    # New characters take the attribute list in the rule text's order.
    names = campaign.catalog.filter(kind="attribute").order_by("id").values_list("name", flat=True)
    assert tuple(names) == mudge.ATTRIBUTES


def test_builtin_notes_are_kept_whole(gm):
    campaign = services.campaign_create(gm=gm, name="Swords", base_ruleset="mudge")
    note = entry(campaign, "equipment", "Bejeweled Magic Sword").note
    expected = next(e.note for e in mudge.EQUIPMENT if e.name == "Bejeweled Magic Sword")
    assert note == expected and len(note) > 300


def test_microfudged_campaign_seeds_abilities_fields_and_no_gifts(gm):
    campaign = services.campaign_create(gm=gm, name="Dip", base_ruleset="microfudged-dip")
    assert campaign.catalog.filter(kind="attribute").count() == len(microfudged.ABILITIES)
    assert campaign.catalog.filter(kind="skill", difficulty="").count() == len(microfudged.FIELDS)
    assert not campaign.catalog.filter(kind__in=["gift", "fault"]).exists()
    field = campaign.catalog.get(kind="power_kind")
    assert field.name == "field" and "Telepathy" in field.note
    assert campaign.catalog.filter(kind="equipment").count() == len(microfudged.EQUIPMENT)


def test_fudge_basics_borrows_mudge_lists_without_difficulties(gm):
    campaign = services.campaign_create(gm=gm, name="Basics", base_ruleset="fudge-basics")
    assert campaign.catalog.filter(kind="skill").count() == len(mudge.SKILLS)
    assert not campaign.catalog.exclude(difficulty="").exists()
    assert campaign.catalog.filter(kind="attribute").count() == len(mudge.ATTRIBUTES)


def test_campaign_create_keeps_only_real_overrides(gm):
    campaign = services.campaign_create(
        gm=gm,
        name="Low budget",
        base_ruleset="mudge",
        house_rules={"skill_levels": 40, "attribute_levels": 6, "free_gifts": 2},
    )
    assert campaign.house_rules == {"skill_levels": 40}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"name": "", "base_ruleset": "mudge"}, "Give the campaign a name"),
        ({"name": "x" * 121, "base_ruleset": "mudge"}, "120 characters"),
        ({"name": "X", "base_ruleset": "gurps"}, "Choose a base ruleset"),
        ({"name": "X", "base_ruleset": "mudge", "house_rules": {"tokens": -1}}, "negative"),
    ],
)
def test_campaign_create_refuses_with_a_reason(gm, kwargs, message):
    with pytest.raises(ServiceError, match=message):
        services.campaign_create(gm=gm, **kwargs)
    assert not Campaign.objects.exists()


def test_join_is_idempotent_and_refuses_unknown_codes(campaign, player):
    again = services.campaign_join(user=player, code=f"  {campaign.invite_code} ")
    assert again.user == player
    assert list(campaign.memberships.values_list("user__username", flat=True)) == ["player"]
    with pytest.raises(ServiceError, match="No campaign has this invite code"):
        services.campaign_join(user=player, code="nope")


def test_the_gm_cannot_join_their_own_campaign_as_a_player(campaign, gm):
    with pytest.raises(ServiceError, match="You run The Table: this code is for your players"):
        services.campaign_join(user=gm, code=campaign.invite_code)
    assert not campaign.memberships.filter(user=gm).exists()


# -- who may see what --------------------------------------------------------------------------


def my_urls(campaign, entry_pk, membership_pk):
    """(method, path, who may use it) for every page and action of this area."""
    pk = campaign.pk
    return [
        ("get", reverse("campaign_detail", args=[pk]), "member"),
        ("get", reverse("campaign_house_rules", args=[pk]), "gm"),
        ("post", reverse("campaign_house_rules", args=[pk]), "gm"),
        ("get", reverse("campaign_catalog", args=[pk]), "member"),  # read-only for players
        ("post", reverse("catalog_entry_add", args=[pk, "skill"]), "gm"),
        ("get", reverse("catalog_entry", args=[pk, entry_pk]), "gm"),
        ("post", reverse("catalog_entry", args=[pk, entry_pk]), "gm"),
        ("post", reverse("catalog_entry_remove", args=[pk, entry_pk]), "gm"),
        ("post", reverse("campaign_regenerate_invite", args=[pk]), "gm"),
        ("get", reverse("membership_remove", args=[pk, membership_pk]), "gm"),
        ("post", reverse("membership_remove", args=[pk, membership_pk]), "gm"),
    ]


@pytest.mark.parametrize("role", ["anonymous", "outsider", "player", "gm"])
def test_every_campaign_url_with_every_role(campaign, gm, player, outsider, role):
    user = {"anonymous": None, "outsider": outsider, "player": player, "gm": gm}[role]
    client = client_for(user)
    skill = entry(campaign, "skill", "Climbing")
    membership = campaign.memberships.get(user=player)
    for method, path, allowed in my_urls(campaign, skill.pk, membership.pk):
        response = getattr(client, method)(path)
        if role == "anonymous":
            assert response.status_code == 302, path
            assert response["Location"].startswith(reverse("login") + "?next="), path
        elif role == "outsider" or (role == "player" and allowed == "gm"):
            assert response.status_code == 404, (method, path)
        else:
            assert response.status_code in (200, 302, 400), (method, path)
    if role in ("outsider", "player"):
        # Nothing changed behind the 404s.
        assert campaign.catalog.filter(pk=skill.pk).exists()
        assert Membership.objects.filter(pk=membership.pk).exists()
        assert Campaign.objects.get(pk=campaign.pk).invite_code == campaign.invite_code


def test_dashboard_and_new_campaign_need_only_a_login(outsider):
    client = client_for(outsider)
    assert client.get(reverse("dashboard")).status_code == 200
    assert client.get(reverse("campaign_new")).status_code == 200


def test_forged_ids_from_another_campaign_are_not_found(campaign, gm, outsider):
    other = services.campaign_create(gm=outsider, name="Elsewhere", base_ruleset="mudge")
    foreign_entry = other.catalog.first()
    stranger = get_user_model().objects.create_user("stranger")
    foreign_membership = services.campaign_join(user=stranger, code=other.invite_code)
    client = client_for(gm)
    pk = campaign.pk
    for method, path in [
        ("get", reverse("catalog_entry", args=[pk, foreign_entry.pk])),
        ("post", reverse("catalog_entry", args=[pk, foreign_entry.pk])),
        ("post", reverse("catalog_entry_remove", args=[pk, foreign_entry.pk])),
        ("post", reverse("membership_remove", args=[pk, foreign_membership.pk])),
        ("get", reverse("campaign_detail", args=[other.pk])),
        ("get", reverse("campaign_catalog", args=[other.pk])),
        ("get", reverse("campaign_detail", args=[999_999])),
        ("post", reverse("catalog_entry_add", args=[pk, "spaceship"])),
    ]:
        assert getattr(client, method)(path).status_code == 404, (method, path)
    assert other.catalog.filter(pk=foreign_entry.pk).exists()
    assert other.memberships.filter(pk=foreign_membership.pk).exists()


def test_the_gm_has_no_remove_link_and_their_invite_link_leads_home(campaign, gm, player):
    page = client_for(gm).get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    members = page[page.index('id="members"') : page.index('id="settings"')]
    assert members.count("Remove…") == 1  # the player's; the GM runs the campaign
    assert '<span class="badge role-gm">GM</span>' in members
    join = client_for(gm).post(reverse("campaign_join", args=[campaign.invite_code]))
    assert join["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert not campaign.memberships.filter(user=gm).exists()


def test_gm_sees_every_character_a_player_only_their_own(campaign, gm, player):
    other = get_user_model().objects.create_user("other")
    services.campaign_join(user=other, code=campaign.invite_code)
    character_create(owner=player, name="Mine", campaign=campaign)
    character_create(owner=other, name="Theirs", campaign=campaign)
    gm_page = client_for(gm).get(reverse("campaign_detail", args=[campaign.pk]))
    assert [c.name for c in gm_page.context["characters"]] == ["Mine", "Theirs"]
    assert "Members" in gm_page.content.decode()
    player_page = client_for(player).get(reverse("campaign_detail", args=[campaign.pk]))
    assert [c.name for c in player_page.context["characters"]] == ["Mine"]
    html = player_page.content.decode()
    assert "Theirs" not in html and campaign.invite_code not in html
    assert reverse("character_builder", args=[player_page.context["characters"][0].pk]) in html


# -- creating a campaign and its house rules ---------------------------------------------------


def test_create_campaign_through_the_form(gm):
    client = client_for(gm)
    response = client.post(
        reverse("campaign_new"),
        {"name": "Friday", "base_ruleset": "mudge", "skill_levels": "40", "attribute_levels": ""},
    )
    campaign = Campaign.objects.get(name="Friday")
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert campaign.gm == gm and campaign.house_rules == {"skill_levels": 40}
    assert campaign.catalog.count() > 0


def test_create_campaign_refuses_a_negative_budget_on_its_field(gm):
    response = client_for(gm).post(
        reverse("campaign_new"), {"name": "Broke", "base_ruleset": "mudge", "skill_levels": "-5"}
    )
    assert response.status_code == 400
    assert response.context["rules_form"].errors["skill_levels"] == ["Cannot be negative (-5)."]
    assert not Campaign.objects.exists()


def test_switching_the_base_ruleset_shows_its_values_and_keeps_what_was_typed(gm):
    client = client_for(gm)
    query = {"base_ruleset": "microfudged-dip", "skill_levels": "40"}
    partial = client.get(reverse("campaign_new"), query, headers=HTMX)
    html = partial.content.decode()
    assert "<html" not in html and 'id="house-rules"' in html
    assert "MicroFudged DIP (tokens)" in html and "Base: 11" in html  # DIP's tokens
    assert 'name="skill_levels" value="40"' in html
    # Without JavaScript the same GET renders the whole page.
    page = client.get(reverse("campaign_new"), {**query, "name": "Kept"}).content.decode()
    assert "<html" in page and 'value="Kept"' in page


def house_rules_post(client, campaign, **data):
    return client.post(reverse("campaign_house_rules", args=[campaign.pk]), data)


def test_house_rules_save_only_the_changed_keys(campaign, gm):
    client = client_for(gm)
    response = house_rules_post(
        client,
        campaign,
        skill_levels="40",
        attribute_levels="6",  # Mudge's own value: not a house rule
        attribute_cap_superb="2",
        trade_gift="4",
        legendary_at_creation="yes",
        free_gifts="2.5",
        extra_attributes="Sanity: Good\nLuck",
    )
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    campaign.refresh_from_db()
    assert campaign.house_rules == {
        "skill_levels": 40,
        "free_gifts": 2.5,
        "attribute_caps": {"Superb": 2, "Great": 2},  # Mudge's Great cap stays
        "legendary_at_creation": True,
        "trade_values": {"attribute": 3, "gift": 4, "fault": 6},
        "extra_attributes": [
            {"name": "Sanity", "default": "Good"},
            {"name": "Luck", "default": "Fair"},
        ],
    }
    # The form shows them back for the next edit, and the campaign page shows the numbers.
    form = client.get(reverse("campaign_house_rules", args=[campaign.pk])).context["rules_form"]
    assert form["skill_levels"].value() == 40
    assert form["attribute_cap_superb"].value() == 2
    assert form["attribute_cap_great"].value() is None
    assert form["trade_gift"].value() == 4
    assert form["extra_attributes"].value() == "Sanity: Good\nLuck: Fair"
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert "Skill levels" in page and "40" in page and "Sanity (Good)" in page


def test_emptying_the_form_drops_the_house_rules(campaign, gm):
    services.campaign_update_house_rules(
        campaign=campaign, actor=gm, house_rules={"skill_levels": 40}
    )
    house_rules_post(client_for(gm), campaign)
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"skill_levels": "-1"}, "skill_levels", "Cannot be negative (-1)."),
        ({"attribute_cap_great": "-2"}, "attribute_cap_great", "Cannot be negative (-2)."),
        ({"trade_fault": "0"}, "trade_fault", "Must be above zero (0)."),
        (
            {"meta_points_start": "6"},
            "meta_points_start",
            "Cannot be above “Meta points, at most”.",
        ),
        ({"extra_attributes": "Sanity: Fair\nLuck: Lucky"}, "extra_attributes", "Line 2: "),
        ({"skill_levels": "many"}, "skill_levels", "Enter a whole number."),
    ],
)
def test_house_rules_that_make_no_sense_are_refused_on_their_field(
    campaign, gm, data, field, message
):
    services.campaign_update_house_rules(campaign=campaign, actor=gm, house_rules={"tokens": 5})
    response = house_rules_post(client_for(gm), campaign, **data)
    assert response.status_code == 400
    errors = response.context["rules_form"].errors[field]
    assert errors[0].startswith(message)
    campaign.refresh_from_db()
    assert campaign.house_rules == {"tokens": 5}


def test_every_house_rule_that_makes_no_sense_is_marked_at_once(campaign, gm):
    """Not one field per try: the GM fixes them all in one go."""
    response = house_rules_post(
        client_for(gm), campaign, attribute_levels="-1", skill_levels="-5", trade_fault="0"
    )
    assert response.status_code == 400
    errors = response.context["rules_form"].errors
    assert errors["attribute_levels"] == ["Cannot be negative (-1)."]
    assert errors["skill_levels"] == ["Cannot be negative (-5)."]
    assert errors["trade_fault"] == ["Must be above zero (0)."]
    campaign.refresh_from_db()
    assert campaign.house_rules == {}


def test_house_rules_post_needs_the_csrf_token(campaign, gm):
    client = Client(enforce_csrf_checks=True)
    client.force_login(gm)
    url = reverse("campaign_house_rules", args=[campaign.pk])
    assert client.post(url, {"skill_levels": "40"}).status_code == 403
    token = client.get(url).context["csrf_token"]
    response = client.post(url, {"skill_levels": "40", "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    campaign.refresh_from_db()
    assert campaign.house_rules == {"skill_levels": 40}


# -- the catalogue -----------------------------------------------------------------------------


def test_catalogue_page_groups_entries_by_kind(campaign, gm):
    response = client_for(gm).get(reverse("campaign_catalog", args=[campaign.pk]))
    groups = {g.kind: g for g in response.context["groups"]}
    assert len(groups["skill"].rows) == len(mudge.SKILLS)
    assert [r.entry.name for r in groups["attribute"].rows] == list(mudge.ATTRIBUTES)
    html = response.content.decode()
    assert "Very hard" in html and "value 2" in html and "weapon +2" in html


def test_catalogue_page_opens_a_row_for_editing_without_javascript(campaign, gm):
    climbing = entry(campaign, "skill", "Climbing")
    client = client_for(gm)
    redirect = client.get(reverse("catalog_entry", args=[campaign.pk, climbing.pk]) + "?edit=1")
    assert redirect["Location"].endswith(f"?edit={climbing.pk}#entry-{climbing.pk}")
    page = client.get(redirect["Location"]).content.decode()
    assert f'<form id="entry-{climbing.pk}" class="catalog-row editing"' in page


def test_add_an_entry_with_htmx_and_without(campaign, gm):
    client = client_for(gm)
    url = reverse("catalog_entry_add", args=[campaign.pk, "gift"])
    fragment = client.post(url, {"name": "Lucky Socks", "cost": "0.5"}, headers=HTMX)
    assert fragment.status_code == 200
    html = fragment.content.decode()
    assert "<html" not in html and 'id="group-gift"' in html and "cost 0.5" in html
    assert entry(campaign, "gift", "Lucky Socks").cost == Decimal("0.5")
    plain = client.post(url, {"name": "Iron Will", "cost": "2", "note": "house gift"})
    added = entry(campaign, "gift", "Iron Will")
    assert plain["Location"].endswith(f"#entry-{added.pk}")
    assert added.note == "house gift"


def test_edit_an_entry_with_htmx_and_without(campaign, gm):
    climbing = entry(campaign, "skill", "Climbing")
    client = client_for(gm)
    url = reverse("catalog_entry", args=[campaign.pk, climbing.pk])
    editing = client.get(url + "?edit=1", headers=HTMX).content.decode()
    assert "<html" not in editing and 'name="difficulty"' in editing
    row = client.post(url, {"name": "Climbing", "difficulty": "hard", "note": ""}, headers=HTMX)
    assert row.status_code == 200 and "Hard" in row.content.decode()
    plain = client.post(url, {"name": "Scaling", "difficulty": "easy", "note": "walls"})
    assert plain["Location"].endswith(f"#entry-{climbing.pk}")
    climbing.refresh_from_db()
    assert (climbing.name, climbing.difficulty, climbing.note) == ("Scaling", "easy", "walls")


def test_remove_an_entry_with_htmx_and_without(campaign, gm):
    client = client_for(gm)
    dodge, stealth = entry(campaign, "skill", "Dodge"), entry(campaign, "skill", "Stealth")
    fragment = client.post(
        reverse("catalog_entry_remove", args=[campaign.pk, dodge.pk]), headers=HTMX
    )
    assert fragment.status_code == 200 and fragment.content == b""
    plain = client.post(reverse("catalog_entry_remove", args=[campaign.pk, stealth.pk]))
    assert plain["Location"].endswith("#group-skill")
    assert not campaign.catalog.filter(pk__in=[dodge.pk, stealth.pk]).exists()


@pytest.mark.parametrize(
    ("kind", "data", "field", "message"),
    [
        ("gift", {"name": "Cheap", "cost": "-1"}, "cost", "greater than or equal to 0"),
        ("skill", {"name": "x" * 10_000, "difficulty": "easy"}, "name", "at most 100"),
        ("skill", {"name": "Juggling", "difficulty": "trivial"}, "difficulty", "valid choice"),
        ("skill", {"name": "climbing", "difficulty": "easy"}, "__all__", "already has a skill"),
        ("equipment", {"name": "Railgun", "damage": "99"}, "damage", "less than or equal"),
    ],
)
def test_bad_catalogue_input_is_refused_and_changes_nothing(
    campaign, gm, kind, data, field, message
):
    before = list(campaign.catalog.order_by("pk").values())
    response = client_for(gm).post(
        reverse("catalog_entry_add", args=[campaign.pk, kind]), data, headers=HTMX
    )
    assert response.status_code == 400
    assert message in " ".join(response.context["group"].add_form.errors[field])
    assert message.split()[0] in response.content.decode()
    assert list(campaign.catalog.order_by("pk").values()) == before


def test_bad_catalogue_input_without_javascript_shows_the_page_again(campaign, gm):
    response = client_for(gm).post(
        reverse("catalog_entry_add", args=[campaign.pk, "fault"]), {"name": "Greedy", "cost": "-2"}
    )
    assert response.status_code == 400
    refused = next(g for g in response.context["groups"] if g.kind == "fault")
    assert refused.adding and "greater than or equal to 0" in refused.add_form.errors["cost"][0]
    html = response.content.decode()
    assert "<html" in html and 'value="Greedy"' in html
    assert not campaign.catalog.filter(name="Greedy").exists()


@pytest.mark.parametrize("htmx", [False, True])
def test_bad_edit_is_refused_and_changes_nothing(campaign, gm, htmx):
    climbing = entry(campaign, "skill", "Climbing")
    response = client_for(gm).post(
        reverse("catalog_entry", args=[campaign.pk, climbing.pk]),
        {"name": "Dodge", "difficulty": "easy"},
        headers=HTMX if htmx else {},
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "already has a skill named Dodge" in html
    assert ("<html" in html) is not htmx
    climbing.refresh_from_db()
    assert (climbing.name, climbing.difficulty) == ("Climbing", "average")


def test_catalogue_service_refuses_fields_of_another_kind(campaign):
    with pytest.raises(ServiceError, match="no cost"):
        services.catalog_entry_add(
            campaign=campaign, actor=campaign.gm, kind="skill", name="X", cost=1
        )


def test_microfudged_catalogue_has_no_gift_group(gm):
    campaign = services.campaign_create(gm=gm, name="Dip", base_ruleset="microfudged-dip")
    client = client_for(gm)
    response = client.get(reverse("campaign_catalog", args=[campaign.pk]))
    titles = [g.title for g in response.context["groups"]]
    assert titles == [
        "Abilities",
        "Fields of expertise",
        "Kinds of power",
        "Fields of power",
        "Equipment",
    ]
    url = reverse("catalog_entry_add", args=[campaign.pk, "gift"])
    assert client.post(url, {"name": "Luck", "cost": "1"}).status_code == 404


# -- invites and members -----------------------------------------------------------------------


def test_join_by_link(campaign, outsider):
    client = client_for(outsider)
    url = reverse("campaign_join", args=[campaign.invite_code])
    page = client.get(url)
    assert page.status_code == 200 and "Join <bdi>The Table</bdi>?" in page.content.decode()
    assert not campaign.memberships.filter(user=outsider).exists()  # a GET joins nothing
    response = client.post(url)
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert campaign.memberships.filter(user=outsider).exists()
    # Opening the link again just leads to the campaign.
    assert client.get(url)["Location"] == reverse("campaign_detail", args=[campaign.pk])


def test_join_link_sends_anonymous_visitors_to_log_in_first(campaign):
    url = reverse("campaign_join", args=[campaign.invite_code])
    response = Client().get(url)
    assert response["Location"] == f"{reverse('login')}?next={url}"


def test_unknown_invite_link_says_so(outsider):
    response = client_for(outsider).get(reverse("campaign_join", args=["not-a-code"]))
    assert response.status_code == 404
    assert "This invite link does not work" in response.content.decode()


def test_join_by_code_on_the_dashboard(campaign, outsider):
    client = client_for(outsider)
    response = client.post(reverse("campaign_join_by_code"), {"code": campaign.invite_code})
    assert response["Location"] == reverse("campaign_detail", args=[campaign.pk])
    assert campaign.memberships.filter(user=outsider).exists()


def test_wrong_code_on_the_dashboard_is_refused_with_a_message(outsider):
    response = client_for(outsider).post(reverse("campaign_join_by_code"), {"code": "wrong"})
    assert response.status_code == 400
    assert "No campaign has this invite code" in response.content.decode()
    assert not Membership.objects.filter(user=outsider).exists()


def test_join_by_code_is_a_post(outsider):
    assert client_for(outsider).get(reverse("campaign_join_by_code")).status_code == 405


def test_regenerated_invite_retires_the_old_code(campaign, gm, outsider):
    old = campaign.invite_code
    client = client_for(gm)
    fragment = client.post(reverse("campaign_regenerate_invite", args=[campaign.pk]), headers=HTMX)
    campaign.refresh_from_db()
    assert campaign.invite_code != old
    html = fragment.content.decode()
    assert campaign.invite_code in html and 'id="invite"' in html and "<html" not in html
    assert f"/join/{campaign.invite_code}/" in html
    stale = client_for(outsider).post(reverse("campaign_join", args=[old]))
    assert stale.status_code == 404
    assert not campaign.memberships.filter(user=outsider).exists()


def test_gm_removes_a_player_after_confirming(campaign, gm, player):
    character_create(owner=player, name="Left behind", campaign=campaign)
    membership = campaign.memberships.get(user=player)
    url = reverse("membership_remove", args=[campaign.pk, membership.pk])
    client = client_for(gm)
    confirm = client.get(url).content.decode()
    assert (
        "Remove <bdi>player</bdi> from <bdi>The Table</bdi>?" in confirm
        and "Left behind" in confirm
    )
    assert Membership.objects.filter(pk=membership.pk).exists()  # the GET changed nothing
    response = client.post(url)
    assert response["Location"].endswith("#members")
    assert not Membership.objects.filter(pk=membership.pk).exists()
    # The player no longer sees the campaign; the GM still sees their character.
    assert client_for(player).get(reverse("campaign_detail", args=[campaign.pk])).status_code == 404
    page = client.get(reverse("campaign_detail", args=[campaign.pk]))
    assert [c.name for c in page.context["characters"]] == ["Left behind"]


def test_members_list_counts_characters_alike_for_gm_and_players(campaign, gm, player):
    """A deleted (archived) character leaves every count, the GM's and the players'."""
    kept = character_create(owner=player, name="Kept", campaign=campaign)
    gone = character_create(owner=player, name="Gone", campaign=campaign)
    character_create(owner=gm, name="Innkeeper", campaign=campaign)
    npc = character_create(owner=gm, name="Old NPC", campaign=campaign)
    character_delete(character=gone, actor=player)
    character_delete(character=npc, actor=gm)
    page = client_for(gm).get(reverse("campaign_detail", args=[campaign.pk]))
    assert [(m.user.username, m.character_count) for m in page.context["members"]] == [
        ("player", 1)
    ]
    assert page.context["gm_character_count"] == 1
    members = page.content.decode()
    members = members[members.index('id="members"') : members.index('id="settings"')]
    assert "1 character · runs it since" in members and "1 character · joined" in members
    assert kept.name in page.content.decode()


def test_members_list_shows_the_invite_to_the_gm(campaign, gm):
    page = client_for(gm).get(reverse("campaign_detail", args=[campaign.pk]))
    html = page.content.decode()
    assert f"http://testserver/join/{campaign.invite_code}/" in html
    assert [m.user.username for m in page.context["members"]] == ["player"]
    members = html[html.index('id="members"') : html.index('id="settings"')]
    assert members.index("<bdi>gm</bdi>") < members.index("<bdi>player</bdi>")


def test_players_read_the_catalogue_and_cannot_change_it(campaign, gm, player):
    """Issue 12: a player sees what they pick from, with the GM's notes, and no control to
    change it; the GM's page keeps its Edit and Remove."""
    services.catalog_entry_add(
        campaign=campaign,
        actor=gm,
        kind="skill",
        name="Lore: Old Roads",
        difficulty="hard",
        note="Routes and waystones of the old kingdom",
    )
    url = reverse("campaign_catalog", args=[campaign.pk])
    page = client_for(player).get(url).content.decode()
    assert (
        "<bdi>Lore: Old Roads</bdi>" in page and "Routes and waystones of the old kingdom" in page
    )
    assert "What you pick from as you build" in page
    assert "Remove Lore: Old Roads" not in page and "Add skill" not in page
    assert 'method="post"' not in page.split("<main", 1)[1]
    assert "Remove Lore: Old Roads" in client_for(gm).get(url).content.decode()
    detail = client_for(player).get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert f'href="{url}"' in detail
