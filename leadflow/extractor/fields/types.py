"""JSON Schema fragments shared by the field sets: amounts as decimal strings, ISO dates, text."""

TEXT = {"type": ["string", "null"]}
AMOUNT = {"type": ["string", "null"], "pattern": r"^-?[0-9]+\.[0-9]{2}$",
          "description": "decimal amount as a string, two places"}
DATE = {"type": ["string", "null"], "format": "date", "description": "ISO 8601 date"}
MONTH = {"type": ["string", "null"], "pattern": r"^[0-9]{4}-[0-9]{2}$", "description": "YYYY-MM"}
YEAR = {"type": ["integer", "null"], "minimum": 1900, "maximum": 2200}
IBAN = {"type": ["string", "null"], "pattern": r"^[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}$",
        "description": "IBAN without spaces, check digits valid"}
CURRENCY = {"type": ["string", "null"], "pattern": r"^[A-Z]{3}$"}
AMOUNTS = {"type": ["array", "null"], "items": {"type": "string", "pattern": AMOUNT["pattern"]}}
