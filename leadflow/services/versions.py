"""An advisor's work on a document's data: reprocess, customise, correct, revert.

Content and schema are versioned separately; each version names its cause, who, when and
the version it replaces. Storage is written before the row that points at it; a job's content
and schema share one stored object (services/version_store.py).
"""
import copy

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from leadflow import outbox
from leadflow.domain.audience import may_work_on_data
from leadflow.domain.document_types import N_
from leadflow.domain.lifecycle import SETTLED, Status
from leadflow.domain.verification import Applicant, verify_type
from leadflow.errors import Conflict, Forbidden, InvalidInput, NotFound
from leadflow.models import AuditEntry, Document, DocumentVersion, User
from leadflow.ports import Ports
from leadflow.services import applicants, documents, pipeline, transitions, version_store

MAX_CHANGES = 100


def reprocess(session: Session, ports: Ports, user: User, document_id: str) -> Document:
    """Extract the document again; the result becomes a new `reprocessed` version."""
    document = _editable(session, user, document_id)
    pipeline.submit(session, ports, document.id, document.brokerage_id, mode="reprocess",
                    expected_pages=document.page_count or 1, actor_id=user.id, source=Status(document.status))
    return _reloaded(session, document)


def customise(session: Session, ports: Ports, user: User, document_id: str, output_spec) -> Document:
    """Ask for the data in another shape (`{"fields": [...]}`); it becomes a `customised` version."""
    if not isinstance(output_spec, dict) or not isinstance(output_spec.get("fields"), list) \
            or not output_spec["fields"] or not all(isinstance(f, str) and f for f in output_spec["fields"]):
        raise InvalidInput('output_spec must be {"fields": ["name", ...]} with at least one field name.')
    document = _editable(session, user, document_id)
    pipeline.submit(session, ports, document.id, document.brokerage_id, mode="customise",
                    expected_pages=document.page_count or 1,
                    output_spec={"fields": output_spec["fields"][:MAX_CHANGES]}, actor_id=user.id,
                    source=Status(document.status))
    return _reloaded(session, document)


def correct(session: Session, ports: Ports, user: User, document_id: str, changes, *, decides: bool = False,
            action: str = "corrected") -> Document:
    """Set fields by hand (`{"field": value}`); a `corrected` version, verified again.

    A value a person set counts as read, whatever the extractor's confidence was. A document
    waiting in review is judged again only when the reviewer decides with the values
    (`decides`, from services/review.py); an advisor's correction there waits for the reviewer.
    """
    if not isinstance(changes, dict) or not changes or len(changes) > MAX_CHANGES:
        raise InvalidInput('changes must be an object of field names to values, e.g. {"net": "2100.00"}.')
    document = _editable(session, user, document_id)
    current = _latest(session, document.id, "content")
    if current is None:
        raise Conflict(N_("This document has no extracted data to correct yet."))
    content = version_store.read(ports.storage, current.storage_key, "content")
    updated = copy.deepcopy(content)
    changed = {str(k): v for k, v in changes.items()}
    updated.setdefault("fields", {}).update(changed)
    if isinstance(updated.get("field_confidence"), dict):
        updated["field_confidence"].update(dict.fromkeys(changed, 1.0))
    updated["read_by_person"] = sorted(set(updated.get("read_by_person") or ()) | set(changed))
    _new_version(session, ports, document, "content", "corrected", user, updated)
    _reverify(session, ports, document, user, updated, action=action,
              note=f"{action} {', '.join(sorted(changed))}", decides=decides)
    _commit_version(session)
    return _reloaded(session, document)


def revert(session: Session, ports: Ports, user: User, document_id: str) -> Document:
    """Back to the original extraction, as new `reverted` versions of content and schema."""
    document = _editable(session, user, document_id)
    originals = {part: _first(session, document.id, part) for part in ("content", "schema")}
    if originals["content"] is None:
        raise Conflict(N_("This document has no extracted data to revert to."))
    for part, original in originals.items():
        if original is not None:
            _new_version(session, ports, document, part, "reverted", user, storage_key=original.storage_key)
    content = version_store.read(ports.storage, originals["content"].storage_key, "content")
    _reverify(session, ports, document, user, content, action="reverted", note="back to the original extraction")
    _commit_version(session)
    return _reloaded(session, document)


