"""Extraction callbacks: record a delivery once, then apply it once.

Receipt is cheap and durable: verify the signature before any database work, then one
`INSERT ... ON CONFLICT DO NOTHING` of the delivery under its `webhook-id`; that row, with the
whole payload as it came, is also the document's status log. Deliveries received together are
recorded together (`record_all`: one statement, one commit; the web process gathers concurrent
receipts into it, leadflow.group_commit). Only new rows nudge the worker, after commit, one
nudge per batch the worker applies; a duplicate costs its share of an insert that inserted
nothing for it. Processing decides what the delivery means from our own job record (its
mode, whether it is still the document's current job), never from what the sender claims. A
job past its deadline is asked about (`recover_overdue`): its answer is recorded and applied
like a delivery.
"""
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta

from sqlalchemy import Connection, Text, bindparam, cast, func, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from leadflow import metrics, notes, outbox, scoping, statements
from leadflow.billing import service as billing
from leadflow.domain.events import DeliveryReceived, ReservationDue, VerificationRequested
from leadflow.domain.lifecycle import JOB_FINISHED, JobStatus, RejectionCode, Status
from leadflow.domain.packets import FIRST_READINGS, charged_before
from leadflow.domain.verification import Applicant, Extraction, Verdict, verify
from leadflow.extraction import webhooks
from leadflow.extraction.client import ExtractionUnavailable, ServiceDown
from leadflow.models import CallbackDelivery, Document, DocumentStatusCount, DocumentVersion, ExtractionJob, utcnow
from leadflow.ports import Ports
from leadflow.services import applicants, packets, pipeline, transitions, version_store

log = logging.getLogger(__name__)
# The actor that runs `process` (tasks/documents.py), named so the sender need not import it.
PROCESS_ACTOR = "process-delivery"
# A job the service says it is still working on gets up to this many deadlines in all.
BUSY_DEADLINES = 6
# Deliveries one process-delivery message applies in one transaction: its own and others that
# wait, so a burst of callbacks costs a commit per batch, not one per callback. Small, because a
# batch holds its brokerages' status count rows (hot rows every status change writes) until it
# commits: with 20, the pipeline's other transitions queued behind them (bench-pipeline's
# upload-to-settled p50 went from 1.6 s to 11.9 s). Results are now stored before those rows are
# locked; 16 then changed neither latency nor CPU in bench-pipeline, whose batches hold two.
BATCH_SIZE = 4
# A delivery of a batch that met a lock conflict is sent again this much later.
RETRY_IN_BATCH_MS = 1000

CAUSE_BY_MODE = {"first": "generated", "reprocess": "reprocessed", "customise": "customised"}
# The service's failure codes that are about the file, not the system: a better upload fixes them.
FILE_PROBLEMS = {"unreadable": RejectionCode.UNREADABLE, "too_large": RejectionCode.FILE_TOO_LARGE,
                 "unsupported_type": RejectionCode.UNSUPPORTED_FILE}


class DeliveryTooEarly(Exception):
    """A callback arrived before the submission that caused it was committed; retry it.

    `delivery_ids`: the deliveries of the nudge that came too early (its own to send again)."""

    def __init__(self, message: str, delivery_ids: Sequence[str] = ()):
        super().__init__(message)
        self.delivery_ids = list(delivery_ids)


@dataclass(frozen=True)
class Delivery:
    """A callback whose signature and body were checked, not yet recorded. `text`: the payload's
    JSON as it came, which is what the status log stores (not `payload` written out again)."""
    id: str
    job_id: str | None
    payload: dict
    text: str


class Receipt:
    """What the endpoint answers: a fresh delivery, or one we already had."""

    def __init__(self, delivery_id: str, duplicate: bool):
        self.delivery_id = delivery_id
        self.duplicate = duplicate


def receive(session: Session, ports: Ports, headers, body: bytes) -> Receipt:
    """Verify, record and enqueue one delivery. Raises WebhookVerificationError or ValueError."""
    return record_all(session, [check(ports.settings, headers, body)])[0]


def check(settings, headers, body: bytes) -> Delivery:
    """The delivery a signed callback carries; no database work. Raises WebhookVerificationError
    (signature) or ValueError (a body that is not a JSON object)."""
    secrets = [settings["EXTRACTION_WEBHOOK_SECRET"], *settings["EXTRACTION_WEBHOOK_PREVIOUS_SECRETS"]]
    delivery_id = webhooks.verify(secrets, headers, body)
    try:
        # JSON between systems is UTF-8 (RFC 8259). NaN and Infinity are Python's, not JSON's:
        # the json column would refuse them.
        text = body.decode("utf-8")
        payload = json.loads(text, parse_constant=_not_json)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError("callback body is not JSON") from exc
    if not isinstance(payload, dict):
        raise ValueError("callback body is not a JSON object")
    return Delivery(delivery_id, str(payload.get("job_id") or "")[:64] or None, payload, text)


def _not_json(constant: str):
    raise json.JSONDecodeError(f"{constant} is not JSON", constant, 0)


