"""Employment contracts, HELD-OUT layouts: measured on, never read while writing or tuning the field readers."""
import random

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.employment_contract import contract, paragraphs, wrap


@layout("employment_contract", "L4", HELD_OUT)
def parties_side_by_side(rng: random.Random, spec: Spec) -> Draft:
    """'Arbeitgeber | Arbeitnehmer/in' as two boxes side by side, the start as 'ab dem 01.03.2023', the salary
    monthly with the annual figure in brackets."""
    c = contract(rng)
    s = Sheet(rng.choice(("dejavu", "dejavu-condensed")), "Anstellungsvertrag")
    s.text(105, 20, "Anstellungsvertrag", 15, bold=True, align="center")
    for x, label, party in ((20, "Arbeitgeber", c.employer), (110, "Arbeitnehmer/in", c.employee)):
        s.box(x, 30, 80, 24)
        s.text(x + 2, 35, label, 7.5, bold=True)
        name = party.name if label == "Arbeitgeber" else party.plain
        s.lines(x + 2, 41, (name, party.street, party.city), 9.5)
    paragraphs(s, 20, 66, (
        ("1. Beginn und Probezeit", f"Das Arbeitsverhältnis wird ab dem {fake.day(c.start)} auf unbestimmte Zeit "
                                    "geschlossen. Die Probezeit beträgt sechs Monate."),
        ("2. Aufgaben", f"Die Arbeitnehmerin / der Arbeitnehmer wird als {c.role[0]} beschäftigt."),
        ("3. Vergütung", f"Das monatliche Bruttogehalt beträgt {fake.amount(c.monthly)} € "
                         f"(Jahresbruttogehalt {fake.amount(c.annual)} €). Überstunden sind damit abgegolten."),
        ("4. Arbeitszeit und Urlaub", f"{c.hours} Stunden pro Woche; {c.leave} Arbeitstage Urlaub."),
        ("5. Schlussbestimmungen", "Änderungen bedürfen der Schriftform."),
    ), size=9.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("employment_contract", "L5", HELD_OUT)
def contract_of_employment(rng: random.Random, spec: Spec) -> Draft:
    """English: 'between ... (the Company) and ... (the Employee)', a schedule with 'Start date: 2023-03-01' and
    'Annual base salary: EUR 72,000.00 gross'."""
    c = contract(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Contract of employment")
    s.text(105, 22, "Contract of Employment", 16, bold=True, align="center")
    y = paragraphs(s, 20, 36, (
        (None, f"This contract is made between {c.employer.name}, registered at {c.employer.street}, "
               f"{c.employer.city} (the \"Company\"), and {c.employee.plain}, residing at {c.employee.street}, "
               f"{c.employee.city} (the \"Employee\")."),
        ("Duties", f"The Employee will work as {c.role[1]} and report to the head of department."),
        ("Probation", "The first six months of employment are a probationary period."),
        ("Notice", "After probation, either party may terminate with the statutory notice period."),
    ), size=10)
    s.text(20, y + 6, "Schedule", 11, bold=True)
    y = s.table(20, y + 14, (70, 100), [
        ("Term", "Agreed"), ("Start date", fake.day(c.start, "iso")),
        ("Annual base salary", f"EUR {fake.amount(c.annual, 'en')} gross"),
        ("Working time", f"{c.hours} hours per week"), ("Annual leave", f"{c.leave} days")],
        size=10, leading=6.5)
    s.text(20, y + 16, f"Signed {fake.day(c.signed, 'iso')}", 9.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("employment_contract", "L6", HELD_OUT)
def bilingual_columns(rng: random.Random, spec: Spec) -> Draft:
    """German and English side by side in two columns, as expats' contracts often are; salary in whole euros."""
    c = contract(rng)
    s = Sheet("dejavu-serif", "Arbeitsvertrag / Employment Agreement")
    s.text(105, 18, "Arbeitsvertrag / Employment Agreement", 14, bold=True, align="center")
    euros = f"{int(c.annual):,}".replace(",", ".")
    sections = (
        ((f"Zwischen {c.employer.name} (Arbeitgeber) und {c.employee.plain} (Arbeitnehmer) wird folgender "
          "Vertrag geschlossen."),
         (f"Between {c.employer.name} (employer) and {c.employee.plain} (employee) the following agreement "
          "is made.")),
        (f"§ 1 Beginn. Das Arbeitsverhältnis beginnt am {fake.day(c.start, 'long_de')}.",
         f"§ 1 Commencement. The employment begins on {fake.day(c.start, 'long_en')}."),
        (f"§ 2 Tätigkeit. Der Arbeitnehmer wird als {c.role[0]} tätig.",
         f"§ 2 Position. The employee works as {c.role[1]}."),
        (f"§ 3 Vergütung. Das Jahresgehalt beträgt brutto {euros} €, zahlbar in 12 Raten.",
         f"§ 3 Remuneration. The annual gross salary is € {euros}, paid in 12 instalments."),
        (f"§ 4 Urlaub. {c.leave} Arbeitstage im Jahr.", f"§ 4 Holiday. {c.leave} working days per year."),
    )
    y = 32
    for german, english in sections:
        left, right = wrap(s, german, 9, 80), wrap(s, english, 9, 80)
        for index in range(max(len(left), len(right))):
            if index < len(left):
                s.text(20, y + index * 4.3, left[index], 9)
            if index < len(right):
                s.text(110, y + index * 4.3, right[index], 9)
        y += max(len(left), len(right)) * 4.3 + 4
    s.text(20, y + 10, f"{c.employer.city.split(' ', 1)[1]}, {fake.day(c.signed)}", 9)
    return Draft(s.pdf(), c.truth(), c.employee.name)
