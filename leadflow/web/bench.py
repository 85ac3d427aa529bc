"""A bare signed endpoint for `make bench-callbacks`: the same signature check as the callback
endpoint and no database work, so the benchmark can say what the database work costs. Only
registered when BENCH_ENDPOINTS is set; never in a normal install."""
from flask import Blueprint, current_app, jsonify, request

from leadflow.extraction import webhooks

bp = Blueprint("bench", __name__, url_prefix="/bench")


@bp.post("/signed-noop")
def signed_noop():
    config = current_app.config
    try:
        delivery_id = webhooks.verify([config["EXTRACTION_WEBHOOK_SECRET"]], request.headers, request.get_data())
    except webhooks.WebhookVerificationError:
        return jsonify(error={"code": "invalid_signature", "message": "The webhook signature is not valid."}), 401
    return jsonify(delivery_id=delivery_id, duplicate=False), 202
