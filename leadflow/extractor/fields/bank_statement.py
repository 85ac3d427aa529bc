"""Fields of a bank statement (Kontoauszug): values next to any of their labels' variants in the page
layout, salary credits from the bookings table's columns; cross-checked, each with a confidence."""
import calendar
import re
from datetime import date, timedelta
from decimal import Decimal

from leadflow.extractor.fields import bookings
from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import (FLAT_LABEL, GUESS, STRUCTURE, Check, FieldsRead, Findings, label_test,
                                               lexicon, plain)
from leadflow.extractor.fields.types import AMOUNT, AMOUNTS, DATE, IBAN, TEXT
from leadflow.extractor.layout import RIGHT_NEXT_SEGMENT, Found, Layout

SCHEMAS: dict[str, dict] = {
    "bank": TEXT,
    "iban": IBAN,
    "holder": TEXT,
    "period_start": DATE,
    "period_end": DATE,
    "opening_balance": AMOUNT,
    "closing_balance": AMOUNT,
    "salary_credits": {**AMOUNTS, "description": "incoming payments that look like salary, in order"},
    "bookings": bookings.SCHEMA,
}
STRUCTURED_CONFIDENCE = 0.99  # camt.053 / MT940: the bank's own data

HOLDER = lexicon(r"re:konto\s?-?inhaber(?:\s?/\s?in|\(in\)|in)?", "inhaber(?:in)?", "account holder",
                 "account name", "account owner", "kunde", "customer", "name", "prepared for", "statement for")
PERIOD = lexicon("auszugs zeitraum", "abrechnungs zeitraum", "zeitraum", "statement period", "period",
                 r"re:kontoauszug(?:\s+nr\.?\s*\S+)?\s+vom", "berichtszeitraum", "vom", "from")
OPENING = lexicon("alter kontostand", "alter saldo", "anfangs saldo", "saldo alt", "anfangs bestand", "start saldo",
                  "saldo vortrag", "vortrag", "opening balance", "previous balance", "balance brought forward",
                  "starting balance", "beginning balance", "kontostand am anfang", "kontostand alt", "vor saldo")
CLOSING = lexicon("neuer kontostand", "neuer saldo", "end saldo", "saldo neu", "end bestand", "schluss saldo",
                  "closing balance", "new balance", "ending balance", "final balance", "balance carried forward",
                  "kontostand am ende", "kontostand neu", "neuer stand", "end stand")
FROM_LABEL = lexicon("von", "vom", "from", "zeitraum von", "period from", "start date", "beginn")
TO_LABEL = lexicon("bis", "bis zum", "to", "until", "end date", "ende")
MONTH_PERIOD = lexicon("auszugs zeitraum", "zeitraum", "statement period", "period", "konto auszug", "auszug",
                       "account statement", "bank statement", "statement", "monat", "month")
DATED_BALANCE = lexicon(r"re:(?:konto)?stand\s+(?:am|vom|per|zum)", r"re:saldo\s+(?:am|vom|per|zum)",
                        r"re:balance\s+(?:on|as\s+of|at)")
IBAN_LABEL = lexicon("iban", r"re:iban\s?/\s?bic", "konto", "account", "kontonummer", "account number")
BANK_LABEL = lexicon("bank", "kreditinstitut", "institut")
IS_LABEL = label_test(HOLDER, PERIOD, OPENING, CLOSING, IBAN_LABEL, BANK_LABEL,
                      re.compile(r"bic|swift|datum|date|betrag|amount|saldo|balance", re.IGNORECASE))

# The flat text keeps a label and its value together where a photo's layout lines interleave two rows.
FLAT_OPENING = (r"alter kontostand|kontostand alt|alter saldo|anfangssaldo|saldo alt|opening balance|previous balance"
                r"|balance brought forward|starting balance|beginning balance|anfangsbestand")
FLAT_CLOSING = (r"neuer kontostand|kontostand neu|neuer saldo|endsaldo|saldo neu|closing balance|new balance"
                r"|ending balance|final balance|endbestand|schlusssaldo")
BANK_WORD = re.compile(r"bank|banco|banque|banca|sparkasse|volksbank|raiffeisen|postbank|\bing\b|n26|comdirect",
                       re.IGNORECASE)
