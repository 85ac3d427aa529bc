"""Classifying a document's type from its text: weighted German and English keywords, and the
shape of the text (a bookings table, a till slip, a machine-readable zone)."""
import math
import re

from leadflow.extractor.keywords import CARD_WORDS, KEYWORDS
from leadflow.extractor.mrz import zone_piece
from leadflow.extractor.normalise import fold_pattern, for_classifying

UNKNOWN = "unknown"
DOCUMENT_TYPES = ("payslip", "bank_statement", "tax_assessment", "wage_tax_certificate",
                  "employment_contract", "id_document", "residence_permit", "invoice", "receipt")
THRESHOLD = 0.6  # below this LeadFlow asks a person: a confident wrong answer costs more
HEAD_CHARS = 900  # the title and letterhead; a keyword there says more than one in a booking line
HEAD_BOOST = 1.5
SCALE = 4.0  # score at which confidence reaches about 0.63 before the margin is applied
# The words per type and their weights: leadflow/extractor/keywords.py.


def _widened(pattern: str) -> str:
    """Each literal space of a pattern (outside a character class) as one or more whitespace characters."""
    return re.sub(r"(\[[^\]]*\])| (?![*+?{])", lambda m: m.group(1) or r"\s+", pattern)


# Umlauts match their spelt-out and OCR-dropped forms ("Rueckgeld", "Ruckgeld") and back: normalise.fold_pattern.
# A space in a keyword also matches a wider gap or a line break: a title set wide ("WAGE  TAX  CERTIFICATE")
# or wrapped onto two lines.
COMPILED = {kind: [(re.compile(_widened(fold_pattern(p)), re.IGNORECASE), w) for p, w in pats]
            for kind, pats in KEYWORDS.items()}
CARD_COMPILED = [(re.compile(_widened(fold_pattern(p)), re.IGNORECASE), w) for p, w in CARD_WORDS]

# An ICAO 9303 machine-readable zone: 30, 36 or 44 characters of A-Z, 0-9 and filler '<'.
MRZ_LINE = re.compile(r"^[A-Z0-9<]{28,46}$")
MRZ_WEIGHT = 8  # a parsed MRZ is close to proof of an identity or travel document
# ICAO document codes that only a residence title carries: a visa (V, itself a title under
# § 4 AufenthG) and card codes whose second letter is R (Germany's eAT "AR", "IR" elsewhere).
PERMIT_CODES = re.compile(r"^(V.?|[IAC]R)$")

# Structure: a bookings table is many lines with a date and an amount; a statement's debits are signed.
MONTH = r"(?:jan|feb|mär|mar|apr|mai|may|jun|jul|aug|sep|okt|oct|nov|dez|dec)[a-zä]*\.?"
DATE = (rf"(?:\d{{1,2}}\.\d{{1,2}}\.(?:\d{{2,4}})?|\d{{4}}-\d{{2}}-\d{{2}}|\d{{1,2}}/\d{{1,2}}/\d{{2,4}}"
        rf"|\d{{1,2}}\.?[\s-]{MONTH}(?:[\s-]\d{{2,4}})?|{MONTH}\s\d{{1,2}},?(?:\s\d{{4}})?)")
CURRENCY = r"(?:EUR|€|\$|£|USD|GBP|CHF)"
AMOUNT = (rf"[-+−]?\s?(?:{CURRENCY}\s?)?[-+−]?\d{{1,3}}(?:[.,' ]\d{{3}})*[.,]\d{{2}}"
          r"(?:\s?[-+]|\s?(?:[SH]|CR|DR|Cr|Dr|Soll|Haben)\b)?")
BOOKING_LINE = re.compile(rf"(?:^|\s){DATE}\s.*?\s{AMOUNT}\s*{CURRENCY}?\s*$", re.IGNORECASE)
# A debit shown as such: "-45,20", "45,20-", "45.20 DR", "45,20 S".
SIGNED = re.compile(r"(?:^|\s)(?:[-−]\s?\S?\d[\d.,']*[.,]\d{2}|\S?\d[\d.,']*[.,]\d{2}(?:-|\s?(?:DR|Dr|S|Soll)))"
                    r"(?:\s|$)")
# An account of the holder's: an IBAN, or an account number under its label.
IBAN_VALUE = re.compile(r"\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){3,7}(?:\s?[A-Z0-9]{1,4})?\b"
                        r"|(?:account\s*(?:number|no\.?|#)|konto-?\s?(?:nummer|nr\.?))\s*:?\s*\d[\d -]{5,}\d",
                        re.IGNORECASE)
