"""Set-based claiming on SQLite (the embedded default) and on PostgreSQL: a verify-document
message claims its document and other due documents of its brokerage in one transaction,
reserves and submits them together; their own messages, run by other workers at the same
time or later, find them taken.

Afterwards every document was claimed exactly once, each job was submitted once and
accepted, every document waits for its result (EXTRACTING), the ledger balances and the
status counts match the documents.
"""
import threading
from collections import Counter
from datetime import datetime

import pytest
from sqlalchemy import func, select

from leadflow.extraction.client import ExtractionUnavailable
from leadflow.models import AuditEntry, CreditReservation, CreditWallet, Document, DocumentStatusCount, ExtractionJob
from leadflow.services import pipeline
from tests.plugins.postgres import client_of_new_brokerage, migrated_app, run_threads
from tests.unit.fakes import FakeJobs

DOCUMENTS = 12
WORKERS = 4
BATCH = 5
PDF = b"%PDF-1.4\n% a stand-in: the pre-check was recorded at the upload\n"


@pytest.fixture(params=["sqlite", "postgresql"])
def claim_app(request, tmp_path):
    with migrated_app(request.param, tmp_path, "claims",
                      {"CLAIM_BATCH_SIZE": BATCH, "CLIENT_DAILY_PAGE_ALLOWANCE": 100}) as app:
        yield app


class Service:
    """The extraction service's client: takes every job; `batches` whether it has POST /jobs/batch;
    `refuse`: job ids it answers 503 for."""

    def __init__(self, batches: bool, refuse=()):
        self.lock = threading.Lock()
        self.submitted: list[str] = []
        self.requests: list[int] = []          # jobs per request
        self.refuse = set(refuse)
        if batches:
            self.submit_many = self._submit_many

    def healthy(self):
        return True

    def submit(self, *, job_id, **_):
        with self.lock:
            self.requests.append(1)
            self.submitted.append(job_id)
        if job_id in self.refuse:
            raise ExtractionUnavailable("submission answered 503")

    def _submit_many(self, submissions):
        with self.lock:
            self.requests.append(len(submissions))
            self.submitted.extend(s["job_id"] for s in submissions)
        return [ExtractionUnavailable("submission answered 503") if s["job_id"] in self.refuse else None
                for s in submissions]

    def job(self, job_id):
        return None


@pytest.mark.parametrize("batches", [True, False], ids=["batch endpoint", "job by job"])
def test_documents_raced_by_their_own_messages_are_each_claimed_once_and_submitted_together(claim_app, batches):
    from leadflow.extensions import db
    app = claim_app
    service = Service(batches)
    with app.app_context():
        brokerage_id, documents = _seed(app, db, DOCUMENTS)
    # Fewer workers than messages, as in a worker process: each takes the next message.
    queue = list(documents)
    barrier = threading.Barrier(WORKERS)
    outcomes, errors = [], []

    def worker():
        barrier.wait(timeout=60)
        while True:
            try:
                document_id = queue.pop(0)
            except IndexError:
                return
            with app.app_context():
                try:
                    outcomes.append(pipeline.verify_document(db.session, app.extensions["leadflow"], document_id,
                                                             brokerage_id))
                except Exception as exc:  # reported below: a thread's failure must fail the test
                    errors.append(f"{document_id}: {type(exc).__name__}: {exc}")
                finally:
                    db.session.remove()

    with _extraction(app, service):
        run_threads([threading.Thread(target=worker) for _ in range(WORKERS)])
    assert errors == []
    assert len(outcomes) == DOCUMENTS
    assert set(outcomes) <= {pipeline.Outcome.SUBMITTED, pipeline.Outcome.SKIPPED_NOT_PENDING}, outcomes

    with app.app_context():
        claims = Counter(db.session.scalars(select(AuditEntry.document_id).where(AuditEntry.action == "claimed")))
        assert claims == Counter({d: 1 for d in documents}), "each document claimed exactly once"
        statuses = dict(db.session.execute(select(Document.id, Document.status)).all())
        assert set(statuses.values()) == {"EXTRACTING"}, statuses
        jobs = db.session.execute(select(ExtractionJob.id, ExtractionJob.document_id, ExtractionJob.status,
                                         ExtractionJob.submit_attempts)).all()
        assert sorted(j.document_id for j in jobs) == sorted(documents), "one job per document"
        assert {(j.status, j.submit_attempts) for j in jobs} == {("accepted", 1)}
        assert sorted(service.submitted) == sorted(j.id for j in jobs), "each job submitted once"
        current = dict(db.session.execute(select(Document.id, Document.current_job_id)).all())
        assert {current[j.document_id] for j in jobs} == {j.id for j in jobs}
        # Fewer transactions than documents: some message took others along, in one request if it can.
        assert sum(1 for o in outcomes if o == pipeline.Outcome.SUBMITTED) < DOCUMENTS
        if batches:
            assert max(service.requests) > 1
        _ledger_and_counts_agree(db, brokerage_id, reserved=DOCUMENTS)


