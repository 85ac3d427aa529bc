"""The Content-Security-Policy in headless Chromium: the dashboard, a document page, the review queue
and the portal load, go live and work (htmx requests, the socket, a direct upload, the behaviour that
used to be inline hx-on script) with not one violation reported."""
import pytest
from playwright.sync_api import expect

from tests.browser.conftest import LIVE_TIMEOUT_MS, VIEWPORT
from tests.corpus import SAMPLES

pytestmark = pytest.mark.browser

PAYSLIP = SAMPLES / "payslips" / "synthetic_payslip_A1_01.pdf"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}
# Recorded in every page before its own scripts run: the browser's report of each blocked thing.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__cspViolations.push(e.violatedDirective + " blocked " + (e.blockedURI || "inline") + " at " +
                              (e.sourceFile || "") + ":" + e.lineNumber);
});
"""


class Watched:
    """A signed-in browser context whose pages report CSP violations from console and DOM events."""

    def __init__(self, browser, base_url, person):
        self.context = browser.new_context(base_url=base_url, viewport=VIEWPORT)
        self.context.add_init_script(RECORD_VIOLATIONS)
        self.console = []
        self.page = self.context.new_page()
        self.page.on("console", lambda message: message.type == "error" and "Content Security Policy" in message.text
                     and self.console.append(message.text))
        login = self.page.goto("/login")
        assert "script-src 'self'" in (login.headers.get("content-security-policy") or ""), "no policy to run under"
        self.page.fill("#email", person.email)
        self.page.fill("#password", person.password)
        self.page.get_by_role("button", name="Sign in").click()
        self.page.wait_for_url(lambda url: "/login" not in url)
        self.live()

    def live(self):
        expect(self.page.locator("#connection")).to_have_text("Live", timeout=LIVE_TIMEOUT_MS)

    def violations(self) -> list[str]:
        return self.console + self.page.evaluate("window.__cspViolations || []")

    def close(self):
        self.context.close()


@pytest.fixture
def watched(browser, world):
    opened = []

    def open_for(person):
        opened.append(Watched(browser, world.url, person))
        return opened[-1]

    yield open_for
    for w in opened:
        w.close()


def test_the_staff_pages_run_under_the_policy_with_no_violation(watched, world):
    document = world.client_a.api.upload(PAYSLIP, title="Payslip March", kind="payslip",
                                         workspace_id=world.workspace_a).json()
    world.client_a.api.wait_for_status(document["id"], SETTLED)

    advisor = watched(world.advisor_a)
    page = advisor.page
    expect(page.locator(f"#document-{document['id']}")).to_be_visible()
    page.fill("#q", "March")  # a live search: an htmx request and a swap
    expect(page.locator(f"#document-{document['id']}")).to_be_visible()
    assert advisor.violations() == []

    page.goto(f"/documents/{document['id']}")
    advisor.live()
    field = page.locator("#fields-form input[type=text]").first
    edited = field.input_value() + " (being edited)"
    field.fill(edited)
    expect(page.locator("#fields-form")).to_have_class("fields-form dirty")  # was hx-on:input
    page.locator("summary", has_text="Share with a person").click()
    page.fill("#share-email", world.admin_a.email)
    with page.expect_response(lambda r: r.url.endswith("/panels/history")):  # the share's live refresh
        page.get_by_role("button", name="Share").click()
    expect(page.locator("#share-email")).to_have_value("")  # was hx-on::after-request
    # The refresh passed over the fields panel while it holds an edit (was an hx-trigger filter).
    expect(page.locator("#fields-form input[type=text]").first).to_have_value(edited)
    assert advisor.violations() == []

    admin = watched(world.platform_admin)
    admin.page.goto("/review")
    admin.live()
    assert admin.violations() == []


def test_the_portal_runs_under_the_policy_with_no_violation_and_uploads_straight_to_storage(watched, world):
    client = watched(world.client_a)
    page = client.page
    assert page.url.endswith("/portal")
    page.set_input_files("#file", PAYSLIP)
    page.select_option("#kind", "payslip")
    page.get_by_role("button", name="Upload").click()
    expect(page.locator("#upload-result")).to_contain_text("Uploaded")
    expect(page.locator("#documents-body tr[id^='document-'] [data-testid=status]")).to_have_text(
        ["VERIFIED"], timeout=20_000)
    assert client.violations() == []


def test_the_api_reference_page_runs_under_the_policy_with_no_violation(watched, world):
    advisor = watched(world.advisor_a)
    page = advisor.page
    page.goto("/api/docs")
    advisor.live()
    expect(page.locator("h1")).to_contain_text("API reference")
    expect(page.locator("#schema-Document")).to_be_visible()
    expect(page.get_by_text("GET /api/documents/{document_id}", exact=True)).to_be_visible()
    assert advisor.violations() == []
