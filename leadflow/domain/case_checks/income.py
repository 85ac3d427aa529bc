"""Income checks: net pay against the salary credits, the contract's salary and the wage tax
certificate against the payslips, each over documents of one employer and one person."""
from datetime import date, timedelta
from decimal import Decimal

from leadflow.domain.case_checks.employer import of_employer
from leadflow.domain.case_checks.facts import (NOT_CHECKED, OK, PROBLEM, WARNING, CaseFacts, CheckResult,
                                               DocumentFacts, dated_payslips, money, new_job_start, salary_credits)
from leadflow.domain.document_types import N_
from leadflow.domain.verification.common import amount, iso_date, year_month

# Net pay and the salary credit are the same money: allow a euro for rounding and fees.
CREDIT_TOLERANCE = Decimal("1.00")
# Contract salary against payslip gross: allowances and raises move a month's gross a little.
CONTRACT_OK, CONTRACT_WARN = Decimal("0.05"), Decimal("0.20")
# Last year's wage tax certificate against this year's payslips: raises and bonuses, up to this.
CERTIFICATE_OK, CERTIFICATE_WARN = Decimal("0.15"), Decimal("0.30")
# German contracts may pay 12, 13 or 14 monthly salaries a year.
SALARIES_A_YEAR = (12, 13, 14)
# A salary for month M is paid from a few days before its end to early in month M + 1.
PAID_EARLY_DAYS, PAID_LATE_DAYS = 10, 10


def net_credited(facts: CaseFacts) -> CheckResult:
    """Payslip payout (else net) against the salary credits on the statements of the same months."""
    title = N_("Net pay arrives on the bank statements")
    pairs, missing, compared = [], [], []
    for slip in dated_payslips(facts):
        month = year_month(slip.value("period"))
        pay = amount(slip.value("payout")) or amount(slip.value("net"))
        if month is None or pay is None:
            continue
        credits, statements = _credits_for(facts, month)
        if not statements:
            continue
        compared += [slip.id, *(s.id for s in statements)]
        if any(abs(c - pay) <= CREDIT_TOLERANCE for c in credits):
            pairs.append(slip)
        else:
            missing.append((slip, month, pay, credits))
    compared = tuple(dict.fromkeys(compared))
    if not pairs and not missing:
        return CheckResult("income_credits", NOT_CHECKED, title,
                           N_("No bank statement covers a payslip's month yet."), documents=compared)
    if missing:
        found = [c for _, _, _, credits in missing for c in credits]
        words = "; ".join(f"{m:%Y-%m}: {money(p)}" for _, m, p, _ in missing)
        if found:
            return CheckResult("income_credits", PROBLEM, title,
                               N_("Net pay does not match the salary credits: payslips {months}; credited {credits}."),
                               {"months": words, "credits": ", ".join(money(c) for c in found)}, compared)
        return CheckResult("income_credits", WARNING, title,
                           N_("No salary credit found for the net pay of {months}."), {"months": words}, compared)
    return CheckResult("income_credits", OK, title, N_("Net pay arrives as a salary credit in every month compared ({count})."),
                       {"count": len(pairs)}, compared)


