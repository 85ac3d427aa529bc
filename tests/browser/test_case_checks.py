"""The case page in headless Chromium: the checks across a case's documents follow its documents
live, from "problem: names differ" to ok when a corrected document arrives, with the income summary."""
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import SAMPLES

pytestmark = pytest.mark.browser

SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
SETTLE_TIMEOUT_MS = 30_000
MARKER = "set before anything happened; a reload would wipe it"
PERSONA = (("payslips/synthetic_payslip_A1_01.pdf", "payslip"),
           ("bank-statements/synthetic_bank_statement_A1_01.pdf", "bank_statement"),
           ("employment-contracts/synthetic_employment_contract_A1_01.pdf", "employment_contract"),
           ("tax/synthetic_wage_tax_certificate_A1_01.pdf", "wage_tax_certificate"))


def test_a_case_turns_from_names_differ_to_ok_live_when_a_corrected_document_arrives(sign_in, world):
    page = sign_in(world.advisor_a)
    page.goto(f"/workspaces/{world.workspace_a}")
    page.set_viewport_size({"width": 1280, "height": 1180})
    expect(page.locator("#connection")).to_have_text("Live", timeout=10_000)
    page.evaluate("marker => { window.__marker = marker }", MARKER)
    identity = page.locator('[data-check="identity"]')
    expect(identity).to_have_attribute("data-outcome", "not_checked")

    ids = {}
    for path, kind in PERSONA:
        created = world.client_a.api.upload(SAMPLES / path, kind=kind, workspace_id=world.workspace_a)
        assert created.status_code == 201, created.text
        ids[kind] = created.json()["id"]
    for document_id in ids.values():
        world.client_a.api.wait_for_status(document_id, ("VERIFIED", "REJECTED", "ACTION_REQUIRED"), timeout=60)
    expect(identity).to_have_attribute("data-outcome", "ok", timeout=SETTLE_TIMEOUT_MS)

    # A colleague types the holder the bank statement shows for a joint account's other holder.
    corrected = world.advisor_a.api.post(f"/api/documents/{ids['bank_statement']}/corrections",
                                         json={"changes": {"holder": "Anna Schmidt"}})
    assert corrected.status_code == 200, corrected.text
    expect(identity).to_have_attribute("data-outcome", "problem", timeout=SETTLE_TIMEOUT_MS)
    expect(identity).to_contain_text("Names differ")
    expect(identity).to_contain_text("Anna Schmidt")
    expect(page.get_by_test_id("case-outcome")).to_have_text("Problem")

    # The statement is corrected to the account holder it really names: the case is ok again.
    corrected = world.advisor_a.api.post(f"/api/documents/{ids['bank_statement']}/corrections",
                                         json={"changes": {"holder": "Rahul Mustermann"}})
    assert corrected.status_code == 200, corrected.text
    expect(identity).to_have_attribute("data-outcome", "ok", timeout=SETTLE_TIMEOUT_MS)
    expect(identity).to_contain_text("Rahul Mustermann")
    assert page.evaluate("window.__marker") == MARKER, "the page was reloaded"

    expect(page.locator('[data-check="income_credits"]')).to_have_attribute("data-outcome", "ok")
    expect(page.locator('[data-figure="average_net"]')).to_have_text("3,394.72 €")
    expect(page.get_by_test_id("salary-credits")).to_contain_text("Aug 2026")
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=SCREENSHOTS / "case.png", full_page=False)
