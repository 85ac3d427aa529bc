"""Tax assessments, HELD-OUT layouts: measured on, never read while writing or tuning the field readers."""
import random
from datetime import timedelta

from bench.synthetic import HELD_OUT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.tax_assessment import assessment


def _euros(value) -> str:
    """Whole euros, as the computation pages print them: '62.345 €'."""
    return f"{int(value):,} €".replace(",", ".")


@layout("tax_assessment", "L4", HELD_OUT)
def modern_letter(rng: random.Random, spec: Spec) -> Draft:
    """Labels above values in the reference block, a 'Festsetzung' table with the taxes as columns,
    the computation in whole euros on page 2."""
    a = assessment(rng)
    s = Sheet(rng.choice(("dejavu", "helvetica")), "Bescheid")
    s.text(20, 16, a.office, 11, bold=True)
    s.text(20, 21, f"{rng.choice(fake.STREETS)} {rng.randint(1, 60)}", 8)
    s.lines(20, 42, (a.taxpayer.name, a.taxpayer.street, a.taxpayer.city), 10)
    for index, (label, value) in enumerate((("Steuernummer/Aktenzeichen", a.number),
                                            ("Datum", fake.day(a.issued)),
                                            ("Steuer-ID", f"{rng.randint(10, 99)} {rng.randint(100, 999)} "
                                                          f"{rng.randint(100, 999)} {rng.randint(100, 999)}"))):
        s.text(130, 38 + index * 11, label, 7.5)
        s.text(130, 43 + index * 11, value, 9.5)
    s.text(20, 82, f"Bescheid für {a.year} über Einkommensteuer und Solidaritätszuschlag", 11, bold=True)
    s.text(20, 88, "- Zusammenstellung der Beträge -", 9)
    y = s.table(20, 100, (56, 38, 38, 38), [
        ("", "Einkommensteuer", "Solidaritätszuschlag", "Kirchensteuer"),
        ("Festgesetzt werden", fake.amount(a.income_tax), fake.amount(a.solidarity), fake.amount(a.church_tax)),
        ("Abzug vom Lohn", fake.amount(a.paid), "0,00", "0,00"),
        ("verbleibende Beträge", fake.amount(a.income_tax - a.paid), fake.amount(a.solidarity), fake.amount(a.church_tax)),
    ], size=8.5, aligns=("left", "right", "right", "right"), grid=True)
    s.text(20, y + 10, "Erläuterungen und die Berechnung finden Sie auf den folgenden Seiten.", 9)
    s.new_page()
    s.text(20, 20, f"Steuernummer {a.number}   Seite 2", 8)
    s.text(20, 30, "Ermittlung des zu versteuernden Einkommens", 11, bold=True)
    y = 40
    for label, value in (("Bruttoarbeitslohn", a.wages), ("Arbeitnehmer-Pauschbetrag", -1230),
                         ("Einkünfte aus nichtselbständiger Arbeit", a.wages - 1230),
                         ("Vorsorgeaufwendungen", -(a.wages - 1230 - a.income)),
                         ("Zu versteuerndes Einkommen", a.income),
                         ("Einkommensteuer nach dem Grundtarif", a.income_tax)):
        s.text(20, y, label, 9.5, bold=label.startswith("Zu "))
        s.text(189, y, _euros(value), 9.5, bold=label.startswith("Zu "), align="right")
        y += 6
    return Draft(s.pdf(), a.truth(), a.taxpayer.name, pages=2)