def record_all(session: Session | Connection, deliveries: Sequence[Delivery], *, nudge: bool = True) -> list[Receipt]:
    """Record checked deliveries in one statement that commits as it runs, and nudge the worker about
    the new ones after it (`nudge=False`: the caller calls `nudge_worker` itself, as the web's group
    commit does once its requests are answered); a receipt per delivery, in order, once the commit
    is done.

    The webhook-id recorded already (a replay, or the same delivery at the same moment): the
    unique key decides, not a prior read, and the insert inserts nothing for it; no error, no
    rollback. The same id twice in one call is one new delivery and then a duplicate."""
    # One statement is its own transaction: on a connection of its own in autocommit, it
    # commits as it runs, without the BEGIN and COMMIT round trips a session transaction adds.
    # The web passes the autocommit connection it keeps for receipts (web/callbacks.py).
    if isinstance(session, Connection):
        new = _record_many(session, deliveries)
    else:
        with session.get_bind().connect() as connection:
            new = _record_many(connection.execution_options(isolation_level="AUTOCOMMIT"), deliveries)
    receipts = []
    for delivery in deliveries:
        first = delivery.id in new
        new.discard(delivery.id)
        receipts.append(Receipt(delivery.id, duplicate=not first))
    if nudge:
        nudge_worker(receipts)
    return receipts


def nudge_worker(receipts: Sequence[Receipt]) -> None:
    """Nudge the worker about the new deliveries of recorded receipts: one nudge per batch the worker
    applies in one transaction, so fewer messages than deliveries, and batches that several worker
    threads can take at once. A nudge lost (a process stopped just before it) is the delivery sweep's."""
    fresh = [receipt.delivery_id for receipt in receipts if not receipt.duplicate]
    outbox.dispatch([DeliveryReceived(batch[0], tuple(batch[1:]))
                     for batch in (fresh[start:start + BATCH_SIZE] for start in range(0, len(fresh), BATCH_SIZE))])


def enqueue_processing(ports: Ports, delivery_id: str, also: Sequence[str] = ()) -> bool:
    """Nudge the worker to apply recorded deliveries (`delivery_id` and those `also` named, in
    one batch); processing is idempotent, so no dedup key. A nudge for one delivery is
    `process-delivery(<id>)`; for several, `process-delivery(<id>, 0, [<id>, ...])`."""
    if also:
        return ports.jobs.send(PROCESS_ACTOR, delivery_id, 0, list(also))
    return ports.jobs.send(PROCESS_ACTOR, delivery_id)


def record_polled(session: Session, job_id: str, answer: dict) -> str:
    """Record the service's answer to `GET /jobs/<id>` (the deadline sweep asked) as a delivery
    (so in the status log), exactly as a callback is recorded; returns the delivery id.

    Its id is `poll-<job_id>-<n>`: a job asked again after an earlier poll (a rerun, a second
    deadline) gets a new delivery, and the same answer twice is harmless as processing decides
    from our job record."""
    payload = {k: answer[k] for k in ("type", "job_id", "data") if k in answer}
    for n in range(1, 100):
        delivery_id = f"poll-{job_id}-{n}"
        if _record(session, delivery_id, job_id, payload):
            outbox.commit(session)
            return delivery_id
        processed_at = session.scalar(select(CallbackDelivery.processed_at).where(CallbackDelivery.id == delivery_id))
        if processed_at is None:
            # Recorded by an earlier poll that did not get to process it, or by another sweep
            # this instant: that one is the delivery to process.
            return delivery_id
    raise RuntimeError(f"job {job_id} was polled too often")


def process(session: Session, ports: Ports, delivery_id: str) -> str:
    """Apply a recorded delivery; returns what happened. Safe to run any number of times."""
    delivery = session.get(CallbackDelivery, delivery_id)
    if delivery is None:
        return "unknown delivery"
    if delivery.processed_at is not None:
        return f"already processed: {delivery.outcome}"
    if delivery.job_id:
        # As a batch does, before any row of the job or document: a batch holding these count
        # rows and waiting for this job's row, while this waited at its commit for the count rows,
        # was a deadlock (the deadline sweep's polled answer racing the job's own callback).
        _lock_counts(session, [delivery.job_id])
    try:
        outcome = _apply(session, ports, delivery)
        if outcome.startswith("applied"):
            outbox.commit(session)
            log.info("delivery %s: %s", delivery_id, outcome)
            metrics.callback_processed(outcome)
            return outcome
    except IntegrityError:
        # Another delivery of the same job stored its versions first (unique per job and
        # part): this one has nothing left to add.
        outcome = "ignored: the job's result was already stored"
    outbox.rollback(session)
    _mark(session, delivery_id, outcome)
    outbox.commit(session)
    log.info("delivery %s: %s", delivery_id, outcome)
    metrics.callback_processed(outcome)
    return outcome


