"""Use cases around a document's record: upload (both paths), share, read."""
import hashlib
import logging
import re
from datetime import timedelta

from sqlalchemy import bindparam, select
from sqlalchemy.orm import Session

from leadflow import outbox, scoping
from leadflow.domain import filetypes
from leadflow.domain.audience import Role, may_share
from leadflow.domain.document_types import N_
from leadflow.domain.events import DocumentStatusChanged, VerificationRequested
from leadflow.domain.lifecycle import Status
from leadflow.domain.packets import PACKET_KIND
from leadflow.domain.verification import DOCUMENT_TYPES
from leadflow.errors import Forbidden, InvalidInput, NotFound, TooLarge, Unavailable
from leadflow.models import (AuditEntry, Document, DocumentShare, UploadIntent, User, Workspace,
                             WorkspaceMember, new_id, utcnow)
from leadflow.ports import Ports
from leadflow.services import packets, pipeline, transitions
from leadflow.storage import ObjectMissing, StorageError

log = logging.getLogger(__name__)
UPLOAD_OFFER_SECONDS = 15 * 60
# Longest file name or title a client may send; longer ones are shortened when stored, but
# a megabyte of name is not a name.
MAX_NAME_CHARS = 1000
# Ids are 32-bit integer columns: a bigger number names nothing, and PostgreSQL would refuse
# to compare with it rather than answer "no such row".
MAX_ID = 2 ** 31 - 1


def upload(session: Session, ports: Ports, user: User, *, filename: str, data: bytes, title: str | None,
           kind: str | None, workspace_id: int | None, max_bytes: int, split: bool = False) -> Document:
    """Store the file, then create the PENDING record; verification is enqueued after commit.
    `split`: the file may hold several documents (a packet, issue 40): its first reading splits it
    into documents of their own (services/packets.py); a `kind` is then not asked for."""
    filename = _name(filename, "filename", required=True)
    title = _name(title, "title")
    if not isinstance(data, bytes | bytearray):
        raise InvalidInput("Send the file's bytes.", code="file_missing")
    kind = PACKET_KIND if split else _kind(kind)
    workspace = _workspace_for_upload(session, user, workspace_id)
    checked = _check_file(filename, data[:filetypes.SNIFF_BYTES], len(data), max_bytes)
    document_id = new_id()
    brokerage_id = workspace.brokerage_id if workspace else user.brokerage_id
    key = storage_key(brokerage_id, document_id, filename)
    try:
        ports.storage.put(key, data, checked.content_type)
    except Exception as exc:
        log.exception("storage write failed for an upload")
        raise Unavailable("We could not store the file just now. Nothing was saved; please try again.") from exc
    return _create_pending(session, document_id, user, brokerage_id, workspace, filename, checked.content_type,
                           len(data), key, title, kind, sha256=hashlib.sha256(data).hexdigest(),
                           precheck=pipeline.check_file(data, ports.settings, packet=split))


