"""Pictures of an upload's pages (issue 40): a packet's document page and the review queue show
every page small, grouped by the document it belongs to, so a person sees where one document ends.

Drawn server-side from the stored file (PDFium for a PDF, Pillow for a photo), once per page and
width: the PNG is kept in storage beside the file (`key`), so a second look, another person or
another process reads it instead of drawing it again. Erasure removes them with the file
(`keys`). Who may see a page is decided by the caller, through the one audience check."""
import io
import logging
import threading

from PIL import Image, UnidentifiedImageError

from leadflow.storage import ObjectMissing, StorageError
from leadflow.storage.base import Storage

log = logging.getLogger(__name__)

# Thumbnail widths in CSS pixels, doubled for sharp screens: the review queue's strip and the
# document page's grid. Only these are drawn, so a caller cannot make us draw any size it likes.
WIDTHS = {"small": 120, "large": 240}
SCALE = 2
# A page drawn no larger than this many pixels on its long side, whatever its paper says.
MAX_SIDE = 2000
PNG = "image/png"
IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
# PDFium is not thread-safe, not even across documents: one drawing at a time in this process (the
# threaded dev server draws a page's thumbnails in parallel requests; under gevent this is a
# greenlet lock, and a drawing of some tens of milliseconds is kept once drawn).
_PDFIUM = threading.Lock()


class NoSuchPage(LookupError):
    """The file has no such page, or no pages that can be drawn."""


def key(brokerage_id: int, document_id: str, page: int, size: str) -> str:
    """Where page `page` of a document's file is kept, drawn at `size`."""
    return f"brokerages/{brokerage_id}/documents/{document_id}/pages/{page}-{size}.png"


def keys(brokerage_id: int, document_id: str, pages: int | None) -> list[str]:
    """Every picture of a document's pages that may be kept (erasure deletes these)."""
    return [key(brokerage_id, document_id, page, size) for page in range(1, (pages or 0) + 1) for size in WIDTHS]


def page_image(storage: Storage, *, brokerage_id: int, file_owner_id: str, storage_key: str, content_type: str,
               page: int, pages: int | None, size: str) -> bytes:
    """Page `page` (from 1) of the file at `storage_key` as a PNG `size` wide: the kept one, or
    drawn now and kept. `file_owner_id`: the document whose file it is (a packet's documents
    share the packet's file, and its pictures). Raises NoSuchPage."""
    if size not in WIDTHS:
        raise NoSuchPage(f"no size {size!r}")
    if not isinstance(page, int) or page < 1 or (pages is not None and page > pages):
        raise NoSuchPage(f"no page {page}")
    kept_at = key(brokerage_id, file_owner_id, page, size)
    try:
        return storage.get(kept_at)
    except ObjectMissing:
        pass
    try:
        data = storage.get(storage_key)
    except ObjectMissing as exc:
        raise NoSuchPage("the file is gone") from exc
    png = draw(data, content_type, page, WIDTHS[size] * SCALE)
    try:
        storage.put(kept_at, png, PNG)
    except StorageError:
        # Drawn again next time; the person sees the page now either way.
        log.warning("could not keep page %s of %s", page, file_owner_id, exc_info=True)
    return png


def draw(data: bytes, content_type: str, page: int, width: int) -> bytes:
    """Page `page` of a PDF, or a photo (its one page), as a PNG `width` pixels wide."""
    kind = (content_type or "").split(";")[0].strip().lower()
    if kind == "application/pdf":
        image = _pdf_page(data, page, width)
    elif kind in IMAGE_TYPES and page == 1:
        image = _photo(data)
    else:
        raise NoSuchPage(f"no page {page} in a {kind or 'file'} to draw")
    image.thumbnail((width, width * 3))
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG", optimize=True)
    return out.getvalue()


def _pdf_page(data: bytes, page: int, width: int) -> Image.Image:
    import pypdfium2 as pdfium  # the extractor's renderer; imported where a page is drawn
    with _PDFIUM:
        try:
            pdf = pdfium.PdfDocument(data)
        except pdfium.PdfiumError as exc:
            raise NoSuchPage("not a readable PDF") from exc
        try:
            if page > len(pdf):
                raise NoSuchPage(f"the PDF has {len(pdf)} pages")
            sheet = pdf[page - 1]
            try:
                paper_width, paper_height = sheet.get_size()
                scale = min(width / max(paper_width, 1), MAX_SIDE / max(paper_width, paper_height, 1))
                bitmap = sheet.render(scale=scale)
                try:
                    return bitmap.to_pil().copy()   # the pixels outlive PDFium's buffer
                finally:
                    bitmap.close()
            finally:
                sheet.close()
        finally:
            pdf.close()


def _photo(data: bytes) -> Image.Image:
    try:
        image = Image.open(io.BytesIO(data))
        image.draft("RGB", (MAX_SIDE, MAX_SIDE))  # a JPEG decodes smaller: a phone photo is 12 megapixels
        image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError) as exc:
        raise NoSuchPage("not a readable image") from exc
    return image
