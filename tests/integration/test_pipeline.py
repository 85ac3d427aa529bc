"""The whole path in one process: HTTP upload, worker, extractor over HTTP, signed callback."""
import json
import uuid

from leadflow.extraction import webhooks
from tests.corpus import SAMPLES

BANK_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"


def test_a_pdf_goes_from_upload_to_verified_and_the_history_shows_each_step(world):
    client = world.client_a.api
    created = client.upload(BANK_STATEMENT, kind="bank_statement")
    assert created.status_code == 201, created.text
    assert created.json()["status"] == "PENDING"

    done = client.wait_for_status(created.json()["id"], {"VERIFIED", "REJECTED", "ACTION_REQUIRED"})
    assert done["status"] == "VERIFIED", done
    assert done["document_type"] == "bank_statement"
    assert done["page_count"] == 1
    assert done["verified_at"]

    history = world.advisor_a.api.get(f"/api/documents/{done['id']}/history").json()["history"]  # staff: all of it
    steps = [(e["from_status"], e["to_status"]) for e in history if e["kind"] == "audit"]
    assert steps == [(None, "PENDING"), ("PENDING", "PROCESSING"), ("PROCESSING", "EXTRACTING"),
                     ("EXTRACTING", "VERIFIED")]
    callbacks = [e for e in history if e["kind"] == "callback"]
    assert [c["event_type"] for c in callbacks] == ["job.completed"]
    assert callbacks[0]["payload"]["data"]["document_type"] == "bank_statement"

    content = client.get(f"/api/documents/{done['id']}/content").json()
    assert content["version"] == 1 and content["cause"] == "generated"
    assert content["content"]["text_chars"] > 0


def test_a_file_named_pdf_that_is_not_a_pdf_is_refused_with_a_clear_message(world):
    response = world.client_a.api.upload(b"GIF89a this is not a PDF at all", filename="payslip.pdf")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "content_mismatch"
    assert "not a PDF" in error["message"]
    assert world.client_a.api.get("/api/documents").json()["documents"] == []


def test_a_file_over_the_size_limit_is_refused_and_nothing_is_kept(world):
    response = world.client_a.api.upload(b"%PDF-1.4\n" + b"0" * (2 * 1024 * 1024), filename="big.pdf")
    assert response.status_code == 413
    assert response.json()["error"]["code"] == "file_too_large"
    assert world.client_a.api.get("/api/documents").json()["documents"] == []


def _signed_post(world, body: bytes, secret: str, msg_id: str | None = None):
    headers = webhooks.headers_for(secret, msg_id or f"dlv_{uuid.uuid4().hex}", body)
    headers["Content-Type"] = "application/json"
    import requests
    return requests.post(world.url + "/api/extraction/callbacks", data=body, headers=headers, timeout=10)


def _verified_document(world):
    client = world.client_a.api
    document_id = client.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    return client.wait_for_status(document_id, "VERIFIED")


def _job_of(app, document_id):
    from leadflow.extensions import db
    from leadflow.models import Document
    with app.app_context():
        return db.session.get(Document, document_id).current_job_id


def test_a_forged_callback_is_refused_with_401_and_changes_nothing(world, app):
    document = _verified_document(world)
    body = json.dumps({"type": "job.failed", "job_id": _job_of(app, document["id"]),
                       "data": {"error": {"code": "unreadable", "message": "forged"}}}).encode()
    forged = _signed_post(world, body, "whsec_" + "QUJDREVGR0hJSktMTU5PUFFSU1RVVldY")
    assert forged.status_code == 401
    unsigned = _signed_post(world, body, app.config["EXTRACTION_WEBHOOK_SECRET"])
    unsigned_headers_missing = __import__("requests").post(world.url + "/api/extraction/callbacks", data=body,
                                                           timeout=10)
    assert unsigned_headers_missing.status_code == 401
    assert unsigned.status_code == 202  # the real secret is accepted: the refusal above was the signature
    after = world.client_a.api.document(document["id"])
    assert after["status"] == "VERIFIED" and after["updated_at"] == document["updated_at"]


def test_a_second_delivery_with_the_same_webhook_id_changes_nothing(world, app, live):
    client = world.client_a.api
    document_id = client.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    document = client.wait_for_status(document_id, "VERIFIED")
    staff = world.advisor_a.api   # reads the whole history, callbacks included
    history_before = staff.get(f"/api/documents/{document_id}/history").json()["history"]
    delivery_id = next(e["delivery_id"] for e in history_before if e["kind"] == "callback")
    from leadflow.extensions import db
    from leadflow.models import CallbackDelivery
    with app.app_context():
        payload = db.session.get(CallbackDelivery, delivery_id).payload
    body = json.dumps(payload).encode()

    replay = _signed_post(world, body, app.config["EXTRACTION_WEBHOOK_SECRET"], msg_id=delivery_id)
    assert replay.status_code == 200 and replay.json()["duplicate"] is True
    live.drain()
    assert client.document(document_id) == document
    assert staff.get(f"/api/documents/{document_id}/history").json()["history"] == history_before
    versions = client.get(f"/api/documents/{document_id}/versions").json()["versions"]
    assert [(v["part"], v["number"]) for v in versions] == [("content", 1), ("schema", 1)]


def test_another_brokerages_document_is_404_on_every_route(world):
    document = _verified_document(world)
    document_id = document["id"]
    outsider = world.advisor_b.api
    for path in ("", "/history", "/content", "/schema", "/versions"):
        response = outsider.get(f"/api/documents/{document_id}{path}")
        assert response.status_code == 404, path
        assert response.json()["error"]["code"] == "not_found"
    assert outsider.post(f"/api/documents/{document_id}/shares", json={"email": "advisor@b.example"}).status_code == 404
    assert outsider.post(f"/api/documents/{document_id}/complete").status_code == 404
    assert document_id not in [d["id"] for d in outsider.get("/api/documents").json()["documents"]]
    # The same routes answer for someone in the audience, so the 404s above are the tenant check.
    assert world.advisor_a.api.get(f"/api/documents/{document_id}/history").status_code == 200
    assert world.client_a.api.get(f"/api/documents/{document_id}").status_code == 200


def test_a_document_can_be_shared_only_within_its_brokerage(world):
    document = _verified_document(world)
    refused = world.advisor_a.api.post(f"/api/documents/{document['id']}/shares", json={"email": "client@b.example"})
    # The same answer as for an email nobody has: sharing does not reveal accounts elsewhere.
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "unknown_user"
    assert world.client_b.api.get(f"/api/documents/{document['id']}").status_code == 404
