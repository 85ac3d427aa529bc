"""Text-to-value helpers the field parsers share: German and English amounts and dates, IBANs,
label lookups that work on layout text (column gaps) and on OCR text (single spaces)."""
import re
from datetime import date
from decimal import Decimal, InvalidOperation

from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

# 1.234,56  1234,56  -854,50  854,50-  + 2.780,70  1,234.56  1234.56  (the sign may stand apart)
AMOUNT = re.compile(
    r"(?<![\w.,/:])([-+−]\s{0,3})?(\d{1,3}(?:[.,’' ]\d{3})+|\d+)([.,]\d{2})(?![\d/]|[.,]\d|\s?%)(-(?![ \t]*[\d-]))?")
DATE_DMY = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
DATE_SLASH = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
DATE_DASH = re.compile(r"\b(\d{1,2})-(\d{1,2})-(\d{4})\b")  # Dutch and some receipts: 8-9-2022
MONTHS = {name: number for number, names in enumerate([
    ("januar", "january", "jan"), ("februar", "february", "feb"), ("märz", "maerz", "march", "mar", "mär"),
    ("april", "apr"), ("mai", "may"), ("juni", "june", "jun"), ("juli", "july", "jul"),
    ("august", "aug"), ("september", "sep", "sept"), ("oktober", "october", "oct", "okt"),
    ("november", "nov"), ("dezember", "december", "dec", "dez")], start=1) for name in names}
MONTH_NAME_DATE = re.compile(r"\b(\d{1,2})\.?\s+([A-Za-zä]{3,9})\.?\s+(\d{4})\b|\b([A-Za-zä]{3,9})\.?\s+(\d{1,2}),?\s+(\d{4})\b")
IBAN_START = re.compile(r"\b([A-Z]{2}[0-9OIlSB]{2}(?:\s?[A-Z0-9]){11,34})")
LEGAL_FORM = re.compile(r"\b(GmbH|AG|SE|KG|KGaA|OHG|UG|e\.\s?V\.|eG|Ltd\.?|Inc\.?|LLC|B\.V\.|S\.A\.|PLC|GbR)\b")


def amount(raw: str) -> str | None:
    """The first amount in `raw` as a decimal string with two places ("1234.56"), or None."""
    found = amounts(raw)
    return found[0] if found else None


def amounts(raw: str) -> list[str]:
    out = []
    for match in AMOUNT.finditer(raw):
        sign, whole, fraction, trailing_minus = match.groups()
        digits = re.sub(r"[.,’' ]", "", whole)
        try:
            value = Decimal(f"{digits}.{fraction[1:]}")
        except InvalidOperation:
            continue
        if (sign and sign.strip() in "-−") or trailing_minus:
            value = -value
        out.append(f"{value:.2f}")
    return out


def money(raw: str) -> str | None:
    """An amount, or a whole number marked as money ("Rs 1939", "€ 20", "20 EUR")."""
    value = amount(raw)
    if value is not None:
        return value
    m = re.search(r"(?:Rs\.?|INR|€|EUR|\$|USD|£|GBP|CHF)\s*(\d{1,9})\b(?![.,]\d)|\b(\d{1,9})\s*(?:€|EUR|USD|CHF)\b", raw)
    if m:
        return f"{int(m.group(1) or m.group(2))}.00"
    return None


def iso_date(raw: str) -> str | None:
    """The first date in `raw` as YYYY-MM-DD: 31.03.2026, 2026-03-31, 31/12/2017, 7. Mai 2014, May 7, 2014."""
    candidates = []
    for pattern, order in ((DATE_DMY, "dmy"), (DATE_ISO, "ymd"), (DATE_SLASH, "dmy"), (DATE_DASH, "dmy")):
        for m in pattern.finditer(raw):
            d, mo, y = (m.group(1), m.group(2), m.group(3)) if order == "dmy" else (m.group(3), m.group(2), m.group(1))
            candidates.append((m.start(), int(y), int(mo), int(d)))
    for m in MONTH_NAME_DATE.finditer(raw):
        if m.group(1):
            d, name, y = m.group(1), m.group(2), m.group(3)
        else:
            name, d, y = m.group(4), m.group(5), m.group(6)
        month = MONTHS.get(name.lower())
        if month:
            candidates.append((m.start(), int(y), month, int(d)))
    for _, y, mo, d in sorted(candidates):
        try:
            return date(y, mo, d).isoformat()
        except ValueError:
            continue
    return None


def iso_dates(raw: str) -> list[str]:
    out = []
    for m in DATE_DMY.finditer(raw):
        try:
            out.append(date(int(m.group(3)), int(m.group(2)), int(m.group(1))).isoformat())
        except ValueError:
            pass
    return out


def month_period(raw: str) -> str | None:
    """A pay period as YYYY-MM from "für August 2026", "März 2026" or "08/2026"."""
    for m in re.finditer(r"\b([A-Za-zä]{3,9})\.?\s+(\d{4})\b", raw):
        month = MONTHS.get(m.group(1).lower())
        if month:
            return f"{m.group(2)}-{month:02d}"
    m = re.search(r"\b(0[1-9]|1[0-2])\s?/\s?(20\d{2}|19\d{2})\b", raw)
    if m:
        return f"{m.group(2)}-{m.group(1)}"
    return None


