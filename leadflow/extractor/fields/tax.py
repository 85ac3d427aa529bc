"""Fields of a tax assessment (Steuerbescheid) and a wage tax certificate (Lohnsteuerbescheinigung)."""
import re

from leadflow.extractor.fields import parse as p
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

TAX_NUMBER = re.compile(r"\b\d{2,3}/?\d{3,4}/\d{4,5}\b")
# "Finanzamt Köln-Süd", "Finanzamt München II": the town, hyphenated parts, a district suffix.
TAX_OFFICE = re.compile(r"\bFinanzamt\s+[A-ZÄÖÜ][\wäöüß]+(?:-[A-ZÄÖÜ][\wäöüß]+)*"
                        r"(?:\s(?:Mitte|Nord|Süd|Ost|West|I{1,3}|IV|V))?\b")


def parse_assessment(reading) -> dict:
    return parse_assessment_text(reading.text)


def parse_certificate(reading) -> dict:
    return parse_certificate_text(reading.text)


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
        "tax_office": office.group(0).strip() if office else None,
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
