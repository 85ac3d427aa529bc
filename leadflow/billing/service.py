"""The ledger's edge: reserve, settle and release against the database, each guarded.

The arithmetic lives in ledger.py; here every change is one conditional relative update
(`balance = balance - :n WHERE balance >= :n`) and every reservation closes with
`UPDATE ... WHERE status = 'open'`, the row count deciding. Nothing is read, changed in
Python and written back: SQLite ignores FOR UPDATE and starts its transaction only at the
first write, so a read-modify-write loses updates there, and only statements that carry
their own arithmetic are atomic on both databases. The wallet's CHECK constraints refuse a
negative balance whatever the code does.
"""
import logging
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import bindparam, case, func, insert, select, update
from sqlalchemy.orm import Session

from leadflow import statements
from leadflow.billing import ledger
from leadflow.domain.packets import FIRST_READINGS
from leadflow.domain.lifecycle import JobStatus
from leadflow.models import AuditEntry, CreditReservation, CreditWallet, Document, ExtractionJob, User, utcnow

# Statements on the tables, not the ORM entities: a reservation and a settlement run for every
# document, and the ORM's version of an update costs about as much again to prepare as to run.
_WALLETS = CreditWallet.__table__
_RESERVATIONS = CreditReservation.__table__
# The wallet's statements, built once (see leadflow/statements.py). A balance or hold moves as
# `x = x + :n` in SQL, guarded, never read-modify-write in Python.
# (An update's bind parameter may not be named as a column of its table.)
_WALLET_STATE = select(_WALLETS.c.granted, _WALLETS.c.balance, _WALLETS.c.reserved, _WALLETS.c.settled).where(
    _WALLETS.c.brokerage_id == bindparam("wallet_of"))
_HOLD = update(_WALLETS).where(_WALLETS.c.brokerage_id == bindparam("wallet_of"),
                               _WALLETS.c.balance >= bindparam("pages")).values(
    balance=_WALLETS.c.balance - bindparam("pages"), reserved=_WALLETS.c.reserved + bindparam("pages"))
_SHIFT = update(_WALLETS).where(_WALLETS.c.brokerage_id == bindparam("wallet_of"),
                                _WALLETS.c.reserved >= -bindparam("to_reserved")).values(
    reserved=_WALLETS.c.reserved + bindparam("to_reserved"), balance=_WALLETS.c.balance + bindparam("to_balance"),
    settled=_WALLETS.c.settled + bindparam("to_settled"))

log = logging.getLogger(__name__)
RESERVATION_LIFETIME = timedelta(hours=24)
# The audit action of a document put back to wait for its client's next day.
WAITING_FOR_ALLOWANCE = "waiting_for_allowance"


class DailyAllowanceReached(ledger.LedgerError):
    """The client who owns the document has used their pages for today."""


def wallet_state(session: Session, brokerage_id: int) -> ledger.Wallet:
    row = session.execute(_WALLET_STATE, {"wallet_of": brokerage_id}).first()
    if row is None:
        return ledger.Wallet(granted=0, balance=0, reserved=0, settled=0)
    return ledger.Wallet(granted=row.granted, balance=row.balance, reserved=row.reserved, settled=row.settled)


def grant(session: Session, brokerage_id: int, pages: int) -> ledger.Wallet:
    """Add credits; the caller commits."""
    ledger.grant(ledger.Wallet(0, 0, 0, 0), pages)  # validates the amount
    if session.get(CreditWallet, brokerage_id) is None:
        session.add(CreditWallet(brokerage_id=brokerage_id, granted=0, balance=0, reserved=0, settled=0))
        session.flush()
    session.execute(update(_WALLETS).where(_WALLETS.c.brokerage_id == brokerage_id).values(
        granted=_WALLETS.c.granted + pages, balance=_WALLETS.c.balance + pages))
    return wallet_state(session, brokerage_id)


