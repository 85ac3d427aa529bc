"""What the fourth round of fresh payslip, wage tax certificate and tax assessment layouts (2026-12-02)
taught the readers: a month with a two-digit year ("Monat/Jahr 10/26"), an entry date that is no pay
period, a return-address line parted by commas, the bank's and a rate's lines that name no employer,
the legal form e.K.; euros and cents in two columns without grouping ("101167  44"), a value right of
its label's words on the next line, a certificate box's line of noise; an amended assessment's former
figures beside its new ones, a letterhead's office in capitals, "Bescheid fiir 2024" as OCR reads it."""
from leadflow.extractor.fields import parse, read_fields
from leadflow.extractor.fields import payslip as payslip_reader
from leadflow.extractor.fields import tax
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import layout_of, pdf


def fields_of(document_type: str, *items) -> dict:
    return read_fields(document_type, read_document(pdf(*items))).fields


# --- payslips ----------------------------------------------------------------------------------

def test_a_month_with_a_two_digit_year_under_monat_jahr_is_the_pay_period():
    fields = fields_of("payslip", (60, 40, "Gasthaus Zur Linde Inh. M. Brandt e.K., Lindenallee 1, 30159 Hannover"),
                       (60, 70, "Herrn"), (60, 82, "Jean-Luc Dubois"), (330, 82, "Eintritt: 01.08.2025"),
                       (60, 140, "Pers.-Nr."), (130, 140, "Geb.-Datum"), (220, 140, "StKl"), (420, 140, "Monat/Jahr"),
                       (60, 154, "00900"), (130, 154, "20.03.2007"), (220, 154, "1"), (420, 154, "08/26"),
                       (60, 220, "Gesamt-Brutto"), (420, 220, "1.080,00"),
                       (60, 234, "Netto-Verdienst"), (420, 234, "845,10"))
    assert fields["period"] == "2026-08"
    assert (fields["gross"], fields["net"]) == ("1080.00", "845.10")


def test_a_short_month_is_read_only_as_a_whole_cell():
    assert payslip_reader._month("10/26") == "2026-10"
    assert payslip_reader._month(" 3.26 ") == "2026-03"
    assert payslip_reader._month("Oktober 2026") == "2026-10"
    assert payslip_reader._month("Seite 10/26 des Ausdrucks") is None
    assert payslip_reader._month("13/26") is None
    assert payslip_reader._month("1.50") is None  # a factor, no month of 2050


def test_an_entry_date_at_the_top_is_no_pay_period():
    # Nothing labels the month: the guess from the head must not take "Eintritt: 01.08.2025".
    fields = fields_of("payslip", (60, 40, "Abrechnung der Brutto/Netto-Bezüge"), (330, 52, "Eintritt: 01.08.2025"),
                       (60, 64, "Geb.-Datum 20.03.2007"),
                       (60, 220, "Gesamt-Brutto"), (420, 220, "1.080,00"), (60, 234, "Netto-Verdienst"), (420, 234, "845,10"))
    assert fields["period"] is None


def test_a_return_address_parted_by_commas_names_an_employer_without_a_legal_form():
    fields = fields_of("payslip", (60, 40, "Zahnarztpraxis Dr. Sommerfeld, Uhlandstraße 7, 55116 Mainz"),
                       (60, 70, "Frau"), (60, 82, "Zeynep Demir"), (60, 94, "Kastanienweg 3"), (60, 106, "55116 Mainz"),
                       (60, 220, "Gesamt-Brutto"), (420, 220, "1.264,00"), (60, 234, "Netto-Verdienst"), (420, 234, "989,08"),
                       (60, 260, "Überweisung: Nordbank Direkt AG  IBAN DE64 2004 1155 1396 9057 67"),
                       (60, 280, "Steuer-Brutto  Pauschsteuer 2 % (trägt AG)"))
    assert fields["employer"] == "Zahnarztpraxis Dr. Sommerfeld"
    # The addressee's own one-line address is no sender.
    assert parse.comma_sender("Frau\nZeynep Demir\nZeynep Demir, Kastanienweg 3, 55116 Mainz") is None


