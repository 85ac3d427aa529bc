"""Events leave the process here, and only after the transaction that caused them commits.

Services record events on the session; `commit()` commits and then hands each event to the
handlers registered for its type (realtime bus, job queue, billing). A rollback drops them,
so nothing is announced for a state the database does not hold.
"""
import logging
from collections import defaultdict

from sqlalchemy import event as sa_event
from sqlalchemy.orm import Session

from leadflow.extensions import db

log = logging.getLogger(__name__)

_PENDING = "leadflow_pending_events"
_COMMITTED = "leadflow_committed_events"
_handlers: dict[type, list] = defaultdict(list)
_together: dict[type, list] = defaultdict(list)


def on(event_type: type, handler) -> None:
    """Register a handler for an event type (done once, by the app factory)."""
    if handler not in _handlers[event_type]:
        _handlers[event_type].append(handler)


def on_all(event_type: type, handler) -> None:
    """Register a handler that takes every event of the type one commit recorded, as one list
    (so that what they ask for is done in one transaction, not one each)."""
    if handler not in _together[event_type]:
        _together[event_type].append(handler)


def record(session: Session, event) -> None:
    """Hold `event` until `session`'s transaction commits (a rollback drops it)."""
    session.info.setdefault(_PENDING, []).append(event)


def commit(session: Session | None = None) -> None:
    """Commit the session's transaction (the app's when none is given), then dispatch what it recorded."""
    session = session if session is not None else db.session
    session.commit()
    dispatch_committed(session)


def rollback(session: Session | None = None) -> None:
    (session if session is not None else db.session).rollback()


def dispatch_committed(session: Session | None = None) -> None:
    dispatch((session if session is not None else db.session).info.pop(_COMMITTED, []))


def dispatch(events) -> None:
    """Hand events to their handlers now. Only for what is durable already: the committed
    events of a session, or those of a statement that committed on its own (autocommit)."""
    grouped: dict[type, list] = defaultdict(list)
    for event in events:
        for handler in list(_handlers.get(type(event), [])):
            try:
                handler(event)
            except Exception:  # a failed side effect must not undo a committed state; sweeps repair
                log.exception("handler %s failed for %r", getattr(handler, "__name__", handler), event)
        if type(event) in _together:
            grouped[type(event)].append(event)
    for event_type, group in grouped.items():
        for handler in list(_together[event_type]):
            try:
                handler(group)
            except Exception:
                log.exception("handler %s failed for %d %s events", getattr(handler, "__name__", handler),
                              len(group), event_type.__name__)


@sa_event.listens_for(Session, "after_commit")
def _move_to_committed(session):
    pending = session.info.pop(_PENDING, [])
    if pending:
        session.info.setdefault(_COMMITTED, []).extend(pending)


@sa_event.listens_for(Session, "after_rollback")
def _drop_pending(session):
    session.info.pop(_PENDING, None)
