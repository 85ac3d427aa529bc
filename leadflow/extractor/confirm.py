"""Which read values are confirmed: read the same way twice by independent means, or cross-checked.

LeadFlow rejects a document only on a confirmed value (a wrong read must never reach a client
as a rejection); an unconfirmed value that would reject sends the document to a person. Pure
functions over the fields a reader returned, the bookings among them, and the document's text:
they decide nothing about a value, they only say which ones two independent reads agree on.
The means, as `content["confirmed"]` names them:

- `bookings`: a statement's period holds every booking's date (the header and the table agree;
  the dates opening the text's lines when the reader kept none);
- `printed_twice`: the value stands in two places of the text (a payslip's month in its title
  and its period line, an amount as gross and as tax gross, a tax year in the title and a date);
- `deductions`: gross pay less a printed total (or a printed run of deductions) is the net pay;
- `balances`: opening balance plus the bookings is the closing balance;
- `issued_next_year`: a tax paper's year and its date of issue in the year after;
- `check_digits`: an IBAN's check digits hold;
- `check_digit`, `zone_and_print`: an identity document's zone date under its own check digit,
  or a zone value printed in the visual part of the page too;
- `bank_data`: a camt.053 or MT940 file, the bank's own data.
"""
import re
import unicodedata
from datetime import date, timedelta
from decimal import Decimal, InvalidOperation

from leadflow.extractor.mrz import visual_text

MONTHS = (("januar", "january", "jan"), ("februar", "february", "feb"), ("märz", "maerz", "march", "mär", "mar"),
          ("april", "apr"), ("mai", "may"), ("juni", "june", "jun"), ("juli", "july", "jul"),
          ("august", "aug"), ("september", "sept", "sep"), ("oktober", "october", "okt", "oct"),
          ("november", "nov"), ("dezember", "december", "dez", "dec"))
MONTH_NUMBER = {name: number for number, names in enumerate(MONTHS, start=1) for name in names}
MONTH_WORD = "|".join(sorted(MONTH_NUMBER, key=len, reverse=True))

# A booking's date may be its value date, a few days before or after the period it is booked in.
BOOKING_SLACK = timedelta(days=5)
# A statement that names only its last day: its bookings lie within this span before it.
LONGEST_PERIOD = timedelta(days=93)
MAX_DEDUCTION_RUN = 15  # a payslip's deduction lines, summed in the order printed
CHECKED_ZONE = 0.95  # the id reader's confidence for a zone date whose check digit held unrepaired

DAY_MONTH_YEAR = re.compile(r"(?<![\d.])(\d{1,2})\.\s?(\d{1,2})\.\s?(\d{4}|\d{2})(?![\d])")
ISO_DAY = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
SLASHED_DAY = re.compile(r"(?<![\d/])(\d{1,2})/(\d{1,2})/(\d{4})(?![\d/])")
MONTH_FIRST_DAY = re.compile(rf"(?<![\w])({MONTH_WORD})\.?\s+(\d{{1,2}}),?\s+(\d{{4}})(?!\d)", re.IGNORECASE)
WORDED_DAY = re.compile(rf"(?<!\d)(\d{{1,2}})\.?\s+({MONTH_WORD})\.?\s+(\d{{4}}|\d{{2}})(?!\d)", re.IGNORECASE)
ZONE_DAY = re.compile(rf"(?<!\d)(\d{{1,2}})\s+({MONTH_WORD})\.?(?:\s?/\s?[a-zäöü]+\.?)?\s+(\d{{4}}|\d{{2}})(?!\d)",
                      re.IGNORECASE)  # a card's "15 APR/AVR 32"
MONTH_YEAR = re.compile(r"(?<![\d./])(\d{1,2})\s?[./-]\s?(\d{4})(?![\d.])")
YEAR_MONTH = re.compile(r"(?<!\d)(\d{4})-(\d{2})(?![\d-])")
WORDED_MONTH = re.compile(rf"(?<![\w])({MONTH_WORD})\.?\s+(\d{{4}})(?!\d)", re.IGNORECASE)
AMOUNT = re.compile(r"(?<![\d.,])(\d{1,3}(?:[.\s]\d{3})+,\d{2}|\d+,\d{2}|\d{1,3}(?:,\d{3})+\.\d{2}|\d+\.\d{2})"
                    r"(?![\d,]|\.\d)")


