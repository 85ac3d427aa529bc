"""What the extractor confirms: a value read twice by independent means, or cross-checked. Each check as
a pure function, then through `extract` on real files, and a statement whose header misleads."""
from datetime import date
from decimal import Decimal

import pytest

from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import Applicant, verify_type
from leadflow.extractor import confirm
from leadflow.extractor.pipeline import extract
from tests.extractor.conftest import sample
from tests.extractor.test_layout import pdf


def booked(*days: str, amount: str = "-10.00") -> list[dict]:
    return [{"date": day, "counterparty": None, "purpose": "Lastschrift", "amount": amount} for day in days]


# --- the cross-checks, pure ----------------------------------------------------------------------

@pytest.mark.parametrize("start, end, days, agrees", [
    ("2026-10-01", "2026-10-31", ["2026-10-02", "2026-10-30"], True),
    ("2026-10-01", "2026-10-31", ["2026-09-28", "2026-11-03"], True),  # value dates a few days outside
    ("2026-05-01", "2026-05-31", ["2026-10-02", "2026-10-30"], False),  # "Nr. 5/2026" read as May
    ("2026-10-01", "2026-10-31", ["2026-10-02", "2026-12-24"], False),
    (None, "2026-10-31", ["2026-10-02"], True),
    (None, "2026-10-31", ["2026-03-02"], False),  # further back than any statement runs
    ("2026-10-01", "2026-10-31", [], False),  # no bookings: nothing to agree with
    ("2026-10-01", None, ["2026-10-02"], False),
])
def test_a_period_agrees_with_the_bookings_when_it_holds_every_bookings_date(start, end, days, agrees):
    as_day = lambda value: date.fromisoformat(value) if value else None  # noqa: E731
    assert confirm.period_agrees_with_bookings(as_day(start), as_day(end), booked(*days)) is agrees


def test_opening_plus_bookings_is_the_closing_balance_to_the_cent():
    bookings = booked("2026-10-01", amount="-800.00") + booked("2026-10-31", amount="3732.80")
    assert confirm.balances_add_up("1000.00", bookings, "3932.80")
    assert not confirm.balances_add_up("1000.00", bookings, "3932.81")
    assert not confirm.balances_add_up("1000.00", [], "1000.00")  # nothing booked confirms nothing
    assert not confirm.balances_add_up("1000.00", bookings + [{"date": None, "amount": None}], "3932.80")


@pytest.mark.parametrize("iban, holds", [
    ("DE86500300103975461296", True), ("DE86 5003 0010 3975 4612 96", True), ("GB82WEST12345698765432", True),
    ("DE87500300103975461296", False), ("DE8650030010397546129", False), ("", False), (None, False),
])
def test_an_ibans_check_digits(iban, holds):
    assert confirm.iban_check_digits_hold(iban) is holds


def test_gross_less_a_printed_total_or_a_run_of_deductions_is_the_net_pay():
    total = "Gesamtbrutto 5.397,47\nSumme Abzüge 2.002,75\nNettoverdienst 3.394,72"
    lines = "Gesamtbrutto 5.397,47\nLohnsteuer 1.000,00\nSoli 0,00\nKV 502,75\nRV 500,00\nNetto 3.394,72"
    assert confirm.deductions_add_up("5397.47", "3394.72", total)
    assert confirm.deductions_add_up("5397.47", "3394.72", lines)
    assert not confirm.deductions_add_up("5397.47", "3394.72", "Gesamtbrutto 5.397,47\nNetto 3.394,72")
    assert not confirm.deductions_add_up("3394.72", "5397.47", total)  # net above gross: nothing to deduct


def test_dates_months_and_amounts_are_counted_once_per_place_they_are_printed():
    text = "Abrechnung Oktober 2026\nZeitraum 01.10.2026 - 31.10.2026\nKontoauszug Nr. 5/2026\n31. Oktober 2026"
    assert confirm.days_printed(text) == [date(2026, 10, 1), date(2026, 10, 31), date(2026, 10, 31)]
    assert confirm.months_printed(text) == ["2026-10", "2026-10", "2026-10", "2026-05", "2026-10"]
    assert confirm.amounts_printed("1.234,56 EUR  1234.56  12,30-  2026-10-01  4711") == [
        Decimal("1234.56"), Decimal("1234.56"), Decimal("12.30")]


def test_a_payslips_month_printed_once_is_not_confirmed_and_twice_is():
    once = confirm.payslip({"period": "2026-05"}, {}, "Personalnummer 5/2026\nBrutto 100,00")
    twice = confirm.payslip({"period": "2026-10"}, {}, "Abrechnung 10/2026\nAuszahlung am 30.10.2026")
    assert "period" not in once and twice["period"] == "printed_twice"


