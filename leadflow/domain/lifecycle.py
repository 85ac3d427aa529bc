"""The document lifecycle: its states, what each promises, and the edges allowed between them."""
from enum import StrEnum


class Status(StrEnum):
    PENDING = "PENDING"
    """The record exists and the file is in storage. Nothing else is promised yet."""
    PROCESSING = "PROCESSING"
    """Claimed by exactly one worker; pre-checks and submission happen here."""
    EXTRACTING = "EXTRACTING"
    """The extraction service accepted a job for it; that job carries a deadline."""
    VERIFIED = "VERIFIED"
    """Verification rules passed on the extracted data."""
    REJECTED = "REJECTED"
    """Verification failed, or the system failed for good; notes say why."""
    ACTION_REQUIRED = "ACTION_REQUIRED"
    """The type could not be determined with confidence; a person decides."""


TERMINAL = frozenset({Status.VERIFIED, Status.REJECTED})
"""States a pipeline message never moves a document out of by itself."""

SETTLED = frozenset({Status.VERIFIED, Status.REJECTED, Status.ACTION_REQUIRED})
"""States in which the pipeline's work on the document is done."""

ALLOWED = frozenset({
    (Status.PENDING, Status.PROCESSING),        # a worker claims it
    (Status.PROCESSING, Status.EXTRACTING),     # the service accepted the job
    (Status.PROCESSING, Status.PENDING),        # stalled sweep, or a transient failure to retry
    (Status.PROCESSING, Status.REJECTED),       # a pre-check failed, or the system failed for good
    (Status.PROCESSING, Status.VERIFIED),       # a person decided the type; rules passed
    (Status.EXTRACTING, Status.VERIFIED),
    (Status.EXTRACTING, Status.REJECTED),
    (Status.EXTRACTING, Status.ACTION_REQUIRED),
    (Status.EXTRACTING, Status.PENDING),        # the extraction deadline passed; submit again
    (Status.ACTION_REQUIRED, Status.PROCESSING),  # a person decided the type
    (Status.ACTION_REQUIRED, Status.REJECTED),  # a person rejected it
    (Status.PENDING, Status.REJECTED),          # retries exhausted before a claim held
    (Status.REJECTED, Status.PENDING),          # an admin retries a system failure
    (Status.VERIFIED, Status.EXTRACTING),       # an advisor asked for a reprocess or customisation
    (Status.REJECTED, Status.EXTRACTING),
    (Status.ACTION_REQUIRED, Status.EXTRACTING),
    (Status.VERIFIED, Status.REJECTED),         # a correction or revert re-verified
    (Status.REJECTED, Status.VERIFIED),         # a correction or revert re-verified
})


class IllegalTransition(Exception):
    """The lifecycle has no edge between these two states."""


def check(source: Status, target: Status) -> None:
    """Raise IllegalTransition unless `source -> target` is an edge of the lifecycle."""
    if (Status(source), Status(target)) not in ALLOWED:
        raise IllegalTransition(f"{source} -> {target} is not an edge of the document lifecycle")


def is_terminal(status: str) -> bool:
    return Status(status) in TERMINAL


class RejectionCode(StrEnum):
    """Why a document is REJECTED; the SYSTEM_ codes are failures an admin may retry."""
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


def is_system_failure(code: str | None) -> bool:
    return bool(code) and code.startswith("SYSTEM_")
