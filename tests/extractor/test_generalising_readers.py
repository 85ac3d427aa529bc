"""Readers that generalise by construction (issue 39): labels paired with values by geometry, the
candidates chosen by the documents' own arithmetic and dates, the classifier and the people read
through the same variations. Every document is drawn here, in a layout no reader was written for."""
from leadflow.extractor import classify
from leadflow.extractor.fields import bank_statement, deductions, read_fields
from leadflow.extractor.fields.finding import Check, Findings
from leadflow.extractor.layout import Layout, Word
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import layout_of, pdf


def amount(raw: str):
    from leadflow.extractor.fields import parse as p
    return p.amount(raw)


# --- pairing ------------------------------------------------------------------------------------

def test_a_label_whose_figure_is_missing_does_not_take_the_next_columns_figure():
    layout = layout_of((60, 100, "Steuerbrutto"), (330, 100, "KV-Beitrag"), (460, 100, "120,00"),
                       (60, 114, "Lohnsteuer"), (200, 114, "412,30"), (330, 114, "RV-Beitrag"), (460, 114, "380,00"))
    assert layout.find("steuerbrutto", amount, below=False) == []
    assert [f.value for f in layout.find("lohnsteuer", amount)] == ["412.30"]


def test_a_label_with_its_figure_beside_a_second_column_keeps_its_own():
    layout = layout_of((60, 100, "Krankenversicherung"), (200, 100, "250,00"), (330, 100, "Pflegeversicherung"),
                       (460, 100, "60,00"))
    assert [f.value for f in layout.find("pflegeversicherung", amount)] == ["60.00"]
    assert [f.value for f in layout.find("krankenversicherung", amount)] == ["250.00"]


def test_a_value_broken_across_a_line_end_is_read_as_one():
    layout = layout_of((60, 100, "Zeitraum vom 01.10.2026 bis"), (60, 112, "31.10.2026"))
    found = layout.find("zeitraum", bank_statement._range)
    assert [(f.value, f.relation) for f in found] == [(("2026-10-01", "2026-10-31"), "continued")]


def test_a_value_below_its_label_and_one_in_a_summary_row_are_found():
    layout = layout_of((60, 100, "Auszahlungsbetrag"), (60, 114, "2.940,10 EUR"),
                       (60, 200, "Brutto"), (200, 200, "Abzüge"), (340, 200, "Netto"),
                       (60, 214, "4.500,00"), (200, 214, "1.519,90"), (340, 214, "2.980,10"))
    assert [f.relation for f in layout.find("auszahlungsbetrag", amount)] == ["below"]
    assert [f.value for f in layout.find("netto", amount)] == ["2980.10"]


# --- cross-checks -------------------------------------------------------------------------------

def test_a_check_that_may_not_lower_chooses_a_passing_combination_or_leaves_the_values():
    f = Findings(["a", "b"])
    f.offer("a", "3", 0.9)
    f.offer("a", "2", 0.6)
    f.offer("b", "2", 0.8)
    chosen = f.resolve([Check(("a", "b"), lambda a, b: a == b, lowers=False)])
    assert chosen.fields == {"a": "2", "b": "2"}
    f = Findings(["a", "b"])
    f.offer("a", "3", 0.9)
    f.offer("b", "2", 0.8)
    kept = f.resolve([Check(("a", "b"), lambda a, b: a == b, lowers=False)])
    assert kept.fields == {"a": "3", "b": "2"} and kept.confidence == {"a": 0.9, "b": 0.8}


SLIP = [(60, 40, "V E R D I E N S T A B R E C H N U N G"),
        (60, 60, "Muster Logistik GmbH · Hafenstraße 4 · 20457 Hamburg"),
        (60, 90, "HERRN MAX MUSTERMANN"), (60, 104, "LINDENWEG 9"), (60, 118, "22085 HAMBURG"),
        (330, 90, "ABRECHNUNGSMONAT"), (460, 90, "OKTOBER 2026"),
        (60, 214, "LOHNSTEUER"), (200, 214, "600,00"), (330, 214, "KRANKENVERSICHERUNG"), (480, 214, "400,00"),
        (60, 228, "RENTENVERSICHERUNG"), (200, 228, "419,90"), (330, 228, "PFLEGEVERSICHERUNG"), (480, 228, "100,00"),
        (60, 260, "NETTOBEZUEGE"), (200, 260, "2.980,10"),
        (60, 274, "VWL SPARPLAN"), (200, 274, "40,00-"),
        (60, 320, "IBAN DE86 5003 0010 3975 4612 96")]


