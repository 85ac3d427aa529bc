"""Sweeps: find work that got stuck and hand its ids to a use case. Bounded batches over indexed columns.

Each sweep's cost grows with the stale rows, not the table: it reads at most one batch per
run, oldest first, through an index on (status, status_changed_at) or the like. What to do
with a row (send it again, give a job up, settle a reservation) is the services' to decide;
a sweep only picks ids. A lock per sweep (Redis when configured, else in-process) keeps two
schedulers from running the same one.
"""
import logging
import threading
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Callable

from flask import current_app
from sqlalchemy import func, select, update
from sqlalchemy.orm import Session

from leadflow import jobs, metrics
from leadflow.billing import service as billing
from leadflow.domain.lifecycle import JOB_FINISHED, JobStatus, Status
from leadflow.extensions import db
from leadflow.domain.audience import STAFF_ROLES
from leadflow.models import (CallbackDelivery, CreditReservation, Document, ExtractionJob, NotificationOptOut,
                             SentNotification, User, Workspace, utcnow)
from leadflow.ports import Ports, current_ports
from leadflow.services import callbacks, case_file, erasure, notifications, pipeline

log = logging.getLogger(__name__)
DELIVERY_GRACE = timedelta(seconds=30)
BUSY_DEADLINES = callbacks.BUSY_DEADLINES


@dataclass(frozen=True)
class Sweep:
    name: str
    run: Callable[[Session, Ports, datetime, int], int]
    doc: str


def run(name: str, now: datetime | None = None) -> int | None:
    """Run one sweep under its lock, in the app's session; None when another scheduler holds it."""
    sweep = SWEEPS.get(name) or DAILY[name]
    lock = _lock(name)
    if not lock.acquire():
        log.info("sweep %s is running elsewhere; skipped", name)
        return None
    try:
        count = metrics.counted_sweep(name, sweep.run, db.session, current_ports(), now or utcnow(),
                                      current_app.config["SWEEP_BATCH_SIZE"])
        if count:
            log.info("sweep %s handled %s", name, count)
        return count
    finally:
        db.session.remove()
        lock.release()


