"""Read models: what the screens and the JSON API show, each query written once.

Every function takes the session it reads with and, for tenant data, the viewer or brokerage
it reads for; every tenant query starts from leadflow.scoping, so another brokerage's rows are
simply not found. Pages and the API call the same functions; nothing here writes.

Lists of documents are cut on (created_at, id), newest first, never with OFFSET (see
services/search.py for the filters and the cursor a page link carries). Each live list a screen
shows is registered in LISTS by name: the same query serves the page load and the snapshot a
page re-fetches whenever its socket (re)opens.
"""
from dataclasses import dataclass, replace
from datetime import datetime

from sqlalchemy import any_, bindparam, func, or_, select, text, tuple_
from sqlalchemy.dialects.postgresql import ARRAY

from leadflow import scoping
from leadflow.domain.audience import Role, Viewer, sees_full_history
from leadflow.domain.lifecycle import Status
from leadflow.models import (Applicant, AuditEntry, Brokerage, CallbackDelivery, CreditReservation, Document,
                             DocumentVersion, ExtractionJob, User, Workspace, WorkspaceMember)
from leadflow.services import counts, text_search
from leadflow.services.search import Cursor, Filters, escape_like

# The most rows a live list renders (a page of the dashboard is this size too).
LIST_LIMIT = 100
# How many cases and clients a filter's drop-down offers before the person narrows it by name.
MAX_OPTIONS = 200
# The order statuses appear in, as a document moves through them.
STATUS_ORDER = ("PENDING", "PROCESSING", "EXTRACTING", "ACTION_REQUIRED", "VERIFIED", "REJECTED")


@dataclass
class Page:
    documents: list[Document]
    next_cursor: Cursor | None


# --- lists of documents ----------------------------------------------------------------------

def document_page(session, viewer: Viewer, filters: Filters, size: int) -> Page:
    """One page of `size` visible documents narrowed by `filters`, and the cursor of the next:
    the dashboard's pages, its live snapshot and GET /api/documents."""
    if filters.q:
        if session.get_bind().dialect.name == "postgresql":
            # A statement is prepared once per connection (config.engine_options), and after a few
            # runs PostgreSQL may keep one generic plan for it: for a search, a plan that cannot see
            # the words. Planned for its own words each time.
            session.execute(text("SET LOCAL plan_cache_mode = force_custom_plan"))
        owners = text_search.clients_named(session, viewer, filters.q)
        # The documents the other filters leave, newest first: what the search narrows.
        others = filtered(scoping.visible_documents(viewer), replace(filters, q=""))
        rows = text_search.newest_matches(session, viewer, others, filters.q, size + 1, owners)
        if rows is None:
            rows = text_search.indexed_matches(session, others, filters.q, size + 1, owners)
    else:
        rows = list(session.scalars(filtered(scoping.visible_documents(viewer), filters).limit(size + 1)))
    more = len(rows) > size
    rows = rows[:size]
    return Page(rows, Cursor.after(rows[-1]) if more and rows else None)


def live_list(session, viewer: Viewer, name: str, args=None, limit: int = LIST_LIMIT) -> list[Document]:
    """The documents of the screen list `name` (a key of LISTS), as `viewer` may see them."""
    if name == "dashboard":  # the same rows as the page, read the same way (a search's two tries)
        return document_page(session, viewer, Filters.from_args(args or {}), limit).documents
    query = LISTS[name](scoping.visible_documents(viewer), args or {})
    return list(session.scalars(query.limit(limit)))


def filtered(query, filters: Filters):
    """Narrow a SELECT of visible documents by the filters; newest first, after the cursor.

    Every filter maps onto an index of `documents` that starts with the brokerage (status, type)
    or with a column that implies it (workspace, owner); the search (search_condition) is
    answered from trigram indexes."""
    if filters.status:
        query = query.where(Document.status == filters.status)
    if filters.type:
        query = query.where(Document.document_type == filters.type)
    if filters.workspace_id is not None:
        query = query.where(Document.workspace_id == filters.workspace_id)
    if filters.client_id is not None:
        query = query.where(Document.owner_id == filters.client_id)
    if filters.q:
        query = query.where(text_search.search_condition(filters.q))
    if filters.cursor:
        # A row-value comparison: PostgreSQL turns it into one range condition on the index.
        query = query.where(tuple_(Document.created_at, Document.id)
                            < tuple_(filters.cursor.created_at, filters.cursor.id))
    return query.order_by(Document.created_at.desc(), Document.id.desc())


