"""Fetching a job's document over HTTP, streamed, with a timeout and a size cap."""
import logging
from urllib.parse import urlsplit

import requests

from leadflow.extractor.errors import FetchFailed, TooLarge

log = logging.getLogger(__name__)

MAX_DOCUMENT_BYTES = 30 * 1024 * 1024  # larger uploads are refused upstream too; a cap stops a runaway stream
CONNECT_TIMEOUT = 5.0
READ_TIMEOUT = 30.0  # per socket read, not for the whole body
CHUNK = 64 * 1024


def fetch(url: str, *, max_bytes: int = MAX_DOCUMENT_BYTES, session: requests.Session | None = None) -> bytes:
    """Return the body at `url`; raise FetchFailed or TooLarge, never anything else."""
    if urlsplit(url).scheme not in ("http", "https"):
        raise FetchFailed(f"document_url must be http or https, got {url[:80]!r}", retryable=False)
    getter = session or requests
    try:
        with getter.get(url, stream=True, timeout=(CONNECT_TIMEOUT, READ_TIMEOUT),
                        allow_redirects=True) as response:
            if response.status_code != 200:
                # 4xx will not heal by itself (expired signed URL, missing object); 5xx may.
                raise FetchFailed(f"document_url answered HTTP {response.status_code}",
                                  retryable=response.status_code >= 500 or response.status_code == 429)
            declared = response.headers.get("Content-Length")
            if declared and declared.isdigit() and int(declared) > max_bytes:
                raise TooLarge(f"document is {int(declared)} bytes; the limit is {max_bytes}")
            body = bytearray()
            for chunk in response.iter_content(CHUNK):
                body += chunk
                if len(body) > max_bytes:
                    raise TooLarge(f"document is over the {max_bytes}-byte limit")
            return bytes(body)
    except requests.RequestException as exc:
        raise FetchFailed(f"could not fetch document_url: {type(exc).__name__}: {exc}") from exc
