"""Verification messages as nudges, on SQLite (the embedded default) and on PostgreSQL.

While a verify-document message of a brokerage waits in the queue, a new upload of that
brokerage sends no message of its own: when the message runs, its claim takes the upload along.
What its claim could not take (a full batch, or its own document taken by another claim) gets a
message when it ends, so nothing waits for the pending sweep. Through the real job sender,
Dramatiq middleware and actors over the in-process broker; the extraction service takes every job.
"""
from collections import Counter

import dramatiq
import pytest
from dramatiq.common import dq_name
from dramatiq.middleware import Middleware
from sqlalchemy import select

from leadflow import jobs
from leadflow.models import AuditEntry, Document
from leadflow.services import documents, pipeline
from tests.plugins.doubles import HoldingService
from tests.plugins.postgres import client_of_new_brokerage, migrated_app
from tests.unit.fakes import pdf

BATCH = 3


@pytest.fixture(params=["sqlite", "postgresql"])
def app(request, tmp_path):
    import tasks
    with migrated_app(request.param, tmp_path, "nudges",
                      {"CLAIM_BATCH_SIZE": BATCH, "CLIENT_DAILY_PAGE_ALLOWANCE": 100}) as app:
        ports = app.extensions["leadflow"]
        ports.extraction = Service(ports.jobs.broker)
        tasks.bind(app)
        yield app


class Service(HoldingService):
    """Takes every job (one request each); notes which verify messages had been sent when the
    first job reached it (sent, not still queued: the worker's consumer may have fetched one
    already, which on a busy machine it sometimes did)."""

    def __init__(self, broker):
        super().__init__()
        self.sent = Sent()
        broker.add_middleware(self.sent)
        self.queued_at_first_job: list[str] | None = None

    def submit(self, **job) -> None:
        if self.queued_at_first_job is None:
            self.queued_at_first_job = list(self.sent.documents)
        super().submit(**job)


class Sent(Middleware):
    """The verify-document messages sent to the broker, by their document."""

    def __init__(self):
        self.documents: list[str] = []

    def after_enqueue(self, broker, message, delay):
        if message.actor_name == pipeline.VERIFY_ACTOR:
            self.documents.append(message.args[0])


class Ran(Middleware):
    """The verify-document messages a worker ran, by their document."""

    def __init__(self):
        self.documents: list[str] = []

    def after_process_message(self, broker, message, *, result=None, exception=None):
        if message.actor_name == pipeline.VERIFY_ACTOR:
            self.documents.append(message.args[0])


def test_uploads_while_a_message_waits_are_taken_along_and_the_rest_sent_on(app):
    from leadflow.extensions import db
    broker = app.extensions["leadflow"].jobs.broker
    with app.app_context():
        client, _ = _client(db, "Rhein Hypotheken", credits=100)
        elsewhere, _ = _client(db, "Isar Baufinanz", credits=100)
        uploads = [_upload(db, app, client, i) for i in range(7)]
        other = _upload(db, app, elsewhere, 0)
    queued = [m.args[0] for m in _queued(broker)]
    assert queued == [uploads[0], other], "one message per brokerage while its first waits"
    # An upload's message waits a moment (CLAIM_GATHER_MS) for more uploads to take along.
    waiting = _queued(broker, gathering=True)
    assert [m.args[0] for m in waiting] == queued
    gather_ms = app.config["CLAIM_GATHER_MS"]
    assert gather_ms > 0 and all(m.options["eta"] - m.message_timestamp >= gather_ms for m in waiting)

    ran = _work(broker)

    with app.app_context():
        statuses = dict(db.session.execute(select(Document.id, Document.status)).all())
        assert set(statuses.values()) == {"EXTRACTING"}, statuses
        claims = Counter(db.session.scalars(select(AuditEntry.document_id).where(AuditEntry.action == "claimed")))
        assert claims == Counter({d: 1 for d in [*uploads, other]}), "each claimed exactly once"
    # Seven documents in batches of three: the first message, then one for the oldest left
    # after each full batch (the fourth, the seventh); the other brokerage's message on its own.
    assert sorted(ran) == sorted([uploads[0], uploads[3], uploads[6], other])
    # A full batch sends the next one's message as its claim commits, before its own submission,
    # due at once: what waits there has waited already.
    service = app.extensions["leadflow"].extraction
    assert uploads[3] in service.queued_at_first_job, service.queued_at_first_job
    assert sorted(job["job_id"] for job in service.jobs) == sorted(_jobs(db, app))
    assert not _queued(broker)