def reserve(session: Session, brokerage_id: int, job_id: str, pages: int, *, owner_id: int | None = None,
            daily_allowance: int = 0, now: datetime | None = None, fresh_job: bool = False) -> CreditReservation:
    """Hold `pages` for a job; idempotent per job. The caller commits. `fresh_job`: the job was
    made in this transaction, so it holds no reservation yet (nothing to look up).

    Raises InsufficientCredits, or DailyAllowanceReached when `owner_id` is a client whose
    pages today would pass `daily_allowance` (0: no allowance). Two documents of one client
    reserved at the same instant may both pass the allowance check: it is fair use, bounded
    by the worker concurrency, not a ledger invariant."""
    if not fresh_job:
        existing = session.scalar(select(CreditReservation).where(_RESERVATIONS.c.job_id == job_id))
        if existing is not None:
            return existing
    if pages <= 0:
        raise ledger.LedgerError("a reservation must be a positive number of pages")
    now = now or utcnow()
    used = _client_pages_today_if_client(session, owner_id, now) if owner_id is not None and daily_allowance > 0 \
        else None
    if used is not None:
        if used + pages > daily_allowance:
            raise DailyAllowanceReached(
                f"client {owner_id} has had {used} of {daily_allowance} pages today; {pages} more asked")
    moved = session.execute(_HOLD, {"wallet_of": brokerage_id, "pages": pages}).rowcount
    if moved != 1:
        raise ledger.InsufficientCredits(
            f"{pages} pages needed, {wallet_state(session, brokerage_id).balance} available")
    reservation = CreditReservation(brokerage_id=brokerage_id, job_id=job_id, pages=pages, status="open",
                                    created_at=now, expires_at=now + RESERVATION_LIFETIME)
    session.add(reservation)
    return reservation


def reserve_many(session: Session, brokerage_id: int, pages_by_job: dict[str, int], *, now: datetime) -> None:
    """Hold pages for several jobs of one brokerage made in this transaction (none holds a
    reservation yet): one guarded update of the wallet for all of them, one insert of their
    reservations. Raises InsufficientCredits, and then holds nothing. No allowance is checked
    here: the caller picked jobs that fit (`client_pages_today_by_owner`). The caller commits."""
    if not pages_by_job:
        return
    if any(pages <= 0 for pages in pages_by_job.values()):
        raise ledger.LedgerError("a reservation must be a positive number of pages")
    total = sum(pages_by_job.values())
    moved = session.execute(_HOLD, {"wallet_of": brokerage_id, "pages": total}).rowcount
    if moved != 1:
        raise ledger.InsufficientCredits(f"{total} pages needed for {len(pages_by_job)} jobs, "
                                         f"{wallet_state(session, brokerage_id).balance} available")
    session.execute(_ADD_RESERVATIONS, [
        {"brokerage_id": brokerage_id, "job_id": job_id, "pages": pages, "status": "open", "overage": 0,
         "created_at": now, "expires_at": now + RESERVATION_LIFETIME} for job_id, pages in pages_by_job.items()])


# With RETURNING, SQLAlchemy sends a list of rows as one multi-row statement (insertmanyvalues).
_ADD_RESERVATIONS = insert(_RESERVATIONS).returning(_RESERVATIONS.c.id)


def client_pages_today_by_owner(session: Session, owner_ids, now: datetime) -> dict[int, int]:
    """`client_pages_today` for several users in one statement, keyed by user; only clients
    are in it (an advisor's uploads have no allowance)."""
    owner_ids = set(owner_ids)
    if not owner_ids:
        return {}
    start = _day_start(now)
    used = dict(session.execute(
        select(Document.owner_id, func.coalesce(func.sum(_pages_used()), 0))
        .join(ExtractionJob, ExtractionJob.id == _RESERVATIONS.c.job_id)
        .join(Document, Document.id == ExtractionJob.document_id)
        .where(Document.owner_id.in_(owner_ids), ExtractionJob.mode.in_(FIRST_READINGS), ExtractionJob.requested_by_id.is_(None),
               _RESERVATIONS.c.created_at >= start, _RESERVATIONS.c.created_at < start + timedelta(days=1))
        .group_by(Document.owner_id)).all())
    clients = session.scalars(select(User.id).where(User.id.in_(owner_ids), User.role == "client")).all()
    return {client: int(used.get(client) or 0) for client in clients}


def settle(session: Session, job_id: str, pages_used: int) -> ledger.Settlement | None:
    """Charge the pages the service reported, at most once; None when there is nothing to settle.

    Raises ReservationClosed for an expired reservation. The caller commits."""
    if pages_used < 0:
        raise ledger.LedgerError("used pages cannot be negative")
    now = utcnow()
    # Claim the open reservation and read what it holds in one statement: of two racing
    # settlements exactly one sees it open, and from here to commit this transaction holds the
    # row (PostgreSQL) or the database (SQLite), so the wallet below cannot change under it.
    claimed = _close_open(session, job_id, "settled", _RESERVATIONS.c.expires_at > now, closed_at=now,
                          pages_charged=case((_RESERVATIONS.c.pages < pages_used, _RESERVATIONS.c.pages),
                                             else_=pages_used))
    if claimed is None:
        expires_at = session.scalar(select(_RESERVATIONS.c.expires_at).where(
            _RESERVATIONS.c.job_id == job_id, _RESERVATIONS.c.status == "open"))
        if expires_at is not None:
            raise ledger.ReservationClosed(f"reservation of job {job_id} expired at {expires_at}")
        return None
    reservation_id, reserved, brokerage_id = claimed
    within = min(pages_used, reserved)
    _move(session, brokerage_id, reserved=-reserved, balance=reserved - within, settled=within)
    return _charge_beyond(session, job_id, reservation_id, brokerage_id, reserved, pages_used)


