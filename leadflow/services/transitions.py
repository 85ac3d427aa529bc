"""The only writer of a document's status and of an extraction job's: conditional updates.

A document's move is an update plus an audit row, in the caller's transaction; a job's is an
update. Either is guarded by the status it expects: zero rows means someone else moved it first.

The statements are on the tables, not the ORM entities: every status change of the pipeline runs
through here, and an ORM-enabled update (or an audit row left to the unit of work's flush) cost
about as much again to prepare as to run. Rows already loaded in the session are told what changed
(`expire_loaded`). On PostgreSQL a move's audit row is written by the move's own statement (an
INSERT in a WITH of the UPDATE, fed by what the UPDATE returned): one round trip per move, not
two, and still no row when nothing moved. SQLite has no data-modifying WITH: two statements.
"""
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from sqlalchemy import bindparam, func, insert, literal, null, select, update
from sqlalchemy.sql import ClauseElement
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.util import identity_key

from leadflow import metrics, outbox, statements
from leadflow.domain import lifecycle
from leadflow.domain.events import DocumentStatusChanged
from leadflow.domain.lifecycle import JobStatus, Status
from leadflow.models import AuditEntry, Document, ExtractionJob, utcnow
from leadflow.services import counts

_DOCUMENTS = Document.__table__
_JOBS = ExtractionJob.__table__
_AUDIT = AuditEntry.__table__
# One audit row (an upload's first too); compiled once per set of keys given (SQLAlchemy's cache).
ADD_AUDIT = insert(_AUDIT)


def apply(session: Session, document_id: str, source: Status, target: Status, *, action: str = "status_changed",
          actor_id: int | None = None, note: str | None = None, **fields) -> bool:
    """Move a document from `source` to `target` if it is still in `source`.

    Returns False when zero rows matched: someone else moved it first, and then nothing is
    written, no audit row, no event, no new timestamp. The caller commits.
    """
    return _move(session, document_id, source, target, action=action, actor_id=actor_id, note=note,
                 **fields) is not None


def claim(session: Session, document_id: str):
    """A worker's claim, PENDING -> PROCESSING, as `apply`; returns the claimed row as the update
    found it and locked (`current_job_id`, `storage_key`, `owner_id`), None when it was not PENDING.
    A copy read before the claim may hold another worker's earlier job id: the caller decides
    from this row which job to submit."""
    return _move(session, document_id, Status.PENDING, Status.PROCESSING, action="claimed", actor_id=None, note=None)


def _move(session: Session, document_id: str, source: Status, target: Status, *, action: str,
          actor_id: int | None, note: str | None, **fields):
    lifecycle.check(source, target)
    now = utcnow()
    values = {"status": target.value, "updated_at": now, "status_changed_at": now, **fields}
    audited = _audits_in_statement(session)
    parameters = {"document_id": document_id, "moved_at": now, "audit_actor_id": actor_id, "audit_action": action,
                  "audit_note": note}
    if any(isinstance(value, ClauseElement) for value in fields.values()):
        statement = _move_statement(source, target, values, now, audited)
    else:
        statement = statements.built_once(("move", source, target, tuple(fields), audited), lambda: _move_statement(
            source, target, {"status": target.value, "updated_at": _MOVED_AT, "status_changed_at": _MOVED_AT,
                             **{name: bindparam(f"set_{name}", type_=_DOCUMENTS.c[name].type) for name in fields}},
            _MOVED_AT, audited))
        parameters.update({f"set_{k}": v for k, v in fields.items()})
    row = session.execute(statement, parameters).first()
    if row is None:
        return None
    # The row as the update found it (locked): a loaded copy read before may hold another
    # worker's earlier job id, and the caller decides from it which job to submit.
    expire_loaded(session, Document, document_id, values, fresh={"current_job_id": row.current_job_id})
    counts.bump(session, row.brokerage_id, {source.value: -1, target.value: +1})
    metrics.document_settled(source, target, row.created_at, row.verified_at, now)
    if not audited:
        session.execute(ADD_AUDIT, {"document_id": document_id, "actor_id": actor_id, "action": action,
                                     "from_status": source.value, "to_status": target.value, "note": note,
                                     "created_at": now})
    outbox.record(session, DocumentStatusChanged(
        document_id=document_id, brokerage_id=row.brokerage_id, status=target.value,
        title=row.title, notes=tuple(n.get("en", "") for n in (row.verification_notes or [])),
        packet_id=row.packet_id))
    return row


