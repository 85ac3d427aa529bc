"""Every route, driven with hostile input as every role: never a 5xx, and a refused request writes nothing.

The routes come from `app.url_map`, so a route added later is driven too. Each is sent huge and
negative integers, wrong JSON types, control characters (NUL, CR/LF), very long strings, unicode
oddities and garbage cursors in its path, query string, form, multipart and JSON body, as an
anonymous visitor, a client, an advisor, a brokerage admin, a platform admin and a bearer token.

It runs on SQLite (the embedded default, where an integer past 64 bits cannot even be bound) and
on PostgreSQL (where a NUL cannot be stored in text). The extraction service, the job queue and
the realtime bus are doubles: a request that is accepted starts no work in the background, so the
row counts taken around a refused request move only if that request wrote.
"""
import base64
import re
from io import BytesIO
from types import SimpleNamespace
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict

from tests.plugins.doubles import HoldingService

# The websocket lives as long as its page: it is driven by tests/integration/test_ws*.py.
EXCLUDED_ENDPOINTS = {"live", "static"}
# Tables a refused request must not touch.
GUARDED_TABLES = ("documents", "upload_intents", "document_versions", "document_shares", "audit_entries",
                  "callback_deliveries", "extraction_jobs", "credit_reservations", "credit_wallets",
                  "workspaces", "workspace_members", "users", "api_tokens", "document_status_counts",
                  "lender_packages", "erasure_records", "sent_notifications", "notification_opt_outs")
EXAMPLES_PER_ROUTE = 10
ROLES = ("anonymous", "client", "advisor", "brokerage_admin", "platform_admin", "bearer")
SESSION_ROLES = ROLES[1:5]

HUGE = [10 ** 30, -1, 2 ** 63, 0, 2 ** 64 + 1, -(2 ** 63) - 1, 2 ** 31, -10 ** 30]
# Each attack fills the fields of a request from one family of hostile values, next to plausible ones.
ATTACKS = {
    "huge and negative numbers": [str(n) for n in HUGE] + ["1e309", "+5", "0x10", "٣", "1_000", " 7 ", "NaN"],
    "control characters": ["\x00", "a\x00b", "\r\nSet-Cookie: x=1", "\t/evil.example", "/\t/evil.example",
                           "\x7f\x1b[31m", "\u2028", "//evil.example"],
    "long and odd text": ["A" * 20_000, "B" * 301, "C" * 100_001, "\u202e\u200b\ufeff", "😀" * 50, "%00", "../../etc/passwd",
                          "<script>alert(1)</script>", "' OR 1=1 --", "\\", "", " ", "null", "[]", "{}"],
    "garbage cursors": [],   # filled below, once _b64 exists
}
# Every name a route reads from a query string, a form or a JSON body (and a few it does not).
FIELD_NAMES = ["version", "from", "to", "cursor", "workspace", "workspace_id", "status", "type", "client", "q",
               "view", "case", "for", "next", "name", "size", "title", "kind", "filename", "content_type",
               "email", "language", "action", "reason", "document_type", "fields", "more_fields", "new_name",
               "new_value", "output_spec", "changes", "reject", "password", "page", "field.net", "field.employer"]
# Values that get a request past its first checks, so that the hostile ones next to them are reached.
PLAUSIBLE = ["1", "2", "en", "payslip", "VERIFIED", "workspace", "dashboard", "reject", "application/pdf",
             "payslip.pdf", "client@hostile.example", "net", "/dashboard", "1024"]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


ATTACKS["garbage cursors"] = [
    _b64(b"9999-99-99|x"), _b64(f"{10 ** 30}|{10 ** 30}".encode()), _b64(b"\xff\xfe\x00"), _b64(b"2026-11-15T12:00:00|"),
    _b64(b"2026-11-15T12:00:00|" + b"f" * 5000), "!!!not-base64!!!", "=" * 7, _b64(b"|"),
    _b64(b"2026-11-15T12:00:00+99:00|" + b"a" * 32), _b64(b"2026-11-15T12:00:00|a\x00b"),
    _b64(b"0001-01-01T00:00:00|" + b"0" * 32)]
