"""A signed upload link is spent by /complete, on local storage (the running app) and on S3
(moto's server): after the document exists, nothing written to the link reaches the file
that is downloaded, extracted and hashed."""
import hashlib
import uuid

import pytest
import requests

from tests.corpus import SAMPLES
from tests.plugins.live import TODAY

BANK_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
HOSTILE = b"MZ\x90\x00<script>alert(document.domain)</script>" + b"\x00" * 64


def _offer(api, data: bytes, **extra):
    answer = api.post("/api/documents/uploads", json={"filename": "statement.pdf", "content_type": "application/pdf",
                                                       "size": len(data), "kind": "bank_statement", **extra})
    assert answer.status_code == 201, answer.text
    return answer.json()


def _put(upload: dict, data: bytes):
    return requests.put(upload["url"], data=data, headers=upload["headers"], timeout=10)


def test_a_completed_upload_link_refuses_a_second_put_and_the_verified_file_stays_the_original(world, app):
    original = BANK_STATEMENT.read_bytes()
    client = world.client_a.api
    offer = _offer(client, original)
    assert _put(offer["upload"], original).status_code == 204
    completed = client.post(f"/api/documents/{offer['document_id']}/complete")
    assert completed.status_code == 201, completed.text
    document = client.wait_for_status(offer["document_id"], {"VERIFIED", "REJECTED", "ACTION_REQUIRED"})
    assert document["status"] == "VERIFIED"

    again = _put(offer["upload"], HOSTILE)
    assert again.status_code == 410
    assert again.json()["error"]["code"] == "upload_completed"

    for viewer in (world.client_a, world.advisor_a):
        served = viewer.api.get(f"/documents/{offer['document_id']}/file")
        assert served.status_code == 200
        assert served.content == original
    after = client.document(offer["document_id"])
    assert after["status"] == "VERIFIED" and after["updated_at"] == document["updated_at"]
    stored = _document_row(app, offer["document_id"])
    assert stored.sha256 == hashlib.sha256(original).hexdigest()
    assert "/uploads/" not in stored.storage_key, "the document reads its own key, not the link's"


def test_a_link_may_be_used_again_until_the_upload_is_completed(world, app):
    original = BANK_STATEMENT.read_bytes()
    client = world.client_a.api
    offer = _offer(client, original)
    assert _put(offer["upload"], b"%PDF-1.4 a first try that was cut short").status_code == 204
    assert _put(offer["upload"], original).status_code == 204    # the browser retried: the last write counts
    assert client.post(f"/api/documents/{offer['document_id']}/complete").status_code == 201
    assert _document_row(app, offer["document_id"]).sha256 == hashlib.sha256(original).hexdigest()
    assert client.post(f"/api/documents/{offer['document_id']}/complete").status_code == 201  # same document
    assert len(client.get("/api/documents").json()["documents"]) == 1


def test_the_multipart_upload_records_the_files_hash_too(world, app):
    original = BANK_STATEMENT.read_bytes()
    created = world.client_a.api.upload(BANK_STATEMENT, kind="bank_statement")
    assert created.status_code == 201
    assert _document_row(app, created.json()["id"]).sha256 == hashlib.sha256(original).hexdigest()


def _document_row(app, document_id):
    from leadflow.extensions import db
    from leadflow.models import Document
    with app.app_context():
        row = db.session.get(Document, document_id)
        db.session.expunge(row)
        db.session.remove()
        return row


# --- S3 -------------------------------------------------------------------------------------

@pytest.fixture
def s3_app(s3_endpoint, tmp_path):
    """An app on SQLite whose storage is a fresh bucket on the S3 server; no worker."""
    from flask_migrate import upgrade

    from leadflow.factory import create_app
    from tests.plugins.s3 import REGION
    bucket = f"leadflow-links-{uuid.uuid4().hex[:10]}"
    app = create_app({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'leadflow.db'}",
                      "S3_BUCKET": bucket, "S3_ENDPOINT_URL": s3_endpoint, "S3_REGION": REGION,
                      "S3_CREATE_BUCKET": True, "EMBEDDED_WORKER": False, "EMBEDDED_SCHEDULER": False},
                     listen=False)
    with app.app_context():
        upgrade()
    yield app
    from leadflow.extensions import db
    with app.app_context():
        db.engine.dispose()


