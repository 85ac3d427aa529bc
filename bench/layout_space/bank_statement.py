"""Bank statements drawn from the space: header words, period lines (wrapping ones too), statement numbers
such as "Nr. 5/2026", balances in every wording, bookings in columns or signed, over pages with carry-overs."""
import random
from datetime import date, timedelta
from decimal import Decimal

from bench.layout_space import REJECTED, Drawn, _parts, _style
from bench.layout_space._page import BOTTOM, Page
from bench.synthetic import _fake as fake

LEXICON = {
    "title": {"de": ["Kontoauszug", "Girokonto Kontoauszug", "Kontoauszug Girokonto", "Umsatzübersicht",
                     "Finanzstatus Kontoauszug", "Rechnungsabschluss und Kontoauszug"],
              "en": ["Account statement", "Statement of account", "Bank statement", "Current account statement"]},
    "number": {"de": ["Nr.", "Auszug Nr.", "Kontoauszug Nr.", "Auszug", "Blatt"], "en": ["Statement no.", "No."]},
    "period": {"de": ["Zeitraum", "Abrechnungszeitraum", "Auszugszeitraum", "Kontoauszug vom", "Umsätze vom"],
               "en": ["Statement period", "Period", "Transactions from"]},
    "holder": {"de": ["Kontoinhaber", "Inhaber", "Kunde", "Kontoinhaber/in"], "en": ["Account holder", "Customer"]},
    "iban": {"de": ["IBAN", "Konto-IBAN", "Ihre IBAN"], "en": ["IBAN", "Account IBAN"]},
    "opening": {"de": ["Alter Kontostand", "Anfangssaldo", "Saldo alt", "Kontostand alt", "Vortrag", "Startsaldo"],
                "en": ["Opening balance", "Balance brought forward", "Previous balance", "Starting balance"]},
    "closing": {"de": ["Neuer Kontostand", "Endsaldo", "Saldo neu", "Kontostand neu", "Schlusssaldo"],
                "en": ["Closing balance", "New balance", "Ending balance", "Balance carried forward"]},
    "date": {"de": ["Buchungstag", "Datum", "Buchung", "Bu.-Tag"], "en": ["Date", "Booking date"]},
    "value": {"de": ["Wert", "Valuta", "Wertstellung"], "en": ["Value date", "Value"]},
    "text": {"de": ["Verwendungszweck", "Vorgang", "Buchungstext", "Erläuterung"], "en": ["Description", "Details"]},
    "amount": {"de": ["Betrag", "Betrag EUR", "Umsatz"], "en": ["Amount", "Amount EUR"]},
    "debit": {"de": ["Soll", "Belastung", "Lastschrift"], "en": ["Debit", "Money out", "Paid out"]},
    "credit": {"de": ["Haben", "Gutschrift"], "en": ["Credit", "Money in", "Paid in"]},
    "carry": {"de": ["Übertrag", "Zwischensumme"], "en": ["Carried forward"]},
}


