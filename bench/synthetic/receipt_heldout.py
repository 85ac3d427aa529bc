"""Till receipts, held-out layouts: only ever measured on, never read while writing the receipt reader."""
import random

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic.receipt import GROCERIES, Slip, customer, euro, head, sale

BAKERY = (("Roggenmischbrot", 7), ("Brötchen", 7), ("Laugenbrezel", 7), ("Bienenstich", 7), ("Kaffee", 19),
          ("Cappuccino", 19), ("Apfelstrudel", 7), ("Mohnschnecke", 7))
RESTAURANT = (("Wiener Schnitzel", 19), ("Käsespätzle", 19), ("Apfelschorle 0,4", 19), ("Weißbier 0,5", 19),
              ("Tagessuppe", 19), ("Espresso", 19), ("Flammkuchen", 19), ("Salatteller", 19))
DRUGSTORE = (("Shampoo Kamille", 19), ("Zahnbürste", 19), ("Handcreme", 19), ("Waschmittel", 19),
             ("Babynahrung", 7), ("Taschentücher", 19), ("Duschgel", 19), ("Müsliriegel", 7))


@layout("receipt", "L4", HELD_OUT)
def bakery(rng: random.Random, spec: Spec) -> Draft:
    """Bakery in a proportional font: ZU ZAHLEN with €, Gegeben and Zurück, inkl. MwSt, Datum/Uhrzeit labels."""
    s = sale(rng, "grocer", BAKERY, (2, 5), card=False)
    shop = rng.choice(("Bäckerei Kornblume", "Backhaus Sonnenkorn", "Café & Bäckerei Mühlentor"))
    s = s.__class__(shop, s.street, s.city, s.items, s.day, s.at, s.number, s.cash)
    slip = Slip(rng, spec, "Beleg", 20 + len(s.items), font="Helvetica", size=8.5)
    head(slip, s)
    for name, q, p, _ in s.items:
        slip.pair(f"{q} {name}", f"{euro(q * p)} €")
    slip.line()
    slip.pair("ZU ZAHLEN", f"{euro(s.total)} €", bold=True)
    slip.pair("Gegeben", f"{euro(s.cash)} €")
    slip.pair("Zurück", f"{euro(s.change)} €")
    slip.line()
    for rate, _, vat, _ in s.by_rate():
        slip.pair(f"inkl. {rate}% MwSt", f"{euro(vat)} €")
    slip.line(f"Datum: {s.day:%d.%m.%Y}   Uhrzeit: {s.at:%H:%M}")
    slip.line(f"Beleg-Nr. {s.number}")
    buyer = customer(rng, slip, "Stammkunde")
    return slip.draft({"issuer": shop, "number": s.number, "date": s.day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}"}, buyer)


@layout("receipt", "L5", HELD_OUT)
def restaurant(rng: random.Random, spec: Spec) -> Draft:
    """Restaurant bill: weekday before the date, Gesamtbetrag ... EUR, EC-Karte, Netto and MwSt lines."""
    s = sale(rng, "grocer", RESTAURANT, (2, 6), card=True)
    shop = rng.choice(("Gasthaus Zum Goldenen Anker", "Restaurant Lindenhof", "Brauhaus am Markt"))
    s = s.__class__(shop, s.street, s.city, s.items, s.day, s.at, s.number, s.cash)
    slip = Slip(rng, spec, "Bewirtungsbeleg", 22 + len(s.items), font="DejaVuSansMono", size=7.5)
    head(slip, s)
    slip.line(f"Tisch {rng.randint(1, 30)}   Bedienung: {rng.choice(('Anna', 'Murat', 'Jonas', 'Petra'))}")
    slip.line(f"{('Mo', 'Di', 'Mi', 'Do', 'Fr', 'Sa', 'So')[s.day.weekday()]} {s.day:%d.%m.%Y} {s.at:%H:%M}")
    slip.rule("*")
    for name, q, p, _ in s.items:
        slip.pair(f"{q}x {name}", euro(q * p))
    slip.rule("*")
    slip.pair("Gesamtbetrag", f"{euro(s.total)} EUR", bold=True)
    slip.pair("EC-Karte", euro(s.total))
    slip.pair("Netto", euro(s.net))
    slip.pair("MwSt 19%", euro(s.tax))
    slip.line(f"Beleg-Nr. {s.number}")
    buyer = customer(rng, slip, "Bewirtete Person")
    slip.line("Wir freuen uns auf Ihren Besuch!", centre=True)
    return slip.draft({"issuer": shop, "number": s.number, "date": s.day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, buyer)


@layout("receipt", "L6", HELD_OUT)
def drugstore(rng: random.Random, spec: Spec) -> Draft:
    """Drugstore: SUMME EUR, EC-Cash, a VAT table keyed 1/2 with labelled columns, date / time with seconds."""
    s = sale(rng, "grocer", DRUGSTORE + GROCERIES[:3], (3, 8), card=rng.random() < 0.6)
    shop = rng.choice(("Drogerie Schönwetter", "Rosen-Drogerie", "DROGERIEMARKT Blau"))
    s = s.__class__(shop, s.street, s.city, s.items, s.day, s.at, s.number, s.cash)
    slip = Slip(rng, spec, "Kassenbon", 24 + len(s.items), font="Courier", size=7.8)
    slip.line(shop.upper(), bold=True, centre=True)
    slip.line(f"Filiale {rng.randint(100, 999)}", centre=True)
    slip.line(f"{s.street}, {s.city}", centre=True)
    slip.line()
    keys = {19: "1", 7: "2"}
    for name, q, p, rate in s.items:
        slip.pair(name.upper(), f"{euro(q * p)} {keys[rate]}")
    slip.rule("=")
    slip.pair("SUMME EUR", euro(s.total), bold=True)
    if s.cash is None:
        slip.pair("EC-Cash", euro(s.total))
    else:
        slip.pair("BAR", euro(s.cash))
        slip.pair("RÜCKGELD", euro(s.change))
    slip.line()
    slip.line("Satz     Netto    MwSt  Brutto")
    for rate, net, vat, gross in s.by_rate():
        slip.line(f"{keys[rate]}={rate:>2},00% {euro(net):>7} {euro(vat):>6} {euro(gross):>7}")
    slip.line()
    slip.line(f"{s.day:%d.%m.%Y} / {s.at:%H:%M:%S}  Bon {s.number}")
    buyer = customer(rng, slip, "KUNDENKARTE")
    return slip.draft({"issuer": shop.upper(), "date": s.day.isoformat(), "total": f"{s.total:.2f}",
                       "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, buyer)
