"""Fair shares of the PDF renderer for the web server (README, "Printing").

A render takes a process's render lock (characters.pdf: Pango allows one at a time), and a
request waiting for it holds a web thread. So a web process lets PDF_RENDERS_PER_PROCESS
requests render or wait at once, and each user PDF_RENDERS_PER_USER at once across every
process (a PostgreSQL advisory lock; a lock of this process on SQLite). A request that
cannot have its slot within PDF_WAIT_SECONDS is answered at once with a 429 saying to try
again (PrinterBusy), and a user's request finding their own slot taken is answered so at
once: the other threads stay free for pages. The campaign pack is rendered
by the background worker and takes no slot here.
"""

import threading
from contextlib import ExitStack, contextmanager

from django.conf import settings
from django.db import connection
from django.utils.translation import gettext as _

from characters.errors import PrinterBusy

_ADVISORY_SPACE = 31  # the first key of Fairsheet's advisory locks: renders by user
_process_slots = threading.BoundedSemaphore(settings.PDF_RENDERS_PER_PROCESS)
_local_user_locks: dict[tuple[int, int], threading.Lock] = {}
_local_guard = threading.Lock()


@contextmanager
def render_slot(user):
    """Held while `user`'s sheet renders; PrinterBusy when no slot came in time."""
    with ExitStack() as held:
        # The user's own slot first, and no waiting for it: a user's surplus requests are
        # answered at once, never holding a web thread, nor a slot of the process that
        # another user's sheet could use.
        if not _take_user_slot(user, held):
            raise PrinterBusy(
                _(
                    "You are printing other sheets at this moment, so this sheet was not "
                    "printed. Try again in a few seconds: PDFs are made {count} at a time for "
                    "each person."
                ).format(count=settings.PDF_RENDERS_PER_USER)
            )
        if not _process_slots.acquire(timeout=settings.PDF_WAIT_SECONDS):
            raise PrinterBusy(
                _(
                    "The server is printing for others, so this sheet was not printed. Try "
                    "again in a few seconds: PDFs are made {count} at a time for each person."
                ).format(count=settings.PDF_RENDERS_PER_USER)
            )
        held.callback(_process_slots.release)
        yield


def _take_user_slot(user, held: ExitStack) -> bool:
    for slot in range(settings.PDF_RENDERS_PER_USER):
        key = (user.pk * settings.PDF_RENDERS_PER_USER + slot) % 2**31
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [_ADVISORY_SPACE, key])
                if cursor.fetchone()[0]:
                    held.callback(_unlock, key)
                    return True
        else:
            with _local_guard:
                lock = _local_user_locks.setdefault((user.pk, slot), threading.Lock())
            if lock.acquire(blocking=False):
                held.callback(lock.release)
                return True
    return False


def _unlock(key: int) -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [_ADVISORY_SPACE, key])
