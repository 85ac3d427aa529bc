"""The staff screens in headless Chromium: the dashboard, a document's page, the review queue and
the credits page, live over the socket, and nothing of one brokerage on another's screens."""
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.corpus import SAMPLES
from tests.plugins.live import TODAY, wait_until

pytestmark = pytest.mark.browser

BANK_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
# Client b's own statement: the fixture's client b is the person it names.
CLIENT_B_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_03.pdf"
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SETTLE_TIMEOUT_MS = 20_000
ROWS = "#documents-body tr[id^='document-']"
MARKER = "set before anything happened; a reload would wipe it"
SETTLED = {"VERIFIED", "REJECTED", "ACTION_REQUIRED"}


def test_an_advisor_watches_an_upload_settle_live_then_corrects_it_into_a_new_version(sign_in, world, app):
    _seed(app, world, 60)
    dashboard = sign_in(world.advisor_a)
    dashboard.evaluate("marker => { window.__marker = marker }", MARKER)
    before = {status: _count(dashboard, status) for status in ("ALL", "VERIFIED", "PENDING")}

    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="bank_statement",
                                            title="Kontoauszug Oktober 2026").json()["id"]
    row = dashboard.locator(f"#document-{document_id}")
    expect(row.get_by_test_id("status")).to_have_text("Verified", timeout=SETTLE_TIMEOUT_MS)
    expect(dashboard.locator(ROWS).first).to_have_id(f"document-{document_id}")   # newest first
    expect(dashboard.get_by_test_id("count-VERIFIED")).to_have_text(f"{before['VERIFIED'] + 1:,}")
    expect(dashboard.get_by_test_id("count-ALL")).to_have_text(f"{before['ALL'] + 1:,}")
    expect(dashboard.get_by_test_id("count-PENDING")).to_have_text(f"{before['PENDING']:,}")
    assert dashboard.evaluate("window.__marker") == MARKER, "the page was reloaded"
    _screenshot(dashboard, "dashboard", full_page=False)

    # The document page's screenshot is taken at this size: resizing for a full-page shot
    # would make the PDF viewer paint again, half done.
    dashboard.set_viewport_size({"width": 1280, "height": 1720})
    row.get_by_role("link", name="Kontoauszug Oktober 2026").click()
    dashboard.wait_for_url(f"**/documents/{document_id}")
    expect(dashboard.get_by_test_id("fields-version")).to_have_text("version 1 · First reading")
    holder = dashboard.locator("#fields-panel").get_by_label("Account holder", exact=True)
    holder.fill("Rahul Mustermann-Schmidt")
    dashboard.get_by_role("button", name="Save corrections").click()

    expect(dashboard.get_by_test_id("fields-version")).to_have_text("version 2 · Corrected")
    chain = dashboard.get_by_test_id("versions")
    expect(chain.locator("li.version")).to_have_count(2)
    expect(chain.locator("li.version").first).to_contain_text("v2")
    expect(chain.locator("li.version").first).to_contain_text("Corrected")
    expect(chain.locator("li.version").first).to_contain_text("by Advisor A")
    expect(dashboard.get_by_test_id("history")).to_contain_text("corrected holder")

    dashboard.get_by_label("Compare", exact=True).select_option("1")
    dashboard.get_by_label("with", exact=True).select_option("2")
    dashboard.get_by_role("button", name="Compare").click()
    diff = dashboard.get_by_test_id("diff")
    expect(diff.locator("tr.diff-changed")).to_contain_text("Account holder")
    expect(diff).to_contain_text("Rahul Mustermann-Schmidt")
    dashboard.evaluate("() => window.scrollTo(0, 0)")
    _pdf_loaded(dashboard)
    _screenshot(dashboard, "document", full_page=False)


def test_counts_and_a_filtered_list_follow_the_pushes_and_keep_to_their_filter(sign_in, world):
    waiting = sign_in(world.advisor_a)
    waiting.goto("/dashboard?status=ACTION_REQUIRED")
    expect(waiting.locator("#connection")).to_have_text("Live", timeout=10_000)
    expect(waiting.locator(ROWS)).to_have_count(0)

    verified_id = world.client_a.api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    unsure_id = world.client_a.api.upload(BANK_STATEMENT, kind="payslip").json()["id"]
    for document_id, status in ((verified_id, "VERIFIED"), (unsure_id, "ACTION_REQUIRED")):
        world.client_a.api.wait_for_status(document_id, status)

    expect(waiting.locator(f"#document-{unsure_id}").get_by_test_id("status")).to_have_text("Needs a person")
    expect(waiting.get_by_test_id("count-ACTION_REQUIRED")).to_have_text("1")
    expect(waiting.get_by_test_id("count-VERIFIED")).to_have_text("1")
    expect(waiting.get_by_test_id("count-ALL")).to_have_text("2")
    # Neither the VERIFIED document nor the earlier pushes of the other one joined this list.
    expect(waiting.locator(ROWS)).to_have_count(1)


