"""The lender package's cover sheet: one PDF drawn with reportlab from what the package holds (the
client, the documents, the key figures, the case checks and their outcome).

Its words come from the catalogs under translations/ through Babel itself (as leadflow.notes does),
so a worker with no request renders the requesting advisor's language.
"""
import io
import os
from decimal import Decimal
from functools import lru_cache

from babel.support import NullTranslations, Translations
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle
from xml.sax.saxutils import escape

from leadflow import config
from leadflow.domain.document_types import N_

# Fonts with the letters of clients' names (ł, ő, ș...): DejaVu where the system has it, else the
# Vera font reportlab ships (Latin-1). COVER_SHEET_FONT names another TTF.
_FONT_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
               "/usr/share/fonts/dejavu/DejaVuSans.ttf")
_BOLD_PATHS = tuple(p.replace("DejaVuSans.ttf", "DejaVuSans-Bold.ttf") for p in _FONT_PATHS)
OUTCOME_COLOURS = {"ok": colors.HexColor("#1e7b34"), "warning": colors.HexColor("#9a6700"),
                   "problem": colors.HexColor("#b42318")}


WORDS = {
    "title": N_("Lender package"),
    "case": N_("Case"),
    "brokerage": N_("Brokerage"),
    "clients": N_("Client"),
    "built": N_("Prepared on"),
    "documents": N_("Documents"),
    "file": N_("File"),
    "item": N_("Checklist item"),
    "verified": N_("Verified on"),
    "figures": N_("Key figures"),
    "average_net": N_("Average net pay (last three payslips)"),
    "average_gross": N_("Average gross pay (last three payslips)"),
    "annual_gross": N_("Annual gross (12 × average)"),
    "contract_annual": N_("Annual salary in the employment contract"),
    "certified_gross": N_("Gross wages on the wage tax certificate"),
    "checks": N_("Case checks"),
    "outcome": N_("Overall outcome"),
    "no_checks": N_("The case checks were not available when this package was built."),
    "ok": N_("ok"),
    "warning": N_("warning"),
    "problem": N_("problem"),
    "not_checked": N_("not checked"),
}


def render(case: dict, documents: list[dict], language: str = "en") -> bytes:
    """The cover sheet as PDF bytes. `case` and `documents` are what services.packages gathered."""
    _ = _catalog(language).gettext
    regular, bold = _fonts()
    styles = getSampleStyleSheet()
    body = ParagraphStyle("body", parent=styles["BodyText"], fontName=regular, fontSize=9, leading=12)
    small = ParagraphStyle("small", parent=body, fontSize=8, leading=10)
    heading = ParagraphStyle("heading", parent=styles["Heading2"], fontName=bold, fontSize=12, spaceBefore=8)
    title = ParagraphStyle("title", parent=styles["Title"], fontName=bold, fontSize=18)

    def p(text, style=body):
        return Paragraph(escape(str(text if text is not None else "")), style)

    story = [p(f"{_(WORDS['title'])}: {case['case_name']}", title),
             _table([[p(_(WORDS["case"])), p(f"#{case['case_id']} {case['case_name']}")],
                     [p(_(WORDS["brokerage"])), p(case["brokerage"])],
                     [p(_(WORDS["clients"])), p(", ".join(f"{c['name']} <{c['email']}>" for c in case["clients"]))],
                     [p(_(WORDS["built"])), p(_day(case["built_at"]))]], [45 * mm, 125 * mm], bold),
             p(_(WORDS["documents"]), heading)]
    rows = [[p(_(WORDS["file"]), small), p(_(WORDS["item"]), small), p(_(WORDS["verified"]), small)]]
    rows += [[p(d["file"], small), p(f"{d['item_name']} · {d['title']}", small), p(_day(d["verified_at"]), small)]
             for d in documents]
    story.append(_table(rows, [60 * mm, 85 * mm, 25 * mm], bold, header=True))

    summary = case.get("summary")
    if summary:
        figures = [(WORDS[k], summary.get(k)) for k in
                   ("average_net", "average_gross", "annual_gross", "contract_annual", "certified_gross")]
        shown = [[p(_(label)), p(_money(value))] for label, value in figures if value is not None]
        if shown:
            story += [p(_(WORDS["figures"]), heading), _table(shown, [100 * mm, 70 * mm], bold)]

    story.append(p(_(WORDS["checks"]), heading))
    if case.get("checks"):
        outcome = case.get("outcome") or "not_checked"
        story.append(p(f"{_(WORDS['outcome'])}: {_(WORDS.get(outcome, outcome))}"))
        story.append(Spacer(1, 2 * mm))
        rows = [[p(_(WORDS.get(c["outcome"], c["outcome"])), small), p(c["title"] + (f" · {c['applicant']}" if c.get("applicant") else ""), small),
                 p(c["reason"], small)]
                for c in case["checks"]]
        table = _table(rows, [22 * mm, 45 * mm, 103 * mm], bold)
        for index, check in enumerate(case["checks"]):
            colour = OUTCOME_COLOURS.get(check["outcome"])
            if colour is not None:
                table.setStyle(TableStyle([("TEXTCOLOR", (0, index), (0, index), colour)]))
        story.append(table)
    else:
        story.append(p(_(WORDS["no_checks"])))

    out = io.BytesIO()
    document = SimpleDocTemplate(out, pagesize=A4, leftMargin=20 * mm, rightMargin=20 * mm, topMargin=18 * mm,
                                 bottomMargin=18 * mm, title=f"{_(WORDS['title'])}: {case['case_name']}",
                                 author=case["brokerage"])
    document.build(story)
    return out.getvalue()


def _table(rows, widths, bold, header: bool = False) -> Table:
    table = Table(rows, colWidths=widths, hAlign="LEFT")
    style = [("VALIGN", (0, 0), (-1, -1), "TOP"), ("LINEBELOW", (0, 0), (-1, -1), 0.25, colors.lightgrey),
             ("TOPPADDING", (0, 0), (-1, -1), 2), ("BOTTOMPADDING", (0, 0), (-1, -1), 2)]
    if header:
        style += [("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#eef1f5"))]
    table.setStyle(TableStyle(style))
    return table


def _money(value) -> str:
    if value is None:
        return ""
    try:
        return f"{Decimal(str(value)):,.2f} EUR"
    except ArithmeticError:
        return str(value)


def _day(value) -> str:
    return value.strftime("%d.%m.%Y") if hasattr(value, "strftime") else ""


@lru_cache(maxsize=None)
def _fonts() -> tuple[str, str]:
    chosen = os.environ.get("COVER_SHEET_FONT")
    regular = next((path for path in ((chosen,) if chosen else ()) + _FONT_PATHS if path and os.path.isfile(path)), None)
    bold = next((path for path in _BOLD_PATHS if os.path.isfile(path)), None)
    if regular is None:
        import reportlab
        base = os.path.join(os.path.dirname(reportlab.__file__), "fonts")
        regular, bold = os.path.join(base, "Vera.ttf"), os.path.join(base, "VeraBd.ttf")
    pdfmetrics.registerFont(TTFont("CoverSheet", regular))
    pdfmetrics.registerFont(TTFont("CoverSheet-Bold", bold or regular))
    return "CoverSheet", "CoverSheet-Bold"


def gettext(language: str):
    """The catalog's gettext for `language` (English when there is no catalog for it)."""
    return _catalog(language).gettext


@lru_cache(maxsize=None)
def _catalog(language: str):
    found = Translations.load(str(config.ROOT / "translations"), [language])
    return found if isinstance(found, Translations) else NullTranslations()
