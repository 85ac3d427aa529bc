"""Payslips, fresh development layouts of the fifth round (added 2026-12-02): a large payroll provider's two-page
'Verdienstabrechnung' whose first page is an overview of big figures in boxes and which may carry a correction
of an earlier month before the current one; a municipal employer's collective-agreement slip (TVöD) with the
year's running totals in the column left of the month's; a startup payroll provider's English slip with the
German abbreviations in brackets.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from dataclasses import replace
from datetime import date, timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.payslip import payslip_truth

# Municipal employers and their utilities: the employer under the collective agreement TVöD.
MUNICIPAL = (("Stadt Lindenau", "Personal- und Organisationsamt", "Rathausplatz 1", "04109 Leipzig"),
             ("Landkreis Oberwesel", "Kreisverwaltung - Bezügeabrechnung", "Kreishausstraße 4", "55116 Mainz"),
             ("Stadtwerke Rosenau GmbH", "Personalabrechnung", "Am Gaswerk 7", "93047 Regensburg"),
             ("Gemeinde Kirchheim am Ried", "Hauptamt - Personal", "Dorfplatz 2", "69117 Heidelberg"),
             ("Zweckverband Abfallwirtschaft Saaletal", "Personalstelle", "Deponieweg 12", "01067 Dresden"))
# Entgeltgruppe -> Tabellenentgelt of Stufe 1 (invented, near the 2026 tables); each Stufe adds a share.
TVOED = (("E 5", Decimal("2890.00")), ("E 8", Decimal("3230.00")), ("E 9a", Decimal("3390.00")),
         ("E 9b", Decimal("3560.00")), ("E 10", Decimal("3880.00")), ("E 11", Decimal("4020.00")),
         ("E 12", Decimal("4180.00")), ("E 13", Decimal("4590.00")))
ZVK = ("ZVK Kommunale Zusatzversorgungskasse", "KVBW Zusatzversorgung", "VBL Klassik", "ZVK Sachsen")
# Startups whose payroll runs at an online payroll provider.
STARTUPS = ("Quantwise Labs GmbH", "Heyloop GmbH", "Fernbrook AI GmbH", "Tidepool Health GmbH", "Cobalt & Finch GmbH",
            "Loopline Mobility GmbH")
PROVIDERS = ("Paynode", "Lohnwerk Cloud", "Kontora Payroll", "Salaro")
# Large employers whose payroll an outsourcer prints.
LARGE = ("Hanseatic Medtech SE", "Rheinwerk Logistik AG", "Alpenblick Versicherung AG", "Weserbogen Pharma AG",
         "Bodensee Mobility SE", "Fichtelberg Textil AG")
ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV", 5: "V", 6: "VI"}


@layout("payslip", "L17", DEVELOPMENT)
def overview_then_details(rng: random.Random, spec: Spec) -> Draft:
    """A payroll outsourcer's 'Verdienstabrechnung' of two pages. Page 1, 'Ihre Abrechnung im Überblick':
    the employer's name at the top right, the employee in the window, 'ABRECHNUNGSZEITRAUM 01.10.2026 -
    31.10.2026' in capitals, and three boxes with the label above a big figure (Gesamtbrutto, Nettoentgelt,
    Auszahlung '3.210,55 EUR'). Page 2: the details. Half of them first correct an earlier month
    ('Rückrechnung 09/2026': a day of unpaid leave taken back, its gross and net differences negative)
    before the current month's wage types; the net difference goes into the payout."""
    employer, employee = fake.company(rng, LARGE), fake.person(rng, latin1=False)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    last = fake.month_last(period)
    correction = rng.random() < 0.5
    earlier = date(period.year, period.month - 1, 1)
    gross_diff = -fake.money(pay.gross / 21 * rng.choice((1, 2))) if correction else Decimal("0.00")
    net_diff = fake.money(gross_diff * Decimal("0.62"))
    payout = pay.payout + net_diff
    unit = rng.choice(("EUR", "€"))

    def euro(value):
        return f"{fake.amount(value, 'de')} {unit}"

    s = Sheet(rng.choice(("helvetica", "dejavu")), "Verdienstabrechnung")
    span = f"{fake.day(period)} - {fake.day(last)}"
    s.text(190, 16, employer.name, 11, bold=True, align="right")
    s.text(190, 21, f"{employer.street} | {employer.city}", 7.5, align="right")
    s.text(190, 25, "Abrechnung erstellt durch Payroll Services Center", 6.5, align="right")
    s.lines(20, 45, fake.window(employee), 10, leading=4.6)
    s.text(20, 80, "VERDIENSTABRECHNUNG", 15, bold=True)
    s.text(20, 87, f"ABRECHNUNGSZEITRAUM {span}", 9.5, bold=True)
    s.text(120, 45, "Personalnummer", 7.5)
    s.text(190, 45, str(rng.randint(10000000, 99999999)), 8.5, align="right")
    s.text(120, 50, "Kostenstelle", 7.5)
    s.text(190, 50, str(rng.randint(4000, 4999)), 8.5, align="right")
    s.text(120, 55, "Auszahlungsdatum", 7.5)
    s.text(190, 55, fake.day(last - timedelta(days=rng.choice((0, 1, 2)))), 8.5, align="right")
    s.text(20, 100, "Ihre Abrechnung im Überblick", 11, bold=True)
    x = 20
    for label, value in (("Gesamtbrutto", pay.gross), ("Nettoentgelt", pay.net), ("Auszahlung", payout)):
        s.box(x, 106, 54, 24, width=0.6, shade=0.94)
        s.text(x + 3, 112, label, 8.5)
        s.text(x + 51, 124, euro(value), 14, bold=True, align="right")
        x += 58
    s.text(20, 140, "Steuern", 8.5, bold=True)
    s.text(74, 140, euro(pay.taxes), 8.5, align="right")
    s.text(78, 140, "Sozialversicherung", 8.5, bold=True)
    s.text(132, 140, euro(pay.social), 8.5, align="right")
    if correction:
        s.text(20, 150, f"In dieser Abrechnung ist eine Rückrechnung für {fake.month(earlier, 'slash')} enthalten "
                        "(siehe Seite 2).", 8)
    s.text(20, 160, f"Überweisung auf Ihr Konto IBAN {fake.iban_spaced(account)}", 8.5)
    s.text(105, 288, "Seite 1 von 2", 7, align="center")
    s.new_page()
    s.text(20, 16, f"{employer.name} - Verdienstabrechnung", 8.5, bold=True)
    s.text(190, 16, f"ABRECHNUNGSZEITRAUM {span}", 8.5, align="right")
    s.text(20, 21, f"{employee.family}, {employee.given}", 8.5)
    facts = ((f"StKl / Kfb.", f"{pay.tax_class} / {rng.choice(('0,0', '0,5', '1,0'))}"),
             ("Konfession", "rk" if pay.church_tax else "--"),
             ("Krankenkasse", rng.choice(("TK", "BARMER", "DAK-Gesundheit", "AOK Bayern"))),
             ("Steuer-ID", f"{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}"))
    x = 20
    for label, value in facts:
        s.text(x, 28, label, 7)
        s.text(x, 32.5, value, 8.5)
        x += 42
    y = 44
    if correction:
        s.text(20, y, f"RÜCKRECHNUNG {fake.month(earlier, 'slash')}", 9, bold=True)
        y = s.table(20, y + 6, (18, 92, 30, 30), [
            ("Lohnart", "Bezeichnung", "alt", "Differenz"),
            ("1000", f"Gehalt {fake.month(earlier, 'slash')}", fake.amount(pay.gross, "de"), fake.amount(gross_diff, "de")),
            ("9950", "Netto-Differenz Rückrechnung", "", fake.amount(net_diff, "de"))],
            size=8, leading=5, aligns=("left", "left", "right", "right"))
        y += 5
    s.text(20, y, f"LAUFENDER MONAT {fake.month(period, 'slash')}", 9, bold=True)
    rows = [("Lohnart", "Bezeichnung", "Menge", "Betrag")]
    salary = fake.money(pay.gross * Decimal(rng.choice(("1", "0.9", "0.85"))))
    rows.append(("1000", "Gehalt", "", fake.amount(salary, "de")))
    if pay.gross - salary:
        rows.append(("1410", "Zulage variabel", "", fake.amount(pay.gross - salary, "de")))
    y = s.table(20, y + 6, (18, 92, 30, 30), rows, size=8, leading=5, aligns=("left", "left", "right", "right"))
    s.rule(20, y - 2, 190, 0.3)
    s.text(21, y + 2, "Gesamtbrutto", 8.5, bold=True)
    s.text(189, y + 2, fake.amount(pay.gross, "de"), 8.5, bold=True, align="right")
    y += 9
    for label, value in (("Lohnsteuer", pay.wage_tax), ("Solidaritätszuschlag", pay.solidarity),
                         ("Kirchensteuer", pay.church_tax), ("KV-Beitrag", pay.health), ("PV-Beitrag", pay.care),
                         ("RV-Beitrag", pay.pension), ("AV-Beitrag", pay.unemployment)):
        if value:
            s.text(39, y, label, 8)
            s.text(189, y, fake.amount(-value, "de"), 8, align="right")
            y += 4.5
    s.text(21, y + 2, "Nettoentgelt", 8.5, bold=True)
    s.text(189, y + 2, fake.amount(pay.net, "de"), 8.5, bold=True, align="right")
    y += 8
    if correction:
        s.text(39, y, f"Netto-Differenz Rückrechnung {fake.month(earlier, 'slash')}", 8)
        s.text(189, y, fake.amount(net_diff, "de"), 8, align="right")
        y += 4.5
    for label, value in pay.net_deductions:
        s.text(39, y, label, 8)
        s.text(189, y, fake.amount(-value, "de"), 8, align="right")
        y += 4.5
    s.rule(120, y - 2, 190, 0.5)
    s.text(21, y + 2, "Auszahlungsbetrag", 9, bold=True)
    s.text(189, y + 2, fake.amount(payout, "de"), 9, bold=True, align="right")
    s.text(105, 288, "Seite 2 von 2", 7, align="center")
    truth = payslip_truth(employer, employee, period, replace(pay, payout=payout), account)
    return Draft(s.pdf(), truth, employee.name, pages=2)


