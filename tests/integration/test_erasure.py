"""Erasing a client, and the retention sweep, against PostgreSQL and real storage (the live app's
local folder, and S3 through moto's server): afterwards no text column of any table holds the
client's name, email, case name or document ids, no stored key belongs to them, the ledger's rows
are still there and still balance, and one erasure record says it happened without saying whose."""
import dataclasses
import os
from datetime import timedelta

import pytest

from tests.corpus import SAMPLES
from tests.integration.lender_case import seed_complete_case, update_user
from tests.integration.web_client import post, signed_in
from tests.plugins.live import TODAY, wait_until

NAME = "Zofia Wróblewska-Kowalczyk"
EMAIL = "zofia.wroblewska@erase.example"
CASE_NAME = "Hypothek Wróblewska-Kowalczyk"
PAYSLIP = SAMPLES / "payslips" / "synthetic_payslip_A1_02.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}


# --- helpers -------------------------------------------------------------------------------------

def _make_subject(app, world):
    """Client a becomes a person with a findable name, email and case name; a second client of the
    same brokerage, whose document mentions her in an audit note, must survive the erasure."""
    from leadflow.extensions import db
    from leadflow.models import AuditEntry, Document, User, Workspace, WorkspaceMember, new_id
    with app.app_context():
        client = db.session.get(User, world.client_a.user_id)
        client.name, client.email = NAME, EMAIL
        db.session.get(Workspace, world.workspace_a).name = CASE_NAME
        other = User(email="other.client@a.example", name="Olaf Other", role="client", brokerage_id=world.brokerage_a)
        other.set_password("correct horse battery")
        db.session.add(other)
        other_case = Workspace(brokerage_id=world.brokerage_a, name="Case of Olaf Other")
        db.session.add(other_case)
        db.session.flush()
        db.session.add(WorkspaceMember(workspace_id=other_case.id, user_id=other.id))
        kept = Document(id=new_id(), brokerage_id=world.brokerage_a, owner_id=other.id, workspace_id=other_case.id,
                        title=f"Letter forwarded by {NAME}", kind="payslip", status="PENDING", filename="letter.pdf",
                        content_type="application/pdf", size_bytes=10, storage_key="kept/letter.pdf",
                        verification_notes=[])
        db.session.add(kept)
        db.session.flush()
        db.session.add(AuditEntry(document_id=kept.id, actor_id=client.id, action="shared",
                                  note=f"shared with {EMAIL} ({NAME})"))
        db.session.commit()
        ids = {"other": other.id, "other_case": other_case.id, "kept": kept.id}
        db.session.remove()
    return ids


def _notify(app, user_id, workspace_id):
    """An email record for her, where the email feature's table exists (another feature's rows)."""
    from leadflow.extensions import db
    table = db.metadata.tables.get("sent_notifications")
    if table is None:
        return
    with app.app_context():
        db.session.execute(table.insert().values(user_id=user_id, kind="missing_reminder",
                                                 subject=f"case-{workspace_id}:payslips", workspace_id=workspace_id,
                                                 sent_at=TODAY))
        db.session.commit()
        db.session.remove()


def _text_hits(app, needles: list[str]) -> list[tuple[str, str, str]]:
    """(table, column, needle) for every text, varchar or JSON column of every table in the
    database whose value contains a needle (case-insensitive)."""
    from leadflow.extensions import db
    hits = []
    with app.app_context():
        columns = db.session.execute(db.text(
            "SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' "
            "AND data_type IN ('text', 'character varying', 'json', 'jsonb', 'character')")).all()
        for table, column in columns:
            for needle in needles:
                found = db.session.execute(db.text(
                    f'SELECT count(*) FROM "{table}" WHERE "{column}"::text ILIKE :needle'),
                    {"needle": f"%{needle}%"}).scalar()
                if found:
                    hits.append((table, column, needle))
        db.session.remove()
    return hits


def _local_keys(app) -> list[str]:
    root = os.path.join(app.extensions["leadflow"].storage.root, "objects")
    return [os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")
            for folder, _, names in os.walk(root) for name in names]


def _s3_keys(storage) -> list[str]:
    pages = storage._client.get_paginator("list_objects_v2").paginate(Bucket=storage.bucket)
    return [item["Key"] for page in pages for item in page.get("Contents", [])]


def _ledger(app):
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import CreditReservation
    with app.app_context():
        rows = sorted((r.job_id, r.pages, r.status) for r in db.session.scalars(db.select(CreditReservation)))
        problems = billing.check_all(db.session)
        db.session.remove()
    return rows, problems


def _erasure_records(app):
    from leadflow.extensions import db
    from leadflow.models import ErasureRecord
    with app.app_context():
        rows = [(r.subject, r.reason, r.actor_id, r.removed) for r in db.session.scalars(db.select(ErasureRecord))]
        db.session.remove()
    return rows


