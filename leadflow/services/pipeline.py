"""The worker's use cases: claim a document, check it, submit it for extraction.

Each step commits before the next side effect, so a crash between two steps leaves a state
that a sweep recognises and repairs (see leadflow.sweeps). Every use case is handed the
session it works in and, where it reaches outside the database, the process's ports.
"""
import io
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.orm import Session

from leadflow import breaker, notes, outbox, scoping, statements
from leadflow.billing import ledger
from leadflow.billing import service as billing
from leadflow.domain import filetypes
from leadflow.domain.document_types import N_
from leadflow import jobs
from leadflow.domain.events import ReservationDue, VerificationRequested
from leadflow.domain.packets import FIRST_READINGS, PACKET_KIND, RESPLIT, charged_before, decided_type
from leadflow.domain.lifecycle import JobStatus, RejectionCode, Status
from leadflow.domain.verification import Note
from leadflow.errors import Conflict, Unavailable
from leadflow.extraction.client import MAX_BATCH, BatchUnsupported, ExtractionUnavailable, ServiceBusy, ServiceDown
from leadflow.models import AuditEntry, Document, ExtractionJob, Packet, new_id, utcnow
from leadflow.ports import Ports
from leadflow.services import transitions
from leadflow.storage import InvalidKey, ObjectMissing, StorageError

log = logging.getLogger(__name__)


class Outcome(StrEnum):
    SUBMITTED = "SUBMITTED"
    REJECTED = "REJECTED"
    FAILED = "FAILED"
    RETRY_SCHEDULED = "RETRY_SCHEDULED"
    WAITING_FOR_SERVICE = "WAITING_FOR_SERVICE"
    WAITING_FOR_CAPACITY = "WAITING_FOR_CAPACITY"
    NOT_DUE = "NOT_DUE"
    WAITING_FOR_CREDITS = "WAITING_FOR_CREDITS"
    WAITING_FOR_ALLOWANCE = "WAITING_FOR_ALLOWANCE"
    SKIPPED_TERMINAL = "SKIPPED_TERMINAL"
    SKIPPED_NOT_PENDING = "SKIPPED_NOT_PENDING"
    SKIPPED_MISSING = "SKIPPED_MISSING"


# Outcomes after which the message is sent again later: the documents of its brokerage wait with it.
WAITING = (Outcome.WAITING_FOR_SERVICE, Outcome.WAITING_FOR_CAPACITY)


class TenantMismatch(Exception):
    """A message names a brokerage that does not own the document: never retried."""


class TransientFailure(Exception):
    """Something outside us failed in a way worth retrying (the message is retried)."""


def enqueue_verification(ports: Ports, document_id: str, brokerage_id: int, *, take_over: bool = False,
                         along: bool = False, gather: bool = False) -> bool:
    """Send the document's verification message unless one is queued or running already (its
    dedup key); `take_over`: that message is presumed lost and the key is taken from it.
    `along`: a new document its brokerage's next claim may take along (`_claim_companions`):
    while a message of the brokerage waits in the queue, none is sent for it (the message's
    claim takes it, or `send_next_waiting` sends it one when that message ends). `gather`: an
    upload's; a message it sends waits CLAIM_GATHER_MS in the queue first, holding the
    brokerage's key, so that the uploads of that moment are taken along.
    False when nothing was sent. Never raises: a document not sent is the pending sweep's."""
    nudge_key = jobs.brokerage_nudge_key(brokerage_id) if along and _claims_in_batches(ports) else None
    wait_ms = ports.settings.get("CLAIM_GATHER_MS", 0) if gather and nudge_key else 0
    return ports.jobs.send(VERIFY_ACTOR, document_id, brokerage_id, dedup_key=jobs.verification_key(document_id),
                           take_over=take_over, nudge_key=nudge_key, delay_ms=wait_ms or None)


def send_next_waiting(session: Session, ports: Ports, brokerage_id: int) -> None:
    """After a verification message: the brokerage's oldest document never claimed since its
    upload, if any, gets its message (as a nudge), so nothing an upload left to a waiting message
    waits longer than that message (a claim takes at most CLAIM_BATCH_SIZE; a message that found
    its own document taken claims nothing). Only read."""
    if not _claims_in_batches(ports):
        return
    _ask_for_next_waiting(session, brokerage_id)
    outbox.commit(session)


def _ask_for_next_waiting(session: Session, brokerage_id: int) -> None:
    """The verification of the brokerage's oldest document never claimed since its upload, as a
    nudge, sent when the session's transaction commits."""
    following = session.scalar(_NEVER_CLAIMED, {"brokerage_id": brokerage_id})
    if following is not None:
        outbox.record(session, VerificationRequested(following, brokerage_id, along=True))


def _claims_in_batches(ports: Ports) -> bool:
    return ports.settings.get("CLAIM_BATCH_SIZE", 1) > 1


# The actor that runs `verify_document` (tasks/documents.py), named so the sender need not import it.
VERIFY_ACTOR = "verify-document"


