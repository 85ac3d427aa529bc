"""The smaller findings of the attacker's probe (issue 10), each as a user or an attacker meets it over
HTTP against the running app: sharing does not tell who has an account elsewhere, a client's history
through the API hides what the page hides, the credits follow one rule on the page and in the API, an
unreadable webhook header is a 401 that echoes nothing, and a TIFF is refused at upload."""
import json
import re

import pytest
import requests

from leadflow.extraction import webhooks
from tests.corpus import SAMPLES
from tests.plugins.live import TODAY

BANK_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
TIFF = b"II*\x00\x08\x00\x00\x00" + b"\x00" * 200


def _session(world, person) -> requests.Session:
    """A signed-in browser session (the password round trip), with the page's CSRF token."""
    session = requests.Session()
    page = session.get(world.url + "/login")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    session.post(world.url + "/login", data={"email": person.email, "password": person.password,
                                               "csrf_token": token}, allow_redirects=False)
    session.csrf = re.search(r'"X-CSRFToken": "([^"]+)"', session.get(world.url + "/documents/none").text).group(1)
    return session


def _row_counts(app) -> dict:
    from leadflow.extensions import db
    with app.app_context():
        tables = ("documents", "upload_intents", "document_shares", "audit_entries")
        found = {t: db.session.execute(db.text(f"SELECT count(*) FROM {t}")).scalar() for t in tables}
        db.session.remove()
    return found


def test_sharing_answers_an_unknown_email_and_one_of_another_brokerage_alike(app, world):
    api = world.advisor_a.api
    document_id = api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    unknown = api.post(f"/api/documents/{document_id}/shares", json={"email": "nobody@nowhere.example"})
    foreign = api.post(f"/api/documents/{document_id}/shares", json={"email": world.client_b.email})
    assert unknown.status_code == foreign.status_code == 400
    assert unknown.json() == foreign.json(), "the answer tells an account in another brokerage from none"

    page = _session(world, world.advisor_a)
    answers = [page.post(f"{world.url}/documents/{document_id}/shares", data={"email": email},
                         headers={"X-CSRFToken": page.csrf, "HX-Request": "true"})
               for email in ("nobody@nowhere.example", world.client_b.email)]
    assert answers[0].status_code == answers[1].status_code == 400
    assert answers[0].text.replace("nobody@nowhere.example", "") == answers[1].text.replace(world.client_b.email, "")
    api.wait_for_status(document_id, SETTLED)


def test_a_clients_history_through_the_api_shows_what_the_page_shows_them_no_payloads_or_staff_notes(app, world):
    from leadflow.extensions import db
    from leadflow.models import AuditEntry
    client, advisor = world.client_a.api, world.advisor_a.api
    document_id = client.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    client.wait_for_status(document_id, SETTLED)
    with app.app_context():
        db.session.add(AuditEntry(document_id=document_id, actor_id=world.advisor_a.user_id, action="note",
                                  note="client seemed nervous, check the employer", created_at=TODAY))
        db.session.commit()
        db.session.remove()

    staff = advisor.get(f"/api/documents/{document_id}/history").json()["history"]
    assert any(e["kind"] == "callback" and e["payload"] for e in staff), "staff read the service's answers"
    assert any(e.get("note") == "client seemed nervous, check the employer" for e in staff)

    mine = client.get(f"/api/documents/{document_id}/history")
    assert mine.status_code == 200
    entries = mine.json()["history"]
    text = json.dumps(entries)
    assert "nervous" not in text and "payload" not in text and "actor_id" not in text and "delivery_id" not in text
    assert [e["to_status"] for e in entries][0] == "PENDING" and entries[-1]["to_status"] in SETTLED
    assert all(set(e) == {"kind", "at", "from_status", "to_status"} for e in entries)

    page = _session(world, world.client_a).get(f"{world.url}/documents/{document_id}")
    assert page.status_code == 200 and "nervous" not in page.text and "Extraction service reported" not in page.text
    staff_page = _session(world, world.advisor_a).get(f"{world.url}/documents/{document_id}")
    assert "client seemed nervous" in staff_page.text and "Extraction service reported" in staff_page.text


def test_the_credits_follow_one_rule_on_the_page_and_in_the_api(app, world):
    assert world.admin_a.api.get("/api/credits").status_code == 200
    for person in (world.advisor_a, world.client_a, world.platform_admin):
        assert person.api.get("/api/credits").status_code == 403, person.email
        assert _session(world, person).get(f"{world.url}/credits", allow_redirects=False).status_code == 403
    assert _session(world, world.admin_a).get(f"{world.url}/credits").status_code == 200


@pytest.mark.parametrize("timestamp", ["9" * 5000, "²", "1" * 13])
def test_an_unreadable_webhook_timestamp_is_a_401_that_echoes_nothing(app, world, timestamp):
    body = json.dumps({"type": "job.completed", "job_id": "x", "data": {}}).encode()
    headers = webhooks.headers_for(app.config["EXTRACTION_WEBHOOK_SECRET"], "msg_hostile", body)
    headers["webhook-timestamp"] = timestamp
    answer = requests.post(world.url + "/api/extraction/callbacks", data=body,
                           headers=dict(headers, **{"Content-Type": "application/json"}), timeout=10)
    assert answer.status_code == 401
    assert answer.json() == {"error": {"code": "invalid_signature", "message": "The webhook signature is not valid."}}


def test_a_tiff_is_refused_at_upload_in_plain_words_and_nothing_is_kept(app, world):
    api = world.client_a.api
    before = _row_counts(app)
    direct = api.upload(TIFF, filename="scan.tif", kind="payslip")
    assert direct.status_code == 400 and "TIFF" in direct.json()["error"]["message"]
    offer = api.post("/api/documents/uploads", json={"filename": "scan.tiff", "content_type": "image/tiff",
                                                     "size": len(TIFF), "kind": "payslip"})
    assert offer.status_code == 400 and offer.json()["error"]["code"] == "unsupported_type"
    portal = _session(world, world.client_a)
    posted = portal.post(f"{world.url}/portal/upload", files={"file": ("scan.tif", TIFF)},
                         data={"kind": "payslip", "csrf_token": portal.csrf}, allow_redirects=True)
    assert posted.status_code == 200 and "TIFF scans cannot be read" in posted.text
    assert "tif" not in re.search(r'accept="([^"]+)"', posted.text).group(1)
    assert _row_counts(app) == before
