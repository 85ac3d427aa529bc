"""HTTP client for the extraction service: health, submit, ask about a job.

Every call goes through the app's "extraction" breaker (leadflow.breaker): failures open it,
and while it is open the client answers ServiceDown without calling the service.
"""
import logging
import math
import time

import requests
from flask import current_app

from leadflow import breaker as breakers

log = logging.getLogger(__name__)


class ExtractionUnavailable(Exception):
    """The service is down, refused the job, or answered something we cannot use."""


class ServiceDown(ExtractionUnavailable):
    """The breaker knows the service is down: nothing was tried, so no attempt is spent."""


class ServiceBusy(ServiceDown):
    """The service is up but full (503 with the error code "busy"): it took nothing, so no
    attempt is spent; the client holds further submissions back for `seconds`."""

    def __init__(self, message: str, seconds: float):
        super().__init__(message)
        self.seconds = seconds


class BatchUnsupported(Exception):
    """The service has no `POST /jobs/batch` (it answered 404 or 405): nothing was submitted;
    the caller submits job by job."""


# Jobs in one `POST /jobs/batch` at most (the contract's limit; the shipped extractor refuses more).
MAX_BATCH = 50
# How long a "busy" answer holds submissions back when it names no Retry-After, and the most
# a Retry-After may ask for (a longer wait is the pending sweep's business).
BUSY_SECONDS = 1.0
MAX_BUSY_SECONDS = 30.0


