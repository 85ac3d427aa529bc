"""The brokerage's dashboard: every document of its cases, live, and each document's page."""
from flask import Blueprint, abort, redirect, render_template
from flask_login import current_user, login_required
from sqlalchemy import select

from leadflow import scoping
from leadflow.domain.audience import Role
from leadflow.extensions import db
from leadflow.models import AuditEntry, Document, StatusLogEntry
from leadflow.web.auth import roles_required
from leadflow.web.pages import documents_for, live_list
from leadflow.wiring import adapters

bp = Blueprint("dashboard", __name__)


@live_list("dashboard")
def dashboard_documents(query, args):
    return query.order_by(Document.created_at.desc(), Document.id.desc())


@bp.get("/dashboard")
@roles_required(Role.ADVISOR, Role.BROKERAGE_ADMIN)
def index():
    return render_template("dashboard/index.html", view="dashboard", documents=documents_for("dashboard"))


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
