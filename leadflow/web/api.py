"""The JSON API: the same use cases the pages call, for integrations and tests."""
from flask import Blueprint, current_app, jsonify, redirect, request
from flask_login import current_user, login_required

from leadflow.billing import service as billing
from leadflow.domain.audience import may_see_credits
from leadflow.domain.lifecycle import Status
from leadflow.errors import Forbidden, InvalidInput, LeadflowError, NotFound
from leadflow.extensions import db
from leadflow.models import Document
from leadflow.domain.packets import PACKET_KIND
from leadflow.services import documents, packet_views, part_files, review, views
from leadflow.services.search import Cursor, Filters
from leadflow.web import params
from leadflow.ports import current_ports
from leadflow.storage import ObjectMissing
from leadflow.web.documents import FILE_LINK_SECONDS

bp = Blueprint("api", __name__, url_prefix="/api")
PAGE_SIZE = 50
SPLIT_VALUES = ("auto", "none")  # an upload's `split`: a packet of documents, or one document


@bp.errorhandler(LeadflowError)
def leadflow_error(error: LeadflowError):
    return jsonify(error={"code": error.code, "message": error.message}), error.status


@bp.post("/documents/upload")
@login_required
def upload():
    """Upload a file in the request.
    ---
    post:
      tags: [documents]
      summary: Upload a document (multipart)
      description: The file is checked by its bytes, stored, and the document waits (PENDING) to be read.
      requestBody:
        required: true
        content:
          multipart/form-data:
            schema:
              type: object
              required: [file]
              properties:
                file: {type: string, format: binary, contentMediaType: application/octet-stream}
                title: {type: string, maxLength: 300}
                kind: {type: string, maxLength: 40, description: What the uploader says it is.}
                workspace_id: {type: integer, minimum: 1}
                split: {type: string, enum: [auto, none], description: "`auto`: the file may hold several documents (a packet)."}
            encoding:
              file: {contentType: "application/pdf, image/png, image/jpeg, application/xml, text/plain"}
      responses:
        201:
          description: Stored; the document is PENDING.
          content: {application/json: {schema: Document}}
          links:
            GetDocument: {operationId: api.get_document.get, parameters: {document_id: $response.body#/id}}
            History: {operationId: api.history.get, parameters: {document_id: $response.body#/id}}
            Versions: {operationId: api.versions.get, parameters: {document_id: $response.body#/id}}
            Content: {operationId: api.content.get, parameters: {document_id: $response.body#/id}}
            Share: {operationId: api.share.post, parameters: {document_id: $response.body#/id}}
            Reprocess: {operationId: api.reprocess.post, parameters: {document_id: $response.body#/id}}
            Corrections: {operationId: api.corrections.post, parameters: {document_id: $response.body#/id}}
            Retry: {operationId: api.retry.post, parameters: {document_id: $response.body#/id}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        413: TooLarge
        503: Unavailable
    """
    return uploaded_from_request()


@bp.post("/documents/uploads")
@login_required
def offer_upload():
    """Offer a direct upload: the file goes straight to storage, then `complete`.
    ---
    post:
      tags: [documents]
      summary: Ask for a signed target to upload a file to
      requestBody: {required: true, content: {application/json: {schema: UploadOffer}}}
      responses:
        201:
          description: A document id reserved, and where to send the file.
          content: {application/json: {schema: UploadTarget}}
          links:
            Complete: {operationId: api.complete_upload.post, parameters: {document_id: $response.body#/document_id}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        413: TooLarge
        503: Unavailable
    """
    body = json_body()
    max_bytes = current_app.config["MAX_UPLOAD_BYTES"]
    filename = params.text(body.get("filename"), "filename", required=True)
    content_type = params.text(body.get("content_type"), "content_type", max_length=100, required=True)
    # Past the limit is "too large" (413, from the use case), not "not a number".
    size = params.integer(body.get("size"), "size", maximum=2 ** 63 - 1,
                          message="size must be the file's size in bytes, a whole number above 0.")
    split = split_from(body.get("split", "none"))
    intent, target = documents.offer_direct_upload(
        db.session, current_ports(), current_user, filename=filename, content_type=content_type, size=size,
        title=params.text(body.get("title"), "title"),
        kind=None if split else params.text(body.get("kind"), "kind", max_length=40),
        workspace_id=params.optional_integer(body.get("workspace_id"), "workspace_id"), max_bytes=max_bytes,
        split=split)
    return jsonify(document_id=intent.id, upload=target), 201


