"""The job queue's edge: queues, de-duplication keys, the middleware, and sending by actor name.

Dramatiq is at-least-once and has no job-id de-duplication, so a verification message
carries a key `doc-verify-<documentId>` taken with an atomic SET NX (with an expiry, in case a
worker dies holding it) and released when the message ends or fails for good. The database
state machine stays the truth: a duplicate that slips through loses the claim and does nothing.

A message is also a nudge for its brokerage: a worker's claim takes other new documents of the
brokerage along (`pipeline._claim_companions`). While one such message waits in the queue, a new
upload sends none of its own (`brokerage-verify-<brokerageId>`, a key released when that
message starts, before its claim reads what is waiting); see `pipeline.send_next_waiting`. An
upload's message waits a moment first (CLAIM_GATHER_MS), so that uploads that come together
are claimed, reserved and submitted together.
"""
import logging
import threading
import time
import uuid
from collections.abc import Mapping
from datetime import datetime

import dramatiq
from dramatiq.common import dq_name
from dramatiq.middleware import CurrentMessage, Middleware

from leadflow import clock
from leadflow.extensions import db

log = logging.getLogger(__name__)

DOCUMENT_QUEUE = "document-processing"
CALLBACK_QUEUE = "callbacks"
# Lender packages: a slow ZIP and PDF must not hold up documents being read.
PACKAGE_QUEUE = "packages"
# Emails: a slow SMTP server holds up only other emails.
MAIL_QUEUE = "mail"
# Each actor's queue, by the name a job is sent by: senders need no import of the actors, and
# the actors (tasks) are declared on these queues.
QUEUES = {
    "verify-document": DOCUMENT_QUEUE,
    "verification-retries-exhausted": DOCUMENT_QUEUE,
    "process-delivery": CALLBACK_QUEUE,
    "build-package": PACKAGE_QUEUE,
    "build-package-failed": PACKAGE_QUEUE,
    "send-mail": MAIL_QUEUE,
    "mail-document-rejected": MAIL_QUEUE,
}
# How many times a message runs before it fails for good: the first run and its retries. The
# actors' max_retries are these less one; the model test counts attempts with them too.
VERIFY_ATTEMPTS = 3
DELIVERY_ATTEMPTS = 6
DEDUP_TTL_SECONDS = 15 * 60
# A message sent to wait (the reader was busy or down) is not lost while it waits: its key's
# holder names the second it is due, and a take-over (a sweep presuming the message lost) leaves
# it alone until then and this long after (a worker that died holding it gives it back after
# Dramatiq's 60 s heartbeat). Taken over anyway, every waiting document got a new message at
# every pending sweep: 800 documents waiting for a busy reader kept 150 messages a second going.
TAKE_OVER_GRACE_SECONDS = 120
_EPOCH = datetime(1970, 1, 1)


def namespace(config: Mapping) -> str:
    """The prefix of this deployment's keys in Redis (queues, dedup keys, sweep locks)."""
    return config.get("DRAMATIQ_NAMESPACE") or "leadflow"


def verification_key(document_id: str) -> str:
    return f"doc-verify-{document_id}"


def brokerage_nudge_key(brokerage_id: int) -> str:
    return f"brokerage-verify-{brokerage_id}"


# A nudge key outlives its message only when releasing it failed (Redis went away): new uploads
# then send messages of their own again this soon; until then `send_next_waiting` and the
# pending sweep cover what its message did not take along.
NUDGE_TTL_SECONDS = 60


class MemoryDedup:
    """De-duplication keys for the embedded mode (one process).

    A key holds the token of the message that took it: a message releases it only while it is
    still the holder, so a message that handed its key on (`hand_over`) cannot free it."""

    def __init__(self):
        self._keys: dict[str, tuple[float, str]] = {}
        self._lock = threading.Lock()

    def acquire(self, key: str, ttl: int = DEDUP_TTL_SECONDS, holder: str = "") -> bool:
        now = time.monotonic()
        with self._lock:
            if self._keys.get(key, (0, ""))[0] > now:
                return False
            self._keys[key] = (now + ttl, holder)
            return True

    def hand_over(self, key: str, holder: str, ttl: int = DEDUP_TTL_SECONDS) -> None:
        with self._lock:
            self._keys[key] = (time.monotonic() + ttl, holder)

    def holder(self, key: str) -> str | None:
        with self._lock:
            expires, holder = self._keys.get(key, (0, None))
            return holder if expires > time.monotonic() else None

    def release(self, key: str, holder: str | None = None) -> None:
        with self._lock:
            if holder is None or self._keys.get(key, (0, None))[1] == holder:
                self._keys.pop(key, None)