def process_batch(session: Session, ports: Ports, delivery_id: str, limit: int = BATCH_SIZE,
                  also: Sequence[str] = ()) -> dict[str, str]:
    """Apply the named deliveries (`delivery_id` and `also`, a nudge's) and, while fewer than
    `limit`, others waiting, in one transaction; returns the outcome per delivery applied or marked.

    The plain case (a result for a job still running and current, its document extracting) is
    applied set-based: each result stored first, then one update of the jobs, one per verdict of
    the documents, one insert each of audit rows and versions, one of the marks. Anything else,
    and the plain ones too when that set-based write met a race or an error, is applied one by
    one, each under a savepoint so that one delivery's outcome never undoes another's.

    Deliveries are claimed with FOR UPDATE SKIP LOCKED: two batches never take the same one,
    and a nudge whose delivery another batch holds finds it done there. The others are only
    deliveries whose job is no longer waiting to be recorded as accepted (or that name no job
    we know), so that one that came too early is left to its own nudge, which tries it again
    later. After committing the rest, the named deliveries' own problem is raised: the error
    that applying one raised (the actor retries the nudge; what it applied is done by then), or
    DeliveryTooEarly naming those that came too early."""
    named_ids = list(dict.fromkeys([delivery_id, *also]))
    # Plain rows (id, job_id, payload), not ORM objects: nothing here changes them through the ORM.
    named_count = len(named_ids)
    by_name = {f"named_{i}": named_id for i, named_id in enumerate(named_ids)}
    named = session.execute(statements.built_once(("claim-named-deliveries", named_count),
                                                  lambda: _claim_named(named_count), rows=named_count), by_name).all()
    others = []
    if limit > named_count:
        others = session.execute(statements.built_once(("claim-other-deliveries", named_count, limit),
                                                       lambda: _claim_others(named_count, limit - named_count),
                                                       rows=named_count), by_name).all()
    claimed = list(named) + list(others)
    outcomes: dict[str, str] = {}
    problems = _BatchProblems(named_ids)
    together, one_by_one = _plain_results(session, ports, claimed)
    # Storage before the rows that point at it, and before the hot count rows are locked: a
    # batch holds those until it commits, and every other status change waits for them.
    stored = []
    for result in together:
        try:
            version_store.write(ports.storage, result.key, {"content": result.content, "schema": result.schema})
        except Exception as exc:
            problems.add(result.delivery.id, exc)
        else:
            stored.append(result)
    _lock_counts(session, [d.job_id for d in claimed if d.job_id])
    applied = _apply_results_together(session, stored)
    if applied is None:
        one_by_one = [result.delivery for result in stored] + one_by_one
    else:
        outcomes.update(applied)
    for delivery in one_by_one:
        try:
            outcomes[delivery.id] = _apply_one(session, ports, delivery)
        except Exception as exc:
            problems.add(delivery.id, exc)
    outbox.commit(session)
    for claimed_id, outcome in outcomes.items():
        log.info("delivery %s: %s", claimed_id, outcome)
        metrics.callback_processed(outcome)
    for claimed_id in problems.again:
        ports.jobs.send(PROCESS_ACTOR, claimed_id, delay_ms=RETRY_IN_BATCH_MS)
    problems.raise_named()
    return outcomes


_DELIVERIES = CallbackDelivery.__table__
_JOBS = ExtractionJob.__table__
_STATUS_COUNTS = DocumentStatusCount.__table__
_LOCK_COUNTS = select(_STATUS_COUNTS.c.brokerage_id).where(_STATUS_COUNTS.c.brokerage_id.in_(
    select(_JOBS.c.brokerage_id).where(_JOBS.c.id.in_(bindparam("job_ids", expanding=True))).distinct())) \
    .order_by(_STATUS_COUNTS.c.brokerage_id, _STATUS_COUNTS.c.status).with_for_update()


def _claim_named(count: int):
    """The named deliveries (`named_0` …) still unprocessed, oldest first."""
    return (select(_DELIVERIES.c.id, _DELIVERIES.c.job_id, _DELIVERIES.c.payload)
            .where(_DELIVERIES.c.id.in_(statements.row_parameters("named", count, _DELIVERIES.c.id.type)),
                   _DELIVERIES.c.processed_at.is_(None))
            .order_by(_DELIVERIES.c.received_at).with_for_update(skip_locked=True))


def _claim_others(named: int, limit: int):
    """Up to `limit` other unprocessed deliveries than the named ones, oldest first, whose job is
    no longer waiting to be recorded as accepted (or that name no job we know)."""
    named_ids = statements.row_parameters("named", named, _DELIVERIES.c.id.type)
    return (select(_DELIVERIES.c.id, _DELIVERIES.c.job_id, _DELIVERIES.c.payload)
            .select_from(_DELIVERIES.outerjoin(_JOBS, _JOBS.c.id == _DELIVERIES.c.job_id))
            .where(_DELIVERIES.c.processed_at.is_(None), _DELIVERIES.c.id.not_in(named_ids),
                   or_(_JOBS.c.id.is_(None), _JOBS.c.status != JobStatus.CREATED.value))
            .order_by(_DELIVERIES.c.received_at).limit(limit)
            .with_for_update(of=_DELIVERIES, skip_locked=True))