@layout("tax_assessment", "L5", HELD_OUT)
def upper_case_notice(rng: random.Random, spec: Spec) -> Draft:
    """Upper-case headings, 'STEUER-NR.', a FESTSETZUNG table with the taxes as rows and 'FESTGESETZT |
    ANGERECHNET | VERBLEIBEND' as columns, 'zvE' with a dotted leader, Courier."""
    a = assessment(rng)
    s = Sheet("courier", "Einkommensteuerbescheid")
    s.text(20, 18, a.office.upper(), 11, bold=True)
    s.text(20, 30, f"STEUER-NR. {a.number}", 9.5)
    s.text(120, 30, f"DATUM {fake.day(a.issued)}", 9.5)
    s.lines(20, 42, (a.taxpayer.plain.upper(), a.taxpayer.street.upper(), a.taxpayer.city.upper()), 9.5)
    s.text(20, 68, f"EINKOMMENSTEUERBESCHEID {a.year}", 13, bold=True)
    y = s.table(20, 82, (58, 38, 38, 36), [
        ("FESTSETZUNG", "FESTGESETZT", "ANGERECHNET", "VERBLEIBEND"),
        ("EINKOMMENSTEUER", fake.amount(a.income_tax), fake.amount(a.paid), fake.amount(a.income_tax - a.paid)),
        ("SOLIDARITÄTSZUSCHLAG", fake.amount(a.solidarity), "0,00", fake.amount(a.solidarity)),
        ("KIRCHENSTEUER", fake.amount(a.church_tax), "0,00", fake.amount(a.church_tax)),
    ], size=8.5, aligns=("left", "right", "right", "right"))
    y += 10
    s.text(20, y, "BERECHNUNGSGRUNDLAGEN", 10, bold=True)
    y += 7
    for label, value in (("EINKÜNFTE AUS NICHTSELBST. ARBEIT", a.wages - 1230),
                         ("SONDERAUSGABEN", -(a.wages - 1230 - a.income)),
                         ("ZU VERSTEUERNDES EINKOMMEN (ZVE)", a.income)):
        s.leader(20, 189, y, label, fake.amount(value), 9)
        y += 6
    return Draft(s.pdf(), a.truth(), a.taxpayer.name)


@layout("tax_assessment", "L6", HELD_OUT)
def elster_assessment_data(rng: random.Random, spec: Spec) -> Draft:
    """The assessment's data as ELSTER shows them for download: a header grid with labels above values,
    'Veranlagungszeitraum', then a 'Kennzahl | Bezeichnung | Betrag' table, taxable income in whole euros."""
    a = assessment(rng)
    s = Sheet("dejavu-serif", "Bescheiddaten")
    s.text(20, 18, "Elektronischer Steuerbescheid - Bescheiddaten", 13, bold=True)
    s.text(20, 24, "Einkommensteuer · abgerufen über Mein ELSTER", 8.5)
    cells = (("Veranlagungszeitraum", str(a.year)), ("Steuernummer", a.number), ("Finanzamt", a.office),
             ("Bekanntgabe", fake.day(a.issued + timedelta(days=3))), ("Steuerpflichtige/r", a.taxpayer.plain),
             ("Bescheidart", "Erstbescheid"))
    for index, (label, value) in enumerate(cells):
        x, y = 20 + (index % 3) * 58, 36 + (index // 3) * 13
        s.text(x, y, label, 7, bold=True)
        s.text(x, y + 5, value, 9)
    y = s.table(20, 70, (22, 108, 40), [
        ("Kennzahl", "Bezeichnung", "Betrag in EUR"),
        ("zvE", "Zu versteuerndes Einkommen", _euros(a.income).removesuffix(" €")),
        ("ESt", "Festgesetzte Einkommensteuer", fake.amount(a.income_tax)),
        ("SolZ", "Festgesetzter Solidaritätszuschlag", fake.amount(a.solidarity)),
        ("KiSt", "Festgesetzte Kirchensteuer", fake.amount(a.church_tax)),
        ("LSt", "Anzurechnende Lohnsteuer", fake.amount(a.paid)),
        ("Saldo", "Abschlusszahlung (+) / Erstattung (-)", fake.amount(a.balance)),
    ], size=9, aligns=("left", "left", "right"), grid=True)
    s.text(20, y + 10, "Maßgeblich ist allein der schriftliche bzw. elektronisch bekannt gegebene Bescheid.", 8)
    return Draft(s.pdf(), a.truth(), a.taxpayer.name)
