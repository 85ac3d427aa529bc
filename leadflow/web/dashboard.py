"""The brokerage's live dashboard: every document of the brokerage, filtered, searched and paged,
with counts per status."""
from flask import Blueprint, abort, render_template, request, url_for
from flask_login import current_user

from leadflow.domain.audience import STAFF_ROLES
from leadflow.extensions import db
from leadflow.models import Brokerage
from leadflow.services import views
from leadflow.services.search import Filters
from leadflow.web.auth import roles_required
from leadflow.web.pages import read_only
from leadflow.web.templating import preload_names

bp = Blueprint("dashboard", __name__)

# One page of the dashboard is the size of the snapshot a page re-fetches when its socket opens.
PAGE_SIZE = views.LIST_LIMIT


@bp.get("/dashboard")
@roles_required(*STAFF_ROLES)
def index():
    filters = Filters.from_args(request.args)
    page = views.document_page(db.session, current_user.viewer, filters, PAGE_SIZE)
    preload_names(page.documents)
    brokerage_id = current_user.brokerage_id
    context = dict(view="dashboard", documents=page.documents, filters=filters, next_cursor=page.next_cursor,
                   page_size=PAGE_SIZE, viewer=current_user._get_current_object(),
                   counts=views.status_counts(db.session, brokerage_id))
    if request.headers.get("HX-Target") == "results":
        # Live search and filter changes swap the results only (the socket stays open); the
        # address bar gets the filters' link, without the empty fields the form sent.
        # The counts come along out of band: their links keep the new filters.
        return read_only(render_template("dashboard/_results.html", **context, counts_oob=True)), 200, \
            {"HX-Push-Url": url_for("dashboard.index", **filters.args())}
    return read_only(render_template(
        "dashboard/index.html", **context, brokerage=db.session.get(Brokerage, brokerage_id),
        workspaces=views.workspace_options(db.session, brokerage_id, selected=filters.workspace_id),
        clients=views.client_options(db.session, brokerage_id, selected=filters.client_id)))


@bp.get("/dashboard/counts")
@roles_required(*STAFF_ROLES)
def status_counts():
    return read_only(render_template("dashboard/_counts.html", filters=Filters.from_args(request.args),
                                     counts=views.status_counts(db.session, current_user.brokerage_id)))


@bp.get("/dashboard/options/<kind>")
@roles_required(*STAFF_ROLES)
def filter_options(kind):
    """The <option>s of the case or client filter, narrowed by part of a name."""
    name = " ".join((request.args.get("name") or "").split())[:100]
    if kind == "workspaces":
        options = views.workspace_options(db.session, current_user.brokerage_id, name)
        everything = "Every case"
    elif kind == "clients":
        options = views.client_options(db.session, current_user.brokerage_id, name)
        everything = "Every client"
    else:
        abort(404)
    return read_only(render_template("dashboard/_options.html", options=[(o.id, o.name) for o in options],
                                     everything=everything, name=name))
