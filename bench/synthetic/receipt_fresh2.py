"""Till receipts, fresh development layouts (added 2026-12-02, a fourth round): a petrol station's
slip of the TSE era (KassenSichV) with the pump line, a bonus-card line and the terminal's slip;
a bakery's narrow slip with very short lines, "Bar gegeben / Rückgeld" and a two-digit-year date.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import base64
import random
from datetime import date, datetime, time, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic.id_document import Card
from bench.synthetic.receipt import MONOSPACE, Sale, Slip, euro
from bench.synthetic.receipt_fresh import cash_for

STATIONS = (("Tankcenter Eichholz", "Freie Tankstelle"), ("ENERGIEPUNKT Lohmann", "Tankstelle & Shop"),
            ("Autoservice Kessler OHG", "Tankstelle · Waschstraße"), ("Tank & Rast am Kreuzberg", "Tankstelle"))
GRADES = ("Super E10", "Super E5", "Diesel", "Super Plus 98", "Diesel Premium")
SHOP_GOODS = (("Kaffee groß", 19, (259, 399)), ("Belegtes Brötchen", 7, (299, 499)), ("Scheibenreiniger 5l", 19,
              (599, 999)), ("Kaugummi", 7, (129, 249)), ("Wasser 0,5l", 19, (149, 229)), ("Autowäsche Premium", 19,
              (1290, 1790)))
BAKERIES = (("Bäckerei Kornblume", "Filiale Marktplatz"), ("Backhaus Seidel", "Café & Backstube"),
            ("Bäckerei-Konditorei Vogt", "Filiale Bahnhof"), ("Brotzeit Aumann", "Bäckerei seit 1952"))
BAKED = (("Brezel", 7, (75, 120)), ("Kaisersemmel", 7, (45, 65)), ("Croissant", 7, (120, 180)),
         ("Roggenbrot 750g", 7, (380, 520)), ("Kaffee gr.", 19, (280, 380)), ("Cappuccino", 19, (320, 420)),
         ("Apfeltasche", 7, (180, 260)), ("Mohnschnecke", 7, (190, 260)), ("Latte Macch.", 19, (360, 450)),
         ("Käsekuchen St", 19, (290, 380)))


class NarrowSlip(Slip):
    """A 58 mm till's slip: lines of `width` characters on paper as narrow as they are."""

    def __init__(self, rng: random.Random, spec: Spec, title: str, lines_expected: int, font: str, size: float,
                 width: int = 24):
        super().__init__(rng, spec, title, lines_expected, font, size)
        # The paper Slip drew for 34 characters is replaced by one of the narrow till's width.
        self.sheet = type(self.sheet)(self.sheet.family, title)
        self.width = width
        self.slip_w = slip_w = width * size * 0.6 * 0.3528 + 8
        slip_h = lines_expected * size * 0.3528 * 1.25 + 12
        angle = rng.uniform(-1, 1) if spec.single_page else 0.0
        self.card = Card(self.sheet, (slip_w, slip_h), (105, 20 + slip_h / 2), angle, 1.0)
        self.card.outline(0.985, 0.5)


def sale_day(rng: random.Random, early: bool = False) -> tuple[date, time]:
    return (date(2026, rng.randint(1, 10), rng.randint(1, 28)),
            time(rng.randint(6, 10) if early else rng.randint(6, 22), rng.randint(0, 59), rng.randint(0, 59)))


def tse_block(rng: random.Random, slip: Slip, day: date, at: time) -> None:
    """The TSE lines the KassenSichV asks for: serial, transaction, start and end in ISO, a signature
    counter and a long base64 signature wrapped over several lines."""
    started = datetime.combine(day, at) - timedelta(seconds=rng.randint(20, 140))
    slip.line("TSE-Daten:")
    slip.line(f"TSE-Seriennr.: {rng.randbytes(8).hex()}")
    slip.line(f"TSE-Transaktion: {rng.randint(100000, 999999)}")
    slip.line(f"TSE-Signaturzähler: {rng.randint(1000000, 9999999)}")
    slip.line(f"TSE-Start: {started:%Y-%m-%dT%H:%M:%S}.000")
    slip.line(f"TSE-Ende: {day:%Y-%m-%d}T{at:%H:%M:%S}.000")
    signature = base64.b64encode(rng.randbytes(48)).decode()
    slip.line("TSE-Signatur:")
    for start in range(0, len(signature), slip.width - 2):
        slip.line(signature[start:start + slip.width - 2])


