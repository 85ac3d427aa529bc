"""Wage tax certificates for 2025, fresh development layouts (added 2026-12-01): the official form with its
personal data box, wrapped numbered lines and the employer in a bottom-left box; a payroll office's
letter with the employee in the window and a 'Zeile' table.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.wage_tax_certificate import certificate

TAX_OFFICES_EMPLOYER = ("Finanzamt München-Abt. I", "Finanzamt Hamburg-Altona", "Finanzamt Köln-Mitte",
                        "Finanzamt Stuttgart-Körperschaften", "Finanzamt Frankfurt am Main V-Höchst")


@layout("wage_tax_certificate", "L10", DEVELOPMENT)
def official_form(rng: random.Random, spec: Spec) -> Draft:
    """'Ausdruck der elektronischen Lohnsteuerbescheinigung' with no year in the title: the year only in
    the 'Bescheinigungszeitraum' of a personal data box on the right; numbered lines whose long labels
    wrap onto a second line with the value on the last one; an 'EUR' column head and no currency at
    any value; the employer only in a bottom-left box 'Anschrift des Arbeitgebers' next to the
    Finanzamt the wage tax went to."""
    c = certificate(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Lohnsteuerbescheinigung")
    s.text(20, 16, "Ausdruck der elektronischen Lohnsteuerbescheinigung", 12, bold=True)
    s.text(20, 21, "Bitte beachten Sie die Hinweise auf der Rückseite.", 7.5)
    s.lines(20, 34, (c.employee.plain, c.employee.street, c.employee.city), 10, leading=4.8)
    facts = (("Bescheinigungszeitraum", f"01.01.{c.year} - 31.12.{c.year}"), ("Zeiträume ohne Anspruch", ""),
             ("Identifikationsnummer", c.id_number), ("Personalnummer", str(rng.randint(1000, 99999))),
             ("Geburtsdatum", fake.day(fake.AS_OF.replace(year=rng.randint(1965, 1999), month=rng.randint(1, 12), day=rng.randint(1, 28)))),
             ("Steuerklasse/Faktor", f"{rng.choice((1, 1, 3, 4))}"), ("eTIN", c.etin))
    s.box(112, 28, 78, len(facts) * 4.6 + 3, width=0.3)
    for index, (label, value) in enumerate(facts):
        s.text(114, 32 + index * 4.6, label, 7.5)
        s.text(188, 32 + index * 4.6, value, 8, align="right")
    y = 72
    s.text(189, y, "EUR", 8, bold=True, align="right")
    y += 6
    lines = (("3.", ("Bruttoarbeitslohn einschl. Sachbezüge", "ohne 9. und 10."), c.gross),
             ("4.", ("Einbehaltene Lohnsteuer von 3.",), c.wage_tax),
             ("5.", ("Einbehaltener Solidaritätszuschlag von 3.",), c.solidarity),
             ("6.", ("Einbehaltene Kirchensteuer des Arbeitnehmers", "von 3."), c.church_tax),
             ("7.", ("Einbehaltene Kirchensteuer des Ehegatten/Lebenspartners", "von 3. (nur bei Konfessionsverschiedenheit)"), None),
             ("17.", ("Steuerfreie Arbeitgeberleistungen für Fahrten", "zwischen Wohnung und erster Tätigkeitsstätte"), None),
             ("22.", ("Arbeitgeberanteil", "a) zur gesetzlichen Rentenversicherung"), c.pension),
             ("23.", ("Arbeitnehmeranteil", "a) zur gesetzlichen Rentenversicherung"), c.pension),
             ("25.", ("Arbeitnehmerbeiträge zur gesetzlichen Krankenversicherung",), c.health))
    for number, label, value in lines:
        s.text(20, y, number, 8.5)
        for index, part in enumerate(label):
            s.text(30, y + index * 4, part, 8.5)
        last = y + (len(label) - 1) * 4
        s.text(189, last, fake.amount(value, "de") if value is not None else "", 8.5, align="right")
        s.rule(20, last + 1.6, 190, 0.2)
        y = last + 6
    y += 8
    s.box(20, y, 85, 28, width=0.3)
    s.text(22, y + 4, "Anschrift des Arbeitgebers", 7)
    s.lines(22, y + 9, (c.employer.name, c.employer.street, c.employer.city), 9, leading=4.5)
    s.box(105, y, 85, 28, width=0.3)
    s.text(107, y + 4, "Finanzamt, an das die Lohnsteuer abgeführt wurde", 7)
    s.text(107, y + 9, rng.choice(TAX_OFFICES_EMPLOYER), 9)
    s.text(107, y + 18, "Steuernummer des Arbeitgebers", 7)
    s.text(107, y + 23, fake.tax_number(rng), 9)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("wage_tax_certificate", "L11", DEVELOPMENT)
def payroll_office_letter(rng: random.Random, spec: Spec) -> Draft:
    """A payroll office's letter: the employer as letterhead (name and address in one line under a
    rule), the employee in the window with 'Frau' / 'Herrn', 'Ihre Lohnsteuerbescheinigung 2025' as
    subject, a table 'Zeile | Bezeichnung | Betrag' with bare line numbers and amounts '12.345,67 €',
    a closing 'Mit freundlichen Grüßen' and the employer again as signature."""
    c = certificate(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Lohnsteuerbescheinigung")
    s.text(190, 16, c.employer.name, 13, bold=True, align="right")
    s.rule(20, 20, 190, 0.4)
    s.text(20, 25, f"{c.employer.name} | {c.employer.street} | {c.employer.city}", 6.5)
    s.lines(20, 32, fake.window(c.employee), 10, leading=4.8)
    s.text(130, 34, "Lohnbuchhaltung", 8.5)
    s.text(130, 39, f"Datum: {fake.day(fake.AS_OF.replace(year=c.year + 1, month=2, day=rng.randint(2, 27)))}", 8.5)
    s.text(20, 66, f"Ihre Lohnsteuerbescheinigung {c.year}", 11, bold=True)
    greeting = "Sehr geehrte Frau" if fake.salutation(c.employee) == "Frau" else "Sehr geehrter Herr"
    s.text(20, 75, f"{greeting} {c.employee.family},", 10)
    s.text(20, 81, "anbei erhalten Sie den Ausdruck der an das Finanzamt übermittelten Daten:", 10)
    rows = [("Zeile", "Bezeichnung", "Betrag"),
            ("1", "Bescheinigungszeitraum", f"Januar - Dezember {c.year}"),
            ("3", "Bruttoarbeitslohn einschl. Sachbezüge", fake.amount(c.gross, "de_euro")),
            ("4", "Einbehaltene Lohnsteuer", fake.amount(c.wage_tax, "de_euro")),
            ("5", "Einbehaltener Solidaritätszuschlag", fake.amount(c.solidarity, "de_euro")),
            ("6", "Einbehaltene Kirchensteuer", fake.amount(c.church_tax, "de_euro")),
            ("22a", "Arbeitgeberanteil Rentenversicherung", fake.amount(c.pension, "de_euro")),
            ("23a", "Arbeitnehmeranteil Rentenversicherung", fake.amount(c.pension, "de_euro")),
            ("25", "Arbeitnehmerbeiträge Krankenversicherung", fake.amount(c.health, "de_euro")),
            ("26", "Arbeitnehmerbeiträge Pflegeversicherung", fake.amount(fake.money(c.health * 18 / 875), "de_euro"))]
    y = s.table(20, 92, (18, 112, 40), rows, size=9.5, leading=6, aligns=("left", "left", "right"), grid=True)
    s.text(20, y + 6, f"Identifikationsnummer: {c.id_number}   eTIN: {c.etin}", 8.5)
    s.text(20, y + 20, "Mit freundlichen Grüßen", 10)
    s.text(20, y + 27, c.employer.name, 10)
    return Draft(s.pdf(), c.truth(), c.employee.name)