def contract_salary(facts: CaseFacts) -> CheckResult:
    title = N_("Contract salary fits the payslips")
    contract = next((d for d in facts.of("employment_contract") if amount(d.value("annual_salary"))), None)
    slips = [s for s in dated_payslips(facts) if amount(s.value("gross"))]
    if contract is None or not slips:
        return CheckResult("income_contract", NOT_CHECKED, title,
                           N_("Needs an employment contract with a salary and a payslip with gross pay."),
                           documents=tuple(d.id for d in ([contract] if contract else []) + slips))
    annual = amount(contract.value("annual_salary"))
    starts = new_job_start(contract, facts.today)
    if starts:
        return CheckResult("income_contract", WARNING, title,
                           N_("The contract is for a new job starting on {start}: its salary of {annual} a year "
                              "cannot be compared with today's payslips."),
                           {"start": starts.isoformat(), "annual": money(annual)}, (contract.id, slips[0].id))
    others = slips
    slips = of_employer(slips, contract.value("employer"))
    if not slips:
        return CheckResult("income_contract", NOT_CHECKED, title,
                           N_("No payslip from the contract's employer {employer}; not compared with {documents}."),
                           {"employer": contract.value("employer"), "documents": "; ".join(s.title for s in others)},
                           (contract.id, *(s.id for s in others)))
    gross = amount(slips[0].value("gross"))
    gap = min(abs(gross - annual / n) / (annual / n) for n in SALARIES_A_YEAR)
    params = {"annual": money(annual), "monthly": money(annual / 12), "gross": money(gross),
              "month": slips[0].value("period") or slips[0].title}
    compared = (contract.id, slips[0].id)
    if gap <= CONTRACT_OK:
        return CheckResult("income_contract", OK, title,
                           N_("Contract salary {annual} a year fits the gross pay of {gross} ({month})."), params, compared)
    outcome = WARNING if gap <= CONTRACT_WARN else PROBLEM
    return CheckResult("income_contract", outcome, title,
                       N_("Contract salary {annual} a year ({monthly} a month) against gross pay {gross} ({month})."),
                       params, compared)


def certificate_gross(facts: CaseFacts) -> CheckResult:
    title = N_("Wage tax certificate fits the payslips")
    certificate = next((d for d in facts.of("wage_tax_certificate") if amount(d.value("gross_wages"))), None)
    slips = [s for s in dated_payslips(facts)[:3] if amount(s.value("gross"))]
    if certificate is None or not slips:
        return CheckResult("income_certificate", NOT_CHECKED, title,
                           N_("Needs a wage tax certificate and payslips with gross pay."),
                           documents=tuple(d.id for d in ([certificate] if certificate else []) + slips))
    others = slips
    slips = of_employer(slips, certificate.value("employer"))
    if not slips:
        return CheckResult("income_certificate", NOT_CHECKED, title,
                           N_("The wage tax certificate is from {employer}, the payslips are not ({documents}): "
                              "not compared."),
                           {"employer": certificate.value("employer"), "documents": "; ".join(
                               f"{s.value('employer')} ({s.title})" for s in others)},
                           (certificate.id, *(s.id for s in others)))
    certified = amount(certificate.value("gross_wages"))
    level = sum(amount(s.value("gross")) for s in slips) / len(slips) * 12
    gap = abs(level - certified) / certified if certified else Decimal(1)
    params = {"certified": money(certified), "year": certificate.value("year") or "", "level": money(level)}
    compared = (certificate.id, *(s.id for s in slips))
    if gap <= CERTIFICATE_OK:
        return CheckResult("income_certificate", OK, title,
                           N_("Certified gross {certified} ({year}) fits 12 × the payslips' gross, {level}."),
                           params, compared)
    return CheckResult("income_certificate", WARNING if gap <= CERTIFICATE_WARN else PROBLEM, title,
                       N_("Certified gross {certified} ({year}) against 12 × the payslips' gross, {level}."),
                       params, compared)


def _credits_for(facts: CaseFacts, month: date) -> tuple[list[Decimal], list[DocumentFacts]]:
    """Salary credits paid for `month`, and the statements that cover when they would be paid."""
    start = month - timedelta(days=PAID_EARLY_DAYS) + timedelta(days=_days_in(month))
    end = month + timedelta(days=_days_in(month) + PAID_LATE_DAYS)
    credits, statements = [], []
    for statement in facts.of("bank_statement"):
        first, last = iso_date(statement.value("period_start")), iso_date(statement.value("period_end"))
        if first is None or last is None or last < start or first > end:
            continue
        statements.append(statement)
        dated = bool(statement.bookings)  # else the credits carry the period's end, not their day
        credits += [c for day, c in salary_credits(statement) if not dated or start <= day <= end]
    return credits, statements


def _days_in(month: date) -> int:
    nxt = date(month.year + month.month // 12, month.month % 12 + 1, 1)
    return (nxt - month).days

