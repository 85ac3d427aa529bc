"""Sign-in: browser sessions with CSRF, bearer tokens for the JSON API, roles checked server-side.

Sign-in is limited per account and per address (failed attempts only), costs the same work for an
unknown email as for a known one, and a session ends for good on sign-out or a new password.
"""
import functools
import hashlib
import secrets
import unicodedata
from urllib.parse import urlsplit

from flask import (Blueprint, abort, current_app, flash, g, jsonify, redirect, render_template, request, session,
                   url_for)
from flask_babel import gettext
from flask_limiter import RateLimitExceeded
from flask_limiter.util import get_remote_address
from flask_login import current_user, login_required, login_user, logout_user
from limits import parse as parse_limit
from sqlalchemy import bindparam, select, update
from werkzeug.security import check_password_hash, generate_password_hash

from leadflow.domain.audience import Role
from leadflow.extensions import csrf, db, limiter, login_manager
from leadflow.models import ApiToken, User

bp = Blueprint("auth", __name__)

# Endpoints that authenticate otherwise (a webhook signature, a signed storage URL).
# notifications.unsubscribe: a mail client's one-click POST; its signed token is the proof.
CSRF_EXEMPT_ENDPOINTS = {"callbacks.receive", "files.upload", "bench.signed_noop", "notifications.unsubscribe"}
# The user's session version as it was at sign-in; a session without one predates session
# versions and counts as version 0, so it ends at the user's next sign-out or new password.
SESSION_VERSION = "session_version"


@login_manager.user_loader
def load_user(user_id: str):
    user = db.session.get(User, int(user_id))
    if user is None or session.get(SESSION_VERSION, 0) != user.session_version:
        return None
    return user


@login_manager.request_loader
def load_user_from_bearer(req):
    user = bearer_user()
    if user is not None:
        g.bearer_authenticated = True
    return user


def bearer_user() -> User | None:
    """The user whose API token this request carries, once per request; None for no or an unknown token."""
    if "bearer_user" not in g:
        header = request.headers.get("Authorization", "")
        user = None
        if header.startswith("Bearer "):
            token = header[len("Bearer "):].strip()
            user = db.session.scalar(_USER_BY_TOKEN, {"token_hash": hash_token(token)})
        g.bearer_user = user
    return g.bearer_user


# Built once: every API call asks it, and building the statement cost about as much as running it.
_USER_BY_TOKEN = select(User).join(ApiToken, ApiToken.user_id == User.id).where(
    ApiToken.token_hash == bindparam("token_hash"))


@login_manager.unauthorized_handler
def unauthorized():
    if wants_json():
        return jsonify(error={"code": "unauthenticated", "message": "Sign in or send a bearer token."}), 401
    return redirect(url_for("auth.login", next=request.full_path))


def protect_from_csrf():
    """CSRF on every state-changing browser request; a call with a valid bearer token carries no cookie
    to forge. Any other Authorization header is no excuse: the request is checked like a browser's."""
    if request.method in ("GET", "HEAD", "OPTIONS") or request.endpoint in CSRF_EXEMPT_ENDPOINTS:
        return
    token_user = bearer_user()
    if token_user is not None and current_user.is_authenticated and current_user.id == token_user.id:
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


def safe_next(target: str | None) -> str | None:
    """A local path to go to after sign-in, or None. An open redirect after sign-in is a phishing
    aid, and browsers read `/\\host`, `/<tab>/host` and the like as another site: anything with a
    control character or a backslash, a scheme, a host or a leading `//` is refused whole."""
    if not target or "\\" in target or any(unicodedata.category(c) == "Cc" for c in target):
        return None
    parts = urlsplit(target)
    if parts.scheme or parts.netloc or not target.startswith("/") or target.startswith("//"):
        return None
    return target


def submitted_email() -> str:
    return (request.form.get("email") or "").strip().lower()


def _account_key() -> str:
    email = submitted_email()
    return f"account:{email}" if email else ""  # no email typed: only the address limit applies


def _address_key() -> str:
    return f"address:{get_remote_address()}"


def _failed(response) -> bool:
    return response.status_code == 401


def _too_many_message() -> str:
    seconds = max(parse_limit(current_app.config["LOGIN_RATE_LIMIT_PER_ACCOUNT"]).get_expiry(),
                  parse_limit(current_app.config["LOGIN_RATE_LIMIT_PER_ADDRESS"]).get_expiry())
    minutes = max(1, -(-seconds // 60))
    return gettext("Too many failed sign-in attempts. For your security, sign-in is paused for up to %(minutes)s "
                   "minutes; please try again later.", minutes=minutes)


@bp.route("/login", methods=["GET", "POST"])
@limiter.limit(lambda: current_app.config["LOGIN_RATE_LIMIT_PER_ACCOUNT"], key_func=_account_key,
               methods=["POST"], deduct_when=_failed, scope="login-account")
@limiter.limit(lambda: current_app.config["LOGIN_RATE_LIMIT_PER_ADDRESS"], key_func=_address_key,
               methods=["POST"], deduct_when=_failed, scope="login-address")
def login():
    if request.method == "POST":
        email = submitted_email()
        password = request.form.get("password") or ""
        user = db.session.scalar(select(User).where(User.email == email))
        if user is None:
            # An unknown email costs the same hashing as a known one: answer time tells nothing.
            check_password_hash(_dummy_hash(), password)
        if user is None or not user.check_password(password):
            flash(gettext("Wrong email or password."), "error")
            return render_template("auth/login.html", email=email), 401
        login_user(user)
        session[SESSION_VERSION] = user.session_version
        return redirect(safe_next(request.args.get("next")) or home_for(user))
    if current_user.is_authenticated:
        return redirect(home_for(current_user))
    return render_template("auth/login.html", email="")


@bp.errorhandler(RateLimitExceeded)
def too_many_attempts(error):
    message = _too_many_message()
    if wants_json():
        answer = jsonify(error={"code": "too_many_attempts", "message": message})
    else:
        answer = render_template("auth/login.html", email=submitted_email(), blocked=message)
    return answer, 429, {"Retry-After": str(_retry_after(error))}


@bp.route("/logout", methods=["POST"])
def logout():
    if current_user.is_authenticated:
        end_sessions(current_user.id)
        db.session.commit()
    logout_user()
    session.pop(SESSION_VERSION, None)
    return redirect(url_for("auth.login"))


def end_sessions(user_id: int) -> None:
    """End every browser session of a user signed in so far (sign-out, a new password); the caller commits."""
    db.session.execute(update(User).where(User.id == user_id).values(session_version=User.session_version + 1))


@functools.cache
def _dummy_hash() -> str:
    # Made with the same method and cost as a real password's hash, so checking it takes as long.
    return generate_password_hash(secrets.token_urlsafe(16))


def _retry_after(error: RateLimitExceeded) -> int:
    try:
        return max(1, int(error.limit.limit.get_expiry()))
    except AttributeError:
        return 900
