"""The brokerage's screens: the live dashboard, a case's page, a document's page and its
actions, and the credits page. Every action goes through the services; an error comes back
as the same partial with the message inline."""
import json
from datetime import datetime

from flask import Blueprint, abort, current_app, g, redirect, render_template, request, url_for
from flask_login import current_user, login_required
from sqlalchemy import func, select

from leadflow import clock, scoping
from leadflow.billing import service as billing
from leadflow.domain.audience import CREDITS_ROLES, Role
from leadflow.domain.lifecycle import Status, is_system_failure
from leadflow.domain.verification import LABELS
from leadflow.errors import Conflict, InvalidInput, LeadflowError, NotFound
from leadflow.extensions import db
from leadflow.models import (Brokerage, CreditReservation, Document, DocumentVersion, ExtractionJob, User, Workspace,
                             WorkspaceMember)
from leadflow.services import checklist, counts, documents, review, search
from leadflow.services import versions as version_service
from leadflow.web import params
from leadflow.web.auth import roles_required
from leadflow.web.pages import LIST_LIMIT, document_history, documents_for, live_list
from leadflow.wiring import adapters

bp = Blueprint("dashboard", __name__)

# One page of the dashboard is the size of the snapshot a page re-fetches when its socket opens.
PAGE_SIZE = LIST_LIMIT
STAFF = (Role.ADVISOR, Role.BROKERAGE_ADMIN)
# The order statuses appear in, as a document moves through them.
STATUS_ORDER = ("PENDING", "PROCESSING", "EXTRACTING", "ACTION_REQUIRED", "VERIFIED", "REJECTED")
CHART_MONTHS = 12
# A signed file link lives this long: enough to open the preview, too short to pass around.
FILE_LINK_SECONDS = 300
PREVIEW_IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")
ACRONYMS = {"iban", "bic", "id", "mrz", "vat", "ust", "eur"}


# --- the dashboard -------------------------------------------------------------------------

@live_list("dashboard")
def dashboard_documents(query, args):
    return search.apply(query, search.Filters.from_args(args))


@bp.get("/dashboard")
@roles_required(*STAFF)
def index():
    filters = search.Filters.from_args(request.args)
    rows = documents_for("dashboard", request.args, limit=PAGE_SIZE + 1)
    next_cursor = search.Cursor.after(rows[PAGE_SIZE - 1]) if len(rows) > PAGE_SIZE else None
    rows = rows[:PAGE_SIZE]
    _preload_names(rows)
    context = dict(view="dashboard", documents=rows, filters=filters, next_cursor=next_cursor,
                   page_size=PAGE_SIZE, viewer=current_user._get_current_object())
    if request.headers.get("HX-Target") == "results":
        # Live search and filter changes swap the results only (the socket stays open); the
        # address bar gets the filters' link, without the empty fields the form sent.
        # The counts come along out of band: their links keep the new filters.
        return render_template("dashboard/_results.html", **context, counts=_counts(current_user.brokerage_id),
                               counts_oob=True), 200, {"HX-Push-Url": url_for("dashboard.index", **filters.args())}
    brokerage_id = current_user.brokerage_id
    return render_template(
        "dashboard/index.html", **context, counts=_counts(brokerage_id),
        brokerage=db.session.get(Brokerage, brokerage_id),
        workspaces=search.workspace_options(brokerage_id, selected=filters.workspace_id),
        clients=search.client_options(brokerage_id, selected=filters.client_id))


@bp.get("/dashboard/counts")
@roles_required(*STAFF)
def status_counts():
    return render_template("dashboard/_counts.html", counts=_counts(current_user.brokerage_id),
                           filters=search.Filters.from_args(request.args))


@bp.get("/dashboard/options/<kind>")
@roles_required(*STAFF)
def filter_options(kind):
    """The <option>s of the case or client filter, narrowed by part of a name."""
    name = " ".join((request.args.get("name") or "").split())[:100]
    if kind == "workspaces":
        options = [(w.id, w.name) for w in search.workspace_options(current_user.brokerage_id, name)]
        everything = "Every case"
    elif kind == "clients":
        options = [(u.id, u.name) for u in search.client_options(current_user.brokerage_id, name)]
        everything = "Every client"
    else:
        abort(404)
    return render_template("dashboard/_options.html", options=options, everything=everything, name=name)


