"""Across screens: what a platform admin decides in the review queue reaches the client's
checklist live, with no reload on either side."""
import pytest
from playwright.sync_api import expect

from tests.corpus import SAMPLES

pytestmark = pytest.mark.browser

BANK_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
MARKER = "set before anything happened; a reload would wipe it"
SETTLE_TIMEOUT_MS = 20_000


def test_an_admin_decides_a_document_and_the_clients_checklist_updates_live(sign_in, world, app):
    portal = sign_in(world.client_a)
    review = sign_in(world.platform_admin)
    for page in (portal, review):
        expect(page.locator("#connection")).to_have_text("Live", timeout=SETTLE_TIMEOUT_MS)
        page.evaluate("marker => { window.__marker = marker }", MARKER)

    # The client calls a bank statement a payslip: the reader disagrees, so a person decides.
    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="payslip").json()["id"]
    statements = portal.locator("#item-bank_statements")
    expect(statements.locator(f"#document-{document_id}")).to_have_attribute(
        "data-status", "ACTION_REQUIRED", timeout=SETTLE_TIMEOUT_MS)
    expect(statements).to_have_attribute("data-state", "waiting")

    row = review.locator(f"#document-{document_id}")
    expect(row).to_have_attribute("data-status", "ACTION_REQUIRED", timeout=SETTLE_TIMEOUT_MS)
    row.get_by_label("Document type").select_option("bank_statement")
    # The row is pushed again before the admin clicks (another event of the document): the new
    # element keeps their choice, so Decide sends what they chose, not the declared type.
    row.evaluate("element => { element.dataset.before = 'push' }")
    hub = app.extensions["leadflow"].hub
    hub.on_event({"type": "document_status", "document_id": document_id})
    assert hub.wait_idle(SETTLE_TIMEOUT_MS / 1000)
    expect(review.locator(f"#document-{document_id}[data-before]")).to_have_count(0)
    expect(row.get_by_label("Document type")).to_have_value("bank_statement")
    row.get_by_role("button", name="Decide").click()

    # Re-read as a bank statement and verified: the client's item counts it, live.
    expect(statements.locator(f"#document-{document_id}")).to_have_attribute(
        "data-status", "VERIFIED", timeout=SETTLE_TIMEOUT_MS)
    expect(statements).to_contain_text("1 of 3 accepted")
    expect(statements).to_have_attribute("data-state", "missing")  # two more statements to come
    expect(review.locator(f"#document-{document_id}")).to_have_count(0)
    for page in (portal, review):
        assert page.evaluate("() => window.__marker") == MARKER, "the page was reloaded"