@layout("payslip", "L18", DEVELOPMENT)
def municipal_tvoed(rng: random.Random, spec: Spec) -> Draft:
    """A municipal employer's slip under the TVöD: 'Abrechnung der Bezüge für den Monat OKTOBER 2026', a
    two-column header block ('Name, Vorname' and 'Entgeltgruppe E 9b Stufe 3' left, 'Steuerklasse IV' in
    Roman numerals and 'Zusatzversorgung' right), 'Tabellenentgelt', the employer's taxable ZVK/VBL
    'Umlage' that raises the tax gross but is never paid out, the employee's share deducted; every row has
    the year's running total FIRST ('lfd. Jahr') and the month's figure second; 'Nettobezüge',
    'Zahlbetrag'; the 'Jahressonderzahlung' noted for November."""
    name, office, street, city = rng.choice(MUNICIPAL)
    employer = fake.Company(name, street, city)
    employee = fake.person(rng)
    period, account = fake.pay_month(rng), fake.iban(rng)
    group, base = rng.choice(TVOED)
    step = rng.randint(2, 5)
    table = fake.money(base * (1 + Decimal("0.045") * (step - 1)))
    rows = [("Tabellenentgelt", table)]
    if rng.random() < 0.5:
        rows.append(("Zulage § 14 TVöD", fake.money(table * Decimal("0.045"))))
    if rng.random() < 0.4:
        rows.append(("Wechselschichtzulage", fake.money("105.00")))
    gross = sum((value for _, value in rows), Decimal("0"))
    pay = fake.payroll(rng, gross, with_net_deductions=False)
    umlage = fake.money(gross * Decimal("0.0575"))   # employer's Umlage
    taxable_umlage = max(umlage - Decimal("100.00"), Decimal("0.00")) + Decimal("0.00")
    share = fake.money(gross * Decimal("0.0181"))    # the employee's share
    net = pay.net - share
    deductions = (("VL Bausparkasse", fake.money("6.65")),) if rng.random() < 0.5 else ()
    payout = net - sum((v for _, v in deductions), Decimal("0"))
    pay = replace(pay, net=net, net_deductions=deductions, payout=payout)
    months = period.month
    s = Sheet(rng.choice(("helvetica", "times", "courier")), "Bezügeabrechnung")
    s.text(20, 15, name.upper(), 11, bold=True)
    s.text(20, 20, office, 8.5)
    s.text(20, 24.5, f"{street}, {city}", 8)
    s.text(190, 15, "ABRECHNUNG DER BEZÜGE", 11, bold=True, align="right")
    s.text(190, 20.5, f"für den Monat {fake.month(period, 'upper')}", 9, align="right")
    s.lines(20, 44, fake.window(employee, title=False), 10, leading=4.6)
    left = (("Name, Vorname", employee.reversed), ("Personalnummer", f"{rng.randint(100000, 999999)}"),
            ("Entgeltgruppe", f"{group} Stufe {step}"), ("Tarifvertrag", "TVöD-VKA"))
    right = (("Steuerklasse", ROMAN[pay.tax_class]), ("Kinderfreibeträge", rng.choice(("0,0", "0,5", "1,0"))),
             ("Konfession", "ev" if pay.church_tax else "--"), ("Zusatzversorgung", rng.choice(ZVK)))
    for index, ((l1, v1), (l2, v2)) in enumerate(zip(left, right)):
        y = 72 + index * 5
        s.text(20, y, l1, 8)
        s.text(52, y, v1, 8.5)
        s.text(112, y, l2, 8)
        s.text(145, y, v2, 8.5)
    s.rule(20, 95, 190, 0.5)

    def ytd(value):
        # The year so far: the months before at the same pay, and this month.
        return fake.money(value * months)

    head = ("Bezeichnung", "lfd. Jahr", "Monat")
    lines = [head] + [(label, fake.amount(ytd(value), "de"), fake.amount(value, "de")) for label, value in rows]
    lines.append(("Umlage ZV AG steuerpflichtig", fake.amount(ytd(taxable_umlage), "de"),
                  fake.amount(taxable_umlage, "de")))
    y = s.table(20, 102, (90, 40, 40), lines, size=8.5, leading=5, aligns=("left", "right", "right"))
    y += 2
    for label, value in (("Gesamtbrutto", pay.gross), ("Steuerbrutto", pay.gross + taxable_umlage),
                         ("SV-Brutto", pay.gross)):
        s.text(21, y, label, 8.5, bold=label == "Gesamtbrutto")
        s.text(149, y, fake.amount(ytd(value), "de"), 8.5, align="right")
        s.text(189, y, fake.amount(value, "de"), 8.5, bold=label == "Gesamtbrutto", align="right")
        y += 5
    y += 4
    rows = [("Abzüge", "lfd. Jahr", "Monat")]
    for label, value in (("Lohnsteuer", pay.wage_tax), ("Solidaritätszuschlag", pay.solidarity),
                         ("Kirchensteuer", pay.church_tax), ("Krankenversicherung AN", pay.health),
                         ("Pflegeversicherung AN", pay.care), ("Rentenversicherung AN", pay.pension),
                         ("Arbeitslosenversicherung AN", pay.unemployment), ("Umlage ZV Eigenanteil AN", share)):
        if value:
            rows.append((label, fake.amount(ytd(value), "de"), fake.amount(value, "de")))
    y = s.table(20, y, (90, 40, 40), rows, size=8.5, leading=5, aligns=("left", "right", "right"))
    y += 2
    s.text(21, y, "Nettobezüge", 9, bold=True)
    s.text(149, y, fake.amount(ytd(pay.net), "de"), 9, align="right")
    s.text(189, y, fake.amount(pay.net, "de"), 9, bold=True, align="right")
    y += 6
    for label, value in deductions:
        s.text(21, y, label, 8.5)
        s.text(189, y, fake.amount(-value, "de"), 8.5, align="right")
        y += 5
    s.text(21, y, "Zahlbetrag", 9.5, bold=True)
    s.text(189, y, fake.amount(pay.payout, "de"), 9.5, bold=True, align="right")
    y += 10
    s.text(20, y, f"Der Zahlbetrag wird überwiesen auf IBAN {fake.iban_spaced(account)}.", 8)
    s.text(20, y + 5, "Die Jahressonderzahlung (§ 20 TVöD) wird mit den Bezügen für November gezahlt.", 7.5)
    s.text(20, y + 9, f"Arbeitgeberumlage zur Zusatzversorgung im Monat: {fake.amount(umlage, 'de')} EUR", 7.5)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


