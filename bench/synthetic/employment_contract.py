"""Employment contracts, development layouts: a German contract with sections, an English one, a short offer letter."""
import random
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet

ROLES = (("Softwareentwickler/in", "Software Engineer"), ("Data Scientist", "Data Scientist"),
         ("Projektmanager/in", "Project Manager"), ("Produktdesigner/in", "Product Designer"),
         ("Controller/in", "Financial Controller"), ("Ingenieur/in Verfahrenstechnik", "Process Engineer"),
         ("Teamleiter/in Vertrieb", "Sales Team Lead"), ("Ärztin / Arzt", "Physician"))


@dataclass(frozen=True)
class Contract:
    employer: object
    employee: object
    start: date
    annual: Decimal
    role: tuple[str, str]
    signed: date
    hours: int
    leave: int

    def truth(self) -> dict:
        return {"employer": self.employer.name, "employee": self.employee.plain, "start_date": self.start.isoformat(),
                "annual_salary": f"{self.annual:.2f}"}

    @property
    def monthly(self) -> Decimal:
        return fake.money(self.annual / 12)


def contract(rng: random.Random) -> Contract:
    """Started before AS_OF (2018 to 2026), signed a few weeks before the start."""
    start = date(rng.randint(2018, 2026), rng.randint(1, 10), rng.choice((1, 1, 1, 15)))
    signed = date.fromordinal(start.toordinal() - rng.randint(20, 90))
    annual = Decimal(rng.randrange(42, 130) * 1000 + rng.choice((0, 0, 500)))
    return Contract(fake.company(rng), fake.person(rng), start, annual, rng.choice(ROLES), signed,
                    rng.choice((38, 39, 40)), rng.choice((28, 30)))


def paragraphs(s: Sheet, x: float, y: float, items, size: float = 9.5, width: float = 170) -> float:
    """Headings and wrapped paragraphs; return the y below them."""
    for heading, text in items:
        if heading:
            s.text(x, y, heading, size + 0.5, bold=True)
            y += size * 0.55
        for line in wrap(s, text, size, width):
            s.text(x, y, line, size)
            y += size * 0.47
        y += size * 0.35
    return y


def wrap(s: Sheet, text: str, size: float, width: float) -> list[str]:
    lines, current = [], ""
    for word in text.split():
        candidate = f"{current} {word}".strip()
        if s.width(candidate, size) > width and current:
            lines.append(current)
            current = word
        else:
            current = candidate
    return lines + ([current] if current else [])


@layout("employment_contract", "L1", DEVELOPMENT)
def german_sections(rng: random.Random, spec: Spec) -> Draft:
    """German: 'zwischen ... (Arbeitgeber) und ... (Arbeitnehmer)', § sections, the start as '1. April 2024'."""
    c = contract(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Arbeitsvertrag")
    s.text(105, 22, "Arbeitsvertrag", 16, bold=True, align="center")
    y = s.lines(20, 36, ("zwischen", f"{c.employer.name}, {c.employer.street}, {c.employer.city}",
                         "- nachfolgend „Arbeitgeber“ genannt -", "und",
                         f"{c.employee.name}, {c.employee.street}, {c.employee.city}",
                         "- nachfolgend „Arbeitnehmer“ genannt -"), 10, leading=6)
    y = paragraphs(s, 20, y + 6, (
        ("§ 1 Beginn des Arbeitsverhältnisses", f"Das Arbeitsverhältnis beginnt am {fake.day(c.start, 'long_de')}. "
         "Die ersten sechs Monate gelten als Probezeit."),
        ("§ 2 Tätigkeit", f"Der Arbeitnehmer wird als {c.role[0]} eingestellt."),
        ("§ 3 Arbeitszeit", f"Die regelmäßige wöchentliche Arbeitszeit beträgt {c.hours} Stunden."),
        ("§ 4 Vergütung", f"Der Arbeitnehmer erhält ein Bruttojahresgehalt von {fake.amount(c.annual)} EUR, "
         f"zahlbar in zwölf gleichen Monatsraten von {fake.amount(c.monthly)} EUR jeweils zum Monatsende."),
        ("§ 5 Urlaub", f"Der Arbeitnehmer hat Anspruch auf {c.leave} Arbeitstage Urlaub im Kalenderjahr."),
        ("§ 6 Kündigung", "Nach der Probezeit gelten die gesetzlichen Kündigungsfristen."),
    ))
    s.text(20, y + 12, f"{c.employer.city.split(' ', 1)[1]}, den {fake.day(c.signed)}", 10)
    s.text(20, y + 30, "Arbeitgeber", 9)
    s.text(120, y + 30, "Arbeitnehmer", 9)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("employment_contract", "L2", DEVELOPMENT)
def english_contract(rng: random.Random, spec: Spec) -> Draft:
    """English: parties as a numbered list, 'Commencement', 'Remuneration' with an annual gross salary in EUR 1,234.56."""
    c = contract(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Employment contract")
    s.text(20, 22, "EMPLOYMENT CONTRACT", 15, bold=True)
    y = paragraphs(s, 20, 36, (
        ("Parties", f"(1) {c.employer.name}, {c.employer.street}, {c.employer.city} (the \"Employer\") and "
         f"(2) {c.employee.plain}, {c.employee.street}, {c.employee.city} (the \"Employee\")."),
        ("1. Commencement", f"The employment commences on {fake.day(c.start, 'long_en')}."),
        ("2. Position", f"The Employee is employed as {c.role[1]}."),
        ("3. Remuneration", f"The Employee receives an annual gross salary of EUR {fake.amount(c.annual, 'en')}, "
         "paid in twelve monthly instalments."),
        ("4. Working hours", f"{c.hours} hours per week."),
        ("5. Holidays", f"{c.leave} working days per calendar year."),
    ), size=10)
    s.text(20, y + 14, f"Signed on {fake.day(c.signed, 'long_en')}", 10)
    s.text(20, y + 30, f"for {c.employer.name}", 9)
    s.text(120, y + 30, c.employee.plain, 9)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("employment_contract", "L3", DEVELOPMENT)
def contract_sheet(rng: random.Random, spec: Spec) -> Draft:
    """A one-page key facts sheet: labels on the left, values in a column, dates dd.mm.yyyy."""
    c = contract(rng)
    s = Sheet(rng.choice(("courier", "dejavu-condensed")), "Arbeitsvertrag")
    s.text(20, 20, "Arbeitsvertrag - Vertragsdaten", 13, bold=True)
    y = 36
    for label, value in (("Arbeitgeber", c.employer.name), ("Sitz", f"{c.employer.street}, {c.employer.city}"),
                         ("Arbeitnehmer", c.employee.plain), ("Wohnort", f"{c.employee.street}, {c.employee.city}"),
                         ("Position", c.role[0]), ("Eintrittsdatum", fake.day(c.start)),
                         ("Wochenarbeitszeit", f"{c.hours} Std."), ("Jahresbruttogehalt", f"{fake.amount(c.annual)} EUR"),
                         ("Urlaubsanspruch", f"{c.leave} Tage")):
        s.text(20, y, f"{label}:", 10)
        s.text(75, y, value, 10)
        y += 7
    paragraphs(s, 20, y + 8, ((None, "Im Übrigen gelten die Bestimmungen der Anlage (Allgemeine "
                                      "Arbeitsbedingungen) sowie die gesetzlichen Vorschriften."),), size=9)
    return Draft(s.pdf(), c.truth(), c.employee.name)
