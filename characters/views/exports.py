"""A character as text for other places (docs/exports.md): its statblock (plain text,
Markdown, BBCode) as a page and as a file, and its Fari character. Whoever may see the
character's sheet may have these (its player and its campaign's GM); anyone else gets 404,
as on every other character page. A share link's statblock is in views/sharing.py."""

import json

from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from characters.adapters import character_base, character_to_rules, portrait_data_url
from characters.api_auth import accepts_api_token
from characters.selectors.printing import character_for_sheet
from characters.selectors.statblock import DOWNLOADS, every_format, statblock_of, written
from rules.fari import write_fari

STATBLOCK_PAGE = "sheets/statblock.html"


@require_safe
def character_statblock(request, pk):
    """The statblock page; with htmx its body alone, which the builder opens in place."""
    character = character_for_sheet(request.user, pk)
    context = statblock_context(
        statblock_of(character),
        download=lambda extension: reverse("character_statblock_download", args=[pk, extension]),
        back=reverse("character_sheet", args=[pk]),
    )
    if request.htmx:
        return render(request, f"{STATBLOCK_PAGE}#statblock", context)
    return render(request, STATBLOCK_PAGE, context)


@require_safe
@accepts_api_token
def character_statblock_download(request, pk, extension):
    if extension not in DOWNLOADS:
        raise Http404("No such format.")
    character = character_for_sheet(request.user, pk)
    return statblock_download(statblock_of(character), extension, character.name)


@require_safe
@accepts_api_token
def character_export_fari(request, pk):
    """The character as a Fari character: Fari's "Import" on its characters page reads it."""
    character = character_for_sheet(request.user, pk)
    fari = write_fari(
        character_to_rules(character),
        identity=f"site:{request.get_host()}:{character.pk}",
        ruleset=character_base(character),
        group=character.campaign.name if character.campaign else "",
        updated=int(character.updated_at.timestamp()),
        image=portrait_data_url(character),
    )
    text = json.dumps(fari, indent=2, ensure_ascii=False) + "\n"
    # Fari names its own exports so: <name>.fari.json
    return _attachment(text, f"{_stem(character.name)}.fari.json", "application/json")


def statblock_context(block, *, download, back: str, key: str = "sheet") -> dict:
    """What templates/sheets/statblock.html shows: the statblock in each format, its
    downloads (`download(extension)` is a file's address) and the page it belongs to.
    `key` tells one character's textareas from another's on a page of many."""
    return {
        "statblock": block,
        "statblock_formats": every_format(block),
        "statblock_key": key,
        "txt_url": download("txt"),
        "md_url": download("md"),
        "back_url": back,
    }


def statblock_download(block, extension: str, name: str) -> HttpResponse:
    format, content_type = DOWNLOADS[extension]
    return _attachment(written(block, format), f"{_stem(name)}-statblock.{extension}", content_type)


def _attachment(text: str, filename: str, content_type: str) -> HttpResponse:
    # slugify keeps the name to ASCII letters, digits and dashes: nothing can break the header.
    return HttpResponse(
        text,
        content_type=f"{content_type}; charset=utf-8",
        headers={"Content-Disposition": content_disposition_header(True, filename)},
    )


def _stem(name: str) -> str:
    return slugify(name) or "character"