def _exists(app, model, key) -> bool:
    from leadflow.extensions import db
    with app.app_context():
        found = db.session.get(model, key) is not None
        db.session.remove()
    return found


# --- the tests -----------------------------------------------------------------------------------

def test_an_erased_client_leaves_nothing_in_the_database_or_storage(app, world):
    from leadflow.models import Document, User, Workspace
    # The storage folder lives as long as the test session: earlier tests' objects are not ours.
    earlier = set(_local_keys(app))
    kept = _make_subject(app, world)
    seeded = seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    # One document through the real pipeline: a job, its callback, the status log, a reservation, audit rows.
    uploaded = world.client_a.api.upload(PAYSLIP, title=f"Payslip of {NAME}", kind="payslip",
                                         workspace_id=str(world.workspace_a))
    assert uploaded.status_code == 201, uploaded.text
    piped = uploaded.json()["id"]
    # Settled: erasure waits while a document is with the reader (tested in tests/unit).
    world.client_a.api.wait_for_status(piped, SETTLED, timeout=60)
    # A direct upload offered and never completed.
    offer = world.client_a.api.post("/api/documents/uploads", json={
        "filename": "wroblewska_passport.pdf", "content_type": "application/pdf", "size": 1000,
        "title": "Passport", "kind": "id_document", "workspace_id": world.workspace_a})
    assert offer.status_code == 201, offer.text
    # A lender package of the case.
    advisor = signed_in(app, world.advisor_a)
    assert post(advisor, f"/workspaces/{world.workspace_a}/package").status_code == 202
    wait_until(lambda: 'data-status="ready"' in advisor.get(f"/workspaces/{world.workspace_a}/package")
               .get_data(as_text=True), timeout=60, message="the package to be ready")
    _notify(app, world.client_a.user_id, world.workspace_a)

    document_ids = [d["id"] for d in seeded] + [piped, offer.json()["document_id"]]
    needles = [NAME, EMAIL, CASE_NAME, "Wróblewska", "wroblewska", *document_ids]
    assert _text_hits(app, needles), "the test would find her data before the erasure"
    keys_before = set(_local_keys(app)) - earlier
    assert any(piped in k for k in keys_before) and any("/packages/" in k for k in keys_before)
    ledger_before, problems = _ledger(app)
    assert ledger_before and not problems

    # Only the brokerage admin erases, only their own brokerage's clients, only when confirmed.
    erase = f"/clients/{world.client_a.user_id}/erase"
    assert post(advisor, erase, {"confirm_email": EMAIL}).status_code == 403
    assert post(signed_in(app, world.admin_b), erase, {"confirm_email": EMAIL}).status_code == 404
    admin = signed_in(app, world.admin_a)
    assert post(admin, erase, {"confirm_email": "someone@else.example"}).status_code == 400
    update_user(app, world.admin_a.user_id, language="de")
    mistyped = post(signed_in(app, world.admin_a), erase, {"confirm_email": ""})
    assert mistyped.status_code == 400 and "um die Löschung zu bestätigen" in mistyped.get_data(as_text=True)
    update_user(app, world.admin_a.user_id, language="en")
    assert post(admin, f"/clients/{world.advisor_a.user_id}/erase", {"confirm_email": "advisor@a.example"}).status_code == 404
    assert _exists(app, User, world.client_a.user_id) and _erasure_records(app) == []

    page = admin.get(f"/workspaces/{world.workspace_a}/ending").get_data(as_text=True)
    assert 'data-testid="erase-client"' in page
    # The case to go back to is the form's: another brokerage's case is not one (not even its number).
    answer = post(admin, erase, {"confirm_email": EMAIL.upper(), "workspace_id": str(world.workspace_b)}, htmx=False)
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/dashboard")

    assert _text_hits(app, needles) == []
    keys_after = set(_local_keys(app)) - earlier
    assert keys_before and [k for k in keys_after if any(d in k for d in document_ids) or "/packages/" in k] == []
    assert not _exists(app, User, world.client_a.user_id) and not _exists(app, Workspace, world.workspace_a)
    # The other client, their case, their document and the audit row about it stay, without her.
    assert _exists(app, User, kept["other"]) and _exists(app, Workspace, kept["other_case"])
    assert _exists(app, Document, kept["kept"])
    # The ledger keeps every row (accounting) and still balances.
    ledger_after, problems = _ledger(app)
    assert [(job, pages) for job, pages, _ in ledger_after] == [(job, pages) for job, pages, _ in ledger_before]
    assert problems == {} or not any(problems.values())
    records = _erasure_records(app)
    assert len(records) == 1
    subject, reason, actor, removed = records[0]
    assert (subject, reason, actor) == ("client", "request", world.admin_a.user_id)
    assert removed["documents"] == len(document_ids) - 1 and removed["users"] == 1 and removed["cases"] == 1
    # Her token is gone with her.
    assert world.client_a.api.get("/api/documents").status_code == 401


