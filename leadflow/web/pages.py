"""The three screens (client portal, advisor dashboard, admin review queue) and their partials."""
from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from sqlalchemy import select

from leadflow import scoping
from leadflow.domain.audience import Role
from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import DOCUMENT_TYPES, LABELS
from leadflow.errors import LeadflowError
from leadflow.extensions import db
from leadflow.models import AuditEntry, Document, StatusLogEntry, Workspace, WorkspaceMember
from leadflow.services import documents
from leadflow.services import review as review_service
from leadflow.web.auth import home_for, roles_required
from leadflow.wiring import adapters

bp = Blueprint("pages", __name__)
LIST_LIMIT = 100

# Each screen's list: which documents, in which order. Also what a reconnecting page re-fetches.
VIEWS = {
    "portal": lambda q: q.order_by(Document.created_at.desc(), Document.id.desc()),
    "dashboard": lambda q: q.order_by(Document.created_at.desc(), Document.id.desc()),
    "review": lambda q: q.where(Document.status == Status.ACTION_REQUIRED.value)
                         .order_by(Document.status_changed_at.asc(), Document.id.asc()),
}


@bp.app_context_processor
def labels():
    return {"DOCUMENT_TYPES": DOCUMENT_TYPES, "TYPE_LABELS": {k: v[0] for k, v in LABELS.items()}}


@bp.get("/")
@login_required
def home():
    return redirect(home_for(current_user))


@bp.get("/portal")
@roles_required(Role.CLIENT)
def portal():
    workspaces = db.session.scalars(select(Workspace).join(WorkspaceMember, WorkspaceMember.workspace_id == Workspace.id)
                                    .where(WorkspaceMember.user_id == current_user.id).order_by(Workspace.id))
    return render_template("portal/index.html", view="portal", documents=_list("portal"),
                           workspaces=list(workspaces))


@bp.post("/portal/upload")
@login_required
def portal_upload():
    file = request.files.get("file")
    if file is None or not file.filename:
        return render_template("portal/_upload_result.html", error="Choose a file to upload."), 422
    max_bytes = current_app.config["MAX_UPLOAD_BYTES"]
    try:
        document = documents.upload(current_user, filename=file.filename, data=file.stream.read(max_bytes + 1),
                                    title=request.form.get("title"), kind=request.form.get("kind"),
                                    workspace_id=request.form.get("workspace_id"), max_bytes=max_bytes)
    except LeadflowError as error:
        return render_template("portal/_upload_result.html", error=error.message), error.status
    return render_template("portal/_upload_result.html", document=document, viewer=current_user)


@bp.get("/dashboard")
@roles_required(Role.ADVISOR, Role.BROKERAGE_ADMIN)
def dashboard():
    return render_template("dashboard/index.html", view="dashboard", documents=_list("dashboard"))


@bp.get("/review", endpoint="review")
@roles_required(Role.PLATFORM_ADMIN)
def review_queue():
    return render_template("review/index.html", view="review", documents=_list("review"))


@bp.post("/review/<document_id>/decide")
@roles_required(Role.PLATFORM_ADMIN)
def decide(document_id):
    try:
        document = _decide(document_id)
    except LeadflowError as error:
        document = scoping.document_for_viewer(current_user.viewer, document_id)
        if document is None:
            abort(404)
        return render_template("documents/_row.html", document=document, viewer=current_user,
                               error=error.message), error.status
    return render_template("documents/_row.html", document=document, viewer=current_user)


def _decide(document_id):
    if request.form.get("action") == "reject":
        return review_service.decide(current_user, document_id,
                                     reject_reason=request.form.get("reason") or "Rejected by a reviewer.")
    return review_service.decide(current_user, document_id, document_type=request.form.get("document_type"))


@bp.get("/partials/documents")
@login_required
def documents_partial():
    view = request.args.get("view", "")
    if view not in VIEWS:
        abort(404)
    return render_template("documents/_rows.html", documents=_list(view), viewer=current_user)


@bp.get("/documents/<document_id>")
@login_required
def document(document_id):
    doc = scoping.document_for_viewer(current_user.viewer, document_id)
    if doc is None:
        abort(404)
    audit = db.session.scalars(select(AuditEntry).where(AuditEntry.document_id == doc.id)
                               .order_by(AuditEntry.created_at, AuditEntry.id))
    callbacks = db.session.scalars(select(StatusLogEntry).where(StatusLogEntry.document_id == doc.id)
                                   .order_by(StatusLogEntry.created_at, StatusLogEntry.id))
    return render_template("documents/show.html", document=doc, viewer=current_user, audit=list(audit),
                           callbacks=list(callbacks))


@bp.get("/documents/<document_id>/file")
@login_required
def document_file(document_id):
    doc = scoping.document_for_viewer(current_user.viewer, document_id)
    if doc is None:
        abort(404)
    return redirect(adapters().storage.download_url(doc.storage_key, expires_in=300))


def _list(view: str) -> list[Document]:
    query = VIEWS[view](scoping.visible_documents(current_user.viewer))
    return list(db.session.scalars(query.limit(LIST_LIMIT)))
