"""What each committed event does outside the database: push, enqueue, settle.

Registered once with the outbox; each handler finds the current app's ports at call time, and
sends jobs by actor name (no import of the actors).
"""
import logging
import time

from leadflow import outbox
from leadflow.billing import ledger
from leadflow.billing import service as billing
from leadflow.domain.events import DeliveryReceived, DocumentStatusChanged, ReservationDue, VerificationRequested
from leadflow.domain.lifecycle import Status
from leadflow.extensions import db
from leadflow.ports import current_ports
from leadflow.services import callbacks, notifications, pipeline

log = logging.getLogger(__name__)


def publish_statuses(events: list[DocumentStatusChanged]) -> None:
    """The status changes one commit made, to every web process; a bus that can takes them in one
    round trip (a worker's batch of deliveries settles several documents at once)."""
    # The wall-clock moment of the commit (not leadflow.clock, which tests pin): what a page's
    # commit-to-frame latency is measured from (`make bench-live`).
    committed_at = time.time()
    messages = [{**event.as_message(), "committed_at": committed_at} for event in events]
    bus = current_ports().bus
    publish_many = getattr(bus, "publish_many", None)
    if publish_many is not None and len(messages) > 1:
        publish_many(messages)
        return
    for message in messages:
        bus.publish(message)


def enqueue_verification(event: VerificationRequested) -> None:
    # The same use case the pending and retries sweeps call: one way a verification is sent.
    pipeline.enqueue_verification(current_ports(), event.document_id, event.brokerage_id, take_over=event.take_over,
                                  along=event.along, gather=event.gather)


def enqueue_delivery(event: DeliveryReceived) -> None:
    callbacks.enqueue_processing(current_ports(), event.delivery_id, event.also)


def close_reservation(event: ReservationDue) -> None:
    """Settle a finished job's reservation (or release a failed one's), after the status commit.

    If this fails the document is still finished; the reservations sweep finds the open
    reservation and closes it."""
    try:
        if event.pages is None:
            billing.release(db.session, event.job_id)
        else:
            billing.settle(db.session, event.job_id, event.pages)
        db.session.commit()
    except ledger.ReservationClosed as exc:
        db.session.rollback()
        billing.release(db.session, event.job_id)
        db.session.commit()
        log.warning("released instead of settling: %s", exc)
    except Exception:
        db.session.rollback()
        raise


def close_reservations(events: list[ReservationDue]) -> None:
    """Close the reservations of the jobs one commit finished, together: the settlements in one
    update and each wallet moved once (`billing.settle_many`), the releases beside them, one
    commit. A reservation that expired is released instead of settled. Should that fail, each
    is closed on its own, so that one job's problem holds back no other."""
    settling = {event.job_id: event.pages for event in events if event.pages is not None}
    try:
        settled = billing.settle_many(db.session, settling)
        for event in events:
            if event.job_id not in settled and billing.release(db.session, event.job_id) and event.pages is not None:
                log.warning("released instead of settling: the reservation of job %s expired", event.job_id)
        db.session.commit()
    except Exception:
        db.session.rollback()
        log.warning("closing %d reservations together failed; closing each on its own", len(events), exc_info=True)
        for event in events:
            try:
                close_reservation(event)
            except Exception:  # the reservations sweep closes what is still open
                log.exception("could not close the reservation of job %s", event.job_id)


def mail_rejection(event: DocumentStatusChanged) -> None:
    """A REJECTED document's client is told by email, from the mail queue: the pipeline only enqueues."""
    if event.status == Status.REJECTED:
        current_ports().jobs.send("mail-document-rejected", event.document_id, event.brokerage_id)


def queue_mail(event: notifications.MailComposed) -> None:
    current_ports().jobs.send("send-mail", event.message)


def register() -> None:
    outbox.on_all(DocumentStatusChanged, publish_statuses)
    outbox.on(VerificationRequested, enqueue_verification)
    outbox.on(DeliveryReceived, enqueue_delivery)
    outbox.on_all(ReservationDue, close_reservations)
    outbox.on(DocumentStatusChanged, mail_rejection)
    outbox.on(notifications.MailComposed, queue_mail)