def offer_direct_upload(session: Session, ports: Ports, user: User, *, filename: str, content_type: str, size: int,
                        title: str | None, kind: str | None, workspace_id: int | None,
                        max_bytes: int, split: bool = False) -> tuple[UploadIntent, dict]:
    """Reserve a document id and give the client a signed target to upload straight to storage.
    `split`: a packet of several documents, as `upload`'s (the intent keeps it as its kind).

    Every value is checked, and the signed target made, before the intent is committed: a
    refused offer leaves nothing behind."""
    filename = _name(filename, "filename", required=True)
    title = _name(title, "title")
    if isinstance(size, bool) or not isinstance(size, int) or size < 1:
        raise InvalidInput("size must be the file's size in bytes, a whole number above 0.")
    if size > max_bytes:
        shown = f"{size / 1048576:.1f} MB" if size < 2 ** 53 else "far larger than that"
        raise TooLarge(f"The file is {shown}; the limit is {max_bytes / 1048576:.0f} MB.")
    if not isinstance(content_type, str) or content_type not in filetypes.ALLOWED:
        raise InvalidInput("This file type is not supported. Please upload a PDF, a JPEG or PNG photo, "
                           "or a bank statement as CAMT XML or MT940.", code="unsupported_type")
    kind = PACKET_KIND if split else _kind(kind)
    workspace = _workspace_for_upload(session, user, workspace_id)
    brokerage_id = workspace.brokerage_id if workspace else user.brokerage_id
    intent = UploadIntent(id=new_id(), brokerage_id=brokerage_id, owner_id=user.id,
                          workspace_id=workspace.id if workspace else None, title=_title(title, filename),
                          kind=kind, filename=_clean_name(filename), content_type=content_type, size_bytes=size,
                          expires_at=ports.clock.now() + timedelta(seconds=UPLOAD_OFFER_SECONDS), storage_key="")
    # The client writes to a key of its own; /complete moves the file to the document's key,
    # out of reach of the signed URL (which stays valid for its 15 minutes).
    intent.storage_key = upload_key(brokerage_id, intent.id, filename)
    try:
        target = ports.storage.upload_target(intent.storage_key, content_type, max_bytes=size,
                                                  expires_in=UPLOAD_OFFER_SECONDS)
    except StorageError as exc:
        log.warning("could not sign an upload target: %s", exc)
        raise Unavailable("We cannot take uploads just now. Nothing was saved; please try again.") from exc
    session.add(intent)
    outbox.commit(session)
    return intent, target


def complete_direct_upload(session: Session, ports: Ports, user: User, intent_id: str, *,
                           max_bytes: int) -> Document:
    """Move what arrived to the document's own key, check it (size, magic bytes), record its
    SHA-256 and create the PENDING record. From then on the upload URL reaches nothing we read."""
    if not isinstance(intent_id, str) or not re.fullmatch(r"[0-9a-f]{32}", intent_id):
        raise NotFound("No such upload.")
    intent = session.scalar(scoping.in_brokerage(UploadIntent, user.brokerage_id)
                               .where(UploadIntent.id == intent_id, UploadIntent.owner_id == user.id)) \
        if user.brokerage_id else None
    if intent is None:
        existing = scoping.document_for_viewer(session, user.viewer, intent_id)
        if existing is not None:
            return existing  # completing twice is answered with the same document
        raise NotFound("No such upload.")
    storage = ports.storage
    final_key = storage_key(intent.brokerage_id, intent.id, intent.filename)
    limit = min(max_bytes, intent.size_bytes)
    missing = InvalidInput("The file has not arrived in storage yet. Please upload it first.", code="upload_missing")
    try:
        if intent.storage_key != final_key:   # offers made before uploads had keys of their own
            info = storage.head(intent.storage_key)
            if info is not None:
                # Checked before the move, so that a wrong file can be replaced at the same link.
                head = storage.read_prefix(intent.storage_key, filetypes.SNIFF_BYTES)
                _checked_or_deleted(storage, intent.storage_key, intent.filename, head, info.size, limit)
                storage.move(intent.storage_key, final_key)
            elif storage.head(final_key) is None:
                raise missing
            # else: an earlier /complete moved it and then failed before its commit.
        data = storage.get(final_key)
    except ObjectMissing:
        raise missing from None
    except StorageError as exc:
        log.warning("storage failed while completing upload %s: %s", intent.id, exc)
        raise Unavailable("We could not reach the file just now. Please try again in a moment.") from exc
    # Checked again as it now stands at its own key: that is what is read from here on.
    checked = _checked_or_deleted(storage, final_key, intent.filename, data[:filetypes.SNIFF_BYTES], len(data), limit)
    workspace = session.get(Workspace, intent.workspace_id) if intent.workspace_id else None
    document = _create_pending(session, intent.id, user, intent.brokerage_id, workspace, intent.filename,
                               checked.content_type, len(data), final_key, intent.title, intent.kind,
                               intent=intent, sha256=hashlib.sha256(data).hexdigest(),
                               precheck=pipeline.check_file(data, ports.settings,
                                                            packet=intent.kind == PACKET_KIND))
    return document


