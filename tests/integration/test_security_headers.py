"""Security headers over HTTP against the running app: every page carries a Content-Security-Policy
that runs only our own scripts and styles and forbids framing by anyone, nosniff and a
Referrer-Policy; the pages hold no inline script or style that such a policy would block; a
stored file stays framable by our own preview."""
import re
from html.parser import HTMLParser

import pytest
import requests

from tests.corpus import SAMPLES

pytestmark = pytest.mark.usefixtures("live")

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
PAYSLIP = SAMPLES / "payslips" / "synthetic_payslip_A1_01.pdf"


def signed_in(base_url: str, person) -> requests.Session:
    session = requests.Session()
    token = CSRF.search(session.get(base_url + "/login", timeout=10).text).group(1)
    answer = session.post(base_url + "/login", data={"email": person.email, "password": person.password,
                                                     "csrf_token": token}, timeout=10)
    assert answer.status_code == 200 and "/login" not in answer.url
    return session


def policy(response) -> dict[str, set[str]]:
    directives = {}
    for part in response.headers["Content-Security-Policy"].split(";"):
        name, *sources = part.split()
        directives[name] = set(sources)
    return directives


class Inline(HTMLParser):
    """What a strict CSP blocks in markup: inline scripts, style elements and attributes, event handler
    attributes, and htmx's hx-on (evaluated as script)."""

    def __init__(self):
        super().__init__()
        self.found = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "script" and "src" not in attrs and attrs.get("type") != "application/json":
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style>")
        for name, value in attrs.items():
            if name == "style" or name.startswith("on") or name.startswith(("hx-on", "data-hx-on")):
                self.found.append(f"{tag} {name}={value!r}")
            if name == "hx-trigger" and "[" in (value or ""):
                self.found.append(f"{tag} hx-trigger filter {value!r} (evaluated as script)")
            if name in ("href", "src", "action") and (value or "").strip().lower().startswith("javascript:"):
                self.found.append(f"{tag} {name}={value!r}")


def inline_code(html: str) -> list[str]:
    parser = Inline()
    parser.feed(html)
    return parser.found


def test_every_page_forbids_framing_sniffing_and_scripts_or_styles_not_our_own(world):
    advisor, client = signed_in(world.url, world.advisor_a), signed_in(world.url, world.client_a)
    document = world.client_a.api.upload(PAYSLIP, title="Payslip", kind="payslip",
                                         workspace_id=world.workspace_a).json()
    world.client_a.api.wait_for_status(document["id"], {"VERIFIED", "REJECTED", "ACTION_REQUIRED"})
    admin = signed_in(world.url, world.platform_admin)

    pages = {
        "login": requests.get(world.url + "/login", timeout=10),
        "dashboard": advisor.get(world.url + "/dashboard", timeout=10),
        "document": advisor.get(f"{world.url}/documents/{document['id']}", timeout=10),
        "case": advisor.get(f"{world.url}/workspaces/{world.workspace_a}", timeout=10),
        "portal": client.get(world.url + "/portal", timeout=10),
        "review": admin.get(world.url + "/review", timeout=10),
        "not found": advisor.get(world.url + "/documents/none", timeout=10),
    }
    for name, page in pages.items():
        assert page.headers["Content-Type"].startswith("text/html"), name
        csp = policy(page)
        assert csp["script-src"] == {"'self'"} and csp["style-src"] == {"'self'"}, (name, csp)
        assert csp["default-src"] == {"'self'"} and csp["frame-ancestors"] == {"'none'"}, name
        assert csp["base-uri"] == {"'self'"} and "'unsafe-inline'" not in str(csp), name
        assert "'unsafe-eval'" not in str(csp), name
        assert page.headers["X-Frame-Options"] == "DENY", name
        assert page.headers["X-Content-Type-Options"] == "nosniff", name
        assert page.headers["Referrer-Policy"] == "same-origin", name
        assert inline_code(page.text) == [], (name, inline_code(page.text))
    assert '"includeIndicatorStyles":false' in pages["dashboard"].text, "htmx must not inject its inline style"


def test_the_document_page_and_its_panels_carry_no_inline_script(world):
    advisor = signed_in(world.url, world.advisor_a)
    document = world.client_a.api.upload(PAYSLIP, title="Payslip", kind="payslip",
                                         workspace_id=world.workspace_a).json()
    world.client_a.api.wait_for_status(document["id"], {"VERIFIED", "REJECTED", "ACTION_REQUIRED"})
    for name in ("fields", "actions", "versions", "history"):
        panel = advisor.get(f"{world.url}/documents/{document['id']}/panels/{name}", timeout=10)
        if panel.status_code == 404:
            continue  # not every panel is served on its own
        assert inline_code(panel.text) == [], (name, inline_code(panel.text))
    page = advisor.get(f"{world.url}/documents/{document['id']}", timeout=10).text
    assert "data-reset-on-success" in page and "data-mark-dirty" in page and "data-hold-while-dirty" in page


def test_a_stored_file_may_be_framed_by_our_own_preview_only(world):
    advisor = signed_in(world.url, world.advisor_a)
    document = world.client_a.api.upload(PAYSLIP, title="Payslip", kind="payslip",
                                         workspace_id=world.workspace_a).json()
    world.client_a.api.wait_for_status(document["id"], {"VERIFIED", "REJECTED", "ACTION_REQUIRED"})

    file = advisor.get(f"{world.url}/documents/{document['id']}/file", timeout=10)
    assert file.status_code == 200 and file.content.startswith(b"%PDF")
    assert policy(file)["frame-ancestors"] == {"'self'"}
    assert file.headers["X-Frame-Options"] == "SAMEORIGIN"
    assert file.headers["X-Content-Type-Options"] == "nosniff"


def test_json_answers_carry_nosniff_and_the_referrer_policy(world):
    answer = world.advisor_a.api.get("/api/documents")
    assert answer.status_code == 200
    assert answer.headers["X-Content-Type-Options"] == "nosniff"
    assert answer.headers["Referrer-Policy"] == "same-origin"
