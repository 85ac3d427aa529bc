"""Actors for documents: thin, they parse ids and call a service."""
import logging
import random

import dramatiq

from leadflow import jobs
from leadflow.extensions import db
from leadflow.jobs import CALLBACK_QUEUE, DOCUMENT_QUEUE
from leadflow.services import callbacks, pipeline
from tasks import context

log = logging.getLogger(__name__)
# Waiting for storage or the reader to come back: the first wait is the breaker's cool-down,
# each further one doubles, up to this; the pending sweep is the safety net behind it.
MAX_SERVICE_WAIT_SECONDS = 300
# A callback that overtook its submission's commit is tried again this soon, then doubling;
# after EARLY_RESENDS the deliveries sweep takes over.
EARLY_DELIVERY_WAIT_MS = 500
EARLY_RESENDS = 5


@dramatiq.actor(actor_name="verify-document", queue_name=DOCUMENT_QUEUE, max_retries=2,
                min_backoff=1000, max_backoff=4000, throws=(pipeline.TenantMismatch,),
                on_retry_exhausted="verification-retries-exhausted")
def verify_document(document_id: str, brokerage_id: int, waits: int = 0):
    with context.app().app_context():
        try:
            outcome = pipeline.verify_document(str(document_id), int(brokerage_id))
            log.info("verify-document %s: %s", document_id, outcome.value)
            if outcome == pipeline.Outcome.WAITING_FOR_SERVICE:
                seconds = min(max(pipeline.wait_for_services_seconds(), 1.0) * 2 ** min(int(waits), 8),
                              MAX_SERVICE_WAIT_SECONDS) * random.uniform(1.0, 1.2)
                jobs.send_later(verify_document, jobs.verification_key(str(document_id)), seconds * 1000,
                                str(document_id), int(brokerage_id), int(waits) + 1)
        finally:
            db.session.remove()


@dramatiq.actor(actor_name="verification-retries-exhausted", queue_name=DOCUMENT_QUEUE, max_retries=5)
def verification_retries_exhausted(message: dict, retry_info: dict):
    document_id, brokerage_id = message["args"][:2]
    reason = (message.get("options", {}).get("traceback") or "").strip().splitlines()[-1:] or ["unknown error"]
    with context.app().app_context():
        try:
            pipeline.fail_for_good(str(document_id), int(brokerage_id), reason[0][:300])
        finally:
            db.session.remove()


@dramatiq.actor(actor_name="process-delivery", queue_name=CALLBACK_QUEUE, max_retries=5,
                min_backoff=1000, max_backoff=30000)
def process_delivery(delivery_id: str, early: int = 0):
    with context.app().app_context():
        try:
            callbacks.process(str(delivery_id))
        except callbacks.DeliveryTooEarly as exc:
            # Expected when the service answers faster than our commit of its accepting the
            # job: not an error. Try again shortly; the deliveries sweep is the safety net.
            log.info("delivery %s came before its submission committed (%s); trying again", delivery_id, exc)
            if early < EARLY_RESENDS:
                jobs.send_later_plain(process_delivery, EARLY_DELIVERY_WAIT_MS * 2 ** early,
                                      str(delivery_id), early + 1)
        finally:
            db.session.remove()
