"""Running a management command in-process, the way the command tests need it."""

from io import StringIO

from django.core.management import call_command


def run_command(name: str, *args) -> tuple[int, str, str]:
    """call_command, in-process: (exit code, stdout, stderr)."""
    out, err = StringIO(), StringIO()
    try:
        call_command(name, *map(str, args), stdout=out, stderr=err)
        code = 0
    except SystemExit as stopped:
        code = stopped.code
    return code, out.getvalue(), err.getvalue()
