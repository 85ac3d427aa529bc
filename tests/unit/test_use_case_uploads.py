"""The upload use case with fakes: what a client's upload writes, and what it costs."""
from sqlalchemy import event

from leadflow.domain.lifecycle import Status
from leadflow.services import documents
from tests.unit.fakes import pdf, world  # noqa: F401  (fixtures)


def test_an_upload_is_stored_recorded_pending_and_answered_without_reading_its_row_back(world):
    data = pdf(pages=2)
    statements = []
    engine = world.session.get_bind()

    def seen(_conn, _cursor, statement, *_args):
        statements.append(statement.split()[0])

    event.listen(engine, "before_cursor_execute", seen)
    try:
        document = documents.upload(world.session, world.ports, world.client, filename="payslip.pdf", data=data,
                                    title=None, kind="payslip", workspace_id=None, max_bytes=10_000_000)
        written = len(statements)
        answer = (document.id, document.status, document.title, document.workspace_id, document.page_count,
                  document.size_bytes, document.created_at, document.verified_at, document.rejection_code,
                  document.confidence, document.document_type, document.verification_notes)
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert len(statements) == written, "the answer is built from what was written, not read back"
    assert answer[1:6] == (Status.PENDING.value, "payslip.pdf", world.case.id, 2, len(data))
    assert answer[7:] == (None, None, None, None, [])
    stored = world.get(document.id)
    assert (stored.status, stored.page_count, stored.storage_key) == (Status.PENDING, 2, document.storage_key)
    assert world.storage.objects[document.storage_key][0] == data
