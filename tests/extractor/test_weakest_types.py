"""Issue 39, the weakest types on layouts drawn fresh (invoices, receipts, tax assessments, identity
papers) and the classifier: general causes, each shown on a small page of its own. A bare "date" that
another word qualifies, a till's date with the month's name, totals whose labels OCR garbled, a
photographed page's edge beside a name, a tax office's name run on into its letterhead line, the
year in a later page's title; and the classifier on a voucher number, a header split over lines, a
zone line with a stray mark, payroll words with punctuation between them."""
from leadflow.extractor import classify
from leadflow.extractor.fields import read_fields
from leadflow.extractor.fields.invoice import _vat_inside
from leadflow.extractor.fields.issuer import first_line, without_edge_marks
from leadflow.extractor.fields.receipt import parse_fields as receipt_fields
from leadflow.extractor.fields.tax import _office, _titled_year
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf


def invoice_of(*items) -> dict:
    return read_fields("invoice", read_document(pdf(*items))).fields


# --- invoices ----------------------------------------------------------------------------------------

def test_a_delivery_date_above_the_invoice_date_is_not_the_invoices():
    fields = invoice_of((60, 60, "Malerbetrieb Farbenfroh"), (330, 120, "Delivery date"), (330, 132, "08/04/2026"),
                        (330, 150, "Re.-Datum"), (330, 162, "11/04/2026"), (330, 180, "Invoice number"),
                        (330, 192, "94304"), (60, 260, "Total"), (400, 260, "6.503,31"))
    assert fields["date"] == "2026-04-11"


def test_an_english_order_date_beside_the_invoice_date_is_not_the_invoices():
    fields = invoice_of((60, 60, "Elektro Blitz & Sohn"), (330, 120, "Order date 09.10.2026"),
                        (330, 134, "Invoice date 22.10.2026"), (60, 260, "Amount due"), (400, 260, "7.803,82"))
    assert fields["date"] == "2026-10-22"


def test_an_invoice_number_after_re_nr_with_its_dot_and_dash():
    fields = invoice_of((60, 60, "Umzugsservice Kranich GmbH"), (60, 120, "RE.-NR.: RE-2026-6576"),
                        (60, 260, "AMOUNT DUE"), (400, 260, "10.976,74"))
    assert fields["number"] == "RE-2026-6576"


def test_the_total_is_recognised_by_the_vat_inside_it_when_ocr_garbled_its_label():
    assert _vat_inside("Zwischensumme ..... 3792541\nLORS EMWS tare ee 726.83\nWeHBEML CWS nak 4,552.24") == [
        ("3825.41", "726.83", "4552.24")]
    assert _vat_inside("Artikel 12,00\nArtikel 3,50\nSumme 15,50") == []  # no VAT inside the largest amount
    fields = invoice_of((60, 60, "Sanitär Quelle GmbH"), (60, 100, "Rechnung Nr. 84267"),
                        (60, 200, "Zwischensumme"), (400, 200, "3792541"), (60, 214, "LORS EMWS tare"),
                        (400, 214, "726.83"), (60, 228, "WeHBEML CWS"), (400, 228, "4,552.24"))
    assert (fields["total"], fields["tax"]) == ("4552.24", "726.83")


def test_a_photographed_pages_edge_beside_the_issuers_name_is_not_part_of_it():
    assert without_edge_marks("a Kiichenstudio Schneider -") == "Küchenstudio Schneider"
    assert without_edge_marks("“ Malerbetrieb Farbenfroh a") == "Malerbetrieb Farbenfroh"
    for name in ("Rahul & Co", "Müller GmbH & Co. KG", "A. Berger Bau", "A Bau GmbH", "Hawaii Surf Shop"):
        assert without_edge_marks(name) == name


# --- receipts --------------------------------------------------------------------------------------

def test_a_tills_date_with_the_months_name_is_the_receipts_date():
    slip = "NAHKAUF Weber oHG\nAm Hafen 33\n90402 Nürnberg\n\nMay 15, 2026 18:54\n\nButter  11,36\nZu zahlen  11,36\n"
    assert receipt_fields(slip)["date"] == "2026-05-15"
    assert receipt_fields(slip.replace("May 15, 2026", "15. März 2026"))["date"] == "2026-03-15"
    assert receipt_fields(slip.replace("May 15, 2026", "15. Marz 2026"))["date"] == "2026-03-15"  # OCR lost the dots


# --- tax assessments -------------------------------------------------------------------------------

