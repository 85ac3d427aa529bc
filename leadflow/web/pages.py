"""What every screen shares: the home redirect, the snapshot of a live list, and the checks every
request's ids and values pass first.

Each screen's list query is registered in leadflow.services.views.LISTS; the same query serves
the page load and the snapshot a page re-fetches whenever its socket (re)opens.
"""
from flask import Blueprint, abort, redirect, render_template, request
from flask_login import current_user, login_required

from leadflow.extensions import db
from leadflow.services import views
from leadflow.web import i18n, params
from leadflow.web.auth import home_for, safe_next

bp = Blueprint("pages", __name__)
# Endpoints whose request is signed or streamed as it came; they check it themselves. The bare
# signed endpoint of `make bench-callbacks` is one too, so it is measured as the callback is.
RAW_REQUEST_ENDPOINTS = {"callbacks.receive", "files.upload", "files.download", "bench.signed_noop"}


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


@bp.post("/language")
@login_required
def language():
    """Remember the person's language (staff choose it in the page's header, clients on the portal);
    the page they were on comes back in it."""
    current_user.language = i18n.checked_language(request.form.get("language"))
    db.session.commit()
    return redirect(safe_next(request.form.get("next")) or home_for(current_user), code=303)


@bp.get("/partials/documents")
@login_required
def documents_partial():
    view = request.args.get("view", "")
    if view not in views.LISTS:
        abort(404)
    return read_only(render_template("documents/_rows.html", viewer=current_user,
                                     documents=views.live_list(db.session, current_user.viewer, view, request.args)))


def read_only(response):
    """A page that only read, rendered: its transaction ends in a COMMIT. Left to the end of the
    request it would end in a ROLLBACK, and psycopg forgets every statement it prepared on the
    connection at a rollback: the next request on it prepared its few statements again, a
    round trip each (about 9 per dashboard page). Only for handlers that write nothing."""
    db.session.commit()
    return response