def test_only_plain_due_documents_are_taken_along_and_a_refused_one_is_sent_its_message_again(claim_app):
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import User
    app = claim_app
    with app.app_context():
        brokerage_id, documents = _seed(app, db, 6)
        first, refused, past_allowance, retrying, failed_precheck, plain = documents
        other_brokerage, (elsewhere,) = _seed(app, db, 1, name="Elsewhere")
        # A client at their allowance, a scheduled retry, a file that failed its pre-check.
        heavy = db.session.get(Document, past_allowance)
        heavy.page_count = 101
        scheduled = ExtractionJob(document_id=retrying, brokerage_id=brokerage_id, mode="first", status="created",
                                  deadline_at=datetime(2099, 1, 1))
        db.session.add(scheduled)
        db.session.flush()
        db.session.get(Document, retrying).current_job_id = scheduled.id
        db.session.get(Document, failed_precheck).precheck = "UNREADABLE"
        assert db.session.get(User, heavy.owner_id).role == "client"
        db.session.commit()
        ports = app.extensions["leadflow"]
        service = Service(True)
        with _extraction(app, service):
            # The refused document's job id is made inside the batch: refuse whatever job it gets.
            service.refuse = _JobOf(db, refused)
            outcome = pipeline.verify_document(db.session, ports, first, brokerage_id)
        assert outcome == pipeline.Outcome.SUBMITTED
        statuses = dict(db.session.execute(select(Document.id, Document.status)).all())
        assert statuses == {first: "EXTRACTING", plain: "EXTRACTING", refused: "PENDING", past_allowance: "PENDING",
                            retrying: "PENDING", failed_precheck: "PENDING", elsewhere: "PENDING"}
        assert service.requests == [3]
        refused_job = db.session.get(ExtractionJob, db.session.get(Document, refused).current_job_id)
        assert (refused_job.status, refused_job.submit_attempts) == ("created", 1)
        assert [a for a, in db.session.execute(select(AuditEntry.action).where(AuditEntry.document_id == refused)
                                               .order_by(AuditEntry.id))] == ["claimed", "submission_retry"]
        assert ("verify-document", (refused, brokerage_id)) in [(n, a) for n, a, _ in ports.jobs.sent]
        # Its own message claims it again and submits the job it has (the reservation held).
        with _extraction(app, Service(True)):
            assert pipeline.verify_document(db.session, ports, refused, brokerage_id) == pipeline.Outcome.SUBMITTED
        assert db.session.get(Document, refused).status == "EXTRACTING"
        assert billing.check_all(db.session) == {}
        db.session.remove()


class _JobOf:
    """`in`: whether a job id is the current job of one document (read when asked)."""

    def __init__(self, db, document_id):
        self.db, self.document_id = db, document_id

    def __contains__(self, job_id):
        with self.db.engine.connect() as connection:
            return connection.scalar(select(ExtractionJob.id).where(ExtractionJob.id == job_id,
                                                                    ExtractionJob.document_id == self.document_id)) \
                is not None


def _ledger_and_counts_agree(db, brokerage_id, *, reserved):
    from leadflow.billing import service as billing
    assert billing.check_all(db.session) == {}
    wallet = db.session.get(CreditWallet, brokerage_id)
    assert wallet.reserved == reserved
    assert db.session.scalar(select(func.count()).select_from(CreditReservation)
                             .where(CreditReservation.status == "open")) == reserved
    counted = dict(db.session.execute(select(DocumentStatusCount.status, DocumentStatusCount.count)
                                      .where(DocumentStatusCount.brokerage_id == brokerage_id)).all())
    actual = dict(db.session.execute(select(Document.status, func.count()).where(Document.brokerage_id == brokerage_id)
                                     .group_by(Document.status)).all())
    assert {s: n for s, n in counted.items() if n} == actual


class _extraction:
    def __init__(self, app, service):
        self.ports, self.service = app.extensions["leadflow"], service

    def __enter__(self):
        self.real, self.real_jobs = self.ports.extraction, self.ports.jobs
        self.ports.extraction = self.service
        if not isinstance(self.ports.jobs, FakeJobs):
            self.ports.jobs = FakeJobs()
        return self.service

    def __exit__(self, *exc):
        self.ports.extraction = self.real


def _seed(app, db, n, *, name="Batch Hypotheken"):
    """A brokerage with credits, a client, and `n` PENDING documents whose pre-check passed at
    the upload, stored, in upload order."""
    from leadflow.billing import service as billing
    from leadflow.services import counts
    user = client_of_new_brokerage(db, name)
    brokerage_id = user.brokerage_id
    storage = app.extensions["leadflow"].storage
    ids = []
    for i in range(n):
        now = datetime(2026, 11, 15, 12, 0, i)
        key = f"documents/{brokerage_id}/{i}.pdf"
        storage.put(key, PDF, "application/pdf")
        document = Document(brokerage_id=brokerage_id, owner_id=user.id, title=f"payslip {i}", status="PENDING",
                            filename=f"{i}.pdf", content_type="application/pdf", size_bytes=len(PDF),
                            storage_key=key, precheck=pipeline.PRECHECK_PASSED, page_count=1,
                            verification_notes=[], created_at=now, updated_at=now, status_changed_at=now)
        db.session.add(document)
        db.session.flush()
        ids.append(document.id)
    billing.grant(db.session, brokerage_id, 1000)
    counts.recount(db.session)
    db.session.commit()
    return brokerage_id, ids
