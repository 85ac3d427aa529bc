"""A workspace's checklist, read from its documents."""
from datetime import date, timedelta

from sqlalchemy import select
from sqlalchemy.orm import Session

from leadflow import clock
from leadflow.domain.case_checks import DEFAULT_PAYOUT_DAYS
from leadflow.domain.checklist import CaseDocument, ItemState, progress
from leadflow.domain.lifecycle import RejectionCode
from leadflow.domain.packets import PACKET_KIND
from leadflow.domain.verification.common import iso_date
from leadflow.models import AuditEntry, Document, DocumentVersion, Workspace
from leadflow.services import applicants, version_store
from leadflow.storage.base import Storage

# The audit action the staleness sweep writes on a verified document that aged out.
WENT_STALE = "went_stale"
IDENTITY_TYPES = ("id_document", "residence_permit")


def for_workspace(session: Session, storage: Storage, workspace_id: int, brokerage_id: int) -> list[ItemState]:
    """The checklist of one case; the caller has checked the viewer may see the workspace."""
    rows = session.scalars(select(Document).where(
        Document.workspace_id == workspace_id, Document.brokerage_id == brokerage_id)
        .order_by(Document.created_at.desc(), Document.id.desc())).all()
    return for_documents(session, storage, rows, workspace_id)


def for_documents(session: Session, storage: Storage, rows: list[Document],
                  workspace_id: int | None = None) -> list[ItemState]:
    """The checklist over documents the caller has already chosen and scoped, newest first, for the
    applicants of their case (`workspace_id`, else the documents' own)."""
    workspace_id = workspace_id or next((d.workspace_id for d in rows if d.workspace_id), None)
    # A packet's documents stand for it (the packet itself fills no slot), and a document whose pages
    # a person gave to another of the packet's documents is no document of the case any more.
    rows = [d for d in rows if d.kind != PACKET_KIND and d.rejection_code != RejectionCode.PACKET_PART_MERGED]
    people = applicants.people_of(session, [workspace_id]).get(workspace_id, ())
    stale = _went_stale(session, [d.id for d in rows if d.status == "VERIFIED"])
    payout = _payout(session, rows)
    documents = []
    for d in rows:
        fields = _identity_fields(session, storage, d)
        expiry = iso_date(fields.get("expiry_date"))
        replace = "stale" if d.id in stale else ("expires" if expiry is not None and expiry <= payout else None)
        documents.append(CaseDocument(id=d.id, title=d.title, status=d.status, type=d.document_type or d.kind,
                                      nationality=fields.get("nationality"), replace=replace,
                                      applicants=whose(d, people)))
    return progress(documents, people)


def whose(document: Document, people) -> tuple[int | None, ...]:
    """The applicants a document belongs to: both for a joint one, none recorded (the client's)."""
    if document.joint:
        return tuple(p.id for p in people)
    return (document.applicant_id,) if document.applicant_id else ()


def _went_stale(session: Session, ids: list[str]) -> set[str]:
    if not ids:
        return set()
    return set(session.scalars(select(AuditEntry.document_id).where(
        AuditEntry.document_id.in_(ids), AuditEntry.action == WENT_STALE)))


def _payout(session: Session, rows: list[Document]) -> date:
    """The case's planned payout, else the day identity papers must last to by default."""
    workspace = session.get(Workspace, rows[0].workspace_id) if rows and rows[0].workspace_id else None
    planned = getattr(workspace, "planned_payout_date", None)
    return planned or clock.now().date() + timedelta(days=DEFAULT_PAYOUT_DAYS)


def _identity_fields(session: Session, storage: Storage, document: Document) -> dict:
    """A verified ID's or permit's fields: its nationality (is a permit needed?) and expiry."""
    if document.document_type not in IDENTITY_TYPES or document.status != "VERIFIED":
        return {}
    version = session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document.id, DocumentVersion.part == "content")
        .order_by(DocumentVersion.number.desc()).limit(1))
    if version is None:
        return {}
    fields = version_store.read(storage, version.storage_key, "content").get("fields") or {}
    return {"nationality": fields.get("nationality") if document.document_type == "id_document" else None,
            "expiry_date": fields.get("expiry_date")}
