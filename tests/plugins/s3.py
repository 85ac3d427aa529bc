"""Pytest fixtures for a real S3 API: moto's server on a free local port, spoken to over HTTP.

Registered globally by the top conftest, so this module only defines fixtures: nothing
starts until a test asks for `s3_endpoint` or `s3_storage`. Setting TEST_S3_ENDPOINT_URL
(and the usual AWS_* credentials) runs the same tests against MinIO or AWS instead.
"""
import os
import uuid

import pytest

from leadflow.storage.s3 import S3Storage

EXTERNAL_ENDPOINT_ENV = "TEST_S3_ENDPOINT_URL"
REGION = os.environ.get("TEST_S3_REGION", "eu-central-1")
# Dummy credentials: botocore signs with them, moto accepts any. Set for the whole session
# so that no real profile or instance role of the developer's machine can ever be used.
_FAKE_AWS_ENV = {
    "AWS_ACCESS_KEY_ID": "testing",
    "AWS_SECRET_ACCESS_KEY": "testing",
    "AWS_SESSION_TOKEN": "testing",
    "AWS_DEFAULT_REGION": REGION,
}
_REAL_AWS_ENV = ("AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CONFIG_FILE", "AWS_SHARED_CREDENTIALS_FILE")


@pytest.fixture(scope="session")
def s3_endpoint():
    """The URL of a moto S3 server running in this test process (session-wide)."""
    external = os.environ.get(EXTERNAL_ENDPOINT_ENV)
    if external:
        yield external.rstrip("/")
        return
    from moto.server import ThreadedMotoServer

    with pytest.MonkeyPatch.context() as env:
        for name, value in _FAKE_AWS_ENV.items():
            env.setenv(name, value)
        for name in _REAL_AWS_ENV:
            env.delenv(name, raising=False)
        # A proxy in the environment must not carry requests meant for 127.0.0.1.
        for name in ("NO_PROXY", "no_proxy"):
            env.setenv(name, ",".join(filter(None, [os.environ.get(name), "127.0.0.1", "localhost"])))
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        try:
            yield f"http://{host}:{port}"
        finally:
            server.stop()


@pytest.fixture
def s3_storage(s3_endpoint):
    """An S3Storage on a fresh bucket of its own, emptied and removed afterwards."""
    bucket = f"leadflow-test-{uuid.uuid4().hex[:12]}"
    storage = S3Storage(bucket, endpoint_url=s3_endpoint, region=REGION, create_bucket=True)
    yield storage
    client = storage._client
    for page in client.get_paginator("list_objects_v2").paginate(Bucket=bucket):
        for item in page.get("Contents", []):
            client.delete_object(Bucket=bucket, Key=item["Key"])
    client.delete_bucket(Bucket=bucket)
