"""The employer check: one employer on the contract, the payslips and the wage tax certificate, and
the rule that says when two employer names are one company."""
import re
import unicodedata
from collections import Counter

from leadflow.domain.case_checks.facts import (NOT_CHECKED, OK, WARNING, CaseFacts, CheckResult, DocumentFacts,
                                               new_job_start)
from leadflow.domain.document_types import N_

LEGAL_FORMS = re.compile(r"\b(gmbh\s*&\s*co\.?\s*kg(?:aa)?|gmbh|mbh|ag|se|kg(?:aa)?|ohg|ug|e\.?\s?v|e\.?\s?k|"
                         r"haftungsbeschränkt|ltd|limited|inc|llc|plc|co|corp|bv|nv|sa|sarl|srl|spa)\b\.?",
                         re.IGNORECASE)


def employer(facts: CaseFacts) -> CheckResult:
    """The employer on the contract (else the payslips' most common one) against every payslip and
    certificate: one from another employer is a warning naming that employer and that document."""
    title = N_("Same employer on contract, payslips and wage tax certificate")
    named = [(d, d.value("employer").strip()) for d in facts.of("employment_contract", "payslip", "wage_tax_certificate")
             if isinstance(d.value("employer"), str) and d.value("employer").strip()]
    compared = tuple(d.id for d, _ in named)
    current = [(d, e) for d, e in named if d.type in ("employment_contract", "payslip")]
    if len(named) < 2 or not current:
        return CheckResult("employer", NOT_CHECKED, title,
                           N_("Fewer than two documents name an employer yet."), documents=compared)
    reference_doc, reference = next(((d, e) for d, e in current if d.type == "employment_contract"),
                                    None) or _most_common_employer(current)
    differ = [(d, e) for d, e in named if d is not reference_doc and not same_employer(reference, e)]
    listed = "; ".join(f"{e} ({d.title})" for d, e in differ)
    starts = new_job_start(reference_doc, facts.today)
    if differ and starts:
        # A contract for a job not yet begun: today's payslips come from the employer before it.
        return CheckResult("employer", WARNING, title,
                           N_("A new job at {reference} starts on {start}; {names} are from the employer before. "
                              "The lender will ask about the probation period."),
                           {"reference": reference, "start": starts.isoformat(), "names": listed}, compared)
    if differ:
        # A second job, a job change, last year's employer on the certificate: ask, do not refuse.
        return CheckResult("employer", WARNING, title,
                           N_("Another employer than {reference} ({document}): {names}. "
                              "Ask about a second job or a job change."),
                           {"names": listed, "reference": reference, "document": reference_doc.title}, compared)
    return CheckResult("employer", OK, title, N_("{count} documents name the same employer: {reference}."),
                       {"count": len(named), "reference": reference}, compared)


def _most_common_employer(named: list) -> tuple:
    counts = Counter(_company_key(e) for _, e in named)
    key = counts.most_common(1)[0][0]
    return next((d, e) for d, e in named if _company_key(e) == key)


def of_employer(documents: list[DocumentFacts], employer_name) -> list[DocumentFacts]:
    """The documents that may be from `employer_name`: the same employer, or none read on either.
    "Fits" is only said of documents of one employer."""
    if not isinstance(employer_name, str) or not employer_name.strip():
        return documents
    return [d for d in documents if not isinstance(d.value("employer"), str) or not d.value("employer").strip()
            or same_employer(employer_name, d.value("employer"))]


def same_employer(a: str | None, b: str | None) -> bool:
    left, right = _company_key(a), _company_key(b)
    if not left or not right:
        return False
    return left == right or left in right or right in left


def _company_key(name: str | None) -> str:
    if not name:
        return ""
    plain = unicodedata.normalize("NFKD", name.lower())
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    plain = LEGAL_FORMS.sub(" ", plain)
    return " ".join(re.findall(r"[a-z0-9]+", plain))
