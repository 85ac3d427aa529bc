""""Could not read" is not "the document lacks it": a field the reader missed, or read with low
confidence, sends the document to a person; only what was read confidently may reject it."""
from datetime import date

import pytest

from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import Applicant, typed_value, unreadable_fields, verify_type

TODAY = date(2026, 11, 29)
NOBODY = Applicant()
PRIYA = Applicant("Priya Sharma")

GENUINE = {
    "payslip": {"period": "2026-10", "gross": "5397.47", "net": "3394.72", "employer": "Platzhalter Pharma AG"},
    "bank_statement": {"iban": "DE86500300103975461296", "period_end": "2026-10-31"},
    "tax_assessment": {"tax_year": 2025, "taxable_income": "47682.00"},
    "wage_tax_certificate": {"year": 2025, "gross_wages": "61808.06"},
    "employment_contract": {"employer": "Vorlage Versicherungs-AG", "start_date": "2027-01-01",
                            "annual_salary": "56000.00"},
    "id_document": {"surname": "SHARMA", "given_names": "PRIYA", "expiry_date": "2031-06-30", "mrz_format": "TD3",
                    "mrz_valid": True},
    "residence_permit": {"surname": "SHARMA", "given_names": "PRIYA", "expiry_date": "2031-06-30",
                         "mrz_format": "TD1", "mrz_valid": True},
}

# type, the essential field the reader missed, what each language calls it where.
UNREAD = [
    ("payslip", "period", "We could not read the pay month on this payslip; a specialist will check it.",
     "Wir konnten den Abrechnungsmonat auf dieser Gehaltsabrechnung nicht lesen; eine Fachkraft prüft ihn."),
    ("bank_statement", "period_end",
     "We could not read the last day of the statement period on this bank statement; a specialist will check it.",
     "Wir konnten den letzten Tag des Auszugszeitraums auf diesem Kontoauszug nicht lesen; eine Fachkraft prüft ihn."),
    ("tax_assessment", "tax_year", "We could not read the tax year on this tax assessment; a specialist will check it.",
     "Wir konnten das Steuerjahr auf diesem Steuerbescheid nicht lesen; eine Fachkraft prüft es."),
    ("wage_tax_certificate", "year",
     "We could not read the year on this wage tax certificate; a specialist will check it.",
     "Wir konnten das Jahr auf dieser Lohnsteuerbescheinigung nicht lesen; eine Fachkraft prüft es."),
    ("employment_contract", "annual_salary",
     "We could not read the annual salary in this employment contract; a specialist will check it.",
     "Wir konnten das Jahresgehalt in diesem Arbeitsvertrag nicht lesen; eine Fachkraft prüft es."),
    ("id_document", "expiry_date", "We could not read the expiry date on this passport or ID card; "
     "a specialist will check it.",
     "Wir konnten das Ablaufdatum auf diesem Ausweisdokument nicht lesen; eine Fachkraft prüft es."),
    ("residence_permit", "surname", "We could not read the surname on this residence permit; "
     "a specialist will check it.",
     "Wir konnten den Nachnamen auf diesem Aufenthaltstitel nicht lesen; eine Fachkraft prüft ihn."),
]

# type, fields as read confidently that the document itself shows to be wrong, the rejection.
WRONG = [
    ("payslip", {"period": "2026-05"}, "payslip_too_old"),
    ("payslip", {"net": "5397.48"}, "payslip_net_above_gross"),
    ("bank_statement", {"period_end": "2026-06-30"}, "bank_statement_too_old"),
    ("bank_statement", {"iban": "DE87500300103975461296"}, "bank_statement_iban_invalid"),
    ("tax_assessment", {"tax_year": 2021}, "tax_assessment_too_old"),
    ("wage_tax_certificate", {"year": 2023}, "wage_tax_certificate_wrong_year"),
    ("id_document", {"expiry_date": "2024-01-31"}, "id_expired"),
    ("id_document", {"surname": "PATEL"}, "id_name_mismatch"),
    ("residence_permit", {"expiry_date": "2024-01-31"}, "id_expired"),
    ("residence_permit", {"given_names": "ANITA"}, "id_name_mismatch"),
]


def confident(fields: dict, **low: float) -> dict:
    """As the extractor reports it: every declared field with a confidence, 0.0 when null."""
    return {name: (low.get(name, 0.95) if value is not None else 0.0) for name, value in fields.items()}


def judged(document_type: str, fields: dict, confidence: dict | None = None, applicant: Applicant = PRIYA,
           confirmed: bool = True):
    """The verdict on these fields; `confirmed`: every value read twice or cross-checked, as the extractor
    reports a genuine document's (test_verification_confirmed.py meets the values it does not confirm)."""
    content = {"fields": fields}
    if confidence is not None:
        content["field_confidence"] = confidence
    if confirmed:
        content["confirmed"] = {name: "printed_twice" for name, value in fields.items() if value is not None}
    return verify_type(document_type, content, applicant, TODAY)


