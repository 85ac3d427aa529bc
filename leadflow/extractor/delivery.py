"""Delivering signed callbacks (Standard Webhooks), retried with backoff under one webhook-id."""
import json
import logging
import threading
import uuid

import requests

from leadflow.extraction.webhooks import headers_for

log = logging.getLogger(__name__)

RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds before attempts 2..6: about 15 s in all, then give up
TIMEOUT = (5.0, 15.0)  # connect, read: LeadFlow stores and enqueues before it answers, so it is quick


def new_delivery_id() -> str:
    return "dlv_" + uuid.uuid4().hex


def encode(body: dict) -> bytes:
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


class Deliverer:
    """Posts one callback until a 2xx answer, keeping its msg_id across attempts so that the
    receiver's de-duplication on webhook-id sees retries as the same delivery."""

    def __init__(self, secret: str, stopping: threading.Event, *, retry_delays=RETRY_DELAYS,
                 session: requests.Session | None = None, fail_attempt=lambda: False):
        self.secret = secret
        self.stopping = stopping
        self.retry_delays = tuple(retry_delays)
        # Keep-alive: each sending thread keeps its own requests.Session (one is not documented
        # as thread-safe), so a busy extractor does not open a connection per callback and the
        # receiver does not accept one per callback. A session handed in is used as it is.
        self._given = session
        self._local = threading.local()
        self.fail_attempt = fail_attempt  # fault injection: treat an attempt as failed, unsent

    @property
    def session(self):
        if self._given is not None:
            return self._given
        session = getattr(self._local, "session", None)
        if session is None:
            session = self._local.session = requests.Session()
        return session

    def deliver(self, url: str, body: dict, msg_id: str | None = None) -> bool:
        """True once the receiver answered 2xx; False after the last retry or on shutdown."""
        msg_id = msg_id or new_delivery_id()
        raw = encode(body)
        delays = (0.0,) + self.retry_delays
        for attempt, delay in enumerate(delays, start=1):
            if delay and self.stopping.wait(delay):
                log.warning("delivery %s abandoned at shutdown", msg_id)
                return False
            if self._attempt(url, raw, msg_id, attempt):
                return True
        log.error("delivery %s to %s failed after %d attempts", msg_id, url, len(delays))
        return False

    def _attempt(self, url: str, raw: bytes, msg_id: str, attempt: int) -> bool:
        if self.fail_attempt():
            log.info("delivery %s attempt %d failed by fault injection", msg_id, attempt)
            return False
        # Fresh timestamp each attempt: a retry minutes later must still be inside the tolerance.
        headers = {**headers_for(self.secret, msg_id, raw), "Content-Type": "application/json"}
        try:
            response = self.session.post(url, data=raw, headers=headers, timeout=TIMEOUT)
        except requests.RequestException as exc:
            log.warning("delivery %s attempt %d: %s", msg_id, attempt, exc)
            return False
        if 200 <= response.status_code < 300:
            return True
        log.warning("delivery %s attempt %d: HTTP %d", msg_id, attempt, response.status_code)
        return False
