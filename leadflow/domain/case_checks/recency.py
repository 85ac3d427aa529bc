"""Recency: payslips and bank statements young enough for a lender today."""
from datetime import date, timedelta

from leadflow.domain.case_checks.facts import NOT_CHECKED, OK, PROBLEM, CaseFacts, CheckResult, DocumentFacts, dated_on
from leadflow.domain.document_types import N_
from leadflow.domain.verification import bank_statement as statement_rules
from leadflow.domain.verification import payslip as payslip_rules
from leadflow.domain.verification.common import add_months, iso_date, year_month

# A lender wants the last three payslips and the last three months' statements.
RECENT_NEEDED = 3

def recent(facts: CaseFacts) -> CheckResult:
    title = N_("Payslips and bank statements are recent")
    old = [d for d in facts.of("payslip", "bank_statement") if is_stale(d, facts.today)]
    dated = [d for d in facts.of("payslip", "bank_statement") if dated_on(d) is not None]
    if not dated:
        return CheckResult("recent", NOT_CHECKED, title, N_("No dated payslip or bank statement yet."))
    compared = tuple(d.id for d in dated)
    # An old one beside enough recent ones of its type is simply not needed any more.
    old = [d for d in old if sum(1 for o in dated if o.type == d.type and o not in old) < RECENT_NEEDED]
    if old:
        return CheckResult("recent", PROBLEM, title, N_("Too old today, to be replaced: {documents}."),
                           {"documents": "; ".join(d.title for d in old)}, compared, client=tuple(d.id for d in old))
    return CheckResult("recent", OK, title, N_("Every payslip and bank statement is recent enough today."),
                       documents=compared)


def is_stale(document: DocumentFacts, today: date) -> bool:
    """Whether a payslip or bank statement has aged out of what a lender accepts today."""
    if document.type == "payslip":
        period = year_month(document.value("period"))
        return period is not None and payslip_rules.last_accepted_day(period) < today
    if document.type == "bank_statement":
        end = iso_date(document.value("period_end"))
        return end is not None and end < statement_rules.oldest_accepted_end(today)
    return False


def stale_on(document: DocumentFacts) -> date | None:
    """The first day `is_stale` holds for the document (it ages out then and stays out); None
    when it never does (not a payslip or statement, or its period was not read)."""
    if document.type == "payslip":
        period = year_month(document.value("period"))
        return None if period is None else payslip_rules.last_accepted_day(period) + timedelta(days=1)
    if document.type == "bank_statement":
        end = iso_date(document.value("period_end"))
        # oldest_accepted_end(today) is the first of a month: past `end` from the first day of
        # the month after end's, MONTHS_BACK months on.
        return None if end is None else add_months(end.replace(day=1), 1 + statement_rules.MONTHS_BACK)
    return None