@bp.post("/documents/<document_id>/complete")
@login_required
def complete_upload(document_id):
    """After the direct upload.
    ---
    post:
      tags: [documents]
      summary: Finish a direct upload
      description: The file sent to the upload target is checked, and the document created (PENDING).
      parameters: [DocumentId]
      responses:
        201: {description: The document., content: {application/json: {schema: Document}}}
        400: BadRequest
        404: NotFound
        409: Conflict
        413: TooLarge
        503: Unavailable
    """
    document = documents.complete_direct_upload(db.session, current_ports(), current_user, document_id,
                                                max_bytes=current_app.config["MAX_UPLOAD_BYTES"])
    return jsonify(document_json(document)), 201


@bp.get("/documents")
@login_required
def list_documents():
    """The documents the caller may see.
    ---
    get:
      tags: [documents]
      summary: List documents, newest first, a page at a time
      parameters:
        - {name: status, in: query, schema: {type: string, enum: [PENDING, PROCESSING, EXTRACTING, VERIFIED, REJECTED, ACTION_REQUIRED]}}
        - {name: workspace_id, in: query, schema: {type: integer, minimum: 1}}
        - {name: cursor, in: query, schema: {type: string}, description: A page's next_cursor.}
      responses:
        200: {description: A page of documents., content: {application/json: {schema: DocumentPage}}}
        400: BadRequest
    """
    # Stricter than the dashboard's filters: an integration that sends a wrong value is told so.
    status = request.args.get("status") or None
    if status and status not in Status.__members__:
        raise InvalidInput(f"Unknown status {status!r}.")
    cursor = None
    if request.args.get("cursor"):
        cursor = Cursor.decode(request.args["cursor"])
        if cursor is None:
            raise InvalidInput("The cursor is not one this API gave out.", code="invalid_cursor")
    filters = Filters(status=status, workspace_id=params.int_arg("workspace_id"), cursor=cursor)
    page = views.document_page(db.session, current_user.viewer, filters, PAGE_SIZE)
    whose = views.applicants_of_documents(db.session, page.documents)
    return jsonify(documents=[document_json(d, whose) for d in page.documents],
                   next_cursor=page.next_cursor.encode() if page.next_cursor else None)


@bp.get("/documents/<document_id>")
@login_required
def get_document(document_id):
    """One document.
    ---
    get:
      tags: [documents]
      summary: A document
      parameters: [DocumentId]
      responses:
        200: {description: The document., content: {application/json: {schema: Document}}}
        404: NotFound
    """
    return jsonify(document_json(documents.get_visible(db.session, current_user, document_id)))


@bp.get("/documents/<document_id>/file")
@login_required
def document_file(document_id):
    """A document's file.
    ---
    get:
      tags: [documents]
      summary: Download a document's file
      description: >-
        Redirects to a short-lived signed link. A document found in a packet is its own pages only,
        cut from the packet's file and named after its type; a packet is its whole file.
      parameters: [DocumentId]
      responses:
        302: {description: To the file's signed link.}
        404: NotFound
    """
    document = documents.get_visible(db.session, current_user, document_id)
    storage = current_ports().storage
    try:
        key = part_files.stored(storage, document)
    except (part_files.NoFileOfItsOwn, ObjectMissing) as exc:
        raise NotFound("This document has no pages of its own to download.", code="no_file") from exc
    return redirect(storage.download_url(key, expires_in=FILE_LINK_SECONDS))


@bp.get("/documents/<document_id>/history")
@login_required
def history(document_id):
    """What happened to a document.
    ---
    get:
      tags: [documents]
      summary: A document's status log and audit, oldest first
      parameters: [DocumentId]
      responses:
        200: {description: The history., content: {application/json: {schema: History}}}
        404: NotFound
    """
    document = documents.get_visible(db.session, current_user, document_id)
    return jsonify(history=[dict(entry, at=iso(entry["at"]))
                            for entry in views.document_history(db.session, document, current_user.role)])


@bp.post("/documents/<document_id>/shares")
@login_required
def share(document_id):
    """Share with someone of the brokerage.
    ---
    post:
      tags: [shares]
      summary: Let another person of the brokerage see a document
      parameters: [DocumentId]
      requestBody: {required: true, content: {application/json: {schema: ShareRequest}}}
      responses:
        201: {description: Shared., content: {application/json: {schema: Share}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
    """
    email = params.text(json_body().get("email"), "email", max_length=320, required=True)
    row = documents.share(db.session, current_user, document_id, email)
    return jsonify(document_id=row.document_id, user_id=row.user_id), 201


