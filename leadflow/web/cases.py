"""A mortgage case (a workspace) as staff see it: its members and applicants, its checks across
documents, its income summary, its checklist and its documents live."""
from datetime import date

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user

from leadflow import countries, words
from leadflow.domain.applicants import ROLES
from leadflow.domain.audience import (STAFF_ROLES, Role, may_correct_applicants, may_name_applicants, may_plan_payout,
                                      may_see_case_checks)
from leadflow.errors import LeadflowError
from leadflow.extensions import db
from leadflow.models import Workspace
from leadflow.services import applicants, case_file, checklist, views, whose
from leadflow.web.i18n import error_words, language_of
from leadflow.web import params
from leadflow.web.auth import roles_required
from leadflow.web.templating import EXAMPLE_DAY, page_language, preload_names
from leadflow.ports import current_ports

bp = Blueprint("cases", __name__)


@bp.get("/workspaces/<int:workspace_id>")
@roles_required(*STAFF_ROLES, Role.PLATFORM_ADMIN)
def show(workspace_id):
    return _page(_workspace_or_404(workspace_id))


def _page(case: Workspace, **extra) -> str:
    rows = views.live_list(db.session, current_user.viewer, "workspace", {"workspace": case.id})
    preload_names(rows)
    return render_template("workspaces/show.html", view="workspace", workspace=case,
                           members=views.case_members(db.session, case), viewer=current_user, documents=rows,
                           items=checklist.for_workspace(db.session, current_ports().storage, case.id,
                                                         case.brokerage_id),
                           people=applicants.people(db.session, case),
                           names_applicants=may_name_applicants(current_user.role),
                           corrects_applicants=may_correct_applicants(current_user.role),
                           countries=countries.named(language_of(current_user)),
                           country_name=lambda code: countries.name_of(code, language_of(current_user)),
                           **_case_file(case), **extra)


@bp.get("/workspaces/<int:workspace_id>/checklist")
@roles_required(*STAFF_ROLES, Role.PLATFORM_ADMIN)
def checklist_partial(workspace_id):
    case = _workspace_or_404(workspace_id)
    return render_template("workspaces/_checklist.html", workspace=case,
                           items=checklist.for_workspace(db.session, current_ports().storage, case.id,
                                                         case.brokerage_id))


@bp.get("/workspaces/<int:workspace_id>/checks")
@roles_required(*STAFF_ROLES, Role.PLATFORM_ADMIN)
def checks_partial(workspace_id):
    """The checks and the income summary, re-fetched when a document of the case is pushed."""
    case = _workspace_or_404(workspace_id)
    if not may_see_case_checks(current_user.role):
        abort(403)
    return render_template("workspaces/_case_file.html", workspace=case, **_case_file(case))


@bp.post("/workspaces/<int:workspace_id>/payout-date")
@roles_required(*STAFF_ROLES)
def set_payout_date(workspace_id):
    """The advisor's planned payout date (empty: not planned yet); a date that is not one is a 400."""
    case = _workspace_or_404(workspace_id)
    if not may_plan_payout(current_user.role):
        abort(403)
    try:
        day = _payout_date(request.form.get("planned_payout_date"))
    except ValueError:
        return _page(case, payout_error=_("Enter the payout date as a date, e.g. %(day)s.",
                                          day=words.day(EXAMPLE_DAY, page_language()))), 400
    case_file.set_planned_payout(db.session, case, day)
    return redirect(url_for("cases.show", workspace_id=case.id) + "#case-file", code=303)


@bp.post("/workspaces/<int:workspace_id>/applicants")
@roles_required(*STAFF_ROLES)
def add_applicant(workspace_id):
    """The advisor adds the case's co-applicant; a bad field is a 400 that writes nothing."""
    case = _workspace_or_404(workspace_id)
    try:
        whose.add_co_applicant(db.session, current_ports(), current_user, case, name=request.form.get("name"),
                               date_of_birth=params.typed_day(request.form.get("date_of_birth")),
                               citizenship=request.form.get("citizenship"))
    except LeadflowError as error:
        return _page(case, applicant_error=error_words(error), applicant_form=request.form), error.status
    return redirect(url_for("cases.show", workspace_id=case.id) + "#applicants", code=303)


@bp.post("/workspaces/<int:workspace_id>/applicants/co_applicant/remove")
@roles_required(*STAFF_ROLES)
def remove_applicant(workspace_id):
    """The advisor removes the co-applicant; their documents go back to a person."""
    case = _workspace_or_404(workspace_id)
    try:
        whose.remove_co_applicant(db.session, current_ports(), current_user, case)
    except LeadflowError as error:
        db.session.rollback()
        return _page(case, applicant_error=error_words(error)), error.status
    return redirect(url_for("cases.show", workspace_id=case.id) + "#applicants", code=303)


@bp.post("/workspaces/<int:workspace_id>/applicants/<role>")
@roles_required(*STAFF_ROLES)
def set_applicant(workspace_id, role):
    """The advisor corrects an applicant: the fields the form sends (name, citizenship, date of birth)."""
    case = _workspace_or_404(workspace_id)
    if role not in ROLES:
        abort(404)
    changes = {name: request.form[name] for name in ("name", "date_of_birth", "citizenship") if name in request.form}
    if "date_of_birth" in changes:
        changes["date_of_birth"] = params.typed_day(changes["date_of_birth"])
    try:
        whose.correct_applicant(db.session, current_ports(), current_user, case, role, changes)
    except LeadflowError as error:
        db.session.rollback()
        return _page(case, applicant_error=error_words(error)), error.status
    return redirect(url_for("cases.show", workspace_id=case.id) + "#applicants", code=303)


# A payout date outside these is a typing slip, not a plan.
MIN_PAYOUT, MAX_PAYOUT = date(2000, 1, 1), date(2100, 12, 31)


def _payout_date(raw) -> date | None:
    """A date typed in either language's format, None when left empty; ValueError for anything else."""
    text = (raw or "").strip()
    if not text:
        return None
    day = words.parse_day(text)
    if day is None or not MIN_PAYOUT <= day <= MAX_PAYOUT:
        raise ValueError(text)
    return day


def _case_file(case: Workspace) -> dict:
    """The checks and summary, and each check's words in the request's language."""
    if not may_see_case_checks(current_user.role):
        return {"file": None, "words": {}}
    file = case_file.case_file(db.session, current_ports(), case)
    return {"file": file, "words": [r.words(_) for r in file.checks],
            "plans_payout": may_plan_payout(current_user.role)}


def _workspace_or_404(workspace_id: int) -> Workspace:
    case = views.workspace_for(db.session, current_user.viewer, workspace_id)
    if case is None:
        abort(404)
    return case
