"""Erasing a client, or a closed case, for good: their files in storage (every version, uploads,
lender packages) and their rows (documents, versions, jobs, deliveries, status log, shares, upload
intents, packages, notifications, tokens, memberships, the user), with their name and email taken
out of what stays (other documents' audit notes and titles, a shared case's name). What stays is one
`erasure_records` row saying that it happened, by whom and why, counting what went, and naming no one.

Credit reservations stay for the accounts: they hold a brokerage, a job id and pages, nothing about
the person (their job ids are no foreign key, so the jobs can go).

Files go first, then the rows in one transaction: if storage fails half-way nothing is committed
and the erasure can simply be run again (deleting an absent object is no error); a row never
outlives the erasure while its file is gone for long.
"""
import logging
from collections import Counter
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import Session

from leadflow import errors, scoping
from leadflow.billing import service as billing
from leadflow.domain import audience
from leadflow.domain.audience import Role
from leadflow.domain.packages import retention_cutoff
from leadflow.extensions import db
from leadflow.models import (ApiToken, Applicant, AuditEntry, Document, DocumentShare, DocumentVersion,
                             ErasureRecord, ExtractionJob, LenderPackage, Packet, UploadIntent, User, Workspace,
                             WorkspaceMember)
from leadflow.ports import Ports
from leadflow.services import case_file, counts, page_images, part_files, version_store
from leadflow.services.documents import storage_key as document_key

log = logging.getLogger(__name__)
# What replaces an erased person's name or email in the text that stays.
ERASED = "[erased]"
# A document in these statuses has a job with the reader (or about to be): see BeingRead.
READING = ("PROCESSING", "EXTRACTING")
# Shorter names are not searched for in other rows' text: "Li" would blank half the audit log.
MIN_SCRUB_LENGTH = 4
# Tables this module erases by name; any other table with a foreign key to a user, a document or a
# case (added later, by another feature) is handled by the generic rule in _erase_dependents.
_EXPLICIT = frozenset({
    "users", "documents", "workspaces", "workspace_members", "document_shares", "upload_intents",
    "extraction_jobs", "callback_deliveries", "status_log", "audit_entries", "document_versions",
    "lender_packages", "api_tokens", "erasure_records", "credit_reservations", "document_status_counts",
})


class NotAllowed(errors.Forbidden):
    """The user's role may not erase, or close a case."""


class NotFound(errors.NotFound):
    """No such client or case in the user's brokerage."""


class BeingRead(errors.Conflict):
    """A document to erase is with the reader right now: its answer would arrive after the erasure
    and be kept as a delivery nobody claims. Erase again once it settled (minutes)."""
    code = "being_read"


@dataclass
class Subject:
    """Everything to erase, by id, gathered before anything is deleted."""
    brokerage_id: int
    users: set[int] = field(default_factory=set)
    workspaces: set[int] = field(default_factory=set)
    documents: set[str] = field(default_factory=set)
    # Cases whose lender packages go (with the cases erased): a package of a shared case holds the
    # erased client's documents and names them on its cover sheet.
    packed: set[int] = field(default_factory=set)


# --- closing a case -----------------------------------------------------------------------------

def close_case(session: Session, ports: Ports, user: User, workspace_id: int) -> bool:
    """Close the case: its retention period starts now. False when it was closed already."""
    case = case_for_staff(session, user, workspace_id)
    moved = session.execute(update(Workspace).where(Workspace.id == case.id, Workspace.closed_at.is_(None))
                            .values(closed_at=ports.clock.now())).rowcount
    session.commit()
    return moved == 1


def reopen_case(session: Session, ports: Ports, user: User, workspace_id: int) -> bool:
    """Open a closed case again (the client came back): no erasure is due any more."""
    case = case_for_staff(session, user, workspace_id)
    moved = session.execute(update(Workspace).where(Workspace.id == case.id, Workspace.closed_at.isnot(None))
                            .values(closed_at=None)).rowcount
    if moved:
        case_file.look_again(session, case.id)
    session.commit()
    return moved == 1


# --- erasing ------------------------------------------------------------------------------------

def erase_client(session: Session, ports: Ports, admin: User, client_id: int) -> ErasureRecord:
    """Erase a client of the admin's brokerage: their documents, the cases that are theirs alone
    (with every document in them), their memberships of shared cases, their account. Commits.
    Raises NotAllowed, NotFound (another brokerage's client, or not a client)."""
    client = erasable_client(session, admin, client_id)
    subject = Subject(client.brokerage_id, users={client.id})
    for workspace_id in session.scalars(select(WorkspaceMember.workspace_id).where(WorkspaceMember.user_id == client.id)):
        subject.packed.add(workspace_id)
        others = session.scalar(select(func.count()).select_from(WorkspaceMember).join(User)
                                .where(WorkspaceMember.workspace_id == workspace_id, WorkspaceMember.user_id != client.id,
                                       User.role == Role.CLIENT.value))
        if not others:
            subject.workspaces.add(workspace_id)
    return _erase(session, ports, subject, actor_id=admin.id, what="client", reason="request")


