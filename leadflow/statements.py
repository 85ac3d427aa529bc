"""Statements of the pipeline's hot path, built once per shape and kept.

Building a SQLAlchemy statement and computing its cache key cost about as much CPU as running
it: a fifth of a worker's time went there (py-spy, bench-pipeline, 2026-12-03). A statement
whose shape repeats (the same columns, the same number of rows) is built once with bind
parameters, and each run only binds values.
"""
from collections.abc import Callable, Hashable

from sqlalchemy import bindparam, case

# A statement for more rows than this is built for its own run and not kept, so that the shapes
# kept stay few (a batch is at most a few dozen rows; only an unusual caller passes more).
MAX_KEPT_ROWS = 64

_BUILT: dict[Hashable, object] = {}


def built_once(shape: Hashable, build: Callable[[], object], *, rows: int = 1):
    """The statement of `shape`, from `build` the first time. Two threads that build the same
    shape at once both build it, and one of the two is kept: the same statement either way."""
    statement = _BUILT.get(shape)
    if statement is None:
        statement = build()
        if rows <= MAX_KEPT_ROWS:
            _BUILT[shape] = statement
    return statement


def row_parameters(prefix: str, count: int, type_) -> list:
    """One bind parameter per row, `<prefix>_0` … (an expanding IN list would be rendered into
    the SQL anew at every run, the cost a kept statement saves)."""
    return [bindparam(f"{prefix}_{i}", type_=type_) for i in range(count)]


def per_row(key, row_keys: list, prefix: str, type_):
    """A value per row, as a CASE on `key`: `<prefix>_<i>` for the row whose key is
    `row_keys[i]`, typed as its column is (a JSON column's list is bound as JSON, not guessed
    from the value); NULL for a row not among them."""
    return case(*[(row_key, bindparam(f"{prefix}_{i}", type_=type_)) for i, row_key in enumerate(row_keys)],
                value=key)
