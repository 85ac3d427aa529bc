"""Till receipts drawn from the space: the slip of bench.synthetic's receipts with drawn words for the total,
the date in any till's style, card or cash (with the cash handed over and the change beside the total)."""
import random

from bench.layout_space import Drawn, _style
from bench.synthetic import Spec
from bench.synthetic import _fake as fake
from bench.synthetic.receipt import FUEL, GROCERIES, PHARMACY, Slip, head, sale

TOTAL = ("SUMME", "Summe EUR", "GESAMT", "Zu zahlen", "TOTAL", "Gesamtbetrag", "SUMME EUR", "Betrag")
CASH = (("Bar", "Rückgeld"), ("Gegeben", "Zurück"), ("BAR EUR", "RUECKGELD"), ("Cash", "Change"))
CARD = ("Kartenzahlung girocard", "EC-Karte", "Visa Contactless", "Kartenzahlung", "Mastercard")


def draw(rng: random.Random, single_page: bool = False) -> Drawn:
    style = _style.draw(rng)
    kind, goods = rng.choice((("grocer", GROCERIES), ("pharmacy", PHARMACY), ("fuel", FUEL)))
    s = sale(rng, kind, goods)
    slip = Slip(rng, Spec(single_page=single_page), "Kassenbon", 24 + len(s.items),
                font=rng.choice(("Courier", "DejaVuSansMono")), size=rng.choice((7.5, 8.0, 8.5)))
    head(slip, s)
    amounts = rng.choice(("de", "de", "plain", "en"))
    euro = lambda value: fake.amount(value, amounts)  # noqa: E731
    date_first = rng.random() < 0.5
    stamp = f"{style.day(s.day)} {s.at:%H:%M}"
    if date_first:
        slip.line(stamp)
        slip.line()
    for name, q, p, rate in s.items:
        if q > 1:
            slip.line(f"  {q} x {euro(p)}")
        slip.pair(name, euro(q * p))
    slip.rule(rng.choice("-=*"))
    total_label = rng.choice(TOTAL)
    slip.pair(total_label if style.case != "upper" else total_label.upper(), euro(s.total), bold=True)
    if s.cash is None:
        slip.pair(rng.choice(CARD), euro(s.total))
    else:
        given, change = rng.choice(CASH)
        slip.pair(given, euro(s.cash))
        slip.pair(change, euro(s.change))
    slip.line()
    if rng.random() < 0.7:
        slip.line("MwSt%     MwSt   Netto  Brutto")
        for rate, net, vat, gross in s.by_rate():
            slip.line(f"{rate:>2}%  {euro(vat):>8} {euro(net):>7} {euro(gross):>7}")
    if not date_first:
        slip.line(f"{stamp}   Bon-Nr. {s.number}")
    else:
        slip.line(f"Bon-Nr. {s.number}")
    slip.line("Vielen Dank für Ihren Einkauf!", centre=True)
    buyer = fake.person(rng)
    draft = slip.draft({"issuer": s.shop, "number": s.number, "date": s.day.isoformat(), "total": f"{s.total:.2f}",
                        "currency": "EUR", "tax": f"{s.tax:.2f}", "net": f"{s.net:.2f}"}, buyer)
    return Drawn(draft.pdf, draft.fields, draft.person, {"style": {"dates": style.dates, "amounts": amounts}})
