"""Payslips drawn from the space: every label from the lexicon, every block where the style puts it."""
import random
from datetime import date
from decimal import Decimal

from bench.layout_space import REJECTED, Drawn, _parts, _style
from bench.layout_space._page import Page
from bench.synthetic import _fake as fake

LEXICON = {
    "title": {"de": ["Verdienstabrechnung", "Entgeltabrechnung", "Gehaltsabrechnung", "Lohnabrechnung",
                     "Abrechnung der Brutto/Netto-Bezüge", "Lohn- und Gehaltsabrechnung", "Bezügemitteilung",
                     "Entgeltnachweis"],
              "en": ["Payslip", "Pay slip", "Salary statement", "Pay statement", "Earnings statement"]},
    "gross": {"de": ["Gesamtbrutto", "Brutto-Bezüge", "Bruttoverdienst", "Summe Brutto", "Bruttoentgelt",
                     "Gesamt-Brutto", "Bruttobezüge", "Summe der Bezüge", "Brutto gesamt", "Bruttolohn"],
              "en": ["Gross pay", "Total gross", "Gross salary", "Gross earnings", "Total earnings"]},
    "net": {"de": ["Nettobezug", "Netto-Verdienst", "Nettolohn", "Netto", "Nettoentgelt", "Nettogehalt",
                   "Gesetzliches Netto", "Nettoverdienst", "Netto-Bezüge"],
            "en": ["Net pay", "Net salary", "Net earnings", "Net income"]},
    "payout": {"de": ["Auszahlungsbetrag", "Überweisungsbetrag", "Auszahlung", "Zahlbetrag", "Überweisung"],
               "en": ["Amount paid", "Payout", "Net payment", "Transferred amount", "Take-home pay"]},
    "period": {"de": ["Abrechnungsmonat", "Abrechnungszeitraum", "Zeitraum", "Monat", "Abr.-Monat",
                      "Lohnzeitraum", "Abrechnungsperiode", "für den Monat"],
               "en": ["Pay period", "Period", "Month", "Payroll period", "Pay month"]},
    "tax_class": {"de": ["Steuerklasse", "StKl", "St.-Kl.", "Steuerkl.", "LSt-Klasse"],
                  "en": ["Tax class", "Tax bracket"]},
    "employee": {"de": ["Mitarbeiter", "Name", "Arbeitnehmer", "Name, Vorname", "Mitarbeiter/in", "Beschäftigte/r"],
                 "en": ["Employee", "Name", "Employee name"]},
    "number": {"de": ["Personal-Nr.", "Pers.-Nr.", "Personalnummer", "MA-Nr."], "en": ["Employee no.", "Staff ID"]},
    "entry": {"de": ["Eintritt", "Eintrittsdatum", "Beschäftigt seit"], "en": ["Start date", "Date of joining"]},
    "birth": {"de": ["Geburtsdatum", "Geb.-Datum"], "en": ["Date of birth"]},
    "iban": {"de": ["Bankverbindung", "Überweisung an", "Auszahlung auf Konto", "IBAN", "Kontoverbindung"],
             "en": ["Paid to account", "Bank account", "IBAN"]},
    "earnings": {"de": ["Bezüge", "Brutto-Bezüge", "Lohnarten", "Verdienst"], "en": ["Earnings", "Payments"]},
    "deductions": {"de": ["Abzüge", "Gesetzliche Abzüge", "Steuer und Sozialversicherung"], "en": ["Deductions"]},
    "taxes": {"de": ["Steuerrechtliche Abzüge", "Summe Steuern", "Steuern"], "en": ["Total taxes", "Taxes"]},
    "social": {"de": ["SV-rechtliche Abzüge", "Summe Sozialversicherung", "Sozialversicherung"],
               "en": ["Total social security", "Social security"]},
    "other": {"de": ["Sonstige Be- und Abzüge", "Nettobe-/abzüge", "Persönliche Abzüge"],
              "en": ["Other deductions", "After-tax deductions"]},
}
DEDUCTIONS = {
    "wage_tax": {"de": ["Lohnsteuer", "LSt", "Lohnsteuer lfd."], "en": ["Income tax", "Wage tax"]},
    "solidarity": {"de": ["Solidaritätszuschlag", "SolZ", "Soli-Zuschlag"], "en": ["Solidarity surcharge"]},
    "church": {"de": ["Kirchensteuer", "KiSt", "Kirchensteuer rk"], "en": ["Church tax"]},
    "health": {"de": ["Krankenversicherung", "KV-Beitrag", "KV AN-Anteil"], "en": ["Health insurance"]},
    "care": {"de": ["Pflegeversicherung", "PV-Beitrag", "PV AN-Anteil"], "en": ["Long-term care insurance"]},
    "pension": {"de": ["Rentenversicherung", "RV-Beitrag", "RV AN-Anteil"], "en": ["Pension insurance"]},
    "unemployment": {"de": ["Arbeitslosenversicherung", "AV-Beitrag", "AV AN-Anteil"], "en": ["Unemployment insurance"]},
}
EARNINGS = {"de": ["Gehalt", "Grundgehalt", "Tarifgehalt", "Monatslohn"], "en": ["Base salary", "Salary"]}
EXTRAS = {"de": ["Zulage", "Leistungszulage", "VWL AG-Anteil", "Überstunden"], "en": ["Allowance", "Bonus"]}


