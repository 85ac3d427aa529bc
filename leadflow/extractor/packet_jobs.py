"""A packet's jobs in the extractor (issue 40): its split, and its documents' extractions from the
pages the split read.

A split job (mode `split`) reads the packet's file once, with a packet's OCR budget
(MAX_PACKET_OCR_PAGES, not the one document's reading.MAX_OCR_PAGES), splits its pages
(packets.split) and answers with the parts. The service keeps every page's reading in a PageCache
keyed by the file's SHA-256 and the page's number. A job for a document of the packet (any mode,
with `output_spec.pages` [first, last]) fetches the same file, finds its pages in the cache and
extracts from them, so no page is OCR'd twice. A page the cache no longer holds (the service
restarted, the page was pushed out, a split waited long for a person) is read again from the
document's own pages alone, never the whole packet."""
import hashlib
import threading
from collections import OrderedDict
from dataclasses import replace


from leadflow import pdf_pages
from leadflow.extractor import classify as classifier
from leadflow.extractor import packets, pipeline, sniff
from leadflow.extractor.errors import Unreadable
from leadflow.extractor.reading import MAX_PAGES, Page, Reading

# LeadFlow's MAX_PACKET_PAGES (default 100) scanned pages may all need OCR; reading.MAX_PAGES
# bounds a PDF anyway. Deadlines: a 100-page scan takes minutes, and LeadFlow's deadline sweep
# extends the deadline of a job the service says is still running.
MAX_PACKET_OCR_PAGES = MAX_PAGES
# Pages kept for the documents of packets split lately: a few packets' worth (a page with its word
# boxes is some tens of kilobytes).
CACHED_PAGES = 2000


class PageCache:
    """Page readings by (file SHA-256, page number), the oldest forgotten first; thread-safe."""

    def __init__(self, max_pages: int = CACHED_PAGES):
        self._pages: OrderedDict[tuple[str, int], Page] = OrderedDict()
        self._lock = threading.Lock()
        self._max_pages = max_pages

    def put(self, digest: str, pages: list[Page]) -> None:
        with self._lock:
            for page in pages:
                self._pages[(digest, page.number)] = page
                self._pages.move_to_end((digest, page.number))
            while len(self._pages) > self._max_pages:
                self._pages.popitem(last=False)

    def get(self, digest: str, first: int, last: int) -> list[Page] | None:
        """Pages first..last of the file, or None unless every one of them is kept."""
        with self._lock:
            found = [self._pages.get((digest, number)) for number in range(first, last + 1)]
            if any(page is None for page in found):
                return None
            for number in range(first, last + 1):
                self._pages.move_to_end((digest, number))
            return found

    def __len__(self) -> int:
        with self._lock:
            return len(self._pages)


def run(data: bytes, mode: str, output_spec: dict | None, *, cache: PageCache, call) -> dict:
    """A job's callback `data`: a split, a packet's document (its pages), or a whole document.
    `call(function, *arguments)` runs a reading function, here or in a reading process."""
    if mode == "split":
        result, pages = call(split_packet, data)
        cache.put(digest(data), pages)
        return result
    wanted = page_range(output_spec)
    if wanted is None:
        return call(pipeline.extract, data, mode, output_spec)
    first, last = wanted
    return call(extract_part, data, first, last, cache.get(digest(data), first, last), mode, output_spec)


def split_packet(data: bytes) -> tuple[dict, list[Page]]:
    """Read a packet once and split it: the callback's data (`parts`) and the pages read, for the cache."""
    reading = pipeline.read(data, max_ocr_pages=MAX_PACKET_OCR_PAGES)
    parts = packets.split(reading.pages)
    result = {"pages": len(reading.pages), "document_type": classifier.UNKNOWN, "confidence": 0.0,
              "content": None, "schema": None, "error": None,
              "parts": [{"first": p.first, "last": p.last, "document_type": p.document_type,
                         "confidence": round(p.confidence, 3), "boundary_confidence": round(p.boundary_confidence, 3),
                         "sure": p.sure} for p in parts]}
    # Only a PDF's pages are kept: a photo is one page, and a bank's statement file is read as data.
    return result, (reading.pages if reading.format == sniff.PDF else [])


def extract_part(data: bytes, first: int, last: int, cached: list[Page] | None, mode: str,
                 output_spec: dict | None) -> dict:
    """A packet's document: its pages (`cached`, or read again from those pages alone), numbered
    from 1 as they would be uploaded alone, extracted as any document is."""
    if sniff.sniff(data) != sniff.PDF:
        return pipeline.extract(data, mode, output_spec)  # one page, or a statement file: the whole of it
    if cached is None:
        reading = pipeline.read(part_pdf(data, first, last), max_ocr_pages=MAX_PACKET_OCR_PAGES)
    else:
        reading = Reading(format=sniff.PDF, pages=[_renumbered(page, page.number - first + 1) for page in cached])
    return pipeline.extract_reading(reading, mode, output_spec)


def page_range(output_spec: dict | None) -> tuple[int, int] | None:
    """`output_spec.pages` as (first, last), or None for a whole document."""
    pages = (output_spec or {}).get("pages")
    if pages is None:
        return None
    return int(pages[0]), int(pages[1])


def valid_pages(pages) -> bool:
    """Whether a submission's `output_spec.pages` is [first, last], 1 <= first <= last <= MAX_PAGES."""
    return (isinstance(pages, list) and len(pages) == 2 and all(type(n) is int for n in pages)
            and 1 <= pages[0] <= pages[1] <= MAX_PAGES)


def part_pdf(data: bytes, first: int, last: int) -> bytes:
    """Pages first..last (from 1) of a PDF as a PDF of their own."""
    try:
        return pdf_pages.cut(data, first, last)
    except pdf_pages.PagesNotCut as exc:
        raise Unreadable(str(exc)) from exc


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _renumbered(page: Page, number: int) -> Page:
    return Page(number=number, text=page.text, method=page.method,
                words=[replace(word, page=number) for word in page.words])
