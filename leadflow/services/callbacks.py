"""Extraction callbacks: record a delivery once, then apply it once.

Receipt is cheap and durable: verify the signature, insert the delivery under its
`webhook-id` (unique), enqueue its processing after commit. Processing decides what the
delivery means from our own job record (its mode, whether it is still the document's
current job), never from what the sender claims.
"""
import json
import logging

from flask import current_app
from sqlalchemy import select, update
from sqlalchemy.exc import IntegrityError

from leadflow import clock, metrics, outbox, scoping
from leadflow.domain.events import DeliveryReceived, ReservationDue
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.verification import Applicant, Extraction, Note, verify
from leadflow.extensions import db
from leadflow.extraction import webhooks
from leadflow.models import (CallbackDelivery, DocumentVersion, ExtractionJob, StatusLogEntry, User,
                             utcnow)
from leadflow.services import pipeline, transitions
from leadflow.wiring import adapters

log = logging.getLogger(__name__)

CAUSE_BY_MODE = {"first": "generated", "reprocess": "reprocessed", "customise": "customised"}
# The service's failure codes that are about the file, not the system: a better upload fixes them.
FILE_PROBLEMS = {"unreadable": RejectionCode.UNREADABLE, "too_large": RejectionCode.FILE_TOO_LARGE,
                 "unsupported_type": RejectionCode.UNSUPPORTED_FILE}


class DeliveryTooEarly(Exception):
    """A callback arrived before the submission that caused it was committed; retry it."""


class Receipt:
    """What the endpoint answers: a fresh delivery, or one we already had."""

    def __init__(self, delivery_id: str, duplicate: bool):
        self.delivery_id = delivery_id
        self.duplicate = duplicate


def receive(headers, body: bytes) -> Receipt:
    """Verify, record and enqueue one delivery. Raises WebhookVerificationError or ValueError."""
    config = current_app.config
    secrets = [config["EXTRACTION_WEBHOOK_SECRET"], *config["EXTRACTION_WEBHOOK_PREVIOUS_SECRETS"]]
    delivery_id = webhooks.verify(secrets, headers, body)
    try:
        payload = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError("callback body is not JSON") from exc
    if not isinstance(payload, dict):
        raise ValueError("callback body is not a JSON object")
    job_id = str(payload.get("job_id") or "")[:64] or None
    db.session.add(CallbackDelivery(id=delivery_id, job_id=job_id, event_type=str(payload.get("type"))[:40],
                                    payload=payload))
    try:
        db.session.flush()
    except IntegrityError:
        # The webhook-id is recorded already (a replay, or the same delivery at the same moment):
        # the unique key, not a prior read, decides, so a replay costs one failed insert.
        outbox.rollback()
        return Receipt(delivery_id, duplicate=True)
    _write_status_log(delivery_id, job_id, payload)
    outbox.record(DeliveryReceived(delivery_id))
    outbox.commit()
    return Receipt(delivery_id, duplicate=False)


def record_polled(job_id: str, answer: dict) -> str:
    """Record the service's answer to `GET /jobs/<id>` (the deadline sweep asked) as a delivery,
    with its status log row, exactly as a callback is recorded; returns the delivery id.

    Its id is `poll-<job_id>-<n>`: a job asked again after an earlier poll (a rerun, a second
    deadline) gets a new delivery, and the same answer twice is harmless as processing decides
    from our job record."""
    payload = {k: answer[k] for k in ("type", "job_id", "data") if k in answer}
    for n in range(1, 100):
        delivery_id = f"poll-{job_id}-{n}"
        earlier = db.session.get(CallbackDelivery, delivery_id)
        if earlier is not None:
            if earlier.processed_at is None:
                return delivery_id  # recorded by an earlier poll that did not get to process it
            continue
        db.session.add(CallbackDelivery(id=delivery_id, job_id=job_id, event_type=str(payload.get("type"))[:40],
                                        payload=payload))
        try:
            db.session.flush()
        except IntegrityError:
            outbox.rollback()  # another sweep recorded the same poll this instant
            return delivery_id
        _write_status_log(delivery_id, job_id, payload)
        outbox.commit()
        return delivery_id
    raise RuntimeError(f"job {job_id} was polled too often")


