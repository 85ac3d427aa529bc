"""Employment contracts, fresh development layouts of the fifth round (added 2026-12-02): a Mittelstand
firm's 'Arbeitsvertrag für Angestellte' with the parties in a table and §§ in two columns, and an
'Änderungsvertrag' that raises the pay of an employment running for years.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.

`annual_salary` is the year's pay the contract fixes. For the two-column contract twelve monthly
salaries: its Urlaubsgeld and Weihnachtsgeld are voluntary extras 'ohne Rechtsanspruch' and not part
of it. For the change agreement the new pay (its old pay is history). `start_date` of the change
agreement is the day the employment began ('das seit dem 01.02.2019 bestehende Arbeitsverhältnis'),
not the day the change takes effect: LeadFlow reads a start date still ahead as a job change, and a
raise is not one.
"""
import random
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.employment_contract import ROLES, wrap

MITTELSTAND = ("Kühn Präzisionsteile GmbH", "Brettschneider Verpackungen GmbH & Co. KG", "Hollmann Antriebstechnik GmbH",
               "Wendtland Metallbau GmbH", "Oberland Fördertechnik GmbH", "Seidel & Kamps Kunststofftechnik GmbH",
               "Auenthal Armaturen GmbH", "Gebr. Lüdtke Maschinenbau KG")
SIGNERS = ("Ulrich Kühne, Geschäftsführer", "Petra Lindqvist, Personalleitung", "Dr. Rainer Oswald, Geschäftsführer",
           "Sabine Terhorst, Leiterin Personal")


def _column_paragraphs(s: Sheet, items, x_columns=(18, 110), top: float = 30, bottom: float = 270,
                       width: float = 84, size: float = 8.5, start_y: float = 30) -> float:
    """§§ flowing down the left column, then the right, then onto a new page; return the y below the last."""
    column, page_top, y = 0, start_y, start_y
    line_height = size * 0.45

    def room(rows: int) -> None:
        nonlocal column, page_top, y
        if y + rows * line_height <= bottom:
            return
        if column == 0:
            column, y = 1, page_top
        else:
            s.new_page()
            column, page_top, y = 0, top, top

    for heading, text in items:
        room(3)
        s.text(x_columns[column], y, heading, size + 0.5, bold=True)
        y += size * 0.55
        for line in wrap(s, text, size, width):
            room(1)
            s.text(x_columns[column], y, line, size)
            y += line_height
        y += size * 0.35
    return y


def _employment_start(rng: random.Random) -> date:
    return date(rng.randint(2015, 2025), rng.randint(1, 12), rng.choice((1, 1, 1, 15)))