# "BEZUGE" / "BEZUEGE": a bank's upper-case purpose without its umlaut, or OCR's reading of it ("Beziige").
SALARY = re.compile(r"\b(lohn|gehalt|entgelt|bez(?:ü|u|ii)e?ge|besoldung|salary|payroll|wages?|pay)\b", re.IGNORECASE)
BOOKING = re.compile(r"^\d{2}\.\d{2}\.(?:\d{2,4})?\s")
# A period broken across a line's end, the range word ending the first line ("vom 01.10.2026 bis" /
# "31.10.2026") or opening the second ("vom 8.10.26" / "bis 7.11.26"); its years of four digits or two.
WRAPPED_RANGE = re.compile(r"((?<!\d)\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2})(?![\d.])\s*(?:(?:-|–|bis|to)[ \t]*)?)"
                           r"\n[ \t]*(?=(?:(?:-|–|bis|to)\s+)?\d{1,2}\.\d{1,2}\.\d{2})", re.IGNORECASE)
FLAT_PERIOD = re.compile(r"(?<![\d.])(\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2}))\s*(?:-|–|bis|to)\s*"
                         r"(\d{1,2}\.\d{1,2}\.(?:\d{4}|\d{2}))(?![\d.,]*\d)", re.IGNORECASE)

# The bookings table: a line that starts with a date, and the column headers that say what an amount is.
BOOKING_DATE = re.compile(r"^(?:\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}"
                          r"|\d{1,2}\.?\s[A-Za-zä]{3,9}\.?(?:\s\d{2,4})?"
                          r"|(?i:jan|feb|mär|mar|apr|mai|may|jun|jul|aug|sep|okt|oct|nov|dez|dec)[a-zä]*\.?\s\d{1,2},?"
                          r"(?:\s\d{4})?"
                          r"|\d{1,2}-[A-Za-z0][A-Za-z]{2}-\d{2,4}"  # a core banking system's "01-OCT-2026" (OCR: "0CT")
                          r"|(?=[\d.,:]{5,10}(?:\s|$))\d[\d.,:]*\d)(?=\s|$)")  # OCR's dates: "230.2026", "2321072026"
CREDIT_HEADER = re.compile(r"^(?:haben|gutschrift(?:en)?|credit|credits|eingang|eingänge|einnahmen?|zugang"
                           r"|deposits?|paid in|money in|in)\b", re.IGNORECASE)
DEBIT_HEADER = re.compile(r"^(?:soll|belastung(?:en)?|lastschrift(?:en)?|debit|debits|ausgang|ausgänge|ausgaben?"
                          r"|abgang|withdrawals?|paid out|money out|out)\b", re.IGNORECASE)
AMOUNT_HEADER = re.compile(r"^(?:betrag|umsatz|amount|wert|betrag eur|betrag in eur|amount eur)\b", re.IGNORECASE)
VALUE_DATE_HEADER = re.compile(r"^wert\b", re.IGNORECASE)  # an amount's head, or the value date's ("Wert")
BALANCE_HEADER = re.compile(r"^(?:saldo|balance|kontostand)\b", re.IGNORECASE)

def _bookings_inside(start: str, end: str, rows: list[dict]) -> bool:
    """Whether the bookings' dates lie inside the period (a few days' slack: value dates, a booking
    on the next working day), and the period is theirs: it starts and ends near them (a start read
    from one line and an end from another make no period that merely holds them)."""
    days = sorted(row["date"] for row in rows if row.get("date"))
    if len(days) < MIN_DATED_BOOKINGS:
        return True
    low = (date.fromisoformat(start) - timedelta(days=SLACK_DAYS)).isoformat()
    high = (date.fromisoformat(end) + timedelta(days=SLACK_DAYS)).isoformat()
    near = ((date.fromisoformat(days[0]) - date.fromisoformat(start)).days <= NEAR_DAYS
            and (date.fromisoformat(end) - date.fromisoformat(days[-1])).days <= NEAR_DAYS)
    return near and sum(low <= day <= high for day in days) >= INSIDE_SHARE * len(days)


def _bookings_add_up(opening: str, rows: list[dict], closing: str) -> bool:
    """The opening balance and every booking make the closing balance, to the cent."""
    moved = sum(Decimal(row["amount"]) for row in rows)
    return abs(Decimal(opening) + moved - Decimal(closing)) < Decimal("0.01")


MIN_DATED_BOOKINGS = 2
SLACK_DAYS = 4
INSIDE_SHARE = 0.8
NEAR_DAYS = 40  # the first and last bookings stand this close to the period's ends

CHECKS = (
    Check(("period_start", "period_end"), lambda start, end: start < end),
    Check(("opening_balance", "bookings", "closing_balance"), _bookings_add_up, lowers=False),
)
DAY_GROUPS = 0.8  # bookings read under their day's heading


