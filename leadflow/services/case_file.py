"""A case's file as a lender reads it: the facts of its verified documents, the checks across them,
the income summary, and which documents have gone stale.

The caller has checked the viewer may see the workspace (views.workspace_for); every query here is
scoped to the workspace's brokerage as well.
"""
import logging
from dataclasses import dataclass
from datetime import date

from sqlalchemy import and_, or_, select
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


def mark_stale(session: Session, ports: Ports, today: date, batch: int) -> list[str]:
    """Find VERIFIED payslips and bank statements of open cases that have aged out today and are not yet
    marked; mark each with a `went_stale` audit row (the checklist then wants a newer one, and the
    case page shows why) and push it, so open pages re-read their case. At most `batch` are marked
    per run, oldest verdicts first through the (status, status_changed_at) index. Returns their ids."""
    marked = select(AuditEntry.id).where(AuditEntry.document_id == Document.id, AuditEntry.action == WENT_STALE)
    # A closed case waits for its erasure: its documents age without anyone asked for newer ones.
    open_cases = select(Workspace.id).where(Workspace.closed_at.is_(None))
    moved: list[str] = []
    after = None
    while len(moved) < batch:
        query = (select(Document).where(Document.status == Status.VERIFIED.value,
                                        Document.document_type.in_(AGING_TYPES),
                                        Document.workspace_id.in_(open_cases), ~marked.exists())
                 .order_by(Document.status_changed_at, Document.id).limit(batch))
        if after is not None:
            query = query.where(or_(Document.status_changed_at > after[0],
                                    and_(Document.status_changed_at == after[0], Document.id > after[1])))
        rows = session.scalars(query).all()
        if not rows:
            break
        for document in rows:
            after = (document.status_changed_at, document.id)
            read = DocumentFacts(document.id, document.title, document.document_type,
                                 read_fields(current_content(session, ports, document)))
            if len(moved) < batch and rules.is_stale(read, today):
                session.add(AuditEntry(document_id=document.id, action=WENT_STALE, from_status=document.status,
                                       to_status=document.status, created_at=ports.clock.now(),
                                       note=f"too old for a lender on {today.isoformat()}: a newer one is needed"))
                outbox.record(session, DocumentStatusChanged(document.id, document.brokerage_id, document.status,
                                                             document.title))
                moved.append(document.id)
        outbox.commit(session)
    return moved


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
