"""Tax assessments (Einkommensteuerbescheid), development layouts: the Finanzamt letter, an ELSTER print, a tabular summary."""
import random
from dataclasses import dataclass
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet


@dataclass(frozen=True)
class Assessment:
    year: int
    taxpayer: object
    office: str
    number: str
    wages: Decimal
    income: Decimal          # zu versteuerndes Einkommen, whole euros
    income_tax: Decimal
    solidarity: Decimal
    church_tax: Decimal
    paid: Decimal            # wage tax already withheld
    issued: date

    def truth(self) -> dict:
        return {"tax_year": self.year, "tax_number": self.number, "taxable_income": f"{self.income:.2f}",
                "income_tax": f"{self.income_tax:.2f}", "solidarity_surcharge": f"{self.solidarity:.2f}",
                "tax_office": self.office, "taxpayer": self.taxpayer.plain}

    @property
    def balance(self) -> Decimal:
        return self.income_tax + self.solidarity + self.church_tax - self.paid


def assessment(rng: random.Random) -> Assessment:
    """For 2024 or 2025, issued before AS_OF."""
    year = rng.choice((2024, 2025))
    wages = Decimal(rng.randrange(42000, 125000))
    income = wages - Decimal(rng.randrange(1230, 9000))
    income_tax = Decimal(int(income * Decimal(str(round(0.14 + float(income) / 900000, 4)))))
    solidarity = fake.money(income_tax * Decimal("0.055")) if income_tax > 19950 else Decimal("0.00")
    church_tax = fake.money(income_tax * Decimal("0.09")) if rng.random() < 0.3 else Decimal("0.00")
    paid = fake.money(income_tax * Decimal(str(rng.uniform(0.9, 1.1))))
    issued = date(year + 1, rng.randint(3, 12), rng.randint(1, 28)) if year == 2024 else date(2026, rng.randint(4, 10), rng.randint(1, 28))
    return Assessment(year, fake.person(rng), rng.choice(fake.TAX_OFFICES), fake.tax_number(rng), wages,
                      income, Decimal(f"{income_tax}.00"), solidarity, church_tax, paid, issued)


