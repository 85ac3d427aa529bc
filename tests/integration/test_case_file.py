"""A case built from the samples (tests/samples, persona A1-01), read end to end: the
extractor reads each document, the pipeline verifies it, and the case page shows the checks across
them and the income summary; the advisor's planned payout date and what the client's portal shows."""
import re
from datetime import date, datetime

from sqlalchemy import select

from leadflow import clock, sweeps
from leadflow.domain import case_checks as cc
from leadflow.extensions import db
from leadflow.models import SentNotification, Workspace
from leadflow.ports import current_ports
from leadflow.services import case_file
from tests.corpus import SAMPLES
from tests.integration.web_client import post, signed_in

PERSONA = (("payslips/synthetic_payslip_A1_01.pdf", "payslip"),
           ("bank-statements/synthetic_bank_statement_A1_01.pdf", "bank_statement"),
           ("employment-contracts/synthetic_employment_contract_A1_01.pdf", "employment_contract"),
           ("tax/synthetic_wage_tax_certificate_A1_01.pdf", "wage_tax_certificate"))


def build_case(world):
    ids = []
    for path, kind in PERSONA:
        created = world.client_a.api.upload(SAMPLES / path, kind=kind, workspace_id=world.workspace_a)
        assert created.status_code == 201, created.text
        ids.append(created.json()["id"])
    for document_id in ids:
        settled = world.client_a.api.wait_for_status(document_id, ("VERIFIED", "REJECTED", "ACTION_REQUIRED"),
                                                     timeout=90)
        assert settled["status"] == "VERIFIED", settled
    return ids


def checks_on(page: str) -> dict[str, str]:
    return dict(re.findall(r'data-check="([a-z_]+)" data-outcome="([a-z_]+)"', page))


def test_a_case_built_from_the_samples_shows_its_checks_and_income_summary(app, world):
    payslip, statement, contract, certificate = build_case(world)
    with app.app_context():
        case = db.session.get(Workspace, world.workspace_a)
        results = {r.key: r for r in case_file.case_checks(db.session, current_ports(), case)}
        summary = case_file.income_summary(db.session, current_ports(), case)
        db.session.remove()
    # One person on every document; the net pay (payout after the car deduction) is the salary credit.
    assert results["identity"].outcome == cc.OK and set(results["identity"].documents) == {payslip, statement, contract}
    assert results["income_credits"].outcome == cc.OK
    assert results["income_certificate"].outcome == cc.OK
    assert results["red_flags"].outcome == cc.OK and results["recent"].outcome == cc.OK
    # The persona changes jobs on 1 January 2027: the contract names the new employer and salary.
    assert results["employer"].outcome == cc.WARNING and results["income_contract"].outcome == cc.WARNING
    assert results["identity_valid"].outcome == cc.NOT_CHECKED
    assert (str(summary.average_net), str(summary.average_gross), str(summary.annual_gross)) == (
        "3394.72", "5397.47", "64769.64")
    assert {k: str(v) for k, v in summary.credits_by_month.items()} == {"2026-08": "2351.92"}
    (name, client), = summary.people
    assert name == "Rahul Mustermann" and str(client.average_net) == "3394.72"
    assert str(client.certified_gross) == "61808.06" and str(client.contract_annual) == "56000.00"
    assert {r.applicant for r in results.values() if r.key != "red_flags" and r.key != "identity_valid"} == {
        "Rahul Mustermann"}, "each per-applicant check names the client"

    advisor = signed_in(app, world.advisor_a)
    page = advisor.get(f"/workspaces/{world.workspace_a}").get_data(as_text=True)
    assert checks_on(page) == {key: r.outcome for key, r in results.items()}
    assert 'data-testid="case-outcome">Warning<' in page
    assert 'data-figure="average_net">3,394.72 €' in page and 'data-month="2026-08">Aug 2026<' in page
    partial = advisor.get(f"/workspaces/{world.workspace_a}/checks")
    assert partial.status_code == 200 and checks_on(partial.get_data(as_text=True)) == checks_on(page)


