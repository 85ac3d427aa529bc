"""Who applies, end to end (real PostgreSQL, the extractor, the pipeline): a case's documents belong
to its applicants. Client a is Rahul Mustermann, the persona of the A1-01 samples; the A1-02 samples
name James Beispiel, who is not on the case until someone adds him."""
import re

from sqlalchemy import select

from leadflow.domain import case_checks as cc
from leadflow.extensions import db
from leadflow.models import Applicant, Document, Workspace
from leadflow.ports import current_ports
from leadflow.services import case_file, checklist
from tests.corpus import SAMPLES
from tests.integration.web_client import post, signed_in

SETTLED = ("VERIFIED", "REJECTED", "ACTION_REQUIRED")
STRANGER_PAYSLIP = SAMPLES / "payslips" / "synthetic_payslip_A1_02.pdf"      # James Beispiel
STRANGER_CONTRACT = SAMPLES / "employment-contracts" / "synthetic_employment_contract_A1_02.pdf"  # James Beispiel
OWN_PAYSLIP = SAMPLES / "payslips" / "synthetic_payslip_A1_01.pdf"           # Rahul Mustermann, Platzhalter Pharma AG
OWN_STATEMENT = SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_01.pdf"
OTHER_CERTIFICATE = SAMPLES / "tax" / "synthetic_wage_tax_certificate_A1_02.pdf"  # Muster & Beispiel Ingenieure GmbH


def upload(world, path, kind):
    created = world.client_a.api.upload(path, kind=kind, workspace_id=world.workspace_a)
    assert created.status_code == 201, created.text
    return world.client_a.api.wait_for_status(created.json()["id"], SETTLED, timeout=90)


def add_co_applicant(app, world, name, citizenship=""):
    response = post(signed_in(app, world.advisor_a), f"/workspaces/{world.workspace_a}/applicants",
                    {"name": name, "citizenship": citizenship, "date_of_birth": "1988-02-29"}, htmx=False)
    assert response.status_code == 303, response.get_data(as_text=True)[:400]


def applicants_of_case(app, world) -> dict[str, int]:
    with app.app_context():
        found = {a.role: a.id for a in db.session.scalars(select(Applicant).where(
            Applicant.workspace_id == world.workspace_a))}
        db.session.remove()
    return found


def stored(app, document_id) -> Document:
    with app.app_context():
        document = db.session.get(Document, document_id)
        db.session.expunge(document)
        db.session.remove()
    return document


def checklist_items(app, world) -> dict:
    with app.app_context():
        states = checklist.for_workspace(db.session, current_ports().storage, world.workspace_a, world.brokerage_a)
        db.session.remove()
    return {s.key: s for s in states}


def test_a_strangers_payslip_goes_to_a_person_not_verified(app, world):
    settled = upload(world, STRANGER_PAYSLIP, "payslip")
    assert settled["status"] == "ACTION_REQUIRED"
    note = next(n for n in settled["verification_notes"] if n["code"] == "not_on_case")
    assert "names someone who is not on this case (James Beispiel)" in note["en"]
    assert "nennt jemanden, der nicht zu diesem Fall gehört (James Beispiel)" in note["de"]
    assert stored(app, settled["id"]).applicant_id is None
    # The advisor sees whose it may be, and rejects it: the client is told to upload their own.
    advisor = signed_in(app, world.advisor_a)
    page = advisor.get(f"/documents/{settled['id']}").get_data(as_text=True)
    assert 'data-testid="whose-form"' in page and "Rahul Mustermann" in page
    assert post(advisor, f"/documents/{settled['id']}/whose", {"action": "reject"}, htmx=False).status_code == 303
    assert stored(app, settled["id"]).status == "REJECTED"
    # Another brokerage's advisor cannot settle it; a client cannot either.
    assert post(signed_in(app, world.advisor_b), f"/documents/{settled['id']}/whose",
                {"action": "assign", "applicant": "client"}, htmx=False).status_code == 404


def test_the_advisor_adds_the_person_a_document_names_and_it_is_theirs(app, world):
    settled = upload(world, STRANGER_PAYSLIP, "payslip")
    advisor = signed_in(app, world.advisor_a)
    bad = post(advisor, f"/documents/{settled['id']}/whose", {"action": "assign", "applicant": "co_applicant"},
               htmx=False)
    assert bad.status_code == 400 and stored(app, settled["id"]).status == "ACTION_REQUIRED", "no such applicant yet"
    assert post(advisor, f"/documents/{settled['id']}/whose", {"action": "add"}, htmx=False).status_code == 303
    document, people = stored(app, settled["id"]), applicants_of_case(app, world)
    assert document.status == "VERIFIED" and document.applicant_id == people["co_applicant"]
    assert checklist_items(app, world)["payslips.co_applicant"].documents[0].id == settled["id"]


