"""Wage tax certificates (Lohnsteuerbescheinigung) for 2025, development layouts: the official print, a payroll
provider's version, an English summary."""
import random
from dataclasses import dataclass
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet

YEAR = 2025  # the certificate a client holds on AS_OF (November 2026)


@dataclass(frozen=True)
class Certificate:
    year: int
    employer: object
    employee: object
    gross: Decimal
    wage_tax: Decimal
    solidarity: Decimal
    church_tax: Decimal
    pension: Decimal
    health: Decimal
    id_number: str
    etin: str

    def truth(self) -> dict:
        return {"year": self.year, "employer": self.employer.name, "employee": self.employee.plain,
                "gross_wages": f"{self.gross:.2f}", "wage_tax": f"{self.wage_tax:.2f}"}


def certificate(rng: random.Random) -> Certificate:
    monthly = fake.payroll(rng)
    months = Decimal(12)
    employee = fake.person(rng)
    etin = (employee.family.upper().replace(" ", "")[:4] + employee.given.upper()[:2]).ljust(6, "X")
    return Certificate(YEAR, fake.company(rng), employee, monthly.gross * months, monthly.wage_tax * months,
                       monthly.solidarity * months, monthly.church_tax * months, monthly.pension * months,
                       monthly.health * months, f"{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}",
                       f"{etin}{rng.randint(10, 99)}{rng.randint(100000, 999999)}"[:14])


def numbered_lines(c: Certificate, style: str = "de") -> list[tuple[str, str, str]]:
    return [
        ("1.", "Bescheinigungszeitraum", f"01.01.{c.year} - 31.12.{c.year}"),
        ("2.", "Zeiträume ohne Anspruch auf Arbeitslohn", ""),
        ("3.", "Bruttoarbeitslohn einschl. Sachbezüge ohne 9. und 10.", fake.amount(c.gross, style)),
        ("4.", "Einbehaltene Lohnsteuer von 3.", fake.amount(c.wage_tax, style)),
        ("5.", "Einbehaltener Solidaritätszuschlag von 3.", fake.amount(c.solidarity, style)),
        ("6.", "Einbehaltene Kirchensteuer des Arbeitnehmers von 3.", fake.amount(c.church_tax, style)),
        ("22a.", "Arbeitgeberanteil zur gesetzlichen Rentenversicherung", fake.amount(c.pension, style)),
        ("23a.", "Arbeitnehmeranteil zur gesetzlichen Rentenversicherung", fake.amount(c.pension, style)),
        ("25.", "Arbeitnehmerbeiträge zur gesetzlichen Krankenversicherung", fake.amount(c.health, style)),
    ]


@layout("wage_tax_certificate", "L1", DEVELOPMENT)
def official_print(rng: random.Random, spec: Spec) -> Draft:
    """The official 'Ausdruck der elektronischen Lohnsteuerbescheinigung': employee left, employer right, numbered lines."""
    c = certificate(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Lohnsteuerbescheinigung")
    s.text(20, 18, f"Ausdruck der elektronischen Lohnsteuerbescheinigung für {c.year}", 12, bold=True)
    s.text(20, 23, "Nachstehende Daten wurden maschinell an die Finanzverwaltung übertragen.", 8)
    s.lines(20, 40, (c.employee.plain, c.employee.street, c.employee.city), 10)
    s.text(20, 62, f"Identifikationsnummer: {c.id_number}", 9)
    s.text(20, 67, f"eTIN: {c.etin}", 9)
    s.text(120, 40, "Anschrift des Arbeitgebers", 8)
    s.lines(120, 45, (c.employer.name, c.employer.street, c.employer.city), 9.5)
    y = 82
    for number, label, value in numbered_lines(c):
        s.text(20, y, number, 9)
        s.text(32, y, label, 9)
        s.text(189, y, value, 9, align="right")
        y += 6
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("wage_tax_certificate", "L2", DEVELOPMENT)
def payroll_provider(rng: random.Random, spec: Spec) -> Draft:
    """A payroll provider's form: boxes with upper-case labels above values, the year as 'Kalenderjahr 2025'."""
    c = certificate(rng)
    s = Sheet("courier", "Lohnsteuerbescheinigung")
    s.text(20, 18, "LOHNSTEUERBESCHEINIGUNG", 14, bold=True)
    s.text(190, 18, f"KALENDERJAHR {c.year}", 11, bold=True, align="right")
    for x, label, value in ((20, "ARBEITNEHMER/IN", c.employee.plain), (110, "ARBEITGEBER", c.employer.name)):
        s.box(x, 28, 80, 14)
        s.text(x + 2, 32, label, 7)
        s.text(x + 2, 38, value, 9.5)
    s.text(20, 50, f"IdNr. {c.id_number}   eTIN {c.etin}", 8.5)
    y = 62
    for number, label, value in numbered_lines(c, "de"):
        s.leader(20, 189, y, f"{number:5} {label}", value, 8.5)
        y += 6
    s.text(20, y + 8, f"{c.employer.street}, {c.employer.city}", 8)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("wage_tax_certificate", "L3", DEVELOPMENT)
def english_summary(rng: random.Random, spec: Spec) -> Draft:
    """English: 'Wage tax certificate 2025', Employer | Employee side by side, amounts 1,234.56."""
    c = certificate(rng)
    s = Sheet(rng.choice(("dejavu-serif", "times")), "Wage tax certificate")
    s.text(20, 20, f"Wage Tax Certificate {c.year}", 15, bold=True)
    s.text(20, 26, "(Lohnsteuerbescheinigung)", 9)
    s.text(20, 38, "Employer", 9, bold=True)
    s.text(110, 38, "Employee", 9, bold=True)
    s.lines(20, 43, (c.employer.name, c.employer.street, c.employer.city), 10)
    s.lines(110, 43, (c.employee.plain, c.employee.street, c.employee.city), 10)
    s.text(20, 65, f"Certificate period: January 1, {c.year} - December 31, {c.year}", 10)
    y = s.table(20, 78, (120, 50), [
        ("Line", "EUR"), ("Gross wages", fake.amount(c.gross, "en")), ("Wage tax withheld", fake.amount(c.wage_tax, "en")),
        ("Solidarity surcharge", fake.amount(c.solidarity, "en")), ("Church tax", fake.amount(c.church_tax, "en")),
        ("Pension insurance (employee)", fake.amount(c.pension, "en")),
        ("Health insurance (employee)", fake.amount(c.health, "en"))], size=10, leading=6.5, aligns=("left", "right"))
    s.text(20, y + 8, f"Tax ID {c.id_number}", 9)
    return Draft(s.pdf(), c.truth(), c.employee.name)
