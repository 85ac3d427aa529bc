"""A bank statement's bookings (date, counterparty, purpose, amount): from the page layout's booking
lines, from flat text, or from camt.053 / MT940 entries. The case checks read them for salary
credits and red flags (returned debits, collection, garnishment, instalments).

A booking starts on a line that begins with a date and carries an amount; the lines below it, up to
the next booking, a balance line or a gap, are its purpose. The booking type the bank prints first
("Lastschrift", "Lohn/Gehalt", "Rücklastschrift") is kept at the start of the purpose, as it says
what kind of money moved; the words between it and the amount name the counterparty.
"""
import re
from datetime import date
from typing import Callable, Iterable

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.types import DATE, TEXT

SCHEMA = {"type": ["array", "null"], "description": "the statement's bookings, in the order printed",
          "items": {"type": "object", "properties": {
              "date": DATE, "counterparty": TEXT, "purpose": TEXT,
              "amount": {"type": ["string", "null"], "pattern": r"^-?[0-9]+\.[0-9]{2}$",
                         "description": "negative when money leaves the account"}}}}

# A booking line opens with one or two dates ("03.08.2026 03.08.2026", "03.08. 03.08.", "2026-08-03",
# a core banking system's "03-AUG-2026").
LEADING_DATES = re.compile(r"^(?:(?:\d{1,2}\.\d{1,2}\.(?:\d{2,4})?|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4}"
                           r"|\d{1,2}-[A-Za-z0][A-Za-z]{2}-\d{4})\s+){1,2}")
# What the bank prints as a booking's kind, before the counterparty.
BOOKING_TYPE = re.compile(
    r"^(?:sepa[- ])?(?:r[üu]e?ck-?lastschrift|r[üu]e?ck[üu]e?berweisung|lastschrift(?:einzug)?|basis-?lastschrift"
    r"|dauerauftrag|(?:echtzeit-?)?[üu]e?berweisung|gutschrift|kartenzahlung|debitkarte|girocard|lohn\s?/\s?gehalt"
    r"|gehalt|lohn|bezüge|rente|zinsen|entgelt|abschluss|bargeld(?:auszahlung|einzahlung)?|auszahlung|einzahlung"
    r"|direct debit|standing order|transfer|card payment|salary|returned debit"
    r"|sdd lastschr|gutschr\.?(?:\s?sepa)?|sepa\s?[üu]berw\.?(?:\s?einzel)?|inh\.\s?scheck|scheckeinreichung)"
    r"(?![\wäöüß])[.:]?\s*", re.IGNORECASE)
# Lines that end a booking's purpose: balances and totals.
NOT_PURPOSE = re.compile(r"^(?:alter|neuer)\s?kontostand|^kontostand|^saldo|^summe|^übertrag|^uebertrag|^zwischensumme"
                         r"|^opening|^closing|^balance|^total|^bitte prüfen|^buchungstag|^auszug\s+seite"
                         r"|dispositionskredit|zinssatz\s?f[üu]r", re.IGNORECASE)
DAY_ONLY = re.compile(r"^(\d{1,2})\.(\d{1,2})\.?$")
MAX_PURPOSE_LINES = 3
GAP_LINES = 1.5  # a gap taller than this many line heights ends a booking


