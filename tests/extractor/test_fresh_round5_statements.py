"""What the fifth round of fresh statement and assessment layouts (2026-12-02) taught the readers: an
overdrawn balance printed without a sign in a Soll column or with "zu Ihren Lasten", a joint account's two
holders, a cover page's year-long fee summary that is no statement period; an ELSTER print's year in its
heading, an office's number after its name, a neighbouring label under "Finanzamt", and a schedule of
the coming year's advance payments whose quarterly figures are no assessed ones."""
from leadflow.extractor.fields import bank_statement, read_fields, tax
from leadflow.extractor.reading import read_document
from tests.extractor.test_layout import pdf


def statement_of(*items) -> dict:
    return read_fields("bank_statement", read_document(pdf(*items))).fields


def assessment_of(*items) -> dict:
    return read_fields("tax_assessment", read_document(pdf(*items))).fields


# --- bank statements ----------------------------------------------------------------------------

SOLL_HABEN = (
    (60, 40, "Privatbank von Beispiel AG"), (60, 80, "Kontoauszug per 31.10.2026"),
    (330, 80, "Kontoinhaber:"), (400, 80, "Hyun-woo Kim"),
    (330, 92, "IBAN:"), (400, 92, "DE82 3002 0522 8662 3062 71"),
    (60, 140, "Buchung"), (120, 140, "Valuta"), (170, 140, "Vorgang"), (430, 140, "Soll"), (500, 140, "Haben"),
    (170, 156, "Alter Saldo per 30.09.2026"), (420, 156, "214,86"),
    (60, 170, "03.10.2026"), (120, 170, "03.10."), (170, 170, "Hausverwaltung Krone GmbH Miete"), (410, 170, "1.148,01"),
    (60, 184, "31.10.2026"), (120, 184, "31.10."), (170, 184, "Weserbogen Pharma AG Gehalt 10/2026"),
    (490, 184, "5.353,02"),
    (170, 210, "Neuer Saldo per 31.10.2026"), (490, 210, "3.990,15"),
)


def test_a_balance_in_the_soll_column_is_overdrawn_and_one_in_the_haben_column_is_not():
    fields = statement_of(*SOLL_HABEN)
    assert fields["opening_balance"] == "-214.86"
    assert fields["closing_balance"] == "3990.15"
    assert fields["salary_credits"] == ["5353.02"]


def test_zu_ihren_lasten_makes_a_dated_balance_overdrawn():
    fields = statement_of(
        (60, 40, "Bürgerbank Beispieltal eG"), (60, 80, "Kontoauszug 10/2026 vom 01.10.2026 bis 31.10.2026"),
        (60, 92, "IBAN DE81 7116 2355 1380 6101 07"),
        (60, 110, "Kontostand am 30.09.2026 zu Ihren Lasten"), (490, 110, "18,58"),
        (60, 130, "Tag"), (110, 130, "Wert"), (160, 130, "Erläuterung"), (470, 130, "Umsatz EUR"),
        (60, 144, "05.10"), (110, 144, "06.10"), (160, 144, "Amazon EU S.a.r.l. / Dauerauftrag"), (480, 144, "133,62 -"),
        (60, 180, "Kontostand am 31.10.2026 zu Ihren Gunsten"), (490, 180, "1.125,11"))
    assert (fields["opening_balance"], fields["closing_balance"]) == ("-18.58", "1125.11")
    assert bank_statement.balance("zu Ihren Lasten 1.234,56 EUR") == "-1234.56"
    assert bank_statement.balance("zu Ihren Gunsten 1.234,56 EUR") == "1234.56"


