"""Reading ids, numbers and strings from a request, for every screen and the JSON API.

One place, so that a malformed value is a clear 400 or 404 before any use case runs and never
reaches the database: SQLite cannot bind an integer past 64 bits, PostgreSQL cannot store a NUL
in text, and both answer such a value with an exception rather than "no such row".
"""
import math
import re

from flask import abort, request

from leadflow import words
from leadflow.errors import InvalidInput

# Integer ids and numbers in the tables are 32-bit on PostgreSQL: a larger one names nothing.
MAX_INT = 2 ** 31 - 1
# Document and upload ids are uuid4().hex (leadflow.models.new_id).
_DOCUMENT_ID = re.compile(r"[0-9a-f]{32}")
_DIGITS = re.compile(r"[+-]?[0-9]{1,12}")
# Longer than any value a person sends (a document's corrected fields come back as JSON text
# in one form field); anything above it is not meant for us.
MAX_TEXT = 100_000


def is_document_id(raw) -> bool:
    return isinstance(raw, str) and _DOCUMENT_ID.fullmatch(raw) is not None


def integer(raw, name: str, *, minimum: int = 1, maximum: int = MAX_INT, message: str | None = None) -> int:
    """A whole number from a query string, a form or a JSON body, within [minimum, maximum].

    JSON numbers are taken as they are (not booleans, not 2.0); text must be plain digits."""
    if isinstance(raw, bool):
        value = None
    elif isinstance(raw, int):
        value = raw
    elif isinstance(raw, str) and _DIGITS.fullmatch(raw.strip()):
        value = int(raw.strip())
    else:
        value = None
    if value is None or not minimum <= value <= maximum:
        raise InvalidInput(message or f"{name} must be a whole number from {minimum} to {maximum}.",
                           code="invalid_number")
    return value


def optional_integer(raw, name: str, **bounds) -> int | None:
    """As `integer`, with an absent or empty value read as None."""
    if raw is None or (isinstance(raw, str) and not raw.strip()):
        return None
    return integer(raw, name, **bounds)


def int_arg(name: str, **bounds) -> int | None:
    """A whole number from the query string, or None when it is not there."""
    return optional_integer(request.args.get(name), name, **bounds)


def text(raw, name: str, *, max_length: int = 300, required: bool = False) -> str | None:
    """A string a person typed: trimmed, free of control characters other than tab and line breaks."""
    if raw is None:
        value = None
    elif not isinstance(raw, str):
        raise InvalidInput(f"{name} must be text.", code="invalid_text")
    else:
        value = raw.strip()
        if has_control_characters(value, allow="\t\r\n"):
            raise InvalidInput(f"{name} contains characters we cannot store.", code="invalid_text")
        if len(value) > max_length:
            raise InvalidInput(f"{name} is longer than {max_length} characters.", code="invalid_text")
    if required and not value:
        raise InvalidInput(f"{name} is required.", code="missing_field")
    return value or None


def has_control_characters(value: str, allow: str = "") -> bool:
    return any((ord(c) < 32 or c == "\x7f") and c not in allow for c in value)


def check_path_values(endpoint, values) -> None:
    """The app's url_value_preprocessor: ids in the path that cannot name a row are a 404."""
    if not values:
        return
    if "document_id" in values and not is_document_id(values["document_id"]):
        abort(404)
    workspace_id = values.get("workspace_id")
    if isinstance(workspace_id, int) and not 0 < workspace_id <= MAX_INT:
        abort(404)


def refuse_unstorable_input() -> None:
    """Before any view: a NUL, or a string longer than any field, in the query string, a form or a
    JSON body is refused at once (400) rather than reaching a query that would fail on it."""
    problem = _unstorable(request.args) or _unstorable(request.form) or _unstorable_json()
    if problem:
        raise InvalidInput(problem, code="invalid_text")


def _unstorable(multidict) -> str | None:
    for key, value in multidict.items(multi=True):
        if not isinstance(key, str) or not isinstance(value, str):
            # A multipart part whose name holds a line break is read by Werkzeug as a field
            # without a value (None): no form of ours sends one.
            return "A form field is malformed."
        if "\x00" in key or "\x00" in value:
            return "The request contains a NUL character."
        if len(key) > MAX_TEXT or len(value) > MAX_TEXT:
            return f"A field is longer than {MAX_TEXT} characters."
    return None


def _unstorable_json() -> str | None:
    if not request.is_json:
        return None
    try:
        body = request.get_json(silent=True)
    except RecursionError:   # nesting deeper than the parser goes is not a body we take
        return "The JSON body is nested too deeply."
    stack = [body]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return "The request contains a NUL character."
        elif isinstance(item, float):
            # NaN, Infinity and 1e999 (read as infinite) are Python's, not JSON's: no number we
            # take is one, and PostgreSQL's json columns refuse them.
            if not math.isfinite(item):
                return "The JSON body holds a number that is not finite."
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def typed_day(raw) -> str:
    """A date a person typed on a page, in either language's format (06.12.2026, 6 Dec 2026,
    2026-12-06), as the ISO text the services take; anything else as typed, for the service to
    refuse in words."""
    day = words.parse_day(str(raw or ""))
    return day.isoformat() if day else str(raw or "")