BOOKINGS_WEIGHT = 4.0  # five or more booking lines next to an account number: as good as a title
SIGNED_WEIGHT = 1.0
# A till slip: a narrow column of short lines, several ending in an amount, stamped with the time.
SLIP_LINE_CHARS = 42
SLIP_WEIGHT = 1.5
AMOUNT_AT_END = re.compile(rf"{AMOUNT}\s*(?:[A-Z]|EUR|€)?\s*$")
TIME_STAMP = re.compile(r"\b(?:\d{1,2}\.\d{1,2}\.\d{2,4}|\d{4}-\d{2}-\d{2}|\d{1,2}/\d{1,2}/\d{2,4})"
                        r"[ ,]+(?:um\s)?\d{1,2}:\d{2}(?::\d{2})?\b")
TIME_WEIGHT = 1.0
STAMPED_SLIP_WEIGHT = 1.5
# An itemised table's header: what, how many or at what rate, and the line amount.
ITEM_HEADER = re.compile(r"\b(?:description|beschreibung|bezeichnung|leistung|artikel|item|position|pos\.?)\b"
                         r".*\b(?:qty|quantity|menge|anzahl|rate|unit price|einzelpreis|e-?preis|price|preis|stk)\b"
                         r".*\b(?:amount|betrag|gesamt|total|summe)\b", re.IGNORECASE)
ITEM_HEADER_WEIGHT = 1.5
ITEM_HEADER_LINES = 5
ITEM_HEADER_CHARS = 120  # a header split over lines is short; a paragraph naming those words is not one
# A keyword right after a negation names what the paper is not.
NEGATED = re.compile(r"(?:\bkein(?:e[mnrs]?)?|\bnicht\s+(?:um\s+)?(?:einen?|eine[mnrs]?)|\bnot(?:\s+an?)?|\bno)\s+$",
                     re.IGNORECASE)
NEGATION_REACH = 20  # characters before a keyword looked at for the negation


def classify(text: str) -> tuple[str, float]:
    """Return (document_type, confidence); "unknown" when the best guess is under THRESHOLD."""
    scores = score(text)
    ranked = sorted(scores.items(), key=lambda item: item[1], reverse=True)
    best_type, best = ranked[0]
    second = ranked[1][1]
    confidence = confidence_of(best, second)
    if confidence < THRESHOLD:
        return UNKNOWN, confidence
    return best_type, confidence


def confidence_of(best: float, second: float) -> float:
    """Strength of the evidence, discounted by how close the runner-up came."""
    if best <= 0:
        return 0.0
    strength = 1.0 - math.exp(-best / SCALE)
    margin = (best - second) / best
    return round(strength * (0.6 + 0.4 * margin), 2)


def score(text: str) -> dict[str, float]:
    text = for_classifying(text)
    head = text[:HEAD_CHARS]
    scores = {kind: 0.0 for kind in DOCUMENT_TYPES}
    for kind, patterns in COMPILED.items():
        scores[kind] += _weigh(patterns, head, text)
    card = _weigh(CARD_COMPILED, head, text)
    scores["id_document"] += card
    scores["residence_permit"] += card
    _weigh_structure(text, scores)
    code = mrz_document_code(text)
    if code:
        if code.startswith("P"):
            scores["id_document"] += MRZ_WEIGHT
        elif PERMIT_CODES.match(code):
            scores["residence_permit"] += MRZ_WEIGHT
        else:
            # I, A and C are card codes that identity cards and many residence cards share. A state
            # issues its identity card to its own nationals and a residence card to foreigners;
            # where the zone does not tell, the card's own wording does.
            foreign = issued_to_a_foreigner(text)
            worded = scores["residence_permit"] > scores["id_document"]
            if foreign or worded:
                scores["residence_permit"] += MRZ_WEIGHT
            else:
                scores["id_document"] += MRZ_WEIGHT
    return scores


def _weigh(patterns, head: str, text: str) -> float:
    total = 0.0
    for pattern, weight in patterns:
        if _affirmed(pattern, head):
            total += weight * HEAD_BOOST
        elif _affirmed(pattern, text):
            total += weight
    return total


def _affirmed(pattern: re.Pattern, text: str) -> bool:
    """Whether the pattern occurs other than negated: a paper that says what it is not ("Diese Mitteilung
    ist kein Steuerbescheid", "this is not an invoice") is no evidence of that type."""
    return any(not NEGATED.search(text[max(0, m.start() - NEGATION_REACH):m.start()]) for m in pattern.finditer(text))


