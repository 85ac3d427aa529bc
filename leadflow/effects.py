"""What each committed event does outside the database: push, enqueue, settle.

Registered once with the outbox; each handler finds the current app's adapters at call time.
"""
import logging

from leadflow import jobs, outbox
from leadflow.billing import ledger
from leadflow.billing import service as billing
from leadflow.domain.events import DeliveryReceived, DocumentStatusChanged, ReservationDue, VerificationRequested
from leadflow.extensions import db
from leadflow.wiring import adapters

log = logging.getLogger(__name__)


def publish_status(event: DocumentStatusChanged) -> None:
    adapters().bus.publish(event.as_message())


def enqueue_verification(event: VerificationRequested) -> None:
    import tasks
    key = jobs.verification_key(event.document_id)
    if event.take_over:
        jobs.dedup().release(key)
    jobs.send_once(tasks.verify_document, key, event.document_id, event.brokerage_id)


def enqueue_delivery(event: DeliveryReceived) -> None:
    import tasks
    jobs.send(tasks.process_delivery, event.delivery_id)


def close_reservation(event: ReservationDue) -> None:
    """Settle a finished job's reservation (or release a failed one's), after the status commit.

    If this fails the document is still finished; the reservations sweep finds the open
    reservation and closes it."""
    try:
        if event.pages is None:
            billing.release(event.job_id)
        else:
            billing.settle(event.job_id, event.pages)
        db.session.commit()
    except ledger.ReservationClosed as exc:
        db.session.rollback()
        billing.release(event.job_id)
        db.session.commit()
        log.warning("released instead of settling: %s", exc)
    except Exception:
        db.session.rollback()
        raise


def register() -> None:
    outbox.on(DocumentStatusChanged, publish_status)
    outbox.on(VerificationRequested, enqueue_verification)
    outbox.on(DeliveryReceived, enqueue_delivery)
    outbox.on(ReservationDue, close_reservation)
