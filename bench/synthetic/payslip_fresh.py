"""Payslips, fresh development layouts (added 2026-12-01): a DATEV-like grid of wage-type codes, an English
slip of an international employer with current and year-to-date columns.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.payslip import payslip_truth

CONFESSIONS = ("ev", "rk", "--", "--")
HEALTH_FUNDS = ("AOK Bayern", "TK", "BARMER", "DAK-Gesundheit", "IKK classic", "hkk")


@layout("payslip", "L10", DEVELOPMENT)
def wage_type_grid(rng: random.Random, spec: Spec) -> Draft:
    """'Brutto-Netto-Abrechnung': the period only in the heading ('Abrechnung für Oktober 2026'), the
    employee only in the window envelope's block ('Herrn' / 'Frau'), personal data in a boxed grid
    (labels above values: Personalnummer, Steuerklasse, Konfession, Krankenkasse), wage-type codes
    with Menge / Faktor columns, an 'EUR' column head and no currency at any value, the tax and social
    insurance bases side by side above their values, deductions grouped in two blocks."""
    employer, employee = fake.company(rng), fake.person(rng)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed")), "Brutto-Netto-Abrechnung")
    s.text(20, 14, f"{employer.name} · {employer.street} · {employer.city}", 7)
    s.rule(20, 16, 95, 0.3)
    s.lines(20, 24, fake.window(employee), 10, leading=4.8)
    s.text(120, 20, employer.name, 10, bold=True)
    s.lines(120, 25, (employer.street, employer.city, "Personalabteilung"), 8, leading=3.8)
    s.text(20, 58, "Brutto-Netto-Abrechnung", 13, bold=True)
    heading = rng.choice((f"Abrechnung für {fake.month(period, 'de')}", f"Entgeltabrechnung {fake.month(period, 'dot')}"))
    s.text(20, 64, heading, 10)
    grid = (("Personalnummer", f"{rng.randint(100, 9999):05d}"), ("Steuerklasse", str(pay.tax_class)),
            ("Kinderfrb.", rng.choice(("0,0", "0,5", "1,0"))), ("Konfession", rng.choice(CONFESSIONS)),
            ("Krankenkasse", rng.choice(HEALTH_FUNDS)), ("Eintritt", fake.day(fake.AS_OF.replace(year=rng.randint(2012, 2025), day=1))))
    x = 20
    for (label, value), width in zip(grid, (27, 25, 20, 22, 40, 36)):
        s.box(x, 70, width, 11, width=0.3)
        s.text(x + 1.2, 73.5, label, 6.5)
        s.text(x + 1.2, 79, value, 8.5)
        x += width
    y = s.table(20, 92, (18, 82, 20, 20, 30), [
        ("Lohnart", "Bezeichnung", "Menge", "Faktor", "EUR"),
        ("1000", "Grundvergütung", "1,00", "", fake.amount(pay.gross, "de"))], size=8.5,
        aligns=("left", "left", "right", "right", "right"))
    y += 4
    bases = (("Gesamt-Brutto", pay.gross), ("Steuer-Brutto", pay.gross),
             ("KV/PV-Brutto", min(pay.gross, fake.money("5812.50"))), ("RV/AV-Brutto", min(pay.gross, fake.money("8450.00"))))
    x = 20
    for label, value in bases:
        s.box(x, y, 42.5, 11, width=0.3)
        s.text(x + 41.5, y + 3.5, label, 7, align="right")
        s.text(x + 41.5, y + 9, fake.amount(value, "de"), 9, bold=label == "Gesamt-Brutto", align="right")
        x += 42.5
    y += 18
    blocks = (("Steuerrechtliche Abzüge", [("Lohnsteuer", pay.wage_tax), ("Solidaritätszuschlag", pay.solidarity),
                                          ("Kirchensteuer", pay.church_tax)]),
              ("Sozialversicherungsbeiträge", [("KV-Beitrag", pay.health), ("PV-Beitrag", pay.care),
                                               ("RV-Beitrag", pay.pension), ("AV-Beitrag", pay.unemployment)]))
    for title, rows in blocks:
        s.text(20, y, title, 8.5, bold=True)
        s.text(130, y, f"Summe {fake.amount(sum(v for _, v in rows), 'de')}", 8)
        y += 4.5
        for label, value in rows:
            s.text(25, y, label, 8.5)
            s.text(189, y, fake.amount(value, "de"), 8.5, align="right")
            y += 4.2
        y += 3
    s.rule(20, y - 2, 190, 0.3)
    s.text(20, y + 2, "Netto-Verdienst", 9.5, bold=True)
    s.text(189, y + 2, fake.amount(pay.net, "de"), 9.5, bold=True, align="right")
    y += 9
    if pay.net_deductions:
        s.text(20, y, "Nettobe-/abzüge", 8.5, bold=True)
        y += 4.5
        for index, (label, value) in enumerate(pay.net_deductions):
            s.text(20, y, str(7100 + index * 10), 8.5)
            s.text(38, y, label, 8.5)
            s.text(189, y, fake.amount(-value, "de"), 8.5, align="right")
            y += 4.2
    s.rule(20, y, 190, 0.3)
    s.text(20, y + 5, "Auszahlungsbetrag", 9.5, bold=True)
    s.text(189, y + 5, fake.amount(pay.payout, "de"), 9.5, bold=True, align="right")
    s.text(20, y + 14, f"Bankverbindung   IBAN {fake.iban_spaced(account)}", 8)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


@layout("payslip", "L11", DEVELOPMENT)
def international_payslip(rng: random.Random, spec: Spec) -> Draft:
    """English only, as an international employer in Germany prints it: two columns of label/value pairs
    side by side (Name, Employee ID, Tax class | Pay date, Pay period, Currency), amounts with no currency
    ('Currency: EUR' in the header) in a 'This period' and a 'Year to date' column, 'Gross salary',
    'Total deductions', 'Net pay'."""
    employer, employee = fake.company(rng), fake.person(rng)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Payslip")
    s.text(20, 20, "Payslip", 18, bold=True)
    s.text(190, 18, employer.name.upper(), 10, bold=True, align="right")
    s.text(190, 23, f"{employer.street}, {employer.city}, Germany", 7.5, align="right")
    last = fake.month_last(period)
    left = (("Name", employee.plain), ("Employee ID", f"E{rng.randint(10000, 99999)}"),
            ("Department", rng.choice(("Engineering", "Finance", "Operations", "Sales"))), ("Tax class", str(pay.tax_class)))
    right = (("Pay date", f"{last.day:02d} {fake.MONTHS_EN[last.month - 1][:3]} {last.year}"),
             ("Pay period", f"{fake.MONTHS_EN[period.month - 1][:3]} {period.year}"), ("Currency", "EUR"),
             ("Cost centre", str(rng.randint(4000, 4999))))
    for column, pairs in ((20, left), (110, right)):
        for index, (label, value) in enumerate(pairs):
            s.text(column, 36 + index * 5.5, label, 8.5, bold=True)
            s.text(column + 28, 36 + index * 5.5, value, 8.5)
    months = period.month
    year_to_date = lambda value: fake.amount(value * months, "en")  # noqa: E731 - a column's rule, read once
    y = s.table(20, 64, (100, 35, 35), [("Earnings", "This period", "Year to date"),
                                        ("Basic salary", fake.amount(pay.gross, "en"), year_to_date(pay.gross))],
                size=8.5, aligns=("left", "right", "right"))
    s.rule(20, y - 2, 190, 0.3)
    s.text(21, y + 2, "Gross salary", 9, bold=True)
    s.text(154, y + 2, fake.amount(pay.gross, "en"), 9, bold=True, align="right")
    s.text(189, y + 2, year_to_date(pay.gross), 9, align="right")
    rows = [("Income tax (Lohnsteuer)", pay.wage_tax), ("Solidarity surcharge", pay.solidarity),
            ("Church tax", pay.church_tax), ("Health insurance", pay.health), ("Care insurance", pay.care),
            ("Pension insurance", pay.pension), ("Unemployment insurance", pay.unemployment)]
    rows = [(label, value) for label, value in rows if value]
    y = s.table(20, y + 14, (100, 35, 35), [("Deductions", "This period", "Year to date"),
                                             *[(label, fake.amount(value, "en"), year_to_date(value)) for label, value in rows]],
                size=8.5, aligns=("left", "right", "right"))
    deductions = pay.gross - pay.net
    s.text(21, y + 2, "Total deductions", 9, bold=True)
    s.text(154, y + 2, fake.amount(deductions, "en"), 9, align="right")
    s.text(189, y + 2, year_to_date(deductions), 9, align="right")
    y += 11
    s.box(20, y - 5, 170, 8, width=0.4, shade=0.92)
    s.text(22, y, "Net pay", 10, bold=True)
    s.text(154, y, fake.amount(pay.net, "en"), 10, bold=True, align="right")
    s.text(189, y, year_to_date(pay.net), 9, align="right")
    y += 10
    for label, value in pay.net_deductions:
        s.text(21, y, label, 8.5)
        s.text(154, y, fake.amount(-value, "en"), 8.5, align="right")
        y += 4.5
    s.text(21, y + 3, "Transferred to your account", 9, bold=True)
    s.text(154, y + 3, fake.amount(pay.payout, "en"), 9, bold=True, align="right")
    s.text(21, y + 9, f"IBAN {fake.iban_spaced(account)}", 8)
    s.text(105, 285, "This payslip was generated electronically and is valid without a signature.", 7, align="center")
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)
