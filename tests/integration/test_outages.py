"""Our outages wait; they do not fail documents.

While storage or the extraction service is known to be down (a breaker opened on failures),
documents stay PENDING and spend no attempt, and go through when the service is back; a
failure of ours is retried on SYSTEM_RETRY_DELAYS_MINUTES and then handed to a person, never
shown to the client as a rejection. Runs on the live app (PostgreSQL, the in-process worker,
the extractor over HTTP); storage outages freeze a moto S3 server of the test's own (SIGSTOP).
"""
import contextlib
import logging
import os
import signal
import subprocess
import sys
import uuid
from datetime import timedelta
from pathlib import Path

import boto3
import pytest
import requests
from botocore.config import Config
from sqlalchemy import select

import tasks
from leadflow import breaker, clock, sweeps
from leadflow.extensions import db
from leadflow.extraction.client import ExtractionClient, ServiceDown
from leadflow.models import CallbackDelivery, Document, ExtractionJob
from leadflow.services import pipeline
from leadflow.storage.s3 import S3Storage
from leadflow.ports import current_ports
from tests.corpus import SAMPLES
from tests.integration.records import audit
from tests.plugins.doubles import HoldingService
from tests.plugins.live import free_port, wait_until

PDF = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}


@pytest.fixture(autouse=True)
def quick_breakers(app, monkeypatch):
    """Breakers that cool down in a second, fresh for each test and forgotten after it."""
    monkeypatch.setitem(app.config, "BREAKER_COOLDOWN_SECONDS", 1)
    breaker.reset(app)
    yield
    breaker.reset(app)


@contextlib.contextmanager
def swapped(app, name, adapter):
    adapters = app.extensions["leadflow"]
    real = getattr(adapters, name)
    setattr(adapters, name, adapter)
    try:
        yield real
    finally:
        setattr(adapters, name, real)


def jobs_of(app, document_id):
    with app.app_context():
        return [(j.status, j.submit_attempts) for j in db.session.scalars(
            select(ExtractionJob).where(ExtractionJob.document_id == document_id).order_by(ExtractionJob.created_at))]


def upload_without_enqueue(world, app):
    """An upload whose message is lost, so that the test decides when the worker sees it."""
    from leadflow import effects, outbox
    from leadflow.domain.events import VerificationRequested
    handlers = outbox._handlers[VerificationRequested]
    saved = list(handlers)
    handlers[:] = [h for h in handlers if h is not effects.enqueue_verification]
    try:
        response = world.client_a.api.upload(PDF, kind="bank_statement")
    finally:
        handlers[:] = saved
    assert response.status_code == 201
    return response.json()["id"]


# -- the breaker itself (no I/O) -------------------------------------------------------------

class Ticks:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_a_breaker_opens_after_failures_answers_down_while_open_and_half_opens_for_one_probe():
    ticks = Ticks()
    b = breaker.Breaker("extraction", failures=3, cooldown=5, fresh=3, clock=ticks)
    b.failed(), b.failed()
    assert b.allow() and not b.is_down(), "two failures in a row are not an outage yet"
    b.failed()
    assert b.is_down() and not b.allow() and b.retry_in() == 5
    ticks.now += 5
    assert not b.is_down() and b.allow(), "after the cool-down one caller may probe"
    assert b.is_down() and not b.allow(), "while the probe is under way nobody else tries"
    b.failed()
    assert b.is_down(), "a failed probe opens it for another cool-down"
    ticks.now += 5
    assert b.allow()
    b.succeeded()
    assert b.state == breaker.CLOSED and b.recently_ok() and b.allow()
    ticks.now += 3
    assert not b.recently_ok(), "a health answer counts for HEALTH_FRESH_SECONDS only"


def test_a_probe_that_never_reports_back_does_not_hold_the_breaker_half_open():
    ticks = Ticks()
    b = breaker.Breaker("storage", failures=1, cooldown=2, clock=ticks)
    b.failed()
    ticks.now += 2
    assert b.allow()
    ticks.now += 2
    assert b.allow(), "the next cool-down gives another caller the probe"


