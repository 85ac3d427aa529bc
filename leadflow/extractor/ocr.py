"""Optical character recognition through the Tesseract binary (Debian tesseract-ocr, -deu, -eng)."""
import hashlib
import logging
import os
import shutil
import subprocess
import tempfile
import threading
from contextlib import nullcontext
from dataclasses import dataclass

from PIL import Image, ImageChops, ImageDraw, ImageFilter

from leadflow.extractor.errors import InternalError, Unreadable

log = logging.getLogger(__name__)

LANGUAGES = "deu+eng"  # the brokerage's documents are German or English
PSM = 3  # Tesseract's page segmentation: find the blocks and columns of a page itself
SINGLE_BLOCK = 6  # ... or read the page as one block of lines (a till slip's one column)
OCR_TIMEOUT_SECONDS = 120  # a page takes a few seconds on one core; far more means something is wrong
BACKGROUND_CELL = 16  # pixels per cell of the paper's brightness map: larger than any character's stroke
UNEVEN = 0.75  # the darkest paper under this share of the brightest: a desk in the picture, or a lamp's falloff


def tesseract_path() -> str | None:
    return os.environ.get("TESSERACT_CMD") or shutil.which("tesseract")


@dataclass
class OcrPage:
    """What one Tesseract run saw on a page: its plain text and its words with boxes."""
    text: str
    tsv: str

    def words(self, number: int):
        from leadflow.extractor.layout import words_from_tsv
        return words_from_tsv(self.tsv, number)


def ocr_image(image) -> str:
    """Recognise the text of a PIL image; raise InternalError when Tesseract is missing or broken."""
    return ocr_page(image).text


def ocr_page(image, psm: int = PSM, flatten: bool = False) -> OcrPage:
    """Text and word boxes of a PIL image from ONE Tesseract run: the `txt` and `tsv` renderers
    write side by side, so the boxes cost no second recognition pass. Inside `pages_in_parallel`
    the page is answered from the runs started ahead (or, rehearsing, started now)."""
    plan = getattr(_plan, "current", None)
    if plan is not None:
        return plan.answer(image, psm, flatten)
    return recognise(image, psm, flatten)


def recognise(image, psm: int = PSM, flatten: bool = False) -> OcrPage:
    """One Tesseract run on the image, in one of the shared slots when the service set them."""
    binary = tesseract_path()
    if not binary:
        raise InternalError("tesseract is not installed (Debian: tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng)")
    # Flattening is for a till slip's second reading only: on payslip photos it cost the figures.
    image = flattened(image.convert("L")) if flatten else image.convert("L")
    # One OpenMP thread per Tesseract: the pool already runs one job per core, and
    # oversubscribed OpenMP threads make every job slower.
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    with tempfile.TemporaryDirectory(prefix="leadflow-ocr-") as workdir:
        base = os.path.join(workdir, "page")
        # Greyscale PGM: lossless and written in milliseconds; PNG's compression took up to a fifth
        # of Tesseract's own time on an A4 scan. Handed over as a file: Tesseract took 0.15-0.2 s
        # longer per A4 page to take the same bytes from stdin.
        try:
            image.save(base + ".pgm", format="PPM")
        except OSError as exc:
            raise InternalError(f"could not write the page image for OCR: {exc}") from exc
        try:
            with _slots or nullcontext():
                done = subprocess.run([binary, base + ".pgm", base, "-l", LANGUAGES, "--psm", str(psm), "txt", "tsv"],
                                      capture_output=True, stdin=subprocess.DEVNULL,
                                      timeout=OCR_TIMEOUT_SECONDS, env=env, check=False)
        except subprocess.TimeoutExpired:
            raise Unreadable(f"OCR took longer than {OCR_TIMEOUT_SECONDS} s on one page", retryable=True) from None
        except OSError as exc:
            raise InternalError(f"could not run tesseract: {exc}") from exc
        if done.returncode != 0:
            tail = done.stderr.decode("utf-8", "replace").strip()[-300:]
            raise Unreadable(f"OCR failed: {tail or 'tesseract exit code ' + str(done.returncode)}")
        return OcrPage(text=_read(base + ".txt"), tsv=_read(base + ".tsv"))


