"""Fields of an invoice or a receipt: from an embedded e-invoice XML when there is one, else from text."""
import re
from collections import Counter

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.einvoice import find_invoice_xml, parse_invoice_xml
from leadflow.extractor.fields.types import AMOUNT, CURRENCY, DATE, TEXT

SCHEMAS: dict[str, dict] = {
    "issuer": TEXT,
    "number": TEXT,
    "date": DATE,
    "net": AMOUNT,
    "tax": AMOUNT,
    "total": AMOUNT,
    "currency": CURRENCY,
    "source": {"enum": ["xml", "text", None], "description": "embedded e-invoice XML or recovered text"},
}

NUMBER = (r"rechnungs-?\s?(?:nummer|nr\.?)|rechnung\s+nr\.?|invoice\s*(?:number|no\.?|#)|factuurnummer"
          r"|beleg-?nr\.?|bon-?nr\.?|kassenbon\s+nr:?|booking id|receipt\s*(?:no\.?|number)|^#")
DATE_LABEL = r"rechnungsdatum|invoice date|factuur\s?datum|belegdatum|datum|date"
TOTAL = (r"gesamtbetrag|rechnungsbetrag|endsumme|gesamtsumme|zu zahlen|zahlbetrag|grand total|total due"
         r"|amount due|balance due|total amount|factuur totaal|\btotal\b|totaal|\bsumme\b")
NET = r"nettobetrag|summe netto|zwischensumme|subtotal|untaxed amount|total excl\.?|net amount|grondslag|\bnetto\b"
TAX = r"mwst\.?-?betrag|umsatzsteuer|\bmwst\b|\bust\b|\bvat\b|\btax\b|btw bedrag"
CURRENCIES = {"€": "EUR", "EUR": "EUR", "EURO": "EUR", "$": "USD", "USD": "USD", "£": "GBP", "GBP": "GBP",
              "CHF": "CHF", "Rs": "INR", "INR": "INR", "₹": "INR"}
CURRENCY_TOKEN = re.compile(r"(€|\$|£|₹|\bEURO?\b|\bUSD\b|\bGBP\b|\bCHF\b|\bINR\b|\bRs\b)")


def parse(reading) -> dict:
    xml = find_invoice_xml(reading.attachments)
    if xml:
        fields = parse_invoice_xml(xml)
        if fields:
            # The XML is the legally binding invoice (ZUGFeRD/Factur-X); the printed page is
            # only its rendering, so where they differ the XML wins.
            return {**fields, "source": "xml"}
    return {**parse_fields(reading.text), "source": "text"}


def parse_fields(text: str) -> dict:
    return {
        "issuer": p.sender(text) or p.company(text) or _first_line(text),
        "number": p.after_label(text, NUMBER, _identifier, flags=re.IGNORECASE | re.MULTILINE),
        "date": p.after_label(text, DATE_LABEL, p.iso_date) or p.iso_date(text),
        "net": p.after_label(text, NET, p.money),
        "tax": p.after_label(text, TAX, p.money),
        "total": _last_label_value(text, TOTAL),
        "currency": _currency(text),
    }


def _identifier(raw: str) -> str | None:
    m = re.search(r"[A-Za-z0-9][A-Za-z0-9/_.\-]*\d[A-Za-z0-9/_.\-]*", raw)
    return m.group(0).rstrip(".") if m else None


def _last_label_value(text: str, label: str) -> str | None:
    """Totals repeat (per page, carried over); the last one stated is the invoice's."""
    pattern = re.compile(label, re.IGNORECASE)
    found = None
    for line in p.lines(text):
        m = pattern.search(line)
        if m and not re.search(r"sub\s?total|zwischen", line[:m.end()], re.IGNORECASE):
            value = p.money(line[m.end():])
            if value is not None:
                found = value
    return found


def _currency(text: str) -> str | None:
    counts = Counter(CURRENCIES[m.group(1)] for m in CURRENCY_TOKEN.finditer(text))
    return counts.most_common(1)[0][0] if counts else None


def _first_line(text: str) -> str | None:
    """The letterhead's first words; OCR debris of a logo (one or two letters) is skipped."""
    for line in p.lines(text)[:5]:
        segment = p.segments(line)[0] if p.segments(line) else ""
        if len(re.findall(r"[A-Za-zÄÖÜäöüß]", segment)) >= 3:
            return segment
    return None
