"""Whose a document is, when verification found it names someone who is not on its case: the advisor
assigns it to an applicant, adds the person it names as co-applicant, or refuses it; and what changing
who applies does to the case's documents (a co-applicant added, corrected or removed). Error messages
are message ids (N_): the page translates them."""
from sqlalchemy import or_, true, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from leadflow import outbox, scoping
from leadflow.domain.applicants import CO_APPLICANT, REFUSED, whose
from leadflow.domain.audience import may_correct_applicants, may_settle_whose
from leadflow.domain.document_types import N_
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.verification import Applicant as Owner, not_on_case, verify_type
from leadflow.domain.verification.spec import confidently_read
from leadflow.errors import Conflict, Forbidden, InvalidInput
from leadflow.models import Applicant, Document, User, Workspace
from leadflow.ports import Ports
from leadflow.services import applicants, documents, transitions
from leadflow.services.case_file import current_content

ASSIGN, ADD, REFUSE = "assign", "add", "reject"


def settle_whose(session: Session, ports: Ports, user: User, document_id: str, *, action: str,
                 applicant=None) -> Document:
    """The advisor settles a document that names someone not on its case: `assign` it to an
    applicant (`applicant`: "client", "co_applicant" or "both"), `add` the person it names as
    co-applicant (it is then theirs, and the client's too when it names both), or `reject` it.
    Assigned, the type's rules judge it again with whose it is settled."""
    if not may_settle_whose(user.role):
        raise Forbidden(N_("Only the brokerage's advisors decide whose a document is."))
    document = documents.get_visible(session, user, document_id)
    workspace = session.scalar(scoping.in_brokerage(Workspace, document.brokerage_id)
                               .where(Workspace.id == document.workspace_id)) if document.workspace_id else None
    if workspace is None:
        raise Conflict(N_("This document is not part of a case."))
    if document.status != Status.ACTION_REQUIRED:
        raise Conflict(N_("This document is not waiting for a decision."))
    if action == REFUSE:
        note = REFUSED
        moved = transitions.apply(session, document.id, Status.ACTION_REQUIRED, Status.REJECTED,
                                  action="not_on_case_refused", actor_id=user.id, note=note.en,
                                  rejection_code=RejectionCode.REJECTED_BY_REVIEWER.value,
                                  verification_notes=[note.as_dict()])
        return _committed(session, document, moved)
    content = current_content(session, ports, document)
    stored = applicants.rows(session, workspace)
    if action == ADD:
        # The name that matched no applicant (of a joint account's two, the other one) is the person.
        found = whose(document.document_type, confidently_read(content), applicants.people(session, workspace))
        if not found.strangers:
            raise InvalidInput(N_("This document names no one we could read; assign it to an applicant instead."))
        if any(a.role == CO_APPLICANT for a in stored):
            raise Conflict(N_("This case has a co-applicant already."))
        added = Applicant(brokerage_id=workspace.brokerage_id, workspace_id=workspace.id, role=CO_APPLICANT,
                          name=applicants.checked_name(found.strangers[0]))
        session.add(added)
        session.flush()
        chosen = tuple(i for i in found.applicants if i) + (added.id,)
    elif action == ASSIGN:
        # `applicant`: "client", "co_applicant" or "both" (a joint account's statement).
        chosen = tuple(a.id for a in stored if applicant in (a.role, "both"))
        if not chosen or (applicant == "both" and len(chosen) < 2):
            raise InvalidInput(N_("Choose an applicant of this case."))
    else:
        raise InvalidInput(N_("Choose to assign the document, add its person as co-applicant, or reject it."))
    moved = _judge_again(session, ports, user, document, workspace, chosen, content,
                         note=f"{action}: applicant {', '.join(map(str, chosen))}")
    if moved and action == ADD:
        # The person added may be the one other documents of the case wait for too.
        judge_waiting_again(session, ports, user, workspace, skip=document.id)
    return _committed(session, document, moved)


def add_co_applicant(session: Session, ports: Ports, user: User, workspace: Workspace, **details) -> Applicant:
    """Add the case's co-applicant (the case page, the portal, the API): the documents of the case
    waiting because they name someone not on it, who turns out to be this person, are judged again
    in the same transaction, as the advisor's assignment would judge them."""
    person = applicants.stage_co_applicant(session, user, workspace, **details)
    judge_waiting_again(session, ports, user, workspace)
    _commit_applicants(session)
    return person


def correct_applicant(session: Session, ports: Ports, user: User, workspace: Workspace, role: str,
                      changes: dict) -> Applicant:
    """The advisor corrects an applicant's name, date of birth or citizenship (`changes`, each
    checked; empty: unknown). A corrected name may be the one waiting documents name: they are
    judged again. Documents already the applicant's stay theirs (a person or the name settled it)."""
    if not may_correct_applicants(user.role):
        raise Forbidden(N_("Only the brokerage's advisors correct an applicant."))
    values = applicants.corrected(changes)
    person = applicants.stored(session, workspace, role)
    renamed = values.get("name", person.name) != person.name
    for column, value in values.items():
        setattr(person, column, value)
    session.flush()
    if renamed:
        judge_waiting_again(session, ports, user, workspace)
    _commit_applicants(session)
    return person