def test_the_advisor_plans_the_payout_and_a_bad_date_is_a_400_that_writes_nothing(app, world):
    advisor = signed_in(app, world.advisor_a)
    url = f"/workspaces/{world.workspace_a}/payout-date"
    for bad in ("31.02.2027", "2027-02-30", "0001-01-01", "tomorrow"):
        response = post(advisor, url, {"planned_payout_date": bad})
        assert response.status_code == 400, bad
        assert "Enter the payout date as a date" in response.get_data(as_text=True)
    with app.app_context():
        assert db.session.get(Workspace, world.workspace_a).planned_payout_date is None
        db.session.remove()
    response = post(advisor, url, {"planned_payout_date": "2027-03-31"})
    assert response.status_code == 303
    with app.app_context():
        assert db.session.get(Workspace, world.workspace_a).planned_payout_date == date(2027, 3, 31)
        db.session.remove()
    assert 'value="31 Mar 2027"' in advisor.get(f"/workspaces/{world.workspace_a}").get_data(as_text=True)
    # Typed in the other language's format, the date is read as well.
    assert post(advisor, url, {"planned_payout_date": "30.04.2027"}).status_code == 303
    with app.app_context():
        assert db.session.get(Workspace, world.workspace_a).planned_payout_date == date(2027, 4, 30)
        db.session.remove()
    # Another brokerage's advisor and the client cannot plan it.
    assert post(signed_in(app, world.advisor_b), url, {"planned_payout_date": "2027-01-01"}).status_code == 404
    assert post(signed_in(app, world.client_a), url, {"planned_payout_date": "2027-01-01"}).status_code in (302, 403)
    assert signed_in(app, world.advisor_b).get(f"/workspaces/{world.workspace_a}/checks").status_code == 404


def test_an_aged_out_payslip_leaves_the_checklist_and_the_client_reads_what_to_replace_but_no_red_flag(app, world):
    payslip, statement, _contract, _certificate = build_case(world)
    client, advisor = signed_in(app, world.client_a), signed_in(app, world.advisor_a)
    portal = client.get("/portal").get_data(as_text=True)
    assert "item-replace" not in portal
    # August's payslip is accepted through 30 November, a statement ending in August too.
    clock.travel_to(datetime(2026, 12, 1, 6, 0))
    with app.app_context():
        assert sweeps.run("stale") == 2
    portal = client.get("/portal").get_data(as_text=True)
    assert portal.count('data-replace="stale"') == 2 and "is too old for the lender now" in portal
    assert "data-check=" not in portal and "Case checks" not in portal, "the advisor's checks stay the advisor's"
    page = advisor.get(f"/workspaces/{world.workspace_a}").get_data(as_text=True)
    assert checks_on(page)["recent"] == cc.PROBLEM
    payslips = page.split('data-item="payslips"', 1)[1].split("</li>", 1)[0]
    assert "Too old now, a newer one is needed:" in payslips
    with app.app_context():
        assert sweeps.run("stale") == 0, "marked once"
        told = db.session.scalars(select(SentNotification.subject).where(SentNotification.kind == "document_stale"))
        assert sorted(told) == sorted([payslip, statement]), "one email names both"
        db.session.remove()


def test_a_closed_cases_documents_age_unwatched_and_are_looked_at_again_when_it_reopens(app, world):
    build_case(world)
    advisor = signed_in(app, world.advisor_a)
    assert post(advisor, f"/workspaces/{world.workspace_a}/close", {}).status_code == 200
    clock.travel_to(datetime(2026, 12, 1, 6, 0))
    with app.app_context():
        assert sweeps.run("stale") == 0, "a closed case waits for its erasure"
    assert post(advisor, f"/workspaces/{world.workspace_a}/reopen", {}).status_code == 200
    with app.app_context():
        assert sweeps.run("stale") == 2, "reopened: its aged-out payslip and statement are marked"
        assert sweeps.run("stale") == 0
