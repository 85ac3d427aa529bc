"""Fields of a till receipt (Kassenbon): the shop, the date, the amount paid, its currency and VAT.

A till slip is one narrow column: a shop name and address on top, item lines, then a total
("SUMME", "ZU ZAHLEN", "Gesamt", "Total"), the payment ("BAR", "Kartenzahlung", "girocard"),
cash handed over and change ("Gegeben", "Rückgeld"), a VAT table and a date with a time at the
foot. Receipts keep the invoice's field names, so that LeadFlow reads both alike. Lines come from
the word boxes when the page has them: OCR often reads the labels as one block and the amounts
as another, while the boxes still put each amount on its label's line.
"""
import itertools
import math
import re
from datetime import date
from decimal import Decimal, InvalidOperation

from leadflow.extractor.fields import invoice
from leadflow.extractor.fields import parse as fields_parse
from leadflow.extractor.fields.finding import FieldsRead, Findings

# A receipt carries an invoice's fields (LeadFlow judges both alike); only the finding differs.
SCHEMAS: dict[str, dict] = invoice.SCHEMAS

# How sure a value is, by what vouched for it.
LABELLED = 0.85  # the amount stands on a total line ("SUMME", "ZU ZAHLEN")
CONFIRMED = 0.95  # ... and the payment, cash minus change, or the VAT table agrees
PAYMENT_ONLY = 0.7  # only a card payment line names it (a card pays the exact amount)
CASH_MINUS_CHANGE = 0.75  # cash handed over minus the change given back
IMPLAUSIBLE = 0.5  # ... below an item's price, or above the cash handed over: likely misread
LARGEST = 0.3  # no label at all: the largest amount on the slip; a person should look
DATE_WITH_TIME = 0.9  # a till prints the date beside the time of sale
DATE_ALONE = 0.7
SHOP_HEADER = 0.7  # the first name-like line of the slip's head
EXPLICIT_CURRENCY = 0.95
GERMAN_SHOP = 0.8  # no currency printed, but a German address, VAT or till words
HEAD_LINES = 8  # the shop's name stands in the first lines of the slip

# OCR's slips of these labels count too: m read as rn or n ("Gesant", "Surnme"), l as 1 or i, O as 0.
TOTAL = re.compile(r"(?<![\w-])(zu\s?zahlen|gesamtsumme|gesamtbetrag|gesa(?:m|n|rn)t|endsumme|endbetrag|zahlbetrag"
                   r"|su(?:mm|rnm|mrn|nm|mn|nn)e|grand\s?t[o0]ta[l1i]|t[o0]ta[l1i]|betrag)(?![\w-])", re.IGNORECASE)
# A card pays exactly the total; "Gegeben Kreditkarte" on a pharmacy slip is such a line too.
CARD = re.compile(r"kartenzah[l1i]ung|ec-?\s?karte|ec-?\s?cash|girocard|kreditkarte|maestro|mastercard|\bvisa\b"
                  r"|\bamex\b|\bkarte\b|\bcard\b|contactless|kontaktlos|apple\s?pay|google\s?pay", re.IGNORECASE)
CASH = re.compile(r"(?<![\w-])(bar|bargeld|gegeben|cash|tendered)(?![\w-])", re.IGNORECASE)
CHANGE = re.compile(r"r[üu]ckgeld|zur[üu]ck|wechselgeld|\bchange\b", re.IGNORECASE)
# Lines whose amounts are never the total: subtotals, VAT, net, savings, deposits.
NOT_TOTAL = re.compile(r"zwischen|sub\s?total|mwst|ust\b|u\.?st|steuer|\bvat\b|\btax\b|netto|\bnet\b|rabatt"
                       r"|ersparnis|gespart|pfand|%", re.IGNORECASE)
VAT_TOTAL = re.compile(r"(?<![\w-])(mwst|mw\.?st\.?|ust|umsatzsteuer|vat|tax)(?![\w-])", re.IGNORECASE)
RATE = re.compile(r"(?<![\d,.])(\d{1,2})(?:[,.](\d{1,2}))?\s?%")  # 19%  7 %  19,00%
VAT_ROUNDING = Decimal("0.02")  # a till rounds VAT per rate; a cent or two either way
UNSURE_TABLE = 0.45  # a VAT table whose grosses fall short of the total: below LeadFlow's 0.5
READINGS_TRIED = 64  # combinations of a VAT table's ambiguous rows tried against the total
NET = re.compile(r"(?<![\w-])(netto|net)(?![\w-])", re.IGNORECASE)
NUMBER = re.compile(r"(?:bon|beleg|kassenbon|quittung|receipt|rechnung|trans(?:aktion)?|vorgang)[\s.\-]*"
                    r"(?:nr|nummer|no|#)[\s.:#]*([A-Z0-9][A-Z0-9/\-]{2,})"
                    # A till's foot line "Markt 103 Kasse 09 Bon 8967": the word Bon alone before digits.
                    r"|(?<![\w-])bon[\s.:]+(\d{3,})(?![\d,.])", re.IGNORECASE)
