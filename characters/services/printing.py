"""Printing: a character's sheet as a PDF (kept for the next download while it is approved
and unchanged) and the campaign pack, which a background worker renders (the task
render_campaign_pack) while the GM's page follows its progress.

Rendering takes long and writes nothing, so it runs outside any transaction; only the
writes that follow it are atomic. A pack's progress is written as it goes, each step on
its own, so the page polling it sees every step.
"""

import hashlib
import logging
import tempfile
import threading
from contextlib import contextmanager
from datetime import timedelta
from functools import partial

from django.conf import settings
from django.core.files import File
from django.core.files.storage import Storage, storages
from django.db import IntegrityError, connections, transaction
from django.db.models import F
from django.tasks import task
from django.tasks.base import TASK_MIN_PRIORITY
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from characters import adapters, pdf
from characters.models import Campaign, Character, PackJob, SheetPDF
from characters.pdf import PrintOptions
from characters.render_slots import render_slot
from characters.selectors import printing as printing_reads
from characters.selectors.accounts import account_language
from characters.sheets import reference_page, sheet_for_character

logger = logging.getLogger(__name__)
PACK_KEEP = timedelta(days=7)  # a finished pack stays downloadable this long
PACK_ATTEMPTS = 2  # workers that may take a pack before it is given up


def sheet_pdf_render(*, character: Character, options: PrintOptions, user) -> bytes:
    """The character's sheet. An approved sheet is rendered once per (everything it prints,
    print options, renderer): the key holds the approval's SHA-256 and also what changes in
    play after approval (experience, points, the ledger), so a kept PDF is never stale."""
    sheet = sheet_for_character(character)
    references = [reference_page(adapters.ruleset_for(character))] if options.reference else []
    if sheet.approval is None:  # drafts change with every edit: not worth keeping
        with render_slot(user):
            return pdf.render_sheets_pdf([sheet], options, references)
    # The language too: the sheet's headings are the template's, said in the reader's.
    language = translation.get_language()
    key = f"{pdf.renderer_version()}\n{language}\n{options.key}\n{sheet!r}\n{references!r}"
    digest = hashlib.sha256(key.encode()).hexdigest()
    kept = printing_reads.kept_sheet_pdf(character, options.key, digest)
    if kept is not None:
        return kept
    with render_slot(user):  # PrinterBusy when `user` prints too much at once
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


def npc_cards_pdf_render(*, campaign: Campaign, npcs, user, paper: str) -> bytes:
    """The campaign's NPCs on cards (pdf.render_npc_cards_pdf), in the reader's language:
    the GM's, who asks for them. Callers pass the NPCs with their rows and approvals."""
    cards = [
        pdf.NpcCard(sheet_for_character(npc, with_ledger=False), npc.group_size) for npc in npcs
    ]
    title = translation.gettext("{campaign}: NPC cards").format(campaign=campaign.name)
    with render_slot(user):  # PrinterBusy when `user` prints too much at once
        return pdf.render_npc_cards_pdf(title, cards, paper)


@transaction.atomic
def pack_job_create(*, campaign: Campaign, user, options: PrintOptions) -> PackJob:
    """Queues the campaign's pack for a background worker and forgets packs older than
    PACK_KEEP. The task row commits with the job, so no worker can see one without the
    other."""
    campaign.pack_jobs.filter(created_at__lt=timezone.now() - PACK_KEEP).delete()
    job = PackJob.objects.create(campaign=campaign, requested_by=user, options=options.key)
    _enqueue(job)
    return job


def _enqueue(job: PackJob) -> None:
    """The worker takes the highest priority first: a campaign's first unfinished pack
    comes before another's second, so one campaign's packs, however many and large, never
    make another's wait for all of them (turns, campaign by campaign)."""
    ahead = (
        PackJob.objects.filter(
            campaign_id=job.campaign_id, state__in=(PackJob.State.QUEUED, PackJob.State.RUNNING)
        )
        .exclude(pk=job.pk)
        .count()
    )
    render_campaign_pack.using(priority=max(-ahead, TASK_MIN_PRIORITY)).enqueue(job.pk)


def pack_job_lease() -> timedelta:
    """How long a running pack may go without its worker's heartbeat before it counts as
    abandoned (the worker was killed, the machine restarted)."""
    return timedelta(seconds=settings.PACK_LEASE_SECONDS)


def pack_jobs_recover(*, campaign: Campaign | None = None) -> int:
    """Notices running packs whose worker stopped (no heartbeat within the lease): each is
    queued again for another worker, or after PACK_ATTEMPTS failed with a message, so the
    GM's page never shows a pack running for ever. Returns how many it found."""
    stale = PackJob.objects.filter(
        state=PackJob.State.RUNNING, heartbeat_at__lt=timezone.now() - pack_job_lease()
    )
    if campaign is not None:
        stale = stale.filter(campaign=campaign)
    found = 0
    for job_id in stale.values_list("pk", flat=True):
        found += _recover(job_id)
    return found


