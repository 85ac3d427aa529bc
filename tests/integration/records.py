"""What the integration tests read back from the database about a document."""
from sqlalchemy import select

from leadflow.extensions import db
from leadflow.models import AuditEntry


def audit(app, document_id) -> list[tuple]:
    """The document's history, oldest first: (action, from_status, to_status, note, actor_id) per row."""
    with app.app_context():
        rows = db.session.scalars(select(AuditEntry).where(AuditEntry.document_id == document_id)
                                  .order_by(AuditEntry.id)).all()
        return [(a.action, a.from_status, a.to_status, a.note, a.actor_id) for a in rows]