def verify_document(session: Session, ports: Ports, document_id: str, brokerage_id: int) -> Outcome:
    """Claim a PENDING document, pre-check it and submit it for extraction.

    One transaction before the call to the service (claim, job, reservation) and one after it
    (accepted, EXTRACTING). The pre-check was taken where the bytes were (`check_file`, at the
    upload) and is read from the row; only a file stored before that was kept is read here,
    and storage is asked about the file only when no call proved it up in the last few seconds."""
    if extraction_busy_for(ports) > 0:
        # The reader said a moment ago that its queue is full: a claim now would be refused too.
        # Asked before the document is read, as while it lasts every waiting document's
        # message comes back to ask (the tenant and state checks happen when it is over).
        return Outcome.WAITING_FOR_CAPACITY
    document = scoping.claimable_in_brokerage(session, document_id, brokerage_id)
    unclaimable = _unclaimable(session, ports, document_id, brokerage_id, document)
    if unclaimable is not None:
        # Only read: the transaction ends with a commit, as a rollback makes the driver drop
        # every statement it prepared on the connection, and most such messages end here.
        session.commit()
        return unclaimable
    remembered, pages, storage_key = document.precheck, document.page_count, document.storage_key
    claimed = transitions.claim(session, document_id)
    if claimed is None:
        session.commit()  # the claim matched no row: nothing was written
        return Outcome.SKIPPED_NOT_PENDING
    storage_breaker = breaker.for_ports(ports, "storage")
    try:
        if remembered is None:
            # Its claim commits before storage is read: a slow read holds no transaction open.
            outbox.commit(session)
            problem, pages = precheck(ports, document)
            storage_breaker.succeeded()
        else:
            problem, pages = remembered_precheck(ports, remembered, pages, packet=claimed.kind == PACKET_KIND)
            if problem is None and not storage_breaker.recently_ok():
                # Storage not proven up for a few seconds: one HEAD of the file proves it (and
                # that the file is there) before a job is paid for. A busy worker skips it; an
                # outage found here opens the breaker, and documents wait instead of failing.
                if ports.storage.head(storage_key) is None:
                    problem, pages = (RejectionCode.FILE_MISSING, notes.note("file_missing")), 0
                storage_breaker.succeeded()
        if problem is not None:
            code, note = problem
            waiting_job = claimed.current_job_id
            transitions.apply(session, document_id, Status.PROCESSING, Status.REJECTED, action="precheck_failed",
                              note=note.en, rejection_code=code.value, verification_notes=[note.as_dict()])
            if waiting_job:
                # A scheduled retry's job (a failure of ours came first, and storage was asked
                # only now): it will never be submitted, so it does not stay open.
                _fail_job(session, waiting_job, f"{code.value}: the file failed its pre-check")
            outbox.commit(session)
            return Outcome.REJECTED
        # A packet's first reading is its split; a document's, its extraction (of its own pages).
        return submit(session, ports, document_id, brokerage_id, mode="split" if claimed.kind == PACKET_KIND else "first",
                      expected_pages=pages, claimed_uncommitted=remembered is not None, claimed=claimed)
    except TransientFailure:
        raise
    except Exception as exc:
        # Hand the claim back so the retried message can claim it again; the stalled sweep
        # covers the case where even this fails (the database is gone, the process dies).
        # A claim not committed yet is undone by the rollback alone.
        outbox.rollback(session)
        storage_down = _is_storage_failure(exc)
        if storage_down:
            storage_breaker.failed()
            storage_down = storage_breaker.is_down()
        if transitions.apply(session, document_id, Status.PROCESSING, Status.PENDING,
                             action="waiting_for_service" if storage_down else "attempt_failed",
                             note=f"{type(exc).__name__}: {exc}"[:500]):
            outbox.commit(session)
        if storage_down:
            # Storage is known to be down now: this failure was the outage's, not the
            # document's; wait for it like the documents that find the breaker open.
            log.info("document %s waits for storage: %s", document_id, exc)
            return Outcome.WAITING_FOR_SERVICE
        raise


def _unclaimable(session: Session, ports: Ports, document_id: str, brokerage_id: int, document) -> Outcome | None:
    """Why the document read for a claim (`scoping.claimable_in_brokerage`) is not claimed now,
    or None when it is to be claimed."""
    if document is None:
        if scoping.document_belongs_elsewhere(session, document_id, brokerage_id):
            raise TenantMismatch(f"document {document_id} is not in brokerage {brokerage_id}")
        return Outcome.SKIPPED_MISSING
    if document.status in (Status.VERIFIED, Status.REJECTED, Status.ACTION_REQUIRED):
        return Outcome.SKIPPED_TERMINAL
    if document.status != Status.PENDING:
        return Outcome.SKIPPED_NOT_PENDING
    if is_scheduled(document.job_status, document.job_deadline_at) and document.job_deadline_at > ports.clock.now():
        # A copy of its message, or a sweep that enqueued a brokerage's PENDING documents:
        # its automatic retry has a time, and that is when the retries sweep sends it.
        return Outcome.NOT_DUE
    if known_down(ports):
        # Storage or the reader is known to be down: claiming would only spend an attempt on
        # our outage. The caller sends the message again later; the document stays PENDING.
        return Outcome.WAITING_FOR_SERVICE
    return None


def known_down(ports: Ports) -> bool:
    """Storage or the extraction service is known to be down (their breakers are open)."""
    if breaker.for_ports(ports, "storage").is_down():
        return True
    extraction_breaker = getattr(ports.extraction, "breaker", None)
    return extraction_breaker is not None and extraction_breaker.is_down()


def extraction_busy_for(ports: Ports) -> float:
    """Seconds the extraction client still holds submissions back because the service said it
    was full (0 for a client that cannot tell)."""
    busy_for = getattr(ports.extraction, "busy_for", None)
    return busy_for() if busy_for is not None else 0.0


def wait_for_services_seconds(ports: Ports) -> float:
    """How long until a breaker that is open now may be probed."""
    waits = [breaker.for_ports(ports, "storage").retry_in()]
    extraction_breaker = getattr(ports.extraction, "breaker", None)
    if extraction_breaker is not None:
        waits.append(extraction_breaker.retry_in())
    return max(waits)


