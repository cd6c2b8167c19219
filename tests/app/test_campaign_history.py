"""The campaign's history (CampaignEvent): every campaign write records who, when, before and
after, in its transaction; the record is append-only in the database (really attempted, on
SQLite and PostgreSQL); the GM previews what a house-rule change does to each character
before saving it (Mudge 6.3 samples, priced for real); only the GM sees the history."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, ProgrammingError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.timezone import localtime

from characters.errors import HouseRulesRefused, ServiceError
from characters.models import Campaign, CampaignEvent, Character
from characters.selectors.campaigns import house_rules_preview, show_value
from characters.services import campaigns as services
from characters.services.audit import record_campaign_event
from characters.services.characters import character_create
from characters.services.keeping import character_delete
from tests.app.test_campaigns import *  # noqa: F403
from tests.app.test_campaigns import client_for
from tests.app.test_sheet_views import make_character
from tests.conftest import role_split

pytestmark = pytest.mark.django_db
EVENTS = "characters_campaignevent"
HTMX = {"HX-Request": "true"}


def events(campaign, *actions):
    found = CampaignEvent.objects.filter(campaign=campaign)
    if actions:
        found = found.filter(action__in=actions)
    return list(found.values_list("action", "target", "before", "after"))


def last_event(campaign) -> CampaignEvent:
    return CampaignEvent.objects.filter(campaign=campaign).latest("id")


# -- every write records its event ------------------------------------------------------------


def test_creating_a_campaign_starts_its_history(gm):
    campaign = services.campaign_create(
        gm=gm, name="Friday", base_ruleset="mudge", house_rules={"skill_levels": 50}
    )
    event = campaign.events.get()
    assert (event.action, event.actor, event.before) == ("campaign_created", gm, None)
    assert event.after == {
        "name": "Friday",
        "base_ruleset": "mudge",
        "house_rules": {"skill_levels": 50},
        "catalogue_entries": campaign.catalog.count(),
    }


def test_a_house_rule_change_records_only_the_changed_keys(campaign, gm):
    services.campaign_update_house_rules(
        campaign=campaign, actor=gm, house_rules={"skill_levels": 40, "tokens": 5}
    )
    services.campaign_update_house_rules(
        campaign=campaign,
        actor=gm,
        house_rules={"skill_levels": 50, "tokens": 5, "free_gifts": 3},
        reason="  a higher-powered game ",
    )
    event = last_event(campaign)
    assert (event.action, event.target, event.actor) == ("house_rules_changed", "house_rules", gm)
    assert event.before == {"skill_levels": 40}  # tokens did not change: not recorded
    assert event.after == {"skill_levels": 50, "free_gifts": 3}
    assert event.reason == "a higher-powered game"
    # Back to the base value: the key leaves the "after" side.
    services.campaign_update_house_rules(campaign=campaign, actor=gm, house_rules={"tokens": 5})
    assert (last_event(campaign).before, last_event(campaign).after) == (
        {"skill_levels": 50, "free_gifts": 3},
        {},
    )
    # Saving the same rules again changes nothing and records nothing.
    count = campaign.events.count()
    services.campaign_update_house_rules(campaign=campaign, actor=gm, house_rules={"tokens": 5})
    assert campaign.events.count() == count


def test_a_refused_house_rule_records_nothing(campaign, gm):
    count = campaign.events.count()
    with pytest.raises(HouseRulesRefused):
        services.campaign_update_house_rules(
            campaign=campaign, actor=gm, house_rules={"skill_levels": -1}
        )
    assert campaign.events.count() == count
    assert Campaign.objects.get(pk=campaign.pk).house_rules == {}


def test_settings_change_is_recorded(campaign, gm):
    services.campaign_update_settings(campaign=campaign, actor=gm, spends_need_approval=True)
    assert Campaign.objects.get(pk=campaign.pk).spends_need_approval is True
    assert events(campaign, "settings_changed") == [
        ("settings_changed", "", {"spends_need_approval": False}, {"spends_need_approval": True})
    ]
    services.campaign_update_settings(campaign=campaign, actor=gm, spends_need_approval=True)
    assert len(events(campaign, "settings_changed")) == 1  # no change, no event


def test_settings_form_on_the_campaign_page(campaign, gm):
    client = client_for(gm)
    page = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    assert reverse("campaign_settings", args=[campaign.pk]) in page
    response = client.post(
        reverse("campaign_settings", args=[campaign.pk]), {"spends_need_approval": "on"}
    )
    assert response["Location"].endswith("#settings")
    assert Campaign.objects.get(pk=campaign.pk).spends_need_approval is True
    client.post(reverse("campaign_settings", args=[campaign.pk]), {})  # the box unticked
    assert Campaign.objects.get(pk=campaign.pk).spends_need_approval is False
    assert [e.actor for e in campaign.events.filter(action="settings_changed")] == [gm, gm]


def test_catalogue_add_change_and_remove_are_recorded(campaign, gm):
    entry = services.catalog_entry_add(
        campaign=campaign, actor=gm, kind="skill", name="Sailing", difficulty="hard", note="Ships"
    )
    services.catalog_entry_update(
        entry=entry, actor=gm, name="Seamanship", difficulty="average", note="Ships"
    )
    services.catalog_entry_update(  # unchanged: nothing recorded
        entry=entry, actor=gm, name="Seamanship", difficulty="average", note="Ships"
    )
    services.catalog_entry_remove(entry=campaign.catalog.get(pk=entry.pk), actor=gm)
    gift = services.catalog_entry_add(
        campaign=campaign, actor=gm, kind="gift", name="Lucky", cost=2
    )
    assert events(campaign, *(f"catalog_entry_{a}" for a in ("added", "changed", "removed"))) == [
        (
            "catalog_entry_added",
            "skill:Sailing",
            None,
            {"name": "Sailing", "difficulty": "hard", "note": "Ships"},
        ),
        (
            "catalog_entry_changed",
            "skill:Sailing",  # the name it had
            {"name": "Sailing", "difficulty": "hard", "note": "Ships"},
            {"name": "Seamanship", "difficulty": "average", "note": "Ships"},
        ),
        (
            "catalog_entry_removed",
            "skill:Seamanship",
            {"name": "Seamanship", "difficulty": "average", "note": "Ships"},
            None,
        ),
        ("catalog_entry_added", "gift:Lucky", None, {"name": "Lucky", "cost": 2}),
    ]
    assert {
        e.actor for e in campaign.events.exclude(action__in=("campaign_created", "member_joined"))
    } == {gm}
    assert gift.pk


def test_a_refused_catalogue_write_records_nothing(campaign, gm):
    count = campaign.events.count()
    with pytest.raises(ServiceError, match="already has a skill named climbing"):
        services.catalog_entry_add(campaign=campaign, actor=gm, kind="skill", name="climbing")
    assert campaign.events.count() == count


def test_catalogue_views_record_the_gm(campaign, gm):
    client = client_for(gm)
    client.post(
        reverse("catalog_entry_add", args=[campaign.pk, "skill"]),
        {"name": "Sailing", "difficulty": "average"},
    )
    entry = campaign.catalog.get(name="Sailing")
    client.post(reverse("catalog_entry_remove", args=[campaign.pk, entry.pk]), headers=HTMX)
    assert [(e.action, e.actor) for e in campaign.events.filter(target="skill:Sailing")] == [
        ("catalog_entry_added", gm),
        ("catalog_entry_removed", gm),
    ]


def test_removing_a_member_is_recorded(campaign, gm, player):
    membership = campaign.memberships.get(user=player)
    client_for(gm).post(reverse("membership_remove", args=[campaign.pk, membership.pk]))
    event = last_event(campaign)
    assert (event.action, event.target, event.actor) == ("member_removed", "user:player", gm)
    assert event.before == {
        "user": "player",
        "joined_at": membership.joined_at.isoformat(),
    }
    assert event.after is None
    # Removing them again (a second tab) leaves no second event.
    count = campaign.events.count()
    services.membership_remove(membership=membership, actor=gm)
    assert campaign.events.count() == count


def test_a_new_invite_is_recorded_without_either_code(campaign, gm):
    old = campaign.invite_code
    client_for(gm).post(reverse("campaign_regenerate_invite", args=[campaign.pk]), headers=HTMX)
    new = Campaign.objects.get(pk=campaign.pk).invite_code
    assert new != old
    event = last_event(campaign)
    assert (event.action, event.actor) == ("invite_regenerated", gm)
    recorded = json.dumps(list(CampaignEvent.objects.values("target", "before", "after", "reason")))
    assert old not in recorded and new not in recorded


def test_an_event_is_rolled_back_with_its_change(campaign, gm):
    count = CampaignEvent.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        services.campaign_update_house_rules(
            campaign=campaign, actor=gm, house_rules={"skill_levels": 50}
        )
        raise RuntimeError("the request failed after the service call")
    assert CampaignEvent.objects.count() == count
    assert Campaign.objects.get(pk=campaign.pk).house_rules == {}


# -- append-only, for real --------------------------------------------------------------------


def trigger_names() -> set[str]:
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT tgname FROM pg_trigger WHERE tgrelid = %s::regclass AND NOT tgisinternal",
                [EVENTS],
            )
        else:
            cursor.execute(
                "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s",
                [EVENTS],
            )
        return {row[0] for row in cursor.fetchall()}


def test_the_append_only_triggers_are_installed():
    expected = {
        "postgresql": {
            "characters_campaignevent_no_change",
            "characters_campaignevent_no_truncate",
        },
        "sqlite": {"characters_campaignevent_no_update", "characters_campaignevent_no_delete"},
    }[connection.vendor]
    assert trigger_names() == expected


def refused(statement):
    """As the runtime role (PostgreSQL with DATABASE_OWNER_URL) for want of the right, else
    the append-only triggers refuse it; in a savepoint, so the test goes on."""
    if role_split():
        expect = pytest.raises(ProgrammingError, match=f"permission denied for table {EVENTS}")
    else:
        expect = pytest.raises(IntegrityError, match=r"campaign audit trail .* is append-only")
    with expect, transaction.atomic():
        statement()


def raw(sql, params=()):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def test_campaign_events_cannot_be_updated_or_deleted(campaign):
    event = campaign.events.get(action="campaign_created")
    count = CampaignEvent.objects.count()
    refused(lambda: raw(f"UPDATE {EVENTS} SET reason = %s WHERE id = %s", ["forged", event.pk]))
    refused(lambda: raw(f"UPDATE {EVENTS} SET action = %s", ["nothing_happened"]))
    refused(lambda: raw(f"DELETE FROM {EVENTS} WHERE id = %s", [event.pk]))
    refused(lambda: raw(f"DELETE FROM {EVENTS}"))
    event.reason = "forged"
    refused(lambda: event.save())
    refused(lambda: CampaignEvent.objects.filter(pk=event.pk).update(reason="forged"))
    refused(lambda: event.delete())
    refused(lambda: CampaignEvent.objects.all().delete())
    event.refresh_from_db()
    assert (event.action, event.reason) == ("campaign_created", "")
    assert CampaignEvent.objects.count() == count


@pytest.mark.django_db(transaction=True)
def test_committed_campaign_events_stay_fixed(gm):
    """Autocommit, as in production. The flush after this test goes through conftest's
    audit_trail_flushable, which handles every table of APPEND_ONLY_TABLES."""
    campaign = services.campaign_create(gm=gm, name="Committed", base_ruleset="mudge")
    services.campaign_regenerate_invite(campaign=campaign, actor=gm)
    assert not connection.in_atomic_block
    refused(lambda: CampaignEvent.objects.filter(campaign=campaign).update(reason="forged"))
    refused(lambda: CampaignEvent.objects.filter(campaign=campaign).delete())
    assert list(campaign.events.values_list("action", "reason")) == [
        ("campaign_created", ""),
        ("invite_regenerated", ""),
    ]


def test_inserting_stays_open(campaign, gm):
    before = campaign.events.count()
    record_campaign_event(campaign=campaign, actor=gm, action="note", reason="by hand")
    assert campaign.events.count() == before + 1


# -- the preview of a house-rule change (Mudge 6.3 samples) -----------------------------------
# Mudge: 45 free skill levels, 6 attribute levels, an attribute level worth 3 skill levels.
# Under the base rules James Stoddard is 47 skill levels over budget and has more Great
# skills than the caps allow; Brogo is 20 over, Dolores 16.


@pytest.fixture
def party(campaign, gm, player):
    other = get_user_model().objects.create_user("other")
    services.campaign_join(user=other, code=campaign.invite_code)
    return {
        "james": make_character(player, campaign, "james", state=Character.State.APPROVED),
        "brogo": make_character(other, campaign, "brogo"),
        "dolores": make_character(player, campaign, "dolores", state=Character.State.SUBMITTED),
    }


def by_name(preview):
    return {
        impact.character.name: (
            impact.balance_before,
            impact.balance_after,
            impact.new_errors,
            impact.resolved_errors,
        )
        for impact in preview.affected
    }


def test_raising_skill_levels_names_every_character_with_its_balances(campaign, party):
    preview = house_rules_preview(campaign, {"skill_levels": 65})
    assert (preview.before, preview.after) == ({}, {"skill_levels": 65})
    assert by_name(preview) == {
        "Brogo the Scout": (-20, 0, [], ["over budget"]),  # 20 more levels: exactly spent
        "Dolores Ramirez": (-16, 4, [], ["over budget"]),  # 4 left over: a warning only
        "James Stoddard": (-47, -27, [], []),  # still over, and still over the caps
    }
    james = next(i for i in preview.impacts if i.character.name == "James Stoddard")
    assert james.keeps_approval and james.balance_text == "-47 skill levels → -27 skill levels"
    assert not any(i.keeps_approval for i in preview.impacts if i is not james)


def test_the_preview_costs_the_same_queries_however_many_characters(campaign, party, player):
    with CaptureQueriesContext(connection) as three:
        house_rules_preview(campaign, {"skill_levels": 65})
    make_character(player, campaign, "brogo", name="Brogo's twin")
    with CaptureQueriesContext(connection) as four:
        house_rules_preview(campaign, {"skill_levels": 65})
    assert len(four) == len(three)


def test_lowering_attribute_levels_costs_three_skill_levels_each(campaign, party):
    preview = house_rules_preview(campaign, {"attribute_levels": 4})
    assert by_name(preview) == {
        "Brogo the Scout": (-20, -26, [], []),
        "Dolores Ramirez": (-16, -22, [], []),
        "James Stoddard": (-47, -53, [], []),
    }


def test_a_limit_shows_as_new_errors_with_the_balance_unchanged(campaign, party):
    preview = house_rules_preview(campaign, {"max_skills": 5})
    assert by_name(preview) == {
        "Brogo the Scout": (-20, -20, ["too many skills"], []),
        "Dolores Ramirez": (-16, -16, ["too many skills"], []),
        "James Stoddard": (-47, -47, ["too many skills"], []),
    }


def test_the_preview_reads_only_and_skips_what_is_not_the_campaigns(campaign, gm, party, player):
    services.campaign_update_house_rules(campaign=campaign, actor=gm, house_rules={"tokens": 9})
    elsewhere = services.campaign_create(gm=gm, name="Elsewhere", base_ruleset="mudge")
    make_character(player, elsewhere, "james")
    gone = make_character(player, campaign, "james", name="Archived James")
    character_delete(character=gone, actor=player)
    count = CampaignEvent.objects.count()
    preview = house_rules_preview(campaign, {"tokens": 9, "skill_levels": 50})
    assert [i.character.name for i in preview.impacts] == [
        "Brogo the Scout",
        "Dolores Ramirez",
        "James Stoddard",
    ]
    # tokens were already 9: only skill_levels is a change.
    assert (preview.before, preview.after) == ({}, {"skill_levels": 50})
    assert CampaignEvent.objects.count() == count
    assert Campaign.objects.get(pk=campaign.pk).house_rules == {"tokens": 9}
    # A Mudge campaign does not use tokens: changing them affects nobody.
    assert house_rules_preview(campaign, {"tokens": 3}).affected == []
    with pytest.raises(HouseRulesRefused):
        house_rules_preview(campaign, {"skill_levels": -1})


def house_rules_post(client, campaign, **data):
    return client.post(reverse("campaign_house_rules", args=[campaign.pk]), data)


def test_preview_step_shows_the_table_and_saves_nothing(campaign, gm, party):
    client = client_for(gm)
    response = house_rules_post(client, campaign, skill_levels="65", preview="1")
    assert response.status_code == 200
    html = response.content.decode()
    assert "3 characters priced differently" in html
    assert "James Stoddard" in html and "-47 skill levels → -27 skill levels" in html
    assert "Brogo the Scout" in html and "-20 skill levels → 0 skill levels" in html
    assert "Approved: keeps its approval snapshot" in html
    assert 'name="skill_levels" value="65"' in html  # the form keeps what was typed
    assert Campaign.objects.get(pk=campaign.pk).house_rules == {}
    assert not campaign.events.filter(action="house_rules_changed").exists()
    # Then Save (the same form, without `preview`) saves and records.
    saved = house_rules_post(client, campaign, skill_levels="65", reason="bigger heroes")
    assert saved["Location"] == reverse("campaign_detail", args=[campaign.pk])
    event = last_event(campaign)
    assert (event.action, event.after, event.reason, event.actor) == (
        "house_rules_changed",
        {"skill_levels": 65},
        "bigger heroes",
        gm,
    )


def test_preview_of_a_refused_rule_shows_the_refusal(campaign, gm, party):
    response = house_rules_post(client_for(gm), campaign, skill_levels="-5", preview="1")
    assert response.status_code == 400
    assert response.context["rules_form"].errors["skill_levels"] == ["Cannot be negative (-5)."]
    assert "preview" not in response.context


def test_preview_escapes_character_names(campaign, gm, player):
    character_create(owner=player, name="<script>alert(1)</script>", campaign=campaign)
    html = house_rules_post(client_for(gm), campaign, skill_levels="50", preview="1")
    html = html.content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html


def test_only_the_gm_may_preview(campaign, player, outsider):
    for user in (player, outsider):
        response = house_rules_post(client_for(user), campaign, skill_levels="65", preview="1")
        assert response.status_code == 404


# -- the history page -------------------------------------------------------------------------


def test_history_page_lists_events_newest_first_with_before_and_after(campaign, gm, player):
    services.campaign_update_house_rules(
        campaign=campaign, actor=gm, house_rules={"skill_levels": 50}, reason="bigger heroes"
    )
    services.campaign_update_settings(campaign=campaign, actor=gm, spends_need_approval=True)
    services.membership_remove(membership=campaign.memberships.get(user=player), actor=gm)
    client = client_for(gm)
    detail = client.get(reverse("campaign_detail", args=[campaign.pk])).content.decode()
    url = reverse("campaign_history", args=[campaign.pk])
    assert url in detail
    response = client.get(url)
    assert response.status_code == 200
    lines = response.context["lines"]
    assert [line.event.action for line in lines] == [
        "member_removed",
        "settings_changed",
        "house_rules_changed",
        "member_joined",  # the player, as the fixture joins
        "campaign_created",
    ]
    rules = lines[2]
    assert [(f.name, f.before, f.after) for f in rules.fields] == [
        ("Skill levels", "as the base ruleset", "50")
    ]
    html = response.content.decode()
    assert "House rules changed" in html and "bigger heroes" in html
    assert "<del>no</del> → <ins>yes</ins>" in html  # spends need approval
    assert "<bdi>User: player</bdi>" in html


def test_history_is_the_gms_alone(campaign, gm, player, outsider):
    url = reverse("campaign_history", args=[campaign.pk])
    assert client_for(player).get(url).status_code == 404
    assert client_for(outsider).get(url).status_code == 404
    anonymous = client_for(None).get(url)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]
    player_page = client_for(player).get(reverse("campaign_detail", args=[campaign.pk]))
    assert url not in player_page.content.decode()
    assert client_for(player).post(
        reverse("campaign_settings", args=[campaign.pk])
    ).status_code == (404)


def test_a_player_who_left_reads_with_the_date_they_joined_in_words(campaign, gm, player):
    membership = campaign.memberships.get(user=player)
    client_for(player).post(reverse("campaign_leave", args=[campaign.pk]))
    response = client_for(gm).get(reverse("campaign_history", args=[campaign.pk]))
    left = response.context["lines"][0]
    joined = date_format(localtime(membership.joined_at), "j M Y H:i")
    assert (left.title, [(f.name, f.before) for f in left.fields]) == (
        "Player left",
        [("User", "player"), ("Joined at", joined)],
    )
    html = response.content.decode()
    assert f"<del>{joined}</del>" in html
    assert membership.joined_at.isoformat() not in html


def test_recorded_values_read_as_words():
    assert show_value("mudge", "base_ruleset") == "Mudge"
    assert show_value({}, "house_rules") == "none"
    assert show_value(True) == "yes"
    assert show_value({"Superb": 1}) == "Superb: 1"
