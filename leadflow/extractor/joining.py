"""Words a line's reading joins before it is split into segments: a label hyphenated at its line's
end made whole on the line of its rest, and a title set in spaced letters read as the words it spells.
Words are layout.Word boxes; a joined word is a copy of one of its parts with the whole text."""
from __future__ import annotations

import itertools
import re
from dataclasses import replace
from typing import TYPE_CHECKING, Callable

if TYPE_CHECKING:
    from leadflow.extractor.layout import Found, Layout, Word


def hyphens_joined(rows: list[list[Word]]) -> list[list[Word]]:
    """A label hyphenated at its line's end ("Anfangs-" over "saldo  8.822,56 EUR") made whole on the
    line of its rest, where its value stands: the rest starts in the first part's column, close
    below it, in lower case. A compound's own hyphen before a capital ("Lohn-" / "Steuer") and a
    list's ("Kranken- und Pflegeversicherung") are kept."""
    if not any(w.text.endswith("-") for row in rows for w in row):
        return rows
    for index, (row, below) in enumerate(zip(rows, rows[1:])):
        for word in [w for w in row if HYPHENATED_END.search(w.text)]:
            rest = next((w for w in below if abs(w.x0 - word.x0) <= word.height and w.y0 - word.y1 < word.height), None)
            if rest is None or not REST_OF_WORD.match(rest.text) or rest.text.lower() in LIST_WORDS:
                continue
            joined = replace(rest, text=word.text[:-1] + rest.text, conf=min(word.conf, rest.conf), spaced=False)
            rows[index] = [w for w in rows[index] if w is not word]
            rows[index + 1] = [joined if w is rest else w for w in rows[index + 1]]
            below = rows[index + 1]
    return [row for row in rows if row]


HYPHENATED_END = re.compile(r"[^\W\d_]{2}-$")
REST_OF_WORD = re.compile(r"[a-zäöüß]{2}")
LIST_WORDS = {"und", "oder", "bzw", "bzw.", "sowie", "and", "or"}


def spaced_joined(words: list[Word]) -> list[Word]:
    """A title set in spaced letters ("V E R D I E N S T A B R E C H N U N G") as the words it spells:
    a run of four or more one-letter words (or a year's four digits) set at an even pitch, closer than
    a line's height, is one word. The text's own normalisation does the same (normalise.despace)."""
    if not any(len(w.text) == 1 for w in words):
        return words
    out: list[Word] = []
    run: list[Word] = []

    def flush() -> None:
        letters = sum(w.text.isalpha() for w in run)
        short = len(run) == SPACED_RUN - 1 and letters == len(run) and all(w.text.isupper() for w in run)
        if (len(run) >= SPACED_RUN or short) and (letters == len(run) or (letters == 0 and len(run) == 4)):
            out.append(replace(run[0], text="".join(w.text for w in run), y0=min(w.y0 for w in run), x1=run[-1].x1,
                               y1=max(w.y1 for w in run), conf=min(w.conf for w in run), spaced=True))
        else:
            out.extend(run)
        run.clear()

    for word in words:
        single = len(word.text) == 1 and word.text.isalnum()
        if single and run and _same_pitch(run, word) and word.text.isalpha() == run[-1].text.isalpha():
            run.append(word)
            continue
        flush()
        (run if single else out).append(word)
    flush()
    return out


SPACED_RUN = 4


def _same_pitch(run: list[Word], word: Word) -> bool:
    gap = word.x0 - run[-1].x1
    if gap < 0 or gap > SPACED_PITCH * word.height:
        return False
    if len(run) < 2:
        return True
    first = run[1].x0 - run[0].x1
    return gap <= 1.5 * first + 0.1 * word.height


SPACED_PITCH = 0.9  # a spaced letter's gap, in heights; a word's gap in a spaced title is wider
SPACED_WORD_GAP = 3.0  # heights between two words of a spaced title that still make one phrase


# A label broken onto two lines has at most this many words on its first.
WRAP_WORDS = 3


def find_wrapped(layout: Layout, label: str | re.Pattern, parse: Callable[[str], object], *,
                 is_label: Callable[[str], bool] | None = None, below: bool = True) -> list[Found]:
    """Values next to a short label broken onto two lines ("Closing" over "balance  -9.429,12"), read
    as if it were whole on its second line, where its value stands: a cell of one to three words
    and no figure, and close below it, in its column, the rest. Only matches that span the break
    (any other `find` already sees); the lines are copied only where one does."""
    from leadflow.extractor.layout import Layout, Line, Segment, Word  # layout builds on this module
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