def submit(session: Session, ports: Ports, document_id: str, brokerage_id: int, *, mode: str, expected_pages: int,
           output_spec: dict | None = None, actor_id: int | None = None,
           source: Status = Status.PROCESSING, claimed_uncommitted: bool = False, claimed=None) -> Outcome:
    """Create (or reuse) the document's extraction job, reserve credits, hand it to the service.

    A first extraction runs inside a worker: failures go back to PENDING and are retried. A
    reprocess or customisation is a person's request: a failure leaves the document as it
    was and raises, so the person is told at once. `claimed_uncommitted`: the claim is in this
    transaction (verify_document), so a refusal before the commit undoes it and writes it again;
    `claimed`: the row as that claim found it (`transitions.claim`), which is not read again."""
    # Read once, before the commit that would expire them.
    document = claimed if claimed is not None else session.get(Document, document_id)
    storage_key, owner_id, current_job_id = document.storage_key, document.owner_id, document.current_job_id
    job = _current_unaccepted_job(session, current_job_id, mode)
    fresh = job is None
    if fresh and output_spec is None and mode in FIRST_READINGS:
        # A reading again after one of ours failed (or an admin's retry): what a person decided stands.
        output_spec = carried(session, document, current_job_id)
    if fresh:
        job = ExtractionJob(id=new_id(), document_id=document_id, brokerage_id=brokerage_id, mode=mode,
                            output_spec=with_pages(output_spec, document), requested_by_id=actor_id,
                            status=JobStatus.CREATED.value,
                            resume_status=source.value if mode not in FIRST_READINGS else None)
        session.add(job)
        session.execute(_GIVE_JOB, {"document_id": document_id, "job_id": job.id, "pages": expected_pages})
        # As the ORM's update did: a copy of the row already loaded holds the new values.
        transitions.expire_loaded(session, Document, document_id, (),
                                  fresh={"current_job_id": job.id, "page_count": expected_pages})
    job_id = job.id
    # A job made ahead (a packet's document: its pages, a person's type) says what to read; a
    # part of a packet always reads its own pages only, whatever the request.
    output_spec = with_pages(output_spec if fresh or output_spec is not None else job.output_spec, document)
    person_asked = job.requested_by_id is not None
    try:
        # A client's own uploads count against their daily page allowance; a person's rerun does
        # not. A corrected split's reread holds nothing: its pages were charged when first read.
        if not charged_before(job.output_spec):
            billing.reserve(session, brokerage_id, job_id, max(expected_pages, 1),
                            owner_id=owner_id if mode in FIRST_READINGS and not person_asked else None,
                            daily_allowance=ports.settings["CLIENT_DAILY_PAGE_ALLOWANCE"], now=ports.clock.now(),
                            fresh_job=fresh)
    except billing.DailyAllowanceReached as exc:
        return _wait_for_allowance(session, document_id, source, exc, reclaim=claimed_uncommitted)
    except ledger.InsufficientCredits as exc:
        outbox.rollback(session)
        if mode not in FIRST_READINGS:
            raise Conflict(N_("Your brokerage has no extraction credits left for this; ask its admin to add some."),
                           code="insufficient_credits") from exc
        note = notes.note("waiting_for_credits")
        log.warning("brokerage %s cannot cover document %s: %s", brokerage_id, document_id, exc)
        _hand_back(session, document_id, source, reclaim=claimed_uncommitted, action="waiting_for_credits",
                   note=str(exc), verification_notes=[note.as_dict()])
        outbox.commit(session)
        return Outcome.WAITING_FOR_CREDITS
    # A worker's first claim takes other due documents of the brokerage along (see
    # `_claim_companions`): they are claimed, reserved and submitted with this one.
    companions = _claim_companions(session, ports, brokerage_id, document_id) \
        if claimed_uncommitted and mode == "first" else []
    outbox.commit(session)

    config = ports.settings
    submission = {"job_id": job_id, "document_url": ports.storage.download_url(storage_key, expires_in=3600),
                  "callback_url": config["PUBLIC_BASE_URL"] + "/api/extraction/callbacks",
                  "mode": mode, "output_spec": output_spec}
    try:
        if companions:
            answers = _submit_together(ports, [submission] + [
                {**submission, "job_id": c.job_id, "document_url": ports.storage.download_url(
                    c.storage_key, expires_in=3600), "output_spec": None} for c in companions])
            own = answers[0]
            own_moved = _record_submissions(session, ports, brokerage_id, list(zip(companions, answers[1:])),
                                            own=(job_id, document_id) if own is None else None)
            if own is None:
                return Outcome.SUBMITTED if own_moved else Outcome.SKIPPED_NOT_PENDING
            raise own
        ports.extraction.submit(**submission)
    except ExtractionUnavailable as exc:
        if mode not in FIRST_READINGS:
            _fail_job(session, job_id, str(exc))
            outbox.commit(session)
            raise Unavailable("The document reader is not available just now; nothing changed. "
                              "Please try again in a few minutes.") from exc
        if isinstance(exc, ServiceDown):
            # Nothing was tried: the reader is known to be down, or said its queue is full. No
            # attempt is counted; the job (and its reservation) wait for the next claim.
            if transitions.apply(session, document_id, source, Status.PENDING, action="waiting_for_service",
                                 note=str(exc)):
                outbox.commit(session)
            return Outcome.WAITING_FOR_CAPACITY if isinstance(exc, ServiceBusy) else Outcome.WAITING_FOR_SERVICE
        return _submission_failed(session, ports, job_id, document_id, source, str(exc))

    now = ports.clock.now()
    accepted = transitions.accept(session, job_id, accepted_at=now,
                                  deadline_at=now + timedelta(seconds=config["EXTRACTION_DEADLINE_SECONDS"]))
    # A customisation keeps the verdict (its notes) while the new shape is made.
    cleared = {} if mode == "customise" else {"verification_notes": [], "rejection_code": None}
    moved = accepted and transitions.apply(session, document_id, source, Status.EXTRACTING,
                                           action="extraction_started", actor_id=actor_id,
                                           note=f"job {job_id} ({mode})", **cleared)
    if not moved:
        # The document moved on while we submitted (the stalled sweep reset a slow worker's
        # claim), or its job was given up: this job's result would be stale. Give it up now, so
        # that nothing waits on it and its reservation is released, not left open until it expires.
        # Only a job this worker accepted is given up: one accepted by someone else is a worker
        # that reclaimed the document (after a stalled reset) with the same job and submitted
        # it; the document waits on it now.
        outbox.rollback(session)
        if accepted:
            log.warning("document %s left %s during submission of job %s; job given up", document_id, source, job_id)
            _fail_job(session, job_id, f"superseded: the document left {source} during submission")
            outbox.commit(session)
        return Outcome.SKIPPED_NOT_PENDING
    outbox.commit(session)
    return Outcome.SUBMITTED