class _BatchProblems:
    """What went wrong with deliveries of a batch: the named deliveries' own problem is raised
    after the rest commit; the others are tried again or left to the deliveries sweep."""

    def __init__(self, named_ids: Sequence[str]):
        self.named_ids = set(named_ids)
        self.problem: Exception | None = None
        self.early: list[DeliveryTooEarly] = []
        self.again: list[str] = []

    def add(self, delivery_id: str, exc: Exception) -> None:
        if delivery_id in self.named_ids:
            if isinstance(exc, DeliveryTooEarly):
                self.early.append(exc)
            elif self.problem is None:
                self.problem = exc
        elif isinstance(exc, OperationalError):
            # A lock conflict or the like, not the delivery's fault: its own message was
            # probably taken already, so it gets another.
            log.warning("delivery %s could not be applied in a batch (%s); trying again", delivery_id,
                        type(exc.orig).__name__ if exc.orig is not None else exc)
            self.again.append(delivery_id)
        elif not isinstance(exc, DeliveryTooEarly):
            # Left unprocessed for the deliveries sweep: trying it again at once would fail alike.
            log.error("delivery %s could not be applied in a batch", delivery_id, exc_info=exc)

    def raise_named(self) -> None:
        if self.problem is not None:
            raise self.problem
        if len(self.early) == 1:
            raise self.early[0]
        if self.early:
            raise DeliveryTooEarly("; ".join(str(exc) for exc in self.early),
                                   [i for exc in self.early for i in exc.delivery_ids])


def _lock_counts(session: Session, job_ids: list[str]) -> None:
    """Lock the status count rows of the batch's brokerages, in one order, before any transition.

    A batch moves many documents and holds each count row it bumps until it commits; taken one by
    one as the deliveries come, two batches would take them in different orders and deadlock."""
    if not job_ids:
        return
    session.execute(_LOCK_COUNTS, {"job_ids": job_ids})


def _apply_one(session: Session, ports: Ports, delivery) -> str:
    """Apply one claimed delivery under a savepoint and mark it; what `process` does for one
    delivery in a transaction of its own. A rolled-back savepoint also drops the events it
    recorded (the outbox drops events only when the whole transaction rolls back)."""
    # Each delivery reads the rows as they are now, as in a transaction of its own: _apply reads
    # its job and document afresh (scoping.job_with_document). Not expire_all(): that made every
    # claimed delivery load its row, payload and all, a second time.
    delivery_id = delivery.id
    savepoint, undo = _undoable(session)
    try:
        outcome = _apply(session, ports, delivery)
    except IntegrityError:
        # Another delivery of the same job stored its versions first: nothing left to add.
        outcome = "ignored: the job's result was already stored"
    except BaseException:
        undo()
        raise
    if outcome.startswith("applied"):
        savepoint.commit()
        return outcome
    undo()
    _mark(session, delivery_id, outcome)
    return outcome


def _undoable(session: Session):
    """A savepoint, and how to undo it together with the events recorded under it (the outbox
    drops events only when the whole transaction rolls back)."""
    recorded = list(session.info.get(outbox._PENDING, []))
    savepoint = session.begin_nested()

    def undo() -> None:
        savepoint.rollback()
        session.info[outbox._PENDING] = recorded
    return savepoint, undo


