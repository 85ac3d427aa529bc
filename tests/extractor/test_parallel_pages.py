"""A scanned PDF's pages read at once: the same reading as one after another, and the service's
back-pressure (503 busy) still counted in documents while their pages are read in parallel."""
import threading

import pytest
import requests

from bench.ocr_parallel import multi_page_scan
from leadflow.extractor import ocr, pipeline
from leadflow.extractor.service import multiprocessing, start_in_thread
from tests.extractor.conftest import API_KEY, SECRET, requires_tesseract

AUTH = {"Authorization": f"Bearer {API_KEY}"}


@pytest.fixture(scope="module")
def scan():
    return multi_page_scan(3, seed=7)


@pytest.fixture
def pages_at_once():
    pipeline.read_pages_at_once(2, multiprocessing.get_context("spawn").BoundedSemaphore(2))
    yield
    pipeline.read_pages_at_once(1)


@requires_tesseract
def test_a_multi_page_scan_reads_the_same_with_its_pages_at_once(scan, pages_at_once, monkeypatch):
    at_once_threads = set()
    recognise = ocr.recognise

    def noting(image, *args):
        at_once_threads.add(threading.current_thread().name)
        return recognise(image, *args)

    monkeypatch.setattr(ocr, "recognise", noting)
    at_once = pipeline.extract(scan)
    assert all(name.startswith("extractor-page") for name in at_once_threads), "the pages ran on the page pool"
    pipeline.read_pages_at_once(1)
    one_by_one = pipeline.extract(scan)
    assert at_once == one_by_one
    assert one_by_one["pages"] == 3 and "Seite 3 von 3" in one_by_one["content"]["text"]


def test_a_rehearsal_runs_each_page_once_and_the_reading_proper_takes_their_answers_in_any_order():
    from concurrent.futures import ThreadPoolExecutor

    from PIL import Image
    pages = [Image.new("L", (40, 40), shade) for shade in (10, 200, 10)]   # pages 1 and 3 look alike
    runs = []

    def read():
        return [ocr.ocr_page(page).text for page in pages]

    def fake_recognise(image, psm=ocr.PSM, flatten=False):
        runs.append(image.getpixel((0, 0)))
        return ocr.OcrPage(text=f"shade {image.getpixel((0, 0))}", tsv="")

    original, ocr.recognise = ocr.recognise, fake_recognise
    try:
        with ThreadPoolExecutor(2) as pool:
            assert ocr.pages_in_parallel(read, pool) == ["shade 10", "shade 200", "shade 10"]
            assert sorted(runs) == [10, 200], "one run per distinct page, none in the reading proper"
            assert ocr.pages_in_parallel(lambda: read()[::-1], pool) == ["shade 10", "shade 200", "shade 10"]
    finally:
        ocr.recognise = original


def test_a_document_with_no_page_to_ocr_is_read_once(pages_at_once, monkeypatch):
    from bench.synthetic import generate
    text_pdf = generate("payslip", "L1", 1).data
    readings = []
    original = pipeline.read_document

    def counting(data):
        readings.append(1)
        return original(data)

    monkeypatch.setattr(pipeline, "read_document", counting)
    assert pipeline.extract(text_pdf)["document_type"] == "payslip"
    assert len(readings) == 1, "a text PDF pays for no rehearsal"


@requires_tesseract
def test_a_full_service_answers_busy_while_a_scans_pages_are_read_at_once(scan, receiver, monkeypatch):
    from leadflow.extractor import service as extractor_service
    running = start_in_thread(API_KEY, SECRET, workers=2, processes=2, page_readers=2)
    monkeypatch.setattr(extractor_service, "MAX_BACKLOG", 1)   # one document at a time, whatever its pages
    try:
        def submit(job_id, url):
            return requests.post(f"{running.url}/jobs", headers=AUTH, timeout=10, json={
                "job_id": job_id, "document_url": url, "callback_url": receiver.callback_url, "mode": "first"})
        assert submit("scan-1", receiver.add("scan.pdf", scan)).status_code == 202
        busy = submit("scan-2", receiver.add("other.pdf", scan))
        assert busy.status_code == 503 and busy.json()["error"]["code"] == "busy"
        assert busy.headers["Retry-After"] == "1"
        callback = receiver.callback_for("scan-1", timeout=120)
        assert callback["type"] == "job.completed" and callback["data"]["pages"] == 3
        assert submit("scan-2", receiver.add("other.pdf", scan)).status_code == 202, "taken once the first is done"
        assert receiver.callback_for("scan-2", timeout=120)["data"]["pages"] == 3
    finally:
        running.stop()


@requires_tesseract
def test_a_reader_killed_while_its_pages_hold_every_slot_leaves_none_taken(scan, receiver):
    import os
    import signal

    from tests.plugins.live import wait_until
    running = start_in_thread(API_KEY, SECRET, workers=1, processes=1, page_readers=2)
    try:
        def submit(job_id, url):
            return requests.post(f"{running.url}/jobs", headers=AUTH, timeout=10, json={
                "job_id": job_id, "document_url": url, "callback_url": receiver.callback_url, "mode": "first"})
        assert submit("held", receiver.add("held.pdf", scan)).status_code == 202
        readers = running.service.readers
        wait_until(lambda: readers.slots.get_value() == 0, timeout=60)   # two of its pages are being read
        [reader] = readers._pool._processes.values()
        os.kill(reader.pid, signal.SIGKILL)
        failed = receiver.callback_for("held", timeout=60)
        assert failed["type"] == "job.failed" and failed["data"]["error"]["code"] == "internal_error"
        assert submit("next", receiver.add("next.pdf", scan)).status_code == 202
        done = receiver.callback_for("next", timeout=120)
        assert done["type"] == "job.completed" and done["data"]["pages"] == 3
    finally:
        running.stop()
