"""Character files in and out (the public contract, spec: character-file.md): export any
character you may see, as a file or a Foundry actor; import a file or a Foundry actor as a
new draft; check a posted file over HTTP. Scripts may call these with an API token
(characters/api_auth.py): they then get JSON, never a page."""

import json

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import RequestDataTooBig, SuspiciousOperation
from django.core.files.uploadedfile import SimpleUploadedFile
from django.http import HttpResponse, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST, require_safe

from characters.adapters import (
    exported_file,
)
from characters.api_auth import accepts_api_token, readable_from_foundry
from characters.errors import ServiceError
from characters.forms.builder import ImportForm
from characters.models import Campaign
from characters.selectors.access import character_for_viewer
from characters.selectors.interop import foundry_actor, foundry_update_for
from characters.services.character_files import character_import, is_party, party_import
from characters.services.updates import character_update_from_foundry
from characters.views.methods import page_with_form
from characters.views.params import strict_number
from characters.wording import SPEAKER
from rules.check import UNREADABLE, check_text, unreadable
from rules.foundry import FOUNDRY
from rules.ruleset_file import RulesetFileError, parse_ruleset_json
from rules.words import ENGLISH

MAX_CHECK_BYTES = 1_000_000
MAX_NOT_MAPPED_SHOWN = 12
# What a multipart upload adds around the file: boundaries and the part's headers.
MULTIPART_OVERHEAD = 16_384


@require_safe
@accepts_api_token
def character_export(request, pk):
    character = character_for_viewer(request.user, pk)
    text = json.dumps(exported_file(character), indent=2, ensure_ascii=False) + "\n"
    return _download(text, f"{_slug(character)}.json")


@require_safe
@accepts_api_token
@readable_from_foundry
def character_export_foundry(request, pk):
    """The character as an actor for Foundry VTT's fudge-rpg system (docs/foundry.md)."""
    character = character_for_viewer(request.user, pk)
    text = json.dumps(foundry_actor(character), indent=2, ensure_ascii=False) + "\n"
    # Foundry names its own exports so: fvtt-Actor-<name>.json
    return _download(text, f"fvtt-Actor-{_slug(character)}.json")


def _download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _slug(character) -> str:
    return slugify(character.name) or "character"


