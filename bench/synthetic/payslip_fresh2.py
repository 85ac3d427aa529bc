"""Payslips, fresh development layouts of the third round (added 2026-12-01): a civil servant's
'Bezügemitteilung' of a Land's pay office, a staffing agency's or hospital's slip of hours and
supplements in two blocks side by side, an English-German slip of a US subsidiary.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from dataclasses import replace
from datetime import timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.payslip import payslip_truth

# Pay offices of the Länder (invented names in the form they use): the paying office is the employer.
PAY_OFFICES = (
    ("Landesamt für Besoldung und Versorgung Rheinland", "Postfach 10 24 41", "50464 Köln", "Land Rheinland"),
    ("Landesamt für Finanzen - Bezügestelle Nordbayern", "Krelingstraße 50", "90408 Nürnberg", "Freistaat Bayern"),
    ("Landesbesoldungsamt Niedersachsen-Süd", "Waterloostraße 4", "30169 Hannover", "Land Niedersachsen"),
    ("Zentrale Besoldungsstelle des Landes Hessen", "Walter-Hesselbach-Straße 2", "60389 Frankfurt am Main",
     "Land Hessen"),
)
DUTY_STATIONS = ("Gymnasium am Stadtpark", "Amtsgericht Mitte", "Finanzamt Süd", "Polizeipräsidium Ost",
                 "Universitätsbibliothek", "Landesamt für Umwelt", "Berufskolleg Technik")
GRADES = (("A 9", Decimal("3310.00")), ("A 11", Decimal("4020.00")), ("A 12", Decimal("4470.00")),
          ("A 13", Decimal("5080.00")), ("A 14", Decimal("5390.00")), ("A 15", Decimal("6250.00")))
# Staffing agencies and hospitals: employers that pay by the hour with supplements.
HOURLY_EMPLOYERS = ("Personaldienste Weserland GmbH", "Klinikum Südstadt gGmbH", "Zeitwerk Personal GmbH & Co. KG",
                    "Städtisches Krankenhaus Lindenau gGmbH", "Randstedt Industrieservice GmbH",
                    "Pflegezentrum Am Kurpark gGmbH")
US_SUBSIDIARIES = ("Brightwater Systems Germany GmbH", "Crestline Cloud Deutschland GmbH",
                   "Redwood Diagnostics GmbH", "Summit Payments Europe GmbH", "Bluegate Software Germany GmbH")


def civil_servant_pay(rng: random.Random, grade: Decimal) -> tuple[list[tuple[str, Decimal]], fake.Payroll]:
    """A civil servant's month: salary by grade and step, family and general supplements; wage tax,
    solidarity and church tax only (no statutory social insurance), net deductions after net."""
    step = rng.randint(3, 8)
    rows = [(f"Grundgehalt (Stufe {step})", fake.money(grade + step * 95 + rng.randrange(0, 40)))]
    if rng.random() < 0.6:
        rows.append((f"Familienzuschlag Stufe {rng.randint(1, 3)}", fake.money(rng.choice(("171.28", "329.62", "512.90")))))
    rows.append(("Allgemeine Zulage", fake.money(rng.choice(("21.82", "102.30", "118.74")))))
    if rng.random() < 0.3:
        rows.append(("Stellenzulage", fake.money(rng.choice(("95.10", "141.25")))))
    gross = sum((value for _, value in rows), Decimal("0"))
    pay = fake.payroll(rng, gross, with_net_deductions=False)
    zero = Decimal("0.00")
    net = gross - pay.wage_tax - pay.solidarity - pay.church_tax
    deductions = []
    if rng.random() < 0.5:
        deductions.append(("VL-Anlage Bausparkasse", fake.money(rng.choice(("40.00", "6.65", "26.59")))))
    if rng.random() < 0.3:
        deductions.append(("Beitrag Beamtenbund", fake.money(rng.choice(("14.50", "19.80")))))
    payout = net - sum((value for _, value in deductions), Decimal("0"))
    return rows, replace(pay, health=zero, care=zero, pension=zero, unemployment=zero, net=net,
                         net_deductions=tuple(deductions), payout=payout)


@layout("payslip", "L12", DEVELOPMENT)
def civil_servant_statement(rng: random.Random, spec: Spec) -> Draft:
    """A Land's pay office: 'Bezügemitteilung' / 'Besoldungsmitteilung' / 'Mitteilung über die Bezüge',
    the month as '10.2026' or 'Oktober 2026' after 'für den Monat' / 'Zahlungsmonat', the civil
    servant in the window, 'Besoldungsgruppe A 13', tax class with child allowances ('3 / 1,0'),
    pay items 'Grundgehalt (Stufe 6)', 'Familienzuschlag', taxes only (no social insurance),
    'Bruttobezüge' / 'Summe der Bezüge', 'Nettobezüge', 'Zahlbetrag', the payee account at the end;
    half of them with a 'Vormonat' column of last month's figures to the right."""
    office, street, city, state = rng.choice(PAY_OFFICES)
    employer = fake.Company(office, street, city)
    employee, period, account = fake.person(rng), fake.pay_month(rng), fake.iban(rng)
    grade_name, grade = rng.choice(GRADES)
    rows, pay = civil_servant_pay(rng, grade)
    compare = rng.random() < 0.5
    # Last month: the same, but a step lower if the step rose this month.
    rise = fake.money(rng.choice((0, 0, 95, 110))) if compare else Decimal("0")
    s = Sheet(rng.choice(("helvetica", "dejavu", "times")), "Bezügemitteilung")
    s.text(20, 14, f"{office} · {street} · {city}", 7)
    s.rule(20, 16, 110, 0.3)
    s.lines(20, 24, fake.window(employee), 10, leading=4.8)
    s.text(190, 18, office, 9, bold=True, align="right")
    s.lines(125, 24, (street, city, f"Dienstherr: {state}", f"Telefon 0{rng.randint(200, 999)} {rng.randint(1000, 9999)}-0"),
            8, leading=3.8)
    title = rng.choice(("Bezügemitteilung", "Besoldungsmitteilung", "Mitteilung über die Bezüge"))
    month_text = fake.month(period, rng.choice(("dot", "de")))
    s.text(20, 60, title, 13, bold=True)
    s.text(20, 66, rng.choice((f"für den Monat {month_text}", f"Zahlungsmonat: {month_text}")), 10)
    facts = (("Personalnummer", f"{rng.randint(100, 999)} {rng.randint(10000, 99999)}"),
             ("Besoldungsgruppe", grade_name), ("Dienststelle", rng.choice(DUTY_STATIONS)),
             ("Steuerklasse / Kinderfreibeträge", f"{pay.tax_class} / {rng.choice(('0,0', '0,5', '1,0', '2,0'))}"),
             ("Konfession", rng.choice(("rk", "ev", "--"))), ("Krankenversicherung", "privat (Beihilfe)"))
    for index, (label, value) in enumerate(facts):
        s.text(20, 76 + index * 4.6, label, 8.5)
        s.text(78, 76 + index * 4.6, value, 8.5)
    y = 110
    heads = ("Bezüge", "Betrag €", "Vormonat €") if compare else ("Bezüge", "Betrag €")
    widths = (110, 30, 30) if compare else (140, 30)
    aligns = ("left", "right", "right") if compare else ("left", "right")

    def row(label, value, before=None):
        cells = [label, fake.amount(value, "de")]
        if compare:
            cells.append(fake.amount(value if before is None else before, "de"))
        return tuple(cells)

    body = [row(label, value, value - rise if label.startswith("Grundgehalt") else None) for label, value in rows]
    y = s.table(20, y, widths, [heads, *body], size=9, aligns=aligns)
    gross_label = rng.choice(("Bruttobezüge", "Summe der Bezüge", "Gesamtbezüge"))
    # Last month's taxes: the rise taxed at about 30 %, its surcharges in proportion.
    before_tax = pay.wage_tax - fake.money(rise * Decimal("0.3"))
    before_taxes = (before_tax, fake.money(pay.solidarity * before_tax / pay.wage_tax) if pay.solidarity else pay.solidarity,
                    fake.money(pay.church_tax * before_tax / pay.wage_tax) if pay.church_tax else pay.church_tax)
    before_net = pay.gross - rise - sum(before_taxes, Decimal("0"))
    s.rule(20, y - 2.5, 190, 0.3)
    y = s.table(20, y + 1, widths, [row(gross_label, pay.gross, pay.gross - rise)], size=9.5, aligns=aligns,
                header_bold=True)
    y += 4
    taxes = [("Lohnsteuer", pay.wage_tax, before_taxes[0]), ("Solidaritätszuschlag", pay.solidarity, before_taxes[1]),
             ("Kirchensteuer", pay.church_tax, before_taxes[2])]
    taxes = [t for t in taxes if t[1]]
    y = s.table(20, y, widths, [("Abzüge", "", "") if compare else ("Abzüge", ""),
                                *[row(label, value, old) for label, value, old in taxes]], size=9, aligns=aligns)
    s.rule(20, y - 2.5, 190, 0.3)
    net_label = rng.choice(("Nettobezüge", "Nettobetrag"))
    y = s.table(20, y + 1, widths, [row(net_label, pay.net, before_net)], size=9.5, aligns=aligns)
    y += 3
    for label, value in pay.net_deductions:
        s.text(21, y, label, 9)
        s.text(159 if compare else 189, y, fake.amount(value, "de"), 9, align="right")
        y += 4.5
    y += 3
    s.box(20, y - 5, 170, 8, width=0.4, shade=0.9)
    s.text(22, y, "Zahlbetrag", 10, bold=True)
    s.text(159 if compare else 189, y, fake.amount(pay.payout, "de"), 10, bold=True, align="right")
    y += 10
    s.text(20, y, f"Der Zahlbetrag wird überwiesen auf das Konto IBAN {fake.iban_spaced(account)}.", 8.5)
    s.text(20, y + 5, "Die Bezüge werden monatlich im Voraus gezahlt. Diese Mitteilung ergeht maschinell "
                      "und ist ohne Unterschrift gültig.", 7)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


