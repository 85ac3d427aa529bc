"""Bank statements, fresh development layouts of the fourth round (added 2026-12-02): a neobank's monthly
statement PDF with the bookings grouped under day headings, a savings bank's 'Kontoauszug' with the
balance in a box at the top right and 'Buchung / Valuta' dates on two lines, and a foreign bank's
German branch with a running balance per line.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal
from itertools import groupby

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.bank_statement import pages_of, statement

NEOBANKS = (("Kolibri Bank AG", "10012345", "KOLIDEB2XXX"), ("Pinguin Digital Bank SE", "10013377", "PINGDEB1XXX"),
            ("Lumo Bank Europe AG", "10017788", "LUMODEB3XXX"))
SAVINGS_BANKS = (("Sparkasse Oberes Wiesental", "68351865", "SOLADES1WIE"), ("Stadtsparkasse Lindenau", "36050105", "SPLIDE3EXXX"),
                 ("Kreissparkasse Bergstraße-Ried", "50951469", "HELADEF1BER"), ("Sparkasse Nordheide", "20750000", "NOLADE21NOH"))
BRANCHES = (("Banco Atlántico S.A. Zweigniederlassung Frankfurt", "50310400", "BATLDEFFXXX"),
            ("Nordic Merchant Bank AB, Frankfurt Branch", "50320600", "NMBKDEFFXXX"),
            ("Banque du Léman SA Niederlassung Deutschland", "51230800", "BDLMDEF1XXX"))
KINDS = ("Lastschrift", "Kartenzahlung girocard", "Dauerauftrag", "Überweisung online")
WEEKDAYS_DE = ("Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag")
WEEKDAYS_EN = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
MONTHS_EN_SHORT = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")


def _neo_amount(value, english: bool) -> str:
    """'+2,345.00 €' / '-45.20 €' (English app) or '+2.345,00 €' / '-45,20 €' (German app): always signed."""
    text = fake.amount(abs(value), "en" if english else "de")
    return f"{'+' if value > 0 else '-'}{text} €"


def _neo_day(value, english: bool) -> str:
    if english:
        return f"{WEEKDAYS_EN[value.weekday()]}, {value.day} {fake.MONTHS_EN[value.month - 1]} {value.year}"
    return f"{WEEKDAYS_DE[value.weekday()]}, {fake.day(value, 'long_de')}"


@layout("bank_statement", "L14", DEVELOPMENT)
def neobank_monthly(rng: random.Random, spec: Spec) -> Draft:
    """A neobank's monthly statement PDF (app-made, English or German): the bank's name as a logo, the
    holder's name and address at the top left with no window, 'Kontoauszug' / 'Account statement' and
    the period in words ('1. Oktober 2026 bis 31. Oktober 2026' / '1 October 2026 - 31 October 2026');
    an overview of four figures (Beginning balance / Money in / Money out / Ending balance, or
    Anfangssaldo / Zahlungseingänge / Zahlungsausgänge / Endsaldo); the bookings grouped by day with the
    weekday and date as a bold heading and every amount signed '+2.345,00 €' / '-45,20 €'; the IBAN,
    BIC and the bank's register data only in the foot of every page."""
    st = statement(rng, spec)
    bank = rng.choice(NEOBANKS)
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]))
    english = rng.random() < 0.5
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Account statement" if english else "Kontoauszug")
    days = [(when, list(items)) for when, items in groupby(st.bookings, key=lambda b: b.day)]
    pages = [days] if spec.single_page else pages_of(days, 7, 12)
    money_in = sum((b.amount for b in st.bookings if b.amount > 0), Decimal("0"))
    money_out = sum((b.amount for b in st.bookings if b.amount < 0), Decimal("0"))
    if english:
        labels = ("Beginning balance", "Money in", "Money out", "Ending balance")
        period = f"{fake.day(st.start, 'long_en')} - {fake.day(st.end, 'long_en')}"
    else:
        labels = ("Anfangssaldo", "Zahlungseingänge", "Zahlungsausgänge", "Endsaldo")
        period = f"{fake.day(st.start, 'long_de')} bis {fake.day(st.end, 'long_de')}"
    foot = (f"IBAN {fake.iban_spaced(st.iban)}  ·  BIC {bank[2]}  ·  {bank[0]}, "
            f"{rng.choice(('Amtsgericht Charlottenburg HRB 170602', 'Amtsgericht Berlin HRB 231118'))}")
    for number, groups in enumerate(pages, start=1):
        s.text(20, 16, bank[0].split(" ")[0].upper(), 16, bold=True)
        s.text(190, 16, f"{'Page' if english else 'Seite'} {number} / {len(pages)}", 8, align="right")
        y = 28
        if number == 1:
            s.lines(20, 30, (st.holder.plain, st.holder.street, st.holder.city), 9, leading=4.4)
            s.text(190, 30, "Account statement" if english else "Kontoauszug", 14, bold=True, align="right")
            s.text(190, 36, period, 9, align="right")
            s.text(190, 41, "Main account" if english else "Hauptkonto", 8, align="right")
            figures = (st.opening, money_in, money_out, st.closing)
            for index, (label, value) in enumerate(zip(labels, figures)):
                x = 20 + index * 43
                s.box(x, 50, 41, 15, 0.3, shade=0.94)
                s.text(x + 2, 55, label, 7.5)
                s.text(x + 2, 62, f"{fake.amount(value, 'en' if english else 'de')} €", 11, bold=True)
            y = 76
        for when, items in groups:
            s.text(20, y, _neo_day(when, english), 8.5, bold=True)
            s.rule(20, y + 1.5, 190, 0.2)
            y += 5.5
            for b in items:
                s.text(22, y, b.text[:44], 8.5)
                s.text(22, y + 3.6, b.purpose[:60], 7)
                s.text(190, y, _neo_amount(b.amount, english), 8.5, align="right")
                y += 8.5
            y += 1.5
        s.rule(20, 282, 190, 0.2)
        s.text(20, 286, foot, 6.5)
        if number != len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L15", DEVELOPMENT)