def test_a_tax_offices_name_ends_where_its_letterhead_line_goes_on():
    assert _office("Finanzamt Nürnberg-Zentral - Steuernummer 132/909/35516") == "Finanzamt Nürnberg-Zentral"
    assert _office("Finanzamt Köln-Süd · Servicezeiten Mo-Fr 8-12 Uhr") == "Finanzamt Köln-Süd"


def test_a_heading_under_the_tax_office_label_is_no_office():
    assert _office("Berechnung der Besteuerungsgrundlagen") is None
    assert _office("Ermittlung des zu versteuernden Einkommens") is None
    assert _office("Hamburg-Nord") == "Finanzamt Hamburg-Nord"


def test_a_later_pages_title_names_the_tax_year_also_with_its_first_letter_misread():
    text = "Finanzamt Hannover-Land I\nDie Berechnung finden Sie auf der folgenden Seite.\n\n\n\n\n\nSeite 1\n" \
           "Finanzamt Hannover-Land I - STNR 187/456/62514\nBINKOMMENSTEUERBESCHEID 2025 .\n"
    assert _titled_year(text) == 2025


# --- the classifier ------------------------------------------------------------------------------

def test_an_invoice_numbered_as_a_voucher_is_still_an_invoice():
    text = ("Malerbetrieb Farbenfroh\nKönigsallee 114\n93047 Regensburg\n\nHERRN LUCAS OLIVEIRA SANTOS\n"
            "AUSSTELLUNGSDATUM\nBELEG-NR.\nKUNDENNUMMER\n\nRECHNUNG NR.\n\nPos. LEISTUNG\n\nMENGE\n\nEINZELPREIS\n\n"
            "04/05/2026\nRE-2026-7097\n22671\n\nGESAMT\n\nZahlbar bis 18/05/2026 ohne Abzug.\n\n"
            "1.406,13\n3.455,48\n4.861,61\n923,71\n5.785,32\n")
    assert classify.classify(text)[0] == "invoice"


def test_an_items_header_ocr_split_into_lines_still_counts_for_an_invoice():
    split = "Pos.\nBezeichnung\nMenge\nEinzelpreis\nGesamt\n"
    assert classify.score(split)["invoice"] == classify.ITEM_HEADER_WEIGHT * 1
    prose = "Die Bezeichnung der Leistung steht oben, " * 3 + "\nMenge und Preis folgen.\nDer Gesamtbetrag unten."
    assert classify.score(prose)["invoice"] < classify.ITEM_HEADER_WEIGHT + 2


def test_a_permits_zone_line_with_a_stray_mark_after_its_fillers_still_says_what_it_is():
    text = ("ANMERKUNGEN / REMARKS\n\nBESCHÄFTIGUNG GESTATTET\nWOHNORT 90402 NÜRNBERG\n\n"
            "ARD<<Z66RGNHXKXL8 <<<<<<<<<<<<<<<¢\n9401219M3203145IND<<<<<<<<<<<8\nree ee\n")
    assert classify.mrz_document_code(text) == "AR"
    assert classify.classify(text)[0] == "residence_permit"


def test_payroll_words_with_punctuation_or_a_spelt_out_umlaut_between_them_say_payslip():
    text = ("Donauwelle Media GmbH\nMITARBEITER/IN\nSofia Rossi\nMONAT\nOKTOBER 2026\n"
            "ABRECHNUNG DER BRUTTO/; NETTO-BEZUEGE\nLST-KLASSE 4\nNETTOGEHALT 4.622,28\nZAHLBETRAG 4.622,28\n")
    assert classify.classify(text)[0] == "payslip"


def test_a_vat_tables_garbled_row_takes_what_the_sure_total_leaves_when_its_vat_share_agrees():
    slip = ("Frischmarkt Sonnenhof GmbH\nAm Hafen 128\n69117 Heidelberg\n09.06.2026 19:49\nNudeln Penne 29,63\n"
            "Apfelsaft 4,05\nMineralwasser 50,50\nZahnpasta 13,12\nSUMME EUR 103,36\nMastercard 103,36\n"
            "MwSt% MwSt Netto Brutto\n19% 10,80 56,87 67,67\n7% 2,33 2 33,360,.35,09\nBon-Nr. 67952\n")
    fields = receipt_fields(slip)
    assert (fields["total"], fields["tax"], fields["net"]) == ("103.36", "13.13", "90.23")
    # A garbled row whose figures show no such share stays unread: nothing is made up.
    assert receipt_fields(slip.replace("7% 2,33 2 33,", "7% 2,93 2 33,"))["tax"] is None


