"""Sign-in like a bank's, over HTTP against the running app: after sign-in only a local path is
followed; failed attempts are limited per account and per address (the right password waits too);
an unknown email costs as long as a known one; a session ends for good on sign-out and on a new
password; cookies are Secure on an https site; only a valid bearer token skips the CSRF check."""
import re
import statistics
import time
from urllib.parse import quote

import pytest
import requests

pytestmark = pytest.mark.usefixtures("live")

CSRF = re.compile(r'name="csrf_token" value="([^"]+)"')
HOSTILE_NEXT = [
    "/\t/evil.example",          # a browser drops the tab: //evil.example
    "//evil.example",
    "/\\evil.example",           # a browser reads the backslash as a slash
    "\\\\evil.example",
    "https://evil.example/",
    "javascript:alert(1)",
    "/dashboard\r\nSet-Cookie: x=1",
    "/dashboard\n",
]


class Browser:
    """A requests session that fetches the login form's CSRF token, as a browser holds it."""

    def __init__(self, base_url: str):
        self.base_url = base_url
        self.session = requests.Session()
        self.csrf = CSRF.search(self.session.get(base_url + "/login", timeout=10).text).group(1)

    def sign_in(self, email: str, password: str, query: str = "", **headers) -> requests.Response:
        return self.session.post(f"{self.base_url}/login{query}", data={
            "email": email, "password": password, "csrf_token": self.csrf},
            headers=headers, allow_redirects=False, timeout=10)

    def get(self, path: str) -> requests.Response:
        return self.session.get(self.base_url + path, allow_redirects=False, timeout=10)

    def post(self, path: str, data: dict, **kw) -> requests.Response:
        return self.session.post(self.base_url + path, data={**data, "csrf_token": self.csrf},
                                 allow_redirects=False, timeout=10, **kw)


@pytest.fixture
def limits(app):
    """Set the sign-in limits for one test; the counters start and end empty."""
    from leadflow.extensions import limiter
    saved = {k: app.config[k] for k in ("LOGIN_RATE_LIMIT_PER_ACCOUNT", "LOGIN_RATE_LIMIT_PER_ADDRESS")}
    limiter.reset()

    def set_limits(per_account: str, per_address: str):
        app.config["LOGIN_RATE_LIMIT_PER_ACCOUNT"] = per_account
        app.config["LOGIN_RATE_LIMIT_PER_ADDRESS"] = per_address

    yield set_limits
    app.config.update(saved)
    limiter.reset()


@pytest.mark.parametrize("target", HOSTILE_NEXT)
def test_after_sign_in_a_next_that_leaves_the_site_or_carries_control_characters_lands_on_home(world, limits,
                                                                                              target):
    answer = Browser(world.url).sign_in(world.advisor_a.email, world.advisor_a.password,
                                        query="?next=" + quote(target, safe=""))
    assert answer.status_code == 302
    assert answer.headers["Location"] == "/dashboard"


def test_after_sign_in_a_local_next_is_followed(world, limits):
    answer = Browser(world.url).sign_in(world.client_a.email, world.client_a.password,
                                        query="?next=" + quote("/portal?case=1", safe=""))
    assert answer.status_code == 302 and answer.headers["Location"] == "/portal?case=1"


def test_failed_attempts_on_one_account_pause_it_even_for_the_right_password(world, limits):
    limits("3 per 15 minutes", "100 per 15 minutes")
    browser = Browser(world.url)
    for _ in range(3):
        assert browser.sign_in(world.advisor_a.email, "guess").status_code == 401

    paused = browser.sign_in(" Advisor@A.example ", world.advisor_a.password)  # the same account, as typed
    assert paused.status_code == 429
    assert "Too many failed sign-in attempts" in paused.text and 'data-testid="sign-in-paused"' in paused.text
    assert int(paused.headers["Retry-After"]) > 0
    as_json = browser.sign_in(world.advisor_a.email, world.advisor_a.password, Accept="application/json")
    assert as_json.status_code == 429 and as_json.json()["error"]["code"] == "too_many_attempts"
    assert "session" not in browser.session.cookies or browser.get("/dashboard").status_code == 302

    other = Browser(world.url).sign_in(world.advisor_b.email, world.advisor_b.password)
    assert other.status_code == 302, "another account is not paused"


def test_an_unknown_email_is_paused_after_as_many_attempts_as_a_known_one(world, limits):
    limits("3 per 15 minutes", "100 per 15 minutes")
    browser = Browser(world.url)
    for _ in range(3):
        assert browser.sign_in("nobody@nowhere.example", "guess").status_code == 401
    assert browser.sign_in("nobody@nowhere.example", "guess").status_code == 429


def test_failed_attempts_from_one_address_across_accounts_pause_that_address(world, limits):
    limits("100 per 15 minutes", "4 per 15 minutes")
    browser = Browser(world.url)
    for n in range(4):
        assert browser.sign_in(f"someone{n}@stuffing.example", "guess").status_code == 401
    assert browser.sign_in(world.client_b.email, world.client_b.password).status_code == 429


def test_successful_sign_ins_do_not_count_against_the_limits(world, limits):
    limits("2 per 15 minutes", "2 per 15 minutes")
    for _ in range(4):
        assert Browser(world.url).sign_in(world.client_a.email, world.client_a.password).status_code == 302