HOSTILE = [value for values in ATTACKS.values() for value in values]
# JSON of the wrong shape: huge numbers, lists for objects, objects for strings.
JSON_ODD = [10 ** 30, -1, 2 ** 63, None, True, 1.5, 1e308, [], {}, [[[]]], ["net"], {"fields": ["net"]},
            {"fields": [1, None]}, {"net": {"a": [1]}}, {"document_type": 10 ** 30}, {"fields": "net"}]
RAW_JSON = [b'{"size": 1e999}', b'{"fields": ["net"], "net": NaN, "title": NaN, "note": -Infinity}', b"[" * 5000,
            b'{"a": "\\ud800"}', b"\xff\xfe", b'{"title": "\\u0000"}', b"", b"null", b'"x"']
FILES = [b"%PDF-1.4 no more", b"", b"MZ\x90\x00<script>", b"II*\x00garbage", b"\x00" * 64]
ACCEPTS = ["application/json", "text/html", "*/*"]


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def hostile(request, tmp_path_factory):
    from tests.plugins.postgres import fresh_database

    instance = tmp_path_factory.mktemp(f"hostile-{request.param}")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("SECRET_KEY", "hostile-test-secret-key")
        mp.setenv("EXTRACTION_API_KEY", "hostile-test-api-key")
        mp.setenv("EXTRACTION_WEBHOOK_SECRET", "whsec_" + base64.b64encode(b"hostile-test-webhook").decode())
        if request.param == "sqlite":
            yield _build(f"sqlite:///{instance / 'leadflow.db'}", instance, mp)
        else:
            with fresh_database("hostile") as url:
                world = _build(url, instance, mp)
                try:
                    yield world
                finally:
                    from leadflow.extensions import db
                    with world.app.app_context():
                        db.session.remove()
                        db.engine.dispose()


def _build(url, instance, mp) -> SimpleNamespace:
    from flask_migrate import upgrade

    import tasks
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.factory import create_app
    from leadflow.models import Brokerage, Document, DocumentVersion, User, Workspace, WorkspaceMember
    from leadflow.services import counts
    from leadflow.web.auth import create_token
    from tests.plugins.live import TODAY

    app = create_app({
        "SQLALCHEMY_DATABASE_URI": url,
        "LOCAL_STORAGE_DIR": str(instance / "storage"),
        "PUBLIC_BASE_URL": "http://leadflow.hostile.invalid",
        "EXTRACTION_URL": None,
        "EMBEDDED_WORKER": False,
        "EMBEDDED_SCHEDULER": False,
        "MAX_UPLOAD_BYTES": 64 * 1024,
        "MAX_CONTENT_LENGTH": 256 * 1024,
        "PROPAGATE_EXCEPTIONS": True,
    }, listen=False)
    with app.app_context():
        upgrade()
    adapters = app.extensions["leadflow"]
    adapters.extraction = HoldingService()
    adapters.bus = SimpleNamespace(publish=lambda message: None, subscribe=lambda handler: None)
    # An accepted upload's verification must not reach a live app's worker elsewhere in this process.
    mp.setattr(tasks.verify_document, "send_with_options", lambda *a, **k: None)
    mp.setattr(tasks.process_delivery, "send", lambda *a, **k: None)

    ns = SimpleNamespace(app=app, users={}, tokens={})
    with app.app_context():
        a, b = Brokerage(name="Alpha Hypotheken"), Brokerage(name="Beta Baufinanz")
        db.session.add_all([a, b])
        db.session.flush()
        billing.grant(db.session, a.id, 100)
        billing.grant(db.session, b.id, 100)
        case = Workspace(brokerage_id=a.id, name="Case of client a")
        other_case = Workspace(brokerage_id=b.id, name="Case of client b")
        db.session.add_all([case, other_case])
        people = {"client": ("client", a.id), "advisor": ("advisor", a.id), "brokerage_admin": ("brokerage_admin", a.id),
                  "platform_admin": ("platform_admin", None), "other_advisor": ("advisor", b.id)}
        for key, (role, brokerage_id) in people.items():
            # A placeholder hash: werkzeug's scrypt would cost more than many requests.
            user = User(email=f"{key}@hostile.example", name=key.replace("_", " ").title(), role=role,
                        brokerage_id=brokerage_id, password_hash="!")
            db.session.add(user)
            db.session.flush()
            ns.users[key] = user.id
        db.session.add(WorkspaceMember(workspace_id=case.id, user_id=ns.users["client"]))
        storage = adapters.storage
        ns.documents = []
        for brokerage, owner, workspace, status, code in (
                (a.id, ns.users["client"], case.id, "VERIFIED", None),
                (a.id, ns.users["client"], case.id, "ACTION_REQUIRED", None),
                (a.id, ns.users["client"], case.id, "REJECTED", "SYSTEM_SUBMISSION_FAILED"),
                (b.id, ns.users["other_advisor"], other_case.id, "VERIFIED", None)):
            doc = Document(brokerage_id=brokerage, owner_id=owner, workspace_id=workspace, title=f"{status} payslip",
                           kind="payslip", document_type="payslip", confidence=0.9, status=status,
                           rejection_code=code, filename="payslip.pdf", content_type="application/pdf",
                           size_bytes=9, storage_key=f"seed/{status}/{brokerage}.pdf", verification_notes=[],
                           page_count=1, created_at=TODAY, updated_at=TODAY, status_changed_at=TODAY)
            db.session.add(doc)
            db.session.flush()
            storage.put(doc.storage_key, b"%PDF-1.4\n", "application/pdf")
            for number in (1, 2):
                key = f"seed/{doc.id}/content/v{number}.json"
                storage.put(key, b'{"fields": {"net": "2100.00", "employer": "Muster GmbH"}}', "application/json")
                db.session.add(DocumentVersion(document_id=doc.id, part="content", number=number,
                                               cause="generated" if number == 1 else "corrected",
                                               storage_key=key, created_at=TODAY))
            ns.documents.append(doc.id)
        db.session.commit()
        counts.recount(db.session)
        db.session.commit()
        ns.workspaces = [case.id, other_case.id]
        ns.tokens["bearer"] = create_token(db.session.get(User, ns.users["advisor"]))
        db.session.remove()
    ns.clients = {role: _client(app, ns, role) for role in ROLES}
    return ns


