"""`/ws`: the signed-in user's live partials, one socket per open tab."""
import queue

from flask import current_app
from flask_login import current_user
from simple_websocket import ConnectionClosed

from leadflow.extensions import db, sock



def register(app) -> None:
    app.config.setdefault("SOCK_SERVER_OPTIONS", {"ping_interval": 25})

    @sock.route("/ws")
    def live(ws):
        if not current_user.is_authenticated:
            ws.close(reason=1008, message="sign in first")
            return
        hub = current_app.extensions["leadflow"].hub
        client = hub.connect(current_user.id)
        db.session.remove()  # hold no database connection while the socket idles
        try:
            while ws.connected:
                try:
                    html = client.outbox.get(timeout=1.0)
                except queue.Empty:
                    # Reading with no wait surfaces a closed socket; the browser sends nothing else.
                    ws.receive(timeout=0)
                    continue
                ws.send(html)
        except ConnectionClosed:
            pass
        finally:
            hub.disconnect(client)
