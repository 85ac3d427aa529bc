"""A workspace's checklist, read from its documents."""
import json

from sqlalchemy import select
from sqlalchemy.orm import Session

from leadflow.domain.checklist import CaseDocument, ItemState, progress
from leadflow.models import Document, DocumentVersion
from leadflow.storage.base import Storage


def for_workspace(session: Session, storage: Storage, workspace_id: int, brokerage_id: int) -> list[ItemState]:
    """The checklist of one case; the caller has checked the viewer may see the workspace."""
    rows = session.scalars(select(Document).where(
        Document.workspace_id == workspace_id, Document.brokerage_id == brokerage_id)
        .order_by(Document.created_at.desc(), Document.id.desc())).all()
    return for_documents(session, storage, rows)


def for_documents(session: Session, storage: Storage, rows: list[Document]) -> list[ItemState]:
    """The checklist over documents the caller has already chosen and scoped, newest first."""
    return progress([CaseDocument(id=d.id, title=d.title, status=d.status, type=d.document_type or d.kind,
                                  nationality=_nationality(session, storage, d)) for d in rows])


def _nationality(session: Session, storage: Storage, document: Document) -> str | None:
    """A verified ID's nationality (its machine-readable zone), to know if a permit is needed."""
    if document.document_type != "id_document" or document.status != "VERIFIED":
        return None
    version = session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document.id, DocumentVersion.part == "content")
        .order_by(DocumentVersion.number.desc()).limit(1))
    if version is None:
        return None
    fields = json.loads(storage.get(version.storage_key)).get("fields") or {}
    return fields.get("nationality")
