"""The engine's PostgreSQL settings as a deployment meets them: statements prepared the first time
a pooled connection runs them (no parse and plan again on every later run), or never, for a
PgBouncer that cannot keep prepared statements; SQLite untouched."""
import pytest
from sqlalchemy import select, text

from leadflow.extensions import db
from leadflow.models import Document
from tests.plugins.postgres import migrated_app

# A statement no other code of the app runs, so that finding it prepared proves this run did it.
PROBE = select(Document.id).where(Document.title == "prepared-statement-probe")


def _prepared_probes(connection) -> int:
    # (This query is prepared too: it leaves itself out.)
    return connection.execute(text("SELECT count(*) FROM pg_prepared_statements "
                                   "WHERE statement LIKE '%documents.title%' "
                                   "AND statement NOT LIKE '%pg_prepared_statements%'")).scalar_one()


def test_on_postgresql_a_connection_prepares_a_statement_the_first_time_it_runs_it(tmp_path, monkeypatch):
    monkeypatch.delenv("DATABASE_PREPARE_THRESHOLD", raising=False)
    with migrated_app("postgresql", tmp_path, "prepare") as app, app.app_context():
        with db.engine.connect() as connection:
            assert _prepared_probes(connection) == 0
            assert connection.execute(PROBE).all() == []
            assert _prepared_probes(connection) == 1


def test_prepared_statements_can_be_turned_off_for_a_transaction_pooling_pgbouncer(tmp_path, monkeypatch):
    monkeypatch.setenv("DATABASE_PREPARE_THRESHOLD", "none")
    with migrated_app("postgresql", tmp_path, "noprepare") as app, app.app_context():
        with db.engine.connect() as connection:
            for _ in range(8):  # past psycopg's own threshold, too
                connection.execute(PROBE).all()
            assert _prepared_probes(connection) == 0


@pytest.mark.parametrize("value", ["0", "none"])
def test_sqlite_takes_no_postgresql_setting(tmp_path, monkeypatch, value):
    monkeypatch.setenv("DATABASE_PREPARE_THRESHOLD", value)
    with migrated_app("sqlite", tmp_path, "sqlite") as app, app.app_context():
        assert "connect_args" not in app.config["SQLALCHEMY_ENGINE_OPTIONS"]
        assert db.session.execute(PROBE).all() == []


@pytest.mark.parametrize("value", ["-1", "first", "1.5"])
def test_a_threshold_that_cannot_be_right_stops_the_app_with_what_was_wrong(tmp_path, monkeypatch, value):
    from leadflow.factory import create_app
    monkeypatch.setenv("DATABASE_PREPARE_THRESHOLD", value)
    with pytest.raises(ValueError, match="DATABASE_PREPARE_THRESHOLD must be a whole number") as refused:
        create_app({"SQLALCHEMY_DATABASE_URI": "postgresql+psycopg://127.0.0.1/none",
                    "LOCAL_STORAGE_DIR": str(tmp_path)}, listen=False)
    assert repr(value) in str(refused.value)
