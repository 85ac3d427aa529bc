"""Fields of a tax assessment (Steuerbescheid) and a wage tax certificate (Lohnsteuerbescheinigung):
values next to any of their labels' variants in the layout and by the flat-text reader, cross-checked."""
import re
from datetime import date
from decimal import Decimal

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import (FLAT_LABEL, GUESS, STRUCTURE, Check, FieldsRead, Findings, label_test,
                                               lexicon)
from leadflow.extractor.fields.types import AMOUNT, TEXT, YEAR

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
TAX_OFFICE = re.compile(r"\bFinanzamt\s+[A-ZÄÖÜ][\wäöüß]+(?:-[A-ZÄÖÜ][\wäöüß]+)*"
                        r"(?:\s(?:am|an der|in der|im|ob der)\s[A-ZÄÖÜ][\wäöüß]+)?(?:\s?\([A-ZÄÖÜ][\wäöüß]+\))?"
                        r"(?:[\s-](?:Mitte|Nord|Süd|Ost|West|Land|Stadt))?(?:[\s-](?:[Il1]{1,3}|IV|V|VI))?\b")

YEAR_LABEL = lexicon(r"re:bescheid\s+für", "für das kalender jahr", "für das jahr", "kalender jahr",
                     "veranlagungs zeitraum", "veranlagungs jahr", "steuer jahr", "assessment year", "tax year",
                     "year of assessment", "income tax assessment", r"einkommensteuer bescheid(?:\s+für)?",
                     r"re:berechnung der einkommensteuer", "bescheinigungs zeitraum", "certificate period",
                     "dauer des dienstverhältnisses",
                     r"re:lohnsteuer\s?-?bescheinigung(?:\s+für)?", r"wage tax certificate(?:\s+for)?")
YEAR_PLAIN = lexicon("jahr", "year")  # "im Jahr 2026 erhalten" is no tax year: weaker
TAX_NUMBER_LABEL = lexicon("steuer nummer", "steuer-?nr\\.?", r"re:st\.?\s?-?nr\.?", "tax number", "tax no\\.?",
                           "tax reference")
TAXABLE = lexicon("zu versteuerndes einkommen", "taxable income", r"re:z\.\s?v\.\s?e\.?")
INCOME_TAX = lexicon("festzusetzende einkommensteuer", "festgesetzte einkommensteuer", "income tax assessed",
                     "tarifliche einkommensteuer", "income tax due")
INCOME_TAX_PLAIN = lexicon("einkommensteuer", "income tax", "einkommen steuer")
SOLI = lexicon("festzusetzender solidaritätszuschlag", "solidaritätszuschlag", "solidaritätszuschl\\.?", "solz",
               "solidarity surcharge", "soli")
OFFICE_LABEL = lexicon("finanzamt", "tax office", "zuständiges finanzamt")
EMPLOYER = lexicon(r"re:(?:name und )?anschrift des arbeitgebers", "name des arbeitgebers", "arbeitgeber(?:in)?",
                   "employer", "firma")
EMPLOYEE = lexicon(r"re:arbeitnehmer(?:\s?/\s?in|\(in\)|in)?", "employee")
GROSS_WAGES = lexicon(r"re:brutto\s?-?arbeits[li1]ohn", "gross wages", "gross pay", "gross salary",
                      "steuerpflichtiger arbeitslohn", "jahresbruttolohn", "gross income")
WAGE_TAX = lexicon("einbehaltene lohnsteuer", "wage tax withheld", "income tax withheld", "lohnsteuer einbehalten",
                   "wage tax")
WAGE_TAX_PLAIN = lexicon("lohnsteuer")
IS_LABEL = label_test(YEAR_LABEL, YEAR_PLAIN, TAX_NUMBER_LABEL, TAXABLE, INCOME_TAX, INCOME_TAX_PLAIN, SOLI, OFFICE_LABEL, EMPLOYER,
                      EMPLOYEE, GROSS_WAGES, WAGE_TAX, WAGE_TAX_PLAIN,
                      re.compile(r"kirchensteuer|church tax|festsetzung|datum|date|item|value|line|eur", re.IGNORECASE))
PLAIN_WEIGHT = 0.85

