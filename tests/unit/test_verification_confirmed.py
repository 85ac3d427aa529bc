"""A rejection rests only on a confirmed value: every rejecting rule, meeting a value read once, doubts
and asks a person, naming the value in both languages; confirmed, it rejects as before."""
from datetime import date

import pytest

from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.verification import Applicant, unreadable_fields, verify_type

TODAY = date(2026, 11, 29)
PRIYA = Applicant("Priya Sharma")

GENUINE = {
    "payslip": {"period": "2026-10", "gross": "5397.47", "net": "3394.72"},
    "bank_statement": {"iban": "DE86500300103975461296", "period_start": "2026-10-01", "period_end": "2026-10-31"},
    "tax_assessment": {"tax_year": 2025, "taxable_income": "47682.00"},
    "wage_tax_certificate": {"year": 2025, "gross_wages": "61808.06"},
    "id_document": {"surname": "SHARMA", "given_names": "PRIYA", "expiry_date": "2031-06-30", "mrz_format": "TD3",
                    "mrz_valid": True},
    "residence_permit": {"surname": "SHARMA", "given_names": "PRIYA", "expiry_date": "2031-06-30",
                         "mrz_format": "TD1", "mrz_valid": True},
}

# Every rejecting rule: the type, the value that would reject it, the rejection, the fields it rests on,
# and what the person's note says of the value in each language.
REJECTING = [
    ("payslip", {"period": "2026-05"}, "payslip_too_old", ("period",),
     "On this payslip we read the pay month as May 2026, but could not confirm it; a specialist will check it.",
     "Auf dieser Gehaltsabrechnung haben wir den Abrechnungsmonat als Mai 2026 gelesen, konnten ihn aber nicht "
     "bestätigen; eine Fachkraft prüft ihn."),
    ("payslip", {"period": "2027-01"}, "payslip_period_in_future", ("period",), "as January 2027", "als Januar 2027"),
    ("payslip", {"net": "5500.00"}, "payslip_net_above_gross", ("gross", "net"),
     "On this payslip we read the gross pay as 5,397.47 EUR and the net pay as 5,500.00 EUR, but could not "
     "confirm them; a specialist will check them.",
     "Auf dieser Gehaltsabrechnung haben wir den Bruttoverdienst als 5.397,47 EUR und den Nettoverdienst als "
     "5.500,00 EUR gelesen, konnten sie aber nicht bestätigen; eine Fachkraft prüft sie."),
    ("bank_statement", {"iban": "DE87500300103975461296"}, "bank_statement_iban_invalid", ("iban",),
     "On this bank statement we read the IBAN as DE87500300103975461296, but could not confirm it",
     "Auf diesem Kontoauszug haben wir die IBAN als DE87500300103975461296 gelesen, konnten sie aber nicht"),
    ("tax_assessment", {"tax_year": 2021}, "tax_assessment_too_old", ("tax_year",), "the tax year as 2021",
     "das Steuerjahr als 2021"),
    ("tax_assessment", {"tax_year": 2026}, "tax_assessment_year_not_over", ("tax_year",), "as 2026", "als 2026"),
    ("wage_tax_certificate", {"year": 2023}, "wage_tax_certificate_wrong_year", ("year",), "the year as 2023",
     "das Jahr als 2023"),
    ("id_document", {"expiry_date": "2024-01-31"}, "id_expired", ("expiry_date",),
     "On this passport or ID card we read the expiry date as 31 January 2024, but could not confirm it",
     "Auf diesem Ausweisdokument haben wir das Ablaufdatum als 31.01.2024 gelesen, konnten es aber nicht"),
    ("id_document", {"surname": "PATEL"}, "id_name_mismatch", ("surname", "given_names"),
     "the surname as PATEL and the given names as PRIYA, but could not confirm them",
     "den Nachnamen als PATEL und die Vornamen als PRIYA gelesen, konnten sie aber nicht bestätigen"),
    ("residence_permit", {"expiry_date": "2024-01-31"}, "id_expired", ("expiry_date",),
     "On this residence permit we read", "Auf diesem Aufenthaltstitel haben wir"),
    ("residence_permit", {"given_names": "ANITA"}, "id_name_mismatch", ("surname", "given_names"),
     "the given names as ANITA", "die Vornamen als ANITA"),
]
IDS = [f"{case[0]}-{case[2]}" for case in REJECTING]


