"""Configuration from the environment, with defaults that run everything on one machine.

Unset `DATABASE_URL`, `REDIS_URL`, `S3_BUCKET` and `EXTRACTION_URL` mean the embedded mode:
SQLite under instance/, a Dramatiq StubBroker with a worker inside the web process, local
file storage, an in-memory realtime bus and the shipped extractor in a thread. Setting them
switches to PostgreSQL, Redis, S3 and a separate extraction service with no code change.
"""
import os
import secrets
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
INSTANCE_DIR = Path(os.environ.get("LEADFLOW_INSTANCE_DIR", ROOT / "instance"))


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw not in (None, "") else default


def _bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name)
    if raw in (None, ""):
        return default
    return raw.strip().lower() in ("1", "true", "yes", "on")


def engine_options(database_url: str, options: Mapping, prepare_threshold: int | None) -> dict:
    """The engine's options for the database the app ends up on (after any overrides).

    On PostgreSQL a statement is prepared once a connection has run it `prepare_threshold` times
    (`DATABASE_PREPARE_THRESHOLD`, default 0: the first time) instead of at psycopg's sixth run:
    a pooled connection runs the same few dozen statements all day, each unprepared run is parsed
    and planned again, and a benchmark run has dozens of fresh connections (design.md). None
    turns preparing off, for a PgBouncer older than 1.21 pooling by transaction."""
    options = dict(options)
    if database_url.startswith("postgresql"):
        options["connect_args"] = {"prepare_threshold": prepare_threshold, **options.get("connect_args", {})}
    return options


def _prepare_threshold() -> int | None:
    raw = (os.environ.get("DATABASE_PREPARE_THRESHOLD") or "0").strip().lower()
    if raw != "none" and not raw.isdigit():
        raise ValueError(f"DATABASE_PREPARE_THRESHOLD must be a whole number of runs before a statement is "
                         f"prepared (0: at the first) or none (got {raw!r})")
    return None if raw == "none" else int(raw)


def _minutes(name: str, default: str) -> list[float]:
    raw = os.environ.get(name) or default
    return [float(part) for part in raw.split(",") if part.strip()]


def _persistent_secret(name: str, make) -> str:
    """A secret from the environment, else one generated once and kept under instance/.

    A random default keeps a fresh install safe (no well-known key in the code) while
    sessions and signed URLs survive a restart of the embedded server.
    """
    value = os.environ.get(name)
    if value:
        return value
    INSTANCE_DIR.mkdir(parents=True, exist_ok=True)
    path = INSTANCE_DIR / f".{name.lower()}"
    if not path.exists():
        path.write_text(make())
        path.chmod(0o600)
    return path.read_text().strip()


