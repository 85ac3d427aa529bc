"""Live pages on the production web server: gunicorn with `gunicorn.conf.py` (gevent workers)
on PostgreSQL and Redis. Open sockets must not starve ordinary requests, and a socket is
only for our own pages, within limits."""
import base64
import contextlib
import os
import re
import secrets
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
import requests
from simple_websocket import ConnectionClosed
from simple_websocket.errors import ConnectionError as HandshakeRefused

from tests.corpus import SAMPLES
from tests.plugins.live import Api, WebSocketClient, free_port, wait_until
from tests.plugins.postgres import fresh_database

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
PASSWORD = "ws-" + secrets.token_urlsafe(8)
CAP = 30  # sockets per user in this stack
OLD_THREAD_COUNT = 4  # `gunicorn -k gthread --threads 4` stalled with this many open pages


@pytest.fixture(scope="module")
def web(redis_url, tmp_path_factory):
    with _serving(redis_url, tmp_path_factory) as web:
        yield web


@contextlib.contextmanager
def _serving(redis_url, tmp_path_factory, **settings):
    tmp = tmp_path_factory.mktemp("sockets")
    port = free_port()
    with fresh_database("sockets") as database_url:
        env = {
            **os.environ,
            "DATABASE_URL": database_url,
            "REDIS_URL": redis_url,
            "DRAMATIQ_NAMESPACE": f"leadflow-ws-{uuid.uuid4().hex[:8]}",
            "REALTIME_CHANNEL": f"leadflow-ws:{uuid.uuid4().hex[:8]}",
            "RATELIMIT_KEY_PREFIX": f"leadflow-ws:{uuid.uuid4().hex[:8]}",
            "EXTRACTION_URL": "http://127.0.0.1:9",  # nothing is extracted here
            "EXTRACTION_API_KEY": secrets.token_urlsafe(16),
            "EXTRACTION_WEBHOOK_SECRET": "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode(),
            "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
            "SECRET_KEY": secrets.token_urlsafe(32),
            "LEADFLOW_INSTANCE_DIR": str(tmp / "instance"),
            "LOCAL_STORAGE_DIR": str(tmp / "storage"),
            "LEADFLOW_DEMO_PASSWORD": PASSWORD,
            "WEB_BIND": f"127.0.0.1:{port}",
            "WEB_WORKERS": "1",
            "WS_MAX_SOCKETS_PER_USER": str(CAP),
            **settings,
        }
        env.pop("CI", None)
        for command in (["db", "upgrade"], ["leadflow", "demo"]):
            done = subprocess.run([str(BIN / "flask"), "--app", "app", *command], cwd=ROOT, env=env,
                                  capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, done.stdout + done.stderr
        log = open(tmp / "web.log", "ab")
        server = subprocess.Popen([str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "app:app"], cwd=ROOT, env=env,
                                  stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        try:
            wait_until(lambda: _answers(url + "/healthz"), timeout=60, message="gunicorn with gevent workers")
            yield {"url": url, "env": env, "log": tmp / "web.log", "server": server}
        except BaseException:
            print((tmp / "web.log").read_text()[-5000:])
            raise
        finally:
            server.terminate()
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def test_many_open_live_pages_leave_ordinary_requests_answered_at_once(web):
    advisor = _cookie(web, "advisor@rhein.example")
    admin = _cookie(web, "admin@rhein.example")
    sockets = [_open(web, advisor) for _ in range(CAP)] + [_open(web, admin) for _ in range(CAP)]
    try:
        assert len(sockets) > 10 * OLD_THREAD_COUNT
        # Every socket is accepted and registered before we measure.
        for ws in sockets:
            assert ws.connected
        slowest = max(_timed_health(web) for _ in range(10))
        assert slowest < 1.0, f"/healthz took {slowest:.2f} s with {len(sockets)} open pages"

        # A status change still reaches every open page of the brokerage's staff.
        token = _token(web, "rahul@client.example")
        created = Api(web["url"], token).upload(SAMPLES / "payslips" / "synthetic_payslip_A1_01.pdf", kind="payslip")
        assert created.status_code == 201, created.text
        row = f'id="document-{created.json()["id"]}"'
        for ws in sockets:
            received = []
            wait_until(lambda: _received(ws, received, row), timeout=20, message="the new row on every open page")
    finally:
        _close_all(sockets)


def test_a_message_past_the_size_limit_closes_the_socket(web):
    ws = _open(web, _cookie(web, "advisor@isar.example"))
    ws.send("x" * 64 * 1024)
    with pytest.raises(ConnectionClosed):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            ws.receive(timeout=0.5)
    assert ws.close_reason == 1009


def test_a_page_of_another_site_cannot_open_a_socket(web):
    cookie = _cookie(web, "admin@isar.example")
    with pytest.raises(HandshakeRefused, match="403"):
        _open(web, cookie, origin="https://evil.example")
    ours = _open(web, cookie, origin=web["url"])
    assert ours.connected
    ours.close()


def test_a_socket_without_a_signed_in_user_is_closed_at_once_and_gets_nothing(web):
    ws = WebSocketClient.connect(web["url"].replace("http", "ws") + "/ws")
    with pytest.raises(ConnectionClosed):
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            assert ws.receive(timeout=0.5) is None
    assert ws.close_reason == 1008


def test_past_the_per_user_cap_an_earlier_page_is_closed_and_the_newest_kept(web):
    cookie = _cookie(web, "james@client.example")
    sockets = [_open(web, cookie) for _ in range(CAP)]
    try:
        newest = _open(web, cookie)
        wait_until(lambda: sum(_closed(ws) for ws in sockets) >= 1, timeout=10, message="an earlier page closed")
        closed = [ws for ws in sockets if not ws.connected]
        assert len(closed) == 1 and closed[0].close_reason == 1008
        assert newest.connected
        newest.close()
    finally:
        _close_all(sockets)


def _close_all(sockets) -> None:
    for ws in sockets:
        try:
            ws.close()
        except ConnectionClosed:
            pass  # the server closed it first


def _closed(ws) -> bool:
    try:
        ws.receive(timeout=0)
    except ConnectionClosed:
        return True
    return not ws.connected


def _answers(url) -> bool:
    try:
        return requests.get(url, timeout=1).status_code == 200
    except requests.RequestException:
        return False


def _timed_health(web) -> float:
    started = time.perf_counter()
    assert requests.get(web["url"] + "/healthz", timeout=5).status_code == 200
    return time.perf_counter() - started


def _cookie(web, email) -> str:
    browser = requests.Session()
    page = browser.get(web["url"] + "/login", timeout=5).text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    answer = browser.post(web["url"] + "/login", data={"email": email, "password": PASSWORD, "csrf_token": token},
                          timeout=5, allow_redirects=False)
    assert answer.status_code == 302, answer.text
    return "; ".join(f"{c.name}={c.value}" for c in browser.cookies)


def _token(web, email) -> str:
    done = subprocess.run([str(BIN / "flask"), "--app", "app", "leadflow", "create-token", email], cwd=ROOT,
                          env=web["env"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def _open(web, cookie, origin=None) -> WebSocketClient:
    headers = {"Cookie": cookie, **({"Origin": origin} if origin else {})}
    return WebSocketClient.connect(web["url"].replace("http", "ws") + "/ws", headers=headers)


def _received(ws, received, needle) -> bool:
    message = ws.receive(timeout=0.2)
    if message:
        received.append(message)
    return any(needle in m for m in received)


def test_a_web_server_told_to_stop_closes_its_live_pages_at_once_and_does_not_wait_out_its_grace(
        redis_url, tmp_path_factory):
    """A deploy: SIGTERM. Open pages are told the service restarts (1012, which the page's socket
    reconnects on) and the server exits once its ordinary requests are done, not after its
    graceful timeout, which open pages would otherwise hold it for in full."""
    grace = 120
    with _serving(redis_url, tmp_path_factory, WEB_GRACEFUL_TIMEOUT_SECONDS=str(grace)) as web:
        cookie = _cookie(web, "advisor@rhein.example")
        sockets = [_open(web, cookie) for _ in range(3)]
        web["server"].terminate()
        for ws in sockets:
            wait_until(lambda: _closed(ws), timeout=grace / 4, message="the page told to go")
        assert [ws.close_reason for ws in sockets] == [1012] * 3
        assert web["server"].wait(timeout=grace / 4) == 0
