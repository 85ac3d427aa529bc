"""Actors for documents: thin, they parse ids and call a service."""
import logging

import dramatiq

from leadflow.extensions import db
from leadflow.jobs import CALLBACK_QUEUE, DOCUMENT_QUEUE
from leadflow.services import callbacks, pipeline
from tasks import context

log = logging.getLogger(__name__)


@dramatiq.actor(actor_name="verify-document", queue_name=DOCUMENT_QUEUE, max_retries=2,
                min_backoff=1000, max_backoff=4000, throws=(pipeline.TenantMismatch,),
                on_retry_exhausted="verification-retries-exhausted")
def verify_document(document_id: str, brokerage_id: int):
    with context.app().app_context():
        try:
            outcome = pipeline.verify_document(str(document_id), int(brokerage_id))
            log.info("verify-document %s: %s", document_id, outcome.value)
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
def process_delivery(delivery_id: str):
    with context.app().app_context():
        try:
            callbacks.process(str(delivery_id))
        finally:
            db.session.remove()
