"""A person decides what the system could not: the type of an ACTION_REQUIRED document, the
fields the reader could not read on one, or another try for one that failed for system reasons."""
from sqlalchemy.orm import Session

from leadflow import outbox
from leadflow.domain.audience import awaits_retry, may_decide, may_retry
from leadflow.domain.document_types import N_
from leadflow.domain.events import VerificationRequested
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.packets import PACKET_KIND
from leadflow.domain.verification import DOCUMENT_TYPES, RULES, Note, typed_value, unreadable_fields
from leadflow.errors import Conflict, Forbidden, InvalidInput
from leadflow.models import AuditEntry, Document, User
from leadflow.ports import Ports
from leadflow.services import documents, pipeline, transitions, versions

# How each kind of field is typed, for a reviewer whose value did not parse.
TYPED_LIKE = {"month": "10/2026", "amount": "2.345,67", "date": "31.10.2026", "year": "2025",
              "iban": "DE86 5003 0010 3975 4612 96", "text": "the name as printed"}


def decide(session: Session, ports: Ports, admin: User, document_id: str, *, document_type: str | None = None,
           reject_reason: str | None = None, fields: dict | None = None) -> Document:
    """Set the type (the document goes on to verification), read the fields the reader could
    not (`fields`: the document is judged again at once), or reject it with a reason."""
    if not may_decide(admin.role):
        raise Forbidden(N_("Only a platform admin decides documents in review."))
    document = documents.get_visible(session, admin, document_id)
    if document.status != Status.ACTION_REQUIRED:
        raise Conflict(N_("This document’s status is “%(status)s”: it is not waiting for a decision."), status=document.status)
    if document.kind == PACKET_KIND and not reject_reason:
        # A packet waits for its split, not for a type: confirm or correct it (services/packets.py).
        raise Conflict(N_("This upload holds several documents: confirm or correct how it is split."),
                       code="packet_split_unsure")
    if fields is not None and not reject_reason:
        return _read_fields(session, ports, admin, document, fields)
    if reject_reason:
        reason = str(reject_reason).strip()[:500]
        note = Note("reviewer_rejected", reason, reason)
        moved = transitions.apply(session, document.id, Status.ACTION_REQUIRED, Status.REJECTED,
                                  action="reviewer_rejected", actor_id=admin.id, note=reason,
                                  rejection_code=RejectionCode.REJECTED_BY_REVIEWER.value,
                                  verification_notes=[note.as_dict()])
    elif document_type in DOCUMENT_TYPES:
        # The first extraction could not tell the type, so it read no fields for one: extract
        # again as the decided type; the callback then verifies it by that type's rules.
        session.add(AuditEntry(document_id=document.id, actor_id=admin.id, action="type_decided",
                               note=f"decided: {document_type}"))
        pipeline.submit(session, ports, document.id, document.brokerage_id, mode="reprocess",
                        expected_pages=document.page_count or 1, output_spec={"document_type": document_type},
                        actor_id=admin.id, source=Status.ACTION_REQUIRED)
        session.refresh(document)
        return document
    else:
        raise InvalidInput(N_("Give a document_type from the list, or a reason to reject."))
    if not moved:
        outbox.rollback(session)
        raise Conflict(N_("Someone else decided this document a moment ago."))
    outbox.commit(session)
    session.refresh(document)
    return document


def _read_fields(session: Session, ports: Ports, admin: User, document: Document, fields) -> Document:
    """The reviewer's values become a corrected version and the type's rules run on them: one step."""
    wanted = unreadable_fields(document.document_type, document.verification_notes)
    if not wanted:
        raise Conflict(N_("This document is not waiting for fields to be read; decide its type or reject it."))
    if not isinstance(fields, dict) or not fields:
        raise InvalidInput('fields must be an object of field names to values, e.g. {"period": "10/2026"}.')
    rules = RULES[document.document_type]
    unknown = sorted(str(name) for name in fields if rules.field(str(name)) is None)
    if unknown:
        raise InvalidInput(f"Not a field this document's rules read: {', '.join(unknown)}.")
    blank = [f.en for f in wanted if not str(fields.get(f.name) or "").strip()]
    if blank:
        raise InvalidInput(f"Fill in {' and '.join(blank)}.")
    values = {}
    for name, text in fields.items():
        field = rules.field(str(name))
        value = typed_value(document.document_type, field.name, text)
        if value is None:
            raise InvalidInput(f"We could not understand {field.en} ({str(text)[:40]!r}); "
                               f"type it like {TYPED_LIKE[field.kind]}.")
        values[field.name] = value
    return versions.correct(session, ports, admin, document.id, values, decides=True, action="reviewer_read_fields")


def retry(session: Session, user: User, document_id: str) -> Document:
    """Send a document that failed for system reasons through the pipeline again."""
    if not may_retry(user.role):
        raise Forbidden(N_("Only an admin can retry a failed document."))
    document = documents.get_visible(session, user, document_id)
    if not awaits_retry(document.status, document.rejection_code):
        raise Conflict(N_("Only a document that failed for system reasons can be retried."))
    if not transitions.apply(session, document.id, Status(document.status), Status.PENDING, action="retried",
                             actor_id=user.id, note=f"retry after {document.rejection_code}", rejection_code=None,
                             verification_notes=[], current_job_id=None):
        outbox.rollback(session)
        raise Conflict(N_("Someone else retried this document a moment ago."))
    outbox.record(session, VerificationRequested(document.id, document.brokerage_id, take_over=True))
    outbox.commit(session)
    session.refresh(document)
    return document
