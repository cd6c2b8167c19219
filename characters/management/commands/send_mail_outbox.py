"""`manage.py send_mail_outbox`: sends the outbox's mail (services.mail_outbox) as it falls
due, until stopped; `--batch` sends what is due now and exits. Any number may run, on any
machine with the database: each claims one mail at a time.

SIGINT and SIGTERM let the mail being sent finish first: a sender stopped mid-send would
leave it to the next sender only once its lease is over.
"""

import signal
import threading
from argparse import BooleanOptionalAction

from django.conf import settings
from django.core.management.base import BaseCommand
from django.utils import autoreload

from characters.services.mail_outbox import mail_outbox_send_due


class Command(BaseCommand):
    help = "Send the e-mail outbox as it falls due, until stopped."

    def add_arguments(self, parser):
        parser.add_argument(
            "--interval",
            type=float,
            default=1.0,
            help="Seconds between looks at the outbox when nothing is due (default: 1).",
        )
        parser.add_argument("--batch", action="store_true", help="Send what is due now, then exit.")
        parser.add_argument(
            "--reload",
            action=BooleanOptionalAction,
            default=None,
            help="Restart on code changes (default: DEBUG, as db_worker).",
        )

    def handle(self, *args, interval, batch, reload, **options):
        if batch:
            tried = mail_outbox_send_due()
            self.stdout.write(f"{tried} mail(s) tried.")
            return
        stopped = threading.Event()
        if settings.DEBUG if reload is None else reload:
            # The reloader runs this in a thread of its own, where no signal handler can be
            # set: in development Ctrl-C stops it at once.
            autoreload.run_with_reloader(send_until_stopped, interval=interval, stopped=stopped)
            return
        for signum in (signal.SIGINT, signal.SIGTERM):
            signal.signal(signum, lambda *_: stopped.set())
        send_until_stopped(interval=interval, stopped=stopped)


def send_until_stopped(*, interval: float, stopped: threading.Event) -> None:
    while not stopped.is_set():
        if not mail_outbox_send_due(stopping=stopped.is_set):
            stopped.wait(interval)