def test_a_co_applicants_payslip_is_verified_under_the_co_applicant(app, world):
    add_co_applicant(app, world, "James Beispiel", "GB")
    settled = upload(world, STRANGER_PAYSLIP, "payslip")
    assert settled["status"] == "VERIFIED", settled["verification_notes"]
    people = applicants_of_case(app, world)
    assert stored(app, settled["id"]).applicant_id == people["co_applicant"]
    items = checklist_items(app, world)
    assert [d.id for d in items["payslips.co_applicant"].documents] == [settled["id"]]
    assert items["payslips"].documents == []
    # James is British: his residence permit is on the list; Rahul's citizenship is not known yet.
    assert items["residence_permit.co_applicant"].state == "missing"
    assert (items["residence_permit"].state, items["residence_permit"].why) == ("not_needed", "citizenship_unknown")
    page = signed_in(app, world.advisor_a).get(f"/workspaces/{world.workspace_a}").get_data(as_text=True)
    assert re.search(r'data-check="identity" data-outcome="ok" data-applicant="James Beispiel"', page)
    assert 'data-applicant="James Beispiel"' in page.split('data-testid="income-summary"', 2)[2]


def test_a_joint_statement_counts_for_both_applicants(app, world):
    statement = upload(world, OWN_STATEMENT, "bank_statement")
    assert statement["status"] == "VERIFIED"
    add_co_applicant(app, world, "James Beispiel")
    # The statement is of a joint account: a colleague reads both holders.
    corrected = world.advisor_a.api.post(f"/api/documents/{statement['id']}/corrections",
                                         json={"changes": {"holder": "Rahul Mustermann und James Beispiel"}})
    assert corrected.status_code == 200, corrected.text
    document, people = stored(app, statement["id"]), applicants_of_case(app, world)
    assert document.status == "VERIFIED" and document.joint and document.applicant_id == people["client"]
    items = checklist_items(app, world)
    assert [d.id for d in items["bank_statements"].documents] == [statement["id"]]
    assert [d.id for d in items["bank_statements.co_applicant"].documents] == [statement["id"]]
    with app.app_context():
        checks = case_file.case_checks(db.session, current_ports(), db.session.get(Workspace, world.workspace_a))
        db.session.remove()
    identity = {r.applicant: r for r in checks if r.key == "identity"}
    assert statement["id"] in identity["Rahul Mustermann"].documents
    assert statement["id"] in identity["James Beispiel"].documents
    assert identity["James Beispiel"].outcome == cc.OK


def test_the_residence_permit_follows_the_clients_citizenship_and_the_portal_asks_while_unknown(app, world):
    client, advisor = signed_in(app, world.client_a), signed_in(app, world.advisor_a)
    assert checklist_items(app, world)["residence_permit"].state == "not_needed"
    portal = client.get("/portal").get_data(as_text=True)
    assert 'data-testid="ask-citizenship" data-role="client"' in portal
    # Bad input is a 400 that writes nothing.
    assert post(client, "/portal/citizenship", {"case": world.workspace_a, "role": "client",
                                               "citizenship": "XX"}, htmx=False).status_code == 400
    assert post(client, "/portal/citizenship", {"case": world.workspace_b, "role": "client",
                                               "citizenship": "FR"}, htmx=False).status_code == 404
    assert post(client, "/portal/citizenship", {"case": world.workspace_a, "role": "client",
                                               "citizenship": "FR"}, htmx=False).status_code == 303
    items = checklist_items(app, world)
    assert (items["residence_permit"].state, items["residence_permit"].why) == ("not_needed", "free_movement")
    assert 'data-testid="ask-citizenship"' not in client.get("/portal").get_data(as_text=True)
    # An Indian citizen needs one: the item is missing and keeps the lender package back.
    assert post(advisor, f"/workspaces/{world.workspace_a}/applicants/client", {"citizenship": "IN"},
                htmx=False).status_code == 303
    assert checklist_items(app, world)["residence_permit"].state == "missing"
    assert 'data-item="residence_permit"' in client.get("/portal").get_data(as_text=True)
    assert post(signed_in(app, world.advisor_b), f"/workspaces/{world.workspace_a}/applicants/client",
                {"citizenship": "FR"}, htmx=False).status_code == 404