def settle_many(session: Session, pages_by_job: dict[str, int]) -> dict[str, ledger.Settlement]:
    """Settle several finished jobs at once, as `settle` does each: one update closes the open,
    unexpired reservations among them, and each brokerage's wallet moves once, brokerages in
    one order (two batches never wait on each other's wallets crosswise). Pages beyond a
    reservation are charged job by job. The answer names the jobs settled here; one left out had
    nothing open, or its reservation expired (the caller releases it). The caller commits."""
    if any(pages < 0 for pages in pages_by_job.values()):
        raise ledger.LedgerError("used pages cannot be negative")
    if not pages_by_job:
        return {}
    parameters = {"now": utcnow()}
    for i, (job_id, pages) in enumerate(pages_by_job.items()):
        parameters[f"job_{i}"], parameters[f"used_{i}"] = job_id, pages
    statement = statements.built_once(("settle_many", len(pages_by_job)),
                                      lambda: _settle_many_statement(len(pages_by_job)), rows=len(pages_by_job))
    closed = session.execute(statement, parameters).all()
    moves: dict[int, list[int]] = {}
    for row in closed:
        within = min(pages_by_job[row.job_id], row.pages)
        move = moves.setdefault(row.brokerage_id, [0, 0, 0])
        move[0], move[1], move[2] = move[0] - row.pages, move[1] + row.pages - within, move[2] + within
    for brokerage_id in sorted(moves):
        reserved, balance, settled = moves[brokerage_id]
        _move(session, brokerage_id, reserved=reserved, balance=balance, settled=settled)
    return {row.job_id: _charge_beyond(session, row.job_id, row.id, row.brokerage_id, row.pages,
                                       pages_by_job[row.job_id]) for row in closed}


def _charge_beyond(session: Session, job_id: str, reservation_id: int, brokerage_id: int, reserved: int,
                   pages_used: int) -> ledger.Settlement:
    """The settlement of a closed reservation whose reserved pages have moved already: pages
    used beyond it are charged from the balance as far as it covers them, the rest recorded."""
    within = min(pages_used, reserved)
    extra = pages_used - within
    extra_charged = 0
    if extra:
        # More pages than reserved: charge what the balance still covers, record the rest.
        extra_charged = min(extra, wallet_state(session, brokerage_id).balance)
        if extra_charged and not _charge_from_balance(session, brokerage_id, extra_charged):
            extra_charged = 0
    result = ledger.Settlement(charged=within + extra_charged, returned=reserved - within,
                               overage=extra - extra_charged)
    if extra:
        session.execute(update(_RESERVATIONS).where(_RESERVATIONS.c.id == reservation_id).values(
            pages_charged=result.charged, overage=result.overage))
    if result.overage:
        log.warning("job %s used %s pages more than could be charged", job_id, result.overage)
    return result


def release(session: Session, job_id: str) -> bool:
    """Give a job's reserved pages back; False when nothing was open. The caller commits."""
    claimed = _close_open(session, job_id, "released", pages_charged=0, closed_at=utcnow())
    if claimed is None:
        return False
    _, reserved, brokerage_id = claimed
    _move(session, brokerage_id, reserved=-reserved, balance=reserved, settled=0)
    return True


def close_for_job(session: Session, job_id: str, now: datetime) -> bool:
    """Close a job's open reservation: settle it for the pages a completed job reported, release
    it for a failed job or once the reservation outlived its time. Commits; False when nothing
    was open, or the ledger refused (logged; the discrepancy stays visible to the check)."""
    row = session.execute(select(ExtractionJob.status, ExtractionJob.pages_reported, _RESERVATIONS.c.expires_at)
                          .join(CreditReservation, _RESERVATIONS.c.job_id == ExtractionJob.id)
                          .where(ExtractionJob.id == job_id, _RESERVATIONS.c.status == "open")).first()
    if row is None:
        return False
    try:
        if row.status == JobStatus.COMPLETED and row.expires_at > now:
            closed = settle(session, job_id, row.pages_reported or 0) is not None
        else:
            closed = release(session, job_id)
        session.commit()
        return closed
    except ledger.LedgerError:
        session.rollback()
        log.exception("could not close the reservation of job %s", job_id)
        return False