@page_with_form
@accepts_api_token
def character_import_view(request):
    """Import a file, a Foundry actor or a party file (a JSON list of them). An actor that
    was exported from one of the user's characters first offers to update that character,
    with what changed in Foundry; the page's second step then updates it or imports a copy."""
    if request.api_token and request.method != "POST":
        return JsonResponse({"error": _("POST a character file or a Foundry actor.")}, status=405)
    campaigns = Campaign.objects.joined_by(request.user)
    initial = {"campaign": request.GET.get("campaign")} if request.GET.get("campaign") else {}
    form = ImportForm(*_import_data(request), campaigns=campaigns, initial=initial)
    if request.method == "POST" and form.is_valid():
        content, campaign = form.cleaned_data["content"], form.cleaned_data["campaign"]
        try:
            if is_party(content):
                return _party(
                    request, party_import(owner=request.user, text=content, campaign=campaign)
                )
            update = (
                None if request.POST.get("as_new") else foundry_update_for(request.user, content)
            )
            if update is not None and not request.api_token:
                if request.POST.get("update"):
                    return _update(request, update, content)
                return render(
                    request,
                    "characters/import.html",
                    {
                        "form": form,
                        "update": update,
                        "update_report": update.imported.report(SPEAKER),
                        "content": _text(content),
                        "campaign": campaign,
                    },
                )
            character, imported = character_import(
                owner=request.user, text=content, campaign=campaign
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            if request.api_token:
                return JsonResponse(_imported_json(request, character, imported), status=201)
            _report_import(request, character, imported)
            return redirect("character_builder", character.pk)
    if request.api_token:
        problems = [f"{k}: {e}" if k != "__all__" else e for k, v in form.errors.items() for e in v]
        return JsonResponse({"error": " ".join(problems)}, status=400)
    status = 400 if form.errors else 200
    return render(request, "characters/import.html", {"form": form}, status=status)


def _text(content: str | bytes) -> str:
    """The posted file as text, for the update step's hidden field."""
    return content.decode("utf-8", "replace") if isinstance(content, bytes) else content


def _update(request, update, content):
    """The owner accepted the update: one recorded change (the GM's review again for an
    approved build changed beyond play)."""
    character = update.character
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        version = None
    try:
        done = character_update_from_foundry(
            character=character, actor=request.user, text=content, expected_version=version
        )
    except ServiceError as error:
        messages.error(request, str(error))
        return redirect("character_import")
    if not done.changes:
        messages.success(
            request,
            _("{name} already matches the Foundry actor.").format(name=character.name),
        )
    else:
        messages.success(
            request,
            ngettext(
                "Updated {name} from Foundry: {count} change, recorded as one.",
                "Updated {name} from Foundry: {count} changes, recorded as one.",
                len(done.changes),
            ).format(name=done.after.name, count=len(done.changes)),
        )
    if done.needs_review:
        messages.info(
            request, _("{name} is back with the GM for review.").format(name=done.after.name)
        )
    for heading, lines in done.imported.report(SPEAKER)[:1]:  # what changed on the way in
        messages.warning(request, _heading(heading, lines))
        for line in lines[:MAX_NOT_MAPPED_SHOWN]:
            messages.warning(request, line)
    return redirect("character_builder", character.pk)


def _party(request, members):
    """One report for a party file: each character imported, or refused with the reason."""
    imported = [m for m in members if m.character is not None]
    status = 201 if imported else 400
    if request.api_token:
        return JsonResponse(
            {
                "characters": [
                    {"index": m.index, "name": m.name, "error": m.refused}
                    if m.refused
                    else _imported_json(request, m.character, m.imported) | {"index": m.index}
                    for m in members
                ]
            },
            status=status,
        )
    return render(
        request,
        "characters/import.html",
        {
            "form": None,
            "party": members,
            # each with its report in the page's language
            "party_rows": [(m, m.imported.report(SPEAKER) if m.imported else []) for m in members],
            "imported_count": len(imported),
        },
        status=200 if imported else 400,
    )


def _import_data(request):
    """The form's data and files: a script may POST the file itself as a JSON body (and the
    campaign in the query string)."""
    if request.api_token and request.content_type == "application/json":
        upload = SimpleUploadedFile("import.json", request.body, "application/json")
        return {"campaign": request.GET.get("campaign")}, {"file": upload}
    return request.POST or None, request.FILES or None


def _report_import(request, character, imported) -> None:
    if imported.source == FOUNDRY:
        done = _("Imported {name} from the Foundry actor as a draft.")
    else:
        done = _("Imported {name} from the file as a draft.")
    messages.success(request, done.format(name=character.name))
    for heading, lines in imported.report(SPEAKER):  # the most important group first
        shown = lines[:MAX_NOT_MAPPED_SHOWN]
        messages.warning(request, _heading(heading, lines))
        for problem in shown:
            messages.warning(request, problem)
        if len(lines) > len(shown):
            more = len(lines) - len(shown)
            messages.warning(
                request,
                ngettext("…and {count} more.", "…and {count} more.", more).format(count=more),
            )


def _heading(heading: str, lines: list) -> str:
    """A group of the import's notes: its heading and how many there are."""
    return _("{heading} ({count}):").format(heading=heading, count=len(lines))


def _imported_json(request, character, imported) -> dict:
    return {
        "id": character.pk,
        "name": character.name,
        "ruleset": character.ruleset,
        "source": imported.source,
        "not_mapped": list(imported.not_mapped),
        "url": request.build_absolute_uri(reverse("character_builder", args=[character.pk])),
    }


@accepts_api_token
@require_POST
def character_check(request):
    """POST a character file (the body, or a `file` upload): the build report as JSON; an
    unreadable file gets a 400 with the same message the check command prints, and a body
    over the limit a 413, whatever its size and however it was sent. The messages are in
    the language the request asks for (Accept-Language, or a browser's language cookie),
    English when it asks for none; codes and sections never change (docs/api.md)."""
    too_big = JsonResponse(
        {
            "error": _("The file is larger than {size} MB.").format(
                size=MAX_CHECK_BYTES // 1_000_000
            )
        },
        status=413,
    )
    # Refused before a byte is read: a declared length over the limit, true or not.
    declared = strict_number(request.META.get("CONTENT_LENGTH"))
    if declared is not None and declared > MAX_CHECK_BYTES + MULTIPART_OVERHEAD:
        return too_big
    try:
        body = _posted_file(request)
    except RequestDataTooBig:
        return too_big
    except (MultiPartParserError, SuspiciousOperation) as error:
        return JsonResponse(
            {"error": _("The upload cannot be read: {error}").format(error=error)}, status=400
        )
    if body is None:
        return JsonResponse({"error": _("Send the character file as `file`.")}, status=400)
    if len(body) > MAX_CHECK_BYTES:
        return too_big
    rulesets = {}
    posted_ruleset = _posted_ruleset(request)
    if posted_ruleset is not None:
        try:
            designed = parse_ruleset_json(posted_ruleset)
        except RulesetFileError as error:
            return _refused_ruleset(error)
        rulesets[designed.slug] = designed
    result = check_text(body, rulesets, report_speaker())
    return JsonResponse(
        result.report,
        status=400 if result.exit_code == UNREADABLE else 200,
        json_dumps_params={"ensure_ascii": False},
    )


def report_speaker():
    """Who says the report's messages: the engine itself in English (the contract's words,
    exactly), the catalogue in any other language the request is in."""
    return ENGLISH if translation.get_language() == settings.LANGUAGE_CODE else SPEAKER


def _posted_ruleset(request) -> bytes | None:
    """A ruleset file sent beside the character file (a form upload named `ruleset`)."""
    if request.content_type != "multipart/form-data":
        return None
    upload = request.FILES.get("ruleset")
    return None if upload is None else upload.read(MAX_CHECK_BYTES + 1)


def _refused_ruleset(error: RulesetFileError) -> JsonResponse:
    """The unreadable report, one error for each problem of the ruleset file."""
    errors = [
        unreadable(f"ruleset.{w}" if w else "ruleset", m).report["errors"][0]
        for w, m in error.problems
    ]
    return JsonResponse(
        {"valid": False, "errors": errors, "warnings": []},
        status=400,
        json_dumps_params={"ensure_ascii": False},
    )


def _posted_file(request) -> bytes | None:
    # A form upload's body is consumed by parsing it: read the file, or the raw body.
    if request.content_type == "multipart/form-data":
        upload = request.FILES.get("file")
        return None if upload is None else upload.read(MAX_CHECK_BYTES + 1)
    return request.body
