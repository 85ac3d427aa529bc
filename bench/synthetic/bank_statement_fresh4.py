"""Bank statements, fresh development layouts of the fifth round (added 2026-12-02): a private bank's
'Kontoauszug' with 'Alter Saldo / Neuer Saldo' and Soll / Haben columns, the holder only in a box on the
right; a joint account of two holders whose balances say 'zu Ihren Gunsten / zu Ihren Lasten' instead of
a sign; a bilingual statement behind a cover page ('Rechnungsabschluss', 'Entgeltaufstellung') with ISO
dates and the closing balance only on the last page.

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
from bench.synthetic.bank_statement import pages_of, statement

PRIVATE_BANKS = (("Bankhaus Lindqvist & Cie. KGaA", "60030711", "BHLIDESSXXX"),
                 ("Privatbank von Rettberg AG", "30020522", "PRVRDEDDXXX"),
                 ("Merkur Privatbankiers KG", "70030844", "MEPBDEMMXXX"))
COOPERATIVE_BANKS = (("Bürgerbank Vogtland eG", "87096314", "GENODEF1BVO"),
                     ("Genossenschaftsbank Altmark eG", "81093274", "GENODEF1GAM"),
                     ("Raiffeisenbank Unteres Inntal eG", "71162355", "GENODEF1RUI"))
BIG_BANKS = (("Mitteldeutsche Handelsbank AG", "86040077", "MDHBDE8LXXX"),
             ("Hanseatische Kreditanstalt AG", "20040066", "HKRADEHHXXX"),
             ("Rhein-Main Commerzial Bank AG", "50040099", "RMCBDEFFXXX"))


def _soll_haben(value) -> tuple[str, str]:
    """The amount in the debit (Soll) or the credit (Haben) column, without sign."""
    text = fake.amount(abs(value))
    return (text, "") if value < 0 else ("", text)


@layout("bank_statement", "L17", DEVELOPMENT)
def private_bank_soll_haben(rng: random.Random, spec: Spec) -> Draft:
    """A private bank's 'Kontoauszug' sent to the online mailbox, so with no address window: the bank's
    name in a serif letterhead, 'Kontoauszug per 31.10.2026' and 'Kontokorrentkonto in EUR' at the left,
    a framed box at the right with 'Kontoinhaber: Given Family' (the only place the holder is named),
    Kunden-Nr., Konto-Nr., IBAN, BIC and 'Auszug-Nr.'; bookings as 'Buchung | Valuta | Vorgang | Soll |
    Haben' with unsigned amounts, 'Alter Saldo per 30.09.2026' and 'Neuer Saldo per 31.10.2026' rows whose
    amount stands in the Soll column when overdrawn; 'Übertrag' rows at page breaks; a 'Summe der Umsätze'
    row over both columns. The period is printed ('Abrechnungszeitraum ...') on half of them."""
    st = statement(rng, spec)
    bank = rng.choice(PRIVATE_BANKS)
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]))
    s = Sheet(rng.choice(("times", "dejavu-serif")), "Kontoauszug")
    pages = pages_of(st.bookings, 16, 30)
    with_period = rng.random() < 0.5
    statement_no = st.end.month if st.end.day > 20 else st.start.month
    widths = (22, 18, 86, 22, 22)
    aligns = ("left", "left", "left", "right", "right")
    debit_sum = -sum((b.amount for b in st.bookings if b.amount < 0), Decimal("0"))
    credit_sum = sum((b.amount for b in st.bookings if b.amount > 0), Decimal("0"))
    carried = st.opening
    letterhead = (f"{rng.choice(('Maximilianstraße', 'Jungfernstieg', 'Königsallee'))} {rng.randint(2, 40)} · "
                  f"Telefon 0{rng.randint(30, 89)} {rng.randint(100000, 999999)}")
    seat = rng.choice(('Frankfurt am Main', 'München', 'Hamburg'))
    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, bank[0], 14, bold=True)
        s.text(20, 21, letterhead, 7.5)
        y = 34
        if number == 1:
            s.text(20, 40, f"Kontoauszug per {fake.day(st.end)}", 13, bold=True)
            s.text(20, 46, "Kontokorrentkonto in EUR", 9)
            if with_period:
                s.text(20, 51, f"Abrechnungszeitraum {fake.day(st.start)} - {fake.day(st.end)}", 9)
            s.box(118, 30, 72, 36, 0.5)
            facts = (("Kontoinhaber:", st.holder.plain), ("Kunden-Nr.:", str(rng.randint(100000, 999999))),
                     ("Konto-Nr.:", st.iban[-10:]), ("IBAN:", fake.iban_spaced(st.iban)), ("BIC:", bank[2]),
                     ("Auszug-Nr.:", f"{statement_no:03d} / Blatt {number} von {len(pages)}"))
            for index, (label, value) in enumerate(facts):
                s.text(121, 36 + index * 5.2, label, 8)
                s.text(142, 36 + index * 5.2, value, 8, bold=index == 0)
            y = 76
        else:
            s.text(190, 34, f"Auszug-Nr. {statement_no:03d} · Blatt {number} von {len(pages)}", 8, align="right")
            y = 42
        body = []
        if number == 1:
            body.append(("", "", f"Alter Saldo per {fake.day(st.start - timedelta(days=1))}", *_soll_haben(st.opening)))
        else:
            body.append(("", "", f"Übertrag von Blatt {number - 1}", *_soll_haben(carried)))
        for b in rows:
            value_day = b.day + timedelta(days=rng.choice((0, 0, 1, 2)))
            body.append((fake.day(b.day), value_day.strftime("%d.%m."), f"{b.text} {b.purpose}"[:52], *_soll_haben(b.amount)))
            carried += b.amount
        if number != len(pages):
            body.append(("", "", f"Übertrag auf Blatt {number + 1}", *_soll_haben(carried)))
        y = s.table(20, y, widths, [("Buchung", "Valuta", "Vorgang", "Soll", "Haben"), *body], size=8, leading=5,
                    aligns=aligns)
        if number == len(pages):
            s.rule(20, y - 3, 190, 0.3)
            s.table(20, y + 1, widths, [("", "", "Summe der Umsätze", fake.amount(debit_sum), fake.amount(credit_sum)),
                                        ("", "", f"Neuer Saldo per {fake.day(st.end)}", *_soll_haben(st.closing))],
                    size=8, leading=5, aligns=aligns, header_bold=False)
            s.text(20, y + 18, "Bitte erheben Sie Einwendungen gegen diesen Rechnungsabschluss innerhalb von sechs Wochen "
                               "nach Zugang.", 7)
        s.text(105, 288, f"{bank[0]} · Sitz {seat} · "
                         f"BIC {bank[2]}", 6.5, align="center")
        if number != len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=len(pages))


def _joint_holders(rng: random.Random, applicant: fake.Person) -> tuple[fake.Person, fake.Person]:
    """The applicant and a partner at the same address, sharing the family name on most; in either order."""
    other = fake.person(rng)
    while other.given == applicant.given:
        other = fake.person(rng)
    family = applicant.family if rng.random() < 0.6 else other.family
    partner = fake.Person(other.given, family, "", applicant.street, applicant.city)
    return (applicant, partner) if rng.random() < 0.5 else (partner, applicant)


def _trailing(value) -> str:
    """'1.234,56 +' / '45,20 -': the sign after the figure."""
    return f"{fake.amount(abs(value))} {'-' if value < 0 else '+'}"


def _in_words(value) -> str:
    """'zu Ihren Gunsten' / 'zu Ihren Lasten': a balance's sign in words."""
    return "zu Ihren Lasten" if value < 0 else "zu Ihren Gunsten"


