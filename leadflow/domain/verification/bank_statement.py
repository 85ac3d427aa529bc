"""Rules for a bank statement: it covers a recent period and names a valid IBAN.

Recency, precisely: the statement's last day (period_end) lies within the last 42 days,
today included: `today - 42 days <= period_end <= today`. With today 29 November 2026 a
statement ending 18 October 2026 is accepted and one ending 17 October 2026 is not. Six
weeks lets last month's statement count until a few days after the next monthly one is
issued (banks issue it within about ten days of the month's end), while the account's
current state stays visible. A period that ends after today cannot be a finished statement.
"""
from datetime import date, timedelta

from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from leadflow.domain.verification import Applicant, Note
from leadflow.domain.verification.common import day_words, incomplete, iso_date

MAX_AGE = timedelta(days=42)  # six weeks; see the module docstring

ESSENTIAL = (  # field, English label, German label
    ("iban", "the IBAN", "die IBAN"),
    ("period_end", "the statement period", "der Zeitraum des Auszugs"),
)


def check(fields: dict, applicant: Applicant, today: date) -> list[Note]:
    notes = []
    iban = fields.get("iban")
    period_end = iso_date(fields.get("period_end"))
    missing = [(en, de) for name, en, de in ESSENTIAL
               if (period_end if name == "period_end" else (iban or None)) is None]
    if missing:
        notes.append(incomplete("bank_statement_incomplete", missing, "bank statement",
                                "diesem Kontoauszug", "den vollständigen Kontoauszug"))
    if iban and not iban_is_valid(iban):
        notes.append(Note(
            "bank_statement_iban_invalid",
            "The IBAN on this bank statement is not a valid IBAN (its check digits do not match). "
            "Please upload the original statement from your bank, as a PDF if you can.",
            "Die IBAN auf diesem Kontoauszug ist ungültig (die Prüfziffern stimmen nicht). "
            "Bitte laden Sie den Originalauszug Ihrer Bank hoch, wenn möglich als PDF."))
    if period_end is not None:
        notes += _recency(period_end, today)
    return notes


def iban_is_valid(value: str) -> bool:
    """Country, length, bank code format and check digits, as schwifty knows them."""
    try:
        IBAN(str(value))
    except (SchwiftyException, ValueError):
        return False
    return True


def oldest_accepted_end(today: date) -> date:
    return today - MAX_AGE


def _recency(period_end: date, today: date) -> list[Note]:
    end_en, end_de = day_words(period_end)
    if period_end > today:
        return [Note(
            "bank_statement_period_in_future",
            f"This bank statement runs until {end_en}, which is still to come, so it cannot be a finished "
            "statement. Please upload your latest statement as issued by your bank.",
            f"Dieser Kontoauszug reicht bis {end_de}, ein Datum in der Zukunft; es kann also kein abgeschlossener "
            "Auszug sein. Bitte laden Sie Ihren letzten Kontoauszug hoch, wie Ihre Bank ihn ausgestellt hat.")]
    oldest = oldest_accepted_end(today)
    if period_end < oldest:
        oldest_en, oldest_de = day_words(oldest)
        return [Note(
            "bank_statement_too_old",
            f"This bank statement ends on {end_en}; we need one that ends within the last 6 weeks "
            f"(on {oldest_en} or later). Please upload your latest bank statement.",
            f"Dieser Kontoauszug endet am {end_de}; wir benötigen einen, der in den letzten 6 Wochen endet "
            f"(am {oldest_de} oder später). Bitte laden Sie Ihren aktuellen Kontoauszug hoch.")]
    return []
