"""Tax assessments, fresh development layouts (added 2026-12-01): a Finanzamt notice whose 'Festsetzung' is a
table of tax kinds by rows, its bases a row of headings over values; a tax adviser's summary in two columns
of label/value pairs with the 'Veranlagungszeitraum' and advance payments as other amounts.

Written without reading the field readers, first measured as they stood (the "first read" in
docs/extraction.md), then tuned against: DEVELOPMENT layouts, not held out.
"""
import random
from datetime import timedelta
from decimal import Decimal

from bench.synthetic import DEVELOPMENT, Draft, Spec, layout
from bench.synthetic import _fake as fake
from bench.synthetic._sheet import Sheet
from bench.synthetic.tax_assessment import assessment


@layout("tax_assessment", "L10", DEVELOPMENT)
def festsetzung_rows(rng: random.Random, spec: Spec) -> Draft:
    """The Finanzamt's notice: the office's name as letterhead and again as sender line, the taxpayer in
    the window ('Herrn' / 'Frau'), 'St.-Nr.' in a reference column, 'Einkommensteuerbescheid 2025' as
    heading; the bases as a row of headings ('Summe der Einkünfte | Gesamtbetrag der Einkünfte | zu
    versteuerndes Einkommen') over their values; the 'Festsetzung' with the tax kinds as rows and the
    columns 'festgesetzt werden | Steuerabzug vom Lohn | verbleibende Beträge' under an 'EUR' head."""
    a = assessment(rng)
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed")), "Einkommensteuerbescheid")
    s.text(20, 16, a.office, 12, bold=True)
    s.text(20, 34, f"{a.office} · Postfach {rng.randint(10, 99)} {rng.randint(10, 99)} {rng.randint(10, 99)}", 6.5)
    s.lines(20, 40, fake.window(a.taxpayer), 10, leading=4.8)
    refs = (("St.-Nr.", a.number), ("Datum", fake.day(a.issued)), ("Bearbeiter/in", rng.choice(("Frau Huber", "Herr Lange", "Team 3"))))
    for index, (label, value) in enumerate(refs):
        s.text(130, 40 + index * 5, label, 8)
        s.text(152, 40 + index * 5, value, 9)
    s.text(20, 72, f"Einkommensteuerbescheid {a.year}", 13, bold=True)
    s.text(20, 78, "und Bescheid über den Solidaritätszuschlag", 9.5)
    earned = a.wages - 1230
    heads = ("Summe der Einkünfte", "Gesamtbetrag der Einkünfte", "zu versteuerndes Einkommen")
    values = (earned, earned, a.income)
    for index, (head, value) in enumerate(zip(heads, values)):
        x = 20 + index * 57
        s.box(x, 88, 57, 12, width=0.3)
        s.text(x + 1.5, 92, head, 7.5)
        s.text(x + 55, 98, f"{fake.amount(value)} €", 9.5, bold=index == 2, align="right")
    s.text(20, 112, "Festsetzung", 11, bold=True)
    s.text(189, 112, "EUR", 8, bold=True, align="right")
    rows = [("", "festgesetzt werden", "Steuerabzug vom Lohn", "verbleibende Beträge")]
    paid_solidarity = a.solidarity
    for label, fixed, withheld in (("Einkommensteuer", a.income_tax, a.paid),
                                   ("Solidaritätszuschlag", a.solidarity, paid_solidarity),
                                   ("Kirchensteuer", a.church_tax, a.church_tax)):
        rows.append((label, fake.amount(fixed), fake.amount(withheld), fake.amount(fixed - withheld)))
    y = s.table(20, 119, (50, 40, 40, 40), rows, size=8.5, leading=5.5, aligns=("left", "right", "right", "right"))
    due = a.income_tax - a.paid
    s.text(20, y + 6, ("Bitte zahlen Sie bis zum " if due > 0 else "Der Betrag von ")
           + (f"{fake.day(a.issued + timedelta(days=31))} insgesamt {fake.amount(due)} €." if due > 0
              else f"{fake.amount(-due)} € wird Ihnen erstattet."), 9.5)
    s.text(20, y + 16, "Erläuterungen: Die Steuer wurde nach der Grundtabelle berechnet.", 8.5)
    s.text(20, y + 22, "Rechtsbehelfsbelehrung: Gegen diesen Bescheid ist der Einspruch zulässig.", 8.5)
    return Draft(s.pdf(), a.truth(), a.taxpayer.name)


