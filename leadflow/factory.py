"""The app factory: configuration, extensions, adapters, blueprints. Starts no threads but the
realtime listener; the adapters come from leadflow.bootstrap, and the embedded worker and
scheduler start in tasks.embedded."""
import logging

from flask import Flask, jsonify, render_template, request

from leadflow import config as config_module
from leadflow import effects
from leadflow.bootstrap import bootstrap
from leadflow.extensions import csrf, db, limiter, login_manager, migrate, sock


def create_app(overrides: dict | None = None, *, listen: bool = True) -> Flask:
    app = Flask("leadflow", root_path=str(config_module.ROOT), instance_path=str(config_module.INSTANCE_DIR),
                template_folder="templates", static_folder="static")
    app.config.update(config_module.load())
    app.config.update(overrides or {})
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = config_module.engine_options(
        app.config["SQLALCHEMY_DATABASE_URI"], app.config.get("SQLALCHEMY_ENGINE_OPTIONS") or {},
        app.config["DATABASE_PREPARE_THRESHOLD"])
    app.json.sort_keys = False  # a customised output shape keeps the order it was asked in
    if app.config.get("TRUSTED_PROXY_COUNT"):
        from werkzeug.middleware.proxy_fix import ProxyFix
        hops = app.config["TRUSTED_PROXY_COUNT"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    logging.getLogger("apscheduler").setLevel(logging.WARNING)

    if app.config.get("CLOCK_OFFSET_SECONDS"):
        _offset_clock(app.config["CLOCK_OFFSET_SECONDS"])

    db.init_app(app)
    _set_resemblance_threshold(app)
    migrate.init_app(app, db, directory=str(config_module.ROOT / "migrations"), include_object=_tracked_by_models)
    sock.init_app(app)
    csrf.init_app(app)
    login_manager.init_app(app)
    login_manager.login_view = "auth.login"
    limiter.init_app(app)
    from leadflow.web.sessions import CookieSessions
    app.session_interface = CookieSessions()
    from flask_babel import Babel
    from leadflow.web.i18n import select_locale
    Babel(app, locale_selector=select_locale)  # catalogs in translations/ beside templates/ (app root)

    from leadflow.realtime.hub import Hub

    ports = bootstrap(app.config, app)
    ports.hub = Hub(app, app.config["WS_MAX_SOCKETS_PER_USER"])
    ports.bus.subscribe(ports.hub.on_event)
    if listen:
        ports.bus.start()
    app.extensions["leadflow"] = ports
    app.extensions["leadflow_storage"] = ports.storage
    effects.register()

    from leadflow.web import register_blueprints
    from leadflow.web.auth import protect_from_csrf
    register_blueprints(app)
    if only_routes_have_limits(limiter.limit_manager):
        # Flask-Limiter checks every request in a hook of its own, though only the routes it
        # decorates (sign-in) have limits, and a decorated route checks its own when it is called:
        # the hook was about a twentieth of a callback's or an upload's CPU for nothing (py-spy).
        app.before_request_funcs[None].remove(limiter._check_request_limit)
    app.before_request(protect_from_csrf)
    from leadflow.web import security
    security.init_app(app)
    _register_error_pages(app)

    from leadflow.cli import cli
    app.cli.add_command(cli)

    @app.teardown_appcontext
    def _drop_unsent_events(exc):
        # Only a session the request made: asking the scoped session makes one, which most
        # callbacks and health checks never need.
        if db.session.registry.has():
            db.session.info.clear()

    return app


def only_routes_have_limits(manager) -> bool:
    """True when Flask-Limiter knows no limit but those decorating routes: no default, application
    or blueprint limit, which only its per-request hook would check."""
    return not (manager._default_limits or manager._application_limits or manager._blueprint_limits)


# How alike a word of a search and a word of a client's name must be to count as a misspelling
# (pg_trgm's word similarity: the share of the search word's trigrams found; services/text_search.resembles).
# Two letters swapped in the middle of a word keep few: "Andresen" 0.38 of "Andersen", "Duobis" 0.29
# of "Dubois"; pg_trgm's default is 0.6. Each word of the search must resemble one of the name, so a
# low threshold per word still finds Jonas Andersen for "Jonas Andresen" and not Sofia Andersen.
RESEMBLANCE_THRESHOLD = 0.25


def _set_resemblance_threshold(app: Flask) -> None:
    """Set pg_trgm's threshold on each new PostgreSQL connection (the trigram index reads it)."""
    if not app.config["SQLALCHEMY_DATABASE_URI"].startswith("postgresql"):
        return
    from sqlalchemy import event

    with app.app_context():
        @event.listens_for(db.engine, "connect")
        def _threshold(dbapi_connection, record):
            with dbapi_connection.cursor() as cursor:
                cursor.execute(f"SET pg_trgm.word_similarity_threshold = {RESEMBLANCE_THRESHOLD}")
            dbapi_connection.commit()


# Made by migrations on PostgreSQL only (pg_trgm and partial expression indexes); not part of the models' metadata.
_MIGRATION_ONLY_INDEXES = {"ix_documents_title_trgm", "ix_documents_filename_trgm", "ix_users_name_trgm",
                           "ix_users_brokerage_name_trgm", "ix_documents_brokerage_filename_trgm",
                           # PostgreSQL's partial expression indexes of what the daily sweeps find due
                           "ix_documents_stale_check", "ix_workspaces_reminders_due"}


def _tracked_by_models(obj, name, type_, reflected, compare_to) -> bool:
    return not (type_ == "index" and name in _MIGRATION_ONLY_INDEXES)


def N_(msgid: str) -> str:
    """Marks a message id for `pybabel extract`; the error page translates it."""
    return msgid


# An error page's heading for the answers a person meets (Werkzeug's own names are English).
HTTP_TITLES = {400: N_("Bad Request"), 401: N_("Unauthorized"), 403: N_("Forbidden"), 404: N_("Not Found"),
               405: N_("Method Not Allowed"), 413: N_("Request Entity Too Large"), 429: N_("Too Many Requests")}


def _register_error_pages(app: Flask) -> None:
    from flask_wtf.csrf import CSRFError
    from werkzeug.exceptions import HTTPException

    from flask_babel import gettext

    from leadflow.errors import LeadflowError

    def respond(status: int, code: str, title: str, message: str):
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return jsonify(error={"code": code, "message": message}), status
        # A page says it in the reader's language; the API keeps the English a program logs.
        return render_template("errors/error.html", title=gettext(title), message=gettext(message)), status

    @app.errorhandler(CSRFError)
    def csrf_error(error):
        return respond(400, "csrf_failed", N_("Please try again"),
                       N_("This form expired or was sent from elsewhere. Reload the page and try again."))

    @app.errorhandler(LeadflowError)
    def leadflow_error(error):
        return respond(error.status, error.code, N_("Something is not right"), error.message)

    @app.errorhandler(HTTPException)
    def http_error(error):
        code = {404: "not_found", 403: "forbidden", 405: "method_not_allowed", 413: "file_too_large",
                401: "unauthenticated", 429: "too_many_requests"}.get(error.code, "http_error")
        message = {404: N_("There is nothing here, or nothing you may see."),
                   413: N_("The file is larger than we accept.")}.get(error.code, error.description)
        return respond(error.code, code, HTTP_TITLES.get(error.code, error.name), message)


def _offset_clock(seconds: float) -> None:
    """LEADFLOW_CLOCK_OFFSET_SECONDS: this process's clock runs that far from the real time. An
    offset rather than a moment, so that processes started at different times agree on now."""
    from datetime import timedelta
    from leadflow import clock
    clock.reset()
    clock.shift(timedelta(seconds=seconds))
    logging.getLogger(__name__).warning("the clock runs %+.0f s from the real time for every date rule", seconds)