def dashboard_documents(query, args):
    return filtered(query, Filters.from_args(args))


def workspace_documents(query, args):
    # A case id that names nothing readable is a case nobody has: an empty list, not every case's.
    return filtered(query, Filters(workspace_id=Filters.from_args(args).workspace_id or 0))


def review_documents(query, args):
    """ACTION_REQUIRED, oldest first; a system failure handed to a person is on the "Stuck and
    failed" tab instead, to retry."""
    not_ours = Document.rejection_code.is_(None) | ~Document.rejection_code.like("SYSTEM\\_%", escape="\\")
    return query.where(Document.status == Status.ACTION_REQUIRED.value, not_ours).order_by(
        Document.status_changed_at.asc(), Document.id.asc())


def failed_documents(query, args):
    """ACTION_REQUIRED (or, from before automatic retries, REJECTED) with a SYSTEM_ code: what an
    admin may retry, newest failure first."""
    return query.where(Document.status.in_([Status.ACTION_REQUIRED.value, Status.REJECTED.value]),
                       Document.rejection_code.like("SYSTEM\\_%", escape="\\")
                       ).order_by(Document.status_changed_at.desc(), Document.id.desc())


def portal_documents(query, args):
    return query.order_by(Document.created_at.desc(), Document.id.desc())


def status_counts(session, brokerage_id: int | None) -> dict:
    """Documents per status in STATUS_ORDER (zeros included) and their total, read from the
    counts the status writer keeps (services/counts.py), not counted row by row."""
    found = counts.for_brokerage(session, brokerage_id)
    by_status = {status: found.get(status, 0) for status in STATUS_ORDER}
    return {"by_status": by_status, "total": sum(by_status.values())}


def workspace_options(session, brokerage_id: int, name: str = "", selected: int | None = None) -> list:
    """Cases to pick from, as (id, name) rows: the newest, or those whose name matches, sorted
    by name; the selected one always."""
    query = scoping.in_brokerage(Workspace, brokerage_id).with_only_columns(Workspace.id, Workspace.name)
    return _options(session, query, Workspace, name, selected)


def client_options(session, brokerage_id: int, name: str = "", selected: int | None = None) -> list:
    """Clients to pick from, chosen like workspace_options."""
    query = (scoping.in_brokerage(User, brokerage_id).with_only_columns(User.id, User.name)
             .where(User.role == Role.CLIENT.value))
    return _options(session, query, User, name, selected)


# --- names for rows -------------------------------------------------------------------------

def user_names(session, user_ids) -> dict[int, str]:
    ids = {i for i in user_ids if i is not None}
    if not ids:
        return {}
    return dict(session.execute(select(User.id, User.name).where(_among(session, User.id, ids))).all())


def users_with_roles(session, user_ids) -> dict[int, tuple[str, str]]:
    """id -> (name, role): a row links a client's name to their documents, not a staff member's."""
    return {i: (name, role) for i, name, role in
            session.execute(select(User.id, User.name, User.role).where(_among(session, User.id, user_ids)))}


def workspace_names(session, workspace_ids) -> dict[int, str]:
    return dict(session.execute(select(Workspace.id, Workspace.name)
                                .where(_among(session, Workspace.id, workspace_ids))).all())


def brokerage_names(session, brokerage_ids) -> dict[int, str]:
    return dict(session.execute(select(Brokerage.id, Brokerage.name)
                                .where(_among(session, Brokerage.id, brokerage_ids))).all())


def _among(session, column, ids):
    """`column = ANY(:ids)` with the ids as one array on PostgreSQL: one statement text whatever
    their number, prepared once per connection. An IN list is a statement of its own per length
    (a page's hundred names: built, sent and prepared anew, some 3 ms of CPU a page)."""
    ids = sorted(set(ids))
    if session.get_bind().dialect.name == "postgresql":
        return column == any_(bindparam("among", ids, type_=ARRAY(column.type)))
    return column.in_(ids)


