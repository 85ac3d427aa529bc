"""Till receipts (Kassenbons) from German shops, development layouts.

A slip is a narrow monospace column laid on an A4 copy, as a receipt scanned for the file would
be; photographed, it lies turned a few degrees. The till's figures are consistent: the total is
the sum of the items, the VAT table's gross column sums to the total, cash minus change is the
total.
"""
import random
from dataclasses import dataclass
from datetime import date, time
from decimal import Decimal

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import DEJAVU, Sheet
from bench.synthetic.id_document import Card

GROCERIES = (("Vollmilch 3,5%", 7), ("Bio Bananen", 7), ("Roggenbrot", 7), ("Gouda jung", 7), ("Kaffee Crema", 7),
             ("Spülmittel", 19), ("Mineralwasser", 19), ("Tomaten Rispe", 7), ("Butter", 7), ("Zahnpasta", 19),
             ("Eier Freiland 10St", 7), ("Apfelsaft", 19), ("Nudeln Penne", 7), ("Toilettenpapier", 19))
PHARMACY = (("Ibuprofen 400 20St", 19), ("Nasenspray", 19), ("FFP2 Maske", 19), ("Vitamin D3", 19),
            ("Halstabletten", 19))
FUEL = (("Super E10", 19), ("Diesel", 19), ("Car Wash Premium", 19), ("Coffee to go", 19), ("Snack bar", 7))
SHOPS = {"grocer": (("Frischmarkt Sonnenhof GmbH", "Sonnenhof"), ("NAHKAUF Weber oHG", "NAHKAUF"),
                    ("Biomarkt Lindenblatt", "Lindenblatt")),
         "pharmacy": (("Apotheke am Rathaus", "Apotheke"), ("Linden-Apotheke", "Apotheke"),
                      ("Stern Apotheke", "Apotheke")),
         "fuel": (("Autohof Weserbergland", "Autohof"), ("Tankstelle Nordring", "Station"),
                  ("Rastanlage Elbtal", "Rast"))}


@dataclass(frozen=True)
class Sale:
    shop: str
    street: str
    city: str
    items: tuple[tuple[str, int, Decimal, int], ...]  # name, quantity, unit price, VAT rate
    day: date
    at: time
    number: str
    cash: Decimal | None  # handed over; None when paid by card

    @property
    def total(self) -> Decimal:
        return sum((q * p for _, q, p, _ in self.items), Decimal("0"))

    def by_rate(self) -> list[tuple[int, Decimal, Decimal, Decimal]]:
        """(rate, net, VAT, gross) per VAT rate, as a till's VAT table prints them."""
        out = []
        for rate in sorted({r for *_, r in self.items}, reverse=True):
            gross = sum((q * p for _, q, p, r in self.items if r == rate), Decimal("0"))
            vat = fake.money(gross * rate / (100 + rate))
            out.append((rate, gross - vat, vat, gross))
        return out

    @property
    def tax(self) -> Decimal:
        return sum((vat for _, _, vat, _ in self.by_rate()), Decimal("0"))

    @property
    def net(self) -> Decimal:
        return self.total - self.tax

    @property
    def change(self) -> Decimal | None:
        return None if self.cash is None else self.cash - self.total