def test_the_client_answers_service_down_without_calling_a_service_known_to_be_down(app):
    calls = []

    class Counting(requests.Session):
        def request(self, *args, **kwargs):
            calls.append(args)
            return super().request(*args, **kwargs)

    client = ExtractionClient(f"http://127.0.0.1:{free_port()}", "key", timeout=1,
                              breaker=breaker.Breaker("extraction", failures=2, cooldown=60))
    client._session = Counting()
    assert not client.healthy() and not client.healthy()
    with pytest.raises(ServiceDown):
        client.submit(job_id="j", document_url="u", callback_url="c", mode="first")
    assert len(calls) == 2, "the open breaker answered; the service was not called again"


# -- the extraction service down ---------------------------------------------------------------

def test_while_the_extraction_service_is_known_down_documents_stay_pending_and_spend_no_attempt(
        world, app, live, monkeypatch):
    seen = []
    real_verify = pipeline.verify_document

    def counted(session, ports, document_id, brokerage_id):
        outcome = real_verify(session, ports, document_id, brokerage_id)
        seen.append((document_id, outcome))
        return outcome

    monkeypatch.setattr(pipeline, "verify_document", counted)
    real = app.extensions["leadflow"].extraction
    down = ExtractionClient(f"http://127.0.0.1:{free_port()}", app.config["EXTRACTION_API_KEY"], timeout=1)
    with swapped(app, "extraction", down):
        with app.app_context():
            for _ in range(app.config["BREAKER_FAILURES"]):
                assert not down.healthy()
            assert down.breaker.is_down(), "failed health checks opened the breaker"
        ids = [world.client_a.api.upload(PDF, kind="bank_statement").json()["id"] for _ in range(3)]
        # The first document's message found the breaker open and was sent again for later; the
        # uploads that came while it gathered wait with it (those that came after, in messages of
        # their own, found the breaker open too).
        wait_until(lambda: ids[0] in {d for d, o in seen if o == pipeline.Outcome.WAITING_FOR_SERVICE},
                   timeout=20, message="the first document to wait for the service")
        for document_id in ids:
            assert world.client_a.api.document(document_id)["status"] == "PENDING"
            assert [a[0] for a in audit(app, document_id)] == ["uploaded"], "never claimed, no attempt spent"
            assert jobs_of(app, document_id) == []
        # The service comes back (the same client, now reaching it).
        waits_before = len(seen)
        down.base_url = real.base_url
        for document_id in ids:
            assert world.client_a.api.wait_for_status(document_id, SETTLED, timeout=30)["status"] == "VERIFIED"
    for document_id in ids:
        assert jobs_of(app, document_id) == [("completed", 1)], "one submission, the one that worked"
        assert "system_retry" not in [a[0] for a in audit(app, document_id)]
    # Waiting is not spinning: with a one-second cool-down doubling per wait, a handful of
    # messages per document, not hundreds.
    assert waits_before <= 3 * 4


# -- storage down (an S3 server frozen with SIGSTOP) -------------------------------------------