@layout("receipt", "L12", DEVELOPMENT)
def petrol_station(rng: random.Random, spec: Spec) -> Draft:
    """A petrol station's slip of the TSE era: the station's name and what it is, "Zapfsäule 4" with the
    grade and "42,17 l x 1,799 EUR/l" under it, shop goods after it, "Betrag EUR" in bold as the total,
    the card payment, the VAT as "MwSt 19% = 12,12" and "Netto", "02.11.2026 07:43 Kasse 2 Bon 4711",
    a bonus card's points, the TSE block (ISO timestamps, a long signature), then the terminal's
    "Kundenbeleg" with its own number and "Betrag EUR 75,86"."""
    station, kind = rng.choice(STATIONS)
    street, city = fake._address(rng)
    day, at = sale_day(rng)
    litres = Decimal(rng.randrange(1200, 6800)) / 100
    per_litre = Decimal(rng.randrange(1599, 1999)) / 1000
    fuel = fake.money(litres * per_litre)
    pump = rng.randint(1, 10)
    grade = rng.choice(GRADES)
    extras = [(name, 1, euros(rng.randrange(*prices)), rate)
              for name, rate, prices in rng.sample(SHOP_GOODS, rng.choice((0, 0, 1, 2)))]
    items = ((f"Zapfsäule {pump} {grade}", 1, fuel, 19), *extras)
    number = str(rng.randint(1000, 99999))
    s = Sale(station, street, city, items, day, at, number, None)
    font = rng.choice((*MONOSPACE, "DejaVuSansCondensed"))
    slip = Slip(rng, spec, "Tankbeleg", 60 + 2 * len(extras), font=font, size=rng.choice((7.5, 8.0)))
    slip.line(station, bold=True, centre=True)
    slip.line(kind, centre=True)
    slip.line(f"{street}, {city}", centre=True)
    slip.line(f"St.-Nr. {fake.tax_number(rng)}", centre=True)
    slip.rule()
    slip.line(f"Zapfsäule {pump}")
    slip.pair(f"  {grade}", f"{euro(fuel)} A")
    slip.line(f"  {euro(litres)} l x {per_litre:.3f} EUR/l".replace("x 1.", "x 1,"))
    letters = {19: "A", 7: "B"}
    for name, _, price, rate in extras:
        slip.pair(name, f"{euro(price)} {letters[rate]}")
    slip.rule()
    slip.pair("Betrag EUR", euro(s.total), bold=True)
    method = rng.choice(("girocard", "Visa kontaktlos", "Mastercard", "Tankkarte"))
    slip.pair(f"Gegeben {method}", euro(s.total))
    slip.line()
    for rate, net, vat, gross in s.by_rate():
        slip.pair(f"{letters[rate]} MwSt {rate}% = {euro(vat)}", f"Netto {euro(net)}")
    slip.line()
    slip.line(f"{day:%d.%m.%Y} {at:%H:%M}  Kasse {rng.randint(1, 4)}  Bon {number}")
    if rng.random() < 0.6:
        slip.line(f"Bonuskarte: {rng.randint(10 ** 9, 10 ** 10 - 1)}")
        slip.line(f"Sie erhalten {int(s.total)} Punkte")
    slip.line()
    tse_block(rng, slip, day, at)
    slip.line()
    slip.rule("=")
    slip.line("Kundenbeleg", bold=True, centre=True)
    slip.line(method if method != "Tankkarte" else "Flottenkarte", centre=True)
    slip.pair("Terminal", str(rng.randint(10000000, 99999999)))
    slip.pair("Trace-Nr.", str(rng.randint(100, 99999)))
    slip.pair("Datum", f"{day:%d.%m.%Y} {at:%H:%M}")
    slip.pair("Betrag EUR", euro(s.total), bold=True)
    slip.line("Zahlung erfolgt", centre=True)
    driver = fake.person(rng)
    slip.line(f"Kennzeichen: {rng.choice(('B', 'M', 'HH', 'K', 'F'))}-{rng.choice('ABCDEFGH')}"
              f"{rng.choice('KLMNPRS')} {rng.randint(10, 9999)}")
    slip.line(f"Fahrer: {driver.plain}")
    return slip.draft({"issuer": station, "number": number, "date": day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, driver)


@layout("receipt", "L13", DEVELOPMENT)
def bakery(rng: random.Random, spec: Spec) -> Draft:
    """A bakery's narrow slip: very short lines (24 characters), the date first as "02.11.26 07:43",
    "Bon 3342" or "Beleg-Nr. 3342" beside the till, items "2 Brezel 1,90 B", "Summe" in bold (with or
    without EUR), "Bar gegeben" and "Rückgeld" (or a card), a VAT table "B 7%  3,08  0,22", "Außer Haus"
    or "Im Haus" and a thank-you line."""
    bakery_name, kind = rng.choice(BAKERIES)
    street, city = fake._address(rng)
    day, at = sale_day(rng, early=True)
    picks = rng.sample(BAKED, rng.randint(2, 6))
    items = tuple((name, rng.choice((1, 1, 1, 2, 2, 4, 6)), euros(rng.randrange(*prices)), rate)
                  for name, rate, prices in picks)
    total = sum((q * p for _, q, p, _ in items), Decimal(0))
    card = rng.random() < 0.3
    number = str(rng.randint(100, 9999))
    s = Sale(bakery_name, street, city, items, day, at, number, None if card else cash_for(total))
    # A thermal till's monospace font: every line fits its 24 characters.
    slip = NarrowSlip(rng, spec, "Bon", 32 + len(items), font=rng.choice(MONOSPACE), size=rng.choice((8.0, 8.5)))
    slip.line(bakery_name[:24], bold=True)
    slip.line(kind)
    slip.line(street)
    slip.line(city)
    slip.line()
    slip.pair(f"{day:%d.%m.%y} {at:%H:%M}", f"Kasse {rng.randint(1, 3)}")
    slip.line(rng.choice((f"Bon {number}", f"Beleg-Nr. {number}")))
    slip.line(f"Bediener: {rng.choice(('Anja', 'Kerstin', 'Deniz', 'Paul'))}")
    slip.rule()
    letters = {19: "A", 7: "B"}
    for name, q, p, rate in items:
        label = f"{q} {name}" if q > 1 else name
        slip.pair(label[:15], f"{euro(q * p)} {letters[rate]}")
    slip.rule()
    slip.pair(rng.choice(("Summe", "SUMME", "Summe EUR")), euro(s.total), bold=True)
    if card:
        slip.pair("EC-Karte", euro(s.total))
    else:
        slip.pair("Bar gegeben", euro(s.cash))
        slip.pair("Rückgeld", euro(s.change))
    slip.line()
    slip.line("   Satz  Netto  MwSt")
    for rate, net, vat, gross in s.by_rate():
        slip.line(f"{letters[rate]} {rate:>2}% {euro(net):>6} {euro(vat):>5}")
    slip.line()
    slip.line(rng.choice(("Außer Haus", "Außer Haus", "Im Haus")))
    guest = fake.person(rng)
    slip.line("Treuekarte:")  # a loyalty card's holder, on a line of her own: the slip is narrow
    slip.line(guest.plain[:24])
    slip.line("Danke & bis morgen!")
    if rng.random() < 0.5:
        slip.line(f"TSE-Nr. {rng.randint(10000, 99999)}")
        slip.line(f"{day:%Y-%m-%d}T{at:%H:%M:%S}")
    return slip.draft({"issuer": bakery_name, "number": number, "date": day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, guest)


def euros(cents: int) -> Decimal:
    return fake.money(Decimal(cents) / 100)
