"""What the fresh payslip and statement layouts of 2026-12-01 (the third round) taught the readers: a
civil servant's Bezügemitteilung, a slip's summary strip of boxes, names of every alphabet in the
window, a statement's balances dated in either order, S / H after a balance, a period printed
'01.10.-31.10.2026', a statement's number that is no month."""
import pytest

from bench.synthetic import generate
from leadflow.extractor.classify import classify
from leadflow.extractor.fields import parse, read_fields
from leadflow.extractor.pipeline import extract
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import layout_of, pdf


def payslip_of(*items) -> dict:
    return read_fields("payslip", read_document(pdf(*items))).fields


def statement_of(*items) -> dict:
    return read_fields("bank_statement", read_document(pdf(*items))).fields


BEZUEGE = """Landesamt für Finanzen - Bezügestelle Nordbayern · Krelingstraße 50 · 90408 Nürnberg
Frau
Fatima Al-Hassan
Mitteilung über die Bezüge
Zahlungsmonat: 10.2026
Besoldungsgruppe  A 13
Steuerklasse / Kinderfreibeträge  4 / 0,5
Grundgehalt (Stufe 7)  5.416,00
Familienzuschlag Stufe 1  171,28
Summe der Bezüge  5.587,28
Lohnsteuer  1.180,50
Nettobezüge  4.406,78
Zahlbetrag  4.406,78"""


def test_a_civil_servants_bezuegemitteilung_is_a_payslip():
    assert classify(BEZUEGE)[0] == "payslip"
    assert classify(BEZUEGE.replace("Mitteilung über die Bezüge", "Besoldungsmitteilung"))[0] == "payslip"


def test_a_bezuegemitteilung_names_its_month_its_gross_and_its_pay_office():
    fields = payslip_of((60, 40, "Landesamt für Finanzen - Bezügestelle Nordbayern · Krelingstraße 50 · 90408 Nürnberg"),
                        (60, 70, "Frau"), (60, 82, "Fatima Al-Hassan"), (60, 130, "Mitteilung über die Bezüge"),
                        (60, 144, "Zahlungsmonat: Oktober 2026"), (60, 200, "Summe der Bezüge"), (400, 200, "5.587,28"),
                        (60, 214, "Nettobezüge"), (400, 214, "4.406,78"))
    assert (fields["period"], fields["gross"], fields["net"]) == ("2026-10", "5587.28", "4406.78")
    assert fields["employer"] == "Landesamt für Finanzen - Bezügestelle Nordbayern"


def test_a_return_line_parted_by_dots_keeps_the_hyphen_inside_the_senders_name():
    assert parse.sender("Landesamt für Finanzen - Bezügestelle Nord · Postfach 12 · 90408 Nürnberg") == \
        "Landesamt für Finanzen - Bezügestelle Nord"
    assert parse.sender("Stadtwerke AG - Postfach 12 - 20095 Hamburg") == "Stadtwerke AG"
    # OCR read the middle dots as a hyphen and a full stop.
    assert parse.sender("Landesamt für Besoldung Rheinland - Postfach 10 24 41 . 50464 Köln") == \
        "Landesamt für Besoldung Rheinland"


def test_a_non_profit_companys_legal_form_ends_its_name():
    assert parse.company_name("Klinikum Südstadt gGmbH  Entgeltnachweis") == "Klinikum Südstadt gGmbH"


@pytest.mark.parametrize("name", ["Siobhán O'Connor", "João Pereira", "Emma van den Berg", "María José García López"])
def test_the_windows_addressee_may_be_named_in_any_alphabet_and_with_particles(name):
    assert parse.addressee(f"Frau\n{name}\nAm Hafen 9\n50667 Köln") == name


def test_an_addressee_ocr_ran_into_the_next_column_keeps_only_what_can_be_told():
    assert parse.addressee("Herrn\nJames Beispiel Fiktiv BKK 17,70") == "James Beispiel"
    assert parse.addressee("Herrn\nder Firma") is None


def test_a_row_of_labels_over_a_row_of_values_pairs_them_by_place():
    # Each label stands left in its box, its value right: the value nearest below a label is its neighbour's.
    layout = layout_of((40, 300, "Gesamtbrutto"), (140, 300, "Steuerbrutto"), (240, 300, "gesetzl. Abzüge"),
                       (340, 300, "Nettolohn"), (60, 314, "3.967,20 EUR"), (160, 314, "3.967,20 EUR"),
                       (255, 314, "1.561,49- EUR"), (405, 314, "2.405,71 EUR"))
    found = layout.find("Nettolohn", parse.amount)
    assert [hit.value for hit in found] == ["2405.71"]


