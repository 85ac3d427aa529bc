"""Payslips, fresh development layouts of the fourth round (added 2026-12-02): a DATEV-style slip of a
trainee or a mini-jobber with the month only as 'Monat/Jahr 10/26' in a personal data grid, a French- or
Dutch-owned company's bilingual slip whose period stands only as a date range in the footer.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from datetime import timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.payslip import payslip_truth

# Small employers that train apprentices or employ mini-jobbers.
SMALL_EMPLOYERS = ("Bäckerei Sonnenkorn GmbH", "Autohaus Kranichfeld GmbH & Co. KG", "Elektrotechnik Voss GmbH",
                   "Physiopraxis am Wall GbR", "Gasthaus Zur Linde Inh. M. Brandt e.K.", "Steuerkanzlei Reuter & Kolb",
                   "Zahnarztpraxis Dr. Sommerfeld", "Gartencenter Immergrün GmbH")
MINIMUM_WAGE = Decimal("13.90")   # per hour, 2026
MINIJOB_LIMIT = Decimal("603.00")  # per month, 2026
# Companies owned from France or the Netherlands, with the words their group's payroll prints.
FOREIGN_OWNED = {
    "fr": ("Lumière Systèmes Deutschland GmbH", "Bréval Industrie GmbH", "Cassiopée Santé Deutschland GmbH",
           "Groupe Vauclair Logistik GmbH"),
    "nl": ("Van Leeuwen Logistiek GmbH", "Oranjeveld Energy Germany GmbH", "De Graaf Installatietechniek GmbH",
           "Zuiderzee Foods Deutschland GmbH"),
}
WORDS = {
    "fr": {"title": "BULLETIN DE PAIE", "employee": "Salarié(e)", "number": "Matricule", "job": "Emploi",
           "tax_class": "Classe d'impôt", "entry": "Date d'entrée", "item": "Rubrique", "base": "Base",
           "rate": "Taux", "earning": "Gain", "deduction": "Retenue", "salary": "Salaire de base",
           "bonus": "Prime mensuelle", "gross": "SALAIRE BRUT", "wage_tax": "Impôt sur le salaire",
           "soli": "Contribution de solidarité", "church": "Impôt ecclésiastique", "health": "Assurance maladie",
           "care": "Assurance dépendance", "pension": "Assurance vieillesse", "unemployment": "Assurance chômage",
           "total": "Total des retenues", "net": "SALAIRE NET", "after_net": "Retenues sur net",
           "payout": "NET À PAYER", "period": "Période de paie", "paid": "Payé le", "transfer": "par virement sur",
           "from": "du", "to": "au"},
    "nl": {"title": "LOONSTROOK", "employee": "Werknemer", "number": "Personeelsnummer", "job": "Functie",
           "tax_class": "Belastingklasse", "entry": "In dienst sinds", "item": "Looncomponent", "base": "Basis",
           "rate": "Perc.", "earning": "Bruto", "deduction": "Inhouding", "salary": "Basissalaris",
           "bonus": "Maandtoeslag", "gross": "BRUTOLOON", "wage_tax": "Loonheffing",
           "soli": "Solidariteitstoeslag", "church": "Kerkbelasting", "health": "Ziektekostenverzekering",
           "care": "Zorgverzekering", "pension": "Pensioenverzekering", "unemployment": "Werkloosheidsverzekering",
           "total": "Totaal inhoudingen", "net": "NETTOLOON", "after_net": "Inhoudingen op netto",
           "payout": "NETTO UIT TE BETALEN", "period": "Periode", "paid": "Betaaldatum", "transfer": "overgemaakt op",
           "from": "", "to": "t/m"},
}
GERMAN = {"title": "ENTGELTABRECHNUNG", "employee": "Mitarbeiter(in)", "number": "Personalnummer", "job": "Tätigkeit",
          "tax_class": "Steuerklasse", "entry": "Eintritt", "item": "Lohnart", "base": "Basis", "rate": "Satz",
          "earning": "Bezug", "deduction": "Abzug", "salary": "Grundgehalt", "bonus": "Monatsprämie",
          "gross": "BRUTTOLOHN", "wage_tax": "Lohnsteuer", "soli": "Solidaritätszuschlag", "church": "Kirchensteuer",
          "health": "Krankenversicherung", "care": "Pflegeversicherung", "pension": "Rentenversicherung",
          "unemployment": "Arbeitslosenversicherung", "total": "Summe Abzüge", "net": "NETTOLOHN",
          "after_net": "Abzüge vom Netto", "payout": "AUSZAHLUNGSBETRAG", "period": "Abrechnungszeitraum",
          "paid": "Zahltag", "transfer": "überwiesen auf", "from": "vom", "to": "bis"}


def trainee_or_minijob(rng: random.Random) -> tuple[str, list[tuple[str, str, str, Decimal]], fake.Payroll]:
    """A trainee's month (Ausbildungsvergütung: below the wage tax allowance, full social insurance) or a
    mini-jobber's (hours at the minimum wage up to the Minijob limit, flat tax paid by the employer, the
    employee's 3.6 % pension share only). Returns the kind, the wage-type rows and the payroll."""
    zero = Decimal("0.00")
    if rng.random() < 0.5:
        year = rng.randint(1, 3)
        base = fake.money(rng.choice(("1020.00", "1105.00", "1190.00", "1264.00")) ) + (year - 1) * 60
        rows = [("1100", f"Ausbildungsvergütung {year}. Ausbildungsjahr", "", base)]
        if rng.random() < 0.5:
            rows.append(("1510", "Fahrtkostenzuschuss", "", fake.money(rng.choice(("49.00", "58.00")))))
        if rng.random() < 0.4:
            rows.append(("2010", "VWL Arbeitgeberanteil", "", fake.money("13.29")))
        gross = sum((row[3] for row in rows), Decimal("0"))
        health, care = fake.money(gross * Decimal("0.0875")), fake.money(gross * Decimal("0.024"))
        pension, unemployment = fake.money(gross * Decimal("0.093")), fake.money(gross * Decimal("0.013"))
        net = gross - health - care - pension - unemployment
        deductions = (("VWL Bausparvertrag", fake.money("26.59")),) if any(r[0] == "2010" for r in rows) else ()
        pay = fake.Payroll(gross, zero, zero, zero, health, care, pension, unemployment, net, deductions,
                           net - sum((v for _, v in deductions), Decimal("0")), 1)
        return "Auszubildende(r)", rows, pay
    hours = Decimal(rng.choice(("20", "24", "30", "36", "40", "43")))
    rate = MINIMUM_WAGE + fake.money(rng.choice(("0.00", "0.00", "0.60", "1.10", "2.10")))
    gross = min(fake.money(hours * rate), MINIJOB_LIMIT)
    rows = [("1300", "Stundenlohn Minijob", f"{hours},00 Std", gross)]
    pension = fake.money(gross * Decimal("0.036"))
    net = gross - pension
    pay = fake.Payroll(gross, zero, zero, zero, zero, zero, pension, zero, net, (), net, rng.choice((1, 4, 5)))
    return "Geringfügig Beschäftigte(r)", rows, pay


