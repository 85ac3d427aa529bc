"""Sweeps: find work that got stuck and push it on. Bounded batches over indexed columns.

Each sweep's cost grows with the stale rows, not the table: it reads at most one batch per
run, oldest first, through an index on (status, status_changed_at) or the like. A lock per
sweep (Redis when configured, else in-process) keeps two schedulers from running the same one.
"""
import logging
import threading
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Callable

from flask import current_app
from sqlalchemy import select, update

from leadflow import jobs, metrics, outbox
from leadflow.billing import ledger
from leadflow.billing import service as billing
from leadflow.domain.events import VerificationRequested
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.extensions import db
from leadflow.extraction.client import ExtractionUnavailable, ServiceDown
from leadflow.models import CallbackDelivery, CreditReservation, Document, ExtractionJob, utcnow
from leadflow.services import callbacks, pipeline, transitions
from leadflow.wiring import adapters

log = logging.getLogger(__name__)
DELIVERY_GRACE = timedelta(seconds=30)
# A job the service says it is still working on gets up to this many deadlines in all.
BUSY_DEADLINES = 6


@dataclass(frozen=True)
class Sweep:
    name: str
    run: Callable[[datetime, int], int]
    doc: str


def run(name: str, now: datetime | None = None) -> int | None:
    """Run one sweep under its lock; None when another scheduler holds it."""
    sweep = SWEEPS[name]
    lock = _lock(name)
    if not lock.acquire():
        log.info("sweep %s is running elsewhere; skipped", name)
        return None
    try:
        count = metrics.counted_sweep(name, sweep.run, now or utcnow(), current_app.config["SWEEP_BATCH_SIZE"])
        if count:
            log.info("sweep %s handled %s", name, count)
        return count
    finally:
        db.session.remove()
        lock.release()


def run_all(now: datetime | None = None) -> dict[str, int | None]:
    return {name: run(name, now) for name in SWEEPS}


def sweep_pending(now: datetime, batch: int) -> int:
    """Enqueue documents PENDING past the threshold. The dedup key normally stands for a live
    message, so one already queued is not sent twice; past twice the threshold the message it
    stands for is taken to be lost (held by a worker that was killed, which Dramatiq hands back
    only after its heartbeat times out) and the key is taken over. A duplicate that results
    loses the claim and does nothing."""
    wait = timedelta(milliseconds=current_app.config["PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS"])
    # A document waiting for its scheduled system retry is the retries sweep's, not ours.
    scheduled = select(ExtractionJob.id).where(ExtractionJob.id == Document.current_job_id,
                                               ExtractionJob.status == "created", ExtractionJob.deadline_at.isnot(None))
    rows = db.session.execute(_oldest(Status.PENDING, now - wait, batch, Document.status_changed_at)
                              .where(~scheduled.exists())).all()
    sent = 0
    for document_id, brokerage_id, since in rows:
        sent += adapters().jobs.send("verify-document", document_id, brokerage_id,
                                     dedup_key=jobs.verification_key(document_id), take_over=since < now - 2 * wait)
    return sent


def sweep_retries(now: datetime, batch: int) -> int:
    """Start the system retries that are due: PENDING documents whose current job is a scheduled
    retry (`created`, with a `deadline_at`) past its time (pipeline.system_failure). A message
    already queued for the document keeps its key; the claim keeps a duplicate harmless."""
    rows = db.session.execute(
        select(Document.id, Document.brokerage_id)
        .join(ExtractionJob, ExtractionJob.id == Document.current_job_id)
        .where(Document.status == Status.PENDING.value, ExtractionJob.status == "created",
               ExtractionJob.deadline_at <= now)
        .order_by(ExtractionJob.deadline_at).limit(batch)).all()
    sent = 0
    for document_id, brokerage_id in rows:
        sent += adapters().jobs.send("verify-document", document_id, brokerage_id,
                                     dedup_key=jobs.verification_key(document_id))
    return sent


