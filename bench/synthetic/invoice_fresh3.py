"""Invoices, fresh development layouts (added 2026-12-02, a fifth round): a hotel's folio in English with
two VAT rates, a city tax and the payments made at checkout, and a wholesaler's B2B invoice whose long
list of items at 7 % and 19 % runs onto a second page, where the "Gesamtbetrag" and a Skonto offer stand.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.

The truth's total is what the invoice charges (the gross of all its items), never the balance left
after a payment at checkout nor the amount after Skonto; its net is the total less the VAT (a city
tax, charged without VAT, is part of the net).
"""
import random
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet

HOTELS = (("Hotel Lindenhof am Stadtpark GmbH", "HOTEL LINDENHOF"), ("Parkhotel Seeblick Betriebs GmbH", "Parkhotel Seeblick"),
          ("Nordstern Apartments & Suites GmbH", "NORDSTERN Apartments"), ("Gasthof Zur Alten Mühle OHG", "Zur Alten Mühle"),
          ("Urban Nest Serviced Apartments GmbH", "urban nest"))
WHOLESALERS = ("Großhandel Brinkmann GmbH & Co. KG", "Kessler Gastro-Service GmbH", "Office & Catering Depot Weber GmbH",
               "Hanse Frischdienst Nord GmbH")
GOODS_7 = (("Kaffee Crema ganze Bohne 1 kg", (1290, 2190)), ("Milch H 3,5 % 12x1 l", (1090, 1590)),
           ("Mineralwasser still 12x0,75 l", (590, 890)), ("Orangensaft 6x1 l", (890, 1390)),
           ("Kekse Gebäckmischung 2 kg", (1490, 2490)), ("Zucker Portionssticks 1000 St.", (1390, 1990)),
           ("Tee Auswahlbox 6x20 Btl.", (1190, 1790)), ("Obstkorb saisonal", (2490, 3990)))
GOODS_19 = (("Kopierpapier A4 80 g 5x500 Bl.", (1890, 2690)), ("Toner HP 59A schwarz", (8990, 13990)),
            ("Müllbeutel 120 l 250 St.", (2190, 3290)), ("Spülmaschinentabs 200 St.", (2490, 3990)),
            ("Handtuchpapier 20x160 Bl.", (2290, 3190)), ("Kugelschreiber blau 50 St.", (1290, 1990)),
            ("Ordner A4 breit 10 St.", (1690, 2590)), ("Batterien AA 24 St.", (990, 1690)),
            ("Reinigungsmittel Konzentrat 5 l", (1390, 2390)), ("Kaffeebecher Porzellan 12 St.", (2190, 3290)),
            ("Haftnotizen 12 Blöcke", (690, 1290)), ("Flipchartpapier 5 Blöcke", (3490, 4990)))


def _day(rng: random.Random) -> date:
    return date(2026, rng.randint(1, 10), rng.randint(1, 28))


def _cents(rng: random.Random, low: int, high: int) -> Decimal:
    return fake.money(Decimal(rng.randrange(low, high)) / 100)


