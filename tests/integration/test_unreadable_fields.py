"""A genuine document whose essential field the reader missed goes to a person, never back to the
client as rejected; a platform admin reads the field off the file and decides in one step.

Uploaded through the API and carried by the pipeline (worker, submission, signed callback);
the extraction service is a double that holds its answer, so each test decides what it read.
"""
import json

import pytest
from sqlalchemy import select

from leadflow.extensions import db
from leadflow.models import User
from leadflow.errors import Forbidden
from leadflow.services import review
from leadflow.ports import current_ports
from tests.corpus import SAMPLES
from tests.integration.test_exactly_once import post_callback
from tests.integration.test_failure_matrix import audit, extraction_service
from tests.plugins.doubles import HoldingService


def expected_fields(path: str) -> dict:
    return json.loads((SAMPLES / path).with_suffix(".expected.json").read_text())["fields"]


PASSPORT = {"document_code": "P", "issuing_country": "UTO", "document_number": "L898902C3", "surname": "ERIKSSON",
            "given_names": "ANNA MARIA", "nationality": "UTO", "birth_date": "1974-08-12", "sex": "F",
            "expiry_date": "2032-04-15", "mrz_format": "TD3", "mrz_valid": True}

# type, the genuine file, what the reader made of it (one essential field missed or unsure), the field
# named, and how the client reads it in English and German.
CASES = [
    ("payslip", "payslips/synthetic_payslip_A1_01.pdf",
     {**expected_fields("payslips/synthetic_payslip_A1_01.pdf"), "period": None}, {}, "period",
     "We could not read the pay month on this payslip; a specialist will check it.",
     "Wir konnten den Abrechnungsmonat auf dieser Gehaltsabrechnung nicht lesen; eine Fachkraft prüft ihn."),
    ("bank_statement", "bank-statements/synthetic_bank_statement_A1_01.pdf",
     expected_fields("bank-statements/synthetic_bank_statement_A1_01.pdf"), {"period_end": 0.3}, "period_end",
     "We could not read the last day of the statement period on this bank statement; a specialist will check it.",
     "Wir konnten den letzten Tag des Auszugszeitraums auf diesem Kontoauszug nicht lesen; eine Fachkraft prüft ihn."),
    ("tax_assessment", "tax/synthetic_tax_assessment_A1_01.pdf",
     {**expected_fields("tax/synthetic_tax_assessment_A1_01.pdf"), "tax_year": None}, {}, "tax_year",
     "We could not read the tax year on this tax assessment; a specialist will check it.",
     "Wir konnten das Steuerjahr auf diesem Steuerbescheid nicht lesen; eine Fachkraft prüft es."),
    ("wage_tax_certificate", "tax/synthetic_wage_tax_certificate_A1_01.pdf",
     {**expected_fields("tax/synthetic_wage_tax_certificate_A1_01.pdf"), "year": None}, {}, "year",
     "We could not read the year on this wage tax certificate; a specialist will check it.",
     "Wir konnten das Jahr auf dieser Lohnsteuerbescheinigung nicht lesen; eine Fachkraft prüft es."),
    ("employment_contract", "employment-contracts/synthetic_employment_contract_A1_01.pdf",
     expected_fields("employment-contracts/synthetic_employment_contract_A1_01.pdf"), {"annual_salary": 0.2},
     "annual_salary",
     "We could not read the annual salary in this employment contract; a specialist will check it.",
     "Wir konnten das Jahresgehalt in diesem Arbeitsvertrag nicht lesen; eine Fachkraft prüft es."),
    ("id_document", "ids/mrzpkg_passports_ICAO_Example.png", {**PASSPORT, "expiry_date": None}, {}, "expiry_date",
     "We could not read the expiry date on this passport or ID card; a specialist will check it.",
     "Wir konnten das Ablaufdatum auf diesem Ausweisdokument nicht lesen; eine Fachkraft prüft es."),
    ("residence_permit", "ids/mrzpkg_resident_cards_Germany.png", {**PASSPORT, "mrz_format": "TD1"},
     {"surname": 0.35}, "surname",
     "We could not read the surname on this residence permit; a specialist will check it.",
     "Wir konnten den Nachnamen auf diesem Aufenthaltstitel nicht lesen; eine Fachkraft prüft ihn."),
]