def test_a_tax_papers_year_is_confirmed_by_its_date_of_issue_in_the_year_after_or_by_standing_twice():
    assert confirm.wage_tax_certificate({"year": 2025}, {}, "Bescheinigung für 2025\nDatum: 27.01.2026") == {
        "year": "issued_next_year"}
    assert confirm.wage_tax_certificate({"year": 2023}, {}, "Bescheinigung für 2023\nDatum: 27.01.2026") == {}
    assert confirm.tax_assessment({"tax_year": 2025}, {}, "für das Kalenderjahr 2025\nBescheiddatum: 28. Juni 2026") \
        == {"tax_year": "issued_next_year"}
    assert confirm.tax_assessment({"tax_year": 2024}, {}, "für das Kalenderjahr 2024\nBescheiddatum: 28. Juni 2026") \
        == {}
    assert confirm.tax_assessment({"tax_year": 2025}, {}, "Bescheid für 2025\nZeitraum 01.01.2025") == {
        "tax_year": "printed_twice"}
    assert confirm.tax_assessment({"tax_year": 2025}, {}, "Steuernummer 12/2026/55") == {}  # not printed at all


def test_without_dated_bookings_the_days_opening_the_lines_are_the_bookings_dates():
    text = ("Period September 1, 2026 - September 30, 2026\nGenerated on October 1, 2026\n"
            "September 1, 2026  Hausverwaltung  -€2,045.97\n01 Oct  no year: not read\n"
            "September 26, 2026  Salary 09/2026  +€4,823.50")
    assert confirm.line_start_days(text) == [date(2026, 9, 1), date(2026, 9, 26)]  # not the header, nor "01 Oct"
    undated = [{"date": None, "amount": "-2045.97"}, {"date": None, "amount": "4823.50"}]
    agreeing = confirm.bank_statement({"period_start": "2026-09-01", "period_end": "2026-09-30",
                                       "bookings": undated}, {}, text)
    assert agreeing["period_end"] == "bookings"
    misread = confirm.bank_statement({"period_start": "2026-05-01", "period_end": "2026-05-31",
                                      "bookings": undated}, {}, text)
    assert "period_end" not in misread


def test_an_identity_documents_zone_is_confirmed_by_its_check_digit_or_its_print():
    zone = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
    fields = {"surname": "ERIKSSON", "given_names": "ANNA MARIA", "expiry_date": "2012-04-15", "mrz_valid": True}
    checked = {"expiry_date": 0.97, "surname": 0.9, "given_names": 0.9}
    assert confirm.id_document(fields, checked, zone) == {"expiry_date": "check_digit"}
    printed = "Surname ERIKSSON\nGiven names ANNA MARIA\nDate of expiry 15 APR/AVR 12\n" + zone
    assert confirm.id_document(fields, {**checked, "expiry_date": 0.9}, printed) == {
        "expiry_date": "zone_and_print", "surname": "zone_and_print", "given_names": "zone_and_print"}
    assert confirm.id_document({**fields, "mrz_valid": False}, checked, printed) == {}


def test_a_data_format_is_the_banks_own_data_and_confirms_what_it_carries():
    found = confirm.confirmed("bank_statement", {"iban": "X", "period_end": "2026-07-31", "holder": None}, {}, "",
                              structured=True)
    assert found == {"iban": "bank_data", "period_end": "bank_data"}
    assert confirm.confirmed("employment_contract", {"employer": "X"}, {}, "X X") == {}


# --- through the extractor --------------------------------------------------------------------------

@pytest.mark.parametrize("path, expected", [
    ("bank-statements/synthetic_bank_statement_A1_01.pdf",
     {"period_start": "bookings", "period_end": "bookings", "iban": "check_digits"}),
    ("payslips/synthetic_payslip_A1_01.pdf", {"period": "printed_twice", "gross": "deductions", "net": "deductions"}),
    ("tax/synthetic_tax_assessment_A1_01.pdf", {"tax_year": "printed_twice"}),
    ("tax/synthetic_wage_tax_certificate_A1_01.pdf", {"year": "issued_next_year"}),
])
def test_the_extractor_confirms_what_a_genuine_document_says_twice(path, expected):
    found = extract(sample(path).read_bytes())["content"]["confirmed"]
    assert {name: found.get(name) for name in expected} == expected


@pytest.mark.parametrize("heading", ["Kontoauszug 5/2026", "Auszug 5/2026 Blatt 1", "Kontoauszug Nr. 05/2026"])
def test_a_statement_numbered_like_a_month_is_judged_by_its_bookings(heading):
    # The heading's number reads like May 2026 (the reader took it for the period, at 0.83); the
    # bookings are October's, so the period is not confirmed, and the bookings decide: recent.
    data = extract(pdf(
        (60, 40, "Musterbank AG"), (60, 80, heading),
        (330, 80, "Kontoinhaber:"), (400, 80, "Anna Beispiel"),
        (330, 92, "IBAN:"), (400, 92, "DE86 5003 0010 3975 4612 96"),
        (60, 130, "Buchungstag"), (140, 130, "Vorgang"), (470, 130, "Betrag EUR"),
        (60, 144, "02.10.2026"), (140, 144, "Lastschrift Stadtwerke Beispielstadt"), (470, 144, "-84,00"),
        (60, 158, "30.10.2026"), (140, 158, "Gutschrift Lohn/Gehalt Beispiel GmbH"), (470, 158, "3.394,72"),
        (60, 190, "Neuer Kontostand"), (470, 190, "4.310,72")))
    content = data["content"]
    end = content["fields"]["period_end"]
    assert ("period_end" in content["confirmed"]) is bool(end and end.startswith("2026-10"))
    verdict = verify_type("bank_statement", content, Applicant(), date(2026, 11, 29))
    assert verdict.status != Status.REJECTED, verdict.notes
    if end:  # read, right or wrong: the bookings settle it
        assert verdict.status == Status.VERIFIED, verdict.notes