class RedisDedup:
    """De-duplication keys shared by every process, in Redis."""

    def __init__(self, url: str, prefix: str = "leadflow:dedup:"):
        import redis
        self._redis = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
        self._prefix = prefix

    _RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end"

    def acquire(self, key: str, ttl: int = DEDUP_TTL_SECONDS, holder: str = "") -> bool:
        return bool(self._redis.set(self._prefix + key, holder or "1", nx=True, ex=ttl))

    def hand_over(self, key: str, holder: str, ttl: int = DEDUP_TTL_SECONDS) -> None:
        self._redis.set(self._prefix + key, holder, ex=ttl)

    def holder(self, key: str) -> str | None:
        value = self._redis.get(self._prefix + key)
        return value.decode() if value is not None else None

    def release(self, key: str, holder: str | None = None) -> None:
        try:
            if holder is None:
                self._redis.delete(self._prefix + key)
            else:
                self._redis.eval(self._RELEASE, 1, self._prefix + key, holder)
        except Exception:  # the key expires on its own; a failed release only delays a re-enqueue
            log.warning("could not release dedup key %s", key)


def release_nudge(dedup, options: Mapping) -> None:
    key = options.get("nudge_key")
    if key:
        dedup.release(key, options.get("nudge_holder") or None)


def patient_redis_broker(**options) -> dramatiq.Broker:
    """Dramatiq's RedisBroker, whose consumers wait longer after a message before they ask an
    empty queue again (see `PatientConsumer`)."""
    from dramatiq.brokers.redis import RedisBroker, _RedisConsumer

    class PatientConsumer(_RedisConsumer):
        """After each message Dramatiq's consumer asks an empty queue again in 5-10 ms, then
        doubling, each ask a fetch script on Redis: at a few documents a second per process the
        consumer threads were a sixth of the worker's CPU (py-spy, bench-pipeline). This one
        starts its next wait at 40-80 ms; a queue with messages waiting is read at once as
        before, and an idle one is asked once a second (the worker timeout) as before; the
        document queue's delay queue every GATHERING_POLL_MS while uploads come."""

        def __init__(self, broker, queue_name, prefetch, timeout, **kwargs):
            super().__init__(broker, queue_name, prefetch, timeout, **kwargs)
            self._gathering = queue_name == dq_name(DOCUMENT_QUEUE)
            self._idle_timeout = timeout
            self._last_message_at = float("-inf")

        def __next__(self):
            if self._gathering:
                uploads_coming = time.monotonic() - self._last_message_at < GATHERING_ACTIVE_SECONDS
                self.timeout = min(self._idle_timeout, GATHERING_POLL_MS) if uploads_coming else self._idle_timeout
            message = super().__next__()
            if message is not None:
                self.misses = max(self.misses, QUIET_QUEUE_FIRST_BACKOFF)
                self._last_message_at = time.monotonic()
            return message

    class PatientRedisBroker(RedisBroker):
        @property
        def consumer_class(self):
            return PatientConsumer

    return PatientRedisBroker(**options)


# Dramatiq's backoff exponent for the first wait on an empty queue after a message: its waits
# are 5 ms x 2^n, stretched by up to twice (n = 3: 40-80 ms).
QUIET_QUEUE_FIRST_BACKOFF = 3
# An upload's verification message waits its gathering moment (CLAIM_GATHER_MS) in the document
# queue's delay queue, which a worker reads and holds until due. While uploads come (a message
# there in the last GATHERING_ACTIVE_SECONDS) an idle consumer of it asks Redis this often, not
# once a second, so that the wait ends near its time; a quiet one goes back to once a second, as
# every ask costs the worker about half a millisecond and Redis a fetch script.
GATHERING_POLL_MS = 100
GATHERING_ACTIVE_SECONDS = 60


class ReleaseDedupKey(Middleware):
    """Releases a message's de-duplication key when it ends: done, or failed for good; and its
    nudge key when it starts, before its claim reads what waits (an upload that found the key
    taken has committed its document by then)."""

    def __init__(self, dedup):
        self._dedup = dedup

    def before_process_message(self, broker, message):
        release_nudge(self._dedup, message.options)

    def after_process_message(self, broker, message, *, result=None, exception=None):
        key = message.options.get("dedup_key")
        if key and (exception is None or message.failed):
            self._dedup.release(key, message.options.get("dedup_holder") or None)

    def after_skip_message(self, broker, message):
        release_nudge(self._dedup, message.options)
        key = message.options.get("dedup_key")
        if key:
            self._dedup.release(key, message.options.get("dedup_holder") or None)


class AppContext(Middleware):
    """Runs every message inside the app's context and removes the session it used when the
    message ends (done, failed or skipped): actors only parse ids and call a use case."""

    def __init__(self, app):
        self._app = app
        self._local = threading.local()

    def before_process_message(self, broker, message):
        context = self._app.app_context()
        context.push()
        self._local.context = context

    def after_process_message(self, broker, message, *, result=None, exception=None):
        self._leave()

    def after_skip_message(self, broker, message):
        self._leave()

    def _leave(self) -> None:
        # A message skipped before our before_process_message ran has no context to leave.
        context, self._local.context = getattr(self._local, "context", None), None
        if context is None:
            return
        try:
            db.session.remove()
        finally:
            context.pop()


def _seconds() -> float:
    # LeadFlow's clock, not the machine's: the model test moves it past a wait without waiting.
    return (clock.now() - _EPOCH).total_seconds()