@layout("invoice", "L16", DEVELOPMENT)
def hotel_folio(rng: random.Random, spec: Spec) -> Draft:
    """A hotel's or serviced apartment's folio in English: the brand as the logo, 'INVOICE' with a grid
    of Room | Arrival | Departure | Guests | Folio No. | Invoice No. | Date (labels above values, dates
    '12-Oct-26' or '12/10/2026'), the guest or a company as the addressee, one row per night
    ('Accommodation' at 7 %) plus breakfast and parking or minibar at 19 %, a 'City tax' with no VAT,
    'Total charges', a VAT table 'Rate | Net | VAT | Gross' with a 0 % row, then either the payment at
    checkout ('Visa ****4417') and 'Balance due EUR 0.00', or 'Amount due' for a company billed later."""
    issuer, brand = rng.choice(HOTELS)
    street, city = fake._address(rng)
    guest = fake.person(rng)
    day = _day(rng)
    nights = rng.randint(2, 7)
    arrival = day - timedelta(days=nights)
    rate = _cents(rng, 8900, 21900)
    breakfast = _cents(rng, 1450, 2650)
    rows = []  # (date, text, gross, vat percent)
    for night in range(nights):
        when = arrival + timedelta(days=night)
        rows.append((when, "Accommodation", rate, 7))
        if rng.random() < 0.7:
            rows.append((when + timedelta(days=1), "Breakfast", breakfast, 19))
    for text, low, high in (("Parking garage", 1500, 2800), ("Minibar", 450, 2400), ("Laundry service", 900, 2900)):
        if rng.random() < 0.4:
            rows.append((arrival + timedelta(days=rng.randrange(nights)), text, _cents(rng, low, high), 19))
    accommodation = sum((g for _, t, g, _ in rows if t == "Accommodation"), Decimal(0))
    city_tax = fake.money(accommodation * Decimal("0.05"))
    rows.append((day, "City tax 5 %", city_tax, 0))
    rows.sort(key=lambda row: row[0])
    gross = {rate_: sum((g for _, _, g, r in rows if r == rate_), Decimal(0)) for rate_ in (0, 7, 19)}
    vat = {r: fake.money(g * r / (100 + r)) for r, g in gross.items()}
    total = sum(gross.values(), Decimal(0))
    tax = sum(vat.values(), Decimal(0))
    net = total - tax
    billed_later = rng.random() < 0.4
    number = rng.choice((f"{rng.randint(100000, 999999)}", f"INV-{day:%y}-{rng.randint(10000, 99999)}"))
    style = rng.choice(("dash", "slash"))

    def when(value: date) -> str:
        return value.strftime("%d-%b-%y") if style == "dash" else value.strftime("%d/%m/%Y")

    s = Sheet(rng.choice(("helvetica", "dejavu", "dejavu-condensed")), f"Invoice {number}")
    s.text(105, 20, brand, 17, bold=True, align="center")
    s.text(105, 25.5, f"{street} · {city} · Germany", 8, align="center")
    s.text(105, 29.5, f"Phone +49 {rng.randint(30, 911)} {rng.randint(100000, 9999999)} · "
                      f"reservations@{brand.split()[-1].lower()}.de", 8, align="center")
    if billed_later:
        company = fake.company(rng)
        address = (company.name, f"Attn. {guest.plain}", company.street, company.city)
    else:
        address = (guest.plain, guest.street, guest.city)
    s.lines(20, 48, address, 10, leading=4.8)
    s.text(20, 80, "INVOICE", 15, bold=True)
    grid = (("Room", str(rng.randint(101, 540))), ("Arrival", when(arrival)), ("Departure", when(day)),
            ("Guests", str(rng.randint(1, 2))), ("Folio No.", str(rng.randint(20000, 89999))),
            ("Invoice No.", number), ("Date", when(day)))
    x = 20
    for (label, value), width in zip(grid, (17, 24, 25, 16, 21, 32, 24)):
        s.text(x, 88, label, 7.5)
        s.text(x, 93, value, 9, bold=True)
        x += width
    s.rule(20, 96, 190, 0.3)
    table = [("Date", "Description", "Charges EUR", "VAT")]
    table += [(when(d), t, f"{g:,.2f}", f"{r} %") for d, t, g, r in rows]
    y = s.table(20, 104, (30, 95, 30, 15), table, size=8.5, leading=4.6, aligns=("left", "left", "right", "right"))
    s.rule(120, y - 2, 190, 0.5)
    s.text(120, y + 2, "Total charges", 9.5, bold=True)
    s.text(175, y + 2, f"{total:,.2f}", 9.5, bold=True, align="right")
    y += 8
    if billed_later:
        s.text(120, y, "Amount due", 11, bold=True)
        s.text(175, y, f"EUR {total:,.2f}", 11, bold=True, align="right")
        y += 6
        s.text(20, y, f"Please transfer the amount due within 14 days, quoting invoice no. {number}.", 8.5)
    else:
        s.text(120, y, f"{rng.choice(('Visa', 'Mastercard', 'Amex'))} ****{rng.randint(1000, 9999)}", 9.5)
        s.text(175, y, f"-{total:,.2f}", 9.5, align="right")
        y += 5
        s.text(120, y, "Balance due", 10, bold=True)
        s.text(175, y, "EUR 0.00", 10, bold=True, align="right")
    y += 10
    vat_rows = [("VAT rate", "Net", "VAT", "Gross")]
    vat_rows += [(f"{r} %", f"{gross[r] - vat[r]:,.2f}", f"{vat[r]:,.2f}", f"{gross[r]:,.2f}")
                 for r in (7, 19, 0) if gross[r]]
    vat_rows.append(("Total", f"{net:,.2f}", f"{tax:,.2f}", f"{total:,.2f}"))
    s.table(20, y, (25, 28, 28, 28), vat_rows, size=8, leading=4.3, aligns=("left", "right", "right", "right"))
    s.rule(20, 272, 190, 0.2)
    s.text(105, 276, f"{issuer} · {street} · {city} · Managing Director {rng.choice(('A. Brenner', 'M. Yıldız', 'K. Paulsen'))}",
           7, align="center")
    s.text(105, 279.5, f"VAT ID DE{rng.randint(100000000, 999999999)} · Amtsgericht {city.split(' ', 1)[1]} "
                       f"HRB {rng.randint(10000, 99999)}", 7, align="center")
    truth = {"issuer": issuer, "number": number, "date": day.isoformat(), "net": f"{net:.2f}", "tax": f"{tax:.2f}",
             "total": f"{total:.2f}", "currency": "EUR"}
    return Draft(s.pdf(), truth, guest.name, pages=s.pages)