def _client(app, ns, role):
    client = app.test_client()
    client.csrf = None
    if role == "bearer":
        client.environ_base["HTTP_AUTHORIZATION"] = f"Bearer {ns.tokens['bearer']}"
    elif role != "anonymous":
        from leadflow.extensions import db
        from leadflow.models import User
        from leadflow.web.auth import SESSION_VERSION
        with app.app_context():
            version = db.session.get(User, ns.users[role]).session_version
            db.session.remove()
        with client.session_transaction() as session:
            session["_user_id"] = str(ns.users[role])
            session["_fresh"] = True
            session[SESSION_VERSION] = version
    if role != "bearer":
        page = client.get("/login").get_data(as_text=True) if role == "anonymous" else \
            client.get("/documents/none").get_data(as_text=True)
        found = re.search(r'"X-CSRFToken": "([^"]+)"', page) or re.search(r'name="csrf_token" value="([^"]+)"', page)
        client.csrf = found.group(1) if found else None
    return client


def _routes(app):
    found = []
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        if rule.endpoint in EXCLUDED_ENDPOINTS:
            continue
        for method in sorted(rule.methods - {"HEAD", "OPTIONS"}):
            found.append((rule, method))
    return found


def _row_counts(app) -> dict:
    from leadflow.extensions import db
    with app.app_context():
        query = "SELECT " + ", ".join(f"(SELECT count(*) FROM {t})" for t in GUARDED_TABLES)
        values = db.session.execute(db.text(query)).one()
        db.session.remove()
    return dict(zip(GUARDED_TABLES, values))


