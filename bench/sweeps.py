"""The sweeps over a large, idle history: each pass's time, and the recovery of stuck documents.

    make bench-sweeps
    .venv/bin/python -m bench.sweeps --documents 1000000

Seeds a PostgreSQL database of its own (`leadflow_bench_sweeps`, kept between runs: seeding is
skipped when it holds the documents already; --fresh starts over) with `--documents` settled
documents over up to 1,000 brokerages, each with its finished extraction job, its callback (the
status log) and its settled reservation, written by INSERT ... SELECT generate_series inside
PostgreSQL (no row passes through Python). A few documents are in flight, all fresh, and the
daily sweeps have looked at everything already (each verified payslip and statement and each
open case is due again on a day of the coming weeks): the database is idle, no sweep has
anything to do. Then it times `--runs` passes of each sweep, the daily stale and reminders ones too
(median and slowest; target under 20 ms), marks `--stuck` documents stuck in PROCESSING and
times the stalled sweep's passes until none is left (target under 10 s), and puts them back.

The sweeps run as the scheduler runs them (leadflow.sweeps.run, SWEEP_BATCH_SIZE a pass),
with the in-process job queue (no Redis): what a pass costs is its SQL and our code.
"""
import argparse
import os
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import psycopg

ROOT = Path(__file__).resolve().parents[1]
ADMIN_URL = os.environ.get("BENCH_DATABASE_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/postgres")
DATABASE = os.environ.get("BENCH_SWEEPS_DATABASE", "leadflow_bench_sweeps")
PASS_BUDGET_MS = 20
RECOVERY_BUDGET_S = 10
DOCUMENTS_PER_BROKERAGE = 10_000
DOCUMENTS_PER_CASE = 40
IN_FLIGHT_EVERY = 5_000     # one document in 5,000 is being read right now (fresh, not stuck)
HISTORY_DAYS = 3 * 365
# Every sweep: those a scheduler runs every minute or so, and the daily stale and reminders ones (which
# read only what is due today). The daily digests walk the staff once a day: timed with --daily.
TIMED = ("pending", "retries", "stalled", "deadline", "deliveries", "reservations", "erasure", "stale", "reminders")


