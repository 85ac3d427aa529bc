"""Candidates for a document's fields, each with a confidence; the best consistent set wins, and a
cross-check that fails lowers the confidence of the fields it involves instead of dropping them."""
import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from leadflow.extractor.layout import Found, Layout
from leadflow.extractor.normalise import fold_pattern

# How sure a value is, by how it was found (the layout's relations carry their own, 0.8-0.95).
FLAT_LABEL = 0.85  # the flat-text reader found it right after a label
STRUCTURE = 0.75  # a shape that means it (a DIN 5008 return address, an addressee after "Herrn")
GUESS = 0.55  # position or shape alone (the first company in the letterhead)
UNLABELLED = 0.4  # a value standing in for another ("net pay is the payout"): a person checks it
AGREEMENT = 0.04  # each further independent way that found the same value
FAILED_CHECK = 0.35  # a cross-check failed: below LeadFlow's 0.5, a person looks
PASSED_CHECK = 0.08  # a cross-check passed: two values that agree with each other are surer
CEILING = 0.99
OPTIONS = 3  # alternatives per field tried when a cross-check fails


@dataclass
class Candidate:
    value: object
    confidence: float
    label: str | None = None
    page: int | None = None
    ways: int = 1


@dataclass
class Check:
    """A rule over chosen values that genuine documents obey (net below gross ...). Among each field's
    best candidates, the combination that obeys it is chosen. When none does, the values stay and,
    unless `lowers` is false, their confidence falls: a rule whose inputs may be incomplete (a
    statement's bookings, a total of deductions) chooses, but its failure says nothing."""
    names: tuple[str, ...]
    holds: Callable[..., bool]
    lowers: bool = True


@dataclass
class FieldsRead:
    """The contract LeadFlow consumes: values, a confidence in [0, 1] for every declared field
    (0.0 when the value is null), and for found values the label and page they were read at."""
    fields: dict
    confidence: dict[str, float]
    evidence: dict[str, dict] = field(default_factory=dict)


class Findings:
    """Collects candidates per field and resolves them into a FieldsRead."""

    def __init__(self, names: Iterable[str]):
        self.names = list(names)
        self.candidates: dict[str, list[Candidate]] = {name: [] for name in self.names}

    def offer(self, name: str, value, confidence: float, label: str | None = None, page: int | None = None) -> None:
        if value is None or value == "":
            return
        self.candidates[name].append(Candidate(value, confidence, label, page))

    def offer_found(self, name: str, found: Iterable[Found], weight: float = 1.0) -> None:
        for hit in found:
            self.offer(name, hit.value, hit.confidence * weight, hit.label, hit.page)

    def look(self, layout: Layout, name: str, label: str | re.Pattern, parse, *, weight: float = 1.0,
             is_label=None, below: bool = True, skip_line=None) -> None:
        """Offer every value the layout finds next to this label. On a scan, a label OCR glued to
        its neighbours ("SUMMESNETTOSS") is looked for inside words too, when nothing else matched.
        `skip_line`: see Layout.find."""
        if not layout:
            return
        found = layout.find(label, parse, is_label=is_label, below=below, skip_line=skip_line)
        if not found and layout.scanned and label in LOOSE:
            found = layout.find(LOOSE[label], parse, is_label=is_label, below=below, skip_line=skip_line)
            weight *= GLUED
        if not found and layout.scanned and label in MISREAD:
            found = layout.find(MISREAD[label], parse, is_label=is_label, below=below, skip_line=skip_line)
            weight *= MISREAD_WEIGHT
        if not found:
            # A label broken onto two lines ("Closing" / "balance  -9.429,12 EUR"): for figures and
            # dates only, as a name's words may be any line's.
            found = [hit for hit in layout.find_wrapped(label, parse, is_label=is_label, below=below)
                     if re.search(r"\d", repr(hit.value))]
            weight *= UNWRAPPED
        self.offer_found(name, found, weight)

    def offer_addressee(self, name: str, layout: Layout, text: str, addressee) -> None:
        """Offer the person a letter is addressed to (`addressee`, text -> name): read first from
        the layout's lines, which keep the column gaps an OCR text loses, then from the text."""
        if layout:
            self.offer(name, addressee(layout.text), STRUCTURE)
        self.offer(name, addressee(text), STRUCTURE - 0.05)

    def options(self, name: str) -> list[Candidate]:
        """Distinct values, best first; a value found several ways is surer than one found once."""
        merged: dict[str, Candidate] = {}
        for c in sorted(self.candidates[name], key=lambda c: -c.confidence):
            key = repr(c.value)
            if key in merged:
                merged[key].ways += 1
                merged[key].confidence = min(CEILING, merged[key].confidence + AGREEMENT)
            else:
                merged[key] = Candidate(c.value, c.confidence, c.label, c.page)
        return sorted(merged.values(), key=lambda c: -c.confidence)

    def resolve(self, checks: Iterable[Check] = ()) -> FieldsRead:
        chosen = {name: (self.options(name) or [None])[0] for name in self.names}
        passed: set[str] = set()
        for check in checks:
            if any(chosen[n] is None for n in check.names):
                continue
            if not _holds(check, chosen):
                alternatives = [self.options(n)[:OPTIONS] for n in check.names]
                passing = [combo for combo in itertools.product(*alternatives)
                           if _holds(check, dict(zip(check.names, combo)))]
                if not passing:
                    if not check.lowers:
                        continue
                    for n in check.names:
                        chosen[n] = Candidate(chosen[n].value, min(chosen[n].confidence, FAILED_CHECK),
                                              chosen[n].label, chosen[n].page)
                    continue
                chosen.update(zip(check.names, max(passing, key=lambda combo: sum(c.confidence for c in combo))))
            passed.update(check.names)
        for n in passed:
            if chosen[n].confidence > FAILED_CHECK:
                chosen[n] = Candidate(chosen[n].value, min(CEILING, chosen[n].confidence + PASSED_CHECK),
                                      chosen[n].label, chosen[n].page)
        fields = {n: (c.value if c else None) for n, c in chosen.items()}
        confidence = {n: (round(c.confidence, 2) if c else 0.0) for n, c in chosen.items()}
        evidence = {n: {"label": c.label, "page": c.page} for n, c in chosen.items() if c and c.label}
        return FieldsRead(fields, confidence, evidence)


