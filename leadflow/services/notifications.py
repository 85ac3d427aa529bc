"""Which emails clients and advisors get, and what they say: decided and composed here, queued
after the deciding transaction commits, sent by the `send-mail` actor (tasks/mail.py).

A client hears, in their language: that a document was rejected (with the reason they would read
on the portal), that a checklist item is still missing REMINDER_AFTER_DAYS after the case opened
(again at most once per that many days per item), that documents went stale. An advisor gets a
daily digest of their cases' documents that settled, were rejected or wait for a person since the
last one. `sent_notifications` remembers each; a user opted out of a kind gets none of it, and
every email carries a signed one-click link that opts its reader out of its kind.
"""
import logging
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import timedelta

from itsdangerous import BadData, URLSafeSerializer
from sqlalchemy import func, select
from sqlalchemy.orm import Session

from leadflow import outbox, scoping
from leadflow.domain.audience import STAFF_ROLES, Role
from leadflow.domain.lifecycle import Status
from leadflow.mail import Mail
from leadflow.mail.render import render
from leadflow.models import (Document, NotificationOptOut, SentNotification, User, Workspace, WorkspaceMember)
from leadflow.ports import Ports
from leadflow.services import checklist

log = logging.getLogger(__name__)

DOCUMENT_REJECTED = "document_rejected"
MISSING_REMINDER = "missing_reminder"
DOCUMENT_STALE = "document_stale"
ADVISOR_DIGEST = "advisor_digest"
CLIENT_KINDS = (DOCUMENT_REJECTED, MISSING_REMINDER, DOCUMENT_STALE)
STAFF_KINDS = (ADVISOR_DIGEST,)
KINDS = CLIENT_KINDS + STAFF_KINDS
DEFAULT_REMINDER_AFTER_DAYS = 3
# A digest is daily; a scheduler that runs a little early or twice must not send a second one.
DIGEST_MIN_GAP = timedelta(hours=20)
# Documents named per case and outcome in a digest; the case page has the rest.
DIGEST_TITLES = 10
_TOKEN_SALT = "leadflow.unsubscribe"


@dataclass(frozen=True)
class MailComposed:
    """An email decided in a transaction; it is queued (send-mail) once that transaction commits."""
    kind: str
    message: dict = field(compare=False)


def kinds_for(role: str) -> tuple[str, ...]:
    """The kinds of email a user of this role may get (and opt out of)."""
    if role == Role.CLIENT:
        return CLIENT_KINDS
    return STAFF_KINDS if role in STAFF_ROLES else ()


def document_rejected(session: Session, ports: Ports, document_id: str, brokerage_id: int) -> int:
    """Tell the case's clients that a document was rejected, and why; once per rejection.

    Sent from the mail queue after the REJECTED transition committed (leadflow.effects), so the
    pipeline never waits for it. Returns how many emails were queued."""
    document = scoping.document_in_brokerage(session, document_id, brokerage_id)
    # A failure of ours (SYSTEM_ codes, older rows) is not the client's to fix; a packet's pages
    # given to another of its documents (PACKET_PART_MERGED) are no rejection of theirs either.
    if (document is None or document.status != Status.REJECTED
            or (document.rejection_code or "").startswith(("SYSTEM_", "PACKET_"))):
        return 0
    subject = f"{document.id}@{document.status_changed_at:%Y%m%dT%H%M%S%f}"
    queued = 0
    for user in _clients_of(session, document.brokerage_id, document.workspace_id, document.owner_id):
        if _opted_out(session, user.id, DOCUMENT_REJECTED) or _told(session, user.id, DOCUMENT_REJECTED, subject):
            continue
        language = _language(user)
        _queue(session, ports, user, DOCUMENT_REJECTED, [subject], document.workspace_id,
               title=document.title, reasons=_reasons(document.verification_notes, language),
               portal_url=_url(ports, "/portal"))
        queued += 1
    outbox.commit(session)
    return queued


