"""Which files we take, recognised by their bytes (magic numbers), never by the client's word."""
from dataclasses import dataclass

# content type -> file name endings a client may use for it
ALLOWED = {
    "application/pdf": (".pdf",),
    "image/png": (".png",),
    "image/jpeg": (".jpg", ".jpeg"),
    "application/xml": (".xml",),            # CAMT.053 bank statements, XRechnung
    "text/plain": (".sta", ".mt940", ".txt"),  # MT940 bank statements
}
# Types we recognise but do not take, with what to send instead. The extractor reads no TIFF
# (leadflow.extractor.reading), so one taken at upload would only fail later.
REFUSED = {
    "image/tiff": "TIFF scans cannot be read. Please upload the scan as a PDF, or as a JPEG or PNG photo.",
}
SNIFF_BYTES = 512


class UploadRefused(Exception):
    """The file cannot be accepted; `message` says why in words a client understands."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class FileCheck:
    content_type: str


def sniff(head: bytes) -> str | None:
    """The content type the first bytes show, or None."""
    if head.startswith(b"%PDF-"):
        return "application/pdf"
    if head.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if head.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if head.startswith((b"II*\x00", b"MM\x00*")):
        return "image/tiff"
    stripped = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if stripped.startswith(b"<?xml") or stripped.startswith(b"<Document"):
        return "application/xml"
    if stripped.startswith((b":20:", b"{1:", b":940:")):
        return "text/plain"
    return None


def check(filename: str, head: bytes, size: int, max_bytes: int) -> FileCheck:
    """Accept or refuse an upload by its name, first bytes and size."""
    if size <= 0:
        raise UploadRefused("empty_file", "The file is empty.")
    if size > max_bytes:
        raise UploadRefused("file_too_large",
                            f"The file is {size / 1048576:.1f} MB; the limit is {max_bytes / 1048576:.0f} MB.")
    ending = "." + filename.rsplit(".", 1)[-1].lower() if "." in filename else ""
    detected = sniff(head)
    if detected is None:
        expected = next((t for t, endings in ALLOWED.items() if ending in endings), None)
        if expected == "application/pdf":
            raise UploadRefused("content_mismatch",
                                "This file is named .pdf but is not a PDF. Please upload the original PDF.")
        raise UploadRefused("unsupported_type",
                            "This file type is not supported. Please upload a PDF, a JPEG or PNG photo, or a bank statement as CAMT XML or MT940.")
    if detected in REFUSED:
        raise UploadRefused("unsupported_type", REFUSED[detected])
    if ending and ending not in ALLOWED[detected]:
        raise UploadRefused("content_mismatch",
                            f"This file is named {ending} but its content is {detected}. Please upload the original file.")
    return FileCheck(content_type=detected)