@layout("employment_contract", "L14", DEVELOPMENT)
def two_column_angestellte(rng: random.Random, spec: Spec) -> Draft:
    """'ARBEITSVERTRAG FÜR ANGESTELLTE' of a Mittelstand firm: the parties in a two-column table at the
    top ('Arbeitgeber' | 'Arbeitnehmer/in', each with name, street and city, the employee's birth date
    and Personalnummer under it), then §§ in two columns on each page, over two pages. § 1 'Das
    Arbeitsverhältnis beginnt am 01.03.2024.', § 4 'Das Bruttomonatsgehalt beträgt 4.250,00 €' with
    'Urlaubsgeld' (a fixed euro sum in June) and 'Weihnachtsgeld' (a share of a monthly salary in
    November), both 'freiwillig ... ohne Rechtsanspruch', and the hourly overtime rate."""
    employer = fake.Company(rng.choice(MITTELSTAND), *fake._address(rng))
    employee = fake.person(rng)
    role = rng.choice(ROLES)[0]
    start = _employment_start(rng)
    if start > fake.AS_OF:
        start = date(2026, 10, 1)
    signed = start - timedelta(days=rng.randint(14, 75))
    monthly = Decimal(rng.randrange(2900, 7800, 25))
    holiday_pay = Decimal(rng.choice((300, 400, 500, 750)))
    christmas_share = rng.choice((40, 50, 55))
    hours = rng.choice((37.5, 38, 39, 40))
    overtime = fake.money(monthly / Decimal("4.33") / Decimal(str(hours)) * Decimal("1.25"))
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed", "times")), "Arbeitsvertrag")
    s.text(18, 16, employer.name, 9, bold=True)
    s.text(18, 20, f"{employer.street} · {employer.city}", 7.5)
    s.text(105, 32, "ARBEITSVERTRAG FÜR ANGESTELLTE", 14, bold=True, align="center")
    s.box(18, 38, 176, 34, width=0.4)
    s.text(21, 43, "Arbeitgeber", 8, bold=True)
    s.text(109, 43, "Arbeitnehmer/in", 8, bold=True)
    s.lines(21, 49, (employer.name, employer.street, employer.city, f"vertreten durch {rng.choice(SIGNERS)}"), 9,
            leading=4.6)
    birth = date(rng.randint(1968, 2000), rng.randint(1, 12), rng.randint(1, 28))
    s.lines(109, 49, (f"{fake.salutation(employee, 'nominative')} {employee.plain}", employee.street, employee.city,
                      f"geb. {fake.day(birth)} · Pers.-Nr. {rng.randint(1000, 9999)}"), 9, leading=4.6)
    s.text(18, 80, "Die Parteien schließen den folgenden Arbeitsvertrag:", 9)
    day = fake.day(start, rng.choice(("dmy", "dmy", "long_de")))
    items = (
        ("§ 1 Beginn und Probezeit", f"Das Arbeitsverhältnis beginnt am {day}. Es wird auf unbestimmte Zeit "
         "geschlossen. Die ersten sechs Monate gelten als Probezeit, während der das Arbeitsverhältnis mit einer "
         "Frist von zwei Wochen gekündigt werden kann."),
        ("§ 2 Tätigkeit", f"Der/die Arbeitnehmer/in wird als {role} eingestellt. Der Arbeitgeber kann ihm/ihr "
         "andere zumutbare Aufgaben übertragen, die seinen/ihren Kenntnissen entsprechen. Arbeitsort ist "
         f"{employer.city.split(' ', 1)[1]}."),
        ("§ 3 Arbeitszeit", f"Die regelmäßige wöchentliche Arbeitszeit beträgt {str(hours).replace('.', ',')} "
         "Stunden ohne Pausen. Beginn und Ende der täglichen Arbeitszeit richten sich nach den betrieblichen "
         "Regelungen (Gleitzeit)."),
        ("§ 4 Vergütung", f"(1) Das Bruttomonatsgehalt beträgt {fake.amount(monthly, 'de_euro')}. Es ist jeweils "
         "am letzten Bankarbeitstag des Monats fällig und wird bargeldlos gezahlt."),
        ("§ 5 Sonderzahlungen", f"(1) Mit dem Juni-Gehalt wird ein Urlaubsgeld von {fake.amount(holiday_pay, 'de_euro')} "
         f"gezahlt. (2) Mit dem November-Gehalt wird ein Weihnachtsgeld in Höhe von {christmas_share} % eines "
         "Bruttomonatsgehalts gezahlt. (3) Die Sonderzahlungen sind freiwillige Leistungen; auch bei wiederholter "
         "Zahlung entsteht kein Rechtsanspruch für die Zukunft."),
        ("§ 6 Mehrarbeit", "Mehrarbeit ist auf Anordnung zu leisten. Sie wird mit einem Stundensatz von "
         f"{fake.amount(overtime, 'de_euro')} brutto vergütet oder durch Freizeit ausgeglichen."),
        ("§ 7 Urlaub", f"Der/die Arbeitnehmer/in hat Anspruch auf {rng.choice((28, 30))} Arbeitstage Erholungsurlaub "
         "im Kalenderjahr. Der Urlaub ist mit dem Vorgesetzten abzustimmen."),
        ("§ 8 Arbeitsverhinderung", "Jede Arbeitsverhinderung ist unverzüglich mitzuteilen. Bei Arbeitsunfähigkeit "
         "ist spätestens am dritten Kalendertag eine ärztliche Bescheinigung vorzulegen; die Entgeltfortzahlung "
         "richtet sich nach dem Entgeltfortzahlungsgesetz."),
        ("§ 9 Verschwiegenheit", "Der/die Arbeitnehmer/in verpflichtet sich, über alle Betriebs- und "
         "Geschäftsgeheimnisse während und nach Beendigung des Arbeitsverhältnisses Stillschweigen zu bewahren."),
        ("§ 10 Nebentätigkeit", "Jede entgeltliche Nebentätigkeit bedarf der vorherigen schriftlichen Zustimmung "
         "des Arbeitgebers. Die Zustimmung ist zu erteilen, wenn betriebliche Interessen nicht beeinträchtigt werden."),
        ("§ 11 Kündigung", "Nach Ablauf der Probezeit gelten die gesetzlichen Kündigungsfristen. Verlängert sich die "
         "Frist für den Arbeitgeber kraft Gesetzes, gilt die Verlängerung auch für den/die Arbeitnehmer/in. "
         "Das Arbeitsverhältnis endet spätestens mit Ablauf des Monats, in dem die Regelaltersgrenze erreicht wird."),
        ("§ 12 Ausschlussfristen", "Ansprüche aus dem Arbeitsverhältnis verfallen, wenn sie nicht innerhalb von "
         "drei Monaten nach Fälligkeit schriftlich geltend gemacht werden. Dies gilt nicht für Ansprüche aus "
         "vorsätzlicher Pflichtverletzung und nicht für den gesetzlichen Mindestlohn."),
        ("§ 13 Datenschutz", "Der/die Arbeitnehmer/in willigt ein, dass seine/ihre personenbezogenen Daten im Rahmen "
         "der Zweckbestimmung des Arbeitsverhältnisses verarbeitet werden. Einzelheiten regelt die "
         "Datenschutzinformation für Beschäftigte, die diesem Vertrag beiliegt."),
        ("§ 14 Schlussbestimmungen", "Änderungen und Ergänzungen dieses Vertrages bedürfen der Schriftform. "
         "Sollte eine Bestimmung unwirksam sein, bleibt die Wirksamkeit der übrigen Bestimmungen unberührt."),
    )
    y = _column_paragraphs(s, items, start_y=88, top=24, bottom=rng.choice((200, 215, 230)))
    y = max(y, 60) + 10
    if y > 250:
        s.new_page()
        y = 30
    city = employer.city.split(" ", 1)[1]
    s.text(18, y, f"{city}, {fake.day(signed)}", 9)
    s.text(110, y, f"{city}, {fake.day(signed)}", 9)
    s.rule(18, y + 16, 95, 0.3)
    s.rule(110, y + 16, 190, 0.3)
    s.text(18, y + 20, "Arbeitgeber", 8)
    s.text(110, y + 20, "Arbeitnehmer/in", 8)
    truth = {"employer": employer.name, "employee": employee.plain, "start_date": start.isoformat(),
             "annual_salary": f"{monthly * 12:.2f}"}
    return Draft(s.pdf(), truth, employee.name, pages=s.pages)


