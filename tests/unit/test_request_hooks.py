"""What every request pays before its view: hooks that do nothing for it are not run, and the
browser's session still works as Flask's own."""
from types import SimpleNamespace

from flask import Flask, session

from leadflow.factory import only_routes_have_limits
from leadflow.web.sessions import CookieSessions


def limits(default=(), application=(), blueprint=None):
    return SimpleNamespace(_default_limits=list(default), _application_limits=list(application),
                           _blueprint_limits=blueprint or {})


def test_the_limiters_hook_is_dropped_only_when_routes_alone_declare_limits():
    assert only_routes_have_limits(limits())
    # Each of these is checked by the per-request hook alone: dropping it would drop the limit.
    assert not only_routes_have_limits(limits(default=["100 per minute"]))
    assert not only_routes_have_limits(limits(application=["1000 per minute"]))
    assert not only_routes_have_limits(limits(blueprint={"api": ["10 per second"]}))


def cookie_app() -> Flask:
    app = Flask(__name__)
    app.secret_key = "test-secret"
    app.session_interface = CookieSessions()

    @app.post("/remember/<word>")
    def remember(word):
        session["word"] = word
        return "ok"

    @app.get("/word")
    def word():
        return session.get("word", "-")

    return app


def test_a_session_set_by_one_request_is_read_by_the_next_and_a_forged_cookie_is_an_empty_session():
    app = cookie_app()
    browser = app.test_client()
    assert browser.get("/word").text == "-"  # no cookie yet: an empty session, nothing set
    assert browser.get("/word").headers.get("Set-Cookie") is None
    browser.post("/remember/mortgage")
    assert browser.get("/word").text == "mortgage"

    stranger = app.test_client()
    stranger.set_cookie("session", browser.get_cookie("session").value[:-2] + "xx")
    assert stranger.get("/word").text == "-"
