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


def brokerage_with_client(session, name: str, email: str) -> tuple[Brokerage, User]:
    brokerage = Brokerage(name=name)
    session.add(brokerage)
    session.flush()
    client = User(email=email, name="Client", role="client", brokerage_id=brokerage.id, password_hash="-")
    session.add(client)
    session.flush()
    return brokerage, client


def test_every_move_leaves_one_audit_row_and_a_move_too_late_leaves_none(moves_app):
    from leadflow.extensions import db
    with moves_app.app_context():
        brokerage, client = brokerage_with_client(db.session, "Audit Hypotheken", "client@audit.example")
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


def test_a_batch_move_of_a_shape_seen_before_writes_this_batchs_own_values(moves_app):
    """A batch's statement is built once per shape (leadflow/statements.py) and run again with
    new values: each run must write its own documents' values, notes and guards, never the
    first run's."""
    from leadflow.extensions import db
    with moves_app.app_context():
        brokerage, client = brokerage_with_client(db.session, "Shape Hypotheken", "client@shape.example")
        rows = [new_document(brokerage.id, client.id, f"doc{i}") for i in range(5)]
        for row in rows:
            transitions.create(db.session, row, actor_id=client.id, action="uploaded", note=None)
        db.session.commit()
        a, b, c, d, e = (row["id"] for row in rows)

        for pair, jobs in (((a, b), ("job-a", "job-b")), ((c, d), ("job-c", "job-d"))):
            moved = transitions.apply_many(
                db.session, pair, Status.PENDING, Status.PROCESSING, action="claimed", without_job=True,
                notes={pair[0]: f"note of {pair[0]}"},
                per_document={"current_job_id": dict(zip(pair, jobs)), "page_count": {pair[0]: 3, pair[1]: 4}})
            assert sorted(moved) == sorted(pair)
        # Same shape once more: e has no job yet and moves; a already has one and is not PENDING.
        assert transitions.apply_many(
            db.session, [e, a], Status.PENDING, Status.PROCESSING, action="claimed", without_job=True,
            notes={e: "late"}, per_document={"current_job_id": {e: "job-e", a: "job-x"},
                                             "page_count": {e: 7, a: 9}}) == [e]
        # Only the documents whose current job is among those named move.
        assert sorted(transitions.apply_many(
            db.session, [a, b, c], Status.PROCESSING, Status.EXTRACTING, action="accepted",
            job_among=["job-a", "job-c", "job-zz"], verification_notes=[])) == sorted([a, c])
        assert transitions.apply_many(
            db.session, [b, d, e], Status.PROCESSING, Status.EXTRACTING, action="accepted",
            job_among=["job-d", "job-q", "job-r"], verification_notes=[]) == [d]
        db.session.commit()

        found = {row.id: (row.status, row.current_job_id, row.page_count)
                 for row in db.session.execute(select(Document.id, Document.status, Document.current_job_id,
                                                      Document.page_count))}
        assert found == {a: ("EXTRACTING", "job-a", 3), b: ("PROCESSING", "job-b", 4),
                         c: ("EXTRACTING", "job-c", 3), d: ("EXTRACTING", "job-d", 4),
                         e: ("PROCESSING", "job-e", 7)}
        claim_notes = dict(db.session.execute(select(AuditEntry.document_id, AuditEntry.note)
                                              .where(AuditEntry.action == "claimed")).all())
        assert claim_notes == {a: f"note of {a}", b: None, c: f"note of {c}", d: None, e: "late"}
