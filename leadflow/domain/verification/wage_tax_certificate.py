"""Rules for a wage tax certificate (Lohnsteuerbescheinigung): it is for the last calendar year.

Precisely: in calendar year Y the certificate must be for Y-1. Employers have until the last
day of February to issue it (§ 41b EStG), so until then the one for Y-2 is still the latest a
client can have and is accepted too. On 28 February 2027 certificates for 2026 and 2025 are
accepted; on 1 March 2027 only 2026 is. On 31 December 2026 only 2025 is; on 1 January 2027
2026 and 2025 are.
"""
from datetime import date

from leadflow.domain.verification import Applicant, Note
from leadflow.domain.verification.common import amount, incomplete, year

ISSUE_DEADLINE_MONTH = 2  # employers transmit and hand out the certificate by the end of February

ESSENTIAL = (  # field, English label, German label
    ("year", "the year", "das Jahr"),
    ("gross_wages", "the gross wages", "der Bruttoarbeitslohn"),
)


def check(fields: dict, applicant: Applicant, today: date) -> list[Note]:
    notes = []
    certificate_year = year(fields.get("year"))
    missing = [(en, de) for name, en, de in ESSENTIAL
               if (certificate_year if name == "year" else amount(fields.get(name))) is None]
    if missing:
        notes.append(incomplete("wage_tax_certificate_incomplete", missing, "wage tax certificate",
                                "dieser Lohnsteuerbescheinigung", "die vollständige Lohnsteuerbescheinigung"))
    if certificate_year is not None and certificate_year not in accepted_years(today):
        wanted = today.year - 1
        notes.append(Note(
            "wage_tax_certificate_wrong_year",
            f"This wage tax certificate is for {certificate_year}; we need the one for {wanted}. "
            f"Please upload your wage tax certificate (Lohnsteuerbescheinigung) for {wanted}; "
            "your employer issues it by the end of February.",
            f"Diese Lohnsteuerbescheinigung ist für {certificate_year}; wir benötigen die für {wanted}. "
            f"Bitte laden Sie Ihre Lohnsteuerbescheinigung für {wanted} hoch; "
            "Ihr Arbeitgeber stellt sie bis Ende Februar aus."))
    return notes


def accepted_years(today: date) -> tuple[int, ...]:
    if today.month <= ISSUE_DEADLINE_MONTH:
        return today.year - 1, today.year - 2
    return (today.year - 1,)