def parse(reading) -> FieldsRead:
    if reading.structured:  # camt.053 / MT940: the bank's own data, not a rendering of it
        return plain(reading.structured["fields"], SCHEMAS, STRUCTURED_CONFIDENCE)
    # Some layouts glue an amount to the next value date ("+ 2.780,7028.01."): split them.
    text = re.sub(r"(,\d{2})(\d{2}\.\d{2}\.)", r"\1  \2", reading.text)
    layout = reading.layout
    f = Findings(SCHEMAS)
    f.look(layout, "bank", BANK_LABEL, _bank_name, is_label=IS_LABEL)
    f.offer("bank", _bank(text), STRUCTURE)
    f.look(layout, "iban", IBAN_LABEL, p.iban, is_label=IS_LABEL)
    f.offer("iban", p.iban(text), STRUCTURE + 0.05)  # check digits passed, though no label was seen
    f.look(layout, "holder", HOLDER, _holder, is_label=IS_LABEL)
    f.offer("holder", _holder(p.text_after(text, r"kontoinhaber(?:in)?:?|account holder:?") or ""), FLAT_LABEL)
    f.offer_addressee("holder", layout, text, p.addressee)
    for line, page, _ in layout.address_blocks():
        f.offer("holder", p.person_name(line), STRUCTURE, "address block", page)
    for hit in layout.find(PERIOD, _range, is_label=IS_LABEL) if layout else ():
        _offer_period(f, *hit.value, hit.confidence, hit.label, hit.page)
    # A period by two labels of its own, each with its date ("Von: 01/07/2026" ... "Bis: 30/09/2026").
    if layout:
        starts = {hit.value for hit in layout.find(FROM_LABEL, p.iso_date, is_label=IS_LABEL, below=False)}
        ends = {hit.value for hit in layout.find(TO_LABEL, p.iso_date, is_label=IS_LABEL, below=False)}
        if not starts and not ends:
            # Each in a box of its own, the date under its label ("VON" over "4. August 2026"): a
            # label alone in its cell may look below it, where "von" inside a sentence may not.
            starts = {hit.value for hit in layout.find(_alone(FROM_LABEL), p.iso_date, is_label=IS_LABEL)}
            ends = {hit.value for hit in layout.find(_alone(TO_LABEL), p.iso_date, is_label=IS_LABEL)}
        if len(starts) == 1 and len(ends) == 1 and min(starts) < min(ends):
            _offer_period(f, min(starts), min(ends), FLAT_LABEL - 0.05, "from/to")
    # A period broken across a line's end ("vom 01.10.2026 bis" / "31.10.2026") read as one line.
    m = FLAT_PERIOD.search(WRAPPED_RANGE.sub(r"\1 ", text))
    if m:
        _offer_period(f, p.labelled_date(m.group(1)), p.labelled_date(m.group(2)), FLAT_LABEL)
    _offer_period(f, *_unlabelled_range(text), STRUCTURE)
    f.look(layout, "opening_balance", OPENING, balance, is_label=IS_LABEL)
    f.offer("opening_balance", p.after_label(text, FLAT_OPENING, balance), FLAT_LABEL)
    f.look(layout, "closing_balance", CLOSING, balance, is_label=IS_LABEL)
    f.offer("closing_balance", p.after_label(text, FLAT_CLOSING, balance), FLAT_LABEL)
    # "Kontostand am 30.09.2026 ... Kontostand am 31.10.2026": one label; the earlier date is the
    # opening balance, in whichever order they are printed. Without both dates, the first printed.
    columns = _amount_columns(layout) if layout else {}
    pairs = _dated_pairs(layout) if layout else []
    dated = [hit for _, hit in pairs]
    if len(dated) >= 2:
        first, last = dated[0], dated[-1]
        f.offer("opening_balance", first.value, first.confidence - 0.1, first.label, first.page)
        f.offer("closing_balance", last.value, last.confidence - 0.1, last.label, last.page)
    _sign_by_column(f, layout, columns)
    # ... and their dates bound the period: it runs from the day after the opening balance's to the
    # closing balance's ("Kontostand am 30.09.2026" ... "am 31.10.2026": October). Below a printed
    # period; above the month of a title ("Kontoauszug 10/2026" may count statements, not months).
    start, end = _period_of_balances([day for day, _ in pairs])
    _offer_period(f, start, end, STRUCTURE, "Kontostand am")
    if not f.candidates["period_start"]:
        # A statement for a calendar month names only the month ("Oktober 2026").
        for hit in layout.find(MONTH_PERIOD, _statement_month, is_label=IS_LABEL) if layout else ():
            first, last = _month_bounds(hit.value)
            _offer_period(f, first, last, hit.confidence - 0.2, hit.label, hit.page)
    credits, sure = salary_credits_in_layout(layout, columns) if layout else (None, 0.0)
    lines = bookings.in_layout(layout, BOOKING_DATE, lambda block: _booking_amount(block, columns),
                               last_amount="balance" not in columns) if layout else None
    # A banking app's statement: no line opens with a date, the bookings stand under day headings.
    grouped = bookings.in_day_groups(layout) if layout and not lines else None
    if grouped:
        credits, sure = bookings.salary_amounts(grouped, SALARY), DAY_GROUPS
    if credits is not None:
        f.offer("salary_credits", credits, sure, "bookings table")
    else:
        f.offer("salary_credits", salary_credits(text), GUESS + 0.1)
    f.offer("bookings", lines or grouped, 0.9 if columns else DAY_GROUPS if grouped else 0.75, "bookings table")
    flat_bookings = bookings.in_text(text) or None
    f.offer("bookings", flat_bookings, GUESS + 0.1)
    # The bookings' own dates bound the period when the header's reading is unsure or wrong: a
    # candidate the cross-check may choose (CHECKS), weaker than any printed period.
    start, end = period_of_bookings(lines or grouped or flat_bookings or [])
    _offer_period(f, start, end, BOOKINGS_PERIOD, "bookings' dates")
    _one_dated_balance(f, pairs, lines or grouped or flat_bookings or [])
    return f.resolve((*_period_checks(f), *CHECKS))


