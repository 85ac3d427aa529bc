"""Packets (issue 40): an upload holding several documents. Its split applied exactly once, its
children made (each a document of its own: claim, job, callback, versions, verdict, slot, credits),
a person's confirmation of an unsure split, and a person's corrections, which redo only the children
they touch. The rules are leadflow.domain.packets; the reads the pages and the API share are in
leadflow.services.packet_views.

Exactly once: the split is applied in the transaction that applies its job's callback, guarded by
the job's status (accepted -> completed, `transitions.finish`) and the packet's (EXTRACTING -> ...,
`transitions.apply`): a duplicate delivery, a polled answer or a replay finds the job completed and
changes nothing; a worker killed mid-split committed nothing, and the delivery is applied again
from its stored payload, giving the same parts. Children are numbered per packet under a unique
key (packet, part number), a second line of defence. Credits: the packet's split job holds the
packet's pages; the same transaction releases that reservation and opens one per child for its own
pages, so the wallet's reserved total is unchanged and the ledger balances at every commit."""
import logging

from sqlalchemy import insert, select, update
from sqlalchemy.orm import Session

from leadflow import notes, outbox
from leadflow.billing import ledger
from leadflow.billing import service as billing
from leadflow.domain import packets as rules
from leadflow.domain.document_types import N_
from leadflow.domain.events import DocumentStatusChanged, VerificationRequested
from leadflow.domain.lifecycle import SETTLED, JobStatus, RejectionCode, Status
from leadflow.errors import Conflict, Forbidden, InvalidInput, LeadflowError, NotFound
from leadflow.models import AuditEntry, Document, ExtractionJob, Packet, User, new_id, utcnow
from leadflow.ports import Ports
from leadflow.services import part_files, pipeline, transitions

log = logging.getLogger(__name__)

CHANGES = ("confirm", "move_boundary", "merge", "split", "change_type")


def start(session: Session, document_id: str, brokerage_id: int) -> None:
    """The packet row of an upload sent as a packet, in the upload's transaction."""
    now = utcnow()
    session.add(Packet(document_id=document_id, brokerage_id=brokerage_id, state="reading", parts=[], revision=0,
                       created_at=now, updated_at=now))


def apply_split(session: Session, ports: Ports, job_id: str, packet_id: str, brokerage_id: int, data: dict) -> str:
    """A split job's completed result, inside the callback's transaction (callbacks._apply): the
    parts the reader found become children (all sure), the packet's one document (one part), or a
    question for a person (an unsure part, a part too long). Returns the outcome; anything but
    "applied: ..." is undone by the caller."""
    pages = _int(data.get("pages"))
    try:
        parts = rules.parts_from_wire(data.get("parts"), pages)
    except rules.SplitProblem as exc:
        # The reader answered something that is no split of these pages: a failure of ours.
        if not transitions.finish(session, job_id, JobStatus.FAILED, last_error=f"bad split: {exc.message}"[:500]):
            return "ignored: job finished meanwhile"
        settled = pipeline.system_failure(session, ports, packet_id, Status.EXTRACTING,
                                          RejectionCode.SYSTEM_EXTRACTION_FAILED, f"job {job_id}: {exc.message}")
        if settled is None:
            return "ignored: document moved on meanwhile"
        billing.release(session, job_id)
        return f"applied: split failed ({exc.code})"
    if not transitions.finish(session, job_id, JobStatus.COMPLETED, last_error=None, pages_reported=pages):
        return "ignored: job finished meanwhile"
    packet = _packet(session, packet_id, brokerage_id)
    reason = rules.waits_for_a_person(parts, ports.settings["MAX_DOCUMENT_PAGES"])
    if reason is not None:
        return _ask_a_person(session, packet, job_id, parts, reason)
    if len(parts) == 1:
        return _one_document(session, ports, packet, job_id, parts[0])
    document = session.get(Document, packet_id)
    if not transitions.apply(session, packet_id, Status.EXTRACTING, Status.VERIFIED, action="packet_split",
                             note=_summary(parts), rejection_code=None,
                             verification_notes=[notes.note("packet_split", count=len(parts)).as_dict()]):
        return "ignored: document moved on meanwhile"
    _make_children(session, ports, document, parts, first_number=1, actor_id=None, hand_over_from=job_id)
    _save(session, packet, "split", _numbered(parts, 1), split_job_id=job_id)
    return f"applied: split into {len(parts)} documents"


