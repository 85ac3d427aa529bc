"""This process's open websockets, and the rendering of every status event for them.

Notify, then re-render: an event carries only ids and a status. Events are gathered for a moment
(`COALESCE_SECONDS`) so a burst of transitions of one document becomes one push of its latest
state; then each gathered document is read once, the audience check (domain/audience.may_see)
decides for each connected user whether they may see it, and its row is rendered once per kind of
viewer (`row_kind`): a thousand advisors of one brokerage cost one render, not a thousand. A
socket gets one message per gathering with every row it may see. A pushed element replaces the
old one by id, so a late or repeated event converges on the truth.
"""
import logging
import queue
import struct
import sys
import threading
import time
from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property

from flask import g, render_template
from flask_babel import force_locale
from sqlalchemy import Integer, any_, bindparam
from sqlalchemy.dialects.postgresql import ARRAY

from leadflow import scoping
from leadflow.domain.audience import Role, Viewer, may_see, retry_offered
from leadflow.extensions import db
from leadflow.models import Document, User

log = logging.getLogger(__name__)
CLIENT_QUEUE_SIZE = 200
# How long events gather before a fan-out: long enough that PENDING -> PROCESSING -> EXTRACTING
# of one document, committed milliseconds apart, become one push; short against the 250 ms a
# page may take to show a change.
COALESCE_SECONDS = 0.05
# Connected users' roles, brokerages and languages are read again at most this often (and at
# once for a user not read yet): a role or brokerage change reaches open sockets within this,
# while 20 events a second with a thousand sockets do not each read a thousand users.
VIEWERS_FRESH_SECONDS = 1.0
# Sockets written between two yields to the other greenlets of the process: a write is a few
# microseconds of CPU, so a chunk is a millisecond or two, and a probe or a request waits no longer.
SENDS_BETWEEN_YIELDS = 200
# The names a staff row shows, as leadflow.web.templating.preload_names keeps them in `g`.
NAME_KINDS = ("user", "workspace", "brokerage")


@dataclass(frozen=True)
class Watcher:
    """A connected user as their row is rendered: who they are for the audience check, and the
    language a client's row is written in. Stands in for `viewer` in the row templates."""
    id: int
    role: Role
    brokerage_id: int | None
    language: str = "en"

    @classmethod
    def of(cls, user) -> "Watcher":
        return cls(user.id, Role(user.role), user.brokerage_id, user.language or "en")

    @cached_property
    def viewer(self) -> Viewer:
        # Asked for every connected user on every push: made once.
        return Viewer(self.id, self.role, self.brokerage_id)

    @property
    def is_platform_admin(self) -> bool:
        return self.role == Role.PLATFORM_ADMIN


def row_kind(watcher: Watcher, document) -> tuple:
    """What a document's row depends on of its viewer (templates/documents/_row.html): users with
    the same kind get the same HTML. Every row is in its watcher's language; a staff row differs for
    platform admins (brokerage name, the review form) and where a retry button is offered."""
    if watcher.role == Role.CLIENT:
        return ("client", watcher.language)
    return ("staff", watcher.language, watcher.is_platform_admin,
            retry_offered(watcher.role, document.status, document.rejection_code))


class Push(str):
    """A message for sockets: its HTML, and the WebSocket frame carrying it, made once however many
    sockets it goes to (the server's frames are not masked, and /ws negotiates no compression, so
    every socket gets the same bytes)."""

    @cached_property
    def frame(self) -> bytes:
        return text_frame(self)


def let_others_run() -> None:
    """Under gevent a yield to the loop: a thousand sockets' writes in one go would hold every
    other request of the process (a /healthz probe included) for as long. Threads (the dev
    server, tests) are preempted anyway, and there a sleep(0) would wait for the GIL."""
    monkey = sys.modules.get("gevent.monkey")
    if monkey is not None and monkey.is_module_patched("time"):
        time.sleep(0)  # gevent.sleep(0)


