"""Invoices, fresh development layouts (added 2026-12-02, a fourth round): a craftsman's or a small
household service's bill with labour and material apart (a Kleinunternehmer's without VAT), an
energy supplier's annual bill with its advance payments, an estate agent's commission invoice.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet

VAT_RATE = 19
MASTERS = ("Sanitärtechnik Lorenz GmbH", "Elektro Wiesner e.K.", "Zimmerei Falkenberg GmbH",
           "Bodenleger Aydin & Söhne GmbH", "Schlosserei Brückner")
SMALL_TRADES = ("Hausmeisterservice Timo Rademacher", "Gartenpflege Ilse Marquardt", "Fensterputz Benedikt Sauer",
                "Kleinreparaturen Mirko Hansen")
LABOUR = ("Monteur", "Geselle", "Meister", "Helfer")
MATERIAL = {  # a trade's first word -> material: (item, unit, price range in cents)
    "Sanitärtechnik": (("Eckventil 1/2\"", "Stk", (690, 1890)), ("Spülkasten-Reparaturset", "Stk", (1890, 4590)),
                       ("Flexschlauch 500 mm", "Stk", (590, 1490)), ("Dichtungsmaterial", "psch", (350, 990))),
    "Elektro": (("FI-Schutzschalter 40A", "Stk", (3890, 8990)), ("Schalterprogramm reinweiß", "Stk", (690, 2190)),
                ("Mantelleitung NYM-J 5x2,5", "m", (189, 389)), ("Abzweigdosen", "Stk", (120, 390))),
    "Zimmerei": (("Konstruktionsvollholz 60x120", "m", (890, 1590)), ("Holzschrauben Edelstahl", "psch", (990, 2990)),
                 ("OSB-Platte 22 mm", "m²", (1290, 1990)), ("Dampfbremsfolie", "m²", (190, 490))),
    "Bodenleger": (("Designbelag Vinyl Eiche", "m²", (2290, 4490)), ("Trittschalldämmung", "m²", (290, 690)),
                   ("Sockelleiste weiß 2,4 m", "Stk", (490, 990)), ("Ausgleichsmasse 25 kg", "Sack", (1890, 3290))),
    "Schlosserei": (("Schließzylinder 30/35", "Stk", (2990, 7990)), ("Türschließer", "Stk", (6990, 14990)),
                    ("Flachstahl verzinkt", "m", (790, 1690)), ("Befestigungsmaterial", "psch", (490, 1490))),
    "Hausmeisterservice": (("Leuchtmittel LED", "Stk", (390, 990)), ("Silikon, Kleinteile", "psch", (490, 1490))),
    "Gartenpflege": (("Rindenmulch", "Sack", (490, 890)), ("Grünschnittentsorgung", "psch", (2500, 6500))),
    "Fensterputz": (("Reinigungsmittel", "psch", (390, 990)),),
    "Kleinreparaturen": (("Scharniere, Schrauben", "psch", (390, 1890)), ("Türdrücker-Garnitur", "Stk", (1990, 4990))),
}
SUPPLIERS = (("Stadtwerke Auenfeld GmbH", "Stadtwerke Auenfeld"), ("Lichtblau Energie AG", "LICHTBLAU ENERGIE"),
             ("Voltaria Strom & Gas GmbH", "voltaria"), ("Energieversorgung Mittelland eG", "EVM eG"))
AGENTS = ("Immobilien Sternberg GmbH", "Wohnkontor Hagedorn Immobilien", "Maklerbüro Lenz & Kiefer GmbH",
          "Albrecht Immobilienvermittlung e.K.")
OBJECTS = ("Eigentumswohnung, 3 Zimmer, 2. OG", "Einfamilienhaus mit Garage", "Reihenmittelhaus",
           "Doppelhaushälfte", "Eigentumswohnung mit Tiefgaragenstellplatz")


def invoice_day(rng: random.Random) -> date:
    return date(2026, rng.randint(1, 10), rng.randint(1, 28))


def euros(cents: int) -> Decimal:
    return fake.money(Decimal(cents) / 100)


def hours(value: Decimal) -> str:
    """"6,5" or "2": hours as a craftsman writes them."""
    return str(int(value)) if value == value.to_integral() else f"{value:.2f}".rstrip("0").replace(".", ",")


def percent(value: Decimal) -> str:
    """"3,57", "2,975" or "3": a rate as an agent prints it."""
    text = f"{value.normalize():f}"
    return text.rstrip("0").rstrip(".").replace(".", ",") if "." in text else text


@layout("invoice", "L13", DEVELOPMENT)
def labour_and_material(rng: random.Random, spec: Spec) -> Draft:
    """A craftsman's bill with labour and material apart: a top bar with the company name and a slogan,
    the facts as a grid of boxes with the labels above the values (Rechnungs-Nr. | Kunden-Nr. | Datum),
    "Rechnung" alone as the heading and "Einsatzort", then "Lohnkosten" (Arbeitszeit "6,5 Std." per
    worker, an Anfahrtspauschale) and "Materialkosten" each with its own "Zwischensumme", then
    "Nettobetrag" / "19 % USt." / "Gesamtbetrag", the § 35a EStG labour share and "Zahlbar innerhalb
    14 Tagen ohne Abzug". A one-man household service (Kleinunternehmer) prints no VAT: "Gesamtbetrag"
    alone and "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet"."""
    small = rng.random() < 0.4
    issuer = rng.choice(SMALL_TRADES if small else MASTERS)
    street, city = fake._address(rng)
    client = fake.person(rng)
    day = invoice_day(rng)
    done = day - timedelta(days=rng.randint(1, 9))
    rate = euros(rng.randrange(3800, 5200) if small else rng.randrange(5400, 7900))
    labour = []
    for worker in rng.sample(LABOUR, 1 if small else rng.randint(1, 2)):
        spent = Decimal(rng.randrange(2, 19)) / 2
        labour.append((f"Arbeitszeit {worker}" if not small else "Arbeitszeit", spent, rate if small else
                       rate + (euros(900) if worker == "Meister" else Decimal(0))))
    travel = euros(rng.choice((2500, 3500, 3900, 4500)))
    goods = MATERIAL[issuer.split()[0]]
    material = []
    for item, unit, (low, high) in rng.sample(goods, rng.randint(1, len(goods))):
        count = Decimal(1) if unit == "psch" else (Decimal(rng.randint(1, 6)) if unit in ("Stk", "Sack")
                                                   else Decimal(rng.randrange(20, 300)) / 10)
        material.append((item, count, unit, euros(rng.randrange(low, high))))
    labour_sum = sum((fake.money(q * p) for _, q, p in labour), Decimal(0)) + travel
    material_sum = sum((fake.money(q * p) for _, q, _, p in material), Decimal(0))
    net = labour_sum + material_sum
    tax = Decimal("0.00") if small else fake.money(net * VAT_RATE / 100)
    total = net + tax
    number = rng.choice((f"RE{day:%y}{rng.randint(1000, 9999)}", f"{rng.randint(100, 999)}/{day.year}",
                         f"{day.year}{rng.randint(1000, 9999)}"))
    s = Sheet(rng.choice(("helvetica", "dejavu", "dejavu-condensed")), f"Rechnung {number}")
    s.box(0, 0, 210, 26, width=0, shade=0.88)
    s.text(20, 14, issuer, 16, bold=True)
    s.text(20, 21, rng.choice(("Ihr Partner rund ums Haus", "Meisterbetrieb der Innung", "Zuverlässig · sauber · "
                                                                                            "pünktlich")), 9)
    contact = (street, city, f"Tel. 0{rng.randint(200, 999)} / {rng.randint(10000, 999999)}",
               f"info@{issuer.split()[0].lower().replace('ä', 'ae')}-{rng.randint(1, 99)}.de")
    s.lines(150, 10, contact, 8, leading=3.7)
    s.text(20, 46, f"{issuer}, {street}, {city}", 7)
    s.lines(20, 52, fake.window(client), 10, leading=4.6)
    boxes = (("Rechnungs-Nr.", number), ("Kunden-Nr.", str(rng.randint(1000, 9999))),
             ("Datum", fake.day(day, rng.choice(("dmy", "dmy", "short")))))
    for index, (label, value) in enumerate(boxes):
        x = 115 + index * 25
        s.box(x, 50, 25, 12, width=0.3)
        s.text(x + 2, 54, label, 7)
        s.text(x + 2, 59.5, value, 9, bold=True)
    s.text(20, 90, "Rechnung", 15, bold=True)
    s.text(20, 97, f"Einsatzort: {client.street}, {client.city}", 9.5)
    s.text(20, 102, f"Leistungsdatum: {fake.day(done)}", 9.5)
    widths, aligns = (80, 22, 18, 25, 25), ("left", "right", "left", "right", "right")
    y = 114
    s.text(20, y, "Lohnkosten", 10, bold=True)
    rows = [("Bezeichnung", "Menge", "Einh.", "Preis", "Betrag")]
    rows += [(item, hours(q), "Std.", fake.amount(p), fake.amount(fake.money(q * p))) for item, q, p in labour]
    rows.append(("Anfahrtspauschale", "1", "psch", fake.amount(travel), fake.amount(travel)))
    y = s.table(20, y + 6, widths, rows, size=8.5, leading=5, aligns=aligns)
    s.text(120, y, "Zwischensumme Lohn", 8.5, bold=True)
    s.text(189, y, fake.amount(labour_sum), 8.5, bold=True, align="right")
    y += 9
    s.text(20, y, "Materialkosten", 10, bold=True)
    rows = [("Bezeichnung", "Menge", "Einh.", "Preis", "Betrag")]
    rows += [(item, hours(q), unit, fake.amount(p), fake.amount(fake.money(q * p))) for item, q, unit, p in material]
    y = s.table(20, y + 6, widths, rows, size=8.5, leading=5, aligns=aligns)
    s.text(120, y, "Zwischensumme Material", 8.5, bold=True)
    s.text(189, y, fake.amount(material_sum), 8.5, bold=True, align="right")
    y += 8
    s.rule(120, y - 3, 190, 0.6)
    if small:
        sums = (("Gesamtbetrag", total, True),)
    else:
        sums = (("Nettobetrag", net, False), (f"{VAT_RATE} % USt.", tax, False), ("Gesamtbetrag", total, True))
    for label, value, bold in sums:
        s.text(120, y + 1, label, 10, bold)
        s.text(189, y + 1, fake.amount(value, "de_euro"), 10, bold, align="right")
        y += 5.5
    y += 5
    if small:
        s.text(20, y, "Gemäß § 19 UStG wird keine Umsatzsteuer berechnet (Kleinunternehmerregelung).", 8.5)
        y += 5
    share = labour_sum if small else fake.money(labour_sum * (100 + VAT_RATE) / 100)
    s.text(20, y, f"Für die Steuerermäßigung nach § 35a EStG: enthaltene Lohn- und Fahrtkosten "
                  f"{fake.amount(share, 'de_euro')}{'' if small else ' (inkl. USt.)'}.", 8.5)
    s.text(20, y + 8, rng.choice(("Zahlbar innerhalb 14 Tagen ohne Abzug.", "Zahlbar innerhalb von 14 Tagen "
                                                                            "nach Rechnungseingang ohne Abzug.")), 9.5)
    s.text(20, y + 13, "Vielen Dank für Ihren Auftrag!", 9.5)
    account = fake.iban(rng)
    bank = rng.choice(fake.BANKS)
    s.rule(20, 275, 190, 0.2)
    s.text(20, 279, f"{issuer} · {street} · {city}", 7)
    s.text(20, 282.5, f"{bank[0]} · IBAN {fake.iban_spaced(account)} · BIC {bank[2]}", 7)
    s.text(20, 286, f"Steuernummer {fake.tax_number(rng)}" + ("" if small else
                                                            f" · USt-IdNr. DE{rng.randint(100000000, 999999999)}"), 7)
    # A Kleinunternehmer's bill charges no VAT: its net is its total and its VAT nought, printed or not.
    truth = {"issuer": issuer, "number": number, "date": day.isoformat(), "net": f"{net:.2f}", "tax": f"{tax:.2f}",
             "total": f"{total:.2f}", "currency": "EUR"}
    return Draft(s.pdf(), truth, client.name)


@layout("invoice", "L14", DEVELOPMENT)
def annual_energy_bill(rng: random.Random, spec: Spec) -> Draft:
    """An energy supplier's annual bill ("Jahresabrechnung Strom"): the brand as a logo, a facts
    column (Kundennummer, Vertragskonto, Rechnungsnummer, "Datum"), "Ihre Jahresabrechnung" with the
    Abrechnungszeitraum of twelve months, the meter reading (Zählerstand alt / neu, kWh), Arbeitspreis
    in ct/kWh and Grundpreis per month, "Summe netto" / "Umsatzsteuer 19 %" / "Rechnungsbetrag brutto"
    (the invoice's total: what the year cost), then the advance payments already made ("abzüglich
    geleistete Abschläge") and the balance as "Nachzahlung" or "Guthaben" in bold, the new monthly
    Abschlag and its first due date."""
    issuer, brand = rng.choice(SUPPLIERS)
    street, city = fake._address(rng)
    client = fake.person(rng)
    day = invoice_day(rng)
    end = fake.month_last(day.replace(day=1) - timedelta(days=rng.randint(10, 40)))
    following = end + timedelta(days=1)
    start = following.replace(year=following.year - 1)  # twelve months up to the end
    old_reading = rng.randint(10000, 80000)
    used = rng.randint(1400, 4800)
    cents = Decimal(rng.randrange(2790, 3890)) / 100  # ct/kWh net
    work = fake.money(used * cents / 100)
    base_month = euros(rng.randrange(890, 1590))
    base = fake.money(base_month * 12)
    metering = euros(rng.choice((2000, 2400, 3000)))
    net = work + base + metering
    tax = fake.money(net * VAT_RATE / 100)
    total = net + tax
    advance = fake.money((total / 12) * Decimal(rng.choice(("0.85", "0.92", "1.04", "1.10"))))
    advance = Decimal(int(advance))  # advances are whole euros
    paid = advance * 12
    balance = total - paid
    number = rng.choice((f"{rng.randint(300000000000, 399999999999)}", f"JA-{end.year}-{rng.randint(100000, 999999)}"))
    style = rng.choice(("de_euro", "de"))
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Jahresabrechnung")
    s.text(20, 22, brand, 20, bold=True)
    s.text(20, 44, f"{issuer} · {street} · {city}", 6.5)
    s.lines(20, 51, fake.window(client), 10, leading=4.6)
    facts = (("Kundennummer", str(rng.randint(1000000, 9999999))),
             ("Vertragskonto", str(rng.randint(800000000, 899999999))),
             ("Rechnungsnummer", number), ("Datum", fake.day(day)),
             ("Zählernummer", f"1ESY{rng.randint(1000000000, 9999999999)}"))
    for index, (label, value) in enumerate(facts):
        s.text(125, 44 + index * 4.5, label, 8)
        s.text(190, 44 + index * 4.5, value, 8, align="right")
    s.text(20, 86, "Ihre Jahresabrechnung Strom", 14, bold=True)
    s.text(20, 93, f"Abrechnungszeitraum: {fake.day(start)} bis {fake.day(end)}", 9.5)
    s.text(20, 98, f"Lieferstelle: {client.street}, {client.city}", 9.5)
    y = s.table(20, 108, (45, 35, 35, 35, 20), [
        ("Zähler", "Stand alt", "Stand neu", "Verbrauch", "Art"),
        (f"{fake.day(start)}–{fake.day(end, 'short')}", f"{old_reading:,}".replace(",", "."),
         f"{old_reading + used:,}".replace(",", "."), f"{used:,} kWh".replace(",", "."), "abgelesen")],
        size=8.5, leading=5, aligns=("left", "right", "right", "right", "left"))
    y += 5
    s.text(20, y, "Ihre Kosten im Abrechnungszeitraum", 10, bold=True)
    rows = [("Position", "Menge", "Preis", "Betrag netto"),
            ("Arbeitspreis", f"{used:,} kWh".replace(",", "."), f"{cents:.2f} ct/kWh".replace(".", ","),
             fake.amount(work, style)),
            ("Grundpreis", "12 Monate", f"{fake.amount(base_month)} €/Monat", fake.amount(base, style)),
            ("Messstellenbetrieb", "1 Jahr", fake.amount(metering), fake.amount(metering, style))]
    y = s.table(20, y + 6, (70, 35, 40, 25), rows, size=8.5, leading=5.2, aligns=("left", "right", "right", "right"))
    y += 3
    for label, value, bold in (("Summe netto", net, False), (f"Umsatzsteuer {VAT_RATE} %", tax, False),
                               (rng.choice(("Rechnungsbetrag brutto", "Gesamtbetrag brutto", "Rechnungsbetrag")),
                                total, True),
                               (f"abzüglich geleistete Abschläge (12 x {fake.amount(advance)} €)", -paid, False)):
        s.text(21, y, label, 9.5, bold)
        s.text(189, y, fake.amount(value, style), 9.5, bold, align="right")
        y += 5.5
    s.rule(110, y - 3.5, 190, 0.4)
    owed = balance > 0
    s.text(21, y + 1, "Nachzahlung" if owed else "Ihr Guthaben", 11, bold=True)
    s.text(189, y + 1, fake.amount(abs(balance), style), 11, bold=True, align="right")
    y += 12
    new_advance = Decimal(int(total / 12) + 1)
    first_due = (end + timedelta(days=20)).replace(day=15)
    if owed:
        s.text(20, y, f"Die Nachzahlung buchen wir am {fake.day(day + timedelta(days=14))} von Ihrem Konto ab.", 9)
    else:
        s.text(20, y, "Ihr Guthaben erstatten wir in den nächsten Tagen auf Ihr Konto.", 9)
    s.text(20, y + 5, f"Ihr neuer monatlicher Abschlag: {fake.amount(new_advance, 'de_euro')}, erstmals fällig am "
                      f"{fake.day(first_due)}.", 9)
    s.rule(20, 276, 190, 0.2)
    register = f"Amtsgericht {city.split(' ', 1)[1]} HRB {rng.randint(1000, 99999)}"
    s.text(20, 280, f"{issuer} · {street} · {city} · {register}", 6.5)
    s.text(20, 283.5, f"USt-IdNr. DE{rng.randint(100000000, 999999999)} · Gläubiger-ID "
                      f"DE{rng.randint(10, 99)}ZZZ0000{rng.randint(1000000, 9999999)}", 6.5)
    truth = {"issuer": issuer, "number": number, "date": day.isoformat(), "net": f"{net:.2f}",
             "tax": f"{tax:.2f}", "total": f"{total:.2f}", "currency": "EUR"}
    return Draft(s.pdf(), truth, client.name)


@layout("invoice", "L15", DEVELOPMENT)
def agent_commission(rng: random.Random, spec: Spec) -> Draft:
    """An estate agent's commission invoice: a serif letter, the agent's name centred at the top, the
    client in the window, "Ort, den 2. November 2026" over the heading "Provisionsrechnung Nr. 2026/041"
    (or "Rechnung über Maklercourtage"), the property and the notary's deed ("Kaufvertrag vom ...,
    UR-Nr. ..."), the purchase price (by far the largest amount on the page), "Maklercourtage 3,57 %
    inkl. MwSt." worked out as the net commission, "zzgl. 19 % MwSt." and "Rechnungsbetrag", the due
    date and a sentence repeating the amount."""
    issuer = rng.choice(AGENTS)
    street, city = fake._address(rng)
    client = fake.person(rng)
    day = invoice_day(rng)
    deed = day - timedelta(days=rng.randint(3, 20))
    price = Decimal(rng.randrange(180, 980)) * 1000
    gross_rate = rng.choice((Decimal("3.57"), Decimal("2.38"), Decimal("2.975")))
    net_rate = fake.money(gross_rate / Decimal("1.19") * 100) / 100
    net = fake.money(price * net_rate / 100)
    tax = fake.money(net * VAT_RATE / 100)
    total = net + tax
    number = rng.choice((f"{day.year}/{rng.randint(1, 199):03d}", f"PR-{rng.randint(1000, 9999)}"))
    rate_text, net_rate_text = percent(gross_rate), percent(net_rate)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Provisionsrechnung")
    s.text(105, 20, issuer, 15, bold=True, align="center")
    s.text(105, 26, f"{street} · {city} · Tel. 0{rng.randint(200, 999)} {rng.randint(100000, 999999)}", 8,
           align="center")
    s.rule(20, 30, 190, 0.4)
    s.text(20, 46, f"{issuer} · {street} · {city}", 6.5)
    s.lines(20, 52, fake.window(client), 10.5, leading=4.8)
    town = city.split(" ", 1)[1]
    s.text(190, 82, f"{town}, den {fake.day(day, rng.choice(('long_de', 'dmy')))}", 10, align="right")
    heading = rng.choice((f"Provisionsrechnung Nr. {number}", f"Rechnung über Maklercourtage – Nr. {number}"))
    s.text(20, 94, heading, 12.5, bold=True)
    s.text(20, 101, f"Objekt: {rng.choice(OBJECTS)}, {rng.choice(fake.STREETS)} {rng.randint(1, 90)}, "
                    f"{rng.choice(fake.CITIES)[1]}", 10)
    s.text(20, 106, f"Kaufvertrag vom {fake.day(deed)}, UR-Nr. {rng.randint(100, 2999)}/{day.year} "
                    f"(Notar Dr. {rng.choice(('Kessler', 'Borchardt', 'Ulmer'))})", 10)
    title = "Sehr geehrte" + ("" if fake.salutation(client) == "Frau" else "r")
    s.text(20, 116, f"{title} {fake.salutation(client, 'nominative')} {client.family},", 10)
    s.text(20, 122, "für unsere erfolgreiche Nachweis- und Vermittlungstätigkeit berechnen wir Ihnen gemäß "
                    "Maklervertrag:", 10)
    y = 134
    rows = ((f"Kaufpreis", fake.amount(price, "de_euro"), False),
            (f"Maklercourtage {rate_text} % inkl. MwSt. (netto {net_rate_text} %)", "", False),
            (f"Courtage netto ({net_rate_text} % aus {fake.amount(price, 'de_euro')})", fake.amount(net, "de_euro"),
             False),
            (f"zzgl. {VAT_RATE} % MwSt.", fake.amount(tax, "de_euro"), False),
            ("Rechnungsbetrag", fake.amount(total, "de_euro"), True))
    for label, value, bold in rows:
        if label == "Rechnungsbetrag":
            s.rule(120, y - 4, 190, 0.4)
        s.text(20, y, label, 10, bold)
        if value:
            s.text(189, y, value, 10, bold, align="right")
        y += 6.5
    due = day + timedelta(days=rng.choice((10, 14, 30)))
    y += 6
    s.text(20, y, f"Bitte überweisen Sie den Betrag von {fake.amount(total, 'de_euro')} bis zum {fake.day(due)} "
                  f"unter Angabe der Rechnungsnummer.", 10)
    s.text(20, y + 6, "Die Courtage ist mit Abschluss des notariellen Kaufvertrags verdient und fällig.", 10)
    s.text(20, y + 16, "Mit freundlichen Grüßen", 10)
    s.text(20, y + 28, issuer, 10)
    account = fake.iban(rng)
    bank = rng.choice(fake.BANKS)
    s.rule(20, 276, 190, 0.2)
    s.text(105, 280, f"Geschäftsführung: {rng.choice(('A. Sternberg', 'K. Hagedorn', 'M. Lenz', 'P. Albrecht'))} · "
                     f"Amtsgericht {town} HRB {rng.randint(1000, 99999)} · Erlaubnis nach § 34c GewO", 6.5,
           align="center")
    s.text(105, 283.5, f"{bank[0]} · IBAN {fake.iban_spaced(account)} · BIC {bank[2]} · USt-IdNr. "
                       f"DE{rng.randint(100000000, 999999999)}", 6.5, align="center")
    truth = {"issuer": issuer, "number": number, "date": day.isoformat(), "net": f"{net:.2f}",
             "tax": f"{tax:.2f}", "total": f"{total:.2f}", "currency": "EUR"}
    return Draft(s.pdf(), truth, client.name)
