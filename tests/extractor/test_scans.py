"""Photos and scans before OCR: an uneven page made evenly white, a turned card found on a sheet on a
desk, and a till slip never searched for a passport's zone."""
import io
import random
import statistics
from decimal import Decimal

from PIL import Image, ImageChops, ImageDraw, ImageFont

from bench.synthetic import generate
from bench.synthetic.receipt import sale
from leadflow.extractor import mrz, ocr
from leadflow.extractor.fields import receipt
from leadflow.extractor.fields.id_document import parse_fields
from leadflow.extractor.reading import read_document
from tests.extractor.conftest import requires_tesseract

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"


def _sheet_on_a_desk(turn: float) -> Image.Image:
    """A white sheet with a few lines of text, on a darker desk, lit from one side."""
    sheet = Image.new("L", (800, 1100), 245)
    draw = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(FONT, 22)
    for index in range(8):
        draw.text((60, 80 + 50 * index), f"Zeile {index}   {index * 3},{index}5", fill=30, font=font)
    desk = Image.new("L", (1000, 1300), 85)
    desk.paste(sheet, (100, 100))
    desk = desk.rotate(turn, resample=Image.BICUBIC, fillcolor=85)
    light = Image.linear_gradient("L").rotate(90).resize(desk.size).point(lambda v: 255 - v * 90 // 255)
    return ImageChops.multiply(desk, light)


def test_an_evenly_lit_scan_goes_to_tesseract_as_it_is():
    page = Image.new("L", (800, 1100), 230)
    ImageDraw.Draw(page).text((60, 80), "Summe 12,50", fill=20, font=ImageFont.truetype(FONT, 22))
    assert ocr.flattened(page) is page


def test_a_scan_with_a_dark_heading_bar_keeps_its_white_lettering():
    page = Image.new("L", (800, 1100), 235)
    draw = ImageDraw.Draw(page)
    draw.rectangle((40, 60, 760, 200), fill=40)  # a dark bar inside the page, as print
    draw.text((60, 100), "ENTGELTABRECHNUNG", fill=250, font=ImageFont.truetype(FONT, 40))
    assert ocr.flattened(page) is page


def test_a_photo_on_a_dark_desk_becomes_an_evenly_white_page_with_its_ink_kept():
    photo = _sheet_on_a_desk(2.5)
    flat = ocr.flattened(photo)
    assert flat.size == photo.size
    # The paper under uneven light (and the desk around it) is now nearly white everywhere...
    corners = [flat.getpixel(p) for p in ((20, 20), (980, 20), (20, 1280), (980, 1280), (500, 1280))]
    assert min(corners) >= 225, corners
    paper = [flat.getpixel((x, y)) for x in (180, 500, 820) for y in (700, 900, 1100)]
    assert statistics.pstdev(paper) < 6 and min(paper) >= 225, paper
    # ... and the text stays dark against it.
    assert flat.crop((150, 170, 700, 600)).getextrema()[0] < 110


@requires_tesseract
def test_a_photographed_till_slip_reads_its_price_column():
    # A courier slip on a desk: the page layout of the unflattened photo dropped the prices.
    doc = generate("receipt", "L3", seed=200, rendering="photo")
    fields = receipt.parse(read_document(doc.data)).fields
    assert (fields["total"], fields["date"]) == (doc.fields["total"], doc.fields["date"])


@requires_tesseract
def test_a_till_slip_is_never_searched_for_a_passport_zone(monkeypatch):
    runs = []
    monkeypatch.setattr(mrz, "ocr_zone", lambda image: runs.append(image.size) or "")
    assert not mrz._worth_looking("Autohof\nReceipt No. 14170\nTOTAL EUR\nCard Mastercard\n", None)
    read_document(generate("receipt", "L3", seed=200, rendering="photo").data)
    assert runs == []


@requires_tesseract
def test_a_card_turned_on_a_sheet_turned_otherwise_on_a_desk_is_read_in_one_extra_run(monkeypatch):
    # The sheet's and the desk's edges, off level once the card is levelled, ink every row a
    # little: the zone's lines must still stand apart from them.
    doc = generate("id_document", "L2", seed=1200, rendering="photo")
    runs = []
    original = mrz.ocr_zone
    monkeypatch.setattr(mrz, "ocr_zone", lambda image: runs.append(image.size) or original(image))
    fields = parse_fields(read_document(doc.data).text)
    assert {name: fields[name] for name in ("surname", "given_names", "document_number", "expiry_date")} == {
        name: doc.fields[name] for name in ("surname", "given_names", "document_number", "expiry_date")}
    assert fields["mrz_valid"] is True
    assert len(runs) == 1


def test_text_lines_stand_apart_from_turned_edges_that_ink_every_row():
    ink = Image.new("L", (1200, 600), 0)
    draw = ImageDraw.Draw(ink)
    for y0 in (200, 240, 280):  # three zone lines, 20 rows tall, 20 rows apart
        for x in range(200, 1000, 24):
            draw.rectangle((x, y0, x + 15, y0 + 19), fill=255)
    for x0 in (30, 60, 1120, 1150):  # edges a little off vertical: a few pixels on every row
        draw.line((x0, 0, x0 + 40, 599), fill=255, width=4)
    lines = mrz._text_lines(ink)
    zone = [line for line in lines if line[4] >= 12]
    assert [(line[1], line[3]) for line in zone] == [(200, 220), (240, 260), (280, 300)]


def test_a_cash_sale_too_big_for_a_two_hundred_note_is_still_drawn():
    goods = [(f"Ware {n}", 19) for n in range(9)]
    for seed in range(40):  # some of these sales come to more than 200 euros, paid in cash
        drawn = sale(random.Random(seed), "grocer", goods, count=(9, 9), card=False)
        total = sum((q * p for _, q, p, _ in drawn.items), Decimal("0"))
        assert drawn.cash >= total


def _page(text: str) -> ocr.OcrPage:
    return ocr.OcrPage(text=text, tsv="")


def test_a_slip_whose_paid_line_lost_its_amount_is_read_again_as_one_block(monkeypatch):
    from leadflow.extractor import reading
    runs = []
    monkeypatch.setattr(ocr, "ocr_page", lambda image, psm=3, flatten=False: runs.append(psm) or _page("Gesant EUR 47,59\nKartenzahlung EUR 47,59"))
    first = _page("Stern Apotheke\nKassenbon Nr: 47868\nGesamt\nKartenzahlung\n")
    assert reading.one_column_if_better(None, first).text.startswith("Gesant EUR 47,59")
    assert runs == [ocr.SINGLE_BLOCK]
    # A slip with no paid line at all, only its other marks, is read again too.
    assert reading.one_column_if_better(None, _page("Biomarkt\n36,49\nBon-Nr. 35659\nvielen Dank")).text.startswith("Gesant")


def test_a_second_reading_without_a_paid_amount_is_not_kept_and_good_pages_cost_no_second_run(monkeypatch):
    from leadflow.extractor import reading
    runs = []
    monkeypatch.setattr(ocr, "ocr_page", lambda image, psm=3, flatten=False: runs.append(psm) or _page("Gesamt\nnoise"))
    first = _page("Stern Apotheke\nGesamt\nKartenzahlung\n")
    assert reading.one_column_if_better(None, first) is first  # tried once, nothing better
    assert len(runs) == 1
    for page in (_page("SUMME 40,19\nBar 50,00\nRückgeld 9,81"),  # the paid line has its amount
                 _page("Gesamtbrutto\n" + " ".join(["Lohnabrechnung Entgelt"] * 60)),  # a long page
                 _page("PASSPORT\nSurname\nP<UTOERIKSSON<<ANNA<MARIA"),  # no slip at all
                 _page("Berechnung der Einkommensteuer\nSumme der Einkünfte\nSonderausgaben")):  # a row label
        assert reading.one_column_if_better(None, page) is page
    assert len(runs) == 1


def test_long_labels_are_found_as_ocr_misreads_them_and_no_other_label_is():
    from leadflow.extractor.fields import finding, tax
    misread = finding.MISREAD
    assert misread[tax.INCOME_TAX_PLAIN].search("Einkommensteuen nennen 16.085,00 EUR")
    assert misread[tax.TAXABLE].search("zu versteuemdes Einkommen 72.820,00")
    assert misread[tax.SOLI].search("Solidaritatszuschlag 0,00")
    for other in ("Kirchensteuer 0,00", "Lohnsteuer 14.789,10", "EINKOMMENSTEUERBESCHEID"):
        assert not misread[tax.INCOME_TAX_PLAIN].search(other), other


@requires_tesseract
def test_a_card_whose_sheet_edges_stand_out_more_than_its_lines_is_levelled_by_its_own_lines():
    # The sheet lies 3 degrees off, the card on it 7 degrees off a quarter turn: the sheet's
    # edges give the stronger level, the card's zone the other.
    doc = generate("id_document", "L2", seed=200, rendering="photo")
    fields = parse_fields(read_document(doc.data).text)
    assert (fields["mrz_valid"], fields["document_number"], fields["surname"]) == (
        True, doc.fields["document_number"], doc.fields["surname"])


def test_a_short_later_page_of_a_letter_is_not_searched_for_a_zone_but_a_first_page_of_debris_is():
    short = "Seite 2\nErläuterungen\nDer Bescheid ist vorläufig\n"
    assert mrz._worth_looking(short, None, debris=False) is False
    assert mrz._worth_looking(short, None, debris=True) is True  # on page 1 it may be a turned photo
    # A zone read, or an ID's words, make any page worth the search.
    assert mrz._worth_looking("Aufenthaltstitel\nSeite 2", None, debris=False) is True
    assert mrz._worth_looking("IDD<<T22000129<<<<<<<<<<<<<<<", None, debris=False) is True