def _weigh_structure(text: str, scores: dict[str, float]) -> None:
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    bookings = [line for line in lines if BOOKING_LINE.search(line)]
    if len(bookings) >= 5 and IBAN_VALUE.search(text):
        scores["bank_statement"] += BOOKINGS_WEIGHT
        if sum(1 for line in bookings if SIGNED.search(line)) >= 3:
            scores["bank_statement"] += SIGNED_WEIGHT
    slip = False
    if len(lines) >= 6:
        narrow = sum(1 for line in lines if len(line) <= SLIP_LINE_CHARS)
        priced = sum(1 for line in lines if AMOUNT_AT_END.search(line))
        slip = narrow >= 0.95 * len(lines) and priced >= 4
        if slip:
            scores["receipt"] += SLIP_WEIGHT
    if TIME_STAMP.search(text):
        scores["receipt"] += TIME_WEIGHT
        if slip:
            # A slip stamped with the minute of sale: a till's, even when OCR lost its words.
            scores["receipt"] += STAMPED_SLIP_WEIGHT
    # OCR of a scan may give each column of the header a line of its own: a few lines read together.
    windows = (" ".join(lines[i:i + ITEM_HEADER_LINES]) for i in range(len(lines)))
    if any(ITEM_HEADER.search(line) for line in lines) or any(
            ITEM_HEADER.search(window) and len(window) <= ITEM_HEADER_CHARS for window in windows):
        scores["invoice"] += ITEM_HEADER_WEIGHT


def mrz_lines(text: str) -> list[str]:
    """Lines that look like a machine-readable zone, with spaces OCR put inside them removed."""
    found = []
    for raw in text.splitlines():
        line = zone_piece(raw).replace(" ", "").replace("«", "<<")
        if "<<" in line:
            # A stray mark OCR read among the fillers ("...XKXL8<<<<<<<¢") is a filler too.
            line = re.sub(r"[^A-Za-z0-9<]", "<", line)
        line = line.upper()
        # OCR often reads runs of '<' as 'K', 'C' or 'E'; a real MRZ line still keeps some '<<'.
        if MRZ_LINE.match(line) and "<<" in line:
            found.append(line)
    return found


def mrz_document_code(text: str) -> str | None:
    for line in mrz_lines(text):
        if line[0] == "1":  # OCR reads the document code I as the digit one
            line = "I" + line[1:]
        if line[0] in "PIACV" and (line[1] == "<" or line[1].isalpha()):
            return line[:2].rstrip("<") or line[0]
    return None


def issued_to_a_foreigner(text: str) -> bool | None:
    """Whether the zone's issuing state differs from its holder's nationality; None when the zone
    does not show both as letters (OCR read a digit, or the lines are missing)."""
    lines = mrz_lines(text)
    for index, line in enumerate(lines):
        if line[0] not in "1IAC" or index + 1 >= len(lines):
            continue
        following = lines[index + 1]
        # Line 2 must be the zone's second line (OCR may have lost it and the names line follows):
        # TD1 opens it with the birth date, its check digit and the sex, nationality after the
        # expiry date; TD2 and TD3 put the nationality between document number and birth date.
        if len(line) <= 32:
            birth, sex, nationality = following[0:7], following[7:8], following[15:18]
        else:
            birth, sex, nationality = following[13:20], following[20:21], following[10:13]
        issuing, nationality = line[2:5].strip("<"), nationality.strip("<")
        if not (birth.isdigit() and sex in ("M", "F", "<", "X") and issuing.isalpha() and nationality.isalpha()):
            return None
        return issuing != nationality
    return None


def detect_language(text: str) -> str | None:
    """'de', 'en' or None, from common function words; None when there is too little to tell."""
    words = re.findall(r"[a-zäöüß]+", text.lower())
    german = sum(1 for w in words if w in GERMAN_WORDS)
    english = sum(1 for w in words if w in ENGLISH_WORDS)
    german += len(re.findall(r"[äöüß]", text.lower())) // 3
    if max(german, english) < 3:
        return None
    return "de" if german >= english else "en"


GERMAN_WORDS = frozenset("der die das und für mit von den des ist nicht auf sie bei zum zur im am "
                         "ein eine einer wird werden nach über vom oder als auch ihr ihre bitte".split())
ENGLISH_WORDS = frozenset("the and of to for with from is your this on by date at are be please "
                          "you our an as it not will invoice total amount".split())
