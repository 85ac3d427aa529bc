"""Tax assessments drawn from the space: the Finanzamt's letter, the computation on the same page or the next,
later pages that repeat who and what they are about (and may be photographed alone)."""
import random

from bench.layout_space import REJECTED, Drawn, _parts, _style
from bench.layout_space._page import Page
from bench.synthetic import _fake as fake
from bench.synthetic.tax_assessment import assessment

LEXICON = {
    "title": {"de": ["Bescheid für {y} über Einkommensteuer und Solidaritätszuschlag", "Einkommensteuerbescheid {y}",
                     "Bescheid für {y} über Einkommensteuer, Solidaritätszuschlag und Kirchensteuer",
                     "Einkommensteuer-Bescheid für das Jahr {y}"]},
    "number": {"de": ["Steuernummer", "St.-Nr.", "Steuer-Nr.", "StNr"]},
    "date": {"de": ["Datum", "Bescheiddatum", "Ausgestellt am"]},
    "income": {"de": ["zu versteuerndes Einkommen", "Zu versteuerndes Einkommen", "zvE", "Zu versteuerndes Einkommen (zvE)"]},
    "income_tax": {"de": ["festgesetzte Einkommensteuer", "Einkommensteuer", "Festzusetzende Einkommensteuer",
                          "tarifliche Einkommensteuer"]},
    "solidarity": {"de": ["Solidaritätszuschlag", "SolZ", "festgesetzter Solidaritätszuschlag"]},
    "church": {"de": ["Kirchensteuer", "Kirchensteuer (rk)"]},
    "paid": {"de": ["Abzug vom Lohn", "bereits gezahlt", "einbehaltene Lohnsteuer", "Vorauszahlungen / Steuerabzug"]},
    "balance": {"de": ["verbleibende Beträge", "Nachzahlung", "Erstattung / Nachzahlung", "noch zu zahlen"]},
    "wages": {"de": ["Einkünfte aus nichtselbständiger Arbeit", "Bruttoarbeitslohn"]},
    "computation": {"de": ["Berechnung der Besteuerungsgrundlagen", "Ermittlung des zu versteuernden Einkommens",
                           "Festsetzung"]},
}


def draw(rng: random.Random, single_page: bool = False) -> Drawn:
    style = _style.draw(rng, languages=("de",))  # a Finanzamt writes German only
    a = assessment(rng)
    too_old = rng.random() < 0.06
    year = 2023 if too_old else a.year
    word = lambda key: style.label(rng, LEXICON[key])  # noqa: E731
    two_pages = rng.random() < (0.5 if single_page else 0.7)
    repeat = [f"{a.office} · {word('number')} {a.number}",
              f"{style.label(rng, LEXICON['title'], y=year)} · {a.taxpayer.plain}"]
    page = Page(style, rng, "Einkommensteuerbescheid", {"repeat": repeat, "footer": [
        f"{a.office} · Servicezeiten Mo-Fr 8-12 Uhr · {rng.choice(fake.BANKS)[0]}"]})
    page.letterhead(a.office, ("Postfach 10 02 40",) if rng.random() < 0.5 else ())
    block_y = max(page.y, 42.0)
    page.address(_parts.recipient(rng, a.taxpayer, style), y=block_y + 8,
                 sender=f"{a.office} · Postfach 10 02 40" if rng.random() < 0.4 else "")
    page.y = block_y + 6
    for label, value in ((word("number"), a.number), (word("date"), style.day(a.issued))):
        page.pair(label, value, 120.0, page.right - 120.0)
    page.y = block_y + 36
    page.title(style.label(rng, LEXICON["title"], y=year), size=style.size + 2)
    page.paragraph("Die Festsetzung berücksichtigt Ihre Erklärung. Bitte beachten Sie die Erläuterungen.")
    if two_pages:
        page.paragraph("Die Berechnung finden Sie auf der folgenden Seite.")
        page.new_page()
    page.heading(word("computation"))
    page.pairs([(word("wages"), style.amount(a.wages)), (word("income"), style.amount(a.income))], columns=1)
    page.y += 2
    taxes = [(word("income_tax"), style.amount(a.income_tax)), (word("solidarity"), style.amount(a.solidarity))]
    if a.church_tax:
        taxes.append((word("church"), style.amount(a.church_tax)))
    form = rng.choice(("pairs", "columns", "box"))
    if form == "columns":
        page.columns_row(taxes)
    elif form == "box":
        page.summary_box(taxes)
    else:
        page.pairs(taxes, columns=1)
    page.pairs([(word("paid"), style.amount(a.paid, negative=True)),
                (word("balance"), style.amount(a.balance))], columns=1)
    page.paragraph("Rechtsbehelfsbelehrung: Der Bescheid kann mit dem Einspruch angefochten werden.",
                   size=style.size - 1)
    fields = {**a.truth(), "tax_year": year}
    traits = {"style": style.__dict__, "pages": 2 if two_pages else 1}
    # A later page repeats office, number, year and taxpayer: photographed alone it shows every key field.
    page_fields = {1: fields} if single_page and two_pages else None
    return Drawn(page.pdf(), fields, a.taxpayer.name, traits, expected=REJECTED if too_old else "VERIFIED",
                 reason="too old" if too_old else "", page_fields=page_fields)