# --- a case ---------------------------------------------------------------------------------

def workspace_for(session, viewer: Viewer, workspace_id: int) -> Workspace | None:
    """The case if the viewer works on it: staff of its brokerage, or a platform admin."""
    if viewer.role == Role.PLATFORM_ADMIN:
        return session.get(Workspace, workspace_id)
    return session.scalar(scoping.in_brokerage(Workspace, viewer.brokerage_id).where(Workspace.id == workspace_id))


def case_members(session, workspace: Workspace) -> list[User]:
    return list(session.scalars(scoping.in_brokerage(User, workspace.brokerage_id)
                                .join(WorkspaceMember, WorkspaceMember.user_id == User.id)
                                .where(WorkspaceMember.workspace_id == workspace.id).order_by(User.name)))


def client_cases(session, user_id: int) -> list[Workspace]:
    """The cases a client is a member of, oldest first."""
    return list(session.scalars(
        select(Workspace).join(WorkspaceMember, WorkspaceMember.workspace_id == Workspace.id)
        .where(WorkspaceMember.user_id == user_id).order_by(Workspace.id)))


def case_documents(session, viewer: Viewer, case: Workspace | None, limit: int) -> list[Document]:
    """The case's visible documents and the viewer's own filed under no case, newest first
    (no case: the visible documents under no case)."""
    query = scoping.visible_documents(viewer)
    if case is None:
        query = query.where(Document.workspace_id.is_(None))
    else:
        query = query.where(or_(Document.workspace_id == case.id,
                                (Document.workspace_id.is_(None)) & (Document.owner_id == viewer.id)))
    return list(session.scalars(query.order_by(Document.created_at.desc(), Document.id.desc()).limit(limit)))


def applicants_of_documents(session, documents) -> dict[str, list[Applicant]]:
    """Whose each document is, in one query: the applicant it is recorded for, and for a joint
    account's statement every applicant of its case (the client first). Empty: not part of a case,
    or it names no one we could read (it counts as the client's). The documents are ones the
    viewer may see; the applicants are read within their brokerages."""
    wanted = [d for d in documents if d.workspace_id and (d.applicant_id or d.joint)]
    if not wanted:
        return {d.id: [] for d in documents}
    rows = [a for brokerage_id in sorted({d.brokerage_id for d in wanted})
            for a in session.scalars(scoping.in_brokerage(Applicant, brokerage_id).where(
                Applicant.workspace_id.in_({d.workspace_id for d in wanted if d.brokerage_id == brokerage_id}))
                .order_by(Applicant.role, Applicant.id))]
    found = {d.id: [] for d in documents}
    for document in wanted:
        found[document.id] = [a for a in rows if a.workspace_id == document.workspace_id
                              and a.brokerage_id == document.brokerage_id
                              and (a.id == document.applicant_id or document.joint)]
    return found


# --- a document -----------------------------------------------------------------------------

def document_history(session, document: Document, role) -> list[dict]:
    """What happened to the document, oldest first, as a viewer of `role` may read it: the
    document page's history panel and GET /api/documents/<id>/history both show this.

    Staff and platform admins get every audit row (who, and their notes) and every callback's
    payload; anyone else gets only when the status changed (leadflow.domain.audience)."""
    audit = session.scalars(select(AuditEntry).where(AuditEntry.document_id == document.id)
                            .order_by(AuditEntry.created_at, AuditEntry.id)).all()
    if not sees_full_history(role):
        return [{"kind": "status", "at": a.created_at, "from_status": a.from_status, "to_status": a.to_status}
                for a in audit if a.to_status and a.to_status != a.from_status]
    # The status log is the deliveries themselves, each with its payload as it came.
    log = session.scalars(select(CallbackDelivery).where(CallbackDelivery.document_id == document.id)
                          .order_by(CallbackDelivery.received_at, CallbackDelivery.id)).all()
    entries = [({"kind": "audit", "at": a.created_at, "action": a.action, "from_status": a.from_status,
                 "to_status": a.to_status, "actor_id": a.actor_id, "note": a.note}, (a.created_at, 0, a.id))
               for a in audit]
    entries += [({"kind": "callback", "at": s.received_at, "delivery_id": s.id, "job_id": s.job_id,
                  "event_type": s.event_type, "payload": s.payload}, (s.received_at, 1, s.id)) for s in log]
    return [entry for entry, _ in sorted(entries, key=lambda pair: pair[1])]