def confirmed(document_type: str, fields: dict, confidence: dict, text: str, structured: bool = False) -> dict:
    """Field name -> how it was confirmed, for the values found; a field not listed is not confirmed."""
    if structured:
        return {name: "bank_data" for name, value in fields.items() if value not in (None, "", [])}
    confirm = CONFIRMERS.get(document_type)
    return confirm(fields, confidence or {}, text or "") if confirm else {}


# --- bank statements -----------------------------------------------------------------------

def bank_statement(fields: dict, confidence: dict, text: str) -> dict:
    found = {}
    start, end = _day(fields.get("period_start")), _day(fields.get("period_end"))
    # The bookings' dates as the reader returned them; where it kept none, the days that open the
    # text's lines (a booking line starts with its date), read here on their own.
    days = booking_days(fields.get("bookings")) or line_start_days(text)
    if period_holds(start, end, days):
        found.update({name: "bookings" for name, day in (("period_start", start), ("period_end", end)) if day})
    elif not days:
        # Without booking dates, a day printed twice ("Zeitraum ... 31.10.2026", "Kontostand am
        # 31.10.2026"); bookings that disagree with the period outweigh any such print.
        found.update({name: "printed_twice" for name, day in (("period_start", start), ("period_end", end))
                      if day and days_printed(text).count(day) >= 2})
    if iban_check_digits_hold(fields.get("iban")):
        found["iban"] = "check_digits"
    elif fields.get("iban") and _compact(text).count(_compact(fields["iban"])) >= 2:
        found["iban"] = "printed_twice"
    if balances_add_up(fields.get("opening_balance"), fields.get("bookings"), fields.get("closing_balance")):
        found.update(opening_balance="balances", closing_balance="balances")
    if _printed_twice(fields.get("holder"), text):
        found["holder"] = "printed_twice"
    return found


def booking_days(bookings) -> list[date]:
    """The dates of a statement's bookings that were read, in the order printed."""
    return [day for day in (_day(b.get("date")) for b in bookings or () if isinstance(b, dict)) if day]


def line_start_days(text: str) -> list[date]:
    """The days printed at the start of the text's lines, with their year: a statement's booking lines."""
    return [day for line in text.splitlines() for (start, _), day in _days_with_places(line.strip()[:24])
            if start == 0]


def period_agrees_with_bookings(start: date | None, end: date | None, bookings) -> bool:
    """Every booking's date lies in the period (a value date a few days outside it counts)."""
    return period_holds(start, end, booking_days(bookings))


def period_holds(start: date | None, end: date | None, days: list[date]) -> bool:
    """Every one of `days` lies in the period, with BOOKING_SLACK; no days confirm nothing."""
    if not days or end is None:
        return False
    earliest = (start or end - LONGEST_PERIOD) - BOOKING_SLACK
    return all(earliest <= day <= end + BOOKING_SLACK for day in days)


def balances_add_up(opening, bookings, closing) -> bool:
    """Opening balance plus every booking is the closing balance, to the cent."""
    first, last = _amount(opening), _amount(closing)
    moved = [_amount(b.get("amount")) for b in bookings or () if isinstance(b, dict)]
    if first is None or last is None or not moved or any(m is None for m in moved):
        return False
    return first + sum(moved) == last


def iban_check_digits_hold(value) -> bool:
    """ISO 13616: the IBAN, its first four characters moved to the end, letters as 10..35, is 1 mod 97."""
    compact = _compact(value or "")
    if not re.fullmatch(r"[A-Z]{2}\d{2}[A-Z0-9]{11,30}", compact):
        return False
    digits = "".join(str(int(char, 36)) for char in compact[4:] + compact[:4])
    return int(digits) % 97 == 1


# --- payslips --------------------------------------------------------------------------------

def payslip(fields: dict, confidence: dict, text: str) -> dict:
    found = {}
    period = fields.get("period")
    if isinstance(period, str) and months_printed(text).count(period) >= 2:
        found["period"] = "printed_twice"
    if deductions_add_up(fields.get("gross"), fields.get("net"), text):
        found.update(gross="deductions", net="deductions")
    amounts = amounts_printed(text)
    for name in ("gross", "net", "payout"):
        value = _amount(fields.get(name))
        if name not in found and value is not None and amounts.count(value) >= 2:
            found[name] = "printed_twice"
    if _printed_twice(fields.get("employee"), text):
        found["employee"] = "printed_twice"
    return found