def recover_overdue(session: Session, ports: Ports, document_id: str, job_id: str) -> str:
    """A job passed its deadline: ask the service first and apply its answer as a delivery;
    else give the job more time (the service is busy with it), or give it up and submit again,
    or, its attempts spent, treat it as a failure of ours. Returns what was done."""
    try:
        answer = ports.extraction.job(job_id)
    except ServiceDown as exc:
        # The service is known to be down: whether the job is lost cannot be told now, and
        # giving it up would spend an attempt on our outage. The next run asks again.
        log.info("overdue job %s waits for the extraction service: %s", job_id, exc)
        return "waiting for the service"
    except ExtractionUnavailable as exc:
        log.warning("could not ask about overdue job %s: %s", job_id, exc)
        answer = None
    if answer and answer.get("status") in JOB_FINISHED and answer.get("type"):
        return process(session, ports, record_polled(session, job_id, answer))
    deadline = timedelta(seconds=ports.settings["EXTRACTION_DEADLINE_SECONDS"])
    now = ports.clock.now()
    if answer and answer.get("status") in ("queued", "running") and _still_patient(session, job_id, now, deadline):
        # The service has the job and is working through its queue (busy, not lost): giving it
        # up and submitting again would only add to that queue. Another deadline, within reason.
        session.execute(update(ExtractionJob).where(
            ExtractionJob.id == job_id, ExtractionJob.status == JobStatus.ACCEPTED.value).values(
            deadline_at=now + deadline))
        session.commit()
        log.info("overdue job %s is %s at the service; its deadline is extended", job_id, answer["status"])
        return "deadline extended"

    document = session.get(Document, document_id)
    job = session.get(ExtractionJob, job_id)
    earlier = session.scalar(select(func.count(ExtractionJob.id)).where(
        ExtractionJob.document_id == document_id, ExtractionJob.mode == job.mode))
    if not transitions.finish(session, job_id, JobStatus.FAILED, expected=JobStatus.ACCEPTED,
                              last_error="deadline passed"):
        # Its callback won the race meanwhile: the job is finished and its settlement is on the way.
        outbox.rollback(session)
        return "finished meanwhile"
    billing.release(session, job_id)
    if job.mode != "first" and job.resume_status:
        transitions.apply(session, document_id, Status.EXTRACTING, Status(job.resume_status),
                          action="deadline_passed",
                          note=f"{job.mode} job {job_id} did not report back in time; the earlier result stands")
        done = "earlier result stands"
    elif earlier < ports.settings["EXTRACTION_MAX_SUBMIT_ATTEMPTS"] and job.mode in FIRST_READINGS:
        done = "given up"
        if transitions.apply(session, document_id, Status.EXTRACTING, Status.PENDING, action="deadline_passed",
                             note=f"job {job_id} did not report back in time; submitting again"):
            outbox.record(session, VerificationRequested(document_id, document.brokerage_id))
            done = "submitted again"
    else:
        # A failure of ours: tried again on the system retry schedule, then a person.
        pipeline.system_failure(session, ports, document_id, Status.EXTRACTING,
                                RejectionCode.SYSTEM_EXTRACTION_FAILED,
                                f"job {job_id} did not report back in time; {earlier} jobs tried")
        done = "system failure"
    outbox.commit(session)
    return done


def _still_patient(session: Session, job_id: str, now, deadline: timedelta) -> bool:
    accepted_at = session.scalar(select(ExtractionJob.accepted_at).where(ExtractionJob.id == job_id))
    return accepted_at is not None and accepted_at > now - deadline * BUSY_DEADLINES


@dataclass(frozen=True)
class _Job:
    """What applying a delivery reads of its job (scoping.job_with_document)."""
    id: str
    status: str
    mode: str
    output_spec: dict | None
    resume_status: str | None
    requested_by_id: int | None


@dataclass(frozen=True)
class _Document:
    """What applying a delivery reads of the job's document."""
    id: str
    brokerage_id: int
    current_job_id: str | None
    status: str
    page_count: int | None
    kind: str | None
    verification_notes: list | None


def _job_and_document(found) -> tuple[_Job, _Document]:
    """The job and document of a scoping.job_with_document row."""
    return (_Job(found.job_id, found.job_status, found.job_mode, found.job_output_spec, found.job_resume_status,
                 found.job_requested_by_id),
            _Document(found.document_id, found.document_brokerage_id, found.document_current_job_id,
                      found.document_status, found.document_page_count, found.document_kind,
                      found.document_verification_notes))


def _apply(session: Session, ports: Ports, delivery) -> str:
    payload = delivery.payload or {}
    found = scoping.job_with_document(session, delivery.job_id) if delivery.job_id else None
    if found is None:
        return "ignored: unknown job"
    if found.document_id is None:
        return "ignored: document not found"
    job, document = _job_and_document(found)
    owner = Applicant(name=found.owner_name,
                      case=applicants.people_of(session, [found.document_workspace_id]).get(found.document_workspace_id, ()))
    if document.current_job_id != job.id:
        return "ignored: stale job (no longer the document's current job)"
    if job.status in JOB_FINISHED:
        return f"ignored: job already {job.status}"
    if job.status == JobStatus.CREATED:
        # The service answered before our record of its accepting the job committed (a fast
        # extraction): not ours to judge yet. Raising leaves the delivery unprocessed; the
        # actor retries it, and the deliveries sweep after that.
        raise DeliveryTooEarly(f"job {job.id} is not recorded as accepted yet", [delivery.id])
    if document.status != Status.EXTRACTING:
        return f"ignored: document is {document.status}"
    data = payload.get("data") or {}
    if payload.get("type") == "job.failed":
        return _apply_failure(session, ports, delivery, job, document, data.get("error") or {})
    if payload.get("type") != "job.completed":
        return f"ignored: unknown type {payload.get('type')!r}"
    if job.mode == "split":
        # A packet's pages read once, answered with its parts: its documents are made here.
        outcome = packets.apply_split(session, ports, job.id, document.id, document.brokerage_id, data)
        if outcome.startswith("applied"):
            _mark(session, delivery.id, outcome)
        return outcome
    return _apply_result(session, ports, delivery, job, document, owner, data)