def _holds(check: Check, chosen: dict) -> bool:
    try:
        return bool(check.holds(*(chosen[n].value for n in check.names)))
    except (ArithmeticError, ValueError, TypeError):
        return False


def plain(fields: dict, names: Iterable[str], confidence: float) -> FieldsRead:
    """A reader that returns bare values (a data format, the MRZ): one confidence for what it found."""
    return FieldsRead({n: fields.get(n) for n in names},
                      {n: (confidence if fields.get(n) not in (None, "") else 0.0) for n in names})


def lexicon(*labels: str) -> re.Pattern:
    """One pattern for a field's label variants. Spaces in a variant also match hyphens, line
    breaks or nothing ("Gesamt brutto", "Gesamt-Brutto", "Gesamtbrutto"); umlauts also their
    spelt-out and dotless forms, and spelt-out ones the umlaut (normalise.fold_pattern)."""
    parts = []
    for label in labels:
        parts.append(label.replace(" ", r"[\s\-]?") if not label.startswith("re:") else label[3:])
    # Only labels of five letters or more: a short one ("net", "ust") hides inside too many words.
    long_parts = [fold_pattern(part) for part in parts if len(re.sub(r"[^a-zäöüß]", "", part.lower())) >= 5]
    # Compared in normal form: umlauts in any spelling ("UEBERWEISUNGSBETRAG"), any case.
    parts = [fold_pattern(part) for part in parts]
    alternatives = "|".join(parts)
    pattern = re.compile(r"(?<![\w\-.])(?:" + alternatives + r")(?![\w])", re.IGNORECASE)
    if long_parts:
        LOOSE[pattern] = re.compile("(?:" + "|".join(long_parts) + ")", re.IGNORECASE)
    misread = [_misread(label) for label in labels
               if re.fullmatch(r"[a-zäöüß ]+", label) and len(label.replace(" ", "")) >= MISREAD_MIN_LETTERS]
    if misread:
        MISREAD[pattern] = re.compile(r"(?<![\w\-.])(?:" + "|".join(misread) + r")(?![\w])", re.IGNORECASE)
    return pattern


LOOSE: dict[re.Pattern, re.Pattern] = {}  # a lexicon's pattern -> the same labels inside words
GLUED = 0.85  # a label found inside a word on a scan is a little less sure
UNWRAPPED = 0.95  # a label read across a line break
# A long label as OCR misreads it on a scan ("Einkommensteuen", "Solidaritatszuschlag",
# "zu versteuemdes Einkommen"): each letter may be read as its look-alike. Only plain labels of
# ten letters or more: that many letters, each one of two or three, still name one label.
MISREAD: dict[re.Pattern, re.Pattern] = {}
MISREAD_WEIGHT = 0.85
MISREAD_MIN_LETTERS = 10
LOOK_ALIKES = {"r": "[rn]", "n": "(?:n|r|ri|rr)", "m": "(?:m|rn|nn|in)", "l": "[l1i|!I]", "i": "[il1|!í]",
               "e": "[eco]", "c": "[ce]", "o": "[o0ö]", "u": "[uüv]", "ü": "(?:ü|u|ii)", "ä": "(?:ä|a|å)",
               "ö": "[öo0]", "ß": "(?:ß|ss|b|8)", "s": "[s5]", "g": "[gq9]", "t": "[tf]", "f": "[ft]",
               "h": "[hb]", "b": "[bh]", "z": "[z2]", "d": "[dcl]"}


def _misread(label: str) -> str:
    parts = [r"[\s\-]?" if char == " " else LOOK_ALIKES.get(char, re.escape(char)) for char in label.lower()]
    # "rn" and "m" look alike the other way round too: "versteuerndes" read as "versteuemdes".
    return "".join(parts).replace(LOOK_ALIKES["r"] + LOOK_ALIKES["n"],
                                  "(?:" + LOOK_ALIKES["r"] + LOOK_ALIKES["n"] + "|m)")


def label_test(*patterns: re.Pattern) -> Callable[[str], bool]:
    """Whether a segment is itself a label of this type (a neighbour that must not be taken as a value)."""
    def is_label(text: str) -> bool:
        stripped = text.strip(" :|")
        if re.search(r"\d", stripped):
            return False
        return any(p.match(stripped) and len(p.match(stripped).group(0)) >= 0.6 * len(stripped) for p in patterns)
    return is_label