# The card terminal's own slip under the sale ("Kundenbeleg", "Terminal-ID"): its Beleg-Nr. is the
# terminal's count of payments, not the sale's number.
TERMINAL_SLIP = re.compile(r"kundenbeleg|h[äa]ndlerbeleg|terminal-?\s?id|\bta-?nr\b", re.IGNORECASE)
# Amounts as tills print them: 8,83  1.234,56  8.83  -2,84  2,84-  (a currency mark around them).
AMOUNT_TOKEN = re.compile(r"(?<![\d.,])(-\s?)?(\d{1,3}(?:[.\s]\d{3})+|\d{1,6})[,.](\d{2})(?![\d%])(-)?")
DATE_TOKEN = re.compile(r"(?<!\d)(\d{1,2})[./](\d{1,2})[./](\d{4}|\d{2})(?![\d.])"  # 02.03.2020, 02.03.20
                        r"|(?<!\d)(20\d{2})-(\d{2})-(\d{2})(?!\d)")  # 2020-03-02
TIME_TOKEN = re.compile(r"(?<!\d)([01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?(?!\d)")
# A sign glued to a word ("MWST$") is OCR's reading of a % or an €, not a currency.
CURRENCY_TOKEN = re.compile(r"(€|\bEURO?\b|\bUSD\b|(?<![A-Za-z])\$|\bGBP\b|(?<![A-Za-z])£|\bCHF\b|\bSFR\b)")
CURRENCIES = {"€": "EUR", "EUR": "EUR", "EURO": "EUR", "USD": "USD", "$": "USD", "GBP": "GBP", "£": "GBP",
              "CHF": "CHF", "SFR": "CHF"}
GERMAN_SHOP_HINTS = re.compile(r"\b\d{5}\s+[A-ZÄÖÜ][a-zäöüß]|stra(ß|ss)e\b|str\.\s*\d|\bmwst\b|\bust-?id|zu zahlen"
                               r"|r[üu]ckgeld|kassenbon|\bsumme\b|\bfiliale\b|steuer-?nr|vielen dank", re.IGNORECASE)
NOT_SHOP = re.compile(r"kassenbon|quittung|beleg|receipt|rechnung|\btel\b|telefon|fax|www\.|@|\bstr\.|stra(ß|ss)e"
                      r"|\b\d{5}\b|ust-?id|steuer|öffnungszeiten|\bdatum\b|willkommen|welcome|filiale\b", re.IGNORECASE)


def parse(reading) -> FieldsRead:
    lines = _lines(reading)
    found = Findings(SCHEMAS)
    _offer_total(found, lines)
    _offer_date(found, lines)
    _offer_vat(found, lines)
    _offer_issuer(found, lines)
    _offer_number(found, lines)
    currency, sure = _currency("\n".join(lines))
    found.offer("currency", currency, sure)
    found.offer("source", "text", 0.9)
    return found.resolve()


def parse_fields(text: str) -> dict:
    """The fields alone, from plain text (tests and the flat-text fallback)."""
    return parse(_TextOnly(text)).fields


def _offer_number(found: Findings, lines: list[str]) -> None:
    """The sale's number: the first one labelled above the card terminal's slip."""
    for line in lines:
        if TERMINAL_SLIP.search(line):
            return
        m = NUMBER.search(line)
        number = m and (m.group(1) or m.group(2))
        if number and re.search(r"\d", number):
            found.offer("number", number, LABELLED, m.group(0).split()[0])
            return


# --- the total ----------------------------------------------------------------------------------

