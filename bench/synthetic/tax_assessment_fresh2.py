"""Tax assessments, fresh development layouts of the fourth round (added 2026-12-02): a joint assessment of
spouses ('Zusammenveranlagung', 'Herrn und Frau') in whole euros with an 'Abrechnung' table; an amended
assessment ('geänderter Bescheid') that prints the former figures beside the new ones.

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
from bench.synthetic.tax_assessment import assessment


def _euros(value) -> str:
    """Whole euros, grouped: '74.512'."""
    return fake.amount(Decimal(int(value)), "de").split(",")[0]


def _spouse(rng: random.Random, partner: fake.Person) -> tuple[fake.Person, fake.Person]:
    """The couple: the partner and a spouse of the other sex with the same family name; the husband first."""
    while True:
        other = fake.person(rng)
        if (other.given in fake.WOMEN) != (partner.given in fake.WOMEN):
            break
    spouse = fake.Person(other.given, partner.family, "", partner.street, partner.city)
    return (spouse, partner) if partner.given in fake.WOMEN else (partner, spouse)


@layout("tax_assessment", "L12", DEVELOPMENT)
def joint_assessment(rng: random.Random, spec: Spec) -> Draft:
    """A joint assessment of spouses: 'Herrn und Frau' over 'Given und Given Family' in the window;
    'Bescheid für 2025 über Einkommensteuer, Solidaritätszuschlag und Kirchensteuer' with
    'Zusammenveranlagung'; the computation in whole euros with a column per spouse ('Ehemann | Ehefrau |
    gesamt'), 'zu versteuerndes Einkommen' in the last column only; the 'Festsetzung' and an 'Abrechnung'
    table (festgesetzt / abzüglich Steuerabzug vom Lohn / verbleibende Beträge), every amount in euros and
    cents there; the balance to pay or the refund."""
    a = assessment(rng)
    husband, wife = _spouse(rng, a.taxpayer)
    split = Decimal(str(rng.uniform(0.3, 0.7)))
    wages_him = Decimal(int(a.wages * split))
    wages_her = Decimal(int(a.wages * (1 - split)) + rng.randrange(8000, 30000))
    earned_him, earned_her = wages_him - 1230, wages_her - 1230
    total = earned_him + earned_her
    special = Decimal(rng.randrange(2400, 9000))
    income = total - special
    # The splitting tariff: about the rate on half the income, twice.
    income_tax = Decimal(int(income * Decimal(str(round(0.12 + float(income) / 2 / 900000, 4))))).quantize(Decimal("0.01"))
    solidarity = fake.money(income_tax * Decimal("0.055")) if income_tax > 39900 else Decimal("0.00")
    church_tax = fake.money(income_tax * Decimal("0.08")) if rng.random() < 0.4 else Decimal("0.00")
    paid = fake.money(income_tax * Decimal(str(rng.uniform(0.92, 1.1))))
    a = replace(a, taxpayer=husband if a.taxpayer is husband else a.taxpayer, wages=wages_him + wages_her,
                income=income, income_tax=income_tax, solidarity=solidarity, church_tax=church_tax, paid=paid)
    applicant = a.taxpayer if a.taxpayer in (husband, wife) else husband
    s = Sheet(rng.choice(("helvetica", "dejavu", "times")), "Einkommensteuerbescheid")
    s.text(20, 15, a.office, 11, bold=True)
    s.text(20, 20, f"{fake.STREETS[rng.randrange(len(fake.STREETS))]} {rng.randint(1, 60)}", 8)
    s.text(20, 36, f"{a.office}, Postfach {rng.randint(1000, 9999)}, {a.taxpayer.city}", 6.5)
    s.lines(20, 42, ("Herrn und Frau", f"{husband.given} und {wife.given} {husband.family}", husband.street, husband.city),
            10, leading=4.8)
    refs = (("Steuernummer", a.number), ("Datum", fake.day(a.issued)),
            ("Telefon", f"0{rng.randint(30, 999)} {rng.randint(1000, 9999)}-{rng.randint(100, 999)}"),
            ("Zimmer", str(rng.randint(100, 420))))
    for index, (label, value) in enumerate(refs):
        s.text(128, 42 + index * 4.8, label, 8)
        s.text(190, 42 + index * 4.8, value, 9, align="right")
    s.text(20, 72, f"Bescheid für {a.year}", 12, bold=True)
    s.text(20, 77.5, "über Einkommensteuer, Solidaritätszuschlag und Kirchensteuer", 10, bold=True)
    s.text(20, 84, "Zusammenveranlagung", 9.5)
    rows = [("Festsetzung", "Einkommensteuer", "Solidaritätszuschlag", "Kirchensteuer"),
            ("festgesetzt werden", fake.amount(a.income_tax), fake.amount(a.solidarity), fake.amount(a.church_tax))]
    y = s.table(20, 94, (58, 38, 38, 36), rows, size=8.5, leading=5.5, aligns=("left", "right", "right", "right"))
    y += 4
    s.text(20, y, "Abrechnung", 10, bold=True)
    s.text(189, y, "Beträge in Euro", 7.5, align="right")
    church_paid = fake.money(a.church_tax * a.paid / a.income_tax) if a.church_tax else Decimal("0.00")
    soli_paid = fake.money(a.solidarity * a.paid / a.income_tax) if a.solidarity else Decimal("0.00")
    rows = [("", "Einkommensteuer", "Solidaritätszuschlag", "Kirchensteuer"),
            ("festgesetzt", fake.amount(a.income_tax), fake.amount(a.solidarity), fake.amount(a.church_tax)),
            ("abzüglich Steuerabzug vom Lohn", fake.amount(-a.paid), fake.amount(-soli_paid), fake.amount(-church_paid)),
            ("verbleibende Beträge", fake.amount(a.income_tax - a.paid), fake.amount(a.solidarity - soli_paid),
             fake.amount(a.church_tax - church_paid))]
    y = s.table(20, y + 6, (58, 38, 38, 36), rows, size=8.5, leading=5.5, aligns=("left", "right", "right", "right"))
    balance = a.income_tax - a.paid + a.solidarity - soli_paid + a.church_tax - church_paid
    if balance > 0:
        s.text(20, y + 4, f"Bitte zahlen Sie {fake.amount(balance)} € bis zum {fake.day(a.issued + timedelta(days=32))}.", 9.5)
    else:
        s.text(20, y + 4, f"Erstattung: {fake.amount(-balance)} € werden auf Ihr Konto überwiesen.", 9.5)
    y += 16
    s.text(20, y, "Ermittlung des zu versteuernden Einkommens", 10, bold=True)
    s.text(120, y + 6, "Ehemann", 8, bold=True, align="right")
    s.text(155, y + 6, "Ehefrau", 8, bold=True, align="right")
    s.text(189, y + 6, "gesamt", 8, bold=True, align="right")
    y += 12
    lines = (("Bruttoarbeitslohn", wages_him, wages_her, None),
             ("abzüglich Arbeitnehmer-Pauschbetrag", -1230, -1230, None),
             ("Einkünfte aus nichtselbständiger Arbeit", earned_him, earned_her, total),
             ("Summe der Einkünfte", None, None, total), ("Gesamtbetrag der Einkünfte", None, None, total),
             ("Sonderausgaben", None, None, -special), ("Einkommen", None, None, income),
             ("zu versteuerndes Einkommen", None, None, income))
    for label, him, her, together in lines:
        s.text(20, y, label, 9)
        for x, value in ((120, him), (155, her), (189, together)):
            if value is not None:
                s.text(x, y, _euros(value) if value >= 0 else f"-{_euros(-value)}", 9, align="right")
        y += 5.2
    s.text(20, y + 4, "Die Einkommensteuer wurde nach dem Splittingtarif berechnet.", 8.5)
    s.text(20, y + 12, "Rechtsbehelfsbelehrung: Der Bescheid kann mit dem Einspruch angefochten werden.", 7.5)
    return Draft(s.pdf(), a.truth(), applicant.name)


@layout("tax_assessment", "L13", DEVELOPMENT)
def amended_assessment(rng: random.Random, spec: Spec) -> Draft:
    """An amended assessment: 'Geänderter Bescheid für 2024 über Einkommensteuer und Solidaritätszuschlag',
    'Dieser Bescheid ändert den Bescheid vom ... (§ 173 Abs. 1 Nr. 2 AO)'; the taxpayer in the window,
    'Steuer-Nr.' at the right; the bases in whole euros as 'bisher | jetzt' columns (the former taxable
    income beside the new), the 'Festsetzung' with tax kinds as columns and 'bisher festgesetzt', 'jetzt
    festgesetzt', 'Unterschied' as rows; the refund of the difference."""
    a = assessment(rng)
    # The former assessment missed costs the taxpayer proved later: income lower now, tax lower.
    extra = Decimal(rng.randrange(900, 4800))
    old_income, old_tax = a.income + extra, Decimal(int(a.income_tax + extra * Decimal("0.35"))).quantize(Decimal("0.01"))
    old_soli = fake.money(old_tax * Decimal("0.055")) if old_tax > 19950 else Decimal("0.00")
    issued_before = a.issued - timedelta(days=rng.randint(60, 200))
    s = Sheet(rng.choice(("helvetica", "courier", "dejavu-serif")), "Einkommensteuerbescheid")
    s.text(20, 16, a.office.upper(), 10.5, bold=True)
    s.text(20, 34, f"{a.office} · Postfach {rng.randint(1000, 9999)}", 6.5)
    s.lines(20, 40, fake.window(a.taxpayer), 10, leading=4.8)
    s.text(130, 40, f"Steuer-Nr. {a.number}", 9)
    s.text(130, 45, f"Datum {fake.day(a.issued)}", 9)
    s.text(130, 50, f"Ident.-Nr. {rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(100, 999)} {rng.randint(100, 999)}", 8)
    taxes = "Einkommensteuer, Solidaritätszuschlag und Kirchensteuer" if a.church_tax else "Einkommensteuer und Solidaritätszuschlag"
    s.text(20, 72, f"Geänderter Bescheid für {a.year}", 12, bold=True)
    s.text(20, 77.5, f"über {taxes}", 10)
    s.text(20, 85, f"Dieser Bescheid ändert den Bescheid vom {fake.day(issued_before)} nach § 173 Abs. 1 Nr. 2 AO.", 8.5)
    s.text(20, 90, "Die Änderung beruht auf den nachgereichten Belegen zu Werbungskosten.", 8.5)
    y = 100
    s.text(20, y, "Besteuerungsgrundlagen (in Euro)", 10, bold=True)
    s.text(150, y, "bisher", 8.5, bold=True, align="right")
    s.text(189, y, "jetzt", 8.5, bold=True, align="right")
    y += 6
    special = Decimal(rng.randrange(1500, 6000))
    earned_new = a.income + special
    earned_old = earned_new + extra
    for label, old, new in (("Einkünfte aus nichtselbständiger Arbeit", earned_old, earned_new),
                            ("Gesamtbetrag der Einkünfte", earned_old, earned_new),
                            ("Sonderausgaben", -special, -special),
                            ("zu versteuerndes Einkommen", old_income, a.income)):
        s.text(20, y, label, 9)
        s.text(150, y, _euros(old) if old >= 0 else f"-{_euros(-old)}", 9, align="right")
        s.text(189, y, _euros(new) if new >= 0 else f"-{_euros(-new)}", 9, align="right")
        y += 5.5
    y += 5
    heads = ["Festsetzung", "Einkommensteuer", "Solidaritätszuschlag"] + (["Kirchensteuer"] if a.church_tax else [])
    old_church = fake.money(old_tax * Decimal("0.09")) if a.church_tax else None
    body = [("bisher festgesetzt", old_tax, old_soli, old_church), ("jetzt festgesetzt", a.income_tax, a.solidarity, a.church_tax),
            ("Unterschied", a.income_tax - old_tax, a.solidarity - old_soli, (a.church_tax - old_church) if a.church_tax else None)]
    rows = [tuple(heads)] + [tuple([label] + [fake.amount(v) for v in values[:len(heads) - 1]]) for label, *values in body]
    widths = (55, 40, 40, 35)[:len(heads)]
    y = s.table(20, y, widths, rows, size=8.5, leading=5.5, aligns=("left",) + ("right",) * (len(heads) - 1))
    refund = (old_tax - a.income_tax) + (old_soli - a.solidarity) + ((old_church - a.church_tax) if a.church_tax else 0)
    s.text(20, y + 5, f"Der Unterschiedsbetrag von {fake.amount(refund)} € wird Ihnen erstattet.", 9.5)
    s.text(20, y + 14, "Im Übrigen bleibt der Bescheid unverändert. Gegen diesen Bescheid ist der Einspruch zulässig.", 7.5)
    return Draft(s.pdf(), a.truth(), a.taxpayer.name)
