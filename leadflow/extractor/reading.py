"""Turning document bytes into text and word boxes per page: PDF text layers through pypdf (text)
and pdfplumber (boxes), images through one OCR run per page (both)."""
import io
import logging
import re
import struct
import warnings
from dataclasses import dataclass, field

import pdfplumber
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageOps, UnidentifiedImageError
from pypdf import PdfReader
from pypdf.errors import FileNotDecryptedError, PyPdfError

from leadflow.extractor import mrz, ocr, photo, sniff
from leadflow.extractor.layout import Layout, Word, words_from_pdfplumber_page
from leadflow.extractor.normalise import despace, without_rule_marks
from leadflow.extractor.errors import TooLarge, Unreadable, UnsupportedType

log = logging.getLogger(__name__)

MAX_PIXELS = 40_000_000  # about a 600 dpi A4 scan; beyond it a "photo" is a decompression bomb
MAX_PAGES = 100  # statements run long, but not this long; also bounds the time a job can take
MAX_OCR_PAGES = 20  # OCR costs seconds a page; a 100-page scan would hold a worker for minutes
EXIF_ORIENTATION = 0x0112
MIN_TEXT_LAYER_CHARS = 20  # fewer characters on a page means a scan with at most a stray label


@dataclass
class Page:
    number: int
    text: str
    method: str  # "text" (a PDF text layer) or "ocr"
    words: list[Word] = field(default_factory=list)  # with boxes, for the layout-aware field finders


@dataclass
class Reading:
    """What was read from a document: its format, its pages' text and any embedded files."""
    format: str
    pages: list[Page]
    attachments: dict[str, bytes] = field(default_factory=dict)
    # Documents that arrive as data (camt.053, MT940) bring their type and fields with them.
    structured: dict | None = None

    @property
    def text(self) -> str:
        return "\n\n".join(page.text for page in self.pages if page.text)

    @property
    def layout(self) -> Layout:
        if self._layout is None:
            self._layout = Layout(word for page in self.pages for word in page.words)
        return self._layout

    _layout: Layout | None = field(default=None, repr=False, compare=False)


def read_document(data: bytes, *, max_ocr_pages: int = MAX_OCR_PAGES) -> Reading:
    """Read any supported format; raise UnsupportedType, Unreadable or TooLarge. `max_ocr_pages`:
    a packet's split reads more scanned pages than one document may have (extractor/packet_jobs.py)."""
    fmt = sniff.sniff(data)
    if fmt == sniff.PDF:
        return read_pdf(data, max_ocr_pages=max_ocr_pages)
    if fmt in (sniff.PNG, sniff.JPEG):
        return read_image(data, fmt)
    if fmt in (sniff.CAMT053, sniff.MT940):
        return read_statement_data(data, fmt)
    raise UnsupportedType("the file is not a PDF, PNG, JPEG, camt.053 or MT940 statement (judged by its first bytes)")


def read_statement_data(data: bytes, fmt: str) -> Reading:
    from leadflow.extractor import statements  # the statement readers import field helpers
    reader = statements.read_camt053 if fmt == sniff.CAMT053 else statements.read_mt940
    fields, rendering, count = reader(data)
    # One "page" per statement in the file: billing counts pages, and each statement is one.
    pages = [Page(number=1, text=rendering, method="xml")]
    pages += [Page(number=n, text="", method="xml") for n in range(2, count + 1)]
    return Reading(format=fmt, pages=pages,
                   structured={"document_type": "bank_statement", "fields": fields})


def read_pdf(data: bytes, *, max_ocr_pages: int = MAX_OCR_PAGES) -> Reading:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # pypdf warns on every repaired xref; the log would drown
            reader = PdfReader(io.BytesIO(data), strict=False)
            if reader.is_encrypted:
                # Owner-password-only PDFs open with the empty user password; others cannot be read.
                try:
                    if not reader.decrypt(""):
                        raise Unreadable("the PDF is password-protected")
                except (FileNotDecryptedError, NotImplementedError, PyPdfError) as exc:
                    raise Unreadable(f"the PDF is password-protected: {exc}") from exc
            count = len(reader.pages)
            if count == 0:
                raise Unreadable("the PDF has no pages")
            if count > MAX_PAGES:
                raise TooLarge(f"the PDF has {count} pages; the limit is {MAX_PAGES}")
            pages = []
            ocr_pages = 0
            scans = _ScanImages(data)
            for index, page in enumerate(reader.pages):
                text = _page_text(page, index + 1)
                method, words = "text", []
                if len(text.strip()) < MIN_TEXT_LAYER_CHARS:
                    image = _largest_page_image(page, index + 1, scans)
                    if image is not None:
                        ocr_pages += 1
                        if ocr_pages > max_ocr_pages:
                            raise TooLarge(f"the PDF has more than {max_ocr_pages} scanned pages to OCR")
                        # Grey, its paper evened where a lid's shadow darkens it: still one OCR run.
                        page_image = photo.scanned_page(image)
                        seen = one_column_if_better(page_image, ocr.ocr_page(page_image))
                        # A scanned ID's zone; a turned photo's debris only counts on page 1.
                        text = mrz.zone_text(image, ocr_text(seen.text), first_page=index == 0, tsv=seen.tsv)
                        method, words = "ocr", seen.words(index + 1)
                pages.append(Page(number=index + 1, text=text, method=method, words=words))
            attachments = _attachments(reader)
            scans.close()
        _add_text_layer_words(data, pages)
    except (Unreadable, TooLarge):
        raise
    except (PyPdfError, ValueError, TypeError, KeyError, AttributeError, IndexError,
            RecursionError, OSError, EOFError, AssertionError, ZeroDivisionError) as exc:
        # pypdf signals damage with many exception types, not only its own PdfReadError;
        # a damaged file is the client's to replace, never a crash of the service.
        raise Unreadable(f"the PDF is damaged or truncated: {type(exc).__name__}: {str(exc)[:200]}") from exc
    return Reading(format=sniff.PDF, pages=pages, attachments=attachments)


