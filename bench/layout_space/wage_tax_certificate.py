"""Wage tax certificates drawn from the space: the official numbered lines or a payroll provider's summary,
the employer in the letterhead or in a block of its own, the year in the title, the period line or both."""
import random
from datetime import date

from bench.layout_space import REJECTED, Drawn, _parts, _style
from bench.layout_space._page import Page
from bench.synthetic.wage_tax_certificate import certificate

LEXICON = {
    "title": {"de": ["Ausdruck der elektronischen Lohnsteuerbescheinigung für {y}", "Lohnsteuerbescheinigung {y}",
                     "Elektronische Lohnsteuerbescheinigung {y}", "Lohnsteuerbescheinigung für das Kalenderjahr {y}"],
              "en": ["Wage tax certificate {y}", "Annual wage tax statement {y}"]},
    "period": {"de": ["Bescheinigungszeitraum", "Zeitraum", "Dauer des Dienstverhältnisses"], "en": ["Period"]},
    "gross": {"de": ["Bruttoarbeitslohn einschl. Sachbezüge ohne 9. und 10.", "Bruttoarbeitslohn", "Steuerbrutto",
                     "Bruttoarbeitslohn einschließlich Sachbezüge"],
              "en": ["Gross wages", "Gross wages including benefits in kind"]},
    "wage_tax": {"de": ["Einbehaltene Lohnsteuer von 3.", "Lohnsteuer", "einbehaltene Lohnsteuer"],
                 "en": ["Wage tax withheld", "Income tax withheld"]},
    "solidarity": {"de": ["Einbehaltener Solidaritätszuschlag von 3.", "Solidaritätszuschlag"],
                   "en": ["Solidarity surcharge withheld"]},
    "church": {"de": ["Einbehaltene Kirchensteuer des Arbeitnehmers von 3.", "Kirchensteuer"], "en": ["Church tax withheld"]},
    "pension": {"de": ["Arbeitnehmeranteil zur gesetzlichen Rentenversicherung", "Rentenversicherung AN-Anteil"],
                "en": ["Employee pension contribution"]},
    "health": {"de": ["Arbeitnehmerbeiträge zur gesetzlichen Krankenversicherung", "Krankenversicherung AN"],
               "en": ["Employee health insurance"]},
    "employer": {"de": ["Arbeitgeber", "Anschrift des Arbeitgebers", "Name und Anschrift des Arbeitgebers"],
                 "en": ["Employer"]},
    "idnr": {"de": ["Identifikationsnummer", "IdNr.", "Steuer-IdNr."], "en": ["Tax ID"]},
    "etin": {"de": ["eTIN", "Transferticket"], "en": ["eTIN"]},
}


def draw(rng: random.Random, single_page: bool = False) -> Drawn:
    style = _style.draw(rng, languages=("de", "de", "de", "en"))
    c = certificate(rng)
    too_old = rng.random() < 0.06
    year = 2023 if too_old else c.year
    word = lambda key: style.label(rng, LEXICON[key])  # noqa: E731
    page = Page(style, rng, "Lohnsteuerbescheinigung", {"footer": _parts.footer(rng, c.employer, avoid=c.employee)})
    in_letterhead = rng.random() < 0.5
    if in_letterhead:
        page.letterhead(c.employer.name, (c.employer.street, c.employer.city))
    block_y = max(page.y, 40.0)
    page.address(_parts.recipient(rng, c.employee, style), y=block_y + 8)
    page.y = block_y + 6
    for label, value in ((word("idnr"), c.id_number), (word("etin"), c.etin)):
        page.pair(label, value, 120.0, page.right - 120.0, placement=rng.choice(("below", "right")))
    page.y = block_y + 34
    page.title(style.label(rng, LEXICON["title"], y=year), size=style.size + 2)
    if not in_letterhead:
        label = word("employer")
        page.text(style.word(label) + ":" if rng.random() < 0.5 else style.word(label), bold=True)
        for line in (c.employer.name, c.employer.street, c.employer.city):
            page.text(line)
        page.y += 2
    money = lambda value: style.amount(value)  # noqa: E731
    rows = [(word("period"), f"01.01.{year} - 31.12.{year}" if rng.random() < 0.6 else
             f"{style.day(date(year, 1, 1))} - {style.day(date(year, 12, 31))}"),
            (word("gross"), money(c.gross)), (word("wage_tax"), money(c.wage_tax)),
            (word("solidarity"), money(c.solidarity)), (word("church"), money(c.church_tax)),
            (word("pension"), money(c.pension)), (word("health"), money(c.health))]
    if rng.random() < 0.6:
        # The official print: each line numbered as the form numbers it.
        numbers = ("1.", "3.", "4.", "5.", "6.", "23. a)", "25.")
        for number, (label, value) in zip(numbers, rows):
            page.row((number, label, value), (1, 9, 3), ("left", "left", "right"))
    else:
        page.pairs(rows, columns=1)
    truth = {**c.truth(), "year": year, "gross_wages": f"{c.gross:.2f}", "wage_tax": f"{c.wage_tax:.2f}"}
    traits = {"style": style.__dict__, "employer_in_letterhead": in_letterhead}
    return Drawn(page.pdf(), truth, c.employee.name, traits, expected=REJECTED if too_old else "VERIFIED",
                 reason="too old" if too_old else "")
