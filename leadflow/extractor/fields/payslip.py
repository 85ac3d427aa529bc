"""Fields of a payslip (Gehalts-/Entgelt-/Verdienstabrechnung): values found next to any of their
labels' variants in the page layout, and by the flat-text reader; cross-checked, each with a confidence."""
import re
from datetime import date
from decimal import Decimal

from leadflow.extractor.fields import deductions as d
from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import (FLAT_LABEL, GUESS, MISREAD, STRUCTURE, UNLABELLED, Check, FieldsRead,
                                               Findings, label_test, lexicon)
from leadflow.extractor.fields.types import AMOUNT, IBAN, MONTH, TEXT
from leadflow.extractor.layout import cell_in_column, match_span

SCHEMAS: dict[str, dict] = {
    "employer": TEXT,
    "employee": TEXT,
    "period": MONTH,
    "tax_class": {"type": ["integer", "null"], "minimum": 1, "maximum": 6},
    "gross": AMOUNT,
    "net": AMOUNT,
    "payout": AMOUNT,
    "iban": IBAN,
}

# Label variants per field (German, English, abbreviations; a space also matches a hyphen or nothing).
EMPLOYER = lexicon("arbeitgeber(?:in)?", "name des arbeitgebers", "firma", "employer", "company", "unternehmen")
EMPLOYEE = lexicon(r"re:arbeitnehmer(?:\s?/\s?in|\(in\)|in)?", r"re:mitarbeiter(?:\s?/\s?in|\(in\)|in)?",
                   "beschäftigte[r]?", "name des arbeitnehmers", "employee(?: name)?", "name,? vorname",
                   "vorname,? name", "empfänger(?:in)?")
EMPLOYEE_PLAIN = lexicon("name")  # "Name  Anna Kowalska" in a slip's facts; weaker: "Name der Bank"
PERIOD = lexicon("abrechnungs zeitraum", "abrechnungs monat", "abrechnungs periode", "lohn zeitraum",
                 "entgelt zeitraum", "pay period", "payroll period", "pay date period", "period", "zeitraum",
                 "monat", "month", r"re:(?:zahlungs|bezugs|besoldungs|lohn|gehalts|entgelt)-?\s?(?:monat|zeitraum)",
                 r"re:abr\.\s?-?\s?(?:monat|zeitraum|periode)",  # abbreviated: "Abr.-Monat", "Abr. Zeitraum"
                 r"re:(?:abrechnung|bezüge|lohn|gehalt|entgelt)\S*[^|]{0,40}?\b(?:f(?:ü|ii|u)r|for)(?=\s)",
                 r"re:(?:payslip|pay slip|salary statement|earnings statement)\s(?:for)(?=\s)")
# A slip's title with its month after it ("Entgeltabrechnung 10.2026", "Gehaltsabrechnung Oktober 2026"):
# looked for on the title's own line only, as a title labels nothing below it.
TITLE_PERIOD = lexicon(r"re:(?:entgelt|gehalts?|lohn|verdienst|bezüge|brutto\s?-?netto\s?-?)abrechnung",
                       r"re:(?:bezüge|besoldungs)mitteilung", r"re:mitteilung\s(?:über\s)?(?:die\s)?(?:bezüge|besoldung)", "payslip",
                       "pay slip", "salary statement")
TAX_CLASS = lexicon("steuer ?klasse", r"re:steuer\s?-?k[iI1|]asse", r"re:steuer\s?-?k[lI1|]\.", r"re:st\.?\s?-?k[lI1|]\.?", r"re:lst\.?-?klasse", "tax class", "tax bracket")  # OCR: StKI
GROSS = lexicon("gesamt brutto", "brutto verdienst", "brutto bezüge", "brutto bezug", "summe brutto", "brutto lohn",
                "brutto gehalt", "brutto entgelt", "gesamt bruttoentgelt", "summe bruttoentgelt", "summe bezüge",
                "brutto gesamt", "gesamt bezüge", "summe der bezüge", "summe der brutto bezüge", "gross pay", "gross wages", "total gross pay",
                "total gross", "gross salary", "gross earnings", "gross income", "total earnings")
GROSS_PLAIN = lexicon("brutto", "gross")  # also under "Steuer-Brutto" and year-to-date columns: weaker
NET = lexicon("netto verdienst", "netto bezüge", "netto bezug", "netto lohn", "netto gehalt", "netto entgelt",
              "gesetzliches netto", "netto betrag", "net pay", "net salary", "net earnings", "net income", "net wages",
              "total net pay")
