"""A document's page as staff see it: the preview, its fields to correct, its actions (extract
again, customise, revert, share, retry), its version chain with diffs, and its history. Every
action goes through the services; an error comes back as the same partial with the message inline.
"""
import json

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_login import current_user, login_required

from leadflow import words
from leadflow.domain.audience import may_settle_whose, may_work_on_data, retry_offered
from leadflow.errors import Conflict, InvalidInput, LeadflowError, NotFound
from leadflow.extensions import db
from leadflow.models import Document
from leadflow.ports import current_ports
from leadflow.storage import ObjectMissing
from leadflow.services import applicants, documents, packet_views, part_files, review, version_store, views, whose
from leadflow.services import versions as version_service
from leadflow.web import params
from leadflow.web.i18n import error_words
from leadflow.web.templating import page_language, preload_names

bp = Blueprint("documents", __name__)

# A signed file link lives this long: enough to open the preview, too short to pass around.
FILE_LINK_SECONDS = 300
PREVIEW_IMAGE_TYPES = ("image/png", "image/jpeg", "image/gif", "image/webp")


@bp.get("/documents/<document_id>")
@login_required
def show(document_id):
    return _show(_document_or_404(document_id))


# The packet's split section's context builder, set by leadflow.web.packets when it is loaded.
SPLIT_SECTION: list = []


def _show(doc: Document, status: int = 200, **extra):
    preload_names([doc])
    context = {"document": doc, "viewer": current_user, "preview": _preview_kind(doc), **_whose_context(doc), **extra}
    if may_work_on_data(current_user.role):
        for panel in PANELS:
            context.update(PANELS[panel][1](doc))
    if packet_views.is_packet(doc):
        # A packet's page shows its split: its pages grouped by document. leadflow.web.packets
        # registers how (it builds on this module, so this one does not import it).
        context.update(SPLIT_SECTION[0](doc), split=True)
    return render_template("documents/show.html", **context), status


@bp.post("/documents/<document_id>/whose")
@login_required
def settle_whose(document_id):
    """The advisor settles a document that names someone not on its case: assign it to an
    applicant, add the person it names as co-applicant, or reject it."""
    doc = _document_or_404(document_id)
    try:
        whose.settle_whose(db.session, current_ports(), current_user, doc.id, action=request.form.get("action") or "",
                           applicant=request.form.get("applicant"))
    except LeadflowError as error:
        db.session.rollback()
        return _show(_document_or_404(document_id), error.status, whose_error=error_words(error))
    return redirect(url_for("documents.show", document_id=doc.id), code=303)


def _whose_context(doc: Document) -> dict:
    """What the settle-whose form needs, when the viewer settles it and the document waits for it."""
    strangers = [note for note in doc.verification_notes or [] if isinstance(note, dict) and note.get("code") == "not_on_case"]
    if not (strangers and doc.workspace_id and doc.status == "ACTION_REQUIRED" and may_settle_whose(current_user.role)):
        return {"whose": None}
    case = views.workspace_for(db.session, current_user.viewer, doc.workspace_id)
    return {"whose": {"people": applicants.people(db.session, case) if case else ()}}


@bp.get("/documents/<document_id>/panels/<name>")
@login_required
def panel(document_id, name):
    if name not in PANELS or not may_work_on_data(current_user.role):
        abort(404)
    doc = _document_or_404(document_id)
    template, build = PANELS[name]
    return render_template(template, document=doc, viewer=current_user, **build(doc))


@bp.get("/documents/<document_id>/diff")
@login_required
def diff(document_id):
    doc = _document_or_404(document_id)
    if not may_work_on_data(current_user.role):
        abort(404)
    try:
        older, newer = _int_arg("from"), _int_arg("to")
        (a, body_a), (b, body_b) = (version_service.version_body(db.session, current_ports(), doc, "content", n)
                                    for n in (older, newer))
    except LeadflowError as error:
        return render_template("documents/_diff.html", error=error_words(error)), error.status
    changes = diff_fields((body_a or {}).get("fields") or {}, (body_b or {}).get("fields") or {})
    return render_template("documents/_diff.html", a=a, b=b, changes=changes)


@bp.get("/documents/<document_id>/file")
@login_required
def file(document_id):
    """The document's file by a short-lived signed link: a packet's document gets its own pages
    only (services.part_files), a packet its whole file."""
    doc = _document_or_404(document_id)
    storage = current_ports().storage
    try:
        key = part_files.stored(storage, doc)
    except (part_files.NoFileOfItsOwn, ObjectMissing):
        abort(404)
    return redirect(storage.download_url(key, expires_in=FILE_LINK_SECONDS))


