"""Words with their boxes, grouped into lines and column segments, and the geometric questions a
field finder asks of them: what stands right of a label, below it, under a table header."""
import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator

from leadflow.extractor.joining import SPACED_WORD_GAP, hyphens_joined, spaced_joined
from leadflow.extractor.normalise import RULE_MARK
from leadflow.extractor.wordbox import Word  # noqa: F401 - layout.Word, as the readers name it

# A word belongs to a line when at least this share of the smaller height overlaps the line's band.
LINE_OVERLAP = 0.5
# A gap wider than this many line heights separates two columns (a space is about a third of one).
COLUMN_GAP = 1.0
# ... or this many of the page's usual word spaces, whichever is wider.
SPACES_PER_GAP = 2.2
# How far below a label its value may stand, in line heights (a label above a two-line address).
BELOW_REACH = 3.5
# A table column's values may stand this many lines under its header.
COLUMN_REACH = 12
HEADER_ROW_CELLS = 3  # a row of labels over a row of values, paired by place
COLUMN_SNAP = 10  # units within which the starts of a column's lines count as one
MIN_COLUMN_LINES = 5  # a page of two columns of prose has at least this many lines in both
COLUMN_SHARE = 0.3  # ... and this share of its lines

STREET = re.compile(r"^[A-ZÄÖÜ][\w.äöüß\- ]{2,40}\s\d{1,4}\s?[a-zA-Z]?(?:\s|$|,)")
POSTCODE = re.compile(r"^(?:D-)?\d{5}\s+[A-ZÄÖÜ]")
TOWN_IN_LINE = re.compile(r"\d\s?[a-zA-Z]?\s?(?:[,·•|-]\s?)+(?:D-)?\d{5}\s+[A-ZÄÖÜ]")

# Confidence by how a value relates to its label: the closer and more conventional, the surer.
RIGHT_SAME_SEGMENT = 0.95
RIGHT_NEXT_SEGMENT = 0.92
BELOW_LABEL = 0.9
UNDER_HEADER = 0.85
NEXT_LINE = 0.8
WRAPPED_LABEL = 0.88
CONTINUED = 0.82  # a value broken across a line's end
# How a value broken across a line's end ends its first line: with a word or mark that wants more.
UNFINISHED = re.compile(r"(?:\b(?:bis|to|until|till|und|and|vom|from)|[-–—,&/])\s*$", re.IGNORECASE)
# The second line of a wrapped label: lower-case words or a form's cross-reference ("ohne 9. und 10.",
# "von 3.", "a) zur gesetzlichen ...", "(nur bei ...)").
WRAPPED_TAIL = re.compile(r"^(?:[a-zäöüß]|\(|[a-z]\))")


@dataclass
class Segment:
    """Words of one line with no column gap between them: a phrase, a cell, a label with its value."""
    words: list[Word]

    @property
    def text(self) -> str:
        return " ".join(w.text for w in self.words)

    @property
    def x0(self) -> float:
        return self.words[0].x0

    @property
    def x1(self) -> float:
        return self.words[-1].x1

    @property
    def conf(self) -> float:
        return min(w.conf for w in self.words)


