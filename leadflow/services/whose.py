"""Whose a document is, when verification found it names someone who is not on its case: the advisor
assigns it to an applicant, adds the person it names as co-applicant, or refuses it. Error messages
are message ids (N_): the page translates them."""
from sqlalchemy.orm import Session

from leadflow import outbox, scoping
from leadflow.domain.applicants import CO_APPLICANT, REFUSED, whose
from leadflow.domain.audience import may_settle_whose
from leadflow.domain.document_types import N_
from leadflow.domain.lifecycle import RejectionCode, Status
from leadflow.domain.verification import Applicant as Owner, verify_type
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
    owner = session.get(User, document.owner_id)
    verdict = verify_type(document.document_type or "unknown", content,
                          Owner(owner.name if owner else None, applicants.people(session, workspace), assigned=chosen),
                          ports.clock.now().date())
    fields = {"verification_notes": verdict.notes_as_dicts(),
              "rejection_code": verdict.rejection_code.value if verdict.rejection_code else None,
              **verdict.whose_fields()}
    note = f"{action}: applicant {', '.join(map(str, chosen))}"
    if verdict.status == Status.ACTION_REQUIRED:
        # Whose it is is settled; another reason (a field left unread) still waits for a person.
        moved = transitions.renote(session, document.id, Status.ACTION_REQUIRED, action="whose_settled",
                                   actor_id=user.id, note=note, **fields)
    else:
        moved = transitions.apply(session, document.id, Status.ACTION_REQUIRED, verdict.status,
                                  action="whose_settled", actor_id=user.id, note=note, **fields)
    return _committed(session, document, moved)


def _committed(session: Session, document: Document, moved: bool) -> Document:
    if not moved:
        outbox.rollback(session)
        raise Conflict(N_("Someone else decided this document a moment ago."))
    outbox.commit(session)
    session.refresh(document)
    return document
