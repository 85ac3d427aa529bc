"""Field parsing as pure functions: number, date and IBAN formats, and every sample's expected fields."""
import json

import pytest

from leadflow.extractor.fields import extract_fields, parse
from leadflow.extractor.fields.einvoice import parse_invoice_xml
from leadflow.extractor.reading import read_document
from tests.extractor.conftest import SAMPLES, requires_tesseract, sample


@pytest.mark.parametrize("raw, expected", [
    ("1.234,56 EUR", "1234.56"), ("854,50-", "-854.50"), ("-800,00", "-800.00"), ("+3.732,80", "3732.80"),
    ("EUR  - 2.304,47", "-2304.47"), ("1,234.56", "1234.56"), ("$127.50", "127.50"), ("47.682,00 €", "47682.00"),
    ("+ 2.853.82", "2853.82"), ("19 % 3,18", "3.18"),
])
def test_amounts_in_german_and_english_formats_become_decimal_strings(raw, expected):
    assert parse.amount(raw) == expected


@pytest.mark.parametrize("raw", ["31.03.2026", "Zeitraum 01.07.2026", "12,5 %", "08/2026", "no number"])
def test_dates_percentages_and_periods_are_not_amounts(raw):
    assert parse.amount(raw) is None


@pytest.mark.parametrize("raw, expected", [
    ("Erstellt am 31.03.2026", "2026-03-31"), ("2026-03-31", "2026-03-31"), ("Date: 31/12/2017", "2017-12-31"),
    ("7. Mai 2014", "2014-05-07"), ("Jan 1, 2022", "2022-01-01"), ("8-9-2022", "2022-09-08"), ("32.13.2026", None),
])
def test_dates_become_iso(raw, expected):
    assert parse.iso_date(raw) == expected


@pytest.mark.parametrize("raw, expected", [
    ("für August 2026", "2026-08"), ("Abrechnungsmonat 08/2026", "2026-08"), ("März 2026", "2026-03"),
])
def test_pay_periods_become_year_month(raw, expected):
    assert parse.month_period(raw) == expected


def test_ibans_are_found_compacted_and_checked():
    assert parse.iban("IBAN DE86 5003 0010 3975 4612 96  BIC MUSTDEFFXXX") == "DE86500300103975461296"
    assert parse.iban("IBAN DE87 5003 0010 3975 4612 96") is None  # wrong check digits
    assert parse.iban("IBAN DEO5 2005 0088 9043 6454 05") == "DE05200500889043645405"  # OCR O for 0


def synthetic_text_samples():
    for path in sorted(SAMPLES.glob("*/synthetic_*.pdf")):
        if "_scan" not in path.name:
            yield pytest.param(path, id=path.stem)


@pytest.mark.parametrize("path", list(synthetic_text_samples()))
def test_every_synthetic_text_pdf_yields_its_expected_fields(path):
    expected = json.loads(path.with_suffix(".expected.json").read_text())
    fields, schemas = extract_fields(expected["document_type"], read_document(path.read_bytes()))
    assert {k: fields.get(k) for k in expected["fields"] if k != "payout" or "payout" in fields} == {
        k: v for k, v in expected["fields"].items() if k in fields}
    assert set(fields) == set(schemas)


@requires_tesseract
def test_a_scanned_payslip_yields_its_expected_fields_through_ocr():
    path = sample("payslips/synthetic_payslip_A1_02_scan_p1.jpg")
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())["fields"]
    fields, _ = extract_fields("payslip", read_document(path.read_bytes()))
    assert fields == expected


def test_a_real_postbank_statement_yields_account_period_and_balances():
    reading = read_document(sample("bank-statements/stan_PB_KAZ_KtoNr_9999999999_06-04-2017_1200.pdf").read_bytes())
    fields, _ = extract_fields("bank_statement", reading)
    assert fields["iban"] == "DE31200100209999999999"
    assert (fields["period_start"], fields["period_end"]) == ("2020-01-01", "2020-02-02")
    assert (fields["opening_balance"], fields["closing_balance"]) == ("2853.82", "5314.05")
    assert fields["holder"] == "Petra Pfiffig"
    assert fields["salary_credits"] == ["2780.70"]


@pytest.mark.parametrize("relative, expected", [
    ("invoices/mustang_EN16931_Einfach.pdf", {"issuer": "Lieferant GmbH", "number": "471102", "date": "2024-11-15",
                                              "net": "473.00", "tax": "56.87", "total": "529.87", "currency": "EUR"}),
    # The printed page says 963,12; the XML, which is the invoice, says 963.11.
    ("invoices/mustang_MustangBeispiel20221026.pdf", {"number": "RE1001", "date": "2022-10-26", "net": "809.34",
                                                      "tax": "153.77", "total": "963.11", "currency": "EUR"}),
    ("invoices/invoice2data_AzureInterior.pdf", {"issuer": "Azure Interior", "number": "INV/2023/03/0008",
                                                 "date": "2023-03-20", "net": "262.90", "tax": "16.94",
                                                 "total": "279.84", "currency": "USD"}),
])
def test_an_embedded_e_invoice_is_read_from_its_xml(relative, expected):
    fields, _ = extract_fields("invoice", read_document(sample(relative).read_bytes()))
    assert fields["source"] == "xml"
    assert {k: fields[k] for k in expected} == expected


@pytest.mark.parametrize("relative, expected", [
    ("invoices/invoice2data_QualityHosting.pdf", {"issuer": "QualityHosting AG", "number": "30064443",
                                                  "date": "2014-05-07", "total": "34.73", "currency": "EUR"}),
    ("invoices/invoice2data_SammyMaystoneLinesTest.pdf", {"number": "invoice_number_1", "date": "2022-01-01",
                                                          "total": "127.50", "currency": "USD"}),
    ("invoices/invoice2data_oyo.pdf", {"number": "IBZY2087", "date": "2017-12-31", "total": "1939.00",
                                       "currency": "INR"}),
    ("invoices/invoice2data_saeco.pdf", {"date": "2022-09-08", "total": "49.99", "currency": "EUR"}),
])
def test_an_invoice_without_xml_is_read_from_its_text(relative, expected):
    fields, _ = extract_fields("invoice", read_document(sample(relative).read_bytes()))
    assert fields["source"] == "text"
    assert {k: fields[k] for k in expected} == expected


def test_hostile_or_foreign_xml_yields_nothing():
    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa"><!ENTITY b "&a;&a;">]><Invoice>&b;</Invoice>'
    assert parse_invoice_xml(bomb) is None
    assert parse_invoice_xml(b"<not-an-invoice/>") is None
    assert parse_invoice_xml(b"<broken") is None
