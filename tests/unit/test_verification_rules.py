"""Each document type's own rules, as pure functions, with every date boundary from both sides."""
from datetime import date, timedelta

import pytest

from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import Applicant, verify_type
from leadflow.domain.verification import bank_statement, payslip
from leadflow.domain.verification.names import names_match, tokens

TODAY = date(2026, 11, 29)
NOBODY = Applicant()

PAYSLIP = {"employer": "Platzhalter Pharma AG", "employee": "Rahul Mustermann", "period": "2026-08", "tax_class": 1,
           "gross": "5397.47", "net": "3394.72", "payout": "2351.92", "iban": "DE86500300103975461296"}
STATEMENT = {"bank": "Musterbank AG", "iban": "DE86500300103975461296", "holder": "Rahul Mustermann",
             "period_start": "2026-10-01", "period_end": "2026-10-31", "opening_balance": "1794.16",
             "closing_balance": "2203.22", "salary_credits": ["2351.92"]}
ASSESSMENT = {"tax_year": 2025, "tax_number": "19684/75384", "taxable_income": "47682.00", "income_tax": "9878.00",
              "solidarity_surcharge": "0.00", "tax_office": "Finanzamt Beispielhausen-Mitte"}
CERTIFICATE = {"year": 2025, "employer": "Platzhalter Pharma AG", "gross_wages": "61808.06", "wage_tax": "10111.42"}
CONTRACT = {"employer": "Vorlage Versicherungs-AG", "employee": "Rahul Mustermann", "start_date": "2027-01-01",
            "annual_salary": "56000.00"}
PASSPORT = {"document_code": "P", "issuing_country": "IND", "document_number": "Z1234567", "surname": "SHARMA",
            "given_names": "PRIYA", "nationality": "IND", "birth_date": "1990-04-12", "sex": "F",
            "expiry_date": "2031-06-30", "mrz_format": "TD3", "mrz_valid": True}


def codes(notes) -> list[str]:
    return [note.code for note in notes if note.code != "ok"]


def notes_of(document_type: str, fields: dict, applicant: Applicant = NOBODY, today: date = TODAY):
    """The notes of a verdict on confidently read, confirmed fields (no field_confidence: every present
    value counts; every value confirmed, as the extractor confirms a genuine document's)."""
    return [note for note in verify_type(document_type, confirmed(fields), applicant, today).notes
            if note.code != "ok"]


def confirmed(fields: dict) -> dict:
    """Content whose every value was confirmed (read twice or cross-checked): the rules may reject on it."""
    return {"fields": fields, "confirmed": {name: "printed_twice" for name in fields}}


def with_(fields: dict, **changes) -> dict:
    return {**fields, **changes}


# --- every rule ----------------------------------------------------------------------------

@pytest.mark.parametrize("document_type, fields, applicant", [
    ("payslip", PAYSLIP, NOBODY), ("bank_statement", STATEMENT, NOBODY), ("tax_assessment", ASSESSMENT, NOBODY),
    ("wage_tax_certificate", CERTIFICATE, NOBODY), ("employment_contract", CONTRACT, NOBODY),
    ("id_document", PASSPORT, Applicant("Priya Sharma")), ("residence_permit", PASSPORT, Applicant("Priya Sharma")),
])
def test_a_complete_current_document_of_each_type_passes_and_is_verified(document_type, fields, applicant):
    assert notes_of(document_type, fields, applicant) == []
    assert verify_type(document_type, {"fields": fields}, applicant, TODAY).status == Status.VERIFIED


@pytest.mark.parametrize("document_type", [
    "payslip", "bank_statement", "tax_assessment", "wage_tax_certificate", "employment_contract", "id_document",
    "residence_permit"])
def test_a_document_with_nothing_read_goes_to_a_person_and_is_never_rejected(document_type):
    verdict = verify_type(document_type, {"fields": {}}, Applicant("Priya Sharma"), TODAY)
    assert verdict.status == Status.ACTION_REQUIRED
    assert verdict.rejection_code is None
    assert codes(verdict.notes) == ["fields_unreadable"]


