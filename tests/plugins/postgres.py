"""PostgreSQL databases of their own for this test run, dropped at the end.

Skips on a developer machine without PostgreSQL; fails in CI, where it must be there.
"""
import contextlib
import os
import uuid

import psycopg
import pytest

ADMIN_URL = os.environ.get("TEST_DATABASE_ADMIN_URL", "postgresql://postgres@127.0.0.1:5432/test")


@contextlib.contextmanager
def fresh_database(label: str):
    """Create an empty database; yield its SQLAlchemy URL; drop it afterwards."""
    name = f"leadflow_{label}_{uuid.uuid4().hex[:10]}"
    try:
        admin = psycopg.connect(ADMIN_URL, autocommit=True, connect_timeout=3)
    except psycopg.OperationalError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"PostgreSQL is required in CI and is not reachable: {exc}")
        pytest.skip(f"no PostgreSQL reachable: {exc}")
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    base = ADMIN_URL.rsplit("/", 1)[0]
    try:
        yield f"{base}/{name}".replace("postgresql://", "postgresql+psycopg://", 1)
    finally:
        with psycopg.connect(ADMIN_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_url():
    with fresh_database("test") as url:
        yield url


@contextlib.contextmanager
def migrated_app(kind: str, tmp_path, label: str, config: dict | None = None):
    """The real app on an empty, migrated database of `kind`: "sqlite" (a file, as `make run`
    uses: an in-memory SQLite would be one connection, no race at all) or "postgresql" (a fresh
    database of its own). For the tests that race workers on both."""
    from flask_migrate import upgrade

    from leadflow.extensions import db
    from leadflow.factory import create_app

    def build(url):
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "LOCAL_STORAGE_DIR": str(tmp_path / "storage"),
                          "EMBEDDED_WORKER": False, "EMBEDDED_SCHEDULER": False, **(config or {})}, listen=False)
        with app.app_context():
            upgrade()
        return app

    with contextlib.ExitStack() as stack:
        url = f"sqlite:///{tmp_path / 'leadflow.db'}" if kind == "sqlite" else \
            stack.enter_context(fresh_database(label))
        app = build(url)
        try:
            yield app
        finally:
            with app.app_context():
                db.engine.dispose()


def client_of_new_brokerage(db, name: str):
    """A new brokerage and one client of it, in the session (flushed, not committed)."""
    from leadflow.models import Brokerage, User
    brokerage = Brokerage(name=name)
    db.session.add(brokerage)
    db.session.flush()
    user = User(email=f"client@{brokerage.id}.example", name="Client", role="client", brokerage_id=brokerage.id,
                password_hash="-")
    db.session.add(user)
    db.session.flush()
    return user


def run_threads(threads, timeout: float = 120) -> None:
    """Start the racing threads and wait for each; a thread still running after `timeout` fails
    the test (a deadlock, or a lock never given back)."""
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads), "a thread did not finish"
