"""A signed-in browser session for integration tests that drive the pages with Flask's test client."""
import re

from flask.testing import FlaskClient


class LiveHostClient(FlaskClient):
    """A test client whose requests name the live server as their host, as a browser's would:
    a signed file URL made during a request (the extractor fetches it on a reprocess) must
    point where something answers."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("base_url", self.application.config["PUBLIC_BASE_URL"])
        return super().open(*args, **kwargs)

    def session_transaction(self, *args, **kwargs):
        kwargs.setdefault("base_url", self.application.config["PUBLIC_BASE_URL"])
        return super().session_transaction(*args, **kwargs)


def signed_in(app, person):
    """A Flask test client with the person's browser session (no password round trip)."""
    client = LiveHostClient(app, app.response_class, use_cookies=True)
    with client.session_transaction() as session:
        session["_user_id"] = str(person.user_id)
        session["_fresh"] = True
    return client


def csrf_token(client) -> str:
    page = client.get("/documents/none")  # any page renders the token, a 404 page too
    return re.search(r'"X-CSRFToken": "([^"]+)"', page.get_data(as_text=True)).group(1)


def post(client, url, data=None, htmx: bool = True):
    headers = {"X-CSRFToken": csrf_token(client)}
    if htmx:
        headers["HX-Request"] = "true"
    return client.post(url, data=data or {}, headers=headers)