def test_every_rejection_speaks_english_and_german_and_says_what_to_upload():
    cases = [
        notes_of("payslip", with_(PAYSLIP, period="2026-01"), NOBODY, TODAY),
        notes_of("payslip", with_(PAYSLIP, period="2027-01", net="6000.00"), NOBODY, TODAY),
        notes_of("bank_statement", with_(STATEMENT, period_end="2026-01-31", iban="DE00123"), NOBODY, TODAY),
        notes_of("bank_statement", with_(STATEMENT, period_end="2027-01-31"), NOBODY, TODAY),
        notes_of("tax_assessment", with_(ASSESSMENT, tax_year=2020), NOBODY, TODAY),
        notes_of("tax_assessment", with_(ASSESSMENT, tax_year=2026), NOBODY, TODAY),
        notes_of("wage_tax_certificate", with_(CERTIFICATE, year=2020), NOBODY, TODAY),
        notes_of("id_document", with_(PASSPORT, expiry_date="2020-01-01"), Applicant("Someone Else"), TODAY),
    ]
    notes = [note for case in cases for note in case]
    assert sorted({note.code for note in notes}) == sorted({
        "payslip_too_old", "payslip_period_in_future", "payslip_net_above_gross",
        "bank_statement_iban_invalid", "bank_statement_too_old", "bank_statement_period_in_future",
        "tax_assessment_too_old", "tax_assessment_year_not_over", "wage_tax_certificate_wrong_year",
        "id_expired", "id_name_mismatch"})
    for note in notes:
        assert note.en and note.de and note.en != note.de
        assert "upload" in note.en.lower() and "hoch" in note.de, note


# --- payslip -------------------------------------------------------------------------------

@pytest.mark.parametrize("today, accepted", [
    (date(2026, 11, 29), True),
    (date(2026, 11, 30), True),   # the last day of the third month after August
    (date(2026, 12, 1), False),   # the day after
])
def test_a_payslip_is_current_through_the_last_day_of_the_third_month_after_its_pay_month(today, accepted):
    notes = notes_of("payslip", with_(PAYSLIP, period="2026-08"), NOBODY, today)
    assert codes(notes) == ([] if accepted else ["payslip_too_old"])


@pytest.mark.parametrize("today, accepted", [
    (date(2026, 5, 30), True), (date(2026, 5, 31), True), (date(2026, 6, 1), False),
])
def test_a_february_payslip_counts_to_the_end_of_may_however_short_february_is(today, accepted):
    assert (notes_of("payslip", with_(PAYSLIP, period="2026-02"), NOBODY, today) == []) is accepted


def test_a_too_old_payslip_note_names_its_month_and_the_oldest_month_accepted():
    note = notes_of("payslip", with_(PAYSLIP, period="2026-08"), NOBODY, date(2026, 12, 1))[0]
    assert "August 2026" in note.en and "September 2026 or later" in note.en
    assert "August 2026" in note.de and "September 2026 oder später" in note.de


@pytest.mark.parametrize("today, accepted", [
    (date(2026, 11, 30), False),  # the day before December begins
    (date(2026, 12, 1), True),    # December's payslip is often issued before the month ends
    (date(2026, 12, 2), True),
])
def test_a_payslip_for_a_month_that_has_not_begun_is_refused(today, accepted):
    notes = notes_of("payslip", with_(PAYSLIP, period="2026-12"), NOBODY, today)
    assert codes(notes) == ([] if accepted else ["payslip_period_in_future"])


@pytest.mark.parametrize("net, gross, status, code", [
    ("3394.71", "3394.72", Status.VERIFIED, None),
    ("3394.72", "3394.72", Status.ACTION_REQUIRED, "payslip_net_equals_gross"),  # a mini-job, or a misread
    ("3394.73", "3394.72", Status.REJECTED, "payslip_net_above_gross"),
])
def test_net_pay_above_gross_pay_is_refused_and_equal_to_it_goes_to_a_person(net, gross, status, code):
    verdict = verify_type("payslip", confirmed(with_(PAYSLIP, net=net, gross=gross)), NOBODY, TODAY)
    assert verdict.status == status
    assert codes(verdict.notes) == ([code] if code else [])


def test_a_payslip_missing_its_essentials_names_each_in_both_languages_for_a_person():
    verdict = verify_type("payslip", {"fields": with_(PAYSLIP, period=None, gross="not a number", net="3394.72")},
                          NOBODY, TODAY)
    assert verdict.status == Status.ACTION_REQUIRED
    note = verdict.notes[0]
    assert note.code == "fields_unreadable" and note.fields == ("period", "gross")
    assert note.en == "We could not read the pay month and the gross pay on this payslip; a specialist will check them."
    assert note.de == ("Wir konnten den Abrechnungsmonat und den Bruttoverdienst auf dieser Gehaltsabrechnung "
                       "nicht lesen; eine Fachkraft prüft sie.")