def test_a_payslip_in_capitals_spaced_and_spelt_without_umlauts_is_read():
    reading = read_document(pdf(*SLIP, (60, 200, "GESAMTBRUTTO"), (200, 200, "4.500,00"),
                                (60, 288, "UEBERWEISUNGSBETRAG"), (200, 288, "2.940,10")))
    assert classify.classify(reading.text)[0] == "payslip"
    found = read_fields("payslip", reading)
    assert found.fields == {"employer": "Muster Logistik GmbH", "employee": "MAX MUSTERMANN", "period": "2026-10",
                            "tax_class": None, "gross": "4500.00", "net": "2980.10", "payout": "2940.10",
                            "iban": "DE86500300103975461296"}
    assert min(found.confidence[name] for name in ("gross", "net", "payout")) >= 0.9


def test_gross_less_taxes_and_insurance_is_net_and_net_less_what_follows_it_is_the_payout():
    # Gross is not labelled in a way the lexicon knows, the payout not printed: both are worked out.
    reading = read_document(pdf(*SLIP, (60, 200, "VERGUETUNG LT. VERTRAG"), (200, 200, "4.500,00"),
                                (60, 288, "AUSZAHLUNG"), (200, 288, "siehe Anlage")))
    found = read_fields("payslip", reading)
    assert (found.fields["gross"], found.fields["net"], found.fields["payout"]) == ("4500.00", "2980.10", "2940.10")
    assert 0.5 <= found.confidence["gross"] < 0.9


def test_the_slips_arithmetic_chooses_net_pay_among_its_readings():
    reading = read_document(pdf(*SLIP[:-3], (60, 200, "GESAMTBRUTTO"), (200, 200, "4.500,00"),
                                (60, 246, "Netto"), (200, 246, "Abzug"), (340, 246, "Netto"),
                                (60, 260, "30,00"), (200, 260, "12,00"), (340, 260, "2.980,10")))
    found = read_fields("payslip", reading)
    assert found.fields["net"] == "2980.10"


def test_deduction_sums_name_no_figure_they_did_not_read():
    layout = layout_of((60, 100, "Lohnsteuer"), (200, 100, "600,00"))
    assert deductions.statutory_sum(layout, lambda text: False) is None
    assert deductions.gross_less_deductions("4500.00", "1519.90", "2980.10")
    assert not deductions.net_less_deductions("2980.10", "40.00", "2980.10")


STATEMENT_HEAD = [(60, 40, "Kontoauszug Nr. 5/2026"), (330, 40, "Sparkasse Lindenau"),
                  (60, 60, "IBAN DE86 5003 0010 3975 4612 96"),
                  (60, 100, "Buchungstag"), (140, 100, "Verwendungszweck"), (460, 100, "Betrag")]
BOOKINGS = [(60, 114, "02.10.2026"), (140, 114, "Miete Oktober"), (460, 114, "-950,00"),
            (60, 128, "15.10.2026"), (140, 128, "Lohn/Gehalt Muster GmbH"), (460, 128, "2.940,10"),
            (60, 142, "28.10.2026"), (140, 142, "Stadtwerke Strom"), (460, 142, "-85,20")]


def test_a_statement_number_is_no_period_and_the_bookings_dates_give_it():
    found = read_fields("bank_statement", read_document(pdf(*STATEMENT_HEAD, *BOOKINGS)))
    assert (found.fields["period_start"], found.fields["period_end"]) == ("2026-10-01", "2026-10-31")


