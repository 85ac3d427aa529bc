"""The document lifecycle: its states, what each promises, and the edges allowed between them."""
from enum import StrEnum


class Status(StrEnum):
    PENDING = "PENDING"
    """The record exists and the file is in storage. Nothing else is promised yet. A document
    whose processing failed for a reason of ours waits here too, for its next automatic try
    (its current job is created with a `deadline_at`: when it is due); the client reads
    "still being checked"."""
    PROCESSING = "PROCESSING"
    """Claimed by exactly one worker; pre-checks and submission happen here."""
    EXTRACTING = "EXTRACTING"
    """The extraction service accepted a job for it; that job carries a deadline."""
    VERIFIED = "VERIFIED"
    """Verification rules passed on the extracted data."""
    REJECTED = "REJECTED"
    """Verification failed, or the file cannot be used; notes say why. Never a failure of ours:
    those are retried, then handed to a person (ACTION_REQUIRED with a SYSTEM_ code)."""
    ACTION_REQUIRED = "ACTION_REQUIRED"
    """The type, or a field the rules need, could not be read with confidence; a person decides."""


TERMINAL = frozenset({Status.VERIFIED, Status.REJECTED})
"""States a pipeline message never moves a document out of by itself."""

SETTLED = frozenset({Status.VERIFIED, Status.REJECTED, Status.ACTION_REQUIRED})
"""States in which the pipeline's work on the document is done."""

ALLOWED = frozenset({
    (Status.PENDING, Status.PROCESSING),        # a worker claims it
    (Status.PROCESSING, Status.EXTRACTING),     # the service accepted the job
    (Status.PROCESSING, Status.PENDING),        # stalled sweep, a transient failure to retry, a system retry scheduled
    (Status.PROCESSING, Status.REJECTED),       # a pre-check failed, or the system failed for good
    (Status.PROCESSING, Status.VERIFIED),       # a person decided the type; rules passed
    (Status.EXTRACTING, Status.VERIFIED),
    (Status.EXTRACTING, Status.REJECTED),
    (Status.EXTRACTING, Status.ACTION_REQUIRED),
    (Status.EXTRACTING, Status.PENDING),        # the extraction deadline passed or the reader failed; submit again
    (Status.PENDING, Status.ACTION_REQUIRED),   # system retries spent before a claim held: a person retries
    (Status.PROCESSING, Status.ACTION_REQUIRED),  # system retries spent during submission: a person retries
    (Status.ACTION_REQUIRED, Status.PENDING),   # an admin retries a system failure
    (Status.ACTION_REQUIRED, Status.PROCESSING),  # a person decided the type
    (Status.ACTION_REQUIRED, Status.REJECTED),  # a person rejected it, or the fields they read fail the rules
    (Status.ACTION_REQUIRED, Status.VERIFIED),  # a person read the fields the reader could not; rules passed
    (Status.PENDING, Status.REJECTED),          # retries exhausted before a claim held (before system retries)
    (Status.REJECTED, Status.PENDING),          # an admin retries a system failure
    (Status.VERIFIED, Status.PENDING),          # a packet's split was corrected: the child is read again
    (Status.VERIFIED, Status.EXTRACTING),       # an advisor asked for a reprocess or customisation
    (Status.REJECTED, Status.EXTRACTING),
    (Status.ACTION_REQUIRED, Status.EXTRACTING),
    (Status.VERIFIED, Status.REJECTED),         # a correction or revert re-verified
    (Status.REJECTED, Status.VERIFIED),         # a correction or revert re-verified
    (Status.VERIFIED, Status.ACTION_REQUIRED),  # a correction or revert left a needed field unread:
    (Status.REJECTED, Status.ACTION_REQUIRED),  # a person reads it, the client is not told it is missing
})


class IllegalTransition(Exception):
    """The lifecycle has no edge between these two states."""


def check(source: Status, target: Status) -> None:
    """Raise IllegalTransition unless `source -> target` is an edge of the lifecycle."""
    if (Status(source), Status(target)) not in ALLOWED:
        raise IllegalTransition(f"{source} -> {target} is not an edge of the document lifecycle")


def is_terminal(status: str) -> bool:
    return Status(status) in TERMINAL


class JobStatus(StrEnum):
    """An extraction job's states; `leadflow.services.transitions` is their only writer."""
    CREATED = "created"
    """Recorded, not yet handed to the service. With a `deadline_at` it is a scheduled system
    retry, due at that time."""
    ACCEPTED = "accepted"
    """The service took it; it carries the deadline by which it must answer."""
    COMPLETED = "completed"
    """Its result was applied; its reservation is settled for the pages used."""
    FAILED = "failed"
    """Given up (the service failed it, the deadline passed, or the document moved on); its
    reservation is released."""


JOB_FINISHED = frozenset({JobStatus.COMPLETED, JobStatus.FAILED})

JOB_EDGES = frozenset({
    (JobStatus.CREATED, JobStatus.ACCEPTED),    # the service accepted the submission
    (JobStatus.CREATED, JobStatus.FAILED),      # never submitted: superseded, or its retries spent
    (JobStatus.ACCEPTED, JobStatus.COMPLETED),  # its result was applied
    (JobStatus.ACCEPTED, JobStatus.FAILED),     # the service failed it, or its deadline passed
})


def check_job(source: JobStatus, target: JobStatus) -> None:
    """Raise IllegalTransition unless `source -> target` is an edge of a job's life."""
    if (JobStatus(source), JobStatus(target)) not in JOB_EDGES:
        raise IllegalTransition(f"job {source} -> {target} is not an edge of an extraction job's life")


class RejectionCode(StrEnum):
    """Why a document is REJECTED; the SYSTEM_ codes are failures of ours, never a client's
    rejection: they mark a document handed to a person (ACTION_REQUIRED) that an admin may retry."""
    VERIFICATION_FAILED = "VERIFICATION_FAILED"
    ILLEGIBLE = "ILLEGIBLE"
    UNSUPPORTED_FILE = "UNSUPPORTED_FILE"
    FILE_MISSING = "FILE_MISSING"
    TOO_MANY_PAGES = "TOO_MANY_PAGES"
    FILE_TOO_LARGE = "FILE_TOO_LARGE"
    UNREADABLE = "UNREADABLE"
    REJECTED_BY_REVIEWER = "REJECTED_BY_REVIEWER"
    SYSTEM_RETRIES_EXHAUSTED = "SYSTEM_RETRIES_EXHAUSTED"
    SYSTEM_EXTRACTION_FAILED = "SYSTEM_EXTRACTION_FAILED"
    SYSTEM_SUBMISSION_FAILED = "SYSTEM_SUBMISSION_FAILED"
    # A packet whose split the reader was unsure of waits for a person (ACTION_REQUIRED); a child
    # whose pages a person gave to another child is retired (REJECTED), which no client is told of.
    PACKET_SPLIT_UNSURE = "PACKET_SPLIT_UNSURE"
    PACKET_PART_MERGED = "PACKET_PART_MERGED"


def is_system_failure(code: str | None) -> bool:
    return bool(code) and code.startswith("SYSTEM_")
