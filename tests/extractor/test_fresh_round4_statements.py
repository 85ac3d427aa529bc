"""What the fresh statement and contract layouts of 2026-12-02 (the fourth round) taught the readers: a
savings bank's balance box over two dated balances whose dates bound the period, a value date printed
under the booking date, a banking app's bookings under day headings, a core banking system's
'01-OCT-2026' dates, a bank named only in the foot or with its German branch, names in capitals of any
alphabet, and a contract's annual base salary in whole euros with English thousands commas."""
from leadflow.extractor.fields import bank_statement, employment_contract, parse, read_fields
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf


def statement_of(*items) -> dict:
    return read_fields("bank_statement", read_document(pdf(*items))).fields


def contract_of(*items) -> dict:
    return read_fields("employment_contract", read_document(pdf(*items))).fields


SAVINGS_BANK = (
    (60, 40, "Sparkasse Nordheide"), (330, 50, "Kontostand am 12.11.2026"), (440, 66, "5.437,74 EUR"),
    (60, 70, "Herrn"), (60, 82, "Omar Farouk"), (60, 94, "Schillerplatz 49"), (60, 106, "70173 Stuttgart"),
    (60, 140, "Kontoauszug 10/2026"), (60, 154, "Girokonto 5070219757  ·  IBAN DE55 6835 1865 5070 2197 57"),
    (60, 180, "Buchung"), (150, 180, "Vorgang"), (470, 180, "Betrag (EUR)"), (60, 190, "Valuta"),
    (150, 210, "Kontostand am 12.10.2026, Auszug Nr. 9"), (490, 210, "5.047,61"),
    (60, 234, "15.10.2026"), (150, 234, "Überweisung online"), (490, 234, "-866,90"),
    (60, 244, "15.10.2026"), (150, 244, "Hausverwaltung Adler GmbH, Miete Oktober 2026"),
    (60, 268, "27.10.2026"), (150, 268, "Gutschrift"), (490, 268, "1.257,03"),
    (60, 278, "27.10.2026"), (150, 278, "Bodensee Mobility SE, LOHN/GEHALT 10/2026"),
    (150, 302, "Kontostand am 12.11.2026 um 20:04 Uhr"), (490, 302, "5.437,74"),
)


def test_a_balance_box_repeating_the_closing_date_leaves_the_two_dated_balances_readable():
    fields = statement_of(*SAVINGS_BANK)
    assert (fields["opening_balance"], fields["closing_balance"]) == ("5047.61", "5437.74")


def test_two_dated_balances_bound_the_period_where_no_period_is_printed():
    # "Kontoauszug 10/2026" counts statements; the balances say the period runs 13.10. to 12.11.
    fields = statement_of(*SAVINGS_BANK)
    assert (fields["period_start"], fields["period_end"]) == ("2026-10-13", "2026-11-12")


def test_a_printed_period_wins_over_the_balances_dates():
    fields = statement_of(*SAVINGS_BANK, (60, 166, "Zeitraum 01.10.2026 - 31.10.2026"))
    assert (fields["period_start"], fields["period_end"]) == ("2026-10-01", "2026-10-31")


def test_a_value_date_line_under_the_booking_carries_its_purpose():
    fields = statement_of(*SAVINGS_BANK)
    assert fields["salary_credits"] == ["1257.03"]
    rent = fields["bookings"][0]
    assert rent["amount"] == "-866.90" and rent["purpose"].endswith("Hausverwaltung Adler GmbH, Miete Oktober 2026")
    assert not rent["purpose"].startswith("15.10.2026")


def test_a_dated_line_far_below_a_booking_is_its_own_booking():
    fields = statement_of((60, 60, "Kontoauszug"), (60, 100, "Buchung"), (150, 100, "Vorgang"), (470, 100, "Betrag"),
                          (60, 120, "01.10.2026"), (150, 120, "Gutschrift Erstattung"), (490, 120, "43,00"),
                          (60, 150, "02.10.2026"), (150, 150, "Gehalt 09/2026 Nordlicht Software GmbH"),
                          (490, 150, "3.100,00"))
    assert fields["salary_credits"] == ["3100.00"]