def text_frame(text: str) -> bytes:
    """One final, unmasked text frame (RFC 6455, section 5.2)."""
    payload = text.encode()
    n = len(payload)
    if n < 126:
        header = struct.pack("!BB", 0x81, n)
    elif n < 1 << 16:
        header = struct.pack("!BBH", 0x81, 126, n)
    else:
        header = struct.pack("!BBQ", 0x81, 127, n)
    return header + payload


class Client:
    """One open socket: a queue of messages to send (None: close, the user has too many).

    Where the socket can be written without waiting (`write`, under gevent), a push with nothing
    queued before it is written at once by the fan-out, sparing a thousand sockets' loops a wake
    each; what the socket does not take at once waits in the queue, in order, for the loop."""

    def __init__(self, user_id: int, write=None):
        self.user_id = user_id
        self.outbox: queue.Queue[Push | bytes | None] = queue.Queue(maxsize=CLIENT_QUEUE_SIZE)
        self.evicted = False
        self.going_away = False  # the process is stopping: the page is to reconnect elsewhere
        # write(data) -> how many bytes the socket took now, never waiting; None: always queue.
        self.write = write
        self.sending = False  # the socket's loop is writing: a direct write would interleave

    def evict(self, going_away: bool = False) -> None:
        self.going_away = self.going_away or going_away
        self.evicted = True
        try:
            self.outbox.put_nowait(None)  # wakes the socket's loop at once
        except queue.Full:
            pass  # the flag alone ends it at its next wake

    def push(self, message: Push) -> None:
        item: Push | bytes = message
        if self.write is not None and not self.sending and not self.evicted and self.outbox.empty():
            frame = message.frame
            try:
                sent = self.write(frame)
            except OSError:
                sent = 0  # closed, or not writable now: the loop finds out which
            if sent == len(frame):
                return
            if sent:
                item = frame[sent:]  # the rest of a frame begun: it must go before anything else
        try:
            self.outbox.put_nowait(item)
        except queue.Full:
            # A stalled browser must not hold memory or block others; it re-fetches on reconnect.
            log.warning("dropping a push for user %s: their socket is not reading", self.user_id)