def remind_missing(session: Session, ports: Ports, workspace_id: int) -> int:
    """Remind the clients of an open case of the checklist items still missing (or rejected and not
    yet replaced) once the case is REMINDER_AFTER_DAYS old, each item at most once per that many
    days. One email per client, naming the items due. Returns how many emails were queued."""
    workspace = session.get(Workspace, workspace_id)
    # A closed case waits for its erasure, not for documents: its client is asked for nothing more.
    if workspace is None or workspace.closed_at is not None:
        return 0
    now = ports.clock.now()
    period = timedelta(days=_reminder_days(ports))
    if workspace.created_at > now - period:
        return 0
    states = [s for s in checklist.for_workspace(session, ports.storage, workspace.id, workspace.brokerage_id)
              if s.state in ("missing", "rejected")]
    if not states:
        return 0
    queued = 0
    for user in _clients_of(session, workspace.brokerage_id, workspace.id, None):
        if _opted_out(session, user.id, MISSING_REMINDER):
            continue
        keys = {f"case-{workspace.id}:{s.key}": s for s in states}
        recent = set(session.scalars(select(SentNotification.subject).where(
            SentNotification.user_id == user.id, SentNotification.kind == MISSING_REMINDER,
            SentNotification.subject.in_(list(keys)), SentNotification.sent_at > now - period)))
        due = [(key, state) for key, state in keys.items() if key not in recent]
        if not due:
            continue
        language = _language(user)
        items = [{"name": getattr(state.item, language, state.item.en), "hint": ""} for _, state in due]
        _queue(session, ports, user, MISSING_REMINDER, [key for key, _ in due], workspace.id,
               case_name=workspace.name, items=items, portal_url=_url(ports, "/portal"))
        queued += 1
    outbox.commit(session)
    return queued


def document_stale(session: Session, ports: Ports, document_ids: Iterable[str]) -> int:
    """Tell each client whose documents went stale (too old for a lender now) which ones to
    replace: one email per client, in their language, each document told once, unless they
    opted out of that kind.

    Called by the staleness sweep with the ids it just moved. Commits the session (the caller's
    moves with it, if they are still pending) and queues the mails after that commit. Returns
    how many emails were queued."""
    ids = sorted({str(i) for i in document_ids})
    if not ids:
        return 0
    # The ids come from a sweep across brokerages: each document's own brokerage scopes its people.
    documents = session.scalars(select(Document).where(Document.id.in_(ids)).order_by(Document.created_at)).all()
    per_user: dict[int, list[Document]] = defaultdict(list)
    people: dict[int, User] = {}
    for document in documents:
        for user in _clients_of(session, document.brokerage_id, document.workspace_id, document.owner_id):
            people[user.id] = user
            per_user[user.id].append(document)
    queued = 0
    for user_id, stale in per_user.items():
        user = people[user_id]
        if _opted_out(session, user.id, DOCUMENT_STALE):
            continue
        untold = [d for d in stale if not _told(session, user.id, DOCUMENT_STALE, d.id)]
        if not untold:
            continue
        _queue(session, ports, user, DOCUMENT_STALE, [d.id for d in untold], untold[0].workspace_id,
               documents=[d.title for d in untold], portal_url=_url(ports, "/portal"))
        queued += 1
    outbox.commit(session)
    return queued