@pytest.fixture
def frozen_s3(app, tmp_path):
    """A moto S3 server of this test's own, as a process the test can freeze and thaw; the
    app's storage is an S3Storage on it with short timeouts (a frozen server fails fast)."""
    port = free_port()
    env = {**os.environ, "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost"}
    moto = Path(sys.executable).parent / "moto_server"
    process = subprocess.Popen([str(moto), "-H", "127.0.0.1", "-p", str(port)], env=env,
                               stdout=open(tmp_path / "moto.log", "wb"), stderr=subprocess.STDOUT,
                               start_new_session=True)
    endpoint = f"http://127.0.0.1:{port}"

    def answers():
        try:
            return requests.get(endpoint, timeout=1).status_code < 500
        except requests.RequestException:
            return False

    try:
        wait_until(answers, timeout=30, message="the test's S3 server")
        client = boto3.session.Session(aws_access_key_id="testing", aws_secret_access_key="testing").client(
            "s3", endpoint_url=endpoint, region_name="eu-central-1",
            config=Config(signature_version="s3v4", s3={"addressing_style": "path"}, connect_timeout=1,
                          read_timeout=1, retries={"mode": "standard", "max_attempts": 1}))
        storage = S3Storage(f"outage-{uuid.uuid4().hex[:8]}", endpoint_url=endpoint, create_bucket=True,
                            client=client)
        with swapped(app, "storage", storage):
            yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGCONT)
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def test_while_storage_is_frozen_documents_stay_pending_and_spend_no_attempt_then_go_through(
        world, app, live, frozen_s3, monkeypatch):
    waiting = set()
    real_verify = pipeline.verify_document

    def watched(session, ports, document_id, brokerage_id):
        outcome = real_verify(session, ports, document_id, brokerage_id)
        if outcome == pipeline.Outcome.WAITING_FOR_SERVICE:
            waiting.add(document_id)
        return outcome

    monkeypatch.setattr(pipeline, "verify_document", watched)
    ids = [upload_without_enqueue(world, app) for _ in range(3)]
    os.killpg(frozen_s3.pid, signal.SIGSTOP)
    try:
        for document_id in ids:
            tasks.verify_document.send(document_id, world.brokerage_a)
        # The first failures open the breaker; from then on every document waits.
        wait_until(lambda: waiting == set(ids), timeout=30, message="every document to wait for storage")
        with app.app_context():
            assert breaker.for_app("storage").is_down()
        for document_id in ids:
            assert world.client_a.api.document(document_id)["status"] == "PENDING"
            actions = [a[0] for a in audit(app, document_id)]
            assert "system_retry" not in actions and "retries_exhausted" not in actions
            assert jobs_of(app, document_id) == [], "nothing submitted, no submission attempt spent"
    finally:
        os.killpg(frozen_s3.pid, signal.SIGCONT)
    for document_id in ids:
        assert world.client_a.api.wait_for_status(document_id, SETTLED, timeout=40)["status"] == "VERIFIED"
        assert jobs_of(app, document_id) == [("completed", 1)]


# -- a failure of ours walks the retry schedule --------------------------------------------------

