"""Fields of an invoice or a receipt: from an embedded e-invoice XML when there is one, else from the
page layout and text, net + tax = total cross-checked."""
import re
from collections import Counter
from datetime import date
from decimal import Decimal

from leadflow.extractor.fields import parse as p
from leadflow.extractor.fields.einvoice import find_invoice_xml, parse_invoice_xml
from leadflow.extractor.fields.finding import (CEILING, FLAT_LABEL, GUESS, LOOSE, STRUCTURE, Check, FieldsRead,
                                               Findings, label_test, lexicon, plain)
from leadflow.extractor.fields.issuer import (SALUTATION, address_above, addressed, banks, customer_firms, first_line,
                                              in_mixed_case, letterhead_name, registered_name, with_legal_form,
                                              without_edge_marks)
from leadflow.extractor.fields.types import AMOUNT, CURRENCY, DATE, TEXT

SCHEMAS: dict[str, dict] = {
    "issuer": TEXT,
    "number": TEXT,
    "date": DATE,
    "net": AMOUNT,
    "tax": AMOUNT,
    "total": AMOUNT,
    "currency": CURRENCY,
    "source": {"enum": ["xml", "text", None], "description": "embedded e-invoice XML or recovered text"},
}

# "Rechnungsnummer." ending a sentence ("... unter Angabe der Rechnungsnummer.") mentions the number:
# it labels nothing, and below it stand the letter's closing lines and the foot's register numbers.
MENTION = r"(?!\.\s*$)"
# Any kind of bill before the dash and "Nr." of its number: "Provisionsrechnung - Nr.", "Rechnung über
# Maklercourtage – Nr." (OCR reads "über" as "uber" or "iiber", the dash as a long one).
BILL = r"\w*rechnung(?:\s+(?:über|uber|iiber|zur|for)\s+\w+)?\s*"
# A subtotal named for a part ("Zwischensumme Lohn", "Zwischensumme Material") is that part's, not the net.
PART = r"(?!\s+(?!netto\b|eur\b)[a-zäöüß])"
NUMBER = (r"rechnungs-?\s?(?:nummer" + MENTION + r"|nr\.?)|rechnung\s+nr\.?|(?<![\w.-])re\.?-?\s?nr\.?|invoice\s*(?:number|no\.?|#)|factuurnummer"
          r"|" + BILL + r"[–—-]\s*nr\.?"
          r"|beleg-?nr\.?|bon-?nr\.?|kassenbon\s+nr:?|booking id|receipt\s*(?:no\.?|number)|^#")
# "Datum" and "date" as words of their own: inside a word they are another date's label
# ("Ausführungsdatum", "Lieferdatum"), and "Date due" is the due date.
# A bare "date" another word qualifies is that date's label ("Delivery date", "Order date", "Due
# date"), and so is one followed by what it dates ("Datum der Leistung", "Date of delivery").
OTHER_DATED = r"(?!\s+(?:due\b|(?:der|des|of)\s+(?:leistung|lieferung|delivery|service|supply|performance)))"
DATE_LABEL = (r"rechnungsdatum|invoice date|factuur\s?datum|belegdatum|(?<![\w-])datum\b" + OTHER_DATED +
              r"|(?<![\w-])(?<![A-Za-z] )date\b" + OTHER_DATED)
TOTAL = (r"gesamtbetrag|rechnungsbetrag|endsumme|endbetrag|gesamtsumme|zu zahlen|zahlbetrag|grand total|total due"
         r"|amount due|balance due|total amount|factuur totaal|\btotal\b|totaal|\bsumme\b")
NET = (r"nettobetrag|summe netto|zwischensumme" + PART + r"|subtotal|untaxed amount"
       r"|total excl\.?|net amount|grondslag|\bnetto\b")
# A hotel's "City tax" is a charge of its own, no VAT.
TAX = r"mwst\.?-?betrag|umsatzsteuer|\bmwst\b|\bust\b|\bvat\b|(?<!city )(?<!tourist )\btax\b|btw bedrag"
CURRENCIES = {"€": "EUR", "EUR": "EUR", "EURO": "EUR", "$": "USD", "USD": "USD", "£": "GBP", "GBP": "GBP",
              "CHF": "CHF", "Rs": "INR", "INR": "INR", "₹": "INR"}
