"""What a person reads instead of a code, and dates in the format of their language.

Codes (statuses, rejection codes, audit actions, the extraction service's error codes) stay in the
JSON API and the stored history; a page or an email shows the words here, from the catalogs under
translations/ (English message ids, German in translations/de). A code this table does not know is
shown as one general word, never as itself. Dates have one pattern per language (`DAY`), used by
the templates' `day` and `moment` filters and by `dates_in` for dates inside read values and notes.

Plain Babel with the language passed in, not Flask-Babel's request locale: a worker renders emails
and a socket push renders a row in its reader's language, outside any request (the web's filters in
leadflow.web.templating pass the request's locale).
"""
import re
from datetime import date, datetime, timezone
from functools import lru_cache

from babel import Locale
from babel.dates import format_date, format_datetime
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

from leadflow import config
from leadflow.domain import document_types

LANGUAGES = ("en", "de")
DEFAULT = "en"

# One pattern per language, everywhere: 06.12.2026 in German, 6 Dec 2026 in English (the month
# as a word cannot be mistaken for the American month-first order). With the time, as the
# portal's script writes a time in the browser's zone (Intl "medium" of de-DE and en-GB).
DAY = {"de": "dd.MM.yyyy", "en": "d MMM yyyy"}
MOMENT = {"de": "dd.MM.yyyy, HH:mm", "en": "d MMM yyyy, HH:mm"}
MONTH = {"de": "MM/yyyy", "en": "MMM yyyy"}
# British English, as the portal's script formats times in the browser (Intl en-GB): "6 Sept 2026".
LOCALE = {"de": "de_DE", "en": "en_GB"}


def N_(msgid: str) -> str:
    """Marks a message id for `pybabel extract`."""
    return msgid


# A document's status as staff read it (the portal has the client's own words, leadflow.web.i18n).
STATUS = {
    "PENDING": N_("Received"),
    "PROCESSING": N_("Being checked"),
    "EXTRACTING": N_("Being read"),
    "VERIFIED": N_("Verified"),
    "REJECTED": N_("Rejected"),
    "ACTION_REQUIRED": N_("Needs a person"),
}

# Who a person is (User.role), as the page's header names them.
ROLE = {
    "client": N_("Client"),
    "advisor": N_("Advisor"),
    "brokerage_admin": N_("Brokerage admin"),
    "platform_admin": N_("Platform admin"),
}

# Why a document was rejected or handed to a person (leadflow.domain.lifecycle.RejectionCode).
REJECTION = {
    "VERIFICATION_FAILED": N_("It did not pass the checks"),
    "ILLEGIBLE": N_("Illegible"),
    "UNSUPPORTED_FILE": N_("File type not supported"),
    "FILE_MISSING": N_("The file never reached storage"),
    "TOO_MANY_PAGES": N_("Too many pages"),
    "FILE_TOO_LARGE": N_("The file is too large"),
    "UNREADABLE": N_("The file is damaged"),
    "REJECTED_BY_REVIEWER": N_("Rejected by a reviewer"),
    "SYSTEM_RETRIES_EXHAUSTED": N_("Our system failed; its automatic retries are used up"),
    "SYSTEM_EXTRACTION_FAILED": N_("Our reading service failed"),
    "SYSTEM_SUBMISSION_FAILED": N_("The file could not be sent to our reading service"),
    "PACKET_SPLIT_UNSURE": N_("Where its documents begin is unsure"),
    "PACKET_PART_MERGED": N_("Its pages are part of another document now"),
    "WAITING_FOR_ALLOWANCE": N_("Waiting for tomorrow's page allowance"),
}

# What happened to a document, as its history lists it (AuditEntry.action).
ACTION = {
    "uploaded": N_("Uploaded"),
    "claimed": N_("Taken up for checking"),
    "status_changed": N_("Status changed"),
    "precheck_failed": N_("Failed the file checks"),
    "attempt_failed": N_("An attempt failed"),
    "waiting_for_service": N_("Waiting for the reading service"),
    "waiting_for_credits": N_("Waiting for credits"),
    "waiting_for_allowance": N_("Waiting for tomorrow's page allowance"),
    "extraction_started": N_("Sent for reading"),
    "extraction_completed": N_("Read"),
    "extraction_failed": N_("Reading failed"),
    "deadline_passed": N_("Reading took too long"),
    "stalled_reset": N_("Started again after a stall"),
    "submission_retry": N_("Sending again"),
    "system_retries_spent": N_("Automatic retries used up"),
    "retried": N_("Tried again"),
    "reverted": N_("Back to the original reading"),
    "corrected": N_("Corrected"),
    "reviewer_read_fields": N_("Fields typed by a reviewer"),
    "reviewer_rejected": N_("Rejected by a reviewer"),
    "type_decided": N_("Type decided by a reviewer"),
    "shared": N_("Shared"),
    "reprocessed": N_("Read again"),
    "customised": N_("Read in another shape"),
    "generated": N_("First reading"),
    # packets (issue 40): one upload holding several documents
    "packet_split": N_("Split into its documents"),
    "packet_unsure": N_("Split unsure: waits for a person"),
    "packet_single": N_("Found to hold one document"),
    "split_from_packet": N_("Found in an upload of several documents"),
    "packet_resplit": N_("Pages or type corrected: read again"),
    "packet_part_merged": N_("Pages given to another document"),
    "packet_corrected": N_("Split corrected"),
    "resplit": N_("Read again after the split was corrected"),
    "move_boundary": N_("boundary moved"),
    "change_type": N_("type changed"),
    "original": N_("Original"),
}

