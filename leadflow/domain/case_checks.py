"""Checks across a case's documents, as a German lender makes them: one person, one employer, an
income that adds up, no red flags on the statements, papers valid long enough and recent enough.
Identity, employer, income and recency are judged per applicant, over the applicant's own documents
(a joint account's statement is both applicants'); each such check names its applicant.

Pure: given the facts read from the case's verified documents (only confidently read fields, or
fields a person set), each check says ok, warning or problem, names the documents it compared and
says why. The words are English message ids (marked with N_ for the catalogs) with {named}
parameters; a page renders them with its gettext, a PDF or an email with the client's catalog.
"""
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from decimal import Decimal
from typing import Callable

from leadflow.domain.applicants import Person
from leadflow.domain.document_types import N_
from leadflow.domain.verification import bank_statement as statement_rules
from leadflow.domain.verification import payslip as payslip_rules
from leadflow.domain.verification.common import amount, iso_date, year_month
from leadflow.domain.verification.names import name_words, same_person  # noqa: F401 (same_person: the checks' name rule)

OK, WARNING, PROBLEM, NOT_CHECKED = "ok", "warning", "problem", "not_checked"
OUTCOMES = (PROBLEM, WARNING, OK, NOT_CHECKED)  # worst first

# Without a planned payout date, identity papers must stay valid this long from today.
DEFAULT_PAYOUT_DAYS = 90
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
# A lender wants the last three payslips and the last three months' statements.
RECENT_NEEDED = 3
# Red flags listed on a check; the statements themselves show the rest.
MAX_FINDINGS = 8


@dataclass(frozen=True)
class Booking:
    """One line of a bank statement: negative amounts leave the account."""
    day: date | None
    counterparty: str
    purpose: str
    amount: Decimal | None

    @property
    def text(self) -> str:
        return f"{self.counterparty} {self.purpose}"


@dataclass(frozen=True)
class DocumentFacts:
    """A verified document of the case and the fields read from it with confidence."""
    id: str
    title: str
    type: str
    fields: dict = field(default_factory=dict)
    applicants: tuple[int | None, ...] = ()   # whose it is (two: joint); empty: the client's

    def value(self, name: str):
        return self.fields.get(name)

    @property
    def bookings(self) -> list[Booking]:
        return [b for b in map(_booking, self.fields.get("bookings") or []) if b is not None]


@dataclass(frozen=True)
class CaseFacts:
    documents: tuple[DocumentFacts, ...]
    today: date
    planned_payout: date | None = None  # set by the advisor; else today + DEFAULT_PAYOUT_DAYS
    people: tuple[Person, ...] = ()     # the case's applicants, the client first

    def of(self, *types: str) -> list[DocumentFacts]:
        return [d for d in self.documents if d.type in types]

    def of_person(self, person: Person) -> "CaseFacts":
        """The facts of one applicant's documents (a document none is recorded for is the client's)."""
        if len(self.people) <= 1:
            return CaseFacts(self.documents, self.today, self.planned_payout, (person,))
        client = self.people[0].id
        return CaseFacts(tuple(d for d in self.documents if person.id in (d.applicants or (client,))),
                         self.today, self.planned_payout, (person,))

    @property
    def person(self) -> Person | None:
        """The one applicant these facts are of, when they are of one."""
        return self.people[0] if len(self.people) == 1 else None

    @property
    def payout(self) -> date:
        return self.planned_payout or self.today + timedelta(days=DEFAULT_PAYOUT_DAYS)


@dataclass(frozen=True)
class CheckResult:
    """One check's outcome: `title` and `reason` are message ids, `params` fill the reason's
    {names}; `documents` are the ids compared; `client` lists the documents the client must replace
    (the part of a check the portal may show; red flags and mismatches are the advisor's)."""
    key: str
    outcome: str
    title: str
    reason: str
    params: dict = field(default_factory=dict)
    documents: tuple[str, ...] = ()
    client: tuple[str, ...] = ()
    findings: tuple[tuple[str, str], ...] = ()  # (a label's message id, what was found): the {lines}
    applicant: str | None = None   # whose documents it judged (a per-applicant check); None: the case's
    applicant_id: int | None = None

    def words(self, gettext: Callable[[str], str] = lambda s: s) -> tuple[str, str]:
        """(title, reason) in the language of `gettext`."""
        params = dict(self.params)
        if self.findings:
            params["lines"] = "; ".join(f"{gettext(label)}: {detail}" for label, detail in self.findings)
        return gettext(self.title), gettext(self.reason).format(**params)


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


