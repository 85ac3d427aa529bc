"""Tax assessments, fresh development layouts of the fifth round (added 2026-12-02): an ELSTER print of the
assessment data ('Bescheiddaten') with the computation by 'Kennzahl' on page 1 and 'Festgesetzt werden' on
page 2; a freelancer's assessment with advance payments, upper-case labels and whole-euro dotted leaders.

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
from bench.synthetic.tax_assessment import assessment


def _euros(value) -> str:
    """Whole euros, grouped, minus in front: '-1.230' / '74.512'."""
    text = fake.amount(Decimal(abs(int(value))), "de").split(",")[0]
    return f"-{text}" if value < 0 else text


@layout("tax_assessment", "L14", DEVELOPMENT)
def elster_assessment_data(rng: random.Random, spec: Spec) -> Draft:
    """An ELSTER print of the assessment data the Finanzamt sent ('Bescheiddaten – Einkommensteuer 2025'):
    a grey head band, 'Abgerufen am' and 'Bescheid vom' dates, the tax office with its four-digit number
    ('Finanzamt Hamburg-Nord (2743)'), 'Steuernummer' and 'Name, Vorname' of the taxpayer as label/value
    pairs; page 1 'Berechnung der Einkommensteuer' as a table 'Kz. | Bezeichnung | Betrag (EUR)' in whole
    euros, the tariff tax its last row; page 2 'Festsetzung' with 'Festgesetzt werden' over the tax kinds,
    'Anzurechnende Steuerabzugsbeträge' and the balance, figures '12.345,00 €'. A photo shows page 1 only,
    so the one-page print carries both."""
    a = assessment(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu", "dejavu-condensed")), "Bescheiddaten")
    office_no = rng.randint(1100, 9299)
    fetched = a.issued + timedelta(days=rng.randint(1, 20))
    earned = a.wages - 1230
    provision = Decimal(rng.randrange(3000, 9000))
    special = earned - a.income - provision
    if special < 36:
        provision -= 36 - special
        special = Decimal(36)

    def head(page: int, pages: int) -> None:
        s.box(15, 10, 180, 12, 0.2, shade=0.88)
        s.text(18, 17.5, f"Bescheiddaten – Einkommensteuer {a.year}", 11, bold=True)
        s.text(192, 17.5, f"Seite {page} von {pages}", 7.5, align="right")

    pages = 1 if spec.single_page else 2
    head(1, pages)
    facts = (("Abgerufen am", fake.day(fetched)), ("Bescheid vom", fake.day(a.issued)),
             ("Finanzamt", f"{a.office.removeprefix('Finanzamt ')} ({office_no})"), ("Steuernummer", a.number),
             ("Name, Vorname", a.taxpayer.reversed), ("Veranlagungsart", "Einzelveranlagung"))
    for index, (label, value) in enumerate(facts):
        x = 18 if index % 2 == 0 else 108
        y = 32 + (index // 2) * 5.5
        s.text(x, y, label, 7.5)
        s.text(x + 30, y, value, 8.5, bold=True)
    s.text(18, 56, "Berechnung der Einkommensteuer", 11, bold=True)
    rows = [("Kz.", "Bezeichnung", "Betrag (EUR)"),
            ("110", "Bruttoarbeitslohn", _euros(a.wages)),
            ("199", "Arbeitnehmer-Pauschbetrag", _euros(-1230)),
            ("200", "Einkünfte aus nichtselbständiger Arbeit", _euros(earned)),
            ("800", "Summe der Einkünfte", _euros(earned)),
            ("810", "Gesamtbetrag der Einkünfte", _euros(earned)),
            ("840", "Vorsorgeaufwendungen", _euros(-provision)),
            ("850", "Sonderausgaben", _euros(-special)),
            ("870", "Einkommen", _euros(a.income)),
            ("890", "zu versteuerndes Einkommen", _euros(a.income)),
            ("900", "tarifliche Einkommensteuer (Grundtarif)", _euros(a.income_tax))]
    y = s.table(18, 64, (16, 120, 38), rows, size=8.5, leading=5.4, aligns=("left", "left", "right"), grid=True)
    s.text(18, y + 4, "Alle Beträge der Berechnung in vollen Euro. Die Angaben entsprechen dem Bescheid des Finanzamts.", 7)
    if spec.single_page:
        y += 12
    else:
        s.text(105, 290, "Diese Übersicht ersetzt nicht den Steuerbescheid.", 7, align="center")
        s.new_page()
        head(2, pages)
        y = 34
    s.text(18, y, "Festsetzung", 11, bold=True)
    soli_paid = fake.money(a.solidarity * a.paid / a.income_tax) if a.solidarity else Decimal("0.00")
    church_paid = fake.money(a.church_tax * a.paid / a.income_tax) if a.church_tax else Decimal("0.00")

    def eur(value) -> str:
        return f"{fake.amount(value)} €"
    rows = [("", "Einkommensteuer", "Solidaritätszuschlag", "Kirchensteuer"),
            ("Festgesetzt werden", eur(a.income_tax), eur(a.solidarity), eur(a.church_tax)),
            ("Anzurechnende Steuerabzugsbeträge", eur(a.paid), eur(soli_paid), eur(church_paid)),
            ("Verbleibende Beträge", eur(a.income_tax - a.paid), eur(a.solidarity - soli_paid), eur(a.church_tax - church_paid))]
    y = s.table(18, y + 8, (62, 38, 40, 34), rows, size=8.5, leading=5.6, aligns=("left", "right", "right", "right"))
    balance = a.income_tax - a.paid + a.solidarity - soli_paid + a.church_tax - church_paid
    label = "Abschlusszahlung, fällig am " + fake.day(a.issued + timedelta(days=31)) if balance > 0 else "Erstattungsbetrag"
    s.leader(18, 192, y + 6, label, eur(abs(balance)), 9.5, bold=True)
    s.text(18, y + 16, "Rechtsbehelfsbelehrung und Erläuterungen finden Sie im Bescheid des Finanzamts.", 7.5)
    if not spec.single_page:
        s.text(105, 290, "Diese Übersicht ersetzt nicht den Steuerbescheid.", 7, align="center")
    return Draft(s.pdf(), a.truth(), a.taxpayer.name, pages=s.pages)


QUARTERS = ((3, "10.03."), (6, "10.06."), (9, "10.09."), (12, "10.12."))


@layout("tax_assessment", "L15", DEVELOPMENT)
def freelancer_with_advances(rng: random.Random, spec: Spec) -> Draft:
    """A freelancer's assessment: 'BESCHEID FÜR 2025 ÜBER EINKOMMENSTEUER UND SOLIDARITÄTSZUSCHLAG UND ÜBER
    VORAUSZAHLUNGEN ZUR EINKOMMENSTEUER UND ZUM SOLIDARITÄTSZUSCHLAG'; the office and 'STEUERNUMMER' as a
    label above its value; upper-case labels with whole-euro dotted leaders ('EINKÜNFTE AUS SELBSTÄNDIGER
    ARBEIT', 'EINKÜNFTE AUS GEWERBEBETRIEB', 'ZU VERSTEUERNDES EINKOMMEN', 'TARIFLICHE EINKOMMENSTEUER'
    above the 'STEUERERMÄSSIGUNG NACH § 35 ESTG' for trade tax, so the tariff tax is not the assessed one);
    'FESTGESETZT WERDEN' with the taxes as rows, the advance payments already made deducted; then the
    advance payments of the coming year as a table of four quarters per tax (distractor amounts)."""
    a = assessment(rng)
    freelance = Decimal(rng.randrange(28000, 90000))
    trade = Decimal(rng.randrange(30000, 65000))
    total = freelance + trade
    provision = Decimal(rng.randrange(4000, 14000))
    special = Decimal(rng.randrange(300, 3000))
    income = total - provision - special
    rate = Decimal(str(round(0.14 + float(income) / 900000, 4)))
    tariff = Decimal(int(income * rate))
    relief = Decimal(int((trade - 24500) * Decimal("0.035") * 4))
    income_tax = Decimal(f"{tariff - relief}.00")
    solidarity = fake.money(income_tax * Decimal("0.055")) if income_tax > 19950 else Decimal("0.00")
    advances = Decimal(int(income_tax * Decimal(str(rng.uniform(0.7, 1.0))) / 4)) * 4
    soli_advances = Decimal(int(solidarity * Decimal("0.9") / 4)) * 4
    a = replace(a, wages=Decimal(0), income=income, income_tax=income_tax, solidarity=solidarity,
                church_tax=Decimal("0.00"), paid=advances)
    s = Sheet(rng.choice(("courier", "helvetica", "times")), "Einkommensteuerbescheid")
    s.text(20, 15, a.office.upper(), 11, bold=True)
    s.text(20, 20, f"{rng.choice(fake.STREETS).upper()} {rng.randint(1, 80)}", 8)
    s.text(20, 36, f"{a.office}, Postfach {rng.randint(1000, 9999)}", 6.5)
    s.lines(20, 42, fake.window(a.taxpayer), 10, leading=4.8)
    for index, (label, value) in enumerate((("STEUERNUMMER", a.number), ("DATUM", fake.day(a.issued)),
                                            ("BEI RÜCKFRAGEN", f"0{rng.randint(30, 999)} {rng.randint(1000, 9999)}-{rng.randint(0, 99):02d}"))):
        s.text(135, 40 + index * 9, label, 7)
        s.text(135, 44 + index * 9, value, 9.5, bold=index == 0)
    s.text(20, 74, f"BESCHEID FÜR {a.year}", 12, bold=True)
    s.text(20, 79.5, "ÜBER EINKOMMENSTEUER UND SOLIDARITÄTSZUSCHLAG", 10, bold=True)
    s.text(20, 84.5, "UND ÜBER VORAUSZAHLUNGEN ZUR EINKOMMENSTEUER UND ZUM SOLIDARITÄTSZUSCHLAG", 10, bold=True)
    y = 96
    s.text(20, y, "ERMITTLUNG DES ZU VERSTEUERNDEN EINKOMMENS", 9.5, bold=True)
    s.text(190, y, "EURO", 8, bold=True, align="right")
    y += 6
    for label, value in (("EINKÜNFTE AUS SELBSTÄNDIGER ARBEIT", freelance), ("EINKÜNFTE AUS GEWERBEBETRIEB", trade),
                         ("SUMME DER EINKÜNFTE", total), ("GESAMTBETRAG DER EINKÜNFTE", total),
                         ("VORSORGEAUFWENDUNGEN", -provision), ("SONDERAUSGABEN", -special),
                         ("ZU VERSTEUERNDES EINKOMMEN", income), ("TARIFLICHE EINKOMMENSTEUER", tariff),
                         ("STEUERERMÄSSIGUNG NACH § 35 ESTG", -relief), ("FESTZUSETZENDE EINKOMMENSTEUER", income_tax)):
        s.leader(20, 190, y, label, _euros(value), 9, bold=label.startswith(("ZU ", "FESTZU")))
        y += 5.2
    y += 5
    s.text(20, y, "FESTSETZUNG UND ABRECHNUNG", 9.5, bold=True)
    rows = [("", "EINKOMMENSTEUER", "SOLIDARITÄTSZUSCHLAG"),
            ("FESTGESETZT WERDEN", fake.amount(income_tax), fake.amount(solidarity)),
            ("ABZÜGLICH VORAUSZAHLUNGEN", fake.amount(-advances), fake.amount(-soli_advances)),
            ("VERBLEIBENDE BETRÄGE", fake.amount(income_tax - advances), fake.amount(solidarity - soli_advances))]
    y = s.table(20, y + 6, (70, 50, 50), rows, size=8.5, leading=5.4, aligns=("left", "right", "right"))
    balance = income_tax - advances + solidarity - soli_advances
    if balance > 0:
        s.text(20, y + 3, f"BITTE ZAHLEN SIE {fake.amount(balance)} EUR BIS ZUM {fake.day(a.issued + timedelta(days=30))}.", 9)
    else:
        s.text(20, y + 3, f"DER BETRAG VON {fake.amount(-balance)} EUR WIRD ERSTATTET.", 9)
    y += 13
    next_year = a.issued.year + 1
    s.text(20, y, f"VORAUSZAHLUNGEN AB {next_year} (FESTSETZUNG NACH § 37 ESTG)", 9.5, bold=True)
    quarter_tax = Decimal(int(income_tax * Decimal("1.05") / 4))
    quarter_soli = fake.money(quarter_tax * Decimal("0.055")) if solidarity else Decimal("0.00")
    rows = [("FÄLLIG AM", *(f"{day}{next_year}" for _, day in QUARTERS)),
            ("EINKOMMENSTEUER", *(fake.amount(quarter_tax) for _ in QUARTERS)),
            ("SOLIDARITÄTSZUSCHLAG", *(fake.amount(quarter_soli) for _ in QUARTERS))]
    y = s.table(20, y + 6, (50, 30, 30, 30, 30), rows, size=8.5, leading=5.4,
                aligns=("left", "right", "right", "right", "right"))
    s.text(20, y + 4, "DIE VORAUSZAHLUNGEN GELTEN BIS ZUR BEKANNTGABE EINES NEUEN VORAUSZAHLUNGSBESCHEIDS.", 7.5)
    s.text(20, y + 9, "RECHTSBEHELFSBELEHRUNG: GEGEN DIESEN BESCHEID IST DER EINSPRUCH ZULÄSSIG.", 7.5)
    return Draft(s.pdf(), a.truth(), a.taxpayer.name)
