"""The model test's world: the real app on its own PostgreSQL database, with the three edges
that would otherwise run on their own replaced by scripted doubles the model drives step by step.

- `ExtractionDouble` speaks `ExtractionClient`'s interface (health, submit, job); the model says
  when the service is down, which submission fails how, and when a job finishes.
- `WorkQueue` stands in for the Dramatiq broker: the actors' `send` methods are replaced so a
  message lands here, and the model decides when (and in which order) each one runs.
- `RecordingBus` keeps every realtime event, so a step that must change nothing can prove it
  announced nothing either.

Everything else (services, sweeps, outbox, ledger, storage, database) is the app's own code.
"""
import threading
from collections import OrderedDict
from dataclasses import dataclass, field

from leadflow.extraction.client import ExtractionUnavailable


class SimulatedCrash(BaseException):
    """The process died at this point: nothing after it runs.

    A BaseException on purpose: the app's `except Exception` recovery code must not see it,
    exactly as it would not see a SIGKILL."""


class InjectedError(RuntimeError):
    """An unexpected error inside one attempt (not a crash): the attempt fails and is retried."""


# One-shot faults for the next submission, in the order the model queued them.
SUBMIT_FAULTS = (
    "refuse",               # the service answers 503: a failed submission
    "lose_answer",          # the service accepts the job, the answer is lost (timeout)
    "error",                # an unexpected exception in the attempt (claim handed back, retried)
    "crash_before_accept",  # crash point (b): after the reservation, before the service has the job
    "crash_after_accept",   # the service has the job, the process dies before recording it
    "slow",                 # the worker stalls in the call for longer than the stalled threshold
    "others_run",           # while the worker waits for the answer, other workers run every queued message
)


@dataclass
class ServiceJob:
    job_id: str
    document_url: str
    mode: str
    status: str = "queued"
    result: dict | None = None      # {"type", "data"} once finished

    def as_wire(self) -> dict:
        body = {"job_id": self.job_id, "status": self.status}
        if self.result is not None:
            body.update(self.result)
        return body


class ExtractionDouble:
    """A scripted extraction service behind `ExtractionClient`'s interface; thread-safe."""

    def __init__(self):
        self._lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        with self._lock:
            self.down = False
            self.faults: list[str] = []
            self.jobs: OrderedDict[str, ServiceJob] = OrderedDict()
            self.submissions: list[tuple[str, str | None]] = []
            self.stalled: set[str] = set()  # jobs whose submission stalled (the worker went silent)
            self.on_slow = None      # called inside a "slow" submission: what happens meanwhile
            self.on_busy = None      # called inside an "others_run" submission
            self.on_poll = None      # called once inside the next job lookup, after the answer is taken

    # -- the client's interface -------------------------------------------------------------
    def healthy(self) -> bool:
        return not self.down

    def submit(self, *, job_id: str, document_url: str, callback_url: str, mode: str,
               output_spec: dict | None = None) -> None:
        with self._lock:
            fault = self.faults.pop(0) if self.faults else None
            self.submissions.append((job_id, fault))
        if fault == "crash_before_accept":
            raise SimulatedCrash(f"crashed submitting job {job_id}")
        if self.down:
            raise ExtractionUnavailable("extraction service health check failed")
        if fault == "refuse":
            raise ExtractionUnavailable("submission answered 503")
        if fault == "error":
            raise InjectedError(f"unexpected error while submitting job {job_id}")
        if fault == "slow" and self.on_slow is not None:
            with self._lock:
                self.stalled.add(job_id)
            self.on_slow()
        if fault == "others_run" and self.on_busy is not None:
            self.on_busy()
        with self._lock:
            # The contract: a job id the service already knows is answered 202 and not run again.
            self.jobs.setdefault(job_id, ServiceJob(job_id, document_url, mode))
        if fault == "lose_answer":
            raise ExtractionUnavailable("submission failed: ReadTimeout")
        if fault == "crash_after_accept":
            raise SimulatedCrash(f"crashed after the service accepted job {job_id}")

    def job(self, job_id: str) -> dict | None:
        if self.down:
            raise ExtractionUnavailable("job lookup failed: ConnectionError")
        with self._lock:
            job = self.jobs.get(job_id)
            answer = None if job is None else job.as_wire()
            hook, self.on_poll = self.on_poll, None
        if hook is not None:
            hook(job_id)    # what happens between the service's answer and the caller acting on it
        return answer

    # -- what the model makes the service do --------------------------------------------------
    def unfinished(self) -> list[ServiceJob]:
        with self._lock:
            return [j for j in self.jobs.values() if j.status in ("queued", "running")]

    def finished(self) -> list[ServiceJob]:
        with self._lock:
            return [j for j in self.jobs.values() if j.result is not None]

    def finish(self, job_id: str, callback_type: str, data: dict) -> None:
        with self._lock:
            job = self.jobs[job_id]
            job.result = {"type": callback_type, "data": data}
            job.status = "completed" if callback_type == "job.completed" else "failed"


