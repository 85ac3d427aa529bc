"""A case's applicants: who they are, a co-applicant added, a citizenship told. Error messages are
message ids (N_): the page translates them.

The callers have checked the viewer may work on the case (views.workspace_for, views.client_cases);
every query here is scoped to the case's brokerage as well.
"""
from datetime import date

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from leadflow import clock, scoping
from leadflow.countries import is_country
from leadflow.domain.applicants import CLIENT, CO_APPLICANT, Person
from leadflow.domain.audience import Role, may_name_applicants
from leadflow.domain.document_types import N_
from leadflow.errors import Conflict, Forbidden, InvalidInput, NotFound
from leadflow.models import Applicant, User, Workspace, WorkspaceMember

MAX_NAME = 200
BIRTH_DATE = N_("Enter the date of birth as a date, e.g. 1990-04-15.")
# A birth date outside these is a typing slip.
OLDEST_BIRTH = date(1900, 1, 1)


def people(session: Session, workspace: Workspace) -> tuple[Person, ...]:
    """The case's applicants, the client first."""
    return people_of(session, [workspace.id]).get(workspace.id, ())


def people_of(session: Session, workspace_ids) -> dict[int, tuple[Person, ...]]:
    """The applicants of many cases in two statements: {workspace id: people, the client first}. A case
    whose client has no applicant row yet (created by a path that adds only the member) gets its
    first client member, unsaved (id None), so every case knows its client."""
    ids = sorted({i for i in workspace_ids if i})
    if not ids:
        return {}
    found: dict[int, list[Person]] = {i: [] for i in ids}
    for row in session.scalars(select(Applicant).where(Applicant.workspace_id.in_(ids))
                               .order_by(Applicant.workspace_id, Applicant.role, Applicant.id)):
        found[row.workspace_id].append(_person(row))
    without_client = [i for i in ids if not any(p.role == CLIENT for p in found[i])]
    if without_client:
        members = session.execute(select(WorkspaceMember.workspace_id, User.name)
                                  .join(User, User.id == WorkspaceMember.user_id)
                                  .where(WorkspaceMember.workspace_id.in_(without_client), User.role == Role.CLIENT.value)
                                  .order_by(WorkspaceMember.workspace_id, User.id))
        for workspace_id, name in members:
            if not any(p.role == CLIENT for p in found[workspace_id]):
                found[workspace_id].insert(0, Person(None, name))
    return {i: tuple(sorted(people, key=lambda p: p.role != CLIENT)) for i, people in found.items()}


def rows(session: Session, workspace: Workspace) -> list[Applicant]:
    """The case's stored applicants, the client first (its row stored now if it was not yet)."""
    client_row(session, workspace)
    return list(session.scalars(scoping.in_brokerage(Applicant, workspace.brokerage_id)
                                .where(Applicant.workspace_id == workspace.id)
                                .order_by(Applicant.role, Applicant.id)))


def add_co_applicant(session: Session, user: User, workspace: Workspace, *, name, date_of_birth=None,
                     citizenship=None) -> Applicant:
    """Add the case's co-applicant and commit, judging no document again (whose.add_co_applicant,
    which the pages and the API call, does); a second one is a Conflict, a bad field an InvalidInput
    (nothing written)."""
    person = stage_co_applicant(session, user, workspace, name=name, date_of_birth=date_of_birth,
                                citizenship=citizenship)
    try:
        session.commit()
    except IntegrityError as exc:  # two added one at once
        session.rollback()
        raise Conflict(N_("This case has a co-applicant already.")) from exc
    return person