@layout("bank_statement", "L18", DEVELOPMENT)
def joint_account(rng: random.Random, spec: Spec) -> Draft:
    """A cooperative bank's statement of a joint current account ('Gemeinschaftskonto (Oder-Konto)') of two
    holders, the applicant one of them, named in the window as 'Eheleute' / 'Given und Given Family' or
    one per line ('Herrn Given Family' / 'Frau Given Family'), and as 'Kontoinhaber: Given Family und
    Given Family' under the title; 'Kontoauszug 10/2026 vom 01.10.2026 bis 31.10.2026'; the balances
    'Kontostand am 30.09.2026 zu Ihren Gunsten 1.234,56' (or 'zu Ihren Lasten', no sign); bookings
    'Tag | Wert | Erläuterung | Umsatz EUR' with dates '02.10' (no year) and amounts '45,20 -' /
    '2.345,00 +'; the overdraft line and a deposit-insurance note at the end."""
    st = statement(rng, spec)
    bank = rng.choice(COOPERATIVE_BANKS)
    first, second = _joint_holders(rng, st.holder)
    applicant = st.holder
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]))
    s = Sheet(rng.choice(("helvetica", "dejavu-condensed")), "Kontoauszug")
    pages = pages_of(st.bookings, 14, 28)
    holders = f"{first.plain} und {second.plain}"
    if first.family == second.family and rng.random() < 0.5:
        window = ("Eheleute", f"{first.given} und {second.given} {first.family}")
    else:
        window = (f"{fake.salutation(first)} {first.plain}", f"{fake.salutation(second)} {second.plain}")
    statement_no = f"{st.end.month}/{st.end.year}"
    for number, rows in enumerate(pages, start=1):
        s.text(190, 14, bank[0], 12, bold=True, align="right")
        s.text(190, 19, f"BIC {bank[2]} · BLZ {bank[1]}", 7.5, align="right")
        y = 30
        if number == 1:
            s.text(20, 40, f"{bank[0]} · Postfach {rng.randint(1000, 9999)}", 6)
            s.lines(20, 46, (*window, applicant.street, applicant.city), 10, leading=4.8)
            s.text(20, 80, f"Kontoauszug {statement_no} vom {fake.day(st.start)} bis {fake.day(st.end)}", 12, bold=True)
            s.text(20, 86, f"Gemeinschaftskonto (Oder-Konto) · IBAN {fake.iban_spaced(st.iban)}", 9)
            s.text(20, 91, f"Kontoinhaber: {holders}", 9)
            s.text(20, 100, f"Kontostand am {fake.day(st.start - timedelta(days=1))} {_in_words(st.opening)}", 9, bold=True)
            s.text(190, 100, fake.amount(abs(st.opening)), 9, bold=True, align="right")
            y = 110
        else:
            s.text(20, 30, f"Kontoauszug {statement_no} · Seite {number}", 9, bold=True)
            y = 40
        body = [(b.day.strftime("%d.%m"), (b.day + timedelta(days=rng.choice((0, 0, 1)))).strftime("%d.%m"),
                 f"{b.text} / {b.purpose}"[:60], _trailing(b.amount)) for b in rows]
        y = s.table(20, y, (16, 16, 114, 24), [("Tag", "Wert", "Erläuterung", "Umsatz EUR"), *body], size=8, leading=5.2,
                    aligns=("left", "left", "left", "right"))
        if number == len(pages):
            s.rule(20, y - 3, 190, 0.4)
            s.text(20, y + 3, f"Kontostand am {fake.day(st.end)} {_in_words(st.closing)}", 9, bold=True)
            s.text(190, y + 3, fake.amount(abs(st.closing)), 9, bold=True, align="right")
            s.text(20, y + 12, f"Eingeräumte Kontoüberziehung {fake.amount(rng.choice((2000, 3000, 5000)))} EUR · "
                               f"Sollzins {rng.choice(('9,75', '10,90', '11,25'))} % p.a.", 7.5)
            s.text(20, y + 16, "Guthaben sind im Rahmen der Institutssicherung der genossenschaftlichen FinanzGruppe geschützt.", 7)
        s.text(105, 290, f"Seite {number} von {len(pages)}", 7.5, align="center")
        if number != len(pages):
            s.new_page()
    truth = st.truth()
    truth["holder"] = holders
    return Draft(s.pdf(), truth, applicant.name, pages=len(pages))