def share(session: Session, user: User, document_id: str, email: str) -> DocumentShare:
    document = scoping.document_for_viewer(session, user.viewer, document_id)
    if document is None:
        raise NotFound("No such document.")
    if not may_share(user.role, user.id, document.owner_id):
        raise Forbidden(N_("Only the document's owner or the brokerage's staff can share it."))
    target = session.scalar(select(User).where(User.email == (email or "").strip().lower()))
    # A document never leaves its brokerage (leadflow.domain.audience). Someone of another
    # brokerage gets the same answer as no one at all: sharing must not reveal who has an account.
    if target is None or (target.brokerage_id != document.brokerage_id and not target.is_platform_admin):
        raise InvalidInput(N_("No one in this brokerage has that email address."), code="unknown_user")
    existing = session.get(DocumentShare, (document.id, target.id))
    if existing:
        return existing
    row = DocumentShare(document_id=document.id, user_id=target.id, shared_by_id=user.id)
    session.add(row)
    session.add(AuditEntry(document_id=document.id, actor_id=user.id, action="shared",
                              note=f"shared with user {target.id}"))
    # The new viewer's open pages should show it at once: announce the current status again.
    outbox.record(session, DocumentStatusChanged(
        document.id, document.brokerage_id, document.status, document.title,
        tuple(n.get("en", "") for n in document.verification_notes or [])))
    outbox.commit(session)
    return row


def get_visible(session: Session, user: User, document_id: str) -> Document:
    document = scoping.document_for_viewer(session, user.viewer, document_id)
    if document is None:
        raise NotFound("No such document.")
    return document


def storage_key(brokerage_id: int, document_id: str, filename: str) -> str:
    """Where a document's file lives; only LeadFlow writes here."""
    return f"brokerages/{brokerage_id}/documents/{document_id}/original/{_clean_name(filename)}"


def upload_key(brokerage_id: int, intent_id: str, filename: str) -> str:
    """Where a direct upload lands, the key its signed URL names; moved away on /complete."""
    return f"brokerages/{brokerage_id}/uploads/{intent_id}/{_clean_name(filename)}"


def _create_pending(session: Session, document_id, user, brokerage_id, workspace, filename, content_type, size, key,
                    title, kind, *, precheck, intent: UploadIntent | None = None, sha256: str | None = None) -> Document:
    """The PENDING record, with the pre-check taken on the bytes at hand (`pipeline.check_file`):
    the worker reads its verdict from the row instead of the file from storage."""
    problem, pages = precheck
    now = utcnow()
    document = Document(id=document_id, brokerage_id=brokerage_id, owner_id=user.id,
                        workspace_id=workspace.id if workspace else None, title=_title(title, filename),
                        kind=kind, status=Status.PENDING.value, filename=_clean_name(filename),
                        content_type=content_type, size_bytes=size, storage_key=key, sha256=sha256,
                        precheck=problem[0].value if problem else pipeline.PRECHECK_PASSED,
                        page_count=pages or None, verification_notes=[], created_at=now, updated_at=now,
                        status_changed_at=now)
    # Written on the tables with its audit row and its count (one statement on PostgreSQL), not
    # through the unit of work (whose flush cost as much as both inserts): the object never enters
    # the session, every field of it was set here, and the answer is built from it without reading
    # the row back.
    transitions.create(session, {name: value for name, value in vars(document).items() if not name.startswith("_")},
                       actor_id=user.id, action="uploaded", note=f"{document.filename}, {size} bytes")
    if intent is not None:
        session.delete(intent)
    if kind == PACKET_KIND:
        packets.start(session, document_id, brokerage_id)
    outbox.record(session, DocumentStatusChanged(document_id, brokerage_id, Status.PENDING.value, document.title))
    # A packet is never taken along by another document's claim (it is split, not read): its own message.
    plain = problem is None and kind != PACKET_KIND
    outbox.record(session, VerificationRequested(document_id, brokerage_id, along=plain, gather=plain))
    outbox.commit(session)
    return document


