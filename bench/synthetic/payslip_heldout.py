"""Payslips, HELD-OUT layouts: measured on, never read while writing or tuning the field readers."""
import random
from decimal import Decimal

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.payslip import payslip_truth

ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


@layout("payslip", "L4", HELD_OUT)
def bilingual_summary_row(rng: random.Random, spec: Spec) -> Draft:
    """German/English labels, an 'Arbeitgeber | Arbeitnehmer/in' header with labels above values, the month as
    10/2026, and the totals as one row of a table under its column headings."""
    employer, employee = fake.company(rng), fake.person(rng, latin1=False)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    s = Sheet(rng.choice(("dejavu", "dejavu-condensed")), "Gehaltsabrechnung")
    s.text(20, 18, "Gehaltsabrechnung / Salary statement", 14, bold=True)
    s.text(20, 25, f"Abrechnungsmonat / Pay month: {fake.month(period, 'slash')}", 10)
    s.box(20, 32, 85, 26)
    s.box(105, 32, 85, 26)
    s.text(22, 37, "Arbeitgeber / Employer", 7.5, bold=True)
    s.text(107, 37, "Arbeitnehmer/in / Employee", 7.5, bold=True)
    s.lines(22, 43, (employer.name, employer.street, employer.city), 9.5)
    s.lines(107, 43, (employee.plain, employee.street, employee.city), 9.5)
    s.text(20, 66, f"Steuerklasse / Tax class {pay.tax_class}    Konfession --    "
                   f"Krankenkasse {rng.choice(('TK', 'AOK Bayern', 'Barmer', 'DAK'))}", 8.5)
    y = s.table(20, 78, (100, 35, 35), [
        ("Bezüge / Earnings", "Menge", "Betrag"), ("Grundgehalt / Base salary", "1,00", fake.amount(pay.gross)),
    ], aligns=("left", "right", "right"))
    y = s.table(20, y + 6, (135, 35), [
        ("Abzüge / Deductions", "Betrag"),
        ("Steuern / Taxes (LSt, SolZ, KiSt)", fake.amount(pay.taxes)),
        ("Sozialversicherung / Social security", fake.amount(pay.social)),
        *[(label, fake.amount(value)) for label, value in pay.net_deductions],
    ], aligns=("left", "right"))
    head = ("Bruttobezüge", "Steuern", "Sozialvers.", "Nettobezüge", "Auszahlung")
    values = tuple(fake.amount(v) for v in (pay.gross, pay.taxes, pay.social, pay.net, pay.payout))
    y = s.table(20, y + 10, (34, 34, 34, 34, 34), [head, values], size=9.5, aligns=("right",) * 5, grid=True)
    s.text(20, y + 8, f"Die Auszahlung erfolgt auf das Konto / Paid to: {fake.iban_spaced(account)}", 8.5)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


