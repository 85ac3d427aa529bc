"""Security headers on every answer: a Content-Security-Policy that runs only our own scripts and
styles, no framing of our pages by other sites, no MIME sniffing, no full URLs in Referer."""
import logging
from urllib.parse import urlsplit

from flask import Flask, current_app

log = logging.getLogger(__name__)

# Pages: our scripts and styles only (htmx's inline indicator style is switched off in base.html
# and its rules live in app.css); previews may embed a stored file, which in the S3 mode is
# served from the storage's own origin (added at start-up).
PAGE_POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:", "blob:"],
    "object-src": ["'self'"],
    "frame-src": ["'self'"],
    "connect-src": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'self'"],
}
# Where the storage origin must be allowed: previews (img, object, frame), direct uploads
# (connect) and the portal's no-script upload form (form-action).
STORAGE_DIRECTIVES = ("img-src", "object-src", "frame-src", "connect-src", "form-action")
# Files (a PDF or a scan shown in a preview on our own page) may be framed by our pages only.
FILE_POLICY = "frame-ancestors 'self'"


def init_app(app: Flask) -> None:
    app.extensions["leadflow_csp"] = page_policy(_storage_origin(app))
    app.after_request(add_security_headers)


def page_policy(storage_origin: str | None = None) -> str:
    directives = {name: list(sources) for name, sources in PAGE_POLICY.items()}
    if storage_origin:
        for name in STORAGE_DIRECTIVES:
            directives[name].append(storage_origin)
    return "; ".join(f"{name} {' '.join(sources)}" for name, sources in directives.items())


def add_security_headers(response):
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("Referrer-Policy", "same-origin")
    if response.mimetype == "text/html":
        headers.setdefault("Content-Security-Policy", current_app.extensions["leadflow_csp"])
        headers.setdefault("X-Frame-Options", "DENY")
    else:
        headers.setdefault("Content-Security-Policy", FILE_POLICY)
        headers.setdefault("X-Frame-Options", "SAMEORIGIN")
    return response


def _storage_origin(app: Flask) -> str | None:
    """The origin stored files are read from and uploaded to, when it is not the app's own."""
    storage = app.extensions.get("leadflow_storage")
    try:
        url = storage.download_url("csp-origin-probe", expires_in=60)
    except Exception:  # signing needs credentials; without them no file is served either
        log.warning("could not sign a storage URL to learn its origin; the CSP allows our own origin only")
        return None
    parts = urlsplit(url)
    origin = f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else None
    return origin
