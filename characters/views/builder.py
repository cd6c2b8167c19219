"""The live character builder. Each edit is one small POST: with htmx the changed row comes
back with the budget panel swapped out of band; without JavaScript the same forms post
normally and the page redirects back. Invalid input re-renders with the message and a 400;
a stale or locked write is refused with a 409 and nothing is saved."""

from dataclasses import dataclass
from urllib.parse import urlencode

from django.contrib import messages
from django.db.models import prefetch_related_objects
from django.http import Http404
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from characters.adapters import TRAIT_LISTS, ruleset_for
from characters.errors import ServiceError
from characters.forms.builder import (
    DetailsForm,
    EquipmentForm,
    NewCharacterForm,
    PersonalityForm,
    TraitForm,
    equipment_words,
)
from characters.models import CHARACTER_FIELDS, Campaign, Character, Trait
from characters.pages.builder import builder_context, shown_verdict
from characters.pages.builder_news import (
    added_words,
    gift_brought_words,
    gift_taken_away_words,
    news_words,
    saved_words,
    shown_words,
)
from characters.pages.picker import (
    PICKER_KINDS,
    choose_picker_level,
    open_picks,
    pick_again,
    picker_alone,
    section_of,
)
from characters.selectors.access import character_for_owner, character_for_viewer
from characters.services import rows as row_services
from characters.services.characters import character_create, character_update_details
from characters.services.templates import character_apply_template
from characters.services.undo import character_undo_edit
from characters.views.htmx import (
    done,
    fragments,
    news,
    oob_append,
    posted_version,
    refused,
    reload_page,
    with_version,
)
from characters.views.methods import page_with_form

PAGE = "characters/builder.html"
PICKER = "characters/picker.html"


@require_safe
def character_builder(request, pk):
    character = character_for_viewer(request.user, pk)
    context = builder_context(
        character, template_slug=request.GET.get("template", ""), viewer=request.user
    )
    context["can_edit"] = character.owner_id == request.user.pk and not character.is_locked
    # Check pressed with no template chosen: the panel says to choose one.
    context["template_asked"] = "template" in request.GET
    context["open_picker"] = kind = request.GET.get("picker", "")
    if kind:
        # The one list shown whole: the page, or with htmx the picker alone, its costs at
        # the level its Add at was set to (which draws it again, or Undo and Redo sent).
        choose_picker_level(context, kind, request.GET.get("level"))
        context["open_picks"] = open_picks(context, kind)
        if request.htmx:
            return _picker(request, character, context)
    return render(request, PAGE, context)


def _picker(request, character, context):
    """One catalogue picker with its whole list, as the builder page shows it open."""
    if context["open_picks"] is None:
        raise Http404("There is no such list in this character's rules.")
    context |= picker_alone(context, character.pk)
    return render(request, PICKER, context)