def versions(session, document: Document, part: str | None = None) -> list[DocumentVersion]:
    """The document's versions by part (content, schema), oldest first; or one part's."""
    query = select(DocumentVersion).where(DocumentVersion.document_id == document.id)
    if part is not None:
        query = query.where(DocumentVersion.part == part)
    return list(session.scalars(query.order_by(DocumentVersion.part, DocumentVersion.number)))


# --- credits --------------------------------------------------------------------------------

def open_reservations(session, brokerage_id: int) -> list:
    """Credits held for jobs still running, oldest first, as (reservation, document id, title) rows."""
    return session.execute(
        scoping.in_brokerage(CreditReservation, brokerage_id)
        .add_columns(Document.id, Document.title)
        .join(ExtractionJob, ExtractionJob.id == CreditReservation.job_id)
        .join(Document, Document.id == ExtractionJob.document_id)
        .where(CreditReservation.status == "open").order_by(CreditReservation.created_at)).all()


def settled_by_month(session, brokerage_id: int, now: datetime, months: int) -> list[tuple[str, int]]:
    """Pages settled in each of the last `months` calendar months, oldest first, zeros included."""
    starts = _month_starts(now, months)
    if session.get_bind().dialect.name == "postgresql":
        month = func.to_char(func.date_trunc("month", CreditReservation.closed_at), "YYYY-MM")
    else:
        month = func.strftime("%Y-%m", CreditReservation.closed_at)
    query = (scoping.in_brokerage(CreditReservation, brokerage_id)
             .with_only_columns(month, func.coalesce(func.sum(CreditReservation.pages_charged), 0))
             .where(CreditReservation.status == "settled", CreditReservation.closed_at >= starts[0])
             .group_by(month))
    totals = {key: int(pages) for key, pages in session.execute(query).all()}
    return [(start.strftime("%Y-%m"), totals.get(start.strftime("%Y-%m"), 0)) for start in starts]


# --- work that waits too long (the review queue's second tab) --------------------------------

def stuck_documents(session, viewer: Viewer, status: Status, changed_before: datetime, limit: int) -> list[Document]:
    """Visible documents in `status` since before `changed_before`, longest waiting first."""
    return list(session.scalars(scoping.visible_documents(viewer)
                                .where(Document.status == status.value, Document.status_changed_at < changed_before)
                                .order_by(Document.status_changed_at).limit(limit)))


def overdue_extractions(session, viewer: Viewer, now: datetime, limit: int) -> list:
    """Visible EXTRACTING documents whose job's deadline passed, as (document, deadline) rows."""
    return session.execute(
        scoping.visible_documents(viewer).add_columns(ExtractionJob.deadline_at)
        .join(ExtractionJob, ExtractionJob.id == Document.current_job_id)
        .where(Document.status == Status.EXTRACTING.value, ExtractionJob.deadline_at < now)
        .order_by(ExtractionJob.deadline_at).limit(limit)).all()


# --- helpers --------------------------------------------------------------------------------

def _options(session, query, model, name: str, selected: int | None) -> list:
    narrowed = query.where(model.name.ilike(f"%{escape_like(name)}%", escape="\\")) if name else query
    rows = list(session.execute(narrowed.order_by(model.id.desc()).limit(MAX_OPTIONS)))
    if selected and all(row.id != selected for row in rows):
        rows += list(session.execute(query.where(model.id == selected)))
    return sorted(rows, key=lambda row: (row.name.lower(), row.id))


def _month_starts(now: datetime, months: int) -> list[datetime]:
    year, month = now.year, now.month
    starts = []
    for _ in range(months):
        starts.append(datetime(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return starts[::-1]


# Each screen's live list: name -> function(SELECT of visible documents, request args) -> the
# ordered, filtered SELECT. GET /partials/documents?view=<name> answers with the same rows.
LISTS = {
    "dashboard": dashboard_documents,
    "workspace": workspace_documents,
    "review": review_documents,
    "failed": failed_documents,
    "portal": portal_documents,
}
