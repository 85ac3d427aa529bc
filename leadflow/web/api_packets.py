"""The JSON API's routes for packets (issue 40): upload one (`split=auto`), list its children, and
confirm or correct its split. On the API's blueprint (leadflow.web.api)."""
from flask import jsonify
from flask_login import current_user, login_required

from leadflow.errors import InvalidInput
from leadflow.extensions import db
from leadflow.ports import current_ports
from leadflow.services import documents, packet_views, views
from leadflow.services import packets as packet_service
from leadflow.web import params
from leadflow.web.api import bp, document_json, json_body, uploaded_from_request

@bp.post("/documents")
@login_required
def create_document():
    """Upload a file in the request, as one document or as a packet of several.
    ---
    post:
      tags: [documents]
      summary: Upload a document, or a packet of documents (multipart)
      description: >-
        As `POST /api/documents/upload`; with `split=auto` (a form field, or the query) the file may
        hold several documents (a packet, up to `MAX_PACKET_PAGES` pages): it is read once and split,
        and each document found becomes a document of its own (its `packet_id` names the packet;
        `GET /api/documents/{document_id}/children` lists them). A file that holds one document stays
        one document. A split the reader is unsure of waits for a person (the packet is
        ACTION_REQUIRED with `PACKET_SPLIT_UNSURE`).
      parameters:
        - {name: split, in: query, schema: {type: string, enum: [auto, none]}, description: "`auto`: a packet."}
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
                kind: {type: string, maxLength: 40, description: What the uploader says it is (not for a packet).}
                workspace_id: {type: integer, minimum: 1}
                split: {type: string, enum: [auto, none], description: "`auto`: the file may hold several documents."}
            encoding:
              file: {contentType: "application/pdf, image/png, image/jpeg, application/xml, text/plain"}
      responses:
        201:
          description: Stored; the document (or packet) is PENDING.
          content: {application/json: {schema: Document}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        413: TooLarge
        503: Unavailable
    """
    return uploaded_from_request()


@bp.get("/documents/<document_id>/children")
@login_required
def children(document_id):
    """A packet's documents.
    ---
    get:
      tags: [documents]
      summary: The documents found in a packet, in page order
      description: >-
        The packet's split (its parts, each with the document made from it) and its documents the
        caller may see. A document whose pages a person gave to another is listed last, REJECTED with
        `PACKET_PART_MERGED`. Empty while the packet is being read or waits for a person.
      parameters: [DocumentId]
      responses:
        200: {description: The packet and its documents., content: {application/json: {schema: PacketChildren}}}
        404: NotFound
    """
    packet, found = packet_views.children(db.session, current_user.viewer, document_id)
    whose = views.applicants_of_documents(db.session, found)
    return jsonify(packet=packet_views.packet_of(db.session, packet),
                   documents=[document_json(d, whose) for d in found])


@bp.post("/documents/<document_id>/split")
@login_required
def correct_split(document_id):
    """Confirm or correct a packet's split.
    ---
    post:
      tags: [documents]
      summary: Confirm or correct how a packet is split (advisor or platform reviewer)
      description: >-
        `confirm` takes an unsure split as proposed and makes its documents. `move_boundary` (part
        `part` starts at `page`), `merge` (parts `part` and `part`+1), `split` (part `part` at `page`,
        the second of `document_type`) and `change_type` change the split: while it waits for a person
        they change the proposal; once split, only the documents whose pages or type changed are read
        again (a new version with cause `resplit`), the others keep their verdict. Parts are numbered
        from 1 in page order. `revision`: the packet's revision the caller saw (409 when it moved).
      parameters: [DocumentId]
      requestBody: {required: true, content: {application/json: {schema: SplitChange}}}
      responses:
        200: {description: The packet's split now., content: {application/json: {schema: Packet}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    body = json_body()
    what = body.get("change")
    if what not in packet_service.CHANGES:
        raise InvalidInput(f"change must be one of {', '.join(packet_service.CHANGES)}.", code="split_change")
    numbers = {name: _number(body.get(name), name) for name in ("part", "page", "revision")}
    document_type = body.get("document_type")
    if document_type is not None and not isinstance(document_type, str):
        raise InvalidInput("document_type must be text.", code="split_document_type")
    packet_service.change(db.session, current_ports(), current_user, document_id, what, part=numbers["part"],
                          page=numbers["page"], document_type=document_type, revision=numbers["revision"])
    document = documents.get_visible(db.session, current_user, document_id)
    return jsonify(packet_views.packet_of(db.session, document))


def _number(raw, name: str) -> int | None:
    if raw is None:
        return None
    if type(raw) is not int:
        raise InvalidInput(f"{name} must be a whole number.", code=f"split_{name}")
    return params.integer(raw, name, minimum=0 if name == "revision" else 1)