def in_layout(layout, starts: re.Pattern, amount_of: Callable[[list], str | None] | None = None, *,
              last_amount: bool = True) -> list[dict] | None:
    """Bookings from the layout's lines; None when no booking line was found. `starts` tells a line
    that opens a booking (its first segment), `amount_of` the booking's amount from its lines (the
    statement's column reading); else the last amount on its first line, unless `last_amount` is
    false (a table with a running balance: the last amount of a line whose own was not read is the
    balance)."""
    lines = layout.lines
    found, year = [], _statement_year(lines)
    index = 0
    while index < len(lines):
        line = lines[index]
        first = line.segments[0].text if line.segments else ""
        value = (amount_of([line]) if amount_of else None) if starts.match(first) else None
        if value is None and starts.match(first) and (last_amount or not amount_of):
            value = _last_amount(line.text)
        if not starts.match(first) or value is None:
            index += 1
            continue
        block = [line]
        for follower in lines[index + 1:index + 1 + MAX_PURPOSE_LINES]:
            if follower.page != line.page or follower.y0 - block[-1].y1 > GAP_LINES * line.height:
                break
            if NOT_PURPOSE.search(follower.text) or (starts.match(follower.segments[0].text)
                                                     and _last_amount(follower.text) is not None):
                break
            block.append(follower)
        booked = _booking(line.text, [l.text for l in block[1:]], value, year)
        # An account or bank number at a line's start reads like an OCR'd date; a booking has words.
        if booked["date"] or re.search(r"[^\W\d_]", f"{booked['counterparty'] or ''}{booked['purpose'] or ''}"):
            found.append(booked)
        index += len(block)
    return found or None


def in_day_groups(layout) -> list[dict] | None:
    """Bookings grouped under a heading of their day, as banking apps print them ("Friday, 9 October
    2026", "Montag, 12.10.2026"): each line that ends in an amount opens a booking of the heading's
    day, its words the counterparty, the lines below it without an amount its purpose. An amount
    alone on its line (a scan's tilt moved it off its words' line) takes the words just above it.
    None when the statement has no such headings."""
    found, day, current, pending, previous = [], None, None, [], None

    def close():
        if current is not None:
            words = [current["purpose"], *(l.text for l in pending[:MAX_PURPOSE_LINES])]
            current["purpose"] = " ".join(filter(None, words)) or None
            found.append(current)

    for line in layout.lines:
        heading = _day_heading(line.text)
        last = line.segments[-1].text if line.segments else ""
        value = _last_amount(last) if _only_amounts(last) else None
        tight = previous is not None and previous.page == line.page and line.y0 - previous.y1 <= GAP_LINES * line.height
        if heading or NOT_PURPOSE.search(line.text):
            close()
            current, pending = None, []
            day = heading or day
        elif day and value is not None:
            words = " ".join(segment.text for segment in line.segments[:-1])
            if not words and tight and pending and pending[-1] is previous:
                words = pending.pop().text
            close()
            kind = BOOKING_TYPE.match(words)
            current = booking(day, (words[kind.end():] if kind else words).strip(" ·|-"), None, value)
            current["purpose"] = words[:kind.end()].strip(" .:") if kind else None
            pending = []
        elif day:
            if not tight:
                close()
                current, pending = None, []
            pending.append(line)
        previous = line
    close()
    return found or None


def _day_heading(text: str) -> str | None:
    """The day a heading line names, alone or after its weekday: "Friday, 9 October 2026"."""
    rest = WEEKDAY.sub("", text.strip())
    if len(rest) > DAY_HEADING_CHARS or p.amounts(rest) or not DAY_ALONE.fullmatch(rest):
        return None
    return p.iso_date(rest)


WEEKDAY = re.compile(r"^(?:montag|dienstag|mittwoch|donnerstag|freitag|samstag|sonntag|monday|tuesday|wednesday"
                     r"|thursday|friday|saturday|sunday|mo|di|mi|do|fr|sa|so|mon|tue|wed|thu|fri|sat|sun)\.?,?\s+",
                     re.IGNORECASE)
DAY_ALONE = re.compile(r"\d{1,2}\.\d{1,2}\.\d{4}|\d{4}-\d{2}-\d{2}|\d{1,2}\.?\s[^\W\d_]{3,9}\.?\s\d{4}"
                       r"|[^\W\d_]{3,9}\.?\s\d{1,2},?\s\d{4}")
DAY_HEADING_CHARS = 24


