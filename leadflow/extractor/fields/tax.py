"""Fields of a tax assessment (Steuerbescheid) and a wage tax certificate (Lohnsteuerbescheinigung):
values next to any of their labels' variants in the layout and by the flat-text reader, cross-checked."""
import re
import unicodedata
from datetime import date
from decimal import Decimal

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import (FLAT_LABEL, GUESS, LOOSE, MISREAD, STRUCTURE, Check, FieldsRead,
                                               Findings, label_test, lexicon)
from leadflow.extractor.fields.types import AMOUNT, TEXT, YEAR
from leadflow.extractor.layout import cell_in_column, match_span

ASSESSMENT_SCHEMAS: dict[str, dict] = {
    "tax_year": YEAR,
    "tax_number": TEXT,
    "taxable_income": AMOUNT,
    "income_tax": AMOUNT,
    "solidarity_surcharge": AMOUNT,
    "tax_office": TEXT,
}
CERTIFICATE_SCHEMAS: dict[str, dict] = {
    "year": YEAR,
    "employer": TEXT,
    "gross_wages": AMOUNT,
    "wage_tax": AMOUNT,
}

# "12/345/67890", "123/4567/8901", "19684/75384", "19 570 14637", "2181508150" (ELSTER's 13 digits too)
TAX_NUMBER = re.compile(r"(?<![\d/])(?:\d{2,3}/\d{3,4}/\d{4,5}|\d{5}/\d{5}|\d{2,3} \d{3,4} \d{4,5}|\d{13})(?![\d/])")
# "Finanzamt Köln-Süd", "Finanzamt München II", "Finanzamt Frankfurt am Main III": the town,
# hyphenated parts, "am Main", a district suffix.
TAX_OFFICE = re.compile(r"\bFinanzamt\s+[A-ZÄÖÜ][\wäöüß]+(?:[-/][A-ZÄÖÜ][\wäöüß]+)*"
                        r"(?:\s(?:am|an der|in der|im|ob der)\s[A-ZÄÖÜ][\wäöüß]+)?(?:\s?\([A-ZÄÖÜ][\wäöüß]+\))?"
                        r"(?:[\s-](?:Mitte|Nord|Süd|Ost|West|Land|Stadt))?(?:[\s-](?:[Il1]{1,3}|IV|V|VI))?\b")

YEAR_LABEL = lexicon(r"re:bescheid\s+f(?:ü|ii|u)r", "für das kalender jahr", "für das jahr", "kalender jahr",
                     "veranlagungs zeitraum", "veranlagungs jahr", "steuer jahr", "assessment year", "tax year",
                     "year of assessment", "income tax assessment", r"einkommensteuer bescheid(?:\s+für)?",
                     r"re:berechnung der einkommensteuer", "bescheinigungs zeitraum", "certificate period",
                     "dauer des dienstverhältnisses",
                     r"re:lohnsteuer\s?-?bescheinigung(?:\s+für)?",
                     # The certificate's title in English words of any kind: "Annual wage tax statement 2025".
                     r"re:(?:annual\s+)?wage\s+tax\s+(?:certificate|statement)(?:\s+for)?")
YEAR_PLAIN = lexicon("jahr", "year")  # "im Jahr 2026 erhalten" is no tax year: weaker
TAX_NUMBER_LABEL = lexicon("steuer nummer", "steuer-?nr\\.?", r"re:st\.?\s?-?nr\.?", "tax number", "tax no\\.?",
                           "tax reference")
# "zvE", "z.v.E.", "z. v. E.": the abbreviation with or without its dots.
TAXABLE = lexicon("zu versteuerndes einkommen", "taxable income", r"re:z\.?\s?v\.?\s?e\b\.?")
INCOME_TAX = lexicon("festzusetzende einkommensteuer", "festgesetzte einkommensteuer", "income tax assessed",
                     "income tax due")
# The tax by the tariff, before reductions (trade tax credit § 35 EStG, household services § 35a): the
# assessed tax where nothing is deducted, and weaker than "festzusetzende Einkommensteuer" where it is.
TARIFF = lexicon("tarifliche einkommensteuer")
TARIFF_WEIGHT = 0.9
INCOME_TAX_PLAIN = lexicon("einkommensteuer", "income tax", "einkommen steuer")
SOLI = lexicon("festzusetzender solidaritätszuschlag", "solidaritätszuschlag", "solidaritätszuschl\\.?", "solz",
               "solidarity surcharge", "soli")
