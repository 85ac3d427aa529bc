"""Who bills: the issuer of an invoice or a receipt, from its letterhead, its address blocks and the foot's
legal line; never the customer it is addressed to (after "Herrn", "Attn."), nor the bank it names for
payment, nor a photographed page's edge marks beside the name."""
import re

from leadflow.extractor.fields import parse as p

# The addressee block's salutation, in any case ("HERRN" in an upper-case window too).
SALUTATION = re.compile(p.SALUTATION.pattern, re.IGNORECASE)


def with_legal_form(name: str, text: str) -> str | None:
    """A name without a legal form ("LICHTBLAU ENERGIE", "Stadtwerke Auenfeld": a logo or brand) that
    the page spells out with one elsewhere ("Lichtblau Energie AG" in the return line or the foot):
    the legal name."""
    words = name.split()
    if p.LEGAL_FORM.search(name) or not 1 < len(words) <= 5:
        return None
    pattern = re.compile(r"(?<![\w\-])" + r"\s+".join(map(re.escape, words)) + r"\s+", re.IGNORECASE)
    for m in pattern.finditer(text):
        form = p.LEGAL_FORM.match(text, m.end())
        if form:
            # The legal name may open with a word the brand leaves out ("Gasthof Zur Alten Mühle OHG").
            lead = LEADING_WORDS.search(text, 0, m.start())
            start = lead.start() if lead else m.start()
            return " ".join(text[start:m.end()].split() + [form.group(0)])
    # The legal name may add words to the brand: "Parkhotel Seeblick Betriebs GmbH", "Nordstern
    # Apartments & Suites GmbH", "Hotel Lindenhof am Stadtpark GmbH" (on one line, no figures).
    for m in pattern.finditer(text):
        if "\n" in text[m.start():m.end()]:
            continue
        more = EXTRA_WORDS.match(text, m.end())
        form = p.LEGAL_FORM.match(text, more.end()) if more else None
        if form:
            return " ".join(text[m.start():more.end()].split() + [form.group(0)])
    return None


# One or two capitalised words that open a line or a segment of the foot ("·", "|") right before a name.
LEADING_WORDS = re.compile(r"(?:^|(?<=[·|•]\s)|(?<=\n))[ \t]*(?:[A-ZÄÖÜ][\wäöüß\-]+[ \t]+){1,2}\Z", re.MULTILINE)
EXTRA_WORDS = re.compile(r"(?:(?:&|und|and|am|an\s+der|im|[A-ZÄÖÜ][\wäöüß\-]+)[ \t]+){1,3}(?=" + p.LEGAL_FORM.pattern + ")")


def in_mixed_case(name: str, text: str) -> str | None:
    """A name printed in capitals in the letterhead ("GROSSHANDEL BRINKMANN GMBH") as the page spells
    it in mixed case elsewhere, with its full legal form ("Großhandel Brinkmann GmbH & Co. KG")."""
    if name != name.upper() or not re.search(r"[A-ZÄÖÜ]{2}", name):
        return None
    form = p.LEGAL_FORM.search(name)
    core = name[:form.start()].split() if form and form.start() > 0 else name.split()
    if not core:
        return None
    pattern = re.compile(r"(?<![\w\-])" + r"\s+".join(re.escape(word).replace("SS", "(?:SS|ß)") for word in core)
                         + r"\s+", re.IGNORECASE)
    for m in pattern.finditer(text):
        found = text[m.start():m.end()]
        legal = p.LEGAL_FORM.match(text, m.end())
        if found != found.upper() and legal:
            return " ".join(found.split() + [legal.group(0)])
    return None
def addressed(layout, index: int) -> bool:
    """Whether an address block's name line is an addressee's: "Herrn" / "Frau" on it or just above,
    or two lines above with only debris between (a photo's window edge read as "x > mae")."""
    above = [index - 1, index]
    if index >= 2 and not re.search(r"[A-Za-zÄÖÜäöüß]{4,}", layout.lines[index - 1].text):
        above.insert(0, index - 2)
    lines = [layout.lines[i].text for i in above if i >= 0]
    return any(SALUTATION.match(line.strip()) for line in lines)


FOR_ATTENTION = re.compile(r"(?:attn\.?|attention|z\.\s?hd\.?|zu\s+händen|c/o)(?:\s|:|$)", re.IGNORECASE)


def address_above(layout, index: int) -> bool:
    """Whether a postcode and town stand on a line above the block on its page: the letterhead (or a
    return line) gave the sender's address already, so this block is the customer's."""
    page = layout.lines[index].page
    return any(layout.lines[i].page == page and TOWN_ABOVE.search(layout.lines[i].text) for i in range(index))


TOWN_ABOVE = re.compile(r"(?<![\d.,])\d{5}\s+[A-ZÄÖÜ][a-zäöüß]{2,}")


def customer_firms(layout, blocks) -> set[str]:
    """The firm a bill is addressed to "for the attention of" a person: the line above "Attn. Lan
    Nguyen", "z. Hd. Frau ...", "c/o ..." in an address block is the customer, never the issuer."""
    firms = set()
    for line, _, index in blocks:
        if FOR_ATTENTION.match(line.strip()) and index > 0:
            above = layout.lines[index - 1].text.strip()
            firms.update(name for name in (above, p.company_name(above)) if name)
    return firms