def test_the_banks_line_and_a_rates_line_name_no_employer():
    fields = fields_of("payslip", (60, 82, "Zeynep Demir"),
                       (60, 220, "Gesamt-Brutto"), (420, 220, "1.264,00"), (60, 234, "Netto-Verdienst"), (420, 234, "989,08"),
                       (60, 260, "Überweisung: Nordbank Direkt AG"), (60, 280, "Pauschsteuer 2 % (trägt AG)"))
    assert fields["employer"] is None


def test_a_sole_traders_e_k_is_a_legal_form():
    assert parse.company_name("Gasthaus Zur Linde Inh. M. Brandt e.K., Lindenallee 1") == "Gasthaus Zur Linde Inh. M. Brandt e.K."
    assert parse.company("Elektro Voss e. Kfm.\nHauptstraße 1") == "Elektro Voss e. Kfm."


# --- wage tax certificates ---------------------------------------------------------------------

def test_euros_and_cents_in_two_columns_without_grouping():
    text = "③ Bruttoarbeitslohn einschl. Sachbezüge ohne 9. und 10.  101167  44\n④ Einbehaltene Lohnsteuer von 3.  24067  68"
    assert tax.parse_certificate_text(text)["gross_wages"] == "101167.44"
    assert tax.parse_certificate_text(text)["wage_tax"] == "24067.68"
    assert tax.parse_certificate_text("3. Bruttoarbeitslohn  61.808  06")["gross_wages"] == "61808.06"


def test_a_value_under_its_labels_half_of_the_row_is_found():
    # Two numbered lines side by side, each value on the next line, right-aligned in its label's half.
    layout = layout_of((60, 100, "Nr. 3"), (100, 100, "Bruttoarbeitslohn einschl. Sachbezüge"),
                       (320, 100, "Nr. 23a"), (360, 100, "Arbeitnehmeranteil Rentenversicherung"),
                       (220, 114, "27.687,84 €"), (470, 114, "2.574,96 €"),
                       (60, 134, "Nr. 4"), (100, 134, "Einbehaltene Lohnsteuer"))
    found = layout.first(tax.GROSS_WAGES, parse.euro_cents, is_label=tax.IS_LABEL)
    assert (found.value, found.relation) == ("27687.84", "below")


def test_a_value_beyond_the_next_column_is_not_its_labels():
    layout = layout_of((60, 100, "Nr. 3"), (100, 100, "Bruttoarbeitslohn"), (320, 100, "Nr. 23a"),
                       (360, 100, "Arbeitnehmeranteil"), (470, 114, "2.574,96 €"))
    assert layout.first(tax.GROSS_WAGES, parse.euro_cents, is_label=tax.IS_LABEL) is None


def test_a_line_of_noise_under_the_employers_address_label_is_no_employer():
    text = "Anschrift und Steuernummer des Arbeitgebers:\nee Se Transferticket garcma122a65\nIdentifikationsnummer 19 674"
    assert tax.parse_certificate_text(text)["employer"] is None
    assert tax.parse_certificate_text(text.replace("ee Se Transferticket garcma122a65", "Moselstein Bau"))["employer"] == \
        "Moselstein Bau"


# --- tax assessments ---------------------------------------------------------------------------

def amended(*, jetzt: bool = True) -> dict:
    items = [(60, 40, "FINANZAMT HAMBURG-NORD"), (60, 100, "Geänderter Bescheid für 2024"),
             (60, 114, "über Einkommensteuer und Solidaritätszuschlag"),
             (60, 140, "Besteuerungsgrundlagen (in Euro)"), (380, 140, "bisher"),
             (60, 154, "Gesamtbetrag der Einkünfte"), (380, 154, "101.832"),
             (60, 168, "zu versteuerndes Einkommen"), (380, 168, "99.410"),
             (60, 200, "Festsetzung"), (220, 200, "Einkommensteuer"), (360, 200, "Solidaritätszuschlag"),
             (60, 214, "bisher festgesetzt"), (220, 214, "24.873,00"), (360, 214, "1.368,02"),
             (60, 228, "jetzt festgesetzt"), (220, 228, "23.657,00"), (360, 228, "1.301,14"),
             (60, 242, "Unterschied"), (220, 242, "-1.216,00"), (360, 242, "-66,88")]
    if jetzt:
        items += [(480, 140, "jetzt"), (480, 154, "98.355"), (480, 168, "95.933")]
    return fields_of("tax_assessment", *items)


