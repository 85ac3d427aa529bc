"""Fields of an employment contract (Arbeitsvertrag): from its parties as the prose introduces them,
or from a form's labels in the layout; each with a confidence."""
import re
from decimal import Decimal

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import (FLAT_LABEL, GUESS, STRUCTURE, Check, FieldsRead, Findings, label_test,
                                               lexicon)
from leadflow.extractor.fields.types import AMOUNT, DATE, TEXT

SCHEMAS: dict[str, dict] = {
    "employer": TEXT,
    "employee": TEXT,
    "start_date": DATE,
    "annual_salary": AMOUNT,
}

EMPLOYER = re.compile(r"\b(?:zwischen|between)\W+(?:der|dem|the company)?\s*([^,\n(]+?)\s*[,(]", re.IGNORECASE)
EMPLOYEE = re.compile(r"\b(?:und|and)\s+(?:\(\d\)\s*)?(?:Herrn?\s|Frau\s|Mr\.?\s|Mrs\.?\s|Ms\.?\s)?\s*([^,\n(]+?)\s*[,(]")
SALUTED_PARTY = re.compile(r"\b(?:und|and)\s+(?:\(\d\)\s*)?(?:Herrn?|Frau|Mr\.?|Mrs\.?|Ms\.?)[ \t]+([^\n,(;]+)",
                           re.IGNORECASE)
NAME_END = re.compile(r"\s(?:wohnhaft|geb\.|geboren|residing|resident|born|living|nachfolgend|hereinafter|als|as"
                      r"|[-–—])(?:\s|$)|\s{2,}", re.IGNORECASE)
# A party named before its role: "X GmbH, Straße 1, Ort - nachfolgend „Arbeitgeber“ genannt -",
# "(1) X GmbH, ... (the "Employer")".
ROLE = re.compile(r"(?:nachfolgend|im folgenden:?|hereinafter(?: referred to as)?|the|als|as|\()\s*[„\"“'”]?\s*"
                  r"(?:der\s|die\s)?(Arbeitgeber(?:in)?|Gesellschaft|Firma|Unternehmen|Employer|Company"
                  r"|Arbeitnehmer(?:in)?|Mitarbeiter(?:in)?|Beschäftigte[r]?|Employee)\b", re.IGNORECASE)
PARTY_START = re.compile(r"(?:zwischen|between|\bund\b|\band\b|\(\d\)|genannt\s*-?|parties|vertragsparteien)\s*",
                         re.IGNORECASE)
START = re.compile(r"(?:beginnt\s+am|beginnt\s+zum|beginnt\s+mit\s+wirkung\s+zum|Beginn\s+am|Eintritt\s+am"
                   r"|(?:tritt|trat)\s+(?:am|zum|mit\s+wirkung\s+vom)"
                   r"|commences\s+on|commence\s+on|starts?\s+on|begins?\s+on|start\s+date:?"
                   r"|mit\s+wirkung\s+(?:vom|zum|ab)|ab\s+dem|effective\s+(?:from|as\s+of))\s*([^\n]{0,40})",
                   re.IGNORECASE)
# The employment's own start, named by a paper that changes a running employment: "das seit dem
# 01.02.2019 bestehende Arbeitsverhältnis", "Betriebszugehörigkeit seit 01.02.2019", "employed since".
SINCE = re.compile(r"seit\s+(?:dem\s+)?([^\n]{6,20}?)\s+(?:ununterbrochen\s+)?bestehende[ns]?\s+"
                   r"(?:arbeits|anstellungs|beschäftigungs|dienst)verh[äa]ltnis"
                   r"|(?:betriebszugehörigkeit|beschäftigt|tätig|eintritt)\s+seit\s+(?:dem\s+)?([^\n]{6,20})"
                   r"|employed\s+(?:by\s+the\s+company\s+)?since\s+([^\n]{6,20})", re.IGNORECASE)
# A paper that changes a contract ("Änderungsvertrag zum Arbeitsvertrag vom ..."): the day a change
# takes effect ("mit Wirkung ab dem 01.01.2026") is no start of the employment.
AMENDMENT = re.compile(r"änderungsvertrag|änderungsvereinbarung|vertragsänderung|ergänzungsvereinbarung"
                       r"|nachtrag\s+(?:nr\.\s*\d+\s+)?zu[mr]?\s+(?:arbeits|anstellungs|dienst)vertrag"
                       r"|amendment\s+(?:agreement\s+)?to\s+the\s+(?:employment|service)", re.IGNORECASE)
