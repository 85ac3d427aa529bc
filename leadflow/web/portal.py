"""The client's upload portal: the case checklist with its documents live, uploads, and the client's language.

The page uploads straight to storage through the JSON API (static/portal.js); the checklist is a
partial that the page re-fetches whenever its socket (re)opens and after each pushed row, so item
states follow the rows that the pushes replace by id. `POST /portal/upload` is the same upload for a
browser without script.
"""
from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_login import current_user

from leadflow import countries
from leadflow.domain.applicants import CO_APPLICANT, ROLES
from leadflow.domain.audience import Role
from leadflow.domain.checklist import asks_citizenship
from leadflow.domain.packets import PACKET_KIND
from leadflow.errors import LeadflowError
from leadflow.extensions import db
from leadflow.models import Workspace
from leadflow.services import applicants, checklist, documents, views, whose
from leadflow.web import i18n, packets, params
from leadflow.web.auth import roles_required
from leadflow.ports import current_ports

bp = Blueprint("portal", __name__, url_prefix="/portal")
# A case holds tens of documents; this bounds a page for a case that somehow holds thousands.
CASE_LIMIT = 500


@bp.get("")
@roles_required(Role.CLIENT)
def index():
    cases = _cases()
    return _page(cases, _chosen(cases, request.args.get("case")))


def _page(cases: list[Workspace], case: Workspace | None, **extra) -> str:
    lang = i18n.language_of(current_user)
    return render_template("portal/index.html", lang=lang, cases=cases, case=case,
                           chosen_kind=request.args.get("for") or "", script_text=i18n.script_text(lang),
                           max_mb=current_app.config["MAX_UPLOAD_BYTES"] // (1024 * 1024),
                           people=applicants.people(db.session, case) if case else (),
                           countries=countries.named(lang), **_checklist_context(case), **extra)


@bp.get("/checklist")
@roles_required(Role.CLIENT)
def checklist_partial():
    case = _chosen(_cases(), request.args.get("case"))
    return render_template("portal/_checklist.html", lang=i18n.language_of(current_user), case=case,
                           **_checklist_context(case))


@bp.post("/upload")
@roles_required(Role.CLIENT)
def upload():
    """Without script: the form posts its files here; each is stored and checked like a direct upload."""
    lang = i18n.language_of(current_user)
    files = [f for f in request.files.getlist("file") if f and f.filename]
    if not files:
        flash(i18n.t("choose_first", lang), "error")
    # The form's own fields are checked once, before any file is stored.
    kind = params.text(request.form.get("kind"), "kind", max_length=40)
    # "Several documents in one file": the file is split into its documents (issue 40).
    split = kind == PACKET_KIND
    kind = None if split else kind
    workspace_id = params.optional_integer(request.form.get("workspace_id"), "workspace_id")
    max_bytes = current_app.config["MAX_UPLOAD_BYTES"]
    for file in files:
        try:
            document = documents.upload(db.session, current_ports(), current_user, filename=file.filename,
                                        data=file.stream.read(max_bytes + 1), title=None, kind=kind,
                                        workspace_id=workspace_id, max_bytes=max_bytes, split=split)
        except LeadflowError as error:
            flash(i18n.t("not_uploaded", lang, name=file.filename, reason=error.message), "error")
            continue
        flash(i18n.t("uploaded_one", lang, name=document.title), "ok")
    return redirect(url_for("portal.index", case=workspace_id), code=303)


@bp.post("/applicants")
@roles_required(Role.CLIENT)
def add_applicant():
    """The client adds a co-applicant to their case; a bad field is told on the page and writes nothing."""
    case = _own_case(request.form.get("case"))
    try:
        whose.add_co_applicant(db.session, current_ports(), current_user, case, name=request.form.get("name"),
                               date_of_birth=params.typed_day(request.form.get("date_of_birth")),
                               citizenship=request.form.get("citizenship"))
    except LeadflowError as error:
        return _page(_cases(), case, applicant_error=i18n.error_words(error), applicant_form=request.form), error.status
    return redirect(url_for("portal.index", case=case.id) + "#applicants", code=303)


@bp.post("/citizenship")
@roles_required(Role.CLIENT)
def citizenship():
    """The client tells an applicant's citizenship (the residence-permit item follows it)."""
    case = _own_case(request.form.get("case"))
    role = request.form.get("role")
    if role not in ROLES:
        abort(400)
    try:
        applicants.set_details(db.session, current_user, case, role, citizenship=request.form.get("citizenship"),
                               keep_birth=True)
    except LeadflowError as error:
        return _page(_cases(), case, applicant_error=i18n.error_words(error)), error.status
    return redirect(url_for("portal.index", case=case.id) + "#applicants", code=303)


@bp.post("/language")
@roles_required(Role.CLIENT)
def language():
    """Remember the client's language; the page comes back in it."""
    current_user.language = i18n.checked_language(request.form.get("language"))
    db.session.commit()
    return redirect(url_for("portal.index", case=request.form.get("case") or None), code=303)


def _cases() -> list[Workspace]:
    return views.client_cases(db.session, current_user.id)


def _own_case(wanted) -> Workspace:
    """One of the client's own cases, by id; another's (or none) is a 404."""
    case = next((c for c in _cases() if str(c.id) == str(wanted)), None)
    if case is None:
        abort(404)
    return case


def _chosen(cases: list[Workspace], wanted) -> Workspace | None:
    return next((c for c in cases if str(c.id) == str(wanted)), cases[0] if cases else None)


def _checklist_context(case: Workspace | None) -> dict:
    """The case's checklist items, each with its documents, and the visible documents on no item."""
    rows = views.case_documents(db.session, current_user.viewer, case, CASE_LIMIT)
    by_id = {d.id: d for d in rows}
    states = checklist.for_documents(db.session, current_ports().storage, rows, case.id if case else None)
    placed = {d.id for s in states for d in s.documents}
    items = [(s, [by_id[d.id] for d in s.documents]) for s in states]
    needed = [s for s in states if s.state != "not_needed"]
    return {"items": items, "packets": packets.portal_packets(rows),
            "others": [d for d in rows if d.id not in placed and not packets.under_its_packet_only(d)],
            "done": sum(s.state == "done" for s in needed), "total": len(needed), "viewer": current_user,
            "two_applicants": any(s.person and s.person.role == CO_APPLICANT for s in states),
            "ask_citizenship": asks_citizenship(states) if case else []}