class Hub:
    def __init__(self, app, max_sockets_per_user: int = 20, *, coalesce_seconds: float = COALESCE_SECONDS,
                 viewers_fresh_seconds: float = VIEWERS_FRESH_SECONDS, background: bool = True):
        self._app = app
        # Insertion-ordered per user, so the oldest socket is the one to close.
        self._clients: dict[int, dict[Client, None]] = defaultdict(dict)
        self._lock = threading.Lock()
        self._idle = threading.Condition(self._lock)  # notified when a fan-out ends
        self._flushing = 0
        # close_all has run: the process is stopping, and a page that connects now is told to go too.
        self._closing = False
        self._max_per_user = max(int(max_sockets_per_user), 1)
        self._coalesce = coalesce_seconds
        # background=False: nothing fans out until flush() is called (tests count what one costs).
        self._background = background
        self._pending: dict[str, dict] = {}  # document id -> its latest event, in arrival order
        self._wake = threading.Event()
        self._worker: threading.Thread | None = None
        self._watchers: dict[int, Watcher] = {}
        self._watchers_read_at = float("-inf")
        self._watchers_fresh = viewers_fresh_seconds
        self._names: dict[str, dict] = {}
        self._names_read_at = float("-inf")
        self.renders = 0  # rows rendered so far: what a fan-out costs, for tests and the benchmark

    def connect(self, user_id: int, watcher: Watcher | None = None, write=None) -> Client:
        """Register a socket; past the per-user cap the user's oldest socket is closed: the page
        just opened is the one they look at, and one user cannot hold the process's sockets.
        Once the process is stopping (`close_all`), the socket is told to go at once."""
        client = Client(user_id, write)
        with self._lock:
            # Decided under the lock close_all takes: a socket is either among those it tells, or
            # sees that it ran.
            closing = self._closing
            evicted = []
            if not closing:
                if watcher is not None:
                    self._watchers[user_id] = watcher
                mine = self._clients[user_id]
                mine[client] = None
                evicted = list(mine)[:-self._max_per_user]
                for old in evicted:
                    del mine[old]
        if closing:
            client.evict(going_away=True)
        for old in evicted:
            old.evict()
        return client

    def close_all(self) -> int:
        """The process is stopping (a deploy): every open page is told to go away now, and
        reconnects to another process with a fresh snapshot, instead of holding this one for its
        whole graceful timeout (a live page never ends on its own). Returns how many.
        Pages that connect afterwards (their handshake was under way) are told at once."""
        with self._lock:
            self._closing = True
            clients = [client for mine in self._clients.values() for client in mine]
        for client in clients:
            client.evict(going_away=True)
        return len(clients)

    def disconnect(self, client: Client) -> None:
        with self._lock:
            self._clients[client.user_id].pop(client, None)
            if not self._clients[client.user_id]:
                del self._clients[client.user_id]
                self._watchers.pop(client.user_id, None)

    def connected_user_ids(self) -> list[int]:
        with self._lock:
            return list(self._clients)

    def on_event(self, event: dict) -> None:
        """Bus handler: note the document as changed; the fan-out renders it a moment later.
        Quick by design: it runs on the bus's listener, which must not wait on rendering."""
        if event.get("type") != "document_status":
            return
        with self._lock:
            if not self._clients:
                return
            document_id = str(event.get("document_id"))
            self._pending.pop(document_id, None)  # the latest event goes last
            self._pending[document_id] = event
        if self._background:
            self._ensure_worker()
            self._wake.set()

    def flush(self) -> int:
        """Fan out every document noted so far; returns how many were read."""
        with self._lock:
            batch, self._pending = self._pending, {}
            if not batch:
                return 0
            self._flushing += 1
        try:
            with self._app.app_context():
                try:
                    # Reads only, each its own snapshot: no BEGIN and no ROLLBACK, two round trips
                    # fewer per gathering, each of which waits for PostgreSQL and then for this
                    # process to get a core again on a busy machine.
                    db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
                    return self._fan_out(list(batch))
                finally:
                    db.session.remove()
        finally:
            with self._lock:
                self._flushing -= 1
                self._idle.notify_all()

    def wait_idle(self, timeout: float) -> bool:
        """Wait until every event noted so far has been pushed; False on timeout. For tests, whose
        next test must not find this one's fan-out still reading."""
        with self._idle:
            return self._idle.wait_for(lambda: not self._pending and not self._flushing, timeout)

    def _ensure_worker(self) -> None:
        with self._lock:
            if self._worker is not None:
                return
            # Under gevent (gunicorn.conf.py) this thread is a greenlet, like every socket's loop.
            self._worker = threading.Thread(target=self._run, name="leadflow-live-fan-out", daemon=True)
            self._worker.start()

    def _run(self) -> None:
        while True:
            self._wake.wait()
            self._wake.clear()  # before taking the batch: an event noted meanwhile wakes us again
            time.sleep(self._coalesce)
            try:
                self.flush()
            except Exception:  # one bad batch must not end live pages for the life of the process
                log.exception("live fan-out failed")

    def _fan_out(self, document_ids: list[str]) -> int:
        with self._lock:
            sockets = {user_id: list(clients) for user_id, clients in self._clients.items()}
        if not sockets:
            return 0
        documents = {d.id: d for d in db.session.scalars(db.select(Document).where(Document.id.in_(document_ids)))}
        facts = scoping.documents_facts(db.session, list(documents.values()))
        watchers = self._current_watchers(list(sockets))
        rows: dict[int, list[str]] = defaultdict(list)
        # One request context for the templates' url_for; the viewer is passed, never read from it.
        with self._app.test_request_context(base_url=self._app.config["PUBLIC_BASE_URL"]):
            self._lend_names()
            for document_id in document_ids:
                document = documents.get(document_id)
                if document is None:
                    continue
                audience = facts[document_id]
                kinds: dict[tuple, tuple] = {}  # (role, language) -> row_kind, which depends on nothing else
                rendered: dict[tuple, str] = {}
                for user_id in sockets:
                    watcher = watchers.get(user_id)
                    # The audience rule decides for every connected user, whatever their kind.
                    if watcher is None or not may_see(watcher.viewer, audience):
                        continue
                    kind = kinds.get((watcher.role, watcher.language))
                    if kind is None:
                        kind = kinds[(watcher.role, watcher.language)] = row_kind(watcher, document)
                    html = rendered.get(kind)
                    if html is None:
                        # In the watcher's language: the page's filters and _() read the locale.
                        with force_locale(watcher.language):
                            html = rendered[kind] = "".join(
                                render_template(template, document=document, viewer=watcher, oob=True)
                                for template in partials_of(watcher, document))
                        self.renders += 1
                    rows[user_id].append(html)
            self._keep_names()
        # One message per socket; sockets shown the same rows share one message, framed once.
        messages: dict[tuple, Push] = {}
        written = 0
        for user_id, parts in rows.items():
            key = tuple(map(id, parts))
            message = messages.get(key)
            if message is None:
                message = messages[key] = Push("".join(parts))
            for client in sockets[user_id]:
                client.push(message)
                written += 1
                if written % SENDS_BETWEEN_YIELDS == 0:
                    let_others_run()
        return len(documents)

    def _lend_names(self) -> None:
        """Hand the row templates the client, case and brokerage names read by earlier fan-outs
        (leadflow.web.templating.row_names reads the ones it lacks into the same `g` dicts), so
        that a gathering of known documents costs no name queries; forgotten as often as users
        are read again, so a renamed case shows in the next push after that."""
        if time.monotonic() - self._names_read_at >= self._watchers_fresh:
            self._names, self._names_read_at = {}, time.monotonic()
        for kind, names in self._names.items():
            g.setdefault("names_" + kind, {}).update(names)

    def _keep_names(self) -> None:
        for kind in NAME_KINDS:
            self._names[kind] = dict(g.get("names_" + kind, {}))

    def _current_watchers(self, user_ids: list[int]) -> dict[int, Watcher]:
        with self._lock:
            known = dict(self._watchers)
        stale = time.monotonic() - self._watchers_read_at >= self._watchers_fresh
        wanted = set(user_ids) if stale else {u for u in user_ids if u not in known}
        if not wanted:
            return known
        read = {}
        for user_id, role, brokerage_id, language in db.session.execute(_users_query(wanted)):
            watcher, language = known.get(user_id), language or "en"
            # The one already made, when nothing changed: its Viewer too is made once.
            if watcher is None or (watcher.role, watcher.brokerage_id, watcher.language) != (role, brokerage_id, language):
                watcher = Watcher(user_id, Role(role), brokerage_id, language)
            read[user_id] = watcher
        if stale:
            # A user gone from the table sees nothing more; one whose socket closed meanwhile is not kept.
            known = {u: w for u, w in known.items() if u not in wanted}
            self._watchers_read_at = time.monotonic()
        known.update(read)
        with self._lock:
            self._watchers = {u: w for u, w in known.items() if u in self._clients}
        return known


def partials_of(watcher: Watcher, document) -> tuple[str, ...]:
    """What a push of this document carries for this kind of viewer (row_kind): its row, and for a
    client a document found in a packet also as its line under the packet on the portal."""
    if watcher.role == Role.CLIENT and document.packet_id is not None:
        return ROW, PACKET_PART
    return (ROW,)


ROW = "documents/_row.html"
PACKET_PART = "packets/_part.html"


def _users_query(user_ids: set[int]):
    """Every connected user's role, brokerage and language. On PostgreSQL the ids go as one array
    parameter: a thousand of them as a thousand bind parameters cost more to expand, send and
    parse than the rows do to read, once a second."""
    columns = db.select(User.id, User.role, User.brokerage_id, User.language)
    if db.session.get_bind().dialect.name == "postgresql":
        return columns.where(User.id == any_(bindparam("user_ids", sorted(user_ids), type_=ARRAY(Integer))))
    return columns.where(User.id.in_(user_ids))