def advisor_digest(session: Session, ports: Ports, user_id: int) -> int:
    """An advisor's (or brokerage admin's) digest of their cases' documents that settled, were
    rejected or wait for a person since their last digest (the last day, for a first one). Their
    cases: those they are a member of, or else every case of their brokerage. Nothing changed,
    nothing sent. Returns 1 when a digest was queued, else 0."""
    user = session.get(User, user_id)
    if user is None or user.role not in STAFF_ROLES or user.brokerage_id is None:
        return 0
    if _opted_out(session, user.id, ADVISOR_DIGEST):
        return 0
    now = ports.clock.now()
    last = session.scalar(select(func.max(SentNotification.sent_at)).where(
        SentNotification.user_id == user.id, SentNotification.kind == ADVISOR_DIGEST))
    if last is not None and last > now - DIGEST_MIN_GAP:
        return 0
    since = last or now - timedelta(days=1)
    query = (scoping.in_brokerage(Document, user.brokerage_id)
             .where(Document.workspace_id.isnot(None),
                    Document.status.in_([Status.VERIFIED.value, Status.REJECTED.value, Status.ACTION_REQUIRED.value]),
                    Document.status_changed_at > since, Document.status_changed_at <= now)
             .order_by(Document.workspace_id, Document.status_changed_at))
    mine = select(WorkspaceMember.workspace_id).where(WorkspaceMember.user_id == user.id)
    if session.scalar(select(func.count()).select_from(mine.subquery())):
        query = query.where(Document.workspace_id.in_(mine))
    changed: dict[int, dict] = {}
    for document in session.scalars(query):
        case = changed.setdefault(document.workspace_id, {"settled": [], "rejected": [], "waiting": []})
        column = {"VERIFIED": "settled", "REJECTED": "rejected"}.get(document.status, "waiting")
        if len(case[column]) < DIGEST_TITLES:
            case[column].append(document.title)
    if not changed:
        return 0
    names = dict(session.execute(select(Workspace.id, Workspace.name).where(Workspace.id.in_(list(changed)))).all())
    cases = [{"name": names.get(workspace_id, f"#{workspace_id}"), "url": _url(ports, f"/workspaces/{workspace_id}"),
              **lists} for workspace_id, lists in sorted(changed.items(), key=lambda kv: names.get(kv[0], ""))]
    _queue(session, ports, user, ADVISOR_DIGEST, ["digest"], None, cases=cases,
           since=since, dashboard_url=_url(ports, "/dashboard"))
    outbox.commit(session)
    return 1


def deliver(session: Session, ports: Ports, message: dict) -> bool:
    """Hand a queued email to the transport (the send-mail actor's one call); False, and nothing
    sent, when its recipient is no user any more: a client erased while their email waited in the
    queue (an SMTP server down retries it for a day) must not be written to afterwards. Raises
    leadflow.mail.MailUnavailable (try again) or MailRefused (don't)."""
    mail = Mail.from_dict(message)
    if session.scalar(select(User.id).where(func.lower(User.email) == mail.to.strip().lower()).limit(1)) is None:
        log.info("a queued %s email was dropped: its recipient was erased", mail.headers.get("X-LeadFlow-Kind"))
        return False
    ports.mail.send(mail)
    return True


# --- preferences ---------------------------------------------------------------------------------

def unsubscribe_token(settings, user_id: int, kind: str) -> str:
    """The signed token of an email's one-click unsubscribe link: who, and which kind."""
    return _serializer(settings).dumps([int(user_id), kind])


def read_unsubscribe_token(settings, token: str) -> tuple[int, str] | None:
    """(user id, kind) of a genuine token, else None."""
    try:
        user_id, kind = _serializer(settings).loads(token)
    except (BadData, ValueError, TypeError):
        return None
    if not isinstance(user_id, int) or kind not in KINDS:
        return None
    return user_id, kind


def unsubscribe_subject(session: Session, settings, token: str) -> tuple[User, str] | None:
    """(user, kind) a genuine token would opt out, writing nothing; None for a token that is not
    ours or names no user any more."""
    found = read_unsubscribe_token(settings, token)
    if found is None:
        return None
    user = session.get(User, found[0])
    if user is None or found[1] not in kinds_for(user.role):
        return None
    return user, found[1]


def unsubscribe(session: Session, settings, token: str) -> tuple[User, str] | None:
    """Opt the token's user out of its kind (again is harmless); (user, kind), or None for a token
    that is not ours or names no user any more."""
    found = unsubscribe_subject(session, settings, token)
    if found is None:
        return None
    user = found[0]
    if not _opted_out(session, user.id, found[1]):
        session.add(NotificationOptOut(user_id=user.id, kind=found[1]))
        session.commit()
    return user, found[1]


def enabled_kinds(session: Session, user: User) -> set[str]:
    """The kinds of email `user` gets (all of their role's, less those opted out of)."""
    out = set(session.scalars(select(NotificationOptOut.kind).where(NotificationOptOut.user_id == user.id)))
    return set(kinds_for(user.role)) - out


