"""Bank statements, development layouts: a Sparkasse-style list, an English online-bank export, a ledger with columns."""
import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet


@dataclass(frozen=True)
class Booking:
    day: date
    text: str        # counterparty
    purpose: str     # what the payment was for
    amount: Decimal  # positive: credit
    salary: bool = False


@dataclass(frozen=True)
class Statement:
    bank: tuple[str, str, str]
    holder: object
    iban: str
    start: date
    end: date
    opening: Decimal
    bookings: tuple[Booking, ...]
    employer: str
    number: str

    @property
    def closing(self) -> Decimal:
        return self.opening + sum((b.amount for b in self.bookings), Decimal("0"))

    def truth(self, holder_printed: bool = True) -> dict:
        fields = {"bank": self.bank[0], "iban": self.iban, "period_start": self.start.isoformat(),
                  "period_end": self.end.isoformat(), "opening_balance": f"{self.opening:.2f}",
                  "closing_balance": f"{self.closing:.2f}",
                  "salary_credits": [f"{b.amount:.2f}" for b in self.bookings if b.salary]}
        if holder_printed:
            fields["holder"] = self.holder.plain
        return fields


def statement(rng: random.Random, spec: Spec, bookings: tuple[int, int] = (16, 34)) -> Statement:
    """A statement current on AS_OF: a calendar month (September or October) or a month ending in November."""
    bank = rng.choice(fake.BANKS)
    holder = fake.person(rng)
    kind = rng.choice(("sep", "oct", "oct", "nov"))
    if kind == "nov":
        end = date(2026, 11, rng.randint(6, 13))
        start = date(2026, 10, end.day + 1)
    else:
        start = date(2026, 9 if kind == "sep" else 10, 1)
        end = fake.month_last(start)
    count = rng.randint(7, 11) if spec.single_page else rng.randint(*bookings)
    pay = fake.payroll(rng)
    employer = rng.choice(fake.EMPLOYERS)
    days = sorted(start + timedelta(days=rng.randrange((end - start).days + 1)) for _ in range(count))
    salary_index = rng.randrange(count // 3, count)
    items = []
    for index, when in enumerate(days):
        if index == salary_index:
            month = fake.month(when if when.day > 20 else date(when.year, when.month, 1) - timedelta(days=1), "slash")
            items.append(Booking(when, employer, rng.choice((f"LOHN/GEHALT {month}", f"Gehalt {month}",
                                                             f"Salary {month}", f"Bezüge {month}")),
                                 pay.payout, salary=True))
        elif index == 0:
            items.append(Booking(when, f"Hausverwaltung {rng.choice(('Krone', 'Lindner', 'Adler'))} GmbH",
                                 f"Miete {fake.month(when, 'de')}", -fake.money(rng.randrange(85000, 210000) / 100)))
        elif rng.random() < 0.12:
            items.append(Booking(when, fake.person(rng).plain, rng.choice(("Rückzahlung", "Essen", "Geschenk")),
                                 fake.money(rng.randrange(1000, 15000) / 100)))
        else:
            shop = rng.choice(fake.SHOPS)
            items.append(Booking(when, shop, rng.choice(("Kartenzahlung", "Lastschrift", "SEPA-Lastschrift",
                                                         "Dauerauftrag")) + f" {rng.randint(100000, 999999)}",
                                 -fake.money(rng.randrange(300, 25000) / 100)))
    return Statement(bank, holder, fake.iban(rng, bank[1]), start, end,
                     fake.money(rng.randrange(-50000, 900000) / 100), tuple(items), employer,
                     f"{rng.randint(1, 12)}/{end.year}")


def pages_of(items, first: int, others: int) -> list[list]:
    """Split bookings into pages: `first` rows fit on page 1, `others` on each following page."""
    pages = [list(items[:first])]
    rest = list(items[first:])
    while rest:
        pages.append(rest[:others])
        rest = rest[others:]
    return pages


@layout("bank_statement", "L1", DEVELOPMENT)
def savings_bank(rng: random.Random, spec: Spec) -> Draft:
    """German, address window, 'Kontoauszug Nr.', bookings with value dates, balances 'alter/neuer Kontostand'."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Kontoauszug")
    pages = pages_of(st.bookings, 14, 24)
    for number, rows in enumerate(pages, start=1):
        s.text(20, 15, st.bank[0], 13, bold=True)
        s.text(190, 15, f"Blatt {number}/{len(pages)}", 8, align="right")
        y = 30
        if number == 1:
            s.lines(20, 45, (st.holder.plain, st.holder.street, st.holder.city), 10)
            s.text(120, 45, f"Kontoauszug Nr. {st.number}", 10, bold=True)
            s.text(120, 50, f"IBAN {fake.iban_spaced(st.iban)}", 9)
            s.text(120, 55, f"BIC {st.bank[2]}", 9)
            s.text(120, 60, f"Zeitraum {fake.day(st.start)} bis {fake.day(st.end)}", 9)
            s.text(20, 78, f"Alter Kontostand vom {fake.day(st.start - timedelta(days=1))}", 9.5, bold=True)
            s.text(190, 78, f"{fake.amount(st.opening, 'de')} EUR", 9.5, bold=True, align="right")
            y = 88
        s.table(20, y, (22, 22, 96, 30), [("Buchung", "Valuta", "Vorgang", "Betrag EUR")], aligns=("left", "left", "left", "right"))
        y += 6
        for b in rows:
            s.text(21, y, fake.day(b.day, "short"), 8.5)
            s.text(43, y, fake.day(b.day, "short"), 8.5)
            s.text(65, y, b.text, 8.5)
            s.text(65, y + 3.8, b.purpose, 7.5)
            s.text(189, y, fake.amount(b.amount, "de_minus") if b.amount < 0 else fake.amount(b.amount, "de"), 8.5,
                   align="right")
            y += 9
        if number == len(pages):
            s.rule(20, y, 190)
            s.text(20, y + 6, f"Neuer Kontostand vom {fake.day(st.end)}", 9.5, bold=True)
            s.text(190, y + 6, f"{fake.amount(st.closing, 'de')} EUR", 9.5, bold=True, align="right")
        else:
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L2", DEVELOPMENT)
def online_bank_english(rng: random.Random, spec: Spec) -> Draft:
    """English, the account facts in a two-column header, ISO dates, credit and debit in separate columns."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("dejavu", "times")), "Account statement")
    pages = pages_of(st.bookings, 20, 30)
    for number, rows in enumerate(pages, start=1):
        s.text(20, 18, "Account statement", 15, bold=True)
        s.text(190, 18, st.bank[0], 10, align="right")
        y = 30
        if number == 1:
            s.text(20, 32, "Account holder", 8)
            s.text(20, 37, st.holder.plain, 10)
            s.text(110, 32, "IBAN", 8)
            s.text(110, 37, st.iban, 10)
            s.text(20, 45, "Statement period", 8)
            s.text(20, 50, f"{fake.day(st.start, 'iso')} to {fake.day(st.end, 'iso')}", 10)
            s.text(110, 45, "Opening balance", 8)
            s.text(110, 50, f"EUR {fake.amount(st.opening, 'en')}", 10)
            y = 62
        head = ("Date", "Description", "Debit", "Credit")
        body = [(fake.day(b.day, "iso"), f"{b.text} - {b.purpose}"[:62],
                 fake.amount(-b.amount, "en") if b.amount < 0 else "",
                 fake.amount(b.amount, "en") if b.amount > 0 else "") for b in rows]
        y = s.table(20, y, (24, 106, 20, 20), [head, *body], size=8.5, aligns=("left", "left", "right", "right"))
        s.text(105, 290, f"Page {number} of {len(pages)}", 8, align="center")
        if number == len(pages):
            s.rule(20, y, 190)
            s.text(20, y + 6, "Closing balance", 10, bold=True)
            s.text(190, y + 6, f"EUR {fake.amount(st.closing, 'en')}", 10, bold=True, align="right")
        else:
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L3", DEVELOPMENT)
def ledger_columns(rng: random.Random, spec: Spec) -> Draft:
    """Upper-case headings, a running balance column, the holder under 'KONTOINHABER', Courier."""
    st = statement(rng, spec)
    s = Sheet("courier", "Kontoauszug")
    pages = pages_of(st.bookings, 22, 34)
    balance = st.opening
    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, f"{st.bank[0].upper()}  -  KONTOAUSZUG", 11, bold=True)
        s.text(190, 16, f"SEITE {number}", 8, align="right")
        y = 26
        if number == 1:
            s.text(20, 26, "KONTOINHABER", 7.5)
            s.text(20, 30, st.holder.plain, 9)
            s.text(20, 34, f"{st.holder.street}, {st.holder.city}", 8)
            s.text(110, 26, "IBAN / BIC", 7.5)
            s.text(110, 30, f"{fake.iban_spaced(st.iban)}", 9)
            s.text(110, 34, st.bank[2], 8)
            s.text(20, 44, f"AUSZUGSZEITRAUM {fake.day(st.start)} - {fake.day(st.end)}", 9)
            s.text(20, 52, "ANFANGSSALDO", 9, bold=True)
            s.text(189, 52, fake.amount(st.opening, "de_minus"), 9, bold=True, align="right")
            y = 60
        body = []
        for b in rows:
            balance += b.amount
            body.append((fake.day(b.day), f"{b.text} {b.purpose}"[:44], fake.amount(b.amount, "de_minus"),
                         fake.amount(balance, "de_minus")))
        y = s.table(20, y, (25, 95, 25, 25), [("DATUM", "VERWENDUNGSZWECK", "BETRAG", "SALDO"), *body], size=8,
                    aligns=("left", "left", "right", "right"))
        if number == len(pages):
            s.text(20, y + 5, "ENDSALDO", 9, bold=True)
            s.text(189, y + 5, fake.amount(st.closing, "de_minus"), 9, bold=True, align="right")
        else:
            s.text(20, y + 5, "ÜBERTRAG", 8)
            s.text(189, y + 5, fake.amount(balance, "de_minus"), 8, align="right")
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