def read_image(data: bytes, fmt: str) -> Reading:
    image = open_image(data)
    prepared = photo.prepared(image)  # grey, even paper, a slip's faint dots joined: still one OCR run
    seen = one_column_if_better(prepared, ocr.ocr_page(prepared))
    # An ID photo turned or small: its zone is read from the picture itself.
    text = mrz.zone_text(image, ocr_text(seen.text), tsv=seen.tsv)
    return Reading(format=fmt, pages=[Page(number=1, text=text, method="ocr",
                                           words=seen.words(1))])


# A till slip's words for what was paid, as OCR may misread them ("Gesant", "Surnme", "T0TAL").
PAID = re.compile(r"(?<![\w-])(su(?:mm|rnm|mrn|nm|mn|nn)e|gesa(?:m|n|rn)t|gesamtbetrag|t[o0]ta[l1i]|zu\s?zahlen"
                  r"|kartenzah[l1i]ung|girocard|ec-?\s?cash)(?![\w-])", re.IGNORECASE)
PRICE = re.compile(r"\d[.,]\s?\d\d(?!\d)")
# What else marks a till slip when its paid line was dropped altogether.
SLIP = re.compile(r"(?<![\w-])(bon-?\s?nr|kassenbon|beleg-?\s?nr|quittung|receipt|kundenkarte|vielen\s?dank"
                  r"|r[üu]ckgeld|wechselgeld)(?![\w-])", re.IGNORECASE)
SLIP_WORDS = 80  # a till slip is short; a page of more words is a letter, an invoice or a statement


def one_column_if_better(image, seen: "ocr.OcrPage") -> "ocr.OcrPage":
    """A short page whose lines name what was paid ("Gesamt", "Kartenzahlung") but show no amount
    on any of them, or that reads like a till slip with no paid line at all, is read again as one
    block of lines: Tesseract's own page layout dropped a slip's right-hand price column (bold,
    or a few degrees off level) or most of a small slip in a large photo. The second reading is
    kept only when it puts an amount on a paid line. One extra run, on such pages only."""
    lines = seen.text.splitlines()
    # A paid label standing alone ("Gesamt", "TOTAL EUR"): "Summe der Einkünfte" is a tax
    # notice's row label, whose amount simply stands in another column of the reading.
    named = [line for line in lines if PAID.search(line)
             and not re.search(r"[^\W\d_]{3,}", re.sub(r"(?i)\beuro?\b", "", PAID.sub("", line)))]
    if (any(PRICE.search(line) for line in named) or not (named or SLIP.search(seen.text))
            or len(re.findall(r"[^\W\d_]{2,}", seen.text)) > SLIP_WORDS):
        return seen
    again = ocr.ocr_page(image, psm=ocr.SINGLE_BLOCK, flatten=True)
    if any(PAID.search(line) and PRICE.search(line) for line in again.text.splitlines()):
        return again
    return seen


def open_image(data: bytes) -> Image.Image:
    """Decode an image fully, refusing pixel bombs before any pixel is decoded."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            check_pixels(image.size)
            image.load()
            # Phone photos carry their rotation in EXIF; OCR needs upright text. An upright
            # image is not copied (a 12-megapixel copy costs a tenth of a second).
            if image.getexif().get(EXIF_ORIENTATION, 1) == 1:
                return image
            return ImageOps.exif_transpose(image)
    except TooLarge:
        raise
    except (Image.DecompressionBombError, Image.DecompressionBombWarning) as exc:
        raise TooLarge(f"the image is too large: {exc}") from exc
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError, EOFError, struct.error) as exc:
        raise Unreadable(f"the image is damaged or truncated: {exc}") from exc


def check_pixels(size: tuple[int, int]) -> None:
    width, height = size
    if width * height > MAX_PIXELS:
        raise TooLarge(f"the image is {width}x{height} pixels; the limit is {MAX_PIXELS // 1_000_000} megapixels")


def ocr_text(text: str) -> str:
    """OCR's text of a page, normalised, without the rules of boxes it read as marks."""
    return normalize_text(without_rule_marks(text))