def flattened(grey):
    """A greyscale page with its paper made evenly white, when it is not: a phone photo's dark
    desk, a lamp's falloff or a scanner's shadow made Tesseract's binarisation take part of the
    page for ink, and its page layout drop whole text regions (a payslip's every figure, a till
    slip's price column) as pictures. The paper's brightness is the brightest ink-free value
    around each cell; the page is set against it. A scan's even paper is handed over unchanged
    (and unpaid)."""
    small = grey.resize((max(1, grey.width // BACKGROUND_CELL), max(1, grey.height // BACKGROUND_CELL)), Image.BOX)
    # Characters are thinner than a cell: the brightest cell near any point is its paper.
    paper = small.filter(ImageFilter.MaxFilter(5))
    brightest = paper.getextrema()[1]
    # Only a picture whose border is dark (a desk, a lamp's falloff) is flattened: a dark box
    # inside a page is print, and its white lettering would be lost against the box as "paper".
    w, h = paper.size
    border = [paper.crop(box).getextrema()[0] for box in ((0, 0, w, 1), (0, h - 1, w, h), (0, 0, 1, h), (w - 1, 0, w, h))]
    if brightest == 0 or min(border) >= UNEVEN * brightest:
        return grey
    evened = ImageChops.invert(ImageChops.subtract(paper.filter(ImageFilter.GaussianBlur(2)).resize(grey.size,
                                                                                                 Image.BILINEAR), grey))
    desk = _desk(small, brightest)
    return evened if desk is None else ImageChops.lighter(evened, desk.resize(grey.size, Image.NEAREST))


def _desk(small, brightest: int):
    """The desk round a photographed sheet, white on black in cells (None when the picture's edge
    is paper): the dark cells joined to the picture's edge. Evened against the sheet's brightness
    spread over it, the desk left a dark frame round the page, which Tesseract took for a picture
    holding the text; as paper it is no frame. A dark box inside the page is not joined to the edge."""
    w, h = small.size
    edge = [(x, 0) for x in range(w)] + [(x, h - 1) for x in range(w)] + [(0, y) for y in range(h)] + \
        [(w - 1, y) for y in range(h)]
    levels = sorted(small.getpixel(point) for point in edge)
    desk_level = levels[len(levels) // 2]
    if desk_level >= UNEVEN * brightest:
        return None  # the edge is mostly paper: a lamp's falloff or a shadow, no desk
    threshold = (desk_level + brightest) / 2
    mask = small.point(lambda v: 255 if v > threshold else 0)
    for point in edge:
        if mask.getpixel(point) == 0:
            ImageDraw.floodfill(mask, point, DESK)
    # One cell more: the sheet's edge, half desk, half paper.
    return mask.point(lambda v: 255 if v == DESK else 0).filter(ImageFilter.MaxFilter(3))


DESK = 128


def _read(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return ""


# --- a document's pages on every core ------------------------------------------------------------
#
# The readers (reading.py) OCR a document's pages one after another, each page's reading deciding
# what to do next. To run the pages at once without changing them, a scan is read twice (after a
# first reading that stops at its first page to OCR, which is all a text PDF needs): a rehearsal, in which every page asked for is handed to a Tesseract run of its own (started
# there and then) and answered with a stand-in, then the reading proper, in which each page is
# answered from its run. Pages are known by their pixels, so the reading proper may ask in any
# order; a page the rehearsal did not foresee (a till slip's second reading) is run there.

# Tesseract runs at once in the whole service (a semaphore its reading processes share): one per
# core, so that a document's pages and other documents' pages share the cores, not oversubscribe them.
_slots = None
_plan = threading.local()
# What a rehearsal answers: prose enough that no reader looks further into the page (a second
# reading of a till slip, a search for a passport zone), which would only cost the rehearsal time.
STAND_IN = OcrPage(text=" ".join(["Seite"] * 100) + "\n", tsv="")


def share_slots(semaphore) -> None:
    """Let at most the semaphore's count of Tesseract runs go at once (None: no limit)."""
    global _slots
    _slots = semaphore


def pages_in_parallel(read, pool):
    """`read()` (a document's reading) with its pages' OCR run at once on `pool` (an executor);
    returns what `read()` returns. Whatever the rehearsal raises, the reading proper raises again.
    A document with no page to OCR (a PDF's text layer) is read once: the first reading stops
    at the first page to OCR, and only then come the rehearsal and the reading proper."""
    _plan.current = _Probe()
    try:
        return read()
    except _NeedsOcr:
        pass
    finally:
        _plan.current = None
    rehearsal = _Rehearsal(pool)
    _plan.current = rehearsal
    try:
        read()
    except Exception:  # noqa: BLE001 - the reading proper meets the same problem and reports it
        pass
    finally:
        _plan.current = None
    _plan.current = _Answers(rehearsal.runs)
    try:
        return read()
    finally:
        _plan.current = None
        for run in rehearsal.runs.values():
            run.cancel()


def _page_key(image, psm: int, flatten: bool) -> tuple:
    return image.mode, image.size, psm, flatten, hashlib.blake2b(image.tobytes(), digest_size=16).digest()


class _NeedsOcr(BaseException):
    """Raised through the readers (a BaseException: no reader's `except` takes it for damage)."""


class _Probe:
    def answer(self, image, psm: int, flatten: bool) -> OcrPage:
        raise _NeedsOcr()


class _Rehearsal:
    def __init__(self, pool):
        self.pool = pool
        self.runs = {}

    def answer(self, image, psm: int, flatten: bool) -> OcrPage:
        key = _page_key(image, psm, flatten)
        if key not in self.runs:
            # A copy: the page's picture may be a view of a PDF the rehearsal closes.
            self.runs[key] = self.pool.submit(recognise, image.copy(), psm, flatten)
        return STAND_IN


class _Answers:
    def __init__(self, runs: dict):
        self.runs = runs

    def answer(self, image, psm: int, flatten: bool) -> OcrPage:
        run = self.runs.get(_page_key(image, psm, flatten))
        return run.result() if run is not None else recognise(image, psm, flatten)