# Added for issue 9's classifier work: statements that name themselves with none of the usual
# titles, so the classifier has to know a statement by its vocabulary and its bookings.

def _short_en(value: date) -> str:
    return f"{value.day:02d} {fake.MONTHS_EN[value.month - 1][:3]} {value.year}"


@layout("bank_statement", "L7", DEVELOPMENT)
def money_in_money_out(rng: random.Random, spec: Spec) -> Draft:
    """English high-street style: 'Your current account', a summary box (money in / money out), a
    table Date | Description | Paid out | Paid in | Balance with '03 Oct 2026' dates, balance brought
    and carried forward; the holder as 'Account name'."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Current account")
    pages = pages_of(st.bookings, 16, 28)
    money_in = sum((b.amount for b in st.bookings if b.amount > 0), Decimal("0"))
    money_out = -sum((b.amount for b in st.bookings if b.amount < 0), Decimal("0"))
    balance = st.opening
    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, st.bank[0], 12, bold=True)
        s.text(190, 16, f"Sheet {number} of {len(pages)}", 8, align="right")
        y = 28
        if number == 1:
            s.text(20, 28, "Your Current Account", 14, bold=True)
            s.lines(20, 38, (f"Account name  {st.holder.plain}", f"IBAN  {fake.iban_spaced(st.iban)}",
                             f"BIC  {st.bank[2]}"), 9)
            s.text(120, 38, f"{_short_en(st.start)} - {_short_en(st.end)}", 9, bold=True)
            s.lines(120, 46, (f"Start balance  EUR {fake.amount(st.opening, 'en')}",
                              f"Money in  EUR {fake.amount(money_in, 'en')}",
                              f"Money out  EUR {fake.amount(money_out, 'en')}",
                              f"End balance  EUR {fake.amount(st.closing, 'en')}"), 8.5)
            y = 72
        body = [("", "BALANCE BROUGHT FORWARD", "", "", fake.amount(balance, "en"))]
        for b in rows:
            balance += b.amount
            body.append((f"{b.day.day:02d} {fake.MONTHS_EN[b.day.month - 1][:3]}", f"{b.text} {b.purpose}"[:48],
                         fake.amount(-b.amount, "en") if b.amount < 0 else "",
                         fake.amount(b.amount, "en") if b.amount > 0 else "", fake.amount(balance, "en")))
        y = s.table(20, y, (18, 92, 20, 20, 20), [("Date", "Description", "Paid out", "Paid in", "Balance"), *body],
                    size=8, aligns=("left", "left", "right", "right", "right"))
        if number == len(pages):
            s.text(20, y + 6, "BALANCE CARRIED FORWARD", 9, bold=True)
            s.text(190, y + 6, fake.amount(st.closing, "en"), 9, bold=True, align="right")
        else:
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L8", DEVELOPMENT)
def transaction_export(rng: random.Random, spec: Spec) -> Draft:
    """A direct bank's transaction export in English: 'Transactions', facts as 'Label: value'
    lines, one signed amount column ('-45.20', '+2,345.00'), ISO dates, starting and ending balance."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("dejavu", "times")), "Transactions")
    pages = pages_of(st.bookings, 22, 32)
    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, "Transactions", 15, bold=True)
        s.text(190, 16, st.bank[0], 9, align="right")
        y = 26
        if number == 1:
            s.lines(20, 28, (f"Account owner: {st.holder.plain}", f"Account: {st.iban}",
                             f"From {fake.day(st.start, 'iso')} to {fake.day(st.end, 'iso')}",
                             f"Starting balance: {fake.amount(st.opening, 'en')} EUR"), 9)
            y = 52
        body = [(fake.day(b.day, "iso"), b.text[:34], b.purpose[:30],
                 ("+" if b.amount > 0 else "") + fake.amount(b.amount, "en")) for b in rows]
        y = s.table(20, y, (24, 62, 54, 30), [("Posted", "Counterparty", "Reference", "Amount (EUR)"), *body],
                    size=8, aligns=("left", "left", "left", "right"))
        s.text(105, 290, f"{number}/{len(pages)}", 8, align="center")
        if number == len(pages):
            s.text(20, y + 6, f"Ending balance: {fake.amount(st.closing, 'en')} EUR", 9.5, bold=True)
        else:
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L9", DEVELOPMENT)
def monthly_statement_cr_dr(rng: random.Random, spec: Spec) -> Draft:
    """English 'Monthly statement' of an online bank: 'Oct 03, 2026' dates, amounts in euros with
    CR / DR instead of signs, the account under 'Account number' with the IBAN beside it, an
    overdraft and interest block, upper-case column heads."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("helvetica", "times")), "Monthly statement")
    pages = pages_of(st.bookings, 18, 30)

    def when(value: date) -> str:
        return f"{fake.MONTHS_EN[value.month - 1][:3]} {value.day:02d}, {value.year}"

    def signed(value: Decimal) -> str:
        return f"€{fake.amount(abs(value), 'en')} {'CR' if value >= 0 else 'DR'}"

    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, st.bank[0].upper(), 11, bold=True)
        s.text(190, 16, f"Page {number}/{len(pages)}", 8, align="right")
        y = 26
        if number == 1:
            s.text(20, 28, "Monthly statement", 14, bold=True)
            s.text(20, 36, f"Prepared for {st.holder.plain}", 9.5)
            s.text(20, 41, f"{st.holder.street}, {st.holder.city}", 9)
            s.lines(120, 36, (f"Account number  {st.iban[-10:]}", f"IBAN  {fake.iban_spaced(st.iban)}",
                              f"Period  {when(st.start)} - {when(st.end)}"), 8.5)
            s.lines(20, 52, (f"Previous balance  {signed(st.opening)}",
                             f"New balance  {signed(st.closing)}",
                             f"Arranged overdraft  €{fake.amount(rng.choice((1000, 2500, 5000)), 'en')}",
                             f"Debit interest rate  {rng.choice(('9.75', '10.90', '11.25'))}% p.a."), 8.5)
            y = 76
        body = [(when(b.day), f"{b.text}, {b.purpose}"[:60], signed(b.amount)) for b in rows]
        y = s.table(20, y, (30, 110, 30), [("DATE", "TRANSACTION DETAILS", "AMOUNT"), *body], size=8,
                    aligns=("left", "left", "right"))
        if number != len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))