def test_an_amended_assessment_is_read_at_its_new_figures():
    fields = amended()
    assert (fields["tax_year"], fields["taxable_income"]) == (2024, "95933.00")
    assert (fields["income_tax"], fields["solidarity_surcharge"]) == ("23657.00", "1301.14")


def test_a_former_figure_is_never_read_when_the_new_column_is_lost():
    # A photo cut off the "jetzt" column: the "bisher" figure is no value of this assessment.
    assert amended(jetzt=False)["taxable_income"] is None


def test_heads_run_together_by_ocr_still_name_their_columns():
    layout = layout_of((60, 200, "Festsetzung"), (220, 200, "Einkommensteuer Solidaritätszuschlag"),
                       (60, 214, "jetzt festgesetzt"), (230, 214, "23.657,00"), (340, 214, "1.301,14"))
    current, former = tax._revised(layout)
    assert current == {"income_tax": "23657.00", "solidarity_surcharge": "1301.14"} and former == {}


def test_a_letterheads_office_in_capitals_is_written_as_the_office_writes_it():
    assert tax._office("HAMBURG-NORD") == "Finanzamt Hamburg-Nord"
    assert tax._office("FINANZAMT BERLIN-MITTE/TIERGARTEN") == "Finanzamt Berlin-Mitte/Tiergarten"
    assert tax._office("FRANKFURT AM MAIN III") == "Finanzamt Frankfurt am Main III"
    assert tax._office("Köln-Süd") == "Finanzamt Köln-Süd"


def test_the_year_after_bescheid_fuer_as_ocr_misreads_it():
    assert tax.parse_assessment_text("Bescheid fiir 2024\nüber Einkommensteuer")["tax_year"] == 2024
    assert tax.YEAR_LABEL.search("Bescheid fiir 2024")


def test_two_lower_case_letters_before_a_legal_form_name_no_employer():
    # OCR lost a boxed line of the employer's address but for its legal form.
    assert not tax._named("a GmbH") and not tax._named("ee GmbH")
    assert tax._named("K+S AG") and tax._named("dm-drogerie markt GmbH + Co. KG") and tax._named("SAP SE")
    text = "Anschrift und Steuernummer des Arbeitgebers:\na GmbH Transferticket al-hfa642c50\n28195 Bremen"
    assert read_fields("wage_tax_certificate", read_document(pdf((60, 60, text.splitlines()[0]),
                                                                    (60, 74, text.splitlines()[1]),
                                                                    (60, 88, text.splitlines()[2])))).fields["employer"] is None


def test_an_office_read_without_its_umlauts_takes_the_spelling_read_with_them():
    fields = fields_of("tax_assessment", (60, 40, "FINANZAMT DUSSELDORF-SUD"),
                       (60, 60, "Finanzamt Düsseldorf-Süd · Postfach 9860"), (60, 100, "Bescheid für 2025"),
                       (60, 140, "zu versteuerndes Einkommen"), (380, 140, "88.681"),
                       (60, 154, "festzusetzende Einkommensteuer"), (380, 154, "21.150,00"))
    assert fields["tax_office"] == "Finanzamt Düsseldorf-Süd"


def test_heads_as_ocr_misreads_or_glues_them_still_name_their_columns():
    for head in ("Solidaritatszuschlag", "sSolidaritätszuschlag"):
        layout = layout_of((60, 200, "Festsetzung"), (220, 200, "Einkommensteuer"), (340, 200, head),
                           (60, 214, "jetzt festgesetzt"), (230, 214, "23.657,00"), (360, 214, "0,00"))
        assert tax._revised(layout)[0] == {"income_tax": "23657.00", "solidarity_surcharge": "0.00"}, head