def _alone(label: re.Pattern) -> re.Pattern:
    """The label as a whole cell of its own (a colon after it allowed)."""
    return re.compile(r"^\s*(?:" + label.pattern + r")\s*:?\s*$", label.flags)


def _one_dated_balance(f: Findings, pairs: list, rows: list[dict]) -> None:
    """A single "Balance on <date>" whose partner was not read (a scan lost the other line): its
    date beside the bookings' tells which it is: on or after the last booking, the closing
    balance; before the first, the opening balance. Weaker than a labelled balance."""
    if len(pairs) != 1 or pairs[0][0] is None:
        return
    day, hit = pairs[0]
    days = sorted(row["date"] for row in rows if row.get("date"))
    if len(days) < MIN_DATED_BOOKINGS:
        return
    if day >= days[-1]:
        f.offer("closing_balance", hit.value, hit.confidence - ONE_DATED, hit.label, hit.page)
    elif day < days[0]:
        f.offer("opening_balance", hit.value, hit.confidence - ONE_DATED, hit.label, hit.page)


ONE_DATED = 0.15


def _period_checks(f: Findings) -> tuple[Check, ...]:
    """A period is one reading: its start and end are chosen together, never one from each of two
    (every offer goes through _offer_period). Among the readings, the bookings' dates choose ("Nr.
    5/2026" read as May beside October's bookings is no period); the bookings may be read
    incompletely, so a failure lowers nothing."""
    read = set(zip((c.value for c in f.candidates["period_start"]), (c.value for c in f.candidates["period_end"])))
    return (Check(("period_start", "period_end"), lambda start, end: (start, end) in read, lowers=False),
            Check(("period_start", "period_end", "bookings"),
                  lambda start, end, rows: (start, end) in read and _bookings_inside(start, end, rows), lowers=False))


def period_of_bookings(rows: list[dict]) -> tuple[str | None, str | None]:
    """The period the bookings' dates span: their calendar month when all fall in one, else from the
    first date to the last when that is a statement's length; (None, None) otherwise."""
    days = sorted(row["date"] for row in rows if row.get("date"))
    if len(days) < MIN_DATED_BOOKINGS:
        return None, None
    first, last = days[0], days[-1]
    if first[:7] == last[:7]:
        return _month_bounds(first[:7])
    if (date.fromisoformat(last) - date.fromisoformat(first)).days <= PERIOD_DAYS[1]:
        return first, last
    return None, None


BOOKINGS_PERIOD = GUESS  # weaker than a printed period; a cross-check may still choose it


def salary_credits_in_layout(layout: Layout, columns: dict[str, float]) -> tuple[list[str] | None, float]:
    """Positive bookings whose description reads like pay, the amount taken from the column that
    holds it (not a running balance, `columns`: `_amount_columns`); None when no booking lines are found."""
    found, count = [], 0
    lines = layout.lines
    continued = set()  # value-date lines that belong to the booking above them
    running = _running_balance(layout)
    for index, line in enumerate(lines):
        first = line.segments[0].text
        if not BOOKING_DATE.match(first) or index in continued:
            continue
        count += 1
        block = [line]
        for offset, follower in enumerate(lines[index + 1:index + 4], start=index + 1):
            if follower.page != line.page or follower.y0 - block[-1].y1 > 1.5 * line.height:
                break
            if BOOKING_DATE.match(follower.segments[0].text):
                if not _value_date_line(follower, block[-1]):
                    break
                continued.add(offset)
            elif bookings.NOT_PURPOSE.search(follower.text):
                break  # a balance line ("Kontostand am ...") ends the bookings
            block.append(follower)
        if not SALARY.search(" ".join(l.text for l in block)):
            continue
        value = _booking_amount(block, columns)
        balance_now, moved = running.get(index, (None, None))
        if moved is not None and (value is None or value == balance_now or abs(Decimal(value)) == abs(Decimal(moved))):
            value = moved  # its own amount unread, or taken from the balance column, or its sign unsure
        if value is not None and not value.startswith("-"):
            found.append(value)
    if not count:
        return None, 0.0
    return found, (0.9 if columns else 0.75)


