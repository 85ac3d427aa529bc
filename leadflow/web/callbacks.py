"""The extraction service's callbacks: signed, recorded once, processed by an actor."""
import logging

from flask import Blueprint, jsonify, request

from leadflow.extensions import db
from leadflow.extraction.webhooks import WebhookVerificationError
from leadflow.ports import current_ports
from leadflow.services import callbacks

bp = Blueprint("callbacks", __name__, url_prefix="/api/extraction")
log = logging.getLogger(__name__)


@bp.post("/callbacks")
def receive():
    body = request.get_data(cache=False)
    try:
        receipt = callbacks.receive(db.session, current_ports(), request.headers, body)
    except WebhookVerificationError as exc:
        log.warning("refused a callback: %s", exc)
        return jsonify(error={"code": "invalid_signature", "message": "The webhook signature is not valid."}), 401
    except ValueError as exc:
        # Signed, so from the service: worth a log line, but the answer names no internals.
        log.warning("refused a signed callback: %s", exc)
        return jsonify(error={"code": "invalid_body", "message": "The callback body is not a JSON object."}), 400
    return jsonify(delivery_id=receipt.delivery_id, duplicate=receipt.duplicate), 200 if receipt.duplicate else 202
