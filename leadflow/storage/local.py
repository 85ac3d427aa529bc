"""Object storage in a local folder, with signed URLs that `leadflow.web.files` serves.

Layout under the root folder:

    objects/<key>        the bytes, exactly as uploaded (browsable while developing)
    meta/<key>.json      {"content_type": ...}, the sidecar that `head` reads
    sealed/<sha256>      an empty marker: the key was moved away (a completed upload), and
                         its signed upload URL is refused from then on; named by the key's hash,
                         because a key holds the client's file name and the marker outlives an
                         erasure of their files
    tmp/                 files being written; renamed into place with os.replace

The sidecars live in their own tree so that no key can collide with another key's sidecar,
and temporary files live outside `objects/` so that a half-written file is never visible
under a key. A put writes the bytes first, then the sidecar: a crash between the two leaves
the new bytes with the old content type, never a sidecar without bytes.

Signed URLs are itsdangerous tokens that carry their own expiry time; a download token and
an upload token use different salts, so one can never be replayed as the other.
"""
import hashlib
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import BinaryIO

from flask import has_request_context, request

from itsdangerous import BadData, URLSafeSerializer

from leadflow.storage.base import ObjectInfo, ObjectMissing, StorageError, check_key

log = logging.getLogger(__name__)

# Where the `files` blueprint is mounted; the URLs built here must match it.
URL_PREFIX = "/files"
DEFAULT_ROOT = "instance/storage"
DEFAULT_PUBLIC_BASE_URL = "http://127.0.0.1:5000"
_DOWNLOAD_SALT = "leadflow.storage.local.download"
_UPLOAD_SALT = "leadflow.storage.local.upload"
# Errors from opening a path that mean "no object here": the key names a missing file, a
# folder of other keys ("a" when "a/b" exists), or goes through a file ("a/b" when "a" exists).
_ABSENT = (FileNotFoundError, IsADirectoryError, NotADirectoryError)


class InvalidToken(StorageError):
    """A signed URL's token is forged, malformed, meant for another route, or expired."""


@dataclass(frozen=True)
class UploadGrant:
    """What a valid upload token allows: one key, one content type, at most max_bytes."""

    key: str
    content_type: str
    max_bytes: int