class ExtractionClient:
    def __init__(self, base_url: str | None, api_key: str, timeout: float = 10.0,
                 breaker: breakers.Breaker | None = None):
        self.base_url = (base_url or "").rstrip("/")
        self.timeout = timeout
        self._breaker = breaker
        self._session = requests.Session()
        self._session.headers["Authorization"] = f"Bearer {api_key}"
        # Until the service answers that it has no batch endpoint (then job by job, for good).
        self.batch_supported = True
        self._busy_until = 0.0

    @property
    def breaker(self) -> breakers.Breaker:
        # One per client, and so one per app and process; made on first use from the app's
        # settings unless one was handed in.
        if self._breaker is None:
            self._breaker = breakers.from_config("extraction", current_app.config)
        return self._breaker

    def healthy(self) -> bool:
        """A success younger than HEALTH_FRESH_SECONDS counts; an open breaker answers False."""
        if not self.base_url:
            return False
        breaker = self.breaker
        if breaker.recently_ok():
            return True
        if not breaker.allow():
            return False
        try:
            ok = self._session.get(f"{self.base_url}/health", timeout=self.timeout).status_code == 200
        except requests.RequestException:
            ok = False
        breaker.succeeded() if ok else breaker.failed()
        return ok

    def busy_for(self) -> float:
        """Seconds this process still holds submissions back after the service said it is full."""
        return max(self._busy_until - time.monotonic(), 0.0)

    def _busy(self, retry_after: str | None) -> ServiceBusy:
        """The service answered that it is full: it is up (the breaker hears a success) and
        took nothing; hold submissions back for its Retry-After or BUSY_SECONDS."""
        try:
            asked = float(retry_after) if retry_after else BUSY_SECONDS
        except ValueError:  # an HTTP date, or nonsense
            asked = BUSY_SECONDS
        seconds = min(max(asked, 0.1), MAX_BUSY_SECONDS) if math.isfinite(asked) else BUSY_SECONDS
        self._busy_until = max(self._busy_until, time.monotonic() + seconds)
        self.breaker.succeeded()
        return ServiceBusy(f"extraction service busy; retry in {seconds:g}s", seconds)

    def submit(self, *, job_id: str, document_url: str, callback_url: str, mode: str,
               output_spec: dict | None = None) -> None:
        """Hand a job to the service; returns when it answered 202, else raises."""
        response = self._post("/jobs", {"job_id": job_id, "document_url": document_url,
                                        "callback_url": callback_url, "mode": mode, "output_spec": output_spec})
        if response.status_code != 202:
            raise ExtractionUnavailable(f"submission answered {response.status_code}")
        self.breaker.succeeded()

    def submit_many(self, submissions: list[dict]) -> list[ExtractionUnavailable | None]:
        """Hand several jobs (each the keywords of `submit`) to the service in one request.

        Returns, in order, None for each job the service took and an ExtractionUnavailable for
        each it refused. Raises ExtractionUnavailable (ServiceDown when nothing was tried) when
        the request as a whole failed: then no job may be taken for accepted (the service may
        have some of them; resubmitting an id it knows is harmless). Raises BatchUnsupported
        when the service has no batch endpoint."""
        if not self.batch_supported:
            raise BatchUnsupported("the extraction service takes jobs one by one")
        if len(submissions) > MAX_BATCH:
            raise ValueError(f"at most {MAX_BATCH} jobs in one batch")
        response = self._post("/jobs/batch", {"jobs": [
            {"job_id": s["job_id"], "document_url": s["document_url"], "callback_url": s["callback_url"],
             "mode": s["mode"], "output_spec": s.get("output_spec")} for s in submissions]})
        if response.status_code in (404, 405):
            self.batch_supported = False
            raise BatchUnsupported(f"POST /jobs/batch answered {response.status_code}")
        if response.status_code != 200:
            raise ExtractionUnavailable(f"batch submission answered {response.status_code}")
        try:
            answers = {a["job_id"]: (int(a["status"]), (a.get("error") or {}).get("code"))
                       for a in response.json()["jobs"]}
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ExtractionUnavailable("batch submission answered something we cannot read") from exc
        self.breaker.succeeded()
        busy = None
        results: list[ExtractionUnavailable | None] = []
        for submission in submissions:
            status, code = answers.get(submission["job_id"], (None, None))
            if status == 202:
                results.append(None)
            elif status == 503 and code == "busy":
                busy = busy or self._busy(response.headers.get("Retry-After"))
                results.append(busy)
            else:
                results.append(ExtractionUnavailable(f"submission answered {status or 'nothing'}"))
        return results

    def _post(self, path: str, body: dict) -> requests.Response:
        """A submission's request, when the service is not known to be down or full and is
        healthy. Raises ServiceDown or ServiceBusy (nothing tried), ServiceBusy for a "busy"
        answer, ExtractionUnavailable when there was no answer; a 5xx counts on the breaker."""
        if self.base_url and self.breaker.is_down():
            raise ServiceDown(f"extraction service known down; next probe in {self.breaker.retry_in():.0f}s")
        if self.busy_for() > 0:
            raise ServiceBusy("extraction service busy; not tried", self.busy_for())
        if not self.healthy():
            raise ExtractionUnavailable("extraction service health check failed")
        try:
            response = self._session.post(f"{self.base_url}{path}", json=body, timeout=self.timeout)
        except requests.RequestException as exc:
            self.breaker.failed()
            raise ExtractionUnavailable(f"submission failed: {type(exc).__name__}") from exc
        if response.status_code == 503 and _error_code(response) == "busy":
            raise self._busy(response.headers.get("Retry-After"))
        if response.status_code >= 500:
            self.breaker.failed()
        return response

    def job(self, job_id: str) -> dict | None:
        """The service's view of a job, or None when it does not know it."""
        if self.breaker.is_down():
            raise ServiceDown("extraction service known down")
        try:
            response = self._session.get(f"{self.base_url}/jobs/{job_id}", timeout=self.timeout)
        except requests.RequestException as exc:
            self.breaker.failed()
            raise ExtractionUnavailable(f"job lookup failed: {type(exc).__name__}") from exc
        if response.status_code >= 500:
            self.breaker.failed()
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise ExtractionUnavailable(f"job lookup answered {response.status_code}")
        return response.json()


def _error_code(response: requests.Response) -> str | None:
    """The `error.code` of an error answer's JSON body, None when it has none."""
    try:
        return (response.json().get("error") or {}).get("code")
    except (ValueError, AttributeError):
        return None
