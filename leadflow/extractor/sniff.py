"""Telling a document's format from its first bytes, never from a name or a Content-Type."""

import re

PDF, PNG, JPEG, CAMT053, MT940 = "pdf", "png", "jpeg", "camt053", "mt940"

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
    head = data[:4096].lstrip(b"\xef\xbb\xbf \t\r\n")
    if head.startswith(b"<") and b"camt.053" in head:
        return CAMT053
    # SWIFT MT940: tag :20: near the top (after an optional {1:...} header), balances in :60F:/:60M:.
    if re.search(rb"(^|\n|\}):20:", head) and re.search(rb":60[FM]:", data[:65536]):
        return MT940
    return None
