"""The extraction service's callbacks: signed, recorded once, processed by an actor.

Receipts that arrive together in this process are recorded together: one insert and one
commit for all of them (leadflow.group_commit), each request answered once that commit is done,
so a 2xx still means the delivery is durably recorded."""
import logging
import threading
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
NUDGES = "leadflow_delivery_nudges"
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


class DeliveryNudges:
    """The worker's nudges about the deliveries this process recorded, gathered for a few
    milliseconds and sent together: the first new delivery starts the wait, those recorded
    during it join, and one send names them all (`callbacks.nudge_worker`: a nudge per batch the
    worker applies). A nudge is a Dramatiq message, and sending one per receipt group was a
    quarter of a receipt's own CPU; under load a wait gathers several groups. A wait of 0 sends
    at once, in the request that wrote. Nudges still waiting when the process stops are lost,
    like any nudge lost: the delivery sweep enqueues what stays unprocessed."""

    def __init__(self, app, wait_seconds: float):
        self._app = app
        self._wait = wait_seconds
        self._lock = threading.Condition()
        self._waiting: list = []
        # A wait under way, or its send: newcomers join the waiting list.
        self._busy = False

    def __call__(self, receipts) -> None:
        if not self._wait:
            callbacks.nudge_worker(receipts)
            return
        fresh = [receipt for receipt in receipts if not receipt.duplicate]
        if not fresh:
            return
        with self._lock:
            self._waiting.extend(fresh)
            if self._busy:
                return
            self._busy = True
        self._start_wait()

    def join(self, timeout: float) -> bool:
        """Wait until no nudge waits to be sent (a test drains with it); False on timeout."""
        with self._lock:
            return self._lock.wait_for(lambda: not self._busy, timeout)

    def _start_wait(self) -> None:
        timer = threading.Timer(self._wait, self._send)
        timer.daemon = True
        timer.start()

    def _send(self) -> None:
        with self._lock:
            receipts, self._waiting = self._waiting, []
        try:
            with self._app.app_context():
                callbacks.nudge_worker(receipts)
        except Exception:
            log.exception("could not nudge the worker about %d deliveries; the delivery sweep will", len(receipts))
        with self._lock:
            # Those recorded while this send was under way get a wait of their own.
            again = self._busy = bool(self._waiting)
            if not again:
                self._lock.notify_all()
        if again:
            self._start_wait()


@bp.record_once
def _receipts(state) -> None:
    # An app made without LeadFlow's settings (the routes alone) writes and nudges at once.
    config = state.app.config
    nudges = state.app.extensions[NUDGES] = DeliveryNudges(state.app, config.get("CALLBACK_NUDGE_GATHER_MS", 0) / 1000)
    state.app.extensions[RECEIPTS] = GroupCommit(
        ReceiptConnection().record, gather_seconds=config.get("CALLBACK_GATHER_MS", 0) / 1000, then=nudges)


@bp.post("/callbacks")
def receive():
    """The extraction service's signed callback (the `extractionResult` webhook).
    ---
    post:
      tags: [extraction]
      summary: Receive a job's result from the extraction service
      description: Signed as Standard Webhooks with the shared `EXTRACTION_WEBHOOK_SECRET`; recorded once under
        its `webhook-id` before the answer, applied afterwards by a worker.
      security: []
      parameters:
        - {name: webhook-id, in: header, required: true, schema: {type: string, maxLength: 255}}
        - {name: webhook-timestamp, in: header, required: true, schema: {type: string}}
        - {name: webhook-signature, in: header, required: true, schema: {type: string}}
      requestBody: {required: true, content: {application/json: {schema: ExtractionCallback}}}
      responses:
        202: {description: Recorded; a worker applies it., content: {application/json: {schema: CallbackReceipt}}}
        200: {description: Recorded before (a duplicate)., content: {application/json: {schema: CallbackReceipt}}}
        400: BadRequest
        401: {description: "The signature is missing, stale or wrong.", content: {application/json: {schema: Error}}}
    """
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