def test_a_malformed_pay_period_counts_as_unread():
    assert codes(notes_of("payslip", with_(PAYSLIP, period="2026-13"), NOBODY, TODAY)) == ["fields_unreadable"]


# --- bank statement ------------------------------------------------------------------------

@pytest.mark.parametrize("end, accepted", [
    (date(2026, 7, 31), False), (date(2026, 8, 1), True), (date(2026, 8, 2), True), (date(2026, 8, 31), True),
    (date(2026, 11, 29), True)])
def test_a_bank_statement_must_end_within_the_last_three_months(end, accepted):
    notes = notes_of("bank_statement", with_(STATEMENT, period_end=end.isoformat()), NOBODY, TODAY)
    assert codes(notes) == ([] if accepted else ["bank_statement_too_old"])


@pytest.mark.parametrize("today, accepted", [
    (date(2026, 10, 30), True), (date(2026, 10, 31), True), (date(2026, 11, 1), False)])
def test_a_statement_ending_in_july_counts_until_october_ends(today, accepted):
    notes = notes_of("bank_statement", with_(STATEMENT, period_end="2026-07-31"), NOBODY, today)
    assert codes(notes) == ([] if accepted else ["bank_statement_too_old"])


def test_the_three_month_boundary_in_calendar_terms():
    assert bank_statement.oldest_accepted_end(TODAY) == date(2026, 8, 1)
    assert bank_statement.oldest_accepted_end(date(2026, 2, 10)) == date(2025, 11, 1)
    note = notes_of("bank_statement", with_(STATEMENT, period_end="2026-07-31"), NOBODY, TODAY)[0]
    assert "31 July 2026" in note.en and "1 August 2026 or later" in note.en
    assert "31.07.2026" in note.de and "01.08.2026 oder später" in note.de


@pytest.mark.parametrize("end, accepted", [(TODAY - timedelta(days=1), True), (TODAY, True),
                                           (TODAY + timedelta(days=1), False)])
def test_a_statement_period_that_ends_after_today_is_refused(end, accepted):
    notes = notes_of("bank_statement", with_(STATEMENT, period_end=end.isoformat()), NOBODY, TODAY)
    assert codes(notes) == ([] if accepted else ["bank_statement_period_in_future"])


@pytest.mark.parametrize("iban, valid", [
    ("DE86500300103975461296", True),
    ("NL26VAYB8060476890", True),
    ("DE87500300103975461296", False),  # check digits off by one
    ("DE8650030010397546129", False),   # one digit short
    ("XX86500300103975461296", False),  # no such country
])
def test_the_statement_iban_is_checked_with_schwifty(iban, valid):
    notes = notes_of("bank_statement", with_(STATEMENT, iban=iban), NOBODY, TODAY)
    assert codes(notes) == ([] if valid else ["bank_statement_iban_invalid"])


def test_a_statement_without_iban_or_period_goes_to_a_person_naming_both():
    notes = notes_of("bank_statement", with_(STATEMENT, iban=None, period_end=None), NOBODY, TODAY)
    assert codes(notes) == ["fields_unreadable"] and notes[0].fields == ("iban", "period_end")
    assert "the IBAN and the last day of the statement period on this bank statement" in notes[0].en
    assert "die IBAN und den letzten Tag des Auszugszeitraums auf diesem Kontoauszug nicht lesen" in notes[0].de


# --- tax assessment ------------------------------------------------------------------------

@pytest.mark.parametrize("tax_year, code", [
    (2026, "tax_assessment_year_not_over"), (2025, None), (2024, None), (2023, "tax_assessment_too_old"),
])
def test_a_tax_assessment_must_be_for_one_of_the_last_two_years(tax_year, code):
    notes = notes_of("tax_assessment", with_(ASSESSMENT, tax_year=tax_year), NOBODY, TODAY)
    assert codes(notes) == ([code] if code else [])


@pytest.mark.parametrize("today, accepted", [
    (date(2026, 12, 30), True), (date(2026, 12, 31), True), (date(2027, 1, 1), False),
])
def test_an_assessment_for_2024_is_accepted_through_the_end_of_2026(today, accepted):
    assert (notes_of("tax_assessment", with_(ASSESSMENT, tax_year=2024), NOBODY, today) == []) is accepted


