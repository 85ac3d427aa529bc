"""Fields of an identity document or residence permit, read from its machine-readable zone."""
from leadflow.extractor.fields.types import DATE, TEXT
from leadflow.extractor.mrz import find_mrz

SCHEMAS: dict[str, dict] = {
    "document_code": TEXT,
    "issuing_country": TEXT,
    "document_number": TEXT,
    "surname": TEXT,
    "given_names": TEXT,
    "nationality": TEXT,
    "birth_date": DATE,
    "sex": {"enum": ["M", "F", None]},
    "expiry_date": DATE,
    "mrz_format": {"enum": ["TD1", "TD2", "TD3", None]},
    "mrz_valid": {"type": ["boolean", "null"], "description": "every ICAO 9303 check digit matched"},
}


def parse(reading) -> dict:
    return parse_fields(reading.text)


def parse_fields(text: str) -> dict:
    found = find_mrz(text)
    if found is None:
        return {}
    return {
        "document_code": found.document_code,
        "issuing_country": found.issuing_country,
        "document_number": found.document_number,
        "surname": found.surname,
        "given_names": found.given_names,
        "nationality": found.nationality,
        "birth_date": found.birth_date,
        "sex": found.sex,
        "expiry_date": found.expiry_date,
        "mrz_format": found.format,
        "mrz_valid": found.valid,
    }
