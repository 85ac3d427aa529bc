"""What the fifth round of fresh contract, invoice and identity document layouts (2026-12-02) taught the
readers: a copy of a card's two sides side by side, whose text layer joins the back's zone to the front's
print; a long given name that may be two run together by a misread filler; a change agreement whose
effective day is no start of the employment; a VAT table's sum row, goods at two VAT rates, a balance
of nought after a payment at checkout, a hotel's "05-Jan-26" and its items table's "Date" column, and a
brand or capitals letterhead whose legal name the foot spells out."""
from leadflow.extractor import classify
from leadflow.extractor.fields import id_document, invoice, issuer, read_fields
from leadflow.extractor.mrz import check_digit, find_mrz, names_doubtful, zone_piece
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf


def fields_of(document_type: str, *items) -> dict:
    return read_fields(document_type, read_document(pdf(*items))).fields


def td1(code: str, state: str, number: str, birth: str, sex: str, expiry: str, names: str) -> list[str]:
    line1 = f"{code:<<2}{state}{number}{check_digit(number)}".ljust(30, "<")
    line2 = f"{birth}{check_digit(birth)}{sex}{expiry}{check_digit(expiry)}{state}".ljust(29, "<")
    composite = line1[5:30] + line2[0:7] + line2[8:15] + line2[18:29]
    return [line1, line2 + check_digit(composite), names.ljust(30, "<")]


# --- identity documents --------------------------------------------------------------------------

def test_a_zone_beside_the_front_of_a_card_is_read_from_its_own_piece_of_the_line():
    zone = td1("C", "ITA", "CA21888LW", "730415", "M", "360514", "DE<LUCA<<MARCO")
    text = "\n".join(("REPUBBLICA ITALIANA  INDIRIZZO DI RESIDENZA / RESIDENCE: SCHILLERPLATZ 56",
                      "  COGNOME / SURNAME", "  DE LUCA", "  CITTADINANZA / NATIONALITY",
                      f"  ITA  {zone[0]}", "  SCADENZA / EXPIRY", f"  14.05.2036  {zone[1]}", f"  {zone[2]}"))
    found = find_mrz(text)
    assert found is not None and found.valid
    assert (found.document_code, found.document_number, found.surname) == ("C", "CA21888LW", "DE LUCA")
    assert classify.classify(text)[0] == "id_document"


def test_a_zone_line_ocr_split_at_a_gap_is_kept_whole():
    # Pieces that are all zone-like: no piece alone is taken.
    assert zone_piece("I<NLDRVZ05Y  GL01542003897<<<<<<") == "I<NLDRVZ05Y  GL01542003897<<<<<<"
    assert zone_piece("Nederlandse  I<NLDRVZ05YGL01542003897<<<<<<") == "I<NLDRVZ05YGL01542003897<<<<<<"


def test_a_long_given_name_with_a_filler_look_alike_inside_is_doubtful():
    zone = td1("I", "NLD", "RVZ05YGL0", "750627", "F", "320516", "REDDY<<VENKATACLAKSHME")
    assert names_doubtful(find_mrz("\n".join(zone)))
    zone = td1("I", "NLD", "RVZ05YGL0", "750627", "F", "320516", "REDDY<<VENKATA<LAKSHMI")
    assert not names_doubtful(find_mrz("\n".join(zone)))


# --- employment contracts --------------------------------------------------------------------------

def test_a_change_agreement_starts_when_the_employment_began_not_when_the_change_takes_effect():
    fields = fields_of("employment_contract", (60, 60, "Änderungsvertrag zum Arbeitsvertrag vom 15.12.2019"),
                       (60, 90, "zwischen Elbtal Energie GmbH, Hauptstraße 1, 01067 Dresden – im Folgenden „Arbeitgeber“ –"),
                       (60, 104, "und Frau Olena Kovalenko, Uhlandstraße 46, 55116 Mainz – im Folgenden „Arbeitnehmerin“ –"),
                       (60, 130, "Die Parteien sind durch das seit dem 1. Januar 2020 bestehende Arbeitsverhältnis verbunden."),
                       (60, 150, "Mit Wirkung ab dem 01.05.2026 beträgt das Jahresgehalt EUR 91.800,00 brutto"),
                       (60, 162, "(bisher EUR 84.500,00)."))
    assert fields["start_date"] == "2020-01-01"
    assert fields["annual_salary"] == "91800.00"


