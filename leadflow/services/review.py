"""A person decides what the system could not: the type of an ACTION_REQUIRED document, or
another try for one that failed for system reasons."""
from leadflow import outbox
from leadflow.domain.audience import Role
from leadflow.domain.events import VerificationRequested
from leadflow.domain.lifecycle import RejectionCode, Status, is_system_failure
from leadflow.domain.verification import DOCUMENT_TYPES, Note
from leadflow.errors import Conflict, Forbidden, InvalidInput
from leadflow.extensions import db
from leadflow.models import AuditEntry, Document, User
from leadflow.services import documents, pipeline, transitions


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
        # The first extraction could not tell the type, so it read no fields for one: extract
        # again as the decided type; the callback then verifies it by that type's rules.
        db.session.add(AuditEntry(document_id=document.id, actor_id=admin.id, action="type_decided",
                                  note=f"decided: {document_type}"))
        pipeline.submit(document.id, document.brokerage_id, mode="reprocess",
                        expected_pages=document.page_count or 1, output_spec={"document_type": document_type},
                        actor_id=admin.id, source=Status.ACTION_REQUIRED)
        db.session.refresh(document)
        return document
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