def test_typing_a_search_narrows_the_list_in_place_and_the_address_becomes_its_link(sign_in, world, app):
    _seed(app, world, 60)
    dashboard = sign_in(world.advisor_a)
    dashboard.evaluate("marker => { window.__marker = marker }", MARKER)
    dashboard.get_by_label("Search by name").fill("gehalts")
    dashboard.wait_for_url("**/dashboard?q=gehalts")
    titles = dashboard.locator(f"{ROWS} .doc-title")
    expect(titles.first).to_contain_text("Gehaltsabrechnung")
    for title in titles.all_inner_texts():
        assert "gehalts" in title.lower(), title
    dashboard.get_by_label("Status", exact=True).select_option("REJECTED")
    dashboard.wait_for_url("**/dashboard?status=REJECTED&q=gehalts")
    expect(dashboard.locator("#documents-body")).to_have_attribute("data-filter-status", "REJECTED")
    # The counts' links keep the other filters as they change.
    expect(dashboard.locator(".count-verified")).to_have_attribute("href", "/dashboard?status=VERIFIED&q=gehalts")
    assert dashboard.evaluate("window.__marker") == MARKER, "the page was reloaded"
    expect(dashboard.locator("#connection")).to_have_text("Live")


def test_a_case_page_shows_its_own_uploads_live_and_its_checklist_follows(sign_in, world):
    case = sign_in(world.advisor_a)
    case.goto(f"/workspaces/{world.workspace_a}")
    expect(case.locator("#connection")).to_have_text("Live", timeout=10_000)
    bank_statements = case.locator("[data-item=bank_statements]")
    expect(bank_statements).to_contain_text("0 of 3 verified")

    in_case = world.client_a.api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    world.client_a.api.wait_for_status(in_case, "VERIFIED")
    elsewhere = world.advisor_a.api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]   # in no case
    world.advisor_a.api.wait_for_status(elsewhere, "VERIFIED")
    # Pushes arrive in order: once a later upload of the case is shown, the other one's are past.
    sentinel = world.client_a.api.upload(BANK_STATEMENT, kind="payslip").json()["id"]
    expect(case.locator(f"#document-{sentinel}").get_by_test_id("status")).to_have_text(
        "Needs a person", timeout=SETTLE_TIMEOUT_MS)

    expect(case.locator(f"#document-{in_case}").get_by_test_id("status")).to_have_text("Verified")
    expect(case.locator(f"#document-{elsewhere}")).to_have_count(0)
    expect(case.locator(ROWS)).to_have_count(2)
    expect(bank_statements).to_contain_text("1 of 3 verified")
    expect(bank_statements.locator(f"a[href='/documents/{in_case}']")).to_have_count(1)


def test_an_admin_decides_a_document_from_the_queue_with_the_keyboard_and_it_leaves_the_queue(sign_in, world):
    review = sign_in(world.platform_admin)
    assert review.url.endswith("/review")
    review.set_viewport_size({"width": 1280, "height": 940})   # the screenshot's size, set before the preview loads
    expect(review.get_by_text("next document")).to_be_visible()   # the keys are listed on the page

    # A bank statement the client called a payslip: the extractor disagrees, so a person decides.
    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="payslip",
                                            title="Bank statement (uploaded as payslip)").json()["id"]
    world.client_a.api.wait_for_status(document_id, "ACTION_REQUIRED")
    row = review.locator(f"#document-{document_id}")
    expect(row.get_by_test_id("status")).to_have_text("Needs a person")
    expect(row).to_contain_text("declared: Payslip")

    review.keyboard.press("j")
    expect(row).to_be_focused()
    expect(review.locator("#queue-preview object[type='application/pdf']")).to_have_attribute(
        "data", re.compile(f"^/documents/{document_id}/file"))
    _pdf_loaded(review)
    _screenshot(review, "review", full_page=False)

    review.keyboard.press("t")
    expect(row.get_by_label("Document type")).to_be_focused()
    row.get_by_label("Document type").select_option("bank_statement")
    review.keyboard.press("Escape")
    expect(row).to_be_focused()
    review.keyboard.press("d")

    expect(review.locator(f"#document-{document_id}")).to_have_count(0)
    expect(review.locator("#documents-body tr.empty")).to_be_visible()
    decided = world.client_a.api.wait_for_status(document_id, SETTLED)
    assert decided["status"] == "VERIFIED" and decided["document_type"] == "bank_statement", decided
    expect(review.locator(ROWS)).to_have_count(0)