def _en_signed(value) -> str:
    """'-1,234.56' / '2,345.00': the core system's English figures."""
    return fake.amount(value, "en")


@layout("bank_statement", "L19", DEVELOPMENT)
def covered_bilingual(rng: random.Random, spec: Spec) -> Draft:
    """A big bank's bilingual statement in an envelope of several pages: page 1 is a cover letter with the
    holder in the window, 'Rechnungsabschluss / Account closing' of the month's closing entries (debit
    interest, account fee, card fee; already among the bookings) and an 'Entgeltaufstellung' of the
    previous calendar year (fees 01.01.2025 - 31.12.2025, a year-long distractor period and sum); the
    bookings from page 2 under 'Kontoauszug / Statement of Account' with 'Auszugszeitraum / Statement
    period 2026-10-01 - 2026-10-31', 'Kontoinhaber / Account holder', ISO dates and English figures
    ('-1,234.56'); 'Anfangssaldo / Opening balance' at the top of page 2 and 'Endsaldo / Closing balance'
    only on the last page. A photo (one page) shows the statement page without the cover."""
    st = statement(rng, spec, bookings=(20, 40))
    bank = rng.choice(BIG_BANKS)
    st = replace(st, bank=bank, iban=fake.iban(rng, bank[1]))
    s = Sheet(rng.choice(("helvetica", "dejavu")), "Kontoauszug")
    pages = [list(st.bookings)] if spec.single_page else pages_of(st.bookings, 24, 30)
    account = st.iban[-10:]
    fees = sorted((b for b in st.bookings if b.amount < 0), key=lambda b: b.amount)[-2:]
    if not spec.single_page:
        s.text(20, 16, bank[0], 13, bold=True)
        s.text(20, 34, f"{bank[0]} · {rng.choice(('Postfach 11 02 20', 'Postfach 40 40 40'))}", 6)
        s.lines(20, 40, fake.window(st.holder), 10, leading=4.8)
        for index, (label, value) in enumerate((("Datum / Date", (st.end + timedelta(days=2)).isoformat()),
                                                ("Konto / Account", account), ("IBAN", fake.iban_spaced(st.iban)))):
            s.text(125, 40 + index * 5, label, 8)
            s.text(190, 40 + index * 5, value, 8, align="right")
        s.text(20, 76, "Rechnungsabschluss / Account closing", 12, bold=True)
        s.text(20, 82, f"Abschluss per {st.end.isoformat()} – die Abschlussposten sind im Kontoauszug gebucht.", 8.5)
        y = s.table(20, 90, (120, 50), [("Abschlussposten / Closing entries", "EUR"),
                                        *((b.text[:40], _en_signed(b.amount)) for b in fees),
                                        ("Saldo der Abschlussposten", _en_signed(sum((b.amount for b in fees), Decimal("0"))))],
                    size=8.5, leading=5.2, aligns=("left", "right"))
        year = st.end.year - 1
        s.text(20, y + 8, f"Entgeltaufstellung {year} (§ 10 Zahlungskontengesetz)", 11, bold=True)
        s.text(20, y + 14, f"Zeitraum {date(year, 1, 1).isoformat()} - {date(year, 12, 31).isoformat()}", 8.5)
        items = (("Kontoführung", Decimal("9.90") * 12), ("girocard", Decimal("1.50") * 12),
                 ("Überweisungen beleghaft", Decimal("2.50") * rng.randint(1, 6)), ("Sollzinsen", fake.money(rng.randrange(0, 9000) / 100)))
        y = s.table(20, y + 20, (120, 50), [("Dienst / Service", "EUR"), *((label, fake.amount(v, "en")) for label, v in items),
                                            ("Summe / Total", fake.amount(sum((v for _, v in items), Decimal("0")), "en"))],
                    size=8.5, leading=5.2, aligns=("left", "right"))
        s.text(20, y + 8, f"Anlage: Kontoauszug, {len(pages)} Blatt / Enclosure: statement, {len(pages)} sheet(s)", 8.5)
        s.text(105, 290, "Blatt 1 / Sheet 1", 7, align="center")
        s.new_page()
    running = st.opening
    for number, rows in enumerate(pages, start=1):
        s.text(20, 16, bank[0], 11, bold=True)
        s.text(190, 16, "Kontoauszug / Statement of Account", 11, bold=True, align="right")
        y = 26
        if number == 1:
            facts = (("Kontoinhaber / Account holder", st.holder.plain), ("IBAN", fake.iban_spaced(st.iban)),
                     ("Auszugszeitraum / Statement period", f"{st.start.isoformat()} - {st.end.isoformat()}"),
                     ("Währung / Currency", "EUR"))
            for index, (label, value) in enumerate(facts):
                s.text(20, 26 + index * 5, label, 8.5)
                s.text(82, 26 + index * 5, value, 8.5, bold=index == 0)
            y = 50
        body = []
        if number == 1:
            body.append(((st.start - timedelta(days=1)).isoformat(), "", "Anfangssaldo / Opening balance", "", _en_signed(st.opening)))
        for b in rows:
            running += b.amount
            body.append((b.day.isoformat(), (b.day + timedelta(days=rng.choice((0, 0, 1)))).isoformat(),
                         f"{b.text} {b.purpose}"[:48], _en_signed(b.amount), ""))
        if number == len(pages):
            body.append((st.end.isoformat(), "", "Endsaldo / Closing balance", "", _en_signed(st.closing)))
        s.table(20, y, (27, 24, 73, 23, 23),
                [("Buchung / Booking", "Wert / Value", "Vorgang / Details", "Betrag / Amount", "Saldo / Balance"), *body],
                size=7.5, leading=5, aligns=("left", "left", "left", "right", "right"))
        sheet_no = number + (0 if spec.single_page else 1)
        s.text(105, 290, f"Blatt {sheet_no} / Sheet {sheet_no}", 7, align="center")
        if number != len(pages):
            s.new_page()
    return Draft(s.pdf(), st.truth(), st.holder.name, pages=s.pages)
