"""The JSON API's routes for a case's applicants: list them, add the co-applicant (as the case page
and the portal do), correct one, remove the co-applicant. On the API's blueprint (leadflow.web.api)."""
from flask import abort, jsonify
from flask_login import current_user, login_required

from leadflow.domain.applicants import CO_APPLICANT, ROLES
from leadflow.domain.audience import Role
from leadflow.errors import Conflict, InvalidInput
from leadflow.extensions import db
from leadflow.models import Workspace
from leadflow.ports import current_ports
from leadflow.services import applicants, views, whose
from leadflow.web import params
from leadflow.web.api import applicant_json, bp, json_body

DETAILS = ("name", "date_of_birth", "citizenship")


@bp.get("/workspaces/<int:workspace_id>/applicants")
@login_required
def list_applicants(workspace_id):
    """Who applies for a case.
    ---
    get:
      tags: [applicants]
      summary: A case's applicants, the client first
      description: Staff of the case's brokerage and platform admins, or a client of the case, may read them.
      parameters: [WorkspaceId]
      responses:
        200: {description: The applicants., content: {application/json: {schema: Applicants}}}
        404: NotFound
    """
    case = _case_or_404(workspace_id)
    return jsonify(applicants=[applicant_json(p) for p in applicants.people(db.session, case)])


@bp.post("/workspaces/<int:workspace_id>/applicants")
@login_required
def add_applicant(workspace_id):
    """Add the co-applicant.
    ---
    post:
      tags: [applicants]
      summary: Add a case's co-applicant (the advisor or the case's client)
      description: The case's documents waiting because they name someone not on it, when that someone is
        the person added, are judged again. A case has at most one co-applicant.
      parameters: [WorkspaceId]
      requestBody: {required: true, content: {application/json: {schema: NewApplicant}}}
      responses:
        201: {description: Added., content: {application/json: {schema: Applicant}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    case = _case_or_404(workspace_id)
    details = _details(json_body(), required=("name",))
    person = whose.add_co_applicant(db.session, current_ports(), current_user, case, **details)
    return jsonify(applicant_json(person)), 201


@bp.patch("/workspaces/<int:workspace_id>/applicants/<role>")
@login_required
def correct_applicant(workspace_id, role):
    """Correct an applicant.
    ---
    patch:
      tags: [applicants]
      summary: Correct an applicant's name, date of birth or citizenship (the advisor)
      description: Only the fields sent change; an empty date of birth or citizenship is unknown. A corrected
        name may be the one documents waiting for a person name; they are judged again.
      parameters: [WorkspaceId, ApplicantRole]
      requestBody: {required: true, content: {application/json: {schema: ApplicantCorrection}}}
      responses:
        200: {description: Corrected., content: {application/json: {schema: Applicant}}}
        400: BadRequest
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    case = _case_or_404(workspace_id)
    if role not in ROLES:
        abort(404)
    changes = _details(json_body())
    person = whose.correct_applicant(db.session, current_ports(), current_user, case, role, changes)
    return jsonify(applicant_json(person))


@bp.delete("/workspaces/<int:workspace_id>/applicants/<role>")
@login_required
def remove_applicant(workspace_id, role):
    """Remove the co-applicant.
    ---
    delete:
      tags: [applicants]
      summary: Remove a case's co-applicant (the advisor)
      description: Their accepted documents, and those waiting for a person, go back to a person
        (ACTION_REQUIRED, `not_on_case`). The client stays on the case (409).
      parameters: [WorkspaceId, ApplicantRole]
      responses:
        200: {description: Removed., content: {application/json: {schema: ApplicantRemoved}}}
        403: Forbidden
        404: NotFound
        409: Conflict
    """
    case = _case_or_404(workspace_id)
    if role not in ROLES:
        abort(404)
    if role != CO_APPLICANT:
        raise Conflict("The client stays on the case; correct their details instead.")
    back = whose.remove_co_applicant(db.session, current_ports(), current_user, case)
    return jsonify(back_to_a_person=back,
                   applicants=[applicant_json(p) for p in applicants.people(db.session, case)])


def _details(body: dict, required=()) -> dict:
    """The applicant fields sent, each a string (or null: unknown); anything else is a 400."""
    unknown = sorted(set(body) - set(DETAILS))
    if unknown:
        raise InvalidInput(f"Unknown field(s): {', '.join(unknown)}; send {', '.join(DETAILS)}.")
    details = {}
    for name in DETAILS:
        if name not in body:
            continue
        if body[name] is not None and not isinstance(body[name], str):
            raise InvalidInput(f"{name} must be a string.")
        details[name] = params.text(body[name], name, max_length=200) or ""
    missing = [name for name in required if not details.get(name)]
    if missing:
        raise InvalidInput(f"Send {', '.join(missing)}.")
    return details


def _case_or_404(workspace_id: int) -> Workspace:
    """The case if the caller works on it (staff of its brokerage, a platform admin) or is its client."""
    if current_user.role == Role.CLIENT:
        case = next((c for c in views.client_cases(db.session, current_user.id) if c.id == workspace_id), None)
    else:
        case = views.workspace_for(db.session, current_user.viewer, workspace_id)
    if case is None:
        abort(404)
    return case
