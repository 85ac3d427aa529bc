"""Invoices drawn from the space: number and date in facts, a line or a box; items with or without rules; the
totals as pairs, a summary box or columns; a delivery date and a due date beside the invoice date."""
import random
from datetime import timedelta

from bench.layout_space import Drawn, _parts, _style
from bench.layout_space._page import Page
from bench.synthetic import _fake as fake
from bench.synthetic.invoice import invoice

LEXICON = {
    "title": {"de": ["Rechnung", "Rechnung Nr.", "Schlussrechnung", "Honorarrechnung"], "en": ["Invoice", "Tax invoice"]},
    "number": {"de": ["Rechnungsnummer", "Rechnung Nr.", "Rechnungs-Nr.", "Beleg-Nr.", "Re.-Nr."],
               "en": ["Invoice no.", "Invoice number"]},
    "date": {"de": ["Rechnungsdatum", "Datum", "Re.-Datum", "Ausstellungsdatum"], "en": ["Invoice date", "Date"]},
    "delivery": {"de": ["Leistungsdatum", "Lieferdatum", "Leistungszeitraum bis"], "en": ["Delivery date"]},
    "customer": {"de": ["Kundennummer", "Kunden-Nr."], "en": ["Customer no."]},
    "net": {"de": ["Nettobetrag", "Zwischensumme", "Summe netto", "Netto"], "en": ["Subtotal", "Net amount"]},
    "tax": {"de": ["zzgl. 19 % USt.", "MwSt. 19 %", "Umsatzsteuer 19%", "19 % MwSt"], "en": ["VAT 19%", "Tax 19%"]},
    "total": {"de": ["Gesamtbetrag", "Rechnungsbetrag", "Endbetrag", "Summe brutto", "Zu zahlen"],
              "en": ["Total", "Amount due", "Total due"]},
    "item": {"de": ["Bezeichnung", "Leistung", "Artikel"], "en": ["Description", "Item"]},
}


def draw(rng: random.Random, single_page: bool = False) -> Drawn:
    style = _style.draw(rng)
    inv = invoice(rng, english=style.language == "en")
    word = lambda key: style.label(rng, LEXICON[key])  # noqa: E731
    page = Page(style, rng, "Rechnung", {"footer": _parts.footer(rng, inv.issuer, avoid=inv.client)})
    page.letterhead(inv.issuer.name, (inv.issuer.street, inv.issuer.city) if rng.random() < 0.7 else ())
    block_y = max(page.y, 42.0)
    page.address(_parts.recipient(rng, inv.client, style), y=block_y + 8,
                 sender=_parts.sender(inv.issuer) if rng.random() < 0.5 else "")
    facts = [(word("number"), inv.number), (word("date"), style.day(inv.day)),
             (word("customer"), str(rng.randint(1000, 99999)))]
    if rng.random() < 0.5:
        facts.append((word("delivery"), style.day(inv.day - timedelta(days=rng.randint(1, 20)))))
    rng.shuffle(facts)
    if rng.random() < 0.5:
        page.y = block_y + 6
        for label, value in facts:
            page.pair(label, value, 118.0, page.right - 118.0)
        page.y = max(page.y, block_y + 32)
    else:
        page.y = block_y + 32
        page.pairs(facts)
    page.y += 4
    page.title(word("title"))
    header = ("Pos.", word("item"), style.word("Menge") if style.language != "en" else "Qty",
              style.word("Einzelpreis") if style.language != "en" else "Unit price",
              style.word("Gesamt") if style.language != "en" else "Amount")
    rows = [(str(i + 1), item, str(q), style.amount(p), style.amount(q * p)) for i, (item, q, p) in enumerate(inv.lines)]
    page.table(header, rows, (1, 8, 1.5, 2.5, 2.5), ("left", "left", "right", "right", "right"))
    totals = [(word("net"), style.amount(inv.net)), (word("tax"), style.amount(inv.tax)),
              (word("total"), style.amount(inv.total, paid_out=True))]
    form = rng.choice(("pairs", "box", "columns"))
    if form == "box":
        page.summary_box(totals)
    elif form == "columns":
        page.columns_row(totals)
    else:
        x = page.left + (page.right - page.left) * 0.45
        for label, value in totals:
            page.pair(label, value, x, page.right - x, placement=rng.choice(("right", "leader")))
    due = style.day(inv.day + timedelta(days=14))
    page.y += 4
    page.paragraph(f"Zahlbar bis {due} ohne Abzug." if style.language != "en" else f"Payable by {due} without deduction.")
    truth = inv.truth()
    if style.amounts not in ("eur_before", "eur_after", "euro_sign"):
        del truth["currency"]  # no currency printed: the truth does not invent one
    return Drawn(page.pdf(), truth, inv.client.name, {"style": style.__dict__, "totals": form})
