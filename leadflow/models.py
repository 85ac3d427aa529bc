"""The tables. A document's and an extraction job's status are written only by
leadflow.services.transitions, each as an update guarded by the status it expects (zero rows:
someone else moved it first); a credit reservation's only by leadflow.billing.service, the same way."""
import uuid
from datetime import datetime

from flask_login import UserMixin
from sqlalchemy import CheckConstraint, Index, UniqueConstraint
from werkzeug.security import check_password_hash, generate_password_hash

from leadflow import clock
from leadflow.domain.audience import Role, Viewer
from leadflow.domain.lifecycle import JobStatus, Status
from leadflow.extensions import db


def utcnow() -> datetime:
    return clock.now()


def new_id() -> str:
    return uuid.uuid4().hex


class Brokerage(db.Model):
    __tablename__ = "brokerages"
    id = db.Column(db.Integer, primary_key=True)
    name = db.Column(db.String(200), nullable=False, unique=True)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)


class User(UserMixin, db.Model):
    __tablename__ = "users"
    id = db.Column(db.Integer, primary_key=True)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), index=True)
    email = db.Column(db.String(320), nullable=False, unique=True)
    name = db.Column(db.String(200), nullable=False)
    role = db.Column(db.String(32), nullable=False)
    password_hash = db.Column(db.String(255), nullable=False)
    language = db.Column(db.String(2), nullable=False, default="en")
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    # Copied into the browser session at sign-in; raised by a sign-out or a new password, which
    # ends every session signed in before it.
    session_version = db.Column(db.Integer, nullable=False, default=0, server_default="0")

    __table_args__ = (
        CheckConstraint("role in ('client', 'advisor', 'brokerage_admin', 'platform_admin')", name="role"),
        # Everyone but a platform admin belongs to exactly one brokerage.
        CheckConstraint("role = 'platform_admin' or brokerage_id is not null", name="brokerage_member"),
        # The dashboard's client picker: a brokerage's newest clients, without reading them all.
        Index("ix_users_brokerage_role_id", "brokerage_id", "role", "id"),
    )

    def set_password(self, password: str) -> None:
        self.password_hash = generate_password_hash(password)

    def check_password(self, password: str) -> bool:
        return check_password_hash(self.password_hash, password)

    @property
    def viewer(self) -> Viewer:
        return Viewer(id=self.id, role=Role(self.role), brokerage_id=self.brokerage_id)

    @property
    def is_staff(self) -> bool:
        return self.role in (Role.ADVISOR, Role.BROKERAGE_ADMIN)

    @property
    def is_platform_admin(self) -> bool:
        return self.role == Role.PLATFORM_ADMIN


class ApiToken(db.Model):
    __tablename__ = "api_tokens"
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id"), nullable=False, index=True)
    token_hash = db.Column(db.String(64), nullable=False, unique=True)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)


class Workspace(db.Model):
    """A client's mortgage case."""
    __tablename__ = "workspaces"
    id = db.Column(db.Integer, primary_key=True)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False, index=True)
    name = db.Column(db.String(200), nullable=False)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    # Set when the advisor closes the case; CASE_RETENTION_DAYS later the erasure sweep removes it.
    closed_at = db.Column(db.DateTime, index=True)
    # When the loan is to be paid out (the advisor sets it): identity papers must be valid past it.
    planned_payout_date = db.Column(db.Date)
    # The day the daily reminders sweep looks at this open case next (NULL: at its next run); an
    # index of the open cases by it (migrations only: an expression index) keeps the sweep to those due.
    reminders_due_on = db.Column(db.Date)

    # The dashboard's case picker: a brokerage's newest cases, without reading them all.
    __table_args__ = (Index("ix_workspaces_brokerage_id_id", "brokerage_id", "id"),)


class Applicant(db.Model):
    """A person who applies for the case's mortgage: its client, and optionally one co-applicant."""
    __tablename__ = "applicants"
    id = db.Column(db.Integer, primary_key=True)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False, index=True)
    workspace_id = db.Column(db.Integer, db.ForeignKey("workspaces.id"), nullable=False)
    role = db.Column(db.String(12), nullable=False)   # client | co_applicant
    user_id = db.Column(db.Integer, db.ForeignKey("users.id"))   # the client's user; none for a co-applicant
    name = db.Column(db.String(200), nullable=False)
    date_of_birth = db.Column(db.Date)
    # ISO 3166 code (alpha-2 from a form, alpha-3 as an MRZ writes it); None while unknown.
    citizenship = db.Column(db.String(3))
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)

    __table_args__ = (
        CheckConstraint("role in ('client', 'co_applicant')", name="role"),
        # One client and at most one co-applicant per case.
        UniqueConstraint("workspace_id", "role", name="uq_applicants_workspace_role"),
    )


