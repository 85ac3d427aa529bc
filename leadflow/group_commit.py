"""Group commit: requests that arrive together share one write and one commit.

A request hands its item to `GroupCommit.submit` and waits. One of the waiting requests, the
leader, takes every item waiting, writes them with one call of `write` (one statement, one
commit) inside its own request, hands each request its result, and names the next leader if
more items arrived meanwhile. Those arrived while a commit was in flight: under load a write
carries as many items as requests were waiting. A leader that found nobody writing waits
`gather_seconds` first (0: writes at once), so that requests arriving just after it share its
write too. `then`, if given, runs in the leader after its batch is answered: what need not
hold the requests (a nudge to a worker).

There is no thread of its own: the leader is a request, so `write` runs in that request's app
context with its session. Waiting uses `threading`'s lock and events, so the same code serves
real threads (the development server) and greenlets (gunicorn's gevent workers, which patch
`threading` before the app is imported).
"""
import logging
import threading
import time
from collections.abc import Callable, Sequence

log = logging.getLogger(__name__)


class GroupCommit:
    """One per process and kind of write (see `submit`)."""

    def __init__(self, write: Callable[[Sequence], Sequence], max_items: int = 64, gather_seconds: float = 0.0,
                 then: Callable[[Sequence], None] | None = None):
        # write(items) -> one result per item, in order; runs in the leader's request.
        self._write = write
        # then(results): what follows a write that nobody need wait for (nudging a worker about what
        # it wrote); the leader runs it once the batch's requests are answered and the next write
        # has started. A failure there is logged: what was written stays written.
        self._then = then
        self._max_items = max_items
        # A leader that found nobody writing waits this long for company before it writes
        # (PostgreSQL's commit_delay, for the same reason); a named successor has company.
        self._gather = gather_seconds
        self._lock = threading.Lock()
        self._waiting: list[_Entry] = []
        # A leader is writing, or has been named and is waking up: a newcomer waits.
        self._busy = False

    def submit(self, item):
        """Write `item` together with whatever other requests submit meanwhile; return its
        result once the write holding it is done (committed), or raise what that write raised."""
        entry = _Entry(item)
        with self._lock:
            self._waiting.append(entry)
            entry.lead = not self._busy
            self._busy = True
        if not entry.lead:
            entry.woken.wait()
        elif self._gather:
            time.sleep(self._gather)
        if entry.lead:
            self._lead(entry)
        if entry.error is not None:
            raise entry.error
        return entry.result

    def _lead(self, entry: "_Entry") -> None:
        batch: list[_Entry] = []
        try:
            with self._lock:
                # The leader is first in line: a newcomer leads only when nobody waits, and a
                # named leader is the first of those left waiting.
                batch = self._waiting[:self._max_items]
                del self._waiting[:len(batch)]
            try:
                results = list(self._write([e.item for e in batch]))
                if len(results) != len(batch):
                    raise RuntimeError(f"{len(batch)} items written, {len(results)} results")
            except Exception as exc:
                for e in batch:
                    e.error = exc
            except BaseException:
                # The leader's own request is being stopped (a worker shutting down): the
                # others get an error of their own, not its GreenletExit or KeyboardInterrupt.
                for e in batch:
                    if e is not entry:
                        e.error = RuntimeError("the request writing this one together with others was stopped")
                raise
            else:
                for e, result in zip(batch, results):
                    e.result = result
        finally:
            with self._lock:
                if entry in self._waiting:  # stopped before it took its batch
                    self._waiting.remove(entry)
                successor = self._waiting[0] if self._waiting else None
                if successor is not None:
                    successor.lead = True
                else:
                    self._busy = False
            for e in batch:
                if e is not entry:
                    e.woken.set()
            if successor is not None:
                successor.woken.set()
        if self._then is not None and batch and batch[0].error is None:
            try:
                self._then([e.result for e in batch])
            except Exception:
                log.exception("what follows a group write failed")


class _Entry:
    __slots__ = ("item", "result", "error", "lead", "woken")

    def __init__(self, item):
        self.item = item
        self.result = None
        self.error: BaseException | None = None
        self.lead = False
        self.woken = threading.Event()
