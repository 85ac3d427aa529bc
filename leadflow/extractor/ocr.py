"""Optical character recognition through the Tesseract binary (Debian tesseract-ocr, -deu, -eng)."""
import io
import logging
import os
import shutil
import subprocess

from leadflow.extractor.errors import InternalError, Unreadable

log = logging.getLogger(__name__)

LANGUAGES = "deu+eng"  # the brokerage's documents are German or English
OCR_TIMEOUT_SECONDS = 120  # a page takes a few seconds on one core; far more means something is wrong


def tesseract_path() -> str | None:
    return os.environ.get("TESSERACT_CMD") or shutil.which("tesseract")


def ocr_image(image) -> str:
    """Recognise the text of a PIL image; raise InternalError when Tesseract is missing or broken."""
    binary = tesseract_path()
    if not binary:
        raise InternalError("tesseract is not installed (Debian: tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng)")
    png = io.BytesIO()
    # Greyscale PNG: lossless, small, and a format every Tesseract build reads from stdin.
    image.convert("L").save(png, format="PNG")
    # One OpenMP thread per Tesseract: the pool already runs one job per core, and
    # oversubscribed OpenMP threads make every job slower.
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        done = subprocess.run([binary, "stdin", "stdout", "-l", LANGUAGES, "--psm", "3"],
                              input=png.getvalue(), capture_output=True,
                              timeout=OCR_TIMEOUT_SECONDS, env=env, check=False)
    except subprocess.TimeoutExpired:
        raise Unreadable(f"OCR took longer than {OCR_TIMEOUT_SECONDS} s on one page", retryable=True) from None
    except OSError as exc:
        raise InternalError(f"could not run tesseract: {exc}") from exc
    if done.returncode != 0:
        tail = done.stderr.decode("utf-8", "replace").strip()[-300:]
        raise Unreadable(f"OCR failed: {tail or 'tesseract exit code ' + str(done.returncode)}")
    return done.stdout.decode("utf-8", "replace")