class WorkspaceMember(db.Model):
    __tablename__ = "workspace_members"
    workspace_id = db.Column(db.Integer, db.ForeignKey("workspaces.id"), primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id"), primary_key=True, index=True)


class Document(db.Model):
    __tablename__ = "documents"
    id = db.Column(db.String(32), primary_key=True, default=new_id)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False)
    owner_id = db.Column(db.Integer, db.ForeignKey("users.id"), nullable=False)
    workspace_id = db.Column(db.Integer, db.ForeignKey("workspaces.id"))
    title = db.Column(db.String(300), nullable=False)
    kind = db.Column(db.String(40))                 # what the client said it is
    document_type = db.Column(db.String(40))        # what extraction found (or a person decided)
    confidence = db.Column(db.Float)
    status = db.Column(db.String(20), nullable=False, default=Status.PENDING)
    filename = db.Column(db.String(300), nullable=False)
    content_type = db.Column(db.String(100), nullable=False)
    size_bytes = db.Column(db.Integer, nullable=False)
    storage_key = db.Column(db.String(500), nullable=False)
    # Hex SHA-256 of the stored file, taken once it is at its own key (none before this was kept).
    sha256 = db.Column(db.String(64))
    page_count = db.Column(db.Integer)
    # The pre-check's verdict, taken where the bytes were (the upload, /complete): "passed" (then
    # page_count holds the pages) or the RejectionCode of the problem. None for files stored before
    # it was kept: the worker checks those in storage.
    precheck = db.Column(db.String(40))
    verification_notes = db.Column(db.JSON, nullable=False, default=list)
    rejection_code = db.Column(db.String(40))
    current_job_id = db.Column(db.String(32))
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    updated_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    status_changed_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    verified_at = db.Column(db.DateTime)
    # Whose document it is: the applicant it names (verification matched it, or the advisor chose).
    # None: it names no one we could read, and counts as the client's. `joint`: it names both
    # applicants (a joint account's statement) and belongs to both.
    applicant_id = db.Column(db.Integer, db.ForeignKey("applicants.id", ondelete="SET NULL"))
    joint = db.Column(db.Boolean, nullable=False, server_default=db.false())
    # A document found inside a packet (one upload holding several documents, issue 40): the
    # packet it came from, its place among the packet's parts (never reused, so a replayed split
    # cannot add a part twice) and its pages in the packet's file, which it shares. A packet that
    # held one document keeps its own pages here too (1 to its last), with no packet_id.
    packet_id = db.Column(db.String(32), db.ForeignKey("documents.id", ondelete="SET NULL"))
    part_number = db.Column(db.Integer)
    first_page = db.Column(db.Integer)
    last_page = db.Column(db.Integer)
    # The day the daily staleness sweep reads this VERIFIED payslip or statement next: the day it
    # ages out, as its content says (NULL: not read since it was verified or corrected; far ahead:
    # never, or marked already). Indexed in the migrations (a partial expression index).
    stale_check_on = db.Column(db.Date)

    __table_args__ = (
        CheckConstraint(
            "status in ('PENDING', 'PROCESSING', 'EXTRACTING', 'VERIFIED', 'REJECTED', 'ACTION_REQUIRED')",
            name="status"),
        # Sweeps look for old rows in one status; the dashboard pages newest first per brokerage.
        Index("ix_documents_status_changed", "status", "status_changed_at"),
        Index("ix_documents_brokerage_created", "brokerage_id", "created_at", "id"),
        Index("ix_documents_brokerage_status_created", "brokerage_id", "status", "created_at", "id"),
        Index("ix_documents_brokerage_type_created", "brokerage_id", "document_type", "created_at", "id"),
        # Status and type together: one range of one index, however rare the pair.
        Index("ix_documents_brokerage_status_type_created", "brokerage_id", "status", "document_type", "created_at",
              "id"),
        Index("ix_documents_workspace_created", "workspace_id", "created_at", "id"),
        Index("ix_documents_owner_created", "owner_id", "created_at", "id"),
        # A packet's children are made once: a second delivery of the split cannot add a part again.
        UniqueConstraint("packet_id", "part_number", name="uq_documents_packet_part"),
        CheckConstraint("(first_page is null) = (last_page is null) and (first_page is null or "
                        "(first_page >= 1 and last_page >= first_page))", name="pages"),
    )


