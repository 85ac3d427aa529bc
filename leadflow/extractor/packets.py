"""Splitting one upload into the documents it holds: every page typed, and judged as starting a new
document or continuing the one before, from the evidence papers carry (page numbers, a title block
and an address, the same account, issuer and period, balances carried over, the type changing).

Pure functions over pages already read (anything with `.text`, as reading.Page): the caller reads
the upload once and hands the pages here. Each boundary comes with the confidence of its decision,
so a caller can send an unsure split to a person instead of guessing."""
import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from leadflow.extractor import classify as classifier
from leadflow.extractor.pipeline import STRUCTURED_CONFIDENCE

SURE = 0.8  # a boundary or type decided less surely than this is a person's to look at
UNSURE = 0.5  # the confidence of a decision nothing on the page supports
HEAD_LINES = 14  # where a title block, an address and a period stand; a later page's repeated line too
TITLE_WEIGHT = 3  # a classifier keyword this heavy names a document: "Kontoauszug", "Payslip", "Rechnung"
TITLE_WORDS = 10  # a title is a short line; a sentence naming a document type is not its title
FIRST_YEAR, LAST_YEAR = 1990, 2100  # a four-digit number outside these is no year of a pay month or statement
TYPE_PAGES = 3  # a document's type, as a page after it is compared with, is read from its first pages
FEW_WORDS = 12  # a page with fewer words is a stray end of the document before it
SCALE = 1.5  # score to log-odds: a score of 3 is a confidence of about 0.88

# Evidence weights, in log-odds of "this page starts a new document"; positive starts, negative continues.
PRIOR = -1.0  # with nothing to go on, a page continues: one upload is most often one document
PAGE_ONE = 4.0
PAGE_FOLLOWS = -4.0  # "Seite 3" after "Seite 2", "2/3", or a later number alone
PREVIOUS_NOT_LAST = -3.0  # the page before said "2 von 3"
PREVIOUS_LAST = 2.5  # the page before said "3 von 3"
TYPE_CHANGES = 3.5
TITLE = 1.5
ADDRESS = 2.5  # a window envelope's block stands on a letter's first page only
ADDRESS_AGAIN = 1.0  # the same block again: a later page may repeat it, a new letter to the same person too
OTHER_REFERENCE = 1.0
SAME_REFERENCE = -1.0
MACHINE_ZONE = 2.5  # an identity card's or passport's zone is printed once, on its data page
OTHER_PERIOD = 2.0
SAME_PERIOD = -0.5
SAME_ACCOUNT = -1.5
OTHER_ACCOUNT = 1.0
REPEATED_HEAD = -1.0  # the page opens with what the document's pages so far already said (a running head)
REPEATED = 0.7  # share of a line's words found on the pages before for it to count as repeated
CARRIED_OVER = -3.5
NOT_CARRIED = 1.0
FEW = -1.5

# "Seite 2 von 3", "Page 2 of 3", "Blatt 2", "S. 2/3", "2/3" or "- 2 -" alone on a line.
PAGE_NUMBER = re.compile(r"\b(?:seite|page|blatt|pg\.?|s\.)\s*(\d{1,3})(?:\s*(?:von|of|/|aus|de)\s*(\d{1,3}))?\b",
                         re.IGNORECASE)
BARE_PAGE_NUMBER = re.compile(r"^\s*(?:(\d{1,2})\s*/\s*(\d{1,2})|-\s*(\d{1,2})\s*-)\s*$")
# A German postcode before a town: the window envelope's last line.
POSTCODE_TOWN = re.compile(r"(?:^|\s)(?:D-|DE-)?(\d{5})\s+(?!EUR|USD|GBP|CHF)"
                           r"[A-ZÄÖÜ][A-Za-zÄÖÜäöüß]{2,}")
# A reference a paper carries once per document: "Bon-Nr. 40684", "Rechnungsnummer: RE-2026-11", "No. 5/2026".
REFERENCE = re.compile(r"(?:\bnr|\bno|nummer|number|\bref)\.?\s*:?\s*#?\s*([A-Z]{0,4}[-/]?\d[\dA-Z/.-]{2,})",
                       re.IGNORECASE)
IBAN = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}(?:\s?[A-Z0-9]{1,3})?\b")
# Lines that state a running balance: opening, closing, carried over, a subtotal carried to the next page.
BALANCE_LINE = re.compile(r"saldo|kontostand|übertrag|uebertrag|vortrag|zwischensumme|\bbalance\b|carried forward"
                          r"|brought forward", re.IGNORECASE)