# --- identity ------------------------------------------------------------------------------------

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


# --- employer ------------------------------------------------------------------------------------

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
    starts = _new_job_start(reference_doc, facts.today)
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


def _of_employer(documents: list[DocumentFacts], employer_name) -> list[DocumentFacts]:
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


# --- income --------------------------------------------------------------------------------------

def net_credited(facts: CaseFacts) -> CheckResult:
    """Payslip payout (else net) against the salary credits on the statements of the same months."""
    title = N_("Net pay arrives on the bank statements")
    pairs, missing, compared = [], [], []
    for slip in _payslips(facts):
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
        words = "; ".join(f"{m:%Y-%m}: {_money(p)}" for _, m, p, _ in missing)
        if found:
            return CheckResult("income_credits", PROBLEM, title,
                               N_("Net pay does not match the salary credits: payslips {months}; credited {credits}."),
                               {"months": words, "credits": ", ".join(_money(c) for c in found)}, compared)
        return CheckResult("income_credits", WARNING, title,
                           N_("No salary credit found for the net pay of {months}."), {"months": words}, compared)
    return CheckResult("income_credits", OK, title, N_("Net pay arrives as a salary credit in every month compared ({count})."),
                       {"count": len(pairs)}, compared)


def contract_salary(facts: CaseFacts) -> CheckResult:
    title = N_("Contract salary fits the payslips")
    contract = next((d for d in facts.of("employment_contract") if amount(d.value("annual_salary"))), None)
    slips = [s for s in _payslips(facts) if amount(s.value("gross"))]
    if contract is None or not slips:
        return CheckResult("income_contract", NOT_CHECKED, title,
                           N_("Needs an employment contract with a salary and a payslip with gross pay."),
                           documents=tuple(d.id for d in ([contract] if contract else []) + slips))
    annual = amount(contract.value("annual_salary"))
    starts = _new_job_start(contract, facts.today)
    if starts:
        return CheckResult("income_contract", WARNING, title,
                           N_("The contract is for a new job starting on {start}: its salary of {annual} a year "
                              "cannot be compared with today's payslips."),
                           {"start": starts.isoformat(), "annual": _money(annual)}, (contract.id, slips[0].id))
    others = slips
    slips = _of_employer(slips, contract.value("employer"))
    if not slips:
        return CheckResult("income_contract", NOT_CHECKED, title,
                           N_("No payslip from the contract's employer {employer}; not compared with {documents}."),
                           {"employer": contract.value("employer"), "documents": "; ".join(s.title for s in others)},
                           (contract.id, *(s.id for s in others)))
    gross = amount(slips[0].value("gross"))
    gap = min(abs(gross - annual / n) / (annual / n) for n in SALARIES_A_YEAR)
    params = {"annual": _money(annual), "monthly": _money(annual / 12), "gross": _money(gross),
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
    slips = [s for s in _payslips(facts)[:3] if amount(s.value("gross"))]
    if certificate is None or not slips:
        return CheckResult("income_certificate", NOT_CHECKED, title,
                           N_("Needs a wage tax certificate and payslips with gross pay."),
                           documents=tuple(d.id for d in ([certificate] if certificate else []) + slips))
    others = slips
    slips = _of_employer(slips, certificate.value("employer"))
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
    params = {"certified": _money(certified), "year": certificate.value("year") or "", "level": _money(level)}
    compared = (certificate.id, *(s.id for s in slips))
    if gap <= CERTIFICATE_OK:
        return CheckResult("income_certificate", OK, title,
                           N_("Certified gross {certified} ({year}) fits 12 × the payslips' gross, {level}."),
                           params, compared)
    return CheckResult("income_certificate", WARNING if gap <= CERTIFICATE_WARN else PROBLEM, title,
                       N_("Certified gross {certified} ({year}) against 12 × the payslips' gross, {level}."),
                       params, compared)


# --- statement red flags -------------------------------------------------------------------------

RED_FLAGS = (
    ("returned_debit", PROBLEM, N_("returned direct debit"),
     re.compile(r"r[üu]e?ck\s?-?lastschrift|lastschrift\s?-?r[üu]e?ckgabe|r[üu]e?ckbelastung|returned (?:direct )?debit"
                r"|return(?:ed)? payment|chargeback|r-transaktion|nicht eingel[öo]st", re.IGNORECASE)),
    ("collection", PROBLEM, N_("debt collection"),
     re.compile(r"inkasso|debt collect|collection agency|creditreform|intrum|\beos\b|lowell|paigo|infoscore"
                r"|coeo|\bksp\b|pair finance|mahnbescheid", re.IGNORECASE)),
    ("garnishment", PROBLEM, N_("garnishment"),
     re.compile(r"pf[äa]e?ndung|garnish|p-?konto|gerichtsvollzieher|bailiff", re.IGNORECASE)),
    ("overdraft", WARNING, N_("overdraft"),
     re.compile(r"[üu]e?berziehungszins|dispo(?:sitions)?zins|sollzins|overdraft", re.IGNORECASE)),
    ("instalment", WARNING, N_("loan instalment"),
     re.compile(r"darlehen|ratenkredit|\bkredit\b|kreditrate|\brate\b|tilgung|\bloan\b|instal?lment|ratenzahlung"
                r"|santander consumer|targobank|cofidis|auxmoney|creditplus|consors finanz|bon-?kredit"
                r"|klarna ratenkauf|ratenkauf|barclays|easycredit|teambank", re.IGNORECASE)),
)


def red_flags(facts: CaseFacts) -> CheckResult:
    title = N_("No red flags on the bank statements")
    statements = [s for s in facts.of("bank_statement") if s.value("bookings") is not None
                  or s.value("closing_balance") is not None]
    if not statements:
        return CheckResult("red_flags", NOT_CHECKED, title, N_("No bank statement with readable bookings yet."))
    found, outcome = [], OK
    for statement in statements:
        for booking in statement.bookings:
            for _key, severity, label, pattern in RED_FLAGS:
                # Instalments and overdraft interest are money leaving; a credit named "Kredit" is not one.
                if severity == WARNING and booking.amount is not None and booking.amount > 0:
                    continue
                if pattern.search(booking.text):
                    found.append((label, booking, statement))
                    outcome = _worse(outcome, severity)
                    break
        for name in ("opening_balance", "closing_balance"):
            balance = amount(statement.value(name))
            if balance is not None and balance < 0:
                found.append((N_("overdraft"), Booking(None, "", "", balance), statement))
                outcome = _worse(outcome, WARNING)
    compared = tuple(s.id for s in statements)
    if not found and not any(s.bookings for s in statements):
        # Balances alone say nothing of returned debits or instalments.
        return CheckResult("red_flags", NOT_CHECKED, title, N_("No bank statement with readable bookings yet."),
                           documents=compared)
    if not found:
        return CheckResult("red_flags", OK, title,
                           N_("No returned debits, collection, garnishment, overdraft or loan instalments."),
                           documents=compared)
    findings = tuple((label, " ".join(filter(None, (_day(b.day), b.counterparty.strip(), b.purpose.strip(),
                                                     _money(b.amount), f"({s.title})"))))
                     for label, b, s in found[:MAX_FINDINGS])
    return CheckResult("red_flags", outcome, title, N_("Found on the statements: {lines}"),
                       documents=compared, findings=findings)


# --- validity over time --------------------------------------------------------------------------

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


def recent(facts: CaseFacts) -> CheckResult:
    title = N_("Payslips and bank statements are recent")
    old = [d for d in facts.of("payslip", "bank_statement") if is_stale(d, facts.today)]
    dated = [d for d in facts.of("payslip", "bank_statement") if _dated(d) is not None]
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


# --- the income summary --------------------------------------------------------------------------

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
    slips = _payslips(facts)[:3]
    nets = [v for s in slips if (v := amount(s.value("net"))) is not None]
    grosses = [v for s in slips if (v := amount(s.value("gross"))) is not None]
    average_net = _q(sum(nets) / len(nets)) if nets else None
    average_gross = _q(sum(grosses) / len(grosses)) if grosses else None
    contract = next((amount(d.value("annual_salary")) for d in facts.of("employment_contract")
                     if amount(d.value("annual_salary"))), None)
    certificate = next((d for d in facts.of("wage_tax_certificate") if amount(d.value("gross_wages"))), None)
    by_month: dict[str, Decimal] = defaultdict(Decimal)
    for statement in facts.of("bank_statement"):
        for day, credit in _salary_credits(statement):
            by_month[day.strftime("%Y-%m")] += credit
    return IncomeSummary(
        payslips=tuple(s.id for s in slips), average_net=average_net, average_gross=average_gross,
        annual_gross=_q(average_gross * 12) if average_gross is not None else None,
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
        for day, credit in _salary_credits(statement):
            by_month[day.strftime("%Y-%m")] += credit

    def total(name: str) -> Decimal | None:
        known = [getattr(summary, name) for _, summary in people if getattr(summary, name) is not None]
        return _q(sum(known)) if known else None

    return Household(people, total("average_net"), total("average_gross"), total("annual_gross"),
                     dict(sorted(by_month.items(), reverse=True)))


# --- helpers -------------------------------------------------------------------------------------

SALARY_WORDS = re.compile(r"\b(lohn|gehalt|entgelt|bez[üu]ge|besoldung|salary|payroll|wages?)\b", re.IGNORECASE)


def _new_job_start(document: DocumentFacts, today: date) -> date | None:
    """A contract's start date when it lies ahead: the client is changing jobs."""
    start = iso_date(document.value("start_date")) if document.type == "employment_contract" else None
    return start if start and start > today else None


def _payslips(facts: CaseFacts) -> list[DocumentFacts]:
    """Payslips with a pay month, newest month first."""
    slips = [d for d in facts.of("payslip") if year_month(d.value("period"))]
    return sorted(slips, key=lambda d: d.value("period"), reverse=True)


def _salary_credits(statement: DocumentFacts) -> list[tuple[date, Decimal]]:
    """(day, amount) of the salary credits: from the bookings when read, else the statement's
    salary_credits dated at its period's end."""
    bookings = statement.bookings
    if bookings:
        return [(b.day, b.amount) for b in bookings
                if b.day and b.amount is not None and b.amount > 0 and SALARY_WORDS.search(b.text)]
    end = iso_date(statement.value("period_end"))
    credits = [c for c in map(amount, statement.value("salary_credits") or []) if c is not None and c > 0]
    return [(end, c) for c in credits] if end else []


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
        credits += [c for day, c in _salary_credits(statement) if not dated or start <= day <= end]
    return credits, statements


def _days_in(month: date) -> int:
    nxt = date(month.year + month.month // 12, month.month % 12 + 1, 1)
    return (nxt - month).days


def _dated(document: DocumentFacts):
    return year_month(document.value("period")) if document.type == "payslip" else iso_date(document.value("period_end"))


def _booking(raw) -> Booking | None:
    if not isinstance(raw, dict):
        return None
    return Booking(iso_date(raw.get("date")), str(raw.get("counterparty") or ""), str(raw.get("purpose") or ""),
                   amount(raw.get("amount")))


def _worse(a: str, b: str) -> str:
    return min(a, b, key=OUTCOMES.index)


def _q(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"))


def _money(value: Decimal | None) -> str:
    return "" if value is None else f"{_q(value):,.2f} €"


def _day(day: date | None) -> str:
    return day.isoformat() if day else ""


CHECKS: tuple[Callable[[CaseFacts], CheckResult], ...] = (
    identity, employer, net_credited, contract_salary, certificate_gross, red_flags, identity_valid, recent,
)
# Judged once per applicant over their own documents; the others look at the whole case.
PER_APPLICANT = frozenset({identity, employer, net_credited, contract_salary, certificate_gross, recent})