class Packet(db.Model):
    """An upload holding several documents (issue 40): how it was split, and where that stands.

    The packet is a document row too (kind `packet`), so it is claimed, read and audited as any
    upload is; this row holds what only a packet has: the parts its reading proposed or a person
    corrected, and whether they wait for a person. `revision` rises with every split applied, so
    two corrections made at once cannot both apply (services/packets.py)."""
    __tablename__ = "packets"
    document_id = db.Column(db.String(32), db.ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False, index=True)
    # reading: its split job is on the way; unsure: a person is to confirm or correct the parts;
    # split: its children exist; single: it held one document, which is the packet's row itself.
    state = db.Column(db.String(10), nullable=False, default="reading")
    parts = db.Column(db.JSON, nullable=False, default=list)
    revision = db.Column(db.Integer, nullable=False, default=0)
    split_job_id = db.Column(db.String(32))
    decided_by_id = db.Column(db.Integer, db.ForeignKey("users.id"))
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    updated_at = db.Column(db.DateTime, nullable=False, default=utcnow)

    __table_args__ = (CheckConstraint("state in ('reading', 'unsure', 'split', 'single')", name="state"),)


class DocumentStatusCount(db.Model):
    """How many of a brokerage's documents are in each status, kept by every status write.

    The dashboard shows counts per status on every page; counting a million rows per page
    view would not stay fast, so the writers keep the count (see services/transitions.py)."""
    __tablename__ = "document_status_counts"
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), primary_key=True)
    status = db.Column(db.String(20), primary_key=True)
    count = db.Column(db.Integer, nullable=False, default=0)


class DocumentShare(db.Model):
    __tablename__ = "document_shares"
    document_id = db.Column(db.String(32), db.ForeignKey("documents.id"), primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id"), primary_key=True, index=True)
    shared_by_id = db.Column(db.Integer, db.ForeignKey("users.id"))
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)


class UploadIntent(db.Model):
    """A direct upload that was offered but not yet completed: the future document's id."""
    __tablename__ = "upload_intents"
    id = db.Column(db.String(32), primary_key=True, default=new_id)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False, index=True)
    owner_id = db.Column(db.Integer, db.ForeignKey("users.id"), nullable=False)
    workspace_id = db.Column(db.Integer, db.ForeignKey("workspaces.id"))
    title = db.Column(db.String(300), nullable=False)
    kind = db.Column(db.String(40))
    filename = db.Column(db.String(300), nullable=False)
    content_type = db.Column(db.String(100), nullable=False)
    size_bytes = db.Column(db.Integer, nullable=False)
    storage_key = db.Column(db.String(500), nullable=False)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    expires_at = db.Column(db.DateTime, nullable=False)


class ExtractionJob(db.Model):
    """One request to the extraction service; its id is ours, made before submission."""
    __tablename__ = "extraction_jobs"
    id = db.Column(db.String(32), primary_key=True, default=new_id)
    document_id = db.Column(db.String(32), db.ForeignKey("documents.id"), nullable=False, index=True)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False)
    mode = db.Column(db.String(20), nullable=False)   # first | reprocess | customise | split (a packet's pages)
    status = db.Column(db.String(20), nullable=False, default=JobStatus.CREATED.value)   # lifecycle.JobStatus
    output_spec = db.Column(db.JSON)
    # A reprocess or customisation starts from a finished document: the status to return to
    # when it fails (or, for a customisation, when it completes: the verdict stands).
    resume_status = db.Column(db.String(20))
    requested_by_id = db.Column(db.Integer, db.ForeignKey("users.id"))
    submit_attempts = db.Column(db.Integer, nullable=False, default=0)
    pages_reported = db.Column(db.Integer)
    last_error = db.Column(db.Text)
    deadline_at = db.Column(db.DateTime)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    accepted_at = db.Column(db.DateTime)
    finished_at = db.Column(db.DateTime)

    __table_args__ = (
        CheckConstraint("mode in ('first', 'reprocess', 'customise', 'split')", name="mode"),
        CheckConstraint("status in ('created', 'accepted', 'completed', 'failed')", name="status"),
        Index("ix_extraction_jobs_status_deadline", "status", "deadline_at"),
        # Erasing a person forgets them as the requester of jobs: few jobs have one (reruns), so
        # the index holds only those, and the erasure does not read every job to find them.
        Index("ix_extraction_jobs_requested_by", "requested_by_id", postgresql_where=requested_by_id.isnot(None),
              sqlite_where=requested_by_id.isnot(None)),
    )


