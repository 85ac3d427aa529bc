"""Per-brokerage document counts by status, moved in the same transaction as the status."""
from sqlalchemy import func, select

from leadflow.extensions import db
from leadflow.models import Document, DocumentStatusCount


def bump(brokerage_id: int, changes: dict[str, int]) -> None:
    """Add each delta to its status's count (an upsert); statuses in sorted order so that two
    transactions touching the same rows lock them in the same order and cannot deadlock."""
    insert = _insert()
    for status in sorted(changes):
        statement = insert(DocumentStatusCount).values(brokerage_id=brokerage_id, status=status,
                                                       count=changes[status])
        db.session.execute(statement.on_conflict_do_update(
            index_elements=["brokerage_id", "status"],
            set_={"count": DocumentStatusCount.count + changes[status]}))


def for_brokerage(brokerage_id: int | None) -> dict[str, int]:
    """Counts by status for one brokerage, or for all (a platform admin's view)."""
    query = select(DocumentStatusCount.status, func.sum(DocumentStatusCount.count)).group_by(
        DocumentStatusCount.status)
    if brokerage_id is not None:
        query = query.where(DocumentStatusCount.brokerage_id == brokerage_id)
    return {status: int(n) for status, n in db.session.execute(query).all()}


def recount() -> None:
    """Rebuild every count from the documents (after a bulk load); the caller commits."""
    db.session.execute(db.delete(DocumentStatusCount))
    rows = db.session.execute(select(Document.brokerage_id, Document.status, func.count())
                              .group_by(Document.brokerage_id, Document.status)).all()
    for brokerage_id, status, n in rows:
        db.session.add(DocumentStatusCount(brokerage_id=brokerage_id, status=status, count=n))


def _insert():
    if db.engine.dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert
