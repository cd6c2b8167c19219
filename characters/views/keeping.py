"""Keeping characters and campaigns: archive, restore, delete a draft, duplicate; a GM
archives a campaign, a player leaves one. Plain forms (a confirmation page where nothing
brings it back), each answered by a redirect and a message."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from characters.errors import ServiceError
from characters.models import Character
from characters.selectors.access import (
    archived_character_for_owner,
    campaign_for_gm,
    character_for_owner,
    membership_of,
)
from characters.services import keeping
from characters.services.campaigns import membership_remove
from characters.views.methods import page_with_form

TABLE = "dashboard"


def _run(request, write, said: str, *, back: str):
    try:
        write()
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect(back)
    messages.success(request, said)
    return redirect(back)


@require_POST
def character_archive(request, pk):
    character = character_for_owner(request.user, pk)
    return _run(
        request,
        lambda: keeping.character_archive(character=character, actor=request.user),
        gettext("{name} is archived: find it under Archived on your table to restore it.").format(
            name=character.name
        ),
        back=reverse(TABLE),
    )


@require_POST
def character_restore(request, pk):
    character = archived_character_for_owner(request.user, pk)
    return _run(
        request,
        lambda: keeping.character_restore(character=character, actor=request.user),
        gettext("{name} is back on your table.").format(name=character.name),
        back=reverse(TABLE),
    )


@require_POST
def character_duplicate(request, pk):
    character = character_for_owner(request.user, pk)
    try:
        copy = keeping.character_duplicate(character=character, actor=request.user)
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect(TABLE)
    messages.success(
        request,
        gettext("{copy}: a new draft, copied from {name}.").format(
            copy=copy.name, name=character.name
        ),
    )
    return redirect("character_builder", copy.pk)


@page_with_form
def character_delete(request, pk):
    """A confirmation page, then the POST that deletes the draft for good."""
    character = get_object_or_404(
        Character.all_objects.filter(owner=request.user, deleted_at__isnull=True), pk=pk
    )
    if request.method == "POST":
        return _run(
            request,
            lambda: keeping.character_delete(character=character, actor=request.user),
            gettext("{name} is deleted.").format(name=character.name),
            back=reverse(TABLE),
        )
    context = {"character": character, "deletable": keeping.deletable(character)}
    return render(request, "characters/delete.html", context)


@require_POST
def campaign_archive(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    return _run(
        request,
        lambda: keeping.campaign_archive(campaign=campaign, actor=request.user),
        gettext(
            "{name} is archived: its invite no longer works. Restore it from your table."
        ).format(name=campaign.name),
        back=reverse(TABLE),
    )


@require_POST
def campaign_restore(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    return _run(
        request,
        lambda: keeping.campaign_restore(campaign=campaign, actor=request.user),
        gettext("{name} is back on your table.").format(name=campaign.name),
        back=reverse("campaign_detail", args=[pk]),
    )


@page_with_form
def campaign_leave(request, pk):
    """A confirmation page, then the POST by which a player leaves the campaign."""
    membership = membership_of(request.user, pk)
    campaign = membership.campaign
    if request.method == "POST":
        membership_remove(membership=membership, actor=request.user)
        messages.success(request, gettext("You left {name}.").format(name=campaign.name))
        return redirect(TABLE)
    characters = Character.objects.filter(campaign=campaign, owner=request.user)
    return render(request, "campaigns/leave.html", {"campaign": campaign, "characters": characters})
