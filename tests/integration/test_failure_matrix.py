"""Every failure the pipeline can meet ends in an honest state: one test per row of the matrix.

Runs on the live app (PostgreSQL, the in-process Dramatiq worker, the extractor over HTTP).
Redis down on upload and a worker killed with SIGKILL are in tests/e2e, with real processes.
"""
import contextlib
import logging
import threading
from datetime import timedelta

import pytest
from sqlalchemy import func, select

import tasks
from leadflow import breaker, clock, outbox, sweeps
from leadflow.domain.lifecycle import Status
from leadflow.extensions import db
from leadflow.extraction.client import ExtractionClient
from leadflow.models import AuditEntry, CreditReservation, Document, DocumentVersion, ExtractionJob
from leadflow.services import pipeline, transitions
from leadflow.ports import current_ports
from tests.corpus import SAMPLES
from tests.integration.records import audit
from tests.plugins.doubles import HoldingService
from tests.plugins.live import free_port, wait_until

PDF = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}


class Recorder:
    """Status events as the realtime bus sees them, for one test."""

    def __init__(self):
        self.events = []
        self.active = True

    def __call__(self, event):
        if self.active:
            self.events.append((event["document_id"], event["status"]))

    def statuses(self, document_id):
        return [status for doc, status in self.events if doc == document_id]


@pytest.fixture(autouse=True)
def fresh_breakers(app):
    """Each test starts with breakers that know of no outage, and leaves none behind."""
    breaker.reset(app)
    yield
    breaker.reset(app)


@pytest.fixture
def events(app):
    recorder = Recorder()
    adapters_ = app.extensions["leadflow"]
    adapters_.bus.subscribe(recorder)
    yield recorder
    recorder.active = False


@contextlib.contextmanager
def extraction_service(app, client):
    adapters_ = app.extensions["leadflow"]
    real = adapters_.extraction
    adapters_.extraction = client
    try:
        yield
    finally:
        adapters_.extraction = real


def dead_extractor(app):
    return ExtractionClient(f"http://127.0.0.1:{free_port()}", app.config["EXTRACTION_API_KEY"], timeout=1)


def stored(app, document_id):
    with app.app_context():
        document = db.session.get(Document, document_id)
        db.session.expunge(document)
        return document


def test_a_transient_extractor_failure_is_retried_with_backoff_and_announced_once_per_change(world, app, live,
                                                                                            events):
    failing = dead_extractor(app)
    real = app.extensions["leadflow"].extraction
    calls = []

    class FlakyOnce:
        def __getattr__(self, name):
            return getattr(real, name)

        def submit(self, **kw):
            calls.append(kw["job_id"])
            return (failing if len(calls) == 1 else real).submit(**kw)

    with extraction_service(app, FlakyOnce()):
        document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
        done = world.client_a.api.wait_for_status(document_id, SETTLED)
    assert done["status"] == "VERIFIED"
    assert len(calls) == 2 and calls[0] == calls[1], "the retry reuses the same job"
    assert [a[0] for a in audit(app, document_id)] == [
        "uploaded", "claimed", "submission_retry", "claimed", "extraction_started", "extraction_completed"]
    assert events.statuses(document_id) == ["PENDING", "PROCESSING", "PENDING", "PROCESSING", "EXTRACTING",
                                            "VERIFIED"]
    with app.app_context():
        job = db.session.get(ExtractionJob, calls[0])
        assert job.submit_attempts == 2 and job.status == "completed"


def system_retry_scheduled(app, document_id, timeout=30):
    return wait_until(lambda: [a for a in audit(app, document_id) if a[0] == "system_retry"], timeout=timeout,
                      message=f"a system retry of {document_id}")


def reservation_status(app) -> str | None:
    with app.app_context():
        return db.session.scalar(select(CreditReservation.status))


