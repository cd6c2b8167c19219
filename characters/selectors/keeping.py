"""Reads for the table: the player's characters sorted and filtered, and what they and the
campaigns they run have archived."""

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from characters.models import Campaign, Character

SORTS = {  # key: (label, ordering)
    "name": (_("Name"), ("name", "pk")),
    "recent": (_("Last changed"), ("-updated_at", "pk")),
    "state": (_("State"), ("state", "name", "pk")),
    "campaign": (_("Campaign"), ("campaign__name", "name", "pk")),
}
NO_CAMPAIGN = "none"


def table_characters(user, *, q="", state="", campaign="", sort=""):
    # A GM's NPCs are listed on their campaign's page, not among their own characters.
    characters = Character.objects.owned_by(user).players().with_game()
    if q:
        characters = characters.filter(name__icontains=q)
    if state:
        characters = characters.filter(state=state)
    if campaign == NO_CAMPAIGN:
        characters = characters.filter(campaign__isnull=True)
    elif campaign.isdigit():
        characters = characters.filter(campaign_id=int(campaign))
    return characters.order_by(*SORTS.get(sort, SORTS["name"])[1])


def archived_characters(user):
    return (
        Character.all_objects.filter(owner=user, archived_at__isnull=False, deleted_at__isnull=True)
        .players()  # an archived NPC is restored from its campaign's page
        .select_related("campaign")
        .order_by("-archived_at", "pk")
    )


def archived_campaigns(user):
    return Campaign.objects.run_by(user).archived().order_by("-archived_at", "pk")


def table_campaigns(user):
    """The campaigns the user's characters can be filtered by: those they play or run."""
    return Campaign.objects.filter(Q(memberships__user=user) | Q(gm=user)).distinct()
