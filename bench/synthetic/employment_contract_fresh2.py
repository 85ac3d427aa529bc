"""Employment contracts, fresh development layouts of the fourth round (added 2026-12-02): a German
'Anstellungsvertrag' / 'Dienstvertrag' with §§ whose pay is a monthly figure in words and figures paid
13 times a year (some of them fixed-term), and an English 'Employment Agreement' of a German GmbH.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.

`annual_salary` is the year's pay the contract fixes: for the §§ contract thirteen monthly salaries
(the thirteenth paid with November's), which the contract states only as the monthly figure and the
number of salaries; for the English agreement its 'Annual Base Salary' (a target bonus and a sign-on
bonus are not part of it).
"""
import random
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._fake import AS_OF
from bench.synthetic._sheet import Sheet
from bench.synthetic.employment_contract import contract, paragraphs

MANAGERS = (("Dr. Katrin Vogel", "ihre Geschäftsführerin"), ("Stefan Brandt", "ihren Geschäftsführer"),
            ("Martina Keller", "ihre Geschäftsführerin"), ("Henrik Olsen", "ihren Geschäftsführer"),
            ("Claudia Reuter", "ihre Geschäftsführerin"), ("Jörg Hellwig", "ihren Geschäftsführer"))
ONES = ("", "ein", "zwei", "drei", "vier", "fünf", "sechs", "sieben", "acht", "neun", "zehn", "elf", "zwölf",
        "dreizehn", "vierzehn", "fünfzehn", "sechzehn", "siebzehn", "achtzehn", "neunzehn")
TENS = ("", "", "zwanzig", "dreißig", "vierzig", "fünfzig", "sechzig", "siebzig", "achtzig", "neunzig")


def words_de(number: int) -> str:
    """A whole number below a million in German words, as a contract spells it: 5100 'fünftausendeinhundert'."""
    if number == 0:
        return "null"
    thousands, rest = divmod(number, 1000)
    text = f"{_below_thousand(thousands, True)}tausend" if thousands else ""
    return text + _below_thousand(rest, False)


def _below_thousand(number: int, before_thousand: bool) -> str:
    hundreds, rest = divmod(number, 100)
    text = f"{'ein' if hundreds == 1 else ONES[hundreds]}hundert" if hundreds else ""
    if rest == 1:
        return text + ("ein" if before_thousand else "eins")
    if rest < 20:
        return text + ONES[rest]
    tens, ones = divmod(rest, 10)
    return text + (f"{ONES[ones] if ones != 1 else 'ein'}und" if ones else "") + TENS[tens]


def _representative(rng: random.Random, employer: str) -> str:
    """'ihre Geschäftsführerin Dr. Katrin Vogel' for a GmbH, 'den Vorstand' for an AG or SE."""
    if employer.endswith((" AG", " SE")):
        return "den Vorstand"
    name, office = rng.choice(MANAGERS)
    return f"{office} {name}"