def test_the_camt053_statement_is_confirmed_as_the_banks_data():
    from tests.extractor.test_statements import CAMT_SALARY
    assert extract(CAMT_SALARY)["content"]["confirmed"]["period_end"] == "bank_data"


def test_a_customised_output_confirms_only_the_fields_it_carries():
    data = extract(sample("payslips/synthetic_payslip_A1_01.pdf").read_bytes(), "customise",
                   {"fields": ["period", "employer"]})
    assert data["content"]["confirmed"] == {"period": "printed_twice"}


def test_a_genuinely_old_statement_whose_bookings_are_all_old_is_still_rejected():
    content = extract(sample("bank-statements/stan_PB_KAZ_KtoNr_9999999999_06-04-2017_1200.pdf").read_bytes())[
        "content"]
    assert content["confirmed"]["period_end"] == "bookings"
    verdict = verify_type("bank_statement", content, Applicant(), date(2026, 11, 29))
    assert verdict.status == Status.REJECTED and [n.code for n in verdict.notes] == ["bank_statement_too_old"]


def test_a_day_printed_twice_confirms_a_period_only_where_no_booking_dates_disagree():
    text = "Kontostand am 30.06.2026  1.000,00\nSaldo per 30.06.2026\n03.08.2026 Lastschrift -10,00"
    quarter = {"period_start": "2026-04-01", "period_end": "2026-06-30"}
    assert "period_end" not in confirm.bank_statement({**quarter, "bookings": booked("2026-08-03")}, {}, text)
    assert confirm.bank_statement({**quarter, "bookings": []}, {}, text.split("\n03.08")[0])["period_end"] == \
        "printed_twice"


# A residence permit's back: no printed name, the zone read with a stray mark after its fillers and
# one letter of the surname misread (ERIKSSON as ERIKSSOM). The names line is the zone's own reading.
MISREAD_ZONE = ("AUFENTHALTSTITEL\nANMERKUNGEN\n"
                "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSOM<<ANNA<MARIA<<<<<<<<<¢")


def test_a_zone_line_read_with_a_stray_mark_is_still_the_zone_and_never_confirms_its_own_names():
    fields = {"surname": "ERIKSSOM", "given_names": "ANNA MARIA", "expiry_date": "2012-04-15", "mrz_valid": True}
    assert "surname" not in confirm.id_document(fields, {"expiry_date": 0.97}, MISREAD_ZONE)
    assert "surname" not in confirm.id_document(fields, {}, MISREAD_ZONE.replace("<<<<<<<<<¢", "«««««"))
    printed = "Name ERIKSSON\nVornamen ANNA MARIA\n" + MISREAD_ZONE
    assert "surname" not in confirm.id_document(fields, {}, printed)  # the print says otherwise


def test_a_misread_zone_name_on_a_permit_goes_to_a_person_instead_of_rejecting_the_holder():
    data = extract(pdf(*((40, 60 + 14 * i, line) for i, line in enumerate(MISREAD_ZONE.splitlines())),
                       font="Courier"))
    assert data["document_type"] == "residence_permit"
    assert data["content"]["fields"]["surname"] == "ERIKSSOM"
    assert "surname" not in data["content"]["confirmed"]
    verdict = verify_type("residence_permit", data["content"], Applicant(name="Anna Maria Eriksson"),
                          date(2011, 11, 29))
    assert verdict.status != Status.REJECTED
    assert "id_name_mismatch" not in [note.code for note in verdict.notes]


def test_a_zone_name_confirms_only_when_the_print_shows_the_same_name_whole():
    fields = {"surname": "ERIKSSON", "given_names": "ANNA", "expiry_date": "2012-04-15", "mrz_valid": True}
    zone = "I<UTOD231458907<<<<<<<<<<<<<<<\n7408122F1204159UTO<<<<<<<<<<<6\nERIKSSON<<ANNA<<<<<<<<<<<<<<<<"
    whole = "NAME / SURNAME\nERIKSSON\nVORNAMEN / GIVEN NAMES\nANNA MARIA\n" + zone  # the zone lost MARIA
    assert "surname" not in confirm.id_document(fields, {}, whole)
    assert "surname" not in confirm.id_document(fields, {}, whole.replace("ANNA MARIA", "Anna Maria"))
    same = whole.replace("ANNA MARIA", "ANNA Geburtsname")
    assert confirm.id_document(fields, {}, same)["given_names"] == "zone_and_print"
    scattered = "ANNA LIEBT ERIKSSON\n" + zone  # words found somewhere are not the name printed
    assert "surname" not in confirm.id_document({**fields, "given_names": "LIEBT ANNA"}, {}, scattered)
