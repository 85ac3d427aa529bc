"""The platform admins' review queue: documents waiting for a person, oldest first."""
from flask import Blueprint, abort, render_template, request
from flask_login import current_user

from leadflow import scoping
from leadflow.domain.audience import Role
from leadflow.domain.lifecycle import Status
from leadflow.errors import LeadflowError
from leadflow.models import Document
from leadflow.services import review as review_service
from leadflow.web.auth import roles_required
from leadflow.web.pages import documents_for, live_list

bp = Blueprint("review", __name__, url_prefix="/review")


@live_list("review")
def review_documents(query, args):
    return query.where(Document.status == Status.ACTION_REQUIRED.value).order_by(
        Document.status_changed_at.asc(), Document.id.asc())


@bp.get("")
@roles_required(Role.PLATFORM_ADMIN)
def index():
    return render_template("review/index.html", view="review", documents=documents_for("review"))


@bp.post("/<document_id>/decide")
@roles_required(Role.PLATFORM_ADMIN)
def decide(document_id):
    try:
        if request.form.get("action") == "reject":
            document = review_service.decide(current_user, document_id,
                                             reject_reason=request.form.get("reason") or "Rejected by a reviewer.")
        else:
            document = review_service.decide(current_user, document_id,
                                             document_type=request.form.get("document_type"))
    except LeadflowError as error:
        document = scoping.document_for_viewer(current_user.viewer, document_id)
        if document is None:
            abort(404)
        return render_template("documents/_row.html", document=document, viewer=current_user,
                               error=error.message), error.status
    return render_template("documents/_row.html", document=document, viewer=current_user)
