"""The lender package and the end of a case, as rules: when a case may be packed, what the files
in its ZIP are called, and when a closed case is due for erasure. Pure: no Flask, no database."""
import re
from dataclasses import dataclass
from datetime import datetime, timedelta

from leadflow.domain.checklist import ItemState

# An item counts as complete when enough documents are VERIFIED, or when the case does not need it
# (a residence permit for a citizen of the EU, the EEA or Switzerland).
COMPLETE = frozenset({"done", "not_needed"})
# Fields that say which month or year a document is for, in the order they are tried; the
# lender reads "payslip 2026-10" faster than the client's own file name.
_PERIOD_FIELDS = ("period", "period_end", "tax_year", "year", "issue_date", "start_date")
_UNSAFE = re.compile(r"[^0-9A-Za-z._-]+")
_EXTENSION = re.compile(r"\.([0-9A-Za-z]{1,5})$")


class CaseIncomplete(Exception):
    """The case has checklist items that are not complete yet: no package."""

    def __init__(self, items: list[str]):
        super().__init__(f"checklist items not complete: {', '.join(items)}")
        self.items = items


@dataclass(frozen=True)
class PackedDocument:
    """One document going into the ZIP: which item it answers and what the file is called."""
    item_key: str
    document_id: str
    file_name: str


def incomplete_items(states: list[ItemState]) -> list[str]:
    """The keys of the checklist items that stop a package (empty: the case is complete)."""
    return [s.item.key for s in states if s.state not in COMPLETE]


def chosen_documents(states: list[ItemState]) -> list[tuple[str, str]]:
    """(item key, document id) of what goes to the lender: per item its newest VERIFIED
    documents that still count (not aged out, not expiring before the payout), as many as the item
    needs, in checklist order. Raises CaseIncomplete."""
    missing = incomplete_items(states)
    if missing:
        raise CaseIncomplete(missing)
    chosen, packed = [], set()
    for state in states:
        verified = [d for d in state.documents if d.counts][:state.needed]
        # A joint account's statement counts for both applicants; the lender gets it once.
        chosen.extend((state.item.key, d.id) for d in verified if d.id not in packed)
        packed.update(d.id for d in verified)
    return chosen


def file_name(position: int, document_type: str | None, fields: dict | None, original_name: str) -> str:
    """`01_payslip_2026-10.pdf`: its place in the package, its type, the month or year it is for
    (when read), and the original file's extension. Only safe characters: a lender's system
    may be strict about names."""
    parts = [f"{position:02d}", document_type or "document"]
    period = _period(fields or {})
    if period:
        parts.append(period)
    found = _EXTENSION.search(original_name or "")
    extension = found.group(1).lower() if found else "bin"
    return _UNSAFE.sub("-", "_".join(parts)).strip("-") + f".{extension}"


def erasure_due(closed_at: datetime | None, now: datetime, retention_days: int) -> bool:
    """A closed case is erased once its retention period has passed; an open one never."""
    return closed_at is not None and closed_at + timedelta(days=retention_days) <= now


def retention_cutoff(now: datetime, retention_days: int) -> datetime:
    """Cases closed at or before this moment are due (the query form of erasure_due)."""
    return now - timedelta(days=retention_days)


def _period(fields: dict) -> str | None:
    for name in _PERIOD_FIELDS:
        value = fields.get(name)
        if value in (None, ""):
            continue
        text = str(value).strip()
        # A day (2026-10-31) is shown as its month: statements and payslips are monthly.
        if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text):
            text = text[:7]
        text = _UNSAFE.sub("-", text).strip("-")
        if text:
            return text[:20]
    return None
