"""The object storage interface: one Protocol, its errors and key rules.

A module of its own so that the adapters (`local`, `s3`) import it without importing the
package that chooses between them.
"""
import re
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

# S3's own limit on a key, in UTF-8 bytes; the local adapter keeps to it too so that a key
# valid on one adapter is valid on the other.
MAX_KEY_BYTES = 1024
# Characters no key may hold: a backslash (a path separator to some tools) and control
# characters (NUL ends a C path; newlines forge log lines and headers).
_FORBIDDEN = re.compile(r"[\\\x00-\x1f\x7f]")
DEFAULT_S3_REGION = "eu-central-1"


class StorageError(Exception):
    """Object storage failed; the cause is chained."""


class ObjectMissing(StorageError):
    """No object is stored under that key."""


class InvalidKey(StorageError, ValueError):
    """The key is not a relative path of safe segments (no "..", no leading "/")."""


@dataclass(frozen=True)
class ObjectInfo:
    """What `head` knows about a stored object."""

    size: int
    content_type: str | None


@runtime_checkable
class Storage(Protocol):
    """Where documents' bytes live. Keys are checked with `check_key` by every adapter."""

    def put(self, key: str, data: bytes, content_type: str) -> None:
        """Store `data` under `key`, replacing any object there."""

    def get(self, key: str) -> bytes:
        """The whole object; ObjectMissing if absent."""

    def read_prefix(self, key: str, length: int) -> bytes:
        """At most the first `length` bytes (magic-byte checks); ObjectMissing if absent."""

    def head(self, key: str) -> ObjectInfo | None:
        """Size and content type, or None if absent."""

    def delete(self, key: str) -> None:
        """Remove the object; an absent object is not an error."""

    def move(self, source: str, target: str) -> None:
        """Move the object (bytes and content type) to `target`, replacing any object there;
        afterwards `source` is absent. ObjectMissing if `source` is absent. A completed
        direct upload is moved out of the key its signed upload URL names, so that nothing
        written to that URL later can reach what LeadFlow reads."""

    def download_url(self, key: str, expires_in: int = 300) -> str:
        """A short-lived signed GET URL for the object."""

    def upload_target(
        self, key: str, content_type: str, max_bytes: int, expires_in: int = 900
    ) -> dict:
        """How a browser uploads straight to storage: {"method", "url", "fields" | "headers"}."""


def check_key(key: str) -> str:
    """Return `key` if it is a safe relative key, else raise InvalidKey.

    Safe: "/"-separated segments, none empty, "." or ".."; no leading "/", no backslash, no
    control character; at most MAX_KEY_BYTES. Such a key is the same object on S3 and a
    path that stays inside the local storage folder.
    """
    if not isinstance(key, str) or not key:
        raise InvalidKey(f"invalid storage key: {key!r}")
    if _FORBIDDEN.search(key) or any(part in ("", ".", "..") for part in key.split("/")):
        raise InvalidKey(f"invalid storage key: {key!r}")
    if len(key.encode()) > MAX_KEY_BYTES:
        raise InvalidKey(f"storage key longer than {MAX_KEY_BYTES} bytes")
    return key