@layout("payslip", "L5", HELD_OUT)
def two_column_body(rng: random.Random, spec: Spec) -> Draft:
    """The period as 'ABRECHNUNGSZEITRAUM 01.10.2026 - 31.10.2026', earnings left and deductions right,
    'EUR 1.234,56' amounts and 'EUR 1.234,56-' deductions, the tax class in Roman numerals, the employer
    only in the footer."""
    employer, employee = fake.company(rng), fake.person(rng)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    s = Sheet(rng.choice(("times", "helvetica")), "Bezügemitteilung")
    s.lines(20, 30, (f"{employee.given} {employee.family.upper()}", employee.street, employee.city), 10.5)
    s.text(120, 30, "BEZÜGEMITTEILUNG", 12, bold=True)
    s.text(120, 36, f"ABRECHNUNGSZEITRAUM {fake.day(period)} - {fake.day(fake.month_last(period))}", 8.5)
    s.text(120, 41, f"StKl./Faktor {ROMAN[pay.tax_class]} / 1,000", 8.5)
    s.text(120, 46, f"SV-Nr. {rng.randint(10, 99)} {rng.randint(100000, 999999)} {employee.family[0].upper()} "
                    f"{rng.randint(100, 999)}", 8.5)
    s.rule(20, 60, 190)
    s.text(20, 66, "Bezüge", 10, bold=True)
    s.text(110, 66, "Abzüge", 10, bold=True)
    s.text(20, 73, "Monatsgehalt", 9.5)
    s.text(100, 73, f"EUR {fake.amount(pay.gross)}", 9.5, align="right")
    s.text(20, 81, "Gesamt-Brutto", 9.5, bold=True)
    s.text(100, 81, f"EUR {fake.amount(pay.gross)}", 9.5, bold=True, align="right")
    y = 73
    for label, value in (("LSt", pay.wage_tax), ("SolZ", pay.solidarity), ("KiSt", pay.church_tax),
                         ("KV-Beitrag", pay.health), ("PV-Beitrag", pay.care), ("RV-Beitrag", pay.pension),
                         ("AV-Beitrag", pay.unemployment)):
        s.text(110, y, label, 9.5)
        s.text(190, y, f"EUR {fake.amount(-value, 'de_minus')}", 9.5, align="right")
        y += 5.5
    s.text(110, y + 2, "Summe Abzüge", 9.5, bold=True)
    s.text(190, y + 2, f"EUR {fake.amount(pay.taxes + pay.social)}", 9.5, bold=True, align="right")
    y += 14
    s.rule(20, y - 6, 190)
    s.text(110, y, "Netto-Bezüge", 10, bold=True)
    s.text(190, y, f"EUR {fake.amount(pay.net)}", 10, bold=True, align="right")
    for label, value in pay.net_deductions:
        y += 5.5
        s.text(110, y, label, 9.5)
        s.text(190, y, f"EUR {fake.amount(-value)}", 9.5, align="right")
    s.text(110, y + 8, "Zahlbetrag", 10, bold=True)
    s.text(190, y + 8, f"EUR {fake.amount(pay.payout)}", 10, bold=True, align="right")
    s.text(110, y + 14, f"an IBAN {fake.iban_spaced(account)}", 8.5)
    s.rule(20, 276, 190, 0.3)
    s.text(105, 281, f"{employer.name} · {employer.street} · {employer.city} · Personalabteilung", 7.5,
           align="center")
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


@layout("payslip", "L6", HELD_OUT)
def earnings_statement(rng: random.Random, spec: Spec) -> Draft:
    """English, labels above values in a grid, 'Name, first name' reversed, current and year-to-date columns."""
    employer, employee = fake.company(rng), fake.person(rng, latin1=False)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    months = Decimal(period.month)
    s = Sheet("dejavu-condensed", "Earnings statement")
    s.text(20, 18, employer.name, 11, bold=True)
    s.text(190, 18, "EARNINGS STATEMENT", 13, bold=True, align="right")
    cells = (("EMPLOYEE", employee.reversed), ("EMPLOYEE NO.", str(rng.randint(100, 9999))),
             ("PERIOD", fake.month(period, "iso")), ("TAX CLASS", str(pay.tax_class)),
             ("PAY DATE", fake.day(fake.month_last(period), "iso")), ("CURRENCY", "EUR"))
    for index, (label, value) in enumerate(cells):
        x, y = 20 + (index % 3) * 57, 30 + (index // 3) * 13
        s.text(x, y, label, 7, bold=True)
        s.text(x, y + 5, value, 9.5)
    rows = [("DESCRIPTION", "CURRENT", "YEAR TO DATE"),
            ("Base salary", fake.amount(pay.gross, "en"), fake.amount(pay.gross * months, "en")),
            ("TOTAL GROSS", fake.amount(pay.gross, "en"), fake.amount(pay.gross * months, "en")),
            ("Income tax", fake.amount(-pay.wage_tax, "en"), fake.amount(-pay.wage_tax * months, "en")),
            ("Solidarity / church tax", fake.amount(-(pay.solidarity + pay.church_tax), "en"),
             fake.amount(-(pay.solidarity + pay.church_tax) * months, "en")),
            ("Social security (employee)", fake.amount(-pay.social, "en"), fake.amount(-pay.social * months, "en")),
            ("NET SALARY", fake.amount(pay.net, "en"), fake.amount(pay.net * months, "en"))]
    rows += [(label, fake.amount(-value, "en"), fake.amount(-value * months, "en")) for label, value in pay.net_deductions]
    rows.append(("NET PAYMENT", fake.amount(pay.payout, "en"), fake.amount(pay.payout * months, "en")))
    y = s.table(20, 66, (90, 40, 40), rows, size=9.5, aligns=("left", "right", "right"), grid=True)
    s.text(20, y + 8, "Bank account", 7, bold=True)
    s.text(20, y + 13, f"{fake.iban_spaced(account)}", 9.5)
    s.text(20, y + 24, f"{employee.plain}, {employee.street}, {employee.city}", 8)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)
