"""Invoices, fresh development layouts (added 2026-12-01, a second round): a craftsman's "Rechnung
Nr." with a Leistungszeitraum, a telecom or utility bill paid by direct debit, an English SaaS invoice.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet

VAT_RATE = 19
CRAFTSMEN = ("Tischlerei Brandt GmbH", "Heizung & Sanitär Wagner GmbH", "Dachdeckerei Sturm e.K.",
             "Fliesen Özdemir GmbH", "Elektrotechnik Hoffmann GmbH & Co. KG", "Malerwerkstatt Krause")
TRADES = {  # a craftsman's name -> the works he bills: (item, unit, whole units?)
    "Tischlerei": (("Einbauschrank Eiche nach Maß", "Stk", True), ("Montage Zimmertüren", "Stk", True),
                   ("Tischlerarbeiten Geselle", "Std", False), ("Kleinmaterial, Beschläge", "psch", True)),
    "Heizung": (("Austausch Gasbrennwertkessel", "Stk", True), ("Monteurstunde", "Std", False),
                ("Kupferrohr 18 mm", "m", False), ("Hydraulischer Abgleich", "psch", True)),
    "Dachdeckerei": (("Dachziegel neu eindecken", "m²", False), ("Dachrinne Zink erneuern", "m", False),
                     ("Gerüststellung", "psch", True), ("Facharbeiterstunde", "Std", False)),
    "Fliesen": (("Wandfliesen verlegen", "m²", False), ("Bodenfliesen verlegen", "m²", False),
                ("Abdichtung Dusche", "psch", True), ("Fliesenlegerstunde", "Std", False)),
    "Elektrotechnik": (("Unterverteilung setzen", "Stk", True), ("Steckdose Unterputz", "Stk", True),
                       ("NYM-J 3x1,5 mm²", "m", False), ("Elektrikerstunde", "Std", False)),
    "Malerwerkstatt": (("Wände spachteln und streichen", "m²", False), ("Lackieren Heizkörper", "Stk", True),
                       ("Abdeckarbeiten", "psch", True), ("Malerstunde", "Std", False)),
}
CARRIERS = (("Fernwelt Telekom GmbH", "fernwelt", "Ihre Telefonrechnung"),
            ("Stadtwerke Lindenau GmbH", "Stadtwerke Lindenau", "Ihre Stromrechnung"),
            ("Netzkontor Kabel Deutschland GmbH", "NETZKONTOR", "Ihre Rechnung"),
            ("Rheinstrom Energie AG", "RheinStrom", "Abschlagsrechnung Strom"))
TARIFFS = {"Fernwelt Telekom GmbH": (("Grundpreis Zuhause L", True), ("Verbindungen ins Mobilfunknetz", False),
                                     ("Sicherheitspaket", True)),
           "Stadtwerke Lindenau GmbH": (("Grundpreis Strom", True), ("Arbeitspreis 312 kWh", False),
                                        ("Messstellenbetrieb", True)),
           "Netzkontor Kabel Deutschland GmbH": (("Internet & Phone 250", True), ("TV Basis", True),
                                                 ("Einzelverbindungen", False)),
           "Rheinstrom Energie AG": (("Abschlag Oktober", True), ("Grundpreis anteilig", True),
                                     ("Zählermiete", True))}
SAAS = (  # legal name, brand, street, town, country, VAT id prefix
    ("Quarkbase Software GmbH", "Quarkbase", "Torstraße 49", "10119 Berlin", "Germany", "DE"),
    ("Brightlane Ltd", "brightlane", "12 Harbour Road", "Dublin 2, D02 X285", "Ireland", "IE"),
    ("Nimbus Analytics B.V.", "nimbus", "Keizersgracht 221", "1016 DV Amsterdam", "Netherlands", "NL"),
    ("Tallyhub Inc.", "TALLYHUB", "251 Little Falls Drive", "Wilmington, DE 19808", "United States", "EU"))
PLANS = ("Team plan (monthly)", "Additional seats", "Pro plan, annual", "Storage add-on 100 GB", "Priority support")


@dataclass(frozen=True)
class Bill:
    """What any of these invoices charges: net lines, VAT at 19% on their sum, the gross total."""
    issuer: str
    number: str
    day: date
    lines: tuple[tuple[str, Decimal, Decimal], ...]  # item, quantity, unit price (net)

    @property
    def net(self) -> Decimal:
        return sum((fake.money(q * p) for _, q, p in self.lines), Decimal("0"))

    @property
    def tax(self) -> Decimal:
        return fake.money(self.net * VAT_RATE / 100)

    @property
    def total(self) -> Decimal:
        return self.net + self.tax

    def truth(self) -> dict:
        return {"issuer": self.issuer, "number": self.number, "date": self.day.isoformat(),
                "net": f"{self.net:.2f}", "tax": f"{self.tax:.2f}", "total": f"{self.total:.2f}", "currency": "EUR"}


def invoice_day(rng: random.Random) -> date:
    return date(2026, rng.randint(1, 10), rng.randint(1, 28))


def euros(cents: int) -> Decimal:
    return fake.money(Decimal(cents) / 100)


def quantity(value: Decimal) -> str:
    """A craftsman's quantity: "3" or "12,50"."""
    return str(int(value)) if value == value.to_integral() else f"{value:.2f}".replace(".", ",")


