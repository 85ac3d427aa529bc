"""The income summary: each applicant's income from their own documents, and the household's."""
from collections import defaultdict
from dataclasses import dataclass
from decimal import Decimal

from leadflow.domain.case_checks.facts import CaseFacts, cents, dated_payslips, salary_credits
from leadflow.domain.verification.common import amount

@dataclass(frozen=True)
class IncomeSummary:
    payslips: tuple[str, ...]          # the (up to) three latest payslips averaged, newest first
    average_net: Decimal | None
    average_gross: Decimal | None
    annual_gross: Decimal | None       # 12 × the average gross
    contract_annual: Decimal | None
    certified_gross: Decimal | None
    certified_year: int | None
    credits_by_month: dict[str, Decimal]   # "YYYY-MM" -> salary credits booked that month


def income_summary(facts: CaseFacts) -> IncomeSummary:
    slips = dated_payslips(facts)[:3]
    nets = [v for s in slips if (v := amount(s.value("net"))) is not None]
    grosses = [v for s in slips if (v := amount(s.value("gross"))) is not None]
    average_net = cents(sum(nets) / len(nets)) if nets else None
    average_gross = cents(sum(grosses) / len(grosses)) if grosses else None
    contract = next((amount(d.value("annual_salary")) for d in facts.of("employment_contract")
                     if amount(d.value("annual_salary"))), None)
    certificate = next((d for d in facts.of("wage_tax_certificate") if amount(d.value("gross_wages"))), None)
    by_month: dict[str, Decimal] = defaultdict(Decimal)
    for statement in facts.of("bank_statement"):
        for day, credit in salary_credits(statement):
            by_month[day.strftime("%Y-%m")] += credit
    return IncomeSummary(
        payslips=tuple(s.id for s in slips), average_net=average_net, average_gross=average_gross,
        annual_gross=cents(average_gross * 12) if average_gross is not None else None,
        contract_annual=contract,
        certified_gross=amount(certificate.value("gross_wages")) if certificate else None,
        certified_year=certificate.value("year") if certificate else None,
        credits_by_month=dict(sorted(by_month.items(), reverse=True)))


@dataclass(frozen=True)
class Household:
    """Each applicant's income (their own payslips, contract, certificate and statements) and the
    household's: the sum of theirs; salary credits of a joint account counted once."""
    people: tuple[tuple[str, IncomeSummary], ...]
    average_net: Decimal | None
    average_gross: Decimal | None
    annual_gross: Decimal | None
    credits_by_month: dict[str, Decimal]


def household(facts: CaseFacts) -> Household:
    people = tuple((p.name, income_summary(facts.of_person(p))) for p in facts.people) or (
        ("", income_summary(facts)),)
    by_month: dict[str, Decimal] = defaultdict(Decimal)
    for statement in facts.of("bank_statement"):
        for day, credit in salary_credits(statement):
            by_month[day.strftime("%Y-%m")] += credit

    def total(name: str) -> Decimal | None:
        known = [getattr(summary, name) for _, summary in people if getattr(summary, name) is not None]
        return cents(sum(known)) if known else None

    return Household(people, total("average_net"), total("average_gross"), total("annual_gross"),
                     dict(sorted(by_month.items(), reverse=True)))