AMOUNT = re.compile(r"(?<![\d.,])([-−]\s?)?(?:EUR\s?|€\s?)?([-−]\s?)?(\d{1,3}(?:[.,' ]?\d{3})*[.,]\d{2})(?![\d])"
                    r"(\s?-|\s?(?:S|DR|Dr|Soll)\b)?")
TABLE_ROW = re.compile(r"\d{1,4}[./-]\d{1,2}")
MONTHS = {"jan": 1, "feb": 2, "mär": 3, "mar": 3, "maer": 3, "apr": 4, "mai": 5, "may": 5, "jun": 6, "jul": 7,
          "aug": 8, "sep": 9, "okt": 10, "oct": 10, "nov": 11, "dez": 12, "dec": 12}
MONTH_NAME = re.compile(r"\b(jan|feb|mär|maer|mar|apr|mai|may|jun|jul|aug|sep|okt|oct|nov|dez|dec)[a-zä]*\.?"
                        r"\s+(\d{4})\b", re.IGNORECASE)
MONTH_NUMBER = re.compile(r"(?<![\d.,/])(?:\d{1,2}\.)?(\d{1,2})[./](\d{4})\b|\b(\d{4})-(\d{2})(?:-\d{2})?\b")


@dataclass(frozen=True)
class PageJudgement:
    """One page: its own type, and whether it starts a document (with how sure that is, and why)."""
    number: int
    document_type: str
    confidence: float
    starts: bool
    boundary_confidence: float
    evidence: tuple[str, ...] = ()


@dataclass(frozen=True)
class Part:
    """A run of pages judged to be one document (page numbers from 1, both ends included)."""
    first: int
    last: int
    document_type: str
    confidence: float  # of its type, from its pages read together as one upload would be
    boundary_confidence: float  # the less sure of its two edges

    @property
    def pages(self) -> range:
        return range(self.first, self.last + 1)

    @property
    def sure(self) -> bool:
        """Whether a pipeline may take the part as it is; otherwise a person looks at the split."""
        return self.document_type != classifier.UNKNOWN and self.boundary_confidence >= SURE


@dataclass(frozen=True)
class Signs:
    """What one page shows that bears on where documents begin and end."""
    document_type: str
    confidence: float
    number: int | None
    of: int | None
    titles: tuple  # head lines that name a document type on their own
    address: str | None  # the postcode of a window envelope's block in the head
    references: frozenset
    accounts: frozenset
    period: tuple | None  # the latest (year, month) the head names
    period_text: str  # as printed (compact), to tell a period repeated from the document's pages
    opening: Decimal | None  # the first running balance on the page
    closing: Decimal | None  # the last one
    first_line: str
    zone: bool  # a machine-readable zone
    blank: bool  # nothing read on the page
    words: int


@dataclass(frozen=True)
class Document:
    """The document a page would continue: its type and period so far, and every word on its pages."""
    document_type: str
    period: tuple | None
    words: frozenset
    compact: str  # its pages' text without spaces, case-folded: where a reference number is looked for


def split(pages) -> list[Part]:
    """The parts of an upload, in page order; a single document is one part."""
    if any(getattr(page, "method", None) == "xml" for page in pages):
        # A camt.053 or MT940 file is a bank's statement file by its format, not a scanned stack: its
        # "pages" (one per statement) are counted for billing, not read, and it stays whole.
        return [Part(1, len(pages), "bank_statement", STRUCTURED_CONFIDENCE, 1.0)]
    judged = judge(pages)
    starts = [index for index, page in enumerate(judged) if page.starts] or [0]
    parts = []
    for at, first in enumerate(starts):
        last = (starts[at + 1] if at + 1 < len(starts) else len(judged)) - 1
        text = "\n\n".join(pages[i].text for i in range(first, last + 1) if pages[i].text)
        document_type, confidence = classifier.classify(text)
        edges = [judged[first].boundary_confidence]
        if last + 1 < len(judged):
            edges.append(judged[last + 1].boundary_confidence)
        parts.append(Part(first + 1, last + 1, document_type, confidence, min(edges)))
    return parts