def test_the_bookings_dates_choose_the_period_among_the_headers_readings():
    head = [*STATEMENT_HEAD[1:], (60, 20, "Kontoauszug 05/2026"), (60, 80, "Stand 02.11.2026")]
    found = read_fields("bank_statement", read_document(pdf(*head, *BOOKINGS)))
    assert found.fields["period_start"] == "2026-10-01"


def test_a_wrapped_vom_bis_line_is_the_period():
    found = read_fields("bank_statement", read_document(pdf(
        *STATEMENT_HEAD, (330, 60, "Zeitraum: vom 01.10.2026 bis"), (330, 72, "31.10.2026"), *BOOKINGS)))
    assert (found.fields["period_start"], found.fields["period_end"]) == ("2026-10-01", "2026-10-31")
    assert found.confidence["period_start"] >= 0.8


def test_opening_and_bookings_make_the_closing_balance():
    assert bank_statement._bookings_add_up("100.00", [{"amount": "-950.00"}, {"amount": "2940.10"}], "2090.10")
    assert not bank_statement._bookings_add_up("100.00", [{"amount": "-950.00"}], "2090.10")
    rows = [{"date": "2026-10-02"}, {"date": "2026-10-28"}]
    assert bank_statement._bookings_inside("2026-10-01", "2026-10-31", rows)
    assert not bank_statement._bookings_inside("2026-05-01", "2026-05-31", rows)
    assert bank_statement.period_of_bookings(rows) == ("2026-10-01", "2026-10-31")
    assert bank_statement.period_of_bookings([{"date": "2026-09-15"}, {"date": "2026-10-14"}]) == \
        ("2026-09-15", "2026-10-14")


def test_an_iban_is_taken_only_when_its_check_digits_pass():
    from leadflow.extractor.fields import parse as p
    assert p.iban("IBAN DE86 5003 0010 3975 4612 96") == "DE86500300103975461296"
    assert p.iban("IBAN DE87 5003 0010 3975 4612 96") is None


# --- the classifier and the people ------------------------------------------------------------

def test_a_later_page_of_a_tax_assessment_alone_is_a_tax_assessment():
    page = read_document(pdf((60, 40, "Steuernummer 12/345/67890"), (400, 40, "Seite 3"),
                             (60, 70, "Abrechnung"), (60, 90, "Einkommensteuer"), (300, 90, "Solidaritätszuschlag"),
                             (60, 104, "9.000,00"), (300, 104, "0,00"),
                             (60, 130, "abzüglich Steuerabzug vom Lohn"), (400, 130, "9.500,00"),
                             (60, 144, "verbleibende Beträge"), (400, 144, "-500,00")))
    assert classify.classify(page.text)[0] == "tax_assessment"


def test_english_labels_classify():
    assert classify.classify("Pay slip\nEmployer: Muster Ltd\nGross pay 4,500.00\nNet pay 2,980.10\n"
                             "Tax class 1")[0] == "payslip"
    assert classify.classify("Account statement\nIBAN DE86 5003 0010 3975 4612 96\nOpening balance 100.00\n"
                             "Closing balance 2,090.10")[0] == "bank_statement"


def test_a_title_spaced_in_two_words_is_read_as_its_compound():
    assert classify.classify("V E R D I E N S T   A B R E C H N U N G\nMuster GmbH")[0] == "payslip"


def test_the_employee_named_only_in_a_capitals_address_block_after_a_salutation():
    reading = read_document(pdf((60, 40, "Gehaltsabrechnung Oktober 2026"), (330, 40, "Muster Logistik GmbH"),
                                (330, 90, "HERRN DR. MAX MUSTERMANN"), (330, 104, "LINDENWEG 9"),
                                (330, 118, "22085 HAMBURG"), (60, 200, "Nettoverdienst  2.980,10")))
    assert read_fields("payslip", reading).fields["employee"] == "MAX MUSTERMANN"


