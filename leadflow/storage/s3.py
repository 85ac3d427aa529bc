"""Object storage on any S3 API (AWS S3, MinIO, Ceph, R2, moto) through boto3.

Credentials come from boto3's own chain (environment, shared files, instance roles); this
module never reads, stores or logs them. botocore's errors are turned into the storage
errors at this edge, so callers see ObjectMissing or StorageError, never a ClientError.
"""
import logging
from collections.abc import Iterator
from contextlib import contextmanager

import boto3
from botocore.config import Config
from botocore.exceptions import BotoCoreError, ClientError
from botocore.utils import determine_content_length

from leadflow.storage.base import DEFAULT_S3_REGION, ObjectInfo, ObjectMissing, StorageError, check_key

log = logging.getLogger(__name__)

# GetObject says NoSuchKey; HeadObject has no body, so only the status code, "404".
_MISSING_CODES = frozenset({"NoSuchKey", "404", "NotFound"})
_NO_BUCKET_CODES = frozenset({"NoSuchBucket", "404", "NotFound"})
# Up to this size a put sends its body straight away instead of asking first ("Expect:
# 100-continue"), see `_send_small_bodies_at_once`.
ASK_BEFORE_SENDING_ABOVE = 1024 * 1024


class S3Storage:
    """The Storage interface on one S3 bucket."""

    def __init__(
        self,
        bucket: str,
        *,
        endpoint_url: str | None = None,
        region: str = DEFAULT_S3_REGION,
        create_bucket: bool = False,
        client=None,
    ):
        self.bucket = bucket
        self.region = region
        # A session of our own: boto3's default session is shared module state and is not
        # safe to create clients from concurrently; the client itself is thread-safe.
        made_here = client is None
        self._client = client or boto3.session.Session().client(
            "s3",
            endpoint_url=endpoint_url,
            region_name=region,
            config=Config(
                signature_version="s3v4",
                # MinIO and moto answer on one host name, so buckets go in the path there;
                # on AWS let botocore choose virtual-hosted style.
                s3={"addressing_style": "path" if endpoint_url else "auto"},
                connect_timeout=5,
                read_timeout=30,
                retries={"mode": "standard", "max_attempts": 3},
                # Every parameter is built here, from checked keys, so botocore's validation of
                # them only costs time. A CRC32 of each body, computed on every put and checked
                # on every get, repeats what TLS already checks on the way; the file's SHA-256
                # is recorded on its document, and botocore still adds a checksum where S3
                # requires one. Together about an eighth of a put's CPU: 1.54 ms instead of
                # 1.75 ms for 14 kB (`python -m bench.storage_cpu`).
                parameter_validation=False,
                request_checksum_calculation="when_required",
                response_checksum_validation="when_required",
            ),
        )
        if made_here:
            self._client.meta.events.register("before-sign.s3.PutObject", _send_small_bodies_at_once)
        if create_bucket:
            self._ensure_bucket()

    def put(self, key: str, data: bytes, content_type: str) -> None:
        with self._translated("put", key):
            self._client.put_object(
                Bucket=self.bucket, Key=check_key(key), Body=data, ContentType=content_type
            )

    def get(self, key: str) -> bytes:
        with self._translated("get", key):
            body = self._client.get_object(Bucket=self.bucket, Key=check_key(key))["Body"]
            with body:
                return body.read()

    def read_prefix(self, key: str, length: int) -> bytes:
        if length < 0:
            raise ValueError("length must not be negative")
        check_key(key)
        if length == 0:
            if self.head(key) is None:
                raise ObjectMissing(key)
            return b""
        try:
            with self._translated("read_prefix", key):
                body = self._client.get_object(
                    Bucket=self.bucket, Key=key, Range=f"bytes=0-{length - 1}"
                )["Body"]
                with body:
                    # A server that ignores Range sends everything: read only what was asked.
                    return body.read(length)
        except StorageError as exc:
            # S3 answers 416 InvalidRange for any range of an empty object.
            if _code(exc.__cause__) != "InvalidRange":
                raise
            if self.head(key) is None:
                raise ObjectMissing(key) from None
            return b""

    def head(self, key: str) -> ObjectInfo | None:
        try:
            with self._translated("head", key):
                response = self._client.head_object(Bucket=self.bucket, Key=check_key(key))
        except ObjectMissing:
            return None
        return ObjectInfo(size=response["ContentLength"], content_type=response.get("ContentType"))

    def delete(self, key: str) -> None:
        # DeleteObject succeeds on an absent key, which is the contract we want.
        with self._translated("delete", key):
            self._client.delete_object(Bucket=self.bucket, Key=check_key(key))

    def move(self, source: str, target: str) -> None:
        # S3 has no rename: a server-side copy (up to 5 GB, far above our upload limit), then
        # the source is deleted. A POST to the upload URL afterwards recreates only the source
        # key, which nothing reads.
        with self._translated("move", source):
            self._client.copy_object(
                Bucket=self.bucket, Key=check_key(target),
                CopySource={"Bucket": self.bucket, "Key": check_key(source)}, MetadataDirective="COPY",
            )
        self.delete(source)

    def download_url(self, key: str, expires_in: int = 300) -> str:
        # Signed locally; no request is made, so an absent object gives a URL that 404s.
        with self._translated("download_url", key):
            return self._client.generate_presigned_url(
                "get_object",
                Params={"Bucket": self.bucket, "Key": check_key(key)},
                ExpiresIn=expires_in,
            )

    def upload_target(
        self, key: str, content_type: str, max_bytes: int, expires_in: int = 900
    ) -> dict:
        if not content_type or not isinstance(content_type, str):
            raise ValueError("content_type is required")
        if max_bytes < 1:
            raise ValueError("max_bytes must be at least 1")
        # A pre-signed POST, not a pre-signed PUT: only a POST policy lets S3 itself refuse
        # a body that is too large or of another type before anything is stored.
        with self._translated("upload_target", key):
            post = self._client.generate_presigned_post(
                self.bucket,
                check_key(key),
                Fields={"Content-Type": content_type},
                Conditions=[
                    {"Content-Type": content_type},
                    ["content-length-range", 1, max_bytes],
                ],
                ExpiresIn=expires_in,
            )
        return {"method": "POST", "url": post["url"], "fields": post["fields"]}

    def _ensure_bucket(self) -> None:
        try:
            self._client.head_bucket(Bucket=self.bucket)
            return
        except ClientError as exc:
            if _code(exc) not in _NO_BUCKET_CODES:
                raise StorageError(f"cannot reach bucket {self.bucket!r}: {_code(exc)}") from exc
        except BotoCoreError as exc:
            raise StorageError(f"cannot reach bucket {self.bucket!r}") from exc
        # us-east-1 is the one region that refuses an explicit LocationConstraint.
        extra = {}
        if self.region != "us-east-1":
            extra["CreateBucketConfiguration"] = {"LocationConstraint": self.region}
        try:
            self._client.create_bucket(Bucket=self.bucket, **extra)
            log.info("created bucket %s", self.bucket)
        except ClientError as exc:
            # Another process created it between our HEAD and CREATE: that is success.
            if _code(exc) != "BucketAlreadyOwnedByYou":
                raise StorageError(f"could not create bucket {self.bucket!r}: {_code(exc)}") from exc
        except BotoCoreError as exc:
            raise StorageError(f"could not create bucket {self.bucket!r}") from exc

    @contextmanager
    def _translated(self, operation: str, key: str) -> Iterator[None]:
        try:
            yield
        except ClientError as exc:
            if _code(exc) in _MISSING_CODES:
                raise ObjectMissing(key) from exc
            raise StorageError(f"S3 {operation} of {key!r} failed: {_code(exc)}") from exc
        except BotoCoreError as exc:
            raise StorageError(f"S3 {operation} of {key!r} failed: {type(exc).__name__}") from exc


def _send_small_bodies_at_once(request, **_) -> None:
    """botocore asks S3 for a "100 Continue" before every put's body: a round trip more and, on
    the client, a response more to wait for and parse, 3-12% of a put's CPU for our files
    (`python -m bench.storage_cpu`). Asking first saves sending a large body that S3 would refuse
    anyway (a bad signature, a redirect); for a body of a few hundred kilobytes it only costs."""
    if "Expect" in request.headers:
        size = determine_content_length(request.body)
        if size is not None and size <= ASK_BEFORE_SENDING_ABOVE:
            del request.headers["Expect"]


def _code(exc: BaseException | None) -> str:
    if isinstance(exc, ClientError):
        return str(exc.response.get("Error", {}).get("Code", ""))
    return ""
