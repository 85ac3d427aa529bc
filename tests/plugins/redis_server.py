"""Pytest fixtures for the real Redis at 127.0.0.1:6379 (or TEST_REDIS_URL), namespaced per run.

Registered globally by the top conftest, so this module only defines fixtures. Tests share
db 0 with anything else on the machine: they keep to channels and keys under a prefix that
is unique to the run, and never FLUSHALL/FLUSHDB.
"""
import os
import re
import uuid

import pytest
import redis

DEFAULT_URL = "redis://127.0.0.1:6379/0"


@pytest.fixture(scope="session")
def redis_url():
    """The URL of a reachable Redis. Skips on a developer machine without one; fails in CI."""
    url = os.environ.get("TEST_REDIS_URL", DEFAULT_URL)
    client = redis.Redis.from_url(url, socket_connect_timeout=1)
    try:
        client.ping()
    except redis.RedisError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"Redis is required in CI and is not reachable: {exc}")
        pytest.skip(f"no Redis reachable for integration tests: {exc}")
    finally:
        client.close()
    return url


@pytest.fixture(scope="session")
def redis_prefix():
    """A key and channel prefix unique to this test run."""
    return f"leadflow-test:{uuid.uuid4().hex[:12]}"


@pytest.fixture
def redis_channel(redis_prefix, request):
    """A pub/sub channel unique to this test, so parallel runs and tests never cross."""
    name = re.sub(r"[^A-Za-z0-9_]+", "-", request.node.name)[:60]
    return f"{redis_prefix}:{name}:{uuid.uuid4().hex[:6]}"
