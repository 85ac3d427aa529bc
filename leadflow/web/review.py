"""The platform admins' review queue: documents waiting for a person, oldest first; and a
second tab of what went wrong: system failures to retry, work stuck past the sweeps'
thresholds, and ledger discrepancies."""
from datetime import timedelta

from flask import Blueprint, abort, current_app, render_template, request
from flask_babel import gettext, ngettext
from flask_login import current_user

from leadflow import clock, sweeps, words
from leadflow.billing import service as billing
from leadflow.domain.audience import Role
from leadflow.domain.lifecycle import Status
from leadflow.errors import InvalidInput, LeadflowError, NotFound
from leadflow.extensions import db
from leadflow.services import documents
from leadflow.services import review as review_service
from leadflow.services import views
# The two lists this screen shows (tests read their queries from here).
from leadflow.services.views import failed_documents, review_documents  # noqa: F401
from leadflow.words import N_
from leadflow.web.auth import roles_required
from leadflow.web.i18n import error_words
from leadflow.ports import current_ports

bp = Blueprint("review", __name__, url_prefix="/review")
FIELD_PREFIX = "field."  # form inputs for the fields a reviewer reads: field.period, field.net, ...
STUCK_LIMIT = 50
# What each stuck status waits for, in the words of the sweep that moves it on.
STUCK = (
    (Status.PENDING, "PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS", "pending",
     N_("the pending sweep enqueues it again")),
    (Status.PROCESSING, "STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS", "stalled",
     N_("the stalled sweep puts it back in the queue and enqueues it")),
)


@bp.get("")
@roles_required(Role.PLATFORM_ADMIN)
def index():
    return render_template("review/index.html", view="review", tab="queue", viewer=current_user,
                           documents=views.live_list(db.session, current_user.viewer, "review"))


@bp.get("/stuck")
@roles_required(Role.PLATFORM_ADMIN)
def stuck():
    return render_template("review/stuck.html", view="failed", tab="stuck", viewer=current_user,
                           documents=views.live_list(db.session, current_user.viewer, "failed"), **_stuck_context())


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
    message = (gettext("This sweep is running elsewhere right now; try again in a moment.") if handled is None
               else ngettext("The sweep handled %(num)s item.", "The sweep handled %(num)s items.", handled))
    return render_template("review/_stuck_work.html", message=message, **_stuck_context())


@bp.post("/<document_id>/decide")
@roles_required(Role.PLATFORM_ADMIN)
def decide(document_id):
    try:
        if request.form.get("action") == "reject":
            reason = (request.form.get("reason") or "").strip()
            if not reason:
                raise InvalidInput(gettext("Give a reason to reject: the client reads it."))
            document = review_service.decide(db.session, current_ports(), current_user, document_id,
                                             reject_reason=reason)
        elif request.form.get("action") == "read":
            # The fields the reader missed, as the reviewer read them off the preview; a date typed
            # as either language writes it (6 Dec 2026, 06.12.2026) goes on as the ISO date.
            fields = {key.removeprefix(FIELD_PREFIX): _iso_if_day(value) for key, value in request.form.items()
                      if key.startswith(FIELD_PREFIX)}
            document = review_service.decide(db.session, current_ports(), current_user, document_id, fields=fields)
        else:
            document = review_service.decide(db.session, current_ports(), current_user, document_id,
                                             document_type=request.form.get("document_type"))
    except LeadflowError as error:
        try:
            document = documents.get_visible(db.session, current_user, document_id)
        except NotFound:
            abort(404)
        typed = {key.removeprefix(FIELD_PREFIX): value for key, value in request.form.items()
                 if key.startswith(FIELD_PREFIX)}
        return render_template("documents/_row.html", document=document, viewer=current_user,
                               error=error_words(error), typed=typed), error.status
    return render_template("documents/_row.html", document=document, viewer=current_user)


def _iso_if_day(value: str) -> str:
    day = words.parse_day(value)
    return day.isoformat() if day else value


def _stuck_context() -> dict:
    now, viewer = clock.now(), current_user.viewer
    groups = []
    for status, setting, sweep, remedy in STUCK:
        threshold = timedelta(milliseconds=current_app.config[setting])
        rows = views.stuck_documents(db.session, viewer, status, now - threshold, STUCK_LIMIT)
        groups.append({"status": status.value, "threshold": threshold, "sweep": sweep, "remedy": remedy,
                       "rows": [(d, None) for d in rows]})
    overdue = views.overdue_extractions(db.session, viewer, now, STUCK_LIMIT)
    groups.append({"status": Status.EXTRACTING.value, "threshold": None, "sweep": "deadline",
                   "remedy": N_("the deadline sweep asks the service, submits again or fails it"),
                   "rows": [(d, deadline) for d, deadline in overdue]})
    problems = billing.check_all(db.session)
    names = views.brokerage_names(db.session, problems) if problems else {}
    discrepancies = [{"brokerage_id": bid, "brokerage": names.get(bid, f"#{bid}"), "problems": found}
                     for bid, found in sorted(problems.items())]
    return {"stuck_groups": groups, "discrepancies": discrepancies, "now": now,
            "reservation_sweep_available": "reservations" in sweeps.SWEEPS}