@layout("tax_assessment", "L1", DEVELOPMENT)
def finanzamt_letter(rng: random.Random, spec: Spec) -> Draft:
    """The Finanzamt's letter: office top left, Steuernummer box, 'Festsetzung' table, the computation on page 2."""
    a = assessment(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Einkommensteuerbescheid")
    s.text(20, 18, a.office, 12, bold=True)
    s.text(20, 23, "Postfach 10 02 40", 8)
    s.lines(20, 45, (a.taxpayer.name, a.taxpayer.street, a.taxpayer.city), 10)
    s.text(130, 45, "Steuernummer", 8)
    s.text(130, 50, a.number, 10, bold=True)
    s.text(130, 57, "Datum", 8)
    s.text(130, 62, fake.day(a.issued), 10)
    s.text(20, 85, f"Bescheid für {a.year}", 12, bold=True)
    s.text(20, 91, "über Einkommensteuer, Solidaritätszuschlag und Kirchensteuer", 10)
    y = s.table(20, 105, (70, 33, 33, 34), [
        ("Festsetzung", "Einkommensteuer", "Solidaritätszuschl.", "Kirchensteuer"),
        ("festgesetzt werden", fake.amount(a.income_tax), fake.amount(a.solidarity), fake.amount(a.church_tax)),
        ("ab Steuerabzug vom Lohn", fake.amount(a.paid), "0,00", "0,00"),
    ], size=8.5, aligns=("left", "right", "right", "right"))
    s.text(20, y + 8, ("Bitte zahlen Sie " if a.balance > 0 else "Erstattung ") + f"{fake.amount(abs(a.balance))} €", 10)
    if spec.single_page:
        # A photo shows page 1 only: the one-page notice carries its computation below the table.
        y += 32
    else:
        s.text(20, y + 20, "Die Berechnung der Steuer entnehmen Sie bitte der Anlage (Seite 2).", 9)
        s.new_page()
        s.text(20, 20, f"Steuernummer {a.number}", 9)
        y = 32
    s.text(20, y, f"Berechnung der Einkommensteuer {a.year}", 11, bold=True)
    y += 12
    rows = (("Einkünfte aus nichtselbständiger Arbeit", fake.amount(a.wages - 1230)),
            ("Summe der Einkünfte", fake.amount(a.wages - 1230)),
            ("Sonderausgaben", fake.amount(-(a.wages - 1230 - a.income))),
            ("Zu versteuerndes Einkommen", fake.amount(a.income)),
            ("Tarifliche Einkommensteuer", fake.amount(a.income_tax)))
    for label, value in rows:
        s.text(20, y, label, 9.5)
        s.text(189, y, value, 9.5, align="right")
        y += 6
    return Draft(s.pdf(), a.truth(), a.taxpayer.name, pages=s.pages)


@layout("tax_assessment", "L2", DEVELOPMENT)
def elster_print(rng: random.Random, spec: Spec) -> Draft:
    """An ELSTER-style print: bold upper-case heading, facts as 'Label: value' lines, dotted-leader sums."""
    a = assessment(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Steuerbescheid")
    s.text(105, 20, "EINKOMMENSTEUERBESCHEID", 15, bold=True, align="center")
    s.text(105, 27, f"für das Kalenderjahr {a.year}", 11, align="center")
    y = s.lines(20, 42, (f"Finanzamt: {a.office.removeprefix('Finanzamt ')}", f"Steuernummer: {a.number}",
                         f"Bescheiddatum: {fake.day(a.issued, 'long_de')}",
                         f"Steuerpflichtige Person: {a.taxpayer.plain}",
                         f"Anschrift: {a.taxpayer.street}, {a.taxpayer.city}"), 10, leading=6)
    y += 6
    s.text(20, y, "Ermittlung des zu versteuernden Einkommens", 11, bold=True)
    y += 8
    for label, value in (("Bruttoarbeitslohn", a.wages), ("Werbungskosten", Decimal(-1230)),
                         ("Sonderausgaben und Vorsorgeaufwendungen", -(a.wages - 1230 - a.income)),
                         ("zu versteuerndes Einkommen", a.income)):
        s.leader(20, 190, y, label, f"{fake.amount(value)} EUR", 10, bold=label.startswith("zu "))
        y += 6
    y += 6
    s.text(20, y, "Festgesetzte Steuern", 11, bold=True)
    y += 8
    for label, value in (("Einkommensteuer", a.income_tax), ("Solidaritätszuschlag", a.solidarity),
                         ("Kirchensteuer", a.church_tax), ("anzurechnende Lohnsteuer", a.paid)):
        s.leader(20, 190, y, label, f"{fake.amount(value)} EUR", 10)
        y += 6
    s.leader(20, 190, y + 4, "Abschlusszahlung" if a.balance > 0 else "Erstattung",
             f"{fake.amount(abs(a.balance))} EUR", 10, bold=True)
    return Draft(s.pdf(), a.truth(), a.taxpayer.name)


@layout("tax_assessment", "L3", DEVELOPMENT)
def english_summary(rng: random.Random, spec: Spec) -> Draft:
    """English translation as an adviser hands it out: a facts table, amounts 1,234.56, dates '3 June 2026'."""
    a = assessment(rng)
    s = Sheet(rng.choice(("dejavu", "helvetica")), "Income tax assessment")
    s.text(20, 20, f"Income Tax Assessment {a.year}", 15, bold=True)
    s.text(20, 27, "(translation of the Einkommensteuerbescheid)", 9)
    y = s.table(20, 40, (60, 110), [
        ("Item", "Value"), ("Tax office", a.office), ("Tax number", a.number), ("Taxpayer", a.taxpayer.plain),
        ("Date of assessment", fake.day(a.issued, "long_en")), ("Assessment year", str(a.year)),
    ], size=10, leading=6.5)
    y = s.table(20, y + 10, (110, 60), [
        ("Computation", "EUR"), ("Income from employment", fake.amount(a.wages - 1230, "en")),
        ("Taxable income", fake.amount(a.income, "en")), ("Income tax", fake.amount(a.income_tax, "en")),
        ("Solidarity surcharge", fake.amount(a.solidarity, "en")), ("Church tax", fake.amount(a.church_tax, "en")),
        ("Wage tax withheld", fake.amount(-a.paid, "en")),
        ("Balance due" if a.balance > 0 else "Refund", fake.amount(abs(a.balance), "en")),
    ], size=10, leading=6.5, aligns=("left", "right"))
    s.text(20, y + 10, f"Payment due by {fake.day(a.issued + timedelta(days=31), 'long_en')}.", 9)
    return Draft(s.pdf(), a.truth(), a.taxpayer.name)