def sweep_pending(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    """Enqueue documents PENDING past the threshold. The dedup key normally stands for a live
    message, so one already queued is not sent twice; past twice the threshold the message it
    stands for is taken to be lost (held by a worker that was killed, which Dramatiq hands back
    only after its heartbeat times out) and the key is taken over. A duplicate that results
    loses the claim and does nothing."""
    wait = timedelta(milliseconds=ports.settings["PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS"])
    # A document waiting for its scheduled system retry is the retries sweep's, not ours.
    scheduled = select(ExtractionJob.id).where(ExtractionJob.id == Document.current_job_id,
                                               ExtractionJob.status == JobStatus.CREATED.value,
                                               ExtractionJob.deadline_at.isnot(None))
    rows = session.execute(_oldest(session, Status.PENDING, now - wait, batch, Document.status_changed_at)
                           .where(~scheduled.exists())).all()
    return sum(pipeline.enqueue_verification(ports, document_id, brokerage_id, take_over=since < now - 2 * wait)
               for document_id, brokerage_id, since in rows)


def sweep_retries(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    """Start the system retries that are due: PENDING documents whose current job is a scheduled
    retry (`created`, with a `deadline_at`) past its time (pipeline.system_failure). A message
    already queued for the document keeps its key; the claim keeps a duplicate harmless."""
    rows = session.execute(
        select(Document.id, Document.brokerage_id)
        .join(ExtractionJob, ExtractionJob.id == Document.current_job_id)
        .where(Document.status == Status.PENDING.value, ExtractionJob.status == JobStatus.CREATED.value,
               ExtractionJob.deadline_at <= now)
        .order_by(ExtractionJob.deadline_at).limit(batch)).all()
    return sum(pipeline.enqueue_verification(ports, document_id, brokerage_id) for document_id, brokerage_id in rows)


def sweep_stalled(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    threshold = now - timedelta(milliseconds=ports.settings["STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS"])
    rows = session.execute(_oldest(session, Status.PROCESSING, threshold, batch)).all()
    # The batch in one transaction: its rows are locked by the read above (skipping those a
    # worker holds), so the reset waits for no lock and cannot deadlock with a worker.
    return len(pipeline.reset_stalled(session, [(document_id, brokerage_id) for document_id, brokerage_id in rows],
                                      threshold))


def sweep_deadline(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    rows = session.execute(
        select(Document.id, ExtractionJob.id)
        .join(ExtractionJob, ExtractionJob.id == Document.current_job_id)
        .where(Document.status == Status.EXTRACTING.value, ExtractionJob.status == JobStatus.ACCEPTED.value,
               ExtractionJob.deadline_at < now)
        .order_by(ExtractionJob.deadline_at).limit(batch)).all()
    for document_id, job_id in rows:
        callbacks.recover_overdue(session, ports, document_id, job_id)
    return len(rows)


def sweep_deliveries(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    ids = session.scalars(
        select(CallbackDelivery.id)
        .where(CallbackDelivery.processed_at.is_(None), CallbackDelivery.received_at < now - DELIVERY_GRACE)
        .order_by(CallbackDelivery.received_at).limit(batch)).all()
    return sum(callbacks.enqueue_processing(ports, delivery_id) for delivery_id in ids)


def sweep_reservations(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    job_ids = session.scalars(
        select(CreditReservation.job_id)
        .join(ExtractionJob, ExtractionJob.id == CreditReservation.job_id)
        .where(CreditReservation.status == "open",
               (ExtractionJob.status.in_([s.value for s in JOB_FINISHED])) | (CreditReservation.expires_at <= now))
        .order_by(CreditReservation.created_at).limit(batch)).all()
    return sum(billing.close_for_job(session, job_id, now) for job_id in job_ids)


def sweep_erasure(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    """Closed cases past CASE_RETENTION_DAYS: erase them (erasure.erase_due_cases), oldest first."""
    return erasure.erase_due_cases(session, ports, now, batch)


def sweep_reminders(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    """Daily: the open cases due for a look (`reminders_due_on`, through ix_workspaces_reminders_due),
    a batch at a time until none is due; each case old enough (REMINDER_AFTER_DAYS) is handed to
    notifications.remind_missing, which decides what is still missing and not reminded of lately.
    Each case looked at is due again a period later (an item is reminded at most once a period
    anyway; a document going stale makes it due at once), a younger one when it is old enough."""
    period = timedelta(days=max(1, int(ports.settings.get("REMINDER_AFTER_DAYS") or 3)))
    today = now.date()
    due = func.coalesce(Workspace.reminders_due_on, case_file.before_any_day(session))
    queued = 0
    while True:
        cases = session.execute(select(Workspace.id, Workspace.created_at)
                                .where(Workspace.closed_at.is_(None), due <= today)
                                .order_by(due, Workspace.id).limit(batch)).all()
        next_look: dict[int, date] = {}
        for workspace_id, created_at in cases:
            if created_at > now - period:
                next_look[workspace_id] = (created_at + period).date()
            else:
                queued += notifications.remind_missing(session, ports, workspace_id)
                next_look[workspace_id] = today + period
        for workspace_id, day in next_look.items():
            # Never today or earlier: a run looks at each case once.
            session.execute(update(Workspace).where(Workspace.id == workspace_id)
                            .values(reminders_due_on=max(day, today + timedelta(days=1))))
        session.commit()
        if len(cases) < batch:
            return queued


def sweep_digests(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    """Daily: advisors and brokerage admins who get the digest and had none today; each is
    handed to notifications.advisor_digest (nothing changed in their cases, nothing sent)."""
    recent = select(SentNotification.user_id).where(SentNotification.kind == notifications.ADVISOR_DIGEST,
                                                     SentNotification.sent_at > now - notifications.DIGEST_MIN_GAP)
    opted_out = select(NotificationOptOut.user_id).where(NotificationOptOut.kind == notifications.ADVISOR_DIGEST)
    return _each_batch(session, batch, lambda after: (
        select(User.id).where(User.role.in_([r.value for r in STAFF_ROLES]), User.id > after,
                              User.id.not_in(recent), User.id.not_in(opted_out))),
        User.id, lambda user_id: notifications.advisor_digest(session, ports, user_id))


def sweep_stale(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    """Daily: VERIFIED payslips and bank statements that aged out leave the checklist (noted on the
    case, pushed to open pages) and their clients are told by email which ones to replace. Reads
    only the documents due for a look today (case_file.mark_stale), a batch at a time."""
    marked = 0
    while True:
        moved, read = case_file.mark_stale(session, ports, now.date(), batch)
        notifications.document_stale(session, ports, moved)
        marked += len(moved)
        if read < batch:
            return marked


def _each_batch(session: Session, batch: int, query_after, key, handle) -> int:
    """Hand every id the query finds to `handle`, `batch` ids per read, in id order."""
    done, after = 0, 0
    while True:
        ids = session.scalars(query_after(after).order_by(key).limit(batch)).all()
        done += sum(handle(i) for i in ids)
        if len(ids) < batch:
            return done
        after = ids[-1]


def _oldest(session: Session, status: Status, older_than: datetime, batch: int, *extra_columns):
    query = (select(Document.id, Document.brokerage_id, *extra_columns)
             .where(Document.status == status.value, Document.status_changed_at < older_than)
             .order_by(Document.status_changed_at).limit(batch))
    if session.get_bind().dialect.name == "postgresql":
        query = query.with_for_update(skip_locked=True)
    return query


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
    Sweep("erasure", sweep_erasure, "closed cases past CASE_RETENTION_DAYS: erase their documents, files and clients"),
)}

# Once a day (tasks.scheduler, at MAIL_DAILY_HOUR UTC): documents that aged out (before the reminders, which
# then count their items as missing), the clients' reminders and the advisors' digest.
DAILY = {s.name: s for s in (
    Sweep("stale", sweep_stale, "payslips and statements too old for a lender: off the checklist, the client told"),
    Sweep("reminders", sweep_reminders, "cases open past REMINDER_AFTER_DAYS: remind clients of missing items"),
    Sweep("digests", sweep_digests, "advisors without today's digest: send what changed in their cases"),
)}