def _running_balance(layout: Layout) -> dict[int, tuple[str, str | None]]:
    """Line index -> (the balance in a "Saldo" / "Balance" column, the change from the balance above
    it) in a table with a running balance: what a booking moved, even where its own amount was not
    read or stood in the wrong column. Empty without such a column."""
    header = next(((line, segment) for line in layout.lines for segment in line.segments
                   if BALANCE_COLUMN.fullmatch(segment.text.strip()) and len(line.segments) >= HEADER_CELLS
                   and not any(p.amounts(s.text) for s in line.segments)), None)
    if header is None:
        return {}
    head_line, head = header
    reach = max(head.x1 - head.x0, 3 * head_line.height)
    out, before = {}, None
    for index, line in enumerate(layout.lines):
        if line.page < head_line.page or (line.page == head_line.page and line.y0 <= head_line.y1):
            continue
        cell = line.segments[-1] if len(line.segments) >= 2 else None
        value = balance(cell.text) if cell is not None and abs(cell.x1 - head.x1) <= reach else None
        if value is None:
            continue
        out[index] = (value, f"{Decimal(value) - Decimal(before):.2f}" if before is not None else None)
        before = value
    return out


BALANCE_COLUMN = re.compile(r"saldo|balance|kontostand|saldo eur|balance eur", re.IGNORECASE)
HEADER_CELLS = 3


def _value_date_line(follower, above) -> bool:
    """A dated line that continues the booking above it: the value date printed under the booking
    date ("Buchung / Valuta" on two lines), with the purpose beside it and no amount of its own;
    set tight under the booking line, closer than bookings stand to each other."""
    return (follower.y0 - above.y1 < VALUE_DATE_GAP * above.height
            and not p.amounts(re.sub(r"\b\d{1,2}\.\d{1,2}\.(?:\d{2,4})?", " ", follower.text)))


VALUE_DATE_GAP = 0.6  # line heights


def _amount_columns(layout: Layout) -> dict[str, float]:
    """x-centres of the bookings table's amount columns, from its header line."""
    for line in layout.lines:
        cols, weak = {}, False
        for segment in line.segments:
            for word_index, word in enumerate(segment.words):
                rest = " ".join(w.text for w in segment.words[word_index:])
                centre = (word.x0 + segment.x1) / 2
                for kind, header in (("credit", CREDIT_HEADER), ("debit", DEBIT_HEADER), ("amount", AMOUNT_HEADER),
                                     ("balance", BALANCE_HEADER)):
                    if kind not in cols and header.match(rest) and (word_index == 0 or kind != "amount"):
                        cols[kind] = centre
                    elif kind == "amount" and weak and word_index == 0 and header.match(rest) \
                            and not VALUE_DATE_HEADER.match(rest):
                        cols[kind] = centre  # "Wert" beside "Betrag" is the value date's column
                    if kind == "amount" and cols.get(kind) == centre:
                        weak = bool(VALUE_DATE_HEADER.match(rest))
        if ("credit" in cols and "debit" in cols) or "amount" in cols:
            if len(line.segments) >= 3:
                return cols
    return {}


def _booking_amount(block, columns: dict[str, float]) -> str | None:
    cells = []
    for line in block:
        for segment in line.segments:
            # Booking and value dates ("28.01.") would otherwise read as amounts.
            values = p.amounts(re.sub(r"\b\d{1,2}\.\d{1,2}\.(?:\d{2,4})?", " ", segment.text))
            # Soll: "900,00 S" is a debit, as is "€900.00 DR".
            if values and re.search(r"\d\s?(?:S|DR|Dr)$", segment.text.strip()):
                values[-1] = "-" + values[-1].lstrip("-")
            if values:
                cells.append(((segment.x0 + segment.x1) / 2, segment.x1, values[-1]))
        if cells:
            break  # the amount stands on the booking's first line that has one
    if not cells:
        return None
    if "credit" in columns and "debit" in columns:
        credit, debit = columns["credit"], columns["debit"]
        x, _, value = min(cells, key=lambda c: min(abs(c[0] - credit), abs(c[0] - debit)))
        if "balance" in columns and abs(x - columns["balance"]) < min(abs(x - credit), abs(x - debit)):
            return None
        return value.lstrip("-") if abs(x - credit) < abs(x - debit) else "-" + value.lstrip("-")
    if "amount" in columns:
        return min(cells, key=lambda c: abs(c[0] - columns["amount"]))[2]
    if "balance" in columns:
        cells = [c for c in cells if abs(c[0] - columns["balance"]) > 30] or cells
    return cells[0][2]


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
        values = p.amounts(re.sub(r"\b\d{1,2}\.\d{1,2}\.(?:\d{2,4})?", " ", line))
        if values and not values[-1].startswith("-"):
            found.append(values[-1])
    return found