def test_the_employer_check_names_a_certificate_from_another_employer(app, world):
    payslip = upload(world, OWN_PAYSLIP, "payslip")
    certificate = upload(world, OTHER_CERTIFICATE, "wage_tax_certificate")
    assert (payslip["status"], certificate["status"]) == ("VERIFIED", "VERIFIED")
    with app.app_context():
        checks = case_file.case_checks(db.session, current_ports(), db.session.get(Workspace, world.workspace_a))
        db.session.remove()
    employer = next(r for r in checks if r.key == "employer")
    reason = employer.words()[1]
    assert employer.outcome == cc.WARNING and employer.applicant == "Rahul Mustermann"
    assert f"Muster & Beispiel Ingenieure GmbH ({certificate['title']})" in reason
    assert "Platzhalter Pharma AG" in reason and set(employer.documents) == {payslip["id"], certificate["id"]}
    # Fits is not said of a certificate and payslips of different employers.
    assert next(r for r in checks if r.key == "income_certificate").outcome == cc.NOT_CHECKED


def test_a_co_applicant_with_a_bad_name_or_a_second_one_is_refused_and_nothing_is_written(app, world):
    advisor = signed_in(app, world.advisor_a)
    url = f"/workspaces/{world.workspace_a}/applicants"
    for form in ({"name": "  "}, {"name": "x" * 201}, {"name": "Ann Lee", "date_of_birth": "30.02.1988"},
                 {"name": "Ann Lee", "citizenship": "Narnia"}):
        response = post(advisor, url, form, htmx=False)
        assert response.status_code == 400, form
        assert 'data-testid="applicant-error"' in response.get_data(as_text=True)
    assert "co_applicant" not in applicants_of_case(app, world)
    add_co_applicant(app, world, "Ann Lee")
    assert post(advisor, url, {"name": "Bo Lee"}, htmx=False).status_code == 409
    assert post(signed_in(app, world.client_a), url, {"name": "Bo Lee"}, htmx=False).status_code in (302, 403)
    # The client adds theirs on the portal, for their own case only.
    assert post(signed_in(app, world.client_b), "/portal/applicants", {"case": world.workspace_a, "name": "Eve"},
                htmx=False).status_code == 404
    client_b = signed_in(app, world.client_b)
    assert post(client_b, "/portal/applicants", {"case": world.workspace_b, "name": ""}, htmx=False).status_code == 400
    assert post(client_b, "/portal/applicants", {"case": world.workspace_b, "name": "Eve Lee", "citizenship": "FR"},
                htmx=False).status_code == 303
    portal = client_b.get("/portal").get_data(as_text=True)
    assert "Eve Lee" in portal and 'data-testid="add-co-applicant"' not in portal
    assert 'data-item="payslips.co_applicant"' in portal


def api_call(user, method, path, **kw):
    return user.api.session.request(method, user.api.base_url + path, timeout=30, **kw)


def test_the_co_applicant_added_through_the_api_takes_the_documents_waiting_for_them(app, world):
    waiting = upload(world, STRANGER_PAYSLIP, "payslip")
    assert waiting["status"] == "ACTION_REQUIRED" and (waiting["applicant_id"], waiting["applicants"]) == (None, [])
    url = f"/api/workspaces/{world.workspace_a}/applicants"
    # Bad input is a 400 that writes nothing; another brokerage's case is not found.
    for body in ({"name": ""}, {"name": 5}, {"name": "James Beispiel", "citizenship": "XX"},
                 {"name": "James Beispiel", "date_of_birth": "29.02.1988"}, {"name": "James Beispiel", "role": "x"},
                 ["James Beispiel"]):
        answer = api_call(world.advisor_a, "POST", url, json=body)
        assert answer.status_code == 400 and answer.json()["error"]["code"], body
    assert api_call(world.advisor_b, "POST", url, json={"name": "James Beispiel"}).status_code == 404
    assert api_call(world.client_b, "GET", url).status_code == 404
    assert "co_applicant" not in applicants_of_case(app, world)
    assert stored(app, waiting["id"]).status == "ACTION_REQUIRED"

    added = api_call(world.advisor_a, "POST", url, json={"name": "James Beispiel", "citizenship": "GB"})
    assert added.status_code == 201, added.text
    assert (added.json()["role"], added.json()["citizenship"]) == ("co_applicant", "GB")
    # The payslip naming him is judged again without the advisor assigning it.
    document = world.client_a.api.document(waiting["id"])
    assert document["status"] == "VERIFIED", document["verification_notes"]
    assert document["applicant_id"] == added.json()["id"]
    assert [(a["role"], a["name"]) for a in document["applicants"]] == [("co_applicant", "James Beispiel")]
    listed = api_call(world.client_a, "GET", url)
    assert listed.status_code == 200
    assert [(a["role"], a["name"]) for a in listed.json()["applicants"]] == [
        ("client", "Rahul Mustermann"), ("co_applicant", "James Beispiel")]
    assert api_call(world.advisor_a, "POST", url, json={"name": "Bo Lee"}).status_code == 409


