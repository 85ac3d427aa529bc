"""The extraction service's callbacks: signed, recorded once, processed by an actor.

Receipts that arrive together in this process are recorded together: one insert and one
commit for all of them (leadflow.group_commit), each request answered once that commit is done,
so a 2xx still means the delivery is durably recorded."""
import logging
import time
from contextlib import suppress

from flask import Blueprint, current_app, jsonify, request

from leadflow.extensions import db
from leadflow.extraction.webhooks import WebhookVerificationError
from leadflow.group_commit import GroupCommit
from leadflow.ports import current_ports
from leadflow.services import callbacks

bp = Blueprint("callbacks", __name__, url_prefix="/api/extraction")
log = logging.getLogger(__name__)
RECEIPTS = "leadflow_callback_receipts"
# How long the receipt connection is kept where the pool recycles none (pool_recycle -1 or unset).
DEFAULT_RECYCLE_SECONDS = 300


class ReceiptConnection:
    """The database connection this process records callbacks on, in autocommit, kept open between
    writes: only the group commit's leader writes, one group at a time, so one is enough, and
    taking one from the pool and setting it up at every write cost a fifth of a receipt's own
    CPU (py-spy, bench-callbacks). After any failure, or a write cut short, it is given back and
    the next write opens another: it may be broken or in the middle of a statement. Like the
    pool's, it is replaced once older than DATABASE_POOL_RECYCLE_SECONDS."""

    def __init__(self):
        self._connection = None
        self._replace_at = 0.0

    def record(self, deliveries):
        # Runs in the request that leads the group. The worker is nudged after the group's
        # requests are answered: a 2xx waits for the commit, not for Redis.
        connection = self._connection
        if connection is not None and (connection.invalidated or time.monotonic() > self._replace_at):
            self._give_back()
            connection = None
        if connection is None:
            connection = self._connection = db.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            recycle = current_app.config.get("SQLALCHEMY_ENGINE_OPTIONS", {}).get("pool_recycle", -1)
            self._replace_at = time.monotonic() + (recycle if recycle > 0 else DEFAULT_RECYCLE_SECONDS)
        try:
            return callbacks.record_all(connection, deliveries, nudge=False)
        except BaseException:
            self._give_back()
            raise

    def _give_back(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None:
            with suppress(Exception):
                connection.close()


@bp.record_once
def _receipts(state) -> None:
    # An app made without LeadFlow's settings (the routes alone) writes at once.
    state.app.extensions[RECEIPTS] = GroupCommit(
        ReceiptConnection().record, gather_seconds=state.app.config.get("CALLBACK_GATHER_MS", 0) / 1000,
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
