"""Payslips, development layouts: a DATEV-style German slip, an English slip, an upper-case form."""
import random

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet


def payslip_truth(employer, employee, period, pay, account, printed=("tax_class", "iban")) -> dict:
    fields = {"employer": employer.name, "employee": employee.plain, "period": fake.month(period, "iso"),
              "gross": f"{pay.gross:.2f}", "net": f"{pay.net:.2f}", "payout": f"{pay.payout:.2f}"}
    if "tax_class" in printed:
        fields["tax_class"] = pay.tax_class
    if "iban" in printed:
        fields["iban"] = account
    return fields


def deduction_rows(pay, style: str, words: dict) -> list[tuple[str, str]]:
    rows = [(words["wage_tax"], pay.wage_tax)]
    if pay.solidarity:
        rows.append((words["soli"], pay.solidarity))
    if pay.church_tax:
        rows.append((words["church"], pay.church_tax))
    rows += [(words["health"], pay.health), (words["care"], pay.care), (words["pension"], pay.pension),
             (words["unemployment"], pay.unemployment)]
    return [(label, fake.amount(-value if style == "de_minus" else value, style)) for label, value in rows]


GERMAN = {"wage_tax": "Lohnsteuer", "soli": "Solidaritätszuschlag", "church": "Kirchensteuer",
          "health": "Krankenversicherung", "care": "Pflegeversicherung", "pension": "Rentenversicherung",
          "unemployment": "Arbeitslosenversicherung"}
ENGLISH = {"wage_tax": "Income tax", "soli": "Solidarity surcharge", "church": "Church tax",
           "health": "Health insurance", "care": "Long-term care insurance", "pension": "Pension insurance",
           "unemployment": "Unemployment insurance"}


@layout("payslip", "L1", DEVELOPMENT)
def datev_style(rng: random.Random, spec: Spec) -> Draft:
    """German, letterhead top left, address window, a facts box on the right, one column of sums."""
    employer, employee = fake.company(rng), fake.person(rng)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Verdienstabrechnung")
    s.text(20, 18, employer.name, 12, bold=True)
    s.text(20, 23, f"{employer.street} · {employer.city}", 8)
    s.lines(20, 48, (employee.name, employee.street, employee.city), 10)
    s.text(120, 45, "Abrechnung der Brutto/Netto-Bezüge", 10, bold=True)
    facts = (("Abrechnungsmonat", fake.month(period, "de")), ("Personal-Nr.", f"{rng.randint(1000, 99999)}"),
             ("Steuerklasse", str(pay.tax_class)), ("Eintritt", fake.day(fake.AS_OF.replace(year=rng.randint(2015, 2025), day=1), "dmy")))
    for index, (label, value) in enumerate(facts):
        s.text(120, 52 + index * 5, label, 9)
        s.text(190, 52 + index * 5, value, 9, align="right")
    y = s.table(20, 90, (25, 100, 45), [("Lohnart", "Bezeichnung", "Betrag EUR"),
                                          ("1000", "Gehalt", fake.amount(pay.gross, "de"))],
                aligns=("left", "left", "right"))
    s.rule(20, y, 190)
    s.text(20, y + 5, "Gesamtbrutto", 10, bold=True)
    s.text(189, y + 5, fake.amount(pay.gross, "de"), 10, bold=True, align="right")
    y += 15
    for label, value in deduction_rows(pay, "de", GERMAN):
        s.text(45, y, label)
        s.text(189, y, value, align="right")
        y += 5
    s.rule(20, y, 190)
    s.text(20, y + 5, "Nettoverdienst", 10, bold=True)
    s.text(189, y + 5, fake.amount(pay.net, "de"), 10, bold=True, align="right")
    y += 12
    for label, value in pay.net_deductions:
        s.text(45, y, label)
        s.text(189, y, fake.amount(-value, "de_minus"), align="right")
        y += 5
    s.text(20, y + 5, "Auszahlungsbetrag", 10, bold=True)
    s.text(189, y + 5, fake.amount(pay.payout, "de"), 10, bold=True, align="right")
    s.text(20, y + 15, f"Überweisung an: IBAN {fake.iban_spaced(account)}", 9)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