def test_when_every_submission_fails_the_document_waits_for_an_automatic_retry_and_is_released(world, app):
    # Before automatic retries this ended REJECTED SYSTEM_SUBMISSION_FAILED: a failure of ours
    # shown to the client as a rejection.
    with extraction_service(app, dead_extractor(app)):
        document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
        retry = system_retry_scheduled(app, document_id)
    done = world.client_a.api.document(document_id)
    assert done["status"] == "PENDING" and done["rejection_code"] is None
    assert done["verification_notes"][0]["code"] == "system_retry"
    assert "SYSTEM_SUBMISSION_FAILED (1 of 5)" in retry[0][3] and retry[0][1:3] == ("PROCESSING", "PENDING")
    assert [a[0] for a in audit(app, document_id)].count("claimed") == 3
    # The release is the worker's next commit, after the status's (effects.close_reservations).
    wait_until(lambda: reservation_status(app) == "released", timeout=30, message="the reservation's release")
    with app.app_context():
        job = db.session.get(ExtractionJob, db.session.get(Document, document_id).current_job_id)
        assert job.status == "created", "a retry scheduled: created, not submitted before its time"
        assert abs(job.deadline_at - (clock.now() + timedelta(minutes=5))) < timedelta(seconds=30)


def test_when_retries_are_exhausted_the_document_waits_for_an_automatic_retry_with_the_reason(world, app,
                                                                                             monkeypatch):
    # Before automatic retries this ended REJECTED SYSTEM_RETRIES_EXHAUSTED.
    storage = app.extensions["leadflow"].storage

    def storage_down(key, **_):
        raise RuntimeError("object storage is down")

    # The worker's one storage call for a file the upload checked: signing its download link.
    monkeypatch.setattr(storage, "download_url", storage_down)
    document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
    retry = system_retry_scheduled(app, document_id)
    done = world.client_a.api.document(document_id)
    assert done["status"] == "PENDING" and done["verification_notes"][0]["code"] == "system_retry"
    assert retry[0][3].startswith("SYSTEM_RETRIES_EXHAUSTED (1 of 5)")
    assert "RuntimeError: object storage is down" in retry[0][3]
    assert [a[0] for a in audit(app, document_id)].count("attempt_failed") == 3


def test_a_domain_rejection_is_not_retried(world, app):
    corrupt = b"%PDF-1.4\n" + b"\x00garbage that no reader can open\n" * 20
    document_id = world.client_a.api.upload(corrupt, filename="broken.pdf").json()["id"]
    done = world.client_a.api.wait_for_status(document_id, SETTLED)
    assert done["status"] == "REJECTED" and done["rejection_code"] == "UNREADABLE"
    assert "damaged" in done["verification_notes"][0]["en"]
    assert [a[0] for a in audit(app, document_id)] == ["uploaded", "claimed", "precheck_failed"]


def test_a_duplicate_message_for_a_finished_document_changes_nothing(world, app, live, events):
    document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
    before = world.client_a.api.wait_for_status(document_id, "VERIFIED")
    live.drain()
    trail = audit(app, document_id)
    seen = list(events.events)
    tasks.verify_document.send(document_id, world.brokerage_a)
    tasks.verify_document.send(document_id, world.brokerage_a)
    live.drain()
    assert world.client_a.api.document(document_id) == before
    assert audit(app, document_id) == trail
    assert events.events == seen
    with app.app_context():
        assert pipeline.verify_document(db.session, current_ports(), document_id, world.brokerage_a) == \
            pipeline.Outcome.SKIPPED_TERMINAL


def test_a_message_naming_another_brokerage_is_failed_without_retry_and_touches_nothing(world, app, live, caplog):
    document_id = _upload_without_enqueue(world, app)
    trail = audit(app, document_id)
    before = world.client_a.api.document(document_id)
    caplog.set_level(logging.WARNING, logger="leadflow.security")
    message = tasks.verify_document.send(document_id, world.brokerage_b)
    live.drain()
    assert stored(app, document_id).status == "PENDING"
    assert audit(app, document_id) == trail
    assert before["updated_at"] == world.client_a.api.document(document_id)["updated_at"]
    assert any("security" in r.getMessage() and document_id in r.getMessage() for r in caplog.records)
    # One attempt, no retry: a second delivery of the message would have logged a second event.
    assert sum(document_id in r.getMessage() for r in caplog.records if r.name == "leadflow.security") == 1
    assert message.options.get("retries") is None
    with app.app_context(), pytest.raises(pipeline.TenantMismatch):
        pipeline.verify_document(db.session, current_ports(), document_id, world.brokerage_b)


