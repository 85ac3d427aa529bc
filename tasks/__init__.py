"""Dramatiq actors. `dramatiq tasks` imports this package: it sets the broker from REDIS_URL
first, then declares the actors on it."""
from leadflow.jobs import setup_broker

broker = setup_broker()

from tasks.documents import (process_delivery, verification_retries_exhausted,  # noqa: E402
                             verify_document)

__all__ = ["broker", "verify_document", "verification_retries_exhausted", "process_delivery"]
