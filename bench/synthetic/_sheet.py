"""Drawing a synthetic document (reportlab, real text layer) and turning it into a scan or a photo.

Layouts draw on a Sheet: A4 pages, millimetres from the top-left corner, one font family per
document. The scan and photo renderings rasterise the text PDF with PDFium and degrade it
with Pillow; every random choice comes from the caller's random.Random, so the same
seed gives the same bytes.
"""
import io
import random
from pathlib import Path

import pypdfium2 as pdfium
from PIL import Image, ImageChops, ImageFilter
from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen.canvas import Canvas

DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
FONTS = {  # family -> (regular, bold)
    "helvetica": ("Helvetica", "Helvetica-Bold"),
    "times": ("Times-Roman", "Times-Bold"),
    "courier": ("Courier", "Courier-Bold"),
    "dejavu": ("DejaVuSans", "DejaVuSans-Bold"),
    "dejavu-serif": ("DejaVuSerif", "DejaVuSerif-Bold"),
    "dejavu-condensed": ("DejaVuSansCondensed", "DejaVuSansCondensed-Bold"),
}
PAGE_W, PAGE_H = 210.0, 297.0  # A4 in mm
SCAN_DPI = (200, 200, 240, 300)  # office scanners mostly default to 200 dpi
PHOTO_DPI = 170
NOISE_TILE = 509  # pixels; prime, so the repeat lines up with no text grid


class Sheet:
    """A document being drawn."""

    def __init__(self, family: str = "helvetica", title: str = "Dokument"):
        _register(family)
        self.regular, self.bold = FONTS[family]
        self.family = family
        self._buffer = io.BytesIO()
        # invariant=1: no creation date or random document id, so equal input gives equal bytes.
        self.canvas = Canvas(self._buffer, pagesize=A4, invariant=1, pageCompression=1)
        self.canvas.setTitle(title)
        self.pages = 1

    def text(self, x: float, y: float, value: str, size: float = 9.5, bold: bool = False,
             align: str = "left") -> None:
        """Draw one line of text with its baseline at y mm from the top."""
        font = self.bold if bold else self.regular
        self.canvas.setFont(font, size)
        px, py = x * mm, (PAGE_H - y) * mm
        if align == "right":
            self.canvas.drawRightString(px, py, value)
        elif align == "center":
            self.canvas.drawCentredString(px, py, value)
        else:
            self.canvas.drawString(px, py, value)

    def lines(self, x: float, y: float, values, size: float = 9.5, leading: float | None = None,
              bold: bool = False) -> float:
        """Draw lines under each other; return the y below the last one."""
        leading = leading or size * 0.45
        for value in values:
            if value:
                self.text(x, y, value, size, bold)
            y += leading
        return y

    def width(self, value: str, size: float = 9.5, bold: bool = False) -> float:
        return pdfmetrics.stringWidth(value, self.bold if bold else self.regular, size) / mm

    def leader(self, x1: float, x2: float, y: float, label: str, value: str, size: float = 9.5,
               bold: bool = False) -> None:
        """Label on the left, value flush right at x2, dots in between."""
        self.text(x1, y, label, size, bold)
        self.text(x2, y, value, size, bold, align="right")
        start = x1 + self.width(label, size, bold) + 1.5
        end = x2 - self.width(value, size, bold) - 1.5
        dot = self.width(".", size)
        if end > start + 2 * dot:
            self.text(start, y, "." * int((end - start) / (dot * 1.6)), size)

    def rule(self, x1: float, y: float, x2: float, width: float = 0.5) -> None:
        self.canvas.setLineWidth(width)
        self.canvas.line(x1 * mm, (PAGE_H - y) * mm, x2 * mm, (PAGE_H - y) * mm)

    def box(self, x: float, y: float, w: float, h: float, width: float = 0.5, shade: float | None = None) -> None:
        self.canvas.setLineWidth(width)
        if shade is not None:
            self.canvas.setFillGray(shade)
        self.canvas.rect(x * mm, (PAGE_H - y - h) * mm, w * mm, h * mm, fill=shade is not None)
        self.canvas.setFillGray(0)

    def table(self, x: float, y: float, widths, rows, size: float = 9, leading: float | None = None,
              aligns=None, header_bold: bool = True, grid: bool = False) -> float:
        """Rows of cells in columns of the given widths (mm); the first row is the header. Returns y below."""
        leading = leading or size * 0.55
        aligns = aligns or ["left"] * len(widths)
        for index, row in enumerate(rows):
            cx = x
            for cell, w, align in zip(row, widths, aligns):
                if cell:
                    tx = cx + w - 1 if align == "right" else cx + 1
                    self.text(tx, y, str(cell), size, bold=header_bold and index == 0, align=align)
                cx += w
            if grid or index == 0:
                # Below the descenders, above the next row's capitals.
                self.rule(x, y + size * 0.15, x + sum(widths), 0.3)
            y += leading
        return y

    def new_page(self) -> None:
        self.canvas.showPage()
        self.pages += 1

    def pdf(self) -> bytes:
        self.canvas.save()
        return self._buffer.getvalue()


