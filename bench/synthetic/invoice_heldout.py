"""Invoices, HELD-OUT layouts: measured on, never read while writing or tuning the field readers."""
import random

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.invoice import invoice


@layout("invoice", "L4", HELD_OUT)
def bilingual_grid(rng: random.Random, spec: Spec) -> Draft:
    """'Rechnung / Invoice', the facts as a grid with labels above values, the date in words,
    'Summe netto', 'MwSt. 19 %', 'Rechnungsbetrag' with '1.234,56 €'."""
    inv = invoice(rng)
    s = Sheet(rng.choice(("dejavu", "dejavu-condensed")), "Rechnung")
    s.text(20, 18, inv.issuer.name, 12, bold=True)
    s.text(20, 23, f"{inv.issuer.street}, {inv.issuer.city}", 8)
    s.lines(20, 40, (inv.client.plain, inv.client.street, inv.client.city), 10)
    s.text(20, 70, "Rechnung / Invoice", 14, bold=True)
    for index, (label, value) in enumerate((("Rechnungs-Nr. / Invoice no.", inv.number),
                                            ("Datum / Date", fake.day(inv.day, "long_de")),
                                            ("Leistungszeitraum / Service period", fake.month(inv.day, "de")))):
        x = 20 + index * 58
        s.text(x, 80, label, 7, bold=True)
        s.text(x, 85, value, 9.5)
    body = [(item, str(q), f"{fake.amount(p)} €", f"{fake.amount(q * p)} €") for item, q, p in inv.lines]
    y = s.table(20, 98, (90, 15, 32, 33), [("Leistung", "Anz.", "Preis", "Summe"), *body],
                aligns=("left", "right", "right", "right"), grid=True)
    y += 4
    for label, value, bold in (("Summe netto", inv.net, False), ("MwSt. 19 %", inv.tax, False),
                               ("Rechnungsbetrag", inv.total, True)):
        s.text(125, y, label, 9.5, bold)
        s.text(189, y, f"{fake.amount(value)} €", 9.5, bold, align="right")
        y += 6
    return Draft(s.pdf(), inv.truth(), inv.client.name)


@layout("invoice", "L5", HELD_OUT)
def classic_letter(rng: random.Random, spec: Spec) -> Draft:
    """A letter: 'Rechnung Nr. ... vom 12.10.2026' on one line, 'Zwischensumme', '19 % Mehrwertsteuer',
    'Zu zahlender Betrag' in EUR, the issuer in a centred letterhead."""
    inv = invoice(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Rechnung")
    s.text(105, 16, inv.issuer.name, 14, bold=True, align="center")
    s.text(105, 22, f"{inv.issuer.street} · {inv.issuer.city} · Tel. 0{rng.randint(30, 99)} {rng.randint(100000, 999999)}",
           8, align="center")
    s.rule(20, 26, 190)
    s.lines(20, 42, (inv.client.name, inv.client.street, inv.client.city), 10.5)
    s.text(20, 74, f"Rechnung Nr. {inv.number} vom {fake.day(inv.day)}", 11.5, bold=True)
    s.text(20, 82, "Für die ausgeführten Arbeiten erlauben wir uns zu berechnen:", 10)
    body = [(str(q), item, fake.amount(p), fake.amount(q * p)) for item, q, p in inv.lines]
    y = s.table(20, 92, (15, 95, 30, 30), [("Menge", "Beschreibung", "EUR/Einheit", "EUR"), *body],
                aligns=("right", "left", "right", "right"))
    y += 4
    for label, value, bold in (("Zwischensumme", inv.net, False), ("19 % Mehrwertsteuer", inv.tax, False),
                               ("Zu zahlender Betrag", inv.total, True)):
        s.text(110, y, label, 10, bold)
        s.text(189, y, f"EUR {fake.amount(value)}", 10, bold, align="right")
        y += 6.5
    s.text(20, y + 12, "Bitte überweisen Sie den Betrag binnen 10 Tagen unter Angabe der Rechnungsnummer.", 9.5)
    return Draft(s.pdf(), inv.truth(), inv.client.name)


@layout("invoice", "L6", HELD_OUT)
def english_isodate(rng: random.Random, spec: Spec) -> Draft:
    """English, 'Invoice #', 'Issue date: 2026-10-12', 'Net amount', 'VAT (19%)', 'Total amount due (EUR)';
    the issuer's name top right and again in the footer."""
    inv = invoice(rng, english=True)
    s = Sheet("dejavu-condensed", "Invoice")
    s.text(190, 18, inv.issuer.name, 12, bold=True, align="right")
    s.text(190, 23, f"{inv.issuer.street}, {inv.issuer.city}", 8, align="right")
    s.text(20, 40, f"Invoice # {inv.number}", 14, bold=True)
    s.text(20, 47, f"Issue date: {fake.day(inv.day, 'iso')}", 10)
    s.text(20, 52, f"Due date: {fake.day(inv.day.replace(day=min(inv.day.day + 14, 28)), 'iso')}", 10)
    s.text(120, 40, "Customer", 8, bold=True)
    s.lines(120, 45, (inv.client.plain, inv.client.street, inv.client.city), 9.5)
    body = [(item, str(q), fake.amount(p, "en"), fake.amount(q * p, "en")) for item, q, p in inv.lines]
    y = s.table(20, 72, (95, 15, 30, 30), [("Item", "Qty", "Rate", "Line total"), *body],
                aligns=("left", "right", "right", "right"))
    y += 4
    for label, value, bold in (("Net amount", inv.net, False), ("VAT (19%)", inv.tax, False),
                               ("Total amount due (EUR)", inv.total, True)):
        s.text(110, y, label, 10, bold)
        s.text(189, y, fake.amount(value, "en"), 10, bold, align="right")
        y += 6
    s.text(105, 282, f"{inv.issuer.name} · VAT ID DE{rng.randint(100000000, 999999999)}", 7, align="center")
    return Draft(s.pdf(), inv.truth(), inv.client.name)
