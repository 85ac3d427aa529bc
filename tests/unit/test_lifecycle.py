"""The document lifecycle's edges: every allowed one passes, everything else is refused."""
import itertools

import pytest

from leadflow.domain import lifecycle
from leadflow.domain.lifecycle import ALLOWED, IllegalTransition, Status


@pytest.mark.parametrize("source,target", sorted(ALLOWED))
def test_each_edge_of_the_lifecycle_is_allowed(source, target):
    lifecycle.check(source, target)


@pytest.mark.parametrize("source,target", sorted(
    pair for pair in itertools.product(Status, Status) if pair not in ALLOWED))
def test_any_other_move_is_refused(source, target):
    with pytest.raises(IllegalTransition):
        lifecycle.check(source, target)


def test_a_document_is_claimed_only_from_pending():
    assert [s for s in Status if (s, Status.PROCESSING) in ALLOWED] == [Status.PENDING, Status.ACTION_REQUIRED]


def test_verified_and_rejected_are_terminal_and_the_rest_are_not():
    assert {s for s in Status if lifecycle.is_terminal(s)} == {Status.VERIFIED, Status.REJECTED}


def test_system_failures_are_told_apart_from_verdicts():
    assert lifecycle.is_system_failure("SYSTEM_RETRIES_EXHAUSTED")
    assert not lifecycle.is_system_failure("ILLEGIBLE")
    assert not lifecycle.is_system_failure(None)
