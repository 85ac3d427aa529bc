"""The pages' side of packets (issue 40): a packet's split on its document page (its pages drawn
small, grouped by the document each belongs to, with the corrections an advisor or reviewer may
make), the pictures of its pages, and what the portal and the review queue show of a packet.

Every route finds its document through the one audience check (services.documents.get_visible);
a correction is the back end's one use case (services.packets.change), whose role rule is the
domain's (domain.packets.may_correct). The JSON API's twin is leadflow.web.api_packets.
"""
from flask import Blueprint, Response, abort, redirect, render_template, request, url_for
from flask_babel import gettext
from flask_login import current_user, login_required

from leadflow.domain import packets as rules
from leadflow.domain.lifecycle import RejectionCode
from leadflow.errors import InvalidInput, LeadflowError, NotFound
from leadflow.extensions import db
from leadflow.models import Document
from leadflow.ports import current_ports
from leadflow.services import documents, packet_views, page_images
from leadflow.services import packets as packet_service
from leadflow.web import params
from leadflow.web.documents import SPLIT_SECTION, _show
from leadflow.web.i18n import error_words
from leadflow.words import N_

bp = Blueprint("packets", __name__)

# A page's picture is the same until the file changes, which it never does: a browser keeps it
# a while (private: it is a client's document).
PAGE_CACHE_SECONDS = 3600

# The back end's refusals of a correction, by code, as a person reads them (its messages are
# English sentences with numbers in them; these go through the catalogs).
REFUSALS = {
    "split_boundary": N_("A document cannot start on that page: pick a page after the first page of the "
                         "document before it, and inside this one."),
    "split_unchanged": N_("Nothing changed: the split is like that already."),
    "split_part": N_("There is no such document in this upload."),
    "split_page": N_("Pick a page."),
    "split_pages": N_("The documents must cover every page once, in order."),
    "split_document_type": N_("Pick a document type."),
    "split_type_unknown": N_("Give every document a type before confirming the split."),
    "split_part_too_long": N_("A document of this upload would have more pages than one document may have."),
    "split_change": N_("Pick a correction."),
    "packet_changed": N_("Someone else changed this upload’s split a moment ago: here it is as it is now."),
    "packet_not_split": N_("This upload is still being read: correct its split once it is."),
    "packet_children_busy": N_("A document of this upload is still being checked: correct the split once it is done."),
}


@bp.get("/documents/<document_id>/pages/<int:page>")
@login_required
def page_image(document_id, page):
    """Page `page` of a document's file, drawn small (`?size=small|large`): a packet's pages, and a
    packet's document's pages (numbered as in the packet's file, which they share)."""
    document = _visible_or_404(document_id)
    size = request.args.get("size") or "large"
    if size not in page_images.WIDTHS:
        abort(400)
    owner = document.packet_id or document.id   # a packet's documents draw from the packet's file
    first, last = (document.first_page or 1), (document.last_page or document.page_count)
    if document.packet_id and not (first <= page <= (last or first)):
        abort(404)   # another document's page: seen on that document, or on the packet
    try:
        png = page_images.page_image(current_ports().storage, brokerage_id=document.brokerage_id,
                                     file_owner_id=owner, storage_key=document.storage_key,
                                     content_type=document.content_type, page=page,
                                     pages=None if document.packet_id else document.page_count, size=size)
    except page_images.NoSuchPage:
        abort(404)
    response = Response(png, content_type=page_images.PNG)
    response.headers["Cache-Control"] = f"private, max-age={PAGE_CACHE_SECONDS}"
    response.headers["X-Content-Type-Options"] = "nosniff"
    return response


@bp.get("/documents/<document_id>/split")
@login_required
def split_panel(document_id):
    """The packet's split, as its document page shows it (the page fetches it again when live)."""
    document = _visible_or_404(document_id)
    if not packet_views.is_packet(document):
        abort(404)
    return render_template("packets/_split.html", **split_context(document))


