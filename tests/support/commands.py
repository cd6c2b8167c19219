"""Running a management command in-process, the way the command tests need it."""

from io import StringIO

from django.core.management import call_command
from django_tasks_db.management.commands.db_worker import Worker


def run_command(name: str, *args) -> tuple[int, str, str]:
    """call_command, in-process: (exit code, stdout, stderr)."""
    out, err = StringIO(), StringIO()
    try:
        call_command(name, *map(str, args), stdout=out, stderr=err)
        code = 0
    except SystemExit as stopped:
        code = stopped.code
    return code, out.getvalue(), err.getvalue()


def run_worker():
    """django-tasks-db's own worker loop, in this process, until the packs' queue is empty:
    the database-backed run `manage.py db_worker --queue-name packs --batch` does."""
    Worker(
        queue_names=["packs"],
        interval=0,
        batch=True,
        backend_name="default",
        startup_delay=False,
        max_tasks=None,
        worker_id="test-worker",
        excluded_queue_names=[],
    ).run()


def send_outbox() -> int:
    """The mail that is due, sent in this process as `manage.py send_mail_outbox --batch`
    does; how many were tried."""
    from characters.services.mail_outbox import mail_outbox_send_due

    return mail_outbox_send_due()
