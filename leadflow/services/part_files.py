"""A packet's document as a file of its own (issue 40): its pages cut out of the packet's file.

A packet's documents share the packet's file in storage (each is pages first..last of it), but a
document's download and its place in a lender package must hold only its own pages: a lender asking
for a payslip must not receive the client's passport too. The cut is made once, with pypdf, and kept
in storage beside the packet's file, keyed by the document's pages (a corrected split that moves
them cuts again) and named after its type (the name a browser saves it under). A packet itself, and
any other upload, is its own file. Who may download is decided by the caller, through the one
audience check. Erasure deletes the cuts with the packet (`keys`)."""
import logging
import re


from leadflow import pdf_pages
from leadflow.domain.document_types import TYPES
from leadflow.storage import ObjectMissing, StorageError
from leadflow.storage.base import Storage

log = logging.getLogger(__name__)

PDF = "application/pdf"
# The name of a document whose type is not known (yet).
UNTYPED = "document"
_UNSAFE = re.compile(r"[^a-z0-9_-]+")


class NoFileOfItsOwn(LookupError):
    """The document has no pages of its own to give (its pages went to another document of its
    packet), or they could not be cut from the packet's file."""


def key(brokerage_id: int, packet_id: str, first: int, last: int, name: str) -> str:
    """Where pages first..last of a packet's file are kept as a file of their own, named `name`."""
    return f"brokerages/{brokerage_id}/documents/{packet_id}/parts/{first}-{last}/{name}"


def name(document) -> str:
    """A packet's document's file name: its type (`payslip.pdf`), as read, else as its part says."""
    kind = _UNSAFE.sub("-", (document.document_type or document.kind or UNTYPED).lower()).strip("-")
    return f"{kind or UNTYPED}.pdf"


def is_cut(document) -> bool:
    """Whether the document's file is pages of its packet's file (a packet's document, a PDF)."""
    return bool(document.packet_id) and (document.content_type or "").split(";")[0].strip().lower() == PDF


def stored(storage: Storage, document) -> str:
    """The storage key of the document's own file: its upload's (a packet's too: the whole file),
    or, for a packet's document, its pages cut from the packet's file, kept once cut. Raises
    NoFileOfItsOwn, ObjectMissing (the packet's file is gone)."""
    if not is_cut(document):
        return document.storage_key
    if document.first_page is None or document.last_page is None:
        raise NoFileOfItsOwn("its pages went to another document of its packet")
    kept_at = key(document.brokerage_id, document.packet_id, document.first_page, document.last_page, name(document))
    if storage.head(kept_at) is not None:
        return kept_at
    pages = cut(storage.get(document.storage_key), document.first_page, document.last_page)
    storage.put(kept_at, pages, PDF)
    return kept_at


def content(storage: Storage, document) -> bytes:
    """The bytes of the document's own file (see `stored`)."""
    return storage.get(stored(storage, document))


def cut(data: bytes, first: int, last: int) -> bytes:
    """Pages first..last (from 1) of a PDF as a PDF of their own. Raises NoFileOfItsOwn."""
    try:
        return pdf_pages.cut(data, first, last)
    except pdf_pages.PagesNotCut as exc:
        raise NoFileOfItsOwn(str(exc)) from exc


def keys(brokerage_id: int, packet_id: str, ranges) -> list[str]:
    """Every cut of a packet's pages `ranges` ((first, last), ...) that may be kept, under any
    type's name (erasure deletes these; a correction forgets the ranges it changed)."""
    names = [f"{kind}.pdf" for kind in (*TYPES, UNTYPED)]
    return [key(brokerage_id, packet_id, first, last, n) for first, last in sorted(set(ranges)) for n in names]


def forget(storage: Storage, brokerage_id: int, packet_id: str, ranges) -> None:
    """Delete the cuts of pages no document of the packet is any more (after a correction's
    commit). A cut left behind is only a copy of pages of the packet's file, found by erasure."""
    for kept_at in keys(brokerage_id, packet_id, ranges):
        try:
            storage.delete(kept_at)
        except (StorageError, ObjectMissing):
            log.warning("could not delete the cut %s", kept_at, exc_info=True)
