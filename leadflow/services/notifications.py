"""Which emails clients and advisors get, and what they say: decided and composed here, sent by
the `send-mail` actor (tasks/mail.py) after the deciding transaction commits."""
from collections.abc import Iterable

from sqlalchemy.orm import Session

from leadflow.ports import Ports


def document_stale(session: Session, ports: Ports, document_ids: Iterable[str]) -> int:
    """Tell each client whose documents went stale (too old for a lender now) which ones to
    replace: one email per client, in their language, unless they opted out of that kind.

    Called by the staleness sweep with the ids it just moved; the mails leave after the
    caller's `outbox.commit(session)`. Returns how many emails were queued."""
    return 0