def set_preferences(session: Session, user: User, enabled: set[str]) -> None:
    """Keep exactly `enabled` of the user's kinds (the settings page); commits."""
    allowed = set(kinds_for(user.role))
    unknown = set(enabled) - allowed
    if unknown:
        raise ValueError(f"not a kind of email for this user: {sorted(unknown)}")
    out = allowed - set(enabled)
    current = set(session.scalars(select(NotificationOptOut.kind).where(NotificationOptOut.user_id == user.id)))
    for kind in out - current:
        session.add(NotificationOptOut(user_id=user.id, kind=kind))
    for kind in current - out:
        session.execute(NotificationOptOut.__table__.delete().where(
            NotificationOptOut.user_id == user.id, NotificationOptOut.kind == kind))
    session.commit()


# --- helpers -------------------------------------------------------------------------------------

def _queue(session: Session, ports: Ports, user: User, kind: str, subjects: list[str], workspace_id: int | None,
           **context) -> None:
    """Compose `kind` for `user`, remember it per subject, and hold it until the commit."""
    language = _language(user)
    unsubscribe_url = _url(ports, f"/notifications/unsubscribe/{unsubscribe_token(ports.settings, user.id, kind)}")
    subject, text, html = render(kind, language, name=user.name,
                                 unsubscribe_url=unsubscribe_url,
                                 settings_url=_url(ports, "/notifications/settings"), **context)
    mail = Mail(to=user.email, subject=subject, text=text, html=html, headers={
        "List-Unsubscribe": f"<{unsubscribe_url}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "X-LeadFlow-Kind": kind,
    })
    now = ports.clock.now()
    for key in subjects:
        session.add(SentNotification(user_id=user.id, kind=kind, subject=key[:120], workspace_id=workspace_id,
                                     sent_at=now))
    outbox.record(session, MailComposed(kind, mail.as_dict()))
    log.info("%s email for user %s queued", kind, user.id)


def _clients_of(session: Session, brokerage_id: int, workspace_id: int | None, owner_id: int | None) -> list[User]:
    """The clients a case's email goes to: its client members, and the document's owner if a client."""
    members = (select(WorkspaceMember.user_id).where(WorkspaceMember.workspace_id == workspace_id)
               if workspace_id is not None else None)
    query = scoping.in_brokerage(User, brokerage_id).where(User.role == Role.CLIENT.value)
    if members is not None and owner_id is not None:
        query = query.where(User.id.in_(members) | (User.id == owner_id))
    elif members is not None:
        query = query.where(User.id.in_(members))
    elif owner_id is not None:
        query = query.where(User.id == owner_id)
    else:
        return []
    return list(session.scalars(query.order_by(User.id)))


def _opted_out(session: Session, user_id: int, kind: str) -> bool:
    return session.get(NotificationOptOut, (user_id, kind)) is not None


def _told(session: Session, user_id: int, kind: str, subject: str) -> bool:
    return session.scalar(select(SentNotification.id).where(
        SentNotification.user_id == user_id, SentNotification.kind == kind,
        SentNotification.subject == subject[:120]).limit(1)) is not None


def _reasons(notes, language: str) -> list[str]:
    """The notes a client reads on the portal, in their language."""
    reasons = []
    for note in notes or []:
        if isinstance(note, dict):
            text = note.get(language) or note.get("en")
        else:
            text = str(note)
        if text:
            reasons.append(str(text))
    return reasons


def _language(user: User) -> str:
    return user.language if user.language in ("en", "de") else "en"


def _reminder_days(ports: Ports) -> int:
    return max(1, int(ports.settings.get("REMINDER_AFTER_DAYS") or DEFAULT_REMINDER_AFTER_DAYS))


def _url(ports: Ports, path: str) -> str:
    return f"{str(ports.settings.get('PUBLIC_BASE_URL') or '').rstrip('/')}{path}"


def _serializer(settings) -> URLSafeSerializer:
    secret = settings.get("SECRET_KEY")
    if not secret:
        raise RuntimeError("SECRET_KEY is needed to sign unsubscribe links")
    return URLSafeSerializer(secret, salt=_TOKEN_SALT)
