"""Rules for a bank statement: it covers a recent period and names a valid IBAN.

Recency, precisely: a German lender asks for the statements of the last three months, so a
statement counts when its last day (period_end) falls in one of the three calendar months
before this one, or in this month up to today: `first day of (this month - 3) <= period_end
<= today`. With today 29 November 2026 a statement ending 1 August 2026 is accepted and one
ending 31 July 2026 is not. A period that ends after today cannot be a finished statement.

The period's end rejects only when it is confirmed (the bookings' dates lie in the period, or
it is printed twice): a header misread from a statement number ("Nr. 5/2026") or a wrapped
"from ... to" line must not reach a client as "too old". When it is not, the bookings' dates
decide: a statement that books money on a recent day is recent; else a person looks, told what
the header reads and what the bookings say.
"""
from datetime import date

from schwifty import IBAN
from schwifty.exceptions import SchwiftyException

from leadflow.domain.verification.notes import Applicant, Note
from leadflow.domain.verification.common import compact, day_words, iso_date
from leadflow.domain.verification.spec import Check, Field, TypeRules

MONTHS_BACK = 3  # the last three months' statements; see the module docstring


def _iban_check(read: dict, applicant: Applicant, today: date) -> list[Note]:
    # Only a confidently read IBAN gets here: one whose check digits fail is what the page shows.
    if iban_is_valid(read["iban"]):
        return []
    return [Note(
        "bank_statement_iban_invalid",
        "The IBAN on this bank statement is not a valid IBAN (its check digits do not match). "
        "Please upload the original statement from your bank, as a PDF if you can.",
        "Die IBAN auf diesem Kontoauszug ist ungültig (die Prüfziffern stimmen nicht). "
        "Bitte laden Sie den Originalauszug Ihrer Bank hoch, wenn möglich als PDF.")]


def _recency_check(read: dict, applicant: Applicant, today: date) -> list[Note]:
    return _recency(read["period_end"], today)


def _recency_unconfirmed(read: dict, raw: dict, applicant: Applicant, today: date) -> list[Note]:
    # A booking dated after today is a misread, not evidence.
    days = [day for day in booking_days(raw.get("bookings")) if day <= today]
    if days and not _recency(max(days), today):
        return []
    return [period_doubt(iso_date(raw.get("period_start")), read["period_end"], days)]


def booking_days(bookings) -> list[date]:
    """The dates of the statement's bookings that were read."""
    if not isinstance(bookings, list):
        return []
    return [day for day in (iso_date(b.get("date")) for b in bookings if isinstance(b, dict)) if day]


def period_doubt(start: date | None, end: date, days: list[date]) -> Note:
    """The header's period and what the bookings say of it, for a person to settle."""
    end_en, end_de = day_words(end)
    if start is not None and start < end:
        start_en, start_de = day_words(start)
        header_en, header_de = f"{start_en} to {end_en}", f"{start_de} bis {end_de}"
    else:
        header_en, header_de = f"up to {end_en}", f"bis {end_de}"
    if days:
        (first_en, first_de), (last_en, last_de) = day_words(min(days)), day_words(max(days))
        bookings_en = f"but the bookings run from {first_en} to {last_en}"
        bookings_de = f"die Buchungen laufen aber vom {first_de} bis {last_de}"
    else:
        bookings_en, bookings_de = "and no booking dates confirm it", "und keine Buchungsdaten bestätigen ihn"
    return Note(
        "bank_statement_period_unconfirmed",
        f"The period of this bank statement could not be confirmed: the header reads {header_en}, "
        f"{bookings_en}; a specialist will check it.",
        f"Der Zeitraum dieses Kontoauszugs konnte nicht bestätigt werden: im Kopf steht {header_de}, "
        f"{bookings_de}; eine Fachkraft prüft ihn.",
        fields=("period_end",))


RULES = TypeRules(
    on_en="on this bank statement", on_de="auf diesem Kontoauszug",
    fields=(
        Field("iban", "the IBAN", "die IBAN", "f", compact, "iban"),
        Field("period_end", "the last day of the statement period", "den letzten Tag des Auszugszeitraums", "m",
              iso_date, "date"),
    ),
    essential=("iban", "period_end"),
    checks=(Check(("iban",), _iban_check), Check(("period_end",), _recency_check, unconfirmed=_recency_unconfirmed)),
)


def iban_is_valid(value: str) -> bool:
    """Country, length, bank code format and check digits, as schwifty knows them."""
    try:
        IBAN(str(value))
    except (SchwiftyException, ValueError):
        return False
    return True


def oldest_accepted_end(today: date) -> date:
    months = today.year * 12 + (today.month - 1) - MONTHS_BACK
    return date(months // 12, months % 12 + 1, 1)


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
            f"This bank statement ends on {end_en}; we need the statements of the last three months "
            f"(ending on {oldest_en} or later). Please upload a more recent bank statement.",
            f"Dieser Kontoauszug endet am {end_de}; wir benötigen die Kontoauszüge der letzten drei Monate "
            f"(Ende am {oldest_de} oder später). Bitte laden Sie einen aktuelleren Kontoauszug hoch.")]
    return []
