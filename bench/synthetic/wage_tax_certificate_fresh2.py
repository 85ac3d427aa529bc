"""Wage tax certificates for 2025, fresh development layouts of the fourth round (added 2026-12-02): another
payroll software's 'Ausdruck der elektronischen Lohnsteuerbescheinigung für 2025' with line numbers in circles
and euros and cents in separate columns; a part-year certificate of a tax adviser's software with the numbered
lines in two columns side by side.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from dataclasses import replace
from datetime import date
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.wage_tax_certificate import certificate

CIRCLED = "①②③④⑤⑥⑦⑧⑨⑩"  # the glyphs every DejaVu face draws


def _euros_cents(value: Decimal | None) -> tuple[str, str]:
    """The official form's two columns: whole euros without grouping, cents apart."""
    if value is None:
        return "", ""
    whole, cents = f"{fake.money(value):.2f}".split(".")
    return whole, cents


@layout("wage_tax_certificate", "L12", DEVELOPMENT)
def circled_lines_euro_cent(rng: random.Random, spec: Spec) -> Draft:
    """Another payroll software's print: 'Ausdruck der elektronischen Lohnsteuerbescheinigung für 2025'
    over a 'Daten vom ... übermittelt' note; the employer's 'Anschrift und Steuernummer' in a box at the
    top left and the employee in the window below it; 'eTIN', 'Identifikationsnummer', 'Transferticket'
    and the employee's birth date at the right; the numbered lines with their numbers in circles
    (①, ②, ... and '22a', '23a' in brackets), the amounts in an 'EUR' and a 'Ct' column: '48213 76'."""
    c = certificate(rng)
    s = Sheet(rng.choice(("dejavu", "dejavu-condensed")), "Lohnsteuerbescheinigung")
    s.text(20, 15, f"Ausdruck der elektronischen Lohnsteuerbescheinigung für {c.year}", 12, bold=True)
    sent = date(c.year + 1, 2, rng.randint(3, 27))
    s.text(20, 20.5, f"Nach § 41b EStG übermittelte Daten vom {fake.day(sent)}", 7.5)
    s.box(20, 25, 85, 24, width=0.3)
    s.text(22, 29, "Anschrift und Steuernummer des Arbeitgebers:", 6.5)
    s.lines(22, 34, (c.employer.name, c.employer.street, c.employer.city, f"StNr. {fake.tax_number(rng)}"), 8.5,
            leading=3.9)
    s.lines(20, 58, (c.employee.plain, c.employee.street, c.employee.city), 10, leading=4.6)
    right = (("Geburtsdatum", fake.day(date(rng.randint(1966, 2000), rng.randint(1, 12), rng.randint(1, 28)))),
             ("Transferticket", f"{c.etin[:6].lower()}{rng.randint(100, 999)}{rng.choice('abcdef')}{rng.randint(10, 99)}"),
             ("Identifikationsnummer", c.id_number), ("eTIN", c.etin), ("Personalnummer", str(rng.randint(100, 9999))))
    for index, (label, value) in enumerate(right):
        s.text(122, 30 + index * 5, label, 7.5)
        s.text(190, 30 + index * 5, value, 8.5, align="right")
    y = 78
    s.text(20, y, "Dauer des Dienstverhältnisses", 8)
    s.text(190, y, f"01.01. - 31.12.", 8.5, align="right")
    y += 8
    s.text(168, y, "EUR", 7.5, bold=True, align="right")
    s.text(184, y, "Ct", 7.5, bold=True, align="right")
    s.rule(20, y + 1.5, 190, 0.4)
    y += 6
    lines = ((1, "Bescheinigungszeitraum", f"01.01. - 31.12.{c.year}"), (2, "Zeiträume ohne Anspruch auf Arbeitslohn", "Anzahl U: 0"),
             (3, "Bruttoarbeitslohn einschl. Sachbezüge ohne 9. und 10.", c.gross),
             (4, "Einbehaltene Lohnsteuer von 3.", c.wage_tax), (5, "Einbehaltener Solidaritätszuschlag von 3.", c.solidarity),
             (6, "Einbehaltene Kirchensteuer des Arbeitnehmers von 3.", c.church_tax),
             (7, "Einbehaltene Kirchensteuer des Ehegatten von 3.", None),
             (17, "Steuerfreie Arbeitgeberleistungen Wohnung - erste Tätigkeitsstätte",
              fake.money(rng.choice(("0", "588.00", "696.00"))) or None),
             ("22a", "Arbeitgeberanteil zur gesetzlichen Rentenversicherung", c.pension),
             ("23a", "Arbeitnehmeranteil zur gesetzlichen Rentenversicherung", c.pension),
             (25, "Arbeitnehmerbeiträge zur gesetzlichen Krankenversicherung", c.health),
             (26, "Arbeitnehmerbeiträge zur sozialen Pflegeversicherung", fake.money(c.health * 18 / 87)),
             (27, "Arbeitnehmerbeiträge zur Arbeitslosenversicherung", fake.money(c.pension * 13 / 93)))
    for number, label, value in lines:
        circled = isinstance(number, int) and number <= len(CIRCLED)
        mark = CIRCLED[number - 1] if circled else f"({number})"
        s.text(20, y, mark, 10 if circled else 7.5)
        s.text(30, y, label, 8.5)
        if isinstance(value, str):
            s.text(184, y, value, 8.5, align="right")
        else:
            euros, cents = _euros_cents(value if value else None)
            s.text(168, y, euros, 9, align="right")
            s.text(184, y, cents, 9, align="right")
        s.rule(20, y + 1.8, 190, 0.15)
        y += 6.2
    s.text(20, y + 8, f"Finanzamt, an das die Lohnsteuer abgeführt wurde: {rng.choice(fake.TAX_OFFICES)}", 8)
    s.text(20, y + 13, "Dieser Ausdruck ist maschinell erstellt und ohne Unterschrift gültig.", 7)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("wage_tax_certificate", "L13", DEVELOPMENT)
