"""What a list of documents is asked for: filters read from a query string, and the cursor a
page link carries (the queries that answer them are in services/views.py).

Pages are cut on (created_at, id), newest first, never with OFFSET: the next page starts
strictly after the last row shown, so a page costs the same at the millionth row as at the
first, and rows arriving meanwhile cause neither duplicates nor gaps.
"""
import base64
import binascii
import re
from dataclasses import dataclass, field, replace
from datetime import datetime

from leadflow.domain.lifecycle import Status
from leadflow.domain.verification import DOCUMENT_TYPES
from leadflow.models import Document

MAX_QUERY_CHARS = 100
# Ids are 32-bit integers in the tables; a larger number names nothing (and SQLite cannot bind one past 64 bits).
MAX_ID = 2 ** 31 - 1
_DOCUMENT_ID = re.compile(r"[0-9a-f]{32}")   # leadflow.models.new_id


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


def escape_like(text: str) -> str:
    """A person's search text, matched literally (their % and _ are not wildcards)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