@layout("payslip", "L19", DEVELOPMENT)
def startup_english(rng: random.Random, spec: Spec) -> Draft:
    """A startup's slip from an online payroll provider, in English with the German abbreviations in
    brackets: the provider's name at the top, 'Payslip October 2026' and 'Pay period 2026-10-01 - 2026-10-31'
    (ISO dates), a summary bar of heads over values ('Gross salary (Brutto) | Deductions (Abzüge) | Net
    salary (Netto) | Payout (Auszahlung)'), the employee and the employer as labels ABOVE values in a grid,
    'Income tax (LSt)', 'Church tax (KiSt)', 'Solidarity surcharge (SolZ)', 'Health insurance (KV)' and so
    on, amounts '€4,812.33'; the legal entity again in the footer."""
    employer, employee = fake.company(rng, STARTUPS), fake.person(rng, latin1=False)
    period, pay, account = fake.pay_month(rng), fake.payroll(rng), fake.iban(rng)
    last = fake.month_last(period)
    provider = rng.choice(PROVIDERS)

    def eur(value):
        text = fake.amount(abs(value), "en")
        return f"-€{text}" if value < 0 else f"€{text}"

    s = Sheet(rng.choice(("dejavu", "dejavu-condensed")), "Payslip")
    s.text(20, 14, f"{provider}", 9, bold=True)
    s.text(190, 14, "payroll made simple", 7, align="right")
    s.text(20, 28, f"Payslip {fake.month(period, 'en')}", 16, bold=True)
    s.text(20, 34, f"Pay period {period.isoformat()} - {last.isoformat()}   ·   Pay date {last.isoformat()}", 8.5)
    heads = (("Gross salary (Brutto)", pay.gross), ("Deductions (Abzüge)", pay.gross - pay.net),
             ("Net salary (Netto)", pay.net), ("Payout (Auszahlung)", pay.payout))
    x = 20
    for head, value in heads:
        s.box(x, 40, 42, 16, width=0.3, shade=0.95)
        s.text(x + 2, 45, head, 7)
        s.text(x + 2, 52, eur(value), 11, bold=True)
        x += 42.5
    grid = (("Employee", employee.plain), ("Employer", employer.name), ("Employee no.", f"E-{rng.randint(100, 999)}"),
            ("Tax ID (Steuer-ID)", f"{rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}"),
            ("Tax class (StKl)", str(pay.tax_class)), ("Health insurer (Krankenkasse)", rng.choice(("TK", "BARMER", "hkk"))),
            ("Church (Konfession)", "RK" if pay.church_tax else "none"), ("Start date", fake.day(date(rng.randint(2019, 2025), rng.randint(1, 12), 1), "iso")))
    for index, (label, value) in enumerate(grid):
        x, y = (20, 58, 112, 150)[index % 4], 66 + (index // 4) * 12
        s.text(x, y, label, 6.5)
        s.text(x, y + 4.5, value, 8.5, bold=index < 2)
    y = 96
    rows = [("Earnings (Bezüge)", "Units", "Rate", "Amount")]
    salary = fake.money(pay.gross * Decimal(rng.choice(("1", "0.95", "0.9"))))
    rows.append(("Base salary (Grundgehalt)", "1", "", eur(salary)))
    if pay.gross - salary:
        rows.append(("Remote work allowance (Homeoffice-Zuschuss)", "", "", eur(pay.gross - salary)))
    y = s.table(20, y, (95, 20, 25, 30), rows, size=8, leading=5, aligns=("left", "right", "right", "right"))
    s.text(21, y + 1, "Gross salary (Brutto)", 8.5, bold=True)
    s.text(189, y + 1, eur(pay.gross), 8.5, bold=True, align="right")
    y += 10
    rows = [("Deductions (Abzüge)", "Basis", "Rate", "Amount")]
    for label, value, rate in (("Income tax (LSt)", pay.wage_tax, ""), ("Solidarity surcharge (SolZ)", pay.solidarity, "5.5%"),
                               ("Church tax (KiSt)", pay.church_tax, "8%"), ("Health insurance (KV)", pay.health, "8.75%"),
                               ("Long-term care (PV)", pay.care, "1.8%"), ("Pension (RV)", pay.pension, "9.3%"),
                               ("Unemployment (AV)", pay.unemployment, "1.3%")):
        if value:
            rows.append((label, "", rate, eur(-value)))
    y = s.table(20, y, (95, 20, 25, 30), rows, size=8, leading=5, aligns=("left", "right", "right", "right"))
    s.text(21, y + 1, "Net salary (Netto)", 8.5, bold=True)
    s.text(189, y + 1, eur(pay.net), 8.5, bold=True, align="right")
    y += 8
    for label, value in pay.net_deductions:
        s.text(21, y, f"Other deductions ({label})", 8)
        s.text(189, y, eur(-value), 8, align="right")
        y += 5
    s.text(21, y + 2, "Payout (Auszahlung)", 9.5, bold=True)
    s.text(189, y + 2, eur(pay.payout), 9.5, bold=True, align="right")
    s.text(21, y + 9, f"Paid to {fake.iban_spaced(account)} on {last.isoformat()}", 8)
    s.text(20, 280, f"{employer.name} · {employer.street} · {employer.city} · processed by {provider}", 6.5)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)
