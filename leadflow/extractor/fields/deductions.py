"""A payslip's deductions, read for its arithmetic: gross pay less the taxes and social insurance is
the net pay, and net pay less the deductions after it (a company car, a bike lease, a savings plan)
is the payout. The sums are no fields of the schema; the cross-checks choose gross, net and payout
among their candidates by them, and a value missing beside two that were read can be worked out."""
from decimal import Decimal

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.finding import lexicon
from leadflow.extractor.layout import Layout

DEDUCTIONS = "deductions"  # taxes and social insurance together
NET_DEDUCTIONS = "net_deductions"  # what is taken after net pay

# One lexicon per statutory deduction: each counts once, whichever of its labels is printed.
STATUTORY = (
    lexicon("lohn steuer", "wage tax", "income tax", r"re:lst\.?"),
    lexicon("solidaritäts zuschlag", r"re:solidarit\S*\s?zuschl\.?", "soli", "solz", "solidarity surcharge"),
    lexicon("kirchen steuer", "church tax", r"re:kist\.?", r"re:ki\.?\s?st\.?"),
    lexicon("kranken versicherung", r"re:kv(?:-|\s)?(?:beitrag|anteil|an)?", "health insurance", "krankenkasse"),
    lexicon("pflege versicherung", r"re:pv(?:-|\s)?(?:beitrag|anteil|an)?", "care insurance",
            "long-term care insurance", "nursing care insurance"),
    lexicon("renten versicherung", r"re:rv(?:-|\s)?(?:beitrag|anteil|an)?", "pension insurance"),
    lexicon("arbeitslosen versicherung", r"re:av(?:-|\s)?(?:beitrag|anteil|an)?", "unemployment insurance"),
)
TOTAL = lexicon("summe abzüge", "abzüge gesamt", "gesamt abzüge", "gesetzliche abzüge", "summe gesetzliche abzüge",
                "total deductions", "deductions total", "statutory deductions", "summe steuern und sv",
                "steuern und sozialversicherung", "summe der abzüge")
TOTAL_WEIGHT = 0.85
SUM_WEIGHT = 0.75


def offer_sums(f, layout: Layout, is_label, net_label, payout_label) -> None:
    """Offer the deductions' totals to the findings `f` (under DEDUCTIONS and NET_DEDUCTIONS)."""
    if not layout:
        return
    f.look(layout, DEDUCTIONS, TOTAL, _magnitude, is_label=is_label, weight=TOTAL_WEIGHT)
    f.offer(DEDUCTIONS, statutory_sum(layout, is_label), SUM_WEIGHT, "taxes and social insurance")
    f.offer(NET_DEDUCTIONS, between(layout, net_label, payout_label), SUM_WEIGHT, "between net pay and payout")


def statutory_sum(layout: Layout, is_label) -> str | None:
    """The sum of the taxes and social insurance read beside their labels (each label once, its
    first figure); None when fewer than two were read."""
    values = []
    for pattern in STATUTORY:
        found = layout.find(pattern, _magnitude, is_label=is_label, below=False)
        if found:
            values.append(Decimal(found[0].value))
    return f"{sum(values):.2f}" if len(values) >= MIN_TERMS else None


MIN_TERMS = 2


def between(layout: Layout, net_label, payout_label) -> str | None:
    """The sum of the figures on the lines between the net pay's line and the payout's below it,
    one a line (the deductions after net pay, whatever they are called); "0.00" when the payout's
    line follows the net pay's; None when the two are not found in that order on one page."""
    net_at = _line_with_figure(layout, net_label)
    if net_at is None:
        return None
    payout_at = next((li for li, _, _ in layout.labels(payout_label) if li > net_at
                      and layout.lines[li].page == layout.lines[net_at].page), None)
    if payout_at is None or payout_at - net_at > MAX_BETWEEN:
        return None
    total = Decimal("0")
    for line in layout.lines[net_at + 1:payout_at]:
        figures = p.amounts(line.text)
        if figures:
            total += abs(Decimal(figures[-1]))
    return f"{total:.2f}"


MAX_BETWEEN = 8  # lines: more between them and the two labels belong to different parts of the slip


def _line_with_figure(layout: Layout, label) -> int | None:
    for li, _, _ in layout.labels(label):
        if p.amounts(layout.lines[li].text):
            return li
    return None


def _magnitude(raw: str) -> str | None:
    """A deduction's figure without its sign ("-250,00", "250,00-" and "250,00" alike)."""
    value = p.amount(raw)
    return value.lstrip("-") if value is not None else None


def gross_less_deductions(gross: str, deductions: str, net: str) -> bool:
    return abs(Decimal(gross) - Decimal(deductions) - Decimal(net)) < CENT


def net_less_deductions(net: str, net_deductions: str, payout: str) -> bool:
    return abs(Decimal(net) - Decimal(net_deductions) - Decimal(payout)) < CENT


CENT = Decimal("0.01")
