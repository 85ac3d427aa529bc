"""The JSON API's description (/api/openapi.json) against the app it describes: valid OpenAPI 3.1,
naming every JSON route the app answers, and true of the app. Schemathesis makes requests from
the description (valid and invalid ones) for every operation, sends them with a bearer token to
the app on a migrated PostgreSQL database, and follows the description's links from one answer
to the next: no answer may be a server error or break the description."""
import io
import json

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openapi_spec_validator import validate
from PIL import Image
from reportlab.pdfgen import canvas
from schemathesis.checks import not_a_server_error
from schemathesis.generation.modes import GenerationMode
from schemathesis.specs.openapi.checks import (content_type_conformance, response_schema_conformance,
                                               status_code_conformance)

from leadflow.web import openapi
from tests.plugins.postgres import migrated_app

# Bounded so the whole file runs in well under a minute on two busy cores.
EXAMPLES_PER_OPERATION = 8
STATEFUL_SCENARIOS = 8
STATEFUL_STEPS = 6
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


def _pdf(number: int = 0) -> bytes:
    out = io.BytesIO()
    page = canvas.Canvas(out)
    page.drawString(72, 720, f"Gehaltsabrechnung {number}")
    page.save()
    return out.getvalue()


def _png(shade: int = 0) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (8, 8), (shade, shade, shade)).save(out, "PNG")
    return out.getvalue()


# The upload's file part: real files of the types the description names, each one different, so
# that an upload can succeed and its links be followed (bytes made up at random are only ever refused).
schemathesis.openapi.media_type("application/pdf", st.integers(0, 10 ** 9).map(_pdf))
schemathesis.openapi.media_type("image/png", st.integers(0, 255).map(_png))


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    """The app on a migrated database of its own, a brokerage with a case, and its admin's token."""
    with migrated_app("postgresql", tmp_path_factory.mktemp("openapi"), "openapi") as app:
        with app.app_context():
            token = _brokerage_with_admin_token()
        # Outside the app context: each request gets one (and its `g`) of its own, as when served.
        yield app, token


def _brokerage_with_admin_token() -> str:
    from leadflow.billing import service as billing
    from leadflow.extensions import db
    from leadflow.models import Brokerage, User, Workspace
    from leadflow.web.auth import create_token

    brokerage = Brokerage(name="Alpha Hypotheken")
    db.session.add(brokerage)
    db.session.flush()
    billing.grant(db.session, brokerage.id, 1000)
    admin = User(email="admin@a.example", name="Admin A", role="brokerage_admin", brokerage_id=brokerage.id)
    admin.set_password("correct horse battery")
    db.session.add_all([admin, Workspace(brokerage_id=brokerage.id, name="Case of client A")])
    db.session.commit()
    token = create_token(admin)
    db.session.remove()
    return token


@pytest.fixture(scope="module")
def api_schema(api):
    app, token = api
    config = schemathesis.Config.from_dict({
        "seed": 41, "headers": {"Authorization": f"Bearer {token}"},
        "generation": {"with-security-parameters": False},
        # The description's own links only: links guessed from names would make the listing a
        # starting point and leave out the uploads (their workspace_id reads as an unmade resource).
        "phases": {"stateful": {"max-steps": STATEFUL_STEPS, "inference": {"algorithms": []}}}})
    return schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config)


def test_the_description_is_valid_openapi_3_1(api):
    app, _token = api
    described = app.test_client().get("/api/openapi.json").get_json()
    validate(described)
    assert described["openapi"].startswith("3.1")
    assert {"bearer", "session"} <= set(described["components"]["securitySchemes"])
    assert "extractionResult" in described["webhooks"]
    assert described["components"]["schemas"]["Error"]["required"] == ["error"]


def test_every_json_route_is_described(api):
    app, _token = api
    paths = app.test_client().get("/api/openapi.json").get_json()["paths"]
    json_routes = [rule for rule in app.url_map.iter_rules()
                   if rule.rule.startswith("/api/") or openapi.must_be_described(rule)]
    assert {"callbacks.receive", "files.upload", "health.readyz"} <= {rule.endpoint for rule in json_routes}
    missing = [f"{method} {rule.rule}" for rule in json_routes
               for method in sorted(rule.methods - {"HEAD", "OPTIONS"})
               if method.lower() not in paths.get(openapi.openapi_path(rule), {})]
    assert not missing, f"JSON routes without a description (a YAML docstring on the handler): {missing}"
    assert {"/api/documents/upload", "/api/extraction/callbacks", "/api/credits"} <= set(paths)


def test_an_undescribed_json_route_is_noticed(api):
    app, _token = api
    from flask import Flask
    other = Flask(__name__)
    other.add_url_rule("/api/undescribed", "undescribed", lambda: "{}", methods=["POST"])
    rule = next(r for r in other.url_map.iter_rules() if r.endpoint == "undescribed")
    assert openapi.must_be_described(rule) and openapi.described_operations(other, rule) == {}


def test_the_reference_page_lists_every_operation_under_the_page_policy(api):
    app, _token = api
    page = app.test_client().get("/api/docs")
    assert page.status_code == 200 and page.mimetype == "text/html"
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    html = page.get_data(as_text=True)
    for path, item in app.test_client().get("/api/openapi.json").get_json()["paths"].items():
        for method in item:
            assert f"{method.upper()} {path}" in html
    assert 'id="schema-Document"' in html and "https://" not in html.split("<main", 1)[0]