NET_PLAIN = lexicon("netto", "net")
PAYOUT = lexicon("auszahlungs betrag", "auszahl betrag", "auszahlung", "überweisungs betrag", "amount paid",
                 "payout", "pay out", "payment amount", "bank transfer",
                 "net payment", "zahlbetrag", "ausgezahlter betrag", "transfer amount", "amount transferred",
                 "transferred amount", "überwiesener betrag",
                 "zu überweisen", "überweisung", r"re:transferred\s+to\s+(?:your\s+)?(?:bank\s+)?account")
IBAN_LABEL = lexicon("iban", "bankverbindung", "kontonummer", "konto", "account", "bank account", "überweisung an")
# The employee's other particulars in a slip's facts: labels of a date or a number, never of the name.
# Under "Mitarbeiter" in a box of facts the next box's label ("DATE OF JOINING") is no value.
PARTICULARS = lexicon("date of joining", "joining date", "hire date", "entry date", "start date", "eintritts datum",
                      "eintritt", "austritts datum", "austritt", "geburts datum", "date of birth", "employee no\\.?",
                      "employee number", "employee id", "personal nummer", r"re:pers(?:onal)?\.?\s?-?nr\.?",
                      r"re:(?:arbeitnehmer|mitarbeiter|ma)\s?-?nr\.?", "mitarbeiter nummer", "sv nummer",
                      "versicherungs nummer", "steuer id", "tax id", "identifikations nummer", "kosten stelle",
                      "cost cent(?:re|er)", "abteilung", "department", "eintritt am")
IS_LABEL = label_test(EMPLOYER, EMPLOYEE, PERIOD, TAX_CLASS, GROSS, GROSS_PLAIN, NET, NET_PLAIN, PAYOUT, IBAN_LABEL,
                      PARTICULARS)
# Words of a form's labels that no person's name holds: a label's words beside a name label
# ("EMPLOYEE" over "DATE" / "OF JOINING") are no name, however capitalised.
FORM_WORDS = {"date", "datum", "of", "joining", "no", "nr", "number", "nummer", "id", "month", "monat", "period",
              "zeitraum", "tax", "steuer", "class", "klasse", "steuerklasse", "bracket", "salary", "gehalt", "pay",
              "payslip", "employee", "arbeitnehmer", "mitarbeiter", "personal", "page", "seite", "total", "summe",
              "gross", "brutto", "net", "netto", "amount", "betrag", "bank", "account", "konto", "iban", "code",
              "description", "department", "abteilung", "statement", "abrechnung", "entry", "birth", "geburt"}
PLAIN_WEIGHT = 0.92
NAME_WEIGHT = 0.8
TITLE_WEIGHT = 0.9

# The flat-text reader's labels (kept: they read today's samples).
FLAT_GROSS = r"gesamt-?\s?brutto|bruttoverdienst|bruttobezüge|summe brutto|\bgross pay\b|\btotal gross\b"
FLAT_NET = r"netto-?\s?verdienst|nettobezüge|nettolohn|nettogehalt|\bnet pay\b|\bnet salary\b"
FLAT_PAYOUT = r"auszahlungsbetrag|auszahlung|überweisungsbetrag|\bamount paid\b|\bpayout\b"
FLAT_TAX_CLASS = re.compile(r"(?:steuer\s?-?k[l1iI|](?:asse\b|\.)|\bst\.?\s?-?k[l1iI|]\.?|\blst\.?-?k[l1iI|]\.?|\btax class)\s*[:/]?[ \t]*",
                            re.IGNORECASE)
# A month with a two-digit year, as a whole cell under "Monat/Jahr" or after "Abrechnungsmonat": "10/26".
SHORT_MONTH = re.compile(r"(0?[1-9]|1[0-2])\s?[/.]\s?(\d{2})")
# Dates near the top that are no pay period: entry, leaving and birth dates in the personal data.
OTHER_DATE = re.compile(r"(?:eintritt(?:sdatum)?|austritt(?:sdatum)?|geb(?:urts)?\.?\s?-?\s?datum|geboren(?:\s+am)?"
                        r"|date of birth|hire date|start date|entry date|(?:beschäftigt|employed|tätig)\s+(?:seit|since))"
                        r"[\s:|]*\d{1,2}[./-]\d{1,2}[./-]\d{2,4}",
                        re.IGNORECASE)