@layout("payslip", "L15", DEVELOPMENT)
def datev_grid_trainee(rng: random.Random, spec: Spec) -> Draft:
    """A small employer's DATEV-style 'Abrechnung der Brutto/Netto-Bezüge' for a trainee or a mini-jobber:
    the employer's name small above the window, the employee in the window ('Herrn' / 'Frau'), a personal
    data grid of column heads over values ('Pers.-Nr. | Geb.-Datum | StKl | Konf. | Beitragsgr. | Krankenkasse
    | Monat/Jahr') with the month only as '10/26'; a wage-type table 'Lohnart | Bezeichnung | Menge | Betrag |
    St | SV | GB'; the tax and social insurance sums as two grids of heads over values; 'Gesamt-Brutto',
    'Netto-Verdienst', 'Auszahlungsbetrag' on the right; a Minijob's flat tax noted as paid by the employer."""
    employer, employee = fake.company(rng, SMALL_EMPLOYERS), fake.person(rng)
    period, account = fake.pay_month(rng), fake.iban(rng)
    kind, rows, pay = trainee_or_minijob(rng)
    minijob = kind.startswith("Geringfügig")
    s = Sheet(rng.choice(("helvetica", "courier", "dejavu-condensed")), "Abrechnung der Brutto/Netto-Bezüge")
    s.text(20, 14, f"{employer.name}, {employer.street}, {employer.city}", 6.5)
    s.lines(20, 22, fake.window(employee), 10, leading=4.6)
    s.text(120, 20, "Abrechnung der Brutto/Netto-Bezüge", 10.5, bold=True)
    s.text(120, 26, kind, 8.5)
    s.text(120, 31, f"Eintritt: {fake.day(fake.AS_OF.replace(year=rng.randint(2023, 2026), month=8, day=1))}", 8)
    month_year = f"{period.month:02d}/{period.year % 100:02d}"
    heads = ("Pers.-Nr.", "Geb.-Datum", "StKl", "Konf.", "Beitragsgr.", "Krankenkasse", "Monat/Jahr")
    birth = fake.day(fake.AS_OF.replace(year=rng.randint(1960 if minijob else 2004, 2008 if not minijob else 2004),
                                        month=rng.randint(1, 12), day=rng.randint(1, 28)))
    values = (f"{rng.randint(10, 999):05d}", birth, str(pay.tax_class), rng.choice(("--", "rk", "ev")),
              "6500" if minijob else "1111", "Knappschaft" if minijob else rng.choice(("AOK Nordost", "TK", "BARMER", "IKK classic")),
              month_year)
    x = 20
    for head, value, width in zip(heads, values, (20, 24, 12, 14, 22, 46, 32)):
        s.box(x, 50, width, 10, width=0.3)
        s.text(x + 1, 53.2, head, 6.5)
        s.text(x + 1, 58.3, value, 8.5, bold=head == "Monat/Jahr")
        x += width
    table = [("Lohnart", "Bezeichnung", "Menge", "Betrag", "St", "SV", "GB")]
    for code, label, quantity, value in rows:
        flags = ("P", "G", "J") if minijob else (("N", "N", "J") if code == "1510" else ("L", "L", "J"))
        table.append((code, label, quantity, fake.amount(value, "de"), *flags))
    y = s.table(20, 70, (16, 80, 22, 30, 7, 7, 8), table, size=8.5, leading=5,
                aligns=("left", "left", "right", "right", "center", "center", "center"))
    y += 4
    tax_heads = ("Steuer-Brutto", "Lohnsteuer", "Solidaritätszuschl.", "Kirchensteuer")
    tax_values = (pay.gross, pay.wage_tax, pay.solidarity, pay.church_tax)
    if minijob:
        tax_heads = ("Steuer-Brutto", "Pauschsteuer 2 % (trägt AG)", "", "")
        tax_values = (pay.gross, fake.money(pay.gross * Decimal("0.02")), None, None)
    sv_heads = ("KV-Beitrag", "RV-Beitrag", "AV-Beitrag", "PV-Beitrag")
    sv_values = (pay.health, pay.pension, pay.unemployment, pay.care)
    for heads, values in ((tax_heads, tax_values), (sv_heads, sv_values)):
        x = 20
        for head, value in zip(heads, values):
            s.box(x, y, 42.5, 10, width=0.3)
            s.text(x + 1, y + 3.2, head, 6.5)
            if value is not None:
                s.text(x + 41.5, y + 8.3, fake.amount(value, "de"), 8.5, align="right")
            x += 42.5
        y += 12
    y += 4
    right = [("Gesamt-Brutto", pay.gross, False), ("Steuerrechtliche Abzüge", -pay.taxes, False),
             ("SV-rechtliche Abzüge", -pay.social, False), ("Netto-Verdienst", pay.net, True)]
    right += [(label, -value, False) for label, value in pay.net_deductions]
    right += [("Auszahlungsbetrag", pay.payout, True)]
    for label, value, bold in right:
        s.text(110, y, label, 9, bold=bold)
        s.text(189, y, fake.amount(value, "de_minus"), 9, bold=bold, align="right")
        y += 5
    s.text(20, y + 6, f"Überweisung: {fake.BANKS[rng.randrange(len(fake.BANKS))][0]}  IBAN {fake.iban_spaced(account)}", 8)
    if minijob:
        s.text(20, y + 12, "Die Pauschalabgaben (KV 13 %, RV 15 %, Pauschsteuer 2 %, Umlagen) trägt der Arbeitgeber.", 7)
    s.text(20, 285, "DATEV LODAS - Abrechnung erstellt durch Steuerberatung", 6.5)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)