def with_pages(output_spec: dict | None, document) -> dict | None:
    """A job's output_spec with the pages of the packet's file the document is (`pages`: first
    and last, from 1), for a document found in a packet; unchanged for any other document."""
    first, last = getattr(document, "first_page", None), getattr(document, "last_page", None)
    if first is None or last is None:
        return output_spec
    return {**(output_spec or {}), "pages": [first, last]}


def carried(session: Session, document, previous_job_id: str | None) -> dict | None:
    """What a new first reading of a packet's document carries over, whatever ended the one
    before (one of our failures, a deadline, an admin's retry): the type a person decided for its
    part (kept on the packet, `domain.packets.decided_type`) and a correction's cause (its reread
    is charged nothing, `charged_before`). None for any other document (nothing is read then)."""
    if getattr(document, "first_page", None) is None:
        return None
    spec = {}
    packet = session.get(Packet, getattr(document, "packet_id", None) or document.id)
    decided = decided_type(packet.parts if packet is not None else None, getattr(document, "part_number", None))
    if decided:
        spec["document_type"] = decided
    previous = session.get(ExtractionJob, previous_job_id) if previous_job_id else None
    if previous is not None and charged_before(previous.output_spec):
        spec["cause"] = RESPLIT
    return spec or None


_GIVE_JOB = update(Document.__table__).where(Document.__table__.c.id == bindparam("document_id")).values(
    current_job_id=bindparam("job_id"), page_count=bindparam("pages"))

# What `documents.precheck` holds when the file passed (else the RejectionCode of its problem).
PRECHECK_PASSED = "passed"

# A document as its upload left it: PENDING, its file passed the pre-check, no job, and its
# status never changed (one handed back, waiting for credits or tomorrow's allowance, has moved).
def _never_claimed_statement():
    documents = Document.__table__
    return (select(documents.c.id)
            .where(documents.c.brokerage_id == bindparam("brokerage_id"), documents.c.status == Status.PENDING.value,
                   documents.c.precheck == PRECHECK_PASSED, documents.c.current_job_id.is_(None),
                   # A packet is split by its own message, never taken along as one document.
                   documents.c.kind.is_distinct_from(PACKET_KIND),
                   documents.c.status_changed_at == documents.c.created_at)
            .order_by(documents.c.created_at).limit(1))


_NEVER_CLAIMED = _never_claimed_statement()


def check_file(data: bytes, config, *, packet: bool = False) -> tuple[tuple[RejectionCode, Note] | None, int]:
    """The pre-check on the bytes at hand (the upload, /complete): size, type, page count,
    readable, not blank. Returns (problem or None, page count). Pure: no storage, no database.
    `packet`: an upload of several documents, whose page limit is MAX_PACKET_PAGES (each of its
    documents is held to MAX_DOCUMENT_PAGES when it is split)."""
    limit = config["MAX_PACKET_PAGES"] if packet else config["MAX_DOCUMENT_PAGES"]
    if len(data) > config["MAX_UPLOAD_BYTES"]:
        return (RejectionCode.FILE_TOO_LARGE, notes.note("file_too_large")), 0
    sniffed = filetypes.sniff(data[:filetypes.SNIFF_BYTES])
    if sniffed is None:
        return (RejectionCode.UNSUPPORTED_FILE, notes.note("unsupported_file")), 0
    if sniffed != "application/pdf":
        return None, 1
    pages, blank = pdf_facts(data)
    if pages is None:
        return (RejectionCode.UNREADABLE, notes.note("unreadable")), 0
    if pages > limit:
        return (RejectionCode.TOO_MANY_PAGES, notes.note("too_many_pages", pages=pages, limit=limit)), pages
    if blank:
        # Refused before any reservation: blank pages cost the brokerage nothing.
        return (RejectionCode.ILLEGIBLE, notes.note("blank_pages")), pages
    return None, pages


