"""Wage tax certificates for 2025, fresh development layouts of the fifth round (added 2026-12-02): the tax
office's own print of the certificate data it received (as the ELSTER 'Belegabruf' shows them, under the
Finanzamt's letterhead), and a foreign employer's certificate printed bilingually by its German payroll agent.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from datetime import date
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.wage_tax_certificate import certificate

# Employers abroad with staff in Germany and no German establishment; a German payroll agent runs their payroll.
FOREIGN = (("Maplewood Analytics Ltd.", "14 Clerkenwell Road", "London EC1M 5RD, United Kingdom"),
           ("Nordvik Subsea AS", "Strandkaien 8", "5013 Bergen, Norway"),
           ("Hollandia Freight B.V.", "Keizersgracht 212", "1016 DZ Amsterdam, Netherlands"),
           ("Lakeshore Robotics Inc.", "410 N Michigan Ave", "Chicago, IL 60611, USA"),
           ("Vasquez & Romero S.L.", "Calle de Alcalá 93", "28009 Madrid, Spain"))
AGENTS = (("Lohnagentur Falk GmbH", "Kaiserstraße 21", "60311 Frankfurt am Main"),
          ("Payroll Partner Süd GmbH", "Leopoldstraße 88", "80331 München"),
          ("Meridian Lohnbüro GmbH & Co. KG", "Am Sandtorkai 5", "20095 Hamburg"))


@layout("wage_tax_certificate", "L14", DEVELOPMENT)
def tax_office_data_print(rng: random.Random, spec: Spec) -> Draft:
    """The tax office's print of the certificate data the employer transmitted, as the ELSTER 'Belegabruf'
    and the pre-filled return show them: the Finanzamt's letterhead and its 'Steuernummer', the employee in
    the window, 'Mitteilung über die elektronisch übermittelten Daten (Belegabruf)', 'Veranlagungszeitraum
    2025'; the employer only as 'übermittelnde Stelle / Arbeitgeber' in a row of heads over values; a table
    'Kz. | Bezeichnung | Wert' whose labels are the tax return's own words ('Bruttoarbeitslohn' in
    'Steuerklasse 1-5'), amounts '48.213,76 EUR'; a note that this is no tax assessment."""
    c = certificate(rng)
    office = rng.choice(fake.TAX_OFFICES)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Belegabruf")
    s.text(20, 16, office, 12, bold=True)
    s.text(20, 21, f"{rng.choice(fake.STREETS)} {rng.randint(1, 80)}, {rng.choice(fake.CITIES)[0]} "
                   f"{office.split()[1].split('-')[0]}", 7.5)
    s.text(20, 38, f"{office} · Postfach {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)}", 6.5)
    s.lines(20, 44, fake.window(c.employee), 10, leading=4.6)
    facts = (("Steuernummer", fake.tax_number(rng)), ("Identifikationsnummer", c.id_number),
             ("Datum", fake.day(date(2026, rng.randint(3, 10), rng.randint(1, 28)))))
    for index, (label, value) in enumerate(facts):
        s.text(125, 44 + index * 5, label, 7.5)
        s.text(190, 44 + index * 5, value, 8.5, align="right")
    s.text(20, 80, "Mitteilung über die elektronisch übermittelten Daten (Belegabruf)", 11, bold=True)
    s.text(20, 86, f"Veranlagungszeitraum {c.year}", 10, bold=True)
    s.text(20, 93, "Folgende Daten aus der elektronischen Lohnsteuerbescheinigung liegen dem Finanzamt vor:", 8.5)
    heads = ("übermittelnde Stelle / Arbeitgeber", "Dauer", "Eingang")
    values = (c.employer.name, f"01.01.{c.year} - 31.12.{c.year}",
              fake.day(date(c.year + 1, 2, rng.randint(2, 27))))
    x = 20
    for head, value, width in zip(heads, values, (85, 50, 35)):
        s.text(x, 102, head, 7)
        s.text(x, 107, value, 9)
        x += width
    s.rule(20, 110, 190, 0.3)
    rows = [("Kz.", "Bezeichnung", "Wert")]
    for code, label, value in (("110", "Bruttoarbeitslohn (Steuerklasse 1-5)", c.gross),
                               ("140", "Lohnsteuer", c.wage_tax), ("150", "Solidaritätszuschlag", c.solidarity),
                               ("142", "Kirchensteuer Arbeitnehmer", c.church_tax),
                               ("300", "Arbeitgeberanteil Rentenversicherung", c.pension),
                               ("301", "Arbeitnehmeranteil Rentenversicherung", c.pension),
                               ("326", "Arbeitnehmerbeiträge Krankenversicherung", c.health),
                               ("329", "Arbeitnehmerbeiträge Pflegeversicherung", fake.money(c.health * 18 / 87))):
        rows.append((code, label, f"{fake.amount(value, 'de')} EUR"))
    y = s.table(20, 118, (15, 115, 40), rows, size=9, leading=6, aligns=("left", "left", "right"))
    s.text(20, y + 6, "Diese Mitteilung ist kein Steuerbescheid. Bitte prüfen Sie die Daten und teilen Sie "
                      "Abweichungen in Ihrer Steuererklärung mit.", 7.5)
    s.text(20, y + 11, f"Rechtsbehelfe sind gegen diese Mitteilung nicht gegeben. Auskunft erteilt: {office}, "
                       f"Telefon 0{rng.randint(30, 999)} {rng.randint(1000, 99999)}-0", 7.5)
    return Draft(s.pdf(), c.truth(), c.employee.name)


@layout("wage_tax_certificate", "L15", DEVELOPMENT)
def payroll_agent_bilingual(rng: random.Random, spec: Spec) -> Draft:
    """A foreign employer's certificate printed by its German payroll agent (§ 38 Abs. 3a EStG): the agent's
    letterhead (a German GmbH) at the top, 'Wage tax certificate / Lohnsteuerbescheinigung 2025', the
    employer abroad ('Employer / Arbeitgeber: Maplewood Analytics Ltd., London') and the employee as
    'Family, Given' in two boxes side by side with labels above values; the lines as 'Gross wages /
    Bruttoarbeitslohn (3.)', amounts English '48,213.76' or German '48.213,76' with the currency in the
    column head."""
    c = certificate(rng)
    name, street, city = rng.choice(FOREIGN)
    c_employer = fake.Company(name, street, city)
    agent = rng.choice(AGENTS)
    english = rng.random() < 0.5
    style = "en" if english else "de"
    s = Sheet(rng.choice(("helvetica", "times", "dejavu-serif")), "Wage tax certificate")
    s.text(20, 14, agent[0], 10, bold=True)
    s.text(20, 18.5, f"{agent[1]} · {agent[2]} · Payroll agent under § 38 (3a) EStG", 7)
    s.text(20, 32, f"Wage tax certificate / Lohnsteuerbescheinigung {c.year}", 14, bold=True)
    s.text(20, 38, f"Calendar year / Kalenderjahr: {c.year}    Period / Zeitraum: 01/01 - 31/12", 8.5)
    for x, label, lines in ((20, "Employer / Arbeitgeber", (c_employer.name, c_employer.street, c_employer.city)),
                            (110, "Employee / Arbeitnehmer", (c.employee.reversed, c.employee.street, c.employee.city))):
        s.box(x, 44, 80, 22, width=0.3)
        s.text(x + 2, 48, label, 7)
        s.lines(x + 2, 53.5, lines, 9, leading=4.2)
    s.text(20, 74, f"Tax ID / IdNr.: {c.id_number}     eTIN: {c.etin}     Tax class / StKl: {rng.choice((1, 3, 4))}", 8)
    rows = [("No. / Nr.", "Item / Bezeichnung", "EUR")]
    for number, english_label, german_label, value in (
            ("3.", "Gross wages", "Bruttoarbeitslohn", c.gross), ("4.", "Wage tax withheld", "Einbehaltene Lohnsteuer", c.wage_tax),
            ("5.", "Solidarity surcharge", "Solidaritätszuschlag", c.solidarity),
            ("6.", "Church tax", "Kirchensteuer", c.church_tax),
            ("22a.", "Employer pension contribution", "AG-Anteil Rentenversicherung", c.pension),
            ("23a.", "Employee pension contribution", "AN-Anteil Rentenversicherung", c.pension),
            ("25.", "Employee health insurance", "AN-Beiträge Krankenversicherung", c.health)):
        rows.append((number, f"{english_label} / {german_label}", fake.amount(value, style)))
    y = s.table(20, 84, (22, 113, 35), rows, size=9, leading=6, aligns=("left", "left", "right"), grid=True)
    s.text(20, y + 6, f"Wage tax paid to / Lohnsteuer abgeführt an: {rng.choice(fake.TAX_OFFICES)}", 8)
    s.text(20, y + 11, f"Issued by / Ausgestellt durch {agent[0]} on behalf of the employer, "
                       f"{fake.day(date(c.year + 1, 2, rng.randint(2, 27)))}", 7.5)
    truth = c.truth()
    truth["employer"] = c_employer.name
    return Draft(s.pdf(), truth, c.employee.name)
