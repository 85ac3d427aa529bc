"""HTTP client for the extraction service: health, submit, ask about a job.

Every call goes through the app's "extraction" breaker (leadflow.breaker): failures open it,
and while it is open the client answers ServiceDown without calling the service.
"""
import logging

import requests
from flask import current_app

from leadflow import breaker as breakers

log = logging.getLogger(__name__)


class ExtractionUnavailable(Exception):
    """The service is down, refused the job, or answered something we cannot use."""


class ServiceDown(ExtractionUnavailable):
    """The breaker knows the service is down: nothing was tried, so no attempt is spent."""


class ExtractionClient:
    def __init__(self, base_url: str | None, api_key: str, timeout: float = 10.0,
                 breaker: breakers.Breaker | None = None):
        self.base_url = (base_url or "").rstrip("/")
        self.timeout = timeout
        self._breaker = breaker
        self._session = requests.Session()
        self._session.headers["Authorization"] = f"Bearer {api_key}"

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

    def submit(self, *, job_id: str, document_url: str, callback_url: str, mode: str,
               output_spec: dict | None = None) -> None:
        """Hand a job to the service; returns when it answered 202, else raises."""
        if self.base_url and self.breaker.is_down():
            raise ServiceDown(f"extraction service known down; next probe in {self.breaker.retry_in():.0f}s")
        if not self.healthy():
            raise ExtractionUnavailable("extraction service health check failed")
        body = {"job_id": job_id, "document_url": document_url, "callback_url": callback_url,
                "mode": mode, "output_spec": output_spec}
        try:
            response = self._session.post(f"{self.base_url}/jobs", json=body, timeout=self.timeout)
        except requests.RequestException as exc:
            self.breaker.failed()
            raise ExtractionUnavailable(f"submission failed: {type(exc).__name__}") from exc
        if response.status_code >= 500:
            self.breaker.failed()
        if response.status_code != 202:
            raise ExtractionUnavailable(f"submission answered {response.status_code}")
        self.breaker.succeeded()

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
