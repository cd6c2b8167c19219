"""`make run`'s command, `manage.py run_with_worker`: the development server, the pack
worker, the mail sender and the webhook worker start together and stop together. Run for
real, on a throwaway SQLite database and a free port on 127.0.0.1."""

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def children(pid: int) -> dict[int, str]:
    """The direct children of a process, with their command lines (Linux /proc)."""
    found = {}
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            cmdline = Path(f"/proc/{child}/cmdline").read_bytes().replace(b"\0", b" ")
            found[int(child)] = cmdline.decode()
    return found


def group_alive(group: int) -> bool:
    """Whether any process of the group runs: a command's reloaded child too."""
    try:
        os.killpg(group, 0)
    except ProcessLookupError:
        return False
    return True


MANAGE = [sys.executable, "manage.py"]


@pytest.fixture(scope="module")
def migrated(tmp_path_factory) -> Path:
    """A migrated SQLite file, made once: each test runs on a copy of it."""
    database = tmp_path_factory.mktemp("run") / "migrated.sqlite3"
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DJANGO_DEBUG": "1"}
    subprocess.run([*MANAGE, "migrate", "-v", "0"], cwd=ROOT, env=env, check=True, timeout=120)
    return database


@pytest.fixture
def running(tmp_path, migrated):
    database = tmp_path / "run.sqlite3"
    shutil.copyfile(migrated, database)
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DJANGO_DEBUG": "1"}
    port = free_port()
    process = subprocess.Popen(
        [*MANAGE, "run_with_worker", f"127.0.0.1:{port}"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # its own process group, as a terminal would give it
    )
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as page:
                assert page.status == 200
            break
        except OSError:
            assert process.poll() is None, "run_with_worker stopped at start"
            assert time.monotonic() < deadline, "the server did not answer"
            time.sleep(0.5)
    yield process
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


def started(process) -> dict[int, str]:
    found = children(process.pid)
    commands = sorted(" ".join(cmd.split()[2:3]) for cmd in found.values())
    assert commands == ["db_worker", "db_worker", "runserver", "send_mail_outbox"], found
    assert any("db_worker --queue-name packs" in cmd for cmd in found.values()), found
    assert any("db_worker --queue-name webhooks" in cmd for cmd in found.values()), found
    return found


def test_ctrl_c_stops_the_server_and_the_worker(running):
    found = started(running)
    os.killpg(running.pid, signal.SIGINT)  # what Ctrl-C in the terminal sends
    assert running.wait(timeout=30) == 0
    assert not any(group_alive(pid) for pid in found)


def test_kill_stops_them_too(running):
    found = started(running)
    running.terminate()  # SIGTERM to the command alone
    assert running.wait(timeout=30) == 0
    assert not any(group_alive(pid) for pid in found)


@pytest.mark.parametrize("command", ["db_worker", "send_mail_outbox"])
def test_if_the_worker_or_the_mail_sender_dies_the_server_is_stopped(running, command):
    found = started(running)
    worker = next(pid for pid, cmd in found.items() if command in cmd)
    os.kill(worker, signal.SIGKILL)  # the reloader's child, the real worker, lives on
    assert running.wait(timeout=30) != 0  # it says which one stopped, and exits non-zero
    assert not any(group_alive(pid) for pid in found)
