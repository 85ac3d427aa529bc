"""Fields of a bank_statement, parsed from its recovered text."""
from leadflow.extractor.fields.types import AMOUNT, DATE, TEXT  # noqa: F401

SCHEMAS: dict[str, dict] = {}


def parse(reading) -> dict:
    return {}
