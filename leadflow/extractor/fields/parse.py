"""Text-to-value helpers the field parsers share: German and English amounts and dates, IBANs,
label lookups that work on layout text (column gaps) and on OCR text (single spaces)."""
import re
from datetime import date
from decimal import Decimal, InvalidOperation

from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from leadflow.extractor.normalise import month_word, repair_dates, repair_numbers

# 1.234,56  1234,56  -854,50  854,50-  + 2.780,70  1,234.56  1234.56  (the sign may stand apart)
AMOUNT = re.compile(
    r"(?<![\w.,/:])([-+−]\s{0,3})?(\d{1,3}(?:[.,’' ]\d{3})+|\d+)([.,]\d{2})(?![\d/]|[.,]\d|\s?%)(-(?![ \t]*[\d-]))?")
DATE_DMY = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
DATE_SLASH = re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")
DATE_DASH = re.compile(r"\b(\d{1,2})-(\d{1,2})-(\d{4})\b")  # Dutch and some receipts: 8-9-2022
MONTHS = {name: number for number, names in enumerate([
    ("januar", "january", "jan"), ("februar", "february", "feb"), ("märz", "maerz", "marz", "march", "mar", "mär"),
    ("april", "apr"), ("mai", "may"), ("juni", "june", "jun"), ("juli", "july", "jul"),
    ("august", "aug"), ("september", "sep", "sept"), ("oktober", "october", "oct", "okt"),
    ("november", "nov"), ("dezember", "december", "dec", "dez")], start=1) for name in names}
# "7. Mai 2014", "May 7, 2014", and a core banking system's "01-OCT-2026".
# The month's word may carry OCR's confusions ("0ktober", "Apri1", "Dezernber"): month_of reads it.
MONTH_WORD = r"(?:[A-Za-zäÄéè]|0(?=[a-z]))[A-Za-zäéè01]{2,9}"
MONTH_NAME_DATE = re.compile(rf"\b(\d{{1,2}})(?:\.?\s+|-)({MONTH_WORD})(?:\.?\s+|-)(\d{{4}})\b"
                             rf"|\b({MONTH_WORD})\.?\s+(\d{{1,2}}),?\s+(\d{{4}})\b")


def month_of(word: str) -> int | None:
    """The month a word names ("Oktober", "OKT", "Mai"), also as OCR misreads it ("0ktober", "Apri1")."""
    name = month_word(word, MONTHS)
    return MONTHS[name] if name else None


IBAN_START = re.compile(r"\b([A-Z]{2}[0-9OIlSB]{2}(?:\s?[A-Z0-9]){11,34})")
LEGAL_FORM = re.compile(r"\b((?:GmbH|GMBH|AG|SE|UG)\s?&\s?Co\.?\s?(?:KGaA|KG|OHG)|g?GmbH|GMBH|g?AG|SE|KG|KGaA|OHG|UG"
                        r"|e\.\s?V\.|e\.\s?K(?:fm|fr)?\.|eG|Ltd\.?|LTD\.?|Inc\.?|INC\.?|LLC|B\.V\.|S\.A\.|PLC|GbR|mbH"
                        r"|S\.A\.S\.|S\.L\.(?:U\.)?|N\.V\.|S\.r\.l\.|S\.p\.A\.|SARL|A/S|ApS)(?!\w)")
# "AG" as payroll and social insurance print it is the Arbeitgeber (employer), no company: "AG-Anteil",
# "Umlage ZV AG", "Pauschsteuer (trägt AG)", "Employer pension contribution / AG-Anteil".
EMPLOYER_AG = re.compile(r"\bAG-[A-Za-zÄÖÜäöü]|\b(?:anteil|umlage|beitr(?:ag|äge)|zuschuss|trägt|zv|zvk|vbl|sv|kv|rv|av|pv"
                         r"|vwl|bav|steuerpflichtig|pauschal\w*|contribution|share)\W+(?:\w+\W+)?AG\b", re.IGNORECASE)
# A document's title OCR runs into the issuer's name on one line ("ENTGELTABRECHNUNG FICHTELBERG AG").
TITLE_WORD = re.compile(r"^(?:\w*abrechnung|\w*bescheinigung|\w*bescheid|kontoauszug|rechnung|invoice|payslip"
                        r"|pay slip|arbeitsvertrag|kostenberechnung|account statement)\b[\s:|-]*", re.IGNORECASE)