def long_us(value: date) -> str:
    """"October 5, 2026", as US-made billing software prints a date."""
    return f"{fake.MONTHS_EN[value.month - 1]} {value.day}, {value.year}"


@layout("invoice", "L10", DEVELOPMENT)
def craftsman_invoice(rng: random.Random, spec: Spec) -> Draft:
    """A craftsman's letter-invoice: letterhead right, a DIN 5008 return line over the window, "Rechnung
    Nr. 2026-0815" as the heading, a Leistungszeitraum (or Ausführungsdatum) and "Bauvorhaben" before
    the items, the date either in a facts block ("Datum") or as "Köln, den 24.09.2026"; columns Pos. /
    Menge / Einheit / Leistung / EP / GP with fractional quantities, totals "Summe netto" / "zzgl. 19 %
    MwSt." / "Rechnungsbetrag" in "1.234,56 €", then the § 35a EStG labour share (another amount) and a
    due date."""
    issuer = rng.choice(CRAFTSMEN)
    works = TRADES[issuer.split()[0]]
    street, city = fake._address(rng)
    client = fake.person(rng)
    day = invoice_day(rng)
    done = day - timedelta(days=rng.randint(2, 12))
    began = done - timedelta(days=rng.randint(0, 15))
    lines = []
    for item, unit, whole in rng.sample(works, rng.randint(2, len(works))):
        if whole:
            amount = Decimal(1 if unit == "psch" else rng.randint(1, 6))
        else:
            amount = Decimal(rng.randrange(150, 4000, 25)) / 100
        price = euros(rng.randrange(3500, 9000) if unit in ("Std", "m²", "m") else rng.randrange(8000, 250000))
        lines.append((item, amount, price, unit))
    number = rng.choice((f"{day.year}-{rng.randint(100, 1999):04d}", f"{rng.randint(2400, 9999)}",
                         f"R-{day:%y}{rng.randint(100, 999)}"))
    bill = Bill(issuer, number, day, tuple((item, q, p) for item, q, p, _ in lines))
    s = Sheet(rng.choice(("dejavu-serif", "times", "helvetica")), f"Rechnung {number}")
    s.text(190, 18, issuer, 14, bold=True, align="right")
    letterhead = (rng.choice(("Meisterbetrieb", "Innungsfachbetrieb", "Meisterbetrieb seit 1987")),
                  f"{street} · {city}", f"Tel. 0{rng.randint(200, 999)} {rng.randint(100000, 999999)}")
    s.lines(190 - s.width(f"{street} · {city}", 8), 23, letterhead, 8, leading=3.6)
    s.text(20, 44, f"{issuer} · {street} · {city}", 6.5)
    s.rule(20, 45.5, 100, 0.2)
    s.lines(20, 52, fake.window(client), 10, leading=4.6)
    facts = [("Kunden-Nr.", str(rng.randint(10000, 29999))), ("Objekt", client.street)]
    dated_in_facts = rng.random() < 0.5
    if dated_in_facts:
        facts.append((rng.choice(("Datum", "Rechnungsdatum")), fake.day(day)))
    for index, (label, value) in enumerate(facts):
        s.text(130, 54 + index * 4.6, f"{label}:", 9)
        s.text(155, 54 + index * 4.6, value, 9)
    if not dated_in_facts:
        s.text(190, 82, f"{city.split(' ', 1)[1]}, den {fake.day(day, rng.choice(('dmy', 'long_de')))}", 9.5,
               align="right")
    s.text(20, 92, f"Rechnung Nr. {number}", 13, bold=True)
    if began == done or rng.random() < 0.3:
        s.text(20, 98, f"Ausführungsdatum: {fake.day(done)}", 9.5)
    else:
        s.text(20, 98, f"Leistungszeitraum: {fake.day(began)} – {fake.day(done)}", 9.5)
    s.text(20, 103, f"Bauvorhaben: {rng.choice(('Badsanierung', 'Modernisierung', 'Reparatur', 'Neubau'))}, "
                    f"{client.street}, {client.city}", 9.5)
    s.text(20, 112, f"Sehr geehrte{'' if fake.salutation(client) == 'Frau' else 'r'} "
                    f"{fake.salutation(client, 'nominative')} {client.family},", 9.5)
    s.text(20, 117, "für die ausgeführten Arbeiten erlauben wir uns zu berechnen:", 9.5)
    body = [(str(index + 1), quantity(q), unit, item, fake.amount(p), fake.amount(fake.money(q * p)))
            for index, (item, q, p, unit) in enumerate(lines)]
    y = s.table(20, 127, (11, 17, 14, 78, 25, 25), [("Pos.", "Menge", "Einheit", "Leistung", "EP €", "GP €"), *body],
                size=8.5, leading=5.2, aligns=("left", "right", "left", "left", "right", "right"))
    s.rule(120, y - 2, 190, 0.3)
    y += 3
    for label, value, bold in (("Summe netto", bill.net, False), (f"zzgl. {VAT_RATE} % MwSt.", bill.tax, False),
                               (rng.choice(("Rechnungsbetrag", "Gesamtbetrag brutto", "Zu zahlender Betrag")),
                                bill.total, True)):
        s.text(120, y, label, 9.5, bold)
        s.text(189, y, fake.amount(value, "de_euro"), 9.5, bold, align="right")
        y += 5.5
    labour = fake.money(sum((fake.money(q * p) for item, q, p, unit in lines if unit == "Std"), Decimal("0"))
                        or bill.net * Decimal("0.4"))
    y += 6
    s.text(20, y, f"Im Rechnungsbetrag enthaltene Arbeitskosten nach § 35a EStG: {fake.amount(labour, 'de_euro')} "
                  f"netto zzgl. {fake.amount(fake.money(labour * VAT_RATE / 100), 'de_euro')} MwSt.", 8.5)
    s.text(20, y + 6, f"Bitte überweisen Sie den Betrag ohne Abzug bis zum {fake.day(day + timedelta(days=14))}.", 9.5)
    s.text(20, y + 16, "Mit freundlichen Grüßen", 9.5)
    account = fake.iban(rng)
    bank = rng.choice(fake.BANKS)
    foot = ((issuer, street, city), (bank[0], f"IBAN {fake.iban_spaced(account)}", f"BIC {bank[2]}"),
            (f"Steuer-Nr. {fake.tax_number(rng)}", f"Handwerkskammer {city.split(' ', 1)[1]}",
             f"Betriebs-Nr. {rng.randint(1000000, 9999999)}"))
    s.rule(20, 276, 190, 0.2)
    for index, column in enumerate(foot):
        s.lines(20 + index * 62, 280, column, 7, leading=3.2)
    return Draft(s.pdf(), bill.truth(), client.name)


