"""gunicorn settings for LeadFlow's web tier: `gunicorn -c gunicorn.conf.py app:app`.

gevent workers: an open live page (/ws) costs a greenlet and a socket, not one of a fixed
number of threads, so open tabs cannot starve ordinary requests. psycopg 3, redis-py and
boto3 all yield to gevent once it has patched the standard library, which the worker does
before it loads the app. Every setting can be overridden from the environment.
"""
import os

bind = os.environ.get("WEB_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_WORKERS", "2"))
worker_class = os.environ.get("WEB_WORKER_CLASS", "gevent")
# Open sockets and requests in flight per worker; a live page holds one for as long as it is open.
worker_connections = int(os.environ.get("WEB_WORKER_CONNECTIONS", "2000"))
# Only used by the threaded worker classes (WEB_WORKER_CLASS=gthread).
threads = int(os.environ.get("WEB_THREADS", "8"))
timeout = int(os.environ.get("WEB_TIMEOUT_SECONDS", "60"))
graceful_timeout = int(os.environ.get("WEB_GRACEFUL_TIMEOUT_SECONDS", "20"))
keepalive = int(os.environ.get("WEB_KEEPALIVE_SECONDS", "5"))
# The app is imported by each worker after gevent has patched it, never by the arbiter.
preload_app = False
accesslog = os.environ.get("WEB_ACCESS_LOG") or None
errorlog = "-"


def _gc_threshold(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or min(values) < 1:
        raise SystemExit(f"WEB_GC_THRESHOLD must be three whole numbers, e.g. 50000,20,10 (got {text!r})")
    return values


# Python's cyclic garbage collector in each worker: the young generation's size, and how many
# collections of one generation make one of the next. A live page keeps a few hundred objects for
# as long as it is open; with Python's default (700, 10, 10) the temporaries of a fan-out to a
# thousand pages are collected young while still in use and survive into the oldest generation,
# and each time they add up to a quarter of it a full collection walks every page's objects: with
# a thousand pages, 250 ms every twenty seconds or so in which no frame is sent and no request
# answered (`make bench-live`). With 50,000 they die young, and a young collection takes a few
# milliseconds. Empty: Python's default.
_gc_threshold_text = os.environ.get("WEB_GC_THRESHOLD", "50000,20,10").strip()
gc_threshold = _gc_threshold(_gc_threshold_text) if _gc_threshold_text else None


def post_worker_init(worker):
    """Tune the collector (`gc_threshold`), leaving out of its walks what the loaded app keeps
    for life; and a worker told to stop (SIGTERM: a deploy, a restart) closes its live pages at
    once (1012, service restart: each reconnects, to another worker, and fetches a fresh
    snapshot), so it exits once its ordinary requests are done instead of waiting
    graceful_timeout for pages that never end."""
    import gc
    import signal

    if gc_threshold is not None:
        gc.set_threshold(*gc_threshold)
    gc.freeze()

    stop = worker.handle_exit

    def handle_exit(sig, frame):
        stop(sig, frame)
        ports = getattr(worker.wsgi, "extensions", {}).get("leadflow")
        if ports is not None:
            _outside_the_signal_handler(worker, ports.hub.close_all)

    signal.signal(signal.SIGTERM, handle_exit)


def _outside_the_signal_handler(worker, work):
    # As gunicorn's gevent worker does for SIGQUIT: a signal handler must not take locks that the
    # code it interrupted may hold.
    if "gevent" in type(worker).__module__:
        import gevent
        gevent.spawn(work)
    else:
        import threading
        threading.Thread(target=work, name="close-live-pages", daemon=True).start()