def _register(family: str) -> None:
    if not family.startswith("dejavu"):
        return
    for font in FONTS[family]:
        if font not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(font, str(DEJAVU / f"{font}.ttf")))


# --- scans and photos --------------------------------------------------------------------------

def rasterise(pdf: bytes, dpi: int, first_page_only: bool = False) -> list[Image.Image]:
    """The PDF's pages as greyscale images (PDFium, as pdfplumber ships it: in-process and far quicker
    than a pdftoppm process per document)."""
    document = pdfium.PdfDocument(pdf)
    try:
        pages = [document[0]] if first_page_only else list(document)
        return [page.render(scale=dpi / 72, grayscale=True).to_pil().convert("L") for page in pages]
    finally:
        document.close()


def scan_pdf(pdf: bytes, rng: random.Random) -> bytes:
    """A scanner's PDF of the printed document: noisy, slightly turned pages, JPEG inside, no text layer."""
    dpi = rng.choice(SCAN_DPI)
    out = io.BytesIO()
    # A scanner stores the JPEG stream as it is (DCTDecode); reportlab would wrap it in ASCII85 too.
    ascii85, rl_config.useA85 = rl_config.useA85, 0
    try:
        canvas = Canvas(out, pagesize=A4, invariant=1)
        for page in rasterise(pdf, dpi):
            page = _scanned(page, rng)
            jpeg = io.BytesIO()
            page.save(jpeg, format="JPEG", quality=rng.randint(45, 80))
            canvas.drawImage(ImageReader(io.BytesIO(jpeg.getvalue())), 0, 0, A4[0], A4[1])
            canvas.showPage()
        canvas.save()
    finally:
        rl_config.useA85 = ascii85
    return out.getvalue()


def photo(pdf: bytes, rng: random.Random) -> bytes:
    """A phone photo of the first page: turned a little more, on a darker desk, lit unevenly; JPEG."""
    page = rasterise(pdf, PHOTO_DPI, first_page_only=True)[0]
    angle = rng.uniform(1.5, 3.0) * rng.choice((-1, 1))
    margin = int(page.width * 0.06)
    desk = Image.new("L", (page.width + 2 * margin, page.height + 2 * margin), rng.randint(70, 110))
    desk.paste(page, (margin + rng.randint(-margin // 2, margin // 2), margin + rng.randint(-margin // 2, margin // 2)))
    turned = desk.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor=rng.randint(70, 110))
    light = _uneven_light(turned.size, rng)
    lit = ImageChops.multiply(turned, light)
    lit = lit.filter(ImageFilter.GaussianBlur(rng.uniform(0.5, 0.9)))
    lit = _noise(lit, rng, strength=rng.randint(6, 12))
    out = io.BytesIO()
    lit.convert("RGB").save(out, format="JPEG", quality=rng.randint(70, 85))
    return out.getvalue()


def _scanned(page: Image.Image, rng: random.Random) -> Image.Image:
    angle = rng.uniform(-1.5, 1.5)
    page = page.rotate(angle, resample=Image.BILINEAR, expand=False, fillcolor=255)
    page = page.filter(ImageFilter.GaussianBlur(rng.uniform(0.3, 0.8)))
    page = _noise(page, rng, strength=rng.randint(8, 18))
    # A scanner's grey paper and slightly lifted blacks.
    low, high = rng.randint(0, 30), rng.randint(225, 250)
    return page.point(lambda v: low + v * (high - low) // 255)


def _noise(image: Image.Image, rng: random.Random, strength: int) -> Image.Image:
    """Add seeded grain: uniform noise in [-strength, strength], a random tile repeated over the page."""
    # From the seed, not Pillow's effect_noise (which reads the C library's rand()); one tile
    # instead of a byte per pixel: the grain is as random to OCR and much quicker to make.
    tile = Image.frombytes("L", (NOISE_TILE, NOISE_TILE), rng.randbytes(NOISE_TILE * NOISE_TILE))
    tile = tile.point(lambda v: 128 - strength + v * 2 * strength // 255)
    grain = Image.new("L", image.size)
    for top in range(0, image.height, NOISE_TILE):
        for left in range(0, image.width, NOISE_TILE):
            grain.paste(tile, (left, top))
    return ImageChops.add(image, grain, scale=1.0, offset=-128)


def _uneven_light(size: tuple[int, int], rng: random.Random) -> Image.Image:
    """A soft light falloff from one side or corner: 255 where lit, darker away from it."""
    # Quarter turns only: any other angle would leave hard-edged corners instead of a soft falloff.
    gradient = Image.linear_gradient("L").rotate(rng.choice((0, 90, 180, 270)))
    if rng.random() < 0.5:
        gradient = ImageChops.multiply(gradient, Image.radial_gradient("L"))
    darkest = rng.randint(150, 190)
    gradient = gradient.point(lambda v: 255 - (v * (255 - darkest)) // 255)
    return gradient.resize(size, Image.BILINEAR)
