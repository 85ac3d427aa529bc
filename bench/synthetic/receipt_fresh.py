"""Till receipts, fresh development layouts (added 2026-12-01, a second round): a DIY store's slip
with article numbers, a discount line and the card terminal's slip; a restaurant bill with a
"Bewirtungsbeleg" and its tip line.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from datetime import date, time
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic.receipt import MONOSPACE, Sale, Slip, euro

DIY_STORES = (("WERKHOF", "Bau- und Gartenmarkt"), ("HOLZ-HAUS", "Baumarkt & Holzfachhandel"),
              ("TOOLPARK", "Heimwerkermarkt"))
DIY_GOODS = (("Spax Schrauben 4x40 200St", 19), ("Wandfarbe weiß 10l", 19), ("Abdeckvlies 1x25m", 19),
             ("Silikon sanitär transp.", 19), ("Dübel 8mm 100St", 19), ("Kantholz 44x68 2,5m", 19),
             ("Blumenerde 40l", 19), ("Lavendel im Topf", 7), ("Malerrolle 25cm", 19), ("LED Birne E27", 19),
             ("Rasensamen 1kg", 7), ("Kreppband 50m", 19))
RESTAURANTS = ("Gasthaus Zum Goldenen Anker", "Trattoria Da Marco", "Brauhaus Lindenhof", "Restaurant Olivenhain")
DISHES = (("Wiener Schnitzel", 7), ("Pizza Margherita", 7), ("Spaghetti Carbonara", 7), ("Salat der Saison", 7),
          ("Rinderroulade", 7), ("Tiramisu", 7), ("Flammkuchen", 7), ("Espresso", 19), ("Pils 0,4l", 19),
          ("Apfelschorle 0,5l", 19), ("Grauburgunder 0,2l", 19), ("Mineralwasser 0,75l", 19))
MENU_PRICES = {19: (25, 75), 7: (65, 289)}  # drinks and food, in ten cents
WAITERS = ("Maria", "Jonas", "Elif", "Tomasz", "Sandra")
WEEKDAYS = ("Mo", "Di", "Mi", "Do", "Fr", "Sa", "So")


def sale_day(rng: random.Random) -> tuple[date, time]:
    return (date(2026, rng.randint(1, 10), rng.randint(1, 28)),
            time(rng.randint(8, 21), rng.randint(0, 59), rng.randint(0, 59)))


def cash_for(total: Decimal) -> Decimal:
    """The note (or notes) a customer hands over for the total."""
    for note in (Decimal(5), Decimal(10), Decimal(20), Decimal(50), Decimal(100)):
        if note >= total:
            return note
    return (total // 50 + 1) * 50


@layout("receipt", "L10", DEVELOPMENT)
def diy_store(rng: random.Random, spec: Spec) -> Draft:
    """A DIY store's slip: the brand and a line of what it is on top, an article number before each item,
    quantities "2 Stk x 3,49" under it, a discount as a negative line, "SUMME EUR", cash ("Bar" /
    "Rückgeld") or girocard, a "MwSt-Satz Netto MwSt Brutto" table, "Datum 12.10.2026 Uhrzeit 14:23",
    "Markt / Kasse / Bon / Bed." in one line, the customer's trade card; paid by card, the terminal's
    "Kundenbeleg" with "Betrag EUR 45,67" follows."""
    brand, kind = rng.choice(DIY_STORES)
    street, city = fake._address(rng)
    day, at = sale_day(rng)
    goods = rng.sample(DIY_GOODS, rng.randint(3, 7))
    items = [(name, rng.choice((1, 1, 2, 3, 4)), fake.money(Decimal(rng.randrange(129, 4999)) / 100), rate)
             for name, rate in goods]
    discounted = rng.random() < 0.6
    if discounted:
        name, q, p, rate = items[0]
        items.append((f"Rabatt 10% {name[:12]}", 1, -fake.money(q * p / 10), rate))
    card = rng.random() < 0.5
    number = str(rng.randint(1000, 9999))
    total = sum((q * p for _, q, p, _ in items), Decimal("0"))
    s = Sale(brand, street, city, tuple(items), day, at, number, None if card else cash_for(total))
    font = rng.choice((*MONOSPACE, "DejaVuSansCondensed"))
    slip = Slip(rng, spec, "Kassenbon", 34 + 2 * len(items) + (12 if card else 0), font=font,
                size=rng.choice((7.5, 8.0)))
    slip.line(brand, bold=True, centre=True)
    slip.line(kind, centre=True)
    slip.line(street, centre=True)
    slip.line(city, centre=True)
    slip.line(f"Tel. 0{rng.randint(200, 999)} {rng.randint(10000, 99999)}", centre=True)
    slip.rule()
    slip.pair("Art.-Nr. Bezeichnung", "EUR")
    letters = {19: "A", 7: "B"}
    for name, q, p, rate in items:
        if p < 0:
            slip.pair(name, f"{euro(p)} {letters[rate]}")
            continue
        article = f"{rng.randint(1000000, 9999999)}"
        if q > 1:
            slip.line(f"{article} {name}")
            slip.pair(f"   {q} Stk x {euro(p)}", f"{euro(q * p)} {letters[rate]}")
        else:
            slip.pair(f"{article} {name[:22]}", f"{euro(p)} {letters[rate]}")
    slip.rule()
    slip.pair("SUMME EUR", euro(s.total), bold=True)
    if card:
        slip.pair("girocard", euro(s.total))
    else:
        slip.pair("Bar", euro(s.cash))
        slip.pair("Rückgeld", euro(s.change))
    slip.line()
    slip.line("MwSt-Satz    Netto   MwSt  Brutto")
    for rate, net, vat, gross in s.by_rate():
        slip.line(f"{letters[rate]} {rate:>2},0%  {euro(net):>8} {euro(vat):>6} {euro(gross):>7}")
    slip.line()
    slip.line(f"Datum {s.day:%d.%m.%Y}  Uhrzeit {s.at:%H:%M}")
    slip.line(f"Markt {rng.randint(100, 999)} Kasse {rng.randint(1, 12):02d} Bon {number} Bed. {rng.randint(10, 99)}")
    buyer = fake.person(rng)
    slip.line(f"PROFI-Karte: {buyer.plain}")
    slip.line("Umtausch nur mit Kassenbon", centre=True)
    if card:
        slip.rule("*")
        slip.line("Kundenbeleg", centre=True)
        slip.line("Kartenzahlung", centre=True)
        slip.line("girocard", centre=True)
        slip.pair("Terminal-ID", str(rng.randint(10000000, 99999999)))
        slip.pair("Beleg-Nr.", str(rng.randint(1000, 9999)))
        slip.pair("Genehmigungs-Nr.", str(rng.randint(100000, 999999)))
        slip.pair(f"{s.day:%d.%m.%Y}", f"{s.at:%H:%M} Uhr")
        slip.pair("Betrag", f"EUR {euro(s.total)}", bold=True)
        slip.line("Zahlung erfolgt", centre=True)
    return slip.draft({"issuer": s.shop, "number": number, "date": day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, buyer)


@layout("receipt", "L11", DEVELOPMENT)
def restaurant_bill(rng: random.Random, spec: Spec) -> Draft:
    """A restaurant's bill: "Rechnung Nr. 4711  Tisch 12", the waiter, a weekday before a short date
    ("Sa 12.10.26 20:41"), items "2 x Pils 0,4l à 4,20", food at 7% and drinks at 19% (2026), "Summe
    54,30 €", VAT lines "MwSt 7% auf 38,50: 2,52", paid by card ("Kartenzahlung VISA") or "Bar"; under it
    the Bewirtungsbeleg form with the host's name, an unfilled "Trinkgeld" and "Gesamtbetrag" line. The
    bill's total is its Summe: the tip is the guest's extra, not part of the sale."""
    restaurant = rng.choice(RESTAURANTS)
    street, city = fake._address(rng)
    day, at = sale_day(rng)
    at = at.replace(hour=rng.randint(12, 22))
    picks = rng.sample(DISHES, rng.randint(2, 6))
    items = tuple((name, rng.choice((1, 1, 1, 2, 3)), Decimal(rng.randrange(*MENU_PRICES[rate])) / 10, rate)
                  for name, rate in picks)
    total = sum((q * p for _, q, p, _ in items), Decimal("0"))
    card = rng.random() < 0.6
    number = str(rng.randint(100, 99999))
    s = Sale(restaurant, street, city, items, day, at, number, None if card else cash_for(total))
    font = rng.choice(("DejaVuSansCondensed", "DejaVuSans", "Courier"))
    slip = Slip(rng, spec, "Rechnung", 44 + len(items), font=font, size=rng.choice((7.5, 8.0)))
    slip.line(restaurant, bold=True, centre=True)
    slip.line(street, centre=True)
    slip.line(city, centre=True)
    slip.line(f"St.-Nr. {fake.tax_number(rng)}", centre=True)
    slip.line()
    slip.pair(f"Rechnung Nr. {number}", f"Tisch {rng.randint(1, 40)}")
    slip.pair(f"Bedienung: {rng.choice(WAITERS)}", f"{WEEKDAYS[day.weekday()]} {day:%d.%m.%y} {at:%H:%M}")
    slip.rule("=")
    for name, q, p, _ in items:
        if q > 1:
            slip.pair(f"{q} x {name} à {euro(p)}", euro(q * p))
        else:
            slip.pair(f"{q} x {name}", euro(p))
    slip.rule("=")
    slip.pair("Summe", f"{euro(s.total)} €", bold=True)
    slip.line()
    for rate, net, vat, gross in s.by_rate():
        slip.pair(f"MwSt {rate}% auf {euro(gross)}", euro(vat))
    slip.pair("Nettobetrag", euro(s.net))
    slip.line()
    if card:
        slip.pair(f"Kartenzahlung {rng.choice(('VISA', 'Mastercard', 'girocard'))}", f"{euro(s.total)} €")
    else:
        slip.pair("Bar gegeben", f"{euro(s.cash)} €")
        slip.pair("Rückgeld", f"{euro(s.change)} €")
    slip.line()
    slip.line("Vielen Dank für Ihren Besuch!", centre=True)
    slip.rule("-")
    slip.line("Bewirtungsbeleg", bold=True, centre=True)
    slip.line("(§ 4 Abs. 5 Nr. 2 EStG)", centre=True)
    host = fake.person(rng)
    slip.line(f"Bewirtende Person: {host.plain}")
    slip.line("Bewirtete Personen: ____________")
    slip.line("Anlass: ________________________")
    slip.line("Trinkgeld:       ________ EUR")
    slip.line("Gesamtbetrag:    ________ EUR")
    slip.line("Ort, Datum: ____________________")
    slip.line("Unterschrift: __________________")
    return slip.draft({"issuer": restaurant, "number": number, "date": day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, host)
