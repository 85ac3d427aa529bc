"""What the fresh invoice and receipt layouts of 2026-12-02 (the fourth round) taught the readers:
a bill named before its number, a number mentioned at a sentence's end, a two-digit year beside
the date label, the base a rate is taken of, subtotals of a part, a Kleinunternehmer's bill without
VAT, a brand's legal name, the VAT that is never the total, a letter's own date line against
another paper's date, a return line parted by commas, and till VAT tables that print no gross."""
from leadflow.extractor.fields import read_fields
from leadflow.extractor.fields.receipt import parse as parse_receipt
from leadflow.extractor.fields.receipt import parse_fields as receipt_fields
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf


def invoice_read(*items):
    return read_fields("invoice", read_document(pdf(*items)))


def invoice_of(*items) -> dict:
    return invoice_read(*items).fields


def test_a_two_digit_year_beside_the_invoice_date_label_is_its_date():
    fields = invoice_of((60, 60, "Schlosserei Brückner"), (330, 140, "Rechnungs-Nr."), (400, 140, "Kunden-Nr."),
                        (470, 140, "Datum"), (330, 155, "20268167"), (400, 155, "9196"), (470, 155, "03.02.26"),
                        (60, 260, "Leistungsdatum: 02.02.2026"), (60, 300, "Gesamtbetrag"), (400, 300, "694,12 €"))
    assert (fields["date"], fields["number"]) == ("2026-02-03", "20268167")


def test_a_short_year_alone_on_the_page_is_not_taken_for_a_date():
    fields = invoice_of((60, 60, "Schlosserei Brückner"), (60, 120, "Rechnung"), (60, 140, "Menge 03.02.26"),
                        (60, 300, "Gesamtbetrag"), (400, 300, "694,12 €"))
    assert fields["date"] is None


def test_a_bill_named_before_its_number_numbers_the_invoice():
    assert invoice_of((60, 60, "Immobilien Sternberg GmbH"), (60, 120, "Provisionsrechnung Nr. PR-3200"))["number"] \
        == "PR-3200"
    assert invoice_of((60, 60, "Maklerbüro Lenz & Kiefer GmbH"),
                      (60, 120, "Rechnung über Maklercourtage – Nr. 2026/002"))["number"] == "2026/002"
    # As OCR reads the heading: "über" as "iiber", the dash as a long one.
    assert invoice_of((60, 60, "Maklerbüro Lenz & Kiefer GmbH"),
                      (60, 120, "Rechnung iiber Maklercourtage — Nr. PR-6035"))["number"] == "PR-6035"


def test_the_invoice_number_mentioned_at_a_sentences_end_labels_nothing_below_it():
    fields = invoice_of((60, 60, "Immobilien Sternberg GmbH"), (60, 200, "Rechnungsbetrag"), (400, 200, "4.879,00 €"),
                        (60, 240, "Bitte überweisen Sie den Betrag bis zum 18.03.2026 unter Angabe der "
                                  "Rechnungsnummer."),
                        (60, 262, "Mit freundlichen Grüßen"),
                        (150, 800, "Geschäftsführung: M. Lenz · Amtsgericht Dresden HRB 12908 · Erlaubnis nach § 34c"))
    assert fields["number"] is None


def test_the_base_a_rate_is_taken_of_is_not_the_net():
    fields = invoice_of((60, 60, "Albrecht Immobilienvermittlung e.K."), (60, 200, "Kaufpreis"),
                        (400, 200, "871.000,00 €"), (60, 215, "Courtage netto (3 % aus 871.000,00 €)"),
                        (400, 215, "26.130,00 €"), (60, 230, "zzgl. 19 % MwSt."), (400, 230, "4.964,70 €"),
                        (60, 245, "Rechnungsbetrag"), (400, 245, "31.094,70 €"))
    assert (fields["net"], fields["tax"], fields["total"]) == ("26130.00", "4964.70", "31094.70")


KLEINUNTERNEHMER = ((60, 60, "Fensterputz Benedikt Sauer"), (60, 120, "Rechnung"),
                    (60, 200, "Zwischensumme Lohn"), (400, 200, "129,52"),
                    (60, 215, "Zwischensumme Material"), (400, 215, "8,16"),
                    (60, 235, "Gesamtbetrag"), (400, 235, "137,68 €"),
                    (60, 260, "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet (Kleinunternehmerregelung)."))


def test_a_subtotal_named_for_a_part_is_not_the_net_and_a_kleinunternehmer_charges_no_vat():
    fields = invoice_of(*KLEINUNTERNEHMER)
    assert (fields["net"], fields["tax"], fields["total"]) == ("137.68", "0.00", "137.68")


def test_a_subtotal_of_the_whole_bill_is_still_its_net():
    fields = invoice_of((60, 60, "Schlosserei Brückner"), (60, 200, "Zwischensumme"), (400, 200, "583,29 €"),
                        (60, 215, "19 % USt."), (400, 215, "110,83 €"), (60, 230, "Gesamtbetrag"), (400, 230, "694,12 €"))
    assert (fields["net"], fields["tax"], fields["total"]) == ("583.29", "110.83", "694.12")


