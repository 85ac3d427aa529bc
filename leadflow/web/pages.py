"""What every screen shares: the home redirect, labels for templates, the live lists, a document's
history as its viewer may read it, and the checks every request's ids and values pass first.

Each screen (portal, dashboard, review) registers the query of its list in VIEWS; the same
query serves the page load and the snapshot a page re-fetches whenever its socket (re)opens.
"""
from flask import Blueprint, abort, redirect, render_template, request
from flask_login import current_user, login_required
from sqlalchemy import select

from leadflow import scoping
from leadflow.domain.audience import sees_full_history
from leadflow.domain.verification import DOCUMENT_TYPES, LABELS
from leadflow.extensions import db
from leadflow.models import AuditEntry, Document, StatusLogEntry
from leadflow.web import params
from leadflow.web.auth import home_for

bp = Blueprint("pages", __name__)
LIST_LIMIT = 100
# Endpoints whose request is signed or streamed as it came; they check it themselves.
RAW_REQUEST_ENDPOINTS = {"callbacks.receive", "files.upload", "files.download"}

# view name -> function(select of visible documents, request args) -> ordered, filtered select
VIEWS: dict = {}


def live_list(name: str):
    """Register a screen's list query under `name` (a decorator)."""
    def register(query_fn):
        VIEWS[name] = query_fn
        return query_fn
    return register


def documents_for(view: str, args=None, limit: int = LIST_LIMIT):
    query = VIEWS[view](scoping.visible_documents(current_user.viewer), args or {})
    return list(db.session.scalars(query.limit(limit)))


def document_history(document: Document, role) -> list[dict]:
    """What happened to the document, oldest first, as a viewer of `role` may read it: the
    document page's history panel and GET /api/documents/<id>/history both show this.

    Staff and platform admins get every audit row (who, and their notes) and every callback's
    payload; anyone else gets only when the status changed (leadflow.domain.audience)."""
    audit = db.session.scalars(select(AuditEntry).where(AuditEntry.document_id == document.id)
                               .order_by(AuditEntry.created_at, AuditEntry.id)).all()
    if not sees_full_history(role):
        return [{"kind": "status", "at": a.created_at, "from_status": a.from_status, "to_status": a.to_status}
                for a in audit if a.to_status and a.to_status != a.from_status]
    log = db.session.scalars(select(StatusLogEntry).where(StatusLogEntry.document_id == document.id)
                             .order_by(StatusLogEntry.created_at, StatusLogEntry.id)).all()
    entries = [({"kind": "audit", "at": a.created_at, "action": a.action, "from_status": a.from_status,
                 "to_status": a.to_status, "actor_id": a.actor_id, "note": a.note}, (a.created_at, 0, a.id))
               for a in audit]
    entries += [({"kind": "callback", "at": s.created_at, "delivery_id": s.delivery_id, "job_id": s.job_id,
                  "event_type": s.event_type, "payload": s.payload}, (s.created_at, 1, s.id)) for s in log]
    return [entry for entry, _ in sorted(entries, key=lambda pair: pair[1])]


@bp.app_context_processor
def labels():
    return {"DOCUMENT_TYPES": DOCUMENT_TYPES, "TYPE_LABELS": {k: v[0] for k, v in LABELS.items()},
            "TYPE_LABELS_DE": {k: v[1] for k, v in LABELS.items()}}


@bp.app_url_value_preprocessor
def check_path_ids(endpoint, values):
    """Every route: a document or case id in the path that cannot name a row is a 404."""
    params.check_path_values(endpoint, values)


@bp.before_app_request
def refuse_unstorable_input():
    """Every route: a NUL or an absurdly long value is a 400 before any view or query sees it."""
    if request.endpoint not in RAW_REQUEST_ENDPOINTS:
        params.refuse_unstorable_input()


@bp.get("/")
@login_required
def home():
    return redirect(home_for(current_user))


@bp.get("/partials/documents")
@login_required
def documents_partial():
    view = request.args.get("view", "")
    if view not in VIEWS:
        abort(404)
    return render_template("documents/_rows.html", documents=documents_for(view, request.args), viewer=current_user)