@layout("invoice", "L11", DEVELOPMENT)
def direct_debit_bill(rng: random.Random, spec: Spec) -> Draft:
    """A telecom or utility bill: a brand word as the logo (the legal name only in the return line and
    the foot), "Ihre Telefonrechnung für Oktober 2026", a facts column of label/value pairs
    (Kundennummer, Rechnungsnummer, Rechnungsdatum as "5. November 2026" or dmy), a summary table with
    a Zeitraum column and "EUR 12,30" amounts, "Rechnungsbetrag" at its foot, and the direct debit
    notice repeating the amount with a later debit date, creditor id and mandate reference."""
    issuer, brand, title = rng.choice(CARRIERS)
    street, city = fake._address(rng)
    client = fake.person(rng)
    day = invoice_day(rng)
    first = day.replace(day=1) - timedelta(days=1)
    period = (first.replace(day=1), first)
    lines = tuple((item, Decimal(1), euros(rng.randrange(1500, 4500) if fixed else rng.randrange(100, 1900)))
                  for item, fixed in TARIFFS[issuer])
    number = rng.choice((f"{rng.randint(100000000, 999999999)}", f"{rng.randint(10, 99)} {rng.randint(1000, 9999)} "
                         f"{rng.randint(1000, 9999)}", f"RG{rng.randint(10000000, 99999999)}"))
    bill = Bill(issuer, number, day, lines)
    style = rng.choice(("eur_de", "de_euro"))
    s = Sheet(rng.choice(("helvetica", "dejavu", "dejavu-condensed")), title)
    s.text(190, 22, brand, 22, bold=True, align="right")
    s.text(20, 44, f"{issuer} · {rng.choice(('Postfach', 'Kundenservice'))} {rng.randint(1000, 9999)} · {city}", 6.5)
    s.lines(20, 51, fake.window(client), 10, leading=4.6)
    facts = (("Kundennummer", str(rng.randint(100000000, 999999999))), ("Rechnungsnummer", number),
             ("Rechnungsdatum", fake.day(day, rng.choice(("dmy", "long_de")))),
             ("Vertragskonto", str(rng.randint(1000000, 9999999))), ("Seite", "1 von 1"))
    for index, (label, value) in enumerate(facts):
        s.text(130, 50 + index * 4.8, label, 8.5)
        s.text(190, 50 + index * 4.8, value, 8.5, align="right")
    month = fake.MONTHS_DE[period[0].month - 1]
    s.text(20, 90, f"{title} für {month} {period[0].year}", 14, bold=True)
    s.text(20, 97, f"Abrechnungszeitraum {fake.day(period[0])} bis {fake.day(period[1])}", 9.5)
    s.text(20, 106, f"Guten Tag {fake.salutation(client, 'nominative')} {client.family},", 9.5)
    s.text(20, 111, "hier ist Ihre aktuelle Rechnung. Alle Beträge in Euro.", 9.5)
    period_text = f"{period[0]:%d.%m.}–{period[1]:%d.%m.%Y}"
    body = [(item, period_text, fake.amount(p, style)) for item, _, p in lines]
    y = s.table(20, 122, (90, 45, 35), [("Leistung", "Zeitraum", "Betrag (netto)"), *body], size=9,
                leading=5.4, aligns=("left", "left", "right"))
    s.rule(20, y - 2, 190, 0.3)
    y += 3
    for label, value, bold in (("Summe der Leistungen (netto)", bill.net, False),
                               (f"Umsatzsteuer {VAT_RATE} %", bill.tax, False),
                               (rng.choice(("Rechnungsbetrag", "Rechnungsbetrag (brutto)", "Gesamtbetrag")),
                                bill.total, True)):
        s.text(21, y, label, 9.5, bold)
        s.text(189, y, fake.amount(value, style), 9.5, bold, align="right")
        y += 5.5
    debit = day + timedelta(days=rng.randint(8, 14))
    account = fake.iban(rng)
    s.box(20, y + 4, 170, 20, width=0.3, shade=0.94)
    s.text(23, y + 10, "Bitte nicht überweisen – wir buchen ab.", 9.5, bold=True)
    s.text(23, y + 15, f"Den Rechnungsbetrag von {fake.amount(bill.total, style)} buchen wir frühestens am "
                       f"{fake.day(debit)} von Ihrem Konto", 8.5)
    s.text(23, y + 19.5, f"IBAN {account[:4]} **** **** **** **{account[-2:]} ab. Gläubiger-ID "
                         f"DE{rng.randint(10, 99)}ZZZ0000{rng.randint(1000000, 9999999)}, Mandatsreferenz "
                         f"{rng.randint(100000000, 999999999)}.", 8.5)
    register = f"Amtsgericht {city.split(' ', 1)[1]} HRB {rng.randint(1000, 99999)}"
    s.rule(20, 278, 190, 0.2)
    s.text(20, 282, f"{issuer} · {street} · {city} · {register} · USt-IdNr. DE{rng.randint(100000000, 999999999)}", 6.5)
    return Draft(s.pdf(), bill.truth(), client.name)