@dataclass
class Line:
    page: int
    words: list[Word]
    segments: list[Segment] = field(default_factory=list)

    @property
    def y0(self) -> float:
        return min(w.y0 for w in self.words)

    @property
    def y1(self) -> float:
        return max(w.y1 for w in self.words)

    @property
    def height(self) -> float:
        heights = sorted(w.height for w in self.words)
        return heights[len(heights) // 2]

    @property
    def text(self) -> str:
        return "  ".join(s.text for s in self.segments)


@dataclass(frozen=True)
class Found:
    """A value found for a label: the parsed value, how it stood to the label, and where."""
    value: object
    label: str
    relation: str  # right, right-column, continued, wrapped, below, under-header, next-line
    confidence: float
    page: int
    raw: str


def group_lines(words: Iterable[Word]) -> list[Line]:
    """Lines of a page or document in reading order (page, top to bottom), each split into segments."""
    by_page: dict[int, list[Word]] = {}
    for word in words:
        if word.text.strip():
            by_page.setdefault(word.page, []).append(word)
    out = []
    for page in sorted(by_page):
        bands: list[list[Word]] = []
        for word in sorted(by_page[page], key=lambda w: (w.y0 + w.y1) / 2):
            band = bands[-1] if bands else None
            if band is not None and _overlaps(band, word):
                band.append(word)
            else:
                bands.append([word])
        rows = hyphens_joined([spaced_joined(sorted(band, key=lambda w: w.x0)) for band in bands])
        space = _word_space(rows)
        for ordered in rows:
            out.append(Line(page=page, words=ordered, segments=_segments(ordered, space)))
    return out


def _word_space(rows: list[list[Word]]) -> float:
    """The page's usual gap between two words of one phrase. Text layers measure words by font
    size, OCR by ink, so a space is a quarter of a height in one and a whole height in the other."""
    gaps = []
    for row in rows:
        heights = sorted(w.height for w in row)
        height = heights[len(heights) // 2]
        gaps += [b.x0 - a.x1 for a, b in zip(row, row[1:]) if 0 < b.x0 - a.x1 < 2 * height]
    if not gaps:
        return 0.0
    gaps.sort()
    return gaps[len(gaps) // 2]


def _overlaps(band: list[Word], word: Word) -> bool:
    # Against the band's median box, not its union: one tall word (a logo, a skewed scan)
    # must not chain two text lines into one.
    tops = sorted(w.y0 for w in band)
    bottoms = sorted(w.y1 for w in band)
    top, bottom = tops[len(tops) // 2], bottoms[len(bottoms) // 2]
    shared = min(bottom, word.y1) - max(top, word.y0)
    return shared >= LINE_OVERLAP * min(word.height, bottom - top)


def _segments(words: list[Word], space: float = 0.0) -> list[Segment]:
    heights = sorted(w.height for w in words)
    gap = max(COLUMN_GAP * heights[len(heights) // 2], SPACES_PER_GAP * space)
    segments = [[words[0]]]
    for prev, word in zip(words, words[1:]):
        # A spaced title sets its words as wide apart as its letters: they stay one phrase.
        wide = gap if not (prev.spaced or word.spaced) else max(gap, SPACED_WORD_GAP * heights[len(heights) // 2])
        if word.x0 - prev.x1 > wide:
            segments.append([word])
        else:
            segments[-1].append(word)
    return [Segment(s) for s in segments]


class Layout:
    """The lines of a whole document and the questions field finders ask of them."""

    def __init__(self, words: Iterable[Word]):
        self.lines = group_lines(words)
        # Text layers report no confidence (100); OCR rarely is that sure of every word.
        self.scanned = any(w.conf < 100 for line in self.lines for w in line.words)

    def __bool__(self) -> bool:
        return bool(self.lines)

    @property
    def text(self) -> str:
        return "\n".join(line.text for line in self.lines)

    def labels(self, label: str | re.Pattern) -> Iterator[tuple[int, int, re.Match]]:
        """(line index, segment index, match) for each segment where the label pattern matches."""
        pattern = label if isinstance(label, re.Pattern) else re.compile(label, re.IGNORECASE)
        for li, line in enumerate(self.lines):
            for si, segment in enumerate(line.segments):
                for m in pattern.finditer(segment.text):
                    yield li, si, m

    def find(self, label: str | re.Pattern, parse: Callable[[str], object], *,
             is_label: Callable[[str], bool] | None = None, below: bool = True,
             skip_line: Callable[[str], bool] | None = None) -> list[Found]:
        """Every value `parse` accepts next to a label: right of it on its line, below it in its
        column, under it as a table header, or at the start of the next line. A neighbour that is
        itself a label (`is_label`: "Arbeitgeber  Arbeitnehmer") is not taken as the value; a label
        on a line `skip_line` refuses (a table's header, whose column holds the rows' values) is none."""
        found = []
        for li, si, m in self.labels(label):
            if skip_line and skip_line(self.lines[li].text):
                continue
            hit = self._value_near(li, si, m, parse, is_label, below)
            if hit is not None:
                found.append(hit)
        return found

    def first(self, label, parse, **kwargs) -> Found | None:
        found = self.find(label, parse, **kwargs)
        return max(found, key=lambda f: f.confidence) if found else None

    def find_wrapped(self, label: str | re.Pattern, parse: Callable[[str], object], *,
                     is_label: Callable[[str], bool] | None = None, below: bool = True) -> list[Found]:
        """Values next to a short label broken onto two lines (find_wrapped, below)."""
        return find_wrapped(self, label, parse, is_label=is_label, below=below)

    def column_text(self) -> str:
        """The text read column by column: on a page set in two columns of prose (many lines whose
        second part starts at one x), the left column's lines, then the right's; other pages as they
        stand. A sentence that runs on in its column is read whole."""
        out = []
        for page in dict.fromkeys(line.page for line in self.lines):
            lines = [line for line in self.lines if line.page == page]
            starts: dict[int, int] = {}
            for line in lines:
                for segment in line.segments[1:]:
                    starts[round(segment.x0 / COLUMN_SNAP)] = starts.get(round(segment.x0 / COLUMN_SNAP), 0) + 1
            snap, count = max(starts.items(), key=lambda item: item[1], default=(0, 0))
            if count < max(MIN_COLUMN_LINES, COLUMN_SHARE * len(lines)):
                out += [line.text for line in lines]
                continue
            x = snap * COLUMN_SNAP - COLUMN_SNAP
            left = [" ".join(s.text for s in line.segments if s.x0 < x) for line in lines]
            right = [" ".join(s.text for s in line.segments if s.x0 >= x) for line in lines]
            out += [text for text in left + right if text]
        return "\n".join(out)

    def address_blocks(self) -> list[tuple[str, int, int]]:
        """(name line, page, line index) of each postal address: a line of words above a street
        with a house number and a postcode with a town, left-aligned in one column. The name line
        is a person (an addressee) or an organisation (a sender); the caller's parser tells which."""
        out = []
        for li in range(len(self.lines) - 2):
            for segment in self.lines[li].segments:
                tolerance = 1.5 * self.lines[li].height
                below = self._column_below(li, segment, tolerance, 3)
                street = below[0] if below else None
                if street is None or not STREET.search(street.text):
                    continue
                if TOWN_IN_LINE.search(street.text):  # "Hauptstraße 8 · 04109 Leipzig" on one line
                    out.append((segment.text, self.lines[li].page, li))
                    continue
                # The town under the street, or one more down: a two-line street block ("c/o",
                # "Apartment 4") or a country line.
                if not any(POSTCODE.match(town.text) for town in below[1:3]):
                    continue
                out.append((segment.text, self.lines[li].page, li))
        return out

    def _column_below(self, li: int, top: Segment, tolerance: float, count: int) -> list[Segment]:
        """Up to `count` segments under `top` in its column, line after line: a line with nothing in
        the column is passed over (a side column's facts set between the address lines, "Steuerklasse  4"
        beside "Uhlandstraße 90"), while a gap of more than two lines' height ends the column."""
        out, page, bottom = [], self.lines[li].page, self.lines[li].y1
        for lj in range(li + 1, len(self.lines)):
            line = self.lines[lj]
            if line.page != page or line.y0 - bottom > 2 * line.height:
                break
            cell = self._aligned(lj, top, tolerance)
            if cell is None:
                continue
            out.append(cell)
            bottom = line.y1
            if len(out) == count:
                break
        return out

    def _aligned(self, li: int, above: Segment, tolerance: float) -> Segment | None:
        """The segment of line `li` that stands in `above`'s column: left-aligned, or centred
        under it as in a letterhead."""
        if li >= len(self.lines):
            return None
        centre = (above.x0 + above.x1) / 2
        for segment in self.lines[li].segments:
            if abs(segment.x0 - above.x0) <= tolerance or abs((segment.x0 + segment.x1) / 2 - centre) <= tolerance:
                return segment
        return None

    def _value_near(self, li, si, m, parse, is_label, below) -> Found | None:
        line = self.lines[li]
        segment = line.segments[si]
        label_text = m.group(0)
        rest = _lead_in(segment.text[m.end():])
        if rest:
            value = parse(rest)
            if value is not None:
                return Found(value, label_text, "right", RIGHT_SAME_SEGMENT, line.page, rest)
        passed_label = False
        for neighbour in line.segments[si + 1:si + 4]:
            if is_label and is_label(neighbour.text):
                break
            value = parse(_lead_in(neighbour.text))
            if value is not None and _figure(value) and (passed_label or labelled_cell(neighbour.text)):
                # The next column's own label with its figure ("KV-Beitrag 120,00", or "KV-Beitrag" and
                # "120,00" apart, beside a label whose figure is missing): two columns of deductions
                # side by side, not this label's value.
                break
            passed_label = passed_label or (value is None and labelled_cell(neighbour.text + " 0"))
            if value is not None:
                return Found(value, label_text, "right-column", RIGHT_NEXT_SEGMENT, line.page, neighbour.text)
        if rest and UNFINISHED.search(rest):
            hit = self._continued(li, segment, label_text, rest, parse)
            if hit is not None:
                return hit
        hit = self._wrapped(li, si, label_text, parse, is_label)
        if hit is not None:
            return hit
        if not below or (_prose(segment.text[:m.start()]) and _prose(rest)):
            # A label word inside running text ("wir freuen uns, Sie in unserem Unternehmen als ...")
            # labels nothing below it: what stands there is the sentence's next line.
            return None
        hit = self._below(li, segment, m, parse, is_label)
        if hit is not None:
            return hit
        if si == len(line.segments) - 1 and li + 1 < len(self.lines):
            # A label that ends its line ("Name, Vorname:"), its value carried to the next line.
            nxt = self.lines[li + 1]
            if nxt.page == line.page and nxt.y0 - line.y1 < 2 * line.height and nxt.segments:
                first_segment = nxt.segments[0]
                if not (is_label and is_label(first_segment.text)):
                    value = parse(_lead_in(first_segment.text))
                    if value is not None:
                        return Found(value, label_text, "next-line", NEXT_LINE, line.page, first_segment.text)
        return None

    def _continued(self, li, segment, label_text, rest, parse) -> Found | None:
        """A value broken across a line's end ("vom 01.10.2026 bis" / "31.10.2026"), its first line
        UNFINISHED: what follows the label, read together with the cell that stands close below it
        in its column (another column may stand beside it)."""
        line = self.lines[li]
        if li + 1 >= len(self.lines):
            return None
        nxt = self.lines[li + 1]
        if nxt.page != line.page or nxt.y0 - line.y1 > line.height:
            return None
        below = next((cell for cell in nxt.segments
                      if segment.x0 - line.height <= cell.x0 <= segment.x1 and cell.x1 <= segment.x1 + 4 * line.height),
                     None)
        if below is None:
            return None
        joined = f"{rest} {below.text}"
        value = parse(joined)
        if value is None or parse(below.text) == value:
            return None  # the next line's cell alone is the value: not a continuation
        return Found(value, label_text, "continued", CONTINUED, line.page, joined)

    def _wrapped(self, li, si, label_text, parse, is_label) -> Found | None:
        """A long label wrapped onto a second line, its value at the end of that line (a form's
        "3. Bruttoarbeitslohn einschl. Sachbezüge / ohne 9. und 10. .... 45.000,00"): the label ends
        its line, and the next line starts in the label's column with lower-case words."""
        line = self.lines[li]
        if si != len(line.segments) - 1 or li + 1 >= len(self.lines):
            return None
        nxt = self.lines[li + 1]
        segment = line.segments[si]
        if nxt.page != line.page or nxt.y0 - line.y1 > line.height or len(nxt.segments) < 2:
            return None
        tail = nxt.segments[0]
        if abs(tail.x0 - segment.x0) > line.height or not WRAPPED_TAIL.match(tail.text) or parse(tail.text) is not None:
            return None
        for cell in nxt.segments[1:]:
            if is_label and is_label(cell.text):
                return None
            value = parse(_lead_in(cell.text))
            if value is not None:
                return Found(value, label_text, "wrapped", WRAPPED_LABEL, line.page, cell.text)
        return None

    def _below(self, li, segment, m, parse, is_label) -> Found | None:
        line = self.lines[li]
        # The label's own horizontal extent: the matched words, not a whole phrase after it.
        x0, x1 = _match_extent(segment, m)
        pad = line.height
        reach_near = line.y1 + BELOW_REACH * line.height
        for lj in range(li + 1, min(li + 1 + COLUMN_REACH, len(self.lines))):
            other = self.lines[lj]
            if other.page != line.page:
                break
            best, best_overlap = None, 0.0
            for cell in other.segments:
                overlap = min(cell.x1, x1 + pad) - max(cell.x0, x0 - pad)
                if overlap > best_overlap:
                    best, best_overlap = cell, overlap
            if lj == li + 1 and best_overlap < 0.5 * (x1 - x0):
                # A row of labels over a row of as many values (a summary strip of boxes, each label
                # left and its value right in its box): the label's value is the one in its place.
                best = _paired_cell(line, segment, other) or best
            if lj == li + 1 and best is None:
                best = _cell_in_span(line, segment, other)
            if best is None:
                continue
            if is_label and is_label(best.text):
                # Another label stands in this column: the value, if any, belonged above it.
                return None
            value = parse(_lead_in(best.text))
            if value is not None:
                near = other.y0 <= reach_near
                return Found(value, m.group(0), "below" if near else "under-header",
                             BELOW_LABEL if near else UNDER_HEADER, line.page, best.text)
            if other.y0 > reach_near and not _looks_numeric(best.text):
                # Past the label's own block, only a table column of numbers keeps going down.
                return None
        return None


def _paired_cell(header, segment: Segment, row) -> Segment | None:
    """The cell of `row` in the place `segment` has in `header`, when both are rows of as many cells
    (three or more) and the header holds no figures."""
    if len(row.segments) != len(header.segments) or len(header.segments) < HEADER_ROW_CELLS:
        return None
    if any(re.search(r"\d", cell.text) for cell in header.segments):
        return None
    return row.segments[header.segments.index(segment)]


def _cell_in_span(header, segment: Segment, row) -> Segment | None:
    """A value on the next line right of its label's words but still inside the label's span: up to
    where the next column of the label's line starts ("Nr. 3  Bruttoarbeitslohn ...  | Nr. 23a ..."
    over "45.000,00 €  | 2.574,96 €", each value right-aligned in its label's half of the row)."""
    index = header.segments.index(segment)
    if index + 1 >= len(header.segments):
        return None
    end = header.segments[index + 1].x0
    inside = [cell for cell in row.segments if cell.x0 >= segment.x0 and cell.x1 < end]
    return inside[0] if len(inside) == 1 else None


def _match_extent(segment: Segment, m: re.Match) -> tuple[float, float]:
    """The x-range of the words a label match covers inside its segment."""
    span = match_span(segment, m)
    return (span[0], span[1]) if span else (segment.x0, segment.x1)


def match_span(segment: Segment, m: re.Match) -> tuple[float, float, float] | None:
    """The x-range of the words a match covers inside its segment, with their height (a column
    head's span, for `cell_in_column`); None when it covers no word."""
    covered = []
    at = 0
    for word in segment.words:
        end = at + len(word.text)
        if end > m.start() and at < m.end():
            covered.append(word)
        at = end + 1  # the single space Segment.text puts between words
    return (covered[0].x0, covered[-1].x1, covered[0].height) if covered else None


def cell_in_column(row: Line, span: tuple[float, float, float], reach: float) -> Segment | None:
    """The cell of `row`, past its label, that overlaps most the column of `span` (x0, x1, height)
    widened by `reach` heights on each side; None when none overlaps it."""
    x0, x1, height = span
    pad = reach * height
    cells = [(min(c.x1, x1 + pad) - max(c.x0, x0 - pad), c) for c in row.segments[1:]]
    overlap, cell = max(cells, key=lambda pair: pair[0], default=(0, None))
    return cell if cell is not None and overlap > 0 else None


def _figure(value) -> bool:
    return isinstance(value, str) and FIGURE.fullmatch(value) is not None


FIGURE = re.compile(r"-?\d+\.\d{2}")
# A word before a figure that is no label: a currency, a sign, a unit of a rate.
NOT_A_LABEL = re.compile(r"^(?:eur|euro|usd|chf|gbp|ca|rd|zzgl|abzgl|minus|plus|soll|haben|cr|dr)\.?$", re.IGNORECASE)


def labelled_cell(text: str) -> bool:
    """Whether a cell holds a label of its own before its figure ("KV-Beitrag 120,00", "Kirchensteuer
    8 % 23,10"): a word of three letters or more, not a currency, before the first digit."""
    head = re.split(r"[-+−]?\s?[€$£]?\s?\d", text.strip(), maxsplit=1)[0]
    # A sign before the currency ("-EUR 8.396,36") is no label's either.
    return any(len(re.sub(r"[^\w]", "", word)) >= 3 and not NOT_A_LABEL.match(word.strip(" :|.()-+−"))
               and re.search(r"[^\W\d_]{3}", word) for word in head.split())


def _lead_in(text: str) -> str:
    """What follows a label without the colon, ruling or dot leader between them ("Netto ....... 12,00")."""
    return re.sub(r"^[\s:|.…_]+", "", text).rstrip()


def _prose(text: str) -> bool:
    """Words around a label that make a sentence of it: three or more, two of them lower-case."""
    words = text.split()
    return len(words) >= PROSE_WORDS and sum(w[:1].islower() for w in words) >= 2


PROSE_WORDS = 3


def _looks_numeric(text: str) -> bool:
    return bool(re.search(r"\d", text))


# --- sources of words ---------------------------------------------------------------------------

def words_from_pdfplumber_page(page, number: int) -> list[Word]:
    """Words of a pdfplumber page's text layer, top-down coordinates in points."""
    return [Word(w["text"], float(w["x0"]), float(w["top"]), float(w["x1"]), float(w["bottom"]), number)
            for w in page.extract_words(keep_blank_chars=False, use_text_flow=False)]


def words_from_tsv(tsv: str, number: int) -> list[Word]:
    """Words of Tesseract's TSV output (level 5 rows: left, top, width, height, conf, text), their
    boxes turned level: a scan tilted by a degree would otherwise tip a row into the next one."""
    rows = []
    for row in tsv.splitlines()[1:]:
        cols = row.split("\t")
        if len(cols) < 12 or cols[0] != "5" or not cols[11].strip() or RULE_MARK.fullmatch(cols[11].strip()):
            continue  # nothing, or a box's rule read as "|": it would tip the line's slope too
        try:
            block, par, line = (int(c) for c in cols[2:5])
            left, top, width, height = (int(c) for c in cols[6:10])
            conf = float(cols[10])
        except ValueError:
            continue
        rows.append(((block, par, line), Word(cols[11].strip(), left, top, left + width, top + height, number,
                                               max(conf, 0.0))))
    slope = _tilt([(key, word) for key, word in rows])
    return [Word(w.text, w.x0, w.y0 - slope * (w.x0 + w.x1) / 2, w.x1, w.y1 - slope * (w.x0 + w.x1) / 2,
                 w.page, w.conf) for _, w in rows]


def _tilt(rows) -> float:
    """The median slope (dy per dx) of Tesseract's own text lines that span some width."""
    by_line: dict = {}
    for key, word in rows:
        by_line.setdefault(key, []).append(word)
    slopes = []
    for words in by_line.values():
        first, last = words[0], words[-1]
        span = (last.x0 + last.x1) / 2 - (first.x0 + first.x1) / 2
        if len(words) >= 3 and span > 10 * first.height:
            slopes.append(((last.y0 + last.y1) / 2 - (first.y0 + first.y1) / 2) / span)
    if not slopes:
        return 0.0
    slopes.sort()
    return slopes[len(slopes) // 2]


# A label broken onto two lines has at most this many words on its first.
WRAP_WORDS = 3


def find_wrapped(layout: Layout, label: str | re.Pattern, parse: Callable[[str], object], *,
                 is_label: Callable[[str], bool] | None = None, below: bool = True) -> list[Found]:
    """Values next to a short label broken onto two lines ("Closing" over "balance  -9.429,12"), read
    as if it were whole on its second line, where its value stands: a cell of one to three words
    and no figure, and close below it, in its column, the rest. Only matches that span the break
    (any other `find` already sees); the lines are copied only where one does."""
    pattern = label if isinstance(label, re.Pattern) else re.compile(label, re.IGNORECASE)
    found = []
    for li, (line, nxt) in enumerate(zip(layout.lines, layout.lines[1:])):
        if nxt.page != line.page or nxt.y0 - line.y1 > line.height:
            continue
        for cell in line.segments:
            if not 1 <= len(cell.words) <= WRAP_WORDS or re.search(r"\d", cell.text):
                continue
            rest = next((c for c in nxt.segments if abs(c.x0 - cell.x0) <= line.height), None)
            if rest is None or re.search(r"\d", rest.words[0].text):
                continue
            # The rest of the label is the words up to the first figure ("zu" over "versteuerndes
            # Einkommen 64.233,00"); a break after a hyphen ("Einkommen-" / "steuer") joins without a space.
            tail = list(itertools.takewhile(lambda w: not re.search(r"\d", w.text), rest.words))
            head = cell.text if cell.text.endswith("-") else cell.text + " "
            text = head + " ".join(w.text for w in tail)
            if not any(m.start() < len(cell.text) < m.end() for m in pattern.finditer(text)):
                continue
            first, last = tail[0], tail[-1]
            whole = Word(text, first.x0, min(w.y0 for w in tail), last.x1, max(w.y1 for w in tail), first.page,
                         min([cell.conf] + [w.conf for w in tail]))
            joined = Line(nxt.page, _merged(nxt.words, tail, whole),
                          [Segment(_merged(seg.words, tail, whole)) for seg in nxt.segments])
            shadow = Layout([])
            shadow.lines, shadow.scanned = layout.lines[:li + 1] + [joined] + layout.lines[li + 2:], layout.scanned
            for si, segment in enumerate(joined.segments):
                for m in pattern.finditer(segment.text):
                    hit = shadow._value_near(li + 1, si, m, parse, is_label, below)
                    if hit is not None:
                        found.append(hit)
    return found


def _merged(words: list[Word], run: list[Word], whole: Word) -> list[Word]:
    """`words` with the words of `run` replaced by the one word `whole`, where the run's first stood."""
    return [whole if w is run[0] else w for w in words if not any(w is r for r in run[1:])]
