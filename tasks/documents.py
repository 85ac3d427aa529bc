"""Actors for documents: thin, they parse ids and call a service. The app context each runs in
and the session it leaves behind are the broker's middleware's (leadflow.jobs.AppContext)."""
import logging
import random

import dramatiq
from dramatiq.brokers.stub import StubBroker

from leadflow import jobs
from leadflow.extensions import db
from leadflow.ports import current_ports
from leadflow.services import callbacks, pipeline

log = logging.getLogger(__name__)
# Waiting for storage or the reader to come back: the first wait is the breaker's cool-down,
# each further one doubles, up to this; the pending sweep is the safety net behind it.
MAX_SERVICE_WAIT_SECONDS = 300
# The reader said its queue is full: it is working, so the wait stays shorter than for an
# outage; spread, so that the documents it refused do not all come back in the same second.
MAX_CAPACITY_WAIT_SECONDS = 30
# A callback that overtook its submission's commit is tried again this soon, then doubling;
# after EARLY_RESENDS the deliveries sweep takes over.
EARLY_DELIVERY_WAIT_MS = 500
EARLY_RESENDS = 5

# Until a runtime binds them to its app's broker (tasks.bind), the actors sit on this one, which
# nothing consumes and which connects to nothing.
UNBOUND = StubBroker()


def _actor(name: str, **options):
    return dramatiq.actor(actor_name=name, queue_name=jobs.QUEUES[name], broker=UNBOUND, **options)


@_actor("verify-document", max_retries=jobs.VERIFY_ATTEMPTS - 1, min_backoff=1000, max_backoff=4000,
        throws=(pipeline.TenantMismatch,), on_retry_exhausted="verification-retries-exhausted")
def verify_document(document_id: str, brokerage_id: int, waits: int = 0):
    ports = current_ports()
    outcome = pipeline.verify_document(db.session, ports, str(document_id), int(brokerage_id))
    log.info("verify-document %s: %s", document_id, outcome.value)
    if outcome not in pipeline.WAITING:
        # What uploads left to this message and its claim did not take along gets a message now.
        pipeline.send_next_waiting(db.session, ports, int(brokerage_id))
    if outcome == pipeline.Outcome.WAITING_FOR_SERVICE:
        seconds = _doubling(pipeline.wait_for_services_seconds(ports), waits, MAX_SERVICE_WAIT_SECONDS, spread=1.2)
    elif outcome == pipeline.Outcome.WAITING_FOR_CAPACITY:
        seconds = _doubling(pipeline.extraction_busy_for(ports), waits, MAX_CAPACITY_WAIT_SECONDS, spread=1.5)
    else:
        return
    ports.jobs.send("verify-document", str(document_id), int(brokerage_id), int(waits) + 1,
                    dedup_key=jobs.verification_key(str(document_id)), delay_ms=int(seconds * 1000))


def _doubling(first: float, waits: int, most: float, *, spread: float) -> float:
    """The wait before the next try: `first` (at least a second), doubled per wait so far, at
    most `most`, stretched by up to `spread` so that waiting documents do not return together."""
    return min(max(first, 1.0) * 2 ** min(int(waits), 8), most) * random.uniform(1.0, spread)


@_actor("verification-retries-exhausted", max_retries=5)
def verification_retries_exhausted(message: dict, retry_info: dict):
    document_id, brokerage_id = message["args"][:2]
    reason = (message.get("options", {}).get("traceback") or "").strip().splitlines()[-1:] or ["unknown error"]
    pipeline.fail_for_good(db.session, current_ports(), str(document_id), int(brokerage_id), reason[0][:300])
    # The failed message's claim took nothing along: what uploads left to it is sent on here.
    pipeline.send_next_waiting(db.session, current_ports(), int(brokerage_id))


@_actor("process-delivery", max_retries=jobs.DELIVERY_ATTEMPTS - 1, min_backoff=1000, max_backoff=30000)
def process_delivery(delivery_id: str, early: int = 0, also: list | tuple = ()):
    try:
        # A nudge: applies the deliveries it names and others waiting, in one transaction.
        callbacks.process_batch(db.session, current_ports(), str(delivery_id), also=[str(i) for i in also])
    except callbacks.DeliveryTooEarly as exc:
        # Expected when the service answers faster than our commit of its accepting the
        # job: not an error. Try those again shortly; the deliveries sweep is the safety net.
        log.info("delivery %s came before its submission committed (%s); trying again", delivery_id, exc)
        if early < EARLY_RESENDS:
            first, *rest = exc.delivery_ids or [str(delivery_id)]
            current_ports().jobs.send("process-delivery", first, early + 1, *([rest] if rest else []),
                                      delay_ms=EARLY_DELIVERY_WAIT_MS * 2 ** early)


ACTORS = (verify_document, verification_retries_exhausted, process_delivery)
