"""What the fifth round of fresh payslip and wage tax certificate layouts (2026-12-02) taught the readers: the
year's running totals printed in a column BEFORE the month's, "AG" that means Arbeitgeber ("Umlage ZV AG",
"AG-Anteil"), a public employer without a legal form, foreign legal forms (S.L., N.V., A/S), an employer under
its label with no legal form, a payroll agent that is no employer, and a paper that says what it is not
("Diese Mitteilung ist kein Steuerbescheid")."""
from leadflow.extractor import classify
from leadflow.extractor.fields import parse, read_fields
from leadflow.extractor.fields import payslip as payslip_reader
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf


def fields_of(document_type: str, *items) -> dict:
    return read_fields(document_type, read_document(pdf(*items))).fields


# --- payslips ----------------------------------------------------------------------------------

def running_totals_first(*extra) -> dict:
    return fields_of("payslip", (60, 40, "STADT LINDENAU"), (60, 52, "Personal- und Organisationsamt"),
                     (60, 64, "Rathausplatz 1, 04109 Leipzig"), (380, 40, "ABRECHNUNG DER BEZÜGE"),
                     (380, 52, "für den Monat OKTOBER 2026"),
                     (60, 90, "Name, Vorname"), (160, 90, "Kowalska, Anna"),
                     (60, 130, "Bezeichnung"), (380, 130, "lfd. Jahr"), (500, 130, "Monat"),
                     (60, 144, "Tabellenentgelt"), (380, 144, "38.804,00"), (500, 144, "3.880,40"),
                     (60, 158, "Umlage ZV AG steuerpflichtig"), (380, 158, "1.120,00"), (500, 158, "112,00"),
                     (60, 172, "Gesamtbrutto"), (380, 172, "38.804,00"), (500, 172, "3.880,40"),
                     (60, 200, "Abzüge"), (380, 200, "lfd. Jahr"), (500, 200, "Monat"),
                     (60, 214, "Lohnsteuer"), (380, 214, "5.210,00"), (500, 214, "521,00"),
                     (60, 228, "Nettobezüge"), (380, 228, "22.309,00"), (500, 228, "2.230,90"),
                     (60, 250, "Zahlbetrag"), (500, 250, "2.230,90"), *extra)


def test_the_years_running_total_before_the_months_figure_is_not_the_months_pay():
    fields = running_totals_first()
    assert (fields["gross"], fields["net"], fields["payout"]) == ("3880.40", "2230.90", "2230.90")
    assert fields["period"] == "2026-10"


def test_a_month_year_head_is_no_running_total_column():
    # "Monat/Jahr" heads a month cell ("10/26"), not the year's running totals: the figures stand.
    fields = fields_of("payslip", (60, 82, "Jean-Luc Dubois"),
                       (60, 140, "Pers.-Nr."), (220, 140, "StKl"), (420, 140, "Monat/Jahr"),
                       (60, 154, "00900"), (220, 154, "1"), (420, 154, "08/26"),
                       (60, 180, "Gesamt-Brutto"), (420, 180, "1.080,00"),
                       (60, 194, "Netto-Verdienst"), (420, 194, "845,10"))
    assert (fields["gross"], fields["net"]) == ("1080.00", "845.10")


def test_a_running_total_head_is_found_as_ocr_reads_it():
    assert payslip_reader.YEAR_TO_DATE.search("Ifd. Jahr")
    assert payslip_reader.YEAR_TO_DATE.search("Year to date")
    assert payslip_reader.YEAR_TO_DATE.search("Jahreswerte")
    assert not payslip_reader.YEAR_TO_DATE.search("Monat/Jahr")
    assert payslip_reader._row_field("Nettobeziige", scanned=True) == "net"
    assert payslip_reader._row_field("Nettobeziige", scanned=False) is None


def test_ag_that_means_the_employer_names_no_company():
    assert parse.company_name("Umlage ZV AG") is None
    assert parse.company_name("pension contribution / AG-Anteil Rentenversicherung") is None
    assert parse.company("Umlage ZV AG steuerpflichtig\nRheinwerk Logistik AG") == "Rheinwerk Logistik AG"
    assert parse.company_name("Alpenblick Versicherung AG") == "Alpenblick Versicherung AG"
    assert parse.company_name("Allianz Lebensversicherungs-AG") == "Allianz Lebensversicherungs-AG"