def test_a_second_brokerages_advisor_sees_none_of_it(sign_in, world):
    other = sign_in(world.advisor_b)
    other.evaluate("""() => {
        window.__messages = [];
        document.body.addEventListener("htmx:wsBeforeMessage", e => window.__messages.push(String(e.detail.message)));
    }""")

    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="payslip").json()["id"]
    world.client_a.api.wait_for_status(document_id, "ACTION_REQUIRED")
    # Pushes reach a socket in order: once a later document of brokerage b has arrived, anything
    # about brokerage a's would have arrived before it.
    sentinel_id = world.client_b.api.upload(CLIENT_B_STATEMENT, kind="bank_statement").json()["id"]
    expect(other.locator(f"#document-{sentinel_id}").get_by_test_id("status")).to_have_text(
        "Verified", timeout=SETTLE_TIMEOUT_MS)

    expect(other.locator(ROWS)).to_have_count(1)
    expect(other.get_by_test_id("count-ALL")).to_have_text("1")
    expect(other.get_by_test_id("count-ACTION_REQUIRED")).to_have_text("0")
    assert not [m for m in other.evaluate("window.__messages") if document_id in m]
    for path in (f"/documents/{document_id}", f"/workspaces/{world.workspace_a}"):
        assert other.goto(path).status == 404


def test_a_system_failure_is_announced_to_an_admin_who_retries_it_from_the_notice(sign_in, world, app):
    dashboard = sign_in(world.admin_a)
    document_id = _failed_for_system_reasons(app, world)

    notice = dashboard.get_by_test_id("failure-toast")
    expect(notice).to_be_visible()
    expect(notice).to_contain_text("Our system failed; its automatic retries are used up")
    expect(notice).not_to_contain_text("SYSTEM_")
    expect(dashboard.locator("#toasts")).to_have_attribute("aria-live", "assertive")
    expect(dashboard.locator(f"#document-{document_id}").get_by_test_id("status")).to_have_text("Rejected")

    notice.get_by_role("button", name="Retry").click()
    expect(notice).to_contain_text("through the pipeline again")
    expect(dashboard.locator(f"#document-{document_id}").get_by_test_id("status")).to_have_text(
        "Verified", timeout=SETTLE_TIMEOUT_MS)


def test_an_advisor_is_not_told_of_failures_they_cannot_retry(sign_in, world, app):
    dashboard = sign_in(world.advisor_a)
    document_id = _failed_for_system_reasons(app, world)
    expect(dashboard.locator(f"#document-{document_id}").get_by_test_id("status")).to_have_text("Rejected")
    expect(dashboard.get_by_test_id("failure-toast")).to_have_count(0)


def test_the_credits_page_shows_the_balance_reservations_and_pages_per_month(sign_in, world, app):
    _ledger_history(app, world)
    document_id = world.client_a.api.upload(BANK_STATEMENT, kind="bank_statement").json()["id"]
    settled = world.client_a.api.wait_for_status(document_id, "VERIFIED")

    credits = sign_in(world.admin_a)
    credits.goto("/credits")
    pages = settled["page_count"]
    history = 4 + 9 + 12 + 7 + 15 + 11
    wait_until(lambda: _settled(app, world) == history + pages, message="the settlement of the upload")
    credits.reload()
    expect(credits.get_by_test_id("settled")).to_have_text(f"{history + pages}")
    expect(credits.get_by_test_id("balance")).to_have_text(f"{1000 - history - pages - 6}")
    expect(credits.get_by_test_id("reserved")).to_have_text("6")
    expect(credits.get_by_test_id("balanced")).to_contain_text("✓")
    expect(credits.locator("[data-testid=chart] g.bar")).to_have_count(12)
    expect(credits.locator("[data-testid=chart] g.bar[data-month='2026-11']")).to_have_attribute(
        "data-pages", str(11 + pages))
    _screenshot(credits, "credits")