def _offer_total(found: Findings, lines: list[str]) -> None:
    labelled, card, cash, change = [], [], [], []
    for index, line in enumerate(lines):
        values = _amounts(line)
        if not values:
            continue
        if CHANGE.search(line):
            change.append(abs(values[-1]))
        elif CARD.search(line) and not NOT_TOTAL.search(line):
            card.append(values[-1])
        elif CASH.search(line) and not TOTAL.search(line):
            cash.append(values[-1])
        elif (m := TOTAL.search(line)) and not NOT_TOTAL.search(line[:m.start()] + line[m.end():m.end() + 12]):
            # "Summe  0,47  6,69  7,16" closes a VAT table: its last column is the gross.
            labelled.append((index, max(values) if len(values) > 2 else values[-1], m.group(0)))
        elif (m := TOTAL.search(line)) and len(values) >= 3:
            labelled.append((index, max(values), m.group(0)))
    vat_gross = _vat_table_gross(lines)
    confirmations = set(card)
    if cash and change:
        confirmations.add(cash[-1] - change[-1])
    if vat_gross is not None:
        confirmations.add(vat_gross)
    for index, value, label in labelled:
        if value > 0:
            sure = CONFIRMED if value in confirmations else LABELLED
            if value not in confirmations and not _plausible(value, lines[:index], cash):
                sure *= IMPLAUSIBLE
            found.offer("total", _money(value), sure, label)
    for value in card:
        found.offer("total", _money(value), PAYMENT_ONLY, "card")
    if cash and change and cash[-1] - change[-1] > 0:
        found.offer("total", _money(cash[-1] - change[-1]), CASH_MINUS_CHANGE, "cash - change")
    if not found.candidates["total"]:
        every = [v for line in lines if not (NOT_TOTAL.search(line) or CHANGE.search(line)) for v in _amounts(line)]
        if every:
            found.offer("total", _money(max(every)), LARGEST)


def _plausible(value: Decimal, above: list[str], cash: list[Decimal]) -> bool:
    """A total is at least the dearest item above it (when the slip takes nothing off) and at most
    the cash handed over: "Summe 0,47" under a 5,18 item is the VAT table's, misread."""
    if cash and value > cash[-1]:
        return False
    items = [_amounts(line)[-1] for line in above if _amounts(line) and not (
        NOT_TOTAL.search(line) or CHANGE.search(line) or CASH.search(line) or CARD.search(line)
        or TOTAL.search(line) or DATE_TOKEN.search(line))]
    if not items or any(item < 0 for item in items):
        return True  # a discount or a deposit returned: an item may be dearer than the total
    return value >= max(items)


def _vat_table_gross(lines: list[str]) -> Decimal | None:
    """The gross column's sum of a VAT table ("A 19,00%  6,59  1,25  7,84")."""
    rows = []
    for line in lines:
        if re.search(r"\d{1,2}(?:[,.]\d{1,2})?\s?%", line):
            values = _amounts(re.sub(r"\d{1,2}(?:[,.]\d{1,2})?\s?%", " ", line))
            if len(values) >= 3:
                rows.append(values)
    if not rows:
        return None
    return sum((row[-1] for row in rows), Decimal("0"))


def _offer_vat(found: Findings, lines: list[str]) -> None:
    """VAT and net from a till's VAT table: its rows per rate (net, VAT and gross, net or VAT
    first) and its own Summe row, each adding up (net + VAT = gross) or, with one figure misread,
    agreeing with its rate (VAT = gross x rate / (100 + rate)). A table whose gross is a sure total
    is surer. Without a table: a single "MwSt 1,23" / "enthaltene MwSt" line."""
    totals = {Decimal(c.value) for c in found.candidates["total"] if c.confidence >= LABELLED}
    rated = [line for line in lines if RATE.search(line) and not CHANGE.search(line)]
    readings, unread = [], []
    for line in rated:
        m = RATE.search(line)
        rate = Decimal(f"{m.group(1)}.{m.group(2) or 0}")
        row_readings = _vat_readings(_amounts(RATE.sub(" ", line)), rate, totals if len(rated) == 1 else set())
        if row_readings:
            readings.append(row_readings)
        else:
            unread.append((line, rate))
    if len(unread) == 1 and readings and len(totals) == 1:
        # One rate's row OCR garbled ("7% 2,33 2 33,360,.35,09"): its gross is what the sure total
        # leaves after the other rows, and the row still shows that gross's VAT share.
        line, rate = unread[0]
        rest = next(iter(totals)) - sum((row_readings[0][2] for row_readings in readings), Decimal("0"))
        share = _vat_share(rest, rate) if rest > 0 else None
        if share is not None and any(abs(value - share) <= VAT_ROUNDING for value in _amounts(RATE.sub(" ", line))):
            readings.append([(rest - share, share, rest)])
    rows = [row_readings[0] for row_readings in readings]
    if sum((row[2] for row in rows), Decimal("0")) not in totals and math.prod(map(len, readings)) <= READINGS_TRIED:
        # A small row reads two ways ("MwSt 7% = 0,16  Netto 2,29": 0,16 is 7% of 2,29 and also about
        # 7/107 of it): the readings whose grosses make a sure total are the table's.
        rows = next((list(combo) for combo in itertools.product(*readings)
                     if sum((row[2] for row in combo), Decimal("0")) in totals), rows)
    sums = [row for line in lines if TOTAL.search(line) and not RATE.search(line)
            and (row := _adding_up(_amounts(line)[-3:]))]
    for net, vat, gross in sums:
        sure = CONFIRMED if gross in totals else LABELLED
        found.offer("tax", _money(vat), sure, "VAT table sum")
        found.offer("net", _money(net), sure, "VAT table sum")
    net, vat, gross = (sum((row[i] for row in rows), Decimal("0")) for i in range(3))
    # Rows whose gross makes a sure total are the whole table; else every rate line must have read.
    if rows and (gross in totals or len(rows) == len(rated)):
        sure = CONFIRMED if gross in totals else LABELLED * 0.8
        if totals and gross < min(totals):
            # Grosses that fall short of every sure total: a rate's row went unread (OCR lost it), so
            # the table's sums are part of the VAT and net only. A person looks.
            sure = UNSURE_TABLE
        found.offer("tax", _money(vat), sure, "VAT table")
        found.offer("net", _money(net), sure, "VAT table")
    if rows or sums:
        return
    for line in lines:
        m = VAT_TOTAL.search(line)
        values = _amounts(RATE.sub(" ", line))
        if m and len(values) == 1:
            found.offer("tax", _money(values[0]), LABELLED * 0.9, m.group(0))
        n = NET.search(line)
        if n and len(values) == 1 and not m:
            found.offer("net", _money(values[0]), LABELLED * 0.9, n.group(0))


