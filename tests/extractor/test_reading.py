"""Reading bytes into pages and the failures that carry wire codes, without a server."""
import io

import pytest
from PIL import Image

from leadflow.extractor.errors import TooLarge, Unreadable, UnsupportedType
from leadflow.extractor.reading import MAX_PIXELS, normalize_text, open_image, read_document
from leadflow.extractor.sniff import sniff
from tests.extractor.conftest import requires_tesseract, sample


def test_formats_are_told_by_magic_bytes_not_names():
    assert sniff(b"%PDF-1.7\n...") == "pdf"
    assert sniff(b"\x00\x00junk%PDF-1.4") == "pdf"
    assert sniff(b"\x89PNG\r\n\x1a\n....") == "png"
    assert sniff(b"\xff\xd8\xff\xe0....") == "jpeg"
    assert sniff(b"GIF89a") is None
    assert sniff(b"") is None


def test_a_text_pdf_reads_every_page_from_its_text_layer():
    reading = read_document(sample("tax/synthetic_tax_assessment_A1_01.pdf").read_bytes())
    assert [p.number for p in reading.pages] == [1, 2, 3]
    assert all(p.method == "text" and len(p.text) > 500 for p in reading.pages)


def test_embedded_e_invoice_xml_is_kept_as_an_attachment():
    reading = read_document(sample("invoices/mustang_EN16931_Einfach.pdf").read_bytes())
    assert "factur-x.xml" in reading.attachments


@requires_tesseract
def test_a_scanned_pdf_page_is_read_through_ocr():
    reading = read_document(sample("payslips/synthetic_payslip_A1_01_scan.pdf").read_bytes())
    assert len(reading.pages) == 1
    assert reading.pages[0].method == "ocr"
    assert "Mustermann" in reading.text


@pytest.mark.parametrize("relative, error", [
    ("malformed/qpdf_issue-146.pdf", Unreadable),
    ("malformed/qpdf_broken-lzw.pdf", Unreadable),
    ("malformed/pypdf_encrypted-file.pdf", Unreadable),
    ("malformed/qpdf_bad1.pdf", UnsupportedType),
    ("malformed/qpdf_issue-147.pdf", UnsupportedType),
    ("malformed/pillow_decompression_bomb.gif", UnsupportedType),
    ("malformed/pillow_oom-225817ca0f8c663be7ab4b9e717b02c661e66834.tif", UnsupportedType),
])
def test_malformed_samples_fail_with_a_code(relative, error):
    with pytest.raises(error):
        read_document(sample(relative).read_bytes())


def test_a_damaged_but_recoverable_pdf_is_read_leniently():
    reading = read_document(sample("malformed/pypdf_issue-297.pdf").read_bytes())
    assert "test example" in reading.text


def test_an_image_over_the_pixel_limit_is_refused_before_decoding():
    side = int(MAX_PIXELS ** 0.5) + 10
    buffer = io.BytesIO()
    Image.new("1", (side, side)).save(buffer, format="PNG")  # 1-bit: small file, many pixels
    with pytest.raises(TooLarge):
        open_image(buffer.getvalue())


def test_a_truncated_jpeg_is_unreadable():
    buffer = io.BytesIO()
    Image.new("RGB", (300, 200), "white").save(buffer, format="JPEG")
    with pytest.raises(Unreadable):
        open_image(buffer.getvalue()[:200])


def test_normalized_text_keeps_column_gaps_and_drops_blank_runs():
    assert normalize_text("a      b  \n\n\n\nc\r\n") == "a  b\n\nc"
