"""The live fan-out against PostgreSQL and the real row templates: one render per kind of viewer,
the audience rule deciding for every connected user, bursts of one document pushed once."""
import re

import pytest
from flask import render_template

from leadflow.extensions import db
from leadflow.models import Document, DocumentShare, User, new_id
from leadflow.realtime.hub import Hub, Watcher, row_kind
from tests.plugins.live import wait_until

ROW = re.compile(r'<tr id="document-([0-9a-f]{32})" data-status="([A-Z_]+)"')


@pytest.fixture
def hub(app):
    # Nothing fans out until the test says so: what one fan-out costs is counted exactly.
    return Hub(app, max_sockets_per_user=5, background=False)


def _people(app, brokerage_id, role, count, tag, language="en") -> list[int]:
    with app.app_context():
        users = [User(email=f"{tag}{i}@fanout.example", name=f"{tag} {i}", role=role, brokerage_id=brokerage_id,
                      password_hash="!unusable", language=language) for i in range(count)]
        db.session.add_all(users)
        db.session.commit()
        ids = [u.id for u in users]
        db.session.remove()
    return ids


def _document(app, world, status="PENDING", rejection_code=None, shared_with=()) -> str:
    with app.app_context():
        document = Document(id=new_id(), brokerage_id=world.brokerage_a, owner_id=world.client_a.user_id,
                            workspace_id=world.workspace_a, title="Payslip October", kind="payslip", status=status,
                            rejection_code=rejection_code, filename="p.pdf", content_type="application/pdf",
                            size_bytes=100, storage_key="none/p.pdf", verification_notes=[])
        db.session.add(document)
        db.session.flush()
        for user_id in shared_with:
            db.session.add(DocumentShare(document_id=document.id, user_id=user_id))
        db.session.commit()
        document_id = document.id
        db.session.remove()
    return document_id


def _set_status(app, document_id, status) -> None:
    with app.app_context():
        db.session.get(Document, document_id).status = status
        db.session.commit()
        db.session.remove()


def _event(document_id, status) -> dict:
    return {"type": "document_status", "document_id": document_id, "status": status, "brokerage_id": 0}


def _messages(client) -> list[str]:
    out = []
    while not client.outbox.empty():
        out.append(client.outbox.get_nowait())
    return out


def test_a_hundred_advisors_of_one_brokerage_cost_one_render_and_each_socket_gets_the_row(app, world, hub):
    advisors = _people(app, world.brokerage_a, "advisor", 100, "adv")
    sockets = [hub.connect(user_id) for user_id in advisors]
    other_brokerage = hub.connect(world.advisor_b.user_id)
    document_id = _document(app, world)

    hub.on_event(_event(document_id, "PENDING"))
    assert hub.flush() == 1

    assert hub.renders == 1
    for client in sockets:
        [message] = _messages(client)
        assert ROW.findall(message) == [(document_id, "PENDING")]
    assert _messages(other_brokerage) == []


def test_each_kind_of_viewer_gets_its_own_rendering_and_no_one_outside_the_audience_gets_a_row(app, world, hub):
    [outsider] = _people(app, world.brokerage_a, "client", 1, "outsider")  # same brokerage, not on the case
    [shared_de] = _people(app, world.brokerage_a, "client", 1, "shared", language="de")
    [admin_b_client] = _people(app, world.brokerage_b, "client", 1, "bclient")
    document_id = _document(app, world, shared_with=[shared_de])
    seeing = {name: hub.connect(getattr(world, name).user_id)
              for name in ("client_a", "advisor_a", "admin_a", "platform_admin")}
    seeing["shared_de"] = hub.connect(shared_de)
    not_seeing = [hub.connect(user_id) for user_id in
                  (outsider, admin_b_client, world.advisor_b.user_id, world.admin_b.user_id, world.client_b.user_id)]

    hub.on_event(_event(document_id, "PENDING"))
    hub.flush()

    for client in not_seeing:
        assert _messages(client) == []
    got = {name: _messages(client) for name, client in seeing.items()}
    assert all(len(messages) == 1 and ROW.findall(messages[0]) == [(document_id, "PENDING")]
               for messages in got.values()), got
    # Client (en), client (de), staff, platform admin; the advisor and the admin share a row here.
    assert hub.renders == 4
    assert got["advisor_a"] == got["admin_a"]
    assert "data-owner" not in got["client_a"][0] and "data-owner" in got["advisor_a"][0]
    assert "EINGEGANGEN" in got["shared_de"][0] and "RECEIVED" in got["client_a"][0]
    assert "Alpha Hypotheken" in got["platform_admin"][0] and "Alpha Hypotheken" not in got["advisor_a"][0]


