"""The classifier's cues beyond title words, each on a small text built here: a bookings table, a
till slip, an itemised business document, machine-readable zone codes against card wording,
other languages' words, and umlauts as OCR and typists spell them."""
import pytest

from leadflow.extractor.classify import (BOOKINGS_WEIGHT, MRZ_WEIGHT, SIGNED_WEIGHT, THRESHOLD, classify,
                                         issued_to_a_foreigner, score)

IBAN = "DE89 3704 0044 0532 0130 00"
BOOKINGS = "\n".join([
    "02.10.2026  REWE Markt  Kartenzahlung 4711  -45,20",
    "05.10.2026  Stadtwerke  Abschlag Strom  -88,00",
    "12.10.2026  Hausverwaltung Krone  Miete Oktober  -1.240,00",
    "15.10.2026  Nordlicht Software GmbH  Oktober  3.120,55",
    "21.10.2026  Telekom  Mobilfunk  -39,99",
    "28.10.2026  Max Muster  Essen  25,00",
])
ENGLISH_BOOKINGS = "\n".join([
    "03 Oct  Lidl card purchase  45.20    4,954.80",
    "07 Oct  Rent October  1,240.00    3,714.80",
    "15 Oct  Nordlicht Software GmbH salary    3,120.55  6,835.35",
    "21 Oct  Telekom mobile  39.99    6,795.36",
    "24 Oct  Electricity  88.00    6,707.36",
])


def test_a_bookings_table_next_to_an_account_number_is_a_statement_without_any_title():
    text = f"Digitalbank Berlin AG\nIngrid Svensson\n{IBAN}\n\n{BOOKINGS}"
    assert score(text)["bank_statement"] == BOOKINGS_WEIGHT + SIGNED_WEIGHT
    assert classify(text)[0] == "bank_statement"


def test_dated_lines_with_amounts_without_an_account_number_are_no_statement():
    # A craftsman's invoice lists its work by day; with no account of the client's it is no statement.
    text = "Rechnung Nr. 17\nRechnungsdatum 31.10.2026\n" + BOOKINGS.replace("-", "") + "\nGesamtbetrag 4.558,74"
    assert score(text)["bank_statement"] == 0
    assert classify(text)[0] == "invoice"


def test_an_english_high_street_statement_is_known_by_its_vocabulary_and_bookings():
    text = (f"Hansa Kreditbank\nYour Current Account\nAccount name  Jane Doe  01 Oct 2026 - 31 Oct 2026\n"
            f"IBAN  {IBAN}\nStart balance  EUR 5,000.00\nMoney in  EUR 3,120.55\nMoney out  EUR 1,413.19\n"
            f"Date  Description  Paid out  Paid in  Balance\nBALANCE BROUGHT FORWARD  5,000.00\n"
            f"{ENGLISH_BOOKINGS}\nBALANCE CARRIED FORWARD  6,707.36")
    kind, confidence = classify(text)
    assert kind == "bank_statement" and confidence >= 0.8


def test_a_transactions_export_with_signed_amounts_is_a_statement():
    text = ("Transactions  Digitalbank Berlin AG\nAccount owner: Ingrid Svensson\nAccount: DE48100110014182879122\n"
            "From 2026-10-11 to 2026-11-10\nStarting balance: 7,615.49 EUR\nPosted  Counterparty  Reference  Amount\n"
            "2026-10-12  Hausverwaltung Krone GmbH  Miete Oktober 2026  -1,705.45\n"
            "2026-10-12  EDEKA Center  Kartenzahlung 312824  -24.47\n2026-10-14  Priya Nair  Rückzahlung  +29.95\n"
            "2026-10-15  Stadtwerke  Dauerauftrag 380961  -140.88\n2026-10-17  Rundfunkbeitrag  Beitrag  -18.36\n"
            "Ending balance: 5,755.88 EUR")
    assert classify(text)[0] == "bank_statement"


@pytest.mark.parametrize("title", ["KONTOAUSZUG", "Kto.-Auszug", "Konto-Auszug", "Umsatzübersicht", "Kontoumsätze",
                                   "Transaction history", "Account activity"])