def test_a_joint_accounts_two_holders_are_both_named():
    fields = statement_of(
        (60, 40, "Bürgerbank Beispieltal eG"), (60, 80, "Kontoauszug 10/2026 vom 01.10.2026 bis 31.10.2026"),
        (60, 92, "Gemeinschaftskonto (Oder-Konto) · IBAN DE81 7116 2355 1380 6101 07"),
        (60, 104, "Kontoinhaber: María José García López und Olena García López"))
    assert fields["holder"] == "María José García López und Olena García López"
    assert bank_statement.joint_holders("Eheleute Max Muster und Erika Muster") == "Max Muster und Erika Muster"
    assert bank_statement.joint_holders("Max Muster & Erika Beispiel") == "Max Muster und Erika Beispiel"
    # The first holder by given name only: where the second's given names end cannot be told.
    assert bank_statement.joint_holders("Max und Erika Muster") is None
    assert bank_statement.joint_holders("Muster GmbH und Co. KG") is None


def test_a_cover_pages_year_long_fee_summary_is_no_statement_period():
    fields = statement_of(
        (60, 40, "Hanseatische Beispielbank AG"), (60, 80, "Entgeltaufstellung 2025"),
        (60, 92, "Zeitraum 2025-01-01 - 2025-12-31"), (60, 104, "Summe / Total"), (490, 104, "173.75"),
        (60, 140, "Kontoinhaber / Account holder"), (250, 140, "Omar Farouk"),
        (60, 152, "IBAN"), (250, 152, "DE92 5004 0099 9591 9391 34"),
        (60, 164, "Auszugszeitraum / Statement period"), (250, 164, "2026-10-01 - 2026-10-31"))
    assert (fields["period_start"], fields["period_end"]) == ("2026-10-01", "2026-10-31")


def test_a_yearly_statement_alone_keeps_its_year():
    fields = statement_of(
        (60, 40, "Hanseatische Beispielbank AG"), (60, 80, "Jahreskontoauszug Tagesgeld"),
        (60, 92, "Zeitraum 01.01.2026 - 31.10.2026"), (60, 104, "IBAN DE92 5004 0099 9591 9391 34"))
    assert (fields["period_start"], fields["period_end"]) == ("2026-01-01", "2026-10-31")


# --- tax assessments ------------------------------------------------------------------------------

def test_an_elster_prints_heading_names_the_year_and_its_office_number_is_no_part_of_the_name():
    fields = assessment_of(
        (60, 40, "Bescheiddaten – Einkommensteuer 2024"), (480, 40, "Seite 1 von 2"),
        (60, 70, "Finanzamt"), (150, 70, "Düsseldorf-Süd (2743)"), (320, 70, "Steuernummer"), (410, 70, "40 523 21676"),
        (60, 86, "Name, Vorname"), (150, 86, "Sato, Yuki"),
        (60, 120, "890"), (100, 120, "zu versteuerndes Einkommen"), (480, 120, "113.557"),
        (60, 134, "900"), (100, 134, "tarifliche Einkommensteuer (Grundtarif)"), (480, 134, "30.228"))
    assert fields["tax_year"] == 2024
    assert fields["tax_office"] == "Finanzamt Düsseldorf-Süd"
    assert tax._titled_year("Einkommensteuer 2025,00 €") is None  # an amount, not a year


def test_a_label_under_the_finanzamt_label_is_no_office():
    assert tax._office("Name, Vorname") is None
    assert tax._office("Stuttgart II (2408)") == "Finanzamt Stuttgart II"


