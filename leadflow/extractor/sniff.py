"""Telling a document's format from its first bytes, never from a name or a Content-Type."""

PDF, PNG, JPEG = "pdf", "png", "jpeg"

# A PDF header may sit after a little junk (readers accept it within the first KiB).
PDF_HEADER_WINDOW = 1024


def sniff(data: bytes) -> str | None:
    """Return the format this service reads the bytes as, or None when it reads none."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return PNG
    if data.startswith(b"\xff\xd8\xff"):
        return JPEG
    if b"%PDF-" in data[:PDF_HEADER_WINDOW]:
        return PDF
    return None