def test_a_burst_of_transitions_of_one_document_is_one_push_of_its_latest_state(app, world, hub):
    advisor = hub.connect(world.advisor_a.user_id)
    client = hub.connect(world.client_a.user_id)
    burst, calm = _document(app, world), _document(app, world)
    for status in ("PENDING", "PROCESSING", "EXTRACTING"):
        hub.on_event(_event(burst, status))
    hub.on_event(_event(calm, "PENDING"))
    _set_status(app, burst, "EXTRACTING")

    assert hub.flush() == 2

    for socket in (advisor, client):
        [message] = _messages(socket)  # both documents in one message
        assert ROW.findall(message) == [(burst, "EXTRACTING"), (calm, "PENDING")]
    assert hub.renders == 4  # two documents, each for a client and for staff
    assert hub.flush() == 0  # nothing left over to push again


def test_a_user_no_longer_in_the_audience_gets_nothing_once_read_again(app, world):
    hub = Hub(app, background=False, viewers_fresh_seconds=0)
    socket = hub.connect(world.advisor_a.user_id)
    document_id = _document(app, world)
    hub.on_event(_event(document_id, "PENDING"))
    hub.flush()
    assert len(_messages(socket)) == 1

    with app.app_context():
        db.session.get(User, world.advisor_a.user_id).brokerage_id = world.brokerage_b
        db.session.commit()
        db.session.remove()
    hub.on_event(_event(document_id, "PENDING"))
    hub.flush()
    assert _messages(socket) == []


def test_without_being_flushed_a_connected_page_gets_its_row_a_moment_after_the_event(app, world):
    hub = Hub(app)
    socket = hub.connect(world.advisor_a.user_id)
    document_id = _document(app, world)
    hub.on_event(_event(document_id, "PENDING"))
    message = wait_until(lambda: not socket.outbox.empty() and socket.outbox.get_nowait(), timeout=10,
                         message="the fan-out to push the row")
    assert ROW.findall(message) == [(document_id, "PENDING")]


def test_users_of_one_kind_get_the_very_row_a_page_load_renders_for_each_of_them(app, world):
    """row_kind says which viewers may share a rendering: for every role, language and state that
    changes a row, each user's own page rendering equals the one rendering of their kind."""
    groups = {
        "client": [world.client_a.user_id, *_people(app, world.brokerage_a, "client", 1, "c-en")],
        "client_de": _people(app, world.brokerage_a, "client", 2, "c-de", language="de"),
        "advisor": [world.advisor_a.user_id, *_people(app, world.brokerage_a, "advisor", 1, "a")],
        "brokerage_admin": [world.admin_a.user_id, *_people(app, world.brokerage_a, "brokerage_admin", 1, "b")],
        "platform_admin": [world.platform_admin.user_id, *_people(app, None, "platform_admin", 1, "p")],
    }
    states = [("PENDING", None), ("VERIFIED", None), ("REJECTED", "EXPIRED_DOCUMENT"),
              ("REJECTED", "SYSTEM_SUBMISSION_FAILED"), ("ACTION_REQUIRED", None),
              ("ACTION_REQUIRED", "SYSTEM_RETRIES_EXHAUSTED")]
    documents = [_document(app, world, status, code) for status, code in states]
    with app.app_context(), app.test_request_context(base_url=app.config["PUBLIC_BASE_URL"]):
        users = {u.id: u for u in db.session.scalars(db.select(User))}
        for document_id in documents:
            document = db.session.get(Document, document_id)
            by_kind = {}
            for user in (users[i] for ids in groups.values() for i in ids):
                own = render_template("documents/_row.html", document=document, viewer=user, oob=True)
                as_pushed = render_template("documents/_row.html", document=document, viewer=Watcher.of(user),
                                            oob=True)
                assert own == as_pushed, (user.role, document.status)
                by_kind.setdefault(row_kind(Watcher.of(user), document), set()).add(own)
            assert all(len(rows) == 1 for rows in by_kind.values()), (document.status, document.rejection_code)
            # and the kinds are not one too few: different renderings never share a kind
            assert len({row for rows in by_kind.values() for row in rows}) == len(by_kind)
        db.session.remove()


