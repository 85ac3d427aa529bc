"""Bank statements, fresh development layouts of the third round (added 2026-12-01): a direct bank's
online export 'Umsatzübersicht' (newest booking first, balances as 'Kontostand am ...'), and a
cooperative or savings bank's 'Kontoauszug' whose every amount carries S or H.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.bank_statement import pages_of, statement

DIRECT_BANKS = (("Nordbank Direkt AG", "20041155", "NODKDEHHXXX"), ("Digitalbank Berlin AG", "10011001", "DIBEDEB2XXX"),
                ("Finora Direktbank AG", "50021120", "FINODEF1XXX"), ("Kiebitz Bank AG", "76030080", "KIEBDEM1XXX"))
LOCAL_BANKS = (("Volksbank Rhein-Lahn eG", "57092800", "GENODE51DIE"), ("Allgäuer Volksbank eG", "73369933", "GENODEF1SFO"),
               ("Musterstadt Sparkasse", "10050033", "MUSPDEB1XXX"), ("Raiffeisenbank Hügelland eG", "76069468", "GENODEF1HGL"),
               ("Kreissparkasse Talheim", "64450288", "SOLADES1TLH"))


def _euro(value) -> str:
    """'-45,20 €' / '2.345,00 €': an online banking export."""
    return f"{fake.amount(value, 'de')} €"


def _sh(value) -> str:
    """'45,20 S' / '2.345,00 H': Soll (debit) or Haben (credit) after the figure, no sign."""
    return f"{fake.amount(abs(value), 'de')} {'H' if value >= 0 else 'S'}"


@layout("bank_statement", "L12", DEVELOPMENT)
def online_turnover_export(rng: random.Random, spec: Spec) -> Draft:
    """A direct bank's online export 'Umsatzübersicht' of a Girokonto: the account facts as
    'Label: value' lines (Kontoinhaber, IBAN, Zeitraum 'Umsätze vom ... bis ...'), two balance lines
    'Kontostand am <date>' (the earlier one the opening balance, the later the closing, in either
    order), columns Buchungstag / Valuta / Empfänger / Verwendungszweck / Betrag with the newest
    booking first and amounts '-45,20 €', a printed-on stamp ('Erstellt am ... um 08:14 Uhr'),
    'Seite 1 von 2'."""
    st = statement(rng, spec)
    bank = rng.choice(DIRECT_BANKS)
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]))
    s = Sheet(rng.choice(("helvetica", "dejavu", "dejavu-condensed")), "Umsatzübersicht")
    bookings = list(reversed(st.bookings))
    pages = pages_of(bookings, 18, 30)
    closing_first = rng.random() < 0.5
    opening_line = (f"Kontostand am {fake.day(st.start - timedelta(days=1))}", _euro(st.opening))
    closing_line = (f"Kontostand am {fake.day(st.end)}", _euro(st.closing))
    created = st.end + timedelta(days=rng.randint(1, 3))
    for number, rows in enumerate(pages, start=1):
        s.text(20, 15, bank[0], 11, bold=True)
        s.text(190, 15, f"Erstellt am {fake.day(created)} um {rng.randint(7, 22):02d}:{rng.randint(0, 59):02d} Uhr", 7,
               align="right")
        y = 26
        if number == 1:
            s.text(20, 26, "Umsatzübersicht", 15, bold=True)
            s.lines(20, 34, (f"Kontoinhaber: {st.holder.plain}", f"Konto: Girokonto {rng.choice(('Plus', 'Online', 'Direkt'))}",
                             f"IBAN: {fake.iban_spaced(st.iban)}",
                             f"Umsätze vom {fake.day(st.start)} bis {fake.day(st.end)}"), 9, leading=4.6)
            for index, (label, value) in enumerate((closing_line, opening_line) if closing_first else (opening_line, closing_line)):
                s.text(115, 34 + index * 4.6, label, 9, bold=True)
                s.text(190, 34 + index * 4.6, value, 9, bold=True, align="right")
            income = sum((b.amount for b in st.bookings if b.amount > 0), Decimal("0"))
            spending = sum((b.amount for b in st.bookings if b.amount < 0), Decimal("0"))
            s.text(115, 34 + 2 * 4.6, "Eingänge", 8.5)
            s.text(190, 34 + 2 * 4.6, _euro(income), 8.5, align="right")
            s.text(115, 34 + 3 * 4.6, "Ausgänge", 8.5)
            s.text(190, 34 + 3 * 4.6, _euro(spending), 8.5, align="right")
            y = 60
        body = [(fake.day(b.day), fake.day(b.day + timedelta(days=rng.choice((0, 0, 0, 1)))), b.text[:26], b.purpose[:34],
                 _euro(b.amount)) for b in rows]
        y = s.table(20, y, (23, 19, 44, 58, 26), [("Buchungstag", "Valuta", "Empfänger", "Verwendungszweck", "Betrag"),
                                                  *body], size=7.5, aligns=("left", "left", "left", "left", "right"))
        s.text(105, 290, f"Seite {number} von {len(pages)}", 7.5, align="center")
        if number != len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L13", DEVELOPMENT)
def debit_credit_marks(rng: random.Random, spec: Spec) -> Draft:
    """A cooperative or savings bank's printed statement, wide and dense: 'Kontoauszug Nr. 10/2026'
    with the month's number, 'Kontokorrent' and the account number beside it; the period only as
    '01.10.-31.10.2026'; the holder in the window; bookings 'Bu-Tag Wert PN Vorgang/Buchungsinformation
    Betrag' with dates '02.10.' and every amount followed by S (debit) or H (credit), purposes on
    a second line; 'alter Kontostand' and 'neuer Kontostand' with S/H, an arranged overdraft
    ('eingeräumte Kontoüberziehung') and an interest note beside the new balance, a legend."""
    st = statement(rng, spec)
    bank = rng.choice(LOCAL_BANKS)
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]), number=f"{st.end.month}/{st.end.year}")
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed", "times")), "Kontoauszug")
    pages = pages_of(st.bookings, 12, 25)
    account = st.iban[-10:].lstrip("0")
    for number, rows in enumerate(pages, start=1):
        s.text(20, 14, bank[0], 12, bold=True)
        s.text(20, 19, f"BLZ {bank[1]}  ·  BIC {bank[2]}", 7.5)
        s.text(190, 14, f"Kontoauszug Nr. {st.number}", 10, bold=True, align="right")
        s.text(190, 19, f"Blatt {number}", 8, align="right")
        y = 28
        if number == 1:
            s.lines(20, 32, fake.window(st.holder), 10, leading=4.8)
            s.lines(120, 32, (f"Kontokorrent {account}", f"IBAN {fake.iban_spaced(st.iban)}",
                              f"{st.start.day:02d}.{st.start.month:02d}.-{fake.day(st.end)}"), 8.5, leading=4.4)
            y = 60
        s.table(20, y, (16, 16, 12, 100, 26), [("Bu-Tag", "Wert", "PN", "Vorgang / Buchungsinformation", "Betrag")], size=8,
                aligns=("left", "left", "left", "left", "right"))
        y += 6
        if number == 1:
            s.text(64, y, "alter Kontostand", 8.5, bold=True)
            s.text(189, y, _sh(st.opening), 8.5, bold=True, align="right")
            y += 6
        for b in rows:
            when = f"{b.day.day:02d}.{b.day.month:02d}."
            s.text(21, y, when, 8)
            s.text(37, y, when, 8)
            s.text(53, y, str(rng.randint(100, 999)), 8)
            kind = "Gutschrift" if b.amount > 0 else rng.choice(("Lastschrift", "Kartenzahlung", "Dauerauftrag", "Überweisung"))
            s.text(64, y, f"{kind} {b.text}"[:60], 8)
            s.text(64, y + 3.5, b.purpose, 7)
            s.text(189, y, _sh(b.amount), 8, align="right")
            y += 8.5
        s.rule(20, y - 3, 190, 0.3)
        if number == len(pages):
            s.text(64, y + 2, "neuer Kontostand", 8.5, bold=True)
            s.text(189, y + 2, _sh(st.closing), 8.5, bold=True, align="right")
            s.text(64, y + 7, f"eingeräumte Kontoüberziehung {fake.amount(rng.choice((1000, 2000, 3000, 5000)), 'de')} EUR", 7.5)
            s.text(64, y + 11, f"Sollzins {rng.choice(('9,75', '11,20', '12,40'))} % p.a.", 7.5)
            s.text(20, y + 20, "H = Haben (Guthaben), S = Soll (Belastung). Bitte prüfen Sie die Buchungen; "
                               "Einwendungen sind unverzüglich zu erheben.", 7)
        else:
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))