def create(session: Session, row: Mapping[str, object], *, actor_id: int | None, action: str, note: str | None) -> None:
    """A new document's row (every column given, in `row`), its first audit row and its place in
    its brokerage's counts, to its status; the caller commits.

    On PostgreSQL all three are one statement, the count moved in it rather than just before the
    commit (`counts`): an upload's transaction writes nothing after it, so the count row's lock
    is held as briefly either way, and the upload saves a round trip."""
    now = row["created_at"]
    audit = {"audit_actor_id": actor_id, "audit_action": action, "audit_note": note, "moved_at": now}
    if _audits_in_statement(session):
        shape = (tuple(row), Status(row["status"]))
        statement = statements.built_once(("create", *shape), lambda: _create_statement(*shape))
        session.execute(statement, {**{f"new_{name}": value for name, value in row.items()}, **audit})
        return
    session.execute(insert(_DOCUMENTS), dict(row))
    session.execute(ADD_AUDIT, {"document_id": row["id"], "actor_id": actor_id, "action": action, "from_status": None,
                                 "to_status": row["status"], "note": note, "created_at": now})
    counts.bump(session, row["brokerage_id"], {row["status"]: +1})


def apply_many(session: Session, document_ids: Iterable[str], source: Status, target: Status, *,
               action: str, notes: Mapping[str, str] | None = None,
               per_document: Mapping[str, Mapping[str, object]] | None = None, without_job: bool = False,
               job_among: Sequence[str] | None = None, **fields) -> list[str]:
    """`apply` for many documents at once: one update, one insert of their audit rows, the
    counts moved once. `per_document`: a column whose value differs per document
    ({column: {document_id: value}}, NULL for a document not in it); `notes`: each document's
    audit note; `without_job`: only documents with no extraction job yet move; `job_among`: only
    documents whose current job is one of these move. Returns the ids moved (those still in
    `source`); the others are left as they are, with nothing written for them. The caller commits."""
    lifecycle.check(source, target)
    document_ids = list(dict.fromkeys(document_ids))
    if not document_ids:
        return []
    now = utcnow()
    per_document = per_document or {}
    job_among = list(job_among) if job_among is not None else None
    audited = _audits_in_statement(session)
    shape = ("apply_many", source, target, len(document_ids), tuple(fields), tuple(per_document), bool(notes),
             without_job, None if job_among is None else len(job_among), audited)
    statement = statements.built_once(shape, lambda: _many_statement(*shape[1:]), rows=len(document_ids))
    parameters = {"moved_at": now, "audit_action": action, **{f"set_{name}": value for name, value in fields.items()}}
    for i, document_id in enumerate(document_ids):
        parameters[f"id_{i}"] = document_id
        for name, by_document in per_document.items():
            parameters[f"{name}_{i}"] = by_document.get(document_id)
        if notes:
            parameters[f"note_{i}"] = notes.get(document_id)
    for i, job_id in enumerate(job_among or ()):
        parameters[f"job_{i}"] = job_id
    rows = session.execute(statement, parameters).all()
    if not rows:
        return []
    written = ("status", "updated_at", "status_changed_at", *fields, *per_document)
    moved_per_brokerage = Counter()
    for row in rows:
        expire_loaded(session, Document, row.id, written)
        moved_per_brokerage[row.brokerage_id] += 1
        metrics.document_settled(source, target, row.created_at, row.verified_at, now)
        outbox.record(session, DocumentStatusChanged(
            document_id=row.id, brokerage_id=row.brokerage_id, status=target.value,
            title=row.title, notes=tuple(n.get("en", "") for n in (row.verification_notes or [])),
            packet_id=row.packet_id))
    for brokerage_id, moved in moved_per_brokerage.items():
        counts.bump(session, brokerage_id, {source.value: -moved, target.value: +moved})
    if not audited:
        session.execute(ADD_AUDIT, [
            {"document_id": row.id, "actor_id": None, "action": action, "from_status": source.value,
             "to_status": target.value, "note": (notes or {}).get(row.id), "created_at": now} for row in rows])
    return [row.id for row in rows]