@st.composite
def hostile_requests(draw, rule, world):
    """One request to `rule`: one attack's values in some fields, plausible values in others."""
    attack = ATTACKS[draw(st.sampled_from(sorted(ATTACKS)), label="attack")]
    value = st.one_of(st.sampled_from(attack), st.sampled_from(PLAUSIBLE))
    path = rule.rule
    for name in rule.arguments:
        if name == "document_id":
            candidate = st.one_of(st.sampled_from(world.documents), st.sampled_from(attack + ["F" * 32, "f" * 33]))
        elif name == "workspace_id":
            candidate = st.one_of(st.sampled_from(world.workspaces), st.sampled_from(HUGE))
        else:
            candidate = value
        path = re.sub(rf"<(?:[^:>]+:)?{name}>", quote(str(draw(candidate)), safe="") or "%20", path)
    names = draw(st.lists(st.sampled_from(FIELD_NAMES), min_size=1, max_size=len(FIELD_NAMES), unique=True))
    pairs = [(name, draw(value)) for name in names]
    headers = {"Accept": draw(st.sampled_from(ACCEPTS))}
    if rule.endpoint == "callbacks.receive":
        for header in ("webhook-id", "webhook-timestamp", "webhook-signature"):
            raw = draw(st.one_of(st.sampled_from(HOSTILE), st.just("9" * 5000), st.just("v1," + "A" * 44)))
            # What a header can carry over HTTP: bytes as latin-1, no line breaks.
            headers[header] = raw.replace("\r", "").replace("\n", "").encode().decode("latin-1")
    request = {"path": path, "headers": headers}
    body = draw(st.sampled_from(["query", "form", "multipart", "json", "raw_json"]), label="body")
    if body == "query":
        request["query_string"] = pairs
    elif body == "form":
        request["data"] = MultiDict(pairs)
    elif body == "multipart":
        files = [("file", (BytesIO(draw(st.sampled_from(FILES))), draw(value) or "x"))
                 for _ in range(draw(st.integers(0, 2)))]
        request["data"] = MultiDict(pairs + files)
        request["content_type"] = "multipart/form-data"
    elif body == "json":
        odd = st.one_of(st.sampled_from(JSON_ODD), value)
        request["json"] = draw(st.one_of(st.just({name: draw(odd) for name in names}), odd))
    else:
        request["data"] = draw(st.sampled_from(RAW_JSON))
        request["content_type"] = "application/json"
    return request


def _admitted_roles(world, rule, method) -> list[str]:
    """The roles a route lets past sign-in and its role check, so that examples are spent where the
    route reads its input. Anonymous is always driven (sign-in pages and callbacks take it)."""
    path = re.sub(r"<int:workspace_id>", str(world.workspaces[0]), rule.rule)
    path = re.sub(r"<document_id>", world.documents[0], path)
    path = re.sub(r"<[^>]+>", "x", path)
    admitted = ["anonymous"]
    for role in ROLES[1:]:
        client = world.clients[role]
        headers = {"X-CSRFToken": client.csrf} if client.csrf else {}
        status = client.open(path, method=method, headers=headers, json={}).status_code
        if status not in (401, 403, 302):
            admitted.append(role)
    return admitted


def test_no_route_answers_a_5xx_or_writes_when_it_refuses_hostile_input(hostile):
    app = hostile.app
    routes = _routes(app)
    assert len(routes) > 40, "the url map was not read"
    for rule, method in routes:
        roles = _admitted_roles(hostile, rule, method)

        @settings(max_examples=EXAMPLES_PER_ROUTE, deadline=None, derandomize=True, database=None,
                  suppress_health_check=list(HealthCheck))
        @given(role=st.sampled_from(roles), request=hostile_requests(rule, hostile))
        def drive(role, request):
            client = hostile.clients[role]
            if client.csrf and method != "GET":
                request["headers"]["X-CSRFToken"] = client.csrf
            before = _row_counts(app)
            response = client.open(method=method, **request)
            status = response.status_code
            label = f"{method} {request['path'][:200]} as {role}"
            assert status < 500, f"{label} answered {status}: {response.get_data(as_text=True)[:800]}"
            if 400 <= status < 500:
                after = _row_counts(app)
                changed = {t: (before[t], after[t]) for t in GUARDED_TABLES if before[t] != after[t]}
                assert not changed, f"{label} answered {status} and wrote {changed}"
            if rule.endpoint.startswith("auth.") and role in SESSION_ROLES:
                hostile.clients[role] = _client(app, hostile, role)   # signing out ends every session of theirs
        drive()
        if rule.endpoint.startswith("auth."):
            hostile.clients.update({role: _client(app, hostile, role) for role in SESSION_ROLES})


def _cursor_of(raw: str) -> str:
    return _b64(raw.encode())


