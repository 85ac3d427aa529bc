"""The distributed mode, as separate processes: gunicorn web, `dramatiq tasks:worker` worker, the
extractor (`python -m leadflow.extractor`), on PostgreSQL, Redis and S3 (moto's server)."""
import base64
import os
import re
import secrets
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
import requests

from bench._stack import clock_offset_to
from tests.corpus import SAMPLES
from tests.plugins.live import TODAY, Api, WebSocketClient, free_port, wait_until
from tests.plugins.postgres import fresh_database

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PASSWORD = "e2e-" + secrets.token_urlsafe(8)


class Stack:
    def __init__(self, env, tmp):
        self.env = env
        self.tmp = tmp
        self.processes = {}

    def start(self, name, args, env=None):
        log = open(self.tmp / f"{name}.log", "ab")
        # Its own process group: `dramatiq` forks its workers, and a signal must reach them all.
        self.processes[name] = subprocess.Popen(args, cwd=ROOT, env={**self.env, **(env or {})},
                                                stdout=log, stderr=subprocess.STDOUT, start_new_session=True)

    def signal(self, name, signum):
        os.killpg(self.processes[name].pid, signum)

    def start_worker(self, name="worker", env=None):
        self.start(name, [str(BIN / "dramatiq"), "tasks:worker", "--processes", "1", "--threads", "2"], env=env)

    def flask(self, *args, env=None) -> str:
        result = subprocess.run([str(BIN / "flask"), "--app", "app", *args], cwd=ROOT,
                                env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(self.tmp.glob("*.log")))

    def stop(self, name=None):
        names = [name] if name else list(self.processes)
        for n in names:
            if self.processes[n].poll() is None:
                # To the leader only: `dramatiq` passes it on, and a second SIGTERM means "kill now".
                self.processes[n].terminate()
        for n in names:
            try:
                self.processes[n].wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.signal(n, signal.SIGKILL)
                self.processes[n].wait()


@pytest.fixture(scope="module")
def stack(redis_url, s3_endpoint, tmp_path_factory):
    tmp = tmp_path_factory.mktemp("stack")
    web_port, extractor_port = free_port(), free_port()
    with fresh_database("e2e") as database_url:
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "DRAMATIQ_NAMESPACE": f"leadflow-e2e-{uuid.uuid4().hex[:8]}",
            "REALTIME_CHANNEL": f"leadflow-e2e:{uuid.uuid4().hex[:8]}",
            "S3_BUCKET": f"leadflow-e2e-{uuid.uuid4().hex[:8]}",
            "S3_ENDPOINT_URL": s3_endpoint,
            "S3_CREATE_BUCKET": "1",
            "AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing", "AWS_DEFAULT_REGION": "eu-central-1",
            "EXTRACTION_URL": f"http://127.0.0.1:{extractor_port}",
            "EXTRACTOR_PORT": str(extractor_port),
            "EXTRACTION_API_KEY": secrets.token_urlsafe(16),
            "EXTRACTION_WEBHOOK_SECRET": "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode(),
            "PUBLIC_BASE_URL": f"http://127.0.0.1:{web_port}",
            "SECRET_KEY": secrets.token_urlsafe(32),
            "LEADFLOW_INSTANCE_DIR": str(tmp / "instance"),
            "LEADFLOW_DEMO_PASSWORD": PASSWORD,
            # The samples' documents are current on TODAY; later, a bank statement is too old.
            "LEADFLOW_CLOCK_OFFSET_SECONDS": str(clock_offset_to(TODAY)),
        }
        env.pop("CI", None)
        s = Stack(env, tmp)
        s.flask("db", "upgrade")
        s.flask("leadflow", "demo")
        s.start("extractor", [sys.executable, "-m", "leadflow.extractor"])
        s.start("web", [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "app:app"],
                env={"WEB_BIND": f"127.0.0.1:{web_port}", "WEB_WORKERS": "2"})
        s.start_worker()
        s.url = f"http://127.0.0.1:{web_port}"
        try:
            wait_until(lambda: _answers(s.url + "/healthz"), timeout=30, message="the web process")
            wait_until(lambda: _answers(env["EXTRACTION_URL"] + "/health"), timeout=30, message="the extractor")
            yield s
        except BaseException:
            print(s.logs())
            raise
        finally:
            s.stop()


def _answers(url) -> bool:
    try:
        return requests.get(url, timeout=1).status_code == 200
    except requests.RequestException:
        return False


def _api(stack, email) -> Api:
    return Api(stack.url, stack.flask("leadflow", "create-token", email).strip())


def _signed_in_socket(stack, email) -> WebSocketClient:
    browser = requests.Session()
    page = browser.get(stack.url + "/login", timeout=5).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    response = browser.post(stack.url + "/login", data={"email": email, "password": PASSWORD, "csrf_token": token},
                            timeout=5, allow_redirects=False)
    assert response.status_code == 302, response.text
    cookie = "; ".join(f"{c.name}={c.value}" for c in browser.cookies)
    return WebSocketClient.connect(stack.url.replace("http", "ws") + "/ws", headers={"Cookie": cookie})


def test_a_real_pdf_goes_from_upload_to_verified_across_processes_and_the_advisor_hears_it_live(stack):
    client = _api(stack, "james@client.example")
    socket = _signed_in_socket(stack, "advisor@rhein.example")
    try:
        created = client.upload(SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_02.pdf",
                                kind="bank_statement")
        assert created.status_code == 201, created.text
        document_id = created.json()["id"]
        done = client.wait_for_status(document_id, {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}, timeout=60)
        assert done["status"] == "VERIFIED", (done, stack.logs())

        # The worker process published the change to Redis; the web process pushed the
        # advisor's row, rendered for the advisor, over the socket.
        pushed = []
        wait_until(lambda: _received(socket, pushed, f'id="document-{document_id}" data-status="VERIFIED"'),
                   timeout=20, message="the VERIFIED row on the advisor's socket")
    finally:
        socket.close()

    # Staff read the whole history (a client sees its status changes only).
    history = _api(stack, "advisor@rhein.example").get(f"/api/documents/{document_id}/history").json()["history"]
    assert [(e["from_status"], e["to_status"]) for e in history if e["kind"] == "audit"] == [
        (None, "PENDING"), ("PENDING", "PROCESSING"), ("PROCESSING", "EXTRACTING"), ("EXTRACTING", "VERIFIED")]
    assert [e["event_type"] for e in history if e["kind"] == "callback"] == ["job.completed"]
    # The content really went to S3 and comes back through the API.
    assert client.get(f"/api/documents/{document_id}/content").json()["content"]["text_chars"] > 0
    # Another brokerage's advisor is told nothing exists.
    assert _api(stack, "advisor@isar.example").get(f"/api/documents/{document_id}").status_code == 404


def _received(socket, pushed, needle) -> bool:
    message = socket.receive(timeout=0.2)
    if message:
        pushed.append(message)
    return any(needle in m for m in pushed)


def test_with_redis_down_an_upload_still_answers_201_and_the_pending_sweep_finishes_it(stack, tmp_path):
    port = free_port()
    dead_redis = {"REDIS_URL": "redis://127.0.0.1:1/0", "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}"}
    stack.start("web-dead-redis", [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "app:app"],
                env={**dead_redis, "WEB_BIND": f"127.0.0.1:{port}", "WEB_WORKERS": "1"})
    url = f"http://127.0.0.1:{port}"
    wait_until(lambda: _answers(url + "/healthz"), timeout=30, message="the web process without Redis")
    token = stack.flask("leadflow", "create-token", "amira@client.example").strip()
    created = Api(url, token).upload(SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_03.pdf",
                                     kind="bank_statement")
    assert created.status_code == 201, created.text
    document_id = created.json()["id"]
    client = Api(stack.url, token)
    assert client.document(document_id)["status"] == "PENDING"

    out = stack.flask("leadflow", "sweep", "pending", env={"PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS": "0"})
    assert "pending: 1" in out
    assert client.wait_for_status(document_id, {"VERIFIED", "REJECTED", "ACTION_REQUIRED"},
                                  timeout=60)["status"] == "VERIFIED"


class Blackhole:
    """A TCP port that accepts connections and never answers: a hung extraction service."""

    def __init__(self):
        self.server = socket.socket()
        self.server.bind(("127.0.0.1", 0))
        self.server.listen(16)
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        self.connections = []
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while True:
            try:
                self.connections.append(self.server.accept()[0])
            except OSError:
                return

    def close(self):
        for c in self.connections:
            c.close()
        self.server.close()


def _status(stack, token, document_id):
    return Api(stack.url, token).document(document_id)["status"]


def test_a_worker_killed_mid_job_leaves_a_document_the_stalled_sweep_finishes(stack):
    blackhole = Blackhole()
    stack.stop("worker")
    stack.start_worker("worker-hung", env={"EXTRACTION_URL": blackhole.url, "EXTRACTION_TIMEOUT_SECONDS": "300"})
    token = stack.flask("leadflow", "create-token", "rahul@client.example").strip()
    try:
        created = Api(stack.url, token).upload(SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf",
                                               kind="bank_statement")
        document_id = created.json()["id"]
        wait_until(lambda: _status(stack, token, document_id) == "PROCESSING" and blackhole.connections,
                   timeout=30, message="the worker to hang in its call to the extraction service")
        stack.signal("worker-hung", signal.SIGKILL)
        stack.processes["worker-hung"].wait(timeout=10)
    finally:
        blackhole.close()
        stack.start_worker()
    assert _status(stack, token, document_id) == "PROCESSING", "nothing finished it behind our back"

    out = stack.flask("leadflow", "sweep", "stalled", env={"STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS": "0"})
    assert "stalled: 1" in out
    assert Api(stack.url, token).wait_for_status(document_id, {"VERIFIED", "REJECTED", "ACTION_REQUIRED"},
                                                 timeout=60)["status"] == "VERIFIED"
    history = _api(stack, "advisor@rhein.example").get(f"/api/documents/{document_id}/history").json()["history"]
    assert "stalled_reset" in [e.get("action") for e in history]


def test_a_worker_stopped_with_sigterm_finishes_its_message_before_it_exits(stack):
    slow = SlowProxy(stack.env["EXTRACTION_URL"], delay=3.0)
    stack.stop("worker")
    stack.start_worker("worker-slow", env={"EXTRACTION_URL": slow.url})
    token = stack.flask("leadflow", "create-token", "james@client.example").strip()
    try:
        created = Api(stack.url, token).upload(SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_02.pdf",
                                               kind="bank_statement")
        document_id = created.json()["id"]
        wait_until(lambda: slow.requests, timeout=30, message="the worker to call the extraction service")
        stack.processes["worker-slow"].terminate()
        assert stack.processes["worker-slow"].wait(timeout=30) == 0
        # It finished the submission it had started: the document is not left in PROCESSING.
        assert _status(stack, token, document_id) in {"EXTRACTING", "VERIFIED"}
    finally:
        slow.close()
        stack.start_worker()
    assert Api(stack.url, token).wait_for_status(document_id, "VERIFIED", timeout=60)


class SlowProxy:
    """Forwards to the extraction service after a delay: a slow network in front of it."""

    def __init__(self, target, delay):
        from werkzeug.serving import make_server
        from werkzeug.wrappers import Request, Response
        self.requests = []

        @Request.application
        def forward(request):
            self.requests.append(request.path)
            time.sleep(delay)
            upstream = requests.request(request.method, target + request.full_path.rstrip("?"),
                                        data=request.get_data(), headers={k: v for k, v in request.headers
                                                                          if k.lower() != "host"}, timeout=30)
            return Response(upstream.content, upstream.status_code,
                            content_type=upstream.headers.get("Content-Type"))

        self.server = make_server("127.0.0.1", 0, forward, threaded=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