def renote(session: Session, document_id: str, status: Status, *, action: str, actor_id: int | None = None,
           note: str | None = None, **fields) -> bool:
    """New notes (a verdict judged again with the same outcome) on a document that must still be
    in `status`; an audit row without statuses, and open pages re-render the row. False when
    the document left `status` meanwhile. The caller commits."""
    now = utcnow()
    row = session.execute(
        update(_DOCUMENTS).where(_DOCUMENTS.c.id == document_id, _DOCUMENTS.c.status == status.value)
        .values(updated_at=now, **fields)
        .returning(_DOCUMENTS.c.brokerage_id, _DOCUMENTS.c.title, _DOCUMENTS.c.verification_notes,
                   _DOCUMENTS.c.packet_id)).first()
    if row is None:
        return False
    expire_loaded(session, Document, document_id, {"updated_at": now, **fields})
    session.execute(ADD_AUDIT, {"document_id": document_id, "actor_id": actor_id, "action": action,
                                 "from_status": None, "to_status": None, "note": note, "created_at": now})
    outbox.record(session, DocumentStatusChanged(
        document_id=document_id, brokerage_id=row.brokerage_id, status=status.value, title=row.title,
        notes=tuple(n.get("en", "") for n in (row.verification_notes or [])), packet_id=row.packet_id))
    return True


def finish(session: Session, job_id: str, status: JobStatus, *,
           expected: JobStatus | Iterable[JobStatus] = JobStatus.ACCEPTED, **fields) -> bool:
    """Finish an extraction job (COMPLETED or FAILED) if it is still in `expected`.

    False when zero rows matched: it was finished by someone else (a callback and the deadline
    sweep racing), and nothing is written. The caller commits."""
    if status not in lifecycle.JOB_FINISHED:
        raise lifecycle.IllegalTransition(f"{status} is not how a job finishes")
    return _move_job(session, job_id, status, expected, finished_at=utcnow(), **fields)


def finish_many(session: Session, job_ids: Iterable[str], status: JobStatus, *,
                expected: JobStatus = JobStatus.ACCEPTED, per_job: Mapping[str, Mapping[str, object]] | None = None,
                **fields) -> list[str]:
    """`finish` for many jobs in one update; `per_job`: a column whose value differs per job
    ({column: {job_id: value}}, NULL for a job not in it). Returns the ids finished (those still
    in `expected`); the others are left as they are. The caller commits."""
    if status not in lifecycle.JOB_FINISHED:
        raise lifecycle.IllegalTransition(f"{status} is not how a job finishes")
    expected = JobStatus(expected)
    lifecycle.check_job(expected, status)
    job_ids = list(dict.fromkeys(job_ids))
    if not job_ids:
        return []
    per_job = per_job or {}
    fields = {"finished_at": utcnow(), **fields}
    shape = ("finish_many", status, expected, len(job_ids), tuple(fields), tuple(per_job))
    statement = statements.built_once(shape, lambda: _finish_many_statement(*shape[1:]), rows=len(job_ids))
    parameters = {f"set_{name}": value for name, value in fields.items()}
    for i, job_id in enumerate(job_ids):
        parameters[f"id_{i}"] = job_id
        for name, by_job in per_job.items():
            parameters[f"{name}_{i}"] = by_job.get(job_id)
    finished = session.execute(statement, parameters).scalars().all()
    written = ("status", *fields, *per_job)
    for job_id in finished:
        expire_loaded(session, ExtractionJob, job_id, written)
    return list(finished)


def accept(session: Session, job_id: str, *, accepted_at, deadline_at) -> bool:
    """The service took the job: CREATED -> ACCEPTED, with its deadline, one more submission
    counted. The caller commits."""
    return bool(accept_many(session, [job_id], accepted_at=accepted_at, deadline_at=deadline_at))


def accept_many(session: Session, job_ids: Iterable[str], *, accepted_at, deadline_at) -> list[str]:
    """`accept` for many jobs in one update; the ids accepted (those still CREATED). The caller
    commits."""
    job_ids = list(dict.fromkeys(job_ids))
    if not job_ids:
        return []
    statement = statements.built_once(("accept_many", len(job_ids)), lambda: _accept_many_statement(len(job_ids)),
                                      rows=len(job_ids))
    accepted = session.execute(statement, {"set_accepted_at": accepted_at, "set_deadline_at": deadline_at,
                                           **{f"id_{i}": job_id for i, job_id in enumerate(job_ids)}}
                               ).scalars().all()
    for job_id in accepted:
        expire_loaded(session, ExtractionJob, job_id, ("status", "accepted_at", "deadline_at", "submit_attempts"))
    return list(accepted)


