"""Preparing pictures for OCR: on a scan, coloured pre-print fades and dotted print is joined; a
phone photo goes to OCR as it came, in grey."""
from PIL import Image, ImageDraw

from leadflow.extractor import photo
from leadflow.extractor.fields.receipt import parse
from leadflow.extractor.reading import read_document
from tests.extractor.conftest import requires_tesseract, sample


def _slip(dpi=None, mode="RGB") -> Image.Image:
    """White paper with a black dotted stroke (a needle printer's) and a blue advertising block."""
    image = Image.new(mode, (200, 120), "white")
    draw = ImageDraw.Draw(image)
    for x in range(20, 120, 4):  # dots 2 px wide, 2 px apart
        draw.rectangle((x, 30, x + 1, 31), fill="black")
    draw.rectangle((130, 60, 190, 110), fill=(40, 60, 220) if mode == "RGB" else 80)
    if dpi:
        image.info["dpi"] = (dpi, dpi)
    return image


def test_on_a_scan_a_blue_advertising_block_fades_while_black_print_stays():
    prepared = photo.prepared(_slip(dpi=300))
    assert prepared.mode == "L"
    assert prepared.getpixel((160, 85)) > 200  # the blue block: nearly paper
    assert prepared.getpixel((20, 30)) < 60  # the till's black ink


def test_a_scanner_resolution_slip_has_its_dots_joined_into_a_stroke():
    prepared = photo.prepared(_slip(dpi=300))
    gaps = [prepared.getpixel((x, 30)) for x in range(23, 116, 4)]  # between two dots
    assert max(gaps) < 60


def test_a_phone_photo_goes_to_ocr_as_it_came_in_grey():
    picture = _slip(dpi=72)
    prepared = photo.prepared(picture)
    assert prepared.tobytes() == picture.convert("L").tobytes()


def test_a_greyscale_scan_is_prepared_as_grey():
    prepared = photo.prepared(_slip(dpi=300, mode="L"))
    assert prepared.mode == "L" and prepared.getpixel((20, 30)) < 60


@requires_tesseract
def test_the_petrol_station_scan_with_dotted_print_yields_its_total_date_and_currency():
    # A needle printer's slip on a scanner's white bed: unprepared, Tesseract read 5 characters of it.
    reading = read_document(sample("receipts/softmatic_tanke_07092018_01_03400.jpg").read_bytes())
    fields = parse(reading).fields
    assert (fields["total"], fields["date"], fields["currency"]) == ("34.00", "2018-09-07", "EUR")