def balance(raw: str) -> str | None:
    """A balance, its sign also as a mark after it: "1.234,56 S" / "Soll" / "DR" is overdrawn,
    "H" / "Haben" / "CR" in credit."""
    if BOOKING_LINE.match(raw.strip()):
        return None  # a booking's line ("01.09. 01.09. Miete ... 1.431,66 S") holds no balance
    raw = re.sub(r"\b\d{1,2}\.\d{1,2}\.(?:\d{2,4})?(?!\d)", " ", raw)  # nor is a date ("am 30.09.") an amount
    value = p.amount(raw)
    if value is None:
        return None
    if DEBIT_MARK.search(raw) or OVERDRAWN.search(raw):
        return "-" + value.lstrip("-")
    return value


BOOKING_LINE = re.compile(r"\d{1,2}\.\d{1,2}\.(?:\d{2,4})?\s")
DEBIT_MARK = re.compile(r"\d[.,]\d{2}\s?(?:EUR|€)?\s?(?:S|Soll|DR|Dr)\b")
# A balance's sign in words: "Kontostand am 30.09.2026 zu Ihren Lasten 18,58" is overdrawn.
OVERDRAWN = re.compile(r"zu\s+ihren\s+lasten|\bdebitorisch|\boverdrawn\b|\bdebit\s+balance\b", re.IGNORECASE)


def _dated_pairs(layout: Layout) -> list[tuple[str | None, Found]]:
    """(date, balance) after each "Kontostand am <date>", in the order of their dates (the earlier one
    is the opening balance, whichever is printed first); in printed order, dates None, when no line
    shows its date, and none when only some do (which is which cannot be told). A label that repeats
    a dated balance's date with no amount beside it (a box's heading, its figure set apart) is
    passed over."""
    pairs = _dated_balance_lines(layout)
    if not any(day for day, _ in pairs):
        return [(None, hit) for hit in layout.find(DATED_BALANCE, _dated_amount, is_label=IS_LABEL, below=False)]
    with_amount = {day for day, hit in pairs if hit is not None}
    pairs = [(day, hit) for day, hit in pairs if hit is not None or day not in with_amount]
    # The same balance printed twice (in the head and again above the bookings) is one balance.
    pairs = list({(day, hit.value if hit else None): (day, hit) for day, hit in pairs}.values())
    if any(day is None or hit is None for day, hit in pairs) or len({day for day, _ in pairs}) != len(pairs):
        return []
    return sorted(pairs, key=lambda pair: pair[0])


def _period_of_balances(days: list[str | None]) -> tuple[str | None, str | None]:
    """The period two dated balances bound (their dates in order, `_dated_pairs`): from the day after
    the earlier date to the later one, when they lie 3 to 100 days apart (a statement, not a year's
    overview)."""
    if len(days) != 2 or None in days:
        return None, None
    first, last = date.fromisoformat(days[0]), date.fromisoformat(days[1])
    if not PERIOD_DAYS[0] <= (last - first).days <= PERIOD_DAYS[1]:
        return None, None
    return (first + timedelta(days=1)).isoformat(), last.isoformat()


PERIOD_DAYS = (3, 100)


def _dated_balance_lines(layout: Layout) -> list[tuple[str | None, Found | None]]:
    """(date, balance) of each "Kontostand am <date>" label: the first date and the first amount after
    the label, in its segment or in the next segments of its line; None for what is not there."""
    out = []
    for li, si, m in layout.labels(DATED_BALANCE):
        line = layout.lines[li]
        day, hit = None, None
        pieces = [line.segments[si].text[m.end():]]
        for neighbour in line.segments[si + 1:si + 4]:
            if IS_LABEL(neighbour.text) or DATED_BALANCE.search(neighbour.text):
                break
            pieces.append(neighbour.text)
        for index, piece in enumerate(pieces):
            day = day or p.iso_date(piece)
            value = _dated_amount(piece)
            if value is not None and any(OVERDRAWN.search(before) for before in pieces[:index]):
                value = "-" + value.lstrip("-")  # "... zu Ihren Lasten", the figure in the next column
            if value is not None:
                hit = Found(value, m.group(0), "right", RIGHT_NEXT_SEGMENT, line.page, piece.strip())
                break
        if day is not None and hit is None:
            # In a box, the figure under its dated label ("Balance on 30 September 2026" / "10412.62").
            below = layout._below(li, line.segments[si], m, _dated_amount, IS_LABEL)
            hit = below if below is not None and below.relation == "below" else None
        out.append((day, hit))
    return out


