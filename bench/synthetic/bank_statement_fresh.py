"""Bank statements, fresh development layouts (added 2026-12-01): a savings bank's 'Kontoauszug Nr. 11/2026'
with day-and-month booking dates and the holder in the window; a cooperative bank's statement with its
facts as label/value pairs side by side and Soll / Haben columns.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from datetime import timedelta

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.bank_statement import pages_of, statement


def _signed(value) -> str:
    """'+2.345,00' / '-45,20': German savings banks sign both ways."""
    return ("+" if value > 0 else "") + fake.amount(value, "de")


@layout("bank_statement", "L10", DEVELOPMENT)
def numbered_statement(rng: random.Random, spec: Spec) -> Draft:
    """'Kontoauszug Nr. 11/2026' with 'Blatt 1 von 2'; the holder only in the window ('Herrn' / 'Frau');
    the account facts in boxes with labels above values (Kontonummer, BLZ, IBAN, Auszugszeitraum);
    bookings 'Buchungstag Wert Verwendungszweck Betrag' with dates as '02.10.' (no year) and signed
    amounts under an 'EUR' head; 'alter Kontostand vom ...' and 'neuer Kontostand vom ...' rows; a
    carried-over balance ('Übertrag') at every page break."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed")), "Kontoauszug")
    pages = pages_of(st.bookings, 13, 26)
    running = st.opening
    for number, rows in enumerate(pages, start=1):
        s.text(190, 15, st.bank[0], 12, bold=True, align="right")
        s.text(190, 20, f"BIC {st.bank[2]}", 7.5, align="right")
        s.text(20, 15, f"Kontoauszug Nr. {st.number}", 11, bold=True)
        s.text(20, 20, f"Blatt {number} von {len(pages)}", 8)
        y = 30
        if number == 1:
            s.lines(20, 34, fake.window(st.holder), 10, leading=4.8)
            boxes = (("Kontonummer", st.iban[-10:].lstrip("0")), ("BLZ", st.bank[1]),
                     ("IBAN", fake.iban_spaced(st.iban)), ("Auszugszeitraum", f"{fake.day(st.start)} - {fake.day(st.end)}"))
            x = 20
            for (label, value), width in zip(boxes, (28, 22, 60, 60)):
                s.box(x, 60, width, 11, width=0.3)
                s.text(x + 1.2, 63.5, label, 6.5)
                s.text(x + 1.2, 69, value, 8.5)
                x += width
            y = 80
        head = [("Buchungstag", "Wert", "Verwendungszweck", "EUR")]
        y = s.table(20, y, (22, 18, 100, 30), head, size=8, aligns=("left", "left", "left", "right"))
        if number == 1:
            s.text(60, y, f"alter Kontostand vom {fake.day(st.start - timedelta(days=1))}", 8.5, bold=True)
        else:
            s.text(60, y, "Übertrag von Blatt " + str(number - 1), 8.5)
        s.text(189, y, _signed(running) if number > 1 else fake.amount(st.opening, "de"), 8.5, bold=number == 1, align="right")
        y += 7
        for b in rows:
            running += b.amount
            when = f"{b.day.day:02d}.{b.day.month:02d}."
            s.text(21, y, when, 8)
            s.text(43, y, when, 8)
            s.text(61, y, b.purpose, 8)
            s.text(61, y + 3.5, b.text, 7.5)
            s.text(189, y, _signed(b.amount), 8, align="right")
            y += 9
        s.rule(20, y - 3, 190, 0.3)
        if number == len(pages):
            s.text(60, y + 2, f"neuer Kontostand vom {fake.day(st.end)}", 8.5, bold=True)
            s.text(189, y + 2, fake.amount(st.closing, "de"), 8.5, bold=True, align="right")
            s.text(20, y + 14, "Bitte prüfen Sie Ihren Kontoauszug. Einwendungen sind unverzüglich zu erheben.", 7)
        else:
            s.text(60, y + 2, "Übertrag auf Blatt " + str(number + 1), 8.5)
            s.text(189, y + 2, _signed(running), 8.5, align="right")
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


@layout("bank_statement", "L11", DEVELOPMENT)
def cooperative_bank(rng: random.Random, spec: Spec) -> Draft:
    """A cooperative bank's statement: the facts as two columns of label/value pairs side by side
    (Kontoinhaber, Kontoart, IBAN | Auszug, Zeitraum vom/bis, Saldo alt / Saldo neu), bookings with
    'Buchung Valuta Auftraggeber/Empfänger Soll Haben' (amounts without sign, the column says which),
    ISO-less short dates 'dd.mm.yy', amounts '1.234,56' under 'Soll EUR' / 'Haben EUR'."""
    st = statement(rng, spec)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Kontoauszug")
    pages = pages_of(st.bookings, 20, 30)
    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, st.bank[0], 13, bold=True)
        s.text(190, 16, f"Seite {number}/{len(pages)}", 8, align="right")
        y = 28
        if number == 1:
            left = (("Kontoinhaber", st.holder.plain), ("Kontoart", rng.choice(("Girokonto", "VR-Giro Komfort", "Privatkonto"))),
                    ("IBAN", fake.iban_spaced(st.iban)))
            right = (("Auszug", st.number), ("Zeitraum", f"vom {fake.day(st.start)} bis {fake.day(st.end)}"),
                     ("Saldo alt", f"{fake.amount(abs(st.opening), 'de')} {'H' if st.opening >= 0 else 'S'}"),
                     ("Saldo neu", f"{fake.amount(abs(st.closing), 'de')} {'H' if st.closing >= 0 else 'S'}"))
            for column, pairs in ((20, left), (112, right)):
                for index, (label, value) in enumerate(pairs):
                    s.text(column, 30 + index * 5, label, 8.5)
                    s.text(column + 25, 30 + index * 5, value, 9)
            y = 56
        body = [(fake.day(b.day, "short"), fake.day(b.day, "short"), f"{b.text} / {b.purpose}"[:58],
                 fake.amount(-b.amount, "de") if b.amount < 0 else "", fake.amount(b.amount, "de") if b.amount > 0 else "")
                for b in rows]
        y = s.table(20, y, (17, 17, 92, 22, 22), [("Buchung", "Valuta", "Auftraggeber/Empfänger, Verwendungszweck",
                                                    "Soll EUR", "Haben EUR"), *body], size=8,
                    aligns=("left", "left", "left", "right", "right"))
        if number == len(pages):
            s.rule(20, y, 190, 0.3)
            s.text(20, y + 5, f"Saldo neu am {fake.day(st.end)}", 9, bold=True)
            column = 189 if st.closing >= 0 else 167
            s.text(column, y + 5, fake.amount(abs(st.closing), "de"), 9, bold=True, align="right")
        else:
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))
