"""The extraction service's callbacks: signed, recorded once, processed by an actor.

Receipts that arrive together in this process are recorded together: one insert and one
commit for all of them (leadflow.group_commit), each request answered once that commit is done,
so a 2xx still means the delivery is durably recorded."""
import logging

from flask import Blueprint, current_app, jsonify, request

from leadflow.extensions import db
from leadflow.extraction.webhooks import WebhookVerificationError
from leadflow.group_commit import GroupCommit
from leadflow.ports import current_ports
from leadflow.services import callbacks

bp = Blueprint("callbacks", __name__, url_prefix="/api/extraction")
log = logging.getLogger(__name__)
RECEIPTS = "leadflow_callback_receipts"


def _record_together(deliveries):
    # Runs in the request that leads the group, with its session. The worker is nudged after the
    # group's requests are answered: a 2xx waits for the commit, not for Redis.
    return callbacks.record_all(db.engine, deliveries, nudge=False)


@bp.record_once
def _receipts(state) -> None:
    # An app made without LeadFlow's settings (the routes alone) writes at once.
    state.app.extensions[RECEIPTS] = GroupCommit(
        _record_together, gather_seconds=state.app.config.get("CALLBACK_GATHER_MS", 0) / 1000,
        then=callbacks.nudge_worker)


@bp.post("/callbacks")
def receive():
    body = request.get_data(cache=False)
    try:
        delivery = callbacks.check(current_ports().settings, request.headers, body)
    except WebhookVerificationError as exc:
        log.warning("refused a callback: %s", exc)
        return jsonify(error={"code": "invalid_signature", "message": "The webhook signature is not valid."}), 401
    except ValueError as exc:
        # Signed, so from the service: worth a log line, but the answer names no internals.
        log.warning("refused a signed callback: %s", exc)
        return jsonify(error={"code": "invalid_body", "message": "The callback body is not a JSON object."}), 400
    receipt = current_app.extensions[RECEIPTS].submit(delivery)
    return jsonify(delivery_id=receipt.delivery_id, duplicate=receipt.duplicate), 200 if receipt.duplicate else 202
