"""Object storage: the interface (`leadflow.storage.base`) and the choice by config.

Two adapters implement it: `leadflow.storage.s3.S3Storage` (any S3 API through boto3) and
`leadflow.storage.local.LocalStorage` (a folder, with signed URLs served by the app's
`files` blueprint). `storage_from_config` picks one, so nothing else in LeadFlow knows which.
"""
from collections.abc import Mapping

from leadflow.storage.base import (DEFAULT_S3_REGION, MAX_KEY_BYTES, InvalidKey, ObjectInfo, ObjectMissing,
                                   Storage, StorageError, check_key)

__all__ = ["DEFAULT_S3_REGION", "MAX_KEY_BYTES", "InvalidKey", "ObjectInfo", "ObjectMissing", "Storage",
           "StorageError", "check_key", "storage_from_config"]


def storage_from_config(config: Mapping) -> Storage:
    """S3Storage when S3_BUCKET is set, else LocalStorage (the embedded default)."""
    # Imported here: only the chosen adapter's client library is loaded.
    if config.get("S3_BUCKET"):
        from leadflow.storage.s3 import S3Storage

        return S3Storage(
            config["S3_BUCKET"],
            endpoint_url=config.get("S3_ENDPOINT_URL") or None,
            region=config.get("S3_REGION") or DEFAULT_S3_REGION,
            create_bucket=_as_bool(config.get("S3_CREATE_BUCKET", False)),
        )
    from leadflow.storage.local import LocalStorage

    return LocalStorage.from_config(config)


def _as_bool(value) -> bool:
    # Config may come straight from the environment, where "false" is a truthy string.
    if isinstance(value, str):
        return value.strip().lower() in {"1", "true", "yes", "on"}
    return bool(value)
