"""Field finding without templates, on documents drawn in the test in layouts no reader was written
for: every field with a confidence, cross-checks that lower it, and the content LeadFlow receives."""
import pytest

from leadflow.extractor.fields import read_fields
from leadflow.extractor.pipeline import extract
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf

PAYSLIP = (
    (60, 60, "ENTGELTABRECHNUNG"), (330, 60, "ABRECHNUNGSZEITRAUM 01.10.2026 - 31.10.2026"),
    (60, 100, "ARBEITGEBER"), (330, 100, "ARBEITNEHMER/IN"),
    (60, 114, "Nordlicht Logistik GmbH"), (330, 114, "Sharma, Priya"),
    (60, 128, "Hafenstraße 4, 20457 Hamburg"), (330, 128, "Lindenweg 9, 22085 Hamburg"),
    (60, 160, "St.-Kl."), (160, 160, "Pers.-Nr."), (60, 174, "IV"), (160, 174, "4711"),
    (60, 220, "Brutto"), (200, 220, "Netto"), (340, 220, "Auszahlung"),
    (60, 234, "{gross}"), (200, 234, "{net}"), (340, 234, "{payout}"),
    (60, 280, "Bankverbindung: DE86 5003 0010 3975 4612 96"),
)


def payslip(gross="4.500,00", net="2.980,10", payout="2.950,10") -> bytes:
    return pdf(*((x, y, text.format(gross=gross, net=net, payout=payout)) for x, y, text in PAYSLIP))


def test_a_payslip_in_an_unseen_layout_is_read_with_high_confidence():
    found = read_fields("payslip", read_document(payslip()))
    assert found.fields == {"employer": "Nordlicht Logistik GmbH", "employee": "Priya Sharma", "period": "2026-10",
                            "tax_class": 4, "gross": "4500.00", "net": "2980.10", "payout": "2950.10",
                            "iban": "DE86500300103975461296"}
    assert all(value >= 0.9 for value in found.confidence.values()), found.confidence
    assert found.evidence["period"] == {"label": "ABRECHNUNGSZEITRAUM", "page": 1}


def test_net_pay_not_below_gross_as_read_keeps_both_values_at_low_confidence():
    found = read_fields("payslip", read_document(payslip(gross="2.980,10", net="4.500,00", payout="4.450,00")))
    assert (found.fields["gross"], found.fields["net"]) == ("2980.10", "4500.00")
    assert found.confidence["gross"] < 0.5 and found.confidence["net"] < 0.5
    assert found.confidence["employee"] >= 0.9


def test_a_field_the_document_does_not_show_is_null_with_zero_confidence():
    found = read_fields("payslip", read_document(pdf((60, 60, "Verdienstabrechnung Oktober 2026"),
                                                     (60, 100, "Nettoverdienst"), (300, 100, "2.345,67"))))
    assert found.fields["gross"] is None and found.confidence["gross"] == 0.0
    assert found.fields["net"] == "2345.67" and found.confidence["net"] >= 0.9


def test_a_wage_tax_certificate_with_a_two_column_header_block_and_an_english_year_label():
    document = pdf((60, 60, "LOHNSTEUERBESCHEINIGUNG"), (330, 60, "für das Kalenderjahr 2025"),
                   (60, 100, "Arbeitnehmer/in"), (330, 100, "Arbeitgeber"),
                   (60, 114, "Priya Sharma"), (330, 114, "Elbtal Energie GmbH"),
                   (60, 160, "3. Bruttoarbeitslohn"), (400, 160, "61.808,06"),
                   (60, 174, "4. Einbehaltene Lohnsteuer von 3."), (400, 174, "10.111,42"))
    found = read_fields("wage_tax_certificate", read_document(document))
    assert found.fields == {"year": 2025, "employer": "Elbtal Energie GmbH", "gross_wages": "61808.06",
                            "wage_tax": "10111.42"}
    assert min(found.confidence.values()) >= 0.9


def test_a_salary_credit_is_read_from_the_credit_column_not_the_running_balance():
    document = pdf((60, 60, "KONTOAUSZUG  Musterbank AG"), (60, 80, "Kontoinhaber: Priya Sharma"),
                   (60, 94, "IBAN DE86 5003 0010 3975 4612 96"), (60, 108, "Zeitraum 01.10.2026 bis 31.10.2026"),
                   (60, 140, "Datum"), (130, 140, "Buchungstext"), (330, 140, "Soll"), (410, 140, "Haben"),
                   (490, 140, "Saldo"),
                   (60, 154, "02.10.2026"), (130, 154, "Miete Oktober"), (330, 154, "1.100,00"), (490, 154, "200,00"),
                   (60, 168, "28.10.2026"), (130, 168, "Gehalt 10/2026"), (410, 168, "2.950,10"), (490, 168, "3.150,10"),
                   (60, 182, "29.10.2026"), (130, 182, "Lohnsteuer-Erstattung Gehalt"), (330, 182, "50,00"),
                   (490, 182, "3.100,10"))
    found = read_fields("bank_statement", read_document(document))
    assert found.fields["salary_credits"] == ["2950.10"]
    assert (found.fields["period_start"], found.fields["period_end"]) == ("2026-10-01", "2026-10-31")
    assert found.fields["holder"] == "Priya Sharma"


