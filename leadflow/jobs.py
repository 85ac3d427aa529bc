"""The job queue's edge: which broker, de-duplication keys, and enqueueing after commit.

Dramatiq is at-least-once and has no job-id de-duplication, so a verification message
carries a key `doc-verify-<documentId>` taken with an atomic SET NX (with an expiry, in case a
worker dies holding it) and released when the message ends or fails for good. The database
state machine stays the truth: a duplicate that slips through loses the claim and does nothing.
"""
import logging
import os
import threading
import time
import uuid

import dramatiq
from dramatiq.brokers.stub import StubBroker
from dramatiq.middleware import CurrentMessage, Middleware

log = logging.getLogger(__name__)

DOCUMENT_QUEUE = "document-processing"
CALLBACK_QUEUE = "callbacks"
DEDUP_TTL_SECONDS = 15 * 60


def verification_key(document_id: str) -> str:
    return f"doc-verify-{document_id}"


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


class ReleaseDedupKey(Middleware):
    """Releases a message's de-duplication key when it ends: done, or failed for good."""

    def __init__(self, dedup_provider):
        self._dedup = dedup_provider

    def after_process_message(self, broker, message, *, result=None, exception=None):
        key = message.options.get("dedup_key")
        if key and (exception is None or message.failed):
            self._dedup().release(key, message.options.get("dedup_holder") or None)

    def after_skip_message(self, broker, message):
        key = message.options.get("dedup_key")
        if key:
            self._dedup().release(key, message.options.get("dedup_holder") or None)


_dedup = None


def dedup():
    global _dedup
    if _dedup is None:
        url = os.environ.get("REDIS_URL")
        _dedup = RedisDedup(url, prefix=f"{namespace()}:dedup:") if url else MemoryDedup()
    return _dedup


def namespace() -> str:
    return os.environ.get("DRAMATIQ_NAMESPACE", "leadflow")


def setup_broker() -> dramatiq.Broker:
    """The process's broker, from REDIS_URL: Redis when set, else an in-process StubBroker."""
    url = os.environ.get("REDIS_URL")
    if url:
        from dramatiq.brokers.redis import RedisBroker
        broker = RedisBroker(url=url, namespace=namespace(), socket_timeout=5, socket_connect_timeout=5)
    else:
        broker = StubBroker()
    broker.add_middleware(ReleaseDedupKey(dedup))
    broker.add_middleware(CurrentMessage())
    dramatiq.set_broker(broker)
    return broker


def send_once(actor, key: str, *args) -> bool:
    """Enqueue unless a message with this key is already queued or running.

    Never raises: an enqueue failure (Redis down) leaves the document PENDING for the sweep.
    """
    holder = uuid.uuid4().hex
    try:
        if not dedup().acquire(key, holder=holder):
            log.info("already queued: %s", key)
            return False
    except Exception as exc:
        log.warning("could not take dedup key %s (%s); the pending sweep will enqueue it", key, type(exc).__name__)
        return False
    try:
        actor.send_with_options(args=args, dedup_key=key, dedup_holder=holder)
        return True
    except Exception as exc:
        dedup().release(key, holder)
        log.warning("could not enqueue %s (%s); the pending sweep will enqueue it", key, type(exc).__name__)
        return False


def send_later(actor, key: str, delay_ms: int, *args, **options) -> bool:
    """Enqueue again after `delay_ms`, the new message taking the key over from the running one
    (whose end then leaves the key alone). Does nothing when the running message no longer
    holds the key (a sweep took it over and sent another): one waiting message per document,
    never a growing crowd. Never raises: the sweeps are the safety net."""
    running = CurrentMessage.get_current_message()
    mine = running.options.get("dedup_holder") if running is not None else None
    holder = uuid.uuid4().hex
    try:
        if mine and dedup().holder(key) != mine:
            log.info("not sending %s again: another message holds its key", key)
            return False
        dedup().hand_over(key, holder)
        actor.send_with_options(args=args, delay=int(delay_ms), dedup_key=key, dedup_holder=holder, **options)
        return True
    except Exception as exc:
        log.warning("could not enqueue %s again (%s); the pending sweep will enqueue it", key, type(exc).__name__)
        return False


def send_later_plain(actor, delay_ms: int, *args) -> bool:
    """Enqueue a message without de-duplication after `delay_ms`; never raises."""
    try:
        actor.send_with_options(args=args, delay=int(delay_ms))
        return True
    except Exception as exc:
        log.warning("could not enqueue %s%r (%s); a sweep will retry", actor.actor_name, args, type(exc).__name__)
        return False


def send(actor, *args) -> bool:
    """Enqueue a message without de-duplication (its actor is idempotent); never raises."""
    try:
        actor.send(*args)
        return True
    except Exception as exc:
        log.warning("could not enqueue %s%r (%s); a sweep will retry", actor.actor_name, args, type(exc).__name__)
        return False
