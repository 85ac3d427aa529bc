"""The dashboard's document search: filters from a query string, title search, keyset pages.

Pages are cut on (created_at, id), newest first, never with OFFSET: the next page starts
strictly after the last row shown, so a page costs the same at the millionth row as at the
first, and rows arriving meanwhile cause neither duplicates nor gaps. Every filter maps onto
an index of `documents` that starts with the brokerage (status, type) or with a column that
implies it (workspace, owner); the title search is an ILIKE that PostgreSQL answers from the
trigram index.
"""
import base64
import binascii
import re
from dataclasses import dataclass, field, replace
from datetime import datetime

from sqlalchemy import tuple_

from leadflow import scoping
from leadflow.domain.audience import Role
from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import DOCUMENT_TYPES
from leadflow.extensions import db
from leadflow.models import Document, User, Workspace

MAX_QUERY_CHARS = 100
# Ids are 32-bit integers in the tables; a larger number names nothing (and SQLite cannot bind one past 64 bits).
MAX_ID = 2 ** 31 - 1
_DOCUMENT_ID = re.compile(r"[0-9a-f]{32}")   # leadflow.models.new_id
# How many cases and clients a filter's drop-down offers before the person narrows it by name.
MAX_OPTIONS = 200


@dataclass(frozen=True)
class Cursor:
    """Where a page ends: the (created_at, id) of its last row."""
    created_at: datetime
    id: str

    def encode(self) -> str:
        raw = f"{self.created_at.isoformat()}|{self.id}"
        return base64.urlsafe_b64encode(raw.encode()).decode().rstrip("=")

    @classmethod
    def decode(cls, token: str) -> "Cursor | None":
        """The cursor, or None for anything this module did not hand out."""
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
            created, last_id = raw.split("|", 1)
            created_at = datetime.fromisoformat(created)
        except (binascii.Error, ValueError, UnicodeDecodeError):
            return None
        # Ours name a document id and a naive UTC time; anything else would reach the query as
        # a value the database refuses (a NUL) or compares wrongly (an offset).
        if not _DOCUMENT_ID.fullmatch(last_id) or created_at.tzinfo is not None:
            return None
        return cls(created_at, last_id)

    @classmethod
    def after(cls, document: Document) -> "Cursor":
        return cls(document.created_at, document.id)


@dataclass(frozen=True)
class Filters:
    """What a dashboard page shows; every field comes from (and goes back to) the query string."""
    status: str | None = None
    type: str | None = None
    workspace_id: int | None = None
    client_id: int | None = None
    q: str = ""
    cursor: Cursor | None = None
    problems: tuple[str, ...] = field(default=(), compare=False)

    @classmethod
    def from_args(cls, args) -> "Filters":
        """Read filters from request args; a value that cannot be right is dropped and said so."""
        problems = []
        status = (args.get("status") or "").strip().upper() or None
        if status and status not in Status.__members__:
            problems.append(f"There is no status “{status}”; showing every status.")
            status = None
        doc_type = (args.get("type") or "").strip() or None
        if doc_type and doc_type not in DOCUMENT_TYPES:
            problems.append(f"There is no document type “{doc_type}”; showing every type.")
            doc_type = None
        workspace_id = _positive_int(args.get("workspace"), "case", problems)
        client_id = _positive_int(args.get("client"), "client", problems)
        q = " ".join((args.get("q") or "").split())[:MAX_QUERY_CHARS]
        cursor = None
        if args.get("cursor"):
            cursor = Cursor.decode(args["cursor"])
            if cursor is None:
                problems.append("That page link is not one we made; showing the first page.")
        return cls(status, doc_type, workspace_id, client_id, q, cursor, tuple(problems))

    @property
    def active(self) -> bool:
        return any((self.status, self.type, self.workspace_id, self.client_id, self.q))

    def args(self, **changes) -> dict:
        """The query-string form (empty values left out), with `changes` applied."""
        f = replace(self, **changes)
        pairs = {"status": f.status, "type": f.type, "workspace": f.workspace_id, "client": f.client_id,
                 "q": f.q, "cursor": f.cursor.encode() if f.cursor else None}
        return {k: v for k, v in pairs.items() if v not in (None, "")}


@dataclass
class Page:
    documents: list[Document]
    next_cursor: Cursor | None


def apply(query, filters: Filters):
    """Narrow a SELECT of visible documents by the filters; newest first, after the cursor."""
    if filters.status:
        query = query.where(Document.status == filters.status)
    if filters.type:
        query = query.where(Document.document_type == filters.type)
    if filters.workspace_id:
        query = query.where(Document.workspace_id == filters.workspace_id)
    if filters.client_id:
        query = query.where(Document.owner_id == filters.client_id)
    if filters.q:
        query = query.where(Document.title.ilike(f"%{_escape_like(filters.q)}%", escape="\\"))
    if filters.cursor:
        # A row-value comparison: PostgreSQL turns it into one range condition on the index.
        query = query.where(tuple_(Document.created_at, Document.id)
                            < tuple_(filters.cursor.created_at, filters.cursor.id))
    return query.order_by(Document.created_at.desc(), Document.id.desc())


def page(visible, filters: Filters, size: int) -> Page:
    """One page of `size` documents from the SELECT `visible`, and the cursor of the next."""
    rows = list(db.session.scalars(apply(visible, filters).limit(size + 1)))
    more = len(rows) > size
    rows = rows[:size]
    return Page(rows, Cursor.after(rows[-1]) if more and rows else None)


def workspace_options(brokerage_id: int, name: str = "", selected: int | None = None) -> list:
    """Cases to pick from, as (id, name) rows: the newest, or those whose name matches, sorted
    by name; the selected one always."""
    query = scoping.in_brokerage(Workspace, brokerage_id).with_only_columns(Workspace.id, Workspace.name)
    return _options(query, Workspace, name, selected)


def client_options(brokerage_id: int, name: str = "", selected: int | None = None) -> list:
    """Clients to pick from, chosen like workspace_options."""
    query = (scoping.in_brokerage(User, brokerage_id).with_only_columns(User.id, User.name)
             .where(User.role == Role.CLIENT.value))
    return _options(query, User, name, selected)


def _options(query, model, name: str, selected: int | None) -> list:
    narrowed = query.where(model.name.ilike(f"%{_escape_like(name)}%", escape="\\")) if name else query
    rows = list(db.session.execute(narrowed.order_by(model.id.desc()).limit(MAX_OPTIONS)))
    if selected and all(row.id != selected for row in rows):
        rows += list(db.session.execute(query.where(model.id == selected)))
    return sorted(rows, key=lambda row: (row.name.lower(), row.id))


def _positive_int(raw, what: str, problems: list) -> int | None:
    if raw in (None, ""):
        return None
    text = str(raw).strip()
    # Plain digits only: int() would also take "٣", "1_000" and a number of any size.
    value = int(text) if text.isascii() and text.isdigit() and len(text) <= 10 else 0
    if not 0 < value <= MAX_ID:
        problems.append(f"“{raw}” is not a {what} number; showing every {what}.")
        return None
    return value


def _escape_like(text: str) -> str:
    """A person's search text, matched literally (their % and _ are not wildcards)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