class CallbackDelivery(db.Model):
    """A callback as received; its id is the sender's `webhook-id`, unique, so a replay is a no-op.

    Also the status log: every callback's whole payload, as it came, under the document its job
    belongs to (from our job record at receipt; none for a job we do not know)."""
    __tablename__ = "callback_deliveries"
    id = db.Column(db.String(255), primary_key=True)
    job_id = db.Column(db.String(64), index=True)
    document_id = db.Column(db.String(32), index=True)
    event_type = db.Column(db.String(40))
    payload = db.Column(db.JSON, nullable=False)
    received_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    processed_at = db.Column(db.DateTime)
    outcome = db.Column(db.String(200))

    # The deliveries still to apply, oldest first, and nothing else: the worker's claim reads the
    # first few in order and stops. An index on (processed_at, received_at) could not give that
    # order for `processed_at IS NULL`: every claim read and sorted the whole backlog (18 ms at
    # 12,000 waiting; a worker catching up after an outage was quadratic in its backlog).
    __table_args__ = (Index("ix_callback_deliveries_to_apply", "received_at",
                            postgresql_where=processed_at.is_(None), sqlite_where=processed_at.is_(None)),)


class AuditEntry(db.Model):
    """One row per status change and per human action on a document."""
    __tablename__ = "audit_entries"
    id = db.Column(db.Integer, primary_key=True)
    document_id = db.Column(db.String(32), db.ForeignKey("documents.id"), nullable=False, index=True)
    actor_id = db.Column(db.Integer, db.ForeignKey("users.id"))
    action = db.Column(db.String(40), nullable=False)
    from_status = db.Column(db.String(20))
    to_status = db.Column(db.String(20))
    note = db.Column(db.Text)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)

    # Erasing a person forgets them as the actor of every entry they made; the workers' and
    # sweeps' entries (most of them) have no actor and stay out of the index.
    __table_args__ = (Index("ix_audit_entries_actor", "actor_id", postgresql_where=actor_id.isnot(None),
                            sqlite_where=actor_id.isnot(None)),)


class DocumentVersion(db.Model):
    """One version of a document's content or of its schema (versioned separately)."""
    __tablename__ = "document_versions"
    id = db.Column(db.Integer, primary_key=True)
    document_id = db.Column(db.String(32), db.ForeignKey("documents.id"), nullable=False)
    part = db.Column(db.String(10), nullable=False)      # content | schema
    number = db.Column(db.Integer, nullable=False)
    cause = db.Column(db.String(20), nullable=False)
    actor_id = db.Column(db.Integer, db.ForeignKey("users.id"))
    job_id = db.Column(db.String(32))
    replaces_id = db.Column(db.Integer, db.ForeignKey("document_versions.id"))
    storage_key = db.Column(db.String(500), nullable=False)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)

    __table_args__ = (
        UniqueConstraint("document_id", "part", "number", name="uq_document_versions_number"),
        # A job writes at most one version of each part: a second delivery cannot add another.
        UniqueConstraint("job_id", "part", name="uq_document_versions_job"),
        CheckConstraint("part in ('content', 'schema')", name="part"),
        CheckConstraint("cause in ('generated', 'reprocessed', 'customised', 'corrected', 'reverted', 'resplit')",
                        name="cause"),
    )


class CreditWallet(db.Model):
    __tablename__ = "credit_wallets"
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), primary_key=True)
    granted = db.Column(db.Integer, nullable=False, default=0)
    balance = db.Column(db.Integer, nullable=False, default=0)
    reserved = db.Column(db.Integer, nullable=False, default=0)
    settled = db.Column(db.Integer, nullable=False, default=0)

    __table_args__ = (
        CheckConstraint("balance >= 0", name="balance_not_negative"),
        CheckConstraint("reserved >= 0", name="reserved_not_negative"),
    )