def confirm(session: Session, ports: Ports, user: User, packet_id: str, *, revision: int | None = None) -> Packet:
    """A person takes the unsure split as the reader proposed it (every part needs a type): its
    children are made now, each reserving its own pages."""
    return change(session, ports, user, packet_id, "confirm", revision=revision)


def change(session: Session, ports: Ports, user: User, packet_id: str, what: str, *, part: int | None = None,
           page: int | None = None, document_type: str | None = None, revision: int | None = None) -> Packet:
    """A person's correction of a packet's split, one use case for all of them (`what`):

    - `confirm`: take the proposed parts as they are (an unsure split only);
    - `move_boundary`: part `part` (from 1, not the first) starts at `page`;
    - `merge`: parts `part` and `part` + 1 are one document;
    - `split`: part `part` is two documents, the second starting at `page` (of `document_type`);
    - `change_type`: part `part` is a `document_type`.

    On a split waiting for a person, a correction changes the proposal and `confirm` makes the
    children. On a packet split
    already, only the children whose pages or type changed are redone (read again from their
    pages, a new version with cause `resplit` and the person), a child whose pages went to another
    is retired (REJECTED, `PACKET_PART_MERGED`, no email), a new part becomes a new child; the
    others keep their verdict. `revision`: the packet's revision the person saw; a packet changed
    since is refused (409), as is a change while an affected child is still being read."""
    document, packet = _correctable(session, user, packet_id)
    if revision is not None and revision != packet.revision:
        raise Conflict(N_("Someone else changed this packet’s split a moment ago; look at it again."),
                       code="packet_changed")
    current = rules.parts_from_rows(packet.parts)
    try:
        wanted = _wanted(current, what, part, page, document_type)
        rules.check_limits(wanted, ports.settings["MAX_DOCUMENT_PAGES"])
    except rules.SplitProblem as exc:
        raise InvalidInput(exc.msgid, code=f"split_{exc.code}", **exc.values) from exc
    stale = ()
    try:
        if packet.state == "unsure":
            _apply_to_unsure(session, ports, user, document, packet, wanted, what)
        elif packet.state == "split":
            stale = _apply_to_children(session, ports, user, document, packet, wanted, what)
        else:
            raise Conflict(N_("This packet is not split yet; wait until it is read."), code="packet_not_split")
    except LeadflowError:
        # Nothing of a refused correction stays: no row, no event.
        outbox.rollback(session)
        raise
    outbox.commit(session)
    # The files cut of pages no document is any more (a download cuts the new ones when asked).
    part_files.forget(ports.storage, document.brokerage_id, document.id, stale)
    session.refresh(packet)
    return packet


# -- applying a split ------------------------------------------------------------------------------------

def _ask_a_person(session: Session, packet: Packet, job_id: str, parts: list, reason: str) -> str:
    note = notes.note(reason)
    if not transitions.apply(session, packet.document_id, Status.EXTRACTING, Status.ACTION_REQUIRED,
                             action="packet_unsure", note=f"{reason}: {_summary(parts)}"[:500],
                             rejection_code=RejectionCode.PACKET_SPLIT_UNSURE.value,
                             verification_notes=[note.as_dict()]):
        return "ignored: document moved on meanwhile"
    # Its pages are reserved again, per child, when a person confirms: nothing stays held meanwhile.
    billing.release(session, job_id)
    _save(session, packet, "unsure", parts, split_job_id=job_id)
    return f"applied: {Status.ACTION_REQUIRED} ({reason})"


def _one_document(session: Session, ports: Ports, packet: Packet, job_id: str, part) -> str:
    """The packet held one document: the packet's own row is that document, read from the pages
    its split read already (the extractor keeps them), its pages' reservation handed to that job."""
    reading = new_id()
    if not transitions.apply(session, packet.document_id, Status.EXTRACTING, Status.PENDING, action="packet_single",
                             note=f"one document ({part.document_type}): read as it is", kind=_kind(part),
                             first_page=part.first, last_page=part.last, page_count=part.pages,
                             current_job_id=reading, verification_notes=[], rejection_code=None):
        return "ignored: document moved on meanwhile"
    session.execute(insert(ExtractionJob.__table__), [_job_row(reading, packet.document_id, packet.brokerage_id,
                                                               part, requested_by_id=None)])
    _hand_over(session, ports, packet.brokerage_id, job_id, {reading: part.pages})
    outbox.record(session, VerificationRequested(packet.document_id, packet.brokerage_id))
    _save(session, packet, "single", [part.as_dict()], split_job_id=job_id)
    return f"applied: one document ({part.document_type})"


