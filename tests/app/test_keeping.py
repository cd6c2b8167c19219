"""Keeping characters and campaigns (issue 26): archive and restore (off every list, on
the record), delete a draft that never left its player, duplicate as a new draft, sort and
filter the table, a GM archives a campaign, and the campaign's history records who joined
and who left."""

import pytest
from django.urls import reverse

from characters.errors import NotAllowed, ServiceError
from characters.models import Campaign, CampaignEvent, Character, CharacterEvent, Membership
from characters.selectors.review import review_queue
from characters.services.advancement import experience_award
from characters.services.campaigns import campaign_join, membership_remove
from characters.services.characters import character_create
from characters.services.keeping import (
    campaign_archive,
    campaign_restore,
    character_archive,
    character_delete,
    character_duplicate,
)
from characters.services.review import character_withdraw
from rules.ladder import FAIR
from tests.app.test_review import *  # noqa: F403
from tests.app.test_review import approved, submitted
from tests.support.builder_fixtures import *  # noqa: F403


def table(client, **query) -> list[str]:
    response = client.get(reverse("dashboard"), query)
    assert response.status_code == 200
    return [c.name for c in response.context["characters"]]


def test_archive_leaves_every_list_keeps_the_record_and_restores(
    character, climbing, player, gm, login
):
    approved(character, gm)
    owner, master = login(player), login(gm)
    character_archive(character=character, actor=player)
    assert table(owner) == []
    assert "Brogo" in owner.get(reverse("dashboard")).content.decode()  # under Archived
    assert owner.get(reverse("character_builder", args=[character.pk])).status_code == 404
    detail = master.get(reverse("campaign_detail", args=[character.campaign_id]))
    assert list(detail.context["characters"]) == []
    party = master.get(reverse("campaign_party", args=[character.campaign_id]))
    assert "Brogo" not in party.content.decode()
    # On the record, with every row.
    kept = Character.all_objects.get(pk=character.pk)
    assert kept.traits.filter(name="Climbing").exists() and kept.approvals.exists()
    assert CharacterEvent.objects.filter(character_id=character.pk).last().action == (
        "character_archived"
    )
    with pytest.raises(ServiceError, match="archived already"):
        character_archive(character=character, actor=player)
    response = owner.post(reverse("character_restore", args=[character.pk]))
    assert response.status_code == 302
    assert table(owner) == ["Brogo"]
    restored = Character.objects.get(pk=character.pk)
    assert restored.state == Character.State.APPROVED and restored.archived_at is None
    actions = CharacterEvent.objects.filter(character_id=character.pk)
    assert list(actions.values_list("action", flat=True))[-2:] == [
        "character_archived",
        "character_restored",
    ]


def test_only_the_player_archives_and_a_waiting_build_is_withdrawn_first(
    character, player, gm, login
):
    with pytest.raises(NotAllowed):
        character_archive(character=character, actor=gm)
    assert login(gm).post(reverse("character_archive", args=[character.pk])).status_code == 404
    submitted(character)
    with pytest.raises(ServiceError, match="withdraw it first"):
        character_archive(character=character, actor=player)
    assert [item.character for item in review_queue(gm)] == [character]


def test_a_draft_that_never_left_its_player_is_deleted_for_good(character, climbing, player, login):
    client = login(player)
    page = client.get(reverse("character_delete", args=[character.pk]))
    assert "Delete <bdi>Brogo</bdi>?" in page.content.decode()
    response = client.post(reverse("character_delete", args=[character.pk]))
    assert response.status_code == 302
    kept = Character.all_objects.get(pk=character.pk)
    assert kept.deleted_at and kept.archived_at and not kept.traits.exists()
    # Not among the archived, not restorable; its record stays.
    dashboard = client.get(reverse("dashboard"))
    assert list(dashboard.context["archived_characters"]) == []
    assert client.post(reverse("character_restore", args=[character.pk])).status_code == 404
    events = CharacterEvent.objects.filter(character_id=character.pk)
    assert list(events.values_list("action", flat=True)) == [
        "character_created",
        "trait_added",
        "character_deleted",
    ]


def test_a_draft_a_gm_has_seen_is_archived_not_deleted(character, player, gm, login):
    submitted(character)
    character_withdraw(character=character, actor=player, expected_version=None)
    with pytest.raises(ServiceError, match="archive it instead"):
        character_delete(character=character, actor=player)
    page = login(player).get(reverse("character_delete", args=[character.pk]))
    assert "cannot be deleted" in page.content.decode()
    assert Character.objects.filter(pk=character.pk).exists()


def test_duplicate_makes_a_new_draft_with_the_build_and_ledger(
    character, climbing, player, gm, login
):
    approved(character, gm)
    experience_award(character=character, actor=gm, amount=3, reason="Session 1")
    response = login(player).post(reverse("character_duplicate", args=[character.pk]))
    copy = Character.objects.exclude(pk=character.pk).get()
    assert response.status_code == 302 and response["Location"].endswith(f"/characters/{copy.pk}/")
    assert (copy.name, copy.state, copy.campaign, copy.owner) == (
        "Brogo (copy)",
        Character.State.DRAFT,
        character.campaign,
        player,
    )
    assert copy.traits.get(name="Climbing").level == FAIR
    assert copy.traits.count() == character.traits.count()
    assert copy.experience == 3 and copy.ledger.count() == 1
    event = copy.events.get(action="character_duplicated")
    assert (event.after["from"], event.reason) == (character.pk, "A copy of Brogo")
    # The source is untouched.
    character.refresh_from_db()
    assert character.state == Character.State.APPROVED and character.version > 1


