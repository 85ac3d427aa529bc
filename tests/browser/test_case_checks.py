"""The case page in headless Chromium: the checks across a case's documents follow its documents
live, with the income summary; a statement that comes to name someone not on the case leaves them;
a co-applicant added on the page brings their own checklist items and checks, in English and German."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.corpus import SAMPLES

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SETTLE_TIMEOUT_MS = 30_000
MARKER = "set before anything happened; a reload would wipe it"
PERSONA = (("payslips/synthetic_payslip_A1_01.pdf", "payslip"),
           ("bank-statements/synthetic_bank_statement_A1_01.pdf", "bank_statement"),
           ("employment-contracts/synthetic_employment_contract_A1_01.pdf", "employment_contract"),
           ("tax/synthetic_wage_tax_certificate_A1_01.pdf", "wage_tax_certificate"))
CLIENT = "Rahul Mustermann"                 # client a, the persona the A1-01 samples name
PARTNER = "James Beispiel"                  # the person the A1-02 samples name
PARTNER_PAYSLIP = SAMPLES / "payslips" / "synthetic_payslip_A1_02.pdf"


def upload(world, path, kind):
    created = world.client_a.api.upload(path, kind=kind, workspace_id=world.workspace_a)
    assert created.status_code == 201, created.text
    document_id = created.json()["id"]
    return world.client_a.api.wait_for_status(document_id, ("VERIFIED", "REJECTED", "ACTION_REQUIRED"), timeout=60)


def check(page, key, applicant):
    return page.locator(f'[data-check="{key}"][data-applicant="{applicant}"]')


def test_the_checks_follow_the_documents_live_and_leave_a_statement_that_names_a_stranger(sign_in, world):
    page = sign_in(world.advisor_a)
    page.goto(f"/workspaces/{world.workspace_a}")
    page.set_viewport_size({"width": 1280, "height": 1180})
    expect(page.locator("#connection")).to_have_text("Live", timeout=10_000)
    page.evaluate("marker => { window.__marker = marker }", MARKER)
    identity = check(page, "identity", CLIENT)
    expect(identity).to_have_attribute("data-outcome", "not_checked")

    ids = {kind: upload(world, SAMPLES / path, kind)["id"] for path, kind in PERSONA}
    expect(identity).to_have_attribute("data-outcome", "ok", timeout=SETTLE_TIMEOUT_MS)
    expect(identity).to_contain_text(CLIENT)
    credits = check(page, "income_credits", CLIENT)
    expect(credits).to_have_attribute("data-outcome", "ok")
    expect(page.locator('[data-figure="average_net"]')).to_have_text("3,394.72 €")
    expect(page.get_by_test_id("salary-credits")).to_contain_text("Aug 2026")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=SCREENSHOTS / "case.png", full_page=False)

    # A colleague reads another holder on the statement: it names someone not on the case, so it
    # goes to a person and the checks no longer count it.
    corrected = world.advisor_a.api.post(f"/api/documents/{ids['bank_statement']}/corrections",
                                         json={"changes": {"holder": "Anna Schmidt"}})
    assert corrected.status_code == 200, corrected.text
    assert world.advisor_a.api.document(ids["bank_statement"])["status"] == "ACTION_REQUIRED"
    expect(credits).to_have_attribute("data-outcome", "not_checked", timeout=SETTLE_TIMEOUT_MS)
    expect(identity).to_have_attribute("data-outcome", "ok")
    assert page.evaluate("window.__marker") == MARKER, "the page was reloaded"


@pytest.mark.parametrize("language, words", [
    ("en", {"add": "Add the co-applicant", "identity": "Same person on every document",
            "household": "Household"}),
    ("de", {"add": "Mitantragsteller hinzufügen", "identity": "Dieselbe Person auf allen Unterlagen",
            "household": "Haushalt"}),
])
def test_a_co_applicant_added_on_the_case_page_brings_their_checklist_and_checks(app, sign_in, world, language,
                                                                                  words):
    from leadflow.extensions import db
    from leadflow.models import User
    with app.app_context():
        db.session.get(User, world.advisor_a.user_id).language = language
        db.session.commit()
        db.session.remove()
    assert upload(world, SAMPLES / PERSONA[0][0], "payslip")["status"] == "VERIFIED"
    page = sign_in(world.advisor_a)
    page.goto(f"/workspaces/{world.workspace_a}")
    page.set_viewport_size({"width": 1280, "height": 1400})
    expect(page.locator('[data-item="payslips.co_applicant"]')).to_have_count(0)

    page.fill("#co-name", PARTNER)
    page.select_option("#co-citizenship", "GB")
    page.get_by_role("button", name=words["add"]).click()
    page.wait_for_url(lambda url: url.endswith("#applicants"))
    expect(page.locator("#connection")).to_have_text("Live", timeout=10_000)
    expect(page.locator('[data-applicant-role="co_applicant"]')).to_contain_text(PARTNER)
    # The checklist follows: his own payslips, and a residence permit (he is British).
    partner_payslips = page.locator('[data-item="payslips.co_applicant"]')
    expect(partner_payslips).to_contain_text(PARTNER)
    expect(partner_payslips).to_have_class("item item-missing")
    expect(page.locator('[data-item="residence_permit.co_applicant"]')).to_have_class("item item-missing")
    # The checks follow: each applicant's own, named.
    partner_identity = check(page, "identity", PARTNER)
    expect(partner_identity).to_have_attribute("data-outcome", "not_checked")
    expect(partner_identity).to_contain_text(words["identity"])
    expect(check(page, "identity", CLIENT)).to_have_attribute("data-outcome", "ok")

    # His payslip arrives: it is his (not a stranger's), live on the open page.
    assert upload(world, PARTNER_PAYSLIP, "payslip")["status"] == "VERIFIED"
    expect(partner_identity).to_have_attribute("data-outcome", "ok", timeout=SETTLE_TIMEOUT_MS)
    expect(partner_payslips).to_contain_text("synthetic_payslip_A1_02", timeout=SETTLE_TIMEOUT_MS)
    expect(page.locator('[data-item="payslips"]')).not_to_contain_text("synthetic_payslip_A1_02")
    expect(page.locator('[data-testid="income-summary"][data-applicant="James Beispiel"]')).to_be_visible()
    expect(page.get_by_test_id("household-income")).to_be_visible()
    expect(page.locator("#case-file")).to_contain_text(words["household"])
    if language == "en":
        page.locator("#applicants").scroll_into_view_if_needed()
        page.screenshot(path=SCREENSHOTS / "case_applicants.png", full_page=False)