def process(delivery_id: str) -> str:
    """Apply a recorded delivery; returns what happened. Safe to run any number of times."""
    delivery = db.session.get(CallbackDelivery, delivery_id)
    if delivery is None:
        return "unknown delivery"
    if delivery.processed_at is not None:
        return f"already processed: {delivery.outcome}"
    try:
        outcome = _apply(delivery)
        if outcome.startswith("applied"):
            outbox.commit()
            log.info("delivery %s: %s", delivery_id, outcome)
            metrics.callback_processed(outcome)
            return outcome
    except IntegrityError:
        # Another delivery of the same job stored its versions first (unique per job and
        # part): this one has nothing left to add.
        outcome = "ignored: the job's result was already stored"
    outbox.rollback()
    _mark(delivery_id, outcome)
    outbox.commit()
    log.info("delivery %s: %s", delivery_id, outcome)
    metrics.callback_processed(outcome)
    return outcome


def _apply(delivery: CallbackDelivery) -> str:
    payload = delivery.payload or {}
    job = db.session.get(ExtractionJob, delivery.job_id) if delivery.job_id else None
    if job is None:
        return "ignored: unknown job"
    document = scoping.document_in_brokerage(job.document_id, job.brokerage_id)
    if document is None:
        return "ignored: document not found"
    if document.current_job_id != job.id:
        return "ignored: stale job (no longer the document's current job)"
    if job.status in ("completed", "failed"):
        return f"ignored: job already {job.status}"
    if job.status == "created":
        # The service answered before our record of its accepting the job committed (a fast
        # extraction): not ours to judge yet. Raising leaves the delivery unprocessed; the
        # actor retries it, and the deliveries sweep after that.
        raise DeliveryTooEarly(f"job {job.id} is not recorded as accepted yet")
    if document.status != Status.EXTRACTING:
        return f"ignored: document is {document.status}"
    data = payload.get("data") or {}
    if payload.get("type") == "job.failed":
        return _apply_failure(delivery, job, document, data.get("error") or {})
    if payload.get("type") != "job.completed":
        return f"ignored: unknown type {payload.get('type')!r}"
    return _apply_result(delivery, job, document, data)


def _apply_result(delivery, job, document, data) -> str:
    content = data.get("content") if isinstance(data.get("content"), dict) else {}
    schema = data.get("schema") if isinstance(data.get("schema"), dict) else {}
    pages = _int(data.get("pages"), document.page_count or 1)
    document_type = str(data.get("document_type") or "unknown")
    confidence = _float(data.get("confidence"))
    cause = CAUSE_BY_MODE[job.mode]

    # Storage before the rows that point at it: an orphaned object is the acceptable failure.
    keys = {}
    for part, body in (("content", content), ("schema", schema)):
        keys[part] = f"brokerages/{document.brokerage_id}/documents/{document.id}/{part}/{job.id}.json"
        adapters().storage.put(keys[part], json.dumps(body, ensure_ascii=False).encode(), "application/json")

    if job.mode == "customise":
        # A new shape of the same data: the verdict stands, the document goes back where it was.
        target = Status(job.resume_status or Status.VERIFIED)
        moved = transitions.apply(document.id, Status.EXTRACTING, target, action="extraction_completed",
                                  note=f"job {job.id}: customised output, {pages} pages")
    else:
        declared = document.kind
        decided = (job.output_spec or {}).get("document_type")
        if decided:
            # A person decided the type: it stands, whatever the client declared.
            document_type, confidence, declared = decided, 1.0, None
        owner = db.session.get(User, document.owner_id)
        verdict = verify(Extraction(document_type, confidence, content, pages), declared,
                         Applicant(name=owner.name if owner else None), clock.now().date())
        target = verdict.status
        moved = transitions.apply(
            document.id, Status.EXTRACTING, verdict.status, action="extraction_completed",
            note=f"job {job.id}: {document_type} ({confidence:.2f}), {pages} pages",
            document_type=document_type, confidence=confidence, page_count=pages,
            verification_notes=verdict.notes_as_dicts(),
            rejection_code=verdict.rejection_code.value if verdict.rejection_code else None)
    if not moved:
        return "ignored: document moved on meanwhile"
    for part in ("content", "schema"):
        previous = _latest_version(document.id, part)
        db.session.add(DocumentVersion(
            document_id=document.id, part=part, number=(previous.number + 1) if previous else 1,
            cause=cause if previous else "generated", actor_id=job.requested_by_id, job_id=job.id,
            replaces_id=previous.id if previous else None, storage_key=keys[part]))
    _finish_job(job.id, "completed", pages=pages)
    _mark(delivery.id, f"applied: {target}")
    outbox.record(ReservationDue(job_id=job.id, pages=pages))
    return f"applied: {target}"


