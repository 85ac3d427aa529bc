"""Receipts: the amount paid, not the cash handed over or the change; German till dates; EUR from a German shop."""
import pytest

from bench.synthetic import generate
from leadflow.extractor.fields import read_fields
from leadflow.extractor.fields.receipt import parse, parse_fields
from leadflow.extractor.pipeline import extract
from tests.extractor.conftest import requires_tesseract, sample

SUPERMARKET = """Frischmarkt Sonnenhof GmbH
Lindenallee 12
33100 Paderborn

Vollmilch 3,5%                1,19 B
Spülmittel                    2,49 A
Roggenbrot                    3,20 B
----------------------------------
SUMME                         6,88
Bar                          50,00
Rückgeld                     43,12

MwSt%     MwSt   Netto  Brutto
A 19%     0,40    2,09    2,49
B  7%     0,29    4,10    4,39
Summe     0,69    6,19    6,88

02.03.20 18:59   Bon-Nr. 4711
Vielen Dank für Ihren Einkauf!"""

PHARMACY = """Stern Apotheke
Detmolder Straße 8
33102 Paderborn
Kassenbon Nr: 1505289010
2 * Atemschutzmaske FFP2
  Einzelpreis EUR 9,95          EUR 19,90
gegeben Kreditkarte EUR 19,90
23.04.2020 09:59 KAS002"""


def test_the_total_is_the_summe_line_not_the_cash_handed_over_or_the_change():
    fields = parse_fields(SUPERMARKET)
    assert fields["total"] == "6.88"
    assert fields["currency"] == "EUR"  # no € anywhere: a German shop's till
    assert (fields["issuer"], fields["number"]) == ("Frischmarkt Sonnenhof GmbH", "4711")


def test_a_two_digit_year_beside_the_time_is_this_century():
    assert parse_fields(SUPERMARKET)["date"] == "2020-03-02"
    assert parse_fields("KIOSK\nTotal EUR 3,50\n2026-10-02 07:45:12")["date"] == "2026-10-02"


def test_the_vat_table_gives_tax_and_net_and_confirms_the_total():
    read = parse(_Text(SUPERMARKET))
    assert (read.fields["tax"], read.fields["net"]) == ("0.69", "6.19")
    assert read.confidence["total"] >= 0.9  # SUMME, cash minus change and the VAT table agree


def test_a_card_payment_names_the_total_when_no_total_line_does():
    fields = parse_fields(PHARMACY)
    assert (fields["total"], fields["date"], fields["currency"]) == ("19.90", "2020-04-23", "EUR")
    assert fields["number"] == "1505289010"


def test_without_any_total_label_the_guess_is_left_to_a_person():
    read = parse(_Text("Bäckerei Korn\nBrötchen 0,45\nKuchen 2,80\n12.10.2026 07:10"))
    assert read.fields["total"] == "2.80"
    assert read.confidence["total"] < 0.5
    assert parse_fields("nothing that a till prints")["total"] is None


def test_every_declared_field_has_a_confidence():
    found = read_fields("receipt", _Text(SUPERMARKET))
    assert set(found.confidence) == set(found.fields)
    assert all(0.0 <= value <= 1.0 for value in found.confidence.values())


FUEL = """Westfalen Tankstelle
Detmolder Str. 112
33100 Paderborn
Beleg-Nr. 599/018/00001 07.09.18 16:52
Kartenzahlung
*000005 Super bleifrei  34,00 EUR A
*Zp 02  22,68 l  1,499 EUR/l
Gesamtbetrag  34,00 EUR
Typ  Netto  Mwst  Brutto
A:19,00%  28,57  5,43  34,00
** Kundenbeleg **
07.09.2018  16:52:35
Terminal-ID:  74031129
Betrag:  EUR 34,00"""

DISCOUNTER = """NORMA
Uhlandstraße 15
55116 Mainz
EUR
Emmentaler Stück  2,59 x 2  5,18 A
Bulgur-Kräuter  0,99 x 2  1,98 A
zu zahlen  7,16
Bar  10,00
Rückgeld  -2,84
MWST%  MWST +  Netto =  Brutto
A 7 %  0,47  6,69  7,16
3182  748433/01  02.03.20  15:59"""


def test_a_fuel_slip_reads_gesamtbetrag_its_terminal_betrag_and_a_two_digit_year_beside_the_beleg_nr():
    read = parse(_Text(FUEL))
    assert (read.fields["total"], read.fields["date"], read.fields["currency"]) == ("34.00", "2018-09-07", "EUR")
    assert (read.fields["tax"], read.fields["net"]) == ("5.43", "28.57")  # Netto, then MwSt
    assert read.fields["number"] == "599/018/00001"
    assert read.confidence["total"] >= 0.9  # the terminal's Betrag and the VAT table agree