# The probe's findings (issue 10), each as it was sent: (role, method, path, request keywords, answers allowed).
# "{doc}" is a document of the signed-in brokerage, "{case}" its case.
FOUND = [
    ("advisor", "GET", f"/workspaces/{10 ** 30}", {}, {404}),
    ("advisor", "GET", f"/workspaces/{2 ** 63}/checklist", {}, {404}),
    ("advisor", "GET", f"/dashboard?workspace={10 ** 30}", {}, {200}),   # dropped, and said so
    ("advisor", "GET", f"/dashboard?client={10 ** 30}&cursor={_cursor_of(f'{10 ** 30}|{10 ** 30}')}", {}, {200}),
    ("advisor", "GET", f"/partials/documents?view=workspace&workspace={10 ** 30}", {}, {200}),
    ("advisor", "GET", f"/api/documents?workspace_id={10 ** 30}", {}, {400}),
    ("advisor", "GET", f"/api/documents?cursor={_cursor_of('2026-11-15T12:00:00|a' + chr(0) + 'b')}", {}, {400}),
    ("advisor", "GET", "/api/documents/{doc}/content?version=" + str(10 ** 30), {}, {400}),
    ("advisor", "GET", "/api/documents/{doc}/schema?version=-1", {}, {400}),
    ("advisor", "GET", "/documents/{doc}/diff?from=1&to=" + str(10 ** 30), {}, {400}),
    ("advisor", "GET", "/documents/" + "a" * 5000, {}, {404}),
    ("advisor", "GET", "/api/documents/%00", {}, {404}),
    ("client", "POST", "/api/documents/uploads", {"json": {"filename": "a.pdf", "content_type": "application/pdf",
                                                           "size": 0}}, {400}),
    ("client", "POST", "/api/documents/uploads", {"json": {"filename": "a.pdf", "content_type": "application/pdf",
                                                           "size": -5}}, {400}),
    ("client", "POST", "/api/documents/uploads", {"json": {"filename": "a.pdf", "content_type": "application/pdf",
                                                           "size": 100, "title": 5}}, {400}),
    ("client", "POST", "/api/documents/uploads", {"json": {"filename": "a.pdf", "content_type": "application/pdf",
                                                           "size": 100, "workspace_id": 10 ** 30}}, {400}),
    ("client", "POST", "/api/documents/uploads", {"json": ["filename", "a.pdf"]}, {400}),
    ("client", "POST", "/api/documents/upload", {"data": {"file": b"%PDF-1.4",
                                                          "workspace_id": str(10 ** 30)}}, {400}),
    ("client", "POST", "/portal/upload", {"data": {"file": b"%PDF-1.4",
                                                   "workspace_id": str(10 ** 30)}}, {400}),
    ("client", "POST", "/portal/upload", {"data": {"file": b"%PDF-1.4", "kind": "pay\x00slip"}},
     {400}),
    ("advisor", "POST", "/api/documents/{doc}/shares", {"json": {"email": "x\x00@a.example"}}, {400}),
    ("anonymous", "POST", "/login?next=/%0d%0a/evil.example", {"data": {"email": "a\x00@b", "password": "x"}},
     {400, 401, 429}),
    ("platform_admin", "POST", "/review/%00/decide", {"data": {"action": "reject", "reason": "x"}}, {404}),
    # The case file, the lender package and the end of a case (issue 13): "{other_case}" is another
    # brokerage's case, "{client}" the signed-in brokerage's client, "{advisor}" its advisor,
    # "{other_advisor}" another brokerage's advisor.
    ("advisor", "GET", f"/workspaces/{10 ** 30}/checks", {}, {404}),
    ("advisor", "GET", "/workspaces/{other_case}/checks", {}, {404}),
    ("client", "GET", "/workspaces/{case}/checks", {}, {403}),
    ("advisor", "POST", "/workspaces/{case}/payout-date", {"data": {"planned_payout_date": "2026-13-45"}}, {400}),
    ("advisor", "POST", "/workspaces/{case}/payout-date", {"data": {"planned_payout_date": "99999-01-01"}}, {400}),
    ("advisor", "POST", "/workspaces/{case}/payout-date", {"data": {"planned_payout_date": "2027-01-01\x00"}}, {400}),
    ("advisor", "POST", "/workspaces/{case}/payout-date", {"data": {"planned_payout_date": "9" * 20_000}}, {400}),
    ("advisor", "POST", "/workspaces/{other_case}/payout-date", {"data": {"planned_payout_date": "2027-01-01"}},
     {404}),
    ("client", "POST", "/workspaces/{case}/payout-date", {"data": {"planned_payout_date": "2027-01-01"}}, {403}),
    ("advisor", "GET", f"/workspaces/{10 ** 30}/package", {}, {404}),
    ("advisor", "POST", f"/workspaces/{2 ** 63}/package", {}, {404}),
    ("advisor", "POST", "/workspaces/{other_case}/package", {}, {404}),
    ("client", "POST", "/workspaces/{case}/package", {}, {403}),
    ("platform_admin", "POST", "/workspaces/{case}/package", {}, {403}),
    ("advisor", "POST", "/workspaces/{case}/package", {}, {409}),   # the seeded case is not complete
    ("advisor", "GET", "/packages/" + "a" * 32 + "/download", {}, {404}),
    ("advisor", "GET", "/packages/%00/download", {}, {404}),
    ("client", "GET", "/packages/" + "a" * 32 + "/download", {}, {403, 404}),
    ("advisor", "POST", f"/workspaces/{10 ** 30}/close", {}, {404}),
    ("advisor", "POST", "/workspaces/{other_case}/close", {}, {404}),
    ("client", "POST", "/workspaces/{case}/close", {}, {403}),
    ("advisor", "GET", f"/workspaces/{2 ** 63}/ending", {}, {404}),
    ("advisor", "POST", f"/workspaces/{10 ** 30}/reopen", {}, {404}),
    ("brokerage_admin", "POST", f"/clients/{10 ** 30}/erase", {"data": {"confirm_email": "x"}}, {404}),
    ("brokerage_admin", "POST", "/clients/{client}/erase", {"data": {"confirm_email": "wrong@hostile.example"}},
     {400}),
    ("brokerage_admin", "POST", "/clients/{client}/erase", {"data": {"confirm_email": "\x00" * 5000}}, {400}),
    ("brokerage_admin", "POST", "/clients/{advisor}/erase", {"data": {"confirm_email": "advisor@hostile.example"}},
     {404}),
    ("brokerage_admin", "POST", "/clients/{other_advisor}/erase",
     {"data": {"confirm_email": "other_advisor@hostile.example"}}, {404}),
    ("advisor", "POST", "/clients/{client}/erase", {"data": {"confirm_email": "client@hostile.example"}}, {403}),
    ("platform_admin", "POST", "/clients/{client}/erase", {"data": {"confirm_email": "client@hostile.example"}},
     {403}),
    ("anonymous", "GET", "/notifications/unsubscribe/" + "A" * 5000, {}, {404}),
    ("anonymous", "POST", "/notifications/unsubscribe/%00", {}, {404}),
    ("anonymous", "GET", "/notifications/unsubscribe/WzEsImFkdmlzb3JfZGlnZXN0Il0.forged", {}, {404}),
    ("client", "POST", "/notifications/settings", {"data": {"kind": "advisor_digest"}}, {400}),
    ("client", "POST", "/notifications/settings", {"data": {"kind": "\x00" * 300}}, {400}),
]


@pytest.mark.parametrize("role, method, path, request_kwargs, allowed", FOUND,
                         ids=[f"{m} {p[:60]}" for _, m, p, _, _ in FOUND])
def test_each_input_the_probe_found_is_a_4xx_that_writes_nothing(hostile, role, method, path, request_kwargs,
                                                                 allowed):
    client = hostile.clients[role]
    headers = {"X-CSRFToken": client.csrf} if client.csrf and method != "GET" else {}
    path = path.format(doc=hostile.documents[0], case=hostile.workspaces[0], other_case=hostile.workspaces[1],
                       client=hostile.users["client"], advisor=hostile.users["advisor"],
                       other_advisor=hostile.users["other_advisor"])
    if "data" in request_kwargs and "file" in request_kwargs["data"]:
        request_kwargs = {"data": dict(request_kwargs["data"], file=(BytesIO(request_kwargs["data"]["file"]), "a.pdf"))}
    before = _row_counts(hostile.app)
    response = client.open(path, method=method, headers=headers, **request_kwargs)
    assert response.status_code in allowed, response.get_data(as_text=True)[:500]
    assert _row_counts(hostile.app) == before