@layout("payslip", "L2", DEVELOPMENT)
def english_two_columns(rng: random.Random, spec: Spec) -> Draft:
    """English, an Employer | Employee header side by side, the period as a date range, amounts 1,234.56."""
    employer, employee = fake.company(rng), fake.person(rng)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Payslip")
    s.text(105, 20, "PAYSLIP", 16, bold=True, align="center")
    s.text(20, 35, "Employer", 9, bold=True)
    s.text(110, 35, "Employee", 9, bold=True)
    s.lines(20, 40, (employer.name, employer.street, employer.city), 10)
    s.lines(110, 40, (employee.plain, employee.street, employee.city), 10)
    last = fake.month_last(period)
    s.text(20, 62, f"Pay period: {fake.day(period, 'dmy')} - {fake.day(last, 'dmy')}", 10)
    s.text(110, 62, f"Tax class: {pay.tax_class}", 10)
    s.text(110, 67, f"Payment date: {fake.day(last, 'long_en')}", 10)
    y = s.table(20, 80, (110, 60), [("Earnings", "Amount (EUR)"), ("Base salary", fake.amount(pay.gross, "en"))],
                aligns=("left", "right"))
    s.text(21, y + 2, "Gross pay", 10, bold=True)
    s.text(189, y + 2, fake.amount(pay.gross, "en"), 10, bold=True, align="right")
    y = s.table(20, y + 14, (110, 60), [("Deductions", "Amount (EUR)"), *deduction_rows(pay, "en", ENGLISH)],
                aligns=("left", "right"))
    s.text(21, y + 2, "Net pay", 10, bold=True)
    s.text(189, y + 2, fake.amount(pay.net, "en"), 10, bold=True, align="right")
    y += 10
    for label, value in pay.net_deductions:
        s.text(21, y, label)
        s.text(189, y, fake.amount(-value, "en"), align="right")
        y += 5
    s.text(21, y + 3, "Amount paid", 10, bold=True)
    s.text(189, y + 3, fake.amount(pay.payout, "en"), 10, bold=True, align="right")
    s.text(21, y + 12, f"Paid to account {fake.iban_spaced(account)}", 9)
    fields = payslip_truth(employer, employee, period, pay, account)
    return Draft(s.pdf(), fields, employee.name)


@layout("payslip", "L3", DEVELOPMENT)
def upper_case_form(rng: random.Random, spec: Spec) -> Draft:
    """Upper-case labels above their values in boxes, dotted leaders, trailing-minus deductions, Courier."""
    employer, employee = fake.company(rng), fake.person(rng)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    s = Sheet("courier", "Entgeltabrechnung")
    s.text(20, 18, "ENTGELTABRECHNUNG", 14, bold=True)
    s.text(190, 18, employer.name.upper(), 9, bold=True, align="right")
    s.text(190, 22, f"{employer.street}, {employer.city}", 8, align="right")
    boxes = (("ABRECHNUNGSZEITRAUM", f"{fake.day(period)} - {fake.day(fake.month_last(period))}"),
             ("NAME, VORNAME", employee.reversed), ("STKL", str(pay.tax_class)),
             ("PERS.-NR.", str(rng.randint(10000, 99999))))
    x = 20
    for (label, value), width in zip(boxes, (55, 60, 20, 35)):
        s.box(x, 30, width, 13)
        s.text(x + 1.5, 34, label, 7)
        s.text(x + 1.5, 40, value, 9)
        x += width
    s.lines(20, 55, (employee.plain, employee.street, employee.city), 9.5)
    y = 80
    s.text(20, y, "BEZÜGE", 10, bold=True)
    y += 6
    s.leader(25, 185, y, "Grundgehalt", fake.amount(pay.gross, "de"), 9)
    y += 6
    s.leader(25, 185, y, "Summe Bruttoentgelt", fake.amount(pay.gross, "de"), 9, bold=True)
    y += 10
    s.text(20, y, "ABZÜGE", 10, bold=True)
    y += 6
    for label, value in deduction_rows(pay, "de_minus", GERMAN):
        s.leader(25, 185, y, label, value, 9)
        y += 5
    y += 3
    s.leader(25, 185, y, "Netto-Entgelt", fake.amount(pay.net, "de"), 9, bold=True)
    y += 8
    for label, value in pay.net_deductions:
        s.leader(25, 185, y, label, fake.amount(-value, "de_minus"), 9)
        y += 5
    s.leader(25, 185, y + 3, "Überweisungsbetrag", fake.amount(pay.payout, "de"), 9, bold=True)
    s.text(25, y + 12, f"BANKVERBINDUNG IBAN {account}", 8)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)