@pytest.mark.parametrize("document_type, field, en, de", UNREAD)
def test_a_missing_essential_field_sends_the_document_to_a_person_naming_it_in_both_languages(
        document_type, field, en, de):
    fields = {**GENUINE[document_type], field: None}
    verdict = judged(document_type, fields, confident(fields))
    assert verdict.status == Status.ACTION_REQUIRED and verdict.rejection_code is None
    assert [(n.code, n.en, n.de, n.fields) for n in verdict.notes] == [("fields_unreadable", en, de, (field,))]
    assert verdict.notes_as_dicts()[0]["fields"] == [field]


@pytest.mark.parametrize("document_type, field, en, de", UNREAD)
def test_a_present_but_low_confidence_essential_field_is_unreadable_too(document_type, field, en, de):
    fields = GENUINE[document_type]
    verdict = judged(document_type, fields, confident(fields, **{field: 0.49}))
    assert verdict.status == Status.ACTION_REQUIRED
    assert verdict.notes[0].en == en and verdict.notes[0].de == de


@pytest.mark.parametrize("document_type", list(GENUINE))
def test_a_genuine_document_read_confidently_is_verified(document_type):
    fields = GENUINE[document_type]
    assert judged(document_type, fields, confident(fields, **dict.fromkeys(fields, 0.5))).status == Status.VERIFIED


@pytest.mark.parametrize("document_type, wrong, code", WRONG)
def test_what_the_document_shows_when_read_confidently_and_confirmed_is_still_a_rejection(document_type, wrong, code):
    fields = {**GENUINE[document_type], **wrong}
    verdict = judged(document_type, fields, confident(fields))
    assert verdict.status == Status.REJECTED
    assert [n.code for n in verdict.notes] == [code]


@pytest.mark.parametrize("document_type, wrong, code", WRONG)
def test_a_rule_whose_field_was_not_read_confidently_does_not_reject_but_asks_a_person(document_type, wrong, code):
    fields = {**GENUINE[document_type], **wrong}
    verdict = judged(document_type, fields, confident(fields, **dict.fromkeys(wrong, 0.3)))
    assert verdict.status == Status.ACTION_REQUIRED
    assert set(verdict.notes[0].fields) == set(wrong)


def test_net_pay_equal_to_gross_pay_is_a_question_for_a_person_not_a_rejection():
    # A mini-job without deductions shows it, and so does a reader that took one amount twice.
    fields = {**GENUINE["payslip"], "net": GENUINE["payslip"]["gross"]}
    verdict = judged("payslip", fields, confident(fields))
    assert verdict.status == Status.ACTION_REQUIRED
    note, = verdict.notes
    assert note.code == "payslip_net_equals_gross"
    assert "mini-job" in note.en and "a specialist will check it" in note.en
    assert "Minijob" in note.de and "eine Fachkraft prüft das" in note.de


def test_a_doubt_and_an_unreadable_field_both_reach_the_person():
    fields = {**GENUINE["payslip"], "net": GENUINE["payslip"]["gross"], "period": None}
    verdict = judged("payslip", fields, confident(fields))
    assert verdict.status == Status.ACTION_REQUIRED
    assert [n.code for n in verdict.notes] == ["fields_unreadable", "payslip_net_equals_gross"]
    assert verdict.notes[0].fields == ("period",)


def test_a_confident_rejection_stands_even_when_another_field_needs_a_person():
    fields = {**GENUINE["payslip"], "period": "2026-05", "net": None}
    verdict = judged("payslip", fields, confident(fields))
    assert verdict.status == Status.REJECTED and [n.code for n in verdict.notes] == ["payslip_too_old"]


def test_several_unread_fields_are_named_together():
    fields = {**GENUINE["payslip"], "gross": None, "net": None}
    note = judged("payslip", fields, confident(fields)).notes[0]
    assert note.en == "We could not read the gross pay and the net pay on this payslip; a specialist will check them."
    assert note.de == ("Wir konnten den Bruttoverdienst und den Nettoverdienst auf dieser Gehaltsabrechnung nicht "
                       "lesen; eine Fachkraft prüft sie.")


# --- content from another service, or stored before field confidence existed -----------------

@pytest.mark.parametrize("document_type, field, en, de", UNREAD)
def test_legacy_content_without_confidence_counts_a_null_field_as_unread(document_type, field, en, de):
    verdict = judged(document_type, {**GENUINE[document_type], field: None})
    assert verdict.status == Status.ACTION_REQUIRED and verdict.notes[0].en == en


