"""The content JSON LeadFlow's verification reads, and the JSON Schema (2020-12) that describes it."""
from leadflow.extractor.classify import detect_language
from leadflow.extractor.reading import Reading

MAX_TEXT_CHARS = 20_000  # the full text stays with the file; this is for search and a person's eye
SCHEMA_DIALECT = "https://json-schema.org/draft/2020-12/schema"


def build_content(reading: Reading, fields: dict, confidence: dict[str, float] | None = None,
                  evidence: dict[str, dict] | None = None, confirmed: dict[str, str] | None = None) -> dict:
    """`field_confidence` holds every field the content carries: how surely it was read, in [0, 1],
    0.0 when null. LeadFlow sends a field under 0.5 to a person instead of trusting it. `confirmed`
    names the fields read twice by independent means or cross-checked (`leadflow/extractor/confirm.py`),
    each with how: LeadFlow rejects a document only on those."""
    text = reading.text
    confidence = confidence or {}
    return {
        "fields": fields,
        "field_confidence": {name: (float(confidence.get(name, 0.0)) if fields[name] is not None else 0.0)
                             for name in fields},
        "field_evidence": {name: found for name, found in (evidence or {}).items() if name in fields},
        "confirmed": {name: means for name, means in (confirmed or {}).items()
                      if name in fields and fields[name] is not None},
        "text_chars": len(text),
        "language": detect_language(text),
        "pages": [{"number": p.number, "text_chars": len(p.text), "method": p.method} for p in reading.pages],
        "text": text[:MAX_TEXT_CHARS],
        "source": reading.format,
    }


def build_schema(document_type: str, field_schemas: dict[str, dict]) -> dict:
    """A schema for the whole content; `fields` lists exactly the keys the content carries."""
    return {
        "$schema": SCHEMA_DIALECT,
        "title": f"LeadFlow extraction content: {document_type}",
        "type": "object",
        "required": ["fields", "field_confidence", "text_chars", "language", "pages", "text"],
        "properties": {
            "fields": {
                "type": "object",
                "properties": field_schemas,
                "required": list(field_schemas),
                "additionalProperties": False,
            },
            "field_confidence": {
                "type": "object",
                "description": "how surely each field was read: label found, value parsed, cross-checks "
                               "passed give 0.9 and more; under 0.5 means it could not be read reliably; "
                               "0.0 when the field is null",
                "properties": {name: {"type": "number", "minimum": 0, "maximum": 1} for name in field_schemas},
                "required": list(field_schemas),
                "additionalProperties": False,
            },
            "field_evidence": {
                "type": "object",
                "description": "where a found field was read: the label next to it and the page",
                "additionalProperties": {
                    "type": "object",
                    "properties": {"label": {"type": ["string", "null"]},
                                   "page": {"type": ["integer", "null"], "minimum": 1}},
                },
            },
            "confirmed": {
                "type": "object",
                "description": "the fields read the same way twice by independent means or cross-checked, "
                               "each with how (bookings, printed_twice, deductions, balances, check_digits, "
                               "check_digit, zone_and_print, bank_data); LeadFlow rejects only on these, and "
                               "content without it confirms nothing",
                "additionalProperties": {"type": "string"},
            },
            "text_chars": {"type": "integer", "minimum": 0},
            "language": {"enum": ["de", "en", None]},
            "pages": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["number", "text_chars"],
                    "properties": {
                        "number": {"type": "integer", "minimum": 1},
                        "text_chars": {"type": "integer", "minimum": 0},
                        "method": {"enum": ["text", "ocr", "xml"]},
                    },
                },
            },
            "text": {"type": "string", "maxLength": MAX_TEXT_CHARS},
            "source": {"type": "string"},
        },
    }


def select_fields(fields: dict, field_schemas: dict[str, dict], wanted: list[str]) -> tuple[dict, dict]:
    """Narrow fields and their schemas to `wanted`, in that order; a name this type does not
    extract is kept as null so the requested shape always holds."""
    chosen, schemas = {}, {}
    for name in wanted:
        chosen[name] = fields.get(name)
        schemas[name] = field_schemas.get(name) or {
            "type": "null", "description": "not extracted for this document type"}
    return chosen, schemas
