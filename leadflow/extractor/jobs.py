"""The in-memory job table: one record per job_id, created once, moved queued -> running -> finished."""
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass, field

QUEUED, RUNNING, COMPLETED, FAILED = "queued", "running", "completed", "failed"
MAX_FINISHED_JOBS = 10_000  # finished results kept for GET /jobs/<id>; oldest forgotten first


@dataclass
class Job:
    job_id: str
    document_url: str
    callback_url: str
    mode: str
    output_spec: dict | None
    status: str = QUEUED
    result: dict | None = None  # {"type": ..., "data": ...} once finished
    created_at: float = field(default_factory=time.time)

    def as_wire(self) -> dict:
        body = {"job_id": self.job_id, "status": self.status}
        if self.result is not None:
            body.update(self.result)
        return body


class JobStore:
    """Thread-safe; `add` is the one place that decides whether a job_id is new."""

    def __init__(self, max_finished: int = MAX_FINISHED_JOBS):
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._max_finished = max_finished

    def add(self, job: Job) -> bool:
        """Store the job unless its id is known; True when it was new (and so must run)."""
        with self._lock:
            if job.job_id in self._jobs:
                return False
            self._jobs[job.job_id] = job
            self._forget_old()
            return True

    def get(self, job_id: str) -> Job | None:
        with self._lock:
            return self._jobs.get(job_id)

    def remove(self, job_id: str) -> None:
        with self._lock:
            self._jobs.pop(job_id, None)

    def mark_running(self, job_id: str) -> None:
        with self._lock:
            self._jobs[job_id].status = RUNNING

    def finish(self, job_id: str, callback_type: str, data: dict) -> Job:
        with self._lock:
            job = self._jobs[job_id]
            job.result = {"type": callback_type, "data": data}
            job.status = COMPLETED if callback_type == "job.completed" else FAILED
            return job

    def unfinished(self) -> int:
        with self._lock:
            return sum(1 for job in self._jobs.values() if job.status in (QUEUED, RUNNING))

    def _forget_old(self) -> None:
        finished = [jid for jid, job in self._jobs.items() if job.status in (COMPLETED, FAILED)]
        for jid in finished[: max(0, len(finished) - self._max_finished)]:
            del self._jobs[jid]
