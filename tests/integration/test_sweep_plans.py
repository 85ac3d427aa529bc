"""No sweep reads a whole table: every query a sweep runs, explained by PostgreSQL over a history
of 50,000 documents (with their jobs, callbacks and reservations, analysed), finds its rows
through an index, never by a sequential scan of documents, extraction jobs or callbacks; and a
pass over the idle history (nothing due) reads at most a batch of rows of any large table, the
daily stale and reminders sweeps included (they read only what is due, not every open case).

The queries are the sweeps' own: each sweep runs once with a little work to do (so the use
cases it hands rows to run too), every statement it sends is captured as sent, parameters and
all, and then explained. The plans are the planner's real choices, not forced by settings.
"""
import json
from datetime import timedelta

import pytest
from sqlalchemy import event

from bench.sweeps import analyze, seed_history
from tests.plugins.postgres import migrated_app

HISTORY = 50_000
WHOLE_TABLE_READS_FORBIDDEN = {"documents", "extraction_jobs", "callback_deliveries"}


@pytest.fixture(scope="module")
def app(tmp_path_factory):
    import psycopg

    from leadflow import clock
    from leadflow.extensions import db
    with migrated_app("postgresql", tmp_path_factory.mktemp("plans"), "plans",
                      {"REDIS_URL": None, "EXTRACTION_URL": "http://127.0.0.1:9"}) as app:
        with app.app_context():
            url = db.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        with psycopg.connect(url) as connection:
            now = clock.now().replace(microsecond=0)
            seed_history(connection, HISTORY, now)
            _something_for_each_sweep(connection, now)
            connection.commit()
            analyze(connection)
            connection.commit()
        yield app


def _something_for_each_sweep(connection, now):
    """A few rows for each sweep to act on, taken from the settled history."""
    old = now - timedelta(hours=2)
    run = connection.execute
    documents = [row[0] for row in run("SELECT id FROM documents WHERE status = 'VERIFIED' "
                                       "ORDER BY created_at DESC LIMIT 10")]
    stalled, pending, retried, overdue, reserved = documents[0:2], documents[2:4], documents[4], documents[5], documents[6]
    run("UPDATE documents SET status = 'PROCESSING', status_changed_at = %s WHERE id = ANY(%s)", (old, stalled))
    run("UPDATE documents SET status = 'PENDING', status_changed_at = %s, current_job_id = NULL WHERE id = ANY(%s)",
        (old, pending))
    run("UPDATE documents SET status = 'PENDING', status_changed_at = %s WHERE id = %s", (old, retried))
    run("UPDATE extraction_jobs SET status = 'created', deadline_at = %s, finished_at = NULL "
        "WHERE document_id = %s", (old, retried))
    run("UPDATE documents SET status = 'EXTRACTING', status_changed_at = %s WHERE id = %s", (old, overdue))
    run("UPDATE extraction_jobs SET status = 'accepted', deadline_at = %s, finished_at = NULL "
        "WHERE document_id = %s", (old, overdue))
    run("UPDATE credit_reservations SET status = 'open', closed_at = NULL, pages_charged = NULL "
        "WHERE job_id = (SELECT current_job_id FROM documents WHERE id = %s)", (reserved,))
    run("UPDATE callback_deliveries SET processed_at = NULL, outcome = NULL, received_at = %s "
        "WHERE id = (SELECT id FROM callback_deliveries ORDER BY received_at DESC LIMIT 1)", (old,))
    # A verified payslip and an open case not looked at yet: due for the daily stale and reminders sweeps.
    run("UPDATE documents SET stale_check_on = NULL WHERE id = (SELECT id FROM documents WHERE status = 'VERIFIED' "
        "AND document_type = 'payslip' ORDER BY created_at DESC LIMIT 1)")
    run("UPDATE workspaces SET reminders_due_on = NULL WHERE id = (SELECT max(id) FROM workspaces WHERE closed_at IS NULL)")
    # A case closed long ago, due for erasure.
    run("UPDATE workspaces SET closed_at = %s WHERE id = (SELECT min(id) FROM workspaces WHERE closed_at IS NOT NULL)",
        (now - timedelta(days=800),))
    run("DELETE FROM document_status_counts")
    run("INSERT INTO document_status_counts (brokerage_id, status, count) "
        "SELECT brokerage_id, status, count(*) FROM documents GROUP BY brokerage_id, status")


def _sweeps():
    from leadflow import sweeps
    return sorted(sweeps.SWEEPS) + sorted(sweeps.DAILY)


