"""Words a line's reading joins before it is split into segments: a label hyphenated at its line's
end made whole on the line of its rest, and a title set in spaced letters read as the words it spells.
Words are wordbox.Word boxes; a joined word is a copy of one of its parts with the whole text."""
from __future__ import annotations

import re
from dataclasses import replace

from leadflow.extractor.wordbox import Word


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