def sweep_stalled(now: datetime, batch: int) -> int:
    threshold = now - timedelta(milliseconds=current_app.config["STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS"])
    rows = db.session.execute(_oldest(Status.PROCESSING, threshold, batch)).all()
    reset = 0
    for document_id, brokerage_id in rows:
        if transitions.apply(document_id, Status.PROCESSING, Status.PENDING, action="stalled_reset",
                             note=f"stuck in PROCESSING since before {threshold:%Y-%m-%d %H:%M:%S} UTC; retrying"):
            outbox.record(VerificationRequested(document_id, brokerage_id, take_over=True))
            reset += 1
        # One document per transaction: holding many rows' locks at once invites deadlocks
        # with workers that finish one of them meanwhile.
        outbox.commit()
    return reset


def sweep_deadline(now: datetime, batch: int) -> int:
    rows = db.session.execute(
        select(Document.id, ExtractionJob.id)
        .join(ExtractionJob, ExtractionJob.id == Document.current_job_id)
        .where(Document.status == Status.EXTRACTING.value, ExtractionJob.status == "accepted",
               ExtractionJob.deadline_at < now)
        .order_by(ExtractionJob.deadline_at).limit(batch)).all()
    for document_id, job_id in rows:
        _recover_overdue(document_id, job_id)
    return len(rows)


def sweep_deliveries(now: datetime, batch: int) -> int:
    ids = db.session.scalars(
        select(CallbackDelivery.id)
        .where(CallbackDelivery.processed_at.is_(None), CallbackDelivery.received_at < now - DELIVERY_GRACE)
        .order_by(CallbackDelivery.received_at).limit(batch)).all()
    return sum(adapters().jobs.send("process-delivery", delivery_id) for delivery_id in ids)


def sweep_reservations(now: datetime, batch: int) -> int:
    rows = db.session.execute(
        select(CreditReservation.job_id, ExtractionJob.status, ExtractionJob.pages_reported,
               CreditReservation.expires_at)
        .join(ExtractionJob, ExtractionJob.id == CreditReservation.job_id)
        .where(CreditReservation.status == "open",
               (ExtractionJob.status.in_(["completed", "failed"])) | (CreditReservation.expires_at <= now))
        .order_by(CreditReservation.created_at).limit(batch)).all()
    closed = 0
    for job_id, job_status, pages, expires_at in rows:
        try:
            if job_status == "completed" and expires_at > now:
                closed += billing.settle(job_id, pages or 0) is not None
            else:
                closed += billing.release(job_id)
            db.session.commit()
        except ledger.LedgerError:
            db.session.rollback()
            log.exception("could not close the reservation of job %s", job_id)
    return closed


def _oldest(status: Status, older_than: datetime, batch: int, *extra_columns):
    query = (select(Document.id, Document.brokerage_id, *extra_columns)
             .where(Document.status == status.value, Document.status_changed_at < older_than)
             .order_by(Document.status_changed_at).limit(batch))
    if db.engine.dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return query


