"""What the pages and the JSON API read of packets (issue 40): a packet's split with its children,
and the children a viewer may see. Reads only; every query through the one tenant helper."""
from sqlalchemy import select
from sqlalchemy.orm import Session

from leadflow import scoping
from leadflow.domain.audience import Viewer
from leadflow.domain.document_types import N_
from leadflow.domain.packets import PACKET_KIND
from leadflow.errors import NotFound
from leadflow.models import Document, Packet


def is_packet(document: Document) -> bool:
    return document.kind == PACKET_KIND


def packet_of(session: Session, document: Document) -> dict | None:
    """A packet's split as the API shows it (None for any other document): its state (`reading`,
    `unsure`: waiting for a person, `split`, `single`), its revision (a correction names the one it
    saw), and its parts in page order, each with the child made from it (`document_id`, once made)."""
    packet = session.get(Packet, document.id) if document.packet_id is None else None
    if packet is None:
        return None
    children = dict(session.execute(select(Document.part_number, Document.id).where(
        Document.packet_id == document.id, Document.brokerage_id == document.brokerage_id)).all())
    parts = []
    for index, part in enumerate(packet.parts or []):
        number = part.get("number")
        parts.append({"index": index + 1, "first": part["first"], "last": part["last"],
                      "document_type": part.get("document_type"), "confidence": part.get("confidence"),
                      "boundary_confidence": part.get("boundary_confidence"), "sure": bool(part.get("sure")),
                      "decided": bool(part.get("decided")),
                      "document_id": children.get(number) if number is not None else
                      (document.id if packet.state == "single" else None)})
    return {"id": document.id, "state": packet.state, "revision": packet.revision, "parts": parts,
            "children": [children[n] for n in sorted(children)]}


def children(session: Session, viewer: Viewer, packet_id: str) -> tuple[Document, list[Document]]:
    """The packet (one the viewer may see) and its children the viewer may see, in page order;
    the retired ones (their pages given to another child) last. NotFound for any other id."""
    packet = scoping.document_for_viewer(session, viewer, packet_id)
    if packet is None or not is_packet(packet) and session.get(Packet, packet_id) is None:
        raise NotFound(N_("No such packet."))
    found = session.scalars(scoping.visible_documents(viewer).where(Document.packet_id == packet_id)).all()
    return packet, sorted(found, key=lambda d: (d.first_page is None, d.first_page or 0, d.part_number or 0))
