"""Employment contracts drawn from the space: the parties in an opening clause ("zwischen … und Herrn …") or in a
table, the start and the salary in running text of many wordings, a signing date and a probation period beside them."""
import random
from datetime import date
from decimal import Decimal

from bench.layout_space import Drawn, _parts, _style
from bench.layout_space._page import Page
from bench.synthetic import _fake as fake
from bench.synthetic.employment_contract import contract

LEXICON = {
    "title": {"de": ["Arbeitsvertrag", "Anstellungsvertrag", "Arbeitsvertrag für Angestellte",
                     "Unbefristeter Arbeitsvertrag"],
              "en": ["Employment contract", "Employment agreement", "Contract of employment"]},
    "employer": {"de": ["Arbeitgeber", "Firma", "Gesellschaft"], "en": ["Employer", "Company"]},
    "employee": {"de": ["Arbeitnehmer", "Arbeitnehmerin/Arbeitnehmer", "Mitarbeiter", "Beschäftigte"],
                 "en": ["Employee"]},
    "start": {"de": ["Beginn des Arbeitsverhältnisses", "Tätigkeitsbeginn", "Eintrittsdatum", "Beginn"],
              "en": ["Start date", "Commencement"]},
    "salary": {"de": ["Vergütung", "Gehalt", "Bezüge"], "en": ["Remuneration", "Salary"]},
}


def draw(rng: random.Random, single_page: bool = False) -> Drawn:
    style = _style.draw(rng, languages=("de", "de", "de", "en"))
    c = contract(rng)
    english = style.language == "en"
    word = lambda key: style.label(rng, LEXICON[key])  # noqa: E731
    page = Page(style, rng, "Arbeitsvertrag", {"footer": _parts.footer(rng, c.employer, avoid=c.employee)})
    if rng.random() < 0.6:
        page.letterhead(c.employer.name, (c.employer.street, c.employer.city))
    page.y = max(page.y, 40.0)
    page.title(word("title"), align=rng.choice(("left", "center")))
    name = c.employee.name if rng.random() < 0.5 else c.employee.plain
    who = ("Mr" if c.employee.given not in fake.WOMEN else "Ms") if english else fake.salutation(c.employee)
    parties = rng.choice(("clause", "clause", "table"))
    if parties == "clause":
        if english:
            page.paragraph(f"This employment agreement is made between {c.employer.name}, {c.employer.street}, "
                           f"{c.employer.city} (the \"Employer\") and {who} {name}, residing at {c.employee.street}, "
                           f"{c.employee.city} (the \"Employee\").")
        else:
            page.paragraph(f"Zwischen der {c.employer.name}, {c.employer.street}, {c.employer.city} "
                           f"– nachfolgend „Arbeitgeber“ genannt – und {who} {name}, wohnhaft {c.employee.street}, "
                           f"{c.employee.city} – nachfolgend „Arbeitnehmer“ genannt – wird folgender "
                           "Arbeitsvertrag geschlossen:")
    else:
        page.pairs([(word("employer"), c.employer.name), (word("employee"), name)], columns=1, placement="colon")
        page.y += 2
    start_text = _start(rng, style, c.start, english)
    salary_text = _salary(rng, style, c.annual, english)
    sections = [
        ("§ 1 " + word("start") if not english else "1. " + word("start"), start_text),
        ("§ 2 Tätigkeit" if not english else "2. Position",
         f"Der Arbeitnehmer wird als {c.role[0]} eingestellt." if not english else f"The Employee is employed as {c.role[1]}."),
        ("§ 3 Probezeit" if not english else "3. Probation",
         "Die ersten sechs Monate gelten als Probezeit." if not english else "The first six months are a probation period."),
        ("§ 4 " + word("salary") if not english else "4. " + word("salary"), salary_text),
        ("§ 5 Arbeitszeit und Urlaub" if not english else "5. Hours and leave",
         f"Die regelmäßige Arbeitszeit beträgt {c.hours} Stunden pro Woche; der Urlaub {c.leave} Arbeitstage im Jahr."
         if not english else f"Working time is {c.hours} hours a week; annual leave is {c.leave} working days."),
    ]
    if style.two_columns:
        # Set in two columns, as printed contracts often are: the clauses run down the left, then the right.
        top, gap = page.y, 8.0
        width = (page.right - page.left - gap) / 2
        for index, (heading, text) in enumerate(sections):
            if index == (len(sections) + 1) // 2:
                left_bottom, page.y = page.y, top
            x = page.left if index < (len(sections) + 1) // 2 else page.left + width + gap
            page.paragraph(heading, width, x=x, bold=True)
            page.paragraph(text, width, x=x)
        page.y = max(page.y, left_bottom)
    else:
        for heading, text in sections:
            page.heading(heading)
            page.paragraph(text)
    place = c.employer.city.split(" ", 1)[1]
    page.y += 6
    page.text(f"{place}, {'den ' if not english and rng.random() < 0.5 else ''}{style.day(c.signed)}")
    page.y += 8
    page.text("_______________________          _______________________")
    page.text(f"{word('employer')}                                  {word('employee')}")
    traits = {"style": style.__dict__, "parties": parties}
    return Drawn(page.pdf(), c.truth(), c.employee.name, traits)


def _start(rng: random.Random, style, start: date, english: bool) -> str:
    day = style.day(start)
    if english:
        return rng.choice((f"Employment commences on {day}.", f"The employment begins on {day}.",
                           f"Start date: {day}."))
    return rng.choice((f"Das Arbeitsverhältnis beginnt am {day}.", f"Das Arbeitsverhältnis beginnt zum {day}.",
                       f"Der Arbeitnehmer tritt am {day} in die Dienste des Arbeitgebers.",
                       f"Beginn der Tätigkeit: {day}."))


def _salary(rng: random.Random, style, annual: Decimal, english: bool) -> str:
    monthly = fake.money(annual / 12)
    yearly = style.amount(annual)
    if english:
        return rng.choice((f"The Employee receives an annual gross salary of {yearly}, paid in twelve equal instalments.",
                           f"Annual gross salary: {yearly}."))
    return rng.choice((f"Der Arbeitnehmer erhält ein Bruttojahresgehalt von {yearly}, zahlbar in zwölf gleichen Raten.",
                       f"Das Jahresbruttogehalt beträgt {yearly}.",
                       f"Die Vergütung beträgt jährlich brutto {yearly} (monatlich {style.amount(monthly)}).",
                       f"Das Bruttojahresgehalt beträgt {yearly}. Es wird in zwölf Monatsraten zu je "
                       f"{style.amount(monthly)} am Monatsende gezahlt."))
