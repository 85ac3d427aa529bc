"""Packets drawn from the layout space: one PDF holding several documents, as an expat scans a whole
file at once, with the truth of where each document begins and ends and what it is.

    from bench.layout_space.packets import draw_packet, plan_packets
    packet = draw_packet(seed=7)   # 5-25 pages, 2-8 documents in shuffled order
    for seed in plan_packets(seed=42, packets=40): packet = draw_packet(seed)

Each document is drawn whole by bench.layout_space.draw (text PDF or scan), then their pages are
put one after the other with pypdf. The same seed always gives the same packet. Documents are
drawn independently, so each has its own person, issuer and period: a real applicant's file
names one person throughout, so the splitter must not (and does not) lean on a change of name.
"""
import io
import random
from dataclasses import dataclass

from pypdf import PdfReader, PdfWriter

from bench.layout_space import TYPES, Generated, draw
from leadflow import pdf_pages

MIN_PAGES, MAX_PAGES = 5, 25
MIN_DOCUMENTS, MAX_DOCUMENTS = 2, 8
# Types the space draws over more than one page (statements with carry-overs, an assessment's
# calculation page, a payslip's year-to-date page).
MULTI_PAGE_TYPES = ("bank_statement", "tax_assessment", "payslip")
MULTI_PAGE_SHARE = 0.35
SCAN_SHARE = 0.3
# The reader OCRs at most 20 pages of one PDF (reading.MAX_OCR_PAGES); a packet stays below it.
MAX_SCANNED_PAGES = 12
TRIES = 12  # seeds tried for a document of the wanted page count before taking what came


@dataclass(frozen=True)
class PacketDocument:
    """One document of a packet: where its pages stand (from 1, both ends included), and itself."""
    first: int
    last: int
    document: Generated

    @property
    def document_type(self) -> str:
        return self.document.document_type

    @property
    def pages(self) -> int:
        return self.last - self.first + 1


@dataclass(frozen=True)
class Packet:
    name: str
    seed: int
    data: bytes
    documents: tuple[PacketDocument, ...]

    @property
    def pages(self) -> int:
        return self.documents[-1].last

    @property
    def starts(self) -> frozenset:
        """Page numbers where a document begins, the first page apart: the boundaries to find."""
        return frozenset(d.first for d in self.documents[1:])


def plan_packets(seed: int, packets: int) -> list[int]:
    """One seed per packet, drawn from the run's seed: one number replays the whole run."""
    rng = random.Random(f"packets/{seed}")
    return [rng.randrange(10 ** 9) for _ in range(packets)]


def draw_packet(seed: int, scan_share: float = SCAN_SHARE) -> Packet:
    rng = random.Random(f"packet/{seed}")
    wanted = rng.randint(MIN_DOCUMENTS, MAX_DOCUMENTS)
    documents: list[Generated] = []
    scanned = 0
    for _ in range(wanted):
        multi = rng.random() < MULTI_PAGE_SHARE
        rendering = "scan_pdf" if rng.random() < scan_share else "text_pdf"
        doc = _document(rng, multi, rendering, room_for_scans=MAX_SCANNED_PAGES - scanned)
        scanned += _pages(doc) if doc.rendering == "scan_pdf" else 0
        documents.append(doc)
    # Too few pages: the shortest document becomes a longer one, until the packet has enough.
    for _ in range(TRIES):
        if sum(map(_pages, documents)) >= MIN_PAGES:
            break
        shortest = min(range(len(documents)), key=lambda i: _pages(documents[i]))
        documents[shortest] = _document(rng, True, "text_pdf", room_for_scans=0, at_least=3)
    while sum(map(_pages, documents)) > MAX_PAGES and len(documents) > MIN_DOCUMENTS:
        documents.pop()
    rng.shuffle(documents)
    writer = PdfWriter()
    placed, page = [], 1
    for doc in documents:
        reader = PdfReader(io.BytesIO(doc.data))
        for sheet in reader.pages:
            writer.add_page(sheet)
        placed.append(PacketDocument(page, page + len(reader.pages) - 1, doc))
        page += len(reader.pages)
    out = io.BytesIO()
    writer.write(out)
    return Packet(f"packet_s{seed}", seed, out.getvalue(), tuple(placed))


def part_pdf(data: bytes, first: int, last: int) -> bytes:
    """Pages first..last (from 1) of a PDF as a PDF of their own: what a child document would hold."""
    return pdf_pages.cut(data, first, last)


def _document(rng: random.Random, multi: bool, rendering: str, room_for_scans: int, at_least: int = 2) -> Generated:
    """A document of a random type (a multi-page one when asked), as a scan only while scans have room."""
    kind = rng.choice(MULTI_PAGE_TYPES if multi else TYPES)
    for _ in range(TRIES if multi else 1):
        seed = rng.randrange(10 ** 9)
        doc = draw(kind, seed, "text_pdf")
        if not multi or _pages(doc) >= at_least:
            break
    if rendering == "scan_pdf" and _pages(doc) <= room_for_scans:
        doc = draw(kind, seed, "scan_pdf")  # the same document, captured as a scanner would
    return doc


def _pages(doc: Generated) -> int:
    return len(PdfReader(io.BytesIO(doc.data)).pages)
