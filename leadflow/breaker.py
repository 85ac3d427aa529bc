"""Circuit breakers for the services a worker depends on (the extraction service, storage).

After `failures` failures in a row a breaker opens: it answers "down" without anyone trying,
so that documents wait instead of spending their attempts on an outage we already know of.
After `cooldown` seconds it half-opens: one caller at a time may probe; a success closes it,
a failure opens it for another cool-down. A success younger than `fresh` seconds counts as a
health answer, so a busy worker does not ask the service's health before every submission.

Breakers live per process (one per app, in `app.extensions`): each worker process learns of
an outage from its own failures, which costs at most `failures` attempts per process.
"""
import threading
import time
from typing import Callable

from flask import current_app

CLOSED, OPEN, HALF_OPEN = "closed", "open", "half-open"


class Breaker:
    def __init__(self, name: str, *, failures: int = 3, cooldown: float = 5.0, fresh: float = 3.0,
                 clock: Callable[[], float] = time.monotonic):
        self.name = name
        self.threshold = max(failures, 1)
        self.cooldown = cooldown
        self.fresh = fresh
        self._clock = clock
        self._lock = threading.Lock()
        self._state = CLOSED
        self._failures = 0
        self._opened_at = 0.0
        self._probe_at: float | None = None
        self._ok_at: float | None = None

    @property
    def state(self) -> str:
        with self._lock:
            return self._state

    def allow(self) -> bool:
        """May a caller try the service now? While open: no; after the cool-down, one probe."""
        with self._lock:
            now = self._clock()
            if self._state == CLOSED:
                return True
            if now - self._opened_at < self.cooldown:
                return False
            # Half-open: one probe per cool-down, so a probe that never reports back (its
            # caller died) does not hold the breaker half-open for ever.
            if self._probe_at is not None and now - self._probe_at < self.cooldown:
                return False
            self._state, self._probe_at = HALF_OPEN, now
            return True

    def is_down(self) -> bool:
        """Known down: open and still cooling down, or half-open with a probe under way."""
        with self._lock:
            if self._state == CLOSED:
                return False
            now = self._clock()
            if now - self._opened_at < self.cooldown:
                return True
            return self._probe_at is not None and now - self._probe_at < self.cooldown

    def recently_ok(self) -> bool:
        with self._lock:
            return self._state == CLOSED and self._ok_at is not None and self._clock() - self._ok_at < self.fresh

    def retry_in(self) -> float:
        """Seconds until a probe may be tried (0 when closed)."""
        with self._lock:
            if self._state == CLOSED:
                return 0.0
            return max(self.cooldown - (self._clock() - self._opened_at), 0.0)

    def succeeded(self) -> None:
        with self._lock:
            self._state, self._failures, self._probe_at, self._ok_at = CLOSED, 0, None, self._clock()

    def failed(self) -> None:
        with self._lock:
            self._failures += 1
            self._ok_at = None
            if self._state == HALF_OPEN or self._failures >= self.threshold:
                self._state, self._opened_at, self._probe_at = OPEN, self._clock(), None


def for_ports(ports, name: str) -> Breaker:
    """The breaker for `name` ("storage") of the process whose ports these are, made on first use."""
    found = ports.breakers.get(name)
    if found is None:
        found = ports.breakers.setdefault(name, from_config(name, ports.settings))
    return found


def for_app(name: str) -> Breaker:
    """The current app's breaker for `name`, made on first use."""
    return for_ports(current_app.extensions["leadflow"], name)


def reset(app) -> None:
    """Forget what the app's breakers learned (tests that broke a service on purpose)."""
    app.extensions["leadflow"].breakers.clear()
    client = app.extensions["leadflow"].extraction
    if isinstance(getattr(client, "_breaker", None), Breaker):
        client._breaker = None


def from_config(name: str, config) -> Breaker:
    return Breaker(name, failures=config.get("BREAKER_FAILURES", 3),
                   cooldown=config.get("BREAKER_COOLDOWN_SECONDS", 5.0),
                   fresh=config.get("HEALTH_FRESH_SECONDS", 3.0))
