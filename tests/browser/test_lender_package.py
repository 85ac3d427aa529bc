"""The case page's lender package and erasure panels in headless Chromium: an advisor builds a
complete case's package and watches it get ready without reloading, then downloads the ZIP; the
brokerage admin erases the client from the same page."""
import io
import re
import zipfile

from playwright.sync_api import expect

from tests.integration.lender_case import seed_complete_case

PANEL_TIMEOUT_MS = 60_000


def test_an_advisor_builds_the_package_watches_it_get_ready_and_downloads_it(sign_in, world, app):
    seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id)
    case = sign_in(world.advisor_a)
    errors = []
    case.on("console", lambda message: message.type == "error" and errors.append(message.text))
    case.goto(f"/workspaces/{world.workspace_a}")
    build = case.get_by_test_id("package-build")
    expect(build).to_be_visible()
    build.click()
    # The panel polls itself while the worker builds: "ready" arrives with no reload.
    expect(case.locator('[data-testid="package-status"][data-status="ready"]')).to_be_visible(timeout=PANEL_TIMEOUT_MS)
    with case.expect_download() as download:
        case.get_by_test_id("package-download").click()
    archive = zipfile.ZipFile(io.BytesIO(open(download.value.path(), "rb").read()))
    assert "00_cover_sheet.pdf" in archive.namelist() and "extracted_data.json" in archive.namelist()
    assert len(archive.namelist()) == 12
    # The advisor may close the case but not erase anyone.
    expect(case.get_by_test_id("case-close")).to_be_visible()
    expect(case.get_by_test_id("erase-client")).to_have_count(0)
    assert _unintended(errors) == [], errors


def _unintended(errors: list[str]) -> list[str]:
    """The console errors left once htmx's reports of requests it aborted on purpose are taken
    out: the panel refreshes with hx-sync="this:replace", so a push-triggered refresh that
    overlaps the poll aborts the older one, and htmx reports each abort as two console errors
    (htmx:afterRequest, htmx:sendAbort). A failed request (htmx:sendError, htmx:responseError)
    still counts, and so does its htmx:afterRequest. Chromium may print the event's element after
    its name ("htmx:sendAbort, [object HTMLElement]"): the name decides."""
    left = [re.split(r"[,\s]", error, maxsplit=1)[0] if error.startswith("htmx:") else error for error in errors]
    for _ in range(left.count("htmx:sendAbort")):
        left.remove("htmx:sendAbort")
        if "htmx:afterRequest" in left:
            left.remove("htmx:afterRequest")
    return left


def test_the_brokerage_admin_erases_the_client_from_the_case_page(sign_in, world, app):
    seed_complete_case(app, world.brokerage_a, world.workspace_a, world.client_a.user_id,
                       skip=("payslip", "bank_statement"))
    admin = sign_in(world.admin_a)
    admin.goto(f"/workspaces/{world.workspace_a}")
    expect(admin.get_by_test_id("package-blocked")).to_be_visible()
    form = admin.get_by_test_id("erase-client")
    expect(form).to_have_count(1)
    form.locator('input[name="confirm_email"]').fill(world.client_a.email)
    form.get_by_role("button", name="Erase the client").click()
    admin.wait_for_url(lambda url: "/dashboard" in url)
    expect(admin.get_by_text("The client was erased: 4 documents and 8 files.")).to_be_visible()
    assert admin.goto(f"/workspaces/{world.workspace_a}").status == 404
