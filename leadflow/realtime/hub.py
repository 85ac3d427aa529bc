"""This process's open websockets, and the per-user rendering of every status event.

Notify, then re-render: an event carries only ids and a status; for each connected user in
the document's audience the partial is rendered from the database, as that user sees it. A
pushed element replaces the old one by id, so a late or repeated event converges on the truth.
"""
import logging
import queue
import threading
from collections import defaultdict

from flask import render_template

from leadflow import scoping
from leadflow.domain.audience import may_see
from leadflow.extensions import db
from leadflow.models import Document, User

log = logging.getLogger(__name__)
CLIENT_QUEUE_SIZE = 200


class Client:
    """One open socket: a queue of HTML fragments to send (None: close, the user has too many)."""

    def __init__(self, user_id: int):
        self.user_id = user_id
        self.outbox: queue.Queue[str | None] = queue.Queue(maxsize=CLIENT_QUEUE_SIZE)
        self.evicted = False

    def evict(self) -> None:
        self.evicted = True
        try:
            self.outbox.put_nowait(None)  # wakes the socket's loop at once
        except queue.Full:
            pass  # the flag alone ends it at its next wake

    def push(self, html: str) -> None:
        try:
            self.outbox.put_nowait(html)
        except queue.Full:
            # A stalled browser must not hold memory or block others; it re-fetches on reconnect.
            log.warning("dropping a push for user %s: their socket is not reading", self.user_id)


class Hub:
    def __init__(self, app, max_sockets_per_user: int = 20):
        self._app = app
        # Insertion-ordered per user, so the oldest socket is the one to close.
        self._clients: dict[int, dict[Client, None]] = defaultdict(dict)
        self._lock = threading.Lock()
        self._max_per_user = max(int(max_sockets_per_user), 1)

    def connect(self, user_id: int) -> Client:
        """Register a socket; past the per-user cap the user's oldest socket is closed: the page
        just opened is the one they look at, and one user cannot hold the process's sockets."""
        client = Client(user_id)
        with self._lock:
            mine = self._clients[user_id]
            mine[client] = None
            evicted = list(mine)[:-self._max_per_user]
            for old in evicted:
                del mine[old]
        for old in evicted:
            old.evict()
        return client

    def disconnect(self, client: Client) -> None:
        with self._lock:
            self._clients[client.user_id].pop(client, None)
            if not self._clients[client.user_id]:
                del self._clients[client.user_id]

    def connected_user_ids(self) -> list[int]:
        with self._lock:
            return list(self._clients)

    def on_event(self, event: dict) -> None:
        """Bus handler: render and queue the document's partial for each connected viewer."""
        if event.get("type") != "document_status":
            return
        user_ids = self.connected_user_ids()
        if not user_ids:
            return
        with self._app.app_context():
            try:
                self._fan_out(str(event.get("document_id")), user_ids)
            finally:
                db.session.remove()

    def _fan_out(self, document_id: str, user_ids: list[int]) -> None:
        document = db.session.get(Document, document_id)
        if document is None:
            return
        facts = scoping.document_facts(db.session, document)
        viewers = [u for u in db.session.scalars(db.select(User).where(User.id.in_(user_ids)))
                   if may_see(u.viewer, facts)]
        if not viewers:
            return
        # One request context for the templates' url_for; the viewer is passed, never read from it.
        with self._app.test_request_context(base_url=self._app.config["PUBLIC_BASE_URL"]):
            for user in viewers:
                html = render_template("documents/_row.html", document=document, viewer=user, oob=True)
                with self._lock:
                    clients = list(self._clients.get(user.id, ()))
                for client in clients:
                    client.push(html)
