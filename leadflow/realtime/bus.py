"""The realtime fan-out: document-status events from any process to every web process.

`RedisBus` publishes on a Redis pub/sub channel and runs one listener thread per process;
`InMemoryBus` is the embedded default for one process. Both hand every handler a fresh dict
decoded from JSON, so an event that would not survive Redis fails in development too, and
a handler cannot change what another handler sees.

Pub/sub is fire-and-forget: an event published while a listener is disconnected is lost to
it. That is acceptable because events only say "this document changed": pages re-render from
the database and fetch a fresh snapshot on reconnect.
"""
import itertools
import json
import logging
import os
import queue
import random
import socket
import threading
import uuid
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable
from urllib.parse import urlsplit

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

log = logging.getLogger(__name__)

CHANNEL = "leadflow:events:document_status"
Handler = Callable[[dict], None]

# How long the listener blocks waiting for a message before it looks at the stop flag:
# the upper bound on how long stop() waits for the thread.
_POLL_SECONDS = 0.2
# Reconnect backoff: starts small so a blip heals fast, capped so a long outage costs little.
_BACKOFF_FIRST = 0.1
_BACKOFF_MAX = 5.0
# Bound on events queued for the in-memory dispatch thread, so a stuck handler costs memory
# up to here and then drops events (logged) instead of growing without limit.
_IN_MEMORY_QUEUE_SIZE = 10_000


@runtime_checkable
class Bus(Protocol):
    """Publish document-status events; deliver them to this process's handlers."""

    def publish(self, event: dict) -> bool:
        """Send a JSON-serialisable dict; never raises: a failure is logged, returns False."""

    def subscribe(self, handler: Handler) -> None:
        """Call `handler(event)` for every event the bus delivers to this process."""

    def start(self) -> None:
        """Begin delivering to handlers."""

    def stop(self) -> None:
        """Stop delivering and release threads and connections."""


def bus_from_config(config: Mapping) -> Bus:
    """RedisBus when REDIS_URL is set, else InMemoryBus. REALTIME_CHANNEL overrides the channel."""
    channel = config.get("REALTIME_CHANNEL") or CHANNEL
    if config.get("REDIS_URL"):
        return RedisBus(config["REDIS_URL"], channel=channel)
    return InMemoryBus()


