"""Fields of an employment contract (Arbeitsvertrag), parsed from its recovered text."""
import re
from decimal import Decimal

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.types import AMOUNT, DATE, TEXT

SCHEMAS: dict[str, dict] = {
    "employer": TEXT,
    "employee": TEXT,
    "start_date": DATE,
    "annual_salary": AMOUNT,
}

EMPLOYER = re.compile(r"\b(?:zwischen|between)\W+(?:der|dem|the company)?\s*([^,\n(]+?)\s*[,(]", re.IGNORECASE)
EMPLOYEE = re.compile(r"\b(?:und|and)\s+(?:Herrn?|Frau|Mr\.?|Mrs\.?|Ms\.?)\s+([^,\n(]+?)\s*[,(]")
START = re.compile(r"(?:beginnt\s+am|beginnt\s+zum|Beginn\s+am|Eintritt\s+am|commences\s+on|starts?\s+on"
                   r"|start\s+date:?)\s*([^\n]{0,40})", re.IGNORECASE)
ANNUAL = re.compile(r"(?:brutto)?jahres(?:brutto)?gehalt|jahresvergütung|annual\s+(?:gross\s+)?salary", re.IGNORECASE)
MONTHLY = re.compile(r"(?:brutto)?monats(?:brutto)?gehalt|monatliche[sn]?\s+(?:brutto)?(?:gehalt|vergütung)"
                     r"|monthly\s+(?:gross\s+)?salary", re.IGNORECASE)
PAYMENTS = re.compile(r"\b(zwölf|dreizehn|vierzehn|12|13|14)\s+(?:gleichen\s+)?(?:monats(?:raten|gehälter)|monthly)",
                      re.IGNORECASE)
COUNT_WORDS = {"zwölf": 12, "dreizehn": 13, "vierzehn": 14}


def parse(reading) -> dict:
    return parse_fields(reading.text)


def parse_fields(text: str) -> dict:
    flat = re.sub(r"\s*\n\s*", " ", text)  # contract prose wraps mid-sentence
    employer = EMPLOYER.search(flat)
    employee = EMPLOYEE.search(flat)
    start = START.search(flat)
    return {
        "employer": employer.group(1).strip() if employer else p.company(text),
        "employee": employee.group(1).strip() if employee else None,
        "start_date": p.iso_date(start.group(1)) if start else None,
        "annual_salary": _annual_salary(flat),
    }


def _annual_salary(flat: str) -> str | None:
    m = ANNUAL.search(flat)
    if m:
        value = p.amount(flat[m.end():m.end() + 60])
        if value:
            return value
    m = MONTHLY.search(flat)
    if m:
        monthly = p.amount(flat[m.end():m.end() + 60])
        if monthly:
            count = PAYMENTS.search(flat)
            n = 12 if not count else COUNT_WORDS.get(count.group(1).lower()) or int(count.group(1))
            return f"{Decimal(monthly) * n:.2f}"
    return None