def test_the_content_carries_a_confidence_for_every_declared_field_and_matches_its_schema():
    jsonschema = pytest.importorskip("jsonschema")
    data = extract(pdf((60, 60, "Gehaltsabrechnung Oktober 2026"), (60, 100, "Nettoverdienst"), (300, 100, "2.345,67"),
                       (60, 114, "Auszahlungsbetrag"), (300, 114, "2.345,67")))
    content = data["content"]
    assert data["document_type"] == "payslip"
    assert set(content["field_confidence"]) == set(content["fields"])
    assert all(content["field_confidence"][name] == 0.0 for name, value in content["fields"].items() if value is None)
    assert content["field_confidence"]["net"] >= 0.9
    assert content["field_evidence"]["net"]["page"] == 1
    jsonschema.Draft202012Validator(data["schema"]).validate(content)


def test_a_customised_shape_carries_confidences_for_exactly_its_fields():
    data = extract(payslip(), mode="customise", output_spec={"fields": ["net", "no_such_field"]})
    assert data["content"]["field_confidence"] == {"net": pytest.approx(data["content"]["field_confidence"]["net"]),
                                                   "no_such_field": 0.0}
    assert data["content"]["field_confidence"]["net"] >= 0.9


def test_on_a_scan_a_label_glued_to_its_neighbour_is_still_found_a_little_less_surely():
    from leadflow.extractor.fields.finding import Findings
    from leadflow.extractor.fields.invoice import NET_LABEL
    from leadflow.extractor.fields.parse import money
    from leadflow.extractor.layout import Layout, Word
    scan = Layout([Word("SUMMESNETTOSS", 190, 900, 420, 930, 1, 71.0), Word("848,51", 1600, 900, 1700, 930, 1, 93.0)])
    text = Layout([Word("SUMMESNETTOSS", 190, 900, 420, 930, 1), Word("848,51", 1600, 900, 1700, 930, 1)])
    found = Findings(["net"])
    found.look(scan, "net", NET_LABEL, money)
    assert [(c.value, c.confidence < 0.9) for c in found.candidates["net"]] == [("848.51", True)]
    unglued = Findings(["net"])
    unglued.look(text, "net", NET_LABEL, money)
    assert unglued.candidates["net"] == []


def test_a_statement_of_one_month_with_dated_balances_and_debit_credit_marks():
    document = pdf((60, 60, "Kontoauszug Oktober 2026"), (330, 60, "Auszug Nr. 3/2026"),
                   (60, 74, "Volksbank Mittelhessen eG"), (330, 100, "IBAN: DE86 5003 0010 3975 4612 96"),
                   (60, 100, "Frau Anna Berg"), (60, 112, "Am Markt 5"), (60, 124, "35390 Gießen"),
                   (60, 160, "Kontostand am 30.09.2026"), (400, 160, "1.000,00 H"),
                   (60, 180, "Bu-Tag"), (130, 180, "Vorgang"), (400, 180, "Umsatz"),
                   (60, 194, "01.10."), (130, 194, "Gehaltspfändung Rückbuchung Lohn"), (400, 194, "900,00 S"),
                   (60, 208, "28.10."), (130, 208, "Gehalt Oktober ACME GMBH"), (400, 208, "3.100,00 H"),
                   (60, 240, "Kontostand am 31.10.2026"), (400, 240, "3.200,00 H"))
    found = read_fields("bank_statement", read_document(document))
    assert {name: found.fields[name] for name in ("holder", "period_start", "period_end", "opening_balance",
                                                  "closing_balance", "salary_credits")} == {
        "holder": "Anna Berg", "period_start": "2026-10-01", "period_end": "2026-10-31",
        "opening_balance": "1000.00", "closing_balance": "3200.00", "salary_credits": ["3100.00"]}
    assert min(found.confidence.values()) >= 0.5


@pytest.mark.parametrize("lines, expected", [
    (["EMPLOYMENT AGREEMENT",
      "This agreement is made between Northwind Trading Ltd, 1 High Street, London (\"Company\")",
      "and Jane Doe, 5 Low Road, Leeds (\"Employee\").", "1. The employment shall begin on 1 March 2026.",
      "2. The Employee shall receive a monthly gross salary of EUR 5,000.00 payable in 13 monthly instalments."],
     {"employer": "Northwind Trading Ltd", "employee": "Jane Doe", "start_date": "2026-03-01",
      "annual_salary": "65000.00"}),
    (["Anstellungsvertrag", "Zwischen der Firma Kranich Logistik KG, vertreten durch den Geschäftsführer,",
      "Hafenweg 1, 20457 Hamburg (im Folgenden: Arbeitgeber) und Frau Dr. Anna Berg, geb. 01.02.1990,",
      "Lindenweg 9, 22085 Hamburg (im Folgenden: Arbeitnehmerin) wird folgender Vertrag geschlossen:",
      "§ 1 Beginn der Tätigkeit: 01.04.2026", "§ 4 Das monatliche Bruttogehalt beträgt 4.000,00 EUR."],
     {"employer": "Kranich Logistik KG", "employee": "Anna Berg", "start_date": "2026-04-01",
      "annual_salary": "48000.00"}),
])
def test_contract_parties_are_found_by_the_role_the_prose_gives_them(lines, expected):
    document = pdf(*((60, 60 + 14 * index, line) for index, line in enumerate(lines)), size=8)
    found = read_fields("employment_contract", read_document(document))
    assert found.fields == expected
    assert min(found.confidence.values()) >= 0.8