def test_of_several_workers_racing_for_one_document_exactly_one_claims_it(world, app, live):
    document_id = _upload_without_enqueue(world, app)
    barrier = threading.Barrier(4)
    outcomes = []

    def worker():
        with app.app_context():
            barrier.wait()
            outcomes.append(pipeline.verify_document(db.session, current_ports(), document_id, world.brokerage_a))
            db.session.remove()

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert sorted(outcomes) == sorted([pipeline.Outcome.SUBMITTED] + [pipeline.Outcome.SKIPPED_NOT_PENDING] * 3)
    world.client_a.api.wait_for_status(document_id, "VERIFIED")


def test_two_schedulers_never_run_the_same_sweep_at_once(world, app, redis_url, monkeypatch):
    for redis in (None, redis_url):
        monkeypatch.setitem(app.config, "REDIS_URL", redis)
        with app.app_context():
            held = sweeps._lock("pending")
            assert held.acquire()
            try:
                assert sweeps.run("pending") is None, "the second scheduler skips while the first holds it"
            finally:
                held.release()
            assert sweeps.run("pending") == 0


def test_a_stale_pending_document_is_enqueued_by_the_pending_sweep(world, app, live):
    document_id = _upload_without_enqueue(world, app)
    live.drain()
    assert stored(app, document_id).status == "PENDING"
    with app.app_context():
        assert sweeps.run("pending") == 0, "not stale yet"
        clock.shift(timedelta(minutes=6))
        assert sweeps.run("pending") == 1
    assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "VERIFIED"


def test_a_document_stalled_in_processing_is_reset_with_an_audit_note_and_finished(world, app, live):
    document_id = _upload_without_enqueue(world, app)
    with app.app_context():
        # What a worker killed right after its claim leaves behind.
        assert transitions.apply(db.session, document_id, Status.PENDING, Status.PROCESSING, action="claimed")
        outbox.commit()
        assert sweeps.run("stalled") == 0, "not stalled yet"
        clock.shift(timedelta(minutes=11))
        assert sweeps.run("stalled") == 1
    reset = [a for a in audit(app, document_id) if a[0] == "stalled_reset"]
    assert len(reset) == 1 and reset[0][1:3] == ("PROCESSING", "PENDING") and "stuck in PROCESSING" in reset[0][3]
    assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "VERIFIED"


def test_a_job_past_its_deadline_is_asked_about_first_and_its_answer_applied_and_logged_like_a_callback(
        world, app, live):
    document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
    world.client_a.api.wait_for_status(document_id, "VERIFIED")
    live.drain()
    with app.app_context():
        document = db.session.get(Document, document_id)
        job_id = document.current_job_id
        # As if the callback had been lost: the document still waits in EXTRACTING.
        db.session.execute(db.update(Document).where(Document.id == document_id).values(status="EXTRACTING"))
        db.session.execute(db.update(ExtractionJob).where(ExtractionJob.id == job_id).values(status="accepted"))
        db.session.execute(db.delete(AuditEntry).where(AuditEntry.document_id == document_id,
                                                       AuditEntry.action == "extraction_completed"))
        db.session.execute(db.delete(DocumentVersion).where(DocumentVersion.document_id == document_id))
        db.session.commit()
        clock.shift(timedelta(seconds=app.config["EXTRACTION_DEADLINE_SECONDS"] + 1))
        assert sweeps.run("deadline") == 1
    trail = audit(app, document_id)
    assert trail[-1][:3] == ("extraction_completed", "EXTRACTING", "VERIFIED")
    versions = world.client_a.api.get(f"/api/documents/{document_id}/versions").json()["versions"]
    assert len(versions) == 2
    # The polled answer is in the status log and the history, as a callback would be.
    history = world.admin_a.api.get(f"/api/documents/{document_id}/history").json()["history"]
    polled = [e for e in history if e["kind"] == "callback" and e["delivery_id"] == f"poll-{job_id}-1"]
    assert len(polled) == 1 and polled[0]["event_type"] == "job.completed" and polled[0]["job_id"] == job_id
    assert polled[0]["payload"]["data"]["document_type"] == "bank_statement"