@pytest.mark.parametrize("name", _sweeps())
def test_no_sweep_reads_a_whole_table(app, name):
    from leadflow import sweeps
    from leadflow.extensions import db
    with app.app_context():
        sent = []

        def capture(conn, cursor, statement, parameters, context, executemany):
            if statement.lstrip().split(None, 1)[0].upper() in ("SELECT", "UPDATE", "DELETE", "WITH"):
                sent.append((statement, parameters[0] if executemany and parameters else parameters))

        event.listen(db.engine, "before_cursor_execute", capture)
        try:
            sweeps.run(name)
        finally:
            event.remove(db.engine, "before_cursor_execute", capture)
        assert sent, f"the {name} sweep sent no query"
        whole_reads = []
        with db.engine.connect() as connection:
            for statement, parameters in sent:
                plan = connection.exec_driver_sql("EXPLAIN (FORMAT JSON) " + statement, parameters).scalar()
                plan = json.loads(plan) if isinstance(plan, str) else plan
                whole_reads += [(table, statement) for table in _sequential_scans(plan[0]["Plan"])
                                if table in WHOLE_TABLE_READS_FORBIDDEN]
        assert not whole_reads, f"the {name} sweep reads whole tables:\n" + "\n\n".join(
            f"{table}: {statement}" for table, statement in whole_reads)


BOUNDED_TABLES = WHOLE_TABLE_READS_FORBIDDEN | {"workspaces", "credit_reservations"}


@pytest.mark.parametrize("name", _sweeps())
def test_a_pass_over_the_idle_history_reads_at_most_a_batch(app, name):
    """Each query of a second pass (the first did what was due) run for real (EXPLAIN ANALYZE,
    rolled back): the rows its scans of the large tables read, those filtered out included."""
    from leadflow import sweeps
    from leadflow.extensions import db
    with app.app_context():
        sweeps.run(name)
        sent = _captured(lambda: sweeps.run(name))
        batch = app.config["SWEEP_BATCH_SIZE"]
        read = {}
        with db.engine.connect() as connection:
            for statement, parameters in sent:
                if not statement.lstrip().upper().startswith(("SELECT", "WITH")):
                    continue
                plan = connection.exec_driver_sql("EXPLAIN (ANALYZE, FORMAT JSON) " + statement, parameters).scalar()
                plan = json.loads(plan) if isinstance(plan, str) else plan
                for table, rows in _rows_read(plan[0]["Plan"]):
                    if table in BOUNDED_TABLES:
                        read[(table, statement)] = read.get((table, statement), 0) + rows
            connection.rollback()
        over = {key: rows for key, rows in read.items() if rows > batch}
        assert not over, f"an idle pass of the {name} sweep reads more than a batch ({batch}):\n" + "\n\n".join(
            f"{table}: {rows} rows by {statement}" for (table, statement), rows in over.items())


def _captured(action) -> list:
    from leadflow.extensions import db
    sent = []

    def capture(conn, cursor, statement, parameters, context, executemany):
        if statement.lstrip().split(None, 1)[0].upper() in ("SELECT", "UPDATE", "DELETE", "WITH"):
            sent.append((statement, parameters[0] if executemany and parameters else parameters))

    event.listen(db.engine, "before_cursor_execute", capture)
    try:
        action()
    finally:
        event.remove(db.engine, "before_cursor_execute", capture)
    return sent


def _rows_read(node: dict) -> list[tuple[str, float]]:
    """(table, rows) of each scan of a table in the plan: rows returned and rows its filters threw
    away, over all its loops."""
    found = []
    if "Relation Name" in node:
        per_loop = (node.get("Actual Rows", 0) + node.get("Rows Removed by Filter", 0)
                    + node.get("Rows Removed by Index Recheck", 0))
        found.append((node["Relation Name"], per_loop * node.get("Actual Loops", 1)))
    for child in node.get("Plans", ()):
        found += _rows_read(child)
    return found


def test_the_explained_plans_would_catch_a_whole_table_read(app):
    """The check itself: a query with no index to use is reported."""
    from leadflow.extensions import db
    with app.app_context(), db.engine.connect() as connection:
        plan = connection.exec_driver_sql(
            "EXPLAIN (FORMAT JSON) SELECT id FROM documents WHERE size_bytes = %(size)s", {"size": 1}).scalar()
    plan = json.loads(plan) if isinstance(plan, str) else plan
    assert "documents" in _sequential_scans(plan[0]["Plan"])


def _sequential_scans(node: dict) -> list[str]:
    found = [node["Relation Name"]] if node.get("Node Type") == "Seq Scan" else []
    for child in node.get("Plans", ()):
        found += _sequential_scans(child)
    return found
