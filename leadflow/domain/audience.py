"""Who may see a document: one rule for pages, the JSON API, downloads and websocket pushes; and
who sees what beside it (a document's full history, the brokerage's credits), one rule per screen
and its API route."""
from dataclasses import dataclass, field
from enum import StrEnum


class Role(StrEnum):
    CLIENT = "client"
    ADVISOR = "advisor"
    BROKERAGE_ADMIN = "brokerage_admin"
    PLATFORM_ADMIN = "platform_admin"


STAFF_ROLES = frozenset({Role.ADVISOR, Role.BROKERAGE_ADMIN})
# The credits page and GET /api/credits: what the brokerage pays is its admin's business.
CREDITS_ROLES = frozenset({Role.BROKERAGE_ADMIN})


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
    return role in STAFF_ROLES or role == Role.PLATFORM_ADMIN