def amount(raw: str) -> str | None:
    """The first amount in `raw` as a decimal string with two places ("1234.56"), or None."""
    found = amounts(raw)
    return found[0] if found else None


def amounts(raw: str) -> list[str]:
    out = []
    for match in AMOUNT.finditer(_ocr_repaired(raw)):
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


def euros(raw: str) -> str | None:
    """An amount, or whole euros as tax offices print them: "52.000", "52.000 €", "0 €" (a bare
    "2025" is a year, not money)."""
    value = amount(raw)
    if value is not None:
        return value
    m = re.search(r"(?<![\d.,/])(-\s?)?(\d{1,3}(?:\.\d{3})+)(?![\d,]|\.\d)|(?<![\d.,/])(-\s?)?(\d{1,9})\s?(?:€|EUR\b)", raw)
    if not m:
        return None
    sign = m.group(1) or m.group(3)
    digits = (m.group(2) or m.group(4)).replace(".", "")
    return f"{'-' if sign else ''}{int(digits)}.00"


def _ocr_repaired(raw: str) -> str:
    """Amounts as OCR garbles them, where no printed style could mean anything else:
    "20::693,52" and "20:693,52" (a dot read as colons), "508 ,59" (a space before the cents),
    "1,286,91" (a thousands dot read as a comma); letters inside a figure ("1.2O4,5O") and a currency
    glued to it ("EUR1.234,56"): normalise.repair_numbers."""
    raw = repair_numbers(raw)
    raw = re.sub(r"(?<=\d)[:;]{1,2}(?=\d{3}[.,]\d{2}(?!\d))", ".", raw)
    raw = re.sub(r"(?<=\d) (?=[.,]\d{2}(?![\d.,]))", "", raw)
    raw = SPLIT_GROUP.sub(_group_joined, raw)
    raw = SPLIT_CENTS.sub(r"\1\2", raw)
    return re.sub(r"(?<![\d.,])(\d{1,3}),(\d{3}),(\d{2})(?![\d.,])", r"\1.\2,\3", raw)


# A space OCR set inside a figure's thousands group ("53.36 2,68", "1.2 34,56"): the two parts make
# one group of three, so the space is no column gap (a gap never splits a group of a grouped figure).
SPLIT_GROUP = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})*\.)(\d{1,2}) (\d{1,2})(?=(?:\.\d{3})*,\d{2}(?![\d.,]))")
# A space after the decimal comma of a grouped figure ("53.362, 68").
SPLIT_CENTS = re.compile(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+,) (\d{2})(?![\d.,])")


def _group_joined(m: re.Match) -> str:
    return m.group(1) + m.group(2) + m.group(3) if len(m.group(2)) + len(m.group(3)) == 3 else m.group(0)


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
    """The first date in `raw` as YYYY-MM-DD: 31.03.2026, 2026-03-31, 31/12/2017, 7. Mai 2014, May 7, 2014;
    also as OCR misreads it ("0l.1O.2026", "31. 03. 2026": normalise.repair_dates)."""
    raw = repair_dates(raw)
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
        month = month_of(name)
        if month:
            candidates.append((m.start(), int(y), month, int(d)))
    for _, y, mo, d in sorted(candidates):
        try:
            return date(y, mo, d).isoformat()
        except ValueError:
            continue
    return None


SHORT_YEAR_DATE = re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.(\d{2})(?![\d.,]*\d)")