@layout("payslip", "L13", DEVELOPMENT)
def hours_and_supplements(rng: random.Random, spec: Spec) -> Draft:
    """A staffing agency's or hospital's slip laid out like a landscape form: the employee as
    'Name, Vorname' in a header strip, the period as '01.10.-31.10.2026'; two blocks side by side,
    'Bezüge' (Lohnart, Stunden, Satz, Betrag: base hours, night, Sunday and holiday supplements) on
    the left and 'Abzüge' on the right; amounts with a trailing 'EUR' and deductions with a trailing
    minus; a summary strip of boxes (Gesamtbrutto, Steuer-/SV-Brutto, gesetzl. Abzüge, Netto);
    an advance already paid ('Abschlag') taken off before the payout."""
    employer, employee = fake.company(rng, HOURLY_EMPLOYERS), fake.person(rng)
    period, account = fake.pay_month(rng), fake.iban(rng)
    hours = Decimal(rng.choice(("151,00", "160,50", "168,00", "172,25", "138,75")).replace(",", "."))
    rate = fake.money(rng.randrange(1450, 2890) / 100)
    lines = [("1010", "Grundlohn", hours, rate)]
    for code, label, share, most in (("1210", "Nachtzuschlag 25 %", Decimal("0.25"), 48),
                                     ("1220", "Sonntagszuschlag 50 %", Decimal("0.50"), 24),
                                     ("1230", "Feiertagszuschlag 125 %", Decimal("1.25"), 12)):
        if rng.random() < 0.7:
            lines.append((code, label, Decimal(rng.randint(4, most)), fake.money(rate * share)))
    earnings = [(code, label, h, r, fake.money(h * r)) for code, label, h, r in lines]
    if rng.random() < 0.5:
        earnings.append(("1500", "Fahrtkostenzuschuss", None, None, fake.money(rng.randrange(4000, 12000) / 100)))
    gross = sum((row[4] for row in earnings), Decimal("0"))
    pay = fake.payroll(rng, gross, with_net_deductions=False)
    advance = fake.money(rng.choice((0, 300, 400, 500))) if pay.net > 1200 else Decimal("0")
    deductions = (("Abschlag vom 15.", advance),) if advance else ()
    if rng.random() < 0.4:
        deductions += (("Verpflegung", fake.money(rng.randrange(1500, 6000) / 100)),)
    pay = replace(pay, net_deductions=deductions, payout=pay.net - sum((v for _, v in deductions), Decimal("0")))
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed")), "Lohnabrechnung")
    s.text(15, 14, employer.name, 11, bold=True)
    s.text(15, 18.5, f"{employer.street}, {employer.city}", 7.5)
    s.text(195, 14, rng.choice(("Lohn- und Gehaltsabrechnung", "Entgeltnachweis", "Abrechnung der Bezüge")), 11,
           bold=True, align="right")
    last = fake.month_last(period)
    strip = (("Name, Vorname", employee.reversed), ("Pers.-Nr.", str(rng.randint(20000, 89999))),
             ("Zeitraum", f"{period.day:02d}.{period.month:02d}.-{fake.day(last)}"),
             ("StKl.", str(pay.tax_class)), ("Einsatz / Station", rng.choice(("Kunde 4471", "Station 3B", "Kunde 1208",
                                                                              "Intensiv 2", "Lager Nord"))))
    x = 15
    for (label, value), width in zip(strip, (50, 22, 42, 14, 52)):
        s.box(x, 24, width, 11, width=0.3)
        s.text(x + 1.2, 27.5, label, 6.5)
        s.text(x + 1.2, 33, value, 8.5)
        x += width
    s.lines(15, 46, (employee.plain, employee.street, employee.city), 9, leading=4.2)
    # Left block: earnings.
    top = 66
    s.text(15, top, "Bezüge", 9.5, bold=True)
    rows = [("LA", "Bezeichnung", "Std.", "Satz", "Betrag")]
    for code, label, h, r, value in earnings:
        rows.append((code, label, "" if h is None else fake.amount(h, "plain"), "" if r is None else fake.amount(r, "plain"),
                     f"{fake.amount(value, 'de')} EUR"))
    left_y = s.table(15, top + 5, (9, 37, 11, 11, 25), rows, size=7.5, aligns=("left", "left", "right", "right", "right"))
    # Right block: deductions.
    s.text(110, top, "Abzüge", 9.5, bold=True)
    taxes = [("Lohnsteuer", pay.wage_tax), ("Solidaritätszuschlag", pay.solidarity), ("Kirchensteuer", pay.church_tax),
             ("KV-Beitrag AN", pay.health), ("PV-Beitrag AN", pay.care), ("RV-Beitrag AN", pay.pension),
             ("AV-Beitrag AN", pay.unemployment)]
    right = [("Bezeichnung", "Betrag")] + [(label, f"{fake.amount(-value, 'de_minus')} EUR") for label, value in taxes if value]
    right_y = s.table(110, top + 5, (55, 30), right, size=7.5, aligns=("left", "right"))
    y = max(left_y, right_y) + 4
    s.rule(15, y - 3, 195, 0.3)
    summary = (("Gesamtbrutto", pay.gross), ("Steuerbrutto", pay.gross),
               ("SV-Brutto", min(pay.gross, fake.money("5812.50"))),
               ("gesetzl. Abzüge", -(pay.taxes + pay.social)), ("Nettolohn", pay.net))
    x = 15
    for label, value in summary:
        s.box(x, y, 36, 11, width=0.3)
        s.text(x + 1.2, y + 3.5, label, 6.5)
        s.text(x + 35, y + 9, f"{fake.amount(value, 'de_minus')} EUR", 8.5, bold=label == "Nettolohn", align="right")
        x += 36
    y += 19
    for label, value in pay.net_deductions:
        s.text(110, y, label, 8)
        s.text(194, y, f"{fake.amount(-value, 'de_minus')} EUR", 8, align="right")
        y += 4.2
    y += 2
    s.text(110, y, rng.choice(("Auszahlung", "Überweisung", "Restauszahlung")), 9.5, bold=True)
    s.text(194, y, f"{fake.amount(pay.payout, 'de')} EUR", 9.5, bold=True, align="right")
    s.text(15, y, f"Bank: IBAN {fake.iban_spaced(account)}", 8)
    s.text(15, y + 10, f"Urlaub Rest {rng.randint(2, 24)} Tage   Stundenkonto {fake.amount(Decimal(rng.randint(-20, 60)), 'plain')} Std.",
           7.5)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