def reader_result(job_id: str, document_type: str, fields: dict, unsure: dict, type_confidence: float) -> dict:
    """The callback of an extractor that reports a confidence per field (0.0 for what it did not find)."""
    confidence = {name: unsure.get(name, 0.0 if value is None else 0.93) for name, value in fields.items()}
    return {"type": "job.completed", "job_id": job_id,
            "data": {"pages": 1, "document_type": document_type, "confidence": type_confidence,
                     "content": {"text_chars": 900, "fields": fields, "field_confidence": confidence},
                     "schema": {"type": "object"}}}


def read_by(world, app, live, path: str, document_type: str, fields: dict, unsure: dict,
            type_confidence: float = 0.95) -> str:
    """Upload the file as the client, let the pipeline submit it, and answer with this reading."""
    holding = HoldingService()
    with extraction_service(app, holding):
        created = world.client_a.api.upload(SAMPLES / path, kind=document_type, workspace_id=world.workspace_a)
        assert created.status_code == 201, created.text
        document_id = created.json()["id"]
        world.client_a.api.wait_for_status(document_id, "EXTRACTING")
        live.drain()
    job_id = holding.jobs[-1]["job_id"]
    assert post_callback(world, app, reader_result(job_id, document_type, fields, unsure,
                                                                type_confidence)).status_code == 202
    live.drain()
    return document_id


@pytest.mark.parametrize("document_type, path, fields, unsure, field, en, de", CASES,
                         ids=[case[0] for case in CASES])
def test_a_genuine_document_whose_essential_field_was_not_read_waits_for_a_person_with_the_field_named(
        world, app, live, document_type, path, fields, unsure, field, en, de):
    if document_type in ("id_document", "residence_permit"):
        with app.app_context():  # the client is the holder of the sample passport and permit
            db.session.execute(db.update(User).where(User.id == world.client_a.user_id).values(name="Anna Eriksson"))
            db.session.commit()
            db.session.remove()
    document_id = read_by(world, app, live, path, document_type, fields, unsure)
    document = world.client_a.api.wait_for_status(document_id, {"VERIFIED", "REJECTED", "ACTION_REQUIRED"})
    assert document["status"] == "ACTION_REQUIRED" and document["rejection_code"] is None
    assert document["verification_notes"] == [{"code": "fields_unreadable", "en": en, "de": de, "fields": [field]}]
    queue = world.platform_admin.api.get("/api/documents?status=ACTION_REQUIRED").json()["documents"]
    assert [d["id"] for d in queue] == [document_id]


def test_a_reviewer_reads_the_missed_field_and_the_document_is_verified_in_one_step(world, app, live):
    payslip = "payslips/synthetic_payslip_A1_01.pdf"
    fields = {**expected_fields(payslip), "period": None, "net": "3394.72"}
    document_id = read_by(world, app, live, payslip, "payslip", fields, {"net": 0.4})
    assert world.client_a.api.document(document_id)["verification_notes"][0]["fields"] == ["period", "net"]

    decided = world.platform_admin.api.post(f"/api/documents/{document_id}/decision",
                                            json={"fields": {"period": "08/2026", "net": "3.394,72"}})
    assert decided.status_code == 200, decided.text
    assert decided.json()["status"] == "VERIFIED" and decided.json()["verified_at"]

    versions = world.advisor_a.api.get(f"/api/documents/{document_id}/versions").json()["versions"]
    content_versions = [v for v in versions if v["part"] == "content"]
    assert [(v["number"], v["cause"]) for v in content_versions] == [(1, "generated"), (2, "corrected")]
    assert content_versions[1]["replaces_id"] == content_versions[0]["id"]
    assert content_versions[1]["actor_id"] == world.platform_admin.user_id
    content = world.advisor_a.api.get(f"/api/documents/{document_id}/content").json()["content"]
    assert content["fields"]["period"] == "2026-08" and content["fields"]["net"] == "3394.72"
    assert content["read_by_person"] == ["net", "period"]
    assert [(a[0], a[1], a[2]) for a in audit(app, document_id)][-1] == (
        "reviewer_read_fields", "ACTION_REQUIRED", "VERIFIED")