@transaction.atomic
def _recover(job_id: int) -> int:
    job = (
        PackJob.objects.select_for_update(skip_locked=True)
        .filter(
            pk=job_id,
            state=PackJob.State.RUNNING,
            heartbeat_at__lt=timezone.now() - pack_job_lease(),
        )
        .first()
    )
    if job is None:  # finished, or another request is recovering it
        return 0
    if job.attempts >= PACK_ATTEMPTS:
        _pack_job_update(
            job_id,
            state=PackJob.State.FAILED,
            finished_at=timezone.now(),
            problem=f"The worker rendering this pack stopped {job.attempts} times before it "
            "was done (restarted, or out of memory), so it was given up. Print it again; if "
            "it stops again, the server's log says why.",
        )
    else:
        _pack_job_update(
            job_id,
            state=PackJob.State.QUEUED,
            steps_done=0,
            # Kept in English; the pack page says it in its reader's language.
            problem=gettext_noop("Its worker stopped before it was done: it is queued again."),
        )
        _enqueue(job)
    logger.warning("Campaign pack %s lost its worker (attempt %s)", job_id, job.attempts)
    return 1


def pack_job_run(*, job_id: int) -> None:
    """Renders a queued pack: the party summary, each approved character's sheet, the GM's
    NPCs on cards, the reference page. A job that is gone (its campaign deleted) or already
    taken is left. Abandoned packs of any campaign are noticed first (pack_jobs_recover)."""
    pack_jobs_recover()
    now = timezone.now()
    taken = PackJob.objects.filter(pk=job_id, state=PackJob.State.QUEUED).update(
        state=PackJob.State.RUNNING, heartbeat_at=now, attempts=F("attempts") + 1
    )
    if not taken:
        return
    job = PackJob.objects.select_related("campaign").get(pk=job_id)
    characters = list(printing_reads.pack_characters(job.campaign))
    _pack_job_update(job_id, characters=len(characters))

    def progress(done, steps):
        _pack_job_update(job_id, steps_done=done, steps=steps, heartbeat_at=timezone.now())

    # The worker has no request: the pack is said in the language of the GM who asked for it.
    language = account_language(job.requested_by_id) if job.requested_by_id else ""
    try:
        with (
            _heartbeat(job_id),
            translation.override(language or settings.LANGUAGE_CODE),
            tempfile.TemporaryFile(prefix="fairsheet-pack-") as output,
        ):
            sheets = [sheet_for_character(c, with_ledger=False) for c in characters]
            del characters
            cards = [
                pdf.NpcCard(sheet_for_character(npc, with_ledger=False), npc.group_size)
                for npc in printing_reads.pack_npcs(job.campaign)
            ]
            pdf.render_campaign_pack_pdf(
                output,
                job.campaign.name,
                sheets,
                PrintOptions.from_key(job.options),
                reference_page(adapters.campaign_ruleset(job.campaign)),
                progress=progress,
                npc_cards=cards,
            )
            output.seek(0)
            # The storage copies from the file a chunk at a time: the pack is never held whole.
            file_name = pack_storage().save(f"pack-{job_id}.pdf", File(output))
    except Exception:
        logger.exception("Campaign pack %s could not be rendered", job_id)
        _pack_job_update(
            job_id,
            state=PackJob.State.FAILED,
            finished_at=timezone.now(),
            problem=gettext_noop(
                "The pack could not be rendered. Try again; if it fails again, the server's "
                "log says why."
            ),
        )
        raise  # the worker records the task as failed, with its traceback
    _pack_job_update(
        job_id,
        state=PackJob.State.DONE,
        file_name=file_name,
        finished_at=timezone.now(),
        problem="",
    )


def pack_storage() -> Storage:
    """Where finished packs are kept: settings.STORAGES["packs"]."""
    return storages["packs"]


def pack_file_delete(*, job: PackJob) -> None:
    """A deleted pack's file goes too, once the deletion is committed (a deletion rolled
    back leaves the pack downloadable). Connected to PackJob's post_delete (apps.py), so a
    campaign's or an account's deletion takes its packs' files with it."""
    if job.file_name:
        transaction.on_commit(partial(pack_storage().delete, job.file_name))


@task(queue_name="packs")  # its own queue: nothing else takes a pack worker's turn
def render_campaign_pack(job_id: int) -> None:
    """pack_job_run, as the background worker's task (`manage.py db_worker --queue-name
    packs`)."""
    pack_job_run(job_id=job_id)


@contextmanager
def _heartbeat(job_id: int):
    """Between progress steps too (joining a large pack's files takes a while), a thread
    says the worker is alive every quarter of the lease."""
    stop = threading.Event()

    def beat():
        try:
            while not stop.wait(pack_job_lease().total_seconds() / 4):
                _pack_job_update(job_id, heartbeat_at=timezone.now())
        finally:
            connections.close_all()  # this thread's own connection

    beating = threading.Thread(target=beat, name=f"pack-{job_id}-heartbeat", daemon=True)
    beating.start()
    try:
        yield
    finally:
        stop.set()
        beating.join()


def _pack_job_update(job_id: int, **fields) -> None:
    PackJob.objects.filter(pk=job_id).update(**fields)
