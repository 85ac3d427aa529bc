"""Codes as words and dates in one format per language (leadflow/words.py), without an app."""
from datetime import date, datetime

import pytest

from leadflow import words
from leadflow.domain.lifecycle import RejectionCode, Status


@pytest.mark.parametrize("language, day, moment", [("en", "6 Dec 2026", "6 Dec 2026, 09:05"),
                                                    ("de", "06.12.2026", "06.12.2026, 09:05")])
def test_each_language_has_one_format_for_a_day_and_one_for_a_moment(language, day, moment):
    assert words.day(date(2026, 12, 6), language) == day
    assert words.day(datetime(2026, 12, 6, 23, 59), language) == day
    assert words.moment(datetime(2026, 12, 6, 9, 5), language) == moment
    assert words.day("2026-12-06", language) == day
    assert words.day(date(2026, 9, 6), language) == {"en": "6 Sept 2026", "de": "06.09.2026"}[language]


@pytest.mark.parametrize("typed", ["2026-12-06", "06.12.2026", "6.12.2026", "6 Dec 2026", "6 December 2026",
                                   "6. Dezember 2026", "December 6, 2026", "06/12/2026"])
def test_a_date_typed_in_either_language_reads_back_as_the_same_day(typed):
    assert words.parse_day(typed) == date(2026, 12, 6)


@pytest.mark.parametrize("not_a_day", ["31.02.2026", "10/2026", "2.345,67", "on 2026-12-06", "", "2026-12-06T10:00"])
def test_what_is_not_a_whole_valid_date_is_not_read_as_one(not_a_day):
    assert words.parse_day(not_a_day) is None


def test_dates_inside_text_take_the_languages_format_and_anything_else_stays():
    text = "Valid until 2027-03-06; born 15 April 2012; 31.02.2026 and 2.345,67 stay."
    assert words.dates_in(text, "de") == "Valid until 06.03.2027; born 15.04.2012; 31.02.2026 and 2.345,67 stay."
    assert words.dates_in(text, "en") == "Valid until 6 Mar 2027; born 15 Apr 2012; 31.02.2026 and 2.345,67 stay."
    assert words.dates_in({"b": [{"date": "2026-08-03"}], "n": 3}, "de") == {"b": [{"date": "03.08.2026"}], "n": 3}


def test_every_status_and_rejection_code_has_words_in_both_languages():
    for code in [*Status, *RejectionCode]:
        for language in ("en", "de"):
            said = words.code(code.value, language)
            assert said and "_" not in said and said != code.value and said != words.say(words.UNKNOWN, language)
    assert words.status("VERIFIED", "de") == "Geprüft" and words.status("VERIFIED", "en") == "Verified"


def test_an_unknown_code_is_one_general_word_never_itself():
    assert words.code("SOMETHING_NEW", "en") == "Something else"
    assert words.code("SOMETHING_NEW", "de") == "Etwas anderes"
    assert words.status(None, "en") == "Something else"


def test_codes_in_free_text_become_words_but_a_file_name_stays():
    said = words.without_codes("retry after SYSTEM_EXTRACTION_FAILED; decided: bank_statement; my_payslip.pdf, "
                               "IMG_2041.JPG; SYSTEM_NEW", "en")
    assert said == ("retry after Our reading service failed; decided: Bank statement; my_payslip.pdf, "
                    "IMG_2041.JPG; Something else")


def test_a_month_reads_in_either_language_and_shows_in_the_pages():
    for typed in ("2026-08", "08/2026", "8/2026", "Aug 2026", "August 2026", "Aug. 2026"):
        assert words.parse_month(typed) == date(2026, 8, 1), typed
    assert words.parse_month("13/2026") is None and words.parse_month("in 2026-08") is None
    assert words.shown("2026-08", "de") == "08/2026" and words.shown("2026-08", "en") == "Aug 2026"
    assert words.dates_in("payslips 2026-08: 2,351.92 €", "de") == "payslips 08/2026: 2,351.92 €"


def test_a_value_read_back_is_as_it_was_when_untouched_and_iso_when_typed_anew():
    assert words.read_back("08/2026", "2026-08") == "2026-08"
    assert words.read_back("09/2026", "2026-08") == "2026-09"
    assert words.read_back("15.04.2012", "15 April 2012") == "15 April 2012"
    assert words.read_back("6 Dec 2026", "2026-12-05") == "2026-12-06"
    assert words.read_back("not a date", "2026-12-05") == "not a date"


@pytest.mark.parametrize("language, holder, iban, mine", [("en", "Account holder", "IBAN", "Net pay month"),
                                                          ("de", "Kontoinhaber", "IBAN", "Net pay month")])
def test_a_read_field_is_labelled_in_the_brokerages_words_and_an_unknown_key_as_its_words(language, holder, iban, mine):
    assert words.field("holder", language) == holder
    assert words.field("iban", language) == iban
    assert words.field("net_pay_month", language) == mine   # named by a person when customising
    assert words.field("period", language) == {"en": "Pay month", "de": "Abrechnungsmonat"}[language]


@pytest.mark.parametrize("language, count, euros", [("en", "12,345", "3,394.72 €"), ("de", "12.345", "3.394,72 €")])
def test_counts_and_euros_are_grouped_as_the_language_groups_them(language, count, euros):
    assert words.number(12345, language) == count
    assert words.money(3394.72, language) == euros
    assert words.money(None, language) == "—"


def test_a_refusal_keeps_its_message_id_and_values_and_says_them_filled_in():
    from leadflow.errors import Conflict
    refused = Conflict("This document’s status is “%(status)s”; wait until it is finished.", status="EXTRACTING")
    assert refused.message == str(refused) == "This document’s status is “EXTRACTING”; wait until it is finished."
    assert refused.msgid.startswith("This document’s status is “%(status)s”") and refused.values == {"status": "EXTRACTING"}
    assert Conflict("100% sure, nothing to fill in").message == "100% sure, nothing to fill in"


def test_a_stored_time_reads_as_babels_pattern_for_it_in_both_languages():
    """moment() puts a stored (naive, UTC) time together itself: the text is Babel's, byte for byte."""
    from datetime import datetime, timedelta, timezone

    from babel.dates import format_datetime
    value = datetime(2024, 1, 1, 0, 0)
    while value < datetime(2027, 1, 1):
        for language in ("en", "de"):
            assert words.moment(value, language) == format_datetime(
                value, words.MOMENT[language], tzinfo=timezone.utc, locale=words.LOCALE[language])
        value += timedelta(hours=13, minutes=7)
    assert words.moment(datetime(2026, 9, 6, 8, 5), "en") == "6 Sept 2026, 08:05"
    assert words.moment(datetime(2026, 9, 6, 8, 5), "de") == "06.09.2026, 08:05"