def content(fields: dict, confirmed=()) -> dict:
    return {"fields": fields, "field_confidence": {name: 0.95 for name in fields},
            "confirmed": {name: "printed_twice" for name in confirmed}}


@pytest.mark.parametrize("document_type, wrong, code, rests_on, en, de", REJECTING, ids=IDS)
def test_a_rejecting_rule_that_meets_an_unconfirmed_value_doubts_and_does_not_reject(
        document_type, wrong, code, rests_on, en, de):
    fields = {**GENUINE[document_type], **wrong}
    verdict = verify_type(document_type, content(fields), PRIYA, TODAY)
    assert verdict.status == Status.ACTION_REQUIRED and verdict.rejection_code is None
    note, = verdict.notes
    assert note.code == "value_unconfirmed" and note.fields == rests_on
    assert en in note.en and de in note.de


@pytest.mark.parametrize("document_type, wrong, code, rests_on, en, de", REJECTING, ids=IDS)
def test_a_rejecting_rule_whose_values_are_confirmed_rejects(document_type, wrong, code, rests_on, en, de):
    fields = {**GENUINE[document_type], **wrong}
    verdict = verify_type(document_type, content(fields, confirmed=rests_on), PRIYA, TODAY)
    assert verdict.status == Status.REJECTED and verdict.rejection_code == RejectionCode.VERIFICATION_FAILED
    assert [n.code for n in verdict.notes] == [code]


@pytest.mark.parametrize("document_type, wrong, code, rests_on, en, de",
                         [case for case in REJECTING if len(case[3]) == 2],
                         ids=[i for i, case in zip(IDS, REJECTING) if len(case[3]) == 2])
def test_one_confirmed_value_is_not_enough_when_the_rule_rests_on_two(document_type, wrong, code, rests_on, en, de):
    fields = {**GENUINE[document_type], **wrong}
    verdict = verify_type(document_type, content(fields, confirmed=rests_on[:1]), PRIYA, TODAY)
    assert verdict.status == Status.ACTION_REQUIRED and verdict.notes[0].fields == rests_on[1:]


@pytest.mark.parametrize("document_type", list(GENUINE))
def test_a_genuine_document_needs_no_confirmation_to_be_verified(document_type):
    assert verify_type(document_type, content(GENUINE[document_type]), PRIYA, TODAY).status == Status.VERIFIED


def test_a_value_a_person_typed_is_confirmed():
    fields = {**GENUINE["payslip"], "period": "2026-05"}
    typed = {**content(fields), "read_by_person": ["period"]}
    assert verify_type("payslip", typed, PRIYA, TODAY).status == Status.REJECTED


def test_confirmations_listed_by_name_count_as_well_as_a_map():
    fields = {**GENUINE["tax_assessment"], "tax_year": 2021}
    listed = {**content(fields), "confirmed": ["tax_year"]}
    assert verify_type("tax_assessment", listed, PRIYA, TODAY).status == Status.REJECTED
    for nothing in (None, "tax_year", {"tax_year": ""}):
        assert verify_type("tax_assessment", {**listed, "confirmed": nothing}, PRIYA, TODAY).status == \
            Status.ACTION_REQUIRED


def test_a_confirmed_rejection_stands_beside_an_unconfirmed_doubt():
    fields = {**GENUINE["payslip"], "period": "2026-05", "net": "5500.00"}
    verdict = verify_type("payslip", content(fields, confirmed=("period",)), PRIYA, TODAY)
    assert verdict.status == Status.REJECTED and [n.code for n in verdict.notes] == ["payslip_too_old"]