def _vat_readings(values: list[Decimal], rate: Decimal, totals: set[Decimal]) -> list[tuple]:
    """Every way to read one rate's row as (net, VAT, gross), the likeliest first; none when it reads
    no way. A row that does not add up is mended from its rate when one figure was misread; a row
    may print the net and its VAT without the gross; a lone VAT figure counts when the table has one
    rate and it is that rate's share of a sure total."""
    if len(values) >= 3 and (row := _adding_up(values[-3:])):
        return [row]
    out = []
    if len(values) >= 2:  # the gross last, one or both of net and VAT before it
        out.append(_mended(values[-3:-1], values[-1], rate))
    if len(values) == 2 and values[0] > values[1]:  # "MwSt 19% auf 38,60: 6,16": the gross, then its VAT
        out.append(_mended(values[1:], values[0], rate))
    if len(values) >= 2:  # no gross printed: the net and its VAT
        out.append(_net_and_vat(values[-2], values[-1], rate))
    for total in totals:
        out.append(_mended([value for value in values if value != total], total, rate))
    return list(dict.fromkeys(row for row in out if row))


def _net_and_vat(a: Decimal, b: Decimal, rate: Decimal) -> tuple | None:
    """(net, VAT, gross) of a row that prints no gross, only the net and its VAT in either order
    ("B 7%  28,33  1,98", "MwSt 19% = 17,56  Netto 92,44"): the VAT is the rate's share of the net."""
    for net, vat in ((a, b), (b, a)):
        if net > vat > 0 and abs(net * rate / 100 - vat) <= VAT_ROUNDING:
            return net, vat, net + vat
    return None


def _mended(figures: list[Decimal], gross: Decimal, rate: Decimal) -> tuple | None:
    """(net, VAT, gross) from one figure that is the rate's VAT share of the gross, or its net."""
    share = _vat_share(gross, rate)
    for value in figures:
        if abs(value - share) <= VAT_ROUNDING:
            return gross - value, value, gross
        if value > share and abs(gross - value - share) <= VAT_ROUNDING:
            return value, gross - value, gross
    return None


def _adding_up(values: list[Decimal]) -> tuple | None:
    """(net, VAT, gross) when three figures are net, VAT and gross in a till's column orders."""
    if len(values) != 3:
        return None
    a, b, gross = values
    if a <= 0 or b <= 0 or a + b != gross:
        return None
    return (a, b, gross) if a >= b else (b, a, gross)


def _vat_share(gross: Decimal, rate: Decimal) -> Decimal:
    return (gross * rate / (100 + rate)).quantize(Decimal("0.01"))


# --- date, shop, currency -----------------------------------------------------------------------