@bp.post("/documents/<document_id>/split")
@login_required
def correct(document_id):
    """A person's correction of the split (the form's `change`), or their confirmation of an unsure
    one. Answers with the split as it is now, the refusal inline; without script, back to the page."""
    document = _visible_or_404(document_id)
    form = request.form
    try:
        change = form.get("change")
        if change not in packet_service.CHANGES:
            raise InvalidInput(REFUSALS["split_change"], code="split_change")
        numbers = {name: params.optional_integer(form.get(name), name) for name in ("part", "page", "revision")}
        packet_service.change(db.session, current_ports(), current_user, document.id, change,
                              part=numbers["part"], page=numbers["page"],
                              document_type=form.get("document_type") or None, revision=numbers["revision"])
    except LeadflowError as error:
        db.session.rollback()
        fresh = _visible_or_404(document_id)
        if not _htmx():   # without script: the whole page, the refusal in the split's place
            return _show(fresh, error.status, split_error=refusal_words(error))
        return render_template("packets/_split.html", **split_context(fresh),
                               split_error=refusal_words(error)), error.status
    if not _htmx():
        return redirect(url_for("documents.show", document_id=document.id) + "#packet-split", code=303)
    fresh = _visible_or_404(document_id)
    return (render_template("packets/_split.html", **split_context(fresh), split_message=_done_words(change)), 200,
            {"HX-Trigger": "leadflow:document-changed"})


def split_context(document: Document) -> dict:
    """What the split section shows: the packet's state, its parts in page order (each with its
    pages and the document made from it, if the viewer may see it) and what the viewer may change."""
    packet = packet_views.packet_of(db.session, document) or {"state": "reading", "revision": 0, "parts": []}
    try:
        _, children = packet_views.children(db.session, current_user.viewer, document.id)
    except NotFound:
        children = []
    by_id = {child.id: child for child in children}
    parts = []
    for part in packet["parts"]:
        child = by_id.get(part["document_id"]) if part["document_id"] != document.id else None
        parts.append({**part, "pages": list(range(part["first"], part["last"] + 1)), "child": child,
                      "count": len(packet["parts"])})
    placed = {p["document_id"] for p in packet["parts"]}
    return {"document": document, "packet": packet, "parts": parts, "viewer": current_user,
            "retired": [c for c in children if c.id not in placed],
            "may_correct": rules.may_correct(current_user.viewer, document.brokerage_id)
            and packet["state"] in ("unsure", "split"),
            "types": rules.DOCUMENT_TYPES, "page_count": document.page_count or 0}


def portal_packets(rows: list[Document]) -> list[dict]:
    """The client's packets among their case's documents, each with its documents in page order
    (those whose pages went to another left out): the portal shows each packet as one upload."""
    children: dict[str, list[Document]] = {}
    for row in rows:
        if row.packet_id and row.rejection_code != RejectionCode.PACKET_PART_MERGED:
            children.setdefault(row.packet_id, []).append(row)
    return [{"packet": row, "documents": sorted(children.get(row.id, []), key=lambda d: d.first_page or 0)}
            for row in rows if packet_views.is_packet(row)]


def under_its_packet_only(document: Document) -> bool:
    """Shown on the portal under its packet and nowhere else: a packet itself, and a document whose
    pages went to another one of its packet (no document of the case any more)."""
    return packet_views.is_packet(document) or document.rejection_code == RejectionCode.PACKET_PART_MERGED


def refusal_words(error: LeadflowError) -> str:
    """A refused correction in words: what to do, then (for a split's rule, which names its pages
    and parts) exactly what was wrong, both in the page's language."""
    if error.code not in REFUSALS:
        return error_words(error)
    if error.values:
        return f"{gettext(REFUSALS[error.code])} {error_words(error)}"
    return gettext(REFUSALS[error.code])


def _done_words(change: str) -> str:
    if change == "confirm":
        return gettext("Confirmed: each document of this upload is checked on its own now.")
    return gettext("Changed. The documents whose pages or type changed are checked again; the others keep their result.")


def _visible_or_404(document_id: str) -> Document:
    try:
        return documents.get_visible(db.session, current_user, document_id)
    except NotFound:
        abort(404)


def _htmx() -> bool:
    return request.headers.get("HX-Request") == "true"


@bp.app_context_processor
def _helpers() -> dict:
    # App-wide: a packet's staff row shows its proposed split in pushes too, outside any request of ours.
    return {"packet_split": lambda document: packet_views.packet_of(db.session, document)}


SPLIT_SECTION.append(split_context)