class LocalStorage:
    """The Storage interface on a folder; see the module docstring for the layout."""

    def __init__(
        self,
        root: str | os.PathLike,
        *,
        public_base_url: str,
        secret_key: str | bytes | Iterable[str | bytes],
        clock: Callable[[], float] = time.time,
    ):
        if not secret_key:
            raise ValueError("LocalStorage needs a SECRET_KEY to sign its URLs")
        self.root = os.path.realpath(root)
        self.public_base_url = public_base_url.rstrip("/")
        self._objects = os.path.join(self.root, "objects")
        self._meta = os.path.join(self.root, "meta")
        self._tmp = os.path.join(self.root, "tmp")
        self._sealed = os.path.join(self.root, "sealed")
        for folder in (self._objects, self._meta, self._tmp, self._sealed):
            os.makedirs(folder, exist_ok=True)
        # itsdangerous takes a list of keys, newest last, to verify with old keys after a
        # rotation while signing only with the newest.
        self._download_signer = URLSafeSerializer(secret_key, salt=_DOWNLOAD_SALT)
        self._upload_signer = URLSafeSerializer(secret_key, salt=_UPLOAD_SALT)
        self._clock = clock

    @classmethod
    def from_config(cls, config: Mapping) -> "LocalStorage":
        """Built from LOCAL_STORAGE_DIR, PUBLIC_BASE_URL, SECRET_KEY (+ SECRET_KEY_FALLBACKS)."""
        secret = config.get("SECRET_KEY")
        fallbacks = list(config.get("SECRET_KEY_FALLBACKS") or [])
        return cls(
            config.get("LOCAL_STORAGE_DIR") or DEFAULT_ROOT,
            public_base_url=config.get("PUBLIC_BASE_URL") or DEFAULT_PUBLIC_BASE_URL,
            secret_key=[*fallbacks, secret] if secret and fallbacks else secret,
        )

    # -- the Storage interface ----------------------------------------------------------

    def put(self, key: str, data: bytes, content_type: str) -> None:
        path, meta = self._object_path(key), self._meta_path(key)
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            os.makedirs(os.path.dirname(meta), exist_ok=True)
            self._write_atomically(path, data)
            self._write_atomically(meta, json.dumps({"content_type": content_type}).encode())
        except (FileExistsError, NotADirectoryError, IsADirectoryError) as exc:
            # S3 allows both "a" and "a/b"; a file system cannot. LeadFlow's keys never do this.
            raise StorageError(f"key {key!r} conflicts with another key's path") from exc
        except OSError as exc:
            raise StorageError(f"could not write {key!r}") from exc

    def get(self, key: str) -> bytes:
        stream, _ = self.open(key)
        with stream:
            return self._read(stream, key)

    def read_prefix(self, key: str, length: int) -> bytes:
        if length < 0:
            raise ValueError("length must not be negative")
        stream, _ = self.open(key)
        with stream:
            return self._read(stream, key, length)

    def head(self, key: str) -> ObjectInfo | None:
        try:
            status = os.stat(self._object_path(key))
        except _ABSENT:
            return None
        except OSError as exc:
            raise StorageError(f"could not stat {key!r}") from exc
        if not stat.S_ISREG(status.st_mode):
            return None  # a folder of other keys, not an object
        return ObjectInfo(size=status.st_size, content_type=self._content_type(key))

    def delete(self, key: str) -> None:
        # Bytes first: once they are gone `head` says None, whatever happens to the sidecar.
        for path in (self._object_path(key), self._meta_path(key)):
            try:
                os.unlink(path)
            except _ABSENT:
                pass
            except OSError as exc:
                raise StorageError(f"could not delete {key!r}") from exc

    def move(self, source: str, target: str) -> None:
        source_path, source_meta = self._object_path(source), self._meta_path(source)
        target_path, target_meta = self._object_path(target), self._meta_path(target)
        seal = self._seal_path(source)
        try:
            for folder in (target_path, target_meta, seal):
                os.makedirs(os.path.dirname(folder), exist_ok=True)
            # Sealed before the bytes leave: from here on the upload route refuses this key.
            self._write_atomically(seal, b"")
            if not os.path.isfile(source_path):
                raise ObjectMissing(source)
            content_type = self._content_type(source)
            self._write_atomically(target_meta, json.dumps({"content_type": content_type}).encode())
            # One rename: the bytes are either still at the source or already at the target.
            os.replace(source_path, target_path)
            try:
                os.unlink(source_meta)
            except _ABSENT:
                pass
        except _ABSENT as exc:
            raise ObjectMissing(source) from exc
        except ObjectMissing:
            raise
        except OSError as exc:
            raise StorageError(f"could not move {source!r} to {target!r}") from exc

    def download_url(self, key: str, expires_in: int = 300) -> str:
        check_key(key)
        token = self._download_signer.dumps({"k": key, "e": self._expiry(expires_in)})
        # Always the configured address: the extraction service fetches these, and a request's
        # Host header (which a client controls) must never decide where a signed token is sent.
        return f"{self.public_base_url}{URL_PREFIX}/{token}"

    def upload_target(
        self, key: str, content_type: str, max_bytes: int, expires_in: int = 900
    ) -> dict:
        check_key(key)
        if not content_type or not isinstance(content_type, str):
            raise ValueError("content_type is required")
        if max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        token = self._upload_signer.dumps(
            {"k": key, "ct": content_type, "max": max_bytes, "e": self._expiry(expires_in)}
        )
        return {
            "method": "PUT",
            "url": f"{self._upload_base_url()}{URL_PREFIX}/upload/{token}",
            "headers": {"Content-Type": content_type},
        }

    def _upload_base_url(self) -> str:
        """Where a browser uploads: in a request, the address it used (a page on localhost
        uploads to localhost: same origin, no CORS; a forged Host header only misdirects the
        forger's own upload); elsewhere the configured PUBLIC_BASE_URL."""
        if has_request_context():
            return request.host_url.rstrip("/")
        return self.public_base_url

    # -- what the files blueprint needs -------------------------------------------------

    def open(self, key: str) -> tuple[BinaryIO, ObjectInfo]:
        """An open binary stream of the object (caller closes it) and its info."""
        path = self._object_path(key)
        try:
            stream = open(path, "rb")
        except _ABSENT as exc:
            raise ObjectMissing(key) from exc
        except OSError as exc:
            raise StorageError(f"could not open {key!r}") from exc
        size = os.fstat(stream.fileno()).st_size
        return stream, ObjectInfo(size=size, content_type=self._content_type(key))

    def is_sealed(self, key: str) -> bool:
        """True once the key was moved away by `move`: its upload URL is spent."""
        return os.path.exists(self._seal_path(key))

    def _seal_path(self, key: str) -> str:
        return os.path.join(self._sealed, hashlib.sha256(check_key(key).encode()).hexdigest())

    def verify_download(self, token: str) -> str:
        """The key a download token grants; InvalidToken if it does not verify or expired."""
        payload = self._verify(self._download_signer, token, {"k": str, "e": int})
        return check_key(payload["k"])

    def verify_upload(self, token: str) -> UploadGrant:
        """What an upload token grants; InvalidToken if it does not verify or expired."""
        payload = self._verify(
            self._upload_signer, token, {"k": str, "ct": str, "max": int, "e": int}
        )
        return UploadGrant(key=check_key(payload["k"]), content_type=payload["ct"],
                           max_bytes=payload["max"])

    # -- helpers ------------------------------------------------------------------------

    def _object_path(self, key: str) -> str:
        return self._inside(self._objects, check_key(key))

    def _meta_path(self, key: str) -> str:
        return self._inside(self._meta, check_key(key) + ".json")

    def _inside(self, base: str, relative: str) -> str:
        path = os.path.join(base, *relative.split("/"))
        # check_key already rules out ".." and absolute keys; this also catches a symlink
        # planted inside the folder that points out of it.
        if not os.path.realpath(path).startswith(base + os.sep):
            raise StorageError(f"key {relative!r} resolves outside the storage folder")
        return path

    def _write_atomically(self, path: str, data: bytes) -> None:
        fd, tmp = tempfile.mkstemp(dir=self._tmp)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(data)
                out.flush()
                os.fsync(out.fileno())
            os.replace(tmp, path)
        except BaseException:
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            raise

    def _content_type(self, key: str) -> str | None:
        try:
            with open(self._meta_path(key), "rb") as meta:
                return json.load(meta).get("content_type")
        except _ABSENT:
            return None
        except (OSError, ValueError):
            # A damaged sidecar loses the content type, not the object.
            log.warning("unreadable content-type sidecar for %r", key)
            return None

    @staticmethod
    def _read(stream: BinaryIO, key: str, length: int = -1) -> bytes:
        try:
            return stream.read(length)
        except OSError as exc:
            raise StorageError(f"could not read {key!r}") from exc

    def _expiry(self, expires_in: int) -> int:
        if expires_in < 1:
            raise ValueError("expires_in must be at least one second")
        return int(self._clock()) + int(expires_in)

    def _verify(self, signer: URLSafeSerializer, token: str, shape: dict) -> dict:
        try:
            payload = signer.loads(token)
        except BadData as exc:
            raise InvalidToken("token does not verify") from exc
        if not isinstance(payload, dict) or any(
            not isinstance(payload.get(name), kind) for name, kind in shape.items()
        ):
            raise InvalidToken("token payload has the wrong shape")
        if self._clock() >= payload["e"]:
            raise InvalidToken("token expired")
        return payload
