"""The instance's library of games (services.library): browse it, preview a game (a sample
character priced under it and the sheet it prints), take a copy or start a campaign on one,
and, for a game's GM, publish a version of it or take it out."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST, require_safe

from characters.adapters import version_ruleset
from characters.errors import HouseRulesRefused, RulesetRefused, ServiceError
from characters.forms.library import LibraryCampaignForm, LibrarySearchForm, PublishForm
from characters.models import PublishedGame
from characters.selectors.library import library_entries, library_entry_for
from characters.selectors.rulesets import design_preview, designed_for_owner, summarize_ruleset
from characters.services import library as services
from characters.views.methods import page_with_form
from characters.wording import said
from rules.rulesets import BUILTIN

LIBRARY_PAGE = "rulesets/library.html"
ENTRY_PAGE = "rulesets/library_entry.html"
PUBLISH_PAGE = "rulesets/publish.html"


@require_safe
def library(request):
    """Every game in the library, found by language and by name (a plain GET form)."""
    form = LibrarySearchForm(request.GET or None)
    language = name = ""
    if form.is_bound and form.is_valid():
        language, name = form.cleaned_data["language"], form.cleaned_data["name"].strip()
    context = {
        "form": form,
        "entries": library_entries(language=language, name=name),
        "filtered": bool(language or name),
    }
    return render(request, LIBRARY_PAGE, context)


# A published game's address gives its `pk`, a built-in's its `slug`: each view below
# serves both (characters/urls.py).


@require_safe
def library_entry(request, pk=None, slug=None):
    """A game's page: what it is, its rules at a glance, a sample character priced under it
    and its sheet, and the buttons that copy it."""
    entry = library_entry_for(request.user, pk=pk, slug=slug)
    if entry.published is None:
        ruleset = BUILTIN[entry.builtin]
    else:
        version = entry.published.version
        ruleset = version_ruleset(version.pk, version.created_at)
    context = {
        "entry": entry,
        "summary": summarize_ruleset(ruleset),
        "preview": design_preview(ruleset),
        "campaign_form": LibraryCampaignForm(),
        "is_publisher": entry.published is not None
        and entry.published.publisher_id == request.user.pk,
    }
    return render(request, ENTRY_PAGE, context)


@require_POST
def library_copy(request, pk=None, slug=None):
    """A copy of the game, the GM's own from now on: its design page."""
    entry = library_entry_for(request.user, pk=pk, slug=slug)
    try:
        version = services.designed_ruleset_copy_from_library(
            owner=request.user, published=entry.published, builtin=entry.builtin
        )
    except ServiceError as error:
        messages.error(request, _refusal(error))
        return redirect(entry.url)
    messages.success(
        request,
        _("{name} is yours: change it section by section.").format(name=version.ruleset.name),
    )
    return redirect("ruleset_design", version.ruleset_id)


@require_POST
def library_campaign(request, pk=None, slug=None):
    """A campaign on a new copy of the game."""
    entry = library_entry_for(request.user, pk=pk, slug=slug)
    form = LibraryCampaignForm(request.POST)
    if not form.is_valid():
        for field, errors in form.errors.items():
            for error in errors:
                where = form.fields[field].label
                messages.error(request, _("{where}: {problem}").format(where=where, problem=error))
        return redirect(entry.url)
    try:
        campaign = services.library_campaign_start(
            gm=request.user,
            name=form.cleaned_data["name"],
            published=entry.published,
            builtin=entry.builtin,
        )
    except (ServiceError, HouseRulesRefused) as error:
        messages.error(request, _refusal(error))
        return redirect(entry.url)
    messages.success(
        request,
        _("{name} is ready. Invite your players with the link below.").format(name=campaign.name),
    )
    return redirect("campaign_detail", campaign.pk)


@require_POST
def library_game_unpublish(request, pk):
    game = get_object_or_404(PublishedGame, pk=pk, publisher=request.user)
    services.published_game_unpublish(publisher=request.user, published=game)
    messages.success(
        request,
        _("{name} is no longer in the library. Copies already taken stay.").format(name=game.name),
    )
    return redirect("ruleset_design", game.version.ruleset_id)


@page_with_form
def design_publish(request, pk):
    """Put a version of the GM's game in the library, with what it is, its languages and
    its licence."""
    designed = designed_for_owner(request.user, pk)
    versions = designed.versions.order_by("-number")
    form = PublishForm(
        request.POST if request.method == "POST" else None,
        versions=versions,
        initial={"version": designed.latest.number, "languages": [request.LANGUAGE_CODE]},
    )
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                published = services.published_game_publish(
                    publisher=request.user,
                    version=get_object_or_404(versions, number=data["version"]),
                    description=data["description"],
                    languages=data["languages"],
                    licence=data["licence"],
                    licence_own_words=data["licence_own_words"],
                )
            except ServiceError as error:
                form.add_error(error.field, str(error))
            else:
                messages.success(
                    request,
                    _("Version {number} of {name} is in the library.").format(
                        number=published.version.number, name=published.name
                    ),
                )
                return redirect("library_game", published.pk)
        status = 400
    context = {"designed": designed, "form": form}
    return render(request, PUBLISH_PAGE, context, status=status)


def _refusal(error) -> str:
    if isinstance(error, RulesetRefused):
        return "; ".join(f"{where}: {said(message)}" for where, message in error.problems)
    return said(error)