XML_CONFIDENCE = 0.99  # the invoice's own data
LEGAL_NAME = 0.02  # a brand's legal name, spelt out on the same page, is a little surer than the brand

NUMBER_LABEL = lexicon(r"re:rechnungs[\s\-]?nummer" + MENTION, r"re:rechnungs-?\s?nr\.?",
                       r"re:invoice\s*(?:number|no\.?|#)", r"re:beleg-?\s?nr\.?", r"re:gutschrift\s+nr\.?",
                       # Beside a label, also without the dash: "Rechnung Nr.", "Kostenberechnung Nr.".
                       "re:" + BILL + r"[–—-]?\s*nr\.?",
                       r"re:re\.?\s?-?\s?nr\.?", "document number", r"re:bill\s+no\.?")
DATE_LABEL_X = lexicon("rechnungs datum", r"re:re\.?\s?-?\s?datum", "invoice date", "beleg datum",
                       "re:datum" + OTHER_DATED, r"re:(?<![A-Za-z]\s)date" + OTHER_DATED,
                       "ausstellungs datum", "date of issue", "issue date")
# On a scan a label may be looked for glued to its neighbours; a bare "datum" glued to a word is
# another date's label (Leistungsdatum, Fälligkeitsdatum), so only the invoice's own labels are.
LOOSE[DATE_LABEL_X] = re.compile(r"rechnungs[\s\-]?datum|invoice[\s\-]?date|beleg[\s\-]?datum"
                                 r"|ausstellungs[\s\-]?datum|date[\s\-]?of[\s\-]?issue", re.IGNORECASE)
# A date after these is not the invoice's: when the work was done, when to pay, when it is debited.
OTHER_DATE = re.compile(r"leistung|liefer|ausführung|zeitraum|period|fällig|zahlbar|\bdue\b|\bbis\b|until"
                        r"|abbuch|buchen wir|lastschrift|einzug|geburt|\bborn\b|gültig|valid"
                        # Another paper's date: "Kaufvertrag vom 18.01.2026", "Ihr Auftrag vom ...".
                        r"|vertrag|auftrag|angebot|bestellung", re.IGNORECASE)
NET_LABEL = lexicon("netto betrag", "summe netto", "netto summe", r"re:zwischen[\s\-]?summe" + PART, "subtotal",
                    "sub-total", "net amount", "total net", "gesamt netto", "warenwert", "total excl\\.? vat", "netto")
TAX_LABEL = lexicon(r"re:(?:zzgl\.?\s+)?\d{1,2}(?:,\d)?\s?%\s+(?:ust|mwst|umsatzsteuer|mehrwertsteuer|vat)\.?",
                    r"re:(?:ust|mwst|umsatzsteuer|mehrwertsteuer|vat)\.?(?:\s+\d{1,2}(?:,\d)?\s?%)?",
                    r"re:zzgl\.?\s+(?:ust|mwst|umsatzsteuer)\.?", "mwst betrag", "tax amount", "btw")
TOTAL_LABEL = lexicon("gesamt betrag", "rechnungs betrag", "end betrag", "end summe", "gesamt summe", "zu zahlen",
                      "zahl betrag", "total due", "amount due", "balance due", "grand total", "total amount",
                      "summe brutto", "brutto betrag", "gesamt brutto", "total incl\\.? vat", "total", "betrag")
IS_LABEL = label_test(NUMBER_LABEL, DATE_LABEL_X, NET_LABEL, TAX_LABEL, TOTAL_LABEL,
                      re.compile(r"kundennummer|customer|bill to|pos\.?|menge|qty", re.IGNORECASE))