CHANGE_TRIGGER = re.compile(r"mit\s+wirkung|ab\s+dem|effective", re.IGNORECASE)
ANNUAL = re.compile(r"(?:brutto)?jahres(?:brutto)?(?:gehalt|vergütung|entgelt|einkommen)"
                    r"|jährliche[sn]?\s+(?:brutto\s?-?)?(?:gehalt|vergütung|entgelt|einkommen)"
                    r"|annual\s+(?:gross\s+)?(?:base\s+)?(?:salary|remuneration|compensation)"
                    r"|yearly\s+(?:gross\s+)?salary", re.IGNORECASE)
# An amount the text itself calls a year's: "(entspricht EUR 58.200,00 jährlich)", "62.400 € p.a.".
PER_YEAR = re.compile(r"(?:jährlich|pro\s+jahr|im\s+jahr|p\.\s?a\.|per\s+year|per\s+annum|a\s+year|annually)"
                      r"(?!\w)", re.IGNORECASE)
MONTHLY = re.compile(r"(?:brutto)?monats(?:brutto)?(?:gehalt|vergütung|entgelt)|monatliche[sn]?\s+(?:brutto)?"
                     r"(?:gehalt|vergütung|entgelt)|monatlich\s+brutto"
                     r"|monthly\s+(?:gross\s+)?(?:base\s+)?(?:salary|remuneration)",
                     re.IGNORECASE)
PAYMENTS = re.compile(r"\b(zwölf|dreizehn|vierzehn|twelve|thirteen|fourteen|12|13|14)\s+(?:gleichen\s+|equal\s+)?"
                      r"(?:monats(?:raten|gehälter|gehältern|zahlungen)|monthly)", re.IGNORECASE)
COUNT_WORDS = {"zwölf": 12, "dreizehn": 13, "vierzehn": 14, "twelve": 12, "thirteen": 13, "fourteen": 14}

HEAD_CHARS = 600  # where a paper says what it is
MONTHLY_SALARY = "monthly_salary"  # read for the cross-check only: not a field of the schema

EMPLOYER_LABEL = lexicon("arbeitgeber(?:in)?", "employer", "firma", "unternehmen", "gesellschaft", "company")
EMPLOYEE_LABEL = lexicon(r"re:arbeitnehmer(?:\s?/\s?in|\(in\)|in)?", r"re:mitarbeiter(?:\s?/\s?in|\(in\)|in)?",
                         "employee", "name,? vorname", "beschäftigte[r]?")
START_LABEL = lexicon("eintritts datum", "eintritt", "beginn des arbeitsverhältnisses", "arbeits beginn",
                      "vertrags beginn", "tätigkeits beginn", "beginn", "start date", "starting date", "commencement",
                      "date of commencement", "first working day", "employment start")
ANNUAL_LABEL = lexicon("jahres brutto gehalt", "brutto jahres gehalt", "jahres gehalt", "jahres vergütung",
                       "annual salary", "annual gross salary", "gross annual salary", "yearly salary")
IS_LABEL = label_test(EMPLOYER_LABEL, EMPLOYEE_LABEL, START_LABEL, ANNUAL_LABEL,
                      re.compile(r"sitz|wohnort|anschrift|address|position|tätigkeit", re.IGNORECASE))

CHECKS = (
    Check(("annual_salary",), lambda salary: Decimal("3000") <= Decimal(salary) <= Decimal("2000000")),
    # A contract that states the month's pay and the year's: twelve to fourteen of the one make the
    # other. When they disagree one was misread ("403.000,00" for "103.000,00"): a person looks.
    Check(("annual_salary", MONTHLY_SALARY), lambda annual, monthly: Decimal("11.5") * Decimal(monthly)
          <= Decimal(annual) <= Decimal("14.5") * Decimal(monthly)),
)