@dataclass(frozen=True)
class _Result:
    """A job's result as a delivery brings it, judged: what storing and applying it writes."""
    delivery: object
    job: _Job
    document: _Document
    key: str
    content: dict
    schema: dict
    pages: int
    document_type: str
    confidence: float
    verdict: Verdict | None  # None for a customised output: the verdict stands

    @property
    def note(self) -> str:
        return f"job {self.job.id}: {self.document_type} ({self.confidence:.2f}), {self.pages} pages"

    def verdict_fields(self) -> dict:
        return {"document_type": self.document_type, "confidence": self.confidence, "page_count": self.pages,
                "verification_notes": self.verdict.notes_as_dicts(),
                "rejection_code": self.verdict.rejection_code.value if self.verdict.rejection_code else None,
                **self.verdict.whose_fields()}


def _judge(ports: Ports, delivery, job: _Job, document: _Document, owner: Applicant, data: dict) -> _Result:
    content = data.get("content") if isinstance(data.get("content"), dict) else {}
    schema = data.get("schema") if isinstance(data.get("schema"), dict) else {}
    pages = _int(data.get("pages"), document.page_count or 1)
    document_type = str(data.get("document_type") or "unknown")
    confidence = _float(data.get("confidence"))
    verdict = None
    if job.mode != "customise":
        declared = document.kind
        decided = (job.output_spec or {}).get("document_type")
        if decided:
            # A person decided the type: it stands, whatever the client declared.
            document_type, confidence, declared = decided, 1.0, None
        verdict = verify(Extraction(document_type, confidence, content, pages), declared, owner,
                         ports.clock.now().date())
    return _Result(delivery, job, document, version_store.key(document.brokerage_id, document.id, job.id),
                   content, schema, pages, document_type, confidence, verdict)


def _apply_result(session: Session, ports: Ports, delivery, job, document, owner: Applicant, data) -> str:
    result = _judge(ports, delivery, job, document, owner, data)
    # Storage before the rows that point at it: an orphaned object is the acceptable failure.
    # Content and schema are one object, which both parts' rows point at.
    version_store.write(ports.storage, result.key, {"content": result.content, "schema": result.schema})

    if not transitions.finish(session, job.id, JobStatus.COMPLETED, last_error=None, pages_reported=result.pages):
        return "ignored: job finished meanwhile"
    if result.verdict is None:
        # A new shape of the same data: the verdict stands, the document goes back where it was.
        target = Status(job.resume_status or Status.VERIFIED)
        moved = transitions.apply(session, document.id, Status.EXTRACTING, target, action="extraction_completed",
                                  note=f"job {job.id}: customised output, {result.pages} pages")
    else:
        target = result.verdict.status
        moved = transitions.apply(session, document.id, Status.EXTRACTING, target, action="extraction_completed",
                                  note=result.note, **result.verdict_fields())
    if not moved:
        return "ignored: document moved on meanwhile"
    _add_versions(session, [result])
    _mark(session, delivery.id, f"applied: {target}")
    outbox.record(session, ReservationDue(job_id=job.id, pages=_charged(job, result.pages)))
    return f"applied: {target}"


def _plain_results(session: Session, ports: Ports, claimed) -> tuple[list[_Result], list]:
    """The claimed deliveries that are plain results, judged, and the rest (to be applied one by
    one): a plain result is a job's first delivery in the batch, a completed first run or rerun
    (not a customised output) of a job still accepted and its document's current one, the
    document extracting. Read in one statement, as `_apply` reads one."""
    found = scoping.jobs_with_documents(session, [d.job_id for d in claimed if d.job_id])
    cases = applicants.people_of(session, [row.document_workspace_id for row in found.values()])
    together, one_by_one, seen = [], [], set()
    for delivery in claimed:
        row = found.get(delivery.job_id) if delivery.job_id else None
        payload = delivery.payload if isinstance(delivery.payload, dict) else {}
        data = payload.get("data")
        # Only a job's first delivery in the batch may go ahead of the rest: a later one (a
        # completion after a failure of the same job) must find what the earlier one did.
        first_of_its_job = delivery.job_id not in seen
        seen.add(delivery.job_id)
        if (row is None or row.document_id is None or not first_of_its_job or payload.get("type") != "job.completed"
                or not isinstance(data, dict) or row.document_current_job_id != row.job_id
                or row.job_status != JobStatus.ACCEPTED or row.document_status != Status.EXTRACTING
                or row.job_mode in ("customise", "split")):
            one_by_one.append(delivery)
            continue
        job, document = _job_and_document(row)
        try:
            owner = Applicant(name=row.owner_name, case=cases.get(row.document_workspace_id, ()))
            together.append(_judge(ports, delivery, job, document, owner, data))
        except Exception:
            # Its own savepoint tells this delivery's failure apart from the batch's.
            one_by_one.append(delivery)
    return together, one_by_one


class _Raced(Exception):
    """A set-based write found a job or document moved on since the batch read it."""


def _apply_results_together(session: Session, results: list[_Result]) -> dict[str, str] | None:
    """Apply stored plain results set-based under one savepoint; their outcomes, or None when
    that met a race or an error: then nothing of it is left and each is applied one by one,
    which tells every delivery's own outcome."""
    if not results:
        return {}
    savepoint, undo = _undoable(session)
    try:
        outcomes = _write_results(session, results)
    except Exception as exc:
        undo()
        if not isinstance(exc, _Raced):
            log.warning("%d results could not be applied together (%s); applying them one by one", len(results),
                        type(exc).__name__)
        return None
    savepoint.commit()
    return outcomes