def _offer_date(found: Findings, lines: list[str]) -> None:
    today = date.today()
    for line in lines:
        for m in DATE_TOKEN.finditer(line):
            if m.group(4):
                y, mo, d = int(m.group(4)), int(m.group(5)), int(m.group(6))
            else:
                d, mo, y = int(m.group(1)), int(m.group(2)), int(m.group(3))
                y += 2000 if y < 100 else 0
            try:
                value = date(y, mo, d)
            except ValueError:
                continue
            if not 2000 <= value.year <= today.year + 1:
                continue
            with_time = TIME_TOKEN.search(line) is not None
            found.offer("date", value.isoformat(), DATE_WITH_TIME if with_time else DATE_ALONE,
                        "time" if with_time else None)
        # A till set to another country's style names the month: "May 15, 2026 18:54", "15. Mai 2026".
        for m in fields_parse.MONTH_NAME_DATE.finditer(line):
            value = fields_parse.iso_date(m.group(0))
            if value is None or not 2000 <= int(value[:4]) <= today.year + 1:
                continue
            with_time = TIME_TOKEN.search(line) is not None
            found.offer("date", value, DATE_WITH_TIME if with_time else DATE_ALONE, "time" if with_time else None)


def _offer_issuer(found: Findings, lines: list[str]) -> None:
    for line in lines[:HEAD_LINES]:
        columns = [column for column in re.split(r"\s{2,}", line.strip()) if column]
        # A photographed slip's edge reads as a column of a mark or two beside the name ("4  TOOLPARK  aa").
        while len(columns) > 1 and len(columns[-1]) <= 2:
            columns.pop()
        while len(columns) > 1 and len(columns[0]) <= 2:
            columns.pop(0)
        name = " ".join(columns).strip(" *-=|#.:")
        # A slip read as one block picks up the paper's edge as a stray mark or letter beside the name.
        name = re.sub(r"^(?:\S\s+)+|(?:\s+\S)+$", "", name)
        letters = re.findall(r"[A-Za-zÄÖÜäöüß]", name)
        if (len(letters) < 3 or NOT_SHOP.search(name) or re.search(r"\d", name)
                or any(p.search(name) for p in (TOTAL, CARD, CASH, CHANGE))):
            continue  # an address, a phone number, an item with its price: not the shop's name
        if len(letters) < 0.6 * len(name.replace(" ", "")) or not any(
                re.fullmatch(r"[A-Za-zÄÖÜäöüß&'\-]{3,}", word) and len(set(word.lower())) > 1 for word in name.split()):
            continue  # logo debris or the paper's edge: marks, digits, letters in ones and twos or one repeated ("EEE")
        found.offer("issuer", name, SHOP_HEADER, "head")
        return


def _currency(text: str) -> tuple[str | None, float]:
    words: dict[str, int] = {}
    signs: dict[str, int] = {}
    for m in CURRENCY_TOKEN.finditer(text):
        token = m.group(1)
        counts = words if token.isalpha() else signs
        code = CURRENCIES[token.upper() if token.isalpha() else token]
        counts[code] = counts.get(code, 0) + 1
    # A code in letters outweighs a sign: OCR turns a smudged € or E into £ or $.
    if words:
        return max(words, key=words.get), EXPLICIT_CURRENCY
    german = GERMAN_SHOP_HINTS.search(text) is not None
    if signs:
        best = max(signs, key=signs.get)
        if best != "EUR" and german:
            return "EUR", GERMAN_SHOP  # a German till's smudged € read as $ or £
        return best, EXPLICIT_CURRENCY
    if german:
        return "EUR", GERMAN_SHOP
    return None, 0.0


# --- helpers ------------------------------------------------------------------------------------

def _lines(reading) -> list[str]:
    layout = getattr(reading, "layout", None)
    if layout:
        return [line.text for line in layout.lines]
    return [line for line in reading.text.splitlines() if line.strip()]


def _amounts(line: str) -> list[Decimal]:
    # Dates and times are not amounts: 18.04.20 and 09:51 would read as 18.04 and 51.
    line = TIME_TOKEN.sub(" ", DATE_TOKEN.sub(" ", line))
    out = []
    for m in AMOUNT_TOKEN.finditer(line):
        sign, whole, cents, trailing = m.groups()
        try:
            value = Decimal(re.sub(r"[.\s]", "", whole) + "." + cents)
        except InvalidOperation:
            continue
        out.append(-value if sign or trailing else value)
    return out


def _money(value: Decimal) -> str:
    return f"{value:.2f}"


class _TextOnly:
    """A reading of plain text alone, without word boxes."""

    def __init__(self, text: str):
        self.text = text
        self.layout = None