def check_all(session: Session, brokerage_id: int | None = None) -> dict[int, list[str]]:
    """Ledger discrepancies per brokerage (of one, when given); empty when every wallet
    balances. `ledger-check`, the review queue and the credits page's tick all ask this."""
    return _discrepancies(session, brokerage_id)


def client_pages_today(session: Session, owner_id: int, now: datetime) -> int:
    """Pages held or charged today (UTC) for first readings of documents the user owns: an
    open reservation counts in full, a settled one at what it charged, a released one (our
    failure, not the client's use) not at all."""
    start = _day_start(now)
    return int(session.scalar(
        select(func.coalesce(func.sum(_pages_used()), 0))
        .join(ExtractionJob, ExtractionJob.id == _RESERVATIONS.c.job_id)
        .join(Document, Document.id == ExtractionJob.document_id)
        .where(Document.owner_id == owner_id, ExtractionJob.mode.in_(FIRST_READINGS), ExtractionJob.requested_by_id.is_(None),
               _RESERVATIONS.c.created_at >= start, _RESERVATIONS.c.created_at < start + timedelta(days=1))) or 0)


def clients_at_allowance(session: Session, brokerage_id: int, daily_allowance: int,
                         now: datetime) -> list[tuple[User, int]]:
    """The brokerage's clients who reached today's page allowance, with their pages today:
    those whose pages reach it, and those with a document waiting for tomorrow because it
    did not fit (95 of 100 pages used, then a 10-page PDF)."""
    if daily_allowance <= 0:
        return []
    start = _day_start(now)
    today = (_RESERVATIONS.c.created_at >= start, _RESERVATIONS.c.created_at < start + timedelta(days=1))
    used = dict(session.execute(
        select(Document.owner_id, func.sum(_pages_used()))
        .join(ExtractionJob, ExtractionJob.document_id == Document.id)
        .join(CreditReservation, _RESERVATIONS.c.job_id == ExtractionJob.id)
        .where(Document.brokerage_id == brokerage_id, ExtractionJob.mode.in_(FIRST_READINGS), ExtractionJob.requested_by_id.is_(None), *today)
        .group_by(Document.owner_id)).all())
    waiting = set(session.scalars(
        select(Document.owner_id).distinct()
        .join(AuditEntry, AuditEntry.document_id == Document.id)
        .where(Document.brokerage_id == brokerage_id, Document.status == "PENDING",
               AuditEntry.action == WAITING_FOR_ALLOWANCE, AuditEntry.created_at >= start)))
    reached = {owner for owner, pages in used.items() if int(pages or 0) >= daily_allowance} | waiting
    if not reached:
        return []
    users = session.scalars(select(User).where(User.id.in_(reached), User.role == "client")
                               .order_by(User.name)).all()
    return [(user, int(used.get(user.id) or 0)) for user in users]


def _discrepancies(session: Session, brokerage_id: int | None) -> dict[int, list[str]]:
    def scoped(query, column):
        return query if brokerage_id is None else query.where(column == brokerage_id)

    open_totals = dict(session.execute(scoped(
        select(_RESERVATIONS.c.brokerage_id, func.coalesce(func.sum(_RESERVATIONS.c.pages), 0))
        .where(_RESERVATIONS.c.status == "open"), _RESERVATIONS.c.brokerage_id)
        .group_by(_RESERVATIONS.c.brokerage_id)).all())
    settled_totals = dict(session.execute(scoped(
        select(_RESERVATIONS.c.brokerage_id, func.coalesce(func.sum(_RESERVATIONS.c.pages_charged), 0))
        .where(_RESERVATIONS.c.status == "settled"), _RESERVATIONS.c.brokerage_id)
        .group_by(_RESERVATIONS.c.brokerage_id)).all())
    problems = {}
    for row in session.execute(scoped(select(_WALLETS.c.brokerage_id, _WALLETS.c.granted, _WALLETS.c.balance,
                                                _WALLETS.c.reserved, _WALLETS.c.settled),
                                         _WALLETS.c.brokerage_id)).all():
        wallet = ledger.Wallet(row.granted, row.balance, row.reserved, row.settled)
        found = ledger.discrepancies(wallet, int(open_totals.get(row.brokerage_id, 0)))
        if int(settled_totals.get(row.brokerage_id, 0)) != row.settled:
            found.append(f"wallet says {row.settled} settled, reservations charged "
                         f"{settled_totals.get(row.brokerage_id, 0)}")
        if found:
            problems[row.brokerage_id] = found
    return problems


