"""Character sheets: on screen, as a PDF, and a campaign's pack of approved sheets.

A character's sheet is for its owner and its campaign's GM; the pack is for the GM. Anyone
else gets 404, as for every other character page, so an id reveals nothing. The pack is
rendered by a background worker: its page polls the job (htmx, or a reload without
JavaScript) and offers the file when it is ready.
"""

from django.http import FileResponse, Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from characters.errors import PrinterBusy
from characters.forms.printing import NpcCardsForm, PrintForm
from characters.models import PackJob
from characters.selectors.access import campaign_for_gm
from characters.selectors.npc_table import campaign_npcs
from characters.selectors.printing import (
    character_for_sheet,
    pack_character_names,
    pack_job_for_gm,
    pack_jobs,
)
from characters.selectors.statblock import statblock
from characters.services import printing
from characters.sheets import dice_odds, sheet_for_character
from characters.views.exports import statblock_context
from characters.views.methods import page_with_form

PACK_PAGE = "sheets/pack.html"


@require_safe
def character_sheet(request, pk):
    character = character_for_sheet(request.user, pk)
    sheet = sheet_for_character(character)
    return render(
        request,
        "sheets/sheet.html",
        {
            "sheet": sheet,
            "pdf_url": reverse("character_sheet_pdf", args=[pk]),
            "print_form": PrintForm(),
            "dice_odds": dice_odds(),
            "sheet_pk": pk,
            **statblock_context(
                statblock(sheet),
                download=lambda extension: reverse(
                    "character_statblock_download", args=[pk, extension]
                ),
                back=reverse("character_sheet", args=[pk]),
            ),
        },
    )


@require_safe
def character_sheet_pdf(request, pk):
    character = character_for_sheet(request.user, pk)
    form = PrintForm(request.GET)
    if not form.is_valid():
        return HttpResponseBadRequest(form.problem(), content_type="text/plain")
    try:
        document = printing.sheet_pdf_render(
            character=character, options=form.options(), user=request.user
        )
    except PrinterBusy as busy:
        response = render(request, "sheets/busy.html", {"message": str(busy)}, status=429)
        response["Retry-After"] = str(busy.retry_after)
        return response
    return pdf_response(document, slugify(character.name) or f"character-{pk}")


@page_with_form
def campaign_pack(request, pk):
    campaign = campaign_for_gm(request.user, pk)
    printing.pack_jobs_recover(campaign=campaign)  # so the page shows none running for ever
    form = PrintForm(request.POST or None, initial={"reference": True})
    if request.method == "POST" and form.is_valid():
        printing.pack_job_create(campaign=campaign, user=request.user, options=form.options())
        return redirect("campaign_pack", campaign.pk)
    status = 400 if form.errors else 200
    context = {
        "campaign": campaign,
        "form": form,
        "jobs": pack_jobs(campaign),
        "approved": pack_character_names(campaign),
    }
    return render(request, PACK_PAGE, context, status=status)


@require_safe
def campaign_pack_job(request, pk, job_pk):
    """One pack's progress, polled by its block on the pack page; the page itself for a
    visit without htmx."""
    printing.pack_jobs_recover(campaign=campaign_for_gm(request.user, pk))
    job = pack_job_for_gm(request.user, pk, job_pk)
    if not request.htmx:
        return redirect(f"{reverse('campaign_pack', args=[pk])}#pack-{job.pk}")
    return render(request, f"{PACK_PAGE}#job-status", {"campaign": job.campaign, "job": job})


@require_safe
def campaign_pack_download(request, pk, job_pk):
    """The pack's file, streamed from its storage a chunk at a time (with its length, so a
    browser shows the download's progress): a web worker never holds a pack whole."""
    job = pack_job_for_gm(request.user, pk, job_pk)
    if job.state != PackJob.State.DONE:
        raise Http404("The pack is not ready.")
    storage = printing.pack_storage()
    try:
        file = storage.open(job.file_name)
    except FileNotFoundError:
        raise Http404("The pack's file is gone.") from None
    stem = f"{slugify(job.campaign.name) or 'campaign'}-pack"
    # FileResponse sets Content-Length from the open file: no second look at the storage.
    return FileResponse(
        file, as_attachment=True, filename=f"{stem}.pdf", content_type="application/pdf"
    )


@require_safe
def campaign_npc_cards(request, pk):
    """The campaign's NPCs on printed cards, for its GM: every NPC, or those ticked
    (?npc=3&npc=5), on A4 or Letter (?paper=letter)."""
    campaign = campaign_for_gm(request.user, pk)
    form = NpcCardsForm(request.GET, npcs=campaign_npcs(campaign))
    if not form.is_valid():
        return HttpResponseBadRequest(form.problem(), content_type="text/plain")
    try:
        document = printing.npc_cards_pdf_render(
            campaign=campaign, npcs=form.chosen(), user=request.user, paper=form.paper_size()
        )
    except PrinterBusy as busy:
        response = render(request, "sheets/busy.html", {"message": str(busy)}, status=429)
        response["Retry-After"] = str(busy.retry_after)
        return response
    return pdf_response(document, f"{slugify(campaign.name) or 'campaign'}-npc-cards")


def pdf_response(document: bytes, stem: str) -> HttpResponse:
    # slugify keeps the name to ASCII letters, digits and dashes: no quotes, slashes or
    # line breaks can reach the header.
    return HttpResponse(
        document,
        content_type="application/pdf",
        headers={"Content-Disposition": content_disposition_header(True, f"{stem}.pdf")},
    )
