"""Character sheets: on screen, as a PDF, and a campaign's pack of approved sheets.

A character's sheet is for its owner and its campaign's GM; the pack is for the GM. Anyone
else gets 404, as for every other character page, so an id reveals nothing.
"""

from django.http import HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify

from characters import pdf
from characters.models import Character
from characters.selectors import campaign_for_gm, characters_visible_to
from characters.sheets import DICE_ODDS, sheet_for_character


def character_sheet(request, pk):
    character = _character_for_sheet(request.user, pk)
    return render(
        request,
        "sheets/sheet.html",
        {
            "sheet": sheet_for_character(character),
            "pdf_url": reverse("character_sheet_pdf", args=[pk]),
            "dice_odds": DICE_ODDS,
            "screen": True,
        },
    )


def character_sheet_pdf(request, pk):
    paper = request.GET.get("paper", "a4")
    if paper not in pdf.PAPER_SIZES:
        return HttpResponseBadRequest("paper must be a4 or letter")
    character = _character_for_sheet(request.user, pk)
    document = pdf.render_sheets_pdf([sheet_for_character(character)], paper)
    return _pdf_response(document, slugify(character.name) or f"character-{pk}")


def campaign_pack_pdf(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    paper = request.GET.get("paper", "a4")
    if paper not in pdf.PAPER_SIZES:
        return HttpResponseBadRequest("paper must be a4 or letter")
    approved = (
        campaign.characters.filter(state=Character.APPROVED)
        .select_related("campaign")
        .prefetch_related("traits", "equipment", "approvals")
    )
    sheets = [sheet_for_character(c, with_ledger=False) for c in approved]
    document = pdf.render_campaign_pack_pdf(campaign.name, sheets, paper)
    return _pdf_response(document, f"{slugify(campaign.name) or 'campaign'}-pack")


def _character_for_sheet(user, pk) -> Character:
    return get_object_or_404(
        characters_visible_to(user).prefetch_related("traits", "equipment", "approvals", "ledger"),
        pk=pk,
    )


def _pdf_response(document: bytes, stem: str) -> HttpResponse:
    # slugify keeps the name to ASCII letters, digits and dashes: no quotes, slashes or
    # line breaks can reach the header.
    return HttpResponse(
        document,
        content_type="application/pdf",
        headers={"Content-Disposition": content_disposition_header(True, f"{stem}.pdf")},
    )