def seed_history(connection, documents: int, now: datetime, first_id: int = 1) -> None:
    """Write `documents` settled documents with their jobs, callbacks and reservations, plus
    brokerages, clients and cases, into a migrated, empty database (psycopg connection; the
    caller commits). Every row is made by PostgreSQL from generate_series; `now` anchors the
    times, so the history ends a minute before it and the documents in flight are a few
    seconds old."""
    brokerages = max(1, min(1_000, documents // DOCUMENTS_PER_BROKERAGE))
    cases = max(1, documents // DOCUMENTS_PER_CASE)
    span = timedelta(days=HISTORY_DAYS).total_seconds()
    params = {"now": now, "documents": documents, "brokerages": brokerages, "cases": cases, "span": span,
              "flight": IN_FLIGHT_EVERY}
    run = connection.execute
    run("INSERT INTO brokerages (id, name, created_at) SELECT g, 'Sweep bench brokerage ' || g, "
        "%(now)s - interval '4 years' FROM generate_series(1, %(brokerages)s) g", params)
    # Case g belongs to brokerage 1 + g % brokerages and has client g (user id g) as its member.
    run("INSERT INTO users (id, email, name, role, brokerage_id, password_hash, language, created_at) "
        "SELECT g, 'client.' || g || '@sweeps.example', 'Client ' || g, 'client', 1 + g %% %(brokerages)s, '-', 'en', "
        "%(now)s - make_interval(secs => %(span)s * g / %(cases)s) FROM generate_series(1, %(cases)s) g", params)
    # One case in twenty is closed, within the retention period (nothing for the erasure sweep).
    # Every open case was looked at by the reminders sweep already: due again within three days.
    run("INSERT INTO workspaces (id, brokerage_id, name, created_at, closed_at, reminders_due_on) "
        "SELECT g, 1 + g %% %(brokerages)s, 'Case ' || g, %(now)s - make_interval(secs => %(span)s * g / %(cases)s), "
        "CASE WHEN g %% 20 = 0 THEN %(now)s - interval '30 days' END, (%(now)s + interval '1 day' * (1 + g %% 3))::date "
        "FROM generate_series(1, %(cases)s) g", params)
    run("INSERT INTO workspace_members (workspace_id, user_id) SELECT g, g FROM generate_series(1, %(cases)s) g",
        params)
    # Document g: newest first in g, in case 1 + g % cases; every 5,000th is in flight, a few
    # seconds old; the others settled, 80% VERIFIED, 15% REJECTED, 5% ACTION_REQUIRED.
    run("""
        CREATE TEMP TABLE seeded ON COMMIT DROP AS
        SELECT g, md5('document' || g) AS id, 1 + g %% %(cases)s AS workspace_id,
               1 + (1 + g %% %(cases)s) %% %(brokerages)s AS brokerage_id,
               CASE WHEN g %% %(flight)s = 0 THEN (ARRAY['PENDING', 'PROCESSING', 'EXTRACTING'])[1 + g / %(flight)s %% 3]
                    WHEN g %% 20 < 16 THEN 'VERIFIED' WHEN g %% 20 < 19 THEN 'REJECTED' ELSE 'ACTION_REQUIRED' END AS status,
               (ARRAY['payslip', 'bank_statement', 'id_document', 'tax_assessment', 'invoice'])[1 + g %% 5] AS document_type,
               CASE WHEN g %% %(flight)s = 0 THEN %(now)s - make_interval(secs => 1 + g %% 7)
                    ELSE %(now)s - interval '1 minute' - make_interval(secs => %(span)s * g / %(documents)s) END AS created_at
        FROM generate_series(%(first)s, %(first)s + %(documents)s - 1) g
    """, {**params, "first": first_id})
    run("""
        INSERT INTO documents (id, brokerage_id, owner_id, workspace_id, title, kind, document_type, confidence, status,
                               filename, content_type, size_bytes, storage_key, page_count, verification_notes,
                               current_job_id, created_at, updated_at, status_changed_at, verified_at, stale_check_on)
        SELECT id, brokerage_id, workspace_id, workspace_id, initcap(replace(document_type, '_', ' ')) || ' ' || g,
               document_type, CASE WHEN status IN ('VERIFIED', 'REJECTED') THEN document_type END,
               0.9, status, 'file-' || g || '.pdf', 'application/pdf', 120000,
               'brokerages/' || brokerage_id || '/documents/' || id || '/original/file.pdf', 1, '[]',
               CASE WHEN status <> 'PENDING' THEN md5('job' || g) END,
               created_at, created_at, created_at + CASE WHEN status IN ('PENDING', 'PROCESSING', 'EXTRACTING')
                                                        THEN interval '0' ELSE interval '20 seconds' END,
               CASE WHEN status = 'VERIFIED' THEN created_at + interval '20 seconds' END,
               -- Read by the staleness sweep already: due again on a day of the next three months.
               CASE WHEN status = 'VERIFIED' AND document_type IN ('payslip', 'bank_statement')
                    THEN (%(now)s + interval '1 day' * (1 + g %% 90))::date END
        FROM seeded
    """, params)
    # Every document past PENDING has its job: finished for a settled one (its deadline kept),
    # accepted with a deadline ahead for one being extracted, created for one being claimed.
    run("""
        INSERT INTO extraction_jobs (id, document_id, brokerage_id, mode, status, submit_attempts, pages_reported,
                                     deadline_at, created_at, accepted_at, finished_at)
        SELECT md5('job' || g), id, brokerage_id, 'first',
               CASE status WHEN 'EXTRACTING' THEN 'accepted' WHEN 'PROCESSING' THEN 'created'
                           WHEN 'ACTION_REQUIRED' THEN 'failed' ELSE 'completed' END,
               1, 1, CASE WHEN status <> 'PROCESSING' THEN created_at + interval '10 minutes' END,
               created_at, created_at + interval '1 second',
               CASE WHEN status NOT IN ('PROCESSING', 'EXTRACTING') THEN created_at + interval '20 seconds' END
        FROM seeded WHERE status <> 'PENDING'
    """)
    run("""
        INSERT INTO callback_deliveries (id, job_id, document_id, event_type, payload, received_at, processed_at, outcome)
        SELECT 'msg_' || md5('callback' || g), md5('job' || g), id, 'job.completed', '{}',
               created_at + interval '19 seconds', created_at + interval '20 seconds', 'applied'
        FROM seeded WHERE status NOT IN ('PENDING', 'PROCESSING', 'EXTRACTING')
    """)
    run("""
        INSERT INTO credit_reservations (brokerage_id, job_id, pages, status, pages_charged, overage, created_at,
                                         expires_at, closed_at)
        SELECT brokerage_id, md5('job' || g), 1, CASE WHEN status = 'EXTRACTING' THEN 'open' ELSE 'settled' END,
               CASE WHEN status <> 'EXTRACTING' THEN 1 END, 0, created_at + interval '1 second',
               created_at + interval '1 day', CASE WHEN status <> 'EXTRACTING' THEN created_at + interval '20 seconds' END
        FROM seeded WHERE status NOT IN ('PENDING', 'PROCESSING')
    """)
    run("DELETE FROM document_status_counts")
    run("INSERT INTO document_status_counts (brokerage_id, status, count) "
        "SELECT brokerage_id, status, count(*) FROM documents GROUP BY brokerage_id, status")
    for table in ("users", "workspaces"):
        run(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), (SELECT max(id) FROM {table}))")
    run("SELECT setval(pg_get_serial_sequence('credit_reservations', 'id'), (SELECT max(id) FROM credit_reservations))")
    run("SELECT setval(pg_get_serial_sequence('brokerages', 'id'), (SELECT max(id) FROM brokerages))")


def analyze(connection) -> None:
    for table in ("brokerages", "users", "workspaces", "workspace_members", "documents", "extraction_jobs",
                  "callback_deliveries", "credit_reservations", "document_status_counts"):
        connection.execute(f"ANALYZE {table}")


def main(argv=None) -> int:
    args = parse_args(argv)
    url = prepare_database(args.fresh)
    os.environ.setdefault("LEADFLOW_INSTANCE_DIR", tempfile.mkdtemp(prefix="leadflow-bench-"))
    sys.path.insert(0, str(ROOT))
    from flask_migrate import upgrade

    from leadflow.factory import create_app
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "EMBEDDED_WORKER": False, "EMBEDDED_SCHEDULER": False,
                      "REDIS_URL": None, "EXTRACTION_URL": "http://127.0.0.1:9"}, listen=False)
    with app.app_context():
        upgrade()
    plain = url.replace("postgresql+psycopg://", "postgresql://", 1)
    seed_once(plain, args.documents)
    freshen_in_flight(plain)

    from leadflow import sweeps
    with app.app_context():
        print(f"\nSweeps over {args.documents:,} documents (and as many jobs, callbacks and reservations), "
              f"PostgreSQL {server_version(plain)}, idle: {args.runs} passes of each after one to warm up, "
              f"batch {app.config['SWEEP_BATCH_SIZE']}\n")
        header = f"{'sweep':14} {'median ms':>10} {'max ms':>8} {'handled':>8}  under {PASS_BUDGET_MS} ms"
        print(header)
        print("-" * len(header))
        slow = 0
        for name in TIMED:
            times, handled = time_passes(name, args.runs)
            ok = statistics.median(times) < PASS_BUDGET_MS
            slow += not ok
            print(f"{name:14} {statistics.median(times):>10.2f} {max(times):>8.2f} {handled:>8}  {'yes' if ok else 'NO'}")
        if args.daily:
            print()
            for name in ("digests",):
                started = time.perf_counter()
                handled = sweeps.run(name) or 0
                print(f"{name:14} one daily pass {time.perf_counter() - started:>8.2f} s, {handled} handled")
        seconds, recovered, passes = time_recovery(app, plain, args.stuck)
        ok = seconds < RECOVERY_BUDGET_S and recovered == args.stuck
        slow += not ok
        print(f"\n{args.stuck:,} documents stuck in PROCESSING: {recovered:,} back to PENDING and enqueued in "
              f"{seconds:.2f} s over {passes} passes of the stalled sweep, under {RECOVERY_BUDGET_S} s: "
              f"{'yes' if ok else 'NO'}")
    print(f"Load average while measuring: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} CPUs.\n")
    return 1 if slow else 0


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=10_000_000)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--stuck", type=int, default=10_000)
    parser.add_argument("--fresh", action="store_true", help="drop the bench database and seed again")
    parser.add_argument("--daily", action="store_true",
                        help="also time one pass of the daily digests (it walks the staff)")
    return parser.parse_args(argv)


