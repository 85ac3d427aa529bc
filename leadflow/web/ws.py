"""`/ws`: the signed-in user's live partials, one socket per open tab.

Under gunicorn's gevent worker (gunicorn.conf.py) a socket costs a greenlet, not a thread, so
open tabs cannot starve ordinary requests. The browser sends nothing but pings: a message past
MAX_MESSAGE_BYTES closes the socket (1009); a page of another site cannot open one (Origin).
"""
import queue
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, g, request
from flask_login import current_user
from simple_websocket import ConnectionClosed

from leadflow.extensions import db, sock
from leadflow.realtime.hub import Watcher

MAX_MESSAGE_BYTES = 4096  # the page sends nothing of its own; anything larger is abuse
PING_SECONDS = 25  # also how long a vanished browser can hold its socket
# How often an idle socket's loop checks that its peer is still there: as often as it is pinged
# (a vanished peer shows no sooner), since a thousand loops waking every few seconds cost the
# process more than the pushes do; a push the socket refuses wakes its loop at once anyway.
WAKE_SECONDS = PING_SECONDS


def register(app) -> None:
    app.config.setdefault("SOCK_SERVER_OPTIONS", {"ping_interval": PING_SECONDS,
                                                  "max_message_size": MAX_MESSAGE_BYTES})

    @app.before_request
    def _refuse_foreign_pages():
        if request.path != "/ws":
            return
        # Before the handshake: a refused upgrade never becomes a socket.
        if not same_origin(request.headers.get("Origin"), request.host, current_app.config["PUBLIC_BASE_URL"]):
            abort(403)
        # No per-message compression: a push is a few KB of HTML, and uncompressed the very same
        # frame goes to every socket shown the same rows (hub.Push), where compression would cost
        # a zlib run per socket per push. Declining the browser's offer is part of the protocol.
        request.environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        # Who asks is read before the handshake answers, and the database let go of: pages opening
        # together (all of them after a restart) wait for it before their 101, not while holding
        # a socket, and an open socket holds no connection.
        if current_user.is_authenticated:
            g.live_watcher = Watcher.of(current_user)
        db.session.remove()

    # On a blueprint of this app's own: the shared `sock` remembers only the last app it was
    # bound to, so a route declared on it directly could land on another app of the process.
    bp = Blueprint("live", __name__)

    @sock.route("/ws", bp=bp)
    def live(ws):
        watcher = g.get("live_watcher")
        if watcher is None:
            ws.close(reason=1008, message="sign in first")
            return
        hub = current_app.extensions["leadflow"].hub
        client = hub.connect(watcher.id, watcher, write=writer_without_waiting(ws.sock))
        try:
            while ws.connected:
                if client.evicted:
                    # Told whenever it happened: before this loop began, while a frame was being
                    # written, or while waiting (its None wakes the wait).
                    if client.going_away:
                        ws.close(reason=1012, message="the server is restarting")
                    else:  # this user opened more pages than the cap allows
                        ws.close(reason=1008, message="too many open pages")
                    return
                try:
                    html = client.outbox.get(timeout=WAKE_SECONDS)
                except queue.Empty:
                    # Reading with no wait surfaces a closed socket; the browser sends nothing else.
                    ws.receive(timeout=0)
                    continue
                if html is None:
                    continue  # evicted: told above
                if not ws.connected:
                    break
                # The frame made once for every socket (hub.Push), or the rest of one the fan-out
                # began; wsproto keeps no state of its own for the frames a server sends, so
                # writing them ourselves leaves it consistent.
                client.sending = True
                try:
                    ws.sock.sendall(html if isinstance(html, bytes) else html.frame)
                finally:
                    client.sending = False
        except (ConnectionClosed, OSError):
            pass  # the page went away; its socket is dropped below
        finally:
            hub.disconnect(client)

    app.register_blueprint(bp)


def writer_without_waiting(sock):
    """Under gevent: write(data) sends what the socket takes now and returns how much, never
    yielding to another greenlet, so the fan-out can write a thousand sockets in one go. None
    elsewhere (the threaded dev server): pushes then go through each socket's own loop."""
    if not type(sock).__module__.startswith("gevent"):
        return None

    def write(data: bytes) -> int:
        try:
            return sock.send(data, 0, timeout=0.0)
        except BlockingIOError:
            return 0
    return write


def same_origin(origin: str | None, host: str, public_base_url: str) -> bool:
    """Whether a websocket upgrade comes from our own pages.

    Browsers always send Origin on a websocket upgrade; a client without one is not a browser
    page and still needs the session cookie. Our pages are served either at PUBLIC_BASE_URL or
    at the host the browser asked for (`make run` reached as localhost or 127.0.0.1).
    """
    if origin is None:
        return True
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or not parts.netloc:
        return False
    public = urlsplit(public_base_url)
    return parts.netloc.lower() == (host or "").lower() or \
        (parts.scheme, parts.netloc.lower()) == (public.scheme, public.netloc.lower())
