"""Rules for a payslip: it is recent, it is not dated in the future, and net pay is not above gross pay.

Net pay equal to gross pay is genuine on a mini-job whose holder opted out of pension insurance
(no tax, no contributions), and it is also what a reader that took one amount twice reports:
a person looks, nobody is told their payslip is wrong.

Recency, precisely: a payslip for month M is current through the last day of month M + 3 and
too old from the day after. The August 2026 payslip is accepted up to and including
30 November 2026 and refused from 1 December 2026. Put the other way round, the period's
month end lies within 3 calendar months before today (today minus 3 months, clamped to the
month's end), which is how lenders phrase it: "payslips of the last three months".
"""
from datetime import date

from leadflow.domain.verification.notes import Applicant, Note
from leadflow.domain.verification.common import add_months, amount, month_end, month_words, year_month
from leadflow.domain.verification.spec import Check, Field, TypeRules

MAX_AGE_MONTHS = 3  # lenders ask for the last three payslips; older ones say nothing about today's income


def _recency_check(read: dict, applicant: Applicant, today: date) -> list[Note]:
    return _recency(read["period"], today)


def _net_not_above_gross(read: dict, applicant: Applicant, today: date) -> list[Note]:
    if read["net"] <= read["gross"]:
        return []
    return [Note(
        "payslip_net_above_gross",
        "On this payslip the net pay is higher than the gross pay, which cannot be right. "
        "Please upload the payslip exactly as your employer issued it.",
        "Auf dieser Gehaltsabrechnung ist der Nettoverdienst höher als der Bruttoverdienst; das kann "
        "nicht stimmen. Bitte laden Sie die Gehaltsabrechnung so hoch, wie Ihr Arbeitgeber sie ausgestellt hat.")]


def _net_equal_to_gross(read: dict, applicant: Applicant, today: date) -> list[Note]:
    if read["net"] != read["gross"]:
        return []
    return [Note(
        "payslip_net_equals_gross",
        "On this payslip the net pay is the same as the gross pay, as on a mini-job without deductions; "
        "a specialist will check it.",
        "Auf dieser Gehaltsabrechnung ist der Nettoverdienst so hoch wie der Bruttoverdienst, wie bei einem "
        "Minijob ohne Abzüge; eine Fachkraft prüft das.")]


RULES = TypeRules(
    on_en="on this payslip", on_de="auf dieser Gehaltsabrechnung",
    fields=(
        Field("period", "the pay month", "den Abrechnungsmonat", "m", year_month, "month"),
        Field("gross", "the gross pay", "den Bruttoverdienst", "m", amount, "amount"),
        Field("net", "the net pay", "den Nettoverdienst", "m", amount, "amount"),
    ),
    essential=("period", "gross", "net"),
    checks=(Check(("period",), _recency_check), Check(("gross", "net"), _net_not_above_gross),
            Check(("gross", "net"), _net_equal_to_gross, doubts=True)),
)


def last_accepted_day(period: date) -> date:
    """The last day on which the payslip for `period`'s month is still recent enough."""
    return month_end(add_months(period.replace(day=1), MAX_AGE_MONTHS))


def oldest_accepted_period(today: date) -> date:
    """The first day of the oldest pay month accepted on `today`."""
    return add_months(today.replace(day=1), -MAX_AGE_MONTHS)


def _recency(period: date, today: date) -> list[Note]:
    shown_en, shown_de = month_words(period)
    if period > today:
        return [Note(
            "payslip_period_in_future",
            f"This payslip is for {shown_en}, a month that has not begun yet. "
            "Please upload your latest payslip for a month that has already started.",
            f"Diese Gehaltsabrechnung ist für {shown_de}, einen Monat, der noch nicht begonnen hat. "
            "Bitte laden Sie Ihre letzte Gehaltsabrechnung für einen bereits begonnenen Monat hoch.")]
    if today > last_accepted_day(period):
        oldest_en, oldest_de = month_words(oldest_accepted_period(today))
        return [Note(
            "payslip_too_old",
            f"This payslip is for {shown_en}; we need one from the last {MAX_AGE_MONTHS} months "
            f"({oldest_en} or later). Please upload your latest payslip.",
            f"Diese Gehaltsabrechnung ist für {shown_de}; wir benötigen eine aus den letzten {MAX_AGE_MONTHS} Monaten "
            f"({oldest_de} oder später). Bitte laden Sie Ihre aktuelle Gehaltsabrechnung hoch.")]
    return []
