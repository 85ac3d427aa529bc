"""Red flags on the bank statements: returned debits, debt collection, garnishment, overdraft, loans."""
import re

from leadflow.domain.case_checks.facts import (NOT_CHECKED, OK, PROBLEM, WARNING, Booking, CaseFacts, CheckResult,
                                               day_text, money, worse)
from leadflow.domain.document_types import N_
from leadflow.domain.verification.common import amount

# Red flags listed on a check; the statements themselves show the rest.
MAX_FINDINGS = 8

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
                    outcome = worse(outcome, severity)
                    break
        for name in ("opening_balance", "closing_balance"):
            balance = amount(statement.value(name))
            if balance is not None and balance < 0:
                found.append((N_("overdraft"), Booking(None, "", "", balance), statement))
                outcome = worse(outcome, WARNING)
    compared = tuple(s.id for s in statements)
    if not found and not any(s.bookings for s in statements):
        # Balances alone say nothing of returned debits or instalments.
        return CheckResult("red_flags", NOT_CHECKED, title, N_("No bank statement with readable bookings yet."),
                           documents=compared)
    if not found:
        return CheckResult("red_flags", OK, title,
                           N_("No returned debits, collection, garnishment, overdraft or loan instalments."),
                           documents=compared)
    findings = tuple((label, " ".join(filter(None, (day_text(b.day), b.counterparty.strip(), b.purpose.strip(),
                                                     money(b.amount), f"({s.title})"))))
                     for label, b, s in found[:MAX_FINDINGS])
    return CheckResult("red_flags", outcome, title, N_("Found on the statements: {lines}"),
                       documents=compared, findings=findings)
