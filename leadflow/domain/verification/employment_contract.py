"""Rules for an employment contract: the employer, the start date and the salary can be read.

No date rule: a signed contract for a job that starts later is what a lender wants to see
from a client changing jobs, and one that started years ago is still in force.
"""
from datetime import date

from leadflow.domain.verification import Applicant, Note
from leadflow.domain.verification.common import amount, incomplete, iso_date

ESSENTIAL = (  # field, English label, German label
    ("employer", "the employer", "der Arbeitgeber"),
    ("start_date", "the start date", "der Beginn des Arbeitsverhältnisses"),
    ("annual_salary", "the salary", "das Gehalt"),
)
READ = {"start_date": iso_date, "annual_salary": amount}


def check(fields: dict, applicant: Applicant, today: date) -> list[Note]:
    missing = [(en, de) for name, en, de in ESSENTIAL
               if READ.get(name, lambda value: value or None)(fields.get(name)) is None]
    if missing:
        return [incomplete("employment_contract_incomplete", missing, "employment contract",
                           "diesem Arbeitsvertrag", "den vollständigen Arbeitsvertrag")]
    return []
