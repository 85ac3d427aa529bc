"""Normalising what was read before it is read for meaning, one way for the classifier and the field
readers: printed variation that changes no meaning (letter-spaced titles, umlauts spelt out in
capitals, words hyphenated at a line end, OCR's letters inside figures) must not decide a reading.

Two kinds of helper: text rewrites (`despace`, `dehyphenate`, `repair_numbers`), cheap regular
expressions over a page's text; and `fold_pattern`, which widens a label pattern so that it meets
every spelling of its umlauts without rewriting the text, keeping match positions true to the words'
boxes."""
import re

# Four or more letters each standing alone, parted by one space each, or two each as a layout
# rendering sets wide letter spacing: a title set in spaced letters ("V E R D I E N S T A B R E C H N
# U N G"). Words of running text are never four single letters in a row; a wider gap than the
# letters' parts the spaced words from each other, and is kept.
SPACED_LETTERS = re.compile(r"(?<![^\W_])[^\W\d_](?P<gap> {1,2})(?:[^\W\d_](?P=gap)){2,}[^\W\d_](?![^\W_])")
# Three capitals set apart ("WAGE  T A X  CERTIFICATE"): a spaced word too, where wider gaps or the
# line's ends stand on both sides of it.
SPACED_SHORT = re.compile(r"(?:(?<=  )|^)[A-ZÄÖÜ] [A-ZÄÖÜ] [A-ZÄÖÜ](?=  |$)", re.MULTILINE)
# A year set in spaced digits beside such a title ("O K T O B E R  2 0 2 6").
SPACED_YEAR = re.compile(r"(?<![\w.,])((?:1 9|2 0) \d \d)(?![\w.,])")
# A word broken at a line's end, its rest in lower case on the next line ("Auszahlungs-\nbetrag").
HYPHENATED = re.compile(r"([^\W\d_]{2,})-[ \t]*\n[ \t]*([a-zäöüß][^\W\d_]*)")

# The spellings of one umlaut: as printed, spelt out (capitals without umlauts, "UEBERWEISUNG"),
# and with its dots lost on a scan ("Bezuge").
UMLAUTS = {"ä": "(?:ä|ae|a)", "ö": "(?:ö|oe|o)", "ü": "(?:ü|ue|u)", "ß": "(?:ß|ss)"}
SPELT_OUT = {"ae": "(?:ae|ä)", "oe": "(?:oe|ö)", "ue": "(?:ue|ü)", "ss": "(?:ss|ß)"}

# OCR's letters inside a figure: a token shaped like an amount ("1.2O4,5O", "l.234,56", "B12,00")
# with at least two true digits. Only the letters that look like digits; only inside such a token, which
# opens with a digit or a one (an S or B before a figure may be a mark: "S" for Soll).
NUMBER_TOKEN = re.compile(r"(?<![^\W_])(?=[\dOoIlSB.,']*\d[\dOoIlSB.,']*\d)[\dOoIl][\dOoIlSB.,']*[.,][\dOoIlSB]{2}"
                          r"(?![^\W_])")
DIGIT_LOOK_ALIKES = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "S": "5", "B": "8"})
# A currency glued to its figure ("EUR1.234,56"): the figure stands alone.
SIGN_BEFORE_CURRENCY = re.compile(r"(?<![\w.,])([-−])\s?(EUR|€|USD|CHF|GBP|\$|£)\s?(?=\d)")
GLUED_CURRENCY = re.compile(r"\b(EUR|Euro|USD|CHF|GBP)(?=[-+−]?\d)", re.IGNORECASE)
# A trailing minus printed after the currency ("477,46 €-", "11.719,75 EUR-"): the figure's own.
SIGN_AFTER_CURRENCY = re.compile(r"(\d[.,]\d{2})\s?(EUR|€|USD|CHF|GBP|£|\$)\s?[-−](?![ \t]*[\d-])")


# A box's or a table's rule that OCR read as a character standing alone ("|", "[", "\\"): no word.
RULE_MARK = re.compile(r"(?<!\S)[|¦\[\]{}\\]+(?!\S)")


def without_rule_marks(text: str) -> str:
    """OCR'd text without the rules of boxes and tables read as marks ("|  Balance on ..."): each
    becomes spaces, so that the columns around it keep their gaps."""
    return RULE_MARK.sub(lambda m: " " * len(m.group(0)), text) if RULE_MARK.search(text) else text