@pytest.mark.parametrize("document_type, wrong, code", WRONG)
def test_legacy_content_without_confidence_counts_a_present_field_as_read(document_type, wrong, code):
    assert judged(document_type, GENUINE[document_type]).status == Status.VERIFIED
    assert [n.code for n in judged(document_type, {**GENUINE[document_type], **wrong}).notes] == [code]


@pytest.mark.parametrize("document_type, wrong, code", WRONG)
def test_legacy_content_without_confirmations_confirms_nothing_and_never_rejects(document_type, wrong, code):
    assert judged(document_type, GENUINE[document_type], confirmed=False).status == Status.VERIFIED
    verdict = judged(document_type, {**GENUINE[document_type], **wrong}, confirmed=False)
    assert verdict.status == Status.ACTION_REQUIRED and verdict.rejection_code is None
    assert set(verdict.notes[0].fields) <= set(GENUINE[document_type]) | set(wrong)


def test_a_malformed_value_is_unread_whatever_its_confidence():
    fields = {**GENUINE["payslip"], "period": "Okt. 26"}
    assert judged("payslip", fields, confident(fields)).notes[0].fields == ("period",)


# --- names and the machine-readable zone -------------------------------------------------------

def test_a_name_not_found_goes_to_a_person_and_a_confidently_different_one_is_rejected():
    passport = GENUINE["id_document"]
    no_given = {**passport, "given_names": None}
    assert judged("id_document", no_given, confident(no_given)).notes[0].fields == ("given_names",)
    assert judged("id_document", passport, confident(passport, given_names=0.2)).status == Status.ACTION_REQUIRED
    assert judged("id_document", passport, confident(passport), Applicant("Anita Patel")).notes[0].code == \
        "id_name_mismatch"


def test_without_a_profile_name_the_given_names_are_not_needed():
    passport = {**GENUINE["id_document"], "given_names": None}
    assert judged("id_document", passport, confident(passport), NOBODY).status == Status.VERIFIED


@pytest.mark.parametrize("mrz_valid", [False, None])
def test_fields_from_a_zone_that_failed_its_check_digits_or_was_not_found_go_to_a_person(mrz_valid):
    passport = {**GENUINE["id_document"], "mrz_valid": mrz_valid, "expiry_date": "2019-01-01"}
    verdict = judged("id_document", passport, confident(passport))
    assert verdict.status == Status.ACTION_REQUIRED
    assert verdict.notes[0].fields == ("surname", "given_names", "expiry_date")


# --- what a person typed in ---------------------------------------------------------------------

def test_a_value_a_person_typed_counts_as_read_even_against_a_failed_zone():
    passport = {**GENUINE["id_document"], "mrz_valid": False}
    content = {"fields": passport, "field_confidence": confident(passport, surname=0.1),
               "read_by_person": ["surname", "given_names", "expiry_date"]}
    assert verify_type("id_document", content, PRIYA, TODAY).status == Status.VERIFIED
    content["fields"] = {**passport, "expiry_date": "2020-05-05"}
    assert verify_type("id_document", content, PRIYA, TODAY).notes[0].code == "id_expired"


def test_the_review_queue_learns_the_unread_fields_from_the_note():
    fields = {**GENUINE["payslip"], "period": None, "net": None}
    notes = judged("payslip", fields, confident(fields)).notes_as_dicts()
    assert [f.name for f in unreadable_fields("payslip", notes)] == ["period", "net"]
    assert [f.kind for f in unreadable_fields("payslip", notes)] == ["month", "amount"]
    assert unreadable_fields("payslip", [{"code": "type_unclear", "en": "", "de": ""}]) == []
    assert unreadable_fields(None, notes) == []


@pytest.mark.parametrize("document_type, field, typed, stored", [
    ("payslip", "period", "10/2026", "2026-10"), ("payslip", "period", "Oktober 2026", "2026-10"),
    ("payslip", "period", "2026-10", "2026-10"), ("payslip", "period", "13/2026", None),
    ("payslip", "net", "2.345,67", "2345.67"), ("payslip", "net", "2,345.67", "2345.67"),
    ("payslip", "net", "EUR 2345", "2345.00"), ("payslip", "net", "3.400", "3400.00"), ("payslip", "net", "lots", None),
    ("bank_statement", "period_end", "31.10.2026", "2026-10-31"), ("bank_statement", "period_end", "31.02.2026", None),
    ("bank_statement", "iban", "de86 5003 0010 3975 4612 96", "DE86500300103975461296"),
    ("tax_assessment", "tax_year", " 2025 ", 2025), ("tax_assessment", "tax_year", "25", None),
    ("employment_contract", "employer", "  Vorlage AG ", "Vorlage AG"), ("employment_contract", "employer", "  ", None),
    ("payslip", "no_such_field", "1", None),
])
def test_what_a_person_types_is_stored_as_the_extractor_stores_it(document_type, field, typed, stored):
    assert typed_value(document_type, field, typed) == stored
