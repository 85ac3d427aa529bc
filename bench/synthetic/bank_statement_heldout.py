"""Bank statements, HELD-OUT layouts: measured on, never read while writing or tuning the field readers."""
import random
from datetime import timedelta
from decimal import Decimal

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.bank_statement import pages_of, statement


@layout("bank_statement", "L4", HELD_OUT)
def direct_bank_bilingual(rng: random.Random, spec: Spec) -> Draft:
    """German/English labels, the period in words, a recipient and a purpose column, '1.234,56 €' amounts,
    balances as 'Kontostand am ...', carried over between pages."""
    st = statement(rng, spec, bookings=(20, 40))
    s = Sheet(rng.choice(("dejavu", "dejavu-condensed")), "Kontoauszug")
    pages = pages_of(st.bookings, 16, 30)
    balance = st.opening
    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, "Kontoauszug / Statement of account", 13, bold=True)
        s.text(190, 16, st.bank[0], 9, bold=True, align="right")
        s.text(190, 21, f"Seite / Page {number} von {len(pages)}", 7.5, align="right")
        y = 32
        if number == 1:
            s.text(20, 32, "Kontoinhaber / Account holder", 7.5)
            s.text(20, 37, st.holder.plain, 10)
            s.text(110, 32, "IBAN", 7.5)
            s.text(110, 37, fake.iban_spaced(st.iban), 10)
            s.text(20, 47, f"Abrechnungszeitraum: {fake.day(st.start, 'long_de')} - {fake.day(st.end, 'long_de')}", 9)
            s.text(20, 56, f"Kontostand am {fake.day(st.start - timedelta(days=1))}", 9.5, bold=True)
            s.text(190, 56, fake.amount(st.opening, "de_euro"), 9.5, bold=True, align="right")
            y = 66
        else:
            s.text(20, y, "Übertrag", 9)
            s.text(190, y, fake.amount(balance, "de_euro"), 9, align="right")
            y += 8
        body = []
        for b in rows:
            balance += b.amount
            body.append((fake.day(b.day), fake.day(b.day), b.text[:30], b.purpose[:34], fake.amount(b.amount, "de_euro")))
        y = s.table(20, y, (20, 20, 52, 52, 26), [("Buchungstag", "Wert", "Empfänger/Auftraggeber",
                                                  "Verwendungszweck", "Betrag"), *body],
                    size=7.5, aligns=("left", "left", "left", "left", "right"))
        if number == len(pages):
            s.text(20, y + 6, f"Kontostand am {fake.day(st.end)}", 9.5, bold=True)
            s.text(190, y + 6, fake.amount(st.closing, "de_euro"), 9.5, bold=True, align="right")
        else:
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L5", HELD_OUT)
def balance_summary_first(rng: random.Random, spec: Spec) -> Draft:
    """Balances first, as one row under 'Saldo alt | Soll | Haben | Saldo neu'; the holder as 'NAME, VORNAME';
    bookings dated without a year; the period with an en dash."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("times", "helvetica")), "Kontoauszug")
    pages = pages_of(st.bookings, 18, 32)
    debits = sum((b.amount for b in st.bookings if b.amount < 0), Decimal("0"))
    credits = sum((b.amount for b in st.bookings if b.amount > 0), Decimal("0"))
    for number, rows in enumerate(pages, start=1):
        y = 20
        if number == 1:
            s.text(20, 18, st.bank[0], 12, bold=True)
            s.text(20, 23, f"BIC {st.bank[2]}", 8)
            s.lines(20, 42, (f"{st.holder.family.upper()}, {st.holder.given.upper()}", st.holder.street,
                             st.holder.city), 10)
            s.text(120, 42, f"Auszug {st.number}", 10, bold=True)
            s.text(120, 48, f"Zeitraum: {fake.day(st.start)} – {fake.day(st.end)}", 9)
            s.text(120, 54, f"Konto {fake.iban_spaced(st.iban)}", 9)
            y = s.table(20, 74, (42, 42, 42, 44), [
                ("Saldo alt", "Summe Soll", "Summe Haben", "Saldo neu"),
                tuple(fake.amount(v) for v in (st.opening, -debits, credits, st.closing))],
                size=9.5, aligns=("right",) * 4, grid=True)
            y += 8
        body = [(b.day.strftime("%d.%m."), f"{b.purpose} {b.text}"[:60],
                 fake.amount(-b.amount) if b.amount < 0 else "", fake.amount(b.amount) if b.amount > 0 else "")
                for b in rows]
        s.table(20, y, (18, 102, 25, 25), [("Datum", "Buchungstext", "Soll", "Haben"), *body], size=8.5,
                aligns=("left", "left", "right", "right"))
        s.text(105, 288, f"{number}/{len(pages)}", 8, align="center")
        if number < len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L6", HELD_OUT)
def neobank_english(rng: random.Random, spec: Spec) -> Draft:
    """English, the holder's name as the heading, 'October 1, 2026' dates, '€1,234.56' amounts with signs,
    the balances as 'Balance on ...' lines under the bookings."""
    st = statement(rng, spec, bookings=(20, 38))
    s = Sheet("dejavu", "Statement")
    pages = pages_of(st.bookings, 15, 28)
    for number, rows in enumerate(pages, start=1):
        y = 18
        if number == 1:
            s.text(20, 20, st.holder.plain, 16, bold=True)
            s.text(20, 27, f"{st.holder.street}, {st.holder.city}", 9)
            s.text(190, 20, "EUR Statement", 11, align="right")
            s.text(190, 26, f"Generated on {_us_day(st.end + timedelta(days=1))}", 8, align="right")
            s.text(20, 40, "IBAN", 7.5, bold=True)
            s.text(20, 45, fake.iban_spaced(st.iban), 10)
            s.text(90, 40, "BIC", 7.5, bold=True)
            s.text(90, 45, st.bank[2], 10)
            s.text(130, 40, "Period", 7.5, bold=True)
            s.text(130, 45, f"{_us_day(st.start)} - {_us_day(st.end)}", 9)
            y = 58
        body = [(_us_day(b.day), b.text[:34], b.purpose[:30], _euro(b.amount)) for b in rows]
        y = s.table(20, y, (36, 60, 50, 24), [("Date", "Description", "Reference", "Amount"), *body], size=8.5,
                    aligns=("left", "left", "left", "right"))
        if number == len(pages):
            s.text(20, y + 6, f"Balance on {_us_day(st.start)}", 9.5)
            s.text(190, y + 6, _euro(st.opening, sign=False), 9.5, align="right")
            s.text(20, y + 12, f"Balance on {_us_day(st.end)}", 9.5, bold=True)
            s.text(190, y + 12, _euro(st.closing, sign=False), 9.5, bold=True, align="right")
        s.text(190, 288, f"Page {number}/{len(pages)}", 7.5, align="right")
        if number < len(pages):
            s.new_page()
    s.text(20, 280, f"{st.bank[0]} · Berlin · {st.bank[2]}", 7)
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


def _us_day(value) -> str:
    return f"{fake.MONTHS_EN[value.month - 1]} {value.day}, {value.year}"


def _euro(value: Decimal, sign: bool = True) -> str:
    text = f"€{fake.amount(abs(value), 'en')}"
    if value < 0:
        return f"-{text}"
    return f"+{text}" if sign else text
