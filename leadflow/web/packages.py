"""A case's lender package (ask, watch it build, download) and the end of a case (close, reopen,
erase a client): thin handlers over services.packages and services.erasure, staff only."""
from flask import Blueprint, abort, flash, make_response, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from leadflow.domain.checklist import ITEMS
from leadflow.errors import InvalidInput
from leadflow.extensions import db
from leadflow.ports import current_ports
from leadflow.services import erasure, packages, views
from leadflow.web.params import MAX_INT, is_document_id
from leadflow.web.templating import page_language

bp = Blueprint("packages", __name__)


@bp.get("/workspaces/<int:workspace_id>/package")
@login_required
def panel(workspace_id):
    return _panel(workspace_id)


@bp.post("/workspaces/<int:workspace_id>/package")
@login_required
def build(workspace_id):
    try:
        packages.request(db.session, current_ports(), current_user, workspace_id)
    except packages.Incomplete as error:
        # Named as the case page's checklist names them: in the page's language, German beside English.
        german = page_language() == "de"
        names = ", ".join(item.de if german else f"{item.en} ({item.de})" for item in ITEMS if item.key in error.items)
        return _panel(workspace_id, error=_("The case is not complete yet: %(items)s.", items=names),
                      status=error.status)
    return _panel(workspace_id, status=202)


@bp.get("/packages/<package_id>/download")
@login_required
def download(package_id):
    if not is_document_id(package_id):
        abort(404)
    return redirect(packages.download_url(db.session, current_ports(), current_user, package_id), code=303)


@bp.post("/workspaces/<int:workspace_id>/close")
@login_required
def close(workspace_id):
    erasure.close_case(db.session, current_ports(), current_user, workspace_id)
    return _erase_panel(workspace_id)


@bp.post("/workspaces/<int:workspace_id>/reopen")
@login_required
def reopen(workspace_id):
    erasure.reopen_case(db.session, current_ports(), current_user, workspace_id)
    return _erase_panel(workspace_id)


@bp.get("/workspaces/<int:workspace_id>/ending")
@login_required
def ending(workspace_id):
    return _erase_panel(workspace_id)


@bp.post("/clients/<int:client_id>/erase")
@login_required
def erase_client(client_id):
    if not 0 < client_id <= MAX_INT:
        abort(404)
    typed = (request.form.get("confirm_email") or "").strip().lower()
    workspace_id = request.form.get("workspace_id", "")
    client = erasure.erasable_client(db.session, current_user, client_id)
    if not typed or typed != client.email.lower():
        raise InvalidInput(_("Type the client's email address to confirm the erasure."), code="confirmation_needed")
    record = erasure.erase_client(db.session, current_ports(), current_user, client_id)
    flash(_("The client was erased: %(documents)s documents and %(files)s files.",
            documents=record.removed.get("documents", 0), files=record.removed.get("files", 0)), "ok")
    # The case may be gone with its client: then back to the dashboard.
    target = url_for("dashboard.index")
    if (workspace_id.isdigit() and 0 < int(workspace_id) <= MAX_INT
            and views.workspace_for(db.session, current_user.viewer, int(workspace_id))):
        target = url_for("cases.show", workspace_id=int(workspace_id))
    if request.headers.get("HX-Request"):
        response = make_response("", 204)
        response.headers["HX-Redirect"] = target
        return response
    return redirect(target, code=303)


def _panel(workspace_id: int, error: str | None = None, status: int = 200):
    progress = packages.progress(db.session, current_ports(), current_user, workspace_id)
    return render_template("workspaces/_package.html", workspace_id=workspace_id, progress=progress,
                           error=error), status


def _erase_panel(workspace_id: int, error: str | None = None, status: int = 200):
    case = erasure.case_for_staff(db.session, current_user, workspace_id)
    return render_template("workspaces/_erase.html", workspace=case,
                           clients=erasure.erasable_clients(db.session, current_user, case), error=error), status

