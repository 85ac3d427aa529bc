"""A workspace's checklist, read from its documents."""
import json

from sqlalchemy import select

from leadflow.domain.checklist import CaseDocument, ItemState, progress
from leadflow.extensions import db
from leadflow.models import Document, DocumentVersion
from leadflow.wiring import adapters


def for_workspace(workspace_id: int, brokerage_id: int) -> list[ItemState]:
    """The checklist of one case; the caller has checked the viewer may see the workspace."""
    rows = db.session.scalars(select(Document).where(
        Document.workspace_id == workspace_id, Document.brokerage_id == brokerage_id)
        .order_by(Document.created_at.desc(), Document.id.desc())).all()
    return for_documents(rows)


def for_documents(rows: list[Document]) -> list[ItemState]:
    """The checklist over documents the caller has already chosen and scoped, newest first."""
    return progress([CaseDocument(id=d.id, title=d.title, status=d.status, type=d.document_type or d.kind,
                                  nationality=_nationality(d)) for d in rows])


def _nationality(document: Document) -> str | None:
    """A verified ID's nationality (its machine-readable zone), to know if a permit is needed."""
    if document.document_type != "id_document" or document.status != "VERIFIED":
        return None
    version = db.session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document.id, DocumentVersion.part == "content")
        .order_by(DocumentVersion.number.desc()).limit(1))
    if version is None:
        return None
    fields = json.loads(adapters().storage.get(version.storage_key)).get("fields") or {}
    return fields.get("nationality")
