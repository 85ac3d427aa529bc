"""What the per-type rules share: reading extracted values, what a person types, calendar arithmetic, dates in words."""
import calendar
import re
from datetime import date
from decimal import Decimal, InvalidOperation

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


def text(value) -> str | None:
    """A name or other text; None when absent or blank."""
    return value.strip() or None if isinstance(value, str) else None


def compact(value) -> str | None:
    """An IBAN or document number without spaces, upper case; None when absent or blank."""
    return re.sub(r"\s+", "", value).upper() or None if isinstance(value, str) else None


# --- what a person types in the review queue, in the form the extractor stores it -----------

def typed_month(value) -> str | None:
    """ "10/2026", "10.2026", "2026-10", "Oktober 2026", "Oct 2026" -> "2026-10"."""
    words = str(value or "").strip().lower()
    found = re.fullmatch(r"(\d{1,2})\s*[./-]\s*(\d{4})", words) or re.fullmatch(r"(\d{4})-(\d{1,2})", words)
    if found:
        first, second = found.groups()
        month, year_ = (int(first), int(second)) if len(second) == 4 else (int(second), int(first))
    else:
        found = re.fullmatch(r"([a-zäö]+)\.?\s+(\d{4})", words)
        month = _month_number(found.group(1)) if found else None
        year_ = int(found.group(2)) if found else None
    if not month or not 1 <= month <= 12 or year(year_) is None:
        return None
    return f"{year_:04d}-{month:02d}"


def typed_amount(value) -> str | None:
    """ "2.345,67", "2345,67", "2,345.67", "EUR 2.345,67" -> "2345.67"."""
    words = re.sub(r"(?i)eur|€|\s", "", str(value or ""))
    if not re.fullmatch(r"-?[0-9.,]*[0-9]", words):
        return None
    comma, dot = words.rfind(","), words.rfind(".")
    decimal_mark = "," if comma > dot else "."
    whole, _, cents = words.rpartition(decimal_mark) if decimal_mark in words else (words, "", "")
    if decimal_mark in words and len(cents) not in (1, 2):  # "2.345" is two thousand, not two euros
        whole, cents = words, ""
    number = amount(re.sub(r"[.,]", "", whole) + "." + (cents or "0"))
    return f"{number:.2f}" if number is not None else None


def typed_date(value) -> str | None:
    """ "31.10.2026", "31.10.26" or "2026-10-31" -> "2026-10-31"."""
    words = str(value or "").strip()
    found = re.fullmatch(r"(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})", words)
    if found:
        day, month, year_ = (int(part) for part in found.groups())
        words = f"{year_ + 2000 if year_ < 100 else year_:04d}-{month:02d}-{day:02d}"
    day_ = iso_date(words) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", words) else None
    return day_.isoformat() if day_ else None


def typed_year(value) -> int | None:
    return year(str(value or "").strip())


def typed_text(value) -> str | None:
    return text(str(value or ""))[:200] if text(str(value or "")) else None


TYPED = {"month": typed_month, "amount": typed_amount, "date": typed_date, "year": typed_year,
         "iban": lambda value: compact(str(value or "")), "text": typed_text}


def _month_number(word: str) -> int | None:
    for names in (MONTHS_EN, MONTHS_DE):
        for number, name in enumerate(names, start=1):
            if len(word) >= 3 and name.lower().startswith(word):
                return number
    return {"maerz": 3, "mrz": 3}.get(word)