CHECKS = (
    Check(("net", "tax", "total"), lambda net, tax, total: abs(Decimal(net) + Decimal(tax) - Decimal(total))
          <= Decimal("0.05")),
)
# A rate and the amount it is taken of: "3 % aus 871.000,00 €", "19% auf 38,60", "7 % von EUR 12,00".
RATE_BASE = re.compile(r"\d{1,2}(?:[,.]\d{1,3})?\s?%\s*(?:(?:ust|mwst|umsatzsteuer|mehrwertsteuer|vat)\.?\s+)?"
                       r"(?:aus|auf|von|of|on)\s+(?:EUR\s?|€\s?)?"
                       r"(?:\d{1,3}(?:[.,]\d{3})+|\d+)(?:[,.]\d{2})?(?!\d)(?:\s?(?:€|EUR))?", re.IGNORECASE)
# The note a bill without VAT carries: a Kleinunternehmer's (§ 19 UStG), or its plain words.
NO_VAT = re.compile(r"§\s?19\s?(?:abs\.\s?1\s)?ustg|kleinunternehmer"
                    r"|(?:keine|ohne)\s+(?:umsatzsteuer|mwst|mehrwertsteuer)\s+(?:berechnet|ausgewiesen|erhoben)",
                    re.IGNORECASE)
LETTER_DATE = re.compile(r"[A-ZÄÖÜ][\w.äöüß\- ()/]{1,40},\s+den\s+(\d.*)$")
SHORT_DATE = re.compile(r"(\d{1,2})\.(\d{1,2})\.(\d{2})(?![\d.,])")
# OCR reads the section sign as a dollar: "$ 35a EStG", "$ 19 UStG" cite a law, not an amount.
SECTION_SIGN = re.compile(r"\$\s?\d{1,3}[a-z]?(?:\s+Abs\.\s?\d+)?(?:\s+(?:S\.|Satz|Nr\.)\s?\d+)?\s+"
                          r"(?:EStG|UStG|BGB|HGB|GewO|AO|MaBV|ZPO|SGB|KStG|GrEStG|StBVV|GNotKG|BauGB|WEG|HOAI|GOÄ)\b")
CURRENCY_TOKEN = re.compile(r"(€|\$|£|₹|\bEURO?\b|\bUSD\b|\bGBP\b|\bCHF\b|\bINR\b|\bRs\b)")


