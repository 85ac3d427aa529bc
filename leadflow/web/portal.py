"""The client's upload portal."""
from flask import Blueprint, current_app, render_template, request
from flask_login import current_user, login_required
from sqlalchemy import select

from leadflow.domain.audience import Role
from leadflow.errors import LeadflowError
from leadflow.extensions import db
from leadflow.models import Document, Workspace, WorkspaceMember
from leadflow.services import documents
from leadflow.web.auth import roles_required
from leadflow.web.pages import documents_for, live_list

bp = Blueprint("portal", __name__, url_prefix="/portal")


@live_list("portal")
def portal_documents(query, args):
    return query.order_by(Document.created_at.desc(), Document.id.desc())


@bp.get("")
@roles_required(Role.CLIENT)
def index():
    workspaces = db.session.scalars(select(Workspace).join(WorkspaceMember, WorkspaceMember.workspace_id == Workspace.id)
                                    .where(WorkspaceMember.user_id == current_user.id).order_by(Workspace.id))
    return render_template("portal/index.html", view="portal", documents=documents_for("portal"),
                           workspaces=list(workspaces))


@bp.post("/upload")
@login_required
def upload():
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
