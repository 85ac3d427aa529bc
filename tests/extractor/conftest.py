"""Fixtures for the extractor's tests: samples on disk, a running extractor, and a receiver
that serves documents and records signed callbacks, all over real HTTP on loopback."""
import base64
import json
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from werkzeug.serving import make_server
from werkzeug.wrappers import Request, Response

from leadflow.extraction.webhooks import WebhookVerificationError, verify
from leadflow.extractor.service import start_in_thread
from tests.corpus import SAMPLES

API_KEY = "test-extractor-key"
SECRET = "whsec_" + base64.b64encode(b"leadflow-extractor-test-secret!!").decode()
WAIT_SECONDS = 60  # OCR of a page takes seconds; a CI machine may be slow and busy

requires_tesseract = pytest.mark.skipif(
    not shutil.which("tesseract") and not os.environ.get("CI"),
    reason="tesseract is not installed on this machine (CI must have it)")


def sample(relative: str) -> Path:
    path = SAMPLES / relative
    if not path.exists():  # the samples are part of the repository: a missing one is a fault
        pytest.fail(f"sample {relative} not found under {SAMPLES}")
    return path


class Receiver:
    """Serves documents at /docs/<name> and takes callbacks at /callbacks, checking signatures."""

    def __init__(self):
        self.documents: dict[str, bytes] = {}
        self.fetches: dict[str, int] = {}
        self.callbacks: list[dict] = []  # {"webhook_id", "body"} for every verified delivery
        self.rejected: list[str] = []  # why a delivery failed verification
        self.fail_next: int = 0  # answer this many callbacks with 500 before accepting
        self._changed = threading.Condition()
        self._server = make_server("127.0.0.1", 0, self._app, threaded=True)
        self.url = f"http://127.0.0.1:{self._server.server_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.1},
                                        daemon=True)
        self._thread.start()

    def add(self, name: str, data: bytes) -> str:
        self.documents[name] = data
        return f"{self.url}/docs/{name}"

    @property
    def callback_url(self) -> str:
        return f"{self.url}/callbacks"

    def wait_for(self, predicate, timeout: float = WAIT_SECONDS):
        """Block until predicate(callbacks) is truthy; return its value or fail the test."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while True:
                value = predicate(self.callbacks)
                if value:
                    return value
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError(f"condition not met in {timeout}s; callbacks: "
                                         f"{[c['body'].get('job_id') for c in self.callbacks]}, "
                                         f"rejected: {self.rejected}")
                self._changed.wait(remaining)

    def callback_for(self, job_id: str, timeout: float = WAIT_SECONDS) -> dict:
        found = self.wait_for(lambda cbs: [c for c in cbs if c["body"].get("job_id") == job_id], timeout)
        return found[0]["body"]

    def callbacks_for(self, job_id: str) -> list[dict]:
        with self._changed:
            return [c for c in self.callbacks if c["body"].get("job_id") == job_id]

    def stop(self):
        self._server.shutdown()
        self._server.server_close()

    @Request.application
    def _app(self, request: Request) -> Response:
        if request.path.startswith("/docs/"):
            name = request.path[len("/docs/"):]
            with self._changed:
                self.fetches[name] = self.fetches.get(name, 0) + 1
            if name not in self.documents:
                return Response("missing", status=404)
            return Response(self.documents[name], content_type="application/octet-stream")
        if request.path == "/callbacks" and request.method == "POST":
            raw = request.get_data()
            try:
                webhook_id = verify(SECRET, request.headers, raw)
            except WebhookVerificationError as exc:
                with self._changed:
                    self.rejected.append(str(exc))
                    self._changed.notify_all()
                return Response("bad signature", status=401)
            with self._changed:
                if self.fail_next > 0:
                    self.fail_next -= 1
                    self.rejected.append(f"failed on purpose: {webhook_id}")
                    self._changed.notify_all()
                    return Response("try again", status=500)
                self.callbacks.append({"webhook_id": webhook_id, "body": json.loads(raw)})
                self._changed.notify_all()
            return Response("", status=204)
        return Response("not found", status=404)


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.stop()


@pytest.fixture
def extractor():
    running = start_in_thread(API_KEY, SECRET)
    yield running
    running.stop()


@pytest.fixture
def serial_extractor():
    """One worker: jobs run in submission order, which some tests reason about."""
    running = start_in_thread(API_KEY, SECRET, workers=1)
    yield running
    running.stop()