def in_text(text: str) -> list[dict]:
    """Bookings from flat text lines (no layout): the same rules, the last amount on the first line."""
    all_lines = p.lines(text)
    year = _statement_year_text(text)
    found, index = [], 0
    while index < len(all_lines):
        line = all_lines[index]
        value = _last_amount(line) if LEADING_DATES.match(line + " ") else None
        if value is None:
            index += 1
            continue
        purpose = []
        for follower in all_lines[index + 1:index + 1 + MAX_PURPOSE_LINES]:
            if NOT_PURPOSE.search(follower) or (LEADING_DATES.match(follower + " ") and _last_amount(follower)):
                break
            purpose.append(follower)
        found.append(_booking(line, purpose, value, year))
        index += 1 + len(purpose)
    return found


def booking(day: str | None, counterparty: str | None, purpose: str | None, amount: str | None) -> dict:
    """One booking as content carries it (camt.053 and MT940 entries use this too)."""
    return {"date": day, "counterparty": (counterparty or "").strip() or None,
            "purpose": re.sub(r"\s+", " ", purpose or "").strip() or None, "amount": amount}


def salary_amounts(bookings: Iterable[dict], salary: re.Pattern) -> list[str]:
    """Credits whose words read like pay."""
    return [b["amount"] for b in bookings if b.get("amount") and not b["amount"].startswith("-")
            and salary.search(f"{b.get('counterparty') or ''} {b.get('purpose') or ''}")]


def _booking(first: str, more: list[str], value: str, year: int | None) -> dict:
    dates = LEADING_DATES.match(first + " ")
    head = first[dates.end():] if dates and dates.end() <= len(first) else first
    day = _date(first[:dates.end()] if dates else "", year)
    words = _without_amount(head).lstrip("‚,.;:|·-_ ")
    kind = BOOKING_TYPE.match(words)
    type_words = words[:kind.end()].strip(" .:") if kind else ""
    counterparty = words[kind.end():] if kind else words
    # Card payments print the time and card as a second dated line; it is not a purpose. Nor is
    # the value date a "Buchung / Valuta" table prints under the booking date.
    purpose = [LEADING_DATES.sub("", line + " ").strip() for line in more
               if not re.match(r"^\d{1,2}\.\d{1,2}\.?\s+\d{1,2}:\d{2}", line)]
    return booking(day, counterparty.strip(" ·|-"), " ".join([type_words, *purpose]), value)


def _last_amount(text: str) -> str | None:
    values = p.amounts(re.sub(r"\b\d{1,2}\.\d{1,2}\.(?:\d{2,4})?", " ", text))
    if not values:
        return None
    value = values[-1]
    if re.search(r"\d\s?S$", text.strip()):  # "900,00 S": Soll, a debit
        value = "-" + value.lstrip("-")
    return value


def _without_amount(text: str) -> str:
    """The words before the booking's amount (and a balance after it)."""
    matches = list(p.AMOUNT.finditer(text))
    cut = matches[-2].start() if len(matches) >= 2 and _only_amounts(text[matches[-2].start():]) else (
        matches[-1].start() if matches else len(text))
    return re.sub(r"\s+(?:EUR|€)?\s*$", "", text[:cut]).strip(" |")


def _only_amounts(text: str) -> bool:
    return not re.sub(r"[\d.,+\-−\s€SHEUR|]", "", text)


def _date(text: str, year: int | None) -> str | None:
    found = p.iso_date(text)
    if found:
        return found
    first = text.split()[0] if text.split() else ""
    m = DAY_ONLY.match(first)
    if m and year:
        try:
            return date(year, int(m.group(2)), int(m.group(1))).isoformat()
        except ValueError:
            return None
    return None


def _statement_year(lines) -> int | None:
    return _statement_year_text("\n".join(l.text for l in lines[:40]))


def _statement_year_text(text: str) -> int | None:
    """Bookings printed as "03.08." take the year of the statement's dates."""
    # No word boundaries: a text layer may run words together ("vom01.01.2020bis02.02.2020").
    years = re.findall(r"(?<!\d)\d{1,2}\.\d{1,2}\.(20\d{2})(?!\d)", text[:4000])
    return int(max(set(years), key=years.count)) if years else None
