"""Per-brokerage document counts by status, moved in the same transaction as the status."""
from sqlalchemy import delete, func, select
from sqlalchemy.orm import Session

from leadflow.models import Document, DocumentStatusCount


def bump(session: Session, brokerage_id: int, changes: dict[str, int]) -> None:
    """Add each delta to its status's count: one upsert of every row that changes (a status's
    row is a hot row, locked until commit: one statement, and none for a delta of zero). Rows in
    sorted order, so two transactions touching the same rows lock them in the same order."""
    rows = [{"brokerage_id": brokerage_id, "status": status, "count": delta}
            for status, delta in sorted(changes.items()) if delta]
    if not rows:
        return
    statement = _insert(session)(DocumentStatusCount).values(rows)
    session.execute(statement.on_conflict_do_update(
        index_elements=["brokerage_id", "status"],
        set_={"count": DocumentStatusCount.count + statement.excluded.count}))


def for_brokerage(session: Session, brokerage_id: int | None) -> dict[str, int]:
    """Counts by status for one brokerage, or for all (a platform admin's view)."""
    query = select(DocumentStatusCount.status, func.sum(DocumentStatusCount.count)).group_by(
        DocumentStatusCount.status)
    if brokerage_id is not None:
        query = query.where(DocumentStatusCount.brokerage_id == brokerage_id)
    return {status: int(n) for status, n in session.execute(query).all()}


def recount(session: Session) -> None:
    """Rebuild every count from the documents (after a bulk load); the caller commits."""
    session.execute(delete(DocumentStatusCount))
    rows = session.execute(select(Document.brokerage_id, Document.status, func.count())
                              .group_by(Document.brokerage_id, Document.status)).all()
    for brokerage_id, status, n in rows:
        session.add(DocumentStatusCount(brokerage_id=brokerage_id, status=status, count=n))


def _insert(session: Session):
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert
