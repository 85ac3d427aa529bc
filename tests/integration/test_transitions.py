"""The one writer of a document's status on SQLite and on PostgreSQL (where the audit row is
written by the move's own statement): every move leaves exactly one audit row saying who, what,
from, to and why; a move that finds the document moved already leaves none."""
from datetime import datetime

import pytest
from sqlalchemy import select

from leadflow.domain.lifecycle import Status
from leadflow.models import AuditEntry, Brokerage, Document, User, new_id
from leadflow.services import transitions
from tests.plugins.postgres import migrated_app


@pytest.fixture(params=["sqlite", "postgresql"])
def moves_app(request, tmp_path):
    with migrated_app(request.param, tmp_path, "moves") as app:
        yield app


def new_document(brokerage_id: int, owner_id: int, title: str) -> dict:
    now = datetime(2026, 11, 15, 12, 0, 0)
    document = Document(id=new_id(), brokerage_id=brokerage_id, owner_id=owner_id, workspace_id=None, title=title,
                        kind=None, status=Status.PENDING.value, filename=f"{title}.pdf",
                        content_type="application/pdf", size_bytes=10, storage_key=f"k/{title}", sha256=None,
                        precheck="passed", page_count=1, verification_notes=[], created_at=now, updated_at=now,
                        status_changed_at=now)
    return {name: value for name, value in vars(document).items() if not name.startswith("_")}


def test_every_move_leaves_one_audit_row_and_a_move_too_late_leaves_none(moves_app):
    from leadflow.extensions import db
    with moves_app.app_context():
        brokerage = Brokerage(name="Audit Hypotheken")
        db.session.add(brokerage)
        db.session.flush()
        client = User(email="client@audit.example", name="Client", role="client", brokerage_id=brokerage.id,
                      password_hash="-")
        db.session.add(client)
        db.session.flush()
        first, second = new_document(brokerage.id, client.id, "first"), new_document(brokerage.id, client.id, "second")
        for row in (first, second):
            transitions.create(db.session, row, actor_id=client.id, action="uploaded", note=f"{row['title']}.pdf")
        db.session.commit()

        assert transitions.apply(db.session, first["id"], Status.PENDING, Status.PROCESSING, action="claimed",
                                 note="by a worker")
        assert not transitions.apply(db.session, first["id"], Status.PENDING, Status.PROCESSING, action="claimed",
                                     note="by another worker, too late")
        assert transitions.claim(db.session, second["id"]) is not None
        assert sorted(transitions.apply_many(
            db.session, [first["id"], second["id"]], Status.PROCESSING, Status.EXTRACTING, action="accepted",
            notes={first["id"]: "job j1"})) == sorted([first["id"], second["id"]])
        assert transitions.apply_many(db.session, [first["id"]], Status.PROCESSING, Status.EXTRACTING,
                                      action="accepted", notes={first["id"]: "again"}) == []
        db.session.commit()

        rows = db.session.execute(select(AuditEntry.document_id, AuditEntry.actor_id, AuditEntry.action,
                                         AuditEntry.from_status, AuditEntry.to_status, AuditEntry.note)
                                  .order_by(AuditEntry.id)).all()
        by_document = {document["id"]: [tuple(row[1:]) for row in rows if row.document_id == document["id"]]
                       for document in (first, second)}
        assert by_document[first["id"]] == [
            (client.id, "uploaded", None, "PENDING", "first.pdf"),
            (None, "claimed", "PENDING", "PROCESSING", "by a worker"),
            (None, "accepted", "PROCESSING", "EXTRACTING", "job j1"),
        ]
        assert by_document[second["id"]] == [
            (client.id, "uploaded", None, "PENDING", "second.pdf"),
            (None, "claimed", "PENDING", "PROCESSING", None),
            (None, "accepted", "PROCESSING", "EXTRACTING", None),
        ]
        statuses = dict(db.session.execute(select(Document.id, Document.status)).all())
        assert statuses == {first["id"]: "EXTRACTING", second["id"]: "EXTRACTING"}
