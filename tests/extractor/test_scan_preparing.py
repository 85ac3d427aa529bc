"""Scans and photos as Tesseract reads them best (issue 39): a scanner's page with a shadow made
evenly white like a photo, a desk round a photographed sheet made paper without a dark frame, and
the payslip's employee never read from a neighbouring box's label."""
import io

from PIL import Image, ImageChops, ImageDraw, ImageFont
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen import canvas

from leadflow.extractor import ocr
from leadflow.extractor.fields import payslip
from leadflow.extractor.reading import read_document
from tests.extractor.conftest import requires_tesseract
from tests.extractor.test_layout import pdf

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def _shadowed_page() -> Image.Image:
    """A 150 dpi page of a payslip's figures, greyed by a scanner lid's shadow from one side."""
    page = Image.new("L", (1240, 1750), 235)
    draw = ImageDraw.Draw(page)
    font = ImageFont.truetype(FONT, 22)
    rows = [("GROSS PAY", "EUR 6.830,46"), ("WAGE TAX", "EUR 1.488,36"), ("HEALTH INSURANCE", "EUR 508,59"),
            ("NET PAY", "EUR 3.885,78"), ("PAYOUT", "EUR 3.726,89")]
    for index, (label, figure) in enumerate(rows):
        draw.text((100, 500 + 40 * index), label, fill=40, font=font)
        draw.text((900, 500 + 40 * index), figure, fill=40, font=font)
    shadow = Image.linear_gradient("L").rotate(90).resize(page.size).point(lambda v: 255 - v * 90 // 255)
    return ImageChops.multiply(page, shadow)


def _scan_pdf(page: Image.Image) -> bytes:
    jpeg = io.BytesIO()
    page.save(jpeg, format="JPEG", quality=80)
    out = io.BytesIO()
    sheet = canvas.Canvas(out, pagesize=A4)
    sheet.drawImage(ImageReader(io.BytesIO(jpeg.getvalue())), 0, 0, A4[0], A4[1])
    sheet.save()
    return out.getvalue()


def test_a_scanned_page_with_a_shadow_is_evened_before_ocr_like_a_photo():
    flat = ocr.flattened(_shadowed_page())
    paper = [flat.getpixel((x, 1200)) for x in (40, 600, 1200)]
    assert min(paper) >= 235, paper  # the shadowed side is paper again
    assert flat.crop((900, 500, 1100, 540)).getextrema()[0] < 110  # the figures stay dark


def test_a_photographed_sheet_leaves_no_dark_frame_on_the_desk_round_it():
    sheet = Image.new("L", (800, 1100), 240)
    ImageDraw.Draw(sheet).text((80, 100), "Kontoauszug 9.763,71", fill=30, font=ImageFont.truetype(FONT, 24))
    desk = Image.new("L", (1000, 1300), 80)
    desk.paste(sheet, (100, 100))
    flat = ocr.flattened(desk)
    # Just outside the sheet's edge, where the sheet's brightness spread over the desk and left a
    # dark band that Tesseract took for a picture holding the page: paper now.
    outside = [flat.getpixel(point) for point in ((90, 600), (910, 600), (500, 90), (500, 1210), (60, 600))]
    assert min(outside) >= 200, outside
    assert flat.crop((80, 190, 500, 240)).getextrema()[0] < 110


@requires_tesseract
def test_the_figures_of_a_scanned_page_under_a_shadow_are_read():
    text = read_document(_scan_pdf(_shadowed_page())).text
    for figure in ("6.830,46", "3.885,78", "3.726,89"):
        assert figure in text, text


def test_a_box_of_facts_below_the_employee_box_gives_no_name_from_its_label():
    # "EMPLOYEE NO." over its number, then the next box's label: neither is the employee.
    fields = payslip.parse(read_document(pdf(
        (60, 60, "Bodensee Mobility SE"), (60, 90, "PAY STATEMENT 09/2026"),
        (360, 120, "EMPLOYEE NO."), (360, 134, "46502"),
        (360, 152, "DATE OF JOINING"), (360, 166, "1 January 2016"),
        (60, 200, "GROSS SALARY"), (300, 200, "7.620,62 EUR"), (60, 216, "NET EARNINGS"), (300, 216, "4.368,15 EUR"))))
    assert fields.fields["employee"] is None


def test_a_label_broken_over_two_lines_beside_the_name_gives_no_name():
    # "DATE" / "OF JOINING" set under "EMPLOYEE" in a photo's box: form words, no person.
    assert payslip._employee("OF JOINING") is None
    assert payslip._employee("DATE OF JOINING") is None
    assert payslip._employee("Fernandez, Ana Lucia") == "Ana Lucia Fernandez"


def test_box_rules_read_as_marks_are_no_words_and_keep_the_columns_apart():
    from leadflow.extractor.layout import words_from_tsv
    from leadflow.extractor.normalise import without_rule_marks
    assert without_rule_marks("|  Balance on 31 October 2026: 11162.15") == "   Balance on 31 October 2026: 11162.15"
    assert without_rule_marks("[ Net pay  3.380,01 ]") == "  Net pay  3.380,01  "
    # A mark inside a word, an MRZ's fillers and an "I" or "1" are kept.
    assert without_rule_marks("x|y P<D<<MUSTER I 1") == "x|y P<D<<MUSTER I 1"
    header = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext"
    rows = [f"5\t1\t1\t1\t1\t{n}\t{x}\t100\t{w}\t20\t90\t{t}" for n, (x, w, t) in
            enumerate([(10, 4, "|"), (30, 80, "Balance"), (120, 30, "on"), (400, 90, "11162.15")], start=1)]
    assert [w.text for w in words_from_tsv("\n".join([header, *rows]), 1)] == ["Balance", "on", "11162.15"]


def test_one_dated_balance_after_the_last_booking_is_the_closing_balance():
    from leadflow.extractor.fields import bank_statement
    # The opening line was lost on a scan: only "Balance on 31 October 2026" is read.
    fields = bank_statement.parse(read_document(pdf(
        (60, 60, "Allgäuer Volksbank eG"), (60, 90, "BANK STATEMENT"),
        (60, 120, "BOOKING DATE"), (160, 120, "DESCRIPTION"), (420, 120, "AMOUNT"),
        (60, 134, "02.10.2026"), (160, 134, "Emma van den Berg Rückzahlung"), (420, 134, "61.19"),
        (60, 148, "17.10.2026"), (160, 148, "Nordlicht Software GmbH Salary"), (420, 148, "2020.52"),
        (60, 162, "21.10.2026"), (160, 162, "DB Fernverkehr Überweisung"), (420, 162, "26.37-"),
        (60, 190, "Balance on 31 October 2026: 11162.15")))).fields
    assert fields["closing_balance"] == "11162.15"
    assert fields["opening_balance"] is None


def test_a_period_in_two_boxes_with_each_date_under_its_label_is_read():
    from leadflow.extractor.fields import bank_statement
    fields = bank_statement.parse(read_document(pdf(
        (60, 60, "Hansa Kreditbank"), (60, 90, "BANK STATEMENT"),
        (60, 120, "VON"), (60, 134, "4. August 2026"), (300, 120, "BIS"), (300, 134, "4. September 2026"),
        (60, 170, "BU.-TAG"), (160, 170, "DETAILS"), (420, 170, "BETRAG EUR"),
        (60, 184, "04.08.2026"), (160, 184, "Stadtwerke Überweisung"), (420, 184, "EUR 153,30-"),
        (60, 198, "31.08.2026"), (160, 198, "IKEA Deutschland Lastschrift"), (420, 198, "EUR 413,02-"),
        (60, 212, "03.09.2026"), (160, 212, "Daniel Cohen Rückzahlung"), (420, 212, "EUR 23,60")))).fields
    assert (fields["period_start"], fields["period_end"]) == ("2026-08-04", "2026-09-04")


def test_a_dated_balance_whose_figure_stands_under_it_in_its_box_is_read():
    from leadflow.extractor.fields import bank_statement
    fields = bank_statement.parse(read_document(pdf(
        (60, 60, "Allgäuer Volksbank eG"), (60, 90, "BANK STATEMENT"),
        (60, 110, "Balance on 30 September 2026"), (60, 124, "10412.62"),
        (60, 150, "BOOKING DATE"), (160, 150, "DESCRIPTION"), (420, 150, "AMOUNT"),
        (60, 164, "02.10.2026"), (160, 164, "Emma van den Berg Rückzahlung"), (420, 164, "61.19"),
        (60, 178, "17.10.2026"), (160, 178, "Nordlicht Software GmbH Salary"), (420, 178, "2020.52"),
        (60, 192, "31.10.2026"), (160, 192, "BVG Abo SEPA-Lastschrift"), (420, 192, "931.99-"),
        (60, 220, "Balance on 31 October 2026: 11162.15")))).fields
    assert (fields["opening_balance"], fields["closing_balance"]) == ("10412.62", "11162.15")


def test_a_balance_with_its_sign_before_the_currency_in_the_next_column_is_read():
    from leadflow.extractor.layout import labelled_cell
    layout = read_document(pdf((60, 100, "SCHLUSSSALDO"), (400, 100, "-EUR 8.396,36"))).layout
    from leadflow.extractor.fields.bank_statement import CLOSING, balance
    assert [hit.value for hit in layout.find(CLOSING, balance)] == ["-8396.36"]
    assert not labelled_cell("-EUR 8.396,36") and labelled_cell("KV-Beitrag 120,00")


def test_a_trailing_minus_after_the_currency_is_the_figures_sign():
    from leadflow.extractor.fields import parse as p
    from leadflow.extractor.fields.bank_statement import balance
    assert balance("Startsaldo  477,46 €-") == "-477.46"
    assert p.amount("Neuer Kontostand  11.719,75 EUR-") == "-11719.75"
    # A minus between two figures is no sign of the first.
    assert p.amount("12,00 € - 3,00 €") == "12.00"
    assert p.amounts("12,00 €-13,00 €") == ["12.00", "-13.00"]
