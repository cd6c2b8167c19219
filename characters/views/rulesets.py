"""The ruleset designer: a GM's own games (docs/ruleset-file.md). Start one from a built-in
ruleset, nothing or a file; edit it section by section, field by field, with a live preview
(a sample character priced under it, the sheet it prints); each save is a new version;
export it as a file; start a campaign with it; move a campaign onto a newer version after
seeing what it changes for each character."""

from django.contrib import messages
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST, require_safe

from characters.errors import HouseRulesRefused, RulesetRefused, ServiceError
from characters.forms.campaigns import CampaignForm
from characters.forms.designer import SECTIONS, describe, plain
from characters.forms.rulesets import BLANK, DesignImportForm, DesignStartForm
from characters.models import RulesetVersion
from characters.selectors.access import campaign_for_gm
from characters.selectors.campaigns import ruleset_move_preview
from characters.selectors.library import copy_origin, live_publications_of
from characters.selectors.rulesets import design_preview, designed_for_owner, designed_rulesets_of
from characters.services import campaigns as campaign_services
from characters.services import rulesets as services
from characters.views.methods import page_with_form
from characters.wording import said
from rules.charfile import CharacterFileError, load_json
from rules.check import MAX_FILE_BYTES
from rules.ruleset_file import blank_ruleset_file, dumps_ruleset, ruleset_to_json
from rules.rulesets import BUILTIN

LIST_PAGE = "rulesets/designs.html"
DESIGN_PAGE = "rulesets/design.html"
SECTION_PAGE = "rulesets/section.html"
MOVE_PAGE = "rulesets/move.html"


@page_with_form
def design_list(request):
    """My games, and where a new one starts: a built-in ruleset, nothing, or a file."""
    action = request.POST.get("action")
    start_form = DesignStartForm(request.POST if action == "start" else None)
    import_form = DesignImportForm(
        request.POST if action == "import" else None, request.FILES or None
    )
    status = 200
    if request.method == "POST":
        try:
            if start_form.is_bound and start_form.is_valid():
                version = services.designed_ruleset_save(
                    owner=request.user, file=_started(start_form.cleaned_data)
                )
                messages.success(
                    request,
                    _("{name} is yours: change it section by section.").format(
                        name=version.ruleset.name
                    ),
                )
                return redirect("ruleset_design", version.ruleset_id)
            if import_form.is_bound and import_form.is_valid():
                version = services.designed_ruleset_save(
                    owner=request.user,
                    file=_uploaded(import_form.cleaned_data["file"]),
                    note=_("imported from a file"),
                )
                messages.success(request, _("Imported {name}.").format(name=version.ruleset.name))
                return redirect("ruleset_design", version.ruleset_id)
        except RulesetRefused as error:
            form = import_form if import_form.is_bound else start_form
            for where, message in error.problems:
                form.add_error(
                    None,
                    _("{where}: {problem}").format(
                        where=describe(where), problem=plain(said(message))
                    ),
                )
        status = 400
    context = {
        "designs": designed_rulesets_of(request.user),
        "start_form": start_form,
        "import_form": import_form,
    }
    return render(request, LIST_PAGE, context, status=status)


def _started(data) -> dict:
    """The first version of a new design: the built-in's file renamed, or the blank game."""
    start = data["start"]
    file = _blank(data["name"]) if start == BLANK else ruleset_to_json(BUILTIN[start])
    file["name"] = data["name"]
    file["slug"] = slugify(data["name"])[:40].strip("-") or "my-game"
    if file["slug"] in BUILTIN:
        file["slug"] = f"my-{file['slug']}"[:40]
    return file


def _blank(name: str) -> dict:
    """The blank game in the GM's own language: its attributes' names and the sections its
    checks cite are the game's words from the start, which its players read as written."""
    return blank_ruleset_file(
        name,
        (pgettext("attribute", "Body"), pgettext("attribute", "Mind")),
        (_("{game}, character creation"), _("{game}, experience")),
    )


def _uploaded(upload) -> dict:
    if upload.size > MAX_FILE_BYTES:
        raise RulesetRefused([("", _("the file is larger than 16 MB"))])
    try:
        return load_json(upload.read())
    except CharacterFileError as error:
        raise RulesetRefused([(error.where, error.message)]) from None


@require_safe
def design_edit(request, pk):
    """The design at a glance: its sections, each a page of its own, the sample character
    priced under it and the sheet it prints, its versions and the campaigns that play them."""
    designed = designed_for_owner(request.user, pk)
    latest = designed.latest
    context = {
        "designed": designed,
        "latest": latest,
        "versions": designed.versions.order_by("-number"),
        "sections": SECTIONS.values(),
        "preview": design_preview(services.checked_ruleset(latest.file)),
        "campaign_form": CampaignForm(prefix="campaign"),
        "origin": copy_origin(designed),
        "publications": live_publications_of(designed),
    }
    return render(request, DESIGN_PAGE, context)