def test_a_tax_year_after_fuer_with_the_umlaut_spelt_out():
    from leadflow.extractor.fields.tax import parse_assessment_text
    title = "BESCHEID FUER 2024 UEBER EINKOMMENSTEUER UND SOLIDARITAETSZUSCHLAG"
    assert parse_assessment_text(title)["tax_year"] == 2024
    assert parse_assessment_text("Einkommensteuerbescheid fuer das Jahr 2025")["tax_year"] == 2025


def test_the_name_before_the_foots_registry_words_is_the_issuer_and_the_payment_lines_bank_never_is():
    fields = invoice_of((60, 40, "Architekturbüro Linde & Partner"), (60, 80, "Ms"), (60, 92, "Amara Nwosu"),
                        (60, 104, "Goethestraße 9"), (60, 116, "01067 Dresden"), (330, 80, "Invoice no."),
                        (330, 92, "83249"), (60, 160, "INVOICE"), (60, 200, "Total"), (400, 200, "6307.67"),
                        (60, 700, "Architekturbüro Linde & Partner · Sitz Berlin · Amtsgericht Frankfurt am Main HRB 2"),
                        (60, 712, "Geschäftsführung: Sofia Rossi · USt-IdNr. DE513739550"),
                        (60, 724, "Bayerische Handelsbank AG · IBAN DE08 7002 0270 6042 9428 57 · BIC BYHADEMMXXX"))
    assert fields["issuer"] == "Architekturbüro Linde & Partner"


def test_a_wage_tax_certificate_whose_title_ocr_lost_is_told_by_its_form_lines_and_its_year_long_period():
    text = ("ZEITRAUM\n01.01.2025 - 31.12.2025\nLOHNSTEUER\n10.972,80\nSOLIDARITÄTSZUSCHLAG\n0,00\n"
            "ARBEITNEHMERANTEIL ZUR GESETZLICHEN RENTENVERSICHERUNG\n5.314,92\n"
            "ARBEITNEHMERBEITRÄGE ZUR GESETZLICHEN KRANKENVERSICHERUNG\n5.000,64\n")
    assert classify.classify(text)[0] == "wage_tax_certificate"


# --- identity papers -------------------------------------------------------------------------------

def _permit_zone(number: str, names: str) -> list[str]:
    from leadflow.extractor.mrz import check_digit
    first = f"ARD<<{number}{check_digit(number)}"
    first += "<" * (30 - len(first))
    birth, expiry = "8010018", "2806170"
    second = f"{birth}M{expiry}VNM" + "<" * 11
    composite = check_digit(first[5:30] + second[0:7] + second[8:15] + second[18:29])
    return [first, second + composite, (names + "<" * 30)[:30]]


def test_a_mark_beside_the_names_line_is_the_cards_edge_and_leaves_the_names_sure():
    from leadflow.extractor.fields.id_document import read
    zone = _permit_zone("VY1FJ9X2H", "DOS<SANTOS<<GABRIELA")
    found = read("\n".join(zone[:2] + [zone[2] + " )"]))
    assert (found.fields["surname"], found.fields["mrz_valid"]) == ("DOS SANTOS", True)
    assert found.confidence["surname"] >= 0.5


def test_a_german_permits_number_with_a_letter_its_alphabet_lacks_is_put_right_by_its_check_digits():
    from leadflow.extractor.fields.id_document import read
    zone = _permit_zone("VY1FJ9X2H", "NGUYEN<<LAN")
    misread = [zone[0].replace("VY1FJ9X2H", "VY1FU9X2H")] + zone[1:]
    found = read("\n".join(misread))
    assert (found.fields["document_number"], found.fields["mrz_valid"]) == ("VY1FJ9X2H", True)


def test_a_payslips_later_page_with_the_years_running_totals_is_a_payslip():
    page = ("JAHRESWERTE\n\nBRUTTO GESAMT  72.137,90\nLOHNSTEUER LFD.  16.065,10\nNET SALARY  40.125,20\n"
            "Diese Abrechnung wurde maschinell erstellt und ist ohne Unterschrift gültig.\n\n"
            "  Donauwelle Media GmbH · Sitz Mainz · Amtsgericht Berlin-Charlottenburg HRB 92442\n"
            "  Geschäftsführung: Anna Kowalska · USt-IdNr. DE662788581\n"
            "  Digitalbank Berlin AG · IBAN DE48 1001 1001 8896 1290 07 · BIC DIBEDEB2XXX\n\n  Seite 2\n")
    assert classify.classify(page)[0] == "payslip"