def test_a_balance_line_is_never_part_of_a_salary_booking():
    fields = statement_of((60, 60, "Kontoauszug"), (60, 100, "Buchung"), (150, 100, "Vorgang"), (470, 100, "Betrag"),
                          (60, 120, "27.10.2026"), (150, 120, "Gutschrift"), (490, 120, "3.212,08"),
                          (60, 130, "27.10.2026"), (150, 130, "Weserbogen Pharma AG, Salary 10/2026"),
                          (150, 141, "Kontostand am 08.11.2026 um 23:54 Uhr"), (490, 141, "5.065,22"))
    assert fields["salary_credits"] == ["3212.08"]


APP_STATEMENT = (
    (60, 40, "LUMO"), (60, 60, "Ingrid Svensson"), (400, 60, "Account statement"),
    (400, 74, "1 October 2026 - 31 October 2026"),
    (60, 110, "Beginning balance"), (200, 110, "Ending balance"), (60, 124, "3,666.48 €"), (200, 124, "4,039.83 €"),
    (60, 160, "Friday, 9 October 2026"),
    (70, 176, "Hausverwaltung Adler GmbH"), (480, 176, "-1,271.50 €"), (70, 186, "Miete Oktober 2026"),
    (60, 210, "Monday, 26 October 2026"),
    (70, 226, "Havelland Foods GmbH"), (480, 226, "+3,531.63 €"), (70, 236, "LOHN/GEHALT 10/2026"),
    (70, 256, "Lidl"), (480, 256, "-27.47 €"), (70, 266, "Kartenzahlung 283871"),
    (60, 780, "IBAN DE87 1001 7788 8846 6414 77  ·  BIC LUMODEB3XXX  ·  Lumo Bank Europe AG, Amtsgericht Berlin HRB 231118"),
)


def test_bookings_under_day_headings_take_the_headings_day():
    fields = statement_of(*APP_STATEMENT)
    assert [(b["date"], b["counterparty"], b["amount"]) for b in fields["bookings"]] == [
        ("2026-10-09", "Hausverwaltung Adler GmbH", "-1271.50"), ("2026-10-26", "Havelland Foods GmbH", "3531.63"),
        ("2026-10-26", "Lidl", "-27.47")]
    assert fields["bookings"][0]["purpose"] == "Miete Oktober 2026"
    assert fields["salary_credits"] == ["3531.63"]


def test_an_amount_alone_on_its_line_takes_the_words_above_it_under_a_day_heading():
    fields = statement_of((60, 60, "Kontoauszug"), (60, 100, "Dienstag, 27.10.2026"),
                          (70, 116, "Havelland Foods GmbH"), (480, 126, "+3.084,22 €"), (70, 136, "Bezüge 10/2026"))
    assert [(b["counterparty"], b["amount"], b["purpose"]) for b in fields["bookings"]] == [
        ("Havelland Foods GmbH", "3084.22", "Bezüge 10/2026")]
    assert fields["salary_credits"] == ["3084.22"]


def test_a_bank_named_only_in_the_foot_is_not_a_bookings_counterparty():
    assert statement_of(*APP_STATEMENT)["bank"] == "Lumo Bank Europe AG"
    # Without a bank in the foot, a booking's landlord is still no bank.
    assert statement_of(*APP_STATEMENT[:-1])["bank"] != "Hausverwaltung Adler GmbH"


def test_a_foreign_banks_german_branch_is_part_of_its_name():
    assert bank_statement._bank("Banco Atlántico S.A. Zweigniederlassung Frankfurt\nSTATEMENT OF ACCOUNT") == \
        "Banco Atlántico S.A. Zweigniederlassung Frankfurt"
    assert bank_statement._bank("Nordic Merchant Bank AB, Frankfurt Branch\nPage 1 of 1") == \
        "Nordic Merchant Bank AB, Frankfurt Branch"
    assert bank_statement._bank("Banque du Léman SA Niederlassung Deutschland") == \
        "Banque du Léman SA Niederlassung Deutschland"