def test_the_review_queue_asks_for_the_unconfirmed_values():
    fields = {**GENUINE["payslip"], "period": "2026-05", "net": "5500.00"}
    notes = verify_type("payslip", content(fields), PRIYA, TODAY).notes_as_dicts()
    assert [f.name for f in unreadable_fields("payslip", notes)] == ["period", "gross", "net"]


# --- a bank statement's period: the header, the bookings, and which decides --------------------------

def statement(period_start, period_end, booked=(), confirmed=()) -> dict:
    fields = {**GENUINE["bank_statement"], "period_start": period_start, "period_end": period_end,
              "bookings": [{"date": day, "counterparty": "X", "purpose": "Lastschrift", "amount": "-10.00"}
                           for day in booked]}
    return content(fields, confirmed)


def test_a_period_misread_from_a_statement_number_is_overruled_by_recent_bookings():
    # "Kontoauszug Nr. 5/2026" read as May 2026; the bookings run through October.
    verdict = verify_type("bank_statement", statement("2026-05-01", "2026-05-31", ["2026-10-02", "2026-10-30"]),
                          PRIYA, TODAY)
    assert verdict.status == Status.VERIFIED


def test_a_header_period_in_the_future_is_overruled_by_recent_bookings():
    verdict = verify_type("bank_statement", statement("2026-12-01", "2026-12-31", ["2026-10-02", "2026-10-30"]),
                          PRIYA, TODAY)
    assert verdict.status == Status.VERIFIED


def test_an_old_header_the_bookings_do_not_confirm_goes_to_a_person_with_both_named():
    verdict = verify_type("bank_statement", statement("2026-05-01", "2026-05-31", ["2026-06-02", "2026-06-30"]),
                          PRIYA, TODAY)
    assert verdict.status == Status.ACTION_REQUIRED and verdict.rejection_code is None
    note, = verdict.notes
    assert (note.code, note.fields) == ("bank_statement_period_unconfirmed", ("period_end",))
    assert note.en == ("The period of this bank statement could not be confirmed: the header reads 1 May 2026 to "
                       "31 May 2026, but the bookings run from 2 June 2026 to 30 June 2026; "
                       "a specialist will check it.")
    assert note.de == ("Der Zeitraum dieses Kontoauszugs konnte nicht bestätigt werden: im Kopf steht 01.05.2026 bis "
                       "31.05.2026, die Buchungen laufen aber vom 02.06.2026 bis 30.06.2026; eine Fachkraft prüft ihn.")
    assert [f.name for f in unreadable_fields("bank_statement", verdict.notes_as_dicts())] == ["period_end"]


def test_an_old_header_without_bookings_goes_to_a_person():
    verdict = verify_type("bank_statement", statement(None, "2026-05-31"), PRIYA, TODAY)
    assert verdict.status == Status.ACTION_REQUIRED
    assert verdict.notes[0].en == ("The period of this bank statement could not be confirmed: the header reads up to "
                                   "31 May 2026, and no booking dates confirm it; a specialist will check it.")
    assert verdict.notes[0].de.endswith("im Kopf steht bis 31.05.2026, und keine Buchungsdaten bestätigen ihn; "
                                        "eine Fachkraft prüft ihn.")


def test_a_booking_dated_after_today_is_a_misread_and_decides_nothing():
    verdict = verify_type("bank_statement", statement("2026-05-01", "2026-05-31", ["2026-05-04", "2026-12-24"]),
                          PRIYA, TODAY)
    assert verdict.status == Status.ACTION_REQUIRED
    assert "the bookings run from 4 May 2026 to 4 May 2026" in verdict.notes[0].en


def test_a_genuinely_old_statement_whose_bookings_confirm_its_period_is_rejected():
    old = statement("2026-05-01", "2026-05-31", ["2026-05-04", "2026-05-28"], confirmed=("period_start", "period_end"))
    verdict = verify_type("bank_statement", old, PRIYA, TODAY)
    assert verdict.status == Status.REJECTED
    assert [n.code for n in verdict.notes] == ["bank_statement_too_old"]