class BrokerJobSender:
    """The JobSender port over a Dramatiq broker: builds the message from the actor's name and
    its queue (QUEUES) and enqueues it, so the sender needs no import of the actors.

    Never raises for a broker or Redis failure: a job not sent leaves its document where a
    sweep finds it. An actor name not in QUEUES is a mistake in the code, and raises."""

    def __init__(self, broker: dramatiq.Broker, dedup, queues: Mapping[str, str] = QUEUES):
        self.broker = broker
        self.dedup = dedup
        self._queues = dict(queues)

    def send(self, actor_name: str, *args, dedup_key: str | None = None, take_over: bool = False,
             delay_ms: int | None = None, nudge_key: str | None = None) -> bool:
        """`nudge_key`: send nothing while another message holding this key waits in the queue
        (it takes this work along when it starts); else this message holds it until it starts,
        and `delay_ms` is how long it waits there first, for more work to take along."""
        queue = self._queues[actor_name]
        if dedup_key is None:
            return self._enqueue(queue, actor_name, args, {}, delay_ms)
        if delay_ms is not None and nudge_key is None:
            return self._send_later(queue, actor_name, dedup_key, delay_ms, args)
        if take_over:
            if self._still_waiting(dedup_key):
                log.info("not taking %s over: its message waits to be tried again", dedup_key)
                return False
            self.dedup.release(dedup_key)
        if nudge_key is not None:
            return self._send_nudge(queue, actor_name, dedup_key, nudge_key, args, delay_ms)
        return self._send_once(queue, actor_name, dedup_key, args)

    def _send_nudge(self, queue: str, actor_name: str, key: str, nudge_key: str, args,
                    delay_ms: int | None = None) -> bool:
        holder = uuid.uuid4().hex
        try:
            if not self.dedup.acquire(nudge_key, ttl=NUDGE_TTL_SECONDS, holder=holder):
                log.debug("not sending %s: a waiting message of %s takes it along", key, nudge_key)
                return False
        except Exception as exc:  # unknown: a message of its own, as without nudges
            log.warning("could not take nudge key %s (%s)", nudge_key, type(exc).__name__)
            return self._send_once(queue, actor_name, key, args)
        if self._send_once(queue, actor_name, key, args, {"nudge_key": nudge_key, "nudge_holder": holder}, delay_ms):
            return True
        self.dedup.release(nudge_key, holder)
        return False

    def _still_waiting(self, key: str) -> bool:
        try:
            holder = self.dedup.holder(key) or ""
        except Exception:  # unknown: taken over, as before; the send then finds Redis as it is
            return False
        _, marked, due = holder.partition("@")
        return bool(marked) and due.isdigit() and _seconds() < int(due) + TAKE_OVER_GRACE_SECONDS

    def _send_once(self, queue: str, actor_name: str, key: str, args, options: Mapping | None = None,
                   delay_ms: int | None = None) -> bool:
        """Enqueue unless a message with this key is already queued or running."""
        holder = uuid.uuid4().hex
        try:
            if not self.dedup.acquire(key, holder=holder):
                log.info("already queued: %s", key)
                return False
        except Exception as exc:
            log.warning("could not take dedup key %s (%s); the pending sweep will enqueue it", key, type(exc).__name__)
            return False
        if self._enqueue(queue, actor_name, args, {**(options or {}), "dedup_key": key, "dedup_holder": holder},
                         delay_ms):
            return True
        self.dedup.release(key, holder)
        return False

    def _send_later(self, queue: str, actor_name: str, key: str, delay_ms: int, args) -> bool:
        """Enqueue again after `delay_ms`, the new message taking the key over from the running
        one (whose end then leaves the key alone). Does nothing when the running message no
        longer holds the key (a sweep took it over and sent another): one waiting message per
        document, never a growing crowd."""
        running = CurrentMessage.get_current_message()
        mine = running.options.get("dedup_holder") if running is not None else None
        holder = f"{uuid.uuid4().hex}@{_seconds() + delay_ms / 1000:.0f}"
        try:
            if mine and self.dedup.holder(key) != mine:
                log.info("not sending %s again: another message holds its key", key)
                return False
            self.dedup.hand_over(key, holder)
        except Exception as exc:
            log.warning("could not hand over dedup key %s (%s); the pending sweep will enqueue it",
                        key, type(exc).__name__)
            return False
        return self._enqueue(queue, actor_name, args, {"dedup_key": key, "dedup_holder": holder}, delay_ms)

    def _enqueue(self, queue: str, actor_name: str, args, options: dict, delay_ms: int | None) -> bool:
        message = dramatiq.Message(queue_name=queue, actor_name=actor_name, args=tuple(args), kwargs={},
                                   options=options)
        try:
            self.broker.enqueue(message, delay=int(delay_ms) if delay_ms else None)
            return True
        except Exception as exc:
            log.warning("could not enqueue %s%r (%s); a sweep will retry", actor_name, tuple(args), type(exc).__name__)
            return False