def test_a_system_failure_walks_the_retry_schedule_and_ends_with_a_person_never_rejected(
        world, app, live, monkeypatch):
    monkeypatch.setitem(app.config, "SYSTEM_RETRY_DELAYS_MINUTES", [10, 30])
    monkeypatch.setitem(app.config, "EXTRACTION_MAX_SUBMIT_ATTEMPTS", 1)
    statuses = []
    app.extensions["leadflow"].bus.subscribe(lambda event: statuses.append(event["status"]))
    deadline = timedelta(seconds=app.config["EXTRACTION_DEADLINE_SECONDS"] + 1)
    forgetful = HoldingService()  # accepts jobs, never reports back: each one passes its deadline

    def extracting(document_id):
        return world.client_a.api.wait_for_status(document_id, "EXTRACTING")

    with swapped(app, "extraction", forgetful):
        document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
        extracting(document_id)
        live.drain()
        with app.app_context():
            clock.shift(deadline)
            assert sweeps.run("deadline") == 1
        waiting = world.client_a.api.document(document_id)
        assert waiting["status"] == "PENDING" and waiting["rejection_code"] is None
        assert waiting["verification_notes"][0]["code"] == "system_retry"
        assert waiting["verification_notes"][0]["en"].startswith("Still being checked")
        portal = world.client_a.api.get("/portal").text
        row = portal[portal.index(f'id="document-{document_id}"'):]
        row = row[:row.index("</tr>")]
        assert "CHECKING" in row and "Still being checked" in row and "REJECTED" not in row

        # Not before its time: neither the pending sweep nor a stray message starts it early.
        with app.app_context():
            clock.shift(timedelta(minutes=6))
            assert sweeps.run("pending") == 0 and sweeps.run("retries") == 0
            assert pipeline.verify_document(db.session, current_ports(), document_id, world.brokerage_a) == \
                pipeline.Outcome.NOT_DUE
            clock.shift(timedelta(minutes=5))
            assert sweeps.run("retries") == 1
        extracting(document_id)
        live.drain()
        with app.app_context():
            clock.shift(deadline)
            assert sweeps.run("deadline") == 1
        assert world.client_a.api.document(document_id)["status"] == "PENDING"

        with app.app_context():
            clock.shift(timedelta(minutes=31))
            assert sweeps.run("retries") == 1
        extracting(document_id)
        live.drain()
        with app.app_context():
            clock.shift(deadline)
            assert sweeps.run("deadline") == 1
        live.drain()

    handed = world.client_a.api.document(document_id)
    assert (handed["status"], handed["rejection_code"]) == ("ACTION_REQUIRED", "SYSTEM_EXTRACTION_FAILED")
    assert handed["verification_notes"][0]["en"].startswith("Still being checked")
    assert "REJECTED" not in statuses, "the client never saw a rejection for a failure of ours"
    trail = [a[0] for a in audit(app, document_id)]
    assert trail.count("system_retry") == 2 and trail[-1] == "system_retries_spent"
    assert len(forgetful.jobs) == 3

    # A person sees it on the stuck-and-failed tab, not in the type-decision queue, and retries it.
    with app.app_context():
        from leadflow.web import review
        query = select(Document.id)
        assert document_id in db.session.scalars(review.failed_documents(query, {})).all()
        assert document_id not in db.session.scalars(review.review_documents(query, {})).all()
    retried = world.admin_a.api.post(f"/api/documents/{document_id}/retry")
    # Its answer is the document as it is now, which the worker may have claimed already.
    assert retried.status_code == 202 and retried.json()["rejection_code"] is None
    assert world.client_a.api.wait_for_status(document_id, SETTLED)["status"] == "VERIFIED"


def test_a_file_problem_reported_by_the_reader_is_still_a_rejection_the_client_can_act_on(world, app, live):
    document_id, _ = _reader_fails(world, app, "unreadable", "no text", retryable=False)
    done = world.client_a.api.document(document_id)
    assert (done["status"], done["rejection_code"]) == ("REJECTED", "UNREADABLE")


def test_a_system_failure_reported_by_the_reader_is_retried_not_rejected(world, app, live):
    document_id, outcome = _reader_fails(world, app, "internal_error", "worker crashed", retryable=True)
    assert outcome.endswith("retry scheduled")
    done = world.client_a.api.document(document_id)
    assert done["status"] == "PENDING" and done["rejection_code"] is None
    assert audit(app, document_id)[-1][:3] == ("system_retry", "EXTRACTING", "PENDING")
    assert "SYSTEM_EXTRACTION_FAILED" in audit(app, document_id)[-1][3]


def _reader_fails(world, app, code: str, message: str, *, retryable: bool) -> tuple[str, str]:
    """Upload a document, hold its job, then apply the reader's job.failed with `code`."""
    forgetful = HoldingService()
    with swapped(app, "extraction", forgetful):
        document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
        world.client_a.api.wait_for_status(document_id, "EXTRACTING")
    job_id = forgetful.jobs[0]["job_id"]
    from leadflow.services import callbacks
    with app.app_context():
        db.session.add(CallbackDelivery(id=f"test-{job_id}", job_id=job_id, event_type="job.failed", payload={
            "type": "job.failed", "job_id": job_id,
            "data": {"error": {"code": code, "message": message, "retryable": retryable}}}))
        db.session.commit()
        outcome = callbacks.process(db.session, current_ports(), f"test-{job_id}")
    return document_id, outcome


# -- a callback that overtakes its submission's commit -----------------------------------------