# --- a case ---------------------------------------------------------------------------------

@live_list("workspace")
def workspace_documents(query, args):
    try:
        workspace_id = params.optional_integer(args.get("workspace"), "workspace") or 0
    except InvalidInput:
        workspace_id = 0   # a case nobody has: an empty list
    return query.where(Document.workspace_id == workspace_id).order_by(Document.created_at.desc(),
                                                                      Document.id.desc())


@bp.get("/workspaces/<int:workspace_id>")
@roles_required(*STAFF, Role.PLATFORM_ADMIN)
def workspace(workspace_id):
    case = _workspace_or_404(workspace_id)
    rows = documents_for("workspace", {"workspace": case.id})
    _preload_names(rows)
    members = db.session.scalars(scoping.in_brokerage(User, case.brokerage_id)
                                 .join(WorkspaceMember, WorkspaceMember.user_id == User.id)
                                 .where(WorkspaceMember.workspace_id == case.id).order_by(User.name)).all()
    return render_template("workspaces/show.html", view="workspace", workspace=case, members=members,
                           viewer=current_user, documents=rows,
                           items=checklist.for_workspace(case.id, case.brokerage_id))


@bp.get("/workspaces/<int:workspace_id>/checklist")
@roles_required(*STAFF, Role.PLATFORM_ADMIN)
def workspace_checklist(workspace_id):
    case = _workspace_or_404(workspace_id)
    return render_template("workspaces/_checklist.html", workspace=case,
                           items=checklist.for_workspace(case.id, case.brokerage_id))


# --- a document -----------------------------------------------------------------------------

@bp.get("/documents/<document_id>")
@login_required
def document(document_id):
    doc = _document_or_404(document_id)
    _preload_names([doc])
    context = {"document": doc, "viewer": current_user, "preview": _preview_kind(doc)}
    if _works_on_documents(current_user):
        for panel in PANELS:
            context.update(PANELS[panel][1](doc))
    return render_template("documents/show.html", **context)


@bp.get("/documents/<document_id>/panels/<name>")
@login_required
def document_panel(document_id, name):
    if name not in PANELS or not _works_on_documents(current_user):
        abort(404)
    doc = _document_or_404(document_id)
    template, build = PANELS[name]
    return render_template(template, document=doc, viewer=current_user, **build(doc))


@bp.get("/documents/<document_id>/diff")
@login_required
def document_diff(document_id):
    doc = _document_or_404(document_id)
    if not _works_on_documents(current_user):
        abort(404)
    try:
        older, newer = _int_arg("from"), _int_arg("to")
        (a, body_a), (b, body_b) = (version_service.version_body(doc, "content", n) for n in (older, newer))
    except LeadflowError as error:
        return render_template("documents/_diff.html", error=error.message), error.status
    changes = diff_fields((body_a or {}).get("fields") or {}, (body_b or {}).get("fields") or {})
    return render_template("documents/_diff.html", a=a, b=b, changes=changes)


@bp.get("/documents/<document_id>/file")
@login_required
def document_file(document_id):
    doc = _document_or_404(document_id)
    return redirect(adapters().storage.download_url(doc.storage_key, expires_in=FILE_LINK_SECONDS))


@bp.post("/documents/<document_id>/corrections")
@login_required
def correct(document_id):
    doc = _document_or_404(document_id)
    try:
        changes = _changes_from_form(doc, request.form)
        if not changes:
            raise InvalidInput("Nothing was changed.", code="no_changes")
        doc = version_service.correct(current_user, doc.id, changes)
    except LeadflowError as error:
        return _panel_answer("fields", doc, error=error.message, status=error.status, form=request.form)
    return _panel_answer("fields", doc, message=f"Saved: {', '.join(sorted(changes))}. A new version is "
                                                  "in the chain below.")


@bp.post("/documents/<document_id>/reprocess")
@login_required
def reprocess(document_id):
    return _action(document_id, lambda: version_service.reprocess(current_user, document_id),
                   "Extracting again. The result becomes a new version when it arrives.")