def test_statement_titles_in_upper_case_abbreviated_and_in_english(title):
    assert classify(f"{title}\nKontoinhaber Max Muster\nIBAN {IBAN}")[0] == "bank_statement"


TD1_ID = ["IDD<<T220001293<<<<<<<<<<<<<<<", "6408125<2010315D<<<<<<<<<<<<<4", "MUSTERMANN<<ERIKA<<<<<<<<<<<<<"]
# A Spanish card (the plain code I) held by an Indian national, and the same card of a Spaniard.
TD1_CARD = ["I<ESPY70100175<<<<<<<<<<<<<<<<", "8501012M3105318IND<<<<<<<<<<<6", "SHARMA<<RAHUL<<<<<<<<<<<<<<<<<"]
TD1_OWN = [TD1_CARD[0], TD1_CARD[1].replace("IND", "ESP"), "GARCIA<<MARIA<<<<<<<<<<<<<<<<<"]


def test_a_card_code_of_a_states_own_national_is_an_identity_document():
    assert classify("\n".join(TD1_ID))[0] == "id_document"
    assert classify("\n".join(TD1_OWN))[0] == "id_document"


def test_a_card_code_a_state_issued_to_a_foreigner_is_a_residence_permit():
    # Only the zone was read (a photo upside down): the issuing state is not the holder's.
    assert classify("\n".join(TD1_CARD))[0] == "residence_permit"
    assert issued_to_a_foreigner("\n".join(TD1_CARD)) is True
    assert issued_to_a_foreigner("\n".join(TD1_OWN)) is False
    assert issued_to_a_foreigner(TD1_CARD[0]) is None  # the second line is missing: the zone cannot tell
    # OCR lost the second line and the names line follows: its letters are no nationality.
    assert issued_to_a_foreigner(TD1_CARD[0] + "\n" + TD1_CARD[2]) is None
    assert classify(TD1_CARD[0] + "\n7309258F 08 10245ML TOS\n" + TD1_CARD[2])[0] == "id_document"
    td2 = "I<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<\nD231458907UTO7408122F1204159<<<<<<<6"
    assert issued_to_a_foreigner(td2) is False


@pytest.mark.parametrize("wording", [
    "TARJETA DE IDENTIDAD DE EXTRANJERO\nPERMISO DE RESIDENCIA Y TRABAJO",
    "RESIDENCE CARD\nSurname SHARMA",
    "Titre de séjour\nNom SHARMA",
    "Ausländerbehörde Berlin\nName SHARMA",
])
def test_a_card_code_identity_cards_share_is_a_permit_when_the_card_says_so(wording):
    # Many states' residence cards carry I, A or C like identity cards: the card's words decide.
    text = wording + "\n" + "\n".join(TD1_OWN)  # the words decide even where the zone does not
    kind, confidence = classify(text)
    assert kind == "residence_permit" and confidence >= THRESHOLD


@pytest.mark.parametrize("code, expected", [
    ("AR", "residence_permit"), ("IR", "residence_permit"), ("VD", "residence_permit"), ("P", "id_document"),
])
def test_document_codes_that_say_which_document_it_is(code, expected):
    first = f"{code:<<2}D<<Y701001V51<<<<<<<<<<<<<<<"[:30]
    zone = [first, "8501012M3105318IND<<<<<<<<<<<6", "SHARMA<<RAHUL<<<<<<<<<<<<<<<<<"]
    scores = score("\n".join(zone))
    assert scores[expected] == MRZ_WEIGHT
    assert classify("\n".join(zone))[0] == expected


def test_a_passport_code_stays_an_identity_document_whatever_a_visa_page_says():
    text = "Visa\nP<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10"
    assert classify(text)[0] == "id_document"


def test_the_back_of_a_german_permit_without_its_zone_is_known_by_its_legal_basis():
    # A scan on which OCR lost the zone still shows the title's legal basis and conditions.
    text = "Nebenbestimmungen\nBESCHÄFTIGUNG ERLAUBT\nAnmerkungen\n§ 18b AUFENTHG\nStaatsang. IND"
    assert classify(text)[0] == "residence_permit"


