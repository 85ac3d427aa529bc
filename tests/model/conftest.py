"""The model test's app: the real factory on a fresh, migrated PostgreSQL database, with the
extraction service, the broker and the realtime bus replaced by the doubles in harness.py.

Built once per module; the state machine resets the tables it writes before every example.
"""
import base64

import pytest

from tests.model import harness


@pytest.fixture(scope="module", autouse=True)
def model_world(tmp_path_factory):
    from tests.plugins.postgres import fresh_database

    with fresh_database("model") as url, pytest.MonkeyPatch.context() as mp:
        # Fixed secrets: nothing is written under instance/, and every run signs the same way.
        mp.setenv("SECRET_KEY", "model-test-secret-key")
        mp.setenv("EXTRACTION_API_KEY", "model-test-api-key")
        mp.setenv("EXTRACTION_WEBHOOK_SECRET", "whsec_" + base64.b64encode(b"model-test-webhook-secret").decode())
        world = _build(url, tmp_path_factory.mktemp("model"), mp)
        harness.WORLD = world
        try:
            yield world
        finally:
            harness.WORLD = None
            from leadflow import clock
            from leadflow.extensions import db
            clock.reset()
            with world.app.app_context():
                db.session.remove()
                db.engine.dispose()


def _build(url, instance, mp) -> harness.World:
    from flask_migrate import upgrade

    from leadflow import jobs, outbox
    from leadflow.billing import service as billing
    from leadflow.domain.events import DeliveryReceived, ReservationDue, VerificationRequested
    from leadflow.extensions import db
    from leadflow.factory import create_app
    from leadflow.models import Brokerage, User, Workspace, WorkspaceMember

    storage_dir = str(instance / "storage")
    app = create_app({
        "SQLALCHEMY_DATABASE_URI": url,
        "LOCAL_STORAGE_DIR": storage_dir,
        "PUBLIC_BASE_URL": "http://leadflow.model.invalid",
        "EXTRACTION_URL": None,
        "EMBEDDED_WORKER": False,
        "EMBEDDED_SCHEDULER": False,
        "MAX_UPLOAD_BYTES": 2 * 1024 * 1024,
        # One automatic retry of a failure of ours, due within one round of the model's settling.
        "SYSTEM_RETRY_DELAYS_MINUTES": [5],
        # A storage success counts as a health answer for a few seconds of wall time, which a
        # replayed example cannot repeat: whether a missing file is found at the claim (HEAD) or
        # only by the reader would depend on how fast the machine ran the steps before it. The
        # model asks storage every time, so the same steps always take the same path.
        "HEALTH_FRESH_SECONDS": 0,
        # The model commits thousands of small transactions; not waiting for each WAL flush
        # changes no visibility or locking, only durability if PostgreSQL itself crashed.
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True,
                                      "connect_args": {"options": "-c synchronous_commit=off"}},
    }, listen=False)
    with app.app_context():
        upgrade()

    extraction, queue, bus = harness.ExtractionDouble(), harness.WorkQueue(), harness.RecordingBus()
    ports = app.extensions["leadflow"]
    ports.extraction = extraction
    ports.bus = bus
    # The real job sender (dedup keys and all) over the model's queue.
    ports.jobs = jobs.BrokerJobSender(harness.QueueBroker(queue), ports.jobs.dedup)

    with app.app_context():
        brokerage, other = Brokerage(name="Model Hypotheken"), Brokerage(name="Other Baufinanz")
        db.session.add_all([brokerage, other])
        db.session.flush()
        billing.grant(db.session, brokerage.id, 1)
        billing.grant(db.session, other.id, 1)
        # A placeholder hash: werkzeug's scrypt would cost more than a whole example.
        client = User(email="client@model.example", name="Client Model", role="client",
                      brokerage_id=brokerage.id, password_hash="!")
        admin = User(email="review@model.example", name="Pat Platform", role="platform_admin", password_hash="!")
        workspace = Workspace(brokerage_id=brokerage.id, name="Case of the model client")
        db.session.add_all([client, admin, workspace])
        db.session.flush()
        db.session.add(WorkspaceMember(workspace_id=workspace.id, user_id=client.id))
        db.session.commit()
        world = harness.World(app=app, storage_dir=storage_dir, extraction=extraction, queue=queue, bus=bus,
                              brokerage_id=brokerage.id, other_brokerage_id=other.id, client_id=client.id,
                              admin_id=admin.id)
        db.session.remove()

    # Crash right after a commit: the model can make the after-commit handlers of chosen event
    # types do nothing for one step (the process died before it enqueued or settled). Handlers
    # of one event and of all a commit's events of a type alike.
    def guarded(event_type, handler, together=False):
        def run(event_or_events):
            if event_type in world.lost_events:
                world.lost.extend(event_or_events) if together else world.lost.append(event_or_events)
                return
            handler(event_or_events)
        run.__name__ = f"model_guarded_{getattr(handler, '__name__', 'handler')}"
        return run

    for event_type in (VerificationRequested, DeliveryReceived, ReservationDue):
        for registry, together in ((outbox._handlers, False), (outbox._together, True)):
            if registry.get(event_type):
                mp.setitem(registry, event_type, [guarded(event_type, h, together) for h in registry[event_type]])
    return world