def _whsec() -> str:
    import base64
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def load() -> dict:
    """Read the configuration; called once per app."""
    database_url = os.environ.get("DATABASE_URL") or f"sqlite:///{INSTANCE_DIR / 'leadflow.db'}"
    if database_url.startswith("postgres://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgres://"):]
    elif database_url.startswith("postgresql://"):
        database_url = "postgresql+psycopg://" + database_url[len("postgresql://"):]
    redis_url = os.environ.get("REDIS_URL") or None
    public_base_url = os.environ.get("PUBLIC_BASE_URL", "http://127.0.0.1:5000").rstrip("/")
    # Cookies that never travel over plain HTTP once the site is served over HTTPS.
    https = public_base_url.lower().startswith("https://")
    return {
        "SECRET_KEY": _persistent_secret("SECRET_KEY", lambda: secrets.token_urlsafe(32)),
        "SQLALCHEMY_DATABASE_URI": database_url,
        # A pooled connection is replaced after DATABASE_POOL_RECYCLE_SECONDS instead of being
        # pinged at every checkout (a round trip per transaction, eight per document). A
        # connection the database dropped fails its one transaction, which its caller retries;
        # that disconnect empties the process's pool. DATABASE_POOL_PRE_PING=1 brings the ping back.
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": _bool("DATABASE_POOL_PRE_PING", False),
                                      "pool_recycle": _int("DATABASE_POOL_RECYCLE_SECONDS", 300)},
        # Made the engine's connect_args on PostgreSQL by engine_options (factory).
        "DATABASE_PREPARE_THRESHOLD": _prepare_threshold(),
        "REDIS_URL": redis_url,
        # The prefix of this deployment's queues, dedup keys and sweep locks in Redis.
        "DRAMATIQ_NAMESPACE": os.environ.get("DRAMATIQ_NAMESPACE") or "leadflow",
        "REALTIME_CHANNEL": os.environ.get("REALTIME_CHANNEL", "leadflow:events:document_status"),
        # The in-process worker and scheduler run by default only in the embedded mode;
        # distributed installs run `dramatiq tasks:worker` and `python -m tasks.scheduler`.
        "EMBEDDED_WORKER": _bool("EMBEDDED_WORKER", redis_url is None),
        "EMBEDDED_SCHEDULER": _bool("EMBEDDED_SCHEDULER", redis_url is None),
        "PUBLIC_BASE_URL": public_base_url,
        "LOCAL_STORAGE_DIR": os.environ.get("LOCAL_STORAGE_DIR", str(INSTANCE_DIR / "storage")),
        "S3_BUCKET": os.environ.get("S3_BUCKET") or None,
        "S3_ENDPOINT_URL": os.environ.get("S3_ENDPOINT_URL") or None,
        "S3_REGION": os.environ.get("S3_REGION", "eu-central-1"),
        "S3_CREATE_BUCKET": _bool("S3_CREATE_BUCKET", False),
        "EXTRACTION_URL": (os.environ.get("EXTRACTION_URL") or "").rstrip("/") or None,
        "EXTRACTION_API_KEY": _persistent_secret("EXTRACTION_API_KEY", lambda: secrets.token_urlsafe(24)),
        "EXTRACTION_WEBHOOK_SECRET": _persistent_secret("EXTRACTION_WEBHOOK_SECRET", _whsec),
        # Earlier secrets still accepted on callbacks during a rotation, comma-separated.
        "EXTRACTION_WEBHOOK_PREVIOUS_SECRETS": [
            s for s in os.environ.get("EXTRACTION_WEBHOOK_PREVIOUS_SECRETS", "").split(",") if s
        ],
        "EXTRACTION_MAX_SUBMIT_ATTEMPTS": _int("EXTRACTION_MAX_SUBMIT_ATTEMPTS", 3),
        "EXTRACTION_DEADLINE_SECONDS": _int("EXTRACTION_DEADLINE_SECONDS", 600),
        "EXTRACTION_TIMEOUT_SECONDS": _int("EXTRACTION_TIMEOUT_SECONDS", 10),
        # A failure of ours (the reader or storage failing past a message's retries) is tried
        # again after each of these delays before a person is asked; fractions are allowed.
        "SYSTEM_RETRY_DELAYS_MINUTES": _minutes("SYSTEM_RETRY_DELAYS_MINUTES", "5,15,60,240,720"),
        # Breakers (leadflow.breaker): failures in a row that open one, seconds before a probe,
        # and how long a success counts as a health answer.
        "BREAKER_FAILURES": _int("BREAKER_FAILURES", 3),
        "BREAKER_COOLDOWN_SECONDS": _int("BREAKER_COOLDOWN_SECONDS", 5),
        "HEALTH_FRESH_SECONDS": _int("HEALTH_FRESH_SECONDS", 3),
        "DOCUMENT_PROCESSING_CONCURRENCY": _int("DOCUMENT_PROCESSING_CONCURRENCY", 5),
        # A verify-document message claims, reserves and submits up to this many due documents
        # of its brokerage together (its own and others waiting); 1: each its own.
        "CLAIM_BATCH_SIZE": _int("CLAIM_BATCH_SIZE", 20),
        # A new upload's verification message waits this long for more uploads of its brokerage
        # to claim with it (0: at once).
        "CLAIM_GATHER_MS": _int("CLAIM_GATHER_MS", 100),
        # A callback receipt that finds no write under way waits this long for others to share
        # its insert (0: writes at once; receipts arriving during a write share the next one anyway).
        "CALLBACK_GATHER_MS": _int("CALLBACK_GATHER_MS", 0),
        # The worker's nudges about new deliveries wait this long for more to name (0: each
        # receipt group sends its own at once).
        "CALLBACK_NUDGE_GATHER_MS": _int("CALLBACK_NUDGE_GATHER_MS", 20),
        "RECONCILIATION_INTERVAL_MS": _int("RECONCILIATION_INTERVAL_MS", 60_000),
        "PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS": _int("PENDING_DOCUMENT_RECOVERY_THRESHOLD_MS", 5 * 60_000),
        "STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS": _int("STALLED_DOCUMENT_RECOVERY_THRESHOLD_MS", 10 * 60_000),
        "SWEEP_BATCH_SIZE": _int("SWEEP_BATCH_SIZE", 200),
        # A closed case (and its clients' data) is erased this many days after it was closed.
        "CASE_RETENTION_DAYS": _int("CASE_RETENTION_DAYS", 365),
        # How long a lender package's signed download link lives.
        "PACKAGE_LINK_SECONDS": _int("PACKAGE_LINK_SECONDS", 300),
        "MAX_UPLOAD_BYTES": _int("MAX_UPLOAD_BYTES", 25 * 1024 * 1024),
        "MAX_DOCUMENT_PAGES": _int("MAX_DOCUMENT_PAGES", 50),
        # An upload of several documents (a packet, `split=auto`); each of its documents is held to
        # MAX_DOCUMENT_PAGES. The extractor reads (and OCRs) this many pages of one packet.
        "MAX_PACKET_PAGES": _int("MAX_PACKET_PAGES", 100),
        # One user's open pages: past the cap their oldest live socket is closed.
        "WS_MAX_SOCKETS_PER_USER": _int("WS_MAX_SOCKETS_PER_USER", 20),
        # Pages read per client per day (UTC), so that one client cannot drain the brokerage's
        # credits; past it a document waits for the next day. 0: no allowance.
        "CLIENT_DAILY_PAGE_ALLOWANCE": _int("CLIENT_DAILY_PAGE_ALLOWANCE", 100),
        # Flask refuses bigger request bodies with 413 before our code reads them.
        "MAX_CONTENT_LENGTH": _int("MAX_UPLOAD_BYTES", 25 * 1024 * 1024) + 1024 * 1024,
        "BENCH_ENDPOINTS": _bool("BENCH_ENDPOINTS", False),
        # Email: SMTP when MAIL_SERVER is set (MAIL_USE_TLS: STARTTLS), else each message is
        # written as an .eml file to MAIL_DIR. Sent by the send-mail actor, never by a request.
        "MAIL_SERVER": os.environ.get("MAIL_SERVER") or None,
        "MAIL_PORT": _int("MAIL_PORT", 25),
        "MAIL_USERNAME": os.environ.get("MAIL_USERNAME") or None,
        "MAIL_PASSWORD": os.environ.get("MAIL_PASSWORD") or None,
        "MAIL_USE_TLS": _bool("MAIL_USE_TLS", False),
        "MAIL_FROM": os.environ.get("MAIL_FROM") or "LeadFlow <no-reply@localhost>",
        "MAIL_DIR": os.environ.get("MAIL_DIR", str(INSTANCE_DIR / "mail")),
        "MAIL_TIMEOUT_SECONDS": _int("MAIL_TIMEOUT_SECONDS", 10),
        # A client is reminded of a checklist item still missing this many days after the case
        # opened, and again at most once per this many days; the advisors' digest goes out daily
        # at MAIL_DAILY_HOUR (UTC), with the reminders.
        "REMINDER_AFTER_DAYS": _int("REMINDER_AFTER_DAYS", 3),
        "MAIL_DAILY_HOUR": _int("MAIL_DAILY_HOUR", 7),
        "WTF_CSRF_CHECK_DEFAULT": False,
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_HTTPONLY": True,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_SECURE": _bool("SESSION_COOKIE_SECURE", https),
        "REMEMBER_COOKIE_SECURE": _bool("SESSION_COOKIE_SECURE", https),
        "REMEMBER_COOKIE_HTTPONLY": True,
        "REMEMBER_COOKIE_SAMESITE": "Lax",
        # Failed sign-ins allowed per account (the email as typed, normalised) and per address,
        # in the `limits` notation; a breach answers 429 until the window has passed.
        "LOGIN_RATE_LIMIT_PER_ACCOUNT": os.environ.get("LOGIN_RATE_LIMIT_PER_ACCOUNT") or "10 per 15 minutes",
        "LOGIN_RATE_LIMIT_PER_ADDRESS": os.environ.get("LOGIN_RATE_LIMIT_PER_ADDRESS") or "50 per 15 minutes",
        # Counters shared by every web process through Redis; per process in the embedded mode.
        "RATELIMIT_STORAGE_URI": os.environ.get("RATELIMIT_STORAGE_URI") or redis_url or "memory://",
        "RATELIMIT_KEY_PREFIX": os.environ.get("RATELIMIT_KEY_PREFIX", "leadflow:ratelimit"),
        "RATELIMIT_HEADERS_ENABLED": True,
        # Redis down must not turn sign-in into a 500: count in this process until it is back.
        "RATELIMIT_IN_MEMORY_FALLBACK_ENABLED": True,
        "RATELIMIT_SWALLOW_ERRORS": True,
        # Proxies in front of the app whose X-Forwarded-For/-Proto to trust (0: none, the
        # address limits then count the peer's address).
        "TRUSTED_PROXY_COUNT": _int("TRUSTED_PROXY_COUNT", 0),
        # Bearer token Prometheus sends to /metrics; unset, /metrics answers loopback only.
        "METRICS_TOKEN": os.environ.get("METRICS_TOKEN") or None,
        # Seconds added to the real time for every timestamp and date rule (negative: the past), the
        # same in every process, for tests and benchmarks whose documents were issued on known
        # dates. Unset or 0: the real time.
        "CLOCK_OFFSET_SECONDS": float(os.environ.get("LEADFLOW_CLOCK_OFFSET_SECONDS") or 0),
    }
