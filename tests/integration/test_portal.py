"""The client portal over HTTP against the running app: the language a client picks is set by a CSRF-checked
POST and kept on the user; the checklist shows each item of a case as its documents stand; the form posts
several files without script."""
from html.parser import HTMLParser

import pytest
import requests

from tests.corpus import SAMPLES

pytestmark = pytest.mark.usefixtures("live")

SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
# A case halfway through: each upload, what the client declares it as, and the checklist item it lands in
# once the checks have read it.
HALFWAY = [
    (SAMPLES / "ids" / "passporteye_passport-td3.jpg", "id_document", "identity"),  # expired, and not the client
    (SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_02.pdf", "payslip", "bank_statements"),  # a person decides
    (SAMPLES / "employment-contracts" / "synthetic_employment_contract_A1_01.pdf", "employment_contract",
     "employment_contract"),
    (SAMPLES / "tax" / "synthetic_wage_tax_certificate_A1_01.pdf", "wage_tax_certificate", "wage_tax_certificate"),
    (SAMPLES / "payslips" / "synthetic_payslip_A1_01.pdf", "payslip", "payslips"),
    (SAMPLES / "payslips" / "synthetic_payslip_A1_03.pdf", "payslip", "payslips"),  # names someone not on the case
]
# Nobody has told the client's citizenship yet: the residence permit is not required (the portal asks).
HALFWAY_STATES = {
    "identity": "rejected", "residence_permit": "not_needed", "payslips": "waiting", "bank_statements": "waiting",
    "wage_tax_certificate": "done", "tax_assessment": "missing", "employment_contract": "done",
}


def test_a_client_switches_the_portal_to_german_and_it_stays_german_after_signing_in_again(world, app):
    client = SignedIn(world.url, world.client_a)
    page = client.get("/portal")
    assert 'class="portal" lang="en"' in page and "Your documents" in page

    answer = client.post("/portal/language", {"language": "de"})
    assert answer.status_code == 303 and answer.headers["Location"].endswith("/portal")
    page = client.get("/portal")
    assert 'class="portal" lang="de"' in page
    for words in ("Ihre Unterlagen", "Was die Bank braucht", "Letzte drei Gehaltsabrechnungen", "Hochladen",
                  'aria-pressed="true">Deutsch'):
        assert words in page
    assert "Your documents" not in page
    assert _language(app, world.client_a) == "de"

    again = SignedIn(world.url, world.client_a)  # a new session reads the remembered choice
    assert 'class="portal" lang="de"' in again.get("/portal")
    assert 'class="portal" lang="en"' in SignedIn(world.url, world.client_b).get("/portal"), "one client's choice only"

    client.post("/portal/language", {"language": "en"})
    assert 'class="portal" lang="en"' in client.get("/portal")
    assert _language(app, world.client_a) == "en"


def test_the_language_switch_refuses_a_forged_request_and_a_language_it_does_not_speak(world, app):
    client = SignedIn(world.url, world.client_a)
    client.get("/portal")

    forged = client.session.post(world.url + "/portal/language", data={"language": "de"}, allow_redirects=False)
    assert forged.status_code == 400
    unknown = client.post("/portal/language", {"language": "fr"})
    assert unknown.status_code == 400 and "Choose one of: en, de." in unknown.text
    assert _language(app, world.client_a) == "en"

    advisor = SignedIn(world.url, world.advisor_a, lands_on="/dashboard")
    assert advisor.post("/portal/language", {"language": "de"}).status_code == 403


def test_the_checklist_shows_each_item_of_a_case_as_its_documents_stand(world, app):
    uploaded = _upload_halfway_case(world.client_a.api)

    from leadflow.extensions import db
    from leadflow.ports import current_ports
    from leadflow.services import checklist
    with app.app_context():
        states = checklist.for_workspace(db.session, current_ports().storage, world.workspace_a, world.brokerage_a)
        assert {s.item.key: s.state for s in states} == HALFWAY_STATES
        payslips = next(s for s in states if s.item.key == "payslips")
        assert (payslips.verified, payslips.needed) == (1, 3)

    page = SignedIn(world.url, world.client_a)
    for html in (page.get("/portal"), page.get(f"/portal/checklist?case={world.workspace_a}")):
        items = Checklist.read(html)
        assert items.states == HALFWAY_STATES
        for document_id, item in uploaded.items():
            assert items.placed[document_id] == [item], (document_id, item, items.placed)
        assert "1 of 3 accepted" in html
        assert "2 of 6 complete" in html

    other = Checklist.read(SignedIn(world.url, world.client_b).get("/portal"))
    assert set(other.states.values()) == {"missing", "not_needed"} and not other.placed, \
        "another brokerage's client sees none of it"


def test_without_script_the_form_posts_several_files_and_says_how_each_one_went(world, app):
    client = SignedIn(world.url, world.client_a)
    page = client.get("/portal")
    assert 'id="file" name="file" type="file" multiple' in page
    statement = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
    files = [("file", (statement.name, statement.read_bytes(), "application/pdf")),
             ("file", ("notes.docx", b"PK\x03\x04" + b"\x00" * 64, "application/octet-stream"))]
    answer = client.post("/portal/upload", {"kind": "bank_statement", "workspace_id": str(world.workspace_a)},
                         files=files)
    assert answer.status_code == 303

    page = client.get("/portal")
    assert f"Uploaded “{statement.name}”. We are checking it now." in page
    assert "“notes.docx” was not uploaded: This file type is not supported." in page
    documents = world.client_a.api.get("/api/documents").json()["documents"]
    assert [(d["title"], d["kind"]) for d in documents] == [(statement.name, "bank_statement")]
    world.client_a.api.wait_for_status(documents[0]["id"], SETTLED)


def test_a_client_reading_german_gets_statuses_types_and_the_upload_script_in_german(world, app):
    statement = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
    answer = world.client_a.api.upload(statement, kind="bank_statement")
    assert answer.status_code == 201, answer.text
    status = world.client_a.api.wait_for_status(answer.json()["id"], SETTLED, timeout=60)["status"]
    client = SignedIn(world.url, world.client_a)
    client.get("/portal")
    client.post("/portal/language", {"language": "de"})

    checklist = client.get(f"/portal/checklist?case={world.workspace_a}")
    german = {"VERIFIED": "AKZEPTIERT", "REJECTED": "ABGELEHNT", "ACTION_REQUIRED": "BEI EINER FACHKRAFT"}[status]
    assert f'data-testid="status">{german}</span>' in checklist
    assert "Kontoauszug · " in checklist and "Noch offen" in checklist and "von 6 vollständig" in checklist
    page = client.get("/portal")
    assert '"ready": "Bereit zum Hochladen"' in page and '"empty_file": "Die Datei ist leer."' in page

    refused = client.post("/portal/upload", {"kind": "", "workspace_id": str(world.workspace_a)},
                          files=[("file", ("notes.docx", b"PK\x03\x04" + b"\x00" * 64, "application/octet-stream"))])
    assert refused.status_code == 303
    assert "„notes.docx“ wurde nicht hochgeladen:" in client.get("/portal")


# -- helpers ---------------------------------------------------------------------------------------

class SignedIn:
    """A person signed in through the login form, with the session and CSRF token a browser would hold."""

    def __init__(self, base_url: str, person, lands_on: str = "/portal"):
        self.base_url = base_url
        self.session = requests.Session()
        self.csrf = _csrf(self.session.get(base_url + "/login", timeout=10).text)
        answer = self.session.post(base_url + "/login", timeout=10, data={
            "email": person.email, "password": person.password, "csrf_token": self.csrf})
        assert answer.url.endswith(lands_on), answer.url

    def get(self, path: str) -> str:
        answer = self.session.get(self.base_url + path, timeout=10)
        assert answer.status_code == 200, (path, answer.status_code)
        return answer.text

    def post(self, path: str, data: dict, **kw) -> requests.Response:
        return self.session.post(self.base_url + path, data={**data, "csrf_token": self.csrf},
                                 allow_redirects=False, timeout=30, **kw)


class Checklist(HTMLParser):
    """Each item's data-state, and the checklist items each document row sits in."""

    def __init__(self):
        super().__init__()
        self.states: dict[str, str] = {}
        self.placed: dict[str, list[str]] = {}
        self._item = None

    @classmethod
    def read(cls, html: str) -> "Checklist":
        parser = cls()
        parser.feed(html)
        return parser

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "data-item" in attrs:
            self._item = attrs["data-item"]
            if "data-state" in attrs:
                self.states[self._item] = attrs["data-state"]
        if tag == "tr" and (attrs.get("id") or "").startswith("document-"):
            self.placed.setdefault(attrs["id"].removeprefix("document-"), []).append(self._item)


def _upload_halfway_case(api) -> dict:
    """Upload HALFWAY as the client and wait until each is decided; {document id: its checklist item}."""
    uploaded = {}
    for path, kind, item in HALFWAY:
        answer = api.upload(path, kind=kind)
        assert answer.status_code == 201, answer.text
        uploaded[answer.json()["id"]] = item
    for document_id in uploaded:
        api.wait_for_status(document_id, SETTLED, timeout=60)
    return uploaded


def _csrf(html: str) -> str:
    marker = 'name="csrf_token" value="'
    start = html.index(marker) + len(marker)
    return html[start:html.index('"', start)]


def _language(app, person) -> str:
    from leadflow.extensions import db
    from leadflow.models import User
    with app.app_context():
        try:
            return db.session.get(User, person.user_id).language
        finally:
            db.session.remove()

