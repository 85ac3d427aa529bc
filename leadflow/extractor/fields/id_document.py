"""Fields of an identity document or residence permit, read from its machine-readable zone."""
import re
import unicodedata

from leadflow.extractor.fields.finding import FieldsRead
from leadflow.extractor.fields.types import DATE, TEXT
from leadflow.extractor.mrz import STATES, find_mrz, names_doubtful, visual_text

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

# How sure each field is. Numbers and dates under passing check digits are as sure as OCR gets;
# names and state codes have no check digit, so they count as read only when they look clean.
CHECKED = 0.97
UNCHECKED = 0.9
DOUBTFUL = 0.4  # under LeadFlow's 0.5: a person reads it rather than a name rule rejecting it
FAILED = 0.3  # the zone failed its check digits: nothing in it can be trusted
CONFIRMED = 0.97  # a name of the zone also printed, letter for letter, elsewhere on the page
SPELT_OUT = {"Ä": "AE", "Ö": "OE", "Ü": "UE", "ß": "SS"}
# Letters Unicode does not decompose, as ICAO 9303 writes them in a zone ("ŁUKASZ" is "LUKASZ").
UNDECOMPOSED = {"Ł": "L", "Ø": "OE", "Æ": "AE", "Œ": "OE", "Đ": "D", "Þ": "TH", "Ħ": "H", "Ŀ": "L"}


def parse(reading) -> FieldsRead:
    return read(reading.text)


def parse_fields(text: str) -> dict:
    found = find_mrz(text)
    if found is None:
        return {}
    return read(text).fields


def read(text: str) -> FieldsRead:
    found = find_mrz(text)
    if found is None:
        return FieldsRead({name: None for name in SCHEMAS}, {name: 0.0 for name in SCHEMAS})
    fields = {
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
    # A number or date failing its own check digit was misread, and one that another read of the
    # zone contradicts cannot be told: unread (a person reads the document), never a guess.
    for name in ("document_number", "birth_date", "expiry_date"):
        if not found.checks[name] or (name == "document_number" and found.number_disputed):
            fields[name] = None
    if not found.valid:
        confidence = {name: FAILED for name in SCHEMAS}
        confidence["mrz_format"] = confidence["mrz_valid"] = UNCHECKED  # what was read, and that it failed
    else:
        names = DOUBTFUL if names_doubtful(found) else _names_against_print(found, text)
        confidence = {
            "document_code": UNCHECKED, "document_number": CHECKED, "birth_date": CHECKED,
            "expiry_date": CHECKED, "sex": UNCHECKED, "mrz_format": CHECKED, "mrz_valid": CHECKED,
            "surname": names, "given_names": names,
            "issuing_country": UNCHECKED if found.issuing_country in STATES else DOUBTFUL,
            "nationality": UNCHECKED if found.nationality in STATES else DOUBTFUL,
        }
        if found.repaired:  # a look-alike put right: the one change every check digit accepts
            confidence["document_number"] = confidence["birth_date"] = confidence["expiry_date"] = UNCHECKED
    confidence = {name: (confidence[name] if fields[name] not in (None, "") else 0.0) for name in SCHEMAS}
    return FieldsRead(fields, confidence, {name: {"label": "MRZ", "page": None} for name in SCHEMAS
                                           if fields[name] not in (None, "")})


def _names_against_print(found, text: str) -> float:
    """The names' confidence, judged by the page's printed names (the visual zone): every name part
    printed there too confirms them; a part printed one letter different means one of the two
    readings slipped, and a person should look (a wrong name would reject a genuine document)."""
    printed = set()
    for line in visual_text(text).splitlines():
        for word in re.findall(r"[^\W\d_]+", line):
            printed.add(_as_in_zone(word))
    parts = (found.surname + " " + found.given_names).split()
    if not parts:
        return DOUBTFUL
    if all(part in printed for part in parts):
        return CONFIRMED
    for part in parts:
        if part not in printed and any(len(word) >= 3 and _one_edit(word, part) for word in printed):
            return DOUBTFUL
    return UNCHECKED  # not printed elsewhere (the back of a card): the zone alone says it


def _as_in_zone(word: str) -> str:
    upper = "".join(SPELT_OUT.get(c, UNDECOMPOSED.get(c, c)) for c in word.upper())
    return "".join(c for c in unicodedata.normalize("NFKD", upper) if not unicodedata.combining(c))


def _one_edit(a: str, b: str) -> bool:
    """Whether a and b differ by exactly one inserted, dropped or changed letter."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1:] == short for i in range(len(long)))