def draw(rng: random.Random, single_page: bool = False) -> Drawn:
    style = _style.draw(rng)
    employer, employee = fake.company(rng), fake.person(rng, latin1=not style.family.startswith("dejavu"))
    too_old = rng.random() < 0.06
    period = date(2026, rng.choice((4, 5, 6)), 1) if too_old else fake.pay_month(rng)
    pay, account = fake.payroll(rng), fake.iban(rng)
    word = lambda key: style.label(rng, LEXICON[key])  # noqa: E731 - the lexicon in one place
    page = Page(style, rng, "Payslip", {"footer": _parts.footer(rng, employer, avoid=employee)})
    page.letterhead(employer.name, (f"{employer.street}", employer.city) if rng.random() < 0.6 else ())
    address_only = rng.random() < 0.3  # the employee named only in the address block
    traits = {"style": style.__dict__, "address_only": address_only,
              # What the slip prints, for the cross-sums the tests check: gross - deductions = net, net - these = payout.
              "deductions": [f"{v:.2f}" for v in (pay.wage_tax, pay.solidarity, pay.church_tax, pay.health, pay.care,
                                                  pay.pension, pay.unemployment)],
              "net_deductions": [f"{v:.2f}" for _, v in pay.net_deductions]}

    block_y = max(page.y, 42.0)
    page.address(_parts.recipient(rng, employee, style), y=block_y + 8,
                 sender=_parts.sender(employer) if rng.random() < 0.5 else "")
    period_in_title = rng.random() < 0.2  # the month only in the title: "Entgeltabrechnung Oktober 2026"
    facts = [] if period_in_title else [(word("period"), style.month(period, rng))]
    traits["period_in_title"] = period_in_title
    if not address_only:
        facts.insert(0, (word("employee"), _parts.name_as_printed(rng, employee, style)))
    facts.append((word("number"), str(rng.randint(1000, 99999))))
    printed_class = rng.random() < 0.8
    if printed_class:
        facts.append((word("tax_class"), str(pay.tax_class)))
    if rng.random() < 0.5:
        facts.append((word("entry"), style.day(date(rng.randint(2012, 2025), rng.randint(1, 12), 1))))
    if rng.random() < 0.3:
        facts.append((word("birth"), style.day(date(rng.randint(1965, 2000), rng.randint(1, 12), rng.randint(1, 28)))))
    rest = facts[1:]
    rng.shuffle(rest)
    facts = facts[:1] + rest
    # The facts stand right of the address block, or under it across the page.
    if rng.random() < 0.5:
        page.y = block_y + 6
        x = 112.0
        for label, value in facts:
            page.pair(label, value, x, page.right - x)
        page.y = max(page.y, block_y + 30)
    else:
        page.y = block_y + 32
        page.pairs(facts)
    page.y += 6
    title = word("title")
    if period_in_title:
        month = style.month(period, rng)
        plain = month.startswith(("vom", "from")) or rng.random() < 0.6
        joiner = " " if plain else (" for " if style.language == "en" else " für ")
        title = f"{title}{joiner}{month}"
    page.title(title, align=rng.choice(("left", "center")))

    earnings(page, rng, style, pay, word)
    deductions(page, rng, style, pay, word)
    net_printed = totals(page, rng, style, pay, word)

    printed_iban = rng.random() < 0.8
    if printed_iban:
        shown = fake.iban_spaced(account) if rng.random() < 0.6 else account
        page.y += 3
        label = word("iban")
        value = f"IBAN {shown}" if "IBAN" not in label.upper() and rng.random() < 0.5 else shown
        page.pair(label, value, placement=rng.choice(("colon", "right", "below")))
    if not single_page and rng.random() < 0.25:
        year_to_date(page, rng, style, pay, period, word)

    fields = {"employer": employer.name, "employee": employee.plain, "period": fake.month(period, "iso"),
              "gross": f"{pay.gross:.2f}", "net": f"{net_printed:.2f}", "payout": f"{pay.payout:.2f}"}
    if printed_class:
        fields["tax_class"] = pay.tax_class
    if printed_iban:
        fields["iban"] = account
    return Drawn(page.pdf(), fields, employee.name, traits,
                 expected=REJECTED if too_old else "VERIFIED", reason="too old" if too_old else "")


