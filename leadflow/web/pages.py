"""What every screen shares: the home redirect, labels for templates, and the live lists.

Each screen (portal, dashboard, review) registers the query of its list in VIEWS; the same
query serves the page load and the snapshot a page re-fetches whenever its socket (re)opens.
"""
from flask import Blueprint, abort, redirect, render_template, request
from flask_login import current_user, login_required

from leadflow import scoping
from leadflow.domain.verification import DOCUMENT_TYPES, LABELS
from leadflow.extensions import db
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