def _make_children(session: Session, ports: Ports, packet: Document, parts: list, *, first_number: int,
                   actor_id: int | None, hand_over_from: str | None, requested_by_id: int | None = None,
                   cause: str | None = None) -> list[str]:
    """A PENDING child per part, each with its job made ahead (its pages, a person's type) and
    its verification sent after commit; the pages' reservation moves from `hand_over_from` to
    the children's jobs. Returns the children's ids in part order."""
    now = utcnow()
    made, job_rows, pages_by_job, titles = [], [], {}, {}
    for number, part in enumerate(parts, start=first_number):
        child_id, job_id = new_id(), new_id()
        row = {"id": child_id, "brokerage_id": packet.brokerage_id, "owner_id": packet.owner_id,
               "workspace_id": packet.workspace_id, "title": _title(packet.title, part), "kind": _kind(part),
               "document_type": None, "confidence": None, "status": Status.PENDING.value,
               "filename": packet.filename, "content_type": packet.content_type, "size_bytes": packet.size_bytes,
               "storage_key": packet.storage_key, "sha256": packet.sha256, "page_count": part.pages,
               "precheck": pipeline.PRECHECK_PASSED, "verification_notes": [], "rejection_code": None,
               "current_job_id": job_id, "created_at": now, "updated_at": now, "status_changed_at": now,
               "verified_at": None, "applicant_id": None, "joint": False, "packet_id": packet.id,
               "part_number": number, "first_page": part.first, "last_page": part.last}
        transitions.create(session, row, actor_id=actor_id, action="split_from_packet",
                           note=f"pages {part.first}-{part.last} of packet {packet.id}")
        job_rows.append(_job_row(job_id, child_id, packet.brokerage_id, part, requested_by_id=requested_by_id,
                                 cause=cause))
        if cause != rules.RESPLIT:
            pages_by_job[job_id] = part.pages
        made.append(child_id)
        titles[child_id] = row["title"]
    session.execute(insert(ExtractionJob.__table__), job_rows)
    _hand_over(session, ports, packet.brokerage_id, hand_over_from, pages_by_job)
    for child_id in made:
        outbox.record(session, DocumentStatusChanged(child_id, packet.brokerage_id, Status.PENDING.value,
                                                     titles[child_id], packet_id=packet.id))
        outbox.record(session, VerificationRequested(child_id, packet.brokerage_id))
    return made


def _hand_over(session: Session, ports: Ports, brokerage_id: int, from_job: str | None, pages_by_job: dict) -> None:
    """The pages held for `from_job` (a packet's split) move to the jobs of its documents: one
    release, one reservation per job, in this transaction. Should the wallet not cover them (the
    reader counted more pages than the upload's pre-check, or the split waited for a person and
    the credits went meanwhile), the jobs hold nothing yet and each reserves at its own claim."""
    if from_job is not None:
        billing.release(session, from_job)
    try:
        billing.reserve_many(session, brokerage_id, pages_by_job, now=ports.clock.now())
    except ledger.InsufficientCredits as exc:
        log.info("brokerage %s: a packet's documents reserve at their claims: %s", brokerage_id, exc)


# -- a person's corrections ------------------------------------------------------------------------------

def _wanted(current: list, what: str, part: int | None, page: int | None, document_type: str | None) -> list:
    if what not in CHANGES:
        raise rules.SplitProblem("change", N_("The change must be one of: %(changes)s."), changes=", ".join(CHANGES))
    if what == "confirm":
        return rules.confirmed(current)
    index = (part - 1) if isinstance(part, int) and not isinstance(part, bool) else -1
    if what in ("move_boundary", "split") and (not isinstance(page, int) or isinstance(page, bool)):
        raise rules.SplitProblem("page", N_("Give the page as a page number."))
    if what == "move_boundary":
        return rules.move_boundary(current, index, page)
    if what == "merge":
        return rules.merge(current, index)
    if what == "split":
        return rules.split_at(current, index, page, document_type)
    return rules.change_type(current, index, document_type)