class CreditReservation(db.Model):
    __tablename__ = "credit_reservations"
    id = db.Column(db.Integer, primary_key=True)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False, index=True)
    # No foreign key: erasing a client removes their jobs, while the ledger row stays for the accounts.
    job_id = db.Column(db.String(32), nullable=False, unique=True)
    pages = db.Column(db.Integer, nullable=False)
    status = db.Column(db.String(10), nullable=False, default="open")   # open | settled | released
    pages_charged = db.Column(db.Integer)
    overage = db.Column(db.Integer, nullable=False, default=0)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    expires_at = db.Column(db.DateTime, nullable=False)
    closed_at = db.Column(db.DateTime)

    __table_args__ = (
        CheckConstraint("status in ('open', 'settled', 'released')", name="status"),
        CheckConstraint("pages > 0", name="pages_positive"),
        Index("ix_credit_reservations_status", "status", "created_at"),
    )


class LenderPackage(db.Model):
    """A ZIP of a complete case for the lender, built by a worker (services/packages.py)."""
    __tablename__ = "lender_packages"
    id = db.Column(db.String(32), primary_key=True, default=new_id)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False, index=True)
    workspace_id = db.Column(db.Integer, db.ForeignKey("workspaces.id"), nullable=False, index=True)
    requested_by_id = db.Column(db.Integer, db.ForeignKey("users.id"))
    status = db.Column(db.String(10), nullable=False, default="building")   # building | ready | failed
    # Progress the case page shows: files put in the ZIP so far, of how many.
    done_steps = db.Column(db.Integer, nullable=False, default=0)
    total_steps = db.Column(db.Integer, nullable=False, default=0)
    storage_key = db.Column(db.String(500))
    size_bytes = db.Column(db.Integer)
    error = db.Column(db.String(200))
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
    finished_at = db.Column(db.DateTime)

    __table_args__ = (CheckConstraint("status in ('building', 'ready', 'failed')", name="status"),)


class ErasureRecord(db.Model):
    """That a client's or a case's personal data was erased, by whom and why; never whose
    (no name, email, case name or document id: that would keep what was erased)."""
    __tablename__ = "erasure_records"
    id = db.Column(db.Integer, primary_key=True)
    brokerage_id = db.Column(db.Integer, db.ForeignKey("brokerages.id"), nullable=False, index=True)
    actor_id = db.Column(db.Integer, db.ForeignKey("users.id"))   # None: the retention sweep
    subject = db.Column(db.String(10), nullable=False)            # client | case
    reason = db.Column(db.String(10), nullable=False)             # request | retention
    removed = db.Column(db.JSON, nullable=False, default=dict)    # rows and files removed, by kind
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)

    __table_args__ = (CheckConstraint("subject in ('client', 'case')", name="subject"),
                      CheckConstraint("reason in ('request', 'retention')", name="reason"))


class SentNotification(db.Model):
    """An email decided and queued for a user: what it was about, and when. It keeps a reminder
    from going out twice for one checklist item within REMINDER_AFTER_DAYS, a rejection or a stale
    document from being told twice, and marks where the next advisor digest starts."""
    __tablename__ = "sent_notifications"
    id = db.Column(db.Integer, primary_key=True)
    user_id = db.Column(db.Integer, db.ForeignKey("users.id"), nullable=False)
    kind = db.Column(db.String(32), nullable=False)      # leadflow.services.notifications.KINDS
    # What it was about, by kind: "<document id>@<status changed at>", "case-<id>:<checklist item>",
    # "<document id>" (stale), "digest".
    subject = db.Column(db.String(120), nullable=False)
    workspace_id = db.Column(db.Integer, db.ForeignKey("workspaces.id"))
    sent_at = db.Column(db.DateTime, nullable=False, default=utcnow)

    __table_args__ = (Index("ix_sent_notifications_user_kind_subject", "user_id", "kind", "subject", "sent_at"),)


class NotificationOptOut(db.Model):
    """A user who wants no more emails of one kind (the settings page, or one click on an
    email's unsubscribe link)."""
    __tablename__ = "notification_opt_outs"
    user_id = db.Column(db.Integer, db.ForeignKey("users.id"), primary_key=True)
    kind = db.Column(db.String(32), primary_key=True)
    created_at = db.Column(db.DateTime, nullable=False, default=utcnow)
