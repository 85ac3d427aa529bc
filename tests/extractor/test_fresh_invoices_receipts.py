"""What the fresh invoice and receipt layouts of 2026-12-01 (the second round) taught the readers:
dates of the work or of payment are not the invoice's, the window's addressee is not the issuer,
numbers printed in groups, a restaurant's bill, VAT lines that name the gross first, a till's bare
"Bon", the card terminal's slip."""
import pytest

from bench.synthetic import generate
from leadflow.extractor.classify import classify
from leadflow.extractor.fields import parse, read_fields
from leadflow.extractor.fields.receipt import parse_fields as receipt_fields
from leadflow.extractor.pipeline import extract
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf


def invoice_of(*items) -> dict:
    return read_fields("invoice", read_document(pdf(*items))).fields


def test_a_date_inside_another_dates_label_is_not_the_invoice_date():
    fields = invoice_of((60, 60, "Fliesen Özdemir GmbH"), (60, 120, "Rechnung Nr. 4454"),
                        (60, 134, "Ausführungsdatum: 14.01.2026"), (330, 160, "Nürnberg, den 22. Januar 2026"),
                        (60, 200, "Rechnungsbetrag"), (400, 200, "1.190,00 €"))
    assert fields["date"] == "2026-01-22"


def test_an_invoice_whose_only_dates_are_the_works_and_the_due_date_leaves_its_date_unread():
    fields = invoice_of((60, 60, "Heizung & Sanitär Wagner GmbH"), (60, 120, "Rechnung Nr. 2026-0508"),
                        (60, 134, "Leistungszeitraum: 26.09.2026 - 01.10.2026"),
                        (60, 200, "Rechnungsbetrag"), (400, 200, "8.980,74 €"),
                        (60, 230, "Bitte überweisen Sie den Betrag ohne Abzug bis zum 25.10.2026."))
    assert fields["date"] is None


def test_an_english_invoices_due_date_is_not_its_date():
    fields = invoice_of((60, 60, "Invoice"), (60, 90, "Date due"), (160, 90, "October 22, 2026"),
                        (60, 200, "Amount due"), (400, 200, "€310.71"))
    assert fields["date"] is None


def test_the_first_address_block_under_herrn_is_the_customers_not_the_issuers():
    fields = invoice_of((400, 50, "RheinStrom"), (60, 90, "Herrn"), (60, 102, "Hyun-woo Kim"),
                        (60, 114, "Goethestraße 7"), (60, 126, "01067 Dresden"), (60, 170, "Rechnung"),
                        (60, 200, "Rechnungsbetrag"), (400, 200, "117,01 €"))
    assert fields["issuer"] != "Hyun-woo Kim"


def test_a_return_line_whose_middle_dots_ocr_read_as_colons_names_the_sender():
    assert parse.sender("RheinStrom\nRheinstrom Energie AG - Postfach 6786 : 20095 Hamburg\nHerrn") == \
        "Rheinstrom Energie AG"


def test_an_invoice_number_printed_in_groups_is_read_whole():
    fields = invoice_of((60, 60, "Fernwelt Telekom GmbH"), (330, 90, "Rechnungsnummer"), (520, 90, "88 1205 7663"),
                        (330, 102, "Rechnungsdatum"), (520, 102, "05.10.2026"))
    assert (fields["number"], fields["date"]) == ("88 1205 7663", "2026-10-05")


RESTAURANT = """Brauhaus Lindenhof
Kastanienweg 132
60311 Frankfurt am Main
Rechnung Nr. 73277          Tisch 7
Bedienung: Jonas  Di 11.08.26 13:07
2 x Flammkuchen à 26,20        52,40
2 x Pils 0,4l à 4,30            8,60
Summe                       61,00 €
MwSt 19% auf 8,60               1,37
MwSt 7% auf 52,40               3,43
Nettobetrag                    56,20
Kartenzahlung VISA          61,00 €
Bewirtungsbeleg
Bewirtende Person: Rohan Iyer
Trinkgeld:       ________ EUR
Gesamtbetrag:    ________ EUR"""


def test_a_restaurants_bill_with_its_bewirtungsbeleg_is_a_receipt_not_an_invoice():
    assert classify(RESTAURANT)[0] == "receipt"


def test_a_restaurants_vat_lines_name_the_gross_before_its_vat():
    fields = receipt_fields(RESTAURANT)
    assert (fields["total"], fields["tax"], fields["net"], fields["number"]) == ("61.00", "4.80", "56.20", "73277")


def test_a_tills_bare_bon_numbers_the_sale_and_the_terminals_beleg_nr_does_not():
    slip = "WERKHOF\nSUMME EUR  45,67\ngirocard  45,67\nMarkt 103 Kasse 09 Bon 8967 Bed. 40\n"
    assert receipt_fields(slip)["number"] == "8967"
    assert receipt_fields(slip + "Kundenbeleg\nBeleg-Nr. 6816")["number"] == "8967"
    terminal_only = "WERKHOF\nSUMME EUR  45,67\nKundenbeleg\nTerminal-ID 40348552\nBeleg-Nr. 6816"
    assert receipt_fields(terminal_only)["number"] is None


def test_a_photographed_slips_edge_beside_the_shops_name_is_no_part_of_it():
    assert receipt_fields("EEE et  ee nn.\n4  TOOLPARK  aa\nq  Heimwerkermarkt  2\nSUMME EUR  45,67")["issuer"] == \
        "TOOLPARK"