def test_ocr_text_whose_header_row_ran_together_gives_no_column_value():
    text = "Gesamtbrutto Steuerbrutto SV-Brutto gesetzl. Abzüge Nettolohn\n3.967,20 EUR 3.967,20 EUR 1.561,49- EUR 2.405,71 EUR"
    assert parse.after_label(text, r"nettolohn") is None
    assert parse.after_label(text, r"gesamtbrutto") == "3967.20"  # the label that heads the run-together column


def test_a_period_whose_start_carries_no_year_is_read_whole():
    assert parse.date_range("01.10.-31.10.2026") == ("2026-10-01", "2026-10-31")
    assert parse.date_range("15.12.-14.01.2027") == ("2026-12-15", "2027-01-14")
    # A range across two months is no one month's.
    assert parse.month_period("10.10.-09.11.2026") is None


def test_a_statements_two_kontostand_lines_are_told_apart_by_their_dates():
    fields = statement_of((60, 60, "Umsatzübersicht"), (60, 80, "Kontostand am 31.10.2026"), (400, 80, "7.174,38 €"),
                          (60, 94, "Kontostand am 30.09.2026"), (400, 94, "7.027,68 €"))
    assert (fields["opening_balance"], fields["closing_balance"]) == ("7027.68", "7174.38")


def test_a_balance_marked_s_is_overdrawn_and_h_in_credit():
    fields = statement_of((60, 60, "Kontoauszug Nr. 10/2026"), (60, 100, "alter Kontostand"), (400, 100, "196,01 S"),
                          (60, 114, "02.10.  02.10.  Gutschrift Nordlicht Software GmbH"), (400, 114, "3.000,00 H"),
                          (60, 128, "neuer Kontostand"), (400, 128, "2.803,99 H"))
    assert (fields["opening_balance"], fields["closing_balance"]) == ("-196.01", "2803.99")


def test_a_booking_below_an_unreadable_balance_is_not_taken_for_it():
    text = "alter Kontostand 203,235\n01.09. 01.09. 3 Überweisung Hausverwaltung Adler GmbH 1.431,66 S\nMiete September 2026"
    assert parse.after_label(text, r"alter kontostand", __import__(
        "leadflow.extractor.fields.bank_statement", fromlist=["balance"]).balance) is None


def test_a_statements_number_is_not_its_month():
    fields = statement_of((60, 40, "Volksbank Rhein-Lahn eG"), (330, 40, "Kontoauszug Nr. 11/2026"),
                          (330, 60, "IBAN DE86 5709 2800 5219 5078 17"), (330, 74, "10.10.-09.11.2026"))
    assert (fields["period_start"], fields["period_end"]) == ("2026-10-10", "2026-11-09")


def test_a_wert_column_beside_betrag_holds_the_value_date_not_the_amount():
    # OCR read the value date "27.10." as "21.30:"; the amount is under "Betrag".
    fields = statement_of((60, 60, "Kontoauszug Nr. 10/2026"), (60, 74, "IBAN DE86 5709 2800 5219 5078 17"),
                          (60, 100, "Bu-Tag"), (110, 100, "Wert"), (160, 100, "PN"), (200, 100, "Vorgang"),
                          (480, 100, "Betrag"),
                          *[(x, 114 + 14 * row, text) for row in range(5) for x, text in (
                              (60, f"{row + 20}.10."), (110, "21.30:" if row == 2 else f"{row + 20}.10."), (160, "655"),
                              (200, "Gutschrift Nordlicht Software GmbH" if row == 2 else "Lastschrift REWE Markt"),
                              (470, "3.337,01 H" if row == 2 else "45,20 S"))],
                          (200, 128 + 14 * 1 + 7, "Salary 10/2026"))
    assert fields["salary_credits"] == ["3337.01"]


def test_a_statements_title_ocr_ran_onto_the_banks_name_is_no_part_of_it():
    fields = statement_of((60, 40, "Kreissparkasse Talheim Kontoauszug Nr. 9/2026"),
                          (60, 60, "IBAN DE86 5709 2800 5219 5078 17"))
    assert fields["bank"] == "Kreissparkasse Talheim"
