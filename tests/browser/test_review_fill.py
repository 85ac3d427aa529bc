"""The review queue asks a person for the fields the reader could not read: a platform admin
sees them named beside the preview, types them in, decides in one step, and the client's
checklist counts the document, live, with no reload on either side."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_dashboard import _pdf_loaded
from tests.corpus import SAMPLES
from tests.integration.test_exactly_once import post_callback
from tests.integration.test_failure_matrix import extraction_service
from tests.integration.test_unreadable_fields import expected_fields, reader_result
from tests.plugins.doubles import HoldingService

pytestmark = pytest.mark.browser

PAYSLIP = "payslips/synthetic_payslip_A1_01.pdf"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
MARKER = "set before anything happened; a reload would wipe it"
SETTLE_TIMEOUT_MS = 20_000


def test_an_admin_types_in_the_pay_month_the_reader_missed_and_the_client_sees_it_verified_live(
        sign_in, world, app, live):
    portal = sign_in(world.client_a)
    review = sign_in(world.platform_admin)
    review.set_viewport_size({"width": 1280, "height": 940})
    for page in (portal, review):
        page.evaluate("marker => { window.__marker = marker }", MARKER)

    # A genuine payslip whose pay month the reader could not find.
    holding = HoldingService()
    with extraction_service(app, holding):
        document_id = world.client_a.api.upload(SAMPLES / PAYSLIP, kind="payslip", title="Payslip August").json()["id"]
        world.client_a.api.wait_for_status(document_id, "EXTRACTING")
        live.drain()
    fields = {**expected_fields(PAYSLIP), "period": None}
    answer = post_callback(world, app, reader_result(holding.jobs[-1]["job_id"], "payslip", fields, {}, 0.95))
    assert answer.status_code == 202

    # The client is told a specialist will check it, not that the payslip is incomplete.
    payslips = portal.locator("#item-payslips")
    client_row = payslips.locator(f"#document-{document_id}")
    expect(client_row).to_have_attribute("data-status", "ACTION_REQUIRED", timeout=SETTLE_TIMEOUT_MS)
    expect(client_row).to_contain_text("We could not read the pay month on this payslip; a specialist will check it.")

    # The reviewer sees the field named, as an input, beside the file's preview.
    row = review.locator(f"#document-{document_id}")
    expect(row).to_have_attribute("data-status", "ACTION_REQUIRED", timeout=SETTLE_TIMEOUT_MS)
    unread = row.get_by_test_id("unreadable-fields")
    expect(unread).to_contain_text("Pay month")
    expect(unread.get_by_role("textbox")).to_have_count(1)
    review.keyboard.press("j")
    expect(review.locator("#queue-preview object[type='application/pdf']")).to_have_count(1)
    _pdf_loaded(review)
    row.get_by_label("Pay month").fill("August 2026")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    review.screenshot(path=SCREENSHOTS / "review_fill.png")
    row.get_by_role("button", name="Save and decide").click()

    # One step: the document leaves the queue VERIFIED and the client's checklist counts it.
    expect(review.locator(f"#document-{document_id}")).to_have_count(0, timeout=SETTLE_TIMEOUT_MS)
    expect(client_row).to_have_attribute("data-status", "VERIFIED", timeout=SETTLE_TIMEOUT_MS)
    expect(payslips).to_contain_text("1 of 3 accepted")
    content = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()
    assert (content["cause"], content["content"]["fields"]["period"]) == ("corrected", "2026-08")
    for page in (portal, review):
        assert page.evaluate("() => window.__marker") == MARKER, "the page was reloaded"


def test_a_value_the_reviewer_mistyped_is_refused_in_the_row_and_what_was_typed_stays(sign_in, world, app, live):
    review = sign_in(world.platform_admin)
    document_id, row = _a_payslip_whose_net_pay_was_not_read(review, world, app, live)
    row.get_by_label("net pay").fill("about three thousand")
    row.get_by_label("net pay").press("Enter")   # Enter in a field saves it, it does not decide a type
    expect(row.get_by_role("alert")).to_contain_text("We could not understand the net pay")
    expect(row.get_by_label("net pay")).to_have_value("about three thousand")
    assert world.client_a.api.document(document_id)["status"] == "ACTION_REQUIRED"


def test_what_a_reviewer_is_typing_outlives_a_push_of_the_same_row(sign_in, world, app, live):
    """A row pushed again while the reviewer types (another event for the document, a list answer
    already on its way) replaces the element; what they typed and their cursor stay."""
    review = sign_in(world.platform_admin)
    document_id, row = _a_payslip_whose_net_pay_was_not_read(review, world, app, live)
    live.drain()
    net = row.get_by_label("net pay")
    net.fill("3.394")
    row.evaluate("element => { element.dataset.before = 'push' }")

    hub = app.extensions["leadflow"].hub
    hub.on_event({"type": "document_status", "document_id": document_id})
    assert hub.wait_idle(SETTLE_TIMEOUT_MS / 1000)
    expect(review.locator(f"#document-{document_id}[data-before]")).to_have_count(0)  # a new element

    expect(net).to_have_value("3.394")
    expect(net).to_be_focused()
    net.press_sequentially(",72")
    net.press("Enter")
    expect(row).to_have_count(0, timeout=SETTLE_TIMEOUT_MS)   # saved and decided: it left the queue
    content = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()
    assert (content["cause"], content["content"]["fields"]["net"]) == ("corrected", "3394.72")


def _a_payslip_whose_net_pay_was_not_read(review, world, app, live):
    """A genuine payslip the reader read all but its net pay of, waiting in the review queue."""
    holding = HoldingService()
    with extraction_service(app, holding):
        document_id = world.client_a.api.upload(SAMPLES / PAYSLIP, kind="payslip").json()["id"]
        world.client_a.api.wait_for_status(document_id, "EXTRACTING")
        live.drain()
    fields = {**expected_fields(PAYSLIP), "net": None}
    assert post_callback(world, app, reader_result(holding.jobs[-1]["job_id"], "payslip", fields, {},
                                                   0.95)).status_code == 202
    row = review.locator(f"#document-{document_id}")
    expect(row).to_have_attribute("data-status", "ACTION_REQUIRED", timeout=SETTLE_TIMEOUT_MS)
    return document_id, row