# A heading says what the paper is, not who sent it ("PAYMENT RECEIPT", "Rechnung").
DOCUMENT_TITLE = re.compile(r"^(?:(?:tax|sales|payment|cash|proforma|pro-forma|final|commercial)\s+)?"
                            r"(?:invoice|receipt|bill|rechnung|quittung|kassenbon|beleg|gutschrift|zahlungsbeleg"
                            r"|schlussrechnung|abschlagsrechnung|factuur|facture|factura)$", re.IGNORECASE)


def letterhead_name(raw: str) -> str | None:
    words = raw.strip(" |").split()
    if DOCUMENT_TITLE.match(" ".join(words)) or raw.strip(" |").endswith(":"):
        return None
    if 1 <= len(words) <= 6 and not re.search(r"\d|@", raw) and words[0][:1].isupper():
        return " ".join(words)
    return None


# The foot's legal line: the firm's name, then where it is registered and who runs it.
REGISTRY_WORDS = re.compile(r"^(?:sitz\b|registered office|amtsgericht|registergericht|handelsregister|hrb?\s?\d"
                            r"|geschäftsführ|managing director|ust-?id|vat (?:no|id))", re.IGNORECASE)
FOOT_SEPARATOR = re.compile(r"\s+[·•|]\s+|\s+[-–—:]\s+")
PAYMENT_LINE = re.compile(r"\biban\b|\bbic\b|\bswift\b|bankverbindung|\bbank details\b|\bkonto\b|\bblz\b",
                          re.IGNORECASE)


def registered_name(text: str) -> str | None:
    """The name before the foot's registry words ("Architekturbüro Linde & Partner · Sitz Berlin ·
    Amtsgericht ..."): the issuer's own, also when its letterhead is a logo or shows no legal form."""
    for line in p.lines(text):
        parts = [part.strip() for part in FOOT_SEPARATOR.split(line.strip()) if part.strip()]
        for name, following in zip(parts, parts[1:]):
            if (REGISTRY_WORDS.match(following) and not re.search(r"\d|@|:", name) and 1 <= len(name.split()) <= 6
                    and not REGISTRY_WORDS.match(name) and len(re.findall(r"[^\W\d_]", name)) >= 3):
                return name
    return None


def banks(text: str) -> set[str]:
    """A bank's name on a payment line (one with an IBAN or BIC); the firm's own name on that line
    is not one ("Malerbetrieb Müller · IBAN ...")."""
    names = set()
    for line in p.lines(text):
        if PAYMENT_LINE.search(line):
            for part in FOOT_SEPARATOR.split(line.strip()):
                part = part.strip()
                if BANK_WORD.search(part) and not PAYMENT_LINE.search(part):
                    names.update((part, p.company_name(part) or part))
    return names


BANK_WORD = re.compile(r"bank\b|bank\s|sparkasse|volksbank|raiffeisen|postbank|\bbanco\b|\bbanque\b", re.IGNORECASE)


# A photographed page's edge, its shadow or a hole punch read as a mark or a letter beside a line.
EDGE_MARKS = re.compile(r"^(?:[^\w\s]+\s+|[a-z0-9]\s+(?=\w{2}))+|(?:\s+[^\w\s&.)]+|\s+[a-z0-9])+$")


def without_edge_marks(name: str) -> str:
    """"a Küchenstudio Schneider -" as "Küchenstudio Schneider": a lone small letter, digit or mark at
    either end of a name is the paper's edge, not part of the name ("Rahul & Co" keeps its ampersand,
    "A. Berger Bau" its initial)."""
    name = EDGE_MARKS.sub("", name).strip() or name
    # OCR reads a small ü as "ii" ("Kiichenstudio"); between consonants no German or English name has it.
    return MISREAD_U.sub("ü", name)


MISREAD_U = re.compile(r"(?<=[b-df-hj-np-tv-zB-DF-HJ-NP-TV-Z])ii(?=[b-df-hj-np-tv-z])")


def first_line(text: str) -> str | None:
    """The letterhead's first words; OCR debris of a logo (one or two letters) is skipped."""
    for line in p.lines(text)[:5]:
        # The first segment with a word: a photo's edge reads as marks and letters in columns of
        # their own beside the name ("| ur | Malerbetrieb Farbenfroh E").
        segments = p.segments(line)
        segment = next((part for part in segments if re.search(r"[A-Za-zÄÖÜäöüß]{3,}", part)), "")
        # A heading is no name, nor is a label ("Guest Name:"), nor logo debris without one word
        # of three letters ("RE ET SC. nn").
        if (re.search(r"[A-Za-zÄÖÜäöüß]{3,}", segment) and not DOCUMENT_TITLE.match(segment)
                and not segment.endswith(":")):
            return without_edge_marks(re.sub(r"(?:\s+[A-Z])+$", "", segment)) if len(segments) > 1 else segment
    return None