@layout("employment_contract", "L12", DEVELOPMENT)
def anstellungsvertrag(rng: random.Random, spec: Spec) -> Draft:
    """'Anstellungsvertrag' or 'Dienstvertrag' with a cover block: 'zwischen der X GmbH, vertreten durch
    ihre Geschäftsführerin ..., – nachstehend „Gesellschaft“ – und Frau Y, geb. am ..., – nachstehend
    „Angestellte“ –'; § 1 the start ('Das Anstellungsverhältnis beginnt am 01.03.2025', or for a
    fixed-term one 'wird befristet vom 01.03.2026 bis 28.02.2027 geschlossen (§ 14 Abs. 2 TzBfG)'),
    a Probezeit, notice periods in months; § 3 the pay as 'ein monatliches Bruttogehalt von EUR
    5.100,00 (in Worten: Euro fünftausendeinhundert)', paid thirteen times ('13 Monatsgehälter'),
    the 13th with November's pay; a Jahressonderzahlung clause and the Urlaubs; signatures with
    place and date."""
    c = contract(rng)
    fixed_term = rng.random() < 0.4
    monthly = Decimal(rng.randrange(32, 95) * 100 + rng.choice((0, 0, 50)))
    if fixed_term:
        start = date(2026, rng.randint(1, 10), 1)
        months = rng.choice((12, 18, 24))
        end_month = start.month - 1 + months
        end = date(start.year + end_month // 12, end_month % 12 + 1, 1) - timedelta(days=1)
        assert end > AS_OF
        c = replace(c, start=start, signed=start - timedelta(days=rng.randint(14, 60)))
    c = replace(c, annual=monthly * 13)
    title = rng.choice(("Anstellungsvertrag", "Dienstvertrag"))
    woman = fake.salutation(c.employee) == "Frau"
    party_word = "Angestellte" if woman else "Angestellter"
    s = Sheet(rng.choice(("times", "dejavu-serif", "helvetica")), title)
    s.text(105, 22, title.upper(), 15, bold=True, align="center")
    y = s.lines(20, 36, (
        "zwischen",
        f"der {c.employer.name}, {c.employer.street}, {c.employer.city},",
        f"vertreten durch {_representative(rng, c.employer.name)},",
        "– nachstehend „Gesellschaft“ genannt –",
        "und",
        f"{'Frau' if woman else 'Herrn'} {c.employee.name}, geb. am "
        f"{fake.day(date(rng.randint(1970, 1999), rng.randint(1, 12), rng.randint(1, 28)))},",
        f"wohnhaft {c.employee.street}, {c.employee.city},",
        f"– nachstehend „{party_word}“ genannt –"), 10, leading=5.5)
    if fixed_term:
        begin = (f"Das Anstellungsverhältnis wird befristet vom {fake.day(c.start)} bis {fake.day(end)} geschlossen "
                 "(§ 14 Abs. 2 TzBfG). Es endet mit Ablauf der Befristung, ohne dass es einer Kündigung bedarf.")
    else:
        begin = (f"Das Anstellungsverhältnis beginnt am {fake.day(c.start)} und wird auf unbestimmte Zeit "
                 "geschlossen.")
    words = words_de(int(monthly))
    cents = f"{int(monthly * 100) % 100:02d}"
    y = paragraphs(s, 20, y + 6, (
        ("§ 1 Beginn, Probezeit, Kündigung", f"{begin} Die ersten sechs Monate gelten als Probezeit; in ihr kann "
         "mit einer Frist von zwei Wochen gekündigt werden. Danach beträgt die Kündigungsfrist drei Monate zum "
         "Monatsende."),
        ("§ 2 Tätigkeit", f"{'Die' if woman else 'Der'} {party_word} wird als {c.role[0]} angestellt und berichtet "
         "an die Geschäftsführung. Dienstort ist der Sitz der Gesellschaft."),
        ("§ 3 Bezüge", f"{'Die' if woman else 'Der'} {party_word} erhält für {'ihre' if woman else 'seine'} "
         f"Tätigkeit ein monatliches Bruttogehalt von EUR {fake.amount(monthly)} (in Worten: Euro {words}"
         f"{'' if cents == '00' else f' und {cents}/100'}). Das Gehalt wird in 13 Monatsgehältern gezahlt, "
         "jeweils zum Monatsende; das dreizehnte Gehalt wird mit der Abrechnung für November fällig und im "
         "Eintritts- und Austrittsjahr anteilig gewährt."),
        ("§ 4 Arbeitszeit", f"Die regelmäßige wöchentliche Arbeitszeit beträgt {c.hours} Stunden."),
        ("§ 5 Urlaub", f"Der Urlaubsanspruch beträgt {c.leave} Arbeitstage im Kalenderjahr."),
        ("§ 6 Schlussbestimmungen", "Änderungen und Ergänzungen dieses Vertrages bedürfen der Schriftform. "
         "Mündliche Nebenabreden bestehen nicht."),
    ), size=9.5)
    city = c.employer.city.split(" ", 1)[1]
    s.text(20, y + 8, f"{city}, den {fake.day(c.signed)}", 10)
    s.rule(20, y + 26, 85, 0.3)
    s.rule(115, y + 26, 185, 0.3)
    s.text(20, y + 30, "für die Gesellschaft", 8.5)
    s.text(115, y + 30, f"{'die' if woman else 'der'} {party_word}", 8.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("employment_contract", "L13", DEVELOPMENT)
def employment_agreement(rng: random.Random, spec: Spec) -> Draft:
    """An English 'EMPLOYMENT AGREEMENT' of a German GmbH: 'This Employment Agreement (the "Agreement") is
    entered into by and between X GmbH, ..., represented by its managing director ... (the "Company"), and
    Ms./Mr. Y, residing at ... (the "Employee")'; numbered clauses: 1. Commencement Date and Term ('The
    employment shall commence on March 1, 2025 (the "Commencement Date")'), 3. Compensation ('an Annual
    Base Salary of EUR 85,000 gross' in whole euros, 'payable in twelve (12) equal monthly instalments'),
    a target bonus of a percent of the base salary and a sign-on bonus in EUR; 'Place, Date' above the
    signatures."""
    c = contract(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu", "times")), "Employment Agreement")
    us_dates = rng.random() < 0.5

    def when(value: date) -> str:
        return f"{fake.MONTHS_EN[value.month - 1]} {value.day}, {value.year}" if us_dates else fake.day(value, "long_en")

    honorific = "Ms." if fake.salutation(c.employee) == "Frau" else "Mr."
    base = f"{int(c.annual):,}"
    s.text(105, 22, "EMPLOYMENT AGREEMENT", 15, bold=True, align="center")
    y = paragraphs(s, 20, 34, (
        (None, f"This Employment Agreement (the \"Agreement\") is entered into by and between {c.employer.name}, "
               f"{c.employer.street}, {c.employer.city}, Germany, represented by its managing director "
               f"{rng.choice(MANAGERS)[0]} (the \"Company\"), and {honorific} {c.employee.plain}, residing at "
               f"{c.employee.street}, {c.employee.city} (the \"Employee\")."),
        ("1. Commencement Date and Term", f"The employment shall commence on {when(c.start)} (the \"Commencement "
         "Date\") and is concluded for an indefinite period. The first six (6) months constitute a probationary "
         "period."),
        ("2. Position and Duties", f"The Employee is employed as {c.role[1]} and reports to the managing "
         "directors. The place of work is the Company's office."),
        ("3. Compensation", f"3.1 The Employee shall receive an Annual Base Salary of EUR {base} gross, payable "
         "in twelve (12) equal monthly instalments at the end of each calendar month."),
        (None, f"3.2 In addition, the Employee is eligible for an annual target bonus of up to "
               f"{rng.choice((10, 15, 20))}% of the Annual Base Salary, subject to the bonus plan in force."),
        (None, f"3.3 The Company pays a one-off sign-on bonus of EUR {rng.choice((2, 3, 5, 8)) * 1000:,} gross with "
               "the first regular salary payment."),
        ("4. Working Time and Vacation", f"The regular working time is {c.hours} hours per week. The Employee is "
         f"entitled to {c.leave} working days of paid vacation per calendar year."),
        ("5. Governing Law", "This Agreement is governed by the laws of the Federal Republic of Germany. The German "
         "version of statutory notices prevails."),
    ), size=9.5)
    city = c.employer.city.split(" ", 1)[1]
    s.text(20, y + 8, f"Place, Date: {city}, {when(c.signed)}", 9.5)
    s.rule(20, y + 26, 85, 0.3)
    s.rule(115, y + 26, 185, 0.3)
    s.text(20, y + 30, f"{c.employer.name}", 8.5)
    s.text(115, y + 30, f"{c.employee.plain}", 8.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)


def _check_words() -> None:  # pragma: no cover - a quick self-check when run as a script
    for number, text in ((5100, "fünftausendeinhundert"), (3250, "dreitausendzweihundertfünfzig"),
                         (9421, "neuntausendvierhunderteinundzwanzig"), (1001, "eintausendeins"),
                         (21000, "einundzwanzigtausend")):
        assert words_de(number) == text, (number, words_de(number))


if __name__ == "__main__":  # pragma: no cover
    _check_words()
