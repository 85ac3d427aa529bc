"""Employment contracts, fresh development layouts (added 2026-12-01): a contract written as running prose
from its first line, an offer letter with the employee in the window and a monthly salary.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.

Both print the annual gross salary in words a careful reader takes as such (the existing layouts'
convention: `annual_salary` is what the contract states per year); the offer letter states the
monthly figure first and the year's total after it.
"""
import random
from datetime import date

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.employment_contract import contract, paragraphs, wrap

DIRECTORS = ("Dr. Katrin Vogel", "Stefan Brandt", "Martina Keller", "Henrik Olsen", "Claudia Reuter")


def _birthday(rng: random.Random) -> date:
    return date(rng.randint(1968, 2000), rng.randint(1, 12), rng.randint(1, 28))


@layout("employment_contract", "L10", DEVELOPMENT)
def prose_contract(rng: random.Random, spec: Spec) -> Draft:
    """Running prose from the first line: 'Zwischen der Firma X, vertreten durch ..., und Herrn Y, geboren
    am ..., wohnhaft ..., wird folgender Arbeitsvertrag geschlossen'; the start as 'mit Wirkung zum
    01.04.2024'; the pay as 'ein jährliches Bruttogehalt von 62.400 €' (whole euros, sign after),
    paid in twelve parts; a birth date and a signing date as other dates in the text."""
    c = contract(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif", "helvetica")), "Arbeitsvertrag")
    party = f"{fake.salutation(c.employee, 'accusative')} {c.employee.name}"
    role, article = (("Mitarbeiterin", "Die") if fake.salutation(c.employee) == "Frau" else ("Mitarbeiter", "Der"))
    opening = (f"Zwischen der Firma {c.employer.name}, {c.employer.street}, {c.employer.city}, vertreten durch "
               f"die Geschäftsführung, {rng.choice(DIRECTORS)}, – im Folgenden „Arbeitgeberin“ genannt – und "
               f"{party}, geboren am {fake.day(_birthday(rng))}, wohnhaft {c.employee.street}, {c.employee.city}, – im "
               f"Folgenden „{role}“ genannt – wird folgender Arbeitsvertrag geschlossen:")
    y = 24
    for line in wrap(s, opening, 10, 170):
        s.text(20, y, line, 10)
        y += 5
    annual = f"{int(c.annual):,}".replace(",", ".")
    y = paragraphs(s, 20, y + 6, (
        ("§ 1 Beginn und Dauer", f"Das Arbeitsverhältnis beginnt mit Wirkung zum {fake.day(c.start)} und wird auf "
         "unbestimmte Zeit geschlossen. Die ersten sechs Monate gelten als Probezeit, in der beide Seiten mit einer "
         "Frist von zwei Wochen kündigen können."),
        ("§ 2 Aufgaben", f"{article} {role} wird als {c.role[0]} beschäftigt. Die Arbeitgeberin kann andere "
         "zumutbare Aufgaben übertragen, die den Fähigkeiten entsprechen."),
        ("§ 3 Arbeitszeit", f"Die regelmäßige Arbeitszeit beträgt {c.hours} Stunden in der Woche."),
        ("§ 4 Vergütung", f"{article} {role} erhält ein jährliches Bruttogehalt von {annual} €, das in zwölf gleichen "
         "Teilen jeweils am letzten Werktag des Monats auf das benannte Konto gezahlt wird. Mit dem Gehalt "
         "sind Überstunden bis zu zehn Stunden im Monat abgegolten."),
        ("§ 5 Urlaub", f"Der Urlaub beträgt {c.leave} Arbeitstage im Kalenderjahr."),
        ("§ 6 Schlussbestimmungen", "Änderungen dieses Vertrages bedürfen der Schriftform. Sollte eine Bestimmung "
         "unwirksam sein, bleibt der Vertrag im Übrigen wirksam."),
    ), size=9.5)
    city = c.employer.city.split(" ", 1)[1]
    s.text(20, y + 10, f"{city}, {fake.day(c.signed)}", 10)
    s.rule(20, y + 28, 85, 0.3)
    s.rule(115, y + 28, 185, 0.3)
    s.text(20, y + 32, f"{c.employer.name}", 8.5)
    s.text(115, y + 32, c.employee.plain, 8.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("employment_contract", "L11", DEVELOPMENT)
def offer_letter(rng: random.Random, spec: Spec) -> Draft:
    """An offer letter that is the contract: letterhead, the employee only in the window ('Herrn' /
    'Frau'), 'Sehr geehrte Frau ...', the start as 'ab dem 1. März 2025', the pay as 'monatlich brutto
    EUR 4.850,00' with the year's total in brackets ('entspricht EUR 58.200,00 jährlich'); the
    employer again above the signature."""
    c = contract(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Arbeitsvertrag")
    s.text(20, 16, c.employer.name, 14, bold=True)
    s.text(20, 21, f"{c.employer.street} · {c.employer.city}", 8)
    s.text(20, 34, f"{c.employer.name} · {c.employer.street} · {c.employer.city}", 6.5)
    s.lines(20, 40, fake.window(c.employee), 10, leading=4.8)
    s.text(190, 40, f"{c.employer.city.split(' ', 1)[1]}, {fake.day(c.signed, 'long_de')}", 9, align="right")
    s.text(20, 72, f"Ihr Arbeitsvertrag als {c.role[0]}", 11, bold=True)
    greeting = "Sehr geehrte Frau" if fake.salutation(c.employee) == "Frau" else "Sehr geehrter Herr"
    monthly, annual = c.monthly, c.annual
    y = paragraphs(s, 20, 82, (
        (None, f"{greeting} {c.employee.family},"),
        (None, f"wir freuen uns, Sie ab dem {fake.day(c.start, 'long_de')} in unserem Unternehmen als {c.role[0]} "
               f"zu beschäftigen. Mit Ihrer Unterschrift unter dieses Schreiben kommt zwischen Ihnen und der "
               f"{c.employer.name} ein unbefristeter Arbeitsvertrag zu folgenden Bedingungen zustande:"),
        (None, f"1. Ihre Vergütung beträgt monatlich brutto EUR {fake.amount(monthly)} (entspricht EUR "
               f"{fake.amount(annual)} jährlich), zahlbar jeweils zum Monatsende."),
        (None, f"2. Die wöchentliche Arbeitszeit beträgt {c.hours} Stunden; Ihr Urlaubsanspruch {c.leave} Arbeitstage."),
        (None, "3. Die ersten sechs Monate sind Probezeit. Danach gelten die gesetzlichen Kündigungsfristen."),
        (None, "Bitte senden Sie uns ein unterschriebenes Exemplar bis zum Ende der kommenden Woche zurück."),
        (None, "Mit freundlichen Grüßen"),
    ), size=10)
    s.text(20, y + 4, c.employer.name, 10)
    s.text(20, y + 22, f"{rng.choice(DIRECTORS)}, Geschäftsführung", 8.5)
    s.text(120, y + 22, "Einverstanden:", 8.5)
    s.rule(120, y + 34, 185, 0.3)
    s.text(120, y + 38, c.employee.plain, 8.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)