def parse(reading) -> FieldsRead:
    text, layout = reading.text, reading.layout
    flat = re.sub(r"\s*\n\s*", " ", text)  # contract prose wraps mid-sentence
    # A contract set in two columns: its sentences read on down their column, not across the page.
    columns = re.sub(r"\s*\n\s*", " ", layout.column_text()) if layout else flat
    f = Findings([*SCHEMAS, MONTHLY_SALARY])
    f.look(layout, "employer", EMPLOYER_LABEL, p.company_name, is_label=IS_LABEL)
    f.look(layout, "employee", EMPLOYEE_LABEL, p.person_name, is_label=IS_LABEL)
    f.look(layout, "start_date", START_LABEL, _start_day, is_label=IS_LABEL)
    f.look(layout, "annual_salary", ANNUAL_LABEL, p.amount, is_label=IS_LABEL)
    for role, name in _parties(flat):
        if role == "employer":
            f.offer("employer", p.company_name(name) or _organisation(name), FLAT_LABEL, "party")
        else:
            f.offer("employee", p.person_name(name), FLAT_LABEL, "party")
    employer = EMPLOYER.search(flat)
    if employer:
        f.offer("employer", p.company_name(employer.group(1)) or _organisation(employer.group(1)), FLAT_LABEL - 0.1)
    for employee in EMPLOYEE.finditer(flat):
        f.offer("employee", p.person_name(employee.group(1)), FLAT_LABEL - 0.1)
    # The opening clause's second party after a salutation ("zwischen ... und Herrn Max Mustermann"),
    # its name ending with its line or the words that follow a name (wohnhaft, geb., residing).
    for employee in SALUTED_PARTY.finditer(text):
        name = NAME_END.split(employee.group(1))[0]
        f.offer("employee", p.person_name(name), FLAT_LABEL - 0.05, "party")
    f.offer("employer", p.company(text), GUESS)
    # A letter that is the contract names the employee only in its address window.
    f.offer("employer", p.sender(text), STRUCTURE)
    f.offer("employee", p.addressee(text), STRUCTURE)
    for line, page, _ in layout.address_blocks() if layout else ():
        f.offer("employee", p.person_name(line), STRUCTURE, "address block", page)
    since = SINCE.search(flat)
    if since:
        f.offer("start_date", p.iso_date(next(g for g in since.groups() if g)), FLAT_LABEL + 0.05, "seit")
    start = START.search(flat)
    if start and AMENDMENT.search(flat[:HEAD_CHARS]) and CHANGE_TRIGGER.match(start.group(0)):
        start = None  # the day a change takes effect: the employment began earlier
    if start:
        day = p.labelled_date(start.group(1))
        f.offer("start_date", day, FLAT_LABEL)
        if day is None:
            f.offer("start_date", p.iso_date(_ocr_day_one(start.group(1))), FLAT_LABEL - 0.1)
    monthly = _monthly_salary(flat)
    f.offer("annual_salary", _annual_salary(flat, monthly), FLAT_LABEL)
    f.offer(MONTHLY_SALARY, monthly, FLAT_LABEL)
    if columns != flat:
        _offer_prose(f, columns, COLUMNS_WEIGHT)
    return f.resolve(CHECKS)


COLUMNS_WEIGHT = 0.05  # below the same reading of the page's lines as they stand


def _offer_prose(f: Findings, prose: str, less: float) -> None:
    """The start date and the pay as the prose states them, read from a column reading of the page."""
    start = START.search(prose)
    if start and not (AMENDMENT.search(prose[:HEAD_CHARS]) and CHANGE_TRIGGER.match(start.group(0))):
        f.offer("start_date", p.labelled_date(start.group(1)), FLAT_LABEL - less, "column")
    monthly = _monthly_salary(prose)
    f.offer("annual_salary", _annual_salary(prose, monthly), FLAT_LABEL - less, "column")
    f.offer(MONTHLY_SALARY, monthly, FLAT_LABEL - less, "column")


def _parties(flat: str) -> list[tuple[str, str]]:
    """(role, the words that name the party) for each party introduced before its role."""
    out = []
    for m in ROLE.finditer(flat):
        role = "employer" if m.group(1).lower().startswith(
            ("arbeitgeber", "gesellschaft", "firma", "unternehmen", "employer", "company")) else "employee"
        before = flat[max(0, m.start() - 200):m.start()]
        starts = list(PARTY_START.finditer(before))
        if not starts:
            continue
        name = re.split(r",|\(|\s-\s", before[starts[-1].end():])[0].strip()
        if name:
            out.append((role, name))
    return out