# A client's cases (two are enough to tell one from several), built once: every upload asks.
_CLIENT_CASES = select(Workspace.__table__.c.id, Workspace.__table__.c.brokerage_id).join(
    WorkspaceMember.__table__, WorkspaceMember.__table__.c.workspace_id == Workspace.__table__.c.id).where(
    WorkspaceMember.__table__.c.user_id == bindparam("user_id")).limit(2)


def _workspace_for_upload(session: Session, user: User, workspace_id):
    """The case an upload goes into, as a plain row (`id`, `brokerage_id`: all an upload needs of
    it), or None for none; NotFound for a case the user may not upload into."""
    cases = Workspace.__table__
    members = WorkspaceMember.__table__
    if workspace_id in (None, ""):
        if user.is_platform_admin:
            raise InvalidInput("A platform admin must name the workspace to upload into.")
        if user.role == Role.CLIENT:
            # A client with one case uploads into it without having to say so.
            mine = session.execute(_CLIENT_CASES, {"user_id": user.id}).all()
            if len(mine) == 1:
                return mine[0]
        return None
    if isinstance(workspace_id, str) and re.fullmatch(r"\s*\d{1,12}\s*", workspace_id):
        workspace_id = int(workspace_id)
    if isinstance(workspace_id, bool) or not isinstance(workspace_id, int):
        raise InvalidInput("workspace_id must be a number.")
    if not 1 <= workspace_id <= MAX_ID:
        raise NotFound("No such workspace.")
    query = select(cases.c.id, cases.c.brokerage_id).where(cases.c.id == workspace_id)
    if not user.is_platform_admin:
        query = query.where(cases.c.brokerage_id == user.brokerage_id)
        if user.role == Role.CLIENT:
            query = query.where(cases.c.id.in_(
                select(members.c.workspace_id).where(members.c.user_id == user.id)))
    workspace = session.execute(query).first()
    if workspace is None:
        raise NotFound("No such workspace.")
    return workspace


def _check_file(filename, head, size, max_bytes) -> filetypes.FileCheck:
    try:
        return filetypes.check(filename, head, size, max_bytes)
    except filetypes.UploadRefused as refused:
        if refused.code == "file_too_large":
            raise TooLarge(refused.message) from refused
        raise InvalidInput(refused.message, code=refused.code) from refused


def _checked_or_deleted(storage, key, filename, head, size, max_bytes) -> filetypes.FileCheck:
    """The file check; a refused file is deleted, so nothing unchecked stays under the key."""
    try:
        return _check_file(filename, head, size, max_bytes)
    except (InvalidInput, TooLarge):
        storage.delete(key)
        raise


def _name(value, field: str, *, required: bool = False) -> str | None:
    """A file name or title as a client may send it: text of a sane length, or nothing."""
    if value is None or value == "":
        if required:
            raise InvalidInput(f"{field} is required.")
        return None
    if not isinstance(value, str):
        raise InvalidInput(f"{field} must be text.")
    if len(value) > MAX_NAME_CHARS:
        raise InvalidInput(f"{field} is longer than {MAX_NAME_CHARS} characters.")
    return value


def _kind(kind: str | None) -> str | None:
    if kind is not None and not isinstance(kind, str):
        raise InvalidInput("kind must be text.", code="unknown_kind")
    if kind in (None, "", "other", "unknown"):
        return None
    if kind not in DOCUMENT_TYPES:
        raise InvalidInput(f"Unknown document kind {kind!r}.", code="unknown_kind")
    return kind


def _title(title: str | None, filename: str) -> str:
    return (title or "").strip()[:300] or _clean_name(filename)


def _clean_name(filename: str) -> str:
    base = (filename or "document").replace("\\", "/").rsplit("/", 1)[-1]
    return re.sub(r"[^A-Za-z0-9._ -]+", "_", base).strip(" .")[:200] or "document"
