"""The app as it runs: PostgreSQL, its HTTP server on a real port, the extractor over HTTP,
an in-process Dramatiq worker. One per test session; every test starts from empty tables."""
import os
import socket
import threading
import time
from dataclasses import dataclass
from datetime import datetime
from types import SimpleNamespace

import pytest
import requests
import simple_websocket

# The test process uses the StubBroker and in-memory bus; distributed mode is tested in
# separate processes (tests/e2e). Set before leadflow or tasks is imported.
os.environ.pop("REDIS_URL", None)
os.environ.pop("EXTRACTION_URL", None)


class WebSocketClient(simple_websocket.Client):
    """simple-websocket's client, reading what came with the handshake's answer.

    Its handshake takes only the first event from what one recv() returned; frames that came in
    the same read (the server's snapshot, or its close with a reason) stay buffered until more
    bytes arrive, and when none do (the server closed) they are lost and the close reads as
    1005. A loaded machine coalesces the 101 and the next frame often enough to matter."""

    def _thread(self):
        if self.connected:
            self.connected = self._handle_events()
        super()._thread()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float = 15.0, interval: float = 0.05, message: str = "condition"):
    """Poll a condition until it holds; fail with `message` after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {message}")
        time.sleep(interval)


# The synthetic samples were made "as of" 2026-11-15 (see their .expected.json): date rules
# (a payslip at most 3 months old...) are judged on that day, not on whatever day CI runs.
TODAY = datetime(2026, 11, 15, 12, 0, 0)


@dataclass
class Live:
    app: object
    url: str
    started: dict

    def drain(self, timeout: float = 20.0) -> None:
        """Wait until the extractor has sent every callback, every queue is empty and the
        worker idle: nothing of this test can land in the next one."""
        from leadflow.web.callbacks import NUDGES
        broker, worker = self.app.extensions["leadflow"].jobs.broker, self.started["worker"]
        extractor = self.started["extractor"].service
        deadline = time.monotonic() + timeout
        while True:
            if not extractor.wait_idle(max(deadline - time.monotonic(), 0.1)):
                raise AssertionError("the extractor did not finish its jobs and callbacks")
            # Nudges about deliveries that wait a few milliseconds for company are messages too.
            if not self.app.extensions[NUDGES].join(timeout):
                raise AssertionError("the worker's nudges were not sent")
            for queue in list(broker.queues):
                broker.join(queue, fail_fast=False, timeout=int(timeout * 1000))
            worker.join()
            if extractor.wait_idle(0) and all(q.unfinished_tasks == 0 for q in broker.queues.values()):
                # ... and every status event is pushed: a fan-out still reading would hold the
                # next test's TRUNCATE (a deadlock, at worst).
                ports = self.app.extensions["leadflow"]
                if not (ports.bus.join(timeout) and ports.hub.wait_idle(timeout)):
                    raise AssertionError("the live fan-out did not finish")
                return
            if time.monotonic() > deadline:
                raise AssertionError("queues did not drain")


@pytest.fixture(scope="session")
def live(pg_url, tmp_path_factory):
    instance = tmp_path_factory.mktemp("instance")
    os.environ["LEADFLOW_INSTANCE_DIR"] = str(instance)
    from flask_migrate import upgrade
    from werkzeug.serving import make_server

    from leadflow.factory import create_app
    from tasks.embedded import start_embedded, stop_embedded

    port = free_port()
    app = create_app({
        "SQLALCHEMY_DATABASE_URI": pg_url,
        "LOCAL_STORAGE_DIR": str(instance / "storage"),
        "PUBLIC_BASE_URL": f"http://127.0.0.1:{port}",
        "EXTRACTION_URL": None,
        "EMBEDDED_WORKER": True,
        "EMBEDDED_SCHEDULER": False,
        "DOCUMENT_PROCESSING_CONCURRENCY": 4,
        "MAX_UPLOAD_BYTES": 2 * 1024 * 1024,
        "MAX_CONTENT_LENGTH": 3 * 1024 * 1024,
    })
    with app.app_context():
        upgrade()
    started = start_embedded(app)
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield Live(app=app, url=f"http://127.0.0.1:{port}", started=started)
    finally:
        server.shutdown()
        stop_embedded(started)
        from leadflow.extensions import db
        with app.app_context():
            db.engine.dispose()


@pytest.fixture
def app(live):
    """The live app with empty tables and the clock on TODAY; the queues are drained after the test."""
    from leadflow import clock
    from leadflow.extensions import db
    clock.travel_to(TODAY)
    with live.app.app_context():
        tables = ", ".join(t.name for t in db.metadata.sorted_tables)
        db.session.execute(db.text(f"TRUNCATE {tables} RESTART IDENTITY CASCADE"))
        db.session.commit()
        db.session.remove()
    yield live.app
    live.drain()
    clock.reset()


@pytest.fixture
def ctx(app):
    with app.app_context():
        yield
        from leadflow.extensions import db
        db.session.remove()


class Api:
    """A JSON API client for one user, over real HTTP with a bearer token."""

    def __init__(self, base_url: str, token: str):
        self.base_url = base_url
        self.session = requests.Session()
        self.session.headers["Authorization"] = f"Bearer {token}"

    def get(self, path, **kw):
        return self.session.get(self.base_url + path, timeout=10, **kw)

    def post(self, path, **kw):
        return self.session.post(self.base_url + path, timeout=30, **kw)

    def upload(self, path_or_bytes, filename=None, **form):
        data = path_or_bytes if isinstance(path_or_bytes, bytes) else open(path_or_bytes, "rb").read()
        name = filename or (os.path.basename(path_or_bytes) if not isinstance(path_or_bytes, bytes) else "file.pdf")
        return self.post("/api/documents/upload", files={"file": (name, data)}, data=form)

    def document(self, document_id):
        return self.get(f"/api/documents/{document_id}").json()

    def wait_for_status(self, document_id, statuses, timeout=20.0):
        statuses = {statuses} if isinstance(statuses, str) else set(statuses)
        return wait_until(lambda: (d := self.document(document_id))["status"] in statuses and d,
                          timeout=timeout, message=f"document {document_id} to reach {statuses}")


@pytest.fixture
def world(app, live):
    """Two brokerages, each with an advisor, an admin and a client in a workspace; a platform admin.

    Each person comes with `.user_id`, `.email`, `.password` and `.api` (bearer-token client)."""
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import Brokerage, User, Workspace, WorkspaceMember
    from leadflow.web.auth import create_token

    password = "correct horse battery"
    people = {}
    with app.app_context():
        def person(key, email, name, role, brokerage_id):
            user = User(email=email, name=name, role=role, brokerage_id=brokerage_id)
            user.set_password(password)
            db.session.add(user)
            db.session.flush()
            people[key] = SimpleNamespace(user_id=user.id, email=email, password=password, name=name,
                                          api=None, user=user)
            return user

        ns = SimpleNamespace()
        # Client a is the persona of the A1-01 samples (../shared/samples): the documents they upload
        # name them, as a client's own documents do; a case's applicants must be named on its documents.
        clients = {"a": "Rahul Mustermann", "b": "Amira Vorlage"}
        for tag, name in (("a", "Alpha Hypotheken"), ("b", "Beta Baufinanz")):
            brokerage = Brokerage(name=name)
            db.session.add(brokerage)
            db.session.flush()
            billing.grant(db.session, brokerage.id, 1000)
            person(f"advisor_{tag}", f"advisor@{tag}.example", f"Advisor {tag.upper()}", "advisor", brokerage.id)
            person(f"admin_{tag}", f"admin@{tag}.example", f"Admin {tag.upper()}", "brokerage_admin", brokerage.id)
            client = person(f"client_{tag}", f"client@{tag}.example", clients[tag], "client", brokerage.id)
            workspace = Workspace(brokerage_id=brokerage.id, name=f"Case of client {tag}")
            db.session.add(workspace)
            db.session.flush()
            db.session.add(WorkspaceMember(workspace_id=workspace.id, user_id=client.id))
            setattr(ns, f"brokerage_{tag}", brokerage.id)
            setattr(ns, f"workspace_{tag}", workspace.id)
        person("platform_admin", "review@platform.example", "Pat Platform", "platform_admin", None)
        db.session.commit()
        for key, p in people.items():
            p.api = Api(live.url, create_token(db.session.get(User, p.user_id)))
            p.user = None
            setattr(ns, key, p)
        db.session.remove()
    ns.url = live.url
    return ns