def test_a_brand_in_the_letterhead_is_read_as_the_legal_name_the_page_spells_out():
    fields = invoice_of((60, 60, "LICHTBLAU ENERGIE"), (60, 120, "Ihre Jahresabrechnung Strom"),
                        (60, 200, "Rechnungsbetrag"), (400, 200, "1.198,94 €"),
                        (60, 800, "Lichtblau Energie AG, Amtsgericht Frankfurt am Main HRB 7246"))
    assert fields["issuer"] == "Lichtblau Energie AG"


def test_the_vat_is_never_the_whole_bill():
    fields = invoice_of((60, 60, "Lichtblau Energie AG"), (60, 200, "Summe netto"), (400, 200, "1.459,59 €"),
                        (60, 215, "Umsatzsteuer 19 %"), (400, 215, "2/7,32 €"),
                        (60, 230, "Rechnungsbetrag"), (400, 230, "1.736,91 €"))
    assert fields["tax"] != "1736.91" and fields["total"] == "1736.91"


def test_a_letters_date_line_dates_the_invoice_and_another_papers_date_does_not():
    read = invoice_read((60, 60, "Immobilien Sternberg GmbH"), (330, 150, "Leipzig, den 24.07.2026"),
                        (60, 170, "Provisionsrechnung Nr. 2026/002"),
                        (60, 185, "Kaufvertrag vom 19.07.2026, UR-Nr. 2643/2026"))
    assert read.fields["date"] == "2026-07-24" and read.confidence["date"] > 0.5
    unread = invoice_of((60, 60, "Immobilien Sternberg GmbH"), (60, 170, "Provisionsrechnung Nr. 2026/002"),
                        (60, 185, "Kaufvertrag vom 19.07.2026, UR-Nr. 2643/2026"))
    assert unread["date"] is None


def test_an_unlabelled_first_date_is_offered_only_as_a_guess():
    read = invoice_read((60, 60, "Zimmerei Falkenberg GmbH"), (60, 120, "Rechnung 2026-0815"),
                        (330, 150, "24.03.2026"), (60, 200, "Gesamtbetrag"), (400, 200, "140,73 €"))
    assert read.fields["date"] == "2026-03-24" and read.confidence["date"] < 0.5


def test_a_return_line_parted_by_commas_names_the_sender_not_the_window():
    fields = invoice_of((60, 120, "Kleinreparaturen Mirko Hansen, Königsallee 134, 70173 Stuttgart"),
                        (60, 135, "Herrn"), (60, 147, "x  >"), (60, 159, "Ivan Petrov"),
                        (60, 171, "Prinzregentenstraße 49"), (60, 183, "04109 Leipzig"), (60, 220, "Rechnung"),
                        (60, 300, "Gesamtbetrag"), (400, 300, "140,73 €"))
    assert fields["issuer"] == "Kleinreparaturen Mirko Hansen"


def test_a_bakerys_vat_table_of_net_and_vat_without_gross_is_read():
    slip = ("Bäckerei Kornblume\nFiliale Marktplatz\n14.01.26 07:07  Kasse 1\nBeleg-Nr. 6592\n"
            "4 Roggenbrot 75 18,44 B\nCappuccino  3,90 A\nSumme  22,34\nBar gegeben  50,00\nRückgeld  27,66\n"
            "Satz Netto MwSt\nA 19%  3,28 0,62\nB 7% 17,23 1,21\n")
    fields = receipt_fields(slip)
    assert (fields["total"], fields["net"], fields["tax"], fields["date"]) == ("22.34", "20.51", "1.83", "2026-01-14")


def test_a_small_vat_row_that_reads_two_ways_is_read_the_way_that_makes_the_total():
    # 0,16 is 7% of 2,29 (net and VAT) and also about 7/107 of 2,29 (VAT of a gross 2,29).
    slip = ("Tankcenter Eichholz\nBetrag EUR  57,97\nGegeben Visa kontaktlos  57,97\n"
            "A MwSt 19% = 8,86  Netto 46,66\nB MwSt 7% = 0,16  Netto 2,29\n01.03.2026 07:59  Kasse 1  Bon 61783\n")
    fields = receipt_fields(slip)
    assert (fields["net"], fields["tax"], fields["total"], fields["number"]) == ("48.95", "9.02", "57.97", "61783")


def test_a_vat_table_whose_grosses_fall_short_of_the_total_is_left_to_a_person():
    slip = "Backhaus Seidel\nSumme EUR  11,59\nBar gegeben  20,00\nRückgeld  8,41\nSatz Netto MwSt\nA 19%  5,69 1,08\n"
    read = parse_receipt(_Text(slip))
    assert read.fields["total"] == "11.59" and read.confidence["net"] < 0.5 and read.confidence["tax"] < 0.5


class _Text:
    def __init__(self, text: str):
        self.text, self.layout = text, None