def remove_co_applicant(session: Session, ports: Ports, user: User, workspace: Workspace) -> list[str]:
    """The advisor removes the co-applicant. Their documents that were accepted or wait for a person
    go back to a person (ACTION_REQUIRED, `not_on_case`: assign, add again or reject them); a joint
    account's statement stays the client's and waits too. Rejected ones stay rejected, and ones
    still being read are judged against the case as it is when their result comes. Returns the ids
    of the documents sent back to a person."""
    if not may_correct_applicants(user.role):
        raise Forbidden(N_("Only the brokerage's advisors correct an applicant."))
    person = applicants.stored(session, workspace, CO_APPLICANT)
    remaining = tuple(p for p in applicants.people(session, workspace) if p.id != person.id)
    theirs = list(session.scalars(scoping.in_brokerage(Document, workspace.brokerage_id).where(
        Document.workspace_id == workspace.id, or_(Document.applicant_id == person.id, Document.joint.is_(True)))
        .order_by(Document.created_at, Document.id)))
    back = []
    for document in theirs:
        status = Status(document.status)
        if status not in (Status.VERIFIED, Status.ACTION_REQUIRED):
            continue
        content = current_content(session, ports, document)
        found = whose(document.document_type, confidently_read(content), remaining)
        notes = [n for n in document.verification_notes or []
                 if isinstance(n, dict) and n.get("code") not in ("ok", "not_on_case")]
        fields = {"verification_notes": notes + [not_on_case(found.strangers or (person.name,)).as_dict()],
                  "applicant_id": remaining[0].id if document.joint and remaining else None, "joint": False}
        note = f"co-applicant {person.id} removed"
        if status == Status.ACTION_REQUIRED:
            moved = transitions.renote(session, document.id, status, action="applicant_removed", actor_id=user.id,
                                       note=note, **fields)
        else:
            moved = transitions.apply(session, document.id, status, Status.ACTION_REQUIRED, action="applicant_removed",
                                      actor_id=user.id, note=note, **fields)
        if not moved:
            outbox.rollback(session)
            raise Conflict(N_("A document of this applicant changed a moment ago; try again."))
        back.append(document.id)
    # The rest (rejected, or still being read) no longer name them as theirs.
    session.execute(update(Document).where(Document.workspace_id == workspace.id, Document.brokerage_id ==
                                           workspace.brokerage_id, Document.id.not_in(back) if back else true(),
                                           or_(Document.applicant_id == person.id, Document.joint.is_(True)))
                    .values(applicant_id=None, joint=False).execution_options(synchronize_session="fetch"))
    session.delete(person)
    outbox.commit(session)
    return back


def judge_waiting_again(session: Session, ports: Ports, user: User, workspace: Workspace, *,
                        skip: str | None = None) -> list[str]:
    """Judge again the case's documents waiting for a person because they name someone not on the
    case, when every name on them now matches an applicant (one just added, or a name corrected):
    the person need not assign them one by one. In the caller's transaction; returns their ids."""
    people = applicants.people(session, workspace)
    waiting = session.scalars(scoping.in_brokerage(Document, workspace.brokerage_id).where(
        Document.workspace_id == workspace.id, Document.status == Status.ACTION_REQUIRED.value)
        .order_by(Document.created_at, Document.id))
    judged = []
    for document in list(waiting):
        if document.id == skip or not any(isinstance(n, dict) and n.get("code") == "not_on_case"
                                          for n in document.verification_notes or []):
            continue
        content = current_content(session, ports, document)
        found = whose(document.document_type, confidently_read(content), people)
        if found.strangers or not found.applicants:
            continue
        # Moved by someone else meanwhile: theirs is the newer word; nothing to undo here.
        if _judge_again(session, ports, user, document, workspace, found.applicants, content,
                        note=f"applicant added: {', '.join(map(str, found.applicants))}"):
            judged.append(document.id)
    return judged


def _judge_again(session: Session, ports: Ports, user: User, document: Document, workspace: Workspace,
                 chosen: tuple, content: dict, *, note: str) -> bool:
    """The type's rules judge the document (its current `content`) again, whose it is settled
    (`chosen`, applicant ids): the verdict's status, or new notes on one that still waits for another
    reason. The caller commits."""
    owner = session.get(User, document.owner_id)
    verdict = verify_type(document.document_type or "unknown", content,
                          Owner(owner.name if owner else None, applicants.people(session, workspace), assigned=chosen),
                          ports.clock.now().date())
    fields = {"verification_notes": verdict.notes_as_dicts(),
              "rejection_code": verdict.rejection_code.value if verdict.rejection_code else None,
              **verdict.whose_fields()}
    if verdict.status == Status.ACTION_REQUIRED:
        # Whose it is is settled; another reason (a field left unread) still waits for a person.
        return transitions.renote(session, document.id, Status.ACTION_REQUIRED, action="whose_settled",
                                  actor_id=user.id, note=note, **fields)
    return transitions.apply(session, document.id, Status.ACTION_REQUIRED, verdict.status,
                             action="whose_settled", actor_id=user.id, note=note, **fields)


def _commit_applicants(session: Session) -> None:
    try:
        outbox.commit(session)
    except IntegrityError as exc:  # two added one at once
        outbox.rollback(session)
        raise Conflict(N_("This case has a co-applicant already.")) from exc


def _committed(session: Session, document: Document, moved: bool) -> Document:
    if not moved:
        outbox.rollback(session)
        raise Conflict(N_("Someone else decided this document a moment ago."))
    outbox.commit(session)
    session.refresh(document)
    return document
