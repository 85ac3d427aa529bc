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