@page_with_form
def character_new(request):
    campaigns = Campaign.objects.joined_by(request.user)
    initial = {"campaign": request.GET.get("campaign")} if request.GET.get("campaign") else {}
    form = NewCharacterForm(request.POST or None, campaigns=campaigns, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            character = character_create(
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
def trait_add(request, pk, kind):
    character = character_for_owner(request.user, pk)
    ruleset = ruleset_for(character)
    if kind not in Trait.Kind.values or TRAIT_LISTS[kind] not in ruleset.terms.lists:
        raise Http404("There is no such kind of trait in this character's rules.")
    place = Place(f"add-{kind}", "add_trait", kind=kind)
    form = TraitForm(request.POST, kind=kind, ruleset=ruleset, auto_id=f"{place.key}-%s")
    had = {t.pk for t in character.traits.all()}

    def added(trait) -> "Changed":
        brought = _brought(character, trait, had)
        attribute = Trait.Kind.ATTRIBUTE
        return Changed(
            f"trait-{trait.pk}",
            [
                Place(f"trait-{trait.pk}", "trait_row", trait_pk=trait.pk, append_to=kind),
                *(
                    Place(f"trait-{r.pk}", "trait_row", trait_pk=r.pk, append_to=attribute)
                    for r in brought
                ),
            ],
            reset=place,
            said=gift_brought_words(ruleset, trait),
            added=(trait.name, f"trait-{trait.pk}"),
            brought=tuple((r.name, f"trait-{r.pk}") for r in brought),
            pick=_open_pick(request, trait),
        )

    return _edit(
        request,
        character,
        form,
        place,
        write=lambda version: row_services.trait_add(
            character=character,
            actor=request.user,
            expected_version=version,
            kind=kind,
            **row_services.trait_fields_with_catalog(
                ruleset=ruleset, kind=kind, fields=form.trait_fields()
            ),
        ),
        changed=added,
    )


def _brought(character, gift, had: set[int]) -> list[Trait]:
    """The attribute the gift just brought (Magery: Mana), whose row joins the attributes:
    any attribute the character did not have before the write."""
    if gift.kind != Trait.Kind.GIFT:
        return []
    return list(character.traits.filter(kind=Trait.Kind.ATTRIBUTE).exclude(pk__in=had))


def _removed(character, trait, request) -> "Changed":
    said = gift_taken_away_words(
        ruleset_for(character),
        character,
        trait,
        attribute_removed=request.POST.get("attribute") == "remove",
    )
    # An attribute that went with its gift leaves another list: the whole page again.
    return Changed(
        f"section-{trait.kind}", [], said=said, reload=bool(said), pick=_open_pick(request, trait)
    )


def _open_pick(request, trait) -> tuple[str, str] | None:
    """The trait's entry in its list's picker, when the post says that picker is open (its
    form's `picker`, which a row's remove button includes): it shows whether the list has
    it, and the write just changed that."""
    return (trait.kind, trait.name) if request.POST.get("picker") == trait.kind else None


@require_POST
def trait_update(request, pk, trait_pk):
    character = character_for_owner(request.user, pk)
    trait = _row(character.traits, trait_pk)
    place = Place(f"trait-{trait.pk}", "trait_row", trait_pk=trait.pk)
    ruleset = ruleset_for(character)
    form = TraitForm(
        request.POST,
        kind=trait.kind,
        ruleset=ruleset,
        keep_level=trait.level,
        auto_id=f"{place.key}-%s",
    )

    def changes() -> dict:
        fields = form.trait_fields()
        if trait.kind == Trait.Kind.POWER:  # a power renamed to a listed one takes its kind
            return row_services.trait_fields_with_catalog(
                ruleset=ruleset, kind=trait.kind, fields=fields
            )
        return fields

    return _edit(
        request,
        character,
        form,
        place,
        write=lambda version: row_services.trait_update(
            trait=trait, actor=request.user, expected_version=version, **changes()
        ),
        # Changed in place (services.rows.trait_update): what this view holds is saved.
        changed=lambda saved: Changed(
            place.key, [place], reads=None if saved.character is character else ("traits",)
        ),
    )


@require_POST
def trait_delete(request, pk, trait_pk):
    character = character_for_owner(request.user, pk)
    trait = _row(character.traits, trait_pk)
    return _edit(
        request,
        character,
        write=lambda version: row_services.trait_remove(
            trait=trait,
            actor=request.user,
            expected_version=version,
            # A gift that brings an attribute: the player chose whether it goes too.
            with_attribute=request.POST.get("attribute") == "remove",
        ),
        changed=lambda _: _removed(character, trait, request),
    )


@require_POST
def equipment_add(request, pk):
    character = character_for_owner(request.user, pk)
    place = Place("add-equipment", "add_equipment")
    ruleset = ruleset_for(character)
    form = EquipmentForm(request.POST, words=equipment_words(ruleset), auto_id=f"{place.key}-%s")
    return _edit(
        request,
        character,
        form,
        place,
        write=lambda version: row_services.equipment_add(
            character=character,
            actor=request.user,
            expected_version=version,
            **row_services.equipment_fields_with_catalog(
                ruleset=ruleset, fields=form.item_fields()
            ),
        ),
        changed=lambda item: Changed(
            f"equipment-{item.pk}",
            [
                Place(
                    f"equipment-{item.pk}", "equipment_row", item_pk=item.pk, append_to="equipment"
                )
            ],
            reset=place,
            reads=("equipment",),
            added=(item.name, f"equipment-{item.pk}"),
        ),
    )


@require_POST
def equipment_update(request, pk, item_pk):
    character = character_for_owner(request.user, pk)
    item = _row(character.equipment, item_pk)
    place = Place(f"equipment-{item.pk}", "equipment_row", item_pk=item.pk)
    words = equipment_words(ruleset_for(character))
    form = EquipmentForm(request.POST, words=words, auto_id=f"{place.key}-%s")
    return _edit(
        request,
        character,
        form,
        place,
        write=lambda version: row_services.equipment_update(
            item=item, actor=request.user, expected_version=version, **form.item_fields()
        ),
        changed=lambda _: Changed(place.key, [place], reads=("equipment",)),
    )


@require_POST
def equipment_delete(request, pk, item_pk):
    character = character_for_owner(request.user, pk)
    item = _row(character.equipment, item_pk)
    return _edit(
        request,
        character,
        write=lambda version: row_services.equipment_remove(
            item=item, actor=request.user, expected_version=version
        ),
        changed=lambda _: Changed("section-equipment", [], reads=("equipment",)),
    )


@require_POST
def details_update(request, pk):
    character = character_for_owner(request.user, pk)
    place = Place("details", "details")
    form = DetailsForm(request.POST, ruleset=ruleset_for(character), auto_id=f"{place.key}-%s")
    return _edit(
        request,
        character,
        form,
        place,
        write=lambda version: character_update_details(
            character=character,
            actor=request.user,
            expected_version=version,
            **form.detail_fields(),
        ),
        changed=lambda _: Changed(place.key, [place], reads=(), panels=("identity",)),
    )


@require_POST
def personality_update(request, pk):
    character = character_for_owner(request.user, pk)
    place = Place("personality", "personality")
    form = PersonalityForm(request.POST, auto_id=f"{place.key}-%s")
    return _edit(
        request,
        character,
        form,
        place,
        write=lambda version: character_update_details(
            character=character,
            actor=request.user,
            expected_version=version,
            notes=form.cleaned_data["notes"],
            personality=form.personality(),
        ),
        changed=lambda _: Changed(place.key, [place], reads=()),
    )


# -- whole-build changes: plain forms, the page comes back with what was done -------------


@require_POST
def template_apply(request, pk):
    character = character_for_owner(request.user, pk)
    slug = request.POST.get("template", "")
    return _redone(
        request,
        character,
        write=lambda version: character_apply_template(
            character=character, actor=request.user, expected_version=version, slug=slug
        ),
        said=lambda changed: (
            _("Template applied: {changes}. Undo takes it back.").format(changes=", ".join(changed))
            if changed
            else _("Every minimum was met.")
        ),
        # Its news answers beside the panel (static/js/fairsheet.js), or at the page's top.
        query=f"?template={slug}",
    )


@require_POST
def edit_undo(request, pk):
    return _undone(request, pk, redo=False)


@require_POST
def edit_redo(request, pk):
    return _undone(request, pk, redo=True)


def _undone(request, pk, *, redo: bool):
    character = character_for_owner(request.user, pk)
    return _redone(
        request,
        character,
        write=lambda version: character_undo_edit(
            character=character, actor=request.user, expected_version=version, redo=redo
        ),
        said=lambda label: (_("Redone: {label}.") if redo else _("Undone: {label}.")).format(
            label=label
        ),
        query=_query_reopening_picker(request),
    )


def _query_reopening_picker(request) -> str:
    """The page's query that opens the catalogue picker open when Undo or Redo was pressed
    (its `picker` input, which they include) at the level its Add at was set to, or none."""
    kind = next((k for k in request.POST.getlist("picker") if k in PICKER_KINDS), "")
    if not kind:
        return ""
    level = request.POST.get("level")
    return "?" + urlencode({"picker": kind} | ({"level": level} if level is not None else {}))


# -- the one shape of an edit ------------------------------------------------------------


@dataclass(frozen=True)
class Place:
    """Where one of the builder's forms is on the page: its key in builder_context's
    `forms`, the partial that renders it, and the row or section it is about."""

    key: str
    partial: str
    trait_pk: int | None = None
    item_pk: int | None = None
    kind: str | None = None
    append_to: str | None = None  # a new row, appended to this list out of band


@dataclass
class Changed:
    """What a write changed on the page: where a plain post lands back (`anchor`), the
    fragments that show the change, and the add form to empty for the next row."""

    anchor: str
    rows: list[Place]
    reset: Place | None = None
    # What to read again: traits, equipment, only the character's own fields (), or nothing
    # at all (None: the write changed the copies the view holds).
    reads: tuple[str, ...] | None = ("traits",)
    # Partials outside the form that show what changed, swapped out of band.
    panels: tuple[str, ...] = ()
    # What else the write did, in words for the player (a gift's attribute, Mudge 2.5)
    said: str = ""
    reload: bool = False  # the fragments cannot show it all: the whole page again
    # The row the write added and the rows that came with it (Mana), each (name, id of its
    # row): the answer links to them.
    added: tuple[str, str] | None = None
    brought: tuple[tuple[str, str], ...] = ()
    # The open catalogue picker's entry the write added or removed, (its list's kind, its
    # name): drawn again, out of band, as the list has it now.
    pick: tuple[str, str] | None = None


def _edit(request, character, form=None, place=None, *, write, changed):
    """Every row edit: a form that does not validate comes back with its messages (400); a
    write the service refuses says why, under the form when it is about what was typed,
    else in #alerts (409 when stale or locked); a write that worked answers with the
    fragments `changed` names, and everything else on the page that shows the report."""
    if form is not None and not form.is_valid():
        return _invalid(request, character, form, place)
    version = form.cleaned_data["version"] if form is not None else posted_version(request)
    shown = shown_verdict(character) if request.htmx else None  # what the page shows now
    try:
        result = write(version)
    except ServiceError as error:
        return _refused(request, character, error, form, place)
    return _changed(request, character, shown, changed(result))


def _redone(request, character, *, write, said, query=""):
    try:
        result = write(posted_version(request))
    except ServiceError as error:
        return _refused(request, character, error)
    messages.success(request, said(result))
    # The whole build may have changed (an undo, a template): the page again, also under htmx.
    return done(request, reverse("character_builder", args=[character.pk]) + query)


def _changed(request, character, shown, changed: Changed):
    """Success: for htmx the changed fragments, the budget panel, bar and Undo out of band,
    and the issue marks and review verdict that the edit changed; else a redirect back to
    the page at the changed row."""
    done = news_words(added_words(changed.added), changed.said, shown_words(changed.brought))
    if done and (changed.reload or not request.htmx):
        messages.info(request, done)
    if not request.htmx:
        return redirect(reverse("character_builder", args=[character.pk]) + f"#{changed.anchor}")
    if changed.reload:
        return reload_page()
    if changed.reads is not None:
        character = _as_committed(character, changed.reads)
        if character is None:  # another write came in between: the page shows neither
            return reload_page()
    context = {**builder_context(character), "can_edit": True}
    # The main content replaces the element that posted (a row, or an emptied add form for
    # the next row); a new row is appended to its list out of band.
    places = ([changed.reset] if changed.reset else []) + changed.rows
    html = [_fragment(request, context, place) for place in places]
    html += [
        render_to_string(f"{PAGE}#{partial}", {**context, "oob": True}, request=request)
        for partial in ("edit_panels", *changed.panels)
    ]
    # A designed game's derived values and trackers follow the build: their panel too.
    if context["derived_rows"] or context["tracker_rows"]:
        html.append(
            render_to_string(f"{PAGE}#game_values", {**context, "oob": True}, request=request)
        )
    html += _verdict_changes(request, context, shown, context["verdict"], skip=places)
    entry = pick_again(context, *changed.pick) if changed.pick else None
    if entry is not None:
        html.append(render_to_string(f"{PICKER}#pick", {**context, **entry}, request=request))
    # What was saved, the rows added, what else the write did (a gift's attribute, Mudge
    # 2.5), and Undo: the answer shows beside the form that sent it, where the player is.
    actions = render_to_string(f"{PAGE}#answer_actions", context, request=request)
    said = news_words(saved_words(context), done)
    html.append(news(request, said, actions=actions))
    return with_version(fragments(*html), character.version)


def _verdict_changes(request, context, before, after, *, skip):
    """The rest of the page that shows the report, out of band where the edit changed it:
    one edit can break or mend a rule on another row (a second Superb attribute), and the
    review panel counts the broken rules. `before` is None when the page was drawn under
    rules the GM has changed since: every mark and the review verdict are drawn again."""
    replaced = {place.trait_pk for place in skip}
    marks = [
        row
        for section in context["sections"]
        for row in section.rows
        if row.trait.pk not in replaced
        and (before is None or before.marks.get(row.trait.pk) != after.marks.get(row.trait.pk))
    ]
    html = []
    if marks:
        html.append(
            render_to_string(
                f"{PAGE}#row_issues_of", {**context, "rows": marks, "oob": True}, request=request
            )
        )
    character = context["character"]
    in_review = character.campaign_id is not None and character.state in (
        Character.State.DRAFT,
        Character.State.CHANGES_REQUESTED,
    )
    if in_review and (before is None or before.broken != after.broken):
        html.append(
            render_to_string(
                "review/character_status.html#review_verdict",
                {**context, "oob": True},
                request=request,
            )
        )
    return html


def _fragment(request, context, place: Place) -> str:
    context = {**context, "oob": False}
    if place.trait_pk is not None:
        section, row = _find_row(context["sections"], place.trait_pk)
        context.update(section=section, row=row)
    if place.item_pk is not None:
        context["row"] = next(r for r in context["equipment_rows"] if r.trait.pk == place.item_pk)
    if place.kind is not None:
        context["section"] = section_of(context, place.kind)
    html = render_to_string(f"{PAGE}#{place.partial}", context, request=request)
    return oob_append(html, to=f"#rows-{place.append_to}") if place.append_to else html


def _find_row(sections, trait_pk):
    for section in sections:
        for row in section.rows:
            if row.trait.pk == trait_pk:
                return section, row
    raise LookupError(trait_pk)


def _invalid(request, character, form, place: Place):
    """A form that did not validate: its fragment (htmx) or the whole page, with a 400."""
    context = {**builder_context(character, forms={place.key: form}), "can_edit": True}
    if request.htmx:
        return fragments(_fragment(request, context, place), status=400)
    return render(request, PAGE, context, status=400)


def _refused(request, character, error: ServiceError, form=None, place=None):
    """A write the service refused (stale, locked, a name clash): nothing was saved."""
    if error.status == 400 and form is not None:
        form.add_error(None, str(error))
        return _invalid(request, character, form, place)
    back = reverse("character_builder", args=[character.pk])
    if request.htmx:
        response = refused(request, str(error), status=error.status, back=back)
        if place is not None and place.partial in SAVED_AGAIN:
            response.content += _saved_again(request, character, place).encode()
        return response
    messages.error(request, str(error))
    character = character_for_owner(character.owner, character.pk)  # another tab's change
    context = {**builder_context(character), "can_edit": not character.is_locked}
    return render(request, PAGE, context, status=error.status)


# A refused edit of one of these puts the saved row back, out of band: the page must not
# go on showing a value that was not saved ("Great" beside "0 attribute levels").
SAVED_AGAIN = ("trait_row", "equipment_row", "details", "personality")


def _saved_again(request, character, place: Place) -> str:
    character = character_for_owner(character.owner, character.pk)
    context = {**builder_context(character), "can_edit": not character.is_locked}
    try:
        return _fragment(request, {**context, "saved_again": True}, place)
    except (LookupError, StopIteration):  # the row is gone meanwhile: nothing to put back
        return ""


# -- reading ---------------------------------------------------------------------------------


def _row(rows, pk):
    """A trait or piece of equipment of the character, from the rows already read."""
    found = next((row for row in rows.all() if row.pk == pk), None)
    if found is None:
        raise Http404("The character has no such row.")
    return found


def _as_committed(character, rows: tuple[str, ...]):
    """The character as the write left it: its own fields, and the `rows` the write
    changed, read again. The rest (its other rows, ledger, campaign, owner) stays as read
    before the write, which the service made only if nothing had changed since (the version
    check). None when another write has come in since this one: fragments of this one
    alone would show the page a version it has not seen."""
    loaded = character.version
    character.refresh_from_db(fields=[*CHARACTER_FIELDS, *rows])
    character.__dict__.pop("latest_event", None)  # a cached property refresh_from_db keeps
    if character.version not in (loaded, loaded + 1):  # the same: the write changed nothing
        return None
    prefetch_related_objects([character], *rows)
    return character
