"""Wage tax certificates, HELD-OUT layouts: measured on, never read while writing or tuning the field readers."""
import random

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.wage_tax_certificate import certificate, numbered_lines


@layout("wage_tax_certificate", "L4", HELD_OUT)
def form_boxes(rng: random.Random, spec: Spec) -> Draft:
    """The year only in a box labelled 'Jahr' and in 'Dauer des Dienstverhältnisses'; the employer's name and
    address under 'Name und Anschrift des Arbeitgebers' on the right; values in a far right column."""
    c = certificate(rng)
    s = Sheet(rng.choice(("dejavu", "dejavu-condensed")), "Lohnsteuerbescheinigung")
    s.text(20, 18, "Lohnsteuerbescheinigung", 14, bold=True)
    s.box(150, 10, 40, 13)
    s.text(152, 14, "Jahr", 7)
    s.text(152, 20, str(c.year), 11, bold=True)
    s.text(20, 32, "Arbeitnehmer", 7.5)
    s.lines(20, 37, (c.employee.plain, c.employee.street, c.employee.city), 10)
    s.text(115, 32, "Name und Anschrift des Arbeitgebers", 7.5)
    s.lines(115, 37, (c.employer.name, c.employer.street, c.employer.city), 10)
    s.text(20, 58, f"Identifikationsnummer {c.id_number}", 8.5)
    s.text(115, 58, f"Personalnummer {rng.randint(100, 99999)}", 8.5)
    rows = [("", "Dauer des Dienstverhältnisses", f"01.01.{c.year} - 31.12.{c.year}")]
    rows += [(number, label, value) for number, label, value in numbered_lines(c)[2:]]
    y = s.table(20, 70, (14, 116, 40), [("Zeile", "", "EUR"), *rows], size=8.5, aligns=("left", "left", "right"),
                grid=True)
    s.text(20, y + 8, "Die Lohnsteuerbescheinigung wurde elektronisch übermittelt (Transferticket "
                      f"{rng.randint(10 ** 11, 10 ** 12 - 1)}).", 7.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("wage_tax_certificate", "L5", HELD_OUT)
def annual_statement_english(rng: random.Random, spec: Spec) -> Draft:
    """English/German: 'Annual wage tax statement', 'Tax year 2025', the employer as 'Issued by', amounts 1,234.56."""
    c = certificate(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Annual wage tax statement")
    s.text(20, 16, f"Issued by {c.employer.name}, {c.employer.street}, {c.employer.city}", 8)
    s.text(20, 30, "Annual wage tax statement (Lohnsteuerbescheinigung)", 13, bold=True)
    s.text(20, 37, f"Tax year {c.year}", 11)
    y = s.lines(20, 50, (f"Employee: {c.employee.plain}", f"Address: {c.employee.street}, {c.employee.city}",
                         f"Tax ID (IdNr.): {c.id_number}", f"Employment: 01/01/{c.year} - 12/31/{c.year}"),
                10, leading=6)
    rows = (("Gross wages incl. benefits in kind (line 3)", c.gross), ("Wage tax withheld (line 4)", c.wage_tax),
            ("Solidarity surcharge (line 5)", c.solidarity), ("Church tax (line 6)", c.church_tax),
            ("Employee pension contribution (line 23a)", c.pension),
            ("Employee health insurance (line 25)", c.health))
    y += 6
    for label, value in rows:
        s.leader(20, 189, y, label, f"EUR {fake.amount(value, 'en')}", 9.5)
        y += 6.5
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("wage_tax_certificate", "L6", HELD_OUT)
def employer_letter(rng: random.Random, spec: Spec) -> Draft:
    """The employer's covering letter with the figures: letterhead, addressee, 'für das Kalenderjahr 2025',
    a 'Zeile | Bezeichnung | Betrag' table with '1.234,56 €'."""
    c = certificate(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Lohnsteuerbescheinigung")
    s.text(190, 18, c.employer.name, 13, bold=True, align="right")
    s.text(190, 24, f"{c.employer.street} | {c.employer.city}", 8, align="right")
    s.text(190, 28, "Personalabteilung", 8, align="right")
    s.lines(20, 45, (c.employee.plain, c.employee.street, c.employee.city), 10.5)
    s.text(20, 75, f"Ihre Lohnsteuerbescheinigung für das Kalenderjahr {c.year}", 11, bold=True)
    s.text(20, 83, "anbei erhalten Sie die Daten, die wir an das Finanzamt übermittelt haben.", 9.5)
    lines = numbered_lines(c)
    body = [(number.rstrip("."), label, f"{value} €" if value and number not in ("1.", "2.") else value)
            for number, label, value in lines]
    s.table(20, 95, (15, 120, 35), [("Zeile", "Bezeichnung", "Betrag"), *body], size=8.5,
            aligns=("left", "left", "right"))
    s.text(20, 170, "Mit freundlichen Grüßen", 9.5)
    s.text(20, 176, "Ihre Personalabteilung", 9.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)