def _organisation(raw: str) -> str | None:
    """An employer named without a legal form ("Stadt Köln", "Universität Bonn"): a short run of words."""
    words = raw.strip(" :").split()
    if 1 <= len(words) <= 6 and not re.search(r"\d", raw) and words[0][:1].isupper():
        return " ".join(words)
    return None


def _annual_salary(flat: str, monthly: str | None) -> str | None:
    m = ANNUAL.search(flat)
    if m:
        # Contracts print the year's pay in whole euros too ("von 62.400 €", "of EUR 85,000 gross").
        value = p.euros(flat[m.end():m.end() + 60]) or whole_euros_en(flat[m.end():m.end() + 60])
        if value:
            return value
    for m in PER_YEAR.finditer(flat):
        before = p.amounts(flat[max(0, m.start() - 30):m.start()])
        if before and Decimal(before[-1]) > 0:
            return before[-1]
        # The year's word before its amount: "beträgt jährlich brutto 95.500,00", "annually EUR 85,000".
        after = YEAR_AMOUNT.match(flat, m.end())
        if after:
            value = p.euros(after.group(1)) or whole_euros_en(after.group(1))
            if value and Decimal(value) > 0:
                return value
    if monthly:
        count = PAYMENTS.search(flat)
        if count:
            n = COUNT_WORDS.get(count.group(1).lower()) or int(count.group(1))
        elif THIRTEENTH.search(flat):
            n = 13  # "das dreizehnte Gehalt", "ein 13. Monatsgehalt": the year holds thirteen
        elif ANY_PAYMENTS.search(flat):
            return None  # a number of salaries OCR garbled ("in 43 Monatsgehältern"): which, a person reads
        else:
            n = 12
        return f"{Decimal(monthly) * n:.2f}"
    return None


YEAR_AMOUNT = re.compile(r"\s*(?:brutto|gross)?\s*((?:EUR|€)?\s?\d[\d.,]*\d\s?(?:EUR|€)?)", re.IGNORECASE)


def _start_day(raw: str) -> str | None:
    """The date beside a start label: past the label's own words ("Beginn | der Tätigkeit: 15.9.25.")."""
    return p.labelled_date(raw[:40])


# A thirteenth salary named as such; a count of monthly salaries of any number.
THIRTEENTH = re.compile(r"\b(?:dreizehnte[sn]?|13\.)\s+(?:monats)?(?:gehalt|gehälter|monatsgehalt)"
                        r"|thirteenth\s+(?:month|salary)", re.IGNORECASE)
ANY_PAYMENTS = re.compile(r"(?<![\w(])\d{2}\s+(?:gleichen\s+)?monats(?:raten|gehälter|gehältern|zahlungen)",
                          re.IGNORECASE)


def _ocr_day_one(raw: str) -> str:
    """A day "1" OCR read as a bar or a letter before a month's name ("commence on | March 2022")."""
    return OCR_ONE.sub("1", raw)


OCR_ONE = re.compile(r"(?<!\S)[|Il!](?=\.?\s+(?:jan|feb|mär|mar|apr|mai|may|jun|jul|aug|sep|okt|oct|nov|dez|dec)"
                     r"[a-z]*\.?\s+\d{4})", re.IGNORECASE)


def whole_euros_en(raw: str) -> str | None:
    """Whole euros with English thousands commas, marked as euros: "EUR 85,000", "€85,000", "85,000 EUR"
    (a German amount has two decimals after its comma, so "85,000" cannot be one)."""
    m = WHOLE_EUROS_EN.search(raw)
    if not m:
        return None
    return f"{int((m.group(1) or m.group(2)).replace(',', ''))}.00"


WHOLE_EUROS_EN = re.compile(r"(?:EUR|€)\s?(\d{1,3}(?:,\d{3})+)(?![\d.,]*\d)"
                            r"|(?<![\d.,])(\d{1,3}(?:,\d{3})+)\s?(?:EUR|€|euros?)\b")


def _monthly_salary(flat: str) -> str | None:
    m = MONTHLY.search(flat)
    return p.amount(flat[m.end():m.end() + 60]) if m else None