# The extraction service's failure codes (leadflow/extractor/errors.py) and notes' codes.
OTHER = {
    "fetch_failed": N_("the file could not be fetched"),
    "unsupported_type": N_("the file type is not supported"),
    "unreadable": N_("the file is damaged"),
    "too_large": N_("the file is too large"),
    "internal_error": N_("a fault of the reading service"),
    "busy": N_("the reading service was busy"),
    "failed": N_("it failed"),
    "fields_unreadable": N_("some fields could not be read"),
    "type_unclear": N_("the type was not clear"),
    "hard_to_read": N_("only a little could be read"),
    "reprocess": N_("read again"),
    "customise": N_("read in another shape"),
}

# A read field's name as a page labels it (the extractor's keys, leadflow/extractor/fields): the
# brokerage's words, as a German advisor reads them on the document itself.
FIELD = {
    "period": N_("Pay month"), "period_start": N_("Period start"), "period_end": N_("Period end"),
    "gross": N_("Gross pay"), "net": N_("Net pay"), "payout": N_("Payout"), "tax_class": N_("Tax class"),
    "income_tax": N_("Income tax"), "solidarity_surcharge": N_("Solidarity surcharge"), "wage_tax": N_("Wage tax"),
    "employer": N_("Employer"), "employee": N_("Employee"), "holder": N_("Account holder"), "bank": N_("Bank"),
    "iban": N_("IBAN"), "opening_balance": N_("Opening balance"), "closing_balance": N_("Closing balance"),
    "bookings": N_("Bookings"), "salary_credits": N_("Salary credits"), "currency": N_("Currency"),
    "start_date": N_("Start date"), "annual_salary": N_("Annual salary"), "year": N_("Year"),
    "gross_wages": N_("Gross wages"), "tax_year": N_("Tax year"), "taxable_income": N_("Taxable income"),
    "tax_office": N_("Tax office"), "tax_number": N_("Tax number"), "surname": N_("Surname"),
    "given_names": N_("Given names"), "birth_date": N_("Date of birth"), "expiry_date": N_("Expiry date"),
    "nationality": N_("Nationality"), "issuing_country": N_("Issuing country"), "sex": N_("Sex"),
    "document_number": N_("Document number"), "document_code": N_("Document code"),
    "mrz_valid": N_("Machine-readable zone valid"), "mrz_format": N_("Format of the machine-readable zone"),
    "issuer": N_("Issuer"), "date": N_("Date"), "total": N_("Total"), "tax": N_("Tax"), "amount": N_("Amount"),
    "description": N_("Description"), "purpose": N_("Purpose"),
}
ACRONYMS = {"iban", "bic", "id", "mrz", "vat", "ust", "eur"}

UNKNOWN = N_("Something else")
"""The words for a code none of the tables knows: never the code itself."""

UPPER_CODE = re.compile(r"\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+\b")
LOWER_CODE = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b")


def say(msgid: str, language: str) -> str:
    """A message id in the language (English for any other)."""
    return _catalog(language).gettext(msgid) if language != DEFAULT else msgid


def status(code: str | None, language: str) -> str:
    return say(STATUS.get(code or "", UNKNOWN), language)


def code(value: str | None, language: str) -> str:
    """Any code a page may meet, as words; the general word for one no table knows."""
    value = str(value or "")
    for table in (STATUS, REJECTION, ACTION, OTHER, ROLE):
        if value in table:
            return say(table[value], language)
        if value.lower() in table:
            return say(table[value.lower()], language)
    if value in document_types.TYPES:
        return say(document_types.TYPES[value].name, language)
    return say(UNKNOWN, language)


