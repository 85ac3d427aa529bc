"""HTTP client for the extraction service: health, submit, ask about a job."""
import logging

import requests

log = logging.getLogger(__name__)


class ExtractionUnavailable(Exception):
    """The service is down, refused the job, or answered something we cannot use."""


class ExtractionClient:
    def __init__(self, base_url: str | None, api_key: str, timeout: float = 10.0):
        self.base_url = (base_url or "").rstrip("/")
        self.timeout = timeout
        self._session = requests.Session()
        self._session.headers["Authorization"] = f"Bearer {api_key}"

    def healthy(self) -> bool:
        if not self.base_url:
            return False
        try:
            return self._session.get(f"{self.base_url}/health", timeout=self.timeout).status_code == 200
        except requests.RequestException:
            return False

    def submit(self, *, job_id: str, document_url: str, callback_url: str, mode: str,
               output_spec: dict | None = None) -> None:
        """Hand a job to the service; returns when it answered 202, else raises."""
        if not self.healthy():
            raise ExtractionUnavailable("extraction service health check failed")
        body = {"job_id": job_id, "document_url": document_url, "callback_url": callback_url,
                "mode": mode, "output_spec": output_spec}
        try:
            response = self._session.post(f"{self.base_url}/jobs", json=body, timeout=self.timeout)
        except requests.RequestException as exc:
            raise ExtractionUnavailable(f"submission failed: {type(exc).__name__}") from exc
        if response.status_code != 202:
            raise ExtractionUnavailable(f"submission answered {response.status_code}")

    def job(self, job_id: str) -> dict | None:
        """The service's view of a job, or None when it does not know it."""
        try:
            response = self._session.get(f"{self.base_url}/jobs/{job_id}", timeout=self.timeout)
        except requests.RequestException as exc:
            raise ExtractionUnavailable(f"job lookup failed: {type(exc).__name__}") from exc
        if response.status_code == 404:
            return None
        if response.status_code != 200:
            raise ExtractionUnavailable(f"job lookup answered {response.status_code}")
        return response.json()