def remembered_precheck(ports: Ports, verdict: str, pages: int | None, *,
                        packet: bool = False) -> tuple[tuple[RejectionCode, Note] | None, int]:
    """The pre-check's verdict as the upload recorded it (`documents.precheck`), with its note
    (`packet`: a packet's page limit is MAX_PACKET_PAGES)."""
    if verdict == PRECHECK_PASSED:
        return None, max(pages or 1, 1)
    code = RejectionCode(verdict)
    if code == RejectionCode.TOO_MANY_PAGES:
        limit = ports.settings["MAX_PACKET_PAGES" if packet else "MAX_DOCUMENT_PAGES"]
        note = notes.note("too_many_pages", pages=pages or 0, limit=limit)
    else:
        note = notes.note(_PRECHECK_NOTES[code])
    return (code, note), pages or 0


def precheck(ports: Ports, document: Document) -> tuple[tuple[RejectionCode, Note] | None, int]:
    """The pre-check read from storage, for a file stored before uploads were pre-checked:
    the file is there, of an allowed type, size, page count, and readable. Returns (problem or
    None, page count)."""
    storage = ports.storage
    config = ports.settings
    info = storage.head(document.storage_key)
    if info is None:
        return (RejectionCode.FILE_MISSING, notes.note("file_missing")), 0
    if info.size > config["MAX_UPLOAD_BYTES"]:
        return (RejectionCode.FILE_TOO_LARGE, notes.note("file_too_large")), 0
    head = storage.read_prefix(document.storage_key, filetypes.SNIFF_BYTES)
    if filetypes.sniff(head) != "application/pdf":
        return check_file(head, config)
    return check_file(storage.get(document.storage_key), config)


def pdf_page_count(data: bytes) -> int | None:
    """Pages of a PDF, or None when it cannot be opened."""
    return pdf_facts(data)[0]


def pdf_facts(data: bytes) -> tuple[int | None, bool]:
    """(pages, blank) of a PDF from one parse: pages None when it cannot be opened; blank when
    nothing is drawn on any page (no text shown, no image, no form or path painted). A scan is
    an image and counts as content; a damaged PDF is not called blank (extraction says what it is)."""
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        pages = len(reader.pages) or None
    except (PdfReadError, ValueError, KeyError, TypeError, OSError, RecursionError, AttributeError):
        return None, False
    return pages, pages is not None and _pdf_is_blank(reader)


def pdf_is_blank(data: bytes) -> bool:
    """True when nothing is drawn on any page of the PDF (see `pdf_facts`)."""
    return pdf_facts(data)[1]


def _pdf_is_blank(reader) -> bool:
    try:
        for page in reader.pages:
            contents = page.get_contents()
            if contents is not None and _DRAWING_OPERATOR.search(contents.get_data()):
                return False
        return True
    except Exception:  # pypdf raises many kinds on hostile files; "not blank" is the safe answer
        log.info("could not tell whether a PDF is blank; extraction will read it", exc_info=True)
        return False


# An operator that puts something on the page, as a token of a content stream: text shown,
# external objects (images, forms), inline images, shadings and every path-painting operator
# but "n" (paint nothing). Searched in the decoded bytes rather than parsing every operation
# (about fifteen times the time): a string that merely looks like one makes the page count as
# drawn on, which is the safe answer.
_DRAWING_OPERATOR = re.compile(rb"(?:^|(?<=[\s\]\)>]))(?:Tj|TJ|'|\"|Do|BI|sh|S|s|f\*?|F|B\*?|b\*?)(?=[\s\[(/<%]|$)")
# The note of each problem the pre-check finds (too many pages takes its figures).
_PRECHECK_NOTES = {RejectionCode.FILE_MISSING: "file_missing", RejectionCode.FILE_TOO_LARGE: "file_too_large",
                   RejectionCode.UNSUPPORTED_FILE: "unsupported_file", RejectionCode.UNREADABLE: "unreadable",
                   RejectionCode.ILLEGIBLE: "blank_pages"}


def fail_for_good(session: Session, ports: Ports, document_id: str, brokerage_id: int, reason: str) -> bool:
    """A message's retries are exhausted: a failure of ours, tried again on the system retry
    schedule (see `system_failure`), never a rejection."""
    document = scoping.document_in_brokerage(session, document_id, brokerage_id)
    if document is None or document.status not in (Status.PENDING, Status.PROCESSING):
        return False
    if document.current_job_id:
        _fail_job(session, document.current_job_id, reason)
    moved = system_failure(session, ports, document_id, Status(document.status),
                           RejectionCode.SYSTEM_RETRIES_EXHAUSTED,
                           f"verification failed after its message's retries: {reason}") is not None
    if not moved:
        outbox.rollback(session)
        return False
    outbox.commit(session)
    return moved


def reset_stalled(session: Session, stalled: Sequence[tuple[str, int]], threshold) -> list[str]:
    """Claims held in PROCESSING since before `threshold` (their workers died or hang), as
    (document id, brokerage id): the documents go back to PENDING and their messages are sent
    again, taking the dedup keys over. One transaction for them all (a commit each made 10,000
    stuck documents wait a minute for their fsyncs); the caller holds their rows locked already
    (the sweep's SELECT ... FOR UPDATE), so the update waits for no one. Commits; returns the
    ids reset (a document that moved on meanwhile is left alone)."""
    note = f"stuck in PROCESSING since before {threshold:%Y-%m-%d %H:%M:%S} UTC; retrying"
    brokerage_of = dict(stalled)
    reset = transitions.apply_many(session, list(brokerage_of), Status.PROCESSING, Status.PENDING,
                                   action="stalled_reset", notes={document_id: note for document_id in brokerage_of})
    for document_id in reset:
        outbox.record(session, VerificationRequested(document_id, brokerage_of[document_id], take_over=True))
    outbox.commit(session)
    return reset