def test_a_contracts_employee_in_its_opening_clause():
    for clause in (["Zwischen", "Muster Logistik GmbH", "Hafenstraße 4", "20457 Hamburg", "und",
                    "Herrn Max Mustermann", "Lindenweg 9", "22085 Hamburg", "wird folgender Vertrag geschlossen:"],
                   ["Zwischen der Muster Logistik GmbH, Hafenstraße 4, 20457 Hamburg",
                    "und Herrn Max Mustermann wohnhaft Lindenweg 9, 22085 Hamburg"]):
        items = [(60, 40, "ARBEITSVERTRAG"), *((60, 70 + 14 * i, line) for i, line in enumerate(clause)),
                 (60, 300, "Das Arbeitsverhältnis beginnt am 01.11.2026.")]
        found = read_fields("employment_contract", read_document(pdf(*items)))
        assert found.fields["employee"] == "Max Mustermann", clause
        assert found.fields["employer"] == "Muster Logistik GmbH"


def test_layout_words_make_a_spaced_title_one_word():
    words = [Word(letter, 10 + 9 * i, 0, 16 + 9 * i, 10, 1) for i, letter in enumerate("PAYSLIP")]
    assert Layout(words).text == "PAYSLIP"


def test_a_value_broken_across_a_line_end_beside_another_column():
    layout = layout_of((60, 100, "Zeitraum vom 01.10.2026 bis"), (330, 100, "Kundennummer 4711"),
                       (60, 112, "31.10.2026"), (330, 112, "Filiale Lindenau"))
    found = layout.find("zeitraum", bank_statement._range)
    assert [f.value for f in found] == [("2026-10-01", "2026-10-31")]


def test_a_periods_start_and_end_come_from_one_reading():
    # "erstellt am 02.11.2026" beside the statement's number reads as November; the bookings are
    # October's: October is the period, not October's start with November's end.
    found = read_fields("bank_statement", read_document(pdf(
        (60, 40, "Auszug-Nr.: 5/2026"), (330, 40, "erstellt am 02.11.2026"), *STATEMENT_HEAD[1:], *BOOKINGS)))
    assert (found.fields["period_start"], found.fields["period_end"]) == ("2026-10-01", "2026-10-31")


def test_a_pay_paper_named_by_any_compound_of_pay_and_paper():
    for title in ("Entgeltnachweis", "VERDIENSTUEBERSICHT", "Gehaltsmitteilung", "Lohn- und Gehaltsabrechnung"):
        assert classify.classify(f"{title}\nMuster GmbH\nAbr.-Monat 09/2026")[0] == "payslip", title


def test_a_title_set_wide_with_a_short_spaced_word_classifies_and_labels():
    text = "Ms Aisha Okafor\n\nWAGE  T A X  CERTIFICATE  2025\n\nEmployer\nAlpenblick AG\nGross wages  83.834,28 €"
    assert classify.classify(text)[0] == "wage_tax_certificate"
    words = [Word("WAGE", 60, 0, 100, 10, 1)]
    words += [Word(letter, 130 + 9 * i, 0, 136 + 9 * i, 10, 1) for i, letter in enumerate("TAX")]
    words += [Word("CERTIFICATE", 175, 0, 245, 10, 1)]
    line = Layout(words).lines[0]
    assert [w.text for w in line.words] == ["WAGE", "TAX", "CERTIFICATE"] and len(line.segments) == 1


def test_a_label_hyphenated_at_its_lines_end_is_whole_where_its_value_stands():
    layout = layout_of((60, 100, "Anfangs-"), (60, 112, "saldo"), (200, 112, "8.822,56 EUR"),
                       (60, 140, "Lohn-"), (60, 152, "Steuer"), (60, 180, "Kranken-"), (60, 192, "und Pflegeversicherung"))
    assert [f.value for f in layout.find("anfangssaldo", amount)] == ["8822.56"]
    assert "Lohn-" in layout.text and "Kranken-" in layout.text  # a compound's and a list's hyphens stay


def test_a_label_broken_onto_two_lines_without_a_hyphen_is_found():
    reading = read_document(pdf(*STATEMENT_HEAD, *BOOKINGS, (60, 170, "Closing"), (60, 182, "balance"),
                                (200, 182, "-9.429,12 EUR")))
    assert read_fields("bank_statement", reading).fields["closing_balance"] == "-9429.12"


