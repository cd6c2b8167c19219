"""Character files in and out (the public contract, spec: character-file.md): export any
character you may see, import one as a new draft, and check a posted file over HTTP."""

from django.contrib import messages
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from characters.adapters import character_to_rules
from characters.forms.builder import ImportForm
from characters.models import Campaign
from characters.selectors import character_for_viewer
from characters.services import ServiceError
from characters.services.characters import character_import
from rules.charfile import dumps_character
from rules.check import UNREADABLE, check_text

MAX_CHECK_BYTES = 1_000_000


def character_export(request, pk):
    character = character_for_viewer(request.user, pk)
    response = HttpResponse(
        dumps_character(character_to_rules(character)), content_type="application/json"
    )
    filename = f"{slugify(character.name) or 'character'}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def character_import_view(request):
    campaigns = Campaign.objects.filter(memberships__user=request.user).distinct()
    initial = {"campaign": request.GET.get("campaign")} if request.GET.get("campaign") else {}
    form = ImportForm(
        request.POST or None, request.FILES or None, campaigns=campaigns, initial=initial
    )
    if request.method == "POST" and form.is_valid():
        try:
            character = character_import(
                owner=request.user,
                text=form.cleaned_data["content"],
                campaign=form.cleaned_data["campaign"],
            )
        except ServiceError as error:
            form.add_error(None, str(error))
        else:
            messages.success(request, f"Imported {character.name} as a draft.")
            return redirect("character_builder", character.pk)
    status = 400 if form.errors else 200
    return render(request, "characters/import.html", {"form": form}, status=status)


@require_POST
def character_check(request):
    """POST a character file (the body, or a `file` upload): the build report as JSON; an
    unreadable file gets a 400 with the same message the check command prints."""
    # A form upload's body is consumed by parsing it: read the file, or the raw body.
    if request.content_type == "multipart/form-data":
        upload = request.FILES.get("file")
        if upload is None:
            return JsonResponse({"error": "Send the character file as `file`."}, status=400)
        body = upload.read(MAX_CHECK_BYTES + 1)
    else:
        body = request.body
    if len(body) > MAX_CHECK_BYTES:
        return JsonResponse({"error": "The file is larger than 1 MB."}, status=413)
    result = check_text(body)
    return JsonResponse(
        result.report,
        status=400 if result.exit_code == UNREADABLE else 200,
        json_dumps_params={"ensure_ascii": False},
    )