def test_a_job_the_service_never_received_is_submitted_again_then_given_up(world, app, live):
    document_id = _upload_without_enqueue(world, app)
    max_attempts = app.config["EXTRACTION_MAX_SUBMIT_ATTEMPTS"]

    forgetful = HoldingService()  # accepts jobs, never reports back, forgets them
    with extraction_service(app, forgetful):
        tasks.verify_document.send(document_id, world.brokerage_a)
        for attempt in range(max_attempts):
            wait_until(lambda: stored(app, document_id).status == "EXTRACTING", message="EXTRACTING")
            live.drain()
            with app.app_context():
                clock.shift(timedelta(seconds=app.config["EXTRACTION_DEADLINE_SECONDS"] + 1))
                assert sweeps.run("deadline") == 1
            live.drain()
    # Before automatic retries this ended REJECTED SYSTEM_EXTRACTION_FAILED.
    done = world.client_a.api.document(document_id)
    assert done["status"] == "PENDING" and done["verification_notes"][0]["code"] == "system_retry"
    assert audit(app, document_id)[-1][:3] == ("system_retry", "EXTRACTING", "PENDING")
    assert "SYSTEM_EXTRACTION_FAILED" in audit(app, document_id)[-1][3]
    assert len({job["job_id"] for job in forgetful.jobs}) == max_attempts
    with app.app_context():
        open_left = db.session.scalar(select(func.count()).select_from(CreditReservation)
                                      .where(CreditReservation.status == "open"))
        assert open_left == 0


def test_an_event_leaves_only_after_its_transaction_commits(world, app, live, events):
    document_id = _upload_without_enqueue(world, app)
    live.drain()
    events.events.clear()
    with app.app_context():
        assert transitions.apply(db.session, document_id, Status.PENDING, Status.PROCESSING, action="claimed")
        outbox.rollback()
        assert stored(app, document_id).status == "PENDING"
        assert transitions.apply(db.session, document_id, Status.PENDING, Status.PROCESSING, action="claimed")
        outbox.commit()
    app.extensions["leadflow"].bus.join(5)
    assert events.statuses(document_id) == ["PROCESSING"]


@contextlib.contextmanager
def _enqueue_dropped():
    """As if the process died after the status commit and before the enqueue."""
    from leadflow import effects
    from leadflow.domain.events import VerificationRequested
    handlers = outbox._handlers[VerificationRequested]
    saved = list(handlers)
    handlers[:] = [h for h in handlers if h is not effects.enqueue_verification]
    try:
        yield
    finally:
        handlers[:] = saved


def _upload_without_enqueue(world, app):
    with _enqueue_dropped():
        response = world.client_a.api.upload(PDF, kind="bank_statement")
    assert response.status_code == 201
    return response.json()["id"]


def test_an_admin_can_retry_a_system_failure_and_it_finishes(world, app, monkeypatch):
    monkeypatch.setitem(app.config, "SYSTEM_RETRY_DELAYS_MINUTES", [])  # no automatic retry: a person at once
    with extraction_service(app, dead_extractor(app)):
        document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
        handed = world.client_a.api.wait_for_status(document_id, SETTLED, timeout=30)
        assert (handed["status"], handed["rejection_code"]) == ("ACTION_REQUIRED", "SYSTEM_SUBMISSION_FAILED")
    assert world.advisor_a.api.post(f"/api/documents/{document_id}/retry").status_code == 403
    assert world.admin_b.api.post(f"/api/documents/{document_id}/retry").status_code == 404
    retried = world.admin_a.api.post(f"/api/documents/{document_id}/retry")
    # Its answer is the document as it is now, which the worker may have claimed already.
    assert retried.status_code == 202 and retried.json()["rejection_code"] is None
    assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "VERIFIED"
    again = world.platform_admin.api.post(f"/api/documents/{document_id}/retry")
    assert again.status_code == 409, "a verdict is not a system failure"


def test_a_pending_document_whose_message_died_with_its_worker_is_taken_over_by_the_sweep(world, app, live):
    from leadflow import jobs
    document_id = _upload_without_enqueue(world, app)
    # A worker took the message (and so its dedup key) and was killed before running it.
    assert app.extensions["leadflow"].jobs.dedup.acquire(jobs.verification_key(document_id))
    with app.app_context():
        clock.shift(timedelta(minutes=6))
        assert sweeps.run("pending") == 0, "within twice the threshold the key still counts as a live message"
        clock.shift(timedelta(minutes=5))
        assert sweeps.run("pending") == 1
    assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "VERIFIED"
