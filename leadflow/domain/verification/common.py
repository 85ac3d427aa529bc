"""What the per-type rules share: reading extracted values, calendar arithmetic, dates in words."""
import calendar
from datetime import date
from decimal import Decimal, InvalidOperation

from leadflow.domain.verification import Note

MONTHS_EN = ("January", "February", "March", "April", "May", "June", "July", "August", "September",
             "October", "November", "December")
MONTHS_DE = ("Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September",
             "Oktober", "November", "Dezember")


def amount(value) -> Decimal | None:
    """A decimal string ("1234.56") as a Decimal; None when absent or not a number."""
    if value is None or isinstance(value, bool):
        return None
    try:
        number = Decimal(str(value).strip())
    except (InvalidOperation, ValueError):
        return None
    return number if number.is_finite() else None


def iso_date(value) -> date | None:
    """An ISO date ("2026-08-31"); None when absent or not a real date."""
    if not isinstance(value, str):
        return None
    try:
        return date.fromisoformat(value.strip()[:10])
    except ValueError:
        return None


def year_month(value) -> date | None:
    """A pay period "YYYY-MM" as the first day of that month; None when absent or malformed."""
    if not isinstance(value, str) or len(value.strip()) != 7:
        return None
    try:
        return date.fromisoformat(value.strip() + "-01")
    except ValueError:
        return None


def year(value) -> int | None:
    """A four-digit year given as an int or a string; None otherwise."""
    if isinstance(value, bool):
        return None
    try:
        number = int(str(value).strip())
    except (TypeError, ValueError):
        return None
    return number if 1900 <= number <= 2999 else None


def month_end(day: date) -> date:
    return day.replace(day=calendar.monthrange(day.year, day.month)[1])


def add_months(day: date, months: int) -> date:
    """The same day `months` calendar months later (or earlier), clamped to the month's last day."""
    index = day.year * 12 + (day.month - 1) + months
    y, m = divmod(index, 12)
    return date(y, m + 1, min(day.day, calendar.monthrange(y, m + 1)[1]))


def month_words(day: date) -> tuple[str, str]:
    """("August 2026", "August 2026") in English and German."""
    return f"{MONTHS_EN[day.month - 1]} {day.year}", f"{MONTHS_DE[day.month - 1]} {day.year}"


def day_words(day: date) -> tuple[str, str]:
    """("31 August 2026", "31.08.2026"): how each language writes a date in a letter."""
    return f"{day.day} {MONTHS_EN[day.month - 1]} {day.year}", day.strftime("%d.%m.%Y")


def incomplete(code: str, missing: list[tuple[str, str]], document_en: str, this_de: str, complete_de: str) -> Note:
    """One note naming what could not be read and asking for the complete document.

    German needs the noun's case and gender, so the caller gives both phrases: "dieser
    Gehaltsabrechnung" / "die vollständige Gehaltsabrechnung", "diesem Kontoauszug" / "den
    vollständigen Kontoauszug".
    """
    en = ", ".join(label_en for label_en, _ in missing)
    de = ", ".join(label_de for _, label_de in missing)
    return Note(
        code,
        f"We could not read everything we need from this {document_en} (missing: {en}). "
        f"Please upload the complete {document_en}, all pages, as the original PDF or a sharp scan.",
        f"Wir konnten nicht alle nötigen Angaben aus {this_de} lesen (es fehlt: {de}). "
        f"Bitte laden Sie {complete_de} hoch, mit allen Seiten, als Original-PDF oder scharfen Scan.")