def _write_results(session: Session, results: list[_Result]) -> dict[str, str]:
    job_ids = [result.job.id for result in results]
    finished = transitions.finish_many(session, job_ids, JobStatus.COMPLETED, last_error=None,
                                       per_job={"pages_reported": {r.job.id: r.pages for r in results}})
    if len(finished) != len(results):
        raise _Raced("a job finished meanwhile")
    by_target: dict[Status, list[_Result]] = {}
    for result in results:
        by_target.setdefault(result.verdict.status, []).append(result)
    for target, group in by_target.items():
        fields = [(result.document.id, result.verdict_fields()) for result in group]
        moved = transitions.apply_many(
            session, [document_id for document_id, _ in fields], Status.EXTRACTING, target,
            action="extraction_completed", notes={result.document.id: result.note for result in group},
            per_document={name: {document_id: values[name] for document_id, values in fields} for name in fields[0][1]},
            job_among=job_ids)
        if len(moved) != len(group):
            raise _Raced("a document moved on meanwhile")
    _add_versions(session, results)
    outcomes = {result.delivery.id: f"applied: {result.verdict.status}" for result in results}
    _mark_many(session, outcomes)
    for result in results:
        outbox.record(session, ReservationDue(job_id=result.job.id, pages=_charged(result.job, result.pages)))
    return outcomes


def _apply_failure(session: Session, ports: Ports, delivery, job, document, error) -> str:
    code = str(error.get("code") or "failed")
    message = str(error.get("message") or "extraction failed")[:300]
    if job.mode != "first" and job.resume_status:
        # A rerun that failed leaves the earlier result standing.
        note = notes.note("rerun_failed", mode=job.mode, code=code)
        target, outcome = Status(job.resume_status), f"applied: {job.mode} failed ({code})"
        fields = {"verification_notes": [*(document.verification_notes or []), note.as_dict()]}
    elif code not in FILE_PROBLEMS:
        # A failure of ours, not of the file: tried again on the system retry schedule.
        if not transitions.finish(session, job.id, JobStatus.FAILED, last_error=f"{code}: {message}"[:500]):
            return "ignored: job finished meanwhile"
        settled = pipeline.system_failure(session, ports, document.id, Status.EXTRACTING,
                                          RejectionCode.SYSTEM_EXTRACTION_FAILED, f"job {job.id}: {code}: {message}")
        if settled is None:
            return "ignored: document moved on meanwhile"
        outcome = f"applied: failed ({code}), {'retry scheduled' if settled == Status.PENDING else 'a person is asked'}"
        _mark(session, delivery.id, outcome)
        outbox.record(session, ReservationDue(job_id=job.id, pages=None))
        return outcome
    else:
        rejection = FILE_PROBLEMS[code]
        note = notes.note("file_unreadable", stored_as=code)
        target, outcome = Status.REJECTED, f"applied: failed ({code})"
        fields = {"rejection_code": rejection.value, "verification_notes": [note.as_dict()]}
    if not transitions.finish(session, job.id, JobStatus.FAILED, last_error=f"{code}: {message}"[:500]):
        return "ignored: job finished meanwhile"
    if not transitions.apply(session, document.id, Status.EXTRACTING, target, action="extraction_failed",
                             note=f"job {job.id}: {code}: {message}", **fields):
        return "ignored: document moved on meanwhile"
    _mark(session, delivery.id, outcome)
    outbox.record(session, ReservationDue(job_id=job.id, pages=None))
    return outcome


def _record(session: Session, delivery_id: str, job_id: str | None, payload: dict) -> bool:
    """Insert one delivery unless its id is recorded already; True when the row is new."""
    return bool(_record_many(session.connection(), [Delivery(delivery_id, job_id, payload, json.dumps(payload))]))


def _record_many(connection: Connection, deliveries: Sequence[Delivery]) -> set[str]:
    """Insert the deliveries (and so their status log entries) whose ids are not recorded
    already, in one statement; the ids of the rows that are new.

    The document each is about comes from our job record inside the same statement, for the
    document's history; a job we do not know leaves it empty (processing ignores the delivery).
    No ORM object: the rows are written and never needed again in this request."""
    rows, seen = [], set()
    for delivery in deliveries:
        if delivery.id not in seen:  # a statement may not insert one key twice
            seen.add(delivery.id)
            rows.append(delivery)
    if not rows:
        return set()
    dialect = connection.dialect.name
    statement = statements.built_once(("record-deliveries", dialect), lambda: _record_statement(dialect))
    received_at = utcnow()
    values = [{"id": d.id, "job_id": d.job_id, "event_type": str(d.payload.get("type"))[:40], "payload": d.text,
               "received_at": received_at} for d in rows]
    # Several rows go as one multi-row INSERT that SQLAlchemy writes from this one-row statement
    # ("insertmanyvalues"), so the statement's compiled form is cached (a statement built with
    # many VALUES rows is compiled again at every execution, as costly as running it).
    # RETURNING, not rowcount, tells which rows are new: the driver's rowcount is not to be
    # trusted here (SQLAlchemy with psycopg 3 answers -1 for this statement).
    return set(connection.execute(statement, values if len(values) > 1 else values[0]).scalars())


