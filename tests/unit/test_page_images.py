"""Pictures of an upload's pages (issue 40): drawn once at a fixed width and kept beside the file; a
page that is not there, a size not offered or a file that is no PDF draws nothing."""
import io
import threading

import pytest
from PIL import Image

from leadflow.services import page_images
from tests.corpus import SAMPLES
from tests.unit.fakes import FakeStorage

PDF = (SAMPLES / "tax" / "synthetic_tax_assessment_A1_01.pdf").read_bytes()   # three pages
KEY = "brokerages/1/documents/p1/original/scans.pdf"


def draw(storage, page, size="small", content_type="application/pdf", pages=3):
    return page_images.page_image(storage, brokerage_id=1, file_owner_id="p1", storage_key=KEY,
                                  content_type=content_type, page=page, pages=pages, size=size)


def test_a_page_is_drawn_once_at_its_width_and_kept_beside_the_file():
    storage = FakeStorage()
    storage.put(KEY, PDF, "application/pdf")
    first = draw(storage, 2)
    image = Image.open(io.BytesIO(first))
    assert image.format == "PNG" and image.width == page_images.WIDTHS["small"] * page_images.SCALE
    assert image.height > image.width, "a portrait page stays portrait"
    assert storage.objects[page_images.key(1, "p1", 2, "small")][1] == "image/png"
    storage.calls.clear()
    assert draw(storage, 2) == first and storage.calls == ["get"], "the kept picture, not the file"
    assert page_images.key(1, "p1", 2, "small") in page_images.keys(1, "p1", 3)


def test_a_photo_is_its_one_page():
    storage = FakeStorage()
    photo = SAMPLES / "tax" / "synthetic_tax_assessment_A1_01_scan_p1.jpg"
    storage.put(KEY, photo.read_bytes(), "image/jpeg")
    assert Image.open(io.BytesIO(draw(storage, 1, "large", "image/jpeg", 1))).width == 480
    with pytest.raises(page_images.NoSuchPage):
        draw(storage, 2, "large", "image/jpeg", None)


@pytest.mark.parametrize("page, size, pages", [(0, "small", 3), (4, "small", 3), (4, "small", None), (1, "huge", 3)])
def test_no_such_page_or_size_draws_nothing(page, size, pages):
    storage = FakeStorage()
    storage.put(KEY, PDF, "application/pdf")
    with pytest.raises(page_images.NoSuchPage):
        draw(storage, page, size, pages=pages)
    assert [k for k in storage.objects if "/pages/" in k] == []


def test_a_file_that_is_no_pdf_or_is_gone_draws_nothing():
    storage = FakeStorage()
    with pytest.raises(page_images.NoSuchPage):
        draw(storage, 1)
    storage.put(KEY, b"%PDF-1.7 not really", "application/pdf")
    with pytest.raises(page_images.NoSuchPage):
        draw(storage, 1)


def test_pages_drawn_in_parallel_threads_all_come_out_whole():
    # PDFium is not thread-safe: the drawings take turns (page_images._PDFIUM).
    storage = FakeStorage()
    storage.put(KEY, PDF, "application/pdf")
    drawn = {}

    def one(page):
        drawn[page] = page_images.draw(PDF, "application/pdf", page, 200)
    threads = [threading.Thread(target=one, args=(1 + n % 3,)) for n in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(drawn) == [1, 2, 3] and all(Image.open(io.BytesIO(png)).width == 200 for png in drawn.values())