def erase_case(session: Session, ports: Ports, workspace_id: int, *, admin: User | None = None,
               reason: str = "request") -> ErasureRecord:
    """Erase a case: every document in it, its packages, and its clients who have no other case.
    `admin` None is the retention sweep. Commits. Raises NotAllowed, NotFound."""
    if admin is not None and not audience.may_erase(admin.role):
        raise NotAllowed("Only the brokerage admin erases cases.")
    # The retention sweep works across brokerages; an admin only in theirs.
    query = (select(Workspace) if admin is None else scoping.in_brokerage(Workspace, admin.brokerage_id))
    query = query.where(Workspace.id == workspace_id)
    case = session.scalar(query)
    if case is None:
        raise NotFound("There is no such case.")
    subject = Subject(case.brokerage_id, workspaces={case.id})
    for user_id in session.scalars(select(User.id).join(WorkspaceMember, WorkspaceMember.user_id == User.id)
                                   .where(WorkspaceMember.workspace_id == case.id, User.role == Role.CLIENT.value)):
        elsewhere = session.scalar(select(func.count()).select_from(WorkspaceMember).where(
            WorkspaceMember.user_id == user_id, WorkspaceMember.workspace_id != case.id))
        if not elsewhere:
            subject.users.add(user_id)
    return _erase(session, ports, subject, actor_id=admin.id if admin else None, what="case", reason=reason)


def erase_due_cases(session: Session, ports: Ports, now: datetime, batch: int) -> int:
    """The retention sweep: erase cases closed CASE_RETENTION_DAYS ago or earlier, oldest first,
    one transaction each. Returns how many were erased."""
    cutoff = retention_cutoff(now, int(ports.settings.get("CASE_RETENTION_DAYS", 365)))
    due = session.scalars(select(Workspace.id).where(Workspace.closed_at.isnot(None), Workspace.closed_at <= cutoff)
                          .order_by(Workspace.closed_at).limit(batch)).all()
    erased = 0
    for workspace_id in due:
        try:
            erase_case(session, ports, workspace_id, reason="retention")
            erased += 1
        except BeingRead:
            log.info("a closed case has a document being read; its erasure waits for the next run")
    return erased


def erasable_client(session: Session, user: User, client_id: int) -> User:
    """The client the user may erase. Raises NotAllowed, NotFound (not a client of their brokerage)."""
    if not audience.may_erase(user.role):
        raise NotAllowed("Only the brokerage admin erases clients.")
    client = session.scalar(scoping.in_brokerage(User, user.brokerage_id).where(User.id == client_id,
                                                                                User.role == Role.CLIENT.value))
    if client is None:
        raise NotFound("There is no such client.")
    return client


def erasable_clients(session: Session, user: User, workspace: Workspace) -> list[User]:
    """The case's clients the user may erase (none unless they are its brokerage's admin)."""
    if not audience.may_erase(user.role) or user.brokerage_id != workspace.brokerage_id:
        return []
    return list(session.scalars(select(User).join(WorkspaceMember, WorkspaceMember.user_id == User.id)
                                .where(WorkspaceMember.workspace_id == workspace.id, User.role == Role.CLIENT.value,
                                       User.brokerage_id == workspace.brokerage_id).order_by(User.name)))


# --- the work ------------------------------------------------------------------------------------