def test_card_words_alone_do_not_choose_between_identity_card_and_permit():
    scores = score("Surname SHARMA\nGiven names RAHUL\nNationality IND\nDate of birth 01.01.1985")
    assert scores["id_document"] == scores["residence_permit"] > 0
    assert classify("Surname SHARMA\nGiven names RAHUL\nNationality IND\nDate of birth 01.01.1985")[0] == "unknown"


SLIP = """NAHKAUF Weber oHG
Hauptstraße 4
69117 Heidelberg
Vollmilch 3,5%  1,19 B
Roggenbrot  2,49 B
Spülmittel  1,79 A
Butter  2,29 B
SUMME  7,76
Bar  10,00
{change}  2,24
11.05.2026 12:36"""


@pytest.mark.parametrize("change", ["Rückgeld", "Rueckgeld", "Ruckgeld", "RÜCKGELD"])
def test_a_till_slip_is_a_receipt_however_its_umlauts_come_out(change):
    kind, confidence = classify(SLIP.format(change=change))
    assert kind == "receipt" and confidence >= 0.7


def test_a_till_slip_is_known_by_its_shape_and_time_stamp():
    bare = "Vollmilch  1,19 B\nRoggenbrot  2,49 B\nSpülmittel  1,79 A\nButter  2,29 B\nSUMME  7,76\nfoo\nbar"
    assert score(bare)["receipt"] > 0
    assert score(bare + "\n11.05.2026 12:36")["receipt"] > score(bare)["receipt"]


def test_a_hotel_payment_receipt_on_business_paper_is_an_invoice():
    # The issuer's register entry, its bank for payment and an itemised table: a business's bill,
    # not a till slip, whatever its heading calls it.
    text = """  PAYMENT RECEIPT
Guest Name:  Sanjay  Date: 31/12/2017
  Booking ID  Payment Mode
  IBZY2087  Cash at Hotel
  DESCRIPTION  RATE  AMOUNT
  Room Charges  Rs 1939 x 1 Night x 1 Room  Rs 1939
  Grand Total  Rs 1939
Please Note:  Amount payable is inclusive of Goods & Services Tax. Please ask Hotel for invoice at check-out.
  Note : All Payment to be made in favor of Oravel Stays Pvt.  Ltd.
  Bank Name  Account No.
  HDFC Bank  00030340067212
  GSTIN  CIN
  Registered Office:  Delhi Rectangle Regus, Saket, New Delhi - 110017"""
    assert classify(text)[0] == "invoice"


def test_a_till_receipt_with_a_tax_number_stays_a_receipt():
    text = SLIP.format(change="Rückgeld") + "\nUSt-IdNr.: DE246061557\nBon-Nr. 81999\nVielen Dank für Ihren Einkauf!"
    assert classify(text)[0] == "receipt"


def test_an_english_wage_tax_certificate_by_its_certificate_words():
    text = ("Certificate of wages 2025\nEmployer  Employee\nCertificate period: January 1, 2025 - December 31, 2025\n"
            "Gross wages  113,104.44\nWage tax withheld  41,882.52")
    assert classify(text)[0] == "wage_tax_certificate"


def test_a_till_slip_without_any_title_word_is_known_by_its_vat_table_tse_and_loyalty_card():
    # OCR lost "zu zahlen" and the Bon-Nr.: what is left is what every German till prints.
    text = ("NORMA\nUhlandstraße 15\n55116 Mainz\nEUR\nGouda jung 6,47 B\n"
            "MWST% MWST + Netto = Brutto\nA 19 % 1,43 7,93 8,96\nSumme 8,61 110,07 118,68\n"
            "TSE-Transaktion: 92355\nKundenkarte: Ahmed Haddad")
    assert classify(text)[0] == "receipt"
    assert classify(text.replace("TSE-Transaktion: 92355\n", "").replace("Kundenkarte", "Kunde"))[0] == "unknown"


def test_a_card_terminals_slip_counts_for_a_receipt():
    text = "Westfalen Tankstelle\nSuper bleifrei 34,00\nTerminal-ID: 74031129\nTA-Nr.: 830578\nZahlung erfolgt"
    assert score(text)["receipt"] >= 1