def _move_job(session: Session, job_id: str, target: JobStatus, expected, **fields) -> bool:
    sources = (JobStatus(expected),) if isinstance(expected, str) else tuple(JobStatus(s) for s in expected)
    for source in sources:
        lifecycle.check_job(source, target)
    statement = statements.built_once(("move_job", target, sources, tuple(fields)),
                                      lambda: _move_job_statement(target, sources, tuple(fields)))
    moved = session.execute(statement, {"job_id": job_id, **{f"set_{name}": value for name, value in fields.items()}}
                            ).rowcount == 1
    if moved:
        expire_loaded(session, ExtractionJob, job_id, ("status", *fields))
    return moved


def _move_job_statement(target: JobStatus, sources: tuple[JobStatus, ...], field_names: tuple[str, ...]):
    values = {"status": target.value, **{name: bindparam(f"set_{name}", type_=_JOBS.c[name].type)
                                         for name in field_names}}
    # One expected status is a plain comparison: an IN list is rendered anew at every run.
    return update(_JOBS).where(_JOBS.c.id == bindparam("job_id"), _JOBS.c.status.in_([s.value for s in sources])
                               if len(sources) > 1 else _JOBS.c.status == sources[0].value).values(**values)


def _accept_many_statement(count: int):
    return (update(_JOBS)
            .where(_JOBS.c.id.in_(statements.row_parameters("id", count, _JOBS.c.id.type)),
                   _JOBS.c.status == JobStatus.CREATED.value)
            .values(status=JobStatus.ACCEPTED.value,
                    accepted_at=bindparam("set_accepted_at", type_=_JOBS.c.accepted_at.type),
                    deadline_at=bindparam("set_deadline_at", type_=_JOBS.c.deadline_at.type),
                    submit_attempts=_JOBS.c.submit_attempts + 1)
            .returning(_JOBS.c.id))


def _many_statement(source: Status, target: Status, count: int, field_names: tuple[str, ...],
                    per_document: tuple[str, ...], with_notes: bool, without_job: bool, jobs_among: int | None,
                    audited: bool):
    ids = statements.row_parameters("id", count, _DOCUMENTS.c.id.type)
    values = {"status": target.value, "updated_at": _MOVED_AT, "status_changed_at": _MOVED_AT,
              **{name: bindparam(f"set_{name}", type_=_DOCUMENTS.c[name].type) for name in field_names},
              **{name: statements.per_row(_DOCUMENTS.c.id, ids, name, _DOCUMENTS.c[name].type)
                 for name in per_document}}
    conditions = [_DOCUMENTS.c.id.in_(ids), _DOCUMENTS.c.status == source.value]
    if without_job:
        conditions.append(_DOCUMENTS.c.current_job_id.is_(None))
    if jobs_among is not None:
        conditions.append(_DOCUMENTS.c.current_job_id.in_(
            statements.row_parameters("job", jobs_among, _DOCUMENTS.c.current_job_id.type)))
    statement = (update(_DOCUMENTS).where(*conditions).values(**_terminal(values, target, _MOVED_AT))
                 .returning(_DOCUMENTS.c.id, _DOCUMENTS.c.brokerage_id, _DOCUMENTS.c.title,
                            _DOCUMENTS.c.verification_notes, _DOCUMENTS.c.created_at, _DOCUMENTS.c.verified_at,
                            _DOCUMENTS.c.packet_id))
    if not audited:
        return statement
    moved = statement.cte("moved")
    note = statements.per_row(moved.c.id, ids, "note", _AUDIT.c.note.type) if with_notes else null()
    return select(*moved.c).add_cte(_audit_of(moved, null(), bindparam("audit_action", type_=_AUDIT.c.action.type),
                                              source, target, note, _MOVED_AT))


