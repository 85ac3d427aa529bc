"""Checks across a case's documents, as a German lender makes them: one person, one employer, an
income that adds up, no red flags on the statements, papers valid long enough and recent enough.
Identity, employer, income and recency are judged per applicant, over the applicant's own documents
(a joint account's statement is both applicants'); each such check names its applicant.

Pure: given the facts read from the case's verified documents (only confidently read fields, or
fields a person set), each check says ok, warning or problem, names the documents it compared and
says why. The words are English message ids (marked with N_ for the catalogs) with {named}
parameters; a page renders them with its gettext, a PDF or an email with the client's catalog.

Where each lives: `facts` (what a check reads and answers), `identity`, `employer`, `income`,
`statements` (red flags), `recency`, and `summary` (the income summary, per applicant and the
household's). This module runs them in the case page's order.
"""
from dataclasses import replace
from typing import Callable

from leadflow.domain.case_checks.employer import employer, same_employer
from leadflow.domain.case_checks.facts import (DEFAULT_PAYOUT_DAYS, NOT_CHECKED, OK, OUTCOMES, PROBLEM, WARNING,
                                               Booking, CaseFacts, CheckResult, DocumentFacts)
from leadflow.domain.case_checks.identity import identity, identity_valid, person_name
from leadflow.domain.case_checks.income import certificate_gross, contract_salary, net_credited
from leadflow.domain.case_checks.recency import is_stale, recent, stale_on
from leadflow.domain.case_checks.statements import red_flags
from leadflow.domain.case_checks.summary import Household, IncomeSummary, household, income_summary
from leadflow.domain.verification.names import same_person  # noqa: F401 (the checks' name rule, for tests)

__all__ = ["DEFAULT_PAYOUT_DAYS", "NOT_CHECKED", "OK", "OUTCOMES", "PROBLEM", "WARNING", "Booking", "CaseFacts",
           "CheckResult", "DocumentFacts", "Household", "IncomeSummary", "certificate_gross", "contract_salary",
           "employer", "household", "identity", "identity_valid", "income_summary", "is_stale", "net_credited", "stale_on",
           "person_name", "recent", "red_flags", "run_checks", "same_employer", "same_person", "worst"]


def run_checks(facts: CaseFacts) -> list[CheckResult]:
    """Every case check, in the order the case page lists them: a per-applicant check once for each
    applicant, over their own documents."""
    results = []
    for check in CHECKS:
        if check in PER_APPLICANT and facts.people:
            for person in facts.people:
                result = check(facts.of_person(person))
                results.append(replace(result, applicant=person.name or None, applicant_id=person.id))
        else:
            results.append(check(facts))
    return results


def worst(results: list[CheckResult]) -> str:
    """The case's overall outcome: its worst check that ran."""
    ran = [r.outcome for r in results if r.outcome != NOT_CHECKED]
    return min(ran, key=OUTCOMES.index) if ran else NOT_CHECKED


CHECKS: tuple[Callable[[CaseFacts], CheckResult], ...] = (
    identity, employer, net_credited, contract_salary, certificate_gross, red_flags, identity_valid, recent,
)
# Judged once per applicant over their own documents; the others look at the whole case.
PER_APPLICANT = frozenset({identity, employer, net_credited, contract_salary, certificate_gross, recent})
