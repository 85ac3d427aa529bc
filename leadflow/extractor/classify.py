"""Classifying a document's type from its text by weighted German and English keywords."""
import math
import re

UNKNOWN = "unknown"
DOCUMENT_TYPES = ("payslip", "bank_statement", "tax_assessment", "wage_tax_certificate",
                  "employment_contract", "id_document", "residence_permit", "invoice", "receipt")
THRESHOLD = 0.6  # below this LeadFlow asks a person: a confident wrong answer costs more
HEAD_CHARS = 900  # the title and letterhead; a keyword there says more than one in a booking line
HEAD_BOOST = 1.5
SCALE = 4.0  # score at which confidence reaches about 0.63 before the margin is applied

# (pattern, weight). A title word weighs 4: alone, in the head, it just clears the threshold.
# Supporting words weigh less; each pattern counts once, wherever and however often it occurs.
KEYWORDS: dict[str, list[tuple[str, float]]] = {
    "payslip": [
        (r"gehaltsabrechnung|entgeltabrechnung|verdienstabrechnung|lohnabrechnung|bezügeabrechnung", 4),
        (r"abrechnung der brutto\s*/\s*netto|brutto\s*/\s*netto-?bezüge", 4),
        (r"\bpay\s?slip\b|\bpayslip\b|\bsalary statement\b|\bearnings statement\b|\bpay stub\b", 4),
        (r"netto-?verdienst|nettobezüge|nettolohn|\bnet pay\b", 2),
        (r"auszahlungsbetrag|überweisungsbetrag", 1.5),
        (r"gesamt-?brutto|\bgross pay\b", 1.5),
        (r"steuer-?brutto|[kr]v-brutto|sv-brutto", 1.5),
        (r"abrechnungsmonat|abrechnungszeitraum|\bpay period\b", 1),
        (r"\bstkl\b|steuerklasse|\btax class\b", 1),
        (r"[kr]v-beitrag|[ap]v-beitrag|sv-nummer|sozialversicherungsabzüge", 1),
    ],
    "bank_statement": [
        (r"kontoauszug|\bbank statement\b|\baccount statement\b|\bstatement of account\b", 4),
        (r"(alter|neuer) kontostand|kontostand|\bsaldo\b|\b(opening|closing) balance\b", 2),
        (r"buchungstag|buchungsdatum|wertstellung|\bvaluta\b|\bbooking date\b|\bvalue date\b", 1.5),
        (r"kontoinhaber|\baccount holder\b", 1),
        (r"\biban\b", 1),
        (r"gutschrift|lastschrift|dauerauftrag|\bdirect debit\b|\bstanding order\b", 1),
        (r"summe (belastungen|gutschriften|soll|haben)|übertrag", 1),
        (r"girokonto|\bcurrent account\b|\bchecking account\b", 0.5),
    ],
    "tax_assessment": [
        (r"steuerbescheid|einkommensteuerbescheid|bescheid für \d{4} über einkommensteuer"
         r"|bescheid über einkommensteuer|\btax assessment\b|\bnotice of assessment\b", 4),
        (r"zu versteuerndes einkommen|\btaxable income\b", 2),
        (r"einkommensteuer|\bincome tax\b", 1.5),
        (r"finanzamt|\btax office\b", 1.5),
        (r"festsetzung|festgesetzt|festzusetzende", 1.5),
        (r"summe der einkünfte|gesamtbetrag der einkünfte", 1),
        (r"rechtsbehelfsbelehrung|einspruch", 1),
        (r"erstattungsbetrag|nachzahlung|\brefund\b", 0.5),
    ],
    "wage_tax_certificate": [
        (r"lohnsteuerbescheinigung|\bwage tax certificate\b", 4),
        (r"einbehaltene lohnsteuer", 2),
        (r"dauer des dienstverhältnisses", 2),
        (r"\betin\b|transferticket", 1.5),
        (r"bruttoarbeitslohn", 1),
        (r"ausdruck der elektronischen", 1.5),
    ],
    "employment_contract": [
        (r"arbeitsvertrag|anstellungsvertrag|dienstvertrag|\bemployment (contract|agreement)\b"
         r"|\bcontract of employment\b", 4),
        (r"arbeitsverhältnis|\bemployment relationship\b", 1.5),
        (r"probezeit|\bprobation(ary)? period\b", 1.5),
        (r"\barbeitgeber\b.*|\bemployer\b", 0.5),
        (r"\barbeitnehmer\b|\bemployee\b", 0.5),
        (r"kündigungsfrist|kündigung|\bnotice period\b|\btermination\b", 1),
        (r"vergütung|bruttojahresgehalt|jahresgehalt|\bannual (gross )?salary\b|\bremuneration\b", 1),
        (r"\burlaub\b|erholungsurlaub|\bannual leave\b|\bholiday entitlement\b", 1),
        (r"arbeitszeit|\bworking hours\b", 0.5),
    ],
    "invoice": [
        (r"\brechnung\b|\binvoice\b|\bfactura\b|\bfactuur\b|\bfacture\b", 3),
        (r"kostenberechnung|kostenrechnung|honorarrechnung|schlussrechnung|abschlagsrechnung|teilrechnung"
         r"|\btax invoice\b|\bproforma\b", 3),
        (r"rechnungs-?(nummer|nr|datum)|\binvoice (number|no|date|#)|\bfactuurnummer\b", 2),
        (r"\bust-?id|umsatzsteuer|\bmwst\b|\bvat\b|\btax\b|\bbtw\b", 1),
        (r"nettobetrag|zwischensumme|\bsubtotal\b|\buntaxed\b|\bnet amount\b|\bsteuerbasis\b", 1),
        (r"gesamtbetrag|rechnungsbetrag|endsumme|endbetrag|\btotal\b|\bamount due\b|\btotaal\b", 1),
        (r"zahlbar|fällig|zahlungsziel|\bdue date\b|\bpayment terms\b|\bskonto\b", 1),
        (r"leistungsdatum|lieferdatum|\bbill to\b|\bship to\b|kundennummer|\bcustomer\b", 0.5),
    ],
    "receipt": [
        (r"quittung|kassenbon|kassenbeleg|kassenzettel|\breceipt\b|\bbeleg-?nr\b|\bbon-?nr\b", 4),
        (r"\bpayment receipt\b|\bcash receipt\b|\bzahlungsbeleg\b", 2),
        (r"\bzu zahlen\b|\bgesamtsumme\b|\bzahlbetrag\b", 1.5),
        (r"rückgeld|\bzurück\b|\bzuruck\b|\bchange due\b|\bgegeben\b", 1.5),
        (r"\bbar\b|bargeld|\bcash\b|ec-karte|girocard|kreditkarte", 1),
        (r"vielen dank für ihren einkauf|thank you for (your purchase|shopping)|auf wiedersehen", 2),
        (r"\bmwst\b|\bnetto\b.*\bbrutto\b|\bust-id", 0.5),
        (r"\bkasse\b|\bkas\d+|\btse\b|\bfiliale\b", 0.5),
    ],
    "id_document": [
        (r"reisepass|\bpassport\b|\bpasseport\b|personalausweis|\bidentity card\b"
         r"|carte d'identité|\bidentitätskarte\b", 3),
        (r"\bsurname\b|\bgiven names?\b|\bnationality\b|staatsangehörigkeit|\bnationalité\b", 1.5),
        (r"date of (birth|expiry|issue)|\bgültig bis\b|\bvalid until\b", 1),
    ],
    "residence_permit": [
        (r"aufenthaltstitel|aufenthaltserlaubnis|niederlassungserlaubnis|\bresidence permit\b"
         r"|blaue karte eu|\beu blue card\b|titre de séjour|aufenthaltskarte", 4),
        (r"\bvisum\b|\bvisa\b", 1),
    ],
}
COMPILED = {kind: [(re.compile(p, re.IGNORECASE), w) for p, w in pats] for kind, pats in KEYWORDS.items()}

