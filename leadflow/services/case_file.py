"""A case's file as a lender reads it: the facts of its verified documents, the checks across them,
the income summary, and which documents have gone stale.

The caller has checked the viewer may see the workspace (views.workspace_for); every query here is
scoped to the workspace's brokerage as well.
"""
import logging
from dataclasses import dataclass
from datetime import date, timedelta

from sqlalchemy import func, literal, literal_column, select, update
from sqlalchemy.orm import Session

from leadflow import outbox
from leadflow.domain import case_checks as rules
from leadflow.domain.case_checks import CaseFacts, CheckResult, DocumentFacts, Household
from leadflow.domain.events import DocumentStatusChanged
from leadflow.domain.lifecycle import Status
from leadflow.domain.verification.spec import confidently_read
from leadflow.models import AuditEntry, Document, DocumentVersion, Workspace
from leadflow.ports import Ports
from leadflow.services import applicants, version_store
from leadflow.services.checklist import WENT_STALE, whose
from leadflow.storage.base import StorageError

# Only these age out: a lender wants the latest months' payslips and statements.
AGING_TYPES = ("payslip", "bank_statement")

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CaseFile:
    checks: list[CheckResult]
    summary: Household                # each applicant's income and the household's
    outcome: str                      # the worst check that ran (case_checks.worst)
    titles: dict[str, str]            # document id -> title, for the documents the checks name
    payout: date                      # identity papers must be valid past this day


def case_checks(session: Session, ports: Ports, workspace: Workspace) -> list[CheckResult]:
    """Every case check over the workspace's verified documents, today."""
    return rules.run_checks(facts(session, ports, workspace))


def income_summary(session: Session, ports: Ports, workspace: Workspace) -> Household:
    return rules.household(facts(session, ports, workspace))


def case_file(session: Session, ports: Ports, workspace: Workspace) -> CaseFile:
    """The checks and the summary from one reading of the documents (what the case page shows)."""
    known = facts(session, ports, workspace)
    checks = rules.run_checks(known)
    return CaseFile(checks, rules.household(known), rules.worst(checks),
                    {d.id: d.title for d in known.documents}, known.payout)


def set_planned_payout(session: Session, workspace: Workspace, day: date | None) -> None:
    """The advisor's planned payout date (None: not planned yet); the caller has checked the viewer
    may work on the case."""
    workspace.planned_payout_date = day
    session.commit()


def mark_stale(session: Session, ports: Ports, today: date, batch: int) -> tuple[list[str], int]:
    """Read the VERIFIED payslips and bank statements due for a look today (`stale_check_on`, see
    `due_for_staleness`), at most `batch`, and mark those of open cases that have aged out with a
    `went_stale` audit row (the checklist then wants a newer one, and the case page shows why),
    pushed so open pages re-read their case. Every document read gets its next day: the day it
    ages out (from its content), or never (marked now or before, never dated, not in an open
    case: reopening a case looks at its documents again). Their cases are due for the reminders
    sweep again. Commits. Returns the ids marked and how many were read (fewer than `batch`:
    nothing more is due today)."""
    marked = select(AuditEntry.id).where(AuditEntry.document_id == Document.id, AuditEntry.action == WENT_STALE)
    due = due_for_staleness(session)
    rows = session.execute(
        select(Document, Workspace.closed_at, marked.exists())
        .outerjoin(Workspace, Workspace.id == Document.workspace_id)
        .where(*STALENESS_WATCHED, due <= today).order_by(due, Document.id).limit(batch)).all()
    moved: list[str] = []
    for document, closed_at, already in rows:
        next_look = NEVER
        if document.workspace_id is not None and closed_at is None and not already:
            read = DocumentFacts(document.id, document.title, document.document_type,
                                 read_fields(current_content(session, ports, document)))
            if rules.is_stale(read, today):
                session.add(AuditEntry(document_id=document.id, action=WENT_STALE, from_status=document.status,
                                       to_status=document.status, created_at=ports.clock.now(),
                                       note=f"too old for a lender on {today.isoformat()}: a newer one is needed"))
                outbox.record(session, DocumentStatusChanged(document.id, document.brokerage_id, document.status,
                                                             document.title))
                moved.append(document.id)
            else:
                # Never today or earlier: a run reads each document once.
                next_look = max(rules.stale_on(read) or NEVER, today + timedelta(days=1))
        document.stale_check_on = next_look
    cases = {document.workspace_id for document, _, _ in rows if document.id in moved}
    if cases:
        session.execute(update(Workspace).where(Workspace.id.in_(cases)).values(reminders_due_on=None))
    outbox.commit(session)
    return moved, len(rows)


# The documents the staleness sweep watches; constants, not parameters, so that PostgreSQL
# matches them to the partial index ix_documents_stale_check with any plan.
STALENESS_WATCHED = (Document.status == literal_column(f"'{Status.VERIFIED.value}'"),
                     Document.document_type.in_([literal_column(f"'{t}'") for t in AGING_TYPES]))
# "Never" as a date both databases keep.
NEVER = date(9999, 12, 31)


def due_for_staleness(session: Session):
    """The day a document is due, NULL (not read since verified or corrected) first: the
    expression ix_documents_stale_check indexes."""
    return func.coalesce(Document.stale_check_on, before_any_day(session))


def before_any_day(session: Session):
    """The day a row not looked at yet is due on (NULL sorts first as this): a constant, as the
    due-indexes are made with it."""
    if session.get_bind().dialect.name == "postgresql":
        return literal_column("'-infinity'::date")
    return literal(date(1, 1, 1))


def look_again(session: Session, workspace_id: int) -> None:
    """A case opened again: its verified documents are read by the next staleness run (they
    were left unwatched while it was closed). The caller commits."""
    session.execute(update(Document).where(Document.workspace_id == workspace_id, *STALENESS_WATCHED)
                    .values(stale_check_on=None))


def facts(session: Session, ports: Ports, workspace: Workspace) -> CaseFacts:
    """What the case's VERIFIED documents say, only fields read with confidence or set by a person."""
    rows = session.scalars(select(Document).where(
        Document.workspace_id == workspace.id, Document.brokerage_id == workspace.brokerage_id,
        Document.status == Status.VERIFIED.value)
        .order_by(Document.created_at.desc(), Document.id.desc())).all()
    people = applicants.people(session, workspace)
    documents = tuple(DocumentFacts(d.id, d.title, d.document_type or d.kind or "unknown",
                                    read_fields(current_content(session, ports, d)), whose(d, people)) for d in rows)
    return CaseFacts(documents, ports.clock.now().date(), getattr(workspace, "planned_payout_date", None), people)


def current_content(session: Session, ports: Ports, document: Document,
                    unreadable: tuple[type[Exception], ...] = (StorageError, ValueError)) -> dict:
    """The document's current content version (corrections included); empty when it has none or it
    is `unreadable` now: the checks then see fewer facts (a check says "not checked") rather than
    failing the page. A lender package passes only ObjectMissing, so that storage being down
    fails its build (the actor tries again) instead of packing a document without its data."""
    version = session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document.id, DocumentVersion.part == "content")
        .order_by(DocumentVersion.number.desc()).limit(1))
    if version is None:
        return {}
    try:
        content = version_store.read(ports.storage, version.storage_key, "content")
    except unreadable as exc:
        log.warning("content of document %s not readable: %s", document.id, exc)
        return {}
    return content if isinstance(content, dict) else {}


def read_fields(content: dict) -> dict:
    """The fields read confidently, or set by a person (the rule verification reads them by)."""
    return confidently_read(content)