@layout("tax_assessment", "L11", DEVELOPMENT)
def adviser_summary(rng: random.Random, spec: Spec) -> Draft:
    """A tax adviser's summary of the notice: 'Veranlagungszeitraum 2025' among two columns of
    label/value pairs side by side (Mandant, Finanzamt, Steuernummer | Veranlagungszeitraum, Bescheid
    vom, Steuerklasse/Tarif), dotted leaders with amounts '1.234 €' (whole euros), 'festzusetzende
    Einkommensteuer', and the quarterly advance payments set for the next year as further amounts."""
    a = assessment(rng)
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Steuerbescheid")
    firm = rng.choice(("Steuerberatung Lindqvist & Partner mbB", "Kanzlei Dr. Eberhardt Steuerberater",
                       "Steuerbüro Hoffmann-Sander"))
    s.text(190, 16, firm, 10, bold=True, align="right")
    s.text(20, 30, "Prüfung Ihres Einkommensteuerbescheids", 13, bold=True)
    left = (("Mandant", a.taxpayer.plain), ("Finanzamt", a.office.removeprefix("Finanzamt ")), ("Steuernummer", a.number))
    right = (("Veranlagungszeitraum", str(a.year)), ("Bescheid vom", fake.day(a.issued)), ("Tarif", "Grundtarif"))
    for column, pairs, width in ((20, left, 24), (112, right, 38)):
        for index, (label, value) in enumerate(pairs):
            s.text(column, 42 + index * 5.5, f"{label}:", 8.5)
            s.text(column + width, 42 + index * 5.5, value, 9)
    euro = lambda value: f"{fake.amount(value)[:-3]} €"  # noqa: E731 - whole euros, as the notice rounds them
    y = 68
    s.text(20, y, "Ermittlung des Einkommens", 10.5, bold=True)
    y += 7
    earned = a.wages - 1230
    for label, value in (("Bruttoarbeitslohn", a.wages), ("Arbeitnehmer-Pauschbetrag", Decimal(-1230)),
                         ("Einkünfte aus nichtselbständiger Arbeit", earned),
                         ("Vorsorgeaufwendungen und Sonderausgaben", -(earned - a.income)),
                         ("zu versteuerndes Einkommen", a.income)):
        s.leader(20, 190, y, label, euro(value), 9.5, bold=label.startswith("zu "))
        y += 5.5
    y += 6
    s.text(20, y, "Steuerfestsetzung", 10.5, bold=True)
    y += 7
    for label, value in (("tarifliche Einkommensteuer", a.income_tax), ("festzusetzende Einkommensteuer", a.income_tax),
                         ("Solidaritätszuschlag", a.solidarity), ("Kirchensteuer", a.church_tax),
                         ("anrechenbare Lohnsteuer", a.paid)):
        s.leader(20, 190, y, label, f"{fake.amount(value)} €", 9.5)
        y += 5.5
    balance = a.balance
    s.leader(20, 190, y + 3, "Nachzahlung" if balance > 0 else "Erstattung", f"{fake.amount(abs(balance))} €", 9.5, bold=True)
    y += 16
    s.text(20, y, f"Festgesetzte Vorauszahlungen ab {a.year + 2}", 10.5, bold=True)
    y += 7
    quarter = fake.money(max(a.income_tax - a.paid, Decimal(0)) / 4)
    for when in ("10.03.", "10.06.", "10.09.", "10.12."):
        s.leader(20, 120, y, f"fällig am {when}{a.year + 2}", f"{fake.amount(quarter)} €", 9)
        y += 5
    s.text(20, y + 8, "Unsere Prüfung ergab keine Abweichung von der eingereichten Erklärung.", 9)
    fields = a.truth()
    return Draft(s.pdf(), fields, a.taxpayer.name)
