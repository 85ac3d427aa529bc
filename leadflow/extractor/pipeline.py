"""One job's work as plain functions: bytes in, the callback's `type` and `data` out."""
import logging
from concurrent.futures import ThreadPoolExecutor

from leadflow.extractor import classify as classifier
from leadflow.extractor import ocr, sniff
from leadflow.extractor.confirm import confirmed
from leadflow.extractor.content import build_content, build_schema, select_fields
from leadflow.extractor.errors import ExtractionError, InternalError
from leadflow.extractor.fields import read_fields
from leadflow.extractor.reading import read_document

log = logging.getLogger(__name__)

COMPLETED, FAILED = "job.completed", "job.failed"
# `split`: a packet's pages read once and split into the documents they hold (packet_jobs.py).
MODES = ("first", "reprocess", "customise", "split")
STRUCTURED_CONFIDENCE = 0.99
# Threads that start a PDF's page OCR runs ahead of its reading (Tesseract is a process of its
# own, so threads suffice); None: the pages are read one after another.
_page_pool: ThreadPoolExecutor | None = None


def read_pages_at_once(threads: int, slots=None) -> None:
    """Read a scanned PDF's pages `threads` at a time (1: one after another), with at most
    `slots` (a semaphore, shared by the service's reading processes) Tesseract runs at once."""
    global _page_pool
    ocr.share_slots(slots)
    if _page_pool is not None:
        _page_pool.shutdown(wait=False)
    _page_pool = ThreadPoolExecutor(threads, thread_name_prefix="extractor-page") if threads > 1 else None


def read(data: bytes, **limits):
    """The document's reading, its scanned pages OCR'd at once when so configured (a PDF only: an
    image is one page). `limits`: read_document's (a packet's OCR budget)."""
    if _page_pool is not None and sniff.sniff(data) == sniff.PDF:
        return ocr.pages_in_parallel(lambda: read_document(data, **limits), _page_pool)
    return read_document(data, **limits)


def extract(data: bytes, mode: str = "first", output_spec: dict | None = None) -> dict:
    """The callback `data` of a completed job; raise ExtractionError when there is none."""
    return extract_reading(read(data), mode, output_spec)


def extract_reading(reading, mode: str = "first", output_spec: dict | None = None) -> dict:
    """`extract` on pages read already (a packet's document reads the pages its split read)."""
    decided = (output_spec or {}).get("document_type")
    if decided in classifier.DOCUMENT_TYPES:
        # A person has said what the document is: read that type's fields, no guessing.
        document_type, confidence = decided, 1.0
    elif reading.structured:
        # A camt.053 or MT940 file says what it is by its format; no guessing from words.
        document_type, confidence = reading.structured["document_type"], STRUCTURED_CONFIDENCE
    else:
        document_type, confidence = classifier.classify(reading.text)
    found = read_fields(document_type, reading)
    fields, field_schemas = found.fields, found.schemas
    sure = confirmed(document_type, fields, found.confidence, reading.text, bool(reading.structured))
    if mode == "customise" and output_spec and isinstance(output_spec.get("fields"), list):
        fields, field_schemas = select_fields(fields, field_schemas, output_spec["fields"])
    return {
        "pages": len(reading.pages),
        "document_type": document_type,
        "confidence": confidence,
        "content": build_content(reading, fields, found.confidence, found.evidence, sure),
        "schema": build_schema(document_type, field_schemas),
        "error": None,
    }


def run(fetch, document_url: str, mode: str, output_spec: dict | None, *, extractor=extract) -> tuple[str, dict]:
    """Fetch and extract (with `extractor`, `extract`'s signature: the service may run it in
    another process); every outcome, a bug included, becomes a (type, data) pair."""
    try:
        return COMPLETED, extractor(fetch(document_url), mode, output_spec)
    except ExtractionError as exc:
        log.info("job failed: %s: %s", exc.code, exc.message)
        return FAILED, failed_data(exc)
    except Exception as exc:  # noqa: BLE001 - a bug must still reach LeadFlow as job.failed
        log.exception("extraction crashed")
        return FAILED, failed_data(InternalError(f"extraction crashed: {type(exc).__name__}"))


def failed_data(error: ExtractionError) -> dict:
    return {"pages": None, "document_type": classifier.UNKNOWN, "confidence": 0.0,
            "content": None, "schema": None, "error": error.as_wire()}
