"""Mudge 1.7's uncommitted traits: the GM (or, outside a campaign, the owner) defines one in
play. A plain form on the builder page: it posts, and the page comes back with the message."""

from django.contrib import messages
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from characters.adapters import ruleset_for
from characters.errors import ServiceError
from characters.forms.builder import UncommittedForm
from characters.pages.builder import builder_context
from characters.selectors.access import character_for_uncommitted, character_for_viewer
from characters.services.rows import trait_define_uncommitted


@require_POST
def uncommitted_define(request, pk):
    character = character_for_uncommitted(request.user, pk)
    form = UncommittedForm(request.POST, ruleset=ruleset_for(character), auto_id="uncommitted-%s")
    if form.is_valid():
        data = form.cleaned_data
        try:
            trait = trait_define_uncommitted(
                character=character,
                actor=request.user,
                expected_version=data["version"],
                name=data["name"],
                level=data["level"],
                difficulty=data.get("difficulty", ""),
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(
                request, _("{name} defined in play (uncommitted trait).").format(name=trait.name)
            )
            return redirect(reverse("character_builder", args=[pk]) + "#uncommitted")
    character = character_for_viewer(request.user, pk)
    context = builder_context(character, forms={"uncommitted": form}, viewer=request.user)
    context["can_edit"] = character.owner_id == request.user.pk and not character.is_locked
    return render(request, "characters/builder.html", context, status=400)