def test_what_the_reviewer_reads_is_judged_by_the_rules_and_may_reject(world, app, live):
    payslip = "payslips/synthetic_payslip_A1_01.pdf"
    document_id = read_by(world, app, live, payslip, "payslip", {**expected_fields(payslip), "period": None}, {})
    decided = world.platform_admin.api.post(f"/api/documents/{document_id}/decision",
                                            json={"fields": {"period": "04/2026"}})
    assert decided.status_code == 200, decided.text
    assert decided.json()["status"] == "REJECTED"
    assert [n["code"] for n in decided.json()["verification_notes"]] == ["payslip_too_old"]


def test_bad_input_from_the_reviewer_is_a_clear_400_and_writes_nothing(world, app, live):
    payslip = "payslips/synthetic_payslip_A1_01.pdf"
    document_id = read_by(world, app, live, payslip, "payslip", {**expected_fields(payslip), "period": None}, {})
    before = world.client_a.api.document(document_id)
    api = world.platform_admin.api
    for body, words in (({"fields": {"period": "sometime"}}, "pay month"),
                        ({"fields": {"period": ""}}, "Fill in pay month"),
                        ({"fields": {"net": "3394.72"}}, "Fill in pay month"),
                        ({"fields": {"period": "08/2026", "colour": "blue"}}, "colour"),
                        ({"fields": ["period"]}, "fields must be an object")):
        answer = api.post(f"/api/documents/{document_id}/decision", json=body)
        assert answer.status_code == 400, (body, answer.text)
        assert words in answer.json()["error"]["message"].replace("the ", ""), answer.text
    assert world.client_a.api.document(document_id) == before
    versions = world.advisor_a.api.get(f"/api/documents/{document_id}/versions").json()["versions"]
    assert [v["number"] for v in versions if v["part"] == "content"] == [1]


def test_only_a_platform_admin_reads_fields_in_review_and_the_service_itself_says_so(world, app, live):
    payslip = "payslips/synthetic_payslip_A1_01.pdf"
    document_id = read_by(world, app, live, payslip, "payslip", {**expected_fields(payslip), "period": None}, {})
    body = {"fields": {"period": "08/2026"}}
    assert world.advisor_a.api.post(f"/api/documents/{document_id}/decision", json=body).status_code == 403
    assert world.admin_a.api.post(f"/api/documents/{document_id}/decision", json=body).status_code == 403
    with app.app_context():
        advisor = db.session.scalar(select(User).where(User.id == world.advisor_a.user_id))
        with pytest.raises(Forbidden):
            review.decide(db.session, current_ports(), advisor, document_id, fields=body["fields"])
        db.session.remove()
    assert world.client_a.api.document(document_id)["status"] == "ACTION_REQUIRED"


def test_a_document_waiting_for_its_type_has_no_fields_to_read(world, app, live):
    statement = "bank-statements/synthetic_bank_statement_A1_01.pdf"
    document_id = read_by(world, app, live, statement, "bank_statement", expected_fields(statement), {},
                          type_confidence=0.4)
    assert [n["code"] for n in world.client_a.api.document(document_id)["verification_notes"]] == ["type_unclear"]
    answer = world.platform_admin.api.post(f"/api/documents/{document_id}/decision",
                                           json={"fields": {"iban": "DE86500300103975461296"}})
    assert answer.status_code == 409 and "decide its type" in answer.json()["error"]["message"]
    assert world.client_a.api.document(document_id)["status"] == "ACTION_REQUIRED"


def test_reverting_a_reviewers_reading_sends_the_document_back_to_a_person(world, app, live):
    payslip = "payslips/synthetic_payslip_A1_01.pdf"
    document_id = read_by(world, app, live, payslip, "payslip", {**expected_fields(payslip), "period": None}, {})
    assert world.platform_admin.api.post(f"/api/documents/{document_id}/decision",
                                         json={"fields": {"period": "08/2026"}}).json()["status"] == "VERIFIED"
    reverted = world.advisor_a.api.post(f"/api/documents/{document_id}/revert")
    assert reverted.status_code == 200, reverted.text
    assert reverted.json()["status"] == "ACTION_REQUIRED"
    assert reverted.json()["verification_notes"][0]["fields"] == ["period"]