def savings_bank_balance_box(rng: random.Random, spec: Spec) -> Draft:
    """A savings bank's 'Kontoauszug 10/2026' printed at the branch's statement printer: the holder in the
    window ('Frau' / 'Herrn'), a box at the top right with 'Kontostand am 31.10.2026' and the new balance
    in large figures; 'Girokonto' with the account number and the IBAN under the title; the opening
    balance as 'Kontostand am 30.09.2026, Auszug Nr. 9' in the first row; bookings with the booking date
    and the value date on two lines under a 'Buchung / Valuta' head, amounts with a sign in a
    'Betrag (EUR)' column; the closing line 'Kontostand am 31.10.2026 um 20:04 Uhr'. The period is
    printed ('Zeitraum ...') on half of them, on the rest only the two balance dates say it."""
    st = statement(rng, spec)
    bank = rng.choice(SAVINGS_BANKS)
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]))
    number_of = st.end.month if st.end.day > 20 else st.start.month
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed")), "Kontoauszug")
    pages = pages_of(st.bookings, 12, 24)
    account = st.iban[-10:].lstrip("0")
    with_period = rng.random() < 0.5
    for number, rows in enumerate(pages, start=1):
        s.text(20, 14, bank[0], 12, bold=True)
        s.text(20, 19, f"{rng.choice(('Filiale Marktplatz', 'Hauptstelle', 'Geschäftsstelle Nord'))}  ·  BIC {bank[2]}", 7.5)
        y = 30
        if number == 1:
            postcode, city = rng.choice(fake.CITIES)
            s.text(20, 29, f"{bank[0]} · Postfach {rng.randint(1000, 9999)} · {postcode} {city}", 6)
            s.lines(20, 36, fake.window(st.holder), 10, leading=4.8)
            s.box(125, 26, 65, 20, 0.6)
            s.text(128, 32, f"Kontostand am {fake.day(st.end)}", 8.5)
            s.text(187, 41, f"{fake.amount(st.closing)} EUR", 14, bold=True, align="right")
            s.text(20, 66, f"Kontoauszug {number_of}/{st.end.year}", 13, bold=True)
            s.text(20, 71.5, f"Girokonto {account}  ·  IBAN {fake.iban_spaced(st.iban)}", 8.5)
            if with_period:
                s.text(20, 76, f"Zeitraum {fake.day(st.start)} - {fake.day(st.end)}", 8.5)
            y = 84
        s.text(21, y, "Buchung", 8, bold=True)
        s.text(21, y + 3.5, "Valuta", 8, bold=True)
        s.text(45, y, "Vorgang", 8, bold=True)
        s.text(189, y, "Betrag (EUR)", 8, bold=True, align="right")
        s.rule(20, y + 5, 190, 0.4)
        y += 10
        if number == 1:
            s.text(45, y, f"Kontostand am {fake.day(st.start - timedelta(days=1))}, Auszug Nr. {number_of - 1 or 12}", 8.5,
                   bold=True)
            s.text(189, y, fake.amount(st.opening), 8.5, bold=True, align="right")
            y += 7
        for b in rows:
            value_day = b.day + timedelta(days=rng.choice((0, 0, 0, 1, 2)))
            s.text(21, y, fake.day(b.day), 8)
            s.text(21, y + 3.6, fake.day(value_day), 7.5)
            kind = "Gutschrift" if b.amount > 0 else rng.choice(KINDS)
            s.text(45, y, kind, 8)
            s.text(45, y + 3.6, f"{b.text}, {b.purpose}"[:78], 7.5)
            s.text(189, y, fake.amount(b.amount), 8, align="right")
            y += 9
        s.rule(20, y - 3, 190, 0.3)
        if number == len(pages):
            s.text(45, y + 2, f"Kontostand am {fake.day(st.end)} um {rng.randint(18, 23):02d}:{rng.randint(0, 59):02d} Uhr",
                   8.5, bold=True)
            s.text(189, y + 2, fake.amount(st.closing), 8.5, bold=True, align="right")
            s.text(20, y + 12, f"Dispositionskredit {fake.amount(rng.choice((1000, 1500, 2500, 4000)))} EUR  ·  "
                               f"Sollzinssatz {rng.choice(('10,25', '11,49', '12,90'))} % p.a.", 7)
            s.text(20, y + 16, "Bitte beachten Sie die Hinweise zur Einlagensicherung auf der Rückseite.", 7)
        s.text(105, 290, f"Blatt {number} von {len(pages)}", 7.5, align="center")
        if number != len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