def test_a_message_whose_document_another_claim_took_sends_what_it_was_to_take_along(app):
    from leadflow.extensions import db
    broker = app.extensions["leadflow"].jobs.broker
    with app.app_context():
        client, _ = _client(db, "Rhein Hypotheken", credits=100)
        first, second, third, fourth = (_upload(db, app, client, i) for i in range(4))
        assert [m.args[0] for m in _queued(broker)] == [first]
        # A claim from elsewhere (a sweep's message for the second, say) takes the first along,
        # in a batch of three: the third too, and the fourth is left, with no message of its own.
        ports = app.extensions["leadflow"]
        assert pipeline.verify_document(db.session, ports, second, client.brokerage_id) == pipeline.Outcome.SUBMITTED
        db.session.remove()

    ran = _work(broker)

    assert ran == [first, fourth], "the first found its document taken and sent the fourth its message"
    with app.app_context():
        statuses = dict(db.session.execute(select(Document.id, Document.status)).all())
        assert statuses == {first: "EXTRACTING", second: "EXTRACTING", third: "EXTRACTING", fourth: "EXTRACTING"}


def test_documents_the_credits_do_not_cover_are_each_told_once_and_the_queue_drains(app):
    from leadflow.extensions import db
    broker = app.extensions["leadflow"].jobs.broker
    with app.app_context():
        client, brokerage_id = _client(db, "Rhein Hypotheken", credits=1)
        first, second, third = (_upload(db, app, client, i) for i in range(3))

    ran = _work(broker)

    # The first takes the one credit; the others are not taken along, each gets its own message,
    # is claimed, waits for credits, and is not sent again by the messages after it.
    assert ran == [first, second, third]
    with app.app_context():
        statuses = dict(db.session.execute(select(Document.id, Document.status)).all())
        assert statuses == {first: "EXTRACTING", second: "PENDING", third: "PENDING"}
        waiting = db.session.scalars(select(AuditEntry.document_id).where(AuditEntry.action == "waiting_for_credits"))
        assert sorted(waiting) == sorted([second, third])


def test_without_claim_batches_every_upload_sends_its_own_message(tmp_path):
    from leadflow.extensions import db
    with migrated_app("sqlite", tmp_path, "nudges", {"CLAIM_BATCH_SIZE": 1}) as app:
        broker = app.extensions["leadflow"].jobs.broker
        with app.app_context():
            client, _ = _client(db, "Rhein Hypotheken", credits=100)
            uploads = [_upload(db, app, client, i) for i in range(3)]
        assert [m.args[0] for m in _queued(broker)] == uploads


def _client(db, name: str, *, credits: int):
    from leadflow.billing import service as billing
    user = client_of_new_brokerage(db, name)
    billing.grant(db.session, user.brokerage_id, credits)
    db.session.commit()
    return user, user.brokerage_id


def _upload(db, app, user, i: int) -> str:
    document = documents.upload(db.session, app.extensions["leadflow"], user, filename=f"payslip-{i}.pdf",
                                data=pdf(text=f"Gehaltsabrechnung {i}"), title=None, kind="payslip",
                                workspace_id=None, max_bytes=10_000_000)
    return document.id


def _queued(broker, *, gathering: bool | None = None) -> list[dramatiq.Message]:
    """The document queue's messages: those due at once and those waiting to gather more
    uploads (Dramatiq's delay queue); `gathering` True or False: only those."""
    names = {False: [jobs.DOCUMENT_QUEUE], True: [dq_name(jobs.DOCUMENT_QUEUE)],
             None: [jobs.DOCUMENT_QUEUE, dq_name(jobs.DOCUMENT_QUEUE)]}[gathering]
    return [dramatiq.Message.decode(data) for name in names for data in list(broker.queues[name].queue)]


def _work(broker) -> list[str]:
    """Run the queued messages and what they send, in one worker thread (one order); returns the
    documents of the verify-document messages it ran, in order."""
    ran = Ran()
    broker.add_middleware(ran)
    worker = dramatiq.Worker(broker, worker_threads=1, worker_timeout=50)
    worker.start()
    try:
        broker.join(jobs.DOCUMENT_QUEUE, fail_fast=True, timeout=30_000)
        worker.join()
    finally:
        worker.stop()
        broker.middleware.remove(ran)
    return ran.documents


def _jobs(db, app) -> list[str]:
    with app.app_context():
        return list(db.session.scalars(select(Document.current_job_id)))