def test_the_advisor_corrects_the_co_applicant_then_removes_them_and_their_documents_go_back_to_a_person(app, world):
    url = f"/api/workspaces/{world.workspace_a}/applicants"
    assert api_call(world.client_a, "POST", url, json={"name": "James Beispel"}).status_code == 201
    waiting = upload(world, STRANGER_PAYSLIP, "payslip")
    assert waiting["status"] == "ACTION_REQUIRED", "a misspelt co-applicant is not the person it names"
    co = f"{url}/co_applicant"
    assert api_call(world.client_a, "PATCH", co, json={"name": "James Beispiel"}).status_code == 403
    assert api_call(world.advisor_b, "PATCH", co, json={"name": "James Beispiel"}).status_code == 404
    assert api_call(world.advisor_a, "PATCH", f"{url}/partner", json={"name": "James Beispiel"}).status_code == 404
    for body in ({}, {"nickname": "Jim"}, {"name": " "}, {"date_of_birth": "2999-01-01"}, {"citizenship": "Narnia"}):
        assert api_call(world.advisor_a, "PATCH", co, json=body).status_code == 400, body
    assert stored(app, waiting["id"]).status == "ACTION_REQUIRED"
    corrected = api_call(world.advisor_a, "PATCH", co, json={"name": "James Beispiel", "date_of_birth": "1988-02-29"})
    assert corrected.status_code == 200, corrected.text
    assert (corrected.json()["name"], corrected.json()["date_of_birth"]) == ("James Beispiel", "1988-02-29")
    assert world.advisor_a.api.document(waiting["id"])["status"] == "VERIFIED"

    assert api_call(world.advisor_a, "DELETE", f"{url}/client").status_code == 409
    assert api_call(world.client_a, "DELETE", co).status_code == 403
    removed = api_call(world.advisor_a, "DELETE", co)
    assert removed.status_code == 200, removed.text
    assert removed.json()["back_to_a_person"] == [waiting["id"]]
    assert [a["role"] for a in removed.json()["applicants"]] == ["client"]
    document = world.advisor_a.api.document(waiting["id"])
    assert (document["status"], document["applicant_id"], document["applicants"]) == ("ACTION_REQUIRED", None, [])
    assert any(n["code"] == "not_on_case" and "James Beispiel" in n["en"] for n in document["verification_notes"])
    assert api_call(world.advisor_a, "DELETE", co).status_code == 404


def test_the_co_applicant_added_on_the_case_page_takes_the_documents_waiting_for_them(app, world):
    waiting = upload(world, STRANGER_PAYSLIP, "payslip")
    other = upload(world, STRANGER_CONTRACT, "employment_contract")
    assert (waiting["status"], other["status"]) == ("ACTION_REQUIRED", "ACTION_REQUIRED"), other["verification_notes"]
    add_co_applicant(app, world, "James Beispiel", "GB")
    people = applicants_of_case(app, world)
    for document_id in (waiting["id"], other["id"]):
        document = stored(app, document_id)
        assert (document.status, document.applicant_id) == ("VERIFIED", people["co_applicant"]), document_id
    history = world.advisor_a.api.get(f"/api/documents/{waiting['id']}/history").json()["history"]
    assert any(e.get("action") == "whose_settled" and e.get("actor_id") == world.advisor_a.user_id for e in history)


def test_on_the_case_page_the_advisor_corrects_and_removes_the_co_applicant_in_german(app, world):
    from leadflow.models import User
    with app.app_context():
        db.session.get(User, world.advisor_a.user_id).language = "de"
        db.session.commit()
        db.session.remove()
    advisor, case_page = signed_in(app, world.advisor_a), f"/workspaces/{world.workspace_a}"
    add_co_applicant(app, world, "James Beispel")
    waiting = upload(world, STRANGER_PAYSLIP, "payslip")
    page = advisor.get(case_page).get_data(as_text=True)
    assert 'data-testid="remove-co-applicant"' in page and "Mitantragsteller entfernen" in page
    bad = post(advisor, f"{case_page}/applicants/co_applicant", {"name": " ", "citizenship": "GB"}, htmx=False)
    assert bad.status_code == 400 and 'data-testid="applicant-error"' in bad.get_data(as_text=True)
    assert post(advisor, f"{case_page}/applicants/co_applicant", {"name": "James Beispiel", "citizenship": "GB"},
                htmx=False).status_code == 303
    assert stored(app, waiting["id"]).status == "VERIFIED"
    assert post(signed_in(app, world.advisor_b), f"{case_page}/applicants/co_applicant/remove",
                htmx=False).status_code == 404
    assert post(advisor, f"{case_page}/applicants/co_applicant/remove", htmx=False).status_code == 303
    assert "co_applicant" not in applicants_of_case(app, world)
    assert stored(app, waiting["id"]).status == "ACTION_REQUIRED"
    page = advisor.get(case_page).get_data(as_text=True)
    assert 'data-testid="remove-co-applicant"' not in page and 'data-testid="add-co-applicant"' in page