def labelled_date(raw: str) -> str | None:
    """The first date after a date's own label, also with a two-digit year ("beginnt zum 15.6.25"):
    beside such a label a short year is a date, while unlabelled "15.6.25" could be any figure's."""
    value = iso_date(raw)
    if value is not None:
        return value
    m = SHORT_YEAR_DATE.search(raw)
    if not m:
        return None
    try:
        return date(2000 + int(m.group(3)), int(m.group(2)), int(m.group(1))).isoformat()
    except ValueError:
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
    """A pay period as YYYY-MM: "für August 2026", "OKT. 2026", "08/2026", "08.2026", "2026-08",
    or the month of a date or a range inside one month ("01.10.2026 - 31.10.2026"); also as OCR
    misreads them ("0ktober 2026", "Ol.2O26")."""
    raw = repair_dates(raw)
    for m in re.finditer(rf"\b({MONTH_WORD})\.?\s*(\d{{4}})\b", raw):
        month = month_of(m.group(1))
        if month:
            return f"{m.group(2)}-{month:02d}"
    m = re.search(r"(?<![\d.,/])(0?[1-9]|1[0-2])\s?[/.]\s?((?:19|20)\d{2})\b(?![.,/]\d)", raw)
    if m:
        return f"{m.group(2)}-{int(m.group(1)):02d}"
    m = re.search(r"\b((?:19|20)\d{2})[-/](0[1-9]|1[0-2])\b(?![-/]\d)", raw)
    if m:
        return f"{m.group(1)}-{m.group(2)}"
    start, end = date_range(raw)
    if start and end:
        # A range over two months ("10.10.-09.11.2026") is no one month's. The same month in two
        # years is one year misread ("June 1, 2036 - June 30, 2026"): the year that is no future's.
        if start[:7] != end[:7] and start[5:7] == end[5:7] and start[:4] != end[:4]:
            years = [y for y in (start[:4], end[:4]) if int(y) <= date.today().year + 1]
            return f"{years[0]}-{start[5:7]}" if len(years) == 1 else None
        return start[:7] if start[:7] == end[:7] else None
    day = iso_date(raw)
    return day[:7] if day else None


def date_range(raw: str) -> tuple[str | None, str | None]:
    """Start and end of a period: "01.08.2026 - 31.08.2026", "vom 1. August 2026 bis 31. August 2026",
    "2026-08-01 to 2026-08-31", "1 Aug 2026 – 31 Aug 2026"; (None, None) unless both are dates."""
    raw = repair_dates(raw)
    days = _dates_in_order(raw)
    short = SHORT_RANGE.search(raw)
    if short and (len(days) < 2 or raw.find(short.group(0)) <= _first_date_at(raw)):
        # "01.10.-31.10.2026": the start's year is the end's (the year before, across a new year).
        d1, m1, d2, m2, y = (int(g) for g in short.groups())
        try:
            return date(y - (m1 > m2), m1, d1).isoformat(), date(y, m2, d2).isoformat()
        except ValueError:
            pass
    if len(days) >= 2:
        return days[0], days[1]
    return None, None


SHORT_RANGE = re.compile(r"(?<![\d.])(\d{1,2})\.(\d{1,2})\.\s?(?:-|–|bis)\s?(\d{1,2})\.(\d{1,2})\.(\d{4})\b")


def _first_date_at(raw: str) -> int:
    starts = [m.start() for pattern in (DATE_DMY, DATE_ISO, DATE_SLASH) for m in pattern.finditer(raw)]
    return min(starts) if starts else len(raw)


def _dates_in_order(raw: str) -> list[str]:
    found = []
    patterns = ((DATE_DMY, "dmy"), (DATE_ISO, "ymd"), (DATE_SLASH, "dmy"), (DATE_DASH, "dmy"),
                (DATE_DMY_SHORT, "dmy2"))
    for pattern, order in patterns:
        for m in pattern.finditer(raw):
            if order == "ymd":
                y, mo, d = m.group(1), m.group(2), m.group(3)
            else:
                d, mo, y = m.group(1), m.group(2), m.group(3)
            year = int(y) + (2000 if order == "dmy2" else 0)
            found.append((m.start(), m.end(), year, int(mo), int(d)))
    for m in MONTH_NAME_DATE.finditer(raw):
        d, name, y = (m.group(1), m.group(2), m.group(3)) if m.group(1) else (m.group(5), m.group(4), m.group(6))
        month = month_of(name)
        if month:
            found.append((m.start(), m.end(), int(y), month, int(d)))
    out, taken = [], []
    for start, end, y, mo, d in sorted(found):
        if any(start < t_end and end > t_start for t_start, t_end in taken):
            continue
        try:
            out.append(date(y, mo, d).isoformat())
            taken.append((start, end))
        except ValueError:
            continue
    return out


DATE_DMY_SHORT = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{2})\b(?!\.?\d)")