def test_a_duplicate_of_a_character_in_a_campaign_left_goes_on_its_own(character, player, gm):
    Membership.objects.filter(user=player).delete()
    copy = character_duplicate(character=character, actor=player)
    assert copy.campaign is None and copy.ruleset == "mudge"
    with pytest.raises(NotAllowed):
        character_duplicate(character=character, actor=gm)


def test_the_table_sorts_and_filters(campaign, player, login):
    for name in ("Cora", "Abel", "Bree"):
        character_create(owner=player, name=name, campaign=campaign)
    character_create(owner=player, name="Loner", ruleset="mudge")
    Character.objects.filter(name="Abel").update(state=Character.State.APPROVED)
    Character.objects.filter(name="Bree").update(updated_at="2030-01-01T00:00:00Z")
    client = login(player)
    assert table(client) == ["Abel", "Bree", "Cora", "Loner"]
    assert table(client, sort="recent")[0] == "Bree"
    assert table(client, sort="state") == ["Abel", "Bree", "Cora", "Loner"]
    assert table(client, q="re") == ["Bree"]
    assert table(client, state="approved") == ["Abel"]
    assert table(client, campaign="none") == ["Loner"]
    assert table(client, campaign=str(campaign.pk), sort="name") == ["Abel", "Bree", "Cora"]
    # A value that does not fit is ignored, never an error.
    assert table(client, sort="drop table", state="x", campaign="y") == [
        "Abel",
        "Bree",
        "Cora",
        "Loner",
    ]
    body = client.get(reverse("dashboard"), {"q": "nobody"}).content.decode()
    assert "None of your characters fits this filter." in body
    assert 'aria-label="Sort and filter my characters"' in body


def test_a_new_table_offers_no_sorting_before_the_first_character(gm, login):
    body = login(gm).get(reverse("dashboard")).content.decode()
    assert "No characters yet." in body
    assert 'aria-label="Sort and filter my characters"' not in body


def test_a_gm_archives_a_campaign_and_restores_it(campaign, character, gm, player, outsider, login):
    master = login(gm)
    response = master.post(reverse("campaign_archive", args=[campaign.pk]))
    assert response.status_code == 302
    assert list(master.get(reverse("dashboard")).context["gm_campaigns"]) == []
    assert list(login(player).get(reverse("dashboard")).context["player_campaigns"]) == []
    assert table(login(player)) == ["Brogo"]  # the player's character stays theirs
    with pytest.raises(ServiceError, match="archived: its GM takes no new players"):
        campaign_join(user=outsider, code=campaign.invite_code)
    assert login(player).post(reverse("campaign_archive", args=[campaign.pk])).status_code == 404
    campaign_restore(campaign=campaign, actor=gm)
    assert [c.name for c in master.get(reverse("dashboard")).context["gm_campaigns"]] == [
        "The Watch"
    ]
    with pytest.raises(ServiceError, match="not archived"):
        campaign_restore(campaign=campaign, actor=gm)
    assert list(
        CampaignEvent.objects.filter(campaign=campaign).values_list("action", flat=True)
    ) == ["campaign_archived", "campaign_restored"]
    with pytest.raises(NotAllowed):
        campaign_archive(campaign=campaign, actor=player)


def test_the_history_records_joins_and_leaves(campaign, gm, outsider, login):
    Campaign.objects.filter(pk=campaign.pk).update(invite_code="the-code")
    campaign.refresh_from_db()
    campaign_join(user=outsider, code="the-code")
    campaign_join(user=outsider, code="the-code")  # a second click records nothing
    client = login(outsider)
    assert (
        "Leave <bdi>The Watch</bdi>?"
        in client.get(reverse("campaign_leave", args=[campaign.pk])).content.decode()
    )
    assert client.post(reverse("campaign_leave", args=[campaign.pk])).status_code == 302
    assert not Membership.objects.filter(user=outsider).exists()
    campaign_join(user=outsider, code="the-code")
    membership_remove(membership=Membership.objects.get(user=outsider), actor=gm)
    events = CampaignEvent.objects.filter(campaign=campaign).order_by("id")
    assert [(e.action, e.actor.username, e.target) for e in events] == [
        ("member_joined", "outsider", "user:outsider"),
        ("member_left", "outsider", "user:outsider"),
        ("member_joined", "outsider", "user:outsider"),
        ("member_removed", "gm", "user:outsider"),
    ]
    page = login(gm).get(reverse("campaign_history", args=[campaign.pk])).content.decode()
    for title in ("Player joined", "Player left", "Member removed"):
        assert title in page
    # Nobody else removes a player.
    campaign_join(user=outsider, code="the-code")
    with pytest.raises(NotAllowed):
        membership_remove(
            membership=Membership.objects.get(user=outsider),
            actor=Membership.objects.exclude(user=outsider).first().user,
        )