def field(name: str | None, language: str) -> str:
    """A read field's label: 'closing_balance' -> 'Closing balance' / 'Schlusssaldo'; a key the
    table does not know (one a person named when customising) as its words, 'iban' as 'IBAN'."""
    name = str(name or "")
    if name in FIELD:
        return say(FIELD[name], language)
    parts = [w.upper() if w.lower() in ACRONYMS else w for w in name.replace("_", " ").split()]
    if parts and parts[0] == parts[0].lower():
        parts[0] = parts[0][:1].upper() + parts[0][1:]
    return " ".join(parts) or name


def without_codes(text: str | None, language: str) -> str:
    """Free text (a history note, an old stored note, a check naming documents) with the codes in
    it put into words: those a table knows, and any of our SYSTEM_ family. Nothing else: a word
    joined by underscores may be a client's file name or title (IMG_2041.jpg, payslip_october)."""
    def said(match):
        found = match.group(0)
        return code(found, language) if _known(found) or found.startswith("SYSTEM_") else found
    return LOWER_CODE.sub(said, UPPER_CODE.sub(said, str(text or "")))


# --- numbers ----------------------------------------------------------------------------------

def number(value, language: str) -> str:
    """A count as the language groups it: 1,000 in English, 1.000 in German."""
    return format_decimal(value, format="#,##0", locale=LOCALE[_lang(language)])


def money(value, language: str) -> str:
    """Euros with cents: 3,394.72 € in English, 3.394,72 € in German; a dash for none."""
    if value is None:
        return "—"
    return format_decimal(value, format="#,##0.00", locale=LOCALE[_lang(language)]) + " €"


# --- dates ------------------------------------------------------------------------------------

def day(value, language: str) -> str:
    """A date (or the day of a datetime) in the language's one format; '' for none."""
    if value is None or value == "":
        return ""
    if isinstance(value, str):
        parsed = parse_day(value)
        return day(parsed, language) if parsed else value
    if isinstance(value, datetime):
        value = value.date()
    return format_date(value, DAY[_lang(language)], locale=LOCALE[_lang(language)])


def moment(value, language: str) -> str:
    """A datetime as its day and minute in the language's format; '' for none."""
    if value is None:
        return ""
    if not isinstance(value, datetime):
        return day(value, language)
    if value.tzinfo is None and value.year >= 1000:
        # A stored time (naive, UTC): the same text as Babel's MOMENT pattern, put together
        # directly; Babel's formatting cost 25-50 µs a time, and a dashboard page shows a hundred.
        if _lang(language) == "de":
            return f"{value.day:02d}.{value.month:02d}.{value.year}, {value.hour:02d}:{value.minute:02d}"
        return f"{value.day} {_MONTHS_SHORT_EN[value.month]} {value.year}, {value.hour:02d}:{value.minute:02d}"
    return format_datetime(value, MOMENT[_lang(language)], tzinfo=timezone.utc, locale=LOCALE[_lang(language)])


# English months as the en_GB locale abbreviates them ("Sept"): MOMENT's MMM.
_MONTHS_SHORT_EN = Locale.parse(LOCALE["en"]).months["format"]["abbreviated"]


def month(value, language: str) -> str:
    """A month (a date, or a string `parse_month` reads) as the language writes it: 'Dec 2026',
    '12/2026'."""
    if isinstance(value, str):
        parsed = parse_month(value)
        if parsed is None:
            return value
        value = parsed
    return format_date(value, MONTH[_lang(language)], locale=LOCALE[_lang(language)])


def parse_month(text: str | None) -> date | None:
    """The month a whole string names: '2026-08', '08/2026', 'Aug 2026', 'August 2026',
    'Oktober 2026' (its first day); None for anything else."""
    text = (text or "").strip()
    found = re.fullmatch(r"(\d{4})-(\d{2})|(\d{1,2})/(\d{4})|" + _MONTH_NAME + r"\.?\s+(\d{4})", text, re.IGNORECASE)
    if not found:
        return None
    try:
        if found.group(1):
            return date(int(found.group(1)), int(found.group(2)), 1)
        if found.group(3):
            return date(int(found.group(4)), int(found.group(3)), 1)
        return date(int(found.group(6)), MONTHS[found.group("mname").lower()], 1)
    except ValueError:
        return None


def shown(value, language: str):
    """A read value as the page shows it: a whole date or month in the language's format,
    anything else as it is; `read_back` undoes it."""
    if isinstance(value, str):
        if parse_day(value):
            return day(value, language)
        if parse_month(value):
            return month(value, language)
    return value