def grant_credits(session: Session, brokerage_id: int, pages: int) -> tuple[ledger.Wallet, int]:
    """Add credits to a brokerage; its documents waiting (PENDING) go on once they commit.
    Returns the wallet and how many documents were sent on."""
    wallet = billing.grant(session, brokerage_id, pages)
    waiting = session.scalars(select(Document.id).where(
        Document.brokerage_id == brokerage_id, Document.status == Status.PENDING.value)).all()
    for document_id in waiting:
        outbox.record(session, VerificationRequested(document_id, brokerage_id))
    outbox.commit(session)
    return wallet, len(waiting)


def system_failure(session: Session, ports: Ports, document_id: str, source: Status, code: RejectionCode,
                   reason: str) -> Status | None:
    """A failure of ours (not of the client's file): the document goes back to PENDING and is
    tried again automatically after the next delay of SYSTEM_RETRY_DELAYS_MINUTES; once those
    are spent it goes to a person (ACTION_REQUIRED with `code`), never to a client's rejection.

    The wait is a scheduled first-extraction job: `created`, with a `deadline_at` that says
    when it is due (a job gets its answer deadline only when accepted); the retries sweep
    starts it; failures are counted from the audit since the last admin retry. The caller
    fails the job that failed, and commits. Returns the new status, None if the document moved."""
    document = session.get(Document, document_id)
    failures = _system_failures(session, document_id) + 1
    delays = ports.settings["SYSTEM_RETRY_DELAYS_MINUTES"]
    if failures <= len(delays):
        due = ports.clock.now() + timedelta(minutes=delays[failures - 1])
        job = ExtractionJob(document_id=document_id, brokerage_id=document.brokerage_id,
                            mode="split" if document.kind == PACKET_KIND else "first",
                            output_spec=with_pages(carried(session, document, document.current_job_id), document),
                            status=JobStatus.CREATED.value, deadline_at=due,
                            last_error=f"{code.value}: {reason}"[:500])
        session.add(job)
        session.flush()
        note = notes.note("system_retry")
        moved = _wait_for_retry(session, document_id, source,
                                note=f"{code.value} ({failures} of {len(delays)}): {reason}; "
                                     f"next try at {due:%Y-%m-%d %H:%M:%S} UTC"[:500],
                                current_job_id=job.id, verification_notes=[note.as_dict()], rejection_code=None)
        log.warning("document %s: %s (%s of %s); next try at %s", document_id, code.value, failures, len(delays), due)
        return Status.PENDING if moved else None
    note = notes.note("system_failure")
    moved = transitions.apply(session, document_id, source, Status.ACTION_REQUIRED, action="system_retries_spent",
                              note=f"{code.value} after {len(delays)} automatic retries: {reason}"[:500],
                              rejection_code=code.value, verification_notes=[note.as_dict()])
    log.error("document %s: %s after %s automatic retries; a person is asked", document_id, code.value, len(delays))
    return Status.ACTION_REQUIRED if moved else None


SYSTEM_RETRY = "system_retry"
"""The audit action of a scheduled system retry; `system_failure` counts them."""
# The audit action of an admin's retry: the schedule starts again after it.
ADMIN_RETRY = "retried"


def _wait_for_retry(session: Session, document_id: str, source: Status, *, note: str, **fields) -> bool:
    if source != Status.PENDING:
        return transitions.apply(session, document_id, source, Status.PENDING, action=SYSTEM_RETRY, note=note,
                                 **fields)
    # Its claim was handed back already: the status stays, so this is no transition (no status
    # event); the audit row without statuses records the retry and counts it.
    now = utcnow()
    row = session.execute(
        update(Document).where(Document.id == document_id, Document.status == Status.PENDING.value)
        .values(updated_at=now, **fields).returning(Document.id)
        .execution_options(synchronize_session=False)).first()
    if row is None:
        return False
    session.add(AuditEntry(document_id=document_id, action=SYSTEM_RETRY, note=note, created_at=now))
    return True


def _system_failures(session: Session, document_id: str) -> int:
    since = session.scalar(select(func.max(AuditEntry.created_at)).where(
        AuditEntry.document_id == document_id, AuditEntry.action == ADMIN_RETRY))
    query = select(func.count(AuditEntry.id)).where(AuditEntry.document_id == document_id,
                                                    AuditEntry.action == SYSTEM_RETRY)
    if since is not None:
        query = query.where(AuditEntry.created_at > since)
    return session.scalar(query) or 0


def is_scheduled(job_status: str | None, deadline_at) -> bool:
    """A job that is a scheduled retry: created, with the time it is due (see `system_failure`)."""
    return job_status == JobStatus.CREATED and deadline_at is not None


def _is_storage_failure(exc: BaseException) -> bool:
    # A missing object or a bad key is about this document; anything else storage raises
    # (timeouts, refused connections, 5xx, an unreadable folder) is about storage.
    return isinstance(exc, StorageError) and not isinstance(exc, (ObjectMissing, InvalidKey))


def _submission_failed(session: Session, ports: Ports, job_id: str, document_id: str, source: Status,
                       reason: str) -> Outcome:
    outcome, attempts = _count_failed_submission(session, ports, job_id, document_id, source, reason)
    outbox.commit(session)
    if outcome is None:
        raise TransientFailure(f"submission {attempts} of job {job_id} failed: {reason}")
    return outcome


