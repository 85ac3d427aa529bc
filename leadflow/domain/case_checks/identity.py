"""Identity checks: the same person on every document of an applicant, and papers valid past the payout."""
from collections import Counter

from leadflow.domain.case_checks.facts import NOT_CHECKED, OK, PROBLEM, CaseFacts, CheckResult, DocumentFacts
from leadflow.domain.document_types import N_
from leadflow.domain.verification.common import iso_date
from leadflow.domain.verification.names import name_words, same_person

NAME_FIELDS = {
    "payslip": ("employee",), "bank_statement": ("holder",), "employment_contract": ("employee",),
    "wage_tax_certificate": ("employee",), "tax_assessment": ("taxpayer",),
}


def identity(facts: CaseFacts) -> CheckResult:
    title = N_("Same person on every document")
    named = [(d, name) for d in facts.documents if (name := person_name(d))]
    applicant = facts.person.name if facts.person and facts.person.name else None
    if applicant:
        # The case knows who applies: every document of the applicant must name them.
        compared = tuple(d.id for d, _ in named)
        if not named:
            return CheckResult("identity", NOT_CHECKED, title, N_("No document names {applicant} yet."),
                               {"applicant": applicant})
        differ = [(d, n) for d, n in named if not same_person(applicant, n)]
        if differ:
            return CheckResult("identity", PROBLEM, title, N_("Names differ from the applicant {applicant}: {names}."),
                               {"applicant": applicant, "names": "; ".join(f"{n} ({d.title})" for d, n in differ)},
                               compared)
        return CheckResult("identity", OK, title, N_("{count} documents name the applicant {applicant}."),
                           {"count": len(named), "applicant": applicant}, compared)
    if len(named) < 2:
        return CheckResult("identity", NOT_CHECKED, title, N_("Fewer than two documents name the client yet."),
                           documents=tuple(d.id for d, _ in named))
    ids = [(d, n) for d, n in named if d.type in ("id_document", "residence_permit")]
    reference_doc, reference = ids[0] if ids else _most_common(named)
    differ = [(d, n) for d, n in named if not same_person(reference, n)]
    compared = tuple(d.id for d, _ in named)
    if differ:
        return CheckResult("identity", PROBLEM, title, N_("Names differ: {names} against {reference} on {document}."),
                           {"names": "; ".join(f"{n} ({d.title})" for d, n in differ), "reference": reference,
                            "document": reference_doc.title}, compared)
    return CheckResult("identity", OK, title, N_("{count} documents name the same person: {reference}."),
                       {"count": len(named), "reference": reference}, compared)


def person_name(document: DocumentFacts) -> str | None:
    if document.type in ("id_document", "residence_permit"):
        given, surname = document.value("given_names"), document.value("surname")
        return " ".join(p for p in (given, surname) if p) or None
    for name in NAME_FIELDS.get(document.type, ()):
        if isinstance(document.value(name), str) and document.value(name).strip():
            return document.value(name).strip()
    return None


def _most_common(named):
    counts = Counter(" ".join(sorted(name_words(n))) for _, n in named)
    key = counts.most_common(1)[0][0]
    return next((d, n) for d, n in named if " ".join(sorted(name_words(n))) == key)


def identity_valid(facts: CaseFacts) -> CheckResult:
    title = N_("Passport, ID card and residence permit valid past the payout")
    papers = [d for d in facts.of("id_document", "residence_permit") if iso_date(d.value("expiry_date"))]
    payout = facts.payout
    params = {"payout": payout.isoformat()}
    if not papers:
        return CheckResult("identity_valid", NOT_CHECKED, title, N_("No identity document with an expiry date yet."),
                           params)
    short = [d for d in papers if iso_date(d.value("expiry_date")) <= payout]
    compared = tuple(d.id for d in papers)
    if short:
        return CheckResult("identity_valid", PROBLEM, title, N_("Expires on or before the payout ({payout}): {papers}."),
                           {**params, "papers": "; ".join(f"{d.title} ({d.value('expiry_date')})" for d in short)},
                           compared, client=tuple(d.id for d in short))
    return CheckResult("identity_valid", OK, title, N_("Valid past the payout ({payout})."), params, compared)
