"""`manage.py run_with_worker [ADDR:PORT]`: the development web server, a background
worker (`db_worker` on the "packs" queue, which renders campaign packs), the mail sender
(`send_mail_outbox`) and the webhook worker (`db_worker` on the "webhooks" queue, which posts
the campaigns' rolls) in one command, as `make run` uses it. Ctrl-C stops them all; if one
stops on its own, the others are stopped too.

Each runs in a process group of its own: under DEBUG each restarts itself on code changes
through a child process, and stopping the group stops that child too.
"""

import contextlib
import os
import signal
import subprocess
import sys
import time

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

STOP_WAIT = 10  # seconds a process gets to stop before it is killed


class Command(BaseCommand):
    help = (
        "Run the web server, the pack worker, the mail sender and the webhook worker; Ctrl-C "
        "stops them all."
    )
    requires_system_checks = []  # each child runs Django's checks itself

    def add_arguments(self, parser):
        parser.add_argument("addrport", nargs="?", default="127.0.0.1:8000")

    def handle(self, *args, addrport, **options):
        manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
        commands = {
            "web server": [*manage, "runserver", addrport],
            "worker": [
                *manage,
                "db_worker",
                "--queue-name",
                "packs",
                "--interval",
                "0.5",
                "--no-startup-delay",
            ],
            "mail sender": [*manage, "send_mail_outbox"],
            # Campaign webhooks: a queue of its own, so a pack's render never delays a roll's
            # post, nor a slow webhook a pack.
            "webhook worker": [
                *manage,
                "db_worker",
                "--queue-name",
                "webhooks",
                "--interval",
                "1",
                "--no-startup-delay",
            ],
        }
        # Ctrl-C reaches this process only (the children have groups of their own), and so
        # does `kill`: both end in the same orderly stop of every group.
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        running = {
            name: subprocess.Popen(command, process_group=0) for name, command in commands.items()
        }
        stopped = None
        try:
            while stopped is None:
                time.sleep(0.3)
                stopped = next((n for n, p in running.items() if p.poll() is not None), None)
        except KeyboardInterrupt:
            pass
        finally:
            _stop(running.values())
        if stopped is not None:
            code = running[stopped].returncode
            raise CommandError(f"The {stopped} stopped (exit code {code}), so did the rest.")


def _stop(processes) -> None:
    """SIGINT to each group (what Ctrl-C would send), SIGKILL to what is left after
    STOP_WAIT seconds; a group whose leader died may still hold its reloaded child."""
    for process in processes:
        _signal_group(process.pid, signal.SIGINT)
    deadline = time.monotonic() + STOP_WAIT
    while any(_group_alive(p.pid) for p in processes) and time.monotonic() < deadline:
        for process in processes:
            process.poll()  # reaps a leader that stopped: a zombie still counts in its group
        time.sleep(0.1)
    for process in processes:
        _signal_group(process.pid, signal.SIGKILL)
        process.wait()


def _signal_group(group: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the whole group has stopped already
        os.killpg(group, signum)


def _group_alive(group: int) -> bool:
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True