def iban(raw: str) -> str | None:
    """The first valid IBAN in `raw`, compact, checked by country length and check digits."""
    for m in IBAN_START.finditer(raw):
        compact = re.sub(r"\s", "", m.group(1))
        country, rest = compact[:2], compact[2:]
        # OCR confuses digits and letters; the check digits decide whether a repair is right.
        repaired = country + rest[:2].translate(DIGIT_FIXES) + rest[2:]
        for candidate in dict.fromkeys((compact, repaired)):
            for length in range(15, min(len(candidate), 34) + 1):
                try:
                    return IBAN(candidate[:length]).compact
                except (SchwiftyException, ValueError):
                    continue
    return None


DIGIT_FIXES = str.maketrans({"O": "0", "I": "1", "l": "1", "S": "5", "B": "8"})


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def segments(line: str) -> list[str]:
    """Columns of a layout line (two or more spaces, or a ruling | from OCR)."""
    return [s.strip() for s in re.split(r"\s{2,}|\s\|\s|\|", line) if s.strip()]


def after_label(text: str, label: str, parse=amount, *, below: bool = True, flags=re.IGNORECASE):
    """The value `parse` finds after `label` on its line, else in the next line's matching column."""
    pattern = re.compile(label, flags)
    all_lines = lines(text)
    for index, line in enumerate(all_lines):
        m = pattern.search(line)
        if not m:
            continue
        value = parse(line[m.end():])
        if value is not None:
            return value
        if below and index + 1 < len(all_lines):
            value = _value_below(line, m, all_lines[index + 1], parse)
            if value is not None:
                return value
    return None


def _value_below(header: str, match, below: str, parse):
    head_cols = segments(header)
    below_cols = segments(below)
    at = next((i for i, col in enumerate(head_cols) if re.search(match.re, col)), None)
    if at is not None and len(head_cols) == len(below_cols):
        return parse(below_cols[at])
    if at is not None and at == len(head_cols) - 1 and below_cols:
        # The label is the last column: its value is the last one on the next line.
        for col in reversed(below_cols):
            value = parse(col)
            if value is not None:
                return value
    return None


def text_after(text: str, label: str, *, flags=re.IGNORECASE) -> str | None:
    """The text after `label` up to a column gap, on its line or, if empty there, the next line."""
    pattern = re.compile(label, flags)
    all_lines = lines(text)
    for index, line in enumerate(all_lines):
        m = pattern.search(line)
        if not m:
            continue
        rest = segments(line[m.end():].lstrip(" :"))
        if rest:
            return rest[0]
        if index + 1 < len(all_lines):
            below = segments(all_lines[index + 1])
            if below:
                return below[0]
    return None


def sender(text: str) -> str | None:
    """The sender from a DIN 5008 return-address line ("Firma AG · Straße 1 · 12345 Ort")."""
    for line in lines(text)[:40]:
        for segment in segments(line):
            parts = re.split(r"\s[·•]\s|\s-\s", segment)
            if len(parts) >= 3 and re.search(r"\b\d{5}\b", parts[-1]):
                return parts[0].strip()
    return None


def addressee(text: str) -> str | None:
    """The person a letter is addressed to: after Herrn / Frau / Mr / Ms, on that line or the next."""
    all_lines = lines(text)
    for index, line in enumerate(all_lines[:-1]):
        cols = segments(line)
        m = SALUTATION.match(cols[0]) if cols else None
        if not m:
            continue
        rest = cols[0][m.end():].split()
        # "Herrn Rahul Mustermann" on one line; OCR may also glue another column's labels on,
        # so only a short run of capitalised words counts as a name here.
        if 2 <= len(rest) <= 3 and all(NAME_WORD.fullmatch(w) for w in rest):
            return " ".join(rest)
        below = segments(all_lines[index + 1])
        words = below[0].split() if below else []
        if len(words) > 3:  # OCR joined the columns with single spaces
            words = words[:2]
        if words and all(NAME_WORD.fullmatch(w) for w in words):
            return " ".join(words)
    return None


SALUTATION = re.compile(r"(Herrn?|Frau|Mr\.?|Mrs\.?|Ms\.?)(?=\s|$)")
NAME_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüßéèáàíóúñç'\-]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?|[A-ZÄÖÜ]\.")


def company(text: str) -> str | None:
    """The first line segment that carries a legal form (GmbH, AG, Ltd ...)."""
    for line in lines(text)[:30]:
        for segment in segments(line):
            m = LEGAL_FORM.search(segment)
            if m and len(segment) <= 80:
                # Up to the legal form: OCR may run the next column onto the same line.
                name = re.split(r"\s[·•]\s|,", segment[:m.end()])[0].strip()
                if len(name) > len(m.group(0)) + 2:  # a legal form alone names nobody
                    return name
    return None
