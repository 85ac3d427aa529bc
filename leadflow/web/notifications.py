"""Email settings: which kinds of email a user gets (a settings page), and the one-click
unsubscribe link every email carries (a signed token: no sign-in, as a mail client's
List-Unsubscribe-Post sends it too).

Only a POST unsubscribes (RFC 8058): mail filters and link scanners open every link of an email
with a GET, and must not opt its reader out of anything. A GET shows the button that POSTs."""
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import force_locale, gettext
from flask_login import current_user, login_required

from leadflow.domain.document_types import N_
from leadflow.extensions import db
from leadflow.services import notifications
from leadflow.web import i18n

bp = Blueprint("notifications", __name__, url_prefix="/notifications")
# A token is a few dozen characters; anything far longer is not one of ours.
MAX_TOKEN_LENGTH = 200


# What each kind of email is, in the reader's words (notifications.KINDS).
KIND_LABELS = {
    notifications.DOCUMENT_REJECTED: N_("A document of mine was rejected"),
    notifications.MISSING_REMINDER: N_("Reminders of documents still missing"),
    notifications.DOCUMENT_STALE: N_("A document of mine is too old for the lender now"),
    notifications.ADVISOR_DIGEST: N_("A daily digest of what changed in my cases"),
}


@bp.get("/settings")
@login_required
def settings():
    kinds = notifications.kinds_for(current_user.role)
    return render_template("notifications/settings.html", kinds=kinds, labels=_labels(kinds),
                           enabled=notifications.enabled_kinds(db.session, current_user))


@bp.post("/settings")
@login_required
def save_settings():
    chosen = set(request.form.getlist("kind"))
    if not chosen <= set(notifications.kinds_for(current_user.role)):
        abort(400, description=gettext("That is not a kind of email we send you."))
    notifications.set_preferences(db.session, current_user, chosen)
    flash(gettext("Your email settings are saved."), "ok")
    return redirect(url_for("notifications.settings"), code=303)


@bp.route("/unsubscribe/<token>", methods=["GET", "POST"])
def unsubscribe(token: str):
    """The email's link (GET: asks, writes nothing) and its button or a mail client's one-click
    POST (no more of that kind)."""
    confirmed = request.method == "POST"
    use_case = notifications.unsubscribe if confirmed else notifications.unsubscribe_subject
    found = use_case(db.session, current_app.config, token) if len(token) <= MAX_TOKEN_LENGTH else None
    if found is None:
        return render_template("notifications/unsubscribed.html", user=None, label=None), 404
    user, kind = found
    with force_locale(i18n.language_of(user)):
        return render_template("notifications/unsubscribed.html", user=user, lang=i18n.language_of(user),
                               label=gettext(KIND_LABELS[kind]), confirmed=confirmed, token=token)


def _labels(kinds) -> dict:
    return {kind: gettext(KIND_LABELS[kind]) for kind in kinds}