def despace(text: str) -> str:
    """Letter-spaced words joined ("V E R D I E N S T" -> "VERDIENST"); normal words untouched."""
    if " " not in text:
        return text
    text = SPACED_SHORT.sub(_joined, SPACED_LETTERS.sub(_joined, text))
    return SPACED_YEAR.sub(lambda m: m.group(1).replace(" ", ""), text)


def _joined(m: re.Match) -> str:
    return m.group(0).replace(" ", "")


def dehyphenate(text: str) -> str:
    """A word hyphenated at a line's end joined again; a hyphen before a capital ("Lohn-\\nSteuer"
    in a form, "Max-\\nPlanck") is a compound's own and stays."""
    return HYPHENATED.sub(r"\1\2", text) if "-" in text else text


def repair_numbers(text: str) -> str:
    """Figures as OCR misreads them, read again: O/o -> 0, I/l -> 1, S -> 5, B -> 8 inside a token that
    is an amount by its shape; a currency glued to its figure set apart, and a sign printed before the
    currency ("-EUR 4.917,46", "- € 12,00") put before the figure, and one printed after it ("477,46 €-") after the figure."""
    text = SIGN_BEFORE_CURRENCY.sub(r"\2 \1", GLUED_CURRENCY.sub(r"\1 ", text))
    text = SIGN_AFTER_CURRENCY.sub(r"\1- \2", text)
    return NUMBER_TOKEN.sub(lambda m: m.group(0).translate(DIGIT_LOOK_ALIKES), text)


def for_classifying(text: str) -> str:
    """The text as the classifier reads it: spaced titles joined, hyphenated words whole. A title
    spaced in two words ("V E R D I E N S T   A B R E C H N U N G") is also read as the one word
    its parts make, beside them: German writes the compound as one."""
    if " " in text and SPACED_LETTERS.search(text):
        text = "\n".join(_with_compound(line) for line in text.split("\n"))
    return dehyphenate(despace(text))


def _with_compound(line: str) -> str:
    runs = [_joined(m) for m in SPACED_LETTERS.finditer(line)]
    return f"{line}  {''.join(runs)}" if len(runs) >= 2 else line


def fold(text: str) -> str:
    """A label's normal form, for comparing two labels: lower case, umlauts and ß spelt out."""
    text = text.casefold()
    for letter, plain in (("ä", "ae"), ("ö", "oe"), ("ü", "ue")):
        text = text.replace(letter, plain)
    return text  # casefold already spells ß as "ss"