def _apply_to_unsure(session: Session, ports: Ports, user: User, document: Document, packet: Packet, wanted: list,
                     what: str) -> None:
    if what != "confirm":
        # A correction of the proposal: the person goes on looking, then confirms.
        _audit(session, document.id, user, what, wanted)
        _save(session, packet, "unsure", wanted, decided_by_id=user.id)
        return
    if any(p.document_type == rules.UNKNOWN for p in wanted):
        raise InvalidInput(N_("Give every part a type before confirming the split."), code="split_type_unknown")
    if len(wanted) == 1:
        # A person says it is one document: the packet is read as that document.
        reading = new_id()
        part = wanted[0]
        if not transitions.apply(session, document.id, Status.ACTION_REQUIRED, Status.PENDING, action="packet_single",
                                 actor_id=user.id, note=f"one document ({part.document_type}), a person decided",
                                 kind=_kind(part), first_page=part.first, last_page=part.last, page_count=part.pages,
                                 current_job_id=reading, verification_notes=[], rejection_code=None):
            raise _moved()
        session.execute(insert(ExtractionJob.__table__), [_job_row(reading, document.id, document.brokerage_id,
                                                                   part, requested_by_id=None)])
        _hand_over(session, ports, document.brokerage_id, None, {reading: part.pages})
        outbox.record(session, VerificationRequested(document.id, document.brokerage_id))
        _save(session, packet, "single", [part.as_dict()], decided_by_id=user.id)
        return
    if not transitions.apply(session, document.id, Status.ACTION_REQUIRED, Status.VERIFIED, action="packet_split",
                             actor_id=user.id, note=_summary(wanted), rejection_code=None,
                             verification_notes=[notes.note("packet_split", count=len(wanted)).as_dict()]):
        raise _moved()
    # The children's first readings are the client's upload (they count against its allowance
    # once, as the packet's released reservation no longer does); the person is in the audit.
    _make_children(session, ports, document, wanted, first_number=1, actor_id=user.id, hand_over_from=None)
    _save(session, packet, "split", _numbered(wanted, 1), decided_by_id=user.id)


def _apply_to_children(session: Session, ports: Ports, user: User, document: Document, packet: Packet,
                       wanted: list, what: str) -> list[tuple[int, int]]:
    """Redo, retire and add children for the new split; returns the pages (first, last) of the
    children redone or retired as they were, whose cut files are stale."""
    numbered = {row["number"]: part for row, part in zip(packet.parts, rules.parts_from_rows(packet.parts))}
    plan = rules.plan(numbered, wanted)
    affected = set(plan.redo) | set(plan.retire)
    children = {child.part_number: child for child in session.scalars(
        select(Document).where(Document.packet_id == document.id, Document.part_number.in_(affected)))}
    if any(Status(child.status) not in SETTLED for child in children.values()):
        raise Conflict(N_("A document of this packet is still being read; correct the split once it is done."),
                       code="packet_children_busy")
    stale = [(child.first_page, child.last_page) for child in children.values() if child.first_page is not None]
    for number, part in sorted(plan.redo.items()):
        child = children[number]
        reading = new_id()
        if not transitions.apply(session, child.id, Status(child.status), Status.PENDING, action="packet_resplit",
                                 actor_id=user.id, note=f"{what}: now pages {part.first}-{part.last}, "
                                                        f"{part.document_type}", kind=_kind(part),
                                 first_page=part.first, last_page=part.last, page_count=part.pages,
                                 current_job_id=reading, verification_notes=[], rejection_code=None,
                                 title=_title(document.title, part)):
            raise _moved()
        session.execute(insert(ExtractionJob.__table__), [_job_row(reading, child.id, document.brokerage_id, part,
                                                                   requested_by_id=user.id, cause=rules.RESPLIT)])
        outbox.record(session, VerificationRequested(child.id, document.brokerage_id))
    retired_note = notes.note("packet_part_merged")
    for number in plan.retire:
        child = children[number]
        fields = {"rejection_code": RejectionCode.PACKET_PART_MERGED.value,
                  "verification_notes": [retired_note.as_dict()], "first_page": None, "last_page": None}
        moved = (transitions.renote(session, child.id, Status.REJECTED, action="packet_part_merged",
                                    actor_id=user.id, note=what, **fields) if child.status == Status.REJECTED else
                 transitions.apply(session, child.id, Status(child.status), Status.REJECTED,
                                   action="packet_part_merged", actor_id=user.id, note=what, **fields))
        if not moved:
            raise _moved()
    next_number = max([row["number"] for row in packet.parts] + [0]) + 1
    added = list(plan.add)
    if added:
        # Pages that were another child's, charged when that one was first read: read again, not charged.
        _make_children(session, ports, document, added, first_number=next_number, actor_id=user.id,
                       hand_over_from=None, requested_by_id=user.id, cause=rules.RESPLIT)
    numbers = {id(part): number for number, part in {**plan.keep, **plan.redo}.items()}
    numbers.update({id(part): next_number + offset for offset, part in enumerate(added)})
    rows = [{**part.as_dict(), "number": numbers[id(part)]} for part in wanted]
    _audit(session, document.id, user, what, wanted)
    _save(session, packet, "split", rows, decided_by_id=user.id)
    return stale


