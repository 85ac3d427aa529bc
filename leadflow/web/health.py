"""Liveness, readiness and a few counters for operators."""
from flask import Blueprint, Response, jsonify
from sqlalchemy import func, select, text

from leadflow.extensions import db
from leadflow.models import Document

bp = Blueprint("health", __name__)


@bp.get("/healthz")
def healthz():
    return jsonify(status="ok")


@bp.get("/readyz")
def readyz():
    try:
        db.session.execute(text("select 1"))
    except Exception:
        db.session.rollback()
        return jsonify(status="unavailable", database="down"), 503
    return jsonify(status="ok", database="up")


@bp.get("/metrics")
def metrics():
    counts = db.session.execute(select(Document.status, func.count()).group_by(Document.status)).all()
    lines = ["# TYPE leadflow_documents gauge"]
    lines += [f'leadflow_documents{{status="{status}"}} {count}' for status, count in counts]
    return Response("\n".join(lines) + "\n", mimetype="text/plain; version=0.0.4")