def parse(reading) -> FieldsRead:
    xml = find_invoice_xml(reading.attachments)
    if xml:
        fields = parse_invoice_xml(xml)
        if fields:
            # The XML is the legally binding invoice (ZUGFeRD/Factur-X); the printed page is
            # only its rendering, so where they differ the XML wins.
            return plain({**fields, "source": "xml"}, SCHEMAS, XML_CONFIDENCE)
    text, layout = reading.text, reading.layout
    f = Findings(SCHEMAS)
    f.look(layout, "number", NUMBER_LABEL, _identifier, is_label=IS_LABEL)
    f.look(layout, "date", DATE_LABEL_X, _labelled_date, is_label=IS_LABEL, skip_line=ITEMS_HEAD.search)
    f.look(layout, "net", NET_LABEL, _figure, is_label=IS_LABEL)
    # Below a label too (a summary box: "Summe netto | 19 % MwSt | Summe brutto" over its three
    # figures), but not under an items table's head, whose columns hold the rows' amounts.
    f.look(layout, "tax", TAX_LABEL, _figure, is_label=IS_LABEL, skip_line=ITEMS_HEAD.search)
    totals = layout.find(TOTAL_LABEL, p.money, is_label=IS_LABEL, skip_line=ITEMS_HEAD.search) if layout else []
    # Totals repeat (per page, carried over); the last one stated is the invoice's.
    for order, hit in enumerate(totals):
        f.offer("total", hit.value, hit.confidence - 0.01 * (len(totals) - 1 - order), hit.label, hit.page)
    blocks = layout.address_blocks()
    customers = customer_firms(layout, blocks)
    for order, (line, page, index) in enumerate(blocks):
        # The letterhead's address is the sender's; later blocks are the customer's, and so is one
        # under "Herrn" / "Frau" (a letterhead of a brand word alone leaves the window's block first).
        sender = (order == 0 and page == blocks[0][1] and index <= 3 and not addressed(layout, index)
                  and not address_above(layout, index))
        f.offer("issuer", p.company_name(line) or (letterhead_name(line) if sender else None),
                STRUCTURE if sender else GUESS - 0.1, "address block", page)
    flat = parse_fields(text)
    f.offer("issuer", p.sender(text) or p.comma_sender(text), STRUCTURE)
    f.offer("issuer", p.company(text), GUESS + 0.05)
    f.offer("issuer", first_line(text), GUESS - 0.1)
    for name in ("number", "net", "tax", "total"):
        f.offer(name, flat[name], FLAT_LABEL)
    # Only a labelled date is as sure as a label: the page's first date is a guess (below).
    f.offer("date", p.after_label(_without_items_heads(text), DATE_LABEL, _labelled_date), FLAT_LABEL)
    f.offer("date", _letter_date(text), STRUCTURE)
    f.offer("date", _first_date(text), GUESS - 0.1)
    f.offer("currency", flat["currency"], FLAT_LABEL)
    if NO_VAT.search(text):
        # A Kleinunternehmer (§ 19 UStG) charges no VAT: the VAT is nought and the total is the net.
        f.offer("tax", "0.00", STRUCTURE)
        for candidate in list(f.candidates["total"]):
            f.offer("net", candidate.value, candidate.confidence - 0.05, "no VAT", candidate.page)
    for net, tax, total, line in _sum_rows(text):
        # A VAT summary's sum row ("Total  491.00  34.89  525.89"): net, VAT and gross side by side.
        f.offer("total", total, FLAT_LABEL + 0.1, line)
        f.offer("net", net, FLAT_LABEL + 0.1, line)
        f.offer("tax", tax, FLAT_LABEL + 0.1, line)
    for net, tax, total in _vat_inside(text):
        # Labels OCR could not read: the largest amount and the VAT a German rate leaves inside it.
        f.offer("total", total, GUESS, "VAT inside the largest amount")
        f.offer("tax", tax, GUESS, "VAT inside the largest amount")
        f.offer("net", net, GUESS, "VAT inside the largest amount")
    rated = _taxes_by_rate(text)
    if len(rated) >= 2:
        # Goods at 7 % and 19 %: the VAT is the sum of the rates' VAT, the net the total less it.
        tax = sum(rated.values(), Decimal(0))
        f.offer("tax", f"{tax:.2f}", FLAT_LABEL + 0.1, "VAT per rate")
        for candidate in list(f.candidates["total"]):
            f.offer("net", f"{Decimal(candidate.value) - tax:.2f}", candidate.confidence, "total less VAT per rate",
                    candidate.page)
    f.offer("source", "text", CEILING)
    for candidate in list(f.candidates["issuer"]):
        f.offer("issuer", with_legal_form(str(candidate.value), text), candidate.confidence + LEGAL_NAME,
                "legal name", candidate.page)
        f.offer("issuer", in_mixed_case(str(candidate.value), text), candidate.confidence + LEGAL_NAME,
                "legal name", candidate.page)
    f.offer("issuer", registered_name(text), STRUCTURE, "registered office")
    for candidate in f.candidates["issuer"]:
        candidate.value = without_edge_marks(str(candidate.value))
    # The bank a bill names for payment ("Bayerische Handelsbank AG · IBAN ...") is not who bills.
    bank_names = banks(text)
    f.candidates["issuer"] = [c for c in f.candidates["issuer"] if c.value not in bank_names]
    # A name after a salutation ("Herrn Tomás Novák", "HERRN ...") is the addressee, never who bills.
    f.candidates["issuer"] = [c for c in f.candidates["issuer"]
                              if c.value not in customers and not SALUTATION.match(str(c.value).strip())]
    # The VAT is never the whole bill: a VAT label whose own figure is unreadable takes the next
    # line's total from below it.
    totals = {c.value for c in f.candidates["total"]}
    f.candidates["tax"] = [c for c in f.candidates["tax"] if c.value not in totals or Decimal(c.value) == 0]
    # A bill paid on the spot says "Balance due 0.00" after the payment: what is left, not what it charged.
    if any(Decimal(c.value) > 0 for c in f.candidates["total"]):
        f.candidates["total"] = [c for c in f.candidates["total"] if Decimal(c.value) != 0]
    return f.resolve(CHECKS)