def read_back(text: str, was=None) -> str:
    """What a person left or typed in a box `shown` filled: the value as it was read where it
    still names the same day or month (an untouched box changes nothing), else a date or month
    typed in either language as ISO (2026-12-06, 2026-12), else the text as typed."""
    typed_day, typed_month = parse_day(text), None if parse_day(text) else parse_month(text)
    if typed_day is not None:
        return was if isinstance(was, str) and parse_day(was) == typed_day else typed_day.isoformat()
    if typed_month is not None:
        return was if isinstance(was, str) and parse_month(was) == typed_month else typed_month.strftime("%Y-%m")
    return text


MONTHS = {name: n for n, names in enumerate((
    ("january", "jan", "januar", "jän", "jänner"), ("february", "feb", "februar"), ("march", "mar", "märz", "mär", "maerz"),
    ("april", "apr"), ("may", "mai"), ("june", "jun", "juni"), ("july", "jul", "juli"),
    ("august", "aug"), ("september", "sep", "sept"), ("october", "oct", "oktober", "okt"),
    ("november", "nov"), ("december", "dec", "dezember", "dez")), start=1) for name in names}
_MONTH_NAME = r"(?P<mname>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")"
# Date-looking strings in free text: ISO (with an optional time), day.month.year, day/month/year
# (read day first, as in Europe), "15 April 2012", "15. April 2012", "April 15, 2012".
DATE_IN_TEXT = re.compile(
    r"\b(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})(?:[T ](?P<ih>\d{2}):(?P<imin>\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?!\d)"
    r"|\b(?P<nd>\d{1,2})[./](?P<nm>\d{1,2})[./](?P<ny>\d{4})\b"
    r"|\b(?P<wd>\d{1,2})\.?\s+" + _MONTH_NAME + r"\.?,?\s+(?P<wy>\d{4})\b"
    r"|\b(?P<mname2>" + "|".join(sorted(MONTHS, key=len, reverse=True)) + r")\.?\s+(?P<md>\d{1,2}),?\s+(?P<my>\d{4})\b",
    re.IGNORECASE)


# A month written as machines write it (a payslip's period, "2026-08"), alone in free text.
ISO_MONTH = re.compile(r"(?<![\d-])\d{4}-(?:0[1-9]|1[0-2])(?![\d-])")


def parse_day(text: str | None) -> date | None:
    """The date a whole string names in any of the formats above (a person's typing in either
    language, a value as read from a document); None when it names no valid date."""
    text = (text or "").strip()
    match = DATE_IN_TEXT.fullmatch(text)
    if not match or match.group("ih"):
        return None
    return _date_of(match)


def dates_in(text, language: str, _depth: int = 0):
    """Free text with every valid date in it written in the language's format; the strings of a
    list or object likewise (to a depth read values never reach); anything else as it is."""
    if _depth > 20:
        return text
    if isinstance(text, dict):
        return {key: dates_in(value, language, _depth + 1) for key, value in text.items()}
    if isinstance(text, list):
        return [dates_in(value, language, _depth + 1) for value in text]
    if not isinstance(text, str):
        return text
    text = DATE_IN_TEXT.sub(lambda m: _reformat(m, language), text)
    return ISO_MONTH.sub(lambda m: month(m.group(0), language), text)


# --- helpers -------------------------------------------------------------------------------

def _reformat(match, language: str) -> str:
    found = _date_of(match)
    if found is None:
        return match.group(0)
    if match.group("ih"):
        return moment(datetime(found.year, found.month, found.day, int(match.group("ih")), int(match.group("imin"))),
                      language)
    return day(found, language)


def _date_of(match) -> date | None:
    g = match.groupdict()
    try:
        if g["iy"]:
            return date(int(g["iy"]), int(g["im"]), int(g["id"]))
        if g["ny"]:
            return date(int(g["ny"]), int(g["nm"]), int(g["nd"]))
        if g["wy"]:
            return date(int(g["wy"]), MONTHS[g["mname"].lower()], int(g["wd"]))
        return date(int(g["my"]), MONTHS[g["mname2"].lower()], int(g["md"]))
    except (ValueError, KeyError):
        return None


def _known(value: str) -> bool:
    return any(value in table for table in (STATUS, REJECTION, ACTION, OTHER)) or value in document_types.TYPES


def _lang(language: str | None) -> str:
    return language if language in LANGUAGES else DEFAULT


@lru_cache(maxsize=None)
def _catalog(language: str):
    # Without a compiled catalog the words fall back to English, as leadflow.notes does.
    found = Translations.load(str(config.ROOT / "translations"), [language])
    return found if isinstance(found, Translations) else NullTranslations()
