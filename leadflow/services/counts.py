"""Per-brokerage document counts by status, moved in the same transaction as the status.

A brokerage's count rows are hot: every status write of its documents moves them, and an
upsert holds the row locked until its transaction commits. So a transaction's moves are added
up and written as one upsert just before it commits (`before_commit`), holding those locks for
the commit only; a rollback forgets them. Inside a savepoint a move is written at once, so that
rolling the savepoint back takes it back too.
"""
from collections import Counter

from sqlalchemy import delete, event, func, select
from sqlalchemy.orm import Session

from leadflow.models import Document, DocumentStatusCount

_DELTAS = "leadflow_status_count_deltas"
# How many savepoints are open (kept here: a scoped session does not say).
_SAVEPOINTS = "leadflow_open_savepoints"


def bump(session: Session, brokerage_id: int, changes: dict[str, int]) -> None:
    """Add each delta to its status's count when the transaction commits (at once inside a
    savepoint). Rows in sorted order, so two transactions touching the same rows lock them in
    the same order and cannot deadlock."""
    if session.info.get(_SAVEPOINTS):
        _write(session, Counter({(brokerage_id, status): delta for status, delta in changes.items()}))
        return
    deltas = session.info.setdefault(_DELTAS, Counter())
    for status, delta in changes.items():
        deltas[(brokerage_id, status)] += delta


def for_brokerage(session: Session, brokerage_id: int | None) -> dict[str, int]:
    """Counts by status for one brokerage, or for all (a platform admin's view)."""
    query = select(DocumentStatusCount.status, func.sum(DocumentStatusCount.count)).group_by(
        DocumentStatusCount.status)
    if brokerage_id is not None:
        query = query.where(DocumentStatusCount.brokerage_id == brokerage_id)
    return {status: int(n) for status, n in session.execute(query).all()}


def recount(session: Session) -> None:
    """Rebuild every count from the documents (after a bulk load); the caller commits."""
    session.info.pop(_DELTAS, None)  # counted in the rebuild already
    session.execute(delete(DocumentStatusCount))
    rows = session.execute(select(Document.brokerage_id, Document.status, func.count())
                              .group_by(Document.brokerage_id, Document.status)).all()
    for brokerage_id, status, n in rows:
        session.add(DocumentStatusCount(brokerage_id=brokerage_id, status=status, count=n))


def _write(session: Session, deltas: Counter) -> None:
    """One upsert of every row that changes; none for a delta of zero."""
    rows = [{"brokerage_id": brokerage_id, "status": status, "count": delta}
            for (brokerage_id, status), delta in sorted(deltas.items()) if delta]
    if not rows:
        return
    # One statement run for each row (psycopg sends them together), built once per dialect: a
    # multi-row VALUES is not cached by SQLAlchemy, and compiling it cost more than running it.
    dialect = session.get_bind().dialect.name
    statement = _UPSERT.get(dialect)
    if statement is None:
        statement = _insert(session)(DocumentStatusCount.__table__)
        statement = _UPSERT[dialect] = statement.on_conflict_do_update(
            index_elements=["brokerage_id", "status"],
            set_={"count": DocumentStatusCount.__table__.c.count + statement.excluded.count})
    session.execute(statement, rows)


# The upsert per SQL dialect (see _write).
_UPSERT: dict = {}


@event.listens_for(Session, "before_commit")
def _write_before_commit(session: Session) -> None:
    deltas = session.info.pop(_DELTAS, None)
    if deltas:
        _write(session, deltas)


@event.listens_for(Session, "after_transaction_create")
def _savepoint_opened(session: Session, transaction) -> None:
    if transaction.nested:
        session.info[_SAVEPOINTS] = session.info.get(_SAVEPOINTS, 0) + 1


@event.listens_for(Session, "after_transaction_end")
def _forget_at_end(session: Session, transaction) -> None:
    if transaction.nested:
        session.info[_SAVEPOINTS] = max(session.info.get(_SAVEPOINTS, 0) - 1, 0)
    elif transaction.parent is None:
        # The outermost transaction ended without its commit writing them (a rollback, a close).
        session.info.pop(_DELTAS, None)
        session.info.pop(_SAVEPOINTS, None)


def _insert(session: Session):
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert
