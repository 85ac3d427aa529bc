"""The distributed mode, as separate processes: gunicorn web, `dramatiq tasks` worker, the
extractor (`python -m leadflow.extractor`), on PostgreSQL, Redis and S3 (moto's server)."""
import base64
import os
import re
import secrets
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
import requests
from simple_websocket import Client as WebSocketClient

from tests.conftest import SAMPLES
from tests.plugins.live import Api, free_port, wait_until
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
        log = open(self.tmp / f"{name}.log", "wb")
        self.processes[name] = subprocess.Popen(args, cwd=ROOT, env={**self.env, **(env or {})},
                                                stdout=log, stderr=subprocess.STDOUT)

    def flask(self, *args, env=None) -> str:
        result = subprocess.run([str(BIN / "flask"), "--app", "app", *args], cwd=ROOT,
                                env={**self.env, **(env or {})}, capture_output=True, text=True, timeout=60)
        assert result.returncode == 0, result.stdout + result.stderr
        return result.stdout

    def logs(self) -> str:
        return "\n".join(f"--- {p.name}\n{p.read_text()[-3000:]}" for p in sorted(self.tmp.glob("*.log")))

    def stop(self):
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()


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
        }
        env.pop("CI", None)
        s = Stack(env, tmp)
        s.flask("db", "upgrade")
        s.flask("leadflow", "demo")
        s.start("extractor", [sys.executable, "-m", "leadflow.extractor"])
        s.start("web", [str(BIN / "gunicorn"), "-w", "2", "-k", "gthread", "--threads", "8",
                        "-b", f"127.0.0.1:{web_port}", "app:app"])
        s.start("worker", [str(BIN / "dramatiq"), "tasks", "--processes", "1", "--threads", "2"])
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
    client = _api(stack, "priya@client.example")
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

    history = client.get(f"/api/documents/{document_id}/history").json()["history"]
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
    stack.start("web-dead-redis", [str(BIN / "gunicorn"), "-w", "1", "-k", "gthread", "--threads", "4",
                                   "-b", f"127.0.0.1:{port}", "app:app"], env=dead_redis)
    url = f"http://127.0.0.1:{port}"
    wait_until(lambda: _answers(url + "/healthz"), timeout=30, message="the web process without Redis")
    token = stack.flask("leadflow", "create-token", "lucas@client.example").strip()
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