def normalize_text(text: str) -> str:
    """Trim line ends, keep a two-space gap where columns were, drop runs of blank lines."""
    lines = [re.sub(r"[ \t\u00a0]{2,}", "  ", line).rstrip() for line in text.replace("\r", "").split("\n")]
    out = "\n".join(lines)
    out = re.sub(r"\n{3,}", "\n\n", out)
    return out.strip("\n").replace("\x0c", "")


def _page_text(page, number: int) -> str:
    # Layout mode keeps a label and its value on one line, as OCR does, so one set of field
    # patterns serves both; some odd fonts break it, and plain mode is the fallback.
    # A title set in spaced letters is read as the word it spells (normalise.despace).
    try:
        return despace(normalize_text(page.extract_text(extraction_mode="layout") or ""))
    except (PyPdfError, ValueError, TypeError, KeyError, AttributeError, IndexError, ZeroDivisionError):
        log.debug("layout extraction failed on page %d; plain mode", number)
    return despace(normalize_text(page.extract_text() or ""))


def _add_text_layer_words(data: bytes, pages: list[Page]) -> None:
    """Word boxes of the text-layer pages through pdfplumber. Boxes only sharpen field finding:
    a file pdfminer cannot lay out keeps its pypdf text and is read without them."""
    wanted = {page.number: page for page in pages if page.method == "text" and page.text}
    if not wanted:
        return
    try:
        with warnings.catch_warnings(), pdfplumber.open(io.BytesIO(data)) as pdf:
            warnings.simplefilter("ignore")
            for number, page in wanted.items():
                page.words = words_from_pdfplumber_page(pdf.pages[number - 1], number)
    except Exception as exc:  # noqa: BLE001 - pdfminer fails in many ways on damaged files; text suffices
        log.info("no word boxes from the text layer: %s: %s", type(exc).__name__, str(exc)[:200])


def _largest_page_image(page, number: int, scans: "_ScanImages | None" = None):
    """The biggest raster image on a page (a scan), decoded, or None when the page has none."""
    try:
        resources = page.get("/Resources") or {}
        xobjects = resources.get_object().get("/XObject") if resources else None
    except (PyPdfError, AttributeError, KeyError):
        return None
    if not xobjects:
        return None
    best_name, best_area = None, 0
    for name, ref in xobjects.get_object().items():
        obj = ref.get_object()
        if obj.get("/Subtype") != "/Image":
            continue
        width, height = int(obj.get("/Width", 0)), int(obj.get("/Height", 0))
        check_pixels((width, height))  # before decoding, so a bomb is never inflated
        if width * height > best_area:
            best_name, best_area = name, width * height
    if best_name is None:
        return None
    width, height = (int(xobjects.get_object()[best_name].get_object().get(key, 0)) for key in ("/Width", "/Height"))
    decoded = scans.image(number, (width, height)) if scans is not None else None
    if decoded is not None:
        return decoded
    for image_file in page.images:
        if image_file.name.rsplit(".", 1)[0].lstrip("/") == best_name.lstrip("/"):
            return image_file.image
    return None


class _ScanImages:
    """Page images decoded by PDFium, in C: pypdf decodes ASCII85 in Python, which cost a
    scanned page 0.7 s, a fifth of Tesseract's own time. Any trouble and pypdf decodes instead."""

    def __init__(self, data: bytes):
        self.data = data
        self.document = None

    def image(self, number: int, size: tuple[int, int]):
        try:
            if self.document is None:
                self.document = pdfium.PdfDocument(self.data)
            page = self.document[number - 1]
            for found in page.get_objects(filter=[pdfium_c.FPDF_PAGEOBJ_IMAGE], max_depth=2):
                if tuple(found.get_px_size()) == size:
                    return found.get_bitmap(render=False).to_pil()
        except Exception as exc:  # noqa: BLE001 - PDFium's errors are many; pypdf decodes instead
            log.info("PDFium could not decode the image of page %d: %s: %s", number, type(exc).__name__, exc)
        return None

    def close(self) -> None:
        if self.document is not None:
            self.document.close()


def _attachments(reader: PdfReader) -> dict[str, bytes]:
    """Embedded files (ZUGFeRD/Factur-X XML rides in here); a broken catalogue yields none."""
    try:
        return {name: blobs[0] for name, blobs in reader.attachments.items() if blobs}
    except (PyPdfError, ValueError, TypeError, KeyError, AttributeError):
        return {}