def _close_open(session: Session, job_id: str, state: str, *conditions, **values) -> tuple[int, int, int] | None:
    """Close a job's open reservation (one conditional update); (id, pages, brokerage) of the
    one closed, None when none was open (or someone else closed it first)."""
    row = session.execute(
        update(_RESERVATIONS)
        .where(_RESERVATIONS.c.job_id == job_id, _RESERVATIONS.c.status == "open", *conditions)
        .values(status=state, **values)
        .returning(_RESERVATIONS.c.id, _RESERVATIONS.c.pages, _RESERVATIONS.c.brokerage_id)
        .execution_options(synchronize_session=False)).first()
    return None if row is None else (row.id, row.pages, row.brokerage_id)


def _move(session: Session, brokerage_id: int, *, reserved: int, balance: int, settled: int) -> None:
    """Shift pages between the wallet's columns in one relative update; `reserved` is what
    leaves the open reservations (negative), and the wallet must hold it."""
    moved = session.execute(_SHIFT, {"wallet_of": brokerage_id, "to_reserved": reserved, "to_balance": balance,
                                     "to_settled": settled}).rowcount
    if moved != 1:
        # The wallet does not hold what an open reservation says it holds: refuse, so the
        # caller rolls back and the discrepancy stays visible to the check.
        raise ledger.LedgerError(f"wallet of brokerage {brokerage_id} holds less than {-reserved} reserved pages")


def _settle_many_statement(count: int):
    jobs = statements.row_parameters("job", count, _RESERVATIONS.c.job_id.type)
    used = statements.per_row(_RESERVATIONS.c.job_id, jobs, "used", _RESERVATIONS.c.pages.type)
    now = bindparam("now", type_=_RESERVATIONS.c.closed_at.type)
    return (update(_RESERVATIONS)
            .where(_RESERVATIONS.c.job_id.in_(jobs), _RESERVATIONS.c.status == "open", _RESERVATIONS.c.expires_at > now)
            .values(status="settled", closed_at=now,
                    pages_charged=case((_RESERVATIONS.c.pages < used, _RESERVATIONS.c.pages), else_=used))
            .returning(_RESERVATIONS.c.id, _RESERVATIONS.c.job_id, _RESERVATIONS.c.pages, _RESERVATIONS.c.brokerage_id)
            .execution_options(synchronize_session=False))


def _charge_from_balance(session: Session, brokerage_id: int, pages: int) -> bool:
    return session.execute(
        update(_WALLETS)
        .where(_WALLETS.c.brokerage_id == brokerage_id, _WALLETS.c.balance >= pages)
        .values(balance=_WALLETS.c.balance - pages, settled=_WALLETS.c.settled + pages)).rowcount == 1


def _client_pages_today_if_client(session: Session, user_id: int, now: datetime) -> int | None:
    """The user's pages today (see `client_pages_today`) when they are a client, else None:
    one statement, as every client's upload asks it."""
    start = _day_start(now)
    today = (select(func.coalesce(func.sum(_pages_used()), 0))
             .join(ExtractionJob, ExtractionJob.id == _RESERVATIONS.c.job_id)
             .join(Document, Document.id == ExtractionJob.document_id)
             .where(Document.owner_id == user_id, ExtractionJob.mode.in_(FIRST_READINGS), ExtractionJob.requested_by_id.is_(None),
                    _RESERVATIONS.c.created_at >= start, _RESERVATIONS.c.created_at < start + timedelta(days=1))
             .scalar_subquery())
    row = session.execute(select(User.role, today).where(User.id == user_id)).first()
    return int(row[1] or 0) if row is not None and row[0] == "client" else None


def _day_start(now: datetime) -> datetime:
    return now.replace(hour=0, minute=0, second=0, microsecond=0)


def _pages_used():
    return case((_RESERVATIONS.c.status == "open", _RESERVATIONS.c.pages),
                (_RESERVATIONS.c.status == "settled", func.coalesce(_RESERVATIONS.c.pages_charged, 0)),
                else_=0)