def test_on_s3_a_post_to_a_completed_upload_link_changes_nothing_that_is_read(s3_app):
    from leadflow import clock
    from leadflow.extensions import db
    from leadflow.models import Brokerage, User
    from leadflow.ports import current_ports
    from leadflow.services import documents

    original = BANK_STATEMENT.read_bytes()
    clock.travel_to(TODAY)
    try:
        with s3_app.app_context():
            brokerage = Brokerage(name="Alpha Hypotheken")
            db.session.add(brokerage)
            db.session.flush()
            client = User(email="client@a.example", name="Client A", role="client", brokerage_id=brokerage.id,
                          password_hash="-")
            db.session.add(client)
            db.session.commit()

            intent, target = documents.offer_direct_upload(
                db.session, current_ports(), client, filename="statement.pdf", content_type="application/pdf",
                size=len(original), title=None, kind="bank_statement", workspace_id=None, max_bytes=2 * 1024 * 1024)
            assert _post_form(target, original).status_code in (200, 201, 204)
            document = documents.complete_direct_upload(db.session, current_ports(), client, intent.id,
                                                        max_bytes=2 * 1024 * 1024)

            again = _post_form(target, HOSTILE)
            assert again.status_code < 500   # the link still takes it (S3 cannot refuse), but to its own key
            storage = current_ports().storage
            assert storage.get(document.storage_key) == original
            assert document.sha256 == hashlib.sha256(original).hexdigest()
            downloaded = requests.get(storage.download_url(document.storage_key), timeout=10)
            assert downloaded.status_code == 200 and downloaded.content == original
            assert hashlib.sha256(downloaded.content).hexdigest() == document.sha256
            assert document.storage_key != intent.storage_key
            db.session.remove()
    finally:
        clock.reset()


def _post_form(target: dict, body: bytes):
    return requests.post(target["url"], data=target["fields"],
                         files={"file": ("statement.pdf", body, "application/pdf")}, timeout=10)


# --- what a client may send ------------------------------------------------------------------

GOOD_OFFER = {"filename": "statement.pdf", "content_type": "application/pdf", "size": 1000, "title": None,
              "kind": "bank_statement", "workspace_id": None}
BAD_OFFERS = [
    {"size": 0}, {"size": -1}, {"size": 10 ** 30}, {"size": "1000"}, {"size": True}, {"size": 1.5},
    {"title": 123}, {"title": ["a"]}, {"title": "x" * 100_000}, {"filename": None}, {"filename": ""},
    {"filename": {"a": 1}}, {"filename": "a" * 100_000}, {"kind": ["payslip"]}, {"kind": "passport photo"},
    {"content_type": None}, {"content_type": ["application/pdf"]}, {"content_type": "text/html"},
    {"workspace_id": 10 ** 30}, {"workspace_id": -5}, {"workspace_id": "1e9"}, {"workspace_id": [1]},
    {"workspace_id": "9" * 5000}, {"workspace_id": 1.5},
]


def test_an_upload_offer_with_a_value_no_client_should_send_is_a_4xx_and_commits_nothing(world, app):
    from leadflow.extensions import db
    from leadflow.models import UploadIntent, User
    from leadflow.ports import current_ports
    from leadflow.services import documents
    with app.app_context():
        user = db.session.get(User, world.client_a.user_id)
        for bad in BAD_OFFERS:
            _assert_refused(lambda: documents.offer_direct_upload(db.session, current_ports(), user,
                                                                  **{**GOOD_OFFER, **bad}, max_bytes=2 * 1024 * 1024),
                            bad)
        assert db.session.scalar(db.select(db.func.count(UploadIntent.id))) == 0
        db.session.remove()


def test_a_direct_upload_with_a_value_no_client_should_send_is_a_4xx_and_stores_nothing(world, app):
    from leadflow.extensions import db
    from leadflow.models import Document, User
    from leadflow.ports import current_ports
    from leadflow.services import documents
    good = {"filename": "statement.pdf", "data": BANK_STATEMENT.read_bytes(), "title": None, "kind": None,
            "workspace_id": None}
    with app.app_context():
        user = db.session.get(User, world.client_a.user_id)
        for bad in ({"title": 5}, {"kind": 7}, {"workspace_id": 10 ** 30}, {"filename": b"x.pdf"},
                    {"data": "a string, not bytes"}, {"filename": "n" * 100_000}):
            _assert_refused(lambda: documents.upload(db.session, current_ports(), user, **{**good, **bad},
                                                     max_bytes=2 * 1024 * 1024), bad)
        assert db.session.scalar(db.select(db.func.count(Document.id))) == 0
        db.session.remove()


def _assert_refused(call, bad):
    from leadflow.errors import LeadflowError
    from leadflow.extensions import db
    try:
        call()
    except LeadflowError as refused:
        assert 400 <= refused.status < 500, (bad, refused)
    else:
        raise AssertionError(f"accepted {bad}")
    finally:
        db.session.rollback()


def test_an_offer_of_zero_bytes_over_http_is_400_and_leaves_no_upload_intent(world, app):
    from leadflow.extensions import db
    from leadflow.models import UploadIntent
    answer = world.client_a.api.post("/api/documents/uploads", json={**GOOD_OFFER, "size": 0})
    assert answer.status_code == 400
    with app.app_context():
        assert db.session.scalar(db.select(db.func.count(UploadIntent.id))) == 0
        db.session.remove()