def judge(pages) -> list[PageJudgement]:
    """Every page's type and its start-or-continue decision, each against the document before it.

    A page on which nothing was read (a blank back side, or a scan OCR could not read) says nothing
    of itself: the page after it decides. If that one continues the document before, the blank page
    lies inside it; otherwise the blank page is a part of its own. Either way it is unsure."""
    signs = [signs_of(page.text or "") for page in pages]
    judged: dict[int, PageJudgement] = {}
    document: list[int] = []  # the pages read so far of the document being built
    before: Document | None = None  # what those pages say, as the next page is judged against
    blanks: list[int] = []  # pages with nothing read since the last page read
    for index, own in enumerate(signs):
        if index == 0:
            judged[0] = PageJudgement(1, own.document_type, own.confidence, True, 1.0, ("first page",))
            if not own.blank:
                document, before = [0], _grown(pages, signs, [0], None)
            continue
        if own.blank:
            blanks.append(index)
            continue
        if before is not None:
            score, evidence = boundary_score(signs[document[-1]], own, before)
            confidence = round(max(_logistic(score), 1 - _logistic(score)), 2)
        else:  # only blank pages before it: it continues the upload's first part
            score, evidence, confidence = -1.0, ("nothing read before",), UNSURE
        starts = score > 0
        _place_blanks(judged, signs, blanks, starts)
        blanks = []
        judged[index] = PageJudgement(index + 1, own.document_type, own.confidence, starts, confidence, evidence)
        document = [index] if starts else document + [index]
        before = _grown(pages, signs, document, None if starts else before)
    _place_blanks(judged, signs, blanks, True)
    return [judged[index] for index in range(len(pages))]


def boundary_score(before: Signs, page: Signs, document: Document) -> tuple[float, tuple]:
    """Log-odds (times SCALE) that `page` starts a new document after the page `before`, which
    ends `document`; with the reasons, for a person looking at the split."""
    found: list[tuple[str, float]] = []
    if page.number is not None:
        if page.number == 1:
            found.append(("page 1", PAGE_ONE))
        elif page.number > 1 and (before.number is None or page.number == before.number + 1
                                  or page.of == before.of):
            found.append((f"page {page.number}", PAGE_FOLLOWS))
    if before.number is not None and before.of is not None and page.number is None:
        if before.number < before.of:
            found.append((f"page before was {before.number} of {before.of}", PREVIOUS_NOT_LAST))
        elif before.number == before.of:
            found.append(("page before was the last", PREVIOUS_LAST))
    if (page.document_type != classifier.UNKNOWN and document.document_type != classifier.UNKNOWN
            and page.document_type != document.document_type):
        found.append((f"type {document.document_type} -> {page.document_type}", TYPE_CHANGES))
    if any(not _repeated(line, document.words) for line in page.titles):
        found.append(("title block", TITLE))
    if page.address:
        found.append(("address block again", ADDRESS_AGAIN) if page.address in document.words
                     else ("address block", ADDRESS))
    if page.references:
        found.append(("its reference number again", SAME_REFERENCE)
                     if any(reference in document.compact for reference in page.references)
                     else ("another reference number", OTHER_REFERENCE))
    if page.zone:
        found.append(("machine-readable zone", MACHINE_ZONE))
    if page.period and document.period:
        # A running head repeats what the document said ("Nr. 3/2026"): no new period, whatever it reads as.
        again = page.period == document.period or page.period_text in document.compact
        found.append(("same period", SAME_PERIOD) if again else ("another period", OTHER_PERIOD))
    if page.accounts and before.accounts:
        found.append(("same account", SAME_ACCOUNT) if page.accounts & before.accounts
                     else ("another account", OTHER_ACCOUNT))
    if _repeated(page.first_line, document.words):
        found.append(("opens with the document's own head", REPEATED_HEAD))
    if page.opening is not None and before.closing is not None:
        found.append(("balance carried over", CARRIED_OVER) if abs(page.opening) == abs(before.closing)
                     else ("balance not carried over", NOT_CARRIED))
    if page.words < FEW_WORDS and not page.titles:
        found.append(("almost empty page", FEW))
    score = PRIOR + sum(weight for _, weight in found)
    return score, tuple(f"{reason} ({weight:+g})" for reason, weight in found)


def signs_of(text: str) -> Signs:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    head = lines[:HEAD_LINES]
    document_type, confidence = classifier.classify(text)
    number, of = _page_number(lines)
    # A balance opens a page from its upper half and closes it from its lower half: a page whose only
    # balance is its opening one has no closing one to carry over.
    balances = [(at, amount) for at, line in enumerate(lines) if BALANCE_LINE.search(line)
                for amount in _amounts(line)[-1:]]
    middle = len(lines) / 2
    return Signs(
        document_type=document_type, confidence=confidence, number=number, of=of,
        titles=tuple(line for line in head if _is_title(line)),
        address=next((m.group(1) for line in head for m in [POSTCODE_TOWN.search(line)] if m), None),
        references=frozenset(_compact(m.group(1)) for m in REFERENCE.finditer(text)),
        accounts=frozenset(re.sub(r"\s", "", m.group(0)) for m in IBAN.finditer(text)),
        # A table row (a booking's value date) names no period of the document.
        **_latest_month([line for line in head if not (classifier.BOOKING_LINE.search(line) or TABLE_ROW.match(line))]),
        opening=balances[0][1] if balances and balances[0][0] <= middle else None,
        closing=balances[-1][1] if balances and balances[-1][0] >= middle else None,
        first_line=lines[0] if lines else "", zone=classifier.mrz_document_code(text) is not None,
        blank=not re.search(r"\w", text),
        words=len(re.findall(r"[^\W\d_]{2,}", text)))