@bp.post("/documents/<document_id>/corrections")
@login_required
def correct(document_id):
    doc = _document_or_404(document_id)
    try:
        changes = _changes_from_form(doc, request.form)
        if not changes:
            raise InvalidInput(_("Nothing was changed."), code="no_changes")
        doc = version_service.correct(db.session, current_ports(), current_user, doc.id, changes)
    except LeadflowError as error:
        return _panel_answer("fields", doc, error=error_words(error), status=error.status, form=request.form)
    return _panel_answer("fields", doc, message=_("Saved: %(fields)s. A new version is in the chain below.",
                                                  fields=_field_labels(sorted(changes))))


@bp.post("/documents/<document_id>/reprocess")
@login_required
def reprocess(document_id):
    return _action(document_id,
                   lambda: version_service.reprocess(db.session, current_ports(), current_user, document_id),
                   _("Extracting again. The result becomes a new version when it arrives."))


@bp.post("/documents/<document_id>/customise")
@login_required
def customise(document_id):
    fields = list(dict.fromkeys(
        [f for f in request.form.getlist("fields") if f] +
        [f.strip() for f in (request.form.get("more_fields") or "").replace("\n", ",").split(",") if f.strip()]))

    def customised():
        if not fields:
            raise InvalidInput(_("Pick at least one field to extract."))
        return version_service.customise(db.session, current_ports(), current_user, document_id, {"fields": fields})
    return _action(document_id, customised,
                   _("Asked for %(fields)s. The new shape becomes a version when it arrives.",
                     fields=_field_labels(fields)))


@bp.post("/documents/<document_id>/revert")
@login_required
def revert(document_id):
    return _action(document_id, lambda: version_service.revert(db.session, current_ports(), current_user, document_id),
                   _("Back to the original extraction, as a new version."))


@bp.post("/documents/<document_id>/shares")
@login_required
def share(document_id):
    email = (request.form.get("email") or "").strip()

    def shared():
        if not email:
            raise InvalidInput(_("Give the email address of the person to share with."))
        documents.share(db.session, current_user, document_id, email)
        return _document_or_404(document_id)
    return _action(document_id, shared, _("Shared with %(email)s. They see it among their documents now.", email=email))


@bp.post("/documents/<document_id>/retry")
@login_required
def retry(document_id):
    """Retry a system failure; answers with the row (out of band), its error inline."""
    try:
        doc = review.retry(db.session, current_user, document_id)
    except LeadflowError as error:
        doc = _document_or_404(document_id)
        return render_template("documents/_row.html", document=doc, viewer=current_user, oob=True,
                               error=error_words(error)), error.status
    return render_template("documents/_row.html", document=doc, viewer=current_user, oob=True), 200, \
        {"HX-Trigger": "leadflow:document-changed"}


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


# --- the panels ----------------------------------------------------------------------------

def _fields_panel(doc: Document) -> dict:
    try:
        version, body = version_service.version_body(db.session, current_ports(), doc, "content")
    except NotFound:
        return {"content_version": None, "fields": {}}
    fields = (body or {}).get("fields") or {}
    return {"content_version": version, "fields": {name: _field_view(value) for name, value in fields.items()}}


def _actions_panel(doc: Document) -> dict:
    """Field names to pick from when customising: every field any version of this document had."""
    names = []
    for version in views.versions(db.session, doc, "content"):
        try:
            body = version_store.read(current_ports().storage, version.storage_key, "content")
        except Exception:  # an unreadable old version only narrows the choice offered
            continue
        names += list((body or {}).get("fields") or {})
    return {"field_names": list(dict.fromkeys(names)),
            "retry_allowed": retry_offered(current_user.role, doc.status, doc.rejection_code)}


def _versions_panel(doc: Document) -> dict:
    rows = views.versions(db.session, doc)
    by_id = {v.id: v for v in rows}
    return {"versions": [v for v in rows if v.part == "content"],
            "schema_versions": [v for v in rows if v.part == "schema"],
            "replaced": {v.id: by_id.get(v.replaces_id) for v in rows},
            "actors": views.user_names(db.session, {v.actor_id for v in rows})}


def _history_panel(doc: Document) -> dict:
    history = views.document_history(db.session, doc, current_user.role)
    return {"history": history, "actors": views.user_names(db.session, {e.get("actor_id") for e in history})}


# --- helpers -------------------------------------------------------------------------------

def _document_or_404(document_id: str) -> Document:
    try:
        return documents.get_visible(db.session, current_user, document_id)
    except NotFound:
        abort(404)