def parse_fields(text: str) -> dict:
    return {
        "issuer": p.sender(text) or p.company(text) or first_line(text),
        "number": p.after_label(text, NUMBER, _identifier, flags=re.IGNORECASE | re.MULTILINE),
        "date": p.after_label(text, DATE_LABEL, _labelled_date) or _first_date(text),
        "net": p.after_label(text, NET, _figure),
        "tax": p.after_label(text, TAX, _figure),
        "total": _last_label_value(text, TOTAL),
        "currency": _currency(text),
    }


def _identifier(raw: str) -> str | None:
    # A number printed in groups ("88 1205 7663"), when the groups are all the value there is.
    grouped = re.fullmatch(r"[\s:#.]*(\d{2,}(?: \d{2,})+)\s*", raw)
    if grouped:
        return grouped.group(1)
    m = re.search(r"[A-Za-z0-9][A-Za-z0-9/_.\-]*\d[A-Za-z0-9/_.\-]*", raw)
    # A date is no invoice number: a label whose own value OCR lost reaches the due date below it.
    if not m or p.iso_date(m.group(0)) or SHORT_DATE.fullmatch(m.group(0).rstrip(".")):
        return None
    return m.group(0).rstrip(".")


def _figure(raw: str) -> str | None:
    """The amount after a net or VAT label, past the base a rate was taken of: in "Courtage netto
    (3 % aus 871.000,00 €)  26.130,00 €" or "19 % MwSt. auf 1.000,00 €  190,00 €" the base is
    another figure (a purchase price, the net), not the one labelled."""
    return p.money(RATE_BASE.sub(" ", raw))


def _labelled_date(raw: str) -> str | None:
    """The date after the invoice's date label, also with a two-digit year ("Datum 03.02.26"): beside
    the label a short year is a date, while unlabelled "03.02.26" could be any figure's."""
    value = p.iso_date(raw)
    if value is not None:
        return value
    text = raw.strip(" :|")
    if m := SHORT_DATE.match(text):
        month = int(m.group(2))
    elif m := SHORT_MONTH_DATE.match(text):
        month = p.MONTHS.get(m.group(2).lower())
    if not m or not month:
        return None
    try:
        return date(2000 + int(m.group(3)), month, int(m.group(1))).isoformat()
    except ValueError:
        return None


# A hotel's or airline's date with the month's name and a two-digit year: "05-Jan-26", "05 JAN 26".
SHORT_MONTH_DATE = re.compile(r"(\d{1,2})[-\s]([A-Za-zä]{3})[-\s](\d{2})(?![\d.,])")
# An items table's header: its "Date" column holds the rows' dates, not the invoice's.
ITEMS_HEAD = re.compile(r"\b(?:description|beschreibung|bezeichnung|leistung|artikel|items?|text)\b"
                        r".*\b(?:amount|betrag|charges?|gesamt|total|preis|price|eur)\b", re.IGNORECASE)
# A rate with its VAT word and the VAT after it: "zzgl. 7 % USt auf 970,15  67,91", "MwSt 19 %  12,30".
RATED_TAX = re.compile(r"(?:(\d{1,2}(?:,\d)?)\s?%\s*(?:ust|mwst|umsatzsteuer|mehrwertsteuer|vat)\b"
                       r"|\b(?:ust|mwst|umsatzsteuer|mehrwertsteuer|vat)\.?\s+(\d{1,2}(?:,\d)?)\s?%)", re.IGNORECASE)
SUM_ROW = re.compile(r"^\s*(?:total|summe|gesamt|gesamtsumme|totals?\s+incl\.?|sum)\b", re.IGNORECASE)


def _without_items_heads(text: str) -> str:
    return "\n".join("" if ITEMS_HEAD.search(line) else line for line in text.splitlines())