# A line that names the bank or a rate, not the employer ("Überweisung: Nordbank AG", "Pauschsteuer 2 % (trägt AG)").
NOT_EMPLOYER_LINE = re.compile(r"\bIBAN\b|\bBIC\b|\bbank\s?verbindung|überweisung|\bkonto\b|%", re.IGNORECASE)
# A public employer names itself without a legal form: "Stadt Lindenau", "LANDKREIS OBERWESEL",
# "Zweckverband Abfallwirtschaft Saaletal", "Stadtwerke Rosenau" (a line of words in the letterhead).
PUBLIC_BODY = re.compile(r"^(?:stadt|landeshauptstadt|(?:freie\s+und\s+)?hansestadt|gemeinde|markt(?:gemeinde)?|samtgemeinde"
                         r"|verbandsgemeinde|landkreis|kreis|bezirk|bezirksamt|landratsamt|kreisverwaltung|stadtverwaltung"
                         r"|zweckverband|stadtwerke|gemeindewerke|eigenbetrieb|kommunalunternehmen|landschaftsverband"
                         r"|regierungsbezirk|regionalverband)\s+[A-ZÄÖÜ][\wäöüß.\- ]{1,60}$", re.IGNORECASE)
# A column of the year's running totals ("lfd. Jahr", "Jahreswerte", "kumuliert", "YTD"), beside or BEFORE
# the month's column ("Monat", "lfd. Monat", "This period"): its figures are no month's pay. OCR reads
# "lfd." as "Ifd.".
YEAR_TO_DATE = re.compile(r"(?:[lI1]fd\.?|laufendes|aktuelles)\s?jahr|jahres\s?-?(?:summen?|werte?|beträge?|betrag)"
                          r"|kumuliert|kum\.|\bytd\b|year\s?-?to\s?-?date|seit\s+jahresbeginn|bis\s+vormonat"
                          r"|^(?:jahr|year)(?:\s+(?:eur|€))?$", re.IGNORECASE)
THIS_MONTH = re.compile(r"(?:[lI1]fd\.?\s?|laufender\s|aktueller\s)?monat|this\s+(?:period|month)|current(?:\s+(?:period|month))?",
                        re.IGNORECASE)
RUNNING_REACH = 14  # lines under a column head that its columns still hold
# A line of the issuer's own particulars: its register entry, its managers, its bank account with BIC.
ISSUER_LINE = re.compile(r"\bBIC\b|amtsgericht|\bHRB?\s?\d|\bsitz\b|geschäftsführ|ust-?id|registered office"
                         r"|company reg", re.IGNORECASE)
MONTH_COLUMN_REACH = 2  # heights a figure may stand off its column head's words (right-aligned under it)
MONTH_COLUMN = 0.96  # a figure in the month's column, in the row of its label

CHECKS = (
    Check(("net", "gross"), lambda net, gross: Decimal(net) < Decimal(gross)),
    # The slip's own arithmetic chooses among the readings; its sums may miss a term, so a failure
    # lowers nothing.
    Check(("gross", d.DEDUCTIONS, "net"), d.gross_less_deductions, lowers=False),
    Check(("net", d.NET_DEDUCTIONS, "payout"), d.net_less_deductions, lowers=False),
    # The payout is the net pay less or plus a few net items (a company car, a travel allowance).
    Check(("payout", "net"), lambda payout, net: Decimal("0.3") * Decimal(net) <= Decimal(payout)
          <= Decimal("1.3") * Decimal(net)),
)