def test_the_facts_of_many_documents_read_together_are_each_documents_own(app, world):
    from leadflow import scoping
    [shared] = _people(app, world.brokerage_a, "client", 1, "sh")
    documents = [_document(app, world), _document(app, world, shared_with=[shared])]
    with app.app_context():
        loose = _document(app, world)
        rows = list(db.session.scalars(db.select(Document).where(Document.id.in_([*documents, loose]))))
        db.session.get(Document, loose).workspace_id = None
        together = scoping.documents_facts(db.session, rows)
        assert together == {d.id: scoping.document_facts(db.session, d) for d in rows}
        assert together[documents[1]].shared_with_ids == {shared}
        assert together[documents[0]].workspace_member_ids == {world.client_a.user_id}
        assert scoping.documents_facts(db.session, []) == {}
        db.session.remove()



def test_a_gathering_of_documents_costs_two_queries_once_its_people_and_names_are_known(app, world):
    from sqlalchemy import event
    hub = Hub(app, background=False, viewers_fresh_seconds=600)
    advisors = [hub.connect(u) for u in _people(app, world.brokerage_a, "advisor", 50, "q")]
    client = hub.connect(world.client_a.user_id)
    first, later = [_document(app, world) for _ in range(3)], [_document(app, world) for _ in range(5)]
    for document_id in first:
        hub.on_event(_event(document_id, "PENDING"))
    hub.flush()
    statements = []
    with app.app_context():
        engine = db.engine
    record = lambda *args: statements.append(args[2])  # noqa: E731
    event.listen(engine, "before_cursor_execute", record)
    try:
        for document_id in later:
            hub.on_event(_event(document_id, "PENDING"))
        hub.flush()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert len(statements) == 2, statements  # the documents, and who else may see them
    assert all(len(ROW.findall(_messages(s)[-1])) == 5 for s in [*advisors, client])


def test_a_renamed_case_shows_in_the_next_push_once_names_are_read_again(app, world):
    from leadflow.models import Workspace
    hub = Hub(app, background=False, viewers_fresh_seconds=0)
    advisor = hub.connect(world.advisor_a.user_id)
    document_id = _document(app, world)
    hub.on_event(_event(document_id, "PENDING"))
    hub.flush()
    assert "Case of client a" in _messages(advisor)[0]
    with app.app_context():
        db.session.get(Workspace, world.workspace_a).name = "Sharma purchase, Köln"
        db.session.commit()
        db.session.remove()
    hub.on_event(_event(document_id, "PENDING"))
    hub.flush()
    assert "Sharma purchase, Köln" in _messages(advisor)[0]


def test_a_gathering_reads_without_a_transaction_and_lets_other_requests_run_between_chunks_of_sockets(
        app, world, monkeypatch):
    from sqlalchemy import event

    from leadflow.realtime import hub as hub_module
    yields = []
    monkeypatch.setattr(hub_module, "SENDS_BETWEEN_YIELDS", 10)
    monkeypatch.setattr(hub_module, "let_others_run", lambda: yields.append(1))
    hub = Hub(app, background=False)
    advisors = [hub.connect(u) for u in _people(app, world.brokerage_a, "advisor", 25, "y")]
    document_id = _document(app, world)
    autocommit = []
    with app.app_context():
        engine = db.engine
    record = lambda conn, *args: autocommit.append(conn.connection.dbapi_connection.autocommit)  # noqa: E731
    event.listen(engine, "before_cursor_execute", record)
    try:
        hub.on_event(_event(document_id, "PENDING"))
        hub.flush()
    finally:
        event.remove(engine, "before_cursor_execute", record)
    # Each read its own snapshot: no BEGIN and ROLLBACK around them, two round trips fewer.
    assert autocommit and all(autocommit), autocommit
    assert len(yields) == 2  # after the 10th and the 20th of 25 sockets
    assert all(len(ROW.findall(_messages(s)[-1])) == 1 for s in advisors)