@bp.post("/documents/<document_id>/customise")
@login_required
def customise(document_id):
    fields = list(dict.fromkeys(
        [f for f in request.form.getlist("fields") if f] +
        [f.strip() for f in (request.form.get("more_fields") or "").replace("\n", ",").split(",") if f.strip()]))

    def customised():
        if not fields:
            raise InvalidInput("Pick at least one field to extract.")
        return version_service.customise(current_user, document_id, {"fields": fields})
    return _action(document_id, customised,
                   f"Asked for {', '.join(fields)}. The new shape becomes a version when it arrives.")


@bp.post("/documents/<document_id>/revert")
@login_required
def revert(document_id):
    return _action(document_id, lambda: version_service.revert(current_user, document_id),
                   "Back to the original extraction, as a new version.")


@bp.post("/documents/<document_id>/shares")
@login_required
def share(document_id):
    email = (request.form.get("email") or "").strip()

    def shared():
        if not email:
            raise InvalidInput("Give the email address of the person to share with.")
        documents.share(current_user, document_id, email)
        return _document_or_404(document_id)
    return _action(document_id, shared, f"Shared with {email}. They see it among their documents now.")


@bp.post("/documents/<document_id>/retry")
@login_required
def retry(document_id):
    """Retry a system failure; answers with the row (out of band), its error inline."""
    try:
        doc = review.retry(current_user, document_id)
    except LeadflowError as error:
        doc = _document_or_404(document_id)
        return render_template("documents/_row.html", document=doc, viewer=current_user, oob=True,
                               error=error.message), error.status
    return render_template("documents/_row.html", document=doc, viewer=current_user, oob=True), 200, \
        {"HX-Trigger": "leadflow:document-changed"}


# --- credits --------------------------------------------------------------------------------

@bp.get("/credits")
@roles_required(*CREDITS_ROLES)
def credits():
    brokerage_id = current_user.brokerage_id
    wallet = billing.wallet_state(brokerage_id)
    reservations = db.session.execute(
        scoping.in_brokerage(CreditReservation, brokerage_id)
        .add_columns(Document.id, Document.title)
        .join(ExtractionJob, ExtractionJob.id == CreditReservation.job_id)
        .join(Document, Document.id == ExtractionJob.document_id)
        .where(CreditReservation.status == "open").order_by(CreditReservation.created_at)).all()
    months = settled_by_month(brokerage_id, clock.now(), CHART_MONTHS)
    allowance = current_app.config["CLIENT_DAILY_PAGE_ALLOWANCE"]
    return render_template("credits/index.html", wallet=wallet, reservations=reservations, months=months,
                           chart=bar_chart(months), brokerage=db.session.get(Brokerage, brokerage_id),
                           allowance=allowance,
                           at_allowance=billing.clients_at_allowance(brokerage_id, allowance, clock.now()),
                           # The same check as `leadflow ledger-check`, not a sum of the wallet's own columns.
                           ledger_problems=billing.check_all(brokerage_id).get(brokerage_id, []))


def settled_by_month(brokerage_id: int, now: datetime, months: int) -> list[tuple[str, int]]:
    """Pages settled in each of the last `months` calendar months, oldest first, zeros included."""
    starts = _month_starts(now, months)
    if db.engine.dialect.name == "postgresql":
        month = func.to_char(func.date_trunc("month", CreditReservation.closed_at), "YYYY-MM")
    else:
        month = func.strftime("%Y-%m", CreditReservation.closed_at)
    query = (scoping.in_brokerage(CreditReservation, brokerage_id)
             .with_only_columns(month, func.coalesce(func.sum(CreditReservation.pages_charged), 0))
             .where(CreditReservation.status == "settled", CreditReservation.closed_at >= starts[0])
             .group_by(month))
    totals = {key: int(pages) for key, pages in db.session.execute(query).all()}
    return [(start.strftime("%Y-%m"), totals.get(start.strftime("%Y-%m"), 0)) for start in starts]


