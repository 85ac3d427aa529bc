"""Per-brokerage document counts by status, moved in the same transaction as the status.

A brokerage's count rows are hot: every status write of its documents moves them, and an
upsert holds the row locked until its transaction commits. So a transaction's moves are added
up and written as one upsert just before it commits (`before_commit`), holding those locks for
the commit only; a rollback forgets them. A move inside a savepoint (a worker applies each
delivery of a batch under one) is kept with that savepoint: rolling it back forgets the move,
releasing it keeps the move for the commit, so a batch writes its counts once too.
"""
from collections import Counter

from sqlalchemy import delete, event, func, literal, select
from sqlalchemy.orm import Session, scoped_session

from leadflow import statements
from leadflow.models import Document, DocumentStatusCount

# The moves not written yet, per savepoint they were made in (None: outside any savepoint).
_DELTAS = "leadflow_status_count_deltas"


def bump(session: Session, brokerage_id: int, changes: dict[str, int]) -> None:
    """Add each delta to its status's count when the transaction commits, unless the savepoint
    it was made in is rolled back first. Rows in sorted order, so two transactions touching the
    same rows lock them in the same order and cannot deadlock."""
    own = session() if isinstance(session, scoped_session) else session  # the request's own session
    savepoint = own.get_nested_transaction()
    deltas = session.info.setdefault(_DELTAS, {}).setdefault(savepoint, Counter())
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
    # Built once per dialect with one row's parameters: a statement built with many VALUES rows
    # is not cached by SQLAlchemy, and compiling it cost more than running it. Its RETURNING
    # makes SQLAlchemy send the rows as one multi-row statement ("insertmanyvalues"), not one
    # statement per row (a move is two rows: one status down, one up).
    session.execute(statements.built_once(("count-upsert", session.get_bind().dialect.name),
                                          lambda: _upsert(_insert(session))), rows)


def counted_cte(rows, status: str):
    """The count upsert as a data-modifying WITH (PostgreSQL): +1 to `status` for each row a
    statement's CTE `rows` returned (its `brokerage_id`), for a statement that also creates them."""
    from sqlalchemy.dialects.postgresql import insert
    table = DocumentStatusCount.__table__
    return _adding(insert(table).from_select(
        ["brokerage_id", "status", "count"],
        select(rows.c.brokerage_id, literal(status, type_=table.c.status.type), func.count())
        .group_by(rows.c.brokerage_id))).cte("counted")


def _upsert(insert):
    table = DocumentStatusCount.__table__
    return _adding(insert(table)).returning(table.c.count)


def _adding(statement):
    """An insert of count rows that adds each to its row where that row exists already."""
    table = DocumentStatusCount.__table__
    return statement.on_conflict_do_update(
        index_elements=["brokerage_id", "status"], set_={"count": table.c.count + statement.excluded.count})


@event.listens_for(Session, "before_commit")
def _write_before_commit(session: Session) -> None:
    if session.in_nested_transaction():
        return  # a savepoint released: its moves wait for the transaction's commit
    # Moves of savepoints still here were released into this transaction (rolled-back ones left).
    by_savepoint = session.info.pop(_DELTAS, None)
    if by_savepoint:
        deltas = Counter()
        for moves in by_savepoint.values():
            deltas.update(moves)  # update adds negative deltas too (`+` would drop them)
        _write(session, deltas)


@event.listens_for(Session, "after_soft_rollback")
def _forget_rolled_back(session: Session, previous_transaction) -> None:
    """A savepoint rolled back takes its moves with it, and those of savepoints inside it."""
    if not previous_transaction.nested:
        return
    by_savepoint = session.info.get(_DELTAS)
    for savepoint in list(by_savepoint or ()):
        inside = savepoint
        while inside is not None and inside is not previous_transaction:
            inside = inside.parent
        if inside is not None:
            del by_savepoint[savepoint]


@event.listens_for(Session, "after_transaction_end")
def _forget_at_end(session: Session, transaction) -> None:
    if transaction.parent is None:
        # The outermost transaction ended without its commit writing them (a rollback, a close).
        session.info.pop(_DELTAS, None)


def _insert(session: Session):
    if session.get_bind().dialect.name == "postgresql":
        from sqlalchemy.dialects.postgresql import insert
    else:
        from sqlalchemy.dialects.sqlite import insert
    return insert
