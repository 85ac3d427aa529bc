"""A packet's split applied by two workers at once (the job's callback and the deadline sweep's
polled answer, or a redelivery) on SQLite and on PostgreSQL: one makes the children, the other
changes nothing, and the ledger balances with the packet's pages moved to its children."""
import json
import threading

import pytest
from sqlalchemy import func, select

from leadflow.extensions import db
from tests.plugins.postgres import client_of_new_brokerage, migrated_app, run_threads

PARTS = [{"first": 1, "last": 1, "document_type": "payslip", "sure": True},
         {"first": 2, "last": 3, "document_type": "bank_statement", "sure": True},
         {"first": 4, "last": 4, "document_type": "invoice", "sure": True}]


@pytest.fixture(params=["sqlite", "postgresql"])
def race_app(request, tmp_path):
    with migrated_app(request.param, tmp_path, "packets") as app:
        yield app


def test_two_workers_applying_one_split_at_once_make_its_children_once(race_app):
    from leadflow import clock
    from leadflow.billing import service as billing
    from leadflow.domain.packets import PACKET_KIND
    from leadflow.models import CreditWallet, Document, ExtractionJob, Packet, new_id
    from leadflow.services import callbacks, counts

    app = race_app
    with app.app_context():
        client = client_of_new_brokerage(db, "Packet race")
        brokerage_id, now = client.brokerage_id, clock.now()
        billing.grant(db.session, brokerage_id, 50)
        packet_id, job_id = new_id(), new_id()
        db.session.add(Document(id=packet_id, brokerage_id=brokerage_id, owner_id=client.id, title="Scans",
                                kind=PACKET_KIND, status="EXTRACTING", filename="scans.pdf",
                                content_type="application/pdf", size_bytes=1000, storage_key="k/scans.pdf",
                                precheck="passed", page_count=4, verification_notes=[], current_job_id=job_id,
                                created_at=now, updated_at=now, status_changed_at=now))
        counts.bump(db.session, brokerage_id, {"EXTRACTING": +1})
        db.session.add(Packet(document_id=packet_id, brokerage_id=brokerage_id, state="reading", parts=[],
                              revision=0, created_at=now, updated_at=now))
        db.session.flush()
        db.session.add(ExtractionJob(id=job_id, document_id=packet_id, brokerage_id=brokerage_id, mode="split",
                                     status="accepted", submit_attempts=1, created_at=now, accepted_at=now))
        billing.reserve(db.session, brokerage_id, job_id, 4)
        db.session.commit()
        payload = {"type": "job.completed", "job_id": job_id, "data": {"pages": 4, "parts": PARTS}}
        callbacks.record_all(db.session, [callbacks.Delivery(f"dlv_{n}", job_id, payload, json.dumps(payload))
                                          for n in (1, 2)], nudge=False)
        db.session.commit()
        db.session.remove()

    barrier, outcomes, errors = threading.Barrier(2), [], []

    def worker(delivery_id):
        with app.app_context():
            try:
                barrier.wait(timeout=30)
                outcomes.append(callbacks.process(db.session, app.extensions["leadflow"], delivery_id))
            except Exception as exc:  # a lock conflict is a retry for the actor; the test names it
                errors.append(exc)
                db.session.rollback()
            finally:
                db.session.remove()

    run_threads([threading.Thread(target=worker, args=(f"dlv_{n}",)) for n in (1, 2)])
    with app.app_context():
        for delivery_id in ("dlv_1", "dlv_2"):  # what a retry of a conflicted one, or the sweep, does
            callbacks.process(db.session, app.extensions["leadflow"], delivery_id)
        children = db.session.execute(select(Document.part_number, Document.first_page, Document.last_page)
                                      .where(Document.packet_id == packet_id).order_by(Document.part_number)).all()
        assert [tuple(c) for c in children] == [(1, 1, 1), (2, 2, 3), (3, 4, 4)]
        assert db.session.scalar(select(func.count()).select_from(ExtractionJob).where(
            ExtractionJob.document_id.in_([c.id for c in db.session.scalars(
                select(Document).where(Document.packet_id == packet_id))]))) == 3
        wallet = db.session.get(CreditWallet, brokerage_id)
        assert (wallet.balance, wallet.reserved, wallet.settled) == (46, 4, 0)
        assert billing.check_all(db.session, brokerage_id) == {}
        assert db.session.get(Packet, packet_id).revision == 1
        db.session.remove()
    applied = [o for o in outcomes if o.startswith("applied")]
    assert len(applied) == 1, (outcomes, errors)
