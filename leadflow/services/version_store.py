"""Where a version's data lives in storage: one JSON object per version, holding its parts.

A job's result (content and schema) is written as one object, so that storing it is one
write and reading either part is one read; the content and schema rows of that version both
point at it. Objects written before this held one part each, the part itself as the whole
object: they are read as they are (no migration rewrites stored data), told apart from an
envelope by its `format` marker, which no extraction result carries.
"""
import json

from leadflow.storage.base import ObjectMissing, Storage

# Marks an object holding several parts; the number changes if the layout ever does.
ENVELOPE = "leadflow.version/1"
CONTENT_TYPE = "application/json"


def key(brokerage_id: int, document_id: str, name: str) -> str:
    """The key of a version object; `name` is the job's id, or what a person's version is."""
    return f"brokerages/{brokerage_id}/documents/{document_id}/versions/{name}.json"


def legacy_keys(brokerage_id: int, document_id: str, job_id: str) -> list[str]:
    """Where a job's result was written when each part was an object of its own (erasure
    removes these too: a result whose rows were never written has nothing pointing at it)."""
    return [f"brokerages/{brokerage_id}/documents/{document_id}/{part}/{job_id}.json" for part in ("content", "schema")]


def write(storage: Storage, key: str, parts: dict[str, dict]) -> None:
    """Store the parts of one version as one object, before any row points at it."""
    envelope = {"format": ENVELOPE, "parts": parts}
    storage.put(key, json.dumps(envelope, ensure_ascii=False).encode(), CONTENT_TYPE)


def read(storage: Storage, key: str, part: str):
    """One part of the version stored under `key`. ObjectMissing if the object or the part is
    absent; ValueError if the object is not JSON."""
    return part_of(storage.get(key), key, part)


def part_of(data: bytes, key: str, part: str):
    body = json.loads(data)
    if not (isinstance(body, dict) and body.get("format") == ENVELOPE and isinstance(body.get("parts"), dict)):
        return body  # an object of one part, as written before envelopes
    if part not in body["parts"]:
        raise ObjectMissing(f"{key} holds no {part}")
    return body["parts"][part]
