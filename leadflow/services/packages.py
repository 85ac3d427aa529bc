"""The lender package of a complete case: asked for on the case page, built by a worker into one
ZIP in object storage (the required documents' original files named by checklist item, a cover
sheet PDF, the extracted data as JSON), downloaded through a short-lived signed link.

A package row says how far the build got (the case page polls it); its status moves
building -> ready | failed, each move an update guarded by `status = 'building'`, so a build run
twice (Dramatiq is at-least-once) writes its result once.
"""
import io
import json
import logging
import zipfile
from dataclasses import dataclass

from sqlalchemy import select, update
from sqlalchemy.orm import Session

from leadflow import errors, scoping
from leadflow.domain import audience, document_types
from leadflow.domain.checklist import ITEMS
from leadflow.domain.packages import CaseIncomplete, chosen_documents, file_name, incomplete_items
from leadflow.models import Brokerage, Document, LenderPackage, User, Workspace, WorkspaceMember
from leadflow.ports import Ports
from leadflow.services import case_file, checklist, cover_sheet, part_files
from leadflow.storage.base import ObjectMissing

log = logging.getLogger(__name__)
BUILDING, READY, FAILED = "building", "ready", "failed"
# The cover sheet and the data file are steps too, after the documents.
EXTRA_STEPS = 2
COVER_NAME = "00_cover_sheet.pdf"
DATA_NAME = "extracted_data.json"


class NotAllowed(errors.Forbidden):
    """The user's role may not build or download packages."""


class NotFound(errors.NotFound):
    """No such case or package in the user's brokerage."""


class Incomplete(errors.Conflict):
    """The case's checklist is not complete: there is nothing whole to send a lender yet."""
    code = "case_incomplete"

    def __init__(self, items: list[str]):
        super().__init__("The case is not complete yet: " + ", ".join(
            next(i.en for i in ITEMS if i.key == key) for key in items) + ".")
        self.items = items