def prepare_database(fresh: bool) -> str:
    with psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=5) as admin:
        if fresh:
            admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
        if not admin.execute("SELECT 1 FROM pg_database WHERE datname = %s", (DATABASE,)).fetchone():
            admin.execute(f'CREATE DATABASE "{DATABASE}"')
            print(f"created database {DATABASE}")
    base = ADMIN_URL.rsplit("/", 1)[0]
    return f"{base}/{DATABASE}".replace("postgresql://", "postgresql+psycopg://", 1)


def seed_once(url: str, documents: int) -> None:
    with psycopg.connect(url) as connection:
        have = connection.execute("SELECT coalesce(sum(count), 0) FROM document_status_counts").fetchone()[0]
        if have:
            if have != documents:
                sys.exit(f"{DATABASE} holds {have:,} documents, not {documents:,}: run with --fresh")
            print(f"{DATABASE} holds {have:,} documents already: not seeding")
            return
        print(f"seeding {documents:,} documents with their jobs, callbacks and reservations ...", flush=True)
        started = time.monotonic()
        connection.execute("SET maintenance_work_mem = '1GB'")
        connection.execute("SET max_parallel_maintenance_workers = 2")
        # Secondary indexes and foreign keys made after the load, as bench/dashboard_seed.py does:
        # maintained row by row (and the keys checked row by row at the statement's end), the
        # load of ten million documents had not finished its second table after an hour.
        remake = [statement for table in LOADED for statement in _drop_indexes_and_keys(connection, table)]
        seed_history(connection, documents, _now())
        connection.commit()
        print(f"  written in {time.monotonic() - started:.0f} s", flush=True)
        step = time.monotonic()
        for statement in sorted(remake, key=lambda s: "FOREIGN KEY" in s):   # indexes first, keys then use them
            connection.execute(statement)
            connection.commit()
        print(f"  {len(remake)} indexes and foreign keys made in {time.monotonic() - step:.0f} s", flush=True)
        connection.autocommit = True
        connection.execute("VACUUM ANALYZE")
        print(f"seeded and analysed in {time.monotonic() - started:.0f} s", flush=True)


