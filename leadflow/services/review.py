"""A person decides a document the system could not classify (ACTION_REQUIRED)."""
import json

from sqlalchemy import select

from leadflow import clock, outbox
from leadflow.domain.events import VerificationRequested
from leadflow.domain.lifecycle import RejectionCode, Status, is_system_failure
from leadflow.domain.verification import DOCUMENT_TYPES, Applicant, Note, verify_type
from leadflow.errors import Conflict, Forbidden, InvalidInput
from leadflow.extensions import db
from leadflow.models import Document, DocumentVersion, User
from leadflow.services import documents, transitions
from leadflow.wiring import adapters


def decide(admin: User, document_id: str, *, document_type: str | None = None,
           reject_reason: str | None = None) -> Document:
    """Set the type (the document goes on to verification) or reject it with a reason."""
    document = documents.get_visible(admin, document_id)
    if document.status != Status.ACTION_REQUIRED:
        raise Conflict(f"This document is {document.status}, not waiting for a decision.")
    if reject_reason:
        reason = str(reject_reason).strip()[:500]
        note = Note("reviewer_rejected", reason, reason)
        moved = transitions.apply(document.id, Status.ACTION_REQUIRED, Status.REJECTED, action="reviewer_rejected",
                                  actor_id=admin.id, note=reason,
                                  rejection_code=RejectionCode.REJECTED_BY_REVIEWER.value,
                                  verification_notes=[note.as_dict()])
    elif document_type in DOCUMENT_TYPES:
        moved = transitions.apply(document.id, Status.ACTION_REQUIRED, Status.PROCESSING, action="type_decided",
                                  actor_id=admin.id, note=f"decided: {document_type}", document_type=document_type)
        if moved:
            owner = db.session.get(User, document.owner_id)
            verdict = verify_type(document_type, _current_content(document.id), Applicant(owner.name), clock.now().date())
            transitions.apply(document.id, Status.PROCESSING, verdict.status, action="verified_after_decision",
                              actor_id=admin.id, verification_notes=verdict.notes_as_dicts(),
                              rejection_code=verdict.rejection_code.value if verdict.rejection_code else None)
    else:
        raise InvalidInput("Give a document_type from the list, or a reason to reject.")
    if not moved:
        outbox.rollback()
        raise Conflict("Someone else decided this document a moment ago.")
    outbox.commit()
    db.session.refresh(document)
    return document


def retry(user: User, document_id: str) -> Document:
    """Send a document that failed for system reasons through the pipeline again."""
    from leadflow.domain.audience import Role
    if user.role not in (Role.PLATFORM_ADMIN, Role.BROKERAGE_ADMIN):
        raise Forbidden("Only an admin can retry a failed document.")
    document = documents.get_visible(user, document_id)
    if document.status != Status.REJECTED or not is_system_failure(document.rejection_code):
        raise Conflict("Only a document that failed for system reasons can be retried.")
    if not transitions.apply(document.id, Status.REJECTED, Status.PENDING, action="retried", actor_id=user.id,
                             note=f"retry after {document.rejection_code}", rejection_code=None,
                             verification_notes=[], current_job_id=None):
        outbox.rollback()
        raise Conflict("Someone else retried this document a moment ago.")
    outbox.record(VerificationRequested(document.id, document.brokerage_id, take_over=True))
    outbox.commit()
    db.session.refresh(document)
    return document


def _current_content(document_id: str) -> dict:
    version = db.session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document_id, DocumentVersion.part == "content")
        .order_by(DocumentVersion.number.desc()).limit(1))
    if version is None:
        return {}
    return json.loads(adapters().storage.get(version.storage_key))