def test_a_change_agreement_that_names_no_start_leaves_it_to_a_person():
    fields = fields_of("employment_contract", (60, 60, "Nachtrag zum Arbeitsvertrag"),
                       (60, 150, "Mit Wirkung ab dem 01.01.2027 beträgt das Jahresgehalt EUR 78.000,00 brutto."))
    assert fields["start_date"] is None


# --- invoices ---------------------------------------------------------------------------------------

def test_a_vat_tables_sum_row_gives_net_vat_and_total_and_a_paid_balance_is_no_total():
    fields = fields_of("invoice", (60, 40, "Hotel Lindenhof am Stadtpark GmbH"), (60, 80, "INVOICE"),
                       (60, 100, "Date"), (60, 112, "05-Jan-26"),
                       (60, 140, "Date"), (130, 140, "Description"), (400, 140, "Charges EUR"),
                       (60, 152, "02-Jan-26"), (130, 152, "Accommodation"), (400, 152, "160.03"),
                       (60, 164, "05-Jan-26"), (130, 164, "City tax 5 %"), (400, 164, "24.00"),
                       (300, 190, "Total charges"), (400, 190, "525.89"),
                       (300, 202, "Visa ****4417"), (400, 202, "-525.89"),
                       (300, 214, "Balance due"), (400, 214, "EUR 0.00"),
                       (60, 240, "VAT rate"), (130, 240, "Net"), (200, 240, "VAT"), (270, 240, "Gross"),
                       (60, 252, "7 %"), (130, 252, "448.68"), (200, 252, "31.41"), (270, 252, "480.09"),
                       (60, 264, "Total"), (130, 264, "491.00"), (200, 264, "34.89"), (270, 264, "525.89"))
    assert (fields["net"], fields["tax"], fields["total"]) == ("491.00", "34.89", "525.89")
    assert fields["date"] == "2026-01-05"


def test_goods_at_two_vat_rates_add_their_vat_and_the_net_is_the_total_less_it():
    fields = fields_of("invoice", (60, 40, "Kessler Gastro-Service GmbH"), (60, 80, "RECHNUNG"),
                       (60, 100, "Rechnungsdatum 19.04.2026"),
                       (300, 200, "Warenwert netto A (7 %)"), (500, 200, "970,15"),
                       (300, 212, "Warenwert netto B (19 %)"), (500, 212, "3.828,64"),
                       (300, 224, "zzgl. 7 % USt auf 970,15"), (500, 224, "67,91"),
                       (300, 236, "zzgl. 19 % USt auf 3.828,64"), (500, 236, "727,44"),
                       (300, 252, "Gesamtbetrag EUR"), (500, 252, "5.594,14"),
                       (60, 280, "Bei Zahlung bis 26.04.2026 abzüglich 2 % Skonto (111,88 €): 5.482,26 €."))
    assert (fields["net"], fields["tax"], fields["total"]) == ("4798.79", "795.35", "5594.14")


def test_a_rates_base_is_skipped_also_with_the_vat_word_between():
    assert invoice._figure("zzgl. 19 % USt auf 3.828,64  727,44") == "727.44"


def test_a_hotel_date_with_a_short_year_beside_its_label_is_read():
    assert invoice._labelled_date("05-Jan-26") == "2026-01-05"
    assert invoice._labelled_date("31-Feb-26") is None