def parse(reading) -> FieldsRead:
    text, layout = reading.text, reading.layout
    f = Findings([*SCHEMAS, d.DEDUCTIONS, d.NET_DEDUCTIONS])
    f.look(layout, "employer", EMPLOYER, p.company_name, is_label=IS_LABEL)
    f.offer("employer", p.sender(text), STRUCTURE)
    # The layout's lines first: OCR's text may break a small-print line apart.
    layout_text = layout.text if layout else ""
    f.offer("employer", p.comma_sender(layout_text) or p.comma_sender(text), STRUCTURE)
    f.offer("employer", p.company("\n".join(line for line in p.lines(text) if not NOT_EMPLOYER_LINE.search(line))),
            GUESS)
    f.offer("employer", _public_body(layout_text) or _public_body(text), GUESS + 0.05)
    f.look(layout, "employee", EMPLOYEE, _employee, is_label=IS_LABEL)
    f.look(layout, "employee", EMPLOYEE_PLAIN, _employee, is_label=IS_LABEL, weight=NAME_WEIGHT)
    f.offer_addressee("employee", layout, text, p.addressee)
    for line, page, _ in layout.address_blocks():
        f.offer("employee", p.person_name(line), STRUCTURE, "address block", page)
        f.offer("employer", p.company_name(line), GUESS + 0.1, "address block", page)
    f.look(layout, "period", PERIOD, _month, is_label=IS_LABEL)
    f.look(layout, "period", TITLE_PERIOD, p.month_period, is_label=IS_LABEL, below=False, weight=TITLE_WEIGHT)
    _flat_period(f, text)
    f.look(layout, "tax_class", TAX_CLASS, p.tax_class, is_label=IS_LABEL)
    _flat_tax_class(f, text)
    for name, specific, plain, flat in (("gross", GROSS, GROSS_PLAIN, FLAT_GROSS), ("net", NET, NET_PLAIN, FLAT_NET),
                                        ("payout", PAYOUT, None, FLAT_PAYOUT)):
        f.look(layout, name, specific, p.amount, is_label=IS_LABEL)
        if plain is not None:
            f.look(layout, name, plain, p.amount, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
        f.offer(name, p.after_label(text, flat), FLAT_LABEL)
    if layout:
        current, running = _running_totals(layout)
        for name, value, page in current:
            f.offer(name, value, MONTH_COLUMN, "month column", page)
        stale = running - {value for _, value, _ in current}
        for name in ("gross", "net", "payout"):
            f.candidates[name] = [c for c in f.candidates[name] if c.value not in stale]
    f.look(layout, "iban", IBAN_LABEL, p.iban, is_label=IS_LABEL)
    f.offer("iban", p.iban(text), STRUCTURE + 0.05)  # check digits passed, though no label was seen
    # The issuer's own account in its footer ("Musterbank AG · IBAN ... · BIC ..." beside its register
    # entry) is not where the pay went: any other IBAN is the employee's.
    issuers = {p.iban(line) for line in p.lines(layout_text or text) if ISSUER_LINE.search(line)} - {None}
    if any(c.value not in issuers for c in f.candidates["iban"]):
        f.candidates["iban"] = [c for c in f.candidates["iban"] if c.value not in issuers]
    d.offer_sums(f, layout, IS_LABEL, NET, PAYOUT)
    _worked_out(f)
    if not f.candidates["net"]:
        # Without deductions after net pay the payout is the net pay; a guess, so a person checks it.
        for option in f.options("payout")[:1]:
            f.offer("net", option.value, UNLABELLED, "payout", option.page)
    if not f.candidates["payout"]:
        # Without deductions after net pay, the payout is the net pay; but where a payout is
        # labelled and its value could not be read, that is only a guess.
        labelled = layout and next(layout.labels(PAYOUT), None) is not None
        for option in f.options("net")[:1]:
            f.offer("payout", option.value, UNLABELLED if labelled else min(option.confidence, GUESS + 0.1),
                    "net pay", option.page)
    return f.resolve(CHECKS)


def _employee(raw: str) -> str | None:
    """A person's name next to an employee label, unless its words are a form's own."""
    name = p.person_name(raw)
    if name is None or any(word.strip(".:").casefold() in FORM_WORDS for word in name.split()):
        return None
    return name


def _worked_out(f: Findings) -> None:
    """A figure the slip prints but that was not read, from two that were: gross from net pay and the
    deductions, net pay from gross and the deductions, the payout from net pay and what is taken
    after it. Weaker than a figure read, and only where none was."""
    def best(name):
        options = f.options(name)
        return Decimal(options[0].value) if options else None

    gross, net, taken = best("gross"), best("net"), best(d.DEDUCTIONS)
    if gross is None and net is not None and taken:
        f.offer("gross", f"{net + taken:.2f}", GUESS, "net pay and deductions")
    if net is None and gross is not None and taken:
        f.offer("net", f"{gross - taken:.2f}", GUESS, "gross pay less deductions")
        net = gross - taken
    after = best(d.NET_DEDUCTIONS)
    if not f.candidates["payout"] and net is not None and after:
        f.offer("payout", f"{net - after:.2f}", GUESS, "net pay less deductions after it")


def _running_totals(layout) -> tuple[list[tuple[str, str, int]], set[str]]:
    """The month's figures of labelled rows under a "Jahr | Monat" head (field, value, page), and every
    figure in a year-to-date column or section: a slip may print the year's running total before the
    month's, or below it under a heading of its own ("Year to date", "Jahreswerte")."""
    current, running = [], set()
    lines = layout.lines
    for li, line in enumerate(lines):
        if YEAR_TO_DATE.fullmatch(line.text.strip(" :|")):
            for row in lines[li + 1:li + 1 + RUNNING_REACH]:
                if row.page != line.page or (not p.amounts(row.text) and not row.text.strip().endswith(":")
                                             and len(row.segments) == 1 and ISSUER_LINE.search(row.text)):
                    break
                running.update(value.lstrip("-") for value in p.amounts(row.text))
            continue
        spans = {kind: [span for segment in line.segments[1:] for span in _spans(segment, pattern)]
                 for kind, pattern in (("year", YEAR_TO_DATE), ("month", THIS_MONTH))}
        if not spans["year"] or not spans["month"]:
            continue
        for row in lines[li + 1:li + 1 + RUNNING_REACH]:
            if row.page != line.page:
                break
            for span in spans["year"]:
                value = _cell(row, span)
                if value is not None:
                    running.add(value)
            first = row.segments[0].text.strip(" :|") if row.segments else ""
            name = _row_field(first, layout.scanned)
            if name:
                value = _cell(row, spans["month"][0])
                if value is not None:
                    current.append((name, value, row.page))
    return current, running


def _row_field(label: str, scanned: bool) -> str | None:
    """Which of gross, net and payout a row's label names; on a scan also as OCR misreads it ("Nettobeziige")."""
    for name, pattern in (("gross", GROSS), ("net", NET), ("payout", PAYOUT)):
        variants = (pattern, MISREAD.get(pattern)) if scanned else (pattern,)
        if any(v is not None and v.match(label) for v in variants):
            return name
    return None


def _spans(segment, pattern: re.Pattern) -> list[tuple[float, float, float]]:
    """The x-range of each match of `pattern` in a head segment (OCR may run two heads into one)."""
    return [span for m in pattern.finditer(segment.text) if (span := match_span(segment, m))]


def _cell(row, span: tuple[float, float, float]) -> str | None:
    """The amount of `row` in the column of `span` (x0, x1, height)."""
    cell = cell_in_column(row, span, MONTH_COLUMN_REACH)
    return p.amount(cell.text) if cell is not None else None


HEAD_LINES = 16
MONTH_LINE = re.compile(rf"(?:{p.MONTH_WORD})\.?\s*(?:19|20)\d{{2}}", re.IGNORECASE)


def _flat_period(f: Findings, text: str) -> None:
    found = p.after_label(text, r"abrechnungsmonat|abrechnungszeitraum|\bpay period\b|\bperiod\b", p.month_period)
    if found:
        f.offer("period", found, FLAT_LABEL)
        return
    head = OTHER_DATE.sub(" ", "\n".join(p.lines(text)[:6]))
    m = re.search(r"(?:für|for)\s+([A-Za-zä]+\.?\s+\d{4})", head, re.IGNORECASE)
    f.offer("period", p.month_period(m.group(1)) if m else p.month_period(head), GUESS + 0.1)
    # A scan that lost the period's label keeps its value: a line near the top that is a month and
    # its year and nothing else ("SEPTEMBER 2026").
    for line in p.lines(text)[:HEAD_LINES]:
        value = p.month_period(line) if MONTH_LINE.fullmatch(line) else None
        if value:
            f.offer("period", value, GUESS)
            break


def _month(raw: str) -> str | None:
    """A pay month as month_period reads it, or a cell that is only a month with a two-digit year ("10/26")."""
    found = p.month_period(raw)
    if found:
        return found
    m = SHORT_MONTH.fullmatch(raw.strip(" :|"))
    # A year no later than next year's: "1.50" is a factor, no month of 2050.
    if not m or int(m.group(2)) > date.today().year % 100 + 1:
        return None
    return f"20{m.group(2)}-{int(m.group(1)):02d}"


def _public_body(text: str) -> str | None:
    """A public employer's name in the letterhead, where it carries no legal form ("Stadt Lindenau")."""
    for line in p.lines(text)[:8]:
        for segment in p.segments(line):
            name = segment.strip(" :|")
            if PUBLIC_BODY.match(name) and len(name.split()) <= 6 and not re.search(r"\d", name):
                return name
    return None


def _flat_tax_class(f: Findings, text: str) -> None:
    # OCR reads the label's l as i, I or 1 ("Steuerkiasse", "StKI") and the numeral's strokes as l or |.
    for m in FLAT_TAX_CLASS.finditer(text):
        found = p.tax_class(text[m.end():m.end() + 12])
        if found:
            f.offer("tax_class", found, FLAT_LABEL)
            return
    # DATEV-like header row: Pers.-Nr. | Geb.-Datum | StKl | Ki.Frbtr. -> "17.03.1986  1  0,0"
    m = re.search(r"\d{2}\.\d{2}\.\d{4}[\s|]+([1-6])[\s|]+\d,\d\b", text)
    if m:
        f.offer("tax_class", int(m.group(1)), GUESS)
