"""Rules for a payslip: it is recent, it is not dated in the future, and net pay is below gross pay.

Recency, precisely: a payslip for month M is current through the last day of month M + 3 and
too old from the day after. The August 2026 payslip is accepted up to and including
30 November 2026 and refused from 1 December 2026. Put the other way round, the period's
month end lies within 3 calendar months before today (today minus 3 months, clamped to the
month's end), which is how lenders phrase it: "payslips of the last three months".
"""
from datetime import date

from leadflow.domain.verification import Applicant, Note
from leadflow.domain.verification.common import add_months, amount, incomplete, month_end, month_words, year_month

MAX_AGE_MONTHS = 3  # lenders ask for the last three payslips; older ones say nothing about today's income

ESSENTIAL = (  # field, English label, German label
    ("period", "the pay month", "der Abrechnungsmonat"),
    ("gross", "gross pay", "der Bruttoverdienst"),
    ("net", "net pay", "der Nettoverdienst"),
)


def check(fields: dict, applicant: Applicant, today: date) -> list[Note]:
    notes = []
    missing = [(en, de) for name, en, de in ESSENTIAL
               if (year_month(fields.get(name)) if name == "period" else amount(fields.get(name))) is None]
    if missing:
        notes.append(incomplete("payslip_incomplete", missing, "payslip",
                                "dieser Gehaltsabrechnung", "die vollständige Gehaltsabrechnung"))
    period = year_month(fields.get("period"))
    if period is not None:
        notes += _recency(period, today)
    gross, net = amount(fields.get("gross")), amount(fields.get("net"))
    if gross is not None and net is not None and not net < gross:
        notes.append(Note(
            "payslip_net_not_below_gross",
            "On this payslip the net pay is not lower than the gross pay, which cannot be right. "
            "Please upload the payslip exactly as your employer issued it.",
            "Auf dieser Gehaltsabrechnung ist der Nettoverdienst nicht niedriger als der Bruttoverdienst; das kann "
            "nicht stimmen. Bitte laden Sie die Gehaltsabrechnung so hoch, wie Ihr Arbeitgeber sie ausgestellt hat."))
    return notes


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