@layout("invoice", "L12", DEVELOPMENT)
def saas_invoice(rng: random.Random, spec: Spec) -> Draft:
    """An English SaaS invoice (Stripe-like): "Invoice" top left, the brand top right, "Invoice #",
    "Date of issue" / "Date due" in US long dates, the issuer's address and "Bill to" side by side,
    "€1,234.56 due October 19, 2026" as a headline, lines with a service period under each, totals
    "Subtotal" / "VAT (19%)" / "Total (incl. VAT)" / "Amount due"; a paid invoice says "Amount paid"
    and "Amount due €0.00". Amounts "€1,234.56" or "EUR 1,234.56"."""
    issuer, brand, street, town, country, vat_prefix = rng.choice(SAAS)
    client = fake.person(rng)
    day = invoice_day(rng)
    due = day + timedelta(days=rng.choice((0, 14, 30)))
    seats = rng.randint(1, 25)
    lines = tuple((plan, Decimal(seats if "seat" in plan.lower() or "Team" in plan else 1),
                   fake.money(Decimal(rng.randrange(900, 49900)) / 100))
                  for plan in rng.sample(PLANS, rng.randint(1, 3)))
    number = rng.choice((f"{rng.randbytes(4).hex().upper()}-{rng.randint(1, 40):04d}",
                         f"INV-{day.year}-{rng.randint(1, 9999):05d}", f"{rng.randint(100000, 999999)}"))
    bill = Bill(issuer, number, day, lines)
    money = (lambda v: f"€{fake.amount(v, 'en')}") if rng.random() < 0.6 else (lambda v: f"EUR {fake.amount(v, 'en')}")
    paid = rng.random() < 0.35
    s = Sheet(rng.choice(("helvetica", "dejavu")), f"Invoice {number}")
    s.text(20, 24, "Invoice" if not paid else "Invoice (paid)", 20, bold=True)
    s.text(190, 22, brand, 15, bold=True, align="right")
    facts = (("Invoice #", number), ("Date of issue", long_us(day)), ("Date due", long_us(due)))
    for index, (label, value) in enumerate(facts):
        s.text(20, 36 + index * 5, label, 9, bold=True)
        s.text(55, 36 + index * 5, value, 9)
    s.lines(20, 58, (issuer, street, town, country, f"billing@{brand.lower()}.com"), 9, leading=4.3)
    s.text(110, 58, "Bill to", 9, bold=True)
    s.lines(110, 62.3, (client.plain, client.street, client.city, "Germany"), 9, leading=4.3)
    headline = f"{money(bill.total)} {'paid on' if paid else 'due'} {long_us(day if paid else due)}"
    s.text(20, 90, headline, 14, bold=True)
    y = s.table(20, 104, (95, 15, 30, 30), [("Description", "Qty", "Unit price", "Amount")], size=9,
                aligns=("left", "right", "right", "right"))
    for plan, q, p in lines:
        s.text(21, y, plan, 9)
        s.text(124, y, str(q), 9, align="right")
        s.text(154, y, money(p), 9, align="right")
        s.text(189, y, money(fake.money(q * p)), 9, align="right")
        s.text(21, y + 4, f"{long_us(day)[:-6]} – {long_us(day + timedelta(days=30))}", 7.5)
        y += 10
    s.rule(110, y - 3, 190, 0.3)
    y += 2
    totals = [("Subtotal", bill.net), (f"VAT ({VAT_RATE}%)", bill.tax), ("Total (incl. VAT)", bill.total)]
    totals.append(("Amount paid", bill.total) if paid else ("Amount due", bill.total))
    if paid:
        totals.append(("Amount due", Decimal("0")))
    for label, value in totals:
        bold = label.startswith("Amount")
        s.text(111, y, label, 9.5, bold)
        s.text(189, y, money(value), 9.5, bold, align="right")
        y += 5.5
    s.text(20, y + 10, "Pay online: see the link in your billing e-mail. Questions? billing@"
                       f"{brand.lower()}.com", 8.5)
    s.text(20, 282, f"{issuer} · VAT ID {vat_prefix}{rng.randint(10000000, 99999999)} · "
                    f"Page 1 of 1", 7)
    return Draft(s.pdf(), bill.truth(), client.name)
