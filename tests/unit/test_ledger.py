"""The credit ledger's arithmetic and its invariant."""
import pytest

from leadflow.billing import ledger
from leadflow.billing.ledger import Wallet

EMPTY = Wallet(granted=0, balance=0, reserved=0, settled=0)


def balanced(wallet: Wallet) -> bool:
    return ledger.discrepancies(wallet, wallet.reserved) == []


def test_a_reservation_moves_pages_from_the_balance_to_open():
    wallet = ledger.reserve(ledger.grant(EMPTY, 10), 3)
    assert (wallet.balance, wallet.reserved) == (7, 3)
    assert balanced(wallet)


def test_a_reservation_the_wallet_cannot_cover_is_refused():
    with pytest.raises(ledger.InsufficientCredits):
        ledger.reserve(ledger.grant(EMPTY, 2), 3)


def test_settling_charges_the_pages_used_and_returns_the_rest():
    wallet = ledger.reserve(ledger.grant(EMPTY, 10), 5)
    after, result = ledger.settle(wallet, reserved=5, used=3)
    assert (result.charged, result.returned, result.overage) == (3, 2, 0)
    assert (after.balance, after.reserved, after.settled) == (7, 0, 3)
    assert balanced(after)


def test_more_pages_than_reserved_are_charged_from_the_balance_and_the_rest_recorded_as_overage():
    wallet = ledger.reserve(ledger.grant(EMPTY, 4), 2)
    after, result = ledger.settle(wallet, reserved=2, used=7)
    assert (result.charged, result.overage) == (4, 3)
    assert after.balance == 0
    assert balanced(after)


def test_release_returns_everything():
    wallet = ledger.reserve(ledger.grant(EMPTY, 10), 4)
    assert ledger.release(wallet, 4) == ledger.grant(EMPTY, 10)


def test_a_discrepancy_is_named():
    broken = Wallet(granted=10, balance=5, reserved=0, settled=3)
    assert ledger.discrepancies(broken, 0) == ["balance 5 + open 0 + settled 3 != granted 10"]
    assert ledger.discrepancies(Wallet(10, 7, 3, 0), 2)[0].startswith("wallet says 3 pages reserved")