def fold_pattern(pattern: str) -> str:
    """A label pattern (written with umlauts or spelt out) that also matches the other spellings of
    its umlauts: "überweisungsbetrag" meets "UEBERWEISUNGSBETRAG" and a scan's "Uberweisungsbetrag";
    "maerz" meets "März". Escapes and character classes are left as written. Compile it with
    re.IGNORECASE for capitals."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        char = pattern[i]
        if char == "\\":
            out.append(pattern[i:i + 2])
            i += 2
        elif char == "[":
            end = _class_end(pattern, i)
            out.append(pattern[i:end])
            i = end
        elif pattern.startswith(("(?<=", "(?<!"), i):
            # A look-behind must keep a fixed width: left as written.
            end = _group_end(pattern, i)
            out.append(pattern[i:end])
            i = end
        elif char == "(" and pattern.startswith("(?", i):
            # A group's flags or a named group's name are syntax, not letters.
            end = i + 2
            while end < n and pattern[end] not in ":)=!<>" :
                end += 1
            if pattern.startswith("(?<", i) and end + 1 < n and pattern[end + 1] not in "=!":
                end = pattern.index(">", end) + 1
            else:
                end += 1
            out.append(pattern[i:end])
            i = end
        elif char.lower() in UMLAUTS:
            out.append(UMLAUTS[char.lower()])
            i += 1
        elif pattern[i:i + 2].lower() in SPELT_OUT and not _quantified(pattern, i + 1):
            out.append(SPELT_OUT[pattern[i:i + 2].lower()])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


def _group_end(pattern: str, start: int) -> int:
    """The index after the parenthesis that closes the group opened at `start`."""
    depth, i = 0, start
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "[":
            i = _class_end(pattern, i)
            continue
        depth += char == "("
        depth -= char == ")"
        i += 1
        if depth == 0:
            return i
    return len(pattern)


def _class_end(pattern: str, start: int) -> int:
    i = start + 1
    if i < len(pattern) and pattern[i] == "^":
        i += 1
    if i < len(pattern) and pattern[i] == "]":
        i += 1
    while i < len(pattern) and pattern[i] != "]":
        i += 2 if pattern[i] == "\\" else 1
    return min(i + 1, len(pattern))


def _quantified(pattern: str, at: int) -> bool:
    """Whether the character at `at` carries its own quantifier ("beschäftigte[r]?" no, "e?" yes):
    then it is no half of a two-letter spelling."""
    return at + 1 < len(pattern) and pattern[at + 1] in "?*+{"


# OCR's letters inside a date or a month with its year ("0l.1O.2026", "31. 03.2026", "O1/2026",
# "2O26"): a token shaped like a date by its dots or slash, with most of its characters true digits.
# Only the letters that look like digits, and only where the token's shape leaves no other reading.
DATE_TOKEN = re.compile(r"(?<![\w.,/])([0-9OoIl]{1,2})\s?([./])\s?(?:([0-9OoIl]{1,2})\s?\2\s?)?([12][0-9OoIlS]{3})"
                        r"(?![\w,/]|\.\d)")
YEAR_TOKEN = re.compile(r"(?<![\w.,])(?=[12][0-9OoIlS]{3}(?![\w.,]))(?=\S*[OoIlS])[12][0-9OoIlS]{3}(?![\w.,]\d)")
DATE_DIGITS = str.maketrans({"O": "0", "o": "0", "I": "1", "l": "1", "S": "5"})


def repair_dates(text: str) -> str:
    """Dates and pay months as OCR misreads them, read again: O/o -> 0, I/l -> 1 (S -> 5 in a year)
    inside a token shaped like a date ("0l.1O.2026" -> "01.10.2026", "O1/2026" -> "01/2026"), and
    spaces OCR set around a date's dots ("31. 03. 2026") taken out. A token with fewer than three true
    digits is left as it was: "Il.Ol" is no date."""
    if not any(c.isdigit() for c in text):
        return text
    text = DATE_TOKEN.sub(_date_read, text)
    return YEAR_TOKEN.sub(lambda m: _year_read(m.group(0)), text)


def _date_read(m: re.Match) -> str:
    day, mark, month, year = m.group(1), m.group(2), m.group(3), m.group(4)
    parts = [day, month, year] if month else [day, year]
    if sum(c.isdigit() for c in "".join(parts)) < 3 or not year[:2].translate(DATE_DIGITS) in ("19", "20"):
        return m.group(0)
    return mark.join(part.translate(DATE_DIGITS) for part in parts)


def _year_read(token: str) -> str:
    year = token.translate(DATE_DIGITS)
    return year if year[:2] in ("19", "20") and sum(c.isdigit() for c in token) >= 2 else token


# A month's name as OCR misreads it: "0ktober" (O as 0), "Apri1" (l as 1), "Dezernber" (m as rn),
# "Juii" (l as i), "Mérz": the word read again letter by letter into the closest month's name.
MONTH_SHAPES = (("0", "o"), ("1", "l"), ("rn", "m"), ("é", "ä"), ("è", "ä"), ("ii", "li"), ("|", "l"))


def month_word(word: str, names) -> str | None:
    """The month name among `names` that an OCR'd word spells, or None: the word itself, else the
    word with OCR's usual confusions read back, else (five letters or more) the one name that differs
    from it by a single letter."""
    lowered = word.lower().strip(".")
    if lowered in names:
        return lowered
    fixed = lowered
    for wrong, right in MONTH_SHAPES:
        fixed = fixed.replace(wrong, right)
    if fixed in names:
        return fixed
    if len(fixed) < 5 or not fixed.isalpha():
        return None
    close = [name for name in names if len(name) >= 5 and _one_letter_off(fixed, name)]
    return close[0] if len(close) == 1 else None


def _one_letter_off(a: str, b: str) -> bool:
    """One letter changed, added or dropped."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))
