"""The JSON API's routes for a document's versions: read them (content, schema, the list) and make
new ones (reprocess, customise, correct, revert). On the API's blueprint (leadflow.web.api)."""
from flask import jsonify
from flask_login import current_user, login_required

from leadflow.extensions import db
from leadflow.ports import current_ports
from leadflow.services import documents, views
from leadflow.services import versions as version_service
from leadflow.web import params
from leadflow.web.api import bp, document_json, iso, json_body


@bp.get("/documents/<document_id>/content")
@login_required
def content(document_id):
    """What was read.
    ---
    get:
      tags: [versions]
      summary: A document's content (the fields read), the newest version or another
      parameters: [DocumentId, Version]
      responses:
        200: {description: The content., content: {application/json: {schema: Content}}}
        400: BadRequest
        404: NotFound
        503: Unavailable
    """
    return _version_body(document_id, "content")


@bp.get("/documents/<document_id>/schema")
@login_required
def schema(document_id):
    """The content's shape.
    ---
    get:
      tags: [versions]
      summary: A document's schema, the newest version or another
      parameters: [DocumentId, Version]
      responses:
        200: {description: The schema., content: {application/json: {schema: Schema}}}
        400: BadRequest
        404: NotFound
        503: Unavailable
    """
    return _version_body(document_id, "schema")


@bp.get("/documents/<document_id>/versions")
@login_required
def versions(document_id):
    """Every version.
    ---
    get:
      tags: [versions]
      summary: A document's versions of content and schema, oldest first
      parameters: [DocumentId]
      responses:
        200: {description: The versions., content: {application/json: {schema: Versions}}}
        404: NotFound
    """
    document = documents.get_visible(db.session, current_user, document_id)
    rows = views.versions(db.session, document)
    return jsonify(versions=[{"id": v.id, "part": v.part, "number": v.number, "cause": v.cause,
                              "actor_id": v.actor_id, "job_id": v.job_id, "replaces_id": v.replaces_id,
                              "created_at": iso(v.created_at)} for v in rows])


@bp.post("/documents/<document_id>/reprocess")
@login_required
def reprocess(document_id):
    """Read again.
    ---
    post:
      tags: [versions]
      summary: Have a finished document read again (a new version)
      parameters: [DocumentId]
      responses:
        202: {description: Reading again., content: {application/json: {schema: Document}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    document = version_service.reprocess(db.session, current_ports(), current_user, document_id)
    return jsonify(document_json(document)), 202


@bp.post("/documents/<document_id>/customise")
@login_required
def customise(document_id):
    """Another output shape.
    ---
    post:
      tags: [versions]
      summary: Have a finished document's data read into another output shape
      parameters: [DocumentId]
      requestBody: {required: true, content: {application/json: {schema: Customisation}}}
      responses:
        202: {description: Reading again., content: {application/json: {schema: Document}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    document = version_service.customise(db.session, current_ports(), current_user, document_id,
                                         json_body().get("output_spec"))
    return jsonify(document_json(document)), 202


@bp.post("/documents/<document_id>/corrections")
@login_required
def corrections(document_id):
    """A person corrects fields.
    ---
    post:
      tags: [versions]
      summary: Correct fields of a finished document (a new content version)
      parameters: [DocumentId]
      requestBody: {required: true, content: {application/json: {schema: Corrections}}}
      responses:
        200: {description: Corrected., content: {application/json: {schema: Document}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
        503: Unavailable
    """
    document = version_service.correct(db.session, current_ports(), current_user, document_id,
                                       json_body().get("changes"))
    return jsonify(document_json(document))


@bp.post("/documents/<document_id>/revert")
@login_required
def revert(document_id):
    """Back one version.
    ---
    post:
      tags: [versions]
      summary: Go back to the version before the newest
      parameters: [DocumentId]
      responses:
        200: {description: Reverted., content: {application/json: {schema: Document}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
        503: Unavailable
    """
    return jsonify(document_json(version_service.revert(db.session, current_ports(), current_user, document_id)))


def _version_body(document_id: str, part: str):
    document = documents.get_visible(db.session, current_user, document_id)
    number = params.int_arg("version")
    version, body = version_service.version_body(db.session, current_ports(), document, part, number)
    return jsonify(version=version.number, cause=version.cause, **{part: body})
