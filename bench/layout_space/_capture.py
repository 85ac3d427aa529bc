"""How a paper was scanned or photographed, drawn from a seed: resolution, skew, blur, noise, JPEG quality,
shadow and perspective. Built on bench.synthetic's rasterising and grain; returns the bytes and what was drawn."""
import io
import random

from PIL import Image, ImageChops, ImageFilter
from reportlab import rl_config
from reportlab.lib.pagesizes import A4
from reportlab.lib.utils import ImageReader
from reportlab.pdfgen.canvas import Canvas

from bench.synthetic._sheet import _noise, _uneven_light, rasterise


def scan(pdf: bytes, rng: random.Random) -> tuple[bytes, dict]:
    """A scanner's PDF: every page an image (no text layer), slightly turned, grey, grainy, JPEG inside."""
    taken = {"dpi": rng.choice((150, 200, 200, 240, 300)), "skew": round(rng.uniform(-2.0, 2.0), 2),
             "blur": round(rng.uniform(0.2, 1.0), 2), "noise": rng.randint(4, 20), "quality": rng.randint(35, 85),
             "shadow": rng.random() < 0.2}
    out = io.BytesIO()
    ascii85, rl_config.useA85 = rl_config.useA85, 0  # a scanner stores the JPEG as it is (DCTDecode)
    try:
        canvas = Canvas(out, pagesize=A4, invariant=1)
        for page in rasterise(pdf, taken["dpi"]):
            page = page.rotate(taken["skew"], resample=Image.BILINEAR, expand=False, fillcolor=255)
            page = page.filter(ImageFilter.GaussianBlur(taken["blur"]))
            if taken["shadow"]:
                page = ImageChops.multiply(page, _uneven_light(page.size, rng))
            page = _noise(page, rng, strength=taken["noise"])
            low, high = rng.randint(0, 35), rng.randint(220, 250)
            page = page.point(lambda v: low + v * (high - low) // 255)
            jpeg = io.BytesIO()
            page.save(jpeg, format="JPEG", quality=taken["quality"])
            canvas.drawImage(ImageReader(io.BytesIO(jpeg.getvalue())), 0, 0, A4[0], A4[1])
            canvas.showPage()
        canvas.save()
    finally:
        rl_config.useA85 = ascii85
    return out.getvalue(), taken


def photo(pdf: bytes, rng: random.Random, page_index: int = 0) -> tuple[bytes, dict]:
    """A phone photo of one page on a desk: turned, seen at a slant, lit unevenly, soft, JPEG."""
    taken = {"dpi": rng.choice((140, 160, 170, 200)), "skew": round(rng.uniform(0.5, 4.0) * rng.choice((-1, 1)), 2),
             "perspective": round(rng.uniform(0.0, 0.06), 3), "blur": round(rng.uniform(0.4, 1.1), 2),
             "noise": rng.randint(5, 14), "quality": rng.randint(55, 90), "page": page_index + 1}
    pages = rasterise(pdf, taken["dpi"])
    page = pages[min(page_index, len(pages) - 1)]
    margin = int(page.width * 0.07)
    desk_grey = rng.randint(60, 120)
    desk = Image.new("L", (page.width + 2 * margin, page.height + 2 * margin), desk_grey)
    desk.paste(page, (margin + rng.randint(-margin // 2, margin // 2), margin + rng.randint(-margin // 2, margin // 2)))
    desk = _slant(desk, taken["perspective"], rng, desk_grey)
    turned = desk.rotate(taken["skew"], resample=Image.BICUBIC, expand=False, fillcolor=desk_grey)
    lit = ImageChops.multiply(turned, _uneven_light(turned.size, rng))
    lit = lit.filter(ImageFilter.GaussianBlur(taken["blur"]))
    lit = _noise(lit, rng, strength=taken["noise"])
    out = io.BytesIO()
    lit.convert("RGB").save(out, format="JPEG", quality=taken["quality"])
    return out.getvalue(), taken


def _slant(image: Image.Image, amount: float, rng: random.Random, fill: int) -> Image.Image:
    """The page seen from a little off its axis: one edge nearer the camera than the other."""
    if amount <= 0.002:
        return image
    w, h = image.size
    d = amount * w
    # Corners of the source quad (top-left, bottom-left, bottom-right, top-right) for Image.QUAD.
    if rng.random() < 0.5:  # top edge farther away: narrower
        quad = (-d, 0, 0, h, w, h, w + d, 0)
    else:
        quad = (0, 0, -d, h, w + d, h, w, 0)
    return image.transform(image.size, Image.QUAD, quad, resample=Image.BICUBIC, fillcolor=fill)