def test_every_operation_keeps_to_the_description(api, api_schema):
    """Valid and invalid requests for each operation; every failure of every operation is reported."""
    _app, token = api
    bearer = {"Authorization": f"Bearer {token}"}
    failures = {}
    for result in api_schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)[:2 if _negatable(operation) else 1]:
            @given(case=operation.as_strategy(mode, headers=bearer))
            @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            def run(case):
                case.call_and_validate(checks=CHECKS)

            try:
                run()
            except Exception as failure:  # noqa: BLE001 - each operation's failure is reported, not only the first
                failures[f"{operation.label} ({mode.value})"] = failure
    assert not failures, "\n\n".join(f"{label}:\n{failure}" for label, failure in failures.items())


def test_a_cases_applicants_keep_to_the_description(api, api_schema):
    """The applicants' operations on a case the caller works on (random ids only ever find none):
    valid and invalid requests, each answer as described, and the valid ones reach a success."""
    app, token = api
    from leadflow.extensions import db
    from leadflow.models import Workspace
    with app.app_context():
        case_id = db.session.query(Workspace.id).filter_by(name="Case of client A").scalar()
        db.session.remove()
    bearer, answered, failures = {"Authorization": f"Bearer {token}"}, set(), {}
    # Added before it is listed, corrected or removed: each of those then has someone to work on.
    order = {"POST": 0, "GET": 1, "PATCH": 2, "DELETE": 3}
    operations = sorted((r.ok() for r in api_schema.get_all_operations() if "/applicants" in r.ok().path),
                        key=lambda o: order[o.method.upper()])
    assert len(operations) == 4
    for operation in operations:
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)[:2 if _negatable(operation) else 1]:
            @given(case=operation.as_strategy(mode, headers=bearer, path_parameters={"workspace_id": case_id}))
            @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, database=None, derandomize=True,
                      suppress_health_check=list(HealthCheck))
            def run(case):
                answered.add((operation.method.upper(), case.call_and_validate(checks=CHECKS).status_code))

            try:
                run()
            except Exception as failure:  # noqa: BLE001 - each operation's failure is reported
                failures[f"{operation.label} ({mode.value})"] = failure
    assert not failures, "\n\n".join(f"{label}:\n{failure}" for label, failure in failures.items())
    assert {("POST", 201), ("GET", 200), ("PATCH", 200), ("DELETE", 200)} <= answered, sorted(answered)


def _negatable(operation) -> bool:
    """A body or a query parameter to break; a path's text or a fixed header has nothing that
    does not reach the wire as a valid string again."""
    raw = operation.definition.raw
    bodies = set(raw.get("requestBody", {}).get("content", {})) - {"application/octet-stream"}
    return bool(bodies) or any(p.get("in") == "query" for p in raw.get("parameters", []))


def test_a_form_field_named_across_a_line_break_is_refused_and_writes_nothing(api):
    app, token = api
    from leadflow.extensions import db
    from leadflow.models import Document
    with app.app_context():
        before = db.session.query(Document).count()
    answer = app.test_client().post("/api/documents/upload", headers={"Authorization": f"Bearer {token}"},
                                    data={"}\nu": "x", "file": (io.BytesIO(_pdf()), "payslip.pdf")})
    assert answer.status_code == 400 and answer.get_json()["error"]["code"] == "invalid_text"
    with app.app_context():
        assert db.session.query(Document).count() == before
        db.session.remove()


def test_a_signed_callback_is_recorded_then_known_as_described(api, api_schema):
    """The one answer random requests cannot reach: a delivery signed with the shared secret."""
    app, _token = api
    from leadflow.extraction import webhooks
    operation = api_schema["/api/extraction/callbacks"]["POST"]
    payload = {"type": "job.completed", "job_id": "job-nobody-submitted",
               "data": {"document_type": "payslip", "confidence": 0.9, "pages": 1, "content": {}, "schema": {}}}
    body = json.dumps(payload).encode()
    headers = {"Content-Type": "application/json",
               **webhooks.headers_for(app.config["EXTRACTION_WEBHOOK_SECRET"], "msg_openapi_1", body)}
    client = app.test_client()
    for status in (202, 200):  # recorded, then the same delivery again: a duplicate
        answer = client.post("/api/extraction/callbacks", data=body, headers=headers)
        assert answer.status_code == status, answer.get_data(as_text=True)
        assert answer.get_json() == {"delivery_id": "msg_openapi_1", "duplicate": status == 200}
        operation.Case(body=payload, headers=headers, media_type="application/json").validate_response(
            answer, checks=CHECKS)


def test_linked_operations_keep_to_the_description(api, api_schema):
    """Scenarios along the description's links: an upload, then what its answer's id opens."""
    _app, token = api
    bearer = {"Authorization": f"Bearer {token}"}

    answered = set()

    class Scenarios(api_schema.as_state_machine()):
        def get_call_kwargs(self, case):
            return {"headers": bearer}

        def after_call(self, response, case):
            answered.add((case.operation.label, response.status_code))

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS)

    Scenarios.run(settings=settings(max_examples=STATEFUL_SCENARIOS, deadline=None, database=None, derandomize=True,
                                    suppress_health_check=list(HealthCheck), stateful_step_count=STATEFUL_STEPS))
    # The links were followed: an upload's answer opened its document for the next operation.
    assert ("POST /api/documents/upload", 201) in answered, sorted(answered)
    assert any("{document_id}" in label and status < 300 for label, status in answered), sorted(answered)
