"""Rules for a wage tax certificate (Lohnsteuerbescheinigung): it is for the last calendar year.

Precisely: in calendar year Y the certificate must be for Y-1. Employers have until the last
day of February to issue it (§ 41b EStG), so until then the one for Y-2 is still the latest a
client can have and is accepted too. On 28 February 2027 certificates for 2026 and 2025 are
accepted; on 1 March 2027 only 2026 is. On 31 December 2026 only 2025 is; on 1 January 2027
2026 and 2025 are.
"""
from datetime import date

from leadflow.domain.verification.notes import Applicant, Note
from leadflow.domain.verification.common import amount, year
from leadflow.domain.verification.spec import Check, Field, TypeRules

ISSUE_DEADLINE_MONTH = 2  # employers transmit and hand out the certificate by the end of February


def _year_check(read: dict, applicant: Applicant, today: date) -> list[Note]:
    certificate_year = read["year"]
    if certificate_year in accepted_years(today):
        return []
    wanted = today.year - 1
    return [Note(
        "wage_tax_certificate_wrong_year",
        f"This wage tax certificate is for {certificate_year}; we need the one for {wanted}. "
        f"Please upload your wage tax certificate (Lohnsteuerbescheinigung) for {wanted}; "
        "your employer issues it by the end of February.",
        f"Diese Lohnsteuerbescheinigung ist für {certificate_year}; wir benötigen die für {wanted}. "
        f"Bitte laden Sie Ihre Lohnsteuerbescheinigung für {wanted} hoch; "
        "Ihr Arbeitgeber stellt sie bis Ende Februar aus.")]


RULES = TypeRules(
    on_en="on this wage tax certificate", on_de="auf dieser Lohnsteuerbescheinigung",
    fields=(
        Field("year", "the year", "das Jahr", "n", year, "year"),
        Field("gross_wages", "the gross wages", "den Bruttoarbeitslohn", "m", amount, "amount"),
    ),
    essential=("year", "gross_wages"),
    checks=(Check(("year",), _year_check),),
)


def accepted_years(today: date) -> tuple[int, ...]:
    if today.month <= ISSUE_DEADLINE_MONTH:
        return today.year - 1, today.year - 2
    return (today.year - 1,)
