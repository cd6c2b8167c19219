"""What the tests of two writers at once share: they need two real connections racing for one
row lock, so PostgreSQL (SQLite's test database is one shared in-memory connection)."""

import threading

import pytest
from django.db import connection, connections

postgres_only = pytest.mark.skipif(
    connection.vendor != "postgresql",
    reason="two real connections racing for one row lock: PostgreSQL only "
    "(SQLite's test database is one shared in-memory connection)",
)


def at_once(*writes) -> list:
    """Each of `writes` called in a thread of its own, all let go together; what each
    returned, or the exception it raised, in order. Each thread closes its connection."""
    start = threading.Barrier(len(writes))
    outcomes: list = [None] * len(writes)

    def run(n, write):
        try:
            start.wait()
            outcomes[n] = write()
        except Exception as error:  # the outcome to look at, as the caller expects it
            outcomes[n] = error
        finally:
            connections.close_all()  # this thread's own connection

    threads = [threading.Thread(target=run, args=(n, w)) for n, w in enumerate(writes)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return outcomes