def draw(rng: random.Random, single_page: bool = False) -> Drawn:
    style = _style.draw(rng)
    bank = rng.choice(fake.BANKS)
    holder = fake.person(rng, latin1=not style.family.startswith("dejavu"))
    account = fake.iban(rng, bank[1])
    too_old = rng.random() < 0.06
    start, end = _period(rng, too_old)
    bookings = _bookings(rng, start, end, rng.randint(5, 9) if single_page else rng.randint(8, 40))
    opening = fake.money(rng.randrange(-80000, 1200000) / 100)
    closing = opening + sum((amount for _, _, amount, _ in bookings), Decimal("0"))
    word = lambda key: style.label(rng, LEXICON[key])  # noqa: E731
    number = _number(rng, end, style)
    page = Page(style, rng, "Kontoauszug", {"footer": [f"{bank[0]} · BIC {bank[2]} · Aufsicht: BaFin"],
                                            "repeat": [f"{bank[0]} · IBAN {fake.iban_spaced(account)} · {number}"]})
    page.letterhead(bank[0], (f"BIC {bank[2]}",) if rng.random() < 0.5 else ())
    address_only = rng.random() < 0.35
    block_y = max(page.y, 42.0)
    page.address(_parts.recipient(rng, holder, style), y=block_y + 8)
    page.y = block_y + 34
    page.title(word("title"))
    period_form = rng.choice(("range", "range", "wrapped", "two_lines", "balance_dates"))
    facts = []
    if not address_only:
        facts.append((word("holder"), _parts.name_as_printed(rng, holder, style)))
    shown_iban = fake.iban_spaced(account) if rng.random() < 0.6 else account
    facts.append((word("iban"), shown_iban))
    facts.append((word("number"), number))
    if period_form == "range":
        joiner = rng.choice((" - ", " bis ", " – ")) if style.language != "en" else rng.choice((" - ", " to "))
        facts.append((word("period"), f"{style.day(start)}{joiner}{style.day(end)}"))
    elif period_form == "two_lines":
        first, last = (("von", "bis") if style.language != "en" else ("from", "to"))
        facts += [(style.word(first.title()), style.day(start)), (style.word(last.title()), style.day(end))]
    rng.shuffle(facts)
    page.pairs(facts)
    if period_form == "wrapped":
        # "Kontoauszug vom 01.10.2026" on one line, "bis 31.10.2026" on the next.
        words = ("vom", "bis") if style.language != "en" else ("from", "to")
        page.text(f"{word('title')} {words[0]} {style.day(start)}")
        page.text(f"{words[1]} {style.day(end)}")
    page.y += 4

    opening_label = word("opening")
    closing_label = word("closing")
    if period_form == "balance_dates":
        on = "am" if style.language != "en" else "on"
        opening_label = f"{style.word('Kontostand') if style.language != 'en' else 'Balance'} {on} {style.day(start - timedelta(days=1))}"
        closing_label = f"{style.word('Kontostand') if style.language != 'en' else 'Balance'} {on} {style.day(end)}"
    page.pair(opening_label, style.amount(opening), bold=True, placement=rng.choice(("right", "colon", style.placement)))
    page.y += 2
    _table(page, rng, style, bookings, opening, word, start.year)
    closing_at = rng.choice(("after", "after", "box"))
    if closing_at == "box":
        page.summary_box([(opening_label, style.amount(opening)), (closing_label, style.amount(closing))])
    else:
        page.pair(closing_label, style.amount(closing), bold=True, placement=rng.choice(("right", "colon", style.placement)))
    page.paragraph("Bitte prüfen Sie Ihren Kontoauszug. Einwendungen sind innerhalb von sechs Wochen zu erheben."
                   if style.language != "en" else "Please check this statement; tell us of any error within six weeks.",
                   size=style.size - 1.5)

    fields = {"bank": bank[0], "iban": account, "holder": holder.plain, "period_start": start.isoformat(),
              "period_end": end.isoformat(), "opening_balance": f"{opening:.2f}", "closing_balance": f"{closing:.2f}",
              "salary_credits": [f"{amount:.2f}" for _, _, amount, salary in bookings if salary]}
    traits = {"style": style.__dict__, "address_only": address_only, "period_form": period_form, "number": number,
              "bookings": [f"{amount:.2f}" for _, _, amount, _ in bookings]}
    return Drawn(page.pdf(), fields, holder.name, traits, expected=REJECTED if too_old else "VERIFIED",
                 reason="too old" if too_old else "")


def _period(rng: random.Random, too_old: bool) -> tuple[date, date]:
    """Current on AS_OF (15 November 2026): a calendar month, a month to mid-November, or a quarter."""
    if too_old:
        start = date(2026, rng.choice((5, 6)), 1)
        return start, fake.month_last(start)
    kind = rng.choice(("sep", "oct", "oct", "nov", "quarter", "mid"))
    if kind == "nov":
        end = date(2026, 11, rng.randint(5, 14))
        return date(2026, 10, end.day + 1), end
    if kind == "quarter":
        return date(2026, 7, 1), date(2026, 9, 30)
    if kind == "mid":
        start = date(2026, rng.choice((8, 9)), rng.randint(2, 20))
        return start, start + timedelta(days=rng.randint(27, 40))
    start = date(2026, 9 if kind == "sep" else 10, 1)
    return start, fake.month_last(start)


