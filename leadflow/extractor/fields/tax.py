"""Fields of a tax assessment (Steuerbescheid) and a wage tax certificate (Lohnsteuerbescheinigung)."""

ASSESSMENT_SCHEMAS: dict[str, dict] = {}
CERTIFICATE_SCHEMAS: dict[str, dict] = {}


def parse_assessment(reading) -> dict:
    return {}


def parse_certificate(reading) -> dict:
    return {}