def earnings(page: Page, rng, style, pay, word) -> None:
    parts = [pay.gross]
    if rng.random() < 0.5:
        extra = fake.money(pay.gross * Decimal(str(rng.uniform(0.03, 0.15))))
        parts = [pay.gross - extra, extra]
    labels = [style.label(rng, EARNINGS)] + [style.label(rng, EXTRAS) for _ in parts[1:]]
    page.heading(word("earnings"))
    gross_label = word("gross")
    form = rng.choice(("table", "table", "pairs"))
    if form == "table":
        key = "Lohnart" if style.language != "en" else "Code"
        amount_word = style.word("Betrag") if style.language != "en" else "Amount"
        rows = [(str(rng.randint(1000, 2999)), label, style.amount(value)) for label, value in zip(labels, parts)]
        page.table((key, style.word("Bezeichnung") if style.language != "en" else "Description", amount_word),
                   rows, (1, 4, 2), ("left", "left", "right"))
    else:
        page.pairs([(label, style.amount(value)) for label, value in zip(labels, parts)], columns=1)
    page.pair(gross_label, style.amount(pay.gross), placement=rng.choice(("right", "right", style.placement)), bold=True)
    page.y += 3


def deductions(page: Page, rng, style, pay, word) -> None:
    def row(key, value):
        return style.label(rng, DEDUCTIONS[key]), style.amount(value, negative=True)
    taxes = [row("wage_tax", pay.wage_tax)]
    if pay.solidarity:
        taxes.append(row("solidarity", pay.solidarity))
    if pay.church_tax:
        taxes.append(row("church", pay.church_tax))
    social = [row("health", pay.health), row("care", pay.care), row("pension", pay.pension),
              row("unemployment", pay.unemployment)]
    page.heading(word("deductions"))
    if style.two_columns:
        # Taxes on the left, social insurance on the right: two lists side by side.
        top = page.y
        middle = page.left + (page.right - page.left) / 2
        for label, value in taxes:
            page.pair(label, value, page.left, middle - page.left - 6, placement="right")
        page.pair(word("taxes"), style.amount(pay.taxes, negative=True), page.left, middle - page.left - 6, "right")
        left_bottom = page.y
        page.y = top
        for label, value in social:
            page.pair(label, value, middle, page.right - middle, placement="right")
        page.pair(word("social"), style.amount(pay.social, negative=True), middle, page.right - middle, "right")
        page.y = max(page.y, left_bottom) + 2
    else:
        page.pairs(taxes + social, columns=1, placement=rng.choice(("right", "leader", "right")))
        if rng.random() < 0.5:
            page.pair(word("taxes"), style.amount(pay.taxes, negative=True))
            page.pair(word("social"), style.amount(pay.social, negative=True))
    page.y += 2


def totals(page: Page, rng, style, pay, word) -> Decimal:
    """Net and payout: as pairs, in a summary box or as one row of columns. Returns the net as printed."""
    items = []
    net_only_as_payout = not pay.net_deductions and rng.random() < 0.4
    if not net_only_as_payout:
        items.append((word("net"), style.amount(pay.net)))
    for label, value in pay.net_deductions:
        items.append((style.word(label), style.amount(value, negative=True)))
    items.append((word("payout"), style.amount(pay.payout, paid_out=True)))
    form = rng.choice(("pairs", "box", "columns", "year_columns"))
    if form == "box":
        page.summary_box(items)
    elif form == "columns" and len(items) <= 4:
        page.columns_row([(style.word("Brutto") if style.language != "en" else "Gross", style.amount(pay.gross))] + items)
    elif form == "year_columns":
        # The month's figure next to the year's running total, as many payroll programs print them.
        months = Decimal(rng.randint(8, 10))
        month_word, year_word = (("Monat", "Jahr") if style.language != "en" else ("This period", "Year to date"))
        rows = [(word("net"), style.amount(pay.net), style.amount(pay.net * months)),
                (word("payout"), style.amount(pay.payout, paid_out=True), style.amount(pay.payout * months))]
        page.table(("", style.word(month_word), style.word(year_word)), rows, (5, 2, 2), ("left", "right", "right"))
    else:
        for label, value in items:
            page.pair(label, value, bold=True)
    return pay.net


def year_to_date(page: Page, rng, style, pay, period, word) -> None:
    """A second page of cumulative values: the same labels, the year's sums (not this month's)."""
    page.new_page()
    months = period.month
    page.heading("Jahreswerte" if style.language != "en" else "Year to date")
    page.pairs([(word("gross"), style.amount(pay.gross * months)),
                (style.label(rng, DEDUCTIONS["wage_tax"]), style.amount(pay.wage_tax * months)),
                (word("net"), style.amount(pay.net * months))], columns=1)
    page.paragraph("Diese Abrechnung wurde maschinell erstellt und ist ohne Unterschrift gültig."
                   if style.language != "en" else "This statement was produced electronically and is valid without signature.")