def _count_failed_submission(session: Session, ports: Ports, job_id: str, document_id: str, source: Status,
                             reason: str) -> tuple[Outcome | None, int]:
    """A failed submission counts on its job; past the attempts the job fails and the document
    waits for an automatic retry (the outcome), else it goes back to PENDING for another try
    (None). Returns the attempts so far too. The caller commits."""
    job = session.get(ExtractionJob, job_id, populate_existing=True)
    attempts = job.submit_attempts + 1
    log.warning("submission %s of job %s failed: %s", attempts, job_id, reason)
    session.execute(update(ExtractionJob).where(ExtractionJob.id == job_id).values(
        submit_attempts=attempts, last_error=reason[:500]))
    if attempts >= ports.settings["EXTRACTION_MAX_SUBMIT_ATTEMPTS"]:
        _fail_job(session, job_id, reason)
        settled = system_failure(session, ports, document_id, source, RejectionCode.SYSTEM_SUBMISSION_FAILED,
                                 f"{attempts} submissions failed: {reason}")
        return (Outcome.FAILED if settled == Status.ACTION_REQUIRED else Outcome.RETRY_SCHEDULED), attempts
    transitions.apply(session, document_id, source, Status.PENDING, action="submission_retry",
                      note=f"submission {attempts} failed: {reason}")
    return None, attempts


@dataclass(frozen=True)
class _Companion:
    """A document claimed by another document's message, with the job made for it."""
    document_id: str
    job_id: str
    storage_key: str


class _NotTried(ExtractionUnavailable):
    """A job of a batch not submitted because one before it failed (the service job by job)."""


def _claim_companions(session: Session, ports: Ports, brokerage_id: int, document_id: str) -> list[_Companion]:
    """Claim up to CLAIM_BATCH_SIZE - 1 other PENDING documents of the brokerage, in the
    transaction that claimed `document_id`, with a job and a reservation each: one update of
    their statuses, one insert each of audit rows, jobs and reservations, the wallet and the
    counts moved once.

    Only the plain case is taken along: a file whose pre-check passed at the upload, and no
    job yet (no earlier attempt, no scheduled retry), whose client's pages today and the
    brokerage's balance cover it. Anything else is left to its own message, which stays the
    authority: a document taken along makes its message a no-op (SKIPPED_NOT_PENDING), and
    one handed back is sent its message again. On PostgreSQL the candidates are locked with
    SKIP LOCKED, so two batches never share one; SQLite ignores FOR UPDATE but this
    transaction already wrote (the claim), so it holds the database's one write lock."""
    limit = min(ports.settings.get("CLAIM_BATCH_SIZE", 1), MAX_BATCH) - 1
    if limit <= 0:
        return []
    candidates = session.execute(statements.built_once(("companions", limit), lambda: _companions_statement(limit)),
                                 {"brokerage_id": brokerage_id, "document_id": document_id}).all()
    if not candidates:
        return []
    now = ports.clock.now()
    allowance = ports.settings["CLIENT_DAILY_PAGE_ALLOWANCE"]
    used = billing.client_pages_today_by_owner(session, {c.owner_id for c in candidates}, now) \
        if allowance > 0 else {}
    balance = billing.wallet_state(session, brokerage_id).balance
    chosen = []
    for candidate in candidates:
        pages = max(candidate.page_count or 1, 1)
        if pages > balance or (candidate.owner_id in used and used[candidate.owner_id] + pages > allowance):
            continue
        balance -= pages
        if candidate.owner_id in used:
            used[candidate.owner_id] += pages
        chosen.append((candidate, pages, new_id()))
    if not chosen:
        return []
    claimed = set(transitions.apply_many(
        session, [c.id for c, _, _ in chosen], Status.PENDING, Status.PROCESSING, action="claimed",
        notes={c.id: f"with {document_id}" for c, _, _ in chosen},
        per_document={"current_job_id": {c.id: job for c, _, job in chosen},
                      "page_count": {c.id: pages for c, pages, _ in chosen}},
        without_job=True))
    chosen = [(c, pages, job) for c, pages, job in chosen if c.id in claimed]
    if not chosen:
        return []
    session.execute(_ADD_JOBS, [
        {"id": job, "document_id": c.id, "brokerage_id": brokerage_id, "mode": "first",
         "status": JobStatus.CREATED.value, "submit_attempts": 0, "created_at": utcnow()} for c, _, job in chosen])
    # The wallet row is this transaction's already (the claiming document's reservation), so
    # the balance read above holds; a refusal here undoes the whole claim, this document's too.
    billing.reserve_many(session, brokerage_id, {job: pages for _, pages, job in chosen}, now=now)
    if len(candidates) == limit:
        # A full batch: more may wait. Their message goes as this claim commits (not when this
        # message ends), so another worker claims the next batch while this one is submitted.
        _ask_for_next_waiting(session, brokerage_id)
    return [_Companion(c.id, job, c.storage_key) for c, _, job in chosen]


# With RETURNING, SQLAlchemy sends a list of rows as one multi-row statement (insertmanyvalues);
# without it, psycopg's executemany sends a statement per row.
_ADD_JOBS = insert(ExtractionJob.__table__).returning(ExtractionJob.__table__.c.id)


def _companions_statement(limit: int):
    documents = Document.__table__
    return (select(documents.c.id, documents.c.owner_id, documents.c.page_count, documents.c.storage_key)
            .where(documents.c.brokerage_id == bindparam("brokerage_id"), documents.c.status == Status.PENDING.value,
                   documents.c.precheck == PRECHECK_PASSED, documents.c.current_job_id.is_(None),
                   documents.c.id != bindparam("document_id"))
            .order_by(documents.c.created_at).limit(limit)
            .with_for_update(skip_locked=True, of=documents))