def deductions_add_up(gross, net, text: str) -> bool:
    """Gross less net is a printed amount (a total of deductions) or the sum of a run of printed
    amounts (the deduction lines), none of them the gross or the net itself."""
    high, low = _amount(gross), _amount(net)
    if high is None or low is None or low >= high:
        return False
    wanted = high - low
    amounts = amounts_printed(text)
    for first in range(len(amounts)):
        total = Decimal(0)
        for value in amounts[first:first + MAX_DEDUCTION_RUN]:
            if value in (high, low):
                break
            total += value
            if total == wanted:
                return True
            if total > wanted:
                break
    return False


# --- tax papers --------------------------------------------------------------------------------

def tax_assessment(fields: dict, confidence: dict, text: str) -> dict:
    return _tax_year("tax_year", fields, text)


def wage_tax_certificate(fields: dict, confidence: dict, text: str) -> dict:
    return _tax_year("year", fields, text)


def _tax_year(name: str, fields: dict, text: str) -> dict:
    """A tax paper names its year ("Lohnsteuerbescheinigung für 2025", "für das Kalenderjahr 2025") and
    is dated in the year after it ("Datum: 27.01.2026", "Bescheiddatum: 28. Juni 2026"): the two agree,
    or the year stands twice."""
    year = _year(fields.get(name))
    if not year or not _year_printed(year, text):
        return {}
    if _year_printed(year, text) >= 2:
        return {name: "printed_twice"}
    if any(day.year == year + 1 for day in days_printed(text)):
        return {name: "issued_next_year"}
    return {}


# --- identity documents ------------------------------------------------------------------------

def id_document(fields: dict, confidence: dict, text: str) -> dict:
    """The zone's dates carry their own check digit; its names carry none, so they count only when
    the visual part of the page prints them too."""
    if fields.get("mrz_valid") is not True:
        return {}
    found = {}
    visual = visual_text(text)
    for name in ("expiry_date", "birth_date"):
        day = _day(fields.get(name))
        if day is None:
            continue
        if day in days_printed(visual):
            found[name] = "zone_and_print"
        elif float(confidence.get(name) or 0) >= CHECKED_ZONE:
            found[name] = "check_digit"
    surname, given = fields.get("surname") or "", fields.get("given_names") or ""
    lines = [re.findall(r"[^\W\d_]+", line) for line in visual.splitlines()]
    if surname and all(_printed_whole(name.split(), lines) for name in (surname, given) if name):
        found.update({"surname": "zone_and_print", **({"given_names": "zone_and_print"} if given else {})})
    return found


def _printed_whole(words: list[str], lines: list[list[str]]) -> bool:
    """Whether the visual part prints these name words together on one line, and no further name
    word after them: a zone that lost a given name ("ANNA" for "ANNA<MARIA") is confirmed by no
    print of "ANNA MARIA", so a name rule cannot reject on it."""
    size = len(words)
    for printed in lines:
        zone_form = [_as_in_zone(word) for word in printed]
        for start in range(len(printed) - size + 1):
            if zone_form[start:start + size] != words:
                continue
            after = printed[start + size] if start + size < len(printed) else ""
            # A further word set like the name's own is a name word ("ANNA MARIA", "Anna Maria");
            # a label after it ("ERIKSSON Nationality") is set otherwise.
            last = printed[start + size - 1]
            if len(after) < 2 or (after.isupper(), after.istitle()) != (last.isupper(), last.istitle()):
                return True
    return False


# --- reading dates, months and amounts as printed ------------------------------------------------

def days_printed(text: str) -> list[date]:
    """Every calendar day the text prints, once per place, whatever its style."""
    return [day for _, day in _days_with_places(text)]


