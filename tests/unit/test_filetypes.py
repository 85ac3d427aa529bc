"""Files are recognised by their bytes."""
import pytest

from leadflow.domain.filetypes import UploadRefused, check

MB = 1024 * 1024


@pytest.mark.parametrize("name,head,expected", [
    ("a.pdf", b"%PDF-1.7\n", "application/pdf"),
    ("a.PNG", b"\x89PNG\r\n\x1a\n....", "image/png"),
    ("a.jpeg", b"\xff\xd8\xff\xe0", "image/jpeg"),
    ("camt.xml", b"\xef\xbb\xbf<?xml version='1.0'?>", "application/xml"),
    ("kontoauszug.sta", b":20:STARTUMS\r\n", "text/plain"),
])
def test_allowed_files_are_recognised_by_their_first_bytes(name, head, expected):
    assert check(name, head, 100, MB).content_type == expected


def test_a_pdf_name_on_other_bytes_is_refused_in_plain_words():
    with pytest.raises(UploadRefused) as refused:
        check("payslip.pdf", b"GIF89a....", 100, MB)
    assert refused.value.code == "content_mismatch"
    assert "not a PDF" in refused.value.message


def test_a_real_file_under_the_wrong_ending_is_refused():
    with pytest.raises(UploadRefused, match="named .pdf"):
        check("scan.pdf", b"\xff\xd8\xff\xe0", 100, MB)


def test_an_empty_file_and_a_file_over_the_limit_are_refused():
    with pytest.raises(UploadRefused, match="empty"):
        check("a.pdf", b"", 0, MB)
    with pytest.raises(UploadRefused) as refused:
        check("a.pdf", b"%PDF-", 3 * MB, 2 * MB)
    assert refused.value.code == "file_too_large"


def test_an_unknown_type_is_refused():
    with pytest.raises(UploadRefused) as refused:
        check("notes.docx", b"PK\x03\x04", 100, MB)
    assert refused.value.code == "unsupported_type"


@pytest.mark.parametrize("name,head", [("scan.tif", b"II*\x00\x08\x00\x00\x00"), ("scan.tiff", b"MM\x00*\x00\x00\x00\x08"),
                                       ("scan.pdf", b"II*\x00\x08\x00\x00\x00")])
def test_a_tiff_is_refused_at_upload_with_what_to_send_instead(name, head):
    # The extractor reads no TIFF: taken at upload, it could only fail later.
    with pytest.raises(UploadRefused) as refused:
        check(name, head, 100, MB)
    assert refused.value.code == "unsupported_type"
    assert "TIFF" in refused.value.message and "PDF" in refused.value.message
