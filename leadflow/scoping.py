"""The one tenant helper: every query for tenant data goes through here.

Pages and the API ask "what may this user see"; workers ask "this id, in this brokerage".
Both answer with queries scoped by brokerage, so another tenant's row is simply not found.
"""
import logging
from collections import defaultdict

from sqlalchemy import String, and_, bindparam, cast, literal, or_, select, union_all
from sqlalchemy.orm import Session

from leadflow.domain.audience import DocumentFacts, Role, STAFF_ROLES, Viewer
from leadflow.models import Document, DocumentShare, ExtractionJob, User, WorkspaceMember

security_log = logging.getLogger("leadflow.security")


def visible_documents(viewer: Viewer):
    """A SELECT of the documents in the viewer's audience (the query form of audience.may_see)."""
    query = select(Document)
    if viewer.role == Role.PLATFORM_ADMIN:
        return query
    if viewer.role in STAFF_ROLES:
        return query.where(Document.brokerage_id == viewer.brokerage_id)
    shared = select(DocumentShare.document_id).where(DocumentShare.user_id == viewer.id)
    workspaces = select(WorkspaceMember.workspace_id).where(WorkspaceMember.user_id == viewer.id)
    return query.where(Document.brokerage_id == viewer.brokerage_id,
                       or_(Document.owner_id == viewer.id,
                           Document.id.in_(shared),
                           Document.workspace_id.in_(workspaces)))


def document_for_viewer(session: Session, viewer: Viewer, document_id: str) -> Document | None:
    """The document if the viewer may see it, else None (the caller answers 404)."""
    return session.scalar(visible_documents(viewer).where(Document.id == document_id))


def in_brokerage(model, brokerage_id: int):
    """A SELECT of a tenant table's rows that belong to one brokerage."""
    return select(model).where(model.brokerage_id == brokerage_id)


def document_in_brokerage(session: Session, document_id: str, brokerage_id: int) -> Document | None:
    return session.scalar(in_brokerage(Document, brokerage_id).where(Document.id == document_id))


def claimable_in_brokerage(session: Session, document_id: str, brokerage_id: int):
    """What a worker deciding whether to claim a document reads of it, as one plain row: its
    `status`, `current_job_id`, `precheck`, `page_count`, `storage_key`, and its current job's
    `job_status` and `job_deadline_at` (None without one). None unless the document is in the
    brokerage. One prebuilt statement, no ORM object: most such messages find the document
    claimed already (taken along with another) and read nothing more."""
    return session.execute(_CLAIMABLE, {"document_id": document_id, "brokerage_id": brokerage_id}).first()


def _claimable_statement():
    document, job = Document.__table__, ExtractionJob.__table__
    return (select(document.c.status, document.c.current_job_id, document.c.precheck, document.c.page_count,
                   document.c.storage_key, job.c.status.label("job_status"), job.c.deadline_at.label("job_deadline_at"))
            .select_from(document.outerjoin(job, job.c.id == document.c.current_job_id))
            .where(document.c.id == bindparam("document_id"), document.c.brokerage_id == bindparam("brokerage_id")))


_CLAIMABLE = _claimable_statement()


def job_with_document(session: Session, job_id: str):
    """What a worker holding a job id needs of the job, its document and the document owner's
    name, as one plain row (`job_*`, `document_*`, `owner_name`); the document's columns are None
    unless it is in the job's brokerage. None for a job we do not know. One prebuilt statement
    and no ORM objects: a batch of deliveries applies many in one transaction, each must see the
    rows as they are now, and none is changed through the ORM."""
    return session.execute(_JOB_WITH_DOCUMENT, {"job_id": job_id}).first()


def jobs_with_documents(session: Session, job_ids) -> dict:
    """job_with_document for many jobs in one statement: {job id: row}, jobs we do not know left out."""
    job_ids = list(dict.fromkeys(job_ids))
    if not job_ids:
        return {}
    return {row.job_id: row for row in session.execute(_JOBS_WITH_DOCUMENTS, {"job_ids": job_ids})}


def _job_with_document_statement(*, many: bool = False):
    job, document, owner = ExtractionJob.__table__, Document.__table__, User.__table__
    return (select(job.c.id.label("job_id"), job.c.status.label("job_status"), job.c.mode.label("job_mode"),
                   job.c.output_spec.label("job_output_spec"), job.c.resume_status.label("job_resume_status"),
                   job.c.requested_by_id.label("job_requested_by_id"),
                   document.c.id.label("document_id"), document.c.brokerage_id.label("document_brokerage_id"),
                   document.c.current_job_id.label("document_current_job_id"),
                   document.c.status.label("document_status"), document.c.page_count.label("document_page_count"),
                   document.c.kind.label("document_kind"),
                   document.c.verification_notes.label("document_verification_notes"),
                   document.c.workspace_id.label("document_workspace_id"),
                   owner.c.name.label("owner_name"))
            .select_from(job.outerjoin(document, and_(document.c.id == job.c.document_id,
                                                      document.c.brokerage_id == job.c.brokerage_id))
                         .outerjoin(owner, owner.c.id == document.c.owner_id))
            .where(job.c.id.in_(bindparam("job_ids", expanding=True)) if many else job.c.id == bindparam("job_id")))


_JOB_WITH_DOCUMENT = _job_with_document_statement()
_JOBS_WITH_DOCUMENTS = _job_with_document_statement(many=True)


def document_belongs_elsewhere(session: Session, document_id: str, brokerage_id: int) -> bool:
    """True when the id exists under another brokerage: a forged or corrupted payload."""
    owner = session.scalar(select(Document.brokerage_id).where(Document.id == document_id))
    if owner is not None and owner != brokerage_id:
        security_log.warning("security: payload for document %s names brokerage %s, stored under %s",
                             document_id, brokerage_id, owner)
        return True
    return False


def documents_facts(session: Session, documents: list[Document]) -> dict[str, DocumentFacts]:
    """document_facts for many documents in one query, whatever their number (the live fan-out)."""
    if not documents:
        return {}
    workspace_ids = {d.workspace_id for d in documents if d.workspace_id}
    members, shared = defaultdict(set), defaultdict(set)
    rows = union_all(
        select(literal("member"), cast(WorkspaceMember.workspace_id, String), WorkspaceMember.user_id)
        .where(WorkspaceMember.workspace_id.in_(workspace_ids)),
        select(literal("share"), DocumentShare.document_id, DocumentShare.user_id)
        .where(DocumentShare.document_id.in_([d.id for d in documents])))
    for kind, key, user_id in session.execute(rows):
        (members[int(key)] if kind == "member" else shared[key]).add(user_id)
    return {d.id: DocumentFacts(brokerage_id=d.brokerage_id, owner_id=d.owner_id,
                                workspace_member_ids=frozenset(members.get(d.workspace_id, ())),
                                shared_with_ids=frozenset(shared.get(d.id, ()))) for d in documents}


def document_facts(session: Session, document: Document) -> DocumentFacts:
    members = session.scalars(
        select(WorkspaceMember.user_id).where(WorkspaceMember.workspace_id == document.workspace_id)
    ) if document.workspace_id else []
    shared = session.scalars(select(DocumentShare.user_id).where(DocumentShare.document_id == document.id))
    return DocumentFacts(brokerage_id=document.brokerage_id, owner_id=document.owner_id,
                         workspace_member_ids=frozenset(members), shared_with_ids=frozenset(shared))

