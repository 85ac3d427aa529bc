"""A worker catching up on a backlog of callbacks (after an outage, or while it was stopped) takes
the oldest waiting deliveries by reading just those, on PostgreSQL, whatever the planner knows
of the table: a claim that read and sorted the whole backlog made catching up quadratic in it."""
from datetime import datetime, timedelta

from sqlalchemy import insert, text
from sqlalchemy.dialects import postgresql

from leadflow.extensions import db
from leadflow.models import CallbackDelivery
from leadflow.services import callbacks
from tests.plugins.postgres import migrated_app

WAITING = 3000
APPLIED = 1000
BATCH = 20
START = datetime(2026, 12, 1, 9, 0, 0)


def test_a_claim_reads_only_the_oldest_waiting_deliveries_however_long_the_backlog(tmp_path):
    with migrated_app("postgresql", tmp_path, "backlog") as app, app.app_context():
        # What the planner knows of a new install: an empty table.
        db.session.execute(text("ANALYZE callback_deliveries"))
        db.session.commit()
        rows = [{"id": f"dlv_{n:05d}", "job_id": None, "document_id": None, "event_type": "extraction.completed",
                 "payload": {"n": n}, "received_at": START + timedelta(milliseconds=n),
                 "processed_at": START + timedelta(minutes=5) if n < APPLIED else None}
                for n in range(APPLIED + WAITING)]
        db.session.execute(insert(CallbackDelivery), rows)
        db.session.commit()

        claim = callbacks._claim_others(1, BATCH).compile(dialect=postgresql.dialect())
        params = {**claim.params, "named_0": "dlv_of_the_nudge"}
        # psycopg hands EXPLAIN's JSON over decoded.
        plan = db.session.connection().exec_driver_sql(
            "EXPLAIN (ANALYZE, FORMAT JSON) " + str(claim), params).scalar_one()
        claimed = db.session.connection().exec_driver_sql(str(claim), params).all()
        db.session.rollback()

    read = [node["Actual Rows"] for node in _nodes(plan[0]["Plan"])
            if node.get("Relation Name") == "callback_deliveries"]
    assert read and max(read) <= BATCH, f"the claim read {read} deliveries (per scan) to take {BATCH}"
    assert [row.id for row in claimed] == [f"dlv_{n:05d}" for n in range(APPLIED, APPLIED + BATCH)]


def _nodes(node):
    yield node
    for child in node.get("Plans", ()):
        yield from _nodes(child)
