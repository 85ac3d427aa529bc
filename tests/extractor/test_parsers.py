"""The value parsers in every style German and English documents print: dates, months, years,
periods, amounts (signs before and after), IBANs, names and tax numbers."""
import pytest

from leadflow.extractor.fields import parse
from leadflow.extractor.fields.tax import TAX_NUMBER, _office


@pytest.mark.parametrize("raw, expected", [
    ("01.10.2026", "2026-10-01"), ("1.10.2026", "2026-10-01"), ("1. Oktober 2026", "2026-10-01"),
    ("1 Oct 2026", "2026-10-01"), ("October 1, 2026", "2026-10-01"), ("2026-10-01", "2026-10-01"),
    ("01/10/2026", "2026-10-01"), ("vom 14. Januar 2026", "2026-01-14"), ("23 May 2025", "2025-05-23"),
    ("31.02.2026", None), ("Seite 1 von 2", None),
])
def test_dates_in_every_style_become_iso(raw, expected):
    assert parse.iso_date(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("Oktober 2026", "2026-10"), ("OKTOBER 2026", "2026-10"), ("Okt. 2026", "2026-10"), ("October 2026", "2026-10"),
    ("10/2026", "2026-10"), ("10.2026", "2026-10"), ("2026-10", "2026-10"), ("für August 2026", "2026-08"),
    ("01.10.2026 - 31.10.2026", "2026-10"), ("1 Oct 2026 – 31 Oct 2026", "2026-10"),
    ("Personal-Nr. 52187", None),
])
def test_pay_months_in_every_style_become_year_month(raw, expected):
    assert parse.month_period(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("für das Kalenderjahr 2025", 2025), ("Veranlagungszeitraum 2024", 2024), ("2025", 2025),
    ("01.01.2025 - 31.12.2025", 2025), ("January 1, 2025 - December 31, 2025", 2025),
    ("Steuernummer 123/456/20251", None), ("Seite 1", None),
])
def test_years_come_from_labels_and_from_periods_within_one_year(raw, expected):
    assert parse.year(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("01.08.2026 - 31.08.2026", ("2026-08-01", "2026-08-31")),
    ("vom 1. August 2026 bis 31. August 2026", ("2026-08-01", "2026-08-31")),
    ("2026-10-01 to 2026-10-31", ("2026-10-01", "2026-10-31")),
    ("12.10.2026 bis 11.11.2026", ("2026-10-12", "2026-11-11")),
    ("01.08.26 - 31.08.26", ("2026-08-01", "2026-08-31")),
    ("am 31.08.2026", (None, None)),
])
def test_periods_give_their_start_and_end(raw, expected):
    assert parse.date_range(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("1.234,56", "1234.56"), ("1,234.56", "1234.56"), ("1234,56", "1234.56"), ("EUR 1.234,56-", "-1234.56"),
    ("1.234,56 €", "1234.56"), ("- 1.234,56", "-1234.56"), ("−1.234,56", "-1234.56"), ("EUR 3,968.20", "3968.20"),
    ("453,00-", "-453.00"), ("113,104.44", "113104.44"), ("0,00", "0.00"), ("1.234.567,89", "1234567.89"),
])
def test_amounts_in_german_and_english_styles_with_signs_before_or_after(raw, expected):
    assert parse.amount(raw) == expected


@pytest.mark.parametrize("raw, expected", [("61.808  06", "61808.06"), ("10.111 | 42", "10111.42"),
                                           ("61.808,06", "61808.06"), ("113,104.44", "113104.44")])
def test_the_wage_tax_forms_euro_and_cent_boxes_read_as_one_amount(raw, expected):
    assert parse.euro_cents(raw) == expected


def test_ibans_are_accepted_only_with_valid_check_digits_in_any_spacing():
    assert parse.iban("DE86 5003 0010 3975 4612 96") == "DE86500300103975461296"
    assert parse.iban("DE86500300103975461296") == "DE86500300103975461296"
    assert parse.iban("IBAN / BIC: DE58 2004 1155 7026 4015 61  NODKDEHHXXX") == "DE58200411557026401561"
    assert parse.iban("DE86 5003 0010 3975 4612 97") is None