def _sum_rows(text: str) -> list[tuple[str, str, str, str]]:
    """(net, VAT, gross, line) of each sum row of a VAT table: a total's line holding exactly three
    amounts of which the first two add up to the third."""
    out = []
    for line in p.lines(text):
        if not SUM_ROW.match(line):
            continue
        values = p.amounts(line)
        if len(values) == 3 and Decimal(values[1]) > 0 and abs(
                Decimal(values[0]) + Decimal(values[1]) - Decimal(values[2])) <= Decimal("0.02"):
            out.append((values[0], values[1], values[2], line.split()[0]))
    return out


VAT_RATES = (Decimal(19), Decimal(7))  # Germany's standard and reduced rates
LARGEST_TRIED = 2  # the largest amounts tried as the total: a bill's total is its largest figure or next to it


def _vat_inside(text: str) -> list[tuple[str, str, str]]:
    """(net, VAT, total) where a printed amount is exactly the VAT one rate leaves inside one of the
    largest amounts: the total and its VAT recognised by their arithmetic when OCR garbled their
    labels ("WeHBEML CWS ... 4,552.24"). Only the largest amounts are tried, so that an item's
    price and some small figure cannot pass for them by chance."""
    values = sorted({Decimal(v) for line in p.lines(text) for v in p.amounts(line) if Decimal(v) > 0}, reverse=True)
    found = []
    for total in values[:LARGEST_TRIED]:
        for rate in VAT_RATES:
            inside = (total * rate / (100 + rate)).quantize(Decimal("0.01"))
            tax = next((v for v in values if abs(v - inside) <= Decimal("0.01")), None)
            if tax is not None:
                found.append((f"{total - tax:.2f}", f"{tax:.2f}", f"{total:.2f}"))
    return found


def _taxes_by_rate(text: str) -> dict[str, Decimal]:
    """The VAT of each rate a bill lists on its own line ("zzgl. 7 % USt ... 67,91", "zzgl. 19 % USt
    ... 727,44"), one figure per rate: the last amount on the line, past the base it was taken of."""
    rated: dict[str, Decimal] = {}
    for line in p.lines(text):
        m = RATED_TAX.search(line)
        if not m or NET_WORD.search(line):
            continue
        rate = (m.group(1) or m.group(2)).replace(",", ".")
        values = p.amounts(RATE_BASE.sub(" ", line[m.start():]))
        if values and Decimal(rate) > 0 and rate not in rated:
            rated[rate] = Decimal(values[-1])
    return rated


NET_WORD = re.compile(r"netto|\bnet\b|warenwert|brutto|gross|incl|inkl", re.IGNORECASE)


def _letter_date(text: str) -> str | None:
    """A letter's own date line: the town, then "den" and the date ("Leipzig, den 24.07.2026")."""
    for line in p.lines(text):
        for column in p.segments(line):
            m = LETTER_DATE.match(column)
            if m:
                return p.iso_date(m.group(1))
    return None


def _first_date(text: str) -> str | None:
    """The first date that no other date's label names (a letter's "Köln, den 24.09.2026" is one)."""
    lines = p.lines(text)
    for number, line in enumerate(lines):
        columns = p.segments(line)
        for index, column in enumerate(columns):
            value = p.iso_date(column)
            if value is None:
                continue
            label = column + " " + (columns[index - 1] if index else "")
            if not re.search(r"[A-Za-zÄÖÜäöüß]{3}", label) and number:
                label += " " + lines[number - 1]  # the value below its label
            if not OTHER_DATE.search(label):
                return value
    return None


def _last_label_value(text: str, label: str) -> str | None:
    """Totals repeat (per page, carried over); the last one stated is the invoice's."""
    pattern = re.compile(label, re.IGNORECASE)
    found = None
    for line in p.lines(text):
        m = pattern.search(line)
        if m and not re.search(r"sub\s?total|zwischen", line[:m.end()], re.IGNORECASE):
            value = p.money(line[m.end():])
            if value is not None:
                found = value
    return found


def _currency(text: str) -> str | None:
    text = SECTION_SIGN.sub(" ", text)
    counts = Counter(CURRENCIES[m.group(1)] for m in CURRENCY_TOKEN.finditer(text))
    return counts.most_common(1)[0][0] if counts else None
