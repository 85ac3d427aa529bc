"""The ledger's edge: reserve, settle and release against the database, each guarded.

The arithmetic lives in ledger.py; here every change is a conditional update so that two
processes can never settle or release the same reservation twice, and the wallet's CHECK
constraints refuse a negative balance whatever the code does.
"""
import logging
from datetime import timedelta

from sqlalchemy import func, select, update

from leadflow.billing import ledger
from leadflow.extensions import db
from leadflow.models import CreditReservation, CreditWallet, utcnow

log = logging.getLogger(__name__)
RESERVATION_LIFETIME = timedelta(hours=24)


def wallet_state(brokerage_id: int) -> ledger.Wallet:
    row = db.session.get(CreditWallet, brokerage_id)
    if row is None:
        return ledger.Wallet(granted=0, balance=0, reserved=0, settled=0)
    return ledger.Wallet(granted=row.granted, balance=row.balance, reserved=row.reserved, settled=row.settled)


def grant(brokerage_id: int, pages: int) -> ledger.Wallet:
    """Add credits; the caller commits."""
    ledger.grant(ledger.Wallet(0, 0, 0, 0), pages)  # validates the amount
    row = db.session.get(CreditWallet, brokerage_id, with_for_update=True)
    if row is None:
        row = CreditWallet(brokerage_id=brokerage_id, granted=0, balance=0, reserved=0, settled=0)
        db.session.add(row)
        db.session.flush()
    db.session.execute(update(CreditWallet).where(CreditWallet.brokerage_id == brokerage_id).values(
        granted=CreditWallet.granted + pages, balance=CreditWallet.balance + pages))
    db.session.expire(row)
    return wallet_state(brokerage_id)


def reserve(brokerage_id: int, job_id: str, pages: int) -> CreditReservation:
    """Hold `pages` for a job; idempotent per job. Raises InsufficientCredits. The caller commits."""
    existing = db.session.scalar(select(CreditReservation).where(CreditReservation.job_id == job_id))
    if existing is not None:
        return existing
    if pages <= 0:
        raise ledger.LedgerError("a reservation must be a positive number of pages")
    moved = db.session.execute(
        update(CreditWallet)
        .where(CreditWallet.brokerage_id == brokerage_id, CreditWallet.balance >= pages)
        .values(balance=CreditWallet.balance - pages, reserved=CreditWallet.reserved + pages)
    ).rowcount
    if moved != 1:
        raise ledger.InsufficientCredits(f"{pages} pages needed, {wallet_state(brokerage_id).balance} available")
    now = utcnow()
    reservation = CreditReservation(brokerage_id=brokerage_id, job_id=job_id, pages=pages, status="open",
                                    created_at=now, expires_at=now + RESERVATION_LIFETIME)
    db.session.add(reservation)
    return reservation


def settle(job_id: str, pages_used: int) -> ledger.Settlement | None:
    """Charge the pages the service reported, at most once; None when there is nothing to settle.

    Raises ReservationClosed for an expired reservation. The caller commits."""
    reservation = _open_reservation(job_id)
    if reservation is None:
        return None
    now = utcnow()
    if reservation.expires_at <= now:
        raise ledger.ReservationClosed(f"reservation of job {job_id} expired at {reservation.expires_at}")
    wallet = _locked_wallet(reservation.brokerage_id)
    after, result = ledger.settle(wallet, reservation.pages, pages_used)
    closed = db.session.execute(
        update(CreditReservation)
        .where(CreditReservation.id == reservation.id, CreditReservation.status == "open")
        .values(status="settled", pages_charged=result.charged, overage=result.overage, closed_at=now)
    ).rowcount
    if closed != 1:
        return None
    _write_wallet(reservation.brokerage_id, after)
    if result.overage:
        log.warning("job %s used %s pages more than could be charged", job_id, result.overage)
    return result


def release(job_id: str) -> bool:
    """Give a job's reserved pages back; False when nothing was open. The caller commits."""
    reservation = _open_reservation(job_id)
    if reservation is None:
        return False
    wallet = _locked_wallet(reservation.brokerage_id)
    closed = db.session.execute(
        update(CreditReservation)
        .where(CreditReservation.id == reservation.id, CreditReservation.status == "open")
        .values(status="released", pages_charged=0, closed_at=utcnow())
    ).rowcount
    if closed != 1:
        return False
    _write_wallet(reservation.brokerage_id, ledger.release(wallet, reservation.pages))
    return True


def check_all() -> dict[int, list[str]]:
    """Ledger discrepancies per brokerage; empty when every wallet balances."""
    open_totals = dict(db.session.execute(
        select(CreditReservation.brokerage_id, func.coalesce(func.sum(CreditReservation.pages), 0))
        .where(CreditReservation.status == "open").group_by(CreditReservation.brokerage_id)).all())
    settled_totals = dict(db.session.execute(
        select(CreditReservation.brokerage_id, func.coalesce(func.sum(CreditReservation.pages_charged), 0))
        .where(CreditReservation.status == "settled").group_by(CreditReservation.brokerage_id)).all())
    problems = {}
    for row in db.session.scalars(select(CreditWallet)):
        wallet = ledger.Wallet(row.granted, row.balance, row.reserved, row.settled)
        found = ledger.discrepancies(wallet, int(open_totals.get(row.brokerage_id, 0)))
        if int(settled_totals.get(row.brokerage_id, 0)) != row.settled:
            found.append(f"wallet says {row.settled} settled, reservations charged "
                         f"{settled_totals.get(row.brokerage_id, 0)}")
        if found:
            problems[row.brokerage_id] = found
    return problems


def _open_reservation(job_id: str) -> CreditReservation | None:
    return db.session.scalar(select(CreditReservation).where(
        CreditReservation.job_id == job_id, CreditReservation.status == "open"))


def _locked_wallet(brokerage_id: int) -> ledger.Wallet:
    row = db.session.get(CreditWallet, brokerage_id, with_for_update=True, populate_existing=True)
    return ledger.Wallet(row.granted, row.balance, row.reserved, row.settled)


def _write_wallet(brokerage_id: int, wallet: ledger.Wallet) -> None:
    db.session.execute(update(CreditWallet).where(CreditWallet.brokerage_id == brokerage_id).values(
        balance=wallet.balance, reserved=wallet.reserved, settled=wallet.settled))