def months_printed(text: str) -> list[str]:
    """Every month the text names, as "YYYY-MM", once per place: a day in it ("31.10.2026"), the month
    with its year ("10/2026", "10.2026", "2026-10", "Oktober 2026", "Okt. 2026")."""
    found = [(span, f"{day.year:04d}-{day.month:02d}") for span, day in _days_with_places(text)]
    for pattern, year, month in ((MONTH_YEAR, 2, 1), (YEAR_MONTH, 1, 2), (WORDED_MONTH, 2, 1)):
        for m in pattern.finditer(text):
            number = MONTH_NUMBER.get(m.group(month).lower()) if pattern is WORDED_MONTH else m.group(month)
            found.append((m.span(), _month(m.group(year), number)))
    return [month for _, month in _apart(found)]


def _days_with_places(text: str) -> list[tuple[tuple[int, int], date]]:
    found = []
    for pattern, order in ((DAY_MONTH_YEAR, "dmy"), (ISO_DAY, "ymd"), (SLASHED_DAY, "dmy")):
        for m in pattern.finditer(text):
            parts = dict(zip(order, m.groups()))
            found.append((m.span(), _make(parts["y"], parts["m"], parts["d"])))
    for pattern in (WORDED_DAY, ZONE_DAY):
        for m in pattern.finditer(text):
            found.append((m.span(), _make(m.group(3), MONTH_NUMBER.get(m.group(2).lower()), m.group(1))))
    for m in MONTH_FIRST_DAY.finditer(text):  # "September 1, 2026"
        found.append((m.span(), _make(m.group(3), MONTH_NUMBER.get(m.group(1).lower()), m.group(2))))
    return _apart(found)


def _apart(found: list) -> list:
    """The readings in the order given, without one that overlaps a place already read (one print, one read)."""
    kept, taken = [], []
    for (start, end), value in found:
        if value is None or any(start < other_end and other_start < end for other_start, other_end in taken):
            continue
        kept.append(((start, end), value))
        taken.append((start, end))
    return sorted(kept, key=lambda item: item[0])


def amounts_printed(text: str) -> list[Decimal]:
    """Every amount of money the text prints with its cents, in order, without its sign."""
    values = []
    for m in AMOUNT.finditer(text):
        raw = m.group(1).replace(" ", "")
        if re.search(r",\d{2}$", raw):
            raw = raw.replace(".", "").replace(",", ".")
        else:
            raw = raw.replace(",", "")
        value = _amount(raw)
        if value is not None:
            values.append(value)
    return values


def _printed_twice(name, text: str) -> bool:
    if not isinstance(name, str) or len(name.strip()) < 3:
        return False
    words = [re.escape(word) for word in name.split()]
    return len(re.findall(r"(?<!\w)" + r"[\s,]+".join(words) + r"(?!\w)", text, re.IGNORECASE)) >= 2


def _year_printed(year: int, text: str) -> int:
    return len(re.findall(rf"(?<!\d){year}(?!\d)", text))


def _year(value) -> int | None:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        return None


def _make(year, month, day) -> date | None:
    try:
        year, month, day = int(year), int(month), int(day)
        return date(year + 2000 if year < 100 else year, month, day)
    except (TypeError, ValueError):
        return None


def _month(year, month) -> str | None:
    try:
        year, month = int(year), int(month)
    except (TypeError, ValueError):
        return None
    return f"{year:04d}-{month:02d}" if 1 <= month <= 12 and 1900 <= year <= 2999 else None


def _day(value) -> date | None:
    try:
        return date.fromisoformat(str(value)[:10]) if value else None
    except ValueError:
        return None


def _amount(value) -> Decimal | None:
    if value is None or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def _compact(value: str) -> str:
    return re.sub(r"\s+", "", str(value)).upper()


def _as_in_zone(word: str) -> str:
    """A printed name part as a zone writes it: upper case, umlauts spelt out, accents dropped."""
    upper = word.upper().replace("Ä", "AE").replace("Ö", "OE").replace("Ü", "UE").replace("ß", "SS")
    return "".join(c for c in unicodedata.normalize("NFKD", upper) if not unicodedata.combining(c))


CONFIRMERS = {
    "bank_statement": bank_statement,
    "payslip": payslip,
    "tax_assessment": tax_assessment,
    "wage_tax_certificate": wage_tax_certificate,
    "id_document": id_document,
    "residence_permit": id_document,
}
"""Document type -> its confirmations: (fields, field_confidence, text) -> {field: means}."""