def _page_number(lines: list[str]) -> tuple[int | None, int | None]:
    """The page's own number (and the count, where printed), from its first or last lines only:
    a number inside the text ("siehe Seite 2") is not the page's."""
    for line in lines[:3] + lines[-3:]:
        found = PAGE_NUMBER.search(line)
        if found:
            number, of = int(found.group(1)), found.group(2)
            return number, int(of) if of else None
        bare = BARE_PAGE_NUMBER.match(line)
        if bare:
            if bare.group(3):
                return int(bare.group(3)), None
            number, of = int(bare.group(1)), int(bare.group(2))
            if 1 <= number <= of:
                return number, of
    return None, None


def _latest_month(lines: list[str]) -> dict:
    """The latest month a page's head names (a payslip's month, a statement's end, a letter's date),
    as Signs' `period` and `period_text`."""
    months = []
    for line in lines:
        for m in MONTH_NAME.finditer(line):
            months.append(((int(m.group(2)), MONTHS[m.group(1).lower()[:3].replace("mae", "mär")]), m.group(0)))
        for m in MONTH_NUMBER.finditer(line):
            year, month = (int(m.group(2)), int(m.group(1))) if m.group(2) else (int(m.group(3)), int(m.group(4)))
            if 1 <= month <= 12:
                months.append(((year, month), m.group(0)))
    plausible = [m for m in months if FIRST_YEAR <= m[0][0] <= LAST_YEAR]
    if not plausible:
        return {"period": None, "period_text": ""}
    period, text = max(plausible)
    return {"period": period, "period_text": _compact(text)}


def _amounts(line: str) -> list[Decimal]:
    found = []
    for m in AMOUNT.finditer(line):
        digits = m.group(3)
        separators = re.sub(r"\d", "", digits)
        decimal_mark = separators[-1]
        whole = re.sub(r"[.,' ]", "", digits[:-3])
        try:
            value = Decimal(f"{whole}.{digits[-2:]}") if decimal_mark in ".," else None
        except InvalidOperation:
            continue
        if value is None:
            continue
        negative = bool(m.group(1) or m.group(2) or m.group(4))
        found.append(-value if negative else value)
    return found


def _is_title(line: str) -> bool:
    if len(line.split()) > TITLE_WORDS:
        return False
    return any(weight >= TITLE_WEIGHT and pattern.search(line)
               for patterns in classifier.COMPILED.values() for pattern, weight in patterns)


def _compact(text: str) -> str:
    return re.sub(r"\s", "", text).casefold()


def _words(text: str) -> frozenset:
    return frozenset(w.casefold() for w in re.findall(r"[^\W_]{2,}", text))


def _repeated(line: str, words: frozenset) -> bool:
    """Whether most of a line's words (at least three) stand on the document's pages already."""
    own = [w.casefold() for w in re.findall(r"[^\W_]{2,}", line)]
    return len(own) >= 3 and sum(w in words for w in own) >= REPEATED * len(own)


def _grown(pages, signs: list, document: list[int], before: Document | None) -> Document:
    """The document with its newest page added (begun anew when `before` is None). Its type is read
    from its first pages only, where a document says what it is: a long statement costs no more."""
    newest = document[-1]
    text = pages[newest].text or ""
    if before is None:
        return Document(classifier.classify(text)[0], signs[newest].period, _words(text), _compact(text))
    document_type = before.document_type
    if len(document) <= TYPE_PAGES:
        document_type = classifier.classify("\n\n".join(pages[i].text or "" for i in document))[0]
    return Document(document_type, before.period or signs[newest].period, before.words | _words(text),
                    before.compact + _compact(text))


def _place_blanks(judged: dict, signs: list, blanks: list[int], next_starts: bool) -> None:
    for at, index in enumerate(blanks):
        starts = next_starts and at == 0
        reason = ("nothing read; the page after starts a document" if next_starts
                  else "nothing read; the pages around it are one document")
        judged[index] = PageJudgement(index + 1, signs[index].document_type, signs[index].confidence, starts,
                                      UNSURE, (reason,))


def _logistic(score: float) -> float:
    return 1 / (1 + math.exp(-score / SCALE))