@pytest.mark.parametrize("today, accepted", [
    (date(2026, 12, 31), False), (date(2027, 1, 1), True), (date(2027, 1, 2), True),
])
def test_an_assessment_for_2026_is_accepted_from_the_first_of_january_2027(today, accepted):
    assert (notes_of("tax_assessment", with_(ASSESSMENT, tax_year="2026"), NOBODY, today) == []) is accepted


def test_an_assessment_without_its_taxable_income_goes_to_a_person():
    notes = notes_of("tax_assessment", with_(ASSESSMENT, taxable_income=None), NOBODY, TODAY)
    assert codes(notes) == ["fields_unreadable"]
    assert "the taxable income" in notes[0].en and "das zu versteuernde Einkommen" in notes[0].de


# --- wage tax certificate ------------------------------------------------------------------

@pytest.mark.parametrize("today, years", [
    (date(2026, 12, 31), {2025}),
    (date(2027, 1, 1), {2026, 2025}),   # the 2026 certificate may not be issued yet
    (date(2027, 2, 27), {2026, 2025}),
    (date(2027, 2, 28), {2026, 2025}),  # employers' deadline
    (date(2027, 3, 1), {2026}),
    (date(2028, 2, 29), {2027, 2026}),  # a leap year's deadline
    (date(2028, 3, 1), {2027}),
])
def test_a_wage_tax_certificate_must_be_for_last_year_with_grace_until_the_end_of_february(today, years):
    accepted = {y for y in range(today.year - 4, today.year + 2)
                if notes_of("wage_tax_certificate", with_(CERTIFICATE, year=y), NOBODY, today) == []}
    assert accepted == years


def test_a_wrong_year_certificate_note_names_the_year_wanted():
    notes = notes_of("wage_tax_certificate", with_(CERTIFICATE, year=2024), NOBODY, TODAY)
    assert codes(notes) == ["wage_tax_certificate_wrong_year"]
    assert "for 2024" in notes[0].en and "the one for 2025" in notes[0].en
    assert "Lohnsteuerbescheinigung für 2025" in notes[0].de


def test_a_certificate_for_the_current_year_is_not_last_years():
    assert codes(notes_of("wage_tax_certificate", with_(CERTIFICATE, year=2026), NOBODY, TODAY)) == [
        "wage_tax_certificate_wrong_year"]


def test_a_certificate_without_gross_wages_goes_to_a_person():
    notes = notes_of("wage_tax_certificate", with_(CERTIFICATE, gross_wages=None), NOBODY, TODAY)
    assert codes(notes) == ["fields_unreadable"] and notes[0].fields == ("gross_wages",)


# --- employment contract -------------------------------------------------------------------

def test_a_contract_for_a_job_that_starts_later_passes_and_one_whose_salary_was_not_read_goes_to_a_person():
    assert notes_of("employment_contract", with_(CONTRACT, start_date="2027-03-01"), NOBODY, TODAY) == []
    notes = notes_of("employment_contract", with_(CONTRACT, annual_salary=None), NOBODY, TODAY)
    assert codes(notes) == ["fields_unreadable"]
    assert "the annual salary" in notes[0].en and "das Jahresgehalt" in notes[0].de


# --- passport, ID card, residence permit ---------------------------------------------------

@pytest.mark.parametrize("expiry, accepted", [
    (TODAY + timedelta(days=1), True),
    (TODAY, True),                       # valid up to and including its expiry date
    (TODAY - timedelta(days=1), False),  # expired the day after
])
def test_an_identity_document_is_valid_through_its_expiry_date(expiry, accepted):
    notes = notes_of("id_document", with_(PASSPORT, expiry_date=expiry.isoformat()), NOBODY, TODAY)
    assert codes(notes) == ([] if accepted else ["id_expired"])


def test_an_expired_document_note_names_the_date():
    note = notes_of("id_document", with_(PASSPORT, expiry_date="2012-04-15"), NOBODY, TODAY)[0]
    assert "15 April 2012" in note.en and "15.04.2012" in note.de


def test_nothing_read_from_a_zone_whose_check_digits_fail_is_trusted_so_a_person_reads_it():
    verdict = verify_type("id_document", {"fields": with_(PASSPORT, mrz_valid=False, expiry_date="2001-01-01")},
                          Applicant("Someone Else"), TODAY)
    assert verdict.status == Status.ACTION_REQUIRED
    assert verdict.notes[0].fields == ("surname", "given_names", "expiry_date")