def _record_statement(dialect: str):
    table = CallbackDelivery.__table__
    insert = postgresql.insert if dialect == "postgresql" else sqlite.insert
    # The payload goes as the text it came as, so the log keeps it byte for byte and it is not
    # written out again from the parsed dict (json.dumps: 8.5 us for bench-callbacks' 2.5 kB).
    # PostgreSQL checks it as it casts; SQLite keeps JSON as text, where a cast to "JSON" would
    # make a number of it.
    payload = bindparam("payload", type_=Text)
    if dialect == "postgresql":
        payload = cast(payload, postgresql.JSON)
    return insert(table).values(
        id=bindparam("id"), job_id=bindparam("job_id"), event_type=bindparam("event_type"),
        payload=payload,
        received_at=bindparam("received_at", type_=table.c.received_at.type),
        document_id=select(ExtractionJob.document_id).where(ExtractionJob.id == bindparam("job_id"))
        .scalar_subquery(),
    ).on_conflict_do_nothing(index_elements=["id"]).returning(table.c.id)


def _mark(session: Session, delivery_id: str, outcome: str) -> None:
    _mark_many(session, {delivery_id: outcome})


def _mark_many(session: Session, outcomes: dict[str, str]) -> None:
    # One statement per outcome, not per delivery: a batch's outcomes are its target statuses.
    # On the table, not the ORM entity: no loaded delivery needs the new values, and the ORM's
    # update costs as much again to prepare as to run.
    at = utcnow()
    by_outcome: dict[str, list[str]] = {}
    for delivery_id, outcome in outcomes.items():
        by_outcome.setdefault(outcome[:200], []).append(delivery_id)
    for outcome, delivery_ids in by_outcome.items():
        session.execute(_MARK_ALL, {"delivery_ids": delivery_ids, "at": at, "what": outcome})


_MARK_ALL = update(_DELIVERIES).where(_DELIVERIES.c.id.in_(bindparam("delivery_ids", expanding=True)),
                                      _DELIVERIES.c.processed_at.is_(None)) \
    .values(processed_at=bindparam("at"), outcome=bindparam("what"))


def _add_versions(session: Session, results: Sequence[_Result]) -> None:
    """Each job's content and schema versions, both pointing at its one stored object; each
    follows its part's latest version of the document (a first result is `generated` whatever
    the job's mode). Two statements for all, no ORM objects: the rows are written and not read
    again in this transaction. A second result of the same job breaks the unique key (job, part)
    here: IntegrityError."""
    latest: dict[tuple[str, str], tuple[int, int]] = {}
    for document_id, part, version_id, number in session.execute(
            _LATEST_VERSIONS, {"document_ids": [result.document.id for result in results]}):
        latest[(document_id, part)] = (version_id, number)
    now = utcnow()
    rows = []
    for result in results:
        for part in ("content", "schema"):
            previous_id, number = latest.get((result.document.id, part), (None, 0))
            rows.append({"document_id": result.document.id, "part": part, "number": number + 1,
                         "cause": _cause(result.job) if previous_id else "generated",
                         "actor_id": result.job.requested_by_id, "job_id": result.job.id,
                         "replaces_id": previous_id, "storage_key": result.key, "created_at": now})
    session.execute(_ADD_VERSIONS, rows)


_VERSIONS = DocumentVersion.__table__
# RETURNING makes SQLAlchemy send a batch's rows as one multi-row INSERT, not one per row.
_ADD_VERSIONS = _VERSIONS.insert().returning(_VERSIONS.c.id)
_LATEST_VERSIONS = select(_VERSIONS.c.document_id, _VERSIONS.c.part, _VERSIONS.c.id, _VERSIONS.c.number).where(
    _VERSIONS.c.document_id.in_(bindparam("document_ids", expanding=True))).order_by(_VERSIONS.c.number)


def _cause(job: _Job) -> str:
    """A version's cause: its job's mode, or a packet's corrected split that read the document again."""
    if (job.output_spec or {}).get("cause") == "resplit":
        return "resplit"
    return CAUSE_BY_MODE[job.mode]


def _charged(job: _Job, pages: int) -> int | None:
    """The pages a finished job settles: those read; none for a corrected split's reread, whose
    pages were charged when first read (a reservation it holds, from before, is released)."""
    return None if charged_before(job.output_spec) else pages


def _int(value, default: int) -> int:
    try:
        return max(int(value), 0)
    except (TypeError, ValueError):
        return default


def _float(value) -> float:
    try:
        return min(max(float(value), 0.0), 1.0)
    except (TypeError, ValueError):
        return 0.0
