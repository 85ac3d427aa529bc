"""Who may see a document: one rule for pages, the JSON API, downloads and websocket pushes; and
who may do what beside it (decide, retry, work on its data, share it, read its full history, see
the brokerage's credits): one predicate each, enforced by the services and asked by the templates
that show or hide the action."""
from dataclasses import dataclass, field
from enum import StrEnum

from leadflow.domain.lifecycle import Status, is_system_failure


class Role(StrEnum):
    CLIENT = "client"
    ADVISOR = "advisor"
    BROKERAGE_ADMIN = "brokerage_admin"
    PLATFORM_ADMIN = "platform_admin"


STAFF_ROLES = frozenset({Role.ADVISOR, Role.BROKERAGE_ADMIN})
# Who works on documents' data and reads their whole story: the brokerage's staff, and platform
# admins deciding what the reader could not.
DOCUMENT_WORKERS = STAFF_ROLES | {Role.PLATFORM_ADMIN}
# Sending a failure of ours through again spends credits and a person's attention: admins only.
RETRY_ROLES = frozenset({Role.BROKERAGE_ADMIN, Role.PLATFORM_ADMIN})
# The credits page and GET /api/credits: what the brokerage pays is its admin's business.
CREDITS_ROLES = frozenset({Role.BROKERAGE_ADMIN})
# Erasing a client's data cannot be undone and answers a legal request: the brokerage's admin only.
ERASE_ROLES = frozenset({Role.BROKERAGE_ADMIN})


@dataclass(frozen=True)
class Viewer:
    id: int
    role: Role
    brokerage_id: int | None


@dataclass(frozen=True)
class DocumentFacts:
    """What the audience rule needs to know about one document."""
    brokerage_id: int
    owner_id: int
    workspace_member_ids: frozenset[int] = field(default_factory=frozenset)
    shared_with_ids: frozenset[int] = field(default_factory=frozenset)


def may_see(viewer: Viewer, document: DocumentFacts) -> bool:
    """True when the viewer is in the document's audience.

    A document never leaves its brokerage: owner, shares and case members are all people of
    that brokerage (sharing refuses anyone else), and platform admins see every brokerage."""
    if viewer.role == Role.PLATFORM_ADMIN:
        return True
    if viewer.brokerage_id != document.brokerage_id:
        return False
    if viewer.role in STAFF_ROLES:
        return True
    return (viewer.id == document.owner_id
            or viewer.id in document.shared_with_ids
            or viewer.id in document.workspace_member_ids)


def audience(document: DocumentFacts, brokerage_staff_ids, platform_admin_ids) -> list[int]:
    """Everyone who may see the document, each once, in a stable order."""
    ordered = [document.owner_id, *sorted(document.shared_with_ids),
               *sorted(document.workspace_member_ids), *sorted(brokerage_staff_ids),
               *sorted(platform_admin_ids)]
    return list(dict.fromkeys(ordered))


def may_see_credits(role) -> bool:
    """True for the roles that see the brokerage's wallet, on the page and through the API."""
    return role in CREDITS_ROLES


def sees_full_history(role) -> bool:
    """Staff and platform admins read a document's whole history: people's notes, who did what,
    and the extraction service's raw answers. Everyone else in the audience sees only when its
    status changed (what the document's row already tells them, over time)."""
    return role in DOCUMENT_WORKERS


def may_decide(role) -> bool:
    """Deciding a document in review (its type, the fields the reader missed, or a rejection) is
    the platform admins' work: they see every brokerage's queue."""
    return role == Role.PLATFORM_ADMIN


def may_build_package(role) -> bool:
    """Building a case's lender package, and downloading it, is the brokerage staff's work: the
    package holds the whole case and goes to the lender, never to the client or another tenant."""
    return role in STAFF_ROLES


def may_close_case(role) -> bool:
    """Closing a case (which starts its retention period) is the advisor's decision, or their admin's."""
    return role in STAFF_ROLES


def may_erase(role) -> bool:
    """Erasing a client or a case, files and rows, for good: the brokerage admin only."""
    return role in ERASE_ROLES


def may_see_case_checks(role) -> bool:
    """The checks across a case's documents, red flags included, are the brokerage staff's and the
    platform's; a client reads only what to replace, on the portal."""
    return role in DOCUMENT_WORKERS


def may_plan_payout(role) -> bool:
    """The case's planned payout date is the advisor's (or their admin's) to set."""
    return role in STAFF_ROLES


def may_name_applicants(role) -> bool:
    """Who applies for a case (a co-applicant, a citizenship) is the advisor's and the client's to say."""
    return role in STAFF_ROLES or role == Role.CLIENT


def may_correct_applicants(role) -> bool:
    """Correcting an applicant's name, date of birth or citizenship, or removing the co-applicant
    (their documents then go back to a person), is the advisor's: it changes whose documents are."""
    return role in STAFF_ROLES


def may_settle_whose(role) -> bool:
    """Whose a document naming someone not on the case is (or that it is refused) the advisor decides."""
    return role in STAFF_ROLES


def may_retry(role) -> bool:
    """True for the roles that may send a document that failed for system reasons through again."""
    return role in RETRY_ROLES


def may_work_on_data(role) -> bool:
    """Correct, reprocess, customise or revert a document's data; the same people see its
    fields, actions, versions and history panels."""
    return role in DOCUMENT_WORKERS


def may_share(role, viewer_id: int, owner_id: int) -> bool:
    """The document's owner shares their own document; staff and platform admins share any they see."""
    return role in DOCUMENT_WORKERS or viewer_id == owner_id


def awaits_retry(status, rejection_code: str | None) -> bool:
    """A failure of ours that a person may send through again: its automatic retries were spent
    (ACTION_REQUIRED), or it failed before there were any (REJECTED), with a SYSTEM_ code."""
    return status in (Status.REJECTED, Status.ACTION_REQUIRED) and is_system_failure(rejection_code)


def retry_offered(role, status, rejection_code: str | None) -> bool:
    """Whether a page offers the retry button: the role may retry and the document awaits one."""
    return may_retry(role) and awaits_retry(status, rejection_code)
