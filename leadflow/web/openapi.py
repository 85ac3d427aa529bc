"""The JSON API's OpenAPI 3.1 description, built by apispec from the app's own routes: each
handler's docstring carries its operations as YAML after a `---` line, so the description sits
beside the code that answers, and a JSON route without one is a gap that
tests/integration/test_openapi.py names. Served at /api/openapi.json, and read by people at
/api/docs (our own template: the page policy allows no CDN's scripts or styles)."""
import re

from apispec import APISpec
from apispec.yaml_utils import load_operations_from_docstring
from flask import Blueprint, current_app, jsonify, render_template
from markupsafe import Markup, escape

from leadflow.web import openapi_components as components

bp = Blueprint("openapi", __name__, url_prefix="/api")
EXTENSION = "leadflow_openapi"
# JSON routes outside /api/: the signed storage URLs a direct upload is sent to, and the probes.
JSON_OUTSIDE_API = {"files.download", "files.upload", "health.healthz", "health.readyz"}
METHODS = ("get", "put", "post", "patch", "delete")
_VARIABLE = re.compile(r"<(?:[^:<>]+:)?([^<>]+)>")
_CODE_SPAN = re.compile(r"`([^`]+)`")


def must_be_described(rule) -> bool:
    return rule.rule.startswith("/api/") or rule.endpoint in JSON_OUTSIDE_API


def openapi_path(rule) -> str:
    """`/api/documents/<document_id>` as OpenAPI writes it: `/api/documents/{document_id}`."""
    return _VARIABLE.sub(r"{\1}", rule.rule)


def build(app) -> dict:
    spec = APISpec(
        title="LeadFlow API", version="1", openapi_version="3.1.0",
        info={"description": "Documents of a mortgage case: upload, watch them be checked, read what was "
                             "read, correct and share. Errors are `{\"error\": {\"code\", \"message\"}}`; "
                             "another tenant's document is a 404."},
        security=[{"bearer": []}, {"session": []}],
        webhooks=components.WEBHOOKS,
    )
    for name, schema in components.SCHEMAS.items():
        spec.components.schema(name, schema)
    for name, (location, parameter) in components.PARAMETERS.items():
        spec.components.parameter(name, location, parameter)
    for name, response in components.RESPONSES.items():
        spec.components.response(name, response)
    for name, scheme in components.SECURITY_SCHEMES.items():
        spec.components.security_scheme(name, scheme)
    for rule in sorted(app.url_map.iter_rules(), key=lambda r: r.rule):
        operations = described_operations(app, rule)
        if operations:
            spec.path(path=openapi_path(rule), operations=operations)
    return spec.to_dict()


def described_operations(app, rule) -> dict:
    """The operations the rule's handler describes, for the methods the rule answers."""
    view = app.view_functions.get(rule.endpoint)
    described = load_operations_from_docstring(view.__doc__ or "") if view else {}
    operations = {}
    for method in METHODS:
        if method.upper() in rule.methods and method in described:
            operation = dict(described[method])
            operation.setdefault("operationId", f"{rule.endpoint}.{method}")
            if operation.get("security") != []:
                # Every authenticated operation may be asked without a way in.
                operation["responses"] = {**operation["responses"]}
                operation["responses"].setdefault(401, "Unauthenticated")
            operations[method] = operation
    return operations


def description(app) -> dict:
    if EXTENSION not in app.extensions:
        app.extensions[EXTENSION] = build(app)
    return app.extensions[EXTENSION]


@bp.get("/openapi.json")
def document():
    """This description.
    ---
    get:
      tags: [reference]
      summary: The OpenAPI 3.1 description of this API
      security: []
      responses:
        200: {description: The description., content: {application/json: {schema: {type: object}}}}
    """
    return jsonify(description(current_app))


@bp.get("/docs")
def reference():
    """The description as a page to read.
    ---
    get:
      tags: [reference]
      summary: The API reference, a page for people
      security: []
      responses:
        200: {description: The page., content: {text/html: {schema: {type: string}}}}
    """
    spec = description(current_app)
    return render_template("api/docs.html", spec=spec, operations=_operations(spec),
                           schemas=spec["components"]["schemas"])


def _operations(spec: dict) -> list[dict]:
    """Every operation in path order, its $refs named for the page."""
    rows = []
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                rows.append({"path": path, "method": method.upper(), **item[method]})
    return rows


@bp.app_template_filter("code_spans")
def code_spans(text) -> Markup:
    """The descriptions' `code` (Markdown's one mark they use) as <code>, everything else escaped."""
    return Markup(_CODE_SPAN.sub(r"<code>\1</code>", str(escape(text or ""))))
