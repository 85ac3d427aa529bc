"""A packet's jobs in the extractor (issue 40): the split reads the file once and keeps its pages;
each document's job extracts from those pages what it would extract uploaded alone, and reads its
own pages again only when they were not kept. A packet's OCR budget is a packet's, not a document's."""
import io

import pytest
from pypdf import PdfReader, PdfWriter

from leadflow.extractor import packet_jobs, pipeline, reading
from leadflow.extractor.errors import TooLarge
from leadflow.extractor.service import validate_job
from tests.corpus import SAMPLES

FILES = ("payslips/synthetic_payslip_A1_01.pdf", "bank-statements/synthetic_bank_statement_A1_02.pdf",
         "tax/synthetic_tax_assessment_A1_01.pdf")


def joined(names=FILES) -> bytes:
    writer = PdfWriter()
    for name in names:
        for page in PdfReader(str(SAMPLES / name)).pages:
            writer.add_page(page)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


@pytest.fixture
def reads(monkeypatch):
    seen = []
    real = pipeline.read

    def counting(data, **limits):
        found = real(data, **limits)
        seen.append(len(found.pages))
        return found
    monkeypatch.setattr(pipeline, "read", counting)
    return seen


def here(function, *arguments):
    return function(*arguments)


def test_a_split_reads_the_packet_once_and_its_documents_take_their_pages_from_it(reads):
    data, cache = joined(), packet_jobs.PageCache()
    split = packet_jobs.run(data, "split", None, cache=cache, call=here)
    parts = [(p["first"], p["last"], p["document_type"], p["sure"]) for p in split["parts"]]
    assert parts == [(1, 1, "payslip", True), (2, 3, "bank_statement", True), (4, 6, "tax_assessment", True)]
    assert split["pages"] == 6 and len(cache) == 6
    for (first, last, kind, _), name in zip(parts, FILES):
        as_part = packet_jobs.run(data, "first", {"pages": [first, last]}, cache=cache, call=here)
        alone = pipeline.extract((SAMPLES / name).read_bytes())
        assert (as_part["document_type"], as_part["pages"]) == (kind, last - first + 1)
        assert as_part["content"]["fields"] == alone["content"]["fields"]
        assert as_part["content"].get("confirmed") == alone["content"].get("confirmed")
    # One reading of the packet (the split); the documents' own readings were the alone uploads'.
    assert reads[0] == 6 and reads[1:] == [1, 2, 3]


def test_a_document_whose_pages_were_not_kept_reads_only_its_own_pages(reads):
    data = joined()
    found = packet_jobs.run(data, "reprocess", {"pages": [2, 3]}, cache=packet_jobs.PageCache(), call=here)
    assert (found["document_type"], found["pages"], reads) == ("bank_statement", 2, [2])


def test_the_cache_forgets_the_oldest_pages_first_and_answers_only_whole_ranges():
    cache = packet_jobs.PageCache(max_pages=3)
    cache.put("a", [reading.Page(n, f"a{n}", "text") for n in (1, 2)])
    cache.put("b", [reading.Page(n, f"b{n}", "text") for n in (1, 2)])
    assert cache.get("a", 1, 2) is None and [p.text for p in cache.get("b", 1, 2)] == ["b1", "b2"]
    assert cache.get("a", 2, 2)[0].text == "a2"


def test_a_submission_names_its_pages_as_a_range_from_one():
    job = {"job_id": "j1", "document_url": "http://x/f", "callback_url": "http://x/c", "mode": "first"}
    assert validate_job({**job, "output_spec": {"pages": [2, 3]}}) is None
    assert validate_job({**job, "mode": "split"}) is None
    for pages in ([3, 2], [0, 1], [1], "1-2", [1, 1000], [1.0, 2]):
        assert "pages" in validate_job({**job, "output_spec": {"pages": pages}})


def test_a_packets_ocr_budget_is_a_packets_not_one_documents():
    scan = (SAMPLES / "bank-statements" / "synthetic_bank_statement_A1_02_scan.pdf").read_bytes()
    assert reading.MAX_OCR_PAGES == 20 and packet_jobs.MAX_PACKET_OCR_PAGES >= 100
    with pytest.raises(TooLarge):
        reading.read_document(scan, max_ocr_pages=1)
