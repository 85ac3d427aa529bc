"""Second round of reader generalisation: each test is one class of variation seen on layouts
drawn fresh (a label wrapped over two lines, an abbreviation of a label ...), drawn small here."""
from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import Findings
from leadflow.extractor.fields.tax import TAXABLE

from tests.extractor.test_layout import layout_of


def test_a_label_wrapped_after_its_first_word_is_read_whole_with_its_value():
    layout = layout_of((60, 100, "ZU"), (60, 112, "VERSTEUERNDES EINKOMMEN"), (300, 112, "64.233,00"))
    f = Findings(["taxable_income"])
    f.look(layout, "taxable_income", TAXABLE, p.euros)
    assert f.resolve().fields["taxable_income"] == "64233.00"


def test_a_label_hyphenated_in_capitals_over_two_lines_is_read_whole():
    layout = layout_of((60, 100, "EINKOMMEN-"), (60, 112, "STEUER"), (300, 112, "13.578,00"))
    found = layout.find_wrapped(r"einkommen[\s\-]?steuer", p.euros)
    assert [hit.value for hit in found] == ["13578.00"]


def test_the_abbreviation_zve_without_dots_labels_the_taxable_income():
    layout = layout_of((60, 100, "zvE"), (60, 112, "60.327,00 €"))
    f = Findings(["taxable_income"])
    f.look(layout, "taxable_income", TAXABLE, p.euros)
    assert f.resolve().fields["taxable_income"] == "60327.00"


def _invoice(*items):
    from leadflow.extractor.fields import invoice
    from leadflow.extractor.reading import read_document
    from tests.extractor.test_layout import pdf
    return invoice.parse(read_document(pdf(*items))).fields


def test_a_summary_box_of_labels_over_figures_gives_net_vat_and_total():
    fields = _invoice((60, 60, "Elektro Blitz GmbH"), (60, 80, "RECHNUNG"),
                      (60, 110, "Pos."), (100, 110, "LEISTUNG"), (300, 110, "MENGE"), (420, 110, "BETRAG"),
                      (60, 124, "1"), (100, 124, "Montage"), (300, 124, "8"), (420, 124, "3.648,80 EUR"),
                      (200, 160, "ZWISCHENSUMME"), (320, 160, "ZZGL. 19 % UST."), (440, 160, "ZU ZAHLEN"),
                      (200, 174, "3.648,80 EUR"), (320, 174, "693,27 EUR"), (440, 174, "4.342,07 EUR"))
    assert (fields["net"], fields["tax"], fields["total"]) == ("3648.80", "693.27", "4342.07")


def test_the_abbreviated_re_datum_labels_the_invoice_date_not_the_delivery_date():
    fields = _invoice((60, 60, "Elektro Blitz GmbH"), (60, 80, "RECHNUNG"),
                      (60, 110, "LIEFERDATUM"), (300, 110, "RE.-DATUM"),
                      (60, 124, "29/07/2026"), (300, 124, "11/08/2026"))
    assert fields["date"] == "2026-08-11"


def test_the_certificates_numbered_lines_give_gross_wages_and_wage_tax_whatever_their_words():
    from leadflow.extractor.fields.tax import form_lines
    text = ("1.  Zeitraum  01.01.2025 - 31.12.2025\n3.  Lohn nach Abzug der Freibeträge  53.362,68\n"
            "4.  Abgeführte Steuer  10.037,52 €\n5.  Soli  0,00")
    assert form_lines(text) == {"gross_wages": "53362.68", "wage_tax": "10037.52"}
    # A numbered list that is no such form (only one of the two lines) says nothing.
    assert form_lines("3.  Urlaubstage  30,00") == {}


def test_steuerbrutto_labels_the_gross_wages_of_a_certificate():
    from leadflow.extractor.fields.tax import GROSS_WAGES
    layout = layout_of((60, 100, "STEUERBRUTTO"), (300, 100, "87.315,84 €"))
    f = Findings(["gross_wages"])
    f.look(layout, "gross_wages", GROSS_WAGES, p.euro_cents)
    assert f.resolve().fields["gross_wages"] == "87315.84"


def _contract(text: str) -> dict:
    from leadflow.extractor.fields import employment_contract
    from leadflow.extractor.reading import read_document
    from tests.extractor.test_layout import pdf
    lines = [(60, 60 + 14 * i, line) for i, line in enumerate(text.splitlines())]
    return employment_contract.parse(read_document(pdf(*lines))).fields


def test_a_start_date_with_a_two_digit_year_after_its_label_is_read():
    fields = _contract("ARBEITSVERTRAG\nZwischen der Elbtal Energie GmbH, Nürnberg und Frau Lan Nguyen, Dresden\n"
                       "§ 1 Beginn des Arbeitsverhältnisses\nDas Arbeitsverhältnis beginnt zum 15.9.25.")
    assert fields["start_date"] == "2025-09-15"
    assert p.labelled_date("Beginn der Tätigkeit: 1.10.26.") == "2026-10-01"
    assert p.labelled_date("Raum 12.5, Etage 3") is None


def test_a_yearly_amount_after_the_word_for_a_year_is_the_annual_salary():
    fields = _contract("ARBEITSVERTRAG\nZwischen der Moselstein Bau GmbH, Bremen und Herrn Mehmet Yilmaz, Köln\n"
                       "§ 4 Gehalt\nDie Vergütung beträgt jährlich brutto 95.500,00 (monatlich 7.958,33).")
    assert fields["annual_salary"] == "95500.00"


def test_an_address_block_with_a_side_columns_facts_set_between_its_lines_is_found():
    layout = layout_of((317, 130, "Abrechnungsmonat"), (491, 130, "August 2026"),
                       (57, 135, "Emma van den Berg"),
                       (317, 141, "Steuerklasse"), (539, 141, "4"),
                       (57, 146, "Uhlandstraße 90"),
                       (317, 152, "Personal-Nr."), (520, 152, "88429"),
                       (57, 157, "50667 Köln"), size=7)
    assert [line for line, _, _ in layout.address_blocks()] == ["Emma van den Berg"]


def test_a_statement_period_wrapped_before_its_range_word_with_two_digit_years_is_read():
    from leadflow.extractor.fields.bank_statement import FLAT_PERIOD, WRAPPED_RANGE
    text = "Kontoauszug vom 8.10.26\nbis 7.11.26\n\nSaldo alt: 7650,04"
    m = FLAT_PERIOD.search(WRAPPED_RANGE.sub(r"\1 ", text))
    assert (p.labelled_date(m.group(1)), p.labelled_date(m.group(2))) == ("2026-10-08", "2026-11-07")
    # Two bookings' dates on lines of their own make no period.
    assert FLAT_PERIOD.search(WRAPPED_RANGE.sub(r"\1 ", "Wert 01.10.2026\n02.10.2026 Miete")) is None


def test_an_english_wage_tax_statement_title_gives_the_year():
    from leadflow.extractor.fields.tax import YEAR_LABEL
    layout = layout_of((60, 100, "ANNUAL WAGE TAX STATEMENT 2025"))
    f = Findings(["year"])
    f.look(layout, "year", YEAR_LABEL, p.year)
    assert f.resolve().fields["year"] == 2025


def test_a_name_after_a_salutation_is_never_the_invoices_issuer():
    fields = _invoice((60, 60, "Herrn Tomás Novák"), (60, 72, "Lindenallee 3"), (60, 84, "50667 Köln"),
                      (60, 120, "RECHNUNG"), (60, 140, "Summe netto"), (300, 140, "100,00 EUR"))
    assert fields["issuer"] != "Herrn Tomás Novák"
