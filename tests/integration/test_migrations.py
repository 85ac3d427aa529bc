"""The Alembic migrations build exactly the models' schema, on PostgreSQL and on SQLite."""
import pytest
from flask_migrate import check, downgrade, upgrade

from leadflow.factory import create_app
from tests.plugins.postgres import fresh_database


@pytest.fixture(params=["postgresql", "sqlite"])
def database_url(request, tmp_path):
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'leadflow.db'}"
    else:
        with fresh_database("migrations") as url:
            yield url


def test_the_migrations_build_the_models_schema_and_can_be_undone(database_url, tmp_path, monkeypatch):
    monkeypatch.setenv("LEADFLOW_INSTANCE_DIR", str(tmp_path))
    app = create_app({"SQLALCHEMY_DATABASE_URI": database_url}, listen=False)
    with app.app_context():
        upgrade()
        check()  # raises when the models and the migrated schema differ
        downgrade(revision="base")
        upgrade()
        check()
        from leadflow.extensions import db
        db.engine.dispose()