ASSESSMENT_CHECKS = (
    Check(("tax_year",), lambda year: 1990 <= year <= date.today().year),
    Check(("income_tax", "taxable_income"), lambda tax, income: Decimal(tax) < Decimal(income)),
    # The surcharge is at most 5.5 % of the income tax.
    Check(("solidarity_surcharge", "income_tax"), lambda soli, tax: Decimal(soli) <= Decimal("0.056") * Decimal(tax)),
)
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
    f.look(layout, "income_tax", INCOME_TAX_PLAIN, p.euros, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
    f.look(layout, "solidarity_surcharge", SOLI, p.euros, is_label=IS_LABEL)
    f.look(layout, "tax_office", OFFICE_LABEL, _office, is_label=IS_LABEL)
    for name, value in parse_assessment_text(text).items():
        f.offer(name, value, FLAT_LABEL if name != "tax_office" else STRUCTURE)
    return f.resolve(ASSESSMENT_CHECKS)


def parse_certificate(reading) -> FieldsRead:
    text, layout = reading.text, reading.layout
    f = Findings(CERTIFICATE_SCHEMAS)
    f.look(layout, "year", YEAR_LABEL, p.year, is_label=IS_LABEL)
    f.look(layout, "year", YEAR_PLAIN, p.year, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
    f.look(layout, "employer", EMPLOYER, p.company_name, is_label=IS_LABEL)
    f.look(layout, "gross_wages", GROSS_WAGES, p.euro_cents, is_label=IS_LABEL)
    f.look(layout, "wage_tax", WAGE_TAX, p.euro_cents, is_label=IS_LABEL)
    f.look(layout, "wage_tax", WAGE_TAX_PLAIN, p.euro_cents, is_label=IS_LABEL, weight=PLAIN_WEIGHT)
    for line, page, _ in layout.address_blocks():
        f.offer("employer", p.company_name(line), GUESS + 0.1, "address block", page)
    for name, value in parse_certificate_text(text).items():
        f.offer(name, value, FLAT_LABEL)
    f.offer("employer", p.sender(text), STRUCTURE)  # a payroll office's letter: the return-address line
    f.offer("employer", p.company(text), GUESS)
    return f.resolve(CERTIFICATE_CHECKS)


def parse_assessment_text(text: str) -> dict:
    year = re.search(r"bescheid\s+für\s+(\d{4})|(?:veranlagungs|steuer)jahr:?\s+(\d{4})|für\s+das\s+jahr\s+(\d{4})",
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


def parse_certificate_text(text: str) -> dict:
    year = re.search(r"lohnsteuerbescheinigung\s+für\s+(\d{4})", text, re.IGNORECASE)
    return {
        "year": int(year.group(1)) if year else None,
        "employer": _employer(text),
        "gross_wages": _euro_cents(text, r"bruttoarbeits[li1]ohn"),  # OCR reads l as i
        "wage_tax": _euro_cents(text, r"einbehaltene lohnsteuer"),
    }


def _tax_number(raw: str) -> str | None:
    m = TAX_NUMBER.search(raw)
    return m.group(0) if m else None


def _office(raw: str) -> str | None:
    """A tax office's name: "Finanzamt Köln-Süd" as printed, or after a "Finanzamt:" label "Köln-Süd"."""
    text = raw.strip(" :|")
    if re.search(r"\d|@", text) or not text or len(text.split()) > 6:
        return None
    found = TAX_OFFICE.search(text if text.lower().startswith("finanzamt") else f"Finanzamt {text}")
    return _roman(found.group(0).strip()) if found else None


def _roman(office: str) -> str:
    """OCR reads a district's Roman numeral III as "Ill" or "1I"."""
    return re.sub(r"(?<=\s)[Il1]{1,3}$", lambda m: "I" * len(m.group(0)), office)


def _euro_cents(text: str, label: str) -> str | None:
    """The form prints euros and cents in two columns: "61.808  06"; also accept "61.808,06"."""
    for line in p.lines(text):
        m = re.search(label, line, re.IGNORECASE)
        if not m:
            continue
        rest = line[m.end():]
        split = re.search(r"(\d{1,3}(?:\.\d{3})*)\s*\|?\s+(\d{2})\s*\|?\s*$", rest)  # OCR adds rulings
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
            return following[0] if following else None
    return None
