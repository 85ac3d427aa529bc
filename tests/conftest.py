"""Fixtures shared by the whole suite live in tests/plugins/; see each module's docstring."""
pytest_plugins = ["tests.plugins.postgres", "tests.plugins.redis_server", "tests.plugins.s3", "tests.plugins.live"]

# Tests that take minutes on their own: run first, so that under `make test`'s two processes
# the other process works through the rest meanwhile instead of one waiting on them at the end.
LONGEST_FIRST = ("tests/model/",)


def pytest_collection_modifyitems(session, config, items):
    items.sort(key=lambda item: not item.nodeid.startswith(LONGEST_FIRST))
