"""The credit ledger's rules, as plain arithmetic: reserve, settle, release, and the invariant.

Two-phase like a ledger's pending transfer. A reservation moves pages from the balance into
"open"; settlement moves the used pages to "settled" and returns the rest to the balance;
release returns everything. The one invariant: balance + open + settled = granted.
"""
from dataclasses import dataclass, replace


class LedgerError(Exception):
    """A ledger operation that the rules refuse."""


class InsufficientCredits(LedgerError):
    """The wallet cannot cover the reservation."""


class ReservationClosed(LedgerError):
    """The reservation was already settled, released or has expired."""


@dataclass(frozen=True)
class Wallet:
    granted: int
    balance: int
    reserved: int
    settled: int


@dataclass(frozen=True)
class Settlement:
    charged: int      # pages moved to settled
    returned: int     # reserved pages given back to the balance
    overage: int      # pages used beyond what could be charged (recorded, not lost)


def grant(wallet: Wallet, pages: int) -> Wallet:
    if pages <= 0:
        raise LedgerError("a grant must be a positive number of pages")
    return replace(wallet, granted=wallet.granted + pages, balance=wallet.balance + pages)


def reserve(wallet: Wallet, pages: int) -> Wallet:
    if pages <= 0:
        raise LedgerError("a reservation must be a positive number of pages")
    if wallet.balance < pages:
        raise InsufficientCredits(f"{pages} pages needed, {wallet.balance} available")
    return replace(wallet, balance=wallet.balance - pages, reserved=wallet.reserved + pages)


def settle(wallet: Wallet, reserved: int, used: int) -> tuple[Wallet, Settlement]:
    """Charge `used` pages against a reservation of `reserved`; more than reserved is
    charged from the balance as far as it goes, and the remainder recorded as overage."""
    if used < 0:
        raise LedgerError("used pages cannot be negative")
    within = min(used, reserved)
    returned = reserved - within
    extra = used - within
    extra_charged = min(extra, wallet.balance + returned)
    charged = within + extra_charged
    after = replace(wallet,
                    reserved=wallet.reserved - reserved,
                    balance=wallet.balance + returned - extra_charged,
                    settled=wallet.settled + charged)
    return after, Settlement(charged=charged, returned=returned, overage=extra - extra_charged)


def release(wallet: Wallet, reserved: int) -> Wallet:
    return replace(wallet, reserved=wallet.reserved - reserved, balance=wallet.balance + reserved)


def discrepancies(wallet: Wallet, open_reservations_total: int) -> list[str]:
    """What is wrong with a wallet, in words; empty when the ledger balances."""
    problems = []
    if wallet.balance < 0:
        problems.append(f"balance is negative ({wallet.balance})")
    if wallet.reserved != open_reservations_total:
        problems.append(f"wallet says {wallet.reserved} pages reserved, open reservations hold {open_reservations_total}")
    if wallet.balance + open_reservations_total + wallet.settled != wallet.granted:
        problems.append(
            f"balance {wallet.balance} + open {open_reservations_total} + settled {wallet.settled}"
            f" != granted {wallet.granted}")
    return problems