def _dated_amount(raw: str) -> str | None:
    """The amount after a balance's date ("am 31.10.2026  1.074,93 EUR"), not the date's digits."""
    return balance(re.sub(r"\b\d{1,2}\.\d{1,2}\.\d{2,4}\b", " ", raw))


def _statement_month(raw: str) -> str | None:
    # "Kontoauszug Nr. 8/2026", "Auszug-Nr. 8/2026", "Statement # 8/2026" count statements, not months.
    return None if STATEMENT_NUMBER.match(raw) else p.month_period(raw)


STATEMENT_NUMBER = re.compile(r"[\s\-:|.]*(?:nr|no|nummer|number|#|blatt|sheet|seite|page)\b|[\s\-:|.]*#",
                              re.IGNORECASE)


def _month_bounds(month: str) -> tuple[str, str]:
    year, number = int(month[:4]), int(month[5:7])
    last = calendar.monthrange(year, number)[1]
    return f"{month}-01", f"{month}-{last:02d}"


def _unlabelled_range(text: str) -> tuple[str | None, str | None]:
    """A range of two dates in any style standing alone in the statement's head ("01 Sep 2026 -
    30 Sep 2026"): what else would a statement date from and to there."""
    for line in p.lines(text)[:HEAD_LINES]:
        for segment in p.segments(line):
            if RANGE_WORD.search(segment) or p.SHORT_RANGE.search(segment):
                start, end = p.date_range(segment)
                if start and end and start < end:
                    return start, end
    return None, None


HEAD_LINES = 15
RANGE_WORD = re.compile(r"\s(?:-|–|bis|to|until)\s", re.IGNORECASE)


def _holder(raw: str) -> str | None:
    """The holder's name after its label, past the colon OCR may read as "=", "-" or "~"; a joint
    account's two holders as "Given Family und Given Family"."""
    raw = OCR_COLON.sub("", raw)
    return joint_holders(raw) or p.person_name(raw)


def joint_holders(raw: str) -> str | None:
    """Two holders of a joint account: "Max Muster und Erika Muster", "Eheleute Max Muster und Erika
    Muster", "Max Muster & Erika Beispiel"; written out as "Max Muster und Erika Muster". None unless
    both sides are full names."""
    text = re.sub(r"^(?:eheleute|ehepaar|herrn?\s+und\s+frau|frau\s+und\s+herrn?)\s+", "", raw.strip(" :|,;"),
                  flags=re.IGNORECASE)
    parts = JOINT.split(text)
    if len(parts) != 2:
        return None
    # "Max und Erika Muster" names the first holder by given name only: where the second's given
    # names end ("María José und Ana García López") cannot be told, so that is no joint reading.
    first, second = (p.person_name(part) for part in parts)
    return f"{first} und {second}" if first and second else None


JOINT = re.compile(r"\s+(?:und|and|&|u\.)\s+", re.IGNORECASE)


OCR_COLON = re.compile(r"^[\s=~\-–—»:;|]+")


def _offer_period(f: Findings, start: str | None, end: str | None, confidence: float, label: str | None = None,
                  page: int | None = None) -> None:
    """A period's two dates, offered together; a range longer than a statement runs (a fee summary's
    calendar year on a cover page, "Entgeltaufstellung 2025 ... 01.01.2025 - 31.12.2025") is weaker than
    a statement's month, and still taken when it is the only one (a yearly statement)."""
    if not (start and end):
        return
    if (date.fromisoformat(end) - date.fromisoformat(start)).days > PERIOD_DAYS[1]:
        confidence -= LONG_PERIOD
    f.offer("period_start", start, confidence, label, page)
    f.offer("period_end", end, confidence, label, page)


LONG_PERIOD = 0.3
SIGN_MARK = re.compile(r"^\s*[-+]|\d\s?[-+]\s*$|\d\s?(?:EUR|€)?\s?(?:H|S|Haben|Soll|CR|DR|Cr|Dr)\b")