def test_a_discounter_slip_reads_zu_zahlen_and_the_date_among_till_numbers():
    fields = parse_fields(DISCOUNTER)
    assert (fields["total"], fields["date"], fields["currency"]) == ("7.16", "2020-03-02", "EUR")
    assert (fields["tax"], fields["net"]) == ("0.47", "6.69")  # MWST before Netto


def test_a_vat_row_with_one_figure_misread_is_mended_from_its_rate():
    # 11,17 read as 11,37: 58,79 + 11,37 is not 69,96, but 19% of 69,96 is 11,17 and 69,96 - 58,79 too.
    fields = parse_fields("Shell Tankstelle\nGesamtbetrag  69,96 EUR\nTyp Netto Mwst Brutto\n"
                          "A:19,00%  58,79  11,37  69,96")
    assert (fields["tax"], fields["net"]) == ("11.17", "58.79")


def test_a_lone_vat_figure_of_a_one_rate_table_is_that_rates_share_of_the_total():
    fields = parse_fields("Star Tankstelle\nGesamtbetrag 93,02 EUR\nTyp Netto MwSt Brutto\nA:19,00% I, 14,85")
    assert (fields["tax"], fields["net"]) == ("14.85", "78.17")


def test_a_vat_row_of_net_and_gross_alone_or_a_lone_net_is_mended_from_its_rate():
    fields = parse_fields("Markt\nSUMME  110,27\nMwSt % MwSt Netto Brutto\nA 19% 6,99) 34,68 41,27\n"
                          "B 7% St 64,49 69,00")
    assert (fields["tax"], fields["net"]) == ("11.10", "99.17")  # 6,59 read as 6,99; B's VAT lost
    fields = parse_fields("Shell Tankstelle\nTotal 44,44 EUR\nTyp Netto Brutto\nA:19,00% 37,34")
    assert (fields["tax"], fields["net"]) == ("7.10", "37.34")


def test_a_vat_table_with_a_rate_row_unread_offers_no_partial_sum():
    fields = parse_fields("Markt\nSUMME  110,27\nMwSt % MwSt Netto Brutto\nA 19% 6,59 34,68 41,27\nB 7% St")
    assert (fields["tax"], fields["net"]) == (None, None)


def test_the_vat_tables_summe_row_stands_in_for_garbled_rate_rows():
    fields = parse_fields("NORMA\nSUMME  118,68\nMWST% MWST + Netto = Brutto\nA19 % 1,43 7,93 8,96\n"
                          "Bic ics 7182 2802559\" 109 72\nSumme 8,61 110,07 118,68")
    assert (fields["total"], fields["tax"], fields["net"]) == ("118.68", "8.61", "110.07")


def test_a_dollar_sign_glued_to_a_word_on_a_german_slip_is_no_currency():
    text = "PENNY\nAm Hafen 131\n55116 Mainz\nzu zahlen 140,00\nMWST$ MWST + Netto = Brutto"
    assert parse_fields(text)["currency"] == "EUR"
    assert parse_fields("DINER\nTotal $ 12.50")["currency"] == "USD"


def test_a_total_below_an_items_price_or_above_the_cash_given_is_doubted():
    read = parse(_Text("LIDL\nEmmentaler  5,18 A\nSumme  0,47\nBar  10,00"))
    assert read.confidence["total"] < 0.5
    read = parse(_Text("LIDL\nEmmentaler  5,18 A\nSumme  51,80\nBar  10,00"))
    assert read.confidence["total"] < 0.5
    assert parse(_Text("LIDL\nEmmentaler  5,18 A\nSumme  5,18\nBar  10,00")).confidence["total"] >= 0.85


@pytest.mark.parametrize("layout", ["L1", "L2", "L3", "L7", "L8"])
def test_a_generated_till_slip_reads_end_to_end(layout):
    doc = generate("receipt", layout, seed=3, rendering="text_pdf")
    data = extract(doc.data)
    assert data["document_type"] == "receipt"
    fields = data["content"]["fields"]
    assert {name: fields[name] for name in doc.fields} == doc.fields
    assert all(data["content"]["field_confidence"][name] >= 0.5 for name in ("date", "total", "currency"))


@requires_tesseract
def test_the_aldi_photo_yields_its_total_date_and_currency():
    from leadflow.extractor.reading import read_document
    reading = read_document(sample("receipts/softmatic_aldi_18042020_11_00883.jpg").read_bytes())
    fields = parse(reading).fields
    assert (fields["total"], fields["date"], fields["currency"]) == ("8.83", "2020-04-18", "EUR")


class _Text:
    """A reading of plain text, without word boxes."""

    def __init__(self, text: str):
        self.text = text
        self.layout = None