def test_a_public_employer_without_a_legal_form_is_read_from_the_letterhead():
    assert running_totals_first()["employer"] == "STADT LINDENAU"
    assert payslip_reader._public_body("Zweckverband Abfallwirtschaft Saaletal\nPersonalstelle") == \
        "Zweckverband Abfallwirtschaft Saaletal"
    assert payslip_reader._public_body("Stadt: München\nStadtwerke 12") is None


def test_foreign_legal_forms():
    for name in ("Vasquez & Romero S.L.", "Hollandia Freight N.V.", "Nordvik Shipping A/S", "Lumière Conseil S.A.S.",
                 "Bianchi Moda S.r.l."):
        assert parse.company_name(name) == name


# --- wage tax certificates ---------------------------------------------------------------------

def agent_certificate(employer: str) -> dict:
    return fields_of("wage_tax_certificate", (60, 40, "Lohnagentur Falk GmbH"),
                     (60, 52, "Kaiserstraße 21 · 60311 Frankfurt am Main · Payroll agent under § 38 (3a) EStG"),
                     (60, 90, "Wage tax certificate / Lohnsteuerbescheinigung 2025"),
                     (60, 120, "Employer / Arbeitgeber"), (320, 120, "Employee / Arbeitnehmer"),
                     (60, 134, employer), (320, 134, "Tanaka, Kenji"),
                     (60, 146, "Strandkaien 8"), (320, 146, "Lindenallee 13"),
                     (60, 200, "3."), (110, 200, "Gross wages / Bruttoarbeitslohn"), (480, 200, "46,735.80"),
                     (60, 214, "4."), (110, 214, "Wage tax withheld / Einbehaltene Lohnsteuer"), (480, 214, "5,197.08"),
                     (60, 228, "22a."), (110, 228, "Employer pension contribution / AG-Anteil Rentenversicherung"),
                     (480, 228, "4,346.40"),
                     (60, 260, "Issued by / Ausgestellt durch Lohnagentur Falk GmbH on behalf of the employer"))


def test_a_payroll_agent_is_not_the_employer_it_prints_for():
    fields = agent_certificate("Vasquez & Romero S.L.")
    assert fields["employer"] == "Vasquez & Romero S.L."
    assert (fields["year"], fields["gross_wages"], fields["wage_tax"]) == (2025, "46735.80", "5197.08")


def test_an_employer_with_no_legal_form_known_is_read_under_its_label():
    assert agent_certificate("Nordvik Subsea AS")["employer"] == "Nordvik Subsea AS"


def test_a_paper_that_says_it_is_no_tax_assessment_is_classified_by_what_it_is():
    text = ("Finanzamt Hamburg-Nord\nHerrn\nOmar Farouk\nMitteilung über die elektronisch übermittelten Daten\n"
            "Veranlagungszeitraum 2025\nFolgende Daten aus der elektronischen Lohnsteuerbescheinigung liegen vor:\n"
            "Bruttoarbeitslohn 52.011,24 EUR\nLohnsteuer 9.710,52 EUR\nDiese Mitteilung ist kein Steuerbescheid.")
    assert classify.classify(text)[0] == "wage_tax_certificate"
    assert classify.score(text)["tax_assessment"] < classify.score(text.replace("kein Steuerbescheid", "ein Steuerbescheid"))["tax_assessment"]
    assert not classify._affirmed(classify.COMPILED["invoice"][0][0], "This is not an invoice.")
    assert classify._affirmed(classify.COMPILED["invoice"][0][0], "Rechnung Nr. 2026-114")


def test_an_employer_named_after_the_agents_words_is_kept():
    fields = fields_of("wage_tax_certificate", (60, 40, "Lohnsteuerbescheinigung 2025"),
                       (60, 60, "Erstellt im Auftrag des Arbeitgebers:"), (300, 60, "Rheinwerk Logistik AG"),
                       (60, 100, "3. Bruttoarbeitslohn"), (420, 100, "46.735,80"),
                       (60, 114, "4. Einbehaltene Lohnsteuer"), (420, 114, "5.197,08"))
    assert fields["employer"] == "Rheinwerk Logistik AG"
