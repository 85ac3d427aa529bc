"""Dates, pay months and tax classes as OCR misreads them on scans and photos: the letters that look like
digits inside a date, a month's name with a letter confused, a Roman numeral's strokes read as l or |.
Read back where the shape leaves no other reading; never turned into a date where none was printed."""
import pytest

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields import payslip
from leadflow.extractor.fields.finding import Findings
from leadflow.extractor.normalise import month_word, repair_dates


@pytest.mark.parametrize("read, meant", [
    ("0l.1O.2026", "01.10.2026"),
    ("31. 03. 2026", "31.03.2026"),
    ("O1/2026", "01/2026"),
    ("Zeitraum: 1O.2026", "Zeitraum: 10.2026"),
    ("Kalenderjahr 2O25", "Kalenderjahr 2025"),
])
def test_a_date_misread_by_ocr_is_read_again(read, meant):
    assert repair_dates(read) == meant


@pytest.mark.parametrize("text", ["1.234,56", "Il.Ol", "Seite 1/2", "10/26", "3.500,00 EUR 2026", "IBAN DE12 3456"])
def test_figures_that_are_no_dates_stay_as_printed(text):
    assert repair_dates(text) == text


@pytest.mark.parametrize("raw, period", [
    ("0ktober 2026", "2026-10"),
    ("Apri1 2026", "2026-04"),
    ("Dezernber 2026", "2026-12"),
    ("für Juii 2026", "2026-07"),
    ("Ol.2O26", "2026-01"),
    ("Januar2026", "2026-01"),
])
def test_a_pay_month_misread_by_ocr_is_its_month(raw, period):
    assert p.month_period(raw) == period


@pytest.mark.parametrize("raw", ["Seite 2026", "Summe 2026", "Jahr 2026", "Marke 2026"])
def test_a_word_before_a_year_is_no_month_unless_it_spells_one(raw):
    assert p.month_period(raw) is None


def test_a_month_word_is_read_only_when_one_month_is_that_close():
    assert month_word("Septernber", p.MONTHS) == "september"
    assert month_word("Mal", p.MONTHS) is None  # three letters: too short to guess


def test_a_date_with_ocr_letters_and_a_misread_month_name_is_read():
    assert p.iso_date("Beginn: 0l. O4. 2026") == "2026-04-01"
    assert p.iso_date("commences on 1. 0ktober 2026") == "2026-10-01"
    assert p.date_range("01.O1.2026 - 3l.0l.2026") == ("2026-01-01", "2026-01-31")
    assert p.year("für das Kalenderjahr 2O25") == 2025


@pytest.mark.parametrize("raw, tax_class", [
    ("I", 1), ("l", 1), ("|", 1), ("Il", 2), ("11", 2), ("lll", 3), ("lV", 4), ("Vl", 6), ("III Kinder 0,5", 3),
    ("3", 3),
])
def test_a_tax_class_numeral_read_as_strokes_is_its_class(raw, tax_class):
    assert p.tax_class(raw) == tax_class


@pytest.mark.parametrize("raw", ["1,5", "11,00", "ll.5", "Kinder"])
def test_a_figure_is_no_tax_class(raw):
    assert p.tax_class(raw) is None


@pytest.mark.parametrize("text, tax_class", [
    ("Steuerkiasse: Ill  Kinder 0,5", 3),
    ("StKI  IV", 4),
    ("St.-Kl. l  Konf. rk", 1),
])
def test_a_payslips_tax_class_is_read_under_its_label_as_ocr_spells_it(text, tax_class):
    found = Findings(payslip.SCHEMAS)
    payslip._flat_tax_class(found, text)
    assert [c.value for c in found.candidates["tax_class"]] == [tax_class]


def test_a_pay_range_with_one_year_misread_is_the_month_of_the_year_that_is_no_future():
    assert p.month_period("vom JUNE 1, 2036 BIS JUNE 30, 2026") == "2026-06"
    assert p.month_period("01.06.2025 - 30.06.2026") is None  # two plausible years: no guess


@pytest.mark.parametrize("read, amount", [
    ("53.36 2,68", "53362.68"),
    ("1.2 34,56 EUR", "1234.56"),
    ("53.362, 68", "53362.68"),
])
def test_a_space_ocr_set_inside_a_figure_is_no_column_gap(read, amount):
    assert p.amounts(read) == [amount]


def test_figures_in_two_columns_stay_two():
    assert p.amounts("1.234,56 12,00") == ["1234.56", "12.00"]
    assert p.amounts("1.23 45,67") == ["1.23", "45.67"]  # no group of three: two figures


@pytest.mark.parametrize("text, tax_class", [("STEUERKL. 1", 1), ("STEUERKL.: 3", 3), ("Steuerkl. II", 2)])
def test_the_tax_class_abbreviated_with_its_dot_is_read(text, tax_class):
    found = Findings(payslip.SCHEMAS)
    payslip._flat_tax_class(found, text)
    assert [c.value for c in found.candidates["tax_class"]] == [tax_class]


def test_a_statement_names_its_balances_kontostand_alt_and_kontostand_neu():
    from leadflow.extractor.fields import read_fields
    from leadflow.extractor.reading import read_document
    from tests.extractor.test_generalising_readers import BOOKINGS, STATEMENT_HEAD
    from tests.extractor.test_layout import pdf
    found = read_fields("bank_statement", read_document(pdf(
        *STATEMENT_HEAD, (60, 80, "Kontostand alt:"), (460, 80, "100,00"), *BOOKINGS,
        (60, 170, "Kontostand neu:"), (460, 170, "2.004,90"))))
    assert (found.fields["opening_balance"], found.fields["closing_balance"]) == ("100.00", "2004.90")


def test_an_ending_balance_is_read_from_the_flat_text_where_a_photos_rows_interleave():
    from leadflow.extractor.fields import bank_statement
    text = "Previous balance\n7,369.44\nEnding balance: 7,206.00\n"
    assert p.after_label(text, bank_statement.FLAT_CLOSING, bank_statement.balance) == "7206.00"
    assert p.after_label(text, bank_statement.FLAT_OPENING, bank_statement.balance) == "7369.44"


def test_a_month_alone_on_a_line_near_the_top_is_the_pay_period_when_its_label_was_lost():
    found = Findings(payslip.SCHEMAS)
    payslip._flat_period(found, "Muster GmbH\nSchillerplatz 22\n70173 Stuttgart\nEMMA VAN DEN BERG\nSCHILLERPLATZ 75\n"
                                "70173 STUTTGART\nSeite 2026\nSEPTEMBER 2026\n58164\nLOHNABRECHNUNG\n")
    assert [c.value for c in found.candidates["period"] if c.value] == ["2026-09"]


def test_the_date_since_which_someone_is_employed_is_no_pay_period():
    found = Findings(payslip.SCHEMAS)
    payslip._flat_period(found, "Muster GmbH\nPriya Nair\nBeschäftigt seit\n01/08/2022\nBezügemitteilung\n")
    assert [c.value for c in found.candidates["period"] if c.value] == []
