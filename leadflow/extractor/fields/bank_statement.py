"""Fields of a bank statement (Kontoauszug), parsed from its recovered text."""
import re

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.types import AMOUNT, AMOUNTS, DATE, IBAN, TEXT

SCHEMAS: dict[str, dict] = {
    "bank": TEXT,
    "iban": IBAN,
    "holder": TEXT,
    "period_start": DATE,
    "period_end": DATE,
    "opening_balance": AMOUNT,
    "closing_balance": AMOUNT,
    "salary_credits": {**AMOUNTS, "description": "incoming payments that look like salary, in order"},
}

OPENING = r"alter kontostand|alter saldo|anfangssaldo|saldo alt|opening balance|previous balance|balance brought forward"
CLOSING = r"neuer kontostand|neuer saldo|endsaldo|saldo neu|closing balance|new balance"
BANK_WORD = re.compile(r"bank|sparkasse|volksbank|raiffeisen|postbank|\bing\b|n26|comdirect", re.IGNORECASE)
SALARY = re.compile(r"\b(lohn|gehalt|entgelt|bezüge|besoldung|salary|payroll|wages?)\b", re.IGNORECASE)
BOOKING = re.compile(r"^\d{2}\.\d{2}\.(?:\d{2,4})?\s")
PERIOD = re.compile(r"(\d{1,2}\.\d{1,2}\.\d{4})\s*(?:-|–|bis|to)\s*(\d{1,2}\.\d{1,2}\.\d{4})", re.IGNORECASE)


def parse(reading) -> dict:
    if reading.structured:  # camt.053 / MT940: the bank's own data, not a rendering of it
        return reading.structured["fields"]
    return parse_fields(reading.text)


def parse_fields(text: str) -> dict:
    # Some layouts glue an amount to the next value date ("+ 2.780,7028.01."): split them.
    text = re.sub(r"(,\d{2})(\d{2}\.\d{2}\.)", r"\1  \2", text)
    start, end = _period(text)
    return {
        "bank": _bank(text),
        "iban": p.iban(text),
        "holder": _holder(text),
        "period_start": start,
        "period_end": end,
        "opening_balance": p.after_label(text, OPENING),
        "closing_balance": p.after_label(text, CLOSING),
        "salary_credits": salary_credits(text),
    }


def salary_credits(text: str) -> list[str]:
    """Positive bookings whose description (the booking line and its continuation) reads like pay."""
    all_lines = p.lines(text)
    found = []
    for index, line in enumerate(all_lines):
        if not BOOKING.match(line):
            continue
        block = [line]
        for follower in all_lines[index + 1:index + 6]:
            if BOOKING.match(follower):
                break
            block.append(follower)
        if not SALARY.search(" ".join(block)):
            continue
        # Booking and value dates ("28.01.") would otherwise read as amounts.
        values = p.amounts(re.sub(r"\b\d{1,2}\.\d{1,2}\.(?:\d{2,4})?", " ", line))
        if values and not values[-1].startswith("-"):
            found.append(values[-1])
    return found


def _holder(text: str) -> str | None:
    named = p.text_after(text, r"kontoinhaber(?:in)?:?|account holder:?")
    # A label read out of its column can pick up an address line; a holder has no digits.
    if named and not re.search(r"\d", named) and not p.LEGAL_FORM.search(named):
        return named
    return p.addressee(text)


def _bank(text: str) -> str | None:
    head = p.lines(text)[:8]
    for line in head:
        for segment in p.segments(line):
            form = p.LEGAL_FORM.search(segment)
            if BANK_WORD.search(segment) and form:
                return re.split(r"\s[·•]\s|,", segment[:form.end()])[0].strip()
    for line in head:
        for segment in p.segments(line):
            if BANK_WORD.search(segment) and len(segment) <= 60:
                return re.split(r"\s[·•]\s|,", segment)[0].strip()
    return p.company(text)


def _period(text: str) -> tuple[str | None, str | None]:
    m = PERIOD.search(text)
    if not m:
        return None, None
    return p.iso_date(m.group(1)), p.iso_date(m.group(2))
