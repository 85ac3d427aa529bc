"""The classifier's evidence: per document type, the words (as patterns) that say what a paper is, each
with its weight. leadflow/extractor/classify.py weighs them with the text's shape."""

# (pattern, weight). A title word weighs 4: alone, in the head, it just clears the threshold.
# Supporting words weigh less; each pattern counts once, wherever and however often it occurs.
# Umlauts and ß also match their spelt-out and OCR-dropped forms (normalise.fold_pattern): write them as printed.
# The text is normalised first (normalise.for_classifying): spaced titles joined, hyphenated words whole.
KEYWORDS: dict[str, list[tuple[str, float]]] = {
    "payslip": [
        (r"gehaltsabrechnung|entgeltabrechnung|verdienstabrechnung|lohnabrechnung|bezügeabrechnung", 4),
        # The compounds payroll names its paper with: what is paid, then what kind of paper
        # ("Entgeltnachweis", "Verdienstübersicht", "Gehaltsmitteilung", "Lohn- und Gehaltsabrechnung").
        (r"\b(?:entgelt|gehalts?|lohn|verdienst|bezüge|besoldungs|vergütungs)-?\s?(?:abrechnung|nachweis|mitteilung"
         r"|übersicht|aufstellung|zettel|streifen)\b", 4),
        (r"gesetzliche abzüge|\b(?:total |statutory )?deductions\b|summe steuern|\bsocial security\b", 1.5),
        (r"\blohnarten?\b|\bwage types?\b|\bpay (?:elements|components)\b", 1),
        # A civil servant's pay office: "Bezügemitteilung", "Besoldungsmitteilung", "Mitteilung über die Bezüge".
        (r"bezügemitteilung|besoldungsmitteilung|besoldungsabrechnung|mitteilung über (die )?(bezüge|besoldung)", 4),
        (r"besoldungsgruppe|familienzuschlag|dienstbezüge", 1),
        (r"abrechnung der brutto\W{0,4}netto|brutto\W{0,4}netto-?bezüge", 4),
        (r"\bpay\s?slip\b|\bpayslip\b|\bsalary statement\b|\bearnings statement\b|\bpay stub\b"
         r"|\b(?:pay|payroll|remuneration|wage) statement\b|\bstatement of earnings\b|\b(?:wage|salary) slip\b"
         r"|\bpay advice\b", 4),
        (r"netto-?\s?(?:verdienst|bezüge|lohn|gehalt|entgelt)\b|\bnet (?:pay|income|salary|wages|earnings)\b"
         r"|\btake-?\s?home pay\b", 2),
        (r"auszahlungsbetrag|überweisungsbetrag", 1.5),
        (r"gesamt-?brutto|brutto-?\s?(?:bezüge|verdienst|lohn|gehalt|entgelt|gesamt)\b"
         r"|\bgross (?:pay|earnings|salary|wages)\b|\btotal gross\b", 1.5),
        # The running totals of the year a payslip carries, and wage tax "laufend" against one-off pay.
        (r"\bjahreswerte\b|\bkumulierte werte\b|\bjahressummen\b|\byear[- ]to[- ]date\b|\bytd\b"
         r"|lohnsteuer\s?(?:lfd|laufend)", 1),
        (r"steuer-?brutto|[kr]v-brutto|sv-brutto", 1.5),
        (r"abrechnungsmonat|abrechnungszeitraum|\babr\.?\s?-?\s?(?:monat|zeitraum)|\bpay(?:roll)? period\b"
         r"|\bpay date\b", 1),
        (r"\bstkl\b|steuerklasse|\b(?:lst|lohnsteuer)-?\s?klasse|\btax (?:class|bracket)\b", 1),
        (r"[kr]v-beitrag|[ap]v-beitrag|sv-nummer|sozialversicherungsabzüge", 1),
    ],
    "bank_statement": [
        (r"konto\s?-?auszug|\bkto\.?\s?-?auszug|\bbank statement\b|\baccount statement\b|\bstatement of account\b"
         r"|kontoumsätze|umsatzübersicht|umsatzliste|umsatzanzeige|finanzreport"
         r"|\btransaction (history|statement|report|list)\b|\baccount (activity|transactions)\b"
         r"|\bstatement of transactions\b", 4),
        # "Statement" alone heads many banks' papers; a payslip's "salary statement" has its own title.
        (r"\b(monthly |e-?|online |account |current account )?statement\b|\bumsätze\b|\btransactions\b", 1.5),
        (r"(alter|neuer) kontostand|kontostand|\bsaldo\b|anfangssaldo|endsaldo|saldovortrag"
         r"|\b(opening|closing|starting|start|ending|end|beginning|final|previous|new|available) balance\b"
         r"|\bbalance (brought|carried) forward\b|\bbalance forward\b", 2),
        (r"\bbalance\b|\bdebit\b.*\bcredit\b|\bcredit\b.*\bdebit\b", 1),
        (r"\boverdraft\b|dispositionskredit|\bdispo\b|überziehung|sollzins|habenzins|\b(debit|credit) interest\b"
         r"|\bsort code\b", 1),
        (r"buchungstag|buchungsdatum|wertstellung|\bvaluta\b|buchungstext"
         r"|\b(booking|value|posting|transaction) date\b", 1.5),
        (r"\bmoney (in|out)\b|\bpaid (in|out)\b|\bdeposits\b|\bwithdrawals\b|\bsoll\s*/\s*haben\b"
         r"|\bbelastungen\b|\bgutschriften\b", 1.5),
        (r"kontoinhaber|\baccount (holder|owner)\b", 1),
        (r"\biban\b", 1),
        (r"gutschrift|lastschrift|dauerauftrag|\bdirect debit\b|\bstanding order\b", 1),
        (r"summe (belastungen|gutschriften|soll|haben)|übertrag", 1),
        (r"girokonto|tagesgeldkonto|sparkonto|\bcurrent account\b|\bchecking account\b|\bsavings account\b", 0.5),
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
        # The office's own file number and its letter's words to the taxpayer's return.
        (r"\bst\.?\s?-?nr\b|\bsteuer-?nummer\b|\btax (?:number|reference)\b", 1),
        (r"ihre?r? (?:steuer)?erklärung|\berläuterungen\b|\byour (?:tax )?return\b", 1),
        # A later page photographed alone has no title: its computation and its settlement say what
        # it is (what was withheld from wages is set off, what remains is paid or refunded).
        (r"steuerabzug vom (arbeits)?lohn|verbleibende (beträge|steuer|einkommensteuer)|anzurechnende (lohnsteuer|steuer)"
         r"|abzüglich (lohnsteuer|vorauszahlungen|steuerabzug)|bereits (gezahlt|entrichtet|getilgt)"
         r"|\btax deducted from (wages|salary)\b|\bremaining (amount|balance)\b|\bcredited taxes?\b", 2),
        (r"einkünfte aus (nichtselbständiger|selbständiger|gewerbebetrieb|kapitalvermögen|vermietung)"
         r"|\bincome from (employment|self-employment|capital|renting)\b", 1.5),
        (r"werbungskosten|sonderausgaben|außergewöhnliche belastungen|vorsorgeaufwendungen|vorauszahlungen"
         r"|\bincome-related expenses\b|\bspecial expenses\b|\bprepayments\b", 1),
    ],
    "wage_tax_certificate": [
        (r"lohnsteuerbescheinigung|\bwage tax certificate\b|\b(?:annual )?wage tax statement\b"
         r"|\bcertificate of (?:wages|wage tax|income tax)\b|\bincome tax certificate\b", 4),
        (r"einbehaltene lohnsteuer", 2),
        (r"dauer des dienstverhältnisses", 2),
        (r"\betin\b|transferticket", 1.5),
        (r"bruttoarbeitslohn", 1),
        (r"ausdruck der elektronischen", 1.5),
        (r"bescheinigungszeitraum|\bcertificate period\b", 2),
        (r"\b(wage|income) tax withheld\b|\bgross wages\b", 1.5),
        # The certificate's numbered lines in the form's own words (lines 22-25): a payslip names
        # the same contributions in short ("RV-Beitrag AN"), not so.
        (r"arbeitnehmeranteil zur gesetzlichen rentenversicherung|arbeitnehmerbeiträge zur (gesetzlichen )?"
         r"(kranken|pflege|arbeitslosen)versicherung|arbeitgeberanteil zur gesetzlichen rentenversicherung", 2),
        # The certificate's period: a whole calendar year (or the part of it the job lasted).
        (r"\b01\.01\.(20\d\d)\s*(?:-|–|bis)\s*31\.12\.\1\b", 1.5),
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
        # A business's own paperwork (a till slip prints none of it): where the firm is registered,
        # and where to pay it.
        (r"\bregistered office\b|sitz der gesellschaft|handelsregister|registergericht|amtsgericht"
         r"|\bhrb?\s?\d|geschäftsführer|\bmanaging director\b|\bcompany (registration|reg\.?) (no|number)\b"
         r"|\bgstin\b|\bcin\b", 1),
        (r"bankverbindung|\bbank (details|name)\b|\bin favou?r of\b|\bpayable to\b|\bifsc\b|\bswift code\b", 1),
    ],
    "receipt": [
        (r"quittung|kassenbon|kassenbeleg|kassenzettel|\breceipt\b|\bbon\s?-?nr\b|bonnummer"
         r"|kundenbeleg|einkaufsbeleg", 4),
        # A voucher's number: a till's, but an invoice may number itself so too ("Beleg-Nr.").
        (r"\bbeleg\s?-?nr\b|belegnummer", 1.5),
        (r"\bcash receipt\b|\bzahlungsbeleg\b|\bsales receipt\b|\btill receipt\b", 2),
        (r"\bzu zahlen\b|\bgesamtsumme\b|\bzahlbetrag\b|\bsumme\s+eur\b|\btotal\s+eur\b", 1.5),
        (r"rückgeld|\bzurück\b|\bchange( due)?\b|\bgegeben\b|\btendered\b", 1.5),
        (r"\bbar\b|bargeld|\bcash\b|ec-karte|girocard|kreditkarte|kartenzahlung|\bcard payment\b"
         r"|\bmastercard\b|\bmaestro\b|\bvisa (debit|credit)\b|\bdebit card\b|kontaktlos|\bcontactless\b", 1),
        (r"vielen dank für ihren (einkauf|besuch)|danke für ihren (einkauf|besuch)"
         r"|thank you for (your purchase|shopping|your visit)|auf wiedersehen|bis zum nächsten mal", 2),
        (r"\bmwst\b|\bnetto\b.*\bbrutto\b|\bust-id", 0.5),
        (r"\bkasse\b|\bkas\d+|\btse\b|\bfiliale\b|kassierer|\bbediener\b|\bcashier\b|\bterminal\b", 0.5),
        # A till's VAT table heads its columns on one line ("MWST% MWST + Netto = Brutto",
        # "Typ Netto MwSt Brutto"); an invoice spells its VAT out in sentences and totals rows.
        (r"\b(mwst|ust)\b.{0,24}\bnetto\b.{0,24}\bbrutto\b|\bnetto\b.{0,24}\b(mwst|ust)\b.{0,24}\bbrutto\b", 1),
        # German tills sign every sale with a TSE (KassenSichV) and print its numbers.
        (r"\btse[- ]?(transaktion|start|stop|ende|signatur|seriennummer|zeitformat)|kassen-?seriennummer", 2),
        (r"\bkundenkarte\b|\bpayback\b|\bbonuspunkte\b|\btreuepunkte\b|\btreuekarte\b|\bstempelkarte\b"
         r"|\bbonuskarte\b", 1),
        # A card terminal's own slip below the sale; also on fuel and pharmacy receipts.
        (r"\bterminal-?id\b|\bta-?nr\b|\bkarten-?nr\b|zahlung erfolgt|\btankstelle\b|\bzapfs[äa]ule\b", 1),
        # A restaurant's bill: the form a business meal's receipt carries for the tax office
        # (§ 4 Abs. 5 Nr. 2 EStG), and the table and waiter a till prints; a caterer's invoice has neither.
        (r"bewirtungsbeleg|bewirtete person|anlass der bewirtung|bewirtungsaufwendungen", 3),
        (r"\btisch\s?(nr\.?\s?)?\d|\bbedienung\b|\bkellner(in)?\b|\btrinkgeld\b|\bserved by\b|\btable\s?\d", 1.5),
    ],
    "id_document": [
        (r"reisepass|\bpassport\b|\bpasseport\b|\bpasaporte\b|\bpassaporto\b|\bpaspoort\b|personalausweis"
         r"|\bidentity card\b|\bid card\b|carte d'identité|carta d'identità|\bidentitätskarte\b"
         r"|documento nacional de identidad|\bidentiteitskaart\b|dowód osobisty|\bnational identity\b", 3),
    ],
    "residence_permit": [
        (r"aufenthaltstitel|aufenthaltserlaubnis|niederlassungserlaubnis|\bresidence permit\b"
         r"|blaue karte|\bblue card\b|titre de séjour|aufenthaltskarte|daueraufenthalt|aufenthaltsgestattung"
         r"|aufenthaltsdokument|\baufenth\.?\s?-?(titel|erl\.?)|\bres\.?\s?permit\b|\bresidence (card|title|document)\b"
         r"|\bpermanent residen(ce|t)\b|\bsettlement permit\b|\bict-?(karte|card)\b|chancenkarte"
         r"|permesso di soggiorno|tarjeta de residencia|verblijfsvergunning|verblijfsdocument|karta pobytu"
         r"|\buppehållstillstånd\b|\bopholdstilladelse\b|permiso de residencia|carte de résident"
         r"|povolení k pobytu|\bresidence and work\b", 4),
        # Who issues it, and for whom: a foreigners' authority, a foreigner's card; a contract may
        # also name a work permit, so that counts no more than these.
        (r"\bwork permit\b|arbeitserlaubnis|ausländerbehörde|\bimmigration (office|authority|service)\b|\bausländer\b|\bforeigners?\b"
         r"|\bextranjer[oa]s?\b|\bétrangers?\b|\bstranieri\b|\bvreemdelingen\b", 2),
        # The legal basis printed on a German title ("§ 18b Abs. 1 AufenthG"), its conditions.
        (r"\baufenthg\b|freizügg(/eu)?\b|aufenthaltsgesetz", 3),
        (r"\bnebenbestimmungen\b|erwerbstätigkeit (gestattet|erlaubt|nicht)"
         r"|beschäftigung (gestattet|erlaubt|nur)|\bemployment (permitted|allowed|authori[sz]ed)\b"
         r"|\bart des titels\b|\btype of (permit|title)\b|\bpermit type\b", 2),
        (r"\bvisum\b|\bvisa\b", 1),
    ],
}
# Words every identity card, passport and residence card prints: evidence of an identity-type
# document, though not of which one; both types get them alike.
CARD_WORDS = [
    (r"\bsurname\b|\bgiven names?\b|\bvorname\(?n?\)?|\bnom\b|\bprénoms?\b", 1),
    (r"\bnationality\b|staatsangehörigkeit|\bnationalité\b|\bstaatsang\b", 1),
    (r"date of (birth|expiry|issue)|geburtsdatum|geburtsort|\bgültig bis\b|\bvalid until\b|\bdate d'expiration\b"
     r"|ausstellungsdatum|\bexpiry\b", 1),
    (r"\bgeschlecht\b|\bsex\b|\bsexe\b", 0.5),
]