def test_a_callback_before_its_submission_committed_is_logged_at_info_without_a_traceback_and_applied(
        world, app, live, caplog):
    caplog.set_level(logging.INFO)
    document_id = upload_without_enqueue(world, app)
    early = "came before its submission committed"

    class Hasty(HoldingService):
        """Answers before LeadFlow has committed that it accepted the job."""

        def submit(self, **job):
            super().submit(**job)
            delivery_id = f"hasty-{job['job_id']}"
            with app.app_context():
                db.session.add(CallbackDelivery(id=delivery_id, job_id=job["job_id"], event_type="job.completed",
                                                payload={"type": "job.completed", "job_id": job["job_id"], "data": {
                                                    "pages": 1, "document_type": "unknown", "confidence": 0.2,
                                                    "content": {}, "schema": {}}}))
                db.session.commit()
                db.session.remove()
            tasks.process_delivery.send(delivery_id)
            wait_until(lambda: any(early in r.getMessage() for r in caplog.records), timeout=15,
                       message="the early delivery to be tried")

    with swapped(app, "extraction", Hasty()):
        tasks.verify_document.send(document_id, world.brokerage_a)
        done = world.client_a.api.wait_for_status(document_id, SETTLED, timeout=30)
        live.drain()
    assert done["status"] in SETTLED, "the early delivery was applied once its submission committed"
    told = [r for r in caplog.records if early in r.getMessage()]
    assert told and all(r.levelno == logging.INFO and r.exc_info is None for r in told)
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert errors == [], f"an expected retry logged as an error: {[r.getMessage()[:200] for r in errors]}"


def test_an_overdue_job_is_not_given_up_while_the_extraction_service_is_known_down(world, app, live):
    forgetful = HoldingService()
    with swapped(app, "extraction", forgetful):
        document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
        world.client_a.api.wait_for_status(document_id, "EXTRACTING")
        live.drain()
    down = ExtractionClient(f"http://127.0.0.1:{free_port()}", app.config["EXTRACTION_API_KEY"], timeout=1)
    with swapped(app, "extraction", down), app.app_context():
        for _ in range(app.config["BREAKER_FAILURES"]):
            down.healthy()
        clock.shift(timedelta(seconds=app.config["EXTRACTION_DEADLINE_SECONDS"] + 1))
        sweeps.run("deadline")
    assert world.client_a.api.document(document_id)["status"] == "EXTRACTING", "nothing given up during the outage"
    assert jobs_of(app, document_id) == [("accepted", 1)]
    with swapped(app, "extraction", forgetful), app.app_context():
        assert sweeps.run("deadline") == 1, "once the service answers, the overdue job is dealt with"
    assert audit(app, document_id)[-1][:3] == ("deadline_passed", "EXTRACTING", "PENDING")


def test_an_overdue_job_the_service_is_still_working_on_gets_another_deadline_not_a_second_submission(
        world, app, live):
    class Busy(HoldingService):
        """Accepts jobs and works through a long queue: asked, it says the job is still queued."""

        def job(self, job_id):
            return {"job_id": job_id, "status": "queued"}

    busy = Busy()
    deadline = timedelta(seconds=app.config["EXTRACTION_DEADLINE_SECONDS"] + 1)
    with swapped(app, "extraction", busy):
        document_id = world.client_a.api.upload(PDF, kind="bank_statement").json()["id"]
        world.client_a.api.wait_for_status(document_id, "EXTRACTING")
        live.drain()
        with app.app_context():
            clock.shift(deadline)
            assert sweeps.run("deadline") == 1
            job = db.session.scalar(select(ExtractionJob).where(ExtractionJob.document_id == document_id))
            assert job.status == "accepted" and job.deadline_at > clock.now(), "another deadline"
        assert world.client_a.api.document(document_id)["status"] == "EXTRACTING" and len(busy.jobs) == 1
        with app.app_context():
            clock.shift(deadline * sweeps.BUSY_DEADLINES)
            assert sweeps.run("deadline") == 1
        live.drain()
    assert len(busy.jobs) == 2, "past its patience the job is given up and submitted again"