def _sign_by_column(f: Findings, layout: Layout, columns: dict[str, float]) -> None:
    """A balance row in a table with Soll and Haben columns ("Alter Saldo per 30.09.2026 ... 214,86"
    under Soll) prints no sign: its column (`columns`: `_amount_columns`) says it is overdrawn.
    Candidates of that figure read without a sign take it."""
    if "credit" not in columns or "debit" not in columns:
        return
    debit, credit = columns["debit"], columns["credit"]
    # Only rows of the table: a balance in the account facts above it stands where it stands.
    head = next((li for li, line in enumerate(layout.lines)
                 if any(DEBIT_HEADER.match(s.text) for s in line.segments)
                 and any(CREDIT_HEADER.match(s.text) for s in line.segments)), None)
    overdrawn = set()
    for pattern in (OPENING, CLOSING, DATED_BALANCE):
        for li, si, _ in layout.labels(pattern):
            if head is None or li <= head:
                continue
            for segment in layout.lines[li].segments[si + 1:]:
                values = p.amounts(segment.text)
                centre = (segment.x0 + segment.x1) / 2
                if SIGN_MARK.search(segment.text):
                    continue  # "4.562,36 H", "-18,58": the figure says it itself
                if len(values) == 1 and abs(centre - debit) < abs(centre - credit):
                    overdrawn.add(values[0].lstrip("-"))
    for name in ("opening_balance", "closing_balance"):
        for candidate in f.candidates[name]:
            if candidate.value in overdrawn:
                candidate.value = "-" + candidate.value


def _range(raw: str):
    start, end = p.date_range(raw)
    return (start, end) if start and end else None


def _bank_name(raw: str) -> str | None:
    return raw.strip() if BANK_WORD.search(raw) and len(raw) <= 60 and not re.search(r"\d", raw) else None


def _bank(text: str) -> str | None:
    head = p.lines(text)[:8]
    for line in head:
        for segment in map(_untitled, p.segments(line)):
            form = p.LEGAL_FORM.search(segment)
            if BANK_WORD.search(segment) and form:
                # The name ends at its legal form: the part before it, not what a line printed first.
                return _with_branch(segment, re.split(PARTS, segment[:form.end()])[-1].strip())
    for line in head:
        for segment in map(_untitled, p.segments(line)):
            if BANK_WORD.search(segment) and len(segment) <= 60:
                return _with_branch(segment, re.split(r"\s[·•]\s|,|\s-\s", segment)[0].strip())
    # An app's statement shows a logo on top and names the bank only in its foot, with the
    # register court ("IBAN ... · BIC ... · Musterbank AG, Amtsgericht Berlin HRB 1234").
    for line in p.lines(text):
        for segment in p.segments(line):
            form = p.LEGAL_FORM.search(segment)
            if form:
                name = re.split(PARTS, segment[:form.end()])[-1].strip()
                if BANK_WORD.search(name) and len(name) > len(form.group(0)) + 2:
                    return name
    # Else the first company of the statement's words, not of its bookings (a landlord, a shop).
    return p.company("\n".join(line for line in p.lines(text) if not BOOKING_DATE.match(line) and not p.amounts(line)))


# A line's parts: parted by middle dots, or whatever mark OCR read them as ("»", "+", "°"), or commas.
PARTS = re.compile(r"\s[^\w\s,.&'’()]\s|,")


def _with_branch(segment: str, name: str) -> str:
    """A foreign bank's German branch is named with it: "Banco X S.A. Zweigniederlassung Frankfurt",
    "Nordic Bank AB, Frankfurt Branch"."""
    at = segment.find(name)
    branch = BRANCH.match(segment[at + len(name):]) if at >= 0 else None
    return name + branch.group(0).rstrip() if branch else name


BRANCH = re.compile(r",?\s+(?:[Zz]weig)?[Nn]iederlassung\s+[A-ZÄÖÜ][\wäöüß\-]+|,?\s+[A-Z][\w\-]+\s+[Bb]ranch\b")


def _untitled(segment: str) -> str:
    """A heading OCR ran into the bank's name ("Account statement Musterbank AG") is not part of it,
    nor is a page number it ran on after it ("Stadtsparkasse Lindenau Seite 1/2")."""
    return TRAILING_TITLE.sub("", PAGE_NUMBER.sub("", STATEMENT_TITLE.sub("", segment))).strip()


PAGE_NUMBER = re.compile(r"\s+(?:seite|blatt|page|sheet)\s*\d+\s*(?:/|von|of)\s*\d+\s*$", re.IGNORECASE)
# ... or the statement's title it ran on after it ("Kreissparkasse Talheim Kontoauszug Nr. 9/2026").
TRAILING_TITLE = re.compile(r"\s+(?:konto\s?auszug|account statement|bank statement)\b.*$", re.IGNORECASE)
STATEMENT_TITLE = re.compile(r"^(?:konto\s?auszug|account statement|bank statement|statement of account|auszug)"
                             r"(?:\s+nr\.?\s*\S+)?\s*[-:|·]?\s*", re.IGNORECASE)
