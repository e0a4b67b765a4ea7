"""Run a Python server with a slow disk flush injected into every PostgreSQL commit that
wrote something: the one way benchmarks/room_load.py gives handlog and its bare peer the
same slow disk.

    .venv/bin/python benchmarks/slow_flush.py MS -m handlog.recorder.cli serve ...
    .venv/bin/python benchmarks/slow_flush.py MS benchmarks/bare_append_server.py ...

Why injected: a real slow disk (PostgreSQL's WAL on a device-mapper `delay` target or a
throttled loop device) needs the kernel's device-mapper, which this kind of machine lacks
(`dmsetup version`: "Failure to communicate with kernel device-mapper driver"), and the
database server is shared. PostgreSQL's `commit_delay` is not a delay per flush (it only
waits for other committers, and only with `commit_siblings` of them active).

What is injected: psycopg's `Connection.commit` first sends
`SELECT pg_sleep(MS / 1000) WHERE pg_current_xact_id_if_assigned() IS NOT NULL`, in the same
transaction, so the server sleeps MS milliseconds before every commit that has a transaction
id (one that wrote: the commits that flush the WAL) and never before a read-only one. The sleep
is inside the transaction, so every lock it holds is held through it, as through a slow
flush: handlog's lock on `events`, the bare server's row locks. In a pipeline it is queued
like any statement, costing no round trip of its own. handlog's appends at a head it wrote
are one statement in autocommit (schema/pg_append.py), with no commit of psycopg's: the same
sleep is put at the end of that statement's function, inside its transaction. So both servers
get the same delay per writing commit: one per tap for the bare server, one per batch for
handlog's group commit.
"""

from __future__ import annotations

import runpy
import sys
from typing import Any

import psycopg
from psycopg import pq

_SLEEP = "SELECT pg_sleep(%s) WHERE pg_current_xact_id_if_assigned() IS NOT NULL"


def slow_commits(milliseconds: float) -> None:
    """Make every writing commit of psycopg in this process wait `milliseconds` first."""
    commit = psycopg.Connection.commit
    seconds = milliseconds / 1000

    def slow_commit(self: psycopg.Connection[Any]) -> None:
        if not self.autocommit and self.info.transaction_status in (
                pq.TransactionStatus.INTRANS, pq.TransactionStatus.ACTIVE):
            self.execute(_SLEEP, (seconds,))
        commit(self)

    psycopg.Connection.commit = slow_commit  # type: ignore[method-assign]
    # handlog's appends at a head it wrote are one statement in autocommit, no commit() call
    # (schema/pg_append.py): the same sleep, in the function, before it returns.
    from handlog.schema import pg_append

    last = "    RETURN positions;\nEND\n"
    assert pg_append.APPEND_FUNCTION.count(last) == 1
    pg_append.APPEND_FUNCTION = pg_append.APPEND_FUNCTION.replace(
        last, f"    PERFORM pg_sleep({seconds!r});\n{last}")


def main() -> None:
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    slow_commits(float(sys.argv[1]))
    if sys.argv[2] == "-m":
        sys.argv = [sys.argv[3], *sys.argv[4:]]
        runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
    else:
        sys.argv = sys.argv[2:]
        runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