# An ICAO 9303 machine-readable zone: 30, 36 or 44 characters of A-Z, 0-9 and filler '<'.
MRZ_LINE = re.compile(r"^[A-Z0-9<]{28,46}$")
MRZ_WEIGHT = 8  # a parsed MRZ is close to proof of an identity or travel document


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
    head = text[:HEAD_CHARS]
    scores = {kind: 0.0 for kind in DOCUMENT_TYPES}
    for kind, patterns in COMPILED.items():
        for pattern, weight in patterns:
            if pattern.search(head):
                scores[kind] += weight * HEAD_BOOST
            elif pattern.search(text):
                scores[kind] += weight
    code = mrz_document_code(text)
    if code:
        # ICAO document codes: P passport; I, A, C identity cards; Germany's eAT residence
        # card is "AR" and a visa (V) is itself a residence title under §4 AufenthG.
        if code.startswith("V") or code in ("AR", "IR", "RP"):
            scores["residence_permit"] += MRZ_WEIGHT
        else:
            scores["id_document"] += MRZ_WEIGHT
    return scores


def mrz_lines(text: str) -> list[str]:
    """Lines that look like a machine-readable zone, with spaces OCR put inside them removed."""
    found = []
    for raw in text.splitlines():
        line = raw.replace(" ", "").upper()
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
