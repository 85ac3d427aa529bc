"""The platform admins' review queue: documents waiting for a person, oldest first; and a
second tab of what went wrong: system failures to retry, work stuck past the sweeps'
thresholds, and ledger discrepancies."""
from datetime import timedelta

from flask import Blueprint, abort, current_app, render_template, request
from flask_login import current_user
from sqlalchemy import select

from leadflow import clock, scoping, sweeps
from leadflow.billing import service as billing
from leadflow.domain.audience import Role
from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import unreadable_fields
from leadflow.errors import InvalidInput, LeadflowError
from leadflow.extensions import db
from leadflow.models import Brokerage, Document, ExtractionJob
from leadflow.services import review as review_service
from leadflow.web.auth import roles_required
from leadflow.web.pages import documents_for, live_list

bp = Blueprint("review", __name__, url_prefix="/review")
FIELD_PREFIX = "field."  # form inputs for the fields a reviewer reads: field.period, field.net, ...
STUCK_LIMIT = 50
# What each stuck status waits for, in the words of the sweep that moves it on.
STUCK = (
    (Status.PENDING, "PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS", "pending",
     "the pending sweep enqueues it again"),
    (Status.PROCESSING, "STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS", "stalled",
     "the stalled sweep resets it to PENDING and enqueues it"),
)


@bp.app_context_processor
def review_helpers():
    # Rows render for socket pushes too, outside this blueprint's requests: an app-wide helper.
    return {"unreadable_fields": unreadable_fields, "FIELD_PREFIX": FIELD_PREFIX,
            "FIELD_HINTS": review_service.TYPED_LIKE}


@live_list("review")
def review_documents(query, args):
    # A system failure handed to a person is on the "Stuck and failed" tab, to retry.
    return query.where(Document.status == Status.ACTION_REQUIRED.value, _not_system_failure()).order_by(
        Document.status_changed_at.asc(), Document.id.asc())


def _not_system_failure():
    return Document.rejection_code.is_(None) | ~Document.rejection_code.like("SYSTEM\\_%", escape="\\")


@live_list("failed")
def failed_documents(query, args):
    """ACTION_REQUIRED (or, from before automatic retries, REJECTED) with a SYSTEM_ code: what an
    admin may retry, newest failure first."""
    return query.where(Document.status.in_([Status.ACTION_REQUIRED.value, Status.REJECTED.value]),
                       Document.rejection_code.like("SYSTEM\\_%", escape="\\")
                       ).order_by(Document.status_changed_at.desc(), Document.id.desc())


@bp.get("")
@roles_required(Role.PLATFORM_ADMIN)
def index():
    return render_template("review/index.html", view="review", documents=documents_for("review"), tab="queue",
                           viewer=current_user)


@bp.get("/stuck")
@roles_required(Role.PLATFORM_ADMIN)
def stuck():
    return render_template("review/stuck.html", view="failed", documents=documents_for("failed"), tab="stuck",
                           viewer=current_user,
                           **_stuck_context())


@bp.get("/stuck/work")
@roles_required(Role.PLATFORM_ADMIN)
def stuck_work():
    return render_template("review/_stuck_work.html", **_stuck_context())


@bp.post("/sweeps/<name>")
@roles_required(Role.PLATFORM_ADMIN)
def run_sweep(name):
    """Run one sweep now instead of waiting for the scheduler."""
    if name not in sweeps.SWEEPS:
        abort(404)
    handled = sweeps.run(name)
    message = (f"The {name} sweep is running elsewhere right now; try again in a moment." if handled is None
               else f"The {name} sweep handled {handled} item{'s' if handled != 1 else ''}.")
    return render_template("review/_stuck_work.html", message=message, **_stuck_context())


@bp.post("/<document_id>/decide")
@roles_required(Role.PLATFORM_ADMIN)
def decide(document_id):
    try:
        if request.form.get("action") == "reject":
            reason = (request.form.get("reason") or "").strip()
            if not reason:
                raise InvalidInput("Give a reason to reject: the client reads it.")
            document = review_service.decide(current_user, document_id, reject_reason=reason)
        elif request.form.get("action") == "read":
            # The fields the reader missed, as the reviewer read them off the preview.
            fields = {key.removeprefix(FIELD_PREFIX): value for key, value in request.form.items()
                      if key.startswith(FIELD_PREFIX)}
            document = review_service.decide(current_user, document_id, fields=fields)
        else:
            document = review_service.decide(current_user, document_id,
                                             document_type=request.form.get("document_type"))
    except LeadflowError as error:
        document = scoping.document_for_viewer(current_user.viewer, document_id)
        if document is None:
            abort(404)
        typed = {key.removeprefix(FIELD_PREFIX): value for key, value in request.form.items()
                 if key.startswith(FIELD_PREFIX)}
        return render_template("documents/_row.html", document=document, viewer=current_user,
                               error=error.message, typed=typed), error.status
    return render_template("documents/_row.html", document=document, viewer=current_user)


def _stuck_context() -> dict:
    now = clock.now()
    visible = scoping.visible_documents(current_user.viewer)
    groups = []
    for status, setting, sweep, remedy in STUCK:
        threshold = timedelta(milliseconds=current_app.config[setting])
        rows = db.session.scalars(visible.where(Document.status == status.value,
                                                Document.status_changed_at < now - threshold)
                                  .order_by(Document.status_changed_at).limit(STUCK_LIMIT)).all()
        groups.append({"status": status.value, "threshold": threshold, "sweep": sweep, "remedy": remedy,
                       "rows": [(d, None) for d in rows]})
    overdue = db.session.execute(
        visible.add_columns(ExtractionJob.deadline_at)
        .join(ExtractionJob, ExtractionJob.id == Document.current_job_id)
        .where(Document.status == Status.EXTRACTING.value, ExtractionJob.deadline_at < now)
        .order_by(ExtractionJob.deadline_at).limit(STUCK_LIMIT)).all()
    groups.append({"status": Status.EXTRACTING.value, "threshold": None, "sweep": "deadline",
                   "remedy": "the deadline sweep asks the service, submits again or fails it",
                   "rows": [(d, deadline) for d, deadline in overdue]})
    problems = billing.check_all()
    names = dict(db.session.execute(select(Brokerage.id, Brokerage.name)
                                    .where(Brokerage.id.in_(list(problems) or [-1]))).all())
    discrepancies = [{"brokerage_id": bid, "brokerage": names.get(bid, f"#{bid}"), "problems": found}
                     for bid, found in sorted(problems.items())]
    return {"stuck_groups": groups, "discrepancies": discrepancies, "now": now,
            "reservation_sweep_available": "reservations" in sweeps.SWEEPS}
