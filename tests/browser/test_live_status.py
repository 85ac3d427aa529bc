"""The live screens in headless Chromium: status changes reach every page that may see them, no page
that may not, and a page that lost its socket catches up when it comes back."""

import pytest
from playwright.sync_api import expect

from tests.corpus import SAMPLES

pytestmark = pytest.mark.browser

BANK_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
# Upload to a settled status runs the worker and the extractor (OCR included) end to end.
SETTLE_TIMEOUT_MS = 20_000
# A dropped socket retries with full-jitter backoff (up to 1 s, 2 s, 4 s ... between attempts).
RECONNECT_TIMEOUT_MS = 20_000
MARKER = "set before the upload; a reload would wipe it"
DOCUMENT_ROWS = "#documents-body tr[id^='document-']"


def test_a_client_and_an_advisor_both_see_the_status_change_without_reloading(sign_in, world):
    portal = sign_in(world.client_a)
    dashboard = sign_in(world.advisor_a)
    assert portal.url.endswith("/portal") and dashboard.url.endswith("/dashboard")
    for page in (portal, dashboard):
        page.evaluate("marker => { window.__marker = marker }", MARKER)

    portal.set_input_files("#file", BANK_STATEMENT)
    portal.select_option("#kind", "bank_statement")
    portal.get_by_role("button", name="Upload").click()
    expect(portal.locator("#upload-result")).to_contain_text("Uploaded")
    expect(portal.locator(DOCUMENT_ROWS)).to_have_count(1)
    row_id = portal.locator(DOCUMENT_ROWS).get_attribute("id")

    for page, verified in ((portal, "VERIFIED"), (dashboard, "Verified")):   # the client's words, staff's words
        row = page.locator(f"#{row_id}")
        expect(row.locator("[data-testid=status]")).to_have_text(verified, timeout=SETTLE_TIMEOUT_MS)
        expect(row).to_have_attribute("data-status", "VERIFIED")
        expect(page.locator(DOCUMENT_ROWS)).to_have_count(1)  # the upload answer and the pushes converge on one row
        expect(page.locator("#connection")).to_have_text("Live")
        assert page.evaluate("window.__marker") == MARKER, "the page was reloaded"



def test_the_upload_answer_alone_puts_the_new_row_in_the_list(sign_in, world):
    portal = sign_in(world.client_a)
    # Ignore the socket, so only the answer to the upload can put the row on the page.
    portal.evaluate("() => document.body.addEventListener('htmx:wsBeforeMessage', e => e.preventDefault())")

    portal.set_input_files("#file", BANK_STATEMENT)
    portal.select_option("#kind", "bank_statement")
    portal.get_by_role("button", name="Upload").click()
    expect(portal.locator("#upload-result")).to_contain_text("Uploaded")

    expect(portal.locator("#upload-result [data-testid=status]")).to_have_count(0)  # no frozen copy beside the list
    expect(portal.locator(DOCUMENT_ROWS)).to_have_count(1)


def test_an_advisor_of_another_brokerage_sees_none_of_it(sign_in, world):
    dashboard = sign_in(world.advisor_b)
    _record_socket_messages(dashboard)

    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    _wait_for_status(world.client_a.api, document_id, "VERIFIED")
    # Pushes reach a socket in the order the events happened, so once a later document of
    # advisor_b's own brokerage has arrived, anything about client_a's would have arrived before it.
    sentinel_id = world.client_b.api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    expect(dashboard.locator(f"#document-{sentinel_id}")).to_have_count(1, timeout=SETTLE_TIMEOUT_MS)

    expect(dashboard.locator(f"#document-{document_id}")).to_have_count(0)
    expect(dashboard.locator(DOCUMENT_ROWS)).to_have_count(1)
    messages = dashboard.evaluate("window.__messages")
    assert messages, "the sentinel's push was recorded"
    assert not [m for m in messages if str(document_id) in m], "advisor_b was sent client_a's document"


def test_a_page_that_reconnects_shows_the_current_truth(sign_in, world, cable):
    dashboard = sign_in(world.advisor_a, base_url=cable.url)
    dashboard.evaluate("marker => { window.__marker = marker }", MARKER)
    connection = dashboard.locator("#connection")

    cable.unplug()
    expect(connection).not_to_have_text("Live")
    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    _wait_for_status(world.client_a.api, document_id, "VERIFIED")
    expect(dashboard.locator(f"#document-{document_id}")).to_have_count(0)  # it happened while away

    cable.plug_in()
    expect(connection).to_have_text("Live", timeout=RECONNECT_TIMEOUT_MS)
    row = dashboard.locator(f"#document-{document_id}")
    expect(row.locator("[data-testid=status]")).to_have_text("Verified")
    expect(dashboard.locator(DOCUMENT_ROWS)).to_have_count(1)
    assert dashboard.evaluate("window.__marker") == MARKER, "the page was reloaded"


def test_a_document_the_system_could_not_place_joins_the_review_queue_live(sign_in, world):
    review = sign_in(world.platform_admin)
    assert review.url.endswith("/review")

    # A bank statement declared as a payslip: the extractor disagrees, so a person must decide.
    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="payslip").json()["id"]
    _wait_for_status(world.client_a.api, document_id, "ACTION_REQUIRED")

    row = review.locator(f"#document-{document_id}")
    expect(row.locator("[data-testid=status]")).to_have_text("Needs a person")
    expect(row.get_by_role("button", name="Decide")).to_be_visible()
    expect(review.locator(DOCUMENT_ROWS)).to_have_count(1)


def _wait_for_status(api, document_id, status: str) -> None:
    """Wait through the API; on a timeout, say where the document got stuck."""
    try:
        api.wait_for_status(document_id, status)
    except AssertionError as timeout:
        history = api.get(f"/api/documents/{document_id}/history").json()
        raise AssertionError(f"{timeout}; its history: {history}") from None


def _record_socket_messages(page) -> None:
    page.evaluate("""() => {
        window.__messages = [];
        document.body.addEventListener("htmx:wsBeforeMessage", e => window.__messages.push(String(e.detail.message)));
    }""")