OFFICE_LABEL = lexicon("finanzamt", "tax office", "zuständiges finanzamt")
EMPLOYER = lexicon(r"re:(?:name und )?anschrift des arbeitgebers", "name des arbeitgebers", "arbeitgeber(?:in)?",
                   "employer", "firma")
EMPLOYEE = lexicon(r"re:arbeitnehmer(?:\s?/\s?in|\(in\)|in)?", "employee")
# Payroll's own words for the taxed gross too: "Steuerbrutto", "steuerpflichtiges Brutto", "taxable gross".
GROSS_WAGES = lexicon(r"re:brutto\s?-?arbeits[li1]ohn", "gross wages", "gross pay", "gross salary",
                      "steuerpflichtiger arbeitslohn", "jahresbruttolohn", "gross income", "steuer brutto",
                      "steuerpflichtiges brutto", "lohnsteuer brutto", "taxable gross", "lohnsteuerpflichtiger arbeitslohn")
WAGE_TAX = lexicon("einbehaltene lohnsteuer", "wage tax withheld", "income tax withheld", "lohnsteuer einbehalten",
                   "wage tax")
WAGE_TAX_PLAIN = lexicon("lohnsteuer")
IS_LABEL = label_test(YEAR_LABEL, YEAR_PLAIN, TAX_NUMBER_LABEL, TAXABLE, INCOME_TAX, INCOME_TAX_PLAIN, SOLI, OFFICE_LABEL, EMPLOYER,
                      TARIFF, EMPLOYEE, GROSS_WAGES, WAGE_TAX, WAGE_TAX_PLAIN,
                      re.compile(r"kirchensteuer|church tax|festsetzung|datum|date|item|value|line|eur", re.IGNORECASE))
PLAIN_WEIGHT = 0.85
# An amended assessment prints the former figures beside the new ones: as columns ("bisher | jetzt")
# or as rows ("bisher festgesetzt", "jetzt festgesetzt"); the new ones are the assessment's.
CURRENT = re.compile(r"(?:jetzt|neu|nunmehr|geändert|now|new|revised)(?:\s+festgesetzt(?:\s+werden)?|\s+festzusetzen)?",
                     re.IGNORECASE)
FORMER = re.compile(r"(?:bisher(?:ige?)?|alt|vorher|previously|previous|old)(?:\s+festgesetzt(?:\s+worden)?)?",
                    re.IGNORECASE)
REVISED = 0.97
REVISED_REACH = 12  # lines under a "bisher | jetzt" head that its columns still hold

# The assessment's figures by their labels, most specific first ("festzusetzende Einkommensteuer" before
# "Einkommensteuer").
ASSESSED = (("taxable_income", TAXABLE), ("solidarity_surcharge", SOLI), ("income_tax", INCOME_TAX),
            ("income_tax", TARIFF), ("income_tax", INCOME_TAX_PLAIN))

ASSESSMENT_CHECKS = (
    Check(("tax_year",), lambda year: 1990 <= year <= date.today().year),
    Check(("income_tax", "taxable_income"), lambda tax, income: Decimal(tax) < Decimal(income)),
    # The surcharge is at most 5.5 % of the income tax.
    Check(("solidarity_surcharge", "income_tax"), lambda soli, tax: Decimal(soli) <= Decimal("0.056") * Decimal(tax)),
)
# Who prints a certificate for the employer (a payroll agent, a tax adviser) is not the employer.
AGENT_LINE = re.compile(r"im auftrag d(?:es|er) arbeitgeber|on behalf of (?:the )?employer|payroll agent|lohnsteuer-?agent"
                        r"|§\s?38\s?(?:abs\.?\s?)?\(?3a\)?", re.IGNORECASE)
# An employer under its label with no legal form the readers know ("Nordvik Subsea AS", "Stadt Lindenau").
WORDS_WEIGHT = 0.85
NAME_PARTICLES = ("&", "+", "-", "und", "and", "der", "die", "des", "für", "am", "an", "im", "of", "the", "de", "la", "du")
CERTIFICATE_CHECKS = (
    Check(("year",), lambda year: 1990 <= year <= date.today().year),
    Check(("wage_tax", "gross_wages"), lambda tax, gross: Decimal(tax) < Decimal(gross)),
)


