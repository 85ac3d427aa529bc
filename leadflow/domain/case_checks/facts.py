"""The case's facts as the checks read them, and what a check answers: shared by every check module."""
import re
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Callable

from leadflow.domain.applicants import Person
from leadflow.domain.verification.common import amount, iso_date, year_month

OK, WARNING, PROBLEM, NOT_CHECKED = "ok", "warning", "problem", "not_checked"
OUTCOMES = (PROBLEM, WARNING, OK, NOT_CHECKED)  # worst first

# Without a planned payout date, identity papers must stay valid this long from today.
DEFAULT_PAYOUT_DAYS = 90

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


# --- read from the facts, for more than one check ----------------------------------------------

SALARY_WORDS = re.compile(r"\b(lohn|gehalt|entgelt|bez[üu]ge|besoldung|salary|payroll|wages?)\b", re.IGNORECASE)


def new_job_start(document: DocumentFacts, today: date) -> date | None:
    """A contract's start date when it lies ahead: the client is changing jobs."""
    start = iso_date(document.value("start_date")) if document.type == "employment_contract" else None
    return start if start and start > today else None


def dated_payslips(facts: CaseFacts) -> list[DocumentFacts]:
    """Payslips with a pay month, newest month first."""
    slips = [d for d in facts.of("payslip") if year_month(d.value("period"))]
    return sorted(slips, key=lambda d: d.value("period"), reverse=True)


def salary_credits(statement: DocumentFacts) -> list[tuple[date, Decimal]]:
    """(day, amount) of the salary credits: from the bookings when read, else the statement's
    salary_credits dated at its period's end."""
    bookings = statement.bookings
    if bookings:
        return [(b.day, b.amount) for b in bookings
                if b.day and b.amount is not None and b.amount > 0 and SALARY_WORDS.search(b.text)]
    end = iso_date(statement.value("period_end"))
    credits = [c for c in map(amount, statement.value("salary_credits") or []) if c is not None and c > 0]
    return [(end, c) for c in credits] if end else []


def dated_on(document: DocumentFacts):
    return year_month(document.value("period")) if document.type == "payslip" else iso_date(document.value("period_end"))


def _booking(raw) -> Booking | None:
    if not isinstance(raw, dict):
        return None
    return Booking(iso_date(raw.get("date")), str(raw.get("counterparty") or ""), str(raw.get("purpose") or ""),
                   amount(raw.get("amount")))


def worse(a: str, b: str) -> str:
    return min(a, b, key=OUTCOMES.index)


def cents(value: Decimal) -> Decimal:
    return value.quantize(Decimal("0.01"))


def money(value: Decimal | None) -> str:
    return "" if value is None else f"{cents(value):,.2f} €"


def day_text(day: date | None) -> str:
    return day.isoformat() if day else ""


