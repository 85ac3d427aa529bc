"""Sign-in: browser sessions with CSRF, bearer tokens for the JSON API, roles checked server-side."""
import functools
import hashlib
import secrets

from flask import Blueprint, abort, flash, g, jsonify, redirect, render_template, request, url_for
from flask_login import current_user, login_required, login_user, logout_user
from sqlalchemy import select

from leadflow.domain.audience import Role
from leadflow.extensions import csrf, db, login_manager
from leadflow.models import ApiToken, User

bp = Blueprint("auth", __name__)

# Endpoints that authenticate otherwise (a webhook signature, a signed storage URL).
CSRF_EXEMPT_ENDPOINTS = {"callbacks.receive", "files.upload", "bench.signed_noop"}


@login_manager.user_loader
def load_user(user_id: str):
    return db.session.get(User, int(user_id))


@login_manager.request_loader
def load_user_from_bearer(req):
    header = req.headers.get("Authorization", "")
    if not header.startswith("Bearer "):
        return None
    token = header[len("Bearer "):].strip()
    row = db.session.scalar(select(ApiToken).where(ApiToken.token_hash == hash_token(token)))
    if row is None:
        return None
    g.bearer_authenticated = True
    return db.session.get(User, row.user_id)


@login_manager.unauthorized_handler
def unauthorized():
    if wants_json():
        return jsonify(error={"code": "unauthenticated", "message": "Sign in or send a bearer token."}), 401
    return redirect(url_for("auth.login", next=request.full_path))


def protect_from_csrf():
    """CSRF on every state-changing browser request; bearer-token calls carry no cookie to forge."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.endpoint in CSRF_EXEMPT_ENDPOINTS:
        return
    if request.headers.get("Authorization", "").startswith("Bearer "):
        return
    csrf.protect()


def wants_json() -> bool:
    return request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def create_token(user: User) -> str:
    """Make a bearer token; only its hash is stored, the token is shown once."""
    token = "lf_" + secrets.token_urlsafe(32)
    db.session.add(ApiToken(user_id=user.id, token_hash=hash_token(token)))
    db.session.commit()
    return token


def roles_required(*roles: Role):
    def decorator(view):
        @functools.wraps(view)
        @login_required
        def wrapped(*args, **kwargs):
            if current_user.role not in roles:
                abort(403)
            return view(*args, **kwargs)
        return wrapped
    return decorator


def home_for(user: User) -> str:
    if user.role == Role.CLIENT:
        return url_for("portal.index")
    if user.role == Role.PLATFORM_ADMIN:
        return url_for("review.index")
    return url_for("dashboard.index")


@bp.route("/login", methods=["GET", "POST"])
def login():
    if request.method == "POST":
        email = (request.form.get("email") or "").strip().lower()
        user = db.session.scalar(select(User).where(User.email == email))
        if user is None or not user.check_password(request.form.get("password") or ""):
            flash("Wrong email or password.", "error")
            return render_template("auth/login.html", email=email), 401
        login_user(user)
        target = request.args.get("next") or ""
        # Only local paths: an open redirect after sign-in is a phishing aid.
        if not target.startswith("/") or target.startswith("//"):
            target = home_for(user)
        return redirect(target)
    if current_user.is_authenticated:
        return redirect(home_for(current_user))
    return render_template("auth/login.html", email="")


@bp.route("/logout", methods=["POST"])
def logout():
    logout_user()
    return redirect(url_for("auth.login"))