def _correctable(session: Session, user: User, packet_id: str) -> tuple[Document, Packet]:
    from leadflow import scoping  # the one tenant helper: a packet another tenant owns is not found
    document = scoping.document_for_viewer(session, user.viewer, packet_id)
    packet = session.get(Packet, packet_id) if document is not None else None
    if packet is None:
        raise NotFound(N_("No such packet."))
    if not rules.may_correct(user.viewer, document.brokerage_id):
        raise Forbidden(N_("Only the brokerage’s advisors and platform reviewers correct a packet’s split."))
    return document, packet


# -- helpers -----------------------------------------------------------------------------------------------

def _packet(session: Session, packet_id: str, brokerage_id: int) -> Packet:
    packet = session.get(Packet, packet_id, with_for_update=True)
    if packet is None:
        # A packet uploaded before its row was kept cannot be; made here so the split is not lost.
        start(session, packet_id, brokerage_id)
        session.flush()
        packet = session.get(Packet, packet_id)
    return packet


def _save(session: Session, packet: Packet, state: str, parts: list, *, split_job_id: str | None = None,
          decided_by_id: int | None = None) -> None:
    """The packet's new split, guarded by the revision it was read at: two corrections made at
    once cannot both apply (the second finds the revision moved and is refused)."""
    values = {"state": state, "parts": [p.as_dict() if isinstance(p, rules.Part) else p for p in parts],
              "revision": Packet.revision + 1, "updated_at": utcnow()}
    if split_job_id is not None:
        values["split_job_id"] = split_job_id
    if decided_by_id is not None:
        values["decided_by_id"] = decided_by_id
    moved = session.execute(update(Packet).where(Packet.document_id == packet.document_id,
                                                 Packet.revision == packet.revision).values(**values)
                            .execution_options(synchronize_session=False)).rowcount
    if moved != 1:
        raise Conflict(N_("Someone else changed this packet’s split a moment ago; look at it again."),
                       code="packet_changed")
    session.expire(packet)


def _numbered(parts: list, first: int) -> list[dict]:
    return [{**part.as_dict(), "number": number} for number, part in enumerate(parts, start=first)]


def _job_row(job_id: str, document_id: str, brokerage_id: int, part, *, requested_by_id: int | None,
             cause: str | None = None) -> dict:
    spec = {"pages": [part.first, part.last]}
    if part.decided and part.document_type != rules.UNKNOWN:
        spec["document_type"] = part.document_type  # a person's type stands; the reader does not guess
    if cause:
        spec["cause"] = cause
    return {"id": job_id, "document_id": document_id, "brokerage_id": brokerage_id, "mode": "first",
            "status": JobStatus.CREATED.value, "output_spec": spec, "requested_by_id": requested_by_id,
            "submit_attempts": 0, "created_at": utcnow()}


def _audit(session: Session, document_id: str, user: User, what: str, parts: list) -> None:
    session.add(AuditEntry(document_id=document_id, actor_id=user.id, action="packet_corrected",
                           note=f"{what}: {_summary(parts)}"[:500], created_at=utcnow()))


def _kind(part) -> str | None:
    return part.document_type if part.document_type != rules.UNKNOWN else None


def _title(packet_title: str, part) -> str:
    pages = f"{part.first}" if part.first == part.last else f"{part.first}-{part.last}"
    return f"{packet_title[:280]} [{pages}]"


def _summary(parts: list) -> str:
    return "; ".join(f"{p.first}-{p.last} {p.document_type}" for p in parts)


def _moved() -> Conflict:
    return Conflict(N_("This packet or one of its documents changed a moment ago; look at it again."),
                    code="packet_changed")


def _int(value) -> int:
    try:
        return max(int(value), 0)
    except (TypeError, ValueError):
        return 0
