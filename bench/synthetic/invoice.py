"""Invoices (craftsmen, movers, notaries: the costs around a purchase), development layouts."""
import random
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet

ITEMS = ("Arbeitszeit Geselle", "Material laut Aufmaß", "Anfahrtspauschale", "Montage Einbauküche",
         "Wandanstrich Dispersion", "Elektroinstallation Unterverteilung", "Umzugshelfer (Std.)",
         "Transporter 7,5 t", "Entsorgung Altmaterial", "Beratung und Planung", "Fliesenarbeiten Bad")
ITEMS_EN = ("Labour (hours)", "Materials as measured", "Call-out fee", "Kitchen installation", "Wall painting",
            "Electrical installation", "Removal staff (hours)", "Truck 7.5 t", "Waste disposal",
            "Consulting and planning", "Bathroom tiling")
VAT = Decimal("0.19")


@dataclass(frozen=True)
class Invoice:
    issuer: object
    client: object
    number: str
    day: date
    lines: tuple[tuple[str, int, Decimal], ...]  # item, quantity, unit price

    @property
    def net(self) -> Decimal:
        return sum((fake.money(q * p) for _, q, p in self.lines), Decimal("0"))

    @property
    def tax(self) -> Decimal:
        return fake.money(self.net * VAT)

    @property
    def total(self) -> Decimal:
        return self.net + self.tax

    def truth(self) -> dict:
        return {"issuer": self.issuer.name, "number": self.number, "date": self.day.isoformat(),
                "net": f"{self.net:.2f}", "tax": f"{self.tax:.2f}", "total": f"{self.total:.2f}", "currency": "EUR"}


def invoice(rng: random.Random, english: bool = False) -> Invoice:
    count = rng.randint(2, 6)
    picks = rng.sample(range(len(ITEMS)), count)
    lines = tuple(((ITEMS_EN if english else ITEMS)[i], rng.randint(1, 8), fake.money(rng.randrange(2500, 60000) / 100))
                  for i in picks)
    day = date(2026, rng.randint(1, 10), rng.randint(1, 28))
    number = rng.choice((f"RE-{day.year}-{rng.randint(100, 9999):04d}", f"{rng.randint(10000, 99999)}",
                         f"R{day.year % 100}{rng.randint(1000, 9999)}"))
    return Invoice(fake.company(rng, fake.VENDORS), fake.person(rng), number, day, lines)


@layout("invoice", "L1", DEVELOPMENT)
def craftsman(rng: random.Random, spec: Spec) -> Draft:
    """German craftsman's invoice: letterhead, facts on the right, items table, Netto / USt / Gesamtbetrag."""
    inv = invoice(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Rechnung")
    s.text(20, 18, inv.issuer.name, 13, bold=True)
    s.text(20, 23, f"{inv.issuer.street} · {inv.issuer.city}", 8)
    s.lines(20, 45, (inv.client.name, inv.client.street, inv.client.city), 10)
    s.text(20, 80, "Rechnung", 14, bold=True)
    for index, (label, value) in enumerate((("Rechnungsnummer", inv.number), ("Rechnungsdatum", fake.day(inv.day)),
                                            ("Kundennummer", str(rng.randint(1000, 9999))))):
        s.text(125, 45 + index * 5, label, 9)
        s.text(190, 45 + index * 5, value, 9, align="right")
    body = [(str(i + 1), item, str(q), fake.amount(p), fake.amount(q * p)) for i, (item, q, p) in enumerate(inv.lines)]
    y = s.table(20, 92, (10, 90, 15, 27, 28), [("Pos.", "Bezeichnung", "Menge", "Einzelpreis", "Gesamt"), *body],
                aligns=("left", "left", "right", "right", "right"))
    y += 4
    for label, value, bold in (("Nettobetrag", inv.net, False), ("zzgl. 19 % USt.", inv.tax, False),
                               ("Gesamtbetrag", inv.total, True)):
        s.text(120, y, label, 9.5, bold)
        s.text(189, y, f"{fake.amount(value)} €", 9.5, bold, align="right")
        y += 6
    s.text(20, y + 10, "Zahlbar innerhalb von 14 Tagen ohne Abzug.", 9)
    s.text(20, 280, f"{inv.issuer.name} · USt-IdNr. DE{rng.randint(100000000, 999999999)} · "
                    f"IBAN {fake.iban_spaced(fake.iban(rng))}", 7)
    return Draft(s.pdf(), inv.truth(), inv.client.name)


@layout("invoice", "L2", DEVELOPMENT)
def english_invoice(rng: random.Random, spec: Spec) -> Draft:
    """English: 'INVOICE', 'Invoice no.' / 'Invoice date' as a two-column header, 'Subtotal', 'VAT 19%', 'Total due'."""
    inv = invoice(rng, english=True)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Invoice")
    s.text(190, 20, "INVOICE", 20, bold=True, align="right")
    s.lines(20, 20, (inv.issuer.name, inv.issuer.street, inv.issuer.city), 10)
    s.text(20, 45, "Bill to", 8, bold=True)
    s.lines(20, 50, (inv.client.plain, inv.client.street, inv.client.city), 10)
    s.text(120, 45, "Invoice no.", 8, bold=True)
    s.text(160, 45, "Invoice date", 8, bold=True)
    s.text(120, 50, inv.number, 10)
    s.text(160, 50, fake.day(inv.day, "long_en"), 10)
    body = [(item, str(q), fake.amount(p, "en"), fake.amount(q * p, "en")) for item, q, p in inv.lines]
    y = s.table(20, 80, (95, 15, 30, 30), [("Description", "Qty", "Unit price", "Amount"), *body],
                aligns=("left", "right", "right", "right"))
    y += 4
    for label, value, bold in (("Subtotal", inv.net, False), ("VAT 19%", inv.tax, False), ("Total due", inv.total, True)):
        s.text(130, y, label, 10, bold)
        s.text(189, y, f"EUR {fake.amount(value, 'en')}", 10, bold, align="right")
        y += 6
    return Draft(s.pdf(), inv.truth(), inv.client.name)


@layout("invoice", "L3", DEVELOPMENT)
def notary_bill(rng: random.Random, spec: Spec) -> Draft:
    """A notary's cost note: upper-case headings, 'Kostenberechnung Nr.', dotted leaders, 'Endbetrag'."""
    inv = invoice(rng)
    s = Sheet("courier", "Kostenberechnung")
    s.text(105, 18, inv.issuer.name.upper(), 12, bold=True, align="center")
    s.text(105, 23, f"{inv.issuer.street}, {inv.issuer.city}", 8, align="center")
    s.lines(20, 40, (inv.client.name, inv.client.street, inv.client.city), 9.5)
    s.text(20, 68, f"KOSTENBERECHNUNG NR. {inv.number}", 11, bold=True)
    s.text(20, 74, f"vom {fake.day(inv.day, 'long_de')}", 9.5)
    y = 86
    for item, q, p in inv.lines:
        s.leader(20, 189, y, f"{q} x {item}", fake.amount(q * p), 9)
        y += 5.5
    y += 3
    s.leader(20, 189, y, "SUMME NETTO", fake.amount(inv.net), 9, bold=True)
    s.leader(20, 189, y + 6, "UMSATZSTEUER 19 %", fake.amount(inv.tax), 9)
    s.leader(20, 189, y + 12, "ENDBETRAG EUR", fake.amount(inv.total), 9, bold=True)
    return Draft(s.pdf(), inv.truth(), inv.client.name)