def year(raw: str) -> int | None:
    """A four-digit year 1990-2099 ("für das Kalenderjahr 2025", "VZ 2025"), or the year of a
    period that lies within one year ("01.01.2025 - 31.12.2025"); also OCR's "2O25"."""
    raw = repair_dates(raw)
    start, end = date_range(raw)
    if start and end and start[:4] == end[:4]:
        return int(start[:4])
    m = re.search(r"\b\d{1,2}\.\d{1,2}\.?\s?[-–]\s?\d{1,2}\.\d{1,2}\.((?:19|20)\d{2})\b", raw)  # 01.01.-31.12.2025
    if m:
        return int(m.group(1))
    m = re.search(r"(?<![\d.,/-])((?:19[9]|20[0-9])\d)(?![\d.,/]\d|\d)", raw)
    return int(m.group(1)) if m else None


def person_name(raw: str) -> str | None:
    """A person's name as printed: two to four name words ("Rahul Mustermann", "Dr. Anna
    Schmidt-Weber", "MUSTERMANN, ERIKA" turned to "ERIKA MUSTERMANN"); no digits, no legal form."""
    # The salutation in any case: an address block in capitals reads "HERRN MAX MUSTERMANN".
    text = re.sub(r"^(?:Herrn?|Frau|Mr\.?|Mrs\.?|Ms\.?)\s+", "", raw.strip(" :|,;"), flags=re.IGNORECASE)
    if not text or re.search(r"\d|@", text) or LEGAL_FORM.search(text):
        return None
    if text.count(",") == 1:
        last, first = (part.strip() for part in text.split(","))
        text = f"{first} {last}"
    words = [w for w in text.split() if not re.fullmatch(r"(?:Dr|Prof|Dipl\.-\w+)\.?", w, re.IGNORECASE)]
    if not 2 <= len(words) <= 4:
        return None
    # Any alphabet's capitalised word too ("João", "FERNÁNDEZ", "O'Connor").
    if not all(PERSON_WORD.fullmatch(w) or (LETTERS.fullmatch(w) and w[0].isupper()) for w in words):
        return None
    return " ".join(words)


PERSON_WORD = re.compile(r"[A-ZÄÖÜ][A-Za-zÄÖÜäöüßéèáàíóúñç'\-]+|[A-ZÄÖÜ]\."
                         r"|(?:von|vom|van|de|den|der|del|della|du|dos|das|da|di|zu|zur|ten|ter|el|al|la|le|bin|ibn)")


def company_name(raw: str) -> str | None:
    """An organisation's name: up to its legal form (GmbH, AG ...), else a short line of words."""
    text = raw.strip(" :|,;")
    # Words and marks that stand before a name in signatures and party clauses ("for X GmbH",
    # "(1) X AG", a bullet OCR read as "*").
    text = re.sub(r"^(?:(?:\(\d\)|\d\.|[*•·\-–]|for|für|i\.\s?A\.|i\.\s?V\.|der|die|dem|the|firma)\s+)+", "",
                  text, flags=re.IGNORECASE)
    text = TITLE_WORD.sub("", text)
    m = legal_form(text)
    if m:
        name = _name_of_sentence(re.split(r"\s[·•|]\s|,", text[:m.end()])[0].strip())
        return name if len(name) > len(m.group(0)) + 2 else None
    return None


def legal_form(text: str) -> re.Match | None:
    """The first legal form in the text (GmbH, AG ...), unless it is payroll's "AG", the Arbeitgeber."""
    m = LEGAL_FORM.search(text)
    return None if m and m.group(0) == "AG" and EMPLOYER_AG.search(text) else m


def _name_of_sentence(name: str) -> str:
    """A legal form at the end of a sentence ("... kommt zwischen Ihnen und der Muster AG"): the run
    of capitalised words before it. Only for runs longer than names are (seven words or more)."""
    words = name.split()
    if len(words) < SENTENCE_WORDS:
        return name
    start = len(words) - 1
    while start > 0 and (words[start - 1][:1].isupper() or words[start - 1] in ("&", "+")):
        start -= 1
    return " ".join(words[start:])


SENTENCE_WORDS = 7


