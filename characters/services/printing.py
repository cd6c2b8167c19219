"""Printing: a character's sheet as a PDF (kept for the next download while it is approved
and unchanged) and the campaign pack, which a background worker renders (characters.tasks)
while the GM's page follows its progress.

Rendering takes long and writes nothing, so it runs outside any transaction; only the
writes that follow it are atomic. A pack's progress is written as it goes, each step on
its own, so the page polling it sees every step.
"""

import hashlib
import logging
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.utils import timezone

from characters import adapters, pdf
from characters.models import Campaign, Character, PackJob, SheetPDF
from characters.pdf import PrintOptions
from characters.selectors import printing as printing_reads
from characters.sheets import reference_page, sheet_for_character

logger = logging.getLogger(__name__)
PACK_KEEP = timedelta(days=7)  # a finished pack stays downloadable this long


def sheet_pdf_render(*, character: Character, options: PrintOptions) -> bytes:
    """The character's sheet. An approved sheet is rendered once per (everything it prints,
    print options, renderer): the key holds the approval's SHA-256 and also what changes in
    play after approval (experience, points, the ledger), so a kept PDF is never stale."""
    sheet = sheet_for_character(character)
    references = [reference_page(adapters.ruleset_for(character))] if options.reference else []
    if sheet.approval is None:  # drafts change with every edit: not worth keeping
        return pdf.render_sheets_pdf([sheet], options, references)
    key = f"{pdf.renderer_version()}\n{options.key}\n{sheet!r}\n{references!r}"
    digest = hashlib.sha256(key.encode()).hexdigest()
    kept = printing_reads.kept_sheet_pdf(character, options.key, digest)
    if kept is not None:
        return kept
    document = pdf.render_sheets_pdf([sheet], options, references)
    _keep_sheet_pdf(character, options.key, digest, document)
    return document


def _keep_sheet_pdf(character: Character, options_key: str, digest: str, document: bytes):
    try:
        with transaction.atomic():
            SheetPDF.objects.update_or_create(
                character=character,
                options=options_key,
                defaults={"digest": digest, "content": document},
            )
    except IntegrityError:  # another request kept the same sheet at the same moment
        pass


@transaction.atomic
def pack_job_create(*, campaign: Campaign, user, options: PrintOptions) -> PackJob:
    """Queues the campaign's pack for a background worker and forgets packs older than
    PACK_KEEP. The task row commits with the job, so no worker can see one without the
    other."""
    from characters.tasks import render_campaign_pack  # characters.tasks imports this module

    campaign.pack_jobs.filter(created_at__lt=timezone.now() - PACK_KEEP).delete()
    job = PackJob.objects.create(campaign=campaign, requested_by=user, options=options.key)
    render_campaign_pack.enqueue(job.pk)
    return job


def pack_job_run(*, job_id: int) -> None:
    """Renders a queued pack: the party summary, each approved character's sheet, the
    reference page. A job that is gone (its campaign deleted) or already taken is left."""
    job = PackJob.objects.filter(pk=job_id, state=PackJob.State.QUEUED).select_related("campaign")
    job = job.defer("content").first()
    if job is None:
        return
    characters = list(printing_reads.pack_characters(job.campaign))
    _pack_job_update(job_id, state=PackJob.State.RUNNING, characters=len(characters))
    try:
        sheets = [sheet_for_character(c, with_ledger=False) for c in characters]
        content = pdf.render_campaign_pack_pdf(
            job.campaign.name,
            sheets,
            PrintOptions.from_key(job.options),
            reference_page(adapters.campaign_ruleset(job.campaign)),
            progress=lambda done, steps: _pack_job_update(job_id, steps_done=done, steps=steps),
        )
    except Exception:
        logger.exception("Campaign pack %s could not be rendered", job_id)
        _pack_job_update(
            job_id,
            state=PackJob.State.FAILED,
            finished_at=timezone.now(),
            problem="The pack could not be rendered. Try again; if it fails again, "
            "the server's log says why.",
        )
        raise  # the worker records the task as failed, with its traceback
    _pack_job_update(job_id, state=PackJob.State.DONE, content=content, finished_at=timezone.now())


def _pack_job_update(job_id: int, **fields) -> None:
    PackJob.objects.filter(pk=job_id).update(**fields)
