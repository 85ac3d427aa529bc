"""A mortgage case (a workspace) as staff see it: its members, its checklist and its documents live."""
from flask import Blueprint, abort, render_template
from flask_login import current_user

from leadflow.domain.audience import STAFF_ROLES, Role
from leadflow.extensions import db
from leadflow.models import Workspace
from leadflow.services import checklist, views
from leadflow.web.auth import roles_required
from leadflow.web.templating import preload_names
from leadflow.ports import current_ports

bp = Blueprint("cases", __name__)


@bp.get("/workspaces/<int:workspace_id>")
@roles_required(*STAFF_ROLES, Role.PLATFORM_ADMIN)
def show(workspace_id):
    case = _workspace_or_404(workspace_id)
    rows = views.live_list(db.session, current_user.viewer, "workspace", {"workspace": case.id})
    preload_names(rows)
    return render_template("workspaces/show.html", view="workspace", workspace=case,
                           members=views.case_members(db.session, case), viewer=current_user, documents=rows,
                           items=checklist.for_workspace(db.session, current_ports().storage, case.id,
                                                         case.brokerage_id))


@bp.get("/workspaces/<int:workspace_id>/checklist")
@roles_required(*STAFF_ROLES, Role.PLATFORM_ADMIN)
def checklist_partial(workspace_id):
    case = _workspace_or_404(workspace_id)
    return render_template("workspaces/_checklist.html", workspace=case,
                           items=checklist.for_workspace(db.session, current_ports().storage, case.id,
                                                         case.brokerage_id))


def _workspace_or_404(workspace_id: int) -> Workspace:
    case = views.workspace_for(db.session, current_user.viewer, workspace_id)
    if case is None:
        abort(404)
    return case
