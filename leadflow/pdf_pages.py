"""Pages of a PDF as a PDF of their own. The extraction service reads a packet's document from its
pages, and LeadFlow hands a packet's document out (download, lender package) as them: one cut."""
import io

from pypdf import PdfReader, PdfWriter
from pypdf.errors import PyPdfError


class PagesNotCut(ValueError):
    """The file is no PDF that can be taken apart, or has no such pages."""


def cut(data: bytes, first: int, last: int) -> bytes:
    """Pages first..last (from 1) of the PDF `data`. Raises PagesNotCut."""
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if not 1 <= first <= last <= len(reader.pages):
            raise PagesNotCut(f"the PDF has {len(reader.pages)} pages; pages {first}-{last} were asked for")
        writer = PdfWriter()
        for index in range(first - 1, last):
            writer.add_page(reader.pages[index])
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()
    except (PyPdfError, ValueError, TypeError, KeyError, AttributeError, IndexError, OSError) as exc:
        if isinstance(exc, PagesNotCut):
            raise
        raise PagesNotCut(f"pages {first}-{last} could not be taken apart: {type(exc).__name__}") from exc