def _erase(session: Session, ports: Ports, subject: Subject, *, actor_id: int | None, what: str,
           reason: str) -> ErasureRecord:
    b = subject.brokerage_id
    users, workspaces = sorted(subject.users), sorted(subject.workspaces)
    packed = sorted(subject.packed | subject.workspaces)
    people = session.execute(select(User.name, User.email).where(User.id.in_(users))).all()
    words = sorted({w for person in people for w in person if w and len(w) >= MIN_SCRUB_LENGTH}, key=len, reverse=True)
    subject.documents = set(session.scalars(select(Document.id).where(Document.brokerage_id == b, or_(
        Document.owner_id.in_(users), Document.workspace_id.in_(workspaces)))))
    documents = sorted(subject.documents)
    if session.scalar(select(func.count()).select_from(Document).where(
            Document.id.in_(documents), Document.status.in_(READING))):
        session.rollback()
        raise BeingRead("A document of this client is being read right now. Erase again in a few minutes.")
    jobs = session.execute(select(ExtractionJob.id, ExtractionJob.document_id)
                           .where(ExtractionJob.document_id.in_(documents))).all()
    job_ids = sorted(job_id for job_id, _ in jobs)
    intents = session.execute(select(UploadIntent.id, UploadIntent.filename, UploadIntent.storage_key).where(
        UploadIntent.brokerage_id == b, or_(UploadIntent.owner_id.in_(users),
                                            UploadIntent.workspace_id.in_(workspaces)))).all()

    keys = set(session.scalars(select(Document.storage_key).where(Document.id.in_(documents))))
    # The pictures of packets' pages (drawn for a packet's page and the review queue; its documents use them).
    for document_id, pages in session.execute(select(Document.id, Document.page_count).where(
            Document.id.in_(documents), Document.id.in_(select(Packet.document_id)))):
        keys |= set(page_images.keys(b, document_id, pages))
    # The files of packets' documents, their pages cut from the packet's (services.part_files).
    ranges = {}
    for packet_id, first, last in session.execute(select(Document.packet_id, Document.first_page, Document.last_page)
                                                  .where(Document.id.in_(documents), Document.packet_id.isnot(None),
                                                         Document.first_page.isnot(None))):
        ranges.setdefault(packet_id, set()).add((first, last))
    for packet_id, found in ranges.items():
        keys |= set(part_files.keys(b, packet_id, found))
    keys |= set(session.scalars(select(DocumentVersion.storage_key).where(DocumentVersion.document_id.in_(documents))))
    keys |= set(session.scalars(select(LenderPackage.storage_key).where(
        LenderPackage.workspace_id.in_(packed), LenderPackage.storage_key.isnot(None))))
    # A result stored for a job that another run had finished first has no version row pointing at it
    # (one object per job; two, one per part, for jobs stored before that).
    for job_id, document_id in jobs:
        keys |= {version_store.key(b, document_id, job_id), *version_store.legacy_keys(b, document_id, job_id)}
    for intent_id, filename, key in intents:
        # An offer's file may sit at its upload key or, half-completed, at the document's.
        keys |= {key, document_key(b, intent_id, filename)}
    removed = Counter(files=0)
    for key in sorted(k for k in keys if k):
        # Counted when there was something to delete (most of a job's possible result keys are not).
        removed["files"] += ports.storage.head(key) is not None
        ports.storage.delete(key)
    # The embedded mode's outbox keeps the mails written to them; an SMTP transport keeps nothing.
    if ports.mail is not None:
        removed["mails"] = sum(ports.mail.forget(email) for _, email in people if email)

    # Reservations stay (accounting); an open one is released, as for any job that ends unread.
    for job_id in job_ids:
        billing.release(session, job_id)
    # Callbacks (and the status log, where it is a table of its own) hold the service's whole
    # answers, the extracted data: by job, and by document where the table records it.
    for name in ("callback_deliveries", "status_log"):
        table = db.metadata.tables.get(name)
        if table is None:
            continue
        found = [table.c.job_id.in_(job_ids)]
        if "document_id" in table.c:
            found.append(table.c.document_id.in_(documents))
        removed[name] = _rows(session, table.delete().where(or_(*found)))
    # An erased client's applicant row names them: it goes, though a shared case stays.
    removed["applicants"] = _rows(session, delete(Applicant).where(Applicant.user_id.in_(users)))
    _erase_dependents(session, subject, removed)
    removed["audit_entries"] = _rows(session, delete(AuditEntry).where(AuditEntry.document_id.in_(documents)))
    session.execute(update(AuditEntry).where(AuditEntry.actor_id.in_(users)).values(actor_id=None))
    removed["shares"] = _rows(session, delete(DocumentShare).where(or_(
        DocumentShare.document_id.in_(documents), DocumentShare.user_id.in_(users))))
    session.execute(update(DocumentShare).where(DocumentShare.shared_by_id.in_(users)).values(shared_by_id=None))
    removed["versions"] = _rows(session, delete(DocumentVersion).where(DocumentVersion.document_id.in_(documents)))
    session.execute(update(DocumentVersion).where(DocumentVersion.actor_id.in_(users)).values(actor_id=None))
    removed["jobs"] = _rows(session, delete(ExtractionJob).where(ExtractionJob.id.in_(job_ids)))
    session.execute(update(ExtractionJob).where(ExtractionJob.requested_by_id.in_(users))
                    .values(requested_by_id=None))
    by_status = Counter(session.scalars(select(Document.status).where(Document.id.in_(documents))))
    counts.bump(session, b, {status: -n for status, n in by_status.items()})
    # A packet's split (page ranges and types, no personal data) goes with its document; said here,
    # not left to the foreign key's cascade, which SQLite applies only with its foreign keys on.
    session.execute(delete(Packet).where(Packet.document_id.in_(documents)))
    removed["documents"] = _rows(session, delete(Document).where(Document.id.in_(documents)))
    removed["upload_intents"] = _rows(session, delete(UploadIntent).where(UploadIntent.id.in_([i.id for i in intents])))
    removed["packages"] = _rows(session, delete(LenderPackage).where(LenderPackage.workspace_id.in_(packed)))
    session.execute(update(LenderPackage).where(LenderPackage.requested_by_id.in_(users))
                    .values(requested_by_id=None))
    _rows(session, delete(WorkspaceMember).where(or_(WorkspaceMember.user_id.in_(users),
                                                     WorkspaceMember.workspace_id.in_(workspaces))))
    removed["cases"] = _rows(session, delete(Workspace).where(Workspace.id.in_(workspaces)))
    _rows(session, delete(ApiToken).where(ApiToken.user_id.in_(users)))
    removed["users"] = _rows(session, delete(User).where(User.id.in_(users)))
    removed["text_scrubbed"] = _scrub(session, b, words)

    record = ErasureRecord(brokerage_id=b, actor_id=actor_id, subject=what, reason=reason,
                           removed={k: v for k, v in sorted(removed.items()) if v}, created_at=ports.clock.now())
    session.add(record)
    session.commit()
    session.expire_all()
    # Counts only: the log must not keep what was erased.
    log.info("erasure of a %s in brokerage %s (%s): %s", what, b, reason, record.removed)
    return record