@page_with_form
def design_section(request, pk, section):
    """One section of the design, field by field. A POST with `add` or `remove` gives the
    form back with a row more or less; with `preview` (the htmx live preview, or the Preview
    button) it checks the whole design with this section as typed and shows the sample
    character; any other POST saves it as a new version. Every problem is shown at once,
    each beside its field."""
    designed = designed_for_owner(request.user, pk)
    kind = SECTIONS.get(section)
    if kind is None:
        raise Http404(_("No such section."))
    latest = designed.latest
    ruleset = services.checked_ruleset(latest.file)
    data = request.POST if request.method == "POST" else None
    editing = data is not None and ("add" in data or "remove" in data)
    saving = data is not None and not editing and "preview" not in data
    new_row = ""
    if editing:
        data, new_row = kind.edited(data)
    stale = saving and data.get("based_on") != str(latest.number)
    if stale:  # the form shows the newest version's number: saving again saves onto it
        data = data.copy()
        data["based_on"] = str(latest.number)
    form = kind(data, file=latest.file, ruleset=ruleset, version=latest.number, new_row=new_row)
    preview, status = None, 200
    if data is None or editing:
        preview = design_preview(ruleset)
    else:
        file, checked = _checked_section(form, latest, stale)
        if not form.has_problems():
            if saving:
                return _save_section(request, designed, latest, form, file)
            preview = design_preview(checked)
        elif saving:
            status = 400
    context = {
        "designed": designed,
        "latest": latest,
        "section": form,
        "sections": SECTIONS.values(),
        "preview": preview,
        "saved_preview": data is None or editing,
    }
    if request.htmx and not editing:
        return render(request, f"{SECTION_PAGE}#preview", context, status=status)
    return render(request, SECTION_PAGE, context, status=status)


def _checked_section(form, latest, stale: bool):
    """The design with the section as typed, and the ruleset it makes (None when the reader
    refuses it: its problems are then on the form, each beside its field)."""
    file, checked = form.file(), None
    try:
        checked = services.checked_ruleset(file)
    except RulesetRefused as error:
        form.add_problems(error.problems)
    if stale:
        form.add_error(
            None,
            _(
                "Version {number} was saved after you opened this page: look the values "
                "over and save again to save them onto it."
            ).format(number=latest.number),
        )
    return file, checked


def _save_section(request, designed, latest, form, file: dict):
    """The design saved as a new version (none when nothing changed), and back to the
    section."""
    version = services.designed_ruleset_save(
        owner=request.user, file=file, note=form.cleaned_data["note"]
    )
    if version.number == latest.number:
        messages.info(
            request, _("Nothing changed: still version {number}.").format(number=latest.number)
        )
    else:
        messages.success(request, _("Saved as version {number}.").format(number=version.number))
    return redirect("ruleset_design_section", designed.pk, form.key)


@require_safe
def design_export(request, pk, number):
    designed = designed_for_owner(request.user, pk)
    version = get_object_or_404(designed.versions, number=number)
    text = dumps_ruleset(services.checked_ruleset(version.file))
    response = HttpResponse(text, content_type="application/json; charset=utf-8")
    name = f"{designed.slug}-v{version.number}.ruleset.json"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


@require_POST
def design_campaign(request, pk):
    """A new campaign playing the design's latest version."""
    designed = designed_for_owner(request.user, pk)
    name = request.POST.get("campaign-name", "")
    try:
        campaign = campaign_services.campaign_create(
            gm=request.user, name=name, ruleset_version=designed.latest
        )
    except (ServiceError, HouseRulesRefused) as error:
        messages.error(request, said(error))  # a house rule's problem: the engine's Phrase
        return redirect("ruleset_design", designed.pk)
    messages.success(
        request,
        _("{name} is ready. Invite your players with the link below.").format(name=campaign.name),
    )
    return redirect("campaign_detail", campaign.pk)


@page_with_form
def campaign_ruleset_move(request, pk, number):
    """What moving the campaign onto version `number` changes for each character; a POST
    with `confirm` moves it and records the move in the campaign's history."""
    campaign = campaign_for_gm(request.user, pk)
    if campaign.ruleset_version_id is None:
        return redirect("campaign_detail", campaign.pk)
    version = get_object_or_404(
        RulesetVersion, ruleset_id=campaign.ruleset_version.ruleset_id, number=number
    )
    try:
        preview = ruleset_move_preview(campaign, version)
    except HouseRulesRefused as error:
        messages.error(
            request,
            _(
                "Version {number} does not take the house rules: {reason}. Change them first."
            ).format(number=number, reason=said(error)),
        )
        return redirect("campaign_detail", campaign.pk)
    if request.method == "POST":
        services.campaign_move_ruleset(
            campaign=campaign,
            actor=request.user,
            version=version,
            reason=request.POST.get("reason", ""),
        )
        messages.success(
            request,
            _("{name} now plays {ruleset}, version {number}.").format(
                name=campaign.name, ruleset=version.ruleset.name, number=version.number
            ),
        )
        return redirect("campaign_detail", campaign.pk)
    context = {"campaign": campaign, "version": version, "preview": preview}
    return render(request, MOVE_PAGE, context)