class InMemoryBus:
    """Delivers events published in this process, on one dispatch thread (or synchronously)."""

    def __init__(self, *, synchronous: bool = False):
        # synchronous=True delivers inside publish(); for unit tests that want no thread.
        self._synchronous = synchronous
        self._handlers: list[Handler] = []
        self._lock = threading.Lock()
        self._queue: queue.Queue = queue.Queue(maxsize=_IN_MEMORY_QUEUE_SIZE)
        self._thread: threading.Thread | None = None

    def publish(self, event: dict) -> bool:
        payload = _encode(event)
        if payload is None:
            return False
        if self._synchronous:
            _deliver(self._snapshot(), payload)
            return True
        try:
            self._queue.put_nowait(payload)
        except queue.Full:
            log.error("in-memory bus queue is full; dropped an event")
            return False
        return True

    def subscribe(self, handler: Handler) -> None:
        with self._lock:
            self._handlers.append(handler)

    def start(self) -> None:
        with self._lock:
            if self._synchronous or self._thread is not None:
                return
            self._thread = threading.Thread(
                target=self._run, name="leadflow-realtime-dispatch", daemon=True
            )
            self._thread.start()

    def stop(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
        if thread is not None:
            self._queue.put(None)  # wakes the thread; it exits on None
            thread.join(timeout=5)

    def join(self, timeout: float) -> bool:
        """Wait until every event published so far was handled; False on timeout."""
        with self._queue.all_tasks_done:
            return self._queue.all_tasks_done.wait_for(
                lambda: self._queue.unfinished_tasks == 0, timeout
            )

    def _snapshot(self) -> list[Handler]:
        with self._lock:
            return list(self._handlers)

    def _run(self) -> None:
        while True:
            payload = self._queue.get()
            try:
                if payload is None:
                    return
                _deliver(self._snapshot(), payload)
            finally:
                self._queue.task_done()


class RedisBus:
    """Publishes on a Redis channel; one listener thread per process delivers to handlers.

    The listener reconnects with jittered exponential backoff when Redis goes away, and
    re-subscribes. Its connection carries a client name (`client_name`) so that an operator,
    or a test, can find it in CLIENT LIST. Handlers run on the listener thread, one after
    another: they should only hand the event on (to per-socket queues), never do slow work.
    """

    def __init__(self, url: str, channel: str = CHANNEL, *, client_name: str | None = None):
        self.channel = channel
        self.client_name = client_name or (
            f"leadflow-bus-{socket.gethostname()}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        )
        self._where = _redacted(url)  # for logs: the URL may carry a password
        self._url = url
        # One immediate retry heals a pooled connection that Redis closed; more would make
        # publish() hang on a Redis that is really down, and publish runs in requests.
        self._publisher = redis.Redis.from_url(
            url,
            socket_connect_timeout=1,
            socket_timeout=2,
            retry=Retry(NoBackoff(), 1),
            client_name=f"{self.client_name}-publisher",
        )
        self._handlers: list[Handler] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._thread: threading.Thread | None = None
        # Counts subscribe confirmations from Redis; see wait_until_listening.
        self._subscriptions = 0
        self._subscribed = threading.Condition()

    def publish(self, event: dict) -> bool:
        payload = _encode(event)
        if payload is None:
            return False
        try:
            self._publisher.publish(self.channel, payload)
        except (redis.RedisError, OSError) as exc:
            log.warning("realtime publish to %s failed: %s", self._where, exc)
            return False
        except Exception:
            # The contract is "never raises": an event is never worth failing the caller.
            log.exception("realtime publish to %s failed unexpectedly", self._where)
            return False
        return True

    def publish_many(self, events: list[dict]) -> bool:
        """`publish` for several events as one message (a JSON array): one PUBLISH, and one
        message for every listener to read and decode, where each event on its own cost every web
        process a read of its own. Never raises; False when any was not sent."""
        payloads = [payload for payload in map(_encode, events) if payload is not None]
        if not payloads:
            return not events
        try:
            self._publisher.publish(self.channel, "[" + ",".join(payloads) + "]")
        except (redis.RedisError, OSError) as exc:
            log.warning("realtime publish of %d events to %s failed: %s", len(payloads), self._where, exc)
            return False
        except Exception:
            log.exception("realtime publish to %s failed unexpectedly", self._where)
            return False
        return len(payloads) == len(events)

    def subscribe(self, handler: Handler) -> None:
        with self._lock:
            self._handlers.append(handler)

    def start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            # A fresh flag per thread: a thread that outlives a slow stop() can never be
            # revived by the next start().
            self._stopping = threading.Event()
            self._thread = threading.Thread(
                target=self._listen,
                args=(self._stopping,),
                name="leadflow-realtime-listener",
                daemon=True,
            )
            self._thread.start()

    def stop(self) -> None:
        with self._lock:
            thread, self._thread = self._thread, None
            self._stopping.set()
        if thread is not None:
            thread.join(timeout=_POLL_SECONDS * 10)
            if thread.is_alive():
                log.warning("realtime listener did not stop in time")
        self._publisher.close()

    def wait_until_listening(self, timeout: float, *, after: int = 0) -> int:
        """Wait until Redis has confirmed more than `after` subscriptions; return the count.

        Returns the current count on timeout too, so `count > after` tells success. Every
        (re)connection of the listener confirms one subscription, so a caller that saw count
        N before a disconnect waits with after=N for the reconnection.
        """
        with self._subscribed:
            self._subscribed.wait_for(lambda: self._subscriptions > after, timeout)
            return self._subscriptions

    def _listen(self, stopping: threading.Event) -> None:
        delays = _backoff()
        failing = False
        while not stopping.is_set():
            client = pubsub = None
            try:
                client = redis.Redis.from_url(
                    self._url,
                    socket_connect_timeout=2,
                    socket_timeout=5,
                    # PINGs on the idle connection notice a peer that vanished without a
                    # FIN (a partition), which a blocking read would wait on forever.
                    health_check_interval=15,
                    socket_keepalive=True,
                    # Reconnecting is this loop's job, with backoff and a stop check.
                    retry=Retry(NoBackoff(), 0),
                    client_name=self.client_name,
                )
                pubsub = client.pubsub()
                pubsub.subscribe(self.channel)
                while not stopping.is_set():
                    message = pubsub.get_message(timeout=_POLL_SECONDS)
                    if message is None:
                        continue
                    if message["type"] == "subscribe":
                        if failing:
                            log.info("realtime listener reconnected to %s", self._where)
                        failing, delays = False, _backoff()
                        self._confirm_subscription()
                    elif message["type"] == "message":
                        self._dispatch(message["data"])
            except (redis.RedisError, OSError) as exc:
                if not failing:
                    log.warning("realtime listener lost %s: %s; reconnecting", self._where, exc)
                failing = True
                stopping.wait(next(delays))
            except Exception:
                # A bug here must not end realtime for the life of the process.
                log.exception("realtime listener failed; restarting it")
                failing = True
                stopping.wait(next(delays))
            finally:
                _close_quietly(pubsub, client)

    def _confirm_subscription(self) -> None:
        with self._subscribed:
            self._subscriptions += 1
            self._subscribed.notify_all()

    def _dispatch(self, data: bytes) -> None:
        events = _events_of(data)
        if events is None:
            return
        with self._lock:
            handlers = list(self._handlers)
        for n, handler in enumerate(handlers, start=1):
            # Each handler but the last gets a copy of its own: one that mutates its event cannot
            # confuse the next. The usual listener has one handler (the page hub): one decode.
            _deliver_each(handler, events if n == len(handlers) else _events_of(data))


def _events_of(data: str | bytes) -> list[dict] | None:
    """The events of one message: one event, or the events one commit published together
    (`publish_many`, a JSON array); None, logged, for anything else."""
    try:
        message = json.loads(data)
    except ValueError:
        log.warning("ignored a realtime message that is not JSON")
        return None
    if isinstance(message, dict):
        return [message]
    if isinstance(message, list) and all(isinstance(event, dict) for event in message):
        return message
    log.warning("ignored a realtime message that is neither an event nor a list of events")
    return None


def _encode(event: dict) -> str | None:
    if not isinstance(event, dict):
        log.error("realtime event is not a dict: %s", type(event).__name__)
        return None
    try:
        return json.dumps(event, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        log.error("realtime event is not JSON-serialisable: %s", exc)
        return None


def _deliver(handlers: list[Handler], payload: str | bytes) -> None:
    for handler in handlers:
        # Decoded per handler: one that mutates its event cannot confuse the next.
        _deliver_each(handler, [json.loads(payload)])


def _deliver_each(handler: Handler, events: list[dict]) -> None:
    for event in events:
        try:
            handler(event)
        except Exception:
            log.exception("realtime handler %r failed", handler)


def _backoff():
    # Exponential with "equal jitter": processes that lost Redis together do not all
    # reconnect in the same instant.
    for attempt in itertools.count():
        ceiling = min(_BACKOFF_MAX, _BACKOFF_FIRST * 2**attempt)
        yield ceiling / 2 + random.uniform(0, ceiling / 2)


def _close_quietly(pubsub, client) -> None:
    for closable in (pubsub, client):
        if closable is None:
            continue
        try:
            closable.close()
        except Exception:  # closing a broken connection may fail; nothing to do about it
            pass


def _redacted(url: str) -> str:
    # Scheme, host, port and db only: never the user name or password.
    try:
        parts = urlsplit(url)
        port = f":{parts.port}" if parts.port else ""
        return f"{parts.scheme}://{parts.hostname or ''}{port}{parts.path}"
    except ValueError:
        return "<unparseable Redis URL>"