def _number(rng: random.Random, end: date, style) -> str:
    """A statement number that looks like a month or a date but is not the period: "Nr. 5/2026", "3/26"."""
    n = rng.randint(1, 14)
    return rng.choice((f"{n}/{end.year}", f"{n}/{end.year % 100}", f"{n:03d}", f"{n} / {end.year}",
                       f"{end.year}/{n:02d}", f"{n}"))


def _bookings(rng: random.Random, start: date, end: date, count: int) -> list[tuple]:
    """(day, text, amount, salary) in date order; one or two salaries from an employer."""
    span = (end - start).days
    days = sorted(start + timedelta(days=rng.randrange(span + 1)) for _ in range(count))
    employer = rng.choice(fake.EMPLOYERS)
    pay = fake.payroll(rng)
    salaries = {rng.randrange(count // 3, count)}
    if span > 45:
        salaries.add(rng.randrange(0, max(1, count // 3)))
    rows = []
    for index, when in enumerate(days):
        if index in salaries:
            month = fake.month(when, "slash")
            rows.append((when, f"{employer} {rng.choice(('LOHN/GEHALT', 'Gehalt', 'Salary', 'Bezüge'))} {month}",
                         pay.payout, True))
        elif rng.random() < 0.12:
            rows.append((when, f"{fake.person(rng).plain} {rng.choice(('Rückzahlung', 'Essen', 'Geschenk'))}",
                         fake.money(rng.randrange(1000, 15000) / 100), False))
        else:
            shop = rng.choice(fake.SHOPS)
            kind = rng.choice(("Kartenzahlung", "Lastschrift", "SEPA-Lastschrift", "Dauerauftrag", "Überweisung"))
            rows.append((when, f"{shop} {kind} {rng.randint(100000, 999999)}", -fake.money(rng.randrange(300, 95000) / 100), False))
    return rows


def _table(page: Page, rng, style, bookings, opening, word, year) -> None:
    """The bookings: one signed column or debit and credit columns, with a value date for some; carry-overs at page ends."""
    columns = rng.choice(("signed", "signed", "split", "sh"))
    with_value = rng.random() < 0.5
    day_form = rng.choice(("full", "short", "style"))

    def when(value: date) -> str:
        if day_form == "short":
            return value.strftime("%d.%m.")
        if day_form == "style" and style.dates not in ("long_de", "long_en", "long_en_us"):
            return style.day(value)
        return value.strftime("%d.%m.%Y")

    header = [word("date")] + ([word("value")] if with_value else []) + [word("text")]
    widths = [2.6] + ([2.6] if with_value else []) + [8]
    if columns == "split":
        header += [word("debit"), word("credit")]
        widths += [2.5, 2.5]
    else:
        header += [word("amount")]
        widths += [3]
    aligns = ["left"] * (len(header) - (2 if columns == "split" else 1)) + ["right"] * (2 if columns == "split" else 1)
    balance = opening
    page.row(header, widths, aligns, bold=True, rule=True)
    for day, text, amount, _ in bookings:
        if page.y > BOTTOM - 12:
            label = style.label(rng, LEXICON["carry"])
            page.pair(label, style.amount(balance), placement="right")
            page.new_page()
            page.pair(label, style.amount(balance), placement="right")
            page.row(header, widths, aligns, bold=True, rule=True)
        cells = [when(day)] + ([when(day + timedelta(days=rng.choice((0, 0, 1))))] if with_value else []) + [text[:48]]
        if columns == "split":
            cells += [fake.amount(-amount, "de") if amount < 0 else "", fake.amount(amount, "de") if amount > 0 else ""]
        elif columns == "sh":
            cells += [f"{fake.amount(abs(amount), 'de')} {'S' if amount < 0 else 'H'}"]
        else:
            cells += [style.amount(amount)]
        page.row(cells, widths, aligns)
        balance += amount
    page.y += 3