@layout("payslip", "L14", DEVELOPMENT)
def bilingual_us_subsidiary(rng: random.Random, spec: Spec) -> Draft:
    """A US company's German subsidiary, printed by a global payroll: every label in English and German
    ('Gross pay / Bruttobezüge', 'Net pay / Nettobezüge', 'Pay date / Zahltag'), the period as a
    range 'Oct 1, 2026 - Oct 31, 2026' or '01.10.2026 - 31.10.2026', amounts '€5,432.10' or
    'EUR 5.432,10', current and YTD / Jahreswert columns, an employee stock purchase plan taken
    from net pay, 'Payment / Auszahlung'."""
    employer, employee = fake.company(rng, US_SUBSIDIARIES), fake.person(rng)
    pay = fake.payroll(rng, with_net_deductions=False)
    period, account = fake.pay_month(rng), fake.iban(rng)
    deductions = (("ESPP contribution / Mitarbeiteraktien", fake.money(pay.net * Decimal(rng.choice(("0.05", "0.10"))))),)
    if rng.random() < 0.4:
        deductions += (("Company car / Dienstwagen (geldw. Vorteil)", fake.money(rng.randrange(20000, 60000) / 100)),)
    pay = replace(pay, net_deductions=deductions, payout=pay.net - sum((v for _, v in deductions), Decimal("0")))
    english = rng.random() < 0.5
    style = "en" if english else "de"

    def money(value):
        if english:
            return f"-€{fake.amount(-value, 'en')}" if value < 0 else f"€{fake.amount(value, 'en')}"
        return f"EUR {fake.amount(value, 'de')}"

    def when(value):
        return f"{fake.MONTHS_EN[value.month - 1][:3]} {value.day}, {value.year}" if english else fake.day(value)

    last = fake.month_last(period)
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Earnings statement")
    s.text(20, 18, employer.name, 12, bold=True)
    s.text(20, 23, f"{employer.street} · {employer.city} · a subsidiary of {employer.name.split()[0]} Inc.", 7.5)
    s.text(190, 18, "Earnings Statement", 12, bold=True, align="right")
    s.text(190, 23, "Entgeltabrechnung", 9, align="right")
    facts = (("Employee / Mitarbeiter", employee.plain), ("Employee no. / Personalnr.", str(rng.randint(100000, 999999))),
             ("Pay period / Abrechnungszeitraum", f"{when(period)} - {when(last)}"),
             ("Pay date / Zahltag", when(last - timedelta(days=rng.choice((0, 1, 2))))),
             ("Tax class / Steuerklasse", str(pay.tax_class)), ("Currency / Währung", "EUR"))
    for index, (label, value) in enumerate(facts):
        column, line = (20, index) if index < 3 else (118, index - 3)
        s.text(column, 36 + line * 5, label, 7.5, bold=True)
        s.text(column + (57 if column == 20 else 38), 36 + line * 5, value, 8.5)
    months = period.month
    y = s.table(20, 60, (100, 35, 35), [("Earnings / Bezüge", "Current / Aktuell", "YTD / Jahreswert"),
                                        ("Base salary / Grundgehalt", fake.amount(pay.gross, style),
                                         fake.amount(pay.gross * months, style))],
                size=8.5, aligns=("left", "right", "right"))
    s.text(21, y + 1, "Gross pay / Bruttobezüge", 9, bold=True)
    s.text(154, y + 1, money(pay.gross), 9, bold=True, align="right")
    s.text(189, y + 1, money(pay.gross * months), 8.5, align="right")
    rows = [("Income tax / Lohnsteuer", pay.wage_tax), ("Solidarity surcharge / Solidaritätszuschlag", pay.solidarity),
            ("Church tax / Kirchensteuer", pay.church_tax), ("Health insurance / Krankenversicherung", pay.health),
            ("Care insurance / Pflegeversicherung", pay.care), ("Pension insurance / Rentenversicherung", pay.pension),
            ("Unemployment ins. / Arbeitslosenversicherung", pay.unemployment)]
    y = s.table(20, y + 12, (100, 35, 35), [("Deductions / Abzüge", "Current / Aktuell", "YTD / Jahreswert"),
                                             *[(label, fake.amount(value, style), fake.amount(value * months, style))
                                               for label, value in rows if value]],
                size=8.5, aligns=("left", "right", "right"))
    s.text(21, y + 1, "Total deductions / Summe Abzüge", 9, bold=True)
    s.text(154, y + 1, money(pay.gross - pay.net), 9, align="right")
    y += 10
    s.box(20, y - 5, 170, 8, width=0.4, shade=0.92)
    s.text(22, y, "Net pay / Nettobezüge", 10, bold=True)
    s.text(154, y, money(pay.net), 10, bold=True, align="right")
    s.text(189, y, money(pay.net * months), 8.5, align="right")
    y += 9
    s.text(21, y, "Deductions from net pay / Abzüge vom Netto", 8.5, bold=True)
    y += 4.5
    for label, value in pay.net_deductions:
        s.text(21, y, label, 8.5)
        s.text(154, y, money(-value), 8.5, align="right")
        y += 4.5
    s.text(21, y + 3, "Payment / Auszahlung", 10, bold=True)
    s.text(154, y + 3, money(pay.payout), 10, bold=True, align="right")
    s.text(21, y + 10, f"Bank transfer / Überweisung: IBAN {fake.iban_spaced(account)}", 8)
    s.text(105, 285, "Questions? payroll-de@" + employer.name.split()[0].lower() + ".com", 7, align="center")
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)
