"""The live character builder. Each edit is one small POST: with htmx the changed row comes
back with the budget panel swapped out of band; without JavaScript the same forms post
normally and the page redirects back. Invalid input re-renders with the message and a 400;
a stale or locked write is refused with a 409 and nothing is saved."""

import json

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.views.decorators.http import require_POST

from characters.adapters import ruleset_for, to_decimal
from characters.errors import ServiceError
from characters.forms.builder import (
    DetailsForm,
    EquipmentForm,
    NewCharacterForm,
    PersonalityForm,
    TraitForm,
)
from characters.models import Campaign, Character, Trait
from characters.selectors.access import character_for_owner, character_for_viewer
from characters.services import characters as services
from characters.views.builder_page import builder_context

PAGE = "characters/builder.html"


def character_builder(request, pk):
    character = character_for_viewer(request.user, pk)
    context = builder_context(
        character, template_slug=request.GET.get("template", ""), viewer=request.user
    )
    context["can_edit"] = character.owner_id == request.user.pk and not character.is_locked
    return render(request, PAGE, context)


def character_new(request):
    campaigns = Campaign.objects.filter(memberships__user=request.user).distinct()
    initial = {"campaign": request.GET.get("campaign")} if request.GET.get("campaign") else {}
    form = NewCharacterForm(request.POST or None, campaigns=campaigns, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            character = services.character_create(
                owner=request.user,
                name=form.cleaned_data["name"],
                concept=form.cleaned_data["concept"],
                campaign=form.cleaned_data["campaign"],
                ruleset=form.cleaned_data["ruleset"] or None,
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            return redirect("character_builder", character.pk)
    status = 400 if form.errors else 200
    return render(request, "characters/new.html", {"form": form}, status=status)


# -- row edits ---------------------------------------------------------------------------


@require_POST
def trait_create(request, pk, kind):
    character = character_for_owner(request.user, pk, with_rows=False)
    if kind not in dict(Trait.KINDS):
        return _refused(request, character, "There is no such kind of trait.", status=404)
    ruleset = ruleset_for(character)
    form = TraitForm(request.POST, kind=kind, ruleset=ruleset, auto_id=f"add-{kind}-%s")
    if not form.is_valid():
        return _invalid(request, character, f"add-{kind}", form, "add_trait", kind=kind)
    fields = _with_catalogue_defaults(ruleset, kind, form.trait_fields())
    try:
        trait = services.trait_add(
            character=character,
            actor=request.user,
            expected_version=form.cleaned_data["version"],
            kind=kind,
            **fields,
        )
    except ServiceError as error:
        return _refused(
            request,
            character,
            str(error),
            status=error.status,
            form=form,
            key=f"add-{kind}",
            partial="add_trait",
            kind=kind,
        )
    return _changed(
        request,
        character,
        anchor=f"trait-{trait.pk}",
        rows=[("trait_row", {"trait_pk": trait.pk, "append_to": kind})],
        reset_add=kind,
    )


@require_POST
def trait_update(request, pk, trait_pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    trait = get_object_or_404(Trait, pk=trait_pk, character=character)
    form = TraitForm(
        request.POST,
        kind=trait.kind,
        ruleset=ruleset_for(character),
        auto_id=f"trait-{trait.pk}-%s",
    )
    if not form.is_valid():
        return _invalid(
            request, character, f"trait-{trait.pk}", form, "trait_row", trait_pk=trait.pk
        )
    try:
        services.trait_update(
            trait=trait,
            actor=request.user,
            expected_version=form.cleaned_data["version"],
            **form.trait_fields(),
        )
    except ServiceError as error:
        return _refused(
            request,
            character,
            str(error),
            status=error.status,
            form=form,
            key=f"trait-{trait.pk}",
            partial="trait_row",
            trait_pk=trait.pk,
        )
    return _changed(
        request, character, anchor=f"trait-{trait.pk}", rows=[("trait_row", {"trait_pk": trait.pk})]
    )


@require_POST
def trait_delete(request, pk, trait_pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    trait = get_object_or_404(Trait, pk=trait_pk, character=character)
    try:
        services.trait_remove(
            trait=trait, actor=request.user, expected_version=_posted_version(request)
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    return _changed(request, character, anchor=f"section-{trait.kind}", rows=[])


@require_POST
def equipment_create(request, pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    form = EquipmentForm(request.POST, ruleset=ruleset_for(character), auto_id="add-equipment-%s")
    if not form.is_valid():
        return _invalid(request, character, "add-equipment", form, "add_equipment")
    try:
        item = services.equipment_add(
            character=character,
            actor=request.user,
            expected_version=form.cleaned_data["version"],
            **form.item_fields(),
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    return _changed(
        request,
        character,
        anchor=f"equipment-{item.pk}",
        rows=[("equipment_row", {"item_pk": item.pk, "append_to": "equipment"})],
        reset_add="equipment",
    )


@require_POST
def equipment_update(request, pk, item_pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    item = get_object_or_404(character.equipment, pk=item_pk)
    form = EquipmentForm(
        request.POST, ruleset=ruleset_for(character), auto_id=f"equipment-{item.pk}-%s"
    )
    if not form.is_valid():
        return _invalid(
            request, character, f"equipment-{item.pk}", form, "equipment_row", item_pk=item.pk
        )
    try:
        services.equipment_update(
            item=item,
            actor=request.user,
            expected_version=form.cleaned_data["version"],
            **form.item_fields(),
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    return _changed(
        request,
        character,
        anchor=f"equipment-{item.pk}",
        rows=[("equipment_row", {"item_pk": item.pk})],
    )


@require_POST
def equipment_delete(request, pk, item_pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    item = get_object_or_404(character.equipment, pk=item_pk)
    try:
        services.equipment_remove(
            item=item, actor=request.user, expected_version=_posted_version(request)
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    return _changed(request, character, anchor="section-equipment", rows=[])


@require_POST
def details_update(request, pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    form = DetailsForm(request.POST, ruleset=ruleset_for(character), auto_id="details-%s")
    if not form.is_valid():
        return _invalid(request, character, "details", form, "details")
    try:
        services.character_update_details(
            character=character,
            actor=request.user,
            expected_version=form.cleaned_data["version"],
            **form.detail_fields(),
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    return _changed(request, character, anchor="details", rows=[("details", {})])


@require_POST
def personality_update(request, pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    form = PersonalityForm(request.POST, auto_id="personality-%s")
    if not form.is_valid():
        return _invalid(request, character, "personality", form, "personality")
    try:
        services.character_update_details(
            character=character,
            actor=request.user,
            expected_version=form.cleaned_data["version"],
            notes=form.cleaned_data["notes"],
            personality=form.personality(),
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    return _changed(request, character, anchor="personality", rows=[("personality", {})])


@require_POST
def template_apply(request, pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    slug = request.POST.get("template", "")
    try:
        changed = services.character_apply_template(
            character=character,
            actor=request.user,
            expected_version=_posted_version(request),
            slug=slug,
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    messages.success(
        request,
        "Template applied: " + ", ".join(changed) if changed else "Every minimum was met.",
    )
    return redirect(reverse("character_builder", args=[pk]) + f"?template={slug}")


@require_POST
def template_undo(request, pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    try:
        name = services.character_undo_template(
            character=character, actor=request.user, expected_version=_posted_version(request)
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    messages.success(request, f"Undone: the build is back as it was before {name}.")
    return redirect(reverse("character_builder", args=[pk]))


@require_POST
def edit_undo(request, pk):
    character = character_for_owner(request.user, pk, with_rows=False)
    try:
        label = services.character_undo_edit(
            character=character, actor=request.user, expected_version=_posted_version(request)
        )
    except ServiceError as error:
        return _refused(request, character, str(error), status=error.status)
    messages.success(request, f"Undone: {label}.")
    return redirect(reverse("character_builder", args=[pk]))


# -- responses ---------------------------------------------------------------------------


def _posted_version(request) -> int | None:
    try:
        return int(request.POST["version"])
    except (KeyError, ValueError):
        return None  # a form without a version: checked for locks, not staleness


def _with_catalogue_defaults(ruleset, kind, fields: dict) -> dict:
    """A skill picked from the catalogue (the campaign's, else the ruleset's own) takes its
    difficulty, "Area Knowledge (the Shire)" that of "Area Knowledge"; a gift or fault its
    cost (Mudge 1.33's starred ones: 2)."""
    catalog, name = ruleset.catalog, fields["name"]
    if kind == Trait.SKILL and ruleset.skill_difficulties and not fields.get("difficulty"):
        entry = catalog.skill(name)
        if entry is not None:
            fields["difficulty"] = entry.difficulty
    elif kind in (Trait.GIFT, Trait.FAULT) and "cost" not in fields:
        entry = catalog.gift(name) if kind == Trait.GIFT else catalog.fault(name)
        if entry is not None:
            fields["cost"] = to_decimal(entry.cost if kind == Trait.GIFT else entry.value)
    return fields


def _fresh(character):
    # Re-read with the rows prefetched: the panel and rows show what was just committed.
    return character_for_owner(character.owner, character.pk)


def _changed(request, character, *, anchor, rows, reset_add=None):
    """Success: for htmx the changed fragments plus the budget panel out of band; else a
    redirect back to the page at the changed row."""
    if not request.htmx:
        return redirect(reverse("character_builder", args=[character.pk]) + f"#{anchor}")
    character = _fresh(character)
    context = builder_context(character)
    context["can_edit"] = True
    # The main content replaces the element that posted (a row, or an emptied add form for
    # the next trait); a new row is appended to its list out of band.
    parts = []
    if reset_add == "equipment":
        parts.append(_fragment(request, "add_equipment", context))
    elif reset_add:
        parts.append(_fragment(request, "add_trait", context, kind=reset_add))
    for partial, extra in rows:
        parts.append(_fragment(request, partial, context, **extra))
    parts.append(_fragment(request, "budget_panel", context, oob=True))
    parts.append(_fragment(request, "budget_bar", context, oob=True))
    parts.append(_fragment(request, "undo_edit", context, oob=True))
    parts.extend(
        _verdict_everywhere(request, context, skip={extra.get("trait_pk") for _, extra in rows})
    )
    response = HttpResponse("".join(parts))
    response["HX-Trigger"] = json.dumps({"versionChanged": {"value": character.version}})
    return response


def _fragment(
    request, partial, context, *, trait_pk=None, item_pk=None, kind=None, append_to=None, oob=False
):
    context = {**context, "oob": oob}
    if trait_pk is not None:
        section, row = _find_row(context["sections"], trait_pk)
        context.update(section=section, row=row)
    if item_pk is not None:
        context["row"] = next(r for r in context["equipment_rows"] if r.trait.pk == item_pk)
    if kind is not None:
        context["section"] = next(s for s in context["sections"] if s.kind == kind)
    html = render_to_string(f"{PAGE}#{partial}", context, request=request)
    if append_to:
        # htmx strips this wrapper and appends what it holds to the list.
        return f'<div hx-swap-oob="beforeend:#rows-{append_to}">{html}</div>'
    return html


def _verdict_everywhere(request, context, *, skip):
    """Everything else on the page that shows the report, out of band, so nothing on it
    disagrees with the budget panel after an edit: every row's issue marks (but the rows
    the response replaces whole) and the review panel's count of broken rules."""
    parts = [
        render_to_string(
            f"{PAGE}#other_row_issues", {**context, "skip": skip, "oob": True}, request=request
        )
    ]
    if context["character"].state in (Character.DRAFT, Character.CHANGES_REQUESTED):
        parts.append(
            render_to_string(
                "review/character_status.html#review_verdict",
                {**context, "oob": True},
                request=request,
            )
        )
    return parts


def _find_row(sections, trait_pk):
    for section in sections:
        for row in section.rows:
            if row.trait.pk == trait_pk:
                return section, row
    raise LookupError(trait_pk)


def _invalid(request, character, key, form, partial, **where):
    """A form that did not validate: its fragment (htmx) or the whole page, with a 400."""
    context = builder_context(_fresh(character), forms={key: form})
    context["can_edit"] = True
    if request.htmx:
        return HttpResponse(_fragment(request, partial, context, **where), status=400)
    return render(request, PAGE, context, status=400)


def _refused(request, character, message, *, status, form=None, key=None, partial=None, **where):
    """A write the service refused (stale, locked, a name clash): nothing was saved."""
    if status == 400 and form is not None:
        form.add_error(None, message)
        return _invalid(request, character, key, form, partial, **where)
    if not request.htmx:
        messages.error(request, message)
        context = builder_context(_fresh(character))
        context["can_edit"] = not character.is_locked
        return render(request, PAGE, context, status=status)
    response = HttpResponse(
        render_to_string(
            f"{PAGE}#alert", {"message": message, "character": character}, request=request
        ),
        status=status,
    )
    response["HX-Retarget"] = "#alerts"
    response["HX-Reswap"] = "innerHTML"
    return response