def test_a_brand_takes_the_legal_name_with_words_between_it_and_the_legal_form():
    text = "NORDSTERN Apartments\nINVOICE\nNordstern Apartments & Suites GmbH · Bahnhofstraße 108 · 40213 Düsseldorf"
    assert issuer.with_legal_form("NORDSTERN Apartments", text) == "Nordstern Apartments & Suites GmbH"
    text = "Parkhotel Seeblick\nParkhotel Seeblick Betriebs GmbH · Am Hafen 1"
    assert issuer.with_legal_form("Parkhotel Seeblick", text) == "Parkhotel Seeblick Betriebs GmbH"


def test_a_letterhead_in_capitals_takes_the_mixed_case_spelling_of_the_foot():
    text = "GROSSHANDEL BRINKMANN GMBH\nRECHNUNG\nGroßhandel Brinkmann GmbH & Co. KG · Sitz 60311 Frankfurt am Main"
    assert issuer.in_mixed_case("GROSSHANDEL BRINKMANN GMBH", text) == "Großhandel Brinkmann GmbH & Co. KG"
    assert issuer.in_mixed_case("Großhandel Brinkmann GmbH", text) is None


def test_a_legal_name_may_open_with_a_word_the_brand_leaves_out():
    text = "Zur Alten Mühle\nINVOICE\n  Gasthof Zur Alten Mühle OHG · Bahnhofstraße 1 · 10115 Berlin"
    assert issuer.with_legal_form("Zur Alten Mühle", text) == "Gasthof Zur Alten Mühle OHG"
    # Words of a sentence before the name are no part of it.
    text = "Zur Alten Mühle\nWir danken der Zur Alten Mühle OHG für die Zusammenarbeit"
    assert issuer.with_legal_form("Zur Alten Mühle", text) == "Zur Alten Mühle OHG"


def test_a_firm_billed_for_the_attention_of_a_person_is_the_customer_not_the_issuer():
    fields = fields_of("invoice", (200, 40, "urban nest"), (160, 52, "Türkenstraße 121 · 76133 Karlsruhe"),
                       (60, 100, "Lahnblick Games GmbH"), (60, 112, "Attn. Lan Nguyen"), (60, 124, "Lindenallee 94"),
                       (60, 136, "55116 Mainz"), (60, 170, "INVOICE"), (60, 190, "Invoice No. 526985"),
                       (300, 250, "Total"), (400, 250, "743.45"),
                       (60, 300, "Urban Nest Serviced Apartments GmbH · Türkenstraße 121 · 76133 Karlsruhe"))
    assert fields["issuer"] == "Urban Nest Serviced Apartments GmbH"


def test_a_block_below_a_letterhead_that_gave_its_address_is_the_guests_not_the_issuer():
    fields = fields_of("invoice", (200, 40, "NORDSTERN Apartments"), (160, 52, "Lindenallee 74 : 10115 Berlin - Germany"),
                       (60, 100, "Liam Murphy"), (60, 112, "Türkenstraße 48"), (60, 124, "30159 Hannover"),
                       (60, 170, "INVOICE"), (60, 190, "Invoice No. 668325"),
                       (300, 250, "Total charges"), (400, 250, "831.31"),
                       (60, 300, "Nordstern Apartments & Suites GmbH : Lindenallee 74 - 10115 Berlin"))
    assert fields["issuer"] == "Nordstern Apartments & Suites GmbH"


def test_a_city_tax_is_no_vat():
    assert invoice.parse_fields("City tax 5% 34.63\nTotal 831.31")["tax"] is None
    assert invoice.parse_fields("VAT 19% 12.30\nTotal 77.03")["tax"] == "12.30"


def test_a_printed_name_with_a_letter_unicode_does_not_decompose_confirms_the_zone():
    zone = td1("ID", "POL", "NFP130529", "930503", "M", "360313", "WOJCIK<<LUKASZ<PIOTR")
    text = "\n".join(("NAZWISKO / SURNAME", "WÓJCIK", "IMIONA / GIVEN NAMES", "ŁUKASZ PIOTR", *zone))
    read = id_document.read(text)
    assert read.fields["given_names"] == "LUKASZ PIOTR"
    assert read.confidence["given_names"] > 0.5