def test_a_core_banking_systems_dates_are_dates():
    assert parse.iso_date("01-OCT-2026") == "2026-10-01"
    assert parse.date_range("01-OCT-2026 TO 31-OCT-2026") == ("2026-10-01", "2026-10-31")


def test_a_branch_statement_with_a_running_balance_reads_its_period_and_salary():
    fields = statement_of(
        (40, 40, "Nordic Merchant Bank AB, Frankfurt Branch"), (40, 80, "Account Name"), (130, 80, ": KENJI TANAKA"),
        (300, 80, "Statement Period"), (390, 80, ": 01-OCT-2026 TO 31-OCT-2026"),
        (40, 92, "IBAN"), (130, 92, ": DE28 5032 0600 7997 9120 89"),
        (30, 130, "Date"), (92, 130, "Value Date"), (155, 130, "Description"), (360, 130, "Debit"),
        (420, 130, "Credit"), (500, 130, "Balance"),
        (155, 142, "BALANCE BROUGHT FORWARD"), (500, 142, "EUR -43,92"),
        (30, 154, "02-OCT-2026"), (92, 154, "02-OCT-2026"), (155, 154, "HAUSVERWALTUNG / MIETE"), (360, 154, "2.086,16"),
        (500, 154, "EUR -2.130,08"),
        (30, 166, "12-0CT-2026"), (92, 166, "12-OCT-2026"), (155, 166, "RHEINWERK LOGIST / BEZUGE 09/2026"),
        (420, 166, "3.973,09"), (500, 166, "EUR 1.843,01"),
        (155, 178, "BALANCE CARRIED FORWARD"), (500, 178, "EUR 1.843,01"))
    assert (fields["period_start"], fields["period_end"]) == ("2026-10-01", "2026-10-31")
    assert (fields["opening_balance"], fields["closing_balance"]) == ("-43.92", "1843.01")
    assert fields["holder"] == "KENJI TANAKA"
    assert fields["salary_credits"] == ["3973.09"]  # "BEZUGE": upper case without its umlaut; "0CT": OCR's O


def test_names_in_capitals_and_of_any_alphabet_are_persons():
    assert parse.person_name("ANA LUCÍA FERNÁNDEZ") == "ANA LUCÍA FERNÁNDEZ"
    assert parse.person_name("João Pereira") == "João Pereira"
    assert parse.person_name("SIOBHÁN O'CONNOR") == "SIOBHÁN O'CONNOR"
    assert parse.person_name("Lumo Bank Europe AG") is None


def test_an_annual_base_salary_in_whole_euros_with_english_commas_is_read():
    fields = contract_of(
        (60, 40, "EMPLOYMENT AGREEMENT"),
        (60, 70, "This Employment Agreement is entered into by and between Donauwelle Media GmbH, Marktplatz 110,"),
        (60, 82, "70173 Stuttgart (the \"Company\"), and Ms. Anna Kowalska, residing at Goethestraße 11, 04109 Leipzig"),
        (60, 94, "(the \"Employee\")."),
        (60, 120, "The employment shall commence on March 1, 2025 (the \"Commencement Date\")."),
        (60, 140, "3.1 The Employee shall receive an Annual Base Salary of EUR 99,000 gross, payable in twelve (12)"),
        (60, 152, "equal monthly instalments. 3.2 A target bonus of up to 15% of the Annual Base Salary."),
        (60, 164, "3.3 The Company pays a one-off sign-on bonus of EUR 5,000 gross."))
    assert (fields["employer"], fields["employee"], fields["start_date"], fields["annual_salary"]) == \
        ("Donauwelle Media GmbH", "Anna Kowalska", "2025-03-01", "99000.00")


def test_whole_euros_with_english_commas_are_not_german_cents():
    assert employment_contract.whole_euros_en("of EUR 85,000 gross") == "85000.00"
    assert employment_contract.whole_euros_en("85,000 euros a year") == "85000.00"
    assert employment_contract.whole_euros_en("EUR 85,00") is None
    assert employment_contract.whole_euros_en("85,000") is None  # no currency: a count, or anything