@pytest.mark.parametrize("raw, expected", [
    ("Rahul Mustermann", "Rahul Mustermann"), ("Herrn Rahul Mustermann", "Rahul Mustermann"),
    ("Petrov, Ivan", "Ivan Petrov"), ("MUSTERMANN, ERIKA", "ERIKA MUSTERMANN"),
    ("Emma van den Berg", "Emma van den Berg"), ("Siobhán O'Connor", "Siobhán O'Connor"),
    ("Dr. Anna Schmidt-Weber", "Anna Schmidt-Weber"), ("Platzhalter Pharma AG", None), ("Lindenweg 9", None),
    ("Steuernummer", None),
])
def test_person_names_as_printed_and_last_name_first(raw, expected):
    assert parse.person_name(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("Platzhalter Pharma AG · Vorlagenstraße 111", "Platzhalter Pharma AG"), ("for Moselstein Bau GmbH", "Moselstein Bau GmbH"),
    ("(1) Hanseatic Medtech SE", "Hanseatic Medtech SE"), ("* der Probe Maschinenbau SE", "Probe Maschinenbau SE"), ("ELBTAL ENERGIE GMBH", "ELBTAL ENERGIE GMBH"),
    ("Ivan Petrov", None),
])
def test_company_names_end_at_their_legal_form(raw, expected):
    assert parse.company_name(raw) == expected


@pytest.mark.parametrize("raw, expected", [("I", 1), ("III", 3), ("IV", 4), ("5", 5), (": 2", 2), ("7", None),
                                           ("1,5", None)])
def test_tax_classes_in_digits_or_roman_numerals(raw, expected):
    assert parse.tax_class(raw) == expected


@pytest.mark.parametrize("raw", ["19 570 14637", "99/331/23982", "152/668/69874", "19684/75384", "2181508150815"])
def test_tax_numbers_in_the_states_formats(raw):
    assert TAX_NUMBER.search(f"Steuernummer {raw} ").group(0) == raw


@pytest.mark.parametrize("raw, expected", [("Hamburg-Nord", "Finanzamt Hamburg-Nord"),
                                           ("Finanzamt Frankfurt am Main III", "Finanzamt Frankfurt am Main III"),
                                           ("Finanzamt Köln-Süd", "Finanzamt Köln-Süd"), ("Postfach 10 02 40", None)])
def test_tax_offices_are_named_as_the_office_calls_itself(raw, expected):
    assert _office(raw) == expected


@pytest.mark.parametrize("raw, expected", [("52.000", "52000.00"), ("52.000 €", "52000.00"), ("0 €", "0.00"),
                                           ("10.420,00 €", "10420.00"), ("2025", None), ("10.09.2025", None)])
def test_tax_offices_whole_euros_are_amounts_and_years_are_not(raw, expected):
    assert parse.euros(raw) == expected


def test_a_district_numeral_ocr_read_as_letters_is_the_numeral():
    assert _office("Finanzamt Frankfurt am Main Ill") == "Finanzamt Frankfurt am Main III"


def test_the_year_of_a_service_period_written_without_its_first_year():
    assert parse.year("Dauer des Dienstverhältnisses 01.01.-31.12.2025") == 2025


@pytest.mark.parametrize("raw, expected", [
    ("Spreebogen Consulting GmbH & Co. KG", "Spreebogen Consulting GmbH & Co. KG"),
    ("ENTGELTABRECHNUNG FICHTELBERG TEXTIL AG", "FICHTELBERG TEXTIL AG"),
])
def test_compound_legal_forms_are_kept_and_a_title_run_into_the_name_is_not(raw, expected):
    assert parse.company_name(raw) == expected


def test_a_district_office_with_a_numeral_after_its_area():
    assert _office("Finanzamt Hannover-Land I") == "Finanzamt Hannover-Land I"