def test_logo_debris_above_the_letterhead_is_no_issuer():
    assert first_line("RE ET SC. nn\n| ur | Malerbetrieb Farbenfroh E\nRosenheimer Straße 111") == \
        "Malerbetrieb Farbenfroh"
    assert first_line("Malerbetrieb Farbenfroh  Tel. 0221 123456") == "Malerbetrieb Farbenfroh"


def test_a_german_number_read_with_letters_its_alphabet_lacks_is_put_right_even_when_it_passes_as_read():
    from leadflow.extractor.fields.id_document import read
    zone = _permit_zone("KW35YR00L", "NGUYEN<<LAN")
    misread = [zone[0].replace("KW35YR00L", "KW35YROOL")] + zone[1:]
    found = read("\n".join(misread))
    assert (found.fields["document_number"], found.fields["mrz_valid"]) == ("KW35YR00L", True)
    # The page read twice, once right and once with the letters: still the one number.
    assert read("\n".join(misread + [""] + zone)).fields["document_number"] == "KW35YR00L"


def test_a_slip_stamped_with_the_minute_of_sale_is_a_receipt_when_ocr_lost_its_words():
    slip = ("Frischmarkt Sonnenhof GmbH\nRosenheimer Straße 107\n76133 Karlsruhe\n01.02.2026 20:16\n"
            "Eier Freiland 10st 20,27\nToilettenpapier 27,86\n3 0.16.18\nZahnpasta 48,54\nApfelsaft 13,02\n"
            "3% 15,50.\nSpülmittel 46,50\nTomaten Rispe 29,62\n----. Ve ee ee ee ee ce\non 185,81\n")
    assert classify.classify(slip)[0] == "receipt"


def test_a_tax_assessments_cover_page_read_in_pieces_still_says_what_it_is():
    page = ("STNR\n194/621/30239\nAUSGESTELLT AM\n2025-06-14\nberücksichtigt Ihre Erklärung. Bitte beachten Sie "
            "die Erläuterungen.\ninden Sie auf der folgenden Seite.\n= 2 Uhr + Nordbank Direkt AG\n"
            "Finanzamt Düsseldorf-Süd - Servicezeiten Mo-Fr 8-12 Uhr - Nordbank Direkt AG\n")
    assert classify.classify(page)[0] == "tax_assessment"


def test_a_date_below_another_dates_label_is_not_the_invoices_and_a_date_is_no_invoice_number():
    from leadflow.extractor.fields.invoice import _first_date, _identifier
    assert _first_date("[ Beleg. Leistungsdatum\nEe 06/07/2026.\nRechnungsdatum | Kundennummer\n200720262 U") is None
    assert _first_date("Rechnung\n06/07/2026") == "2026-07-06"
    assert _identifier(" 03/08/2026") is None and _identifier("20.9.26") is None
    assert _identifier("RE-2026-7097") == "RE-2026-7097"


def test_a_zone_line_with_a_letter_too_many_is_not_mended_when_two_deletions_pass_with_other_numbers():
    from leadflow.extractor.fields.id_document import read
    from leadflow.extractor.mrz import check_digit
    number, optional = "TSAYF5TN3", "0266937163"
    first = f"I<NLD{number}{check_digit(number)}{optional}" + "<" * 5
    second = "7311213F2807144NLD<<<<<<<<<<<"
    second += check_digit(first[5:30] + second[0:7] + second[8:15] + second[18:29])
    zone = [first[:30], second, "BAKKER<<SANNE<<<<<<<<<<<<<<<<<"]
    assert read("\n".join(zone)).fields["document_number"] == number
    extra = zone[0][:11] + "S" + zone[0][11:]  # "TSAYF5STN3...": a letter read twice, as a scan read it
    fields = read("\n".join([extra] + zone[1:])).fields
    assert fields["document_number"] in (number, None)  # the number, or unread: never another that passes


def test_names_on_a_zone_line_whose_fillers_ocr_read_as_small_letters_are_doubted_not_trusted():
    from leadflow.extractor.fields.id_document import read
    zone = _permit_zone("5V7NLN336", "SATO<<YUKI")
    clean_read = read("\n".join(zone))
    assert clean_read.fields["surname"] == "SATO" and clean_read.confidence["surname"] >= 0.5
    garbled = read("\n".join(zone[:2] + ["| BATO<<YUEI<<<<<<<<e<<eiceecccc"]))  # S read as B, fillers as letters
    assert garbled.fields["mrz_valid"] is True and garbled.confidence["surname"] < 0.5
