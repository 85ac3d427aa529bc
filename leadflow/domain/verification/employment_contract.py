"""Rules for an employment contract: the employer, the start date and the salary can be read.

No date rule: a signed contract for a job that starts later is what a lender wants to see
from a client changing jobs, and one that started years ago is still in force.
"""
from leadflow.domain.verification.common import amount, iso_date, text
from leadflow.domain.verification.spec import Field, TypeRules

RULES = TypeRules(
    on_en="in this employment contract", on_de="in diesem Arbeitsvertrag",
    fields=(
        Field("employer", "the employer", "den Arbeitgeber", "m", text, "text"),
        Field("start_date", "the start date", "das Eintrittsdatum", "n", iso_date, "date"),
        Field("annual_salary", "the annual salary", "das Jahresgehalt", "n", amount, "amount"),
    ),
    essential=("employer", "start_date", "annual_salary"),
)