LOADED = ("documents", "extraction_jobs", "callback_deliveries", "credit_reservations")


def _drop_indexes_and_keys(connection, table: str) -> list[str]:
    """Drop the table's indexes (but its primary key and unique ones) and its foreign keys; returns
    the statements that make them again."""
    indexes = connection.execute(
        "SELECT indexrelid::regclass::text, pg_get_indexdef(indexrelid) FROM pg_index "
        "WHERE indrelid = %s::regclass AND NOT indisprimary AND NOT indisunique", (table,)).fetchall()
    keys = connection.execute(
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE contype = 'f' AND conrelid = %s::regclass", (table,)).fetchall()
    for owner, name, _ in keys:
        connection.execute(f'ALTER TABLE {owner} DROP CONSTRAINT "{name}"')
    for name, _ in indexes:
        connection.execute(f'DROP INDEX "{name}"')
    return ([definition for _, definition in indexes]
            + [f'ALTER TABLE {owner} ADD CONSTRAINT "{name}" {definition}' for owner, name, definition in keys])


def freshen_in_flight(url: str) -> None:
    """The documents in flight made seconds old again (seeding, or the days since the database was
    seeded, aged them past the sweeps' thresholds): the database is idle, nothing is stuck."""
    now = _now()
    with psycopg.connect(url) as connection:
        connection.execute("UPDATE documents SET status_changed_at = %s - (created_at - date_trunc('day', created_at)) / 10000 "
                           "WHERE status IN ('PENDING', 'PROCESSING', 'EXTRACTING')", (now,))
        connection.execute("UPDATE extraction_jobs SET deadline_at = %s + interval '10 minutes' WHERE status = 'accepted'",
                           (now,))
        connection.execute("UPDATE credit_reservations SET expires_at = %s + interval '1 day' WHERE status = 'open'", (now,))


def time_passes(name: str, runs: int) -> tuple[list[float], int]:
    from leadflow import sweeps
    sweeps.run(name)
    times, handled = [], 0
    for _ in range(runs):
        started = time.perf_counter()
        handled += sweeps.run(name) or 0
        times.append((time.perf_counter() - started) * 1000)
    return times, handled


def time_recovery(app, url: str, stuck: int) -> tuple[float, int, int]:
    """Mark `stuck` VERIFIED documents PROCESSING since an hour ago (their counts moved with
    them), run the stalled sweep until it finds none, then put them back as they were."""
    from leadflow import sweeps
    marked_at = _now() - timedelta(hours=1)
    with psycopg.connect(url) as connection:
        ids = [row[0] for row in connection.execute(
            "SELECT id FROM documents WHERE status = 'VERIFIED' ORDER BY created_at DESC LIMIT %s", (stuck,))]
        _move(connection, ids, "VERIFIED", "PROCESSING", marked_at)
        connection.execute("ANALYZE documents")
    try:
        started, recovered, passes = time.perf_counter(), 0, 0
        while True:
            count = sweeps.run("stalled") or 0
            passes += 1
            recovered += count
            if not count:
                break
        seconds = time.perf_counter() - started
    finally:
        with psycopg.connect(url) as connection:
            for status in ("PENDING", "PROCESSING"):
                _move(connection, ids, status, "VERIFIED", marked_at)
            connection.execute("DELETE FROM audit_entries WHERE action = 'stalled_reset' AND document_id = ANY(%s)",
                               (ids,))
    return seconds, recovered, passes


def _move(connection, ids: list[str], source: str, target: str, changed_at: datetime) -> None:
    moved = connection.execute(
        "UPDATE documents SET status = %s, status_changed_at = %s WHERE id = ANY(%s) AND status = %s "
        "RETURNING brokerage_id", (target, changed_at, ids, source)).fetchall()
    per_brokerage: dict[int, int] = {}
    for (brokerage_id,) in moved:
        per_brokerage[brokerage_id] = per_brokerage.get(brokerage_id, 0) + 1
    for brokerage_id, n in per_brokerage.items():
        connection.execute("UPDATE document_status_counts SET count = count - %s WHERE brokerage_id = %s AND status = %s",
                           (n, brokerage_id, source))
        connection.execute("INSERT INTO document_status_counts (brokerage_id, status, count) VALUES (%s, %s, %s) "
                           "ON CONFLICT (brokerage_id, status) DO UPDATE SET count = document_status_counts.count + %s",
                           (brokerage_id, target, n, n))


def _now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None, microsecond=0)


def server_version(url: str) -> str:
    with psycopg.connect(url) as connection:
        return connection.execute("SHOW server_version").fetchone()[0].split()[0]


if __name__ == "__main__":
    sys.exit(main())
