"""The Flask app an actor runs in: the web app's own in embedded mode, else one made lazily.

No app context is pushed at import: each message pushes its own and pops it when done.
"""
import threading

_app = None
_lock = threading.Lock()


def bind(app) -> None:
    global _app
    _app = app


def app():
    global _app
    with _lock:
        if _app is None:
            from leadflow.factory import create_app
            _app = create_app(listen=False)
        return _app
