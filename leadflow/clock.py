"""The time LeadFlow believes it is: UTC, naive (SQLite keeps no zone), shiftable for tests.

Everything that stamps or compares times asks here, so a test or the model test can jump the
clock forward past a threshold or a deadline without waiting.
"""
from datetime import datetime, timedelta, timezone

_offset = timedelta(0)


def now() -> datetime:
    return datetime.now(timezone.utc).replace(tzinfo=None) + _offset


def shift(delta: timedelta) -> None:
    """Move the clock forward (or back) by `delta`, for this process."""
    global _offset
    _offset += delta


def travel_to(moment: datetime) -> None:
    """Make it (about) `moment` now: tests pin the date that date-dependent rules see."""
    global _offset
    _offset = moment - datetime.now(timezone.utc).replace(tzinfo=None)


def reset() -> None:
    global _offset
    _offset = timedelta(0)