@layout("invoice", "L17", DEVELOPMENT)
def wholesale_two_rates(rng: random.Random, spec: Spec) -> Draft:
    """A wholesaler's B2B invoice to a firm: 'RECHNUNG' in capitals, a header row of boxes (Rechnungs-Nr. |
    Rechnungsdatum | Kunden-Nr. | Lieferschein-Nr. | Lieferdatum), 20-34 items with Art.-Nr., Menge, Einheit,
    Einzelpreis, USt-Kz. (A = 7 %, B = 19 %) and Gesamt, 'Übertrag' at the foot of page 1 and the head of
    page 2, then on page 2 'Warenwert netto A/B', 'zzgl. 7 % USt' and 'zzgl. 19 % USt', the 'Gesamtbetrag',
    'Bei Zahlung bis 12.10.2026 abzüglich 2 % Skonto (31,45 €): 1.541,20 €' and 'Zahlbar bis ... netto'."""
    issuer = rng.choice(WHOLESALERS)
    street, city = fake._address(rng)
    client = fake.person(rng)
    firm = rng.choice(("Café & Bistro {0}", "Praxis {1}", "Kanzlei {1}", "Büroservice {1}")).format(client.family, client.plain)
    day = _day(rng)
    delivered = day - timedelta(days=rng.randint(0, 4))
    count = rng.randint(20, 34) if not spec.single_page else rng.randint(6, 9)
    items = []
    for _ in range(count):
        rate = 7 if rng.random() < 0.45 else 19
        text, (low, high) = rng.choice(GOODS_7 if rate == 7 else GOODS_19)
        items.append((f"{rng.randint(10000, 99999)}", text, rng.randint(1, 12), _cents(rng, low, high), rate))
    net = {r: sum((fake.money(q * p) for _, _, q, p, rr in items if rr == r), Decimal(0)) for r in (7, 19)}
    vat = {r: fake.money(net[r] * r / 100) for r in (7, 19)}
    total = net[7] + net[19] + vat[7] + vat[19]
    tax = vat[7] + vat[19]
    discount = fake.money(total * Decimal("0.02"))
    number = rng.choice((f"{day:%Y}{rng.randint(100000, 999999)}", f"RG-{rng.randint(4000000, 4999999)}",
                         f"VR{day:%y}/{rng.randint(10000, 99999)}"))
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed")), f"Rechnung {number}")
    s.text(20, 18, issuer.upper(), 12, bold=True)
    s.text(20, 23, f"{street} | {city} | Tel. 0{rng.randint(30, 999)} {rng.randint(100000, 999999)}", 8)
    s.text(20, 42, f"{issuer} · {street} · {city}", 6.5)
    s.lines(20, 48, (firm, f"Inh. {client.plain}", "Buchhaltung", client.street, client.city), 10, leading=4.7)
    s.text(20, 80, "RECHNUNG", 16, bold=True)
    boxes = (("Rechnungs-Nr.", number), ("Rechnungsdatum", fake.day(day)), ("Kunden-Nr.", str(rng.randint(100000, 999999))),
             ("Lieferschein-Nr.", str(rng.randint(7000000, 7999999))), ("Lieferdatum", fake.day(delivered)))
    for index, (label, value) in enumerate(boxes):
        x = 20 + index * 34
        s.box(x, 85, 34, 11, width=0.3)
        s.text(x + 1.5, 89, label, 7)
        s.text(x + 1.5, 94, value, 9, bold=True)
    widths = (10, 18, 64, 12, 12, 20, 14, 22)
    aligns = ("right", "left", "left", "right", "left", "right", "center", "right")
    head = ("Pos", "Art.-Nr.", "Bezeichnung", "Menge", "Einh.", "EP netto", "USt", "Gesamt netto")
    y, running, position = 106, Decimal(0), 0
    s.table(20, y, widths, [head], size=8, aligns=aligns)
    y += 5
    for number_, text, quantity, price, rate in items:
        if y > 250:
            s.rule(20, y - 2.5, 192, 0.3)
            s.text(150, y + 1, "Übertrag", 8.5, bold=True)
            s.text(191, y + 1, fake.amount(running), 8.5, bold=True, align="right")
            s.text(105, 288, "Seite 1 von 2", 7.5, align="center")
            s.new_page()
            s.text(20, 18, f"Rechnung {number} vom {fake.day(day)} · Seite 2 von 2", 8.5)
            s.table(20, 28, widths, [head], size=8, aligns=aligns)
            s.text(150, 33, "Übertrag", 8.5, bold=True)
            s.text(191, 33, fake.amount(running), 8.5, bold=True, align="right")
            y = 38
        position += 1
        line = fake.money(quantity * price)
        running += line
        cells = (str(position), number_, text, str(quantity), "Kt." if "x" in text else "St.", fake.amount(price),
                 "A" if rate == 7 else "B", fake.amount(line))
        s.table(20, y, widths, [cells], size=8, aligns=aligns, header_bold=False)
        y += 4.4
    s.rule(20, y - 2, 192, 0.5)
    y += 4
    sums = (("Warenwert netto A (7 %)", net[7]), ("Warenwert netto B (19 %)", net[19]),
            ("zzgl. 7 % USt auf " + fake.amount(net[7]), vat[7]), ("zzgl. 19 % USt auf " + fake.amount(net[19]), vat[19]))
    for label, value in sums:
        s.text(110, y, label, 8.5)
        s.text(191, y, fake.amount(value), 8.5, align="right")
        y += 4.6
    s.rule(110, y - 2.5, 192, 0.5)
    s.text(110, y + 1.5, "Gesamtbetrag EUR", 10.5, bold=True)
    s.text(191, y + 1.5, fake.amount(total), 10.5, bold=True, align="right")
    y += 12
    by = day + timedelta(days=rng.choice((7, 8, 10)))
    s.text(20, y, f"Bei Zahlung bis {fake.day(by)} abzüglich 2 % Skonto ({fake.amount(discount, 'de_euro')}): "
                  f"{fake.amount(total - discount, 'de_euro')}.", 9)
    s.text(20, y + 5, f"Zahlbar bis {fake.day(day + timedelta(days=30))} netto ohne Abzug.", 9)
    s.text(20, y + 10, "A = ermäßigter Steuersatz 7 %, B = Regelsteuersatz 19 %. Es gelten unsere AGB.", 8)
    bank = rng.choice(fake.BANKS)
    s.rule(20, 278, 192, 0.2)
    s.text(20, 282, f"{issuer} · Sitz {city} · Registergericht {city.split(' ', 1)[1]} HRA {rng.randint(1000, 9999)} · "
                    f"USt-IdNr. DE{rng.randint(100000000, 999999999)}", 6.5)
    s.text(20, 285, f"{bank[0]} · IBAN {fake.iban_spaced(fake.iban(rng, bank[1]))} · BIC {bank[2]}", 6.5)
    truth = {"issuer": issuer, "number": number, "date": day.isoformat(), "net": f"{net[7] + net[19]:.2f}",
             "tax": f"{tax:.2f}", "total": f"{total:.2f}", "currency": "EUR"}
    return Draft(s.pdf(), truth, client.name, pages=s.pages)