@bp.post("/documents/<document_id>/decision")
@login_required
def decision(document_id):
    """A platform admin decides a document that waits for a person.
    ---
    post:
      tags: [review]
      summary: Decide a document in ACTION_REQUIRED (platform admin)
      parameters: [DocumentId]
      requestBody: {required: true, content: {application/json: {schema: Decision}}}
      responses:
        200: {description: Decided., content: {application/json: {schema: Document}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    body = json_body()
    document = review.decide(db.session, current_ports(), current_user, document_id,
                             document_type=body.get("document_type"), reject_reason=body.get("reject"),
                             fields=body.get("fields"))
    return jsonify(document_json(document))


@bp.post("/documents/<document_id>/retry")
@login_required
def retry(document_id):
    """Try again after a failure of ours.
    ---
    post:
      tags: [review]
      summary: Process a document that failed for a reason of ours again (platform admin)
      parameters: [DocumentId]
      responses:
        202: {description: Waiting to be processed., content: {application/json: {schema: Document}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    return jsonify(document_json(review.retry(db.session, current_user, document_id))), 202


@bp.get("/credits")
@login_required
def credits():
    """The brokerage's credits.
    ---
    get:
      tags: [credits]
      summary: The brokerage's wallet and open reservations, in pages (brokerage admin)
      responses:
        200: {description: The wallet., content: {application/json: {schema: Credits}}}
        403: Forbidden
    """
    if not may_see_credits(current_user.role):
        raise Forbidden("Only the brokerage's admin sees its credits.")
    wallet = billing.wallet_state(db.session, current_user.brokerage_id)
    open_rows = [r for r, _document_id, _title in views.open_reservations(db.session, current_user.brokerage_id)]
    return jsonify(wallet={"granted": wallet.granted, "balance": wallet.balance, "reserved": wallet.reserved,
                           "settled": wallet.settled},
                   open_reservations=[{"job_id": r.job_id, "pages": r.pages, "created_at": iso(r.created_at),
                                       "expires_at": iso(r.expires_at)} for r in open_rows])


def document_json(document: Document, whose: dict | None = None) -> dict:
    """The document as the API answers it; `whose`: views.applicants_of_documents, read once for a list."""
    if whose is None:
        whose = views.applicants_of_documents(db.session, [document])
    return {
        "id": document.id, "status": document.status, "title": document.title, "kind": document.kind,
        "document_type": document.document_type, "confidence": document.confidence,
        "workspace_id": document.workspace_id, "owner_id": document.owner_id,
        "brokerage_id": document.brokerage_id, "page_count": document.page_count,
        "verification_notes": document.verification_notes or [], "rejection_code": document.rejection_code,
        "filename": document.filename, "content_type": document.content_type, "size_bytes": document.size_bytes,
        "created_at": iso(document.created_at), "updated_at": iso(document.updated_at),
        "verified_at": iso(document.verified_at),
        "applicant_id": document.applicant_id, "joint": bool(document.joint),
        "applicants": [applicant_json(a) for a in whose.get(document.id, [])],
        # Packets (issue 40): the packet a document was found in, its pages there, and for a
        # packet its split and children.
        "packet_id": document.packet_id,
        "pages": {"first": document.first_page, "last": document.last_page} if document.first_page else None,
        "packet": packet_views.packet_of(db.session, document) if document.packet_id is None and (
            document.kind == PACKET_KIND or document.first_page) else None,
    }


def applicant_json(applicant) -> dict:
    """An applicant of a case (an unsaved client has no id yet)."""
    return {"id": applicant.id, "role": applicant.role, "name": applicant.name,
            "date_of_birth": applicant.date_of_birth.isoformat() if applicant.date_of_birth else None,
            "citizenship": applicant.citizenship}


def uploaded_from_request():
    """The multipart upload both upload routes take: the file, its title, what the uploader says it
    is, its case, and whether it may hold several documents (`split=auto`, then no kind)."""
    file = request.files.get("file")
    if file is None or not file.filename:
        raise InvalidInput("Send the file as multipart field 'file'.", code="file_missing")
    split = split_requested()
    title = params.text(request.form.get("title"), "title")
    kind = params.text(request.form.get("kind"), "kind", max_length=40)
    if split and kind:
        raise InvalidInput("A packet holds documents of several kinds: send no kind with split=auto.",
                           code="kind_with_split")
    workspace_id = params.optional_integer(request.form.get("workspace_id"), "workspace_id")
    max_bytes = current_app.config["MAX_UPLOAD_BYTES"]
    data = file.stream.read(max_bytes + 1)
    document = documents.upload(db.session, current_ports(), current_user, filename=file.filename, data=data,
                                title=title, kind=kind, workspace_id=workspace_id, max_bytes=max_bytes, split=split)
    return jsonify(document_json(document)), 201


def split_requested() -> bool:
    """`split` as a form field or in the query."""
    return split_from(request.form.get("split") or request.args.get("split") or "none")


def split_from(raw) -> bool:
    """An upload's `split`: `auto` (a packet) or `none` (one document)."""
    if raw not in SPLIT_VALUES:
        raise InvalidInput("split must be auto or none.", code="split_value")
    return raw == "auto"


def json_body() -> dict:
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raise InvalidInput("Send a JSON object.")
    return body


def iso(value) -> str | None:
    return value.isoformat() + "Z" if value else None
