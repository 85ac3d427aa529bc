"""Liveness and readiness, open to anyone; Prometheus metrics for operators only."""
import hmac
import ipaddress

from flask import Blueprint, Response, abort, current_app, jsonify, request
from sqlalchemy import text

from leadflow import metrics as metrics_module
from leadflow.extensions import db

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    """Liveness.
    ---
    get:
      tags: [operations]
      summary: The process answers
      security: []
      responses:
        200: {description: Alive., content: {application/json: {schema: Health}}}
    """
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz():
    """Readiness.
    ---
    get:
      tags: [operations]
      summary: The process can reach its database
      security: []
      responses:
        200: {description: Ready., content: {application/json: {schema: Health}}}
        503: {description: The database is down., content: {application/json: {schema: Health}}}
    """
    try:
        db.session.execute(text("select 1"))
    except Exception:
        db.session.rollback()
        return jsonify(status="unavailable", database="down"), 503
    return jsonify(status="ok", database="up")


@bp.get("/metrics")
def metrics():
    """With METRICS_TOKEN set, only a request bearing it; without, only this machine itself (not
    through a proxy on it): a fresh install tells the world nothing."""
    token = current_app.config.get("METRICS_TOKEN")
    if token:
        sent = request.headers.get("Authorization", "")
        if not hmac.compare_digest(sent.encode(), f"Bearer {token}".encode()):
            return Response("A metrics token is required.\n", status=401, mimetype="text/plain",
                            headers={"WWW-Authenticate": 'Bearer realm="metrics"'})
    elif not _from_this_machine():
        abort(404)
    return Response(metrics_module.render(), mimetype=None, content_type=metrics_module.CONTENT_TYPE)


def _from_this_machine() -> bool:
    if request.headers.get("X-Forwarded-For") or request.headers.get("Forwarded"):
        return False  # relayed by a proxy: the loopback peer is not the asker
    try:
        return ipaddress.ip_address(request.remote_addr or "").is_loopback
    except ValueError:
        return False