def _finish_many_statement(status: JobStatus, expected: JobStatus, count: int, field_names: tuple[str, ...],
                           per_job: tuple[str, ...]):
    ids = statements.row_parameters("id", count, _JOBS.c.id.type)
    return (update(_JOBS).where(_JOBS.c.id.in_(ids), _JOBS.c.status == expected.value)
            .values(status=status.value,
                    **{name: bindparam(f"set_{name}", type_=_JOBS.c[name].type) for name in field_names},
                    **{name: statements.per_row(_JOBS.c.id, ids, name, _JOBS.c[name].type) for name in per_job})
            .returning(_JOBS.c.id))


def _move_statement(source: Status, target: Status, values: dict, now, audited: bool):
    statement = (update(_DOCUMENTS)
                 .where(_DOCUMENTS.c.id == bindparam("document_id"), _DOCUMENTS.c.status == source.value)
                 .values(**_terminal(values, target, now))
                 .returning(_DOCUMENTS.c.id, _DOCUMENTS.c.brokerage_id, _DOCUMENTS.c.title,
                            _DOCUMENTS.c.verification_notes, _DOCUMENTS.c.created_at, _DOCUMENTS.c.verified_at,
                            _DOCUMENTS.c.current_job_id, _DOCUMENTS.c.storage_key, _DOCUMENTS.c.owner_id,
                            _DOCUMENTS.c.kind, _DOCUMENTS.c.packet_id, _DOCUMENTS.c.first_page,
                            _DOCUMENTS.c.last_page, _DOCUMENTS.c.part_number))
    if not audited:
        return statement
    moved = statement.cte("moved")
    return select(*moved.c).add_cte(_audit_of(
        moved, bindparam("audit_actor_id", type_=_AUDIT.c.actor_id.type),
        bindparam("audit_action", type_=_AUDIT.c.action.type), source, target,
        bindparam("audit_note", type_=_AUDIT.c.note.type), _MOVED_AT))


def _audit_of(rows, actor_id, action, source: Status | None, target: Status, note, created_at):
    """The audit rows of the documents a statement returned (`rows`, its CTE), as a data-modifying
    WITH beside it (PostgreSQL runs one to completion whether or not the main query reads it)."""
    return insert(_AUDIT).from_select(
        ["document_id", "actor_id", "action", "from_status", "to_status", "note", "created_at"],
        select(rows.c.id, actor_id, action,
               literal(source.value, type_=_AUDIT.c.from_status.type) if source is not None else null(),
               literal(target.value, type_=_AUDIT.c.to_status.type), note, created_at)).cte("audit")


def _create_statement(columns: tuple[str, ...], status: Status):
    created = insert(_DOCUMENTS).values(
        {name: bindparam(f"new_{name}", type_=_DOCUMENTS.c[name].type) for name in columns}
    ).returning(_DOCUMENTS.c.id, _DOCUMENTS.c.brokerage_id).cte("created")
    return select(created.c.id).add_cte(_audit_of(
        created, bindparam("audit_actor_id", type_=_AUDIT.c.actor_id.type),
        bindparam("audit_action", type_=_AUDIT.c.action.type), None, status,
        bindparam("audit_note", type_=_AUDIT.c.note.type), _MOVED_AT)).add_cte(counts.counted_cte(created, status.value))


def _audits_in_statement(session: Session) -> bool:
    return session.get_bind().dialect.name == "postgresql"


_MOVED_AT = bindparam("moved_at", type_=Document.__table__.c.updated_at.type)


def _terminal(values: dict, target: Status, now) -> dict:
    """The values of a move, with the time a document first settled when it settles now."""
    if target == Status.VERIFIED:
        # Verified (again): its content is new, the staleness sweep reads it at its next run.
        values = {**values, "stale_check_on": null()}
    if target in lifecycle.TERMINAL:
        return {**values, "verified_at": func.coalesce(_DOCUMENTS.c.verified_at, now)}
    return values


def expire_loaded(session: Session, model, row_id: str, values, fresh: dict | None = None) -> None:
    # The UPDATE bypassed the ORM; what it wrote of a row already loaded must be read again.
    # Only that, and what it returned is set as read: the rest of the row stays as loaded
    # (one statement fewer per later read).
    loaded = session.identity_map.get(identity_key(model, row_id))
    if loaded is not None:
        if values:  # none names none: Session.expire with an empty list would expire every column
            session.expire(loaded, list(values))
        for name, value in (fresh or {}).items():
            if name not in values:
                set_committed_value(loaded, name, value)