def euro_cents(raw: str) -> str | None:
    """An amount, also as the wage tax form prints it: euros and cents in two boxes ("61.808  06")."""
    split = re.search(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})*|\d+)\s*\|?\s+(\d{2})\s*\|?\s*$", raw)
    if split and not re.search(r"[.,]\d{2}\b", raw[:split.start()] + raw[split.end():]):
        whole = split.group(1)
        if "," not in raw[split.start():split.end()]:
            return f"{whole.replace('.', '')}.{split.group(2)}"
    return amount(raw)


def tax_class(raw: str) -> int | None:
    """A wage tax class 1-6, in digits or Roman numerals; also as OCR reads a numeral's strokes ("l",
    "|", "Il", "lll", "lV", "11" for II: no class is eleven)."""
    m = re.match(r"\s*[:/]?\s*(VI|IV|V|I{1,3}|[1-6])\b(?![.,]\d)", raw)
    if not m:
        m = re.match(r"\s*[:/]?\s*([Il1|]{1,3}[V]?|V[Il1|]|[Il|]V)(?![\w.,]|\s?[.,]\d)", raw)
        if not m or m.group(1) in {"1"}:
            return None
        return ROMAN_CLASSES.get(re.sub(r"[Il1|]", "I", m.group(1)))
    return ROMAN_CLASSES.get(m.group(1).upper()) or int(m.group(1))


ROMAN_CLASSES = {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5, "VI": 6}


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
        # Only where the label heads its column: in OCR text whose columns ran together
        # ("Gesamtbrutto Steuerbrutto ... Nettolohn") a label further along the one column stands
        # over some later value, not over the column's first.
        label = re.search(match.re, head_cols[at])
        heads = label.start() == 0 or len(label.group(0)) >= HEADING_SHARE * len(head_cols[at])
        return parse(below_cols[at]) if heads else None
    if at is not None and at == len(head_cols) - 1 and below_cols:
        # The label is the last column: its value is the last one on the next line.
        for col in reversed(below_cols):
            value = parse(col)
            if value is not None:
                return value
    return None


HEADING_SHARE = 0.6


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
        # "Firma AG | Straße 1 | 12345 Ort": segments() splits at the bars, so the line as a whole too.
        for segment in segments(line) + ([line] if " | " in line else []):
            # OCR reads the middle dot as a colon too ("Stadtwerke AG - Postfach 12 : 20095 Hamburg").
            # A line parted by dots or bars keeps the hyphens inside its parts ("Landesamt für
            # Finanzen - Bezügestelle Nord · Postfach 12 · 90408 Nürnberg"); hyphens part it otherwise.
            parts = re.split(r"\s[·•|]\s", segment)
            if len(parts) < 3:
                # OCR reads the middle dot as a hyphen or a full stop too.
                parts = re.split(r"\s[·•|:.]\s|\s-\s", segment)
            if len(parts) >= 3 and re.search(r"\b\d{5}\b", parts[-1]):
                return parts[0].strip()
    return None


# A return-address line's street with its number and its postcode with the town ("Hauptstraße 5", "04109 Leipzig").
STREET_PART = re.compile(r"[A-ZÄÖÜ][\w.äöüß\- ]{2,40}\s\d{1,4}\s?[a-zA-Z]?")
POSTCODE_TOWN = re.compile(r"(?:D-)?\d{5}\s+[A-ZÄÖÜ][\w.äöüß\- ()/]{1,40}")


def comma_sender(text: str) -> str | None:
    """The sender from a return-address line parted by commas, as small businesses print it above the
    window ("Bäckerei Korn GmbH, Hauptstraße 5, 04109 Leipzig"): the name before a street with its number
    and a postcode with its town; not the addressee's own line."""
    own = addressee(text)
    # The return line stands above the window; lower down, comma-parted lines are other addresses.
    for line in lines(text)[:12]:
        for segment in segments(line):
            parts = [part.strip() for part in segment.split(",")]
            if len(parts) < 3 or not STREET_PART.fullmatch(parts[-2]) or not POSTCODE_TOWN.fullmatch(parts[-1]):
                continue
            name = ", ".join(parts[:-2])
            if name != own and name[:1].isupper() and not re.search(r"\d|:", name) and 1 < len(name.split()) <= 8:
                return name
    return None


