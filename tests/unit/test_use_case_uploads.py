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


def test_no_transaction_is_open_while_the_file_goes_to_storage(world):
    """Storing a large file takes seconds: the upload's reads (its case) must not keep a pooled
    connection, or SQLite's read lock, for that long."""
    open_during_put = []
    put = world.storage.put

    def watched_put(key, data, content_type):
        open_during_put.append(world.session.in_transaction())
        put(key, data, content_type)

    world.storage.put = watched_put
    document = documents.upload(world.session, world.ports, world.client, filename="payslip.pdf", data=pdf(pages=1),
                                title=None, kind="payslip", workspace_id=None, max_bytes=10_000_000)
    assert open_during_put == [False]
    stored = world.get(document.id)
    assert (stored.status, stored.owner_id, stored.workspace_id) == (Status.PENDING, world.client.id, world.case.id)
