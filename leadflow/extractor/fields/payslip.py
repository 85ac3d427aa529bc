"""Fields of a payslip (Gehalts-/Entgelt-/Verdienstabrechnung), parsed from its recovered text."""
import re

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.types import AMOUNT, IBAN, MONTH, TEXT

SCHEMAS: dict[str, dict] = {
    "employer": TEXT,
    "employee": TEXT,
    "period": MONTH,
    "tax_class": {"type": ["integer", "null"], "minimum": 1, "maximum": 6},
    "gross": AMOUNT,
    "net": AMOUNT,
    "payout": AMOUNT,
    "iban": IBAN,
}

GROSS = r"gesamt-?\s?brutto|bruttoverdienst|bruttobezüge|summe brutto|\bgross pay\b|\btotal gross\b"
NET = r"netto-?\s?verdienst|nettobezüge|nettolohn|nettogehalt|\bnet pay\b|\bnet salary\b"
PAYOUT = r"auszahlungsbetrag|auszahlung|überweisungsbetrag|\bamount paid\b|\bpayout\b"
ROMAN = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}


def parse_fields(text: str) -> dict:
    net = p.after_label(text, NET)
    return {
        "employer": p.sender(text) or p.company(text),
        "employee": p.addressee(text),
        "period": _period(text),
        "tax_class": _tax_class(text),
        "gross": p.after_label(text, GROSS),
        "net": net,
        # Without deductions after net pay, the payout is the net pay.
        "payout": p.after_label(text, PAYOUT) or net,
        "iban": p.iban(text),
    }


def parse(reading) -> dict:
    return parse_fields(reading.text)


def _period(text: str) -> str | None:
    for label in (r"abrechnungsmonat|abrechnungszeitraum|\bpay period\b|\bperiod\b",):
        found = p.after_label(text, label, p.month_period)
        if found:
            return found
    head = "\n".join(p.lines(text)[:6])
    m = re.search(r"(?:für|for)\s+([A-Za-zä]+\.?\s+\d{4})", head, re.IGNORECASE)
    return p.month_period(m.group(1)) if m else p.month_period(head)


def _tax_class(text: str) -> int | None:
    m = re.search(r"(?:steuerklasse|\bstkl\.?|\btax class)\s*[:/]?\s*(VI|IV|V|I{1,3}|[1-6])\b", text, re.IGNORECASE)
    if m:
        return ROMAN.get(m.group(1).upper()) or int(m.group(1))
    # DATEV-like header row: Pers.-Nr. | Geb.-Datum | StKl | Ki.Frbtr. -> "17.03.1986  1  0,0"
    m = re.search(r"\d{2}\.\d{2}\.\d{4}[\s|]+([1-6])[\s|]+\d,\d\b", text)
    return int(m.group(1)) if m else None