def stage_co_applicant(session: Session, user: User, workspace: Workspace, *, name, date_of_birth=None,
                       citizenship=None) -> Applicant:
    """The co-applicant checked and flushed, not committed: the caller commits (or rolls back)."""
    if not may_name_applicants(user.role):
        raise Forbidden(N_("Only the advisor or the client can say who applies."))
    person = Applicant(brokerage_id=workspace.brokerage_id, workspace_id=workspace.id, role=CO_APPLICANT,
                       name=checked_name(name), date_of_birth=_birth(date_of_birth), citizenship=_citizenship(citizenship))
    client_row(session, workspace)
    if session.scalar(select(Applicant.id).where(Applicant.workspace_id == workspace.id,
                                                 Applicant.role == CO_APPLICANT)) is not None:
        session.rollback()
        raise Conflict(N_("This case has a co-applicant already."))
    session.add(person)
    session.flush()
    return person


def set_details(session: Session, user: User, workspace: Workspace, role, *, citizenship,
                date_of_birth=None, keep_birth: bool = False) -> Applicant:
    """The citizenship (empty: unknown) and date of birth of the case's client or co-applicant (`role`);
    `keep_birth`: the form asked only for the citizenship."""
    if not may_name_applicants(user.role):
        raise Forbidden(N_("Only the advisor or the client can say who applies."))
    code, born = _citizenship(citizenship), None if keep_birth else _birth(date_of_birth)
    person = next((a for a in rows(session, workspace) if a.role == role), None)
    if person is None:
        session.rollback()
        raise InvalidInput(N_("No such applicant on this case."))
    person.citizenship = code
    if not keep_birth:
        person.date_of_birth = born
    session.commit()
    return person


def client_row(session: Session, workspace: Workspace) -> None:
    """Store the case's client as its applicant when the case has none yet (named as the user is)."""
    if session.scalar(select(Applicant.id).where(Applicant.workspace_id == workspace.id,
                                                 Applicant.role == CLIENT)) is not None:
        return
    client = session.scalar(select(User).join(WorkspaceMember, WorkspaceMember.user_id == User.id)
                            .where(WorkspaceMember.workspace_id == workspace.id, User.role == Role.CLIENT.value)
                            .order_by(User.id).limit(1))
    if client is not None:
        session.add(Applicant(brokerage_id=workspace.brokerage_id, workspace_id=workspace.id, role=CLIENT,
                              user_id=client.id, name=client.name))
        session.flush()


def stored(session: Session, workspace: Workspace, role) -> Applicant:
    """The case's applicant of `role` (the client's row stored now if it was not yet); NotFound when
    the case has none."""
    person = next((a for a in rows(session, workspace) if a.role == role), None)
    if person is None:
        session.rollback()
        raise NotFound(N_("No such applicant on this case."))
    return person


def corrected(changes: dict) -> dict:
    """The columns an advisor's correction sets, checked: `name`, `date_of_birth` (empty: unknown) and
    `citizenship` (empty: unknown); any other key, or a bad value, is an InvalidInput."""
    unknown = set(changes) - {"name", "date_of_birth", "citizenship"}
    if unknown or not changes:
        raise InvalidInput(N_("Correct the name, the date of birth or the citizenship."))
    checks = {"name": checked_name, "date_of_birth": _birth, "citizenship": _citizenship}
    return {key: checks[key](value) for key, value in changes.items()}


def _person(row: Applicant) -> Person:
    return Person(row.id, row.name, row.citizenship, row.role, row.date_of_birth)


def checked_name(raw) -> str:
    name = " ".join(str(raw or "").split())
    if not name or len(name) > MAX_NAME:
        raise InvalidInput(N_("Enter the applicant's full name (up to 200 characters)."))
    return name


def _birth(raw) -> date | None:
    text = str(raw or "").strip()
    if not text:
        return None
    try:
        day = date.fromisoformat(text)
    except ValueError:
        raise InvalidInput(BIRTH_DATE) from None
    if not OLDEST_BIRTH <= day <= clock.now().date():
        raise InvalidInput(BIRTH_DATE)
    return day


def _citizenship(raw) -> str | None:
    code = str(raw or "").strip().upper()
    if not code or code == "UNKNOWN":
        return None
    if not is_country(code):
        raise InvalidInput(N_("Choose a citizenship from the list."))
    return code