def _erase_dependents(session: Session, subject: Subject, removed: Counter) -> None:
    """Rows of other features' tables that point at what is erased: a row about a document or a
    case goes; a row that must point at the person goes; a row that merely names them as its actor
    (a nullable reference) keeps its other facts and forgets who."""
    targets = {"users": sorted(subject.users), "documents": sorted(subject.documents),
               "workspaces": sorted(subject.workspaces)}
    for table in reversed(db.metadata.sorted_tables):
        if table.name in _EXPLICIT:
            continue
        for column in table.columns:
            for key in column.foreign_keys:
                ids = targets.get(key.column.table.name)
                if not ids or key.column.name != "id":
                    continue
                if column.nullable and key.column.table.name == "users":
                    session.execute(table.update().where(column.in_(ids)).values({column.name: None}))
                else:
                    removed[table.name] += _rows(session, table.delete().where(column.in_(ids)))


def _scrub(session: Session, brokerage_id: int, words: list[str]) -> int:
    """Take the erased people's names and emails out of the brokerage's text that stays: audit
    notes on other documents, documents' titles, cases' names."""
    changed = 0
    for model, column, scope in ((AuditEntry, AuditEntry.note, AuditEntry.document_id.in_(
                                      select(Document.id).where(Document.brokerage_id == brokerage_id))),
                                 (Document, Document.title, Document.brokerage_id == brokerage_id),
                                 (Workspace, Workspace.name, Workspace.brokerage_id == brokerage_id)):
        for word in words:
            # ILIKE, not lower() LIKE: the titles' trigram index answers it, where lower(title)
            # had the brokerage's every document read once per word.
            rows = session.execute(select(model.id, column).where(scope, column.ilike(f"%{_like_escaped(word)}%",
                                                                                        escape="\\"))).all()
            for row_id, text in rows:
                session.execute(update(model).where(model.id == row_id)
                                .values({column.key: _replace_folded(text, word)}))
                changed += 1
    return changed


def _like_escaped(word: str) -> str:
    return word.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _replace_folded(text: str, word: str) -> str:
    """`text` with every occurrence of `word`, in any case, replaced by ERASED."""
    lowered, needle, out, start = text.lower(), word.lower(), [], 0
    while (found := lowered.find(needle, start)) >= 0:
        out += [text[start:found], ERASED]
        start = found + len(needle)
    return "".join(out) + text[start:]


def case_for_staff(session: Session, user: User, workspace_id: int) -> Workspace:
    """The case, for a user who may close it. Raises NotAllowed, NotFound (another brokerage's)."""
    if not audience.may_close_case(user.role):
        raise NotAllowed("Only the brokerage's advisors and admins close cases.")
    case = session.scalar(scoping.in_brokerage(Workspace, user.brokerage_id).where(Workspace.id == workspace_id))
    if case is None:
        raise NotFound("There is no such case.")
    return case


def _rows(session: Session, statement) -> int:
    return session.execute(statement).rowcount or 0