def sale(rng: random.Random, kind: str, goods, count: tuple[int, int] = (3, 9), card: bool | None = None) -> Sale:
    shop = rng.choice(SHOPS[kind])[0]
    street, city = fake._address(rng)
    picks = rng.sample(goods, min(len(goods), rng.randint(*count)))
    items = tuple((name, rng.choice((1, 1, 1, 2, 3)), fake.money(Decimal(rng.randrange(49, 2999)) / 100), rate)
                  for name, rate in picks)
    day = date(2026, rng.randint(1, 10), rng.randint(1, 28))
    at = time(rng.randint(7, 21), rng.randint(0, 59), rng.randint(0, 59))
    total = sum((q * p for _, q, p, _ in items), Decimal("0"))
    card = rng.random() < 0.5 if card is None else card
    # Cash handed over: the smallest note that covers the total, or enough fifties for a big shop.
    cash = None if card else next((n for n in (Decimal(5), Decimal(10), Decimal(20), Decimal(50), Decimal(100),
                                               Decimal(200)) if n >= total), (total // 50 + 1) * 50)
    return Sale(shop, street, city, items, day, at, str(rng.randint(1000, 99999)), cash)


def euro(value: Decimal) -> str:
    return fake.amount(value)


MONOSPACE = ("Courier", "DejaVuSansMono")


class Slip:
    """A till slip: lines of monospace text in a column `width` characters wide."""

    def __init__(self, rng: random.Random, spec: Spec, title: str, lines_expected: int = 40, font: str = "Courier",
                 size: float = 8.0):
        self.sheet = Sheet("courier" if font.startswith("Courier") else "dejavu", title)
        if font.startswith("DejaVu"):
            for name in (font, font + "-Bold"):
                if name not in pdfmetrics.getRegisteredFontNames():
                    pdfmetrics.registerFont(TTFont(name, str(DEJAVU / f"{name}.ttf")))
        self.font, self.size = font, size
        self.width = 34  # characters
        self.slip_w = slip_w = self.width * size * 0.6 * 0.3528 + 8  # a monospace advance is 0.6 em; pt to mm
        slip_h = lines_expected * size * 0.3528 * 1.25 + 12
        angle = rng.uniform(-1, 1) if spec.single_page else 0.0  # the photo itself turns it 1.5-3° more
        self.card = Card(self.sheet, (slip_w, slip_h), (105, 20 + slip_h / 2), angle, 1.0)
        self.card.outline(0.985, 0.5)
        self.y = 8.0

    def line(self, text: str = "", bold: bool = False, centre: bool = False) -> None:
        if centre:
            text = text.center(self.width)
        self.card.text(4, self.y, text, self.size, self.font + ("-Bold" if bold else ""))
        self.y += self.size * 0.3528 * 1.25

    def pair(self, left: str, right: str, bold: bool = False) -> None:
        if self.font in MONOSPACE:
            self.line(left + " " * max(1, self.width - len(left) - len(right)) + right, bold)
            return
        # A proportional font: the amount flush right, as such tills print it.
        font = self.font + ("-Bold" if bold else "")
        self.card.text(4, self.y, left, self.size, font)
        self.card.text_right(self.slip_w - 4, self.y, right, self.size, font)
        self.y += self.size * 0.3528 * 1.25

    def rule(self, char: str = "-") -> None:
        self.line(char * self.width)

    def draft(self, fields: dict, customer) -> Draft:
        self.card.done()
        return Draft(pdf=self.sheet.pdf(), fields=fields, person=customer.name)


def customer(rng: random.Random, slip: Slip, label: str):
    """The client, named on the slip as a loyalty card or a hospitality receipt names them."""
    person = fake.person(rng)
    slip.line(f"{label}: {person.plain}")
    return person


def head(slip: Slip, s: Sale) -> None:
    slip.line(s.shop, bold=True, centre=True)
    slip.line(s.street, centre=True)
    slip.line(s.city, centre=True)
    slip.line()


# --- development layouts -------------------------------------------------------------------------

@layout("receipt", "L1", DEVELOPMENT)
def supermarket(rng: random.Random, spec: Spec) -> Draft:
    """Supermarket: items with a VAT letter, SUMME, cash and Rückgeld, a VAT table with its own Summe."""
    s = sale(rng, "grocer", GROCERIES)
    slip = Slip(rng, spec, "Kassenbon", 22 + len(s.items))
    head(slip, s)
    slip.pair("", "EUR")
    letters = {19: "A", 7: "B"}
    for name, q, p, rate in s.items:
        if q > 1:
            slip.line(f"  {q} x {euro(p)}")
        slip.pair(name, f"{euro(q * p)} {letters[rate]}")
    slip.rule()
    slip.pair("SUMME", euro(s.total), bold=True)
    if s.cash is None:
        slip.pair("Kartenzahlung girocard", euro(s.total))
    else:
        slip.pair("Bar", euro(s.cash))
        slip.pair("Rückgeld", euro(s.change))
    slip.line()
    slip.line("MwSt%     MwSt   Netto  Brutto")
    for rate, net, vat, gross in s.by_rate():
        slip.line(f"{letters[rate]} {rate:>2}%  {euro(vat):>7} {euro(net):>7} {euro(gross):>7}")
    slip.line(f"Summe    {euro(s.tax):>7} {euro(s.net):>7} {euro(s.total):>7}")
    slip.line()
    slip.line(f"{s.day:%d.%m.%Y} {s.at:%H:%M}   Bon-Nr. {s.number}")
    slip.line("Vielen Dank für Ihren Einkauf!", centre=True)
    buyer = customer(rng, slip, "Kundenkarte")
    return slip.draft({"issuer": s.shop, "number": s.number, "date": s.day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, buyer)


@layout("receipt", "L2", DEVELOPMENT)
def pharmacy(rng: random.Random, spec: Spec) -> Draft:
    """Pharmacy: Kassenbon Nr on top, quantities with '*', Gesamt, card payment, enthaltene MwSt, short dates."""
    s = sale(rng, "pharmacy", PHARMACY, (1, 4), card=True)
    slip = Slip(rng, spec, "Kassenbon", 22 + 2 * len(s.items))
    head(slip, s)
    slip.line(f"Tel.: 0{rng.randint(200, 999)}/{rng.randint(10000, 99999)}")
    slip.line(f"USt-IdNr.: DE{rng.randint(100000000, 999999999)}")
    slip.line()
    slip.line(f"Kassenbon Nr: {s.number}")
    slip.rule()
    for name, q, p, _ in s.items:
        slip.line(f"{q} * {name}")
        slip.pair(f"  Einzelpreis EUR {euro(p)}", f"EUR {euro(q * p)}")
    slip.rule()
    slip.pair("Gesamt", f"EUR {euro(s.total)}", bold=True)
    slip.pair("Kartenzahlung", f"EUR {euro(s.total)}")
    slip.line()
    slip.pair("enthaltene MwSt 19%", f"EUR {euro(s.tax)}")
    slip.line()
    slip.line(f"{s.day:%d.%m.%y} {s.at:%H:%M} KAS00{rng.randint(1, 4)}")
    buyer = customer(rng, slip, "Kunde")
    slip.line("Gute Besserung!", centre=True)
    return slip.draft({"issuer": s.shop, "number": s.number, "date": s.day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}"}, buyer)


@layout("receipt", "L3", DEVELOPMENT)
def fuel_station(rng: random.Random, spec: Spec) -> Draft:
    """Motorway fuel station in English: TOTAL EUR, card payment, VAT and net lines, ISO date."""
    s = sale(rng, "fuel", FUEL, (1, 3), card=True)
    slip = Slip(rng, spec, "Receipt", 22 + len(s.items))
    head(slip, s)
    slip.line(f"Receipt No. {s.number}")
    slip.line(f"{s.day:%Y-%m-%d}  {s.at:%H:%M:%S}")
    slip.rule("=")
    for name, q, p, _ in s.items:
        slip.pair(f"{name} x{q}", euro(q * p))
    slip.rule("=")
    slip.pair("TOTAL EUR", euro(s.total), bold=True)
    slip.pair(rng.choice(("Card payment VISA", "Card Mastercard", "Debit card")), euro(s.total))
    slip.line()
    for rate, net, vat, gross in s.by_rate():
        slip.pair(f"Net {rate}%", euro(net))
        slip.pair(f"VAT {rate}%", euro(vat))
    buyer = customer(rng, slip, "Fleet card")
    slip.line("Thank you for your visit", centre=True)
    return slip.draft({"issuer": s.shop, "number": s.number, "date": s.day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR"}, buyer)


DISCOUNTERS = ("NETTO MARKT", "PENNY", "NORMA", "KAUFHAUS SPAR", "MARKTKAUF")
FUEL_BRANDS = ("Westfalen", "Aral", "Shell", "Esso", "Star", "Jet")


@layout("receipt", "L7", DEVELOPMENT)
def discounter(rng: random.Random, spec: Spec) -> Draft:
    """Discounter thermal slip: a bare EUR column head, "zu zahlen"/"SUMME EUR", cash or EC-Cash, a VAT
    table with "+" and "=" between its columns, and a foot of till, bon and 2-digit-year date numbers."""
    s = sale(rng, "grocer", GROCERIES)
    shop = rng.choice(DISCOUNTERS)
    slip = Slip(rng, spec, "Kassenbon", 24 + len(s.items), font=rng.choice(MONOSPACE), size=rng.choice((7.5, 8.0)))
    slip.line(shop, bold=True, centre=True)
    slip.line(s.street, centre=True)
    slip.line(s.city, centre=True)
    slip.pair("", "EUR")
    letters = {19: "A", 7: "B"}
    for name, q, p, rate in s.items:
        if q > 1:
            slip.pair(f"{name[:16]:16} {euro(p)} x {q}", f"{euro(q * p)} {letters[rate]}")
        else:
            slip.pair(name, f"{euro(p)} {letters[rate]}")
    slip.rule(rng.choice("-="))
    slip.pair(rng.choice(("zu zahlen", "SUMME EUR", "Zu zahlen EUR", "SUMME")), euro(s.total), bold=True)
    if s.cash is None:
        slip.pair(rng.choice(("EC-Cash", "Kartenzahlung", "girocard", "EC-Karte")), euro(s.total))
    else:
        slip.pair(rng.choice(("Bar", "BAR", "Gegeben")), euro(s.cash))
        slip.line()
        slip.pair(rng.choice(("Rückgeld", "Zurück", "RÜCKGELD EUR")), f"-{euro(s.change)}")
    slip.line()
    slip.line("MWST%   MWST +  Netto =  Brutto")
    for rate, net, vat, gross in s.by_rate():
        slip.line(f"{letters[rate]} {rate:>2} %  {euro(vat):>6}  {euro(net):>6}  {euro(gross):>6}")
    if len(s.by_rate()) > 1 or rng.random() < 0.5:
        slip.line(f"Summe   {euro(s.tax):>6}  {euro(s.net):>6}  {euro(s.total):>6}")
    slip.line()
    till = f"{rng.randint(1000, 9999)}  {s.number}/{rng.randint(1, 9):02d}"
    slip.pair(till, f"{s.day:%d.%m.%y}  {s.at:%H:%M}")
    slip.line(f"UST-ID-NR: DE{rng.randint(100000000, 999999999)}", centre=True)
    if rng.random() < 0.5:
        slip.line(f"TSE-Transaktion: {rng.randint(10000, 99999)}")
        slip.line(f"TSE-Start: {s.day:%Y-%m-%d}T{s.at:%H:%M:%S}.000")
    buyer = customer(rng, slip, "Kundenkarte")
    return slip.draft({"issuer": shop, "date": s.day.isoformat(), "total": f"{s.total:.2f}", "currency": "EUR",
                       "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, buyer)


@layout("receipt", "L8", DEVELOPMENT)
def filling_station(rng: random.Random, spec: Spec) -> Draft:
    """German filling station: Beleg-Nr. with date and time on one line, a pump line in litres and EUR/l,
    "Gesamtbetrag ... EUR", a VAT table headed Typ/Netto/MwSt/Brutto, then the card terminal's own
    slip (Kundenbeleg, "Betrag: EUR ..."), whose 4-digit date repeats the sale's."""
    litres = Decimal(rng.randrange(1500, 6500)) / 100
    per_litre = Decimal(rng.randrange(1459, 1999)) / 1000
    fuel = fake.money(litres * per_litre)
    extra = [] if rng.random() < 0.5 else [(rng.choice(("Kaffee gross", "Wischwasser", "Schokoriegel")),
                                            fake.money(Decimal(rng.randrange(150, 690)) / 100))]
    total = fuel + sum((p for _, p in extra), Decimal("0"))
    vat = fake.money(total * 19 / 119)
    brand = rng.choice(FUEL_BRANDS)
    shop = f"{brand} Tankstelle"
    street, city = fake._address(rng)
    day = date(2026, rng.randint(1, 10), rng.randint(1, 28))
    at = time(rng.randint(6, 22), rng.randint(0, 59), rng.randint(0, 59))
    number = f"{rng.randint(100, 999)}/{rng.randint(10, 99):03d}/{rng.randint(1, 999):05d}"
    slip = Slip(rng, spec, "Beleg", 40 + len(extra), font=rng.choice(MONOSPACE), size=rng.choice((7.5, 8.0)))
    slip.line(shop, bold=True, centre=True)
    slip.line(street, centre=True)
    slip.line(city, centre=True)
    slip.line(f"Tankstellen-Nr.: {rng.randint(100000, 999999):010d}")
    slip.line()
    slip.line(f"Beleg-Nr. {number} {day:%d.%m.%y} {at:%H:%M}")
    slip.line()
    slip.line(rng.choice(("Kartenzahlung", "EC-Kartenzahlung", "Zahlung mit Karte")))
    pump = rng.randint(1, 12)
    grade = rng.choice(("Super bleifrei", "Super E10", "Diesel", "Super Plus"))
    slip.pair(f"*{pump:06d} {grade}", f"{euro(fuel)} EUR A")
    slip.line(f"*Zp {pump:02d}  {euro(litres)} l  {per_litre:.3f}".replace(".", ",") + " EUR/l")
    for name, price in extra:
        slip.pair(name, f"{euro(price)} EUR A")
    slip.line()
    slip.pair(rng.choice(("Gesamtbetrag", "Summe", "Total")), f"{euro(total)} EUR", bold=True)
    slip.line()
    slip.line("Typ        Netto    MwSt   Brutto")
    slip.line(f"A:19,00%  {euro(total - vat):>7}  {euro(vat):>6}  {euro(total):>7}")
    slip.rule(".")
    slip.line("** Kundenbeleg **", centre=True)
    slip.line(rng.choice(("Kartenzahlung", "girocard", "Debit Mastercard")), centre=True)
    slip.pair(f"{day:%d.%m.%Y}", f"{at:%H:%M:%S}")
    slip.pair("Terminal-ID:", str(rng.randint(10000000, 99999999)))
    slip.pair("TA-Nr.:", str(rng.randint(100000, 999999)))
    slip.pair("Karten-Nr.:", "x" * 12 + str(rng.randint(1000, 9999)))
    slip.pair("Betrag:", f"EUR {euro(total)}")
    slip.line()
    slip.line("Zahlung erfolgt", centre=True)
    buyer = customer(rng, slip, "Fahrer")
    return slip.draft({"issuer": shop, "number": number, "date": day.isoformat(), "total": f"{total:.2f}",
                       "currency": "EUR", "tax": f"{vat:.2f}", "net": f"{total - vat:.2f}"}, buyer)