# --- helpers ---------------------------------------------------------------------------------

def _count(page, status: str) -> int:
    return int(page.get_by_test_id(f"count-{status}").inner_text().replace(",", ""))


def _screenshot(page, name: str, full_page: bool = True) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOTS / f"{name}.png", full_page=full_page)


def _pdf_loaded(page) -> None:
    """Wait until Chromium's PDF viewer in the page has the document (for a screenshot that
    shows it): its viewer element knows the document's dimensions once it is loaded."""
    def loaded():
        for frame in page.frames:
            try:
                if frame.evaluate("() => !!(document.querySelector('pdf-viewer') || {}).documentDimensions"):
                    return True
            except Exception:   # a frame navigating or gone: look again
                continue
        return False
    wait_until(loaded, timeout=10, message="the PDF preview to load")


def _seed(app, world, n: int) -> None:
    """Settled documents of brokerage a from the last weeks (their files are not stored)."""
    from leadflow.cli_seed import STATUSES, seed
    settled = tuple((status, share) for status, share in STATUSES if status in SETTLED)  # none left in flight
    with app.app_context():
        seed(n, "Alpha Hypotheken", random_seed=3, now=TODAY - timedelta(minutes=5), statuses=settled, per_case=4)


def _failed_for_system_reasons(app, world) -> str:
    """A document of client a whose processing failed for good (its file is stored, so a retry
    can succeed): announced over the socket like any status change."""
    from leadflow import clock, outbox
    from leadflow.domain.lifecycle import Status
    from leadflow.extensions import db
    from leadflow.models import Document, new_id
    from leadflow.services import counts, documents, transitions
    from leadflow.ports import current_ports
    with app.app_context():
        document_id = new_id()
        key = documents.storage_key(world.brokerage_a, document_id, "statement.pdf")
        data = BANK_STATEMENT.read_bytes()
        current_ports().storage.put(key, data, "application/pdf")
        now = clock.now()
        db.session.add(Document(id=document_id, brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                                workspace_id=world.workspace_a, title="Kontoauszug September", kind="bank_statement",
                                status="PENDING", filename="statement.pdf", content_type="application/pdf",
                                size_bytes=len(data), storage_key=key, verification_notes=[], created_at=now,
                                updated_at=now, status_changed_at=now))
        counts.bump(db.session, world.brokerage_a, {"PENDING": 1})
        db.session.flush()
        transitions.apply(db.session, document_id, Status.PENDING, Status.REJECTED, action="retries_exhausted",
                          note="Verification failed after 3 attempts: storage timeout",
                          rejection_code="SYSTEM_RETRIES_EXHAUSTED",
                          verification_notes=[{"code": "system_failure", "en": "Our system could not check this "
                                               "document; an administrator will retry it.", "de": "…"}])
        outbox.commit()
        db.session.remove()
    return document_id


def _ledger_history(app, world) -> None:
    """Settled pages in earlier months and one open reservation, through the billing service."""
    from leadflow import clock
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import Document, ExtractionJob, new_id
    with app.app_context():
        document_id = new_id()
        db.session.add(Document(id=document_id, brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                                workspace_id=world.workspace_a, title="Gehaltsabrechnung 09/2026", kind="payslip",
                                document_type="payslip", status="VERIFIED", filename="p.pdf",
                                content_type="application/pdf", size_bytes=1, storage_key="seed/p.pdf",
                                verification_notes=[]))
        db.session.flush()
        entries = [(datetime(2026, m, 12), pages) for m, pages in ((6, 4), (7, 9), (8, 12), (9, 7), (10, 15))]
        entries += [(datetime(2026, 11, 3), 11), (TODAY, None)]
        for i, (when, pages) in enumerate(entries):
            clock.travel_to(when)
            job_id = f"history-{i}"
            db.session.add(ExtractionJob(id=job_id, document_id=document_id, brokerage_id=world.brokerage_a,
                                         mode="first", status="accepted" if pages is None else "completed"))
            db.session.flush()
            billing.reserve(db.session, world.brokerage_a, job_id, pages or 6)
            if pages is not None:
                billing.settle(db.session, job_id, pages)
            db.session.commit()
        clock.travel_to(TODAY)
        db.session.remove()


def _settled(app, world) -> int:
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    with app.app_context():
        try:
            return billing.wallet_state(db.session, world.brokerage_a).settled
        finally:
            db.session.remove()