def parse_assessment(reading) -> FieldsRead:
    text, layout = reading.text, reading.layout
    f = Findings(ASSESSMENT_SCHEMAS)
    f.look(layout, "tax_year", YEAR_LABEL, p.year, is_label=IS_LABEL)
    f.look(layout, "tax_year", YEAR_PLAIN, p.year, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
    f.look(layout, "tax_number", TAX_NUMBER_LABEL, _tax_number, is_label=IS_LABEL)
    f.look(layout, "taxable_income", TAXABLE, p.euros, is_label=IS_LABEL)
    f.look(layout, "income_tax", INCOME_TAX, p.euros, is_label=IS_LABEL)
    f.look(layout, "income_tax", TARIFF, p.euros, is_label=IS_LABEL, weight=TARIFF_WEIGHT)
    f.look(layout, "income_tax", INCOME_TAX_PLAIN, p.euros, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
    f.look(layout, "solidarity_surcharge", SOLI, p.euros, is_label=IS_LABEL)
    f.look(layout, "tax_office", OFFICE_LABEL, _office, is_label=IS_LABEL)
    for name, value in parse_assessment_text(text).items():
        f.offer(name, value, FLAT_LABEL if name != "tax_office" else STRUCTURE)
    f.offer("tax_year", _titled_year(text), STRUCTURE)
    if layout:
        scheduled = _advance_schedule(layout)
        for name, values in scheduled.items():
            f.candidates[name] = [c for c in f.candidates[name] if c.value not in values]
        current, former = _revised(layout)
        for name, value in current.items():
            f.offer(name, value, REVISED, "jetzt")
        for name, values in former.items():
            stale = values - {current.get(name)}
            f.candidates[name] = [c for c in f.candidates[name] if c.value not in stale]
    _spelt_out(f.candidates["tax_office"])
    for candidate in f.candidates["tax_office"]:
        if MISREAD_U.search(candidate.value):
            # "Niimberg": OCR's ü read as ii; the same name read right elsewhere on the page wins.
            candidate.confidence -= MISREAD_PENALTY
    return f.resolve(ASSESSMENT_CHECKS)


def parse_certificate(reading) -> FieldsRead:
    text, layout = reading.text, reading.layout
    f = Findings(CERTIFICATE_SCHEMAS)
    f.look(layout, "year", YEAR_LABEL, p.year, is_label=IS_LABEL)
    f.look(layout, "year", YEAR_PLAIN, p.year, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
    f.look(layout, "employer", EMPLOYER, p.company_name, is_label=IS_LABEL)
    f.look(layout, "employer", EMPLOYER, _employer_words, is_label=IS_LABEL, weight=WORDS_WEIGHT)
    f.look(layout, "gross_wages", GROSS_WAGES, p.euro_cents, is_label=IS_LABEL)
    f.look(layout, "wage_tax", WAGE_TAX, p.euro_cents, is_label=IS_LABEL)
    f.look(layout, "wage_tax", WAGE_TAX_PLAIN, p.euro_cents, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
    for line, page, _ in layout.address_blocks():
        f.offer("employer", p.company_name(line), GUESS + 0.1, "address block", page)
    for name, value in form_lines(text).items():
        f.offer(name, value, STRUCTURE, "form line")
    for name, value in parse_certificate_text(text).items():
        f.offer(name, value, FLAT_LABEL)
    f.offer("employer", p.sender(text), STRUCTURE)  # a payroll office's letter: the return-address line
    f.offer("employer", p.company(text), GUESS)
    # The agent names itself before the words that make it one ("X GmbH, payroll agent", "durch X GmbH im
    # Auftrag des Arbeitgebers"); a name after them ("im Auftrag des Arbeitgebers Y AG") is the employer's.
    agents = [line[:m.start()] for line in p.lines(text) for m in AGENT_LINE.finditer(line)]
    f.candidates["employer"] = [c for c in f.candidates["employer"]
                                if _named(c.value) and not any(c.value in before for before in agents)]
    return f.resolve(CERTIFICATE_CHECKS)


def parse_assessment_text(text: str) -> dict:
    year = re.search(r"bescheid\s+f(?:ü|ii|ue|u)r\s+(\d{4})|(?:veranlagungs|steuer)jahr:?\s+(\d{4})|f(?:ü|ue|u)r\s+das\s+jahr\s+(\d{4})",
                     text, re.IGNORECASE)
    number = p.after_label(text, r"steuernummer:?|st\.-?nr\.?:?", _tax_number)
    office = TAX_OFFICE.search(text)
    return {
        "tax_year": int(next(g for g in year.groups() if g)) if year else None,
        "tax_number": number,
        "taxable_income": p.after_label(text, r"zu versteuerndes einkommen|taxable income"),
        "income_tax": p.after_label(text, r"festzusetzende einkommensteuer|festgesetzte einkommensteuer")
        or p.after_label(text, r"^einkommensteuer\b", below=False, flags=re.IGNORECASE | re.MULTILINE),
        "solidarity_surcharge": p.after_label(
            text, r"festzusetzender solidaritätszuschlag|^solidaritätszuschlag\b", below=False,
            flags=re.IGNORECASE | re.MULTILINE),
        "tax_office": _roman(office.group(0).strip()) if office else None,
    }


# The electronic certificate numbers its lines by law, whatever words a payroll prints beside them:
# line 3 is the gross wages, line 4 the wage tax withheld.
FORM_LINES = {"3": "gross_wages", "4": "wage_tax"}
FORM_LINE = re.compile(r"^(\d{1,2})\.\s+[A-Za-zÄÖÜäöüß]")


def form_lines(text: str) -> dict[str, str]:
    """The figures on the certificate's numbered lines 3 and 4 ("3.  Steuerbrutto  53.362,68"): the
    last column of a line whose number opens it, when both numbers are there (a numbered form, not a list)."""
    found: dict[str, str] = {}
    for line in p.lines(text):
        m = FORM_LINE.match(line)
        columns = p.segments(line)
        if m and m.group(1) in FORM_LINES and len(columns) >= 3 and FORM_LINES[m.group(1)] not in found:
            value = p.euro_cents(columns[-1])
            if value is not None:
                found[FORM_LINES[m.group(1)]] = value
    return found if len(found) == len(FORM_LINES) else {}


def parse_certificate_text(text: str) -> dict:
    year = re.search(r"lohnsteuerbescheinigung\s+für\s+(\d{4})", text, re.IGNORECASE)
    return {
        "year": int(year.group(1)) if year else None,
        "employer": _employer(text),
        "gross_wages": _euro_cents(text, r"bruttoarbeits[li1]ohn"),  # OCR reads l as i
        "wage_tax": _euro_cents(text, r"einbehaltene lohnsteuer"),
    }


def _revised(layout) -> tuple[dict[str, str], dict[str, set[str]]]:
    """An amended assessment's new figures and its former ones, by field: from "bisher | jetzt" columns
    beside the bases' labels, and from "bisher festgesetzt" / "jetzt festgesetzt" rows under the
    tax kinds' heads."""
    current: dict[str, str] = {}
    former: dict[str, set[str]] = {}
    lines = layout.lines
    for li, line in enumerate(lines):
        heads = {kind: next((s for s in line.segments if pattern.fullmatch(s.text.strip(" :|"))), None)
                 for kind, pattern in (("current", CURRENT), ("former", FORMER))}
        if heads["former"] is not None and heads["former"] is not line.segments[0]:
            # A "bisher" column head; its "jetzt" column may be lost (a photo's cut edge): then
            # what stands under "bisher" is still no value of this assessment.
            for row in lines[li + 1:li + 1 + REVISED_REACH]:
                if row.page != line.page:
                    break
                name = _assessed_field(row.segments[0].text)
                if name:
                    if heads["current"] is not None:
                        _take(row, _span(heads["current"]), name, current, former, now=True)
                    _take(row, _span(heads["former"]), name, current, former, now=False)
            continue
        first = line.segments[0].text.strip(" :|") if line.segments else ""
        now = bool(CURRENT.fullmatch(first))
        if not now and not FORMER.fullmatch(first):
            continue
        header = next((h for h in reversed(lines[max(0, li - 6):li]) if h.page == line.page
                       and any(_head_spans(s) for s in h.segments[1:])), None)
        for head in header.segments[1:] if header else ():
            # OCR may run two heads into one segment ("Einkommensteuer Solidaritätszuschlag").
            for name, span in _head_spans(head):
                _take(line, span, name, current, former, now=now)
    return current, former


def _titled_year(text: str) -> int | None:
    """The year in the head's title after the tax's name: "Bescheiddaten – Einkommensteuer 2025", an
    ELSTER print's heading ("Einkommensteuer 2025,00" is an amount, not a year)."""
    for line in p.lines(text)[:TITLE_LINES]:
        m = TITLED_YEAR.search(line)
        if m:
            return int(m.group(1))
    # A later page's own title names its year too ("EINKOMMENSTEUERBESCHEID 2025" on page 2), also
    # with the first letters misread ("BINKOMMENSTEUERBESCHEID"): the notice's name, then the year.
    for line in p.lines(text):
        m = NOTICE_YEAR.search(line)
        if m:
            return int(m.group(1))
    return None


TITLE_LINES = 6
NOTICE_YEAR = re.compile(r"steuer\s?-?\s?bescheid\s+(?:f(?:ü|ii|ue|u)r\s+)?(?:das\s+)?(?:jahr\s+)?((?:19|20)\d{2})\b(?![.,]\d)",
                         re.IGNORECASE)
TITLED_YEAR = re.compile(r"\beinkommensteuer(?:bescheid)?\s+(?:f(?:ü|ue|u)r\s+)?((?:19|20)\d{2})\b(?![.,]\d)", re.IGNORECASE)


def _advance_schedule(layout) -> dict[str, set[str]]:
    """The figures of a schedule of advance payments for the coming years, by field: under a heading
    "Vorauszahlungen ab 2027" / "Advance payments", rows of a tax kind with several amounts (one per
    quarter). They are no figures of the assessed year."""
    scheduled: dict[str, set[str]] = {}
    lines = layout.lines
    for li, line in enumerate(lines):
        if not line.segments or not ADVANCES.match(line.segments[0].text.strip()):
            continue
        for row in lines[li + 1:li + 1 + ADVANCE_REACH]:
            if row.page != line.page:
                break
            name = _assessed_field(row.segments[0].text) if row.segments else None
            values = [value for cell in row.segments[1:] for value in [p.euros(cell.text)] if value is not None]
            if name and len(values) >= 2:
                # A zero says nothing: the assessed surcharge may be nil too.
                scheduled.setdefault(name, set()).update(v for v in values if Decimal(v) != 0)
    return scheduled


ADVANCES = re.compile(r"(?:festsetzung\s+der\s+)?(?:vorauszahlungen|advance\s+payments)\b(?!\s*(?:wurden|were))",
                      re.IGNORECASE)
ADVANCE_REACH = 5  # rows under the heading: due dates, then a row per tax kind


def _assessed_field(label: str) -> str | None:
    text = label.strip(" :|")
    for name, pattern in ASSESSED:
        if pattern.match(text):
            return name
    return None


def _head_spans(segment) -> list[tuple[str, tuple[float, float, float]]]:
    """Each tax kind named in a head segment, with the x-range of its words."""
    spans = []
    for name, pattern in ASSESSED:
        # On a scan also as OCR misreads the head ("Solidaritatszuschlag") or glues it on ("sSolidar...").
        variants = (pattern, MISREAD.get(pattern), LOOSE.get(pattern))
        found = next((list(v.finditer(segment.text)) for v in variants if v is not None and v.search(segment.text)), [])
        for m in found:
            span = match_span(segment, m)
            if span and not any(name == known for known, _ in spans):
                spans.append((name, span))
    return spans


def _span(segment) -> tuple[float, float, float]:
    return segment.x0, segment.x1, segment.words[0].height


def _take(row, span, name: str, current: dict, former: dict, *, now: bool) -> None:
    """The value of `row` in the column of `span` (x0, x1, height), as the new figure or as a former one."""
    cell = cell_in_column(row, span, 1)
    value = p.euros(cell.text) if cell is not None else None
    if value is None:
        return
    if now:
        current.setdefault(name, value)
    else:
        former.setdefault(name, set()).add(value)


def _spelt_out(candidates) -> None:
    """An office read without its umlauts ("Dusseldorf-Sud": OCR of a letterhead's capitals) takes the
    spelling of the same name read with them elsewhere (the small-print return line), so both agree."""
    spelt = {_folded(c.value): c.value for c in candidates if not c.value.isascii()}
    for c in candidates:
        c.value = spelt.get(_folded(c.value), c.value)


def _folded(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).casefold()


def _named(company: str) -> bool:
    """Whether a company's name says more than its legal form: OCR that lost a boxed line leaves
    "a GmbH" or "ee GmbH", two lower-case letters before the form, which name no employer."""
    form = p.LEGAL_FORM.search(company)
    before = company[:form.start()] if form else company
    letters = re.sub(r"[^\w]", "", before)
    return not (len(letters) <= 2 and letters.islower())


def _employer_words(raw: str) -> str | None:
    """A short line of capitalised words under or after an employer label: a name with no legal form."""
    text = raw.strip(" :|/")
    words = text.split()
    if not 1 <= len(words) <= 6 or IS_LABEL(text) or re.search(r"[\d@,;()]", text):
        return None
    if not words[0][:1].isupper() or not all(w[:1].isupper() or w.lower() in NAME_PARTICLES for w in words):
        return None
    return text


def _tax_number(raw: str) -> str | None:
    m = TAX_NUMBER.search(raw)
    return m.group(0) if m else None


def _office(raw: str) -> str | None:
    """A tax office's name: "Finanzamt Köln-Süd" as printed, or after a "Finanzamt:" label "Köln-Süd"."""
    # "Hamburg-Nord (2743)": the office's four-digit number after its name is not part of it.
    text = re.sub(r"\s*\((?:nr\.?\s*)?\d{4}\)$", "", raw.strip(" :|"), flags=re.IGNORECASE)
    # A letterhead or foot line goes on after the name: "Finanzamt Köln-Süd - Steuernummer 123/...".
    text = SEPARATOR.split(text)[0].strip()
    if re.search(r"\d|@", text) or not text or len(text.split()) > 6 or NOT_OFFICE.match(text):
        return None
    named = text if text.lower().startswith("finanzamt") else f"Finanzamt {text}"
    found = TAX_OFFICE.search(_mixed_case(named))
    if not found or NOT_A_TOWN.search(found.group(0)):
        return None
    return _roman(found.group(0).strip())


MISREAD_U = re.compile(r"(?<=[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z])ii(?=[b-df-hj-np-tv-z])")
MISREAD_PENALTY = 0.1
SEPARATOR = re.compile(r"\s+[-–—·•|]\s+|\s{3,}")
# A heading read under the label is no town ("Berechnung", "Ermittlung des ...", "Festsetzung"):
# German towns do not end like nouns of action.
NOT_A_TOWN = re.compile(r"^Finanzamt\s+\w+(?:ung|ungen|heit|keit|nis)\b", re.IGNORECASE)


# A neighbouring label under the "Finanzamt" label is no town ("Name, Vorname", "Anschrift").
NOT_OFFICE = re.compile(r"(?:name|vorname|anschrift|adresse|telefon|datum|steuernummer)\b", re.IGNORECASE)


def _mixed_case(office: str) -> str:
    """A letterhead's capitals as the office writes its name in running text: "Finanzamt HAMBURG-NORD"
    is "Finanzamt Hamburg-Nord" (district numerals and "am", "an der" as they are written)."""
    head, _, town = office.partition(" ")
    head = head.capitalize()  # "FINANZAMT"
    if not town.isupper():
        return office
    words = []
    for word in town.split():
        if re.fullmatch(r"[IVX]+", word):
            words.append(word)
        elif word.lower() in OFFICE_PARTICLES:
            words.append(word.lower())
        else:
            words.append(re.sub(r"[^\W\d_]+", lambda m: m.group(0).capitalize(), word))
    return f"{head} {' '.join(words)}"


OFFICE_PARTICLES = ("am", "an", "der", "in", "im", "ob")


def _roman(office: str) -> str:
    """OCR reads a district's Roman numeral III as "Ill" or "1I"."""
    return re.sub(r"(?<=\s)[Il1]{1,3}$", lambda m: "I" * len(m.group(0)), office)


def _euro_cents(text: str, label: str) -> str | None:
    """The form prints euros and cents in two columns: "61.808  06", "101167  44" (no grouping);
    also accept "61.808,06"."""
    for line in p.lines(text):
        m = re.search(label, line, re.IGNORECASE)
        if not m:
            continue
        rest = line[m.end():]
        # OCR adds rulings; the euros start at a number's start, not inside "101167".
        split = re.search(r"(?<![\d.,])(\d{1,3}(?:\.\d{3})+|\d+)\s*\|?\s+(\d{2})\s*\|?\s*$", rest)
        if split:
            return f"{split.group(1).replace('.', '')}.{split.group(2)}"
        value = p.amount(rest)
        if value:
            return value
    return None


def _employer(text: str) -> str | None:
    all_lines = p.lines(text)
    for index, line in enumerate(all_lines[:-1]):
        if re.search(r"anschrift.*des arbeitgebers|name.*des arbeitgebers", line, re.IGNORECASE):
            # OCR may put another column's line first; the one with a legal form is the employer.
            following = [s for l in all_lines[index + 1:index + 3] for s in p.segments(l)]
            for candidate in following:
                form = p.LEGAL_FORM.search(candidate)
                if form:
                    return candidate[:form.end()].strip()
            # Without a legal form only a line of words: digits are another column's number, or OCR noise.
            named = [candidate for candidate in following if not re.search(r"\d", candidate)]
            return named[0] if named else None
    return None