def test_the_coming_years_advance_payments_are_no_assessed_figures():
    fields = assessment_of(
        (60, 40, "FINANZAMT KÖLN-ALTSTADT"), (60, 70, "BESCHEID FÜR 2025"),
        (60, 90, "ZU VERSTEUERNDES EINKOMMEN"), (480, 90, "107.035"),
        (60, 104, "FESTZUSETZENDE EINKOMMENSTEUER"), (480, 104, "22.253"),
        (200, 130, "EINKOMMENSTEUER"), (350, 130, "SOLIDARITÄTSZUSCHLAG"),
        (60, 144, "FESTGESETZT WERDEN"), (240, 144, "22.253,00"), (400, 144, "1.223,92"),
        (60, 180, "VORAUSZAHLUNGEN AB 2027 (FESTSETZUNG NACH § 37 ESTG)"),
        (60, 194, "FÄLLIG AM"), (220, 194, "10.03.2027"), (300, 194, "10.06.2027"), (380, 194, "10.09.2027"),
        (460, 194, "10.12.2027"),
        (60, 208, "EINKOMMENSTEUER"), (230, 208, "5.841,00"), (310, 208, "5.841,00"), (390, 208, "5.841,00"),
        (470, 208, "5.841,00"),
        (60, 222, "SOLIDARITÄTSZUSCHLAG"), (240, 222, "321,26"), (320, 222, "321,26"), (400, 222, "321,26"),
        (480, 222, "321,26"))
    assert fields["solidarity_surcharge"] == "1223.92"
    assert fields["income_tax"] == "22253.00"
    assert fields["tax_year"] == 2025


def test_a_salary_purpose_as_ocr_reads_its_umlaut_is_still_pay():
    assert bank_statement.SALARY.search("Neckarsulm Robotics GmbH Beziige 10/2026")
    assert bank_statement.salary_credits("24.10.2026 Neckarsulm Robotics GmbH Beziige 10/2026 3.885,70") == ["3885.70"]


def test_a_marked_balance_in_the_facts_above_the_table_keeps_its_mark():
    # "Saldo alt 4.562,36 H" stands above the Soll column's x: the H says credit, and it is no table row.
    fields = statement_of(
        (60, 40, "Volksbank Beispieltal eG"),
        (60, 80, "Kontoinhaber"), (130, 80, "Lan Nguyen"), (330, 80, "Zeitraum"), (390, 80, "vom 01.09.2026 bis 30.09.2026"),
        (60, 92, "IBAN"), (130, 92, "DE48 5709 2800 9791 0448 78"), (330, 92, "Saldo alt"), (390, 92, "4.562,36 H"),
        (330, 104, "Saldo neu"), (390, 104, "3.987,73 H"),
        (60, 140, "Buchung"), (110, 140, "Valuta"), (160, 140, "Auftraggeber/Empfänger"), (400, 140, "Soll EUR"),
        (480, 140, "Haben EUR"),
        (60, 154, "01.09.26"), (110, 154, "01.09.26"), (160, 154, "Hausverwaltung Lindner GmbH / Miete"), (410, 154, "921,64"),
        (60, 168, "30.09.26"), (110, 168, "30.09.26"), (160, 168, "Elbtal Energie GmbH / Gehalt 09/2026"), (490, 168, "347,01"))
    assert (fields["opening_balance"], fields["closing_balance"]) == ("4562.36", "3987.73")


def test_the_tariff_tax_above_a_reduction_is_not_the_assessed_tax():
    fields = assessment_of(
        (60, 40, "Finanzamt München"), (60, 70, "Bescheid für 2025"),
        (60, 90, "ZU VERSTEUERNDES EINKOMMEN ..............."), (480, 90, "61.388"),
        (60, 104, "TARIFLICHE EINKOMMENSTEUER ..............."), (480, 104, "12.780"),
        (60, 118, "STEUERERMÄSSIGUNG NACH § 35 ESTG .........."), (480, 118, "-1.325"),
        (60, 132, "FESTZUSETZENDE EINKOMMENSTEUER ..........."), (480, 132, "11.455"))
    assert fields["income_tax"] == "11455.00"
    # Alone, the tariff tax is the assessed one (nothing was deducted).
    alone = assessment_of((60, 40, "Finanzamt München"), (60, 70, "Bescheid für 2025"),
                          (60, 90, "Zu versteuerndes Einkommen"), (480, 90, "61.388"),
                          (60, 104, "Tarifliche Einkommensteuer"), (480, 104, "12.780"))
    assert alone["income_tax"] == "12780.00"