def _recover_overdue(document_id: str, job_id: str) -> None:
    """Ask the service first; apply its answer as a callback, else submit again or give up."""
    try:
        answer = adapters().extraction.job(job_id)
    except ServiceDown as exc:
        # The service is known to be down: whether the job is lost cannot be told now, and
        # giving it up would spend an attempt on our outage. The next run asks again.
        log.info("overdue job %s waits for the extraction service: %s", job_id, exc)
        return
    except ExtractionUnavailable as exc:
        log.warning("could not ask about overdue job %s: %s", job_id, exc)
        answer = None
    if answer and answer.get("status") in ("completed", "failed") and answer.get("type"):
        callbacks.process(callbacks.record_polled(job_id, answer))
        return
    if answer and answer.get("status") in ("queued", "running") and _still_patient(job_id):
        # The service has the job and is working through its queue (busy, not lost): giving it
        # up and submitting again would only add to that queue. Another deadline, within reason.
        db.session.execute(update(ExtractionJob).where(
            ExtractionJob.id == job_id, ExtractionJob.status == "accepted").values(
            deadline_at=utcnow() + timedelta(seconds=current_app.config["EXTRACTION_DEADLINE_SECONDS"])))
        db.session.commit()
        log.info("overdue job %s is %s at the service; its deadline is extended", job_id, answer["status"])
        return

    document = db.session.get(Document, document_id)
    job = db.session.get(ExtractionJob, job_id)
    earlier = db.session.scalar(select(db.func.count(ExtractionJob.id)).where(
        ExtractionJob.document_id == document_id, ExtractionJob.mode == job.mode))
    given_up = db.session.execute(
        update(ExtractionJob).where(ExtractionJob.id == job_id, ExtractionJob.status == "accepted")
        .values(status="failed", finished_at=utcnow(), last_error="deadline passed")).rowcount
    if given_up != 1:
        # Its callback won the race meanwhile: the job is finished and its settlement is on the way.
        outbox.rollback()
        return
    billing.release(job_id)
    if job.mode != "first" and job.resume_status:
        transitions.apply(document_id, Status.EXTRACTING, Status(job.resume_status), action="deadline_passed",
                          note=f"{job.mode} job {job_id} did not report back in time; the earlier result stands")
    elif earlier < current_app.config["EXTRACTION_MAX_SUBMIT_ATTEMPTS"] and job.mode == "first":
        if transitions.apply(document_id, Status.EXTRACTING, Status.PENDING, action="deadline_passed",
                             note=f"job {job_id} did not report back in time; submitting again"):
            outbox.record(VerificationRequested(document_id, document.brokerage_id))
    else:
        # A failure of ours: tried again on the system retry schedule, then a person.
        pipeline.system_failure(document_id, Status.EXTRACTING, RejectionCode.SYSTEM_EXTRACTION_FAILED,
                                f"job {job_id} did not report back in time; {earlier} jobs tried")
    outbox.commit()


def _still_patient(job_id: str) -> bool:
    accepted_at = db.session.scalar(select(ExtractionJob.accepted_at).where(ExtractionJob.id == job_id))
    patience = timedelta(seconds=current_app.config["EXTRACTION_DEADLINE_SECONDS"] * BUSY_DEADLINES)
    return accepted_at is not None and accepted_at > utcnow() - patience


class _ProcessLock:
    _locks: dict[str, threading.Lock] = {}
    _guard = threading.Lock()

    def __init__(self, name: str):
        with self._guard:
            self._lock = self._locks.setdefault(name, threading.Lock())

    def acquire(self) -> bool:
        return self._lock.acquire(blocking=False)

    def release(self) -> None:
        self._lock.release()


class _RedisLock:
    """SET NX with expiry; released only by its holder (compare-and-delete)."""
    _RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

    def __init__(self, url: str, name: str, ttl_seconds: int = 300):
        import redis
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._key = f"{jobs.namespace(current_app.config)}:sweep-lock:{name}"
        self._token = uuid.uuid4().hex
        self._ttl = ttl_seconds

    def acquire(self) -> bool:
        return bool(self._redis.set(self._key, self._token, nx=True, ex=self._ttl))

    def release(self) -> None:
        try:
            self._redis.eval(self._RELEASE, 1, self._key, self._token)
        except Exception:
            log.warning("could not release %s; it expires by itself", self._key)


def _lock(name: str):
    url = current_app.config.get("REDIS_URL")
    return _RedisLock(url, name) if url else _ProcessLock(name)


SWEEPS = {s.name: s for s in (
    Sweep("pending", sweep_pending, "PENDING too long with no live job: enqueue it"),
    Sweep("retries", sweep_retries, "PENDING with a system retry past its time: enqueue it"),
    Sweep("stalled", sweep_stalled, "PROCESSING too long: reset to PENDING with an audit note, enqueue"),
    Sweep("deadline", sweep_deadline, "EXTRACTING past its job's deadline: ask the service, resubmit or fail"),
    Sweep("deliveries", sweep_deliveries, "callbacks received but not processed: enqueue their processing"),
    Sweep("reservations", sweep_reservations, "open reservations of finished or failed jobs: settle or release"),
)}
