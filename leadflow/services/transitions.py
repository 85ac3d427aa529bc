"""The only writer of a document's status: a conditional update plus an audit row, one transaction."""
from sqlalchemy import func, update
from sqlalchemy.orm.util import identity_key

from leadflow import metrics, outbox
from leadflow.services import counts
from leadflow.domain import lifecycle
from leadflow.domain.events import DocumentStatusChanged
from leadflow.domain.lifecycle import Status
from leadflow.extensions import db
from leadflow.models import AuditEntry, Document, utcnow


def apply(document_id: str, source: Status, target: Status, *, action: str = "status_changed",
          actor_id: int | None = None, note: str | None = None, **fields) -> bool:
    """Move a document from `source` to `target` if it is still in `source`.

    Returns False when zero rows matched: someone else moved it first, and then nothing is
    written, no audit row, no event, no new timestamp. The caller commits.
    """
    lifecycle.check(source, target)
    now = utcnow()
    values = {"status": target.value, "updated_at": now, "status_changed_at": now, **fields}
    if target in lifecycle.TERMINAL:
        values["verified_at"] = func.coalesce(Document.verified_at, now)
    row = db.session.execute(
        update(Document)
        .where(Document.id == document_id, Document.status == source.value)
        .values(**values)
        .returning(Document.brokerage_id, Document.title, Document.verification_notes, Document.created_at,
                   Document.verified_at)
        .execution_options(synchronize_session=False)
    ).first()
    if row is None:
        return False
    _expire_loaded(document_id)
    counts.bump(row.brokerage_id, {source.value: -1, target.value: +1})
    metrics.document_settled(source, target, row.created_at, row.verified_at, now)
    db.session.add(AuditEntry(document_id=document_id, actor_id=actor_id, action=action,
                              from_status=source.value, to_status=target.value, note=note,
                              created_at=now))
    outbox.record(DocumentStatusChanged(
        document_id=document_id, brokerage_id=row.brokerage_id, status=target.value,
        title=row.title, notes=tuple(n.get("en", "") for n in (row.verification_notes or []))))
    return True


def _expire_loaded(document_id: str) -> None:
    # The UPDATE bypassed the ORM; a Document already loaded must re-read its row.
    loaded = db.session.identity_map.get(identity_key(Document, document_id))
    if loaded is not None:
        db.session.expire(loaded)
