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


@pytest.mark.parametrize("layout", ["L1", "L2", "L3"])
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