def part_year_two_columns(rng: random.Random, spec: Spec) -> Draft:
    """A tax adviser's payroll software: title 'Lohnsteuerbescheinigung' with no year, the employee joined
    during the year, so the year stands only in 'Bescheinigungszeitraum vom 01.04.2025 bis 31.12.2025';
    'Arbeitgeber:' with name and address on one line; 'Arbeitnehmer:' as 'Family, Given'; the numbered
    lines 'Nr. 3 Bruttoarbeitslohn' in two columns side by side (lines 1-6 left, 17-27 right), each value
    under its label, amounts '38.456,00 €'."""
    c = certificate(rng)
    start = rng.choice((2, 3, 4, 5, 7))
    months = Decimal(13 - start)
    c = replace(c, gross=fake.money(c.gross / 12 * months), wage_tax=fake.money(c.wage_tax / 12 * months),
                solidarity=fake.money(c.solidarity / 12 * months), church_tax=fake.money(c.church_tax / 12 * months),
                pension=fake.money(c.pension / 12 * months), health=fake.money(c.health / 12 * months))
    s = Sheet(rng.choice(("helvetica", "times")), "Lohnsteuerbescheinigung")
    s.text(105, 16, "Lohnsteuerbescheinigung", 14, bold=True, align="center")
    s.text(105, 22, "(Ausdruck nach amtlich vorgeschriebenem Muster)", 8, align="center")
    span = f"vom {fake.day(date(c.year, start, 1))} bis {fake.day(date(c.year, 12, 31))}"
    s.text(20, 34, f"Arbeitgeber: {c.employer.name}, {c.employer.street}, {c.employer.city}", 9)
    s.text(20, 40, f"Arbeitnehmer: {c.employee.reversed}", 9)
    s.text(20, 46, f"Anschrift: {c.employee.street}, {c.employee.city}", 9)
    s.text(20, 52, f"Bescheinigungszeitraum {span}", 9, bold=True)
    s.text(20, 58, f"IdNr. {c.id_number}   eTIN {c.etin}   StKl {rng.choice((1, 3, 4))}", 8.5)
    s.rule(20, 62, 190, 0.5)
    left = ((1, "Bescheinigungszeitraum", span),
            (3, "Bruttoarbeitslohn einschl. Sachbezüge", fake.amount(c.gross, "de_euro")),
            (4, "Einbehaltene Lohnsteuer", fake.amount(c.wage_tax, "de_euro")),
            (5, "Solidaritätszuschlag", fake.amount(c.solidarity, "de_euro")),
            (6, "Kirchensteuer Arbeitnehmer", fake.amount(c.church_tax, "de_euro")))
    right = (("22a", "Arbeitgeberanteil Rentenversicherung", fake.amount(c.pension, "de_euro")),
             ("23a", "Arbeitnehmeranteil Rentenversicherung", fake.amount(c.pension, "de_euro")),
             (25, "AN-Beiträge Krankenversicherung", fake.amount(c.health, "de_euro")),
             (26, "AN-Beiträge Pflegeversicherung", fake.amount(fake.money(c.health * 18 / 87), "de_euro")),
             (27, "AN-Beiträge Arbeitslosenversicherung", fake.amount(fake.money(c.pension * 13 / 93), "de_euro")))
    for x, block in ((20, left), (110, right)):
        y = 72
        for number, label, value in block:
            s.text(x, y, f"Nr. {number}", 8, bold=True)
            s.text(x + 14, y, label, 8.5)
            s.text(x + 78, y + 5, value, 9.5, align="right")
            s.rule(x, y + 7, x + 80, 0.15)
            y += 12
    s.text(20, 140, f"Erstellt am {fake.day(date(c.year + 1, 2, rng.randint(3, 27)))} durch "
                    f"{rng.choice(('Kanzlei Brandt & Vogel', 'Lohnbüro Siebert', 'Steuerbüro Hollmann'))} im Auftrag des Arbeitgebers.", 7.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)