def addressee(text: str) -> str | None:
    """The person a letter is addressed to: after Herrn / Frau / Mr / Ms, on that line or the next."""
    all_lines = lines(text)
    for index, line in enumerate(all_lines[:-1]):
        cols = segments(line)
        m = SALUTATION.match(cols[0]) if cols else None
        if not m:
            continue
        rest = [w for w in cols[0][m.end():].split() if not TITLE.fullmatch(w)]
        # "Herrn Rahul Mustermann" on one line; OCR may also glue another column's labels on,
        # so only a short run of capitalised words counts as a name here.
        if 2 <= len(rest) <= 3 and (all(NAME_WORD.fullmatch(w) for w in rest) or _capitals(m.group(1), rest)):
            return " ".join(rest)
        below = segments(all_lines[index + 1])
        words = [w for w in below[0].split() if not TITLE.fullmatch(w)] if below else []
        if 2 <= len(words) <= 3 and _capitals(m.group(1), words):
            return " ".join(words)
        if len(words) <= 3:
            if words and all(_name_word(w) for w in words) \
                    and not PARTICLE.fullmatch(words[0]) and not PARTICLE.fullmatch(words[-1]):
                return " ".join(words)
            continue
        if len(words) == NAME_WORDS_MAX and all(_name_word(w) for w in words) and not PARTICLE.fullmatch(words[-1]):
            return " ".join(words)  # "María José García López"
        # OCR joined the columns with single spaces ("James Beispiel Fiktiv BKK 17,70"): where the
        # name ends cannot be told from the words ("Gabriela Dos Santos IBAN"), so the first two; a
        # reader with the page's layout asks again of its lines, whose column gaps tell.
        words = words[:2]
        if all(NAME_WORD.fullmatch(w) for w in words):
            return " ".join(words)
    return None


def _capitals(salutation: str, words: list[str]) -> bool:
    """A name in capitals after a salutation in capitals ("HERRN MAX MUSTERMANN"), as an address block
    set all in capitals prints it; not a label in capitals ("IBAN") after a salutation in lower case."""
    return salutation.isupper() and all(LETTERS.fullmatch(w) and w.isupper() for w in words)


def _name_word(word: str) -> bool:
    """A word of a person's name: capitalised, not all capitals ("IBAN"), or a particle ("van", "dos")."""
    if NAME_WORD.fullmatch(word) or PARTICLE.fullmatch(word):
        return True
    return bool(LETTERS.fullmatch(word)) and word[0].isupper() and not word.isupper() \
        and all(part[:1].isupper() for part in re.split(r"['’-]", word) if len(part) > 1)


SALUTATION = re.compile(r"(Herrn?|Frau|Mr\.?|Mrs\.?|Ms\.?|HERRN?|FRAU|MR\.?|MRS\.?|MS\.?)(?=\s|$)")
TITLE = re.compile(r"Dr\.|Prof\.|Dipl\.-\w+\.?|DR\.|PROF\.")  # "Herrn / Dr. Wei Zhang": the title is no name
NAME_WORD = re.compile(r"[A-ZÄÖÜ][a-zäöüßéèáàíóúñç'\-]+(?:-[A-ZÄÖÜ][a-zäöüß]+)?|[A-ZÄÖÜ]\.")
# Any alphabet's capitalised word, its parts joined by hyphens or apostrophes ("João", "O'Connor").
LETTERS = re.compile(r"[^\W\d_]+(?:['’-][^\W\d_]+)*")
PARTICLE = re.compile(r"van|von|de|den|der|del|della|dos|da|di|du|ten|ter|zu|el|al|la|le")
NAME_WORDS_MAX = 4


def company(text: str) -> str | None:
    """The first line segment that carries a legal form (GmbH, AG, Ltd ...)."""
    for line in lines(text)[:30]:
        for segment in segments(line):
            m = legal_form(segment)
            if m and len(segment) <= 80:
                # Up to the legal form: OCR may run the next column onto the same line.
                name = TITLE_WORD.sub("", re.split(r"\s[·•]\s|,", segment[:m.end()])[0].strip())
                if len(name) > len(m.group(0)) + 2:  # a legal form alone names nobody
                    return name
    return None
