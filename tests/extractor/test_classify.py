"""Classification and language detection as pure functions, on short texts and on sample text."""
import pytest

from leadflow.extractor.classify import THRESHOLD, classify, confidence_of, detect_language, mrz_document_code
from leadflow.extractor.reading import read_document
from tests.extractor.conftest import sample


@pytest.mark.parametrize("text, expected", [
    ("Gehaltsabrechnung für März 2026\nGesamt-Brutto 4.000,00\nNetto-Verdienst 2.600,00\nAuszahlungsbetrag 2.600,00", "payslip"),
    ("Payslip March 2026\nGross pay 4,000.00\nNet pay 2,600.00\nPay period 03/2026", "payslip"),
    ("Kontoauszug Nr. 3\nKontoinhaber Max Muster\nIBAN DE89 3704 0044 0532 0130 00\nAlter Kontostand 1.000,00\nBuchungstag Wert", "bank_statement"),
    ("Bank statement\nAccount holder Jane Doe\nOpening balance 100.00\nClosing balance 80.00\nBooking date", "bank_statement"),
    ("Finanzamt Musterstadt\nBescheid für 2025 über Einkommensteuer\nzu versteuerndes Einkommen 50.000 €\nFestsetzung", "tax_assessment"),
    ("Ausdruck der elektronischen Lohnsteuerbescheinigung für 2025\nDauer des Dienstverhältnisses\nEinbehaltene Lohnsteuer von 3.", "wage_tax_certificate"),
    ("Arbeitsvertrag\nzwischen der Muster GmbH (Arbeitgeber) und Herrn Muster (Arbeitnehmer)\n§ 1 Beginn des Arbeitsverhältnisses, Probezeit\n§ 4 Vergütung\n§ 5 Urlaub", "employment_contract"),
    ("Rechnung Nr. 2026-001\nRechnungsdatum 01.03.2026\nNettobetrag 100,00 EUR\nUSt 19 % 19,00 EUR\nGesamtbetrag 119,00 EUR\nZahlbar bis 15.03.2026", "invoice"),
    ("INVOICE\nInvoice number INV-7\nSubtotal 10.00\nVAT 2.00\nTotal 12.00\nDue date 2026-04-01", "invoice"),
    ("LIDL\nEmmentaler 5,18 A\nzu zahlen 7,16\nBar 10,00\nRückgeld -2,84\nKassenbon", "receipt"),
    ("UTOPIA Passport\nSurname ERIKSSON\nP<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10", "id_document"),
    ("IDD<<T220001293<<<<<<<<<<<<<<<\n6408125<2010315D<<<<<<<<<<<<<4\nMUSTERMANN<<ERIKA<<<<<<<<<<<<<", "id_document"),
    ("Aufenthaltstitel\nAufenthaltserlaubnis\nARD<<Y701001V51<<<<<<<<<<<<<<<\n7611027M1609189IND<<<<<<<<<<<2", "residence_permit"),
])
def test_each_type_is_recognised_from_its_keywords(text, expected):
    document_type, confidence = classify(text)
    assert document_type == expected
    assert THRESHOLD <= confidence <= 1


@pytest.mark.parametrize("text", ["", "hello world", "Sehr geehrte Damen und Herren, vielen Dank für Ihre Nachricht."])
def test_text_without_evidence_is_unknown(text):
    document_type, confidence = classify(text)
    assert document_type == "unknown"
    assert 0 <= confidence < THRESHOLD


def test_a_tie_between_two_types_is_not_confident():
    assert confidence_of(8.0, 8.0) < THRESHOLD
    assert confidence_of(8.0, 0.0) > confidence_of(8.0, 4.0) > confidence_of(8.0, 8.0)
    assert confidence_of(0.0, 0.0) == 0.0


def test_a_booking_line_that_mentions_an_invoice_does_not_make_a_statement_an_invoice():
    text = sample("bank-statements/synthetic_bank_statement_A1_01.pdf").read_bytes()
    assert classify(read_document(text).text)[0] == "bank_statement"


@pytest.mark.parametrize("relative, expected", [
    ("payslips/synthetic_payslip_A1_02.pdf", "payslip"),
    ("bank-statements/stan_PB_KAZ_KtoNr_9999999999_06-04-2017_1200.pdf", "bank_statement"),
    ("tax/synthetic_tax_assessment_A1_02.pdf", "tax_assessment"),
    ("tax/synthetic_wage_tax_certificate_A1_02.pdf", "wage_tax_certificate"),
    ("employment-contracts/synthetic_employment_contract_A1_02.pdf", "employment_contract"),
    ("invoices/invoice2data_AzureInterior.pdf", "invoice"),
    ("invoices/mustang_MustangBeispiel20221026.pdf", "invoice"),
    # A hotel's "payment receipt" on business paper (register entry, bank for payment, item table):
    # read as the invoice invoice2data takes it for, with an invoice's fields.
    ("invoices/invoice2data_oyo.pdf", "invoice"),
])
def test_the_text_samples_are_classified_as_their_type(relative, expected):
    reading = read_document(sample(relative).read_bytes())
    assert classify(reading.text)[0] == expected


def test_mrz_document_codes_survive_common_ocr_slips():
    assert mrz_document_code("1DD<<T220001293<<<<<<<<<<<<<<<") == "ID"
    assert mrz_document_code("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<") == "P"
    assert mrz_document_code("no zone here") is None


@pytest.mark.parametrize("text, expected", [
    ("Der Arbeitnehmer erhält für die Tätigkeit eine Vergütung, die am Monatsende gezahlt wird.", "de"),
    ("Please find the invoice for the services of this month attached to your account.", "en"),
    ("12,00 34,00", None),
])
def test_language_is_told_from_function_words(text, expected):
    assert detect_language(text) == expected