@layout("employment_contract", "L15", DEVELOPMENT)
def aenderungsvertrag(rng: random.Random, spec: Spec) -> Draft:
    """'Änderungsvertrag zum Arbeitsvertrag vom 14.01.2019': 'Die Parteien sind durch das seit dem
    01.02.2019 bestehende Arbeitsverhältnis verbunden'; '§ 1 Vergütung: Mit Wirkung ab dem 01.01.2026
    beträgt das Jahresgehalt EUR 78.000,00 brutto (bisher EUR 71.500,00)', paid in twelve monthly
    instalments of a printed amount; a new job title; 'Alle übrigen Bestimmungen des Arbeitsvertrages
    bleiben unverändert.' The old contract's date, the old salary and the effective day are
    distractors: the start is the employment's, the salary the new one."""
    employer = fake.company(rng)
    employee = fake.person(rng)
    start = _employment_start(rng)
    start = min(start, date(2024, 6, 1))
    contract_day = start - timedelta(days=rng.randint(10, 60))
    effective = date(rng.choice((2026, 2026, 2027)), 1, 1) if rng.random() < 0.6 else \
        date(2026, rng.randint(3, 12), 1)
    signed = effective - timedelta(days=rng.randint(20, 70))
    old = Decimal(rng.randrange(45, 110) * 1000 + rng.choice((0, 500)))
    new = old + Decimal(rng.randrange(15, 90) * 100)
    woman = fake.salutation(employee) == "Frau"
    s = Sheet(rng.choice(("helvetica", "dejavu", "dejavu-serif")), "Änderungsvertrag")
    s.text(190, 18, employer.name, 10, bold=True, align="right")
    s.text(190, 22.5, f"{employer.street}, {employer.city}", 8, align="right")
    title = rng.choice(("Änderungsvertrag", "Nachtrag", "Änderungsvereinbarung"))
    s.text(20, 40, title.upper() if rng.random() < 0.5 else title, 15, bold=True)
    s.text(20, 47, f"zum Arbeitsvertrag vom {fake.day(contract_day)}", 11)
    y = s.lines(20, 58, ("zwischen", f"{employer.name}, {employer.street}, {employer.city}",
                         "– im Folgenden „Arbeitgeber“ –", "und",
                         f"{'Frau' if woman else 'Herrn'} {employee.plain}, {employee.street}, {employee.city}",
                         f"– im Folgenden „{'Arbeitnehmerin' if woman else 'Arbeitnehmer'}“ –"), 10, leading=5.2)
    pronoun = "Die Arbeitnehmerin" if woman else "Der Arbeitnehmer"
    since = fake.day(start, rng.choice(("dmy", "long_de")))
    monthly = fake.money(new / 12)
    role_old, role_new = rng.sample([r[0] for r in ROLES], 2)
    items = (
        ("Vorbemerkung", f"Die Parteien sind durch das seit dem {since} bestehende Arbeitsverhältnis verbunden. "
         f"Grundlage ist der Arbeitsvertrag vom {fake.day(contract_day)}. {pronoun} war bisher als {role_old} "
         "tätig. Die Parteien vereinbaren die folgenden Änderungen:"),
        ("§ 1 Tätigkeit", f"Mit Wirkung ab dem {fake.day(effective)} wird {pronoun[0].lower() + pronoun[1:]} "
         f"als {role_new} beschäftigt."),
        ("§ 2 Vergütung", f"Mit Wirkung ab dem {fake.day(effective)} beträgt das Jahresgehalt "
         f"EUR {fake.amount(new)} brutto (bisher EUR {fake.amount(old)}). Es wird in zwölf gleichen Monatsraten von "
         f"EUR {fake.amount(monthly)} jeweils zum Monatsende gezahlt."),
        ("§ 3 Übrige Bestimmungen", "Alle übrigen Bestimmungen des Arbeitsvertrages bleiben unverändert. Die "
         "Betriebszugehörigkeit wird durch diese Änderung nicht unterbrochen."),
    )
    y += 6
    for heading, text in items:
        s.text(20, y, heading, 10.5, bold=True)
        y += 5.5
        for line in wrap(s, text, 10, 170):
            s.text(20, y, line, 10)
            y += 4.8
        y += 3.5
    city = employer.city.split(" ", 1)[1]
    s.text(20, y + 8, f"{city}, den {fake.day(signed)}", 10)
    s.rule(20, y + 26, 85, 0.3)
    s.rule(115, y + 26, 185, 0.3)
    s.text(20, y + 30, "Arbeitgeber", 8.5)
    s.text(115, y + 30, "Arbeitnehmerin" if woman else "Arbeitnehmer", 8.5)
    truth = {"employer": employer.name, "employee": employee.plain, "start_date": start.isoformat(),
             "annual_salary": f"{new:.2f}"}
    return Draft(s.pdf(), truth, employee.name)