def _branch_day(value) -> str:
    """'01-OCT-2026': the core banking system's date."""
    return f"{value.day:02d}-{MONTHS_EN_SHORT[value.month - 1]}-{value.year}"


def _branch_amount(value) -> str:
    """'EUR -1.234,56': the branch prints German figures behind its system's currency code."""
    return fake.amount(value, "eur_de")


@layout("bank_statement", "L16", DEVELOPMENT)
def foreign_branch(rng: random.Random, spec: Spec) -> Draft:
    """A foreign bank's German branch ('... S.A. Zweigniederlassung Frankfurt'): 'STATEMENT OF ACCOUNT /
    KONTOAUSZUG', the account facts as a two-column grid of 'Account Name' (in capitals) / 'IBAN' /
    'Currency' / 'Statement Period 01-OCT-2026 TO 31-OCT-2026' / 'Statement Date', columns 'Date | Value
    Date | Description | Debit | Credit | Balance' with a running balance on every line, debits and
    credits without sign, balances 'EUR -1.234,56'; the first row 'BALANCE BROUGHT FORWARD', the last
    'BALANCE CARRIED FORWARD', a 'Summary' of the totals under the table."""
    st = statement(rng, spec)
    bank = rng.choice(BRANCHES)
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]))
    s = Sheet(rng.choice(("helvetica", "courier", "dejavu-condensed")), "Statement of Account")
    pages = pages_of(st.bookings, 22, 34)
    running = st.opening
    statement_day = st.end + timedelta(days=rng.randint(1, 2))
    for number, rows in enumerate(pages, start=1):
        s.text(20, 15, bank[0], 10.5, bold=True)
        s.text(20, 20, f"{rng.choice(('Taunusanlage', 'Neue Mainzer Straße', 'Bockenheimer Landstraße'))} "
                       f"{rng.randint(2, 60)} · 60311 Frankfurt am Main", 7.5)
        s.text(190, 27, "STATEMENT OF ACCOUNT / KONTOAUSZUG", 10, bold=True, align="right")
        s.text(190, 31, f"Page {number} of {len(pages)}", 7.5, align="right")
        y = 38
        if number == 1:
            grid = (("Account Name", st.holder.plain.upper()), ("Address", f"{st.holder.street}, {st.holder.city}"),
                    ("IBAN", fake.iban_spaced(st.iban)), ("Account Type", "Current Account"),
                    ("Currency", "EUR"), ("Statement Period", f"{_branch_day(st.start)} TO {_branch_day(st.end)}"),
                    ("Statement Date", _branch_day(statement_day)), ("Customer No.", str(rng.randint(10 ** 7, 10 ** 8 - 1))))
            for index, (label, value) in enumerate(grid):
                x = 20 if index % 2 == 0 else 110
                row_y = 38 + (index // 2) * 5.5
                s.text(x, row_y, label, 8)
                s.text(x + 28, row_y, f": {value}", 8)
            y = 64
        widths = (22, 22, 64, 20, 20, 32)
        head = ("Date", "Value Date", "Description", "Debit", "Credit", "Balance")
        body = []
        if number == 1:
            body.append(("", "", "BALANCE BROUGHT FORWARD", "", "", _branch_amount(st.opening)))
        for b in rows:
            running += b.amount
            value_day = b.day + timedelta(days=rng.choice((0, 0, 1)))
            body.append((_branch_day(b.day), _branch_day(value_day), f"{b.text[:16]} / {b.purpose}".upper()[:38],
                         fake.amount(-b.amount) if b.amount < 0 else "", fake.amount(b.amount) if b.amount > 0 else "",
                         _branch_amount(running)))
        if number == len(pages):
            body.append(("", "", "BALANCE CARRIED FORWARD", "", "", _branch_amount(st.closing)))
        y = s.table(10, y, widths, [head, *body], size=7.5, aligns=("left", "left", "left", "right", "right", "right"))
        if number == len(pages):
            debits = -sum((b.amount for b in st.bookings if b.amount < 0), Decimal("0"))
            credits = sum((b.amount for b in st.bookings if b.amount > 0), Decimal("0"))
            y += 6
            s.text(20, y, "Summary", 8.5, bold=True)
            for index, (label, value) in enumerate((("Total Debits", debits), ("Total Credits", credits),
                                                    ("No. of Transactions", len(st.bookings)))):
                s.text(20, y + 5 + index * 4.5, label, 8)
                s.text(80, y + 5 + index * 4.5, str(value) if isinstance(value, int) else _branch_amount(value), 8,
                       align="right")
            s.text(20, y + 24, "Please examine this statement and report any discrepancy within 30 days. "
                               "This statement is computer generated and requires no signature.", 6.5)
        if number != len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))