def version_body(session: Session, ports: Ports, document: Document, part: str,
                 number: int | None = None) -> tuple[DocumentVersion, dict]:
    query = select(DocumentVersion).where(DocumentVersion.document_id == document.id, DocumentVersion.part == part)
    if number is not None:
        query = query.where(DocumentVersion.number == number)
    version = session.scalar(query.order_by(DocumentVersion.number.desc()).limit(1))
    if version is None:
        raise NotFound(f"This document has no {part} {'version ' + str(number) if number else 'yet'}.")
    return version, version_store.read(ports.storage, version.storage_key, part)


def _editable(session: Session, user: User, document_id: str) -> Document:
    document = documents.get_visible(session, user, document_id)
    if not may_work_on_data(user.role):
        raise Forbidden(N_("Only the brokerage's advisors can change a document's data."))
    if document.status not in SETTLED:
        raise Conflict(N_("This document’s status is “%(status)s”; wait until it is finished."), status=document.status)
    return document


def _new_version(session: Session, ports: Ports, document: Document, part: str, cause: str, user: User,
                 body: dict | None = None, storage_key: str | None = None) -> DocumentVersion:
    previous = _latest(session, document.id, part)
    number = (previous.number + 1) if previous else 1
    if storage_key is None:
        storage_key = version_store.key(document.brokerage_id, document.id, f"{part}-v{number}-{cause}")
        version_store.write(ports.storage, storage_key, {part: body})
    version = DocumentVersion(document_id=document.id, part=part, number=number, cause=cause, actor_id=user.id,
                              replaces_id=previous.id if previous else None, storage_key=storage_key,
                              created_at=ports.clock.now())
    session.add(version)
    if part == "content":
        document.stale_check_on = None   # new content: the staleness sweep reads it again
    return version


def _reverify(session: Session, ports: Ports, document: Document, user: User, content: dict, *, action: str,
              note: str, decides: bool = False) -> None:
    """Run the type's rules on the new data; the verdict may move between VERIFIED, REJECTED
    and ACTION_REQUIRED (a needed field left unread goes to a person). Every write is guarded
    by the status the verdict was judged from: a reprocess that started meanwhile wins, and
    this one is refused (Conflict), not lost."""
    status = Status(document.status)
    if (status == Status.ACTION_REQUIRED and not decides) or not document.document_type:
        session.add(AuditEntry(document_id=document.id, actor_id=user.id, action=action, note=note))
        return
    owner = session.get(User, document.owner_id)
    case = applicants.people_of(session, [document.workspace_id]).get(document.workspace_id, ())
    verdict = verify_type(document.document_type, content, Applicant(owner.name if owner else None, case),
                          ports.clock.now().date())
    fields = {"verification_notes": verdict.notes_as_dicts(),
              "rejection_code": verdict.rejection_code.value if verdict.rejection_code else None,
              **verdict.whose_fields()}
    if verdict.status == status:
        # Same status, new notes: open pages still re-render the row.
        moved = transitions.renote(session, document.id, status, action=action, actor_id=user.id, note=note,
                                   **fields)
    else:
        moved = transitions.apply(session, document.id, status, verdict.status, action=action, actor_id=user.id,
                                  note=note, **fields)
    if not moved:
        outbox.rollback(session)
        raise Conflict(N_("Someone else changed this document a moment ago; reload and try again."))


def _commit_version(session: Session) -> None:
    try:
        outbox.commit(session)
    except IntegrityError as exc:
        # Two people saved a version of the same document at once: the number is taken.
        outbox.rollback(session)
        raise Conflict(N_("Someone else changed this document a moment ago; reload and try again.")) from exc


def _latest(session: Session, document_id: str, part: str) -> DocumentVersion | None:
    return session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document_id, DocumentVersion.part == part)
        .order_by(DocumentVersion.number.desc()).limit(1))


def _first(session: Session, document_id: str, part: str) -> DocumentVersion | None:
    return session.scalar(select(DocumentVersion).where(
        DocumentVersion.document_id == document_id, DocumentVersion.part == part, DocumentVersion.number == 1))


def _reloaded(session: Session, document: Document) -> Document:
    session.refresh(document)
    return document
