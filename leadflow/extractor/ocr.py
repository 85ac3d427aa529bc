"""Optical character recognition through the Tesseract binary (Debian tesseract-ocr, -deu, -eng)."""
import io
import logging
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from leadflow.extractor.errors import InternalError, Unreadable

log = logging.getLogger(__name__)

LANGUAGES = "deu+eng"  # the brokerage's documents are German or English
OCR_TIMEOUT_SECONDS = 120  # a page takes a few seconds on one core; far more means something is wrong


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


def ocr_page(image) -> OcrPage:
    """Text and word boxes of a PIL image from ONE Tesseract run: the `txt` and `tsv` renderers
    write side by side, so the boxes cost no second recognition pass."""
    binary = tesseract_path()
    if not binary:
        raise InternalError("tesseract is not installed (Debian: tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng)")
    pgm = io.BytesIO()
    # Greyscale PGM: lossless and written in milliseconds; PNG's compression took up to a fifth
    # of Tesseract's own time on an A4 scan. Leptonica reads it from stdin like any format.
    image.convert("L").save(pgm, format="PPM")
    # One OpenMP thread per Tesseract: the pool already runs one job per core, and
    # oversubscribed OpenMP threads make every job slower.
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    with tempfile.TemporaryDirectory(prefix="leadflow-ocr-") as workdir:
        base = os.path.join(workdir, "page")
        try:
            done = subprocess.run([binary, "stdin", base, "-l", LANGUAGES, "--psm", "3", "txt", "tsv"],
                                  input=pgm.getvalue(), capture_output=True,
                                  timeout=OCR_TIMEOUT_SECONDS, env=env, check=False)
        except subprocess.TimeoutExpired:
            raise Unreadable(f"OCR took longer than {OCR_TIMEOUT_SECONDS} s on one page", retryable=True) from None
        except OSError as exc:
            raise InternalError(f"could not run tesseract: {exc}") from exc
        if done.returncode != 0:
            tail = done.stderr.decode("utf-8", "replace").strip()[-300:]
            raise Unreadable(f"OCR failed: {tail or 'tesseract exit code ' + str(done.returncode)}")
        return OcrPage(text=_read(base + ".txt"), tsv=_read(base + ".tsv"))


def _read(path: str) -> str:
    try:
        with open(path, "rb") as handle:
            return handle.read().decode("utf-8", "replace")
    except FileNotFoundError:
        return ""