def _preview_kind(doc: Document) -> str:
    content_type = (doc.content_type or "").split(";")[0].strip().lower()
    if content_type == "application/pdf":
        return "pdf"
    if content_type in PREVIEW_IMAGE_TYPES:
        return "image"
    return "none"


def _field_view(value) -> dict:
    """How a field is edited: scalars in a text box, lists and objects as JSON; a date or a month,
    alone or inside a list or object, as the page's language writes it (`_dated` reads it back)."""
    language = page_language()
    if isinstance(value, (dict, list)):
        return {"kind": "json", "text": json.dumps(_shown_dates(value, language), ensure_ascii=False, indent=1),
                "value": value}
    if value is None:
        return {"kind": "text", "text": "", "value": None}
    if isinstance(value, str) and words.shown(value, language) != value:
        return {"kind": "date", "text": words.shown(value, language), "value": value}
    if isinstance(value, bool):
        return {"kind": "json", "text": json.dumps(value), "value": value}
    return {"kind": "number" if isinstance(value, (int, float)) else "text", "text": str(value), "value": value}


def _changes_from_form(doc: Document, form) -> dict:
    """The fields the person changed, parsed back into their kinds; refuses a stale form."""
    current = _fields_panel(doc)
    version = current["content_version"]
    if version is None:
        raise Conflict(_("This document has no extracted data to correct yet."))
    if str(version.number) != (form.get("version") or ""):
        raise Conflict(_("Someone saved version %(number)s while you were editing. "
                         "Reload to see it, then make your change again.", number=version.number))
    changes = {}
    for name, view in current["fields"].items():
        key = f"field.{name}"
        if key not in form:
            continue
        text = form.get(key, "")
        if view["kind"] == "json" and text.strip():
            value = _dated(_parse(name, text, "json"), view["value"])
            if value != view["value"]:
                changes[name] = value
        elif text.strip() != view["text"].strip():
            changes[name] = _parse(name, text, view["kind"])
    new_name = (form.get("new_name") or "").strip()
    if new_name:
        if new_name in current["fields"]:
            raise InvalidInput(_("“%(name)s” exists already; change it in its own box.", name=new_name))
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
            raise InvalidInput(_("“%(name)s” must be valid JSON (a list in [...], an object in {...}).",
                                 name=words.field(name, page_language())))
    if kind == "date":
        return words.read_back(text)
    if kind == "number":
        try:
            return int(text)
        except ValueError:
            try:
                return float(text)
            except ValueError:
                return text
    return text


# Read values nest a level or two (a statement's bookings); deeper than this is left as it is, so
# that a hostile box of nested lists cannot exhaust the stack.
DATES_DEPTH = 20


def _shown_dates(value, language: str, depth: int = 0):
    """A list's or object's dates in the language's format, for the JSON box."""
    if depth > DATES_DEPTH:
        return value
    if isinstance(value, dict):
        return {k: _shown_dates(v, language, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_shown_dates(v, language, depth + 1) for v in value]
    return words.shown(value, language)


def _dated(new, old, depth: int = 0):
    """What the JSON box sent, each date or month it shows in the page's format read back
    (leadflow.words.read_back: an untouched one as it was stored, one typed anew as ISO)."""
    if depth > DATES_DEPTH:
        return new
    if isinstance(new, dict):
        return {k: _dated(v, old.get(k) if isinstance(old, dict) else None, depth + 1) for k, v in new.items()}
    if isinstance(new, list):
        olds = old if isinstance(old, list) else []
        return [_dated(v, olds[i] if i < len(olds) else None, depth + 1) for i, v in enumerate(new)]
    return words.read_back(new, old) if isinstance(new, str) else new


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
        return render_template("documents/_action_result.html", error=error_words(error)), error.status
    return render_template("documents/_action_result.html", message=message, document=doc,
                           viewer=current_user), 200, {"HX-Trigger": "leadflow:document-changed"}


def _field_labels(names) -> str:
    """Fields as a person reads them in a message: 'IBAN, Account holder', not 'iban, holder'."""
    return ", ".join(words.field(name, page_language()) for name in names)


def _int_arg(name: str) -> int:
    return params.integer(request.args.get(name), name, message=_("Pick two versions to compare."))


# The document page's panels: name -> (template, context builder). Each reloads by itself
# when the page hears that its document changed.
PANELS = {
    "fields": ("documents/_fields.html", _fields_panel),
    "actions": ("documents/_actions.html", _actions_panel),
    "versions": ("documents/_versions.html", _versions_panel),
    "history": ("documents/_history.html", _history_panel),
}
