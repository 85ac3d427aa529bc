"""Rules for a tax assessment (Steuerbescheid): it is for one of the last two completed tax years.

Precisely: in calendar year Y the accepted tax years are Y-1 and Y-2. On 31 December 2026 an
assessment for 2024 is accepted; on 1 January 2027 it no longer is (2025 and 2026 are). A
year that has not ended (Y itself, or later) cannot have been assessed yet.
"""
from datetime import date

from leadflow.domain.verification.notes import Applicant, Note
from leadflow.domain.verification.common import amount, year
from leadflow.domain.verification.spec import Check, Field, TypeRules

ACCEPTED_YEARS_BACK = 2  # lenders read income from the last two assessments


def _year_check(read: dict, applicant: Applicant, today: date) -> list[Note]:
    return _year(read["tax_year"], today)


RULES = TypeRules(
    on_en="on this tax assessment", on_de="auf diesem Steuerbescheid",
    fields=(
        Field("tax_year", "the tax year", "das Steuerjahr", "n", year, "year"),
        Field("taxable_income", "the taxable income", "das zu versteuernde Einkommen", "n", amount, "amount"),
    ),
    essential=("tax_year", "taxable_income"),
    checks=(Check(("tax_year",), _year_check),),
)


def accepted_years(today: date) -> tuple[int, ...]:
    return tuple(today.year - back for back in range(1, ACCEPTED_YEARS_BACK + 1))


def _year(tax_year: int, today: date) -> list[Note]:
    accepted = accepted_years(today)
    if tax_year in accepted:
        return []
    listed = " or ".join(str(y) for y in accepted)
    listed_de = " oder ".join(str(y) for y in accepted)
    if tax_year >= today.year:
        return [Note(
            "tax_assessment_year_not_over",
            f"This tax assessment is for {tax_year}, a year that is not over yet. "
            f"Please upload your tax assessment for {listed}.",
            f"Dieser Steuerbescheid ist für {tax_year}, ein Jahr, das noch nicht abgeschlossen ist. "
            f"Bitte laden Sie Ihren Steuerbescheid für {listed_de} hoch.")]
    return [Note(
        "tax_assessment_too_old",
        f"This tax assessment is for {tax_year}; we need one of the last two years ({listed}). "
        "Please upload your most recent tax assessment.",
        f"Dieser Steuerbescheid ist für {tax_year}; wir benötigen einen der letzten beiden Jahre ({listed_de}). "
        "Bitte laden Sie Ihren aktuellsten Steuerbescheid hoch.")]