def _submit_together(ports: Ports, submissions: list[dict]) -> list[Exception | None]:
    """Submit jobs in one request where the service takes batches, else one by one, stopping at
    the first failure (the rest are _NotTried). Per job: None when taken, else the exception.
    A failure of the whole batch request is every job's."""
    submit_many = getattr(ports.extraction, "submit_many", None)
    if submit_many is not None:
        try:
            return submit_many(submissions)
        except BatchUnsupported:
            pass
        except ExtractionUnavailable as exc:
            return [exc] * len(submissions)
    answers: list[Exception | None] = []
    for submission in submissions:
        if answers and answers[-1] is not None:
            answers.append(_NotTried("not submitted: a submission before it in its batch failed"))
            continue
        try:
            ports.extraction.submit(**submission)
            answers.append(None)
        except Exception as exc:  # the job's own outcome; the caller decides what each means
            answers.append(exc)
    return answers


def _record_submissions(session: Session, ports: Ports, brokerage_id: int,
                        companions: list[tuple[_Companion, Exception | None]], *, own: tuple[str, str] | None) -> bool:
    """After a batch's submission, in one transaction: the jobs the service took are accepted
    and their documents go EXTRACTING together; a document that left PROCESSING meanwhile has
    its job given up (as `submit` does for one). The companions not taken go back to PENDING,
    each as its own message would have left it, and are sent their message again. `own`: the
    claiming document's (job, document) when the service took it. Commits; True when `own` moved."""
    taken = [(c.job_id, c.document_id) for c, answer in companions if answer is None]
    if own is not None:
        taken.append(own)
    own_moved = False
    if taken:
        now = ports.clock.now()
        deadline = now + timedelta(seconds=ports.settings["EXTRACTION_DEADLINE_SECONDS"])
        accepted = set(transitions.accept_many(session, [job for job, _ in taken], accepted_at=now,
                                               deadline_at=deadline))
        moving = {document: job for job, document in taken if job in accepted}
        moved = set(transitions.apply_many(
            session, moving, Status.PROCESSING, Status.EXTRACTING, action="extraction_started",
            notes={document: f"job {job} (first)" for document, job in moving.items()},
            verification_notes=[], rejection_code=None))
        for job, document in taken:
            # As in `submit`: a job someone else accepted is theirs (a reclaim with the same job).
            if document not in moved and job in accepted:
                log.warning("document %s left PROCESSING during submission of job %s; job given up", document, job)
                _fail_job(session, job, "superseded: the document left PROCESSING during submission")
        own_moved = own is not None and own[1] in moved
    for companion, answer in companions:
        if answer is None:
            continue
        document_id = companion.document_id
        if isinstance(answer, (ServiceDown, _NotTried)):
            # Nothing was tried for it: no attempt counted; its job and reservation wait.
            again = transitions.apply(session, document_id, Status.PROCESSING, Status.PENDING,
                                      action="waiting_for_service", note=str(answer))
        elif isinstance(answer, ExtractionUnavailable):
            outcome, _ = _count_failed_submission(session, ports, companion.job_id, document_id,
                                                  Status.PROCESSING, str(answer))
            again = outcome is None
        else:
            again = transitions.apply(session, document_id, Status.PROCESSING, Status.PENDING,
                                      action="attempt_failed", note=f"{type(answer).__name__}: {answer}"[:500])
        if again:
            outbox.record(session, VerificationRequested(document_id, brokerage_id))
    outbox.commit(session)
    return own_moved


def _wait_for_allowance(session: Session, document_id: str, source: Status, exc: Exception, *,
                        reclaim: bool = False) -> Outcome:
    """The client has had their pages for today: the document waits PENDING, its job undone,
    and the pending sweep offers it again (tomorrow it fits)."""
    outbox.rollback(session)
    note = notes.note("waiting_for_allowance", stored_as=billing.WAITING_FOR_ALLOWANCE)
    log.info("document %s waits for tomorrow: %s", document_id, exc)
    _hand_back(session, document_id, source, reclaim=reclaim, action=billing.WAITING_FOR_ALLOWANCE,
               note=str(exc), verification_notes=[note.as_dict()])
    outbox.commit(session)
    return Outcome.WAITING_FOR_ALLOWANCE


def _hand_back(session: Session, document_id: str, source: Status, *, reclaim: bool, action: str, note: str,
               **fields) -> bool:
    """Back to PENDING after a rollback. When the claim was in the rolled-back transaction
    (`reclaim`), it is written again first, so the history says claimed, then why it waits."""
    if reclaim and not transitions.apply(session, document_id, Status.PENDING, Status.PROCESSING, action="claimed"):
        return False
    return transitions.apply(session, document_id, source, Status.PENDING, action=action, note=note, **fields)


def _fail_job(session: Session, job_id: str, reason: str) -> None:
    transitions.finish(session, job_id, JobStatus.FAILED, expected=(JobStatus.CREATED, JobStatus.ACCEPTED),
                       last_error=reason[:500])
    outbox.record(session, ReservationDue(job_id=job_id, pages=None))


def _current_unaccepted_job(session: Session, current_job_id: str | None, mode: str) -> ExtractionJob | None:
    if not current_job_id:
        return None
    job = session.get(ExtractionJob, current_job_id)
    if job is not None and job.status == JobStatus.CREATED and job.mode == mode:
        if job.deadline_at is not None:
            # Its time came: the scheduled retry becomes the job this claim submits.
            session.execute(update(ExtractionJob).where(ExtractionJob.id == job.id)
                            .values(deadline_at=None))
            session.refresh(job)
        return job
    return None