def test_an_unknown_email_takes_as_long_to_refuse_as_a_wrong_password(world, limits):
    browser = Browser(world.url)

    def seconds(email):
        start = time.perf_counter()
        assert browser.sign_in(email, "not the password").status_code == 401
        return time.perf_counter() - start

    seconds(world.admin_a.email), seconds("warm@up.example")  # first requests pay for connections
    known = statistics.median(seconds(world.admin_a.email) for _ in range(5))
    unknown = statistics.median(seconds(f"nobody{n}@nowhere.example") for n in range(5))
    # Today's hash takes tens of milliseconds; an unknown email skipping it answered ~20 times faster.
    assert unknown > 0.5 * known, (unknown, known)


def test_a_session_cookie_saved_before_sign_out_no_longer_works_after_it(world, limits):
    laptop, phone = Browser(world.url), Browser(world.url)
    assert laptop.sign_in(world.advisor_a.email, world.advisor_a.password).status_code == 302
    assert phone.sign_in(world.advisor_a.email, world.advisor_a.password).status_code == 302
    saved = laptop.session.cookies.get("session")
    assert laptop.get("/dashboard").status_code == 200

    assert laptop.post("/logout", {}).status_code == 302

    replayed = requests.get(world.url + "/dashboard", cookies={"session": saved}, allow_redirects=False, timeout=10)
    assert replayed.status_code == 302 and "/login" in replayed.headers["Location"]
    assert phone.get("/dashboard").status_code == 302, "signing out ends the person's other sessions too"
    again = Browser(world.url)
    assert again.sign_in(world.advisor_a.email, world.advisor_a.password).status_code == 302
    assert again.get("/dashboard").status_code == 200


def test_a_new_password_ends_every_session_and_only_the_new_one_signs_in(world, app, limits):
    browser = Browser(world.url)
    assert browser.sign_in(world.client_a.email, world.client_a.password).status_code == 302
    assert browser.get("/portal").status_code == 200

    result = app.test_cli_runner().invoke(args=["leadflow", "set-password", world.client_a.email],
                                          input="a brand new passphrase\na brand new passphrase\n")
    assert result.exit_code == 0, result.output

    assert browser.get("/portal").status_code == 302
    assert Browser(world.url).sign_in(world.client_a.email, world.client_a.password).status_code == 401
    assert Browser(world.url).sign_in(world.client_a.email, "a brand new passphrase").status_code == 302


def test_the_session_cookie_is_http_only_and_same_site_lax(world, limits):
    browser = Browser(world.url)
    answer = browser.sign_in(world.client_a.email, world.client_a.password)
    cookie = answer.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert "Secure" not in cookie, "the test server is plain http: a Secure cookie would never come back"


@pytest.mark.parametrize("base_url, secure", [("https://leadflow.example", True), ("http://127.0.0.1:5000", False)])
def test_cookies_are_secure_when_the_site_is_served_over_https(monkeypatch, tmp_path, base_url, secure):
    from leadflow import config
    monkeypatch.setenv("PUBLIC_BASE_URL", base_url)
    monkeypatch.delenv("SESSION_COOKIE_SECURE", raising=False)
    monkeypatch.setattr(config, "INSTANCE_DIR", tmp_path)
    loaded = config.load()
    assert loaded["SESSION_COOKIE_SECURE"] is secure and loaded["REMEMBER_COOKIE_SECURE"] is secure
    assert loaded["SESSION_COOKIE_HTTPONLY"] and loaded["SESSION_COOKIE_SAMESITE"] == "Lax"


def test_the_limits_are_kept_in_redis_when_redis_is_configured(monkeypatch, tmp_path):
    from leadflow import config
    monkeypatch.setattr(config, "INSTANCE_DIR", tmp_path)
    monkeypatch.delenv("RATELIMIT_STORAGE_URI", raising=False)
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    assert config.load()["RATELIMIT_STORAGE_URI"] == "redis://127.0.0.1:6379/0"
    monkeypatch.delenv("REDIS_URL")
    assert config.load()["RATELIMIT_STORAGE_URI"] == "memory://"


def test_an_invalid_bearer_header_does_not_excuse_a_browser_request_from_the_csrf_check(world, app, limits):
    browser = Browser(world.url)
    assert browser.sign_in(world.client_a.email, world.client_a.password).status_code == 302

    forged = browser.session.post(world.url + "/portal/language", data={"language": "de"},
                                  headers={"Authorization": "Bearer not-a-token"}, allow_redirects=False,
                                  timeout=10)
    assert forged.status_code == 400 and "expired or was sent from elsewhere" in forged.text
    assert _language(app, world.client_a) == "en", "nothing written"

    # Someone else's valid token does not excuse this session either.
    mixed = browser.session.post(world.url + "/portal/language", data={"language": "de"},
                                 headers=dict(world.client_b.api.session.headers), allow_redirects=False,
                                 timeout=10)
    assert mixed.status_code == 400
    assert _language(app, world.client_a) == "en"

    by_token = world.client_a.api.post("/portal/language", data={"language": "de"}, allow_redirects=False)
    assert by_token.status_code == 303, "a valid bearer token needs no CSRF token"
    assert _language(app, world.client_a) == "de"


def _language(app, person) -> str:
    from leadflow.extensions import db
    from leadflow.models import User
    with app.app_context():
        try:
            return db.session.get(User, person.user_id).language
        finally:
            db.session.remove()