def test_erasure_on_s3_removes_every_object_of_the_client(app, world, s3_storage):
    from leadflow.extensions import db
    from leadflow.models import User
    from leadflow.services import erasure, packages
    _make_subject(app, world)
    ports = dataclasses.replace(app.extensions["leadflow"], storage=s3_storage)
    real = app.extensions["leadflow"]
    app.extensions["leadflow"] = ports
    try:
        seeded = seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
        # Client b's case stays untouched in the same bucket.
        other = seed_complete_case(app, world.brokerage_b, world.workspace_b, world.client_b.user_id,
                                   skip=("payslip", "bank_statement"))
        with app.app_context():
            advisor = db.session.get(User, world.advisor_a.user_id)
            package = packages.request(db.session, _silent(ports), advisor, world.workspace_a)
            assert packages.build(db.session, ports, package.id, world.brokerage_a) == "ready"
            keys = _s3_keys(s3_storage)
            mine = [k for k in keys if f"/brokerages/{world.brokerage_a}/".lstrip("/") in k]
            assert len(mine) == 2 * len(seeded) + 1 and any(k.endswith(f"{package.id}.zip") for k in mine)
            admin = db.session.get(User, world.admin_a.user_id)
            record = erasure.erase_client(db.session, ports, admin, world.client_a.user_id)
            assert record.removed["files"] == 2 * len(seeded) + 1
            db.session.remove()
    finally:
        app.extensions["leadflow"] = real
    left = _s3_keys(s3_storage)
    assert [k for k in left if k.startswith(f"brokerages/{world.brokerage_a}/")] == []
    assert sorted(left) == sorted(k for d in other for k in (d["storage_key"],
                                                           d["storage_key"].replace(f"/original/{d['path'].name}",
                                                                                    "/content/v1-generated.json")))
    assert _text_hits(app, [NAME, EMAIL, CASE_NAME, *[d["id"] for d in seeded]]) == []


def test_a_closed_case_is_erased_once_its_retention_period_has_passed(app, world):
    from leadflow import clock, sweeps
    from leadflow.models import User, Workspace
    earlier = set(_local_keys(app))
    _make_subject(app, world)
    seeded = seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    advisor = signed_in(app, world.advisor_a)
    assert post(signed_in(app, world.client_a), f"/workspaces/{world.workspace_a}/close").status_code == 403
    assert post(signed_in(app, world.advisor_b), f"/workspaces/{world.workspace_a}/close").status_code == 404
    closed = post(advisor, f"/workspaces/{world.workspace_a}/close")
    assert closed.status_code == 200 and 'data-testid="case-closed"' in closed.get_data(as_text=True)
    days = app.config["CASE_RETENTION_DAYS"]

    clock.travel_to(TODAY + timedelta(days=days - 1))
    with app.app_context():
        assert sweeps.run("erasure") == 0
    assert _exists(app, Workspace, world.workspace_a)

    # Reopened and closed again: the period starts again from the second closing.
    assert 'data-testid="case-close"' in post(advisor, f"/workspaces/{world.workspace_a}/reopen").get_data(as_text=True)
    assert post(advisor, f"/workspaces/{world.workspace_a}/close").status_code == 200
    clock.travel_to(TODAY + timedelta(days=days + 1))
    with app.app_context():
        assert sweeps.run("erasure") == 0
    clock.travel_to(TODAY + timedelta(days=2 * days))
    with app.app_context():
        assert sweeps.run("erasure") == 1
    assert not _exists(app, Workspace, world.workspace_a) and not _exists(app, User, world.client_a.user_id)
    assert _exists(app, Workspace, world.workspace_b)
    assert _text_hits(app, [NAME, EMAIL, CASE_NAME, *[d["id"] for d in seeded]]) == []
    assert [k for k in set(_local_keys(app)) - earlier if k.startswith(f"brokerages/{world.brokerage_a}/")] == []
    assert [(s, r, a) for s, r, a, _ in _erasure_records(app)] == [("case", "retention", None)]


def _silent(ports):
    """The ports with a job sender that sends nothing: the test builds the package itself."""
    class Quiet:
        def send(self, *args, **kwargs):
            return False
    return dataclasses.replace(ports, jobs=Quiet())


@pytest.fixture(autouse=True)
def _clock_back():
    yield
    from leadflow import clock
    clock.travel_to(TODAY)