def bar_chart(months: list[tuple[str, int]], width: int = 720, height: int = 240) -> dict:
    """Geometry of an inline SVG bar chart: one bar per month, scaled to the largest."""
    top, bottom, left = 24, 40, 48
    plot = height - top - bottom
    highest = max((pages for _, pages in months), default=0)
    step = _nice_ceiling(-(-highest // 4)) or 1      # four gridlines at round numbers
    scale_max = step * 4
    slot = (width - left - 8) / max(len(months), 1)
    bars = []
    for i, (key, pages) in enumerate(months):
        bar_height = round(plot * pages / scale_max, 1)
        x = round(left + i * slot + slot * 0.15, 1)
        bars.append({"month": key, "label": datetime.strptime(key, "%Y-%m").strftime("%b %y"), "pages": pages,
                     "x": x, "width": round(slot * 0.7, 1), "y": round(top + plot - bar_height, 1),
                     "height": bar_height, "cx": round(x + slot * 0.35, 1)})
    ticks = [{"value": step * k, "y": round(top + plot - plot * k / 4, 1)} for k in range(5)]
    return {"width": width, "height": height, "bars": bars, "ticks": ticks, "left": left,
            "baseline": top + plot, "right": width - 8}


# --- helpers shared by the templates --------------------------------------------------------

@bp.app_context_processor
def row_helpers():
    return {"type_label": type_label, "field_label": field_label, "row_names": row_names, "row_cursor": row_cursor,
            "can_retry": can_retry, "is_system_failure": is_system_failure, "STATUS_ORDER": STATUS_ORDER}


def type_label(document_type: str | None) -> str:
    """'bank_statement' -> 'Bank statement'."""
    if not document_type:
        return "—"
    return TYPE_TITLES.get(document_type) or document_type.replace("_", " ").capitalize()


def field_label(name: str) -> str:
    """'closing_balance' -> 'Closing balance', 'iban' -> 'IBAN'."""
    words = [w.upper() if w.lower() in ACRONYMS else w for w in str(name).replace("_", " ").split()]
    if words and words[0] == words[0].lower():
        words[0] = words[0][:1].upper() + words[0][1:]
    return " ".join(words) or str(name)


def _title_case_label(en: str) -> str:
    """'a bank statement' -> 'Bank statement' (the labels carry an article for sentences)."""
    for article in ("a ", "an "):
        if en.startswith(article):
            en = en[len(article):]
    return en[:1].upper() + en[1:]


def row_names(document: Document) -> dict:
    """The client's, the case's and the brokerage's names for a row, with the links that
    filter by them; looked up once per request (a page preloads them all in three queries)."""
    cache = g.setdefault("row_names", {})
    key = (document.owner_id, document.workspace_id, document.brokerage_id)
    if key not in cache and not g.get("names_batched"):
        # The first row of a list: fetch the names of every document this request loaded
        # (the whole list), so that a list costs three queries, not three per row.
        g.names_batched = True
        _preload_names([o for o in db.session.identity_map.values() if isinstance(o, Document)])
    if key not in cache:
        users, cases, brokerages = (g.setdefault("names_" + kind, {}) for kind in ("user", "workspace", "brokerage"))
        if document.owner_id not in users:
            users.update(_name_rows(User, [document.owner_id]))
        if document.workspace_id and document.workspace_id not in cases:
            cases.update(_name_rows(Workspace, [document.workspace_id]))
        if document.brokerage_id not in brokerages:
            brokerages.update(_name_rows(Brokerage, [document.brokerage_id]))
        client, role = users.get(document.owner_id, ("—", None))
        cache[key] = {
            "client": client, "client_role": role,
            "client_url": url_for("dashboard.index", client=document.owner_id),
            "workspace": cases.get(document.workspace_id) if document.workspace_id else None,
            "workspace_url": url_for("dashboard.workspace", workspace_id=document.workspace_id)
            if document.workspace_id else None,
            "brokerage": brokerages.get(document.brokerage_id, ""),
        }
    return cache[key]


def row_cursor(document: Document) -> str:
    return search.Cursor.after(document).encode()


def can_retry(viewer, document: Document) -> bool:
    return (viewer.role in (Role.BROKERAGE_ADMIN, Role.PLATFORM_ADMIN)
            and document.status in (Status.REJECTED, Status.ACTION_REQUIRED)
            and is_system_failure(document.rejection_code))


def diff_fields(older: dict, newer: dict) -> list[dict]:
    """Field by field: what was added, removed or changed from `older` to `newer` (in the
    newer version's order, removed fields last); unchanged fields are left out."""
    changes = []
    for name, value in newer.items():
        if name not in older:
            changes.append({"field": name, "change": "added", "old": None, "new": value})
        elif older[name] != value:
            changes.append({"field": name, "change": "changed", "old": older[name], "new": value})
    changes += [{"field": name, "change": "removed", "old": value, "new": None}
                for name, value in older.items() if name not in newer]
    return changes


def _works_on_documents(user) -> bool:
    return user.is_staff or user.is_platform_admin


def _document_or_404(document_id: str) -> Document:
    doc = scoping.document_for_viewer(current_user.viewer, document_id)
    if doc is None:
        abort(404)
    return doc


def _workspace_or_404(workspace_id: int) -> Workspace:
    if current_user.is_platform_admin:
        case = db.session.get(Workspace, workspace_id)
    else:
        case = db.session.scalar(scoping.in_brokerage(Workspace, current_user.brokerage_id)
                                 .where(Workspace.id == workspace_id))
    if case is None:
        abort(404)
    return case


def _preload_names(rows: list[Document]) -> None:
    """Load the names row_names needs for these rows: one query per table, not per row."""
    g.names_batched = True
    for kind, model, ids in (("user", User, {d.owner_id for d in rows}),
                             ("workspace", Workspace, {d.workspace_id for d in rows} - {None}),
                             ("brokerage", Brokerage, {d.brokerage_id for d in rows})):
        known = g.setdefault("names_" + kind, {})
        missing = ids - set(known)
        if missing:
            known.update(_name_rows(model, missing))


def _name_rows(model, ids) -> dict:
    if model is User:
        return {i: (name, role) for i, name, role in
                db.session.execute(select(User.id, User.name, User.role).where(User.id.in_(ids)))}
    return dict(db.session.execute(select(model.id, model.name).where(model.id.in_(ids))).all())


def _counts(brokerage_id: int) -> dict:
    found = counts.for_brokerage(brokerage_id)
    by_status = {status: found.get(status, 0) for status in STATUS_ORDER}
    return {"by_status": by_status, "total": sum(by_status.values())}


def _preview_kind(doc: Document) -> str:
    content_type = (doc.content_type or "").split(";")[0].strip().lower()
    if content_type == "application/pdf":
        return "pdf"
    if content_type in PREVIEW_IMAGE_TYPES:
        return "image"
    return "none"


def _fields_panel(doc: Document) -> dict:
    try:
        version, body = version_service.version_body(doc, "content")
    except NotFound:
        return {"content_version": None, "fields": {}}
    fields = (body or {}).get("fields") or {}
    return {"content_version": version, "fields": {name: _field_view(value) for name, value in fields.items()}}


def _actions_panel(doc: Document) -> dict:
    """Field names to pick from when customising: every field any version of this document had."""
    names = []
    for version in _content_versions(doc):
        try:
            body = json.loads(adapters().storage.get(version.storage_key))
        except Exception:  # an unreadable old version only narrows the choice offered
            continue
        names += list((body or {}).get("fields") or {})
    return {"field_names": list(dict.fromkeys(names)), "retry_allowed": can_retry(current_user, doc)}


def _versions_panel(doc: Document) -> dict:
    rows = db.session.scalars(select(DocumentVersion).where(DocumentVersion.document_id == doc.id)
                              .order_by(DocumentVersion.part, DocumentVersion.number)).all()
    by_id = {v.id: v for v in rows}
    return {"versions": [v for v in rows if v.part == "content"],
            "schema_versions": [v for v in rows if v.part == "schema"],
            "replaced": {v.id: by_id.get(v.replaces_id) for v in rows},
            "actors": _names({v.actor_id for v in rows})}


def _history_panel(doc: Document) -> dict:
    history = document_history(doc, current_user.role)
    return {"history": history, "actors": _names({e.get("actor_id") for e in history})}


def _content_versions(doc: Document) -> list[DocumentVersion]:
    return list(db.session.scalars(select(DocumentVersion).where(
        DocumentVersion.document_id == doc.id, DocumentVersion.part == "content").order_by(DocumentVersion.number)))


def _names(user_ids) -> dict[int, str]:
    ids = {i for i in user_ids if i is not None}
    if not ids:
        return {}
    return dict(db.session.execute(select(User.id, User.name).where(User.id.in_(ids))).all())


def _field_view(value) -> dict:
    """How a field is edited: scalars in a text box, lists and objects as JSON."""
    if isinstance(value, (dict, list)):
        return {"kind": "json", "text": json.dumps(value, ensure_ascii=False, indent=1), "value": value}
    if value is None:
        return {"kind": "text", "text": "", "value": None}
    if isinstance(value, bool):
        return {"kind": "json", "text": json.dumps(value), "value": value}
    return {"kind": "number" if isinstance(value, (int, float)) else "text", "text": str(value), "value": value}


def _changes_from_form(doc: Document, form) -> dict:
    """The fields the person changed, parsed back into their kinds; refuses a stale form."""
    current = _fields_panel(doc)
    version = current["content_version"]
    if version is None:
        raise Conflict("This document has no extracted data to correct yet.")
    if str(version.number) != (form.get("version") or ""):
        raise Conflict(f"Someone saved version {version.number} while you were editing. "
                       "Reload to see it, then make your change again.")
    changes = {}
    for name, view in current["fields"].items():
        key = f"field.{name}"
        if key not in form:
            continue
        text = form.get(key, "")
        if view["kind"] == "json" and text.strip():
            value = _parse(name, text, "json")
            if value != view["value"]:
                changes[name] = value
        elif text.strip() != view["text"].strip():
            changes[name] = _parse(name, text, view["kind"])
    new_name = (form.get("new_name") or "").strip()
    if new_name:
        if new_name in current["fields"]:
            raise InvalidInput(f"“{new_name}” exists already; change it in its own box.")
        changes[new_name] = _parse(new_name, form.get("new_value") or "", "text")
    return changes


def _parse(name: str, text: str, kind: str):
    text = text.strip()
    if text == "":
        return None
    if kind == "json":
        try:
            return json.loads(text)
        except ValueError:
            raise InvalidInput(f"“{name}” must be valid JSON (a list in [...], an object in {{...}}).")
    if kind == "number":
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return text
    return text


def _panel_answer(name: str, doc: Document, *, status: int = 200, **extra):
    """A panel re-rendered after an action; a success also tells the page's other panels."""
    template, build = PANELS[name]
    context = build(doc)
    if extra.get("form") is not None and extra.get("error"):
        context["submitted"] = extra["form"]   # keep what the person typed
    html = render_template(template, document=doc, viewer=current_user, **context, **extra)
    headers = {"HX-Trigger": "leadflow:document-changed"} if status < 400 else {}
    return html, status, headers


def _action(document_id: str, run, message: str):
    """Run one action; answer with its result message (and the row, out of band)."""
    _document_or_404(document_id)   # another tenant's document is not found, whatever the action
    try:
        doc = run()
    except LeadflowError as error:
        return render_template("documents/_action_result.html", error=error.message), error.status
    return render_template("documents/_action_result.html", message=message, document=doc,
                           viewer=current_user), 200, {"HX-Trigger": "leadflow:document-changed"}


def _int_arg(name: str) -> int:
    return params.integer(request.args.get(name), name, message="Pick two versions to compare.")


def _month_starts(now: datetime, months: int) -> list[datetime]:
    year, month = now.year, now.month
    starts = []
    for _ in range(months):
        starts.append(datetime(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return starts[::-1]


def _nice_ceiling(value: int) -> int:
    """1, 2 or 5 times a power of ten, at least `value` (0 stays 0)."""
    if value <= 0:
        return 0
    step = 1
    while True:
        for factor in (1, 2, 5):
            if step * factor >= value:
                return step * factor
        step *= 10


TYPE_TITLES = {t: _title_case_label(en) for t, (en, _de) in LABELS.items()}

# The document page's panels: name -> (template, context builder). Each reloads by itself
# when the page hears that its document changed.
PANELS = {
    "fields": ("documents/_fields.html", _fields_panel),
    "actions": ("documents/_actions.html", _actions_panel),
    "versions": ("documents/_versions.html", _versions_panel),
    "history": ("documents/_history.html", _history_panel),
}