def test_english_payslip_vocabulary_classifies():
    text = ("Mitarbeiter: MEHMET YILMAZ\nPayroll period: Oktober 2026\nTax bracket: 4\n\nPay statement\n"
            "Gross earnings  8673,89\nNet income  4960,51\nAmount paid  4715,74")
    assert classify.classify(text)[0] == "payslip"


def test_a_balance_printed_twice_is_one_balance_and_a_sign_before_the_currency_counts():
    reading = read_document(pdf(*STATEMENT_HEAD, (60, 80, "Balance on 30 September 2026: EUR 4.845,53"), *BOOKINGS,
                                (60, 170, "Balance on 30 September 2026  EUR 4.845,53"),
                                (60, 184, "Balance on 31 October 2026  -EUR 4.917,46")))
    found = read_fields("bank_statement", reading)
    assert (found.fields["opening_balance"], found.fields["closing_balance"]) == ("4845.53", "-4917.46")


def test_a_year_to_date_section_lends_no_figure_and_the_issuers_footer_account_is_not_the_employees():
    reading = read_document(pdf(
        (60, 40, "Salary statement for 09/2026"), (60, 60, "Employee: Gabriela Dos Santos"),
        (60, 100, "Gross"), (200, 100, "Net earnings"), (340, 100, "Transferred amount"),
        (60, 114, "9.213,67"), (200, 114, "5.297,00"), (340, 114, "**5.133,34"),
        (60, 140, "IBAN  DE80 7336 9933 9739 4366 89"),
        (60, 170, "Muster GmbH · Sitz Köln · Amtsgericht Hamburg HRB 145778"),
        (60, 184, "Bayerische Handelsbank AG · IBAN DE85 7002 0270 4310 2185 40 · BIC BYHADEMMXXX"),
        (60, 220, "Year to date"), (60, 234, "Gross earnings: 82.923,03"), (60, 248, "Net earnings: 47.673,00")))
    found = read_fields("payslip", reading).fields
    assert (found["gross"], found["net"], found["payout"]) == ("9213.67", "5297.00", "5133.34")
    assert found["iban"] == "DE80733699339739436689"


def test_a_contract_set_in_two_columns_is_read_down_its_columns():
    left = ["§ 1 Beginn", "Der Arbeitnehmer tritt am 15. August", "2024 in die Dienste des Arbeitgebers.",
            "§ 2 Tätigkeit", "Der Arbeitnehmer wird als Teamleiter", "beschäftigt."]
    right = ["§ 4 Gehalt", "Das Bruttojahresgehalt beträgt", "52.500,00 EUR. Es wird in zwölf", "Monatsraten gezahlt.",
             "§ 5 Urlaub", "Der Urlaub beträgt 30 Tage."]
    items = [(60, 40, "ARBEITSVERTRAG"), (60, 60, "zwischen der Hanseatic Medtech SE, Hafenweg 1, 20457 Hamburg"),
             (60, 74, "und Frau Ingrid Svensson, Lindenweg 9, 22085 Hamburg")]
    items += [(60, 110 + 14 * i, line) for i, line in enumerate(left)]
    items += [(320, 110 + 14 * i, line) for i, line in enumerate(right)]
    found = read_fields("employment_contract", read_document(pdf(*items))).fields
    assert (found["start_date"], found["annual_salary"]) == ("2024-08-15", "52500.00")


def test_a_period_given_by_two_labels_of_its_own():
    found = read_fields("bank_statement", read_document(pdf(
        *STATEMENT_HEAD, (330, 60, "Von: 01/07/2026"), (330, 74, "Bis: 30/09/2026"),
        (60, 114, "01.07."), (140, 114, "Miete Juli"), (460, 114, "-950,00"),
        (60, 128, "15.08."), (140, 128, "Lohn/Gehalt Muster GmbH 07/2026"), (460, 128, "2.940,10"))))
    assert (found.fields["period_start"], found.fields["period_end"]) == ("2026-07-01", "2026-09-30")