def test_a_read_zone_without_an_expiry_date_goes_to_a_person():
    notes = notes_of("id_document", with_(PASSPORT, expiry_date=None), NOBODY, TODAY)
    assert codes(notes) == ["fields_unreadable"] and notes[0].fields == ("expiry_date",)


def test_a_residence_permit_speaks_of_a_residence_permit():
    notes = notes_of("residence_permit", with_(PASSPORT, expiry_date="2020-01-01"), NOBODY, TODAY)
    assert "residence permit" in notes[0].en and "Aufenthaltstitel" in notes[0].de


@pytest.mark.parametrize("profile", [
    "Priya Sharma", "Sharma Priya", "PRIYA SHARMA", "priya sharma", "  Priya   Sharma ", "Dr. Priya Sharma",
])
def test_the_profile_name_matches_the_zone_whatever_its_case_order_or_title(profile):
    assert notes_of("id_document", PASSPORT, Applicant(profile), TODAY) == []


@pytest.mark.parametrize("profile", [None, "", "   "])
def test_a_client_without_a_profile_name_is_not_failed_for_it(profile):
    assert notes_of("id_document", PASSPORT, Applicant(profile), TODAY) == []


@pytest.mark.parametrize("profile", ["Priya Patel", "Anita Sharma", "Priya Sharma Kapoor", "Priyanka Sharma", "Priya"])
def test_another_name_is_refused_with_both_names_shown(profile):
    notes = notes_of("id_document", PASSPORT, Applicant(profile), TODAY)
    assert codes(notes) == ["id_name_mismatch"]
    assert "PRIYA SHARMA" in notes[0].en and profile in notes[0].en and profile in notes[0].de


@pytest.mark.parametrize("profile, surname, given, expected", [
    ("Jörg Müller", "MUELLER", "JOERG", True),           # ICAO: Ö -> OE, Ü -> UE
    ("Jörg Müller", "MULLER", "JORG", True),             # issuers that drop the umlaut's dots
    ("Joerg Mueller", "MULLER", "JORG", True),
    ("Jorg Muller", "MUELLER", "JOERG", True),
    ("Björn Strauß", "STRAUSS", "BJOERN", True),         # ß -> SS
    ("Ærøskøbing Ångström", "AANGSTROEM", "AEROESKOEBING", True),
    ("José García", "GARCIA", "JOSE", True),             # other accents are dropped
    ("Seán O'Brien", "OBRIEN", "SEAN", True),            # apostrophes are dropped
    ("Anna-Lena Schmidt-Weber", "SCHMIDT WEBER", "ANNA LENA", True),  # hyphens become fillers
    ("Anna Eriksson", "ERIKSSON", "ANNA MARIA", True),   # a middle name left out of the profile
    ("Maria Eriksson", "ERIKSSON", "ANNA MARIA", True),
    ("Anna Maria", "ERIKSSON", "ANNA MARIA", False),     # the surname itself must be there
    ("Carmen Española", "ESPANOLA ESPANOLA", "CARMEN", True),
    ("Sidnan Dedic", "DEDIC", "SIDNAN", True),
    ("Erika Mustermann", "MUSTERMANN", "ERIKA", True),
    ("Erika Gabler", "MUSTERMANN", "ERIKA", False),
])
def test_names_are_compared_as_the_mrz_writes_them(profile, surname, given, expected):
    assert names_match(profile, surname, given) is expected


def test_a_name_cut_short_by_a_full_name_field_still_matches_its_beginning():
    # TD1 names have 30 characters: VENKATARAGHAVAN<<SRINIVASA<RAM is full, so RAM may be RAMAN cut short.
    surname, given = "VENKATARAGHAVAN", "SRINIVASA RAM"
    assert names_match("Srinivasa Ramanathan Venkataraghavan", surname, given, "TD1")
    assert not names_match("Srinivasa Ramanathan Venkataraghavan", surname, given, "TD3")  # 39 wide: not cut
    assert not names_match("Srinivasa Ramanathan Venkataraghavan", surname, "SRINIVASA RA", "TD1")  # not full


def test_tokens_are_what_an_mrz_would_print():
    assert tokens("Jörg-Peter O'Neill") == ["JOERG", "PETER", "ONEILL"]
    assert tokens(None) == [] and tokens("") == []
