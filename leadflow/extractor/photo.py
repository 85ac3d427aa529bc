"""Preparing a picture (a flatbed scan or a phone photo saved as JPEG or PNG, a scanned PDF's page) for its one OCR run."""
from PIL import Image, ImageChops, ImageFilter

from leadflow.extractor import ocr

# A flatbed scanner writes its resolution into the file; a phone writes 72 or 96, or nothing.
SCANNER_DPI = 250
# At scanner resolution a character's stroke is 3 px or more, so a 3x3 darkest-neighbour filter
# thickens print by a pixel each side without closing the gap between two letters.
DOT_JOIN = 3
INK = 140  # darker than this on the evened paper is print
# Closing the ink's 1-2 px gaps adds about 1% to solid print (a rendered invoice) and 10-45% to
# a needle printer's dots or a faded thermal slip's broken strokes.
BROKEN_PRINT = 0.05


def prepared(image: Image.Image) -> Image.Image:
    """The picture as Tesseract reads it best: grey, the paper evenly white, faint print joined.

    Till slips are the reason: thermal paper fades to grey, a petrol station's needle printer
    leaves characters as rows of separate dots, the back's print shows through, and a slip laid
    on a scanner's bed is a narrow strip on a dark or white page. Tesseract's page layout took
    such a slip for a picture and read five characters of it; with its dots joined it reads the
    slip. Everything here is a handful of C passes over the pixels, well under the OCR's own time.
    """
    if _dpi(image) < SCANNER_DPI:
        # A phone photo or a small web image: grey as it comes, a card's coloured print being its
        # text, not advertising (the zone's own reader retries turned and scaled); its paper
        # evened where the light or a desk darkens it.
        return scanned_page(image)
    grey = _ink(image)
    # A dark scanner lid round the document: the paper made evenly white, the lid with it.
    grey = ocr.flattened(grey)
    if _broken_print(grey):
        grey = grey.filter(ImageFilter.MinFilter(DOT_JOIN))
    return grey


def scanned_page(image: Image.Image) -> Image.Image:
    """A scanner's page or a phone's photo as Tesseract reads it best: grey, and its paper evenly
    white where a shadow, a lamp's falloff or a desk round the sheet darkens part of it (a
    scanned payslip under a lid's shadow was read as its letterhead alone)."""
    return ocr.flattened(image.convert("L"))


def _ink(image: Image.Image) -> Image.Image:
    """Grey in which coloured print fades: each pixel's brightest channel. A till's ink is black,
    while the shop's advertising printed on the slip beforehand is blue or red; the luminance of a
    red or blue is dark enough for Tesseract to read it as text over the figures."""
    if image.mode not in ("RGB", "RGBA", "P", "CMYK"):
        return image.convert("L")
    red, green, blue = image.convert("RGB").split()
    return ImageChops.lighter(ImageChops.lighter(red, green), blue)


def _broken_print(grey: Image.Image) -> bool:
    """Whether the print is dots or broken strokes: joining them would add much ink. Thickening
    solid print instead runs its letters together (an invoice's total was lost so)."""
    # The middle half of the page tells as well as the whole, at half the cost.
    band = grey.crop((0, grey.height // 4, grey.width, grey.height * 3 // 4))
    ink = band.point([255] * INK + [0] * (256 - INK))
    count = ink.histogram()[255]
    if not count:
        return False
    closed = ink.filter(ImageFilter.MaxFilter(DOT_JOIN)).filter(ImageFilter.MinFilter(DOT_JOIN))
    return closed.histogram()[255] > (1 + BROKEN_PRINT) * count


def _dpi(image: Image.Image) -> float:
    dpi = image.info.get("dpi")
    try:
        return float(min(dpi)) if dpi else 0.0
    except (TypeError, ValueError):
        return 0.0
