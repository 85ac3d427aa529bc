"""Things that happened, as values; they leave the process only after the transaction commits."""
from dataclasses import dataclass, field


@dataclass(frozen=True)
class DocumentStatusChanged:
    document_id: str
    brokerage_id: int
    status: str
    title: str
    notes: tuple[str, ...] = ()
    # A document found in a packet names it, so a page showing the packet updates its children.
    packet_id: str | None = None

    def as_message(self) -> dict:
        """Minimal metadata for the realtime bus: never storage keys, tokens or content."""
        message = {"type": "document_status", "document_id": self.document_id,
                   "brokerage_id": self.brokerage_id, "status": self.status,
                   "title": self.title, "notes": list(self.notes)}
        if self.packet_id:
            message["packet_id"] = self.packet_id
        return message


@dataclass(frozen=True)
class VerificationRequested:
    document_id: str
    brokerage_id: int
    # A sweep that found the document abandoned (stalled) knows the message holding its
    # dedup key is dead: the key is taken over instead of waiting for it to expire.
    take_over: bool = False
    # A new upload whose file passed its pre-check: a waiting message of its brokerage may take
    # it along instead of a message of its own (`pipeline.enqueue_verification`).
    along: bool = False
    # An upload's: its message waits CLAIM_GATHER_MS for more of its brokerage's uploads to
    # take along (`pipeline.enqueue_verification`).
    gather: bool = False


@dataclass(frozen=True)
class DeliveryReceived:
    """New deliveries recorded by one commit, for the worker to apply in one batch."""
    delivery_id: str
    also: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReservationDue:
    """A job ended: its reservation should be settled (pages > 0) or released."""
    job_id: str
    pages: int | None = None
    extra: dict = field(default_factory=dict, compare=False)