def _french_amount(value: Decimal) -> str:
    """'5 432,10', as French payroll groups thousands with a space."""
    value = fake.money(value)
    whole, cents = f"{abs(value):.2f}".split(".")
    text = f"{int(whole):,}".replace(",", " ") + f",{cents}"
    return f"-{text}" if value < 0 else text


@layout("payslip", "L16", DEVELOPMENT)
def bilingual_european_group(rng: random.Random, spec: Spec) -> Draft:
    """A French- or Dutch-owned company's German slip printed by the group's payroll, every label in the
    group's language and in German ('SALAIRE BRUT / BRUTTOLOHN', 'NETTOLOON / NETTOLOHN'); the employee as
    'FAMILY Given' beside 'Salarié(e) / Mitarbeiter(in)'; one table with a base, a rate and separate 'Gain /
    Bezug' and 'Retenue / Abzug' columns; French amounts '5 432,10' or Dutch '€ 5.432,10'; the period only
    in the footer as a date range ('du 01/10/2026 au 31/10/2026', '01-10-2026 t/m 31-10-2026')."""
    language = rng.choice(("fr", "nl"))
    words = WORDS[language]
    employer, employee = fake.company(rng, FOREIGN_OWNED[language]), fake.person(rng, latin1=False)
    pay, period, account = fake.payroll(rng, with_net_deductions=True), fake.pay_month(rng), fake.iban(rng)
    last = fake.month_last(period)
    dash = "-" if language == "nl" else "/"

    def money(value):
        return _french_amount(value) if language == "fr" else f"€ {fake.amount(value, 'de')}"

    def when(value):
        return value.strftime(f"%d{dash}%m{dash}%Y")

    def both(key):
        return f"{words[key]} / {GERMAN[key]}"

    s = Sheet(rng.choice(("dejavu", "dejavu-serif")), "Bulletin de paie" if language == "fr" else "Loonstrook")
    s.text(20, 18, employer.name, 12, bold=True)
    parent = " ".join(employer.name.split()[:2 if employer.name.split()[0] in ("Van", "De", "Groupe") else 1])
    s.text(20, 23, f"{employer.street} · {employer.city} · "
                   + (f"filiale du groupe {parent} SA" if language == "fr" else f"onderdeel van {parent} B.V."), 7.5)
    s.text(190, 18, words["title"], 13, bold=True, align="right")
    s.text(190, 24, GERMAN["title"], 9.5, align="right")
    salary = fake.money(pay.gross * Decimal(rng.choice(("1", "0.92", "0.88"))))
    bonus = pay.gross - salary
    facts = ((both("employee"), f"{employee.family.upper()} {employee.given}"),
             (both("number"), f"{rng.randint(100000, 999999)}"),
             (both("job"), rng.choice(("Ingénieur projet", "Chargée de clientèle", "Contrôleur de gestion")
                                      if language == "fr" else ("Logistiek medewerker", "Technicus", "Projectleider"))),
             (both("tax_class"), str(pay.tax_class)),
             (both("entry"), when(fake.AS_OF.replace(year=rng.randint(2016, 2025), month=rng.randint(1, 12), day=1))))
    s.box(20, 30, 170, len(facts) * 5 + 3, width=0.3)
    for index, (label, value) in enumerate(facts):
        s.text(23, 35 + index * 5, label, 7.5)
        s.text(95, 35 + index * 5, value, 9, bold=index == 0)
    rows = [(both("item"), both("base"), both("rate"), both("earning"), both("deduction"))]
    rows.append((both("salary"), "", "", money(salary), ""))
    if bonus:
        rows.append((both("bonus"), "", "", money(bonus), ""))
    health_base = min(pay.gross, Decimal("5812.50"))
    pension_base = min(pay.gross, Decimal("8450.00"))
    for key, value, base, rate in (("wage_tax", pay.wage_tax, pay.gross, ""), ("soli", pay.solidarity, pay.wage_tax, "5,5 %"),
                                   ("church", pay.church_tax, pay.wage_tax, "8 %"),
                                   ("health", pay.health, health_base, "8,75 %"), ("care", pay.care, health_base, "1,8 %"),
                                   ("pension", pay.pension, pension_base, "9,3 %"),
                                   ("unemployment", pay.unemployment, pension_base, "1,3 %")):
        if value:
            rows.append((both(key), money(base), rate, "", money(value)))
    y = s.table(20, 70, (62, 30, 18, 30, 30), rows, size=7.5, leading=5,
                aligns=("left", "right", "right", "right", "right"))
    s.rule(20, y - 2.5, 190, 0.3)
    s.text(21, y + 1.5, both("gross"), 9, bold=True)
    s.text(159, y + 1.5, money(pay.gross), 9, bold=True, align="right")
    s.text(21, y + 7, both("total"), 8.5)
    s.text(189, y + 7, money(pay.gross - pay.net), 8.5, align="right")
    y += 15
    s.box(20, y - 5, 170, 8, width=0.4, shade=0.92)
    s.text(22, y, both("net"), 10, bold=True)
    s.text(189, y, money(pay.net), 10, bold=True, align="right")
    y += 9
    s.text(21, y, both("after_net"), 8.5, bold=True)
    y += 5
    for label, value in pay.net_deductions:
        s.text(25, y, label, 8.5)
        s.text(189, y, money(-value), 8.5, align="right")
        y += 4.5
    y += 3
    s.rule(110, y - 4, 190, 0.6)
    s.text(21, y, both("payout"), 10.5, bold=True)
    s.text(189, y, money(pay.payout), 10.5, bold=True, align="right")
    paid = last - timedelta(days=rng.choice((0, 1, 3)))
    span = " ".join(part for part in (words["from"], when(period), words["to"], when(last)) if part)
    s.rule(20, 268, 190, 0.3)
    s.text(20, 273, f"{both('period')} : {span}", 8)
    s.text(20, 278, f"{both('paid')} : {when(paid)} - {words['transfer']} IBAN {fake.iban_spaced(account)}", 8)
    s.text(20, 283, "Document à conserver sans limitation de durée." if language == "fr"
           else "Bewaar deze loonstrook zorgvuldig.", 6.5)
    return Draft(s.pdf(), payslip_truth(employer, employee, period, pay, account), employee.name)