@dataclass(frozen=True)
class Progress:
    """What the case page shows about a case's latest package."""
    package: LenderPackage | None
    incomplete: list[str]            # checklist item keys still missing (empty: a package may be built)

    @property
    def percent(self) -> int:
        p = self.package
        if p is None or not p.total_steps:
            return 0
        return 100 if p.status == READY else min(99, p.done_steps * 100 // p.total_steps)


def request(session: Session, ports: Ports, user: User, workspace_id: int) -> LenderPackage:
    """Ask for a package of the case; commits, then sends the build. A package already being built
    for the case is sent again rather than doubled (its dedup key keeps one message).

    Raises NotAllowed, NotFound (another brokerage's case is not found), Incomplete."""
    workspace = _workspace(session, user, workspace_id)
    states = checklist.for_workspace(session, ports.storage, workspace.id, workspace.brokerage_id)
    missing = incomplete_items(states)
    if missing:
        raise Incomplete(missing)
    # Two clicks at once must not both find no package building and make two: the second waits
    # on the case's row until the first committed its package, then finds it.
    session.execute(select(Workspace.id).where(Workspace.id == workspace.id).with_for_update())
    package = session.scalar(select(LenderPackage).where(
        LenderPackage.workspace_id == workspace.id, LenderPackage.status == BUILDING))
    if package is None:
        package = LenderPackage(brokerage_id=workspace.brokerage_id, workspace_id=workspace.id,
                                requested_by_id=user.id, status=BUILDING, created_at=ports.clock.now())
        session.add(package)
    session.commit()
    send_build(ports, package.id, package.brokerage_id)
    return package


def send_build(ports: Ports, package_id: str, brokerage_id: int) -> bool:
    return ports.jobs.send("build-package", package_id, brokerage_id, dedup_key=f"package-build-{package_id}")


def build(session: Session, ports: Ports, package_id: str, brokerage_id: int) -> str:
    """Build the package: safe to run twice (a package no longer building is left alone). Storage
    errors propagate (the actor retries, then `fail` marks it failed). Returns the outcome."""
    package = session.scalar(scoping.in_brokerage(LenderPackage, brokerage_id).where(LenderPackage.id == package_id))
    if package is None or package.status != BUILDING:
        return "nothing to do"
    workspace = session.get(Workspace, package.workspace_id)
    states = checklist.for_workspace(session, ports.storage, workspace.id, workspace.brokerage_id)
    try:
        chosen = chosen_documents(states)
    except CaseIncomplete:
        # A document was replaced or rejected between the click and the build.
        _finish(session, package.id, FAILED, error="case_incomplete", finished_at=ports.clock.now())
        return "case incomplete"
    _step(session, package.id, done=0, total=len(chosen) + EXTRA_STEPS)
    documents = {d.id: d for d in session.scalars(select(Document).where(
        Document.id.in_([document_id for _, document_id in chosen]),
        Document.brokerage_id == brokerage_id))}
    language = _language(session, package.requested_by_id)
    buffer = io.BytesIO()
    listed = []
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for position, (item_key, document_id) in enumerate(chosen, start=1):
            document = documents[document_id]
            content = case_file.current_content(session, ports, document, unreadable=(ObjectMissing,))
            name = file_name(position, document.document_type or document.kind,
                             content.get("fields") if isinstance(content.get("fields"), dict) else {},
                             document.filename)
            # A packet's document is its own pages only, never the packet's whole file.
            archive.writestr(name, part_files.content(ports.storage, document))
            listed.append(_entry(name, item_key, document, content, language))
            _step(session, package.id, done=position)
        case = _case_facts(session, ports, workspace, language)
        archive.writestr(COVER_NAME, cover_sheet.render(case, listed, language))
        _step(session, package.id, done=len(chosen) + 1)
        archive.writestr(DATA_NAME, json.dumps(_data(case, listed), ensure_ascii=False, indent=2, default=str))
    body = buffer.getvalue()
    key = package_key(brokerage_id, workspace.id, package.id)
    ports.storage.put(key, body, "application/zip")
    if not _finish(session, package.id, READY, storage_key=key, size_bytes=len(body), finished_at=ports.clock.now(),
                   done_steps=len(chosen) + EXTRA_STEPS):
        if session.get(LenderPackage, package.id) is None:
            # The case was erased while we built: its erasure could not know this key yet.
            ports.storage.delete(key)
            return "case erased"
        # Another run finished it first: ours is the same package under the same key.
        return "built elsewhere"
    log.info("lender package %s of case %s built: %s files, %s bytes", package.id, workspace.id, len(listed), len(body))
    return "ready"


def fail(session: Session, package_id: str, brokerage_id: int, reason: str) -> bool:
    """The build's retries are spent: the case page says so and offers to build again."""
    log.warning("lender package %s failed: %s", package_id, reason)
    return _finish(session, package_id, FAILED, error=reason[:200], brokerage_id=brokerage_id)


def progress(session: Session, ports: Ports, user: User, workspace_id: int) -> Progress:
    """The case's latest package and what keeps the case from one. Raises NotAllowed, NotFound."""
    workspace = _workspace(session, user, workspace_id)
    package = session.scalar(select(LenderPackage).where(LenderPackage.workspace_id == workspace.id)
                             .order_by(LenderPackage.created_at.desc(), LenderPackage.id.desc()).limit(1))
    states = checklist.for_workspace(session, ports.storage, workspace.id, workspace.brokerage_id)
    return Progress(package, incomplete_items(states))


def download_url(session: Session, ports: Ports, user: User, package_id: str) -> str:
    """A short-lived signed link to a ready package of the user's brokerage. Raises NotAllowed,
    NotFound (also for a package still building, failed or of another brokerage)."""
    if not audience.may_build_package(user.role):
        raise NotAllowed("Only the brokerage's advisors and admins download lender packages.")
    package = session.scalar(scoping.in_brokerage(LenderPackage, user.brokerage_id).where(
        LenderPackage.id == package_id, LenderPackage.status == READY))
    if package is None or not package.storage_key:
        raise NotFound("There is no such package, or it is not ready.")
    if ports.storage.head(package.storage_key) is None:
        raise NotFound("There is no such package, or it is not ready.")
    return ports.storage.download_url(package.storage_key, expires_in=int(ports.settings.get("PACKAGE_LINK_SECONDS", 300)))


def package_key(brokerage_id: int, workspace_id: int, package_id: str) -> str:
    return f"brokerages/{brokerage_id}/workspaces/{workspace_id}/packages/{package_id}.zip"


# --- helpers -------------------------------------------------------------------------------------

def _workspace(session: Session, user: User, workspace_id: int) -> Workspace:
    if not audience.may_build_package(user.role):
        raise NotAllowed("Only the brokerage's advisors and admins build lender packages.")
    workspace = session.scalar(scoping.in_brokerage(Workspace, user.brokerage_id).where(Workspace.id == workspace_id))
    if workspace is None:
        raise NotFound("There is no such case.")
    return workspace


def _step(session: Session, package_id: str, *, done: int, total: int | None = None) -> None:
    """Record progress in a transaction of its own, so the case page sees it while the build runs."""
    values = {"done_steps": done} if total is None else {"done_steps": done, "total_steps": total}
    session.execute(update(LenderPackage).where(LenderPackage.id == package_id, LenderPackage.status == BUILDING)
                    .values(**values))
    session.commit()


def _finish(session: Session, package_id: str, status: str, brokerage_id: int | None = None, **values) -> bool:
    query = update(LenderPackage).where(LenderPackage.id == package_id, LenderPackage.status == BUILDING)
    if brokerage_id is not None:
        query = query.where(LenderPackage.brokerage_id == brokerage_id)
    moved = session.execute(query.values(status=status, **values)).rowcount
    session.commit()
    return moved == 1


def _entry(name: str, item_key: str, document: Document, content: dict, language: str) -> dict:
    item = next(i for i in ITEMS if i.key == item_key)
    fields = content.get("fields") if isinstance(content.get("fields"), dict) else {}
    return {"file": name, "item": item_key, "item_name": item.de if language == "de" else item.en, "document_id": document.id,
            "type": document.document_type or document.kind,
            "type_name": document_types.name(document.document_type or document.kind),
            "title": document.title, "original_filename": document.filename, "sha256": document.sha256,
            "verified_at": document.verified_at, "fields": fields}


def _case_facts(session: Session, ports: Ports, workspace: Workspace, language: str) -> dict:
    clients = session.scalars(select(User).join(WorkspaceMember, WorkspaceMember.user_id == User.id)
                              .where(WorkspaceMember.workspace_id == workspace.id,
                                     User.brokerage_id == workspace.brokerage_id).order_by(User.name)).all()
    brokerage = session.get(Brokerage, workspace.brokerage_id)
    case = {"case_id": workspace.id, "case_name": workspace.name, "brokerage": brokerage.name if brokerage else "",
            "clients": [{"name": c.name, "email": c.email} for c in clients if c.role == audience.Role.CLIENT],
            "built_at": ports.clock.now(), "checks": [], "outcome": None, "summary": None}
    case.update(_case_file(session, ports, workspace, language))
    return case


def _case_file(session: Session, ports: Ports, workspace: Workspace, language: str) -> dict:
    """The case checks and the income summary, as the case page shows them (services.case_file)."""
    found = case_file.case_file(session, ports, workspace)
    checks = []
    for check in found.checks:
        title, reason = check.words(cover_sheet.gettext(language))
        checks.append({"key": check.key, "outcome": check.outcome, "title": title, "reason": reason,
                       "applicant": check.applicant, "documents": [found.titles.get(d, d) for d in check.documents]})
    household = found.summary
    client = household.people[0][1]
    return {"checks": checks, "outcome": found.outcome, "summary": {
        # The household's totals; the contract and certificate figures are the client's.
        "average_net": household.average_net, "average_gross": household.average_gross,
        "annual_gross": household.annual_gross, "contract_annual": client.contract_annual,
        "certified_gross": client.certified_gross, "certified_year": client.certified_year,
        "credits_by_month": household.credits_by_month,
        "applicants": [{"name": name, "average_net": one.average_net, "average_gross": one.average_gross,
                        "annual_gross": one.annual_gross, "contract_annual": one.contract_annual,
                        "certified_gross": one.certified_gross, "certified_year": one.certified_year}
                       for name, one in household.people]}}


def _data(case: dict, listed: list[dict]) -> dict:
    return {"case": {k: case[k] for k in ("case_id", "case_name", "brokerage", "clients", "built_at")},
            "checks": case["checks"], "outcome": case["outcome"], "income_summary": case["summary"],
            "documents": listed}


def _language(session: Session, user_id: int | None) -> str:
    user = session.get(User, user_id) if user_id else None
    return user.language if user and user.language in ("en", "de") else "en"
