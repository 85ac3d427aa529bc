"""Standard Webhooks signatures (https://www.standardwebhooks.com): sign and verify.

Written here rather than taken from the `standardwebhooks` package because that package
raises assorted exceptions (ValueError, binascii.Error, UnicodeDecodeError) on malformed
headers and cannot verify against an injected clock; a callback endpoint must turn every
malformed header into a 401, and tests need the published known-answer vector.
"""
import base64
import binascii
import hashlib
import hmac
import re
import time

SECRET_PREFIX = "whsec_"
TOLERANCE_SECONDS = 5 * 60
_TIMESTAMP = re.compile(r"[0-9]{1,12}")


class WebhookVerificationError(Exception):
    """The delivery's signature headers are missing, malformed, stale or wrong."""


def decode_secret(secret: str) -> bytes:
    """Turn a `whsec_<base64>` secret into its key bytes."""
    body = secret[len(SECRET_PREFIX):] if secret.startswith(SECRET_PREFIX) else secret
    try:
        key = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError) as exc:
        raise ValueError("webhook secret is not base64") from exc
    if not key:
        raise ValueError("webhook secret is empty")
    return key


def sign(secret: str, msg_id: str, timestamp: int, body: bytes) -> str:
    """The `webhook-signature` value (one `v1,<base64>` entry) for a delivery."""
    to_sign = f"{msg_id}.{timestamp}.".encode() + body
    digest = hmac.new(decode_secret(secret), to_sign, hashlib.sha256).digest()
    return "v1," + base64.b64encode(digest).decode()


def headers_for(secret: str, msg_id: str, body: bytes, timestamp: int | None = None) -> dict:
    """The three headers a sender attaches to a delivery."""
    ts = int(time.time()) if timestamp is None else timestamp
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(ts),
        "webhook-signature": sign(secret, msg_id, ts, body),
    }


def verify(secrets: list[str] | str, headers, body: bytes, now: float | None = None) -> str:
    """Check a delivery's signature; return its `webhook-id`.

    `secrets` may hold several secrets (rotation); the signature header may hold several
    space-separated `v1,<sig>` entries. Any one match passes.
    """
    if isinstance(secrets, str):
        secrets = [secrets]
    msg_id = (headers.get("webhook-id") or "").strip()
    raw_ts = (headers.get("webhook-timestamp") or "").strip()
    raw_sigs = (headers.get("webhook-signature") or "").strip()
    if not (msg_id and raw_ts and raw_sigs):
        raise WebhookVerificationError("missing webhook-id, webhook-timestamp or webhook-signature")
    if len(msg_id) > 255:
        raise WebhookVerificationError("webhook-id is too long")
    if not msg_id.isprintable():   # it becomes a key in the database, where a NUL cannot go
        raise WebhookVerificationError("webhook-id contains control characters")
    # ASCII digits, at most 12 of them (seconds until the year 33658): str.isdigit() also takes
    # "²" and "٣", and int() refuses more than 4,300 digits with a ValueError of its own.
    if not _TIMESTAMP.fullmatch(raw_ts):
        raise WebhookVerificationError("webhook-timestamp is not a whole number of seconds")
    ts = int(raw_ts)
    clock = time.time() if now is None else now
    if abs(clock - ts) > TOLERANCE_SECONDS:
        raise WebhookVerificationError("webhook-timestamp is outside the 5-minute tolerance")

    offered = []
    for entry in raw_sigs.split():
        version, _, sig = entry.partition(",")
        if version != "v1" or not sig:
            continue
        try:
            offered.append(base64.b64decode(sig, validate=True))
        except (binascii.Error, ValueError):
            continue
    if not offered:
        raise WebhookVerificationError("no v1 signature in webhook-signature")

    for secret in secrets:
        expected = base64.b64decode(sign(secret, msg_id, ts, body)[3:])
        if any(hmac.compare_digest(expected, candidate) for candidate in offered):
            return msg_id
    raise WebhookVerificationError("no signature matches")
