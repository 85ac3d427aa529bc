"""Fixtures shared by the whole suite live in tests/plugins/; see each module's docstring."""
from pathlib import Path

pytest_plugins = ["tests.plugins.postgres", "tests.plugins.redis_server", "tests.plugins.s3", "tests.plugins.live"]

SAMPLES = Path(__file__).resolve().parents[2] / "shared" / "samples"