def _apply_failure(delivery, job, document, error) -> str:
    code = str(error.get("code") or "failed")
    message = str(error.get("message") or "extraction failed")[:300]
    if job.mode != "first" and job.resume_status:
        # A rerun that failed leaves the earlier result standing.
        note = Note("rerun_failed", f"The {job.mode} request failed ({code}); the earlier result stands.",
                    f"Die erneute Verarbeitung ist fehlgeschlagen ({code}); das frühere Ergebnis gilt weiter.")
        target, outcome = Status(job.resume_status), f"applied: {job.mode} failed ({code})"
        fields = {"verification_notes": [*(document.verification_notes or []), note.as_dict()]}
    elif code not in FILE_PROBLEMS:
        # A failure of ours, not of the file: tried again on the system retry schedule.
        _finish_job(job.id, "failed", error=f"{code}: {message}")
        settled = pipeline.system_failure(document.id, Status.EXTRACTING, RejectionCode.SYSTEM_EXTRACTION_FAILED,
                                          f"job {job.id}: {code}: {message}")
        if settled is None:
            return "ignored: document moved on meanwhile"
        outcome = f"applied: failed ({code}), {'retry scheduled' if settled == Status.PENDING else 'a person is asked'}"
        _mark(delivery.id, outcome)
        outbox.record(ReservationDue(job_id=job.id, pages=None))
        return outcome
    else:
        rejection = FILE_PROBLEMS[code]
        note = Note(code, "We could not read this file. Please upload a clear PDF or photo of the document.",
                    "Wir konnten diese Datei nicht lesen. Bitte laden Sie ein klares PDF oder Foto des Dokuments hoch.")
        target, outcome = Status.REJECTED, f"applied: failed ({code})"
        fields = {"rejection_code": rejection.value, "verification_notes": [note.as_dict()]}
    if not transitions.apply(document.id, Status.EXTRACTING, target, action="extraction_failed",
                             note=f"job {job.id}: {code}: {message}", **fields):
        return "ignored: document moved on meanwhile"
    _finish_job(job.id, "failed", error=f"{code}: {message}")
    _mark(delivery.id, outcome)
    outbox.record(ReservationDue(job_id=job.id, pages=None))
    return outcome


def _write_status_log(delivery_id: str, job_id: str | None, payload: dict) -> None:
    """Keep the whole payload, in the delivery's transaction but under a savepoint: a failure
    here is logged and rolls back only the log row, never the delivery."""
    try:
        with db.session.begin_nested():
            document_id = db.session.scalar(select(ExtractionJob.document_id).where(ExtractionJob.id == job_id)) \
                if job_id else None
            db.session.add(StatusLogEntry(document_id=document_id, job_id=job_id, delivery_id=delivery_id,
                                          event_type=str(payload.get("type"))[:40], payload=payload))
    except Exception:
        log.exception("could not write the status log for delivery %s", delivery_id)


def _finish_job(job_id: str, status: str, error: str | None = None, pages: int | None = None) -> None:
    db.session.execute(update(ExtractionJob).where(ExtractionJob.id == job_id).values(
        status=status, finished_at=utcnow(), last_error=error, pages_reported=pages))


def _mark(delivery_id: str, outcome: str) -> None:
    db.session.execute(update(CallbackDelivery).where(
        CallbackDelivery.id == delivery_id, CallbackDelivery.processed_at.is_(None)).values(
        processed_at=utcnow(), outcome=outcome[:200]))


def _latest_version(document_id: str, part: str) -> DocumentVersion | None:
    return db.session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document_id, DocumentVersion.part == part)
        .order_by(DocumentVersion.number.desc()).limit(1))


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