@dataclass
class Message:
    """One message as the broker would hold it."""
    actor: str                      # verify-document | process-delivery | verification-retries-exhausted
    args: tuple
    dedup_key: str | None = None
    attempt: int = 1                # up to leadflow.jobs.VERIFY_ATTEMPTS for verify-document
    nudge: dict | None = None       # the brokerage's nudge key it holds while it waits (leadflow.jobs)

    def __repr__(self) -> str:
        return f"{self.actor}{self.args!r}#{self.attempt}"


class QueueBroker:
    """The broker's edge for the model: what the app's job sender enqueues lands in the model's
    queue instead of Redis or a StubBroker (a live app's worker may run in this process; it must
    never see the model's work). Delays are the model's to play out."""

    def __init__(self, queue: "WorkQueue"):
        self.queue = queue

    def enqueue(self, message, *, delay=None):
        nudge = {k: message.options[k] for k in ("nudge_key", "nudge_holder") if k in message.options}
        self.queue.put(Message(message.actor_name, tuple(message.args), message.options.get("dedup_key"),
                               nudge=nudge or None))
        return message


@dataclass
class WorkQueue:
    messages: list[Message] = field(default_factory=list)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def put(self, message: Message) -> None:
        with self._lock:
            self.messages.append(message)

    def take(self, index: int) -> Message:
        with self._lock:
            return self.messages.pop(index % len(self.messages))

    def remove_where(self, predicate) -> list[Message]:
        with self._lock:
            gone = [m for m in self.messages if predicate(m)]
            self.messages = [m for m in self.messages if not predicate(m)]
            return gone

    def clear(self) -> list[Message]:
        with self._lock:
            gone, self.messages = self.messages, []
            return gone

    def __len__(self) -> int:
        return len(self.messages)


class RecordingBus:
    """The realtime bus, keeping what it was given (it has no listeners in the model)."""

    def __init__(self):
        self._lock = threading.Lock()
        self.events: list[dict] = []

    def publish(self, event: dict) -> bool:
        with self._lock:
            self.events.append(dict(event))
        return True

    def subscribe(self, handler) -> None:
        pass

    def start(self) -> None:
        pass

    def stop(self) -> None:
        pass

    def count(self, document_id: str | None = None) -> int:
        with self._lock:
            return sum(1 for e in self.events if document_id is None or e.get("document_id") == document_id)

    def clear(self) -> None:
        with self._lock:
            self.events.clear()


@dataclass
class World:
    """What the fixture builds once per module and each example resets."""
    app: object
    storage_dir: str
    extraction: ExtractionDouble
    queue: WorkQueue
    bus: RecordingBus
    brokerage_id: int
    other_brokerage_id: int
    client_id: int
    admin_id: int
    # Event types whose after-commit handler is skipped (a crash right after the commit).
    lost_events: set = field(default_factory=set)
    lost: list = field(default_factory=list)


WORLD: World | None = None