def test_a_day_one_ocr_read_as_a_bar_still_dates_the_start():
    fields = contract_of((60, 40, "EMPLOYMENT AGREEMENT"),
                         (60, 70, "The employment shall commence on | March 2022 (the \"Commencement Date\")."))
    assert fields["start_date"] == "2022-03-01"


def test_thirteen_monthly_salaries_in_words_and_figures_make_the_year():
    fields = contract_of(
        (60, 40, "ANSTELLUNGSVERTRAG"), (60, 60, "zwischen"),
        (60, 72, "der Neckarsulm Robotics GmbH, Schillerplatz 120, 01067 Dresden,"),
        (60, 84, "– nachstehend „Gesellschaft“ genannt –"), (60, 96, "und"),
        (60, 108, "Frau Olena Kovalenko, geb. am 12.02.1998,"), (60, 120, "– nachstehend „Angestellte“ genannt –"),
        (60, 140, "Das Anstellungsverhältnis wird befristet vom 01.04.2026 bis 31.03.2027 geschlossen."),
        (60, 160, "Die Angestellte erhält ein monatliches Bruttogehalt von EUR 5.100,00 (in Worten: Euro"),
        (60, 172, "fünftausendeinhundert). Das Gehalt wird in 13 Monatsgehältern gezahlt."))
    assert fields["annual_salary"] == "66300.00"
    assert fields["employee"] == "Olena Kovalenko"


def test_a_running_balance_tells_what_a_booking_moved_where_its_own_amount_was_not_read():
    # A photo lost the credit column: the salary line shows only its balance. The balance above
    # it and its own say what came in; the balance is never the booking's amount.
    fields = statement_of(
        (40, 40, "Banque du Léman SA Niederlassung Deutschland"), (300, 60, "Statement Period"),
        (390, 60, ": 01-OCT-2026 TO 31-OCT-2026"),
        (30, 100, "Date"), (110, 100, "Value Date"), (190, 100, "Description"), (500, 100, "Balance"),
        (190, 112, "BALANCE BROUGHT FORWARD"), (500, 112, "EUR 1.476,17"),
        (30, 124, "03-OCT-2026"), (110, 124, "03-OCT-2026"), (190, 124, "HAUSVERWALTUNG A / MIETE"),
        (500, 124, "EUR 551,26"),
        (30, 136, "14-OCT-2026"), (110, 136, "15-OCT-2026"), (190, 136, "WESERBOGEN PHARM / GEHALT 09/2026"),
        (500, 136, "EUR 2.624,42"))
    assert fields["salary_credits"] == ["2073.16"]


def test_a_garbled_count_of_salaries_leaves_the_year_to_a_person_unless_the_thirteenth_is_named():
    text = "ein monatliches Bruttogehalt von EUR 6.000,00. Das Gehalt wird in 43 Monatsgehältern gezahlt."
    assert employment_contract._annual_salary(text, "6000.00") is None  # not 12 x 6.000 by default
    assert employment_contract._annual_salary(text + " Das dreizehnte Gehalt wird mit November fällig.",
                                              "6000.00") == "78000.00"
    assert employment_contract._annual_salary("monatlich EUR 6.000,00, zahlbar zum Monatsende.", "6000.00") == \
        "72000.00"


def test_a_banks_name_in_the_foot_is_cut_at_the_marks_ocr_read_for_middle_dots():
    text = "LUMO\nIngrid Svensson\n" + "Lidl  -27,47 €\n" * 8 + "IBAN DE62 1001 2345 1577 7329 02 + BIC KOLIDEB2XXX ° Kolibri Bank AG, Amtsgericht Berlin HRB 1"
    assert bank_statement._bank(text) == "Kolibri Bank AG"


def test_a_holder_after_a_colon_ocr_read_as_an_equals_sign_is_read():
    fields = statement_of((40, 40, "Nordic Merchant Bank AB, Frankfurt Branch"),
                          (40, 80, "Account Name"), (130, 80, "= MARIA JOSE GARCIA LOPEZ"),
                          (300, 80, "Address"), (390, 80, "- Elbchaussee 24, 55116 Mainz"))
    assert fields["holder"] == "MARIA JOSE GARCIA LOPEZ"
