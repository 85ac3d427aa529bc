"""The packet splitter: which pages of one upload start a document, from the evidence papers carry;
and the packets drawn from the layout space to measure it on."""
import io

from pypdf import PdfReader

import bench.layout_space.packets as packet_module
from leadflow.extractor.packets import SURE, judge, split
from leadflow.extractor.reading import Page, read_document


def pages(*texts: str) -> list[Page]:
    return [Page(number=index + 1, text=text, method="text") for index, text in enumerate(texts)]


def parts_of(*texts: str) -> list[tuple[int, int, str]]:
    return [(part.first, part.last, part.document_type) for part in split(pages(*texts))]


def payslip(month: str, name: str = "Olena Kovalenko", page: str = "") -> str:
    return f"""Isar Analytics GmbH
Leopoldstraße 12, 80802 München

Frau {name}
Bahnhofstraße 4
80331 München

Gehaltsabrechnung {month}
Personal-Nr. 4711   Steuerklasse 1
Gesamtbrutto  5.200,00
Lohnsteuer  -1.020,00
KV-Beitrag  -420,00
Nettoverdienst  3.280,00
Auszahlungsbetrag  3.280,00
Isar Analytics GmbH · Amtsgericht München HRB 1234
{page}"""


def year_to_date(page: str = "") -> str:
    return f"""Jahreswerte
Gesamtbrutto  52.000,00
Lohnsteuer  10.200,00
Nettoverdienst  32.800,00
Diese Abrechnung wurde maschinell erstellt und ist ohne Unterschrift gültig.
Isar Analytics GmbH · Amtsgericht München HRB 1234
{page}"""


def statement_first(closing: str = "1.234,56", iban: str = "DE89 3704 0044 0532 0130 00") -> str:
    bookings = "\n".join(f"0{day}.10.  0{day}.10.  REWE Markt Kartenzahlung  {day}2,10 S" for day in range(1, 8))
    return f"""Nordbank Direkt AG

Herrn Rahul Sharma
Goethestraße 7
20095 Hamburg

Kontoauszug Nr. 10/2026
IBAN {iban}
Zeitraum 01.10.2026 - 31.10.2026
Alter Kontostand  2.000,00 H
Buchungstag  Wert  Buchungstext  Betrag
{bookings}
Übertrag  {closing} H"""


def statement_later(opening: str = "1.234,56", iban: str = "DE89 3704 0044 0532 0130 00") -> str:
    bookings = "\n".join(f"1{day}.10.  1{day}.10.  Telekom Lastschrift  {day}5,20 S" for day in range(1, 8))
    return f"""Nordbank Direkt AG · IBAN {iban}
Übertrag  {opening} H
Buchungstag  Wert  Buchungstext  Betrag
{bookings}
Neuer Kontostand  800,10 H"""


INVOICE = """Schreinerei Holzmann GmbH
Lindenallee 3, 50667 Köln

Herrn Rahul Sharma
Goethestraße 7
20095 Hamburg

Rechnung
Rechnungsnummer: RE-2026-0815   Rechnungsdatum: 02.11.2026
Beschreibung  Menge  Einzelpreis  Betrag
Einbauschrank Eiche  1  2.400,00  2.400,00
Nettobetrag  2.400,00
Umsatzsteuer 19 %  456,00
Gesamtbetrag  2.856,00
Zahlbar innerhalb von 14 Tagen."""


def test_page_numbers_continue_a_document():
    letter = ("Finanzamt Köln-Altstadt\nSteuernummer 214/5678/9012\n\nFrau Anna Kowalska\nUhlandstraße 9\n"
              "50667 Köln\n\nBescheid für 2025 über Einkommensteuer\nFestgesetzt wird die Einkommensteuer.\n")
    assert parts_of(letter + "Seite 1 von 3", "Summe der Einkünfte 61.000,00\nSeite 2 von 3",
                    "Rechtsbehelfsbelehrung: Einspruch binnen eines Monats.\nSeite 3 von 3") == [(1, 3, "tax_assessment")]
    # The short forms: "Page 2/3" and "2/3" alone on a line.
    judged = judge(pages(letter + "Page 1/2", "Summe der Einkünfte 61.000,00\nPage 2/2"))
    assert [page.starts for page in judged] == [True, False]
    judged = judge(pages(letter + "1/2", "Summe der Einkünfte 61.000,00\n2/2"))
    assert [page.starts for page in judged] == [True, False]
    assert judged[1].boundary_confidence >= SURE


def test_a_page_one_after_a_last_page_starts_a_document():
    first = payslip("Oktober 2026", page="Seite 1 von 1")
    second = payslip("Oktober 2026", name="Wei Zhang", page="Seite 1 von 1")
    assert parts_of(first, second) == [(1, 1, "payslip"), (2, 2, "payslip")]


def test_a_type_change_starts_a_document():
    assert parts_of(payslip("Oktober 2026"), INVOICE) == [(1, 1, "payslip"), (2, 2, "invoice")]
    judged = judge(pages(payslip("Oktober 2026"), INVOICE))
    assert judged[1].starts and judged[1].boundary_confidence >= SURE
    assert any("type payslip -> invoice" in reason for reason in judged[1].evidence)


def test_carried_over_balance_continues_a_statement():
    assert parts_of(statement_first("1.234,56"), statement_later("1.234,56")) == [(1, 2, "bank_statement")]
    judged = judge(pages(statement_first("1.234,56"), statement_later("1.234,56")))
    assert any("balance carried over" in reason for reason in judged[1].evidence)


def test_another_statement_with_its_own_title_block_starts_a_document():
    other = statement_first("9.876,54", iban="DE02 1203 0000 0000 2020 51").replace("Hamburg", "Hamburg-Altona")
    other = other.replace("Kontoauszug Nr. 10/2026", "Kontoauszug Nr. 11/2026").replace("Herrn Rahul Sharma", "Frau Lan Nguyen")
    other = other.replace("20095", "22765")
    assert parts_of(statement_first("1.234,56"), other) == [(1, 1, "bank_statement"), (2, 2, "bank_statement")]


def test_the_same_person_and_period_continue_a_payslip_and_a_new_month_starts_one():
    # Month and its year-to-date page: one payslip.
    assert parts_of(payslip("Oktober 2026"), year_to_date()) == [(1, 2, "payslip")]
    # The same person's payslips for October and November: two.
    assert parts_of(payslip("Oktober 2026"), payslip("November 2026")) == [(1, 1, "payslip"), (2, 2, "payslip")]
    judged = judge(pages(payslip("Oktober 2026"), payslip("November 2026")))
    assert any("another period" in reason for reason in judged[1].evidence)


def test_a_single_document_stays_one_part():
    assert parts_of(INVOICE) == [(1, 1, "invoice")]
    assert parts_of(statement_first(), statement_later()) == [(1, 2, "bank_statement")]
    (part,) = split(pages(INVOICE))
    assert part.boundary_confidence == 1.0 and part.sure


def test_an_unsure_boundary_is_reported_as_such():
    # Nothing on the second page says where it belongs: a continuation, but not a sure one.
    judged = judge(pages(INVOICE, "Bemerkungen\nBitte geben Sie bei Zahlung die Nummer an. Vielen Dank für Ihren Auftrag."))
    assert not judged[1].starts
    assert judged[1].boundary_confidence < 1.0


# --- packets drawn from the layout space -------------------------------------------------------

def test_a_packet_is_the_same_for_the_same_seed_and_its_truth_adds_up():
    seed = 424242
    packet = packet_module.draw_packet(seed, scan_share=0.0)  # text PDFs: fast, and enough for the truth
    again = packet_module.draw_packet(seed, scan_share=0.0)
    assert packet.data == again.data
    assert [(d.first, d.last, d.document.name) for d in packet.documents] == \
           [(d.first, d.last, d.document.name) for d in again.documents]
    assert packet_module.MIN_DOCUMENTS <= len(packet.documents) <= packet_module.MAX_DOCUMENTS
    assert packet_module.MIN_PAGES <= packet.pages <= packet_module.MAX_PAGES
    reader = PdfReader(io.BytesIO(packet.data))
    assert len(reader.pages) == packet.pages
    expected_first = 1
    for placed in packet.documents:
        assert placed.first == expected_first
        own = PdfReader(io.BytesIO(placed.document.data))
        assert placed.pages == len(own.pages)
        # The packet's pages are the document's own, in order.
        assert reader.pages[placed.first - 1].extract_text() == own.pages[0].extract_text()
        expected_first = placed.last + 1
    assert packet.starts == {d.first for d in packet.documents[1:]}
    assert packet_module.draw_packet(seed + 1, scan_share=0.0).data != packet.data


def test_a_part_of_a_packet_is_a_pdf_of_those_pages():
    packet = packet_module.draw_packet(7, scan_share=0.0)
    placed = packet.documents[-1]
    part = PdfReader(io.BytesIO(packet_module.part_pdf(packet.data, placed.first, placed.last)))
    assert len(part.pages) == placed.pages
    assert part.pages[0].extract_text() == PdfReader(io.BytesIO(placed.document.data)).pages[0].extract_text()


def test_a_running_head_repeating_the_statement_number_is_no_new_period():
    first = statement_first().replace("Kontoauszug Nr. 10/2026", "Kontoauszug Nr. 3/2026")
    later = statement_later().replace("Nordbank Direkt AG · IBAN", "Nordbank Direkt AG · 3/2026 · IBAN")
    judged = judge(pages(first, later))
    assert not judged[1].starts
    assert not any("another period" in reason for reason in judged[1].evidence)
    assert any("same period" in reason for reason in judged[1].evidence)


def test_a_page_with_nothing_read_goes_with_the_page_after_it_and_is_unsure():
    # Inside a statement (a blank back side): one document, and the blank page's place is unsure.
    judged = judge(pages(statement_first(), "", statement_later()))
    assert [page.starts for page in judged] == [True, False, False]
    assert judged[1].boundary_confidence < SURE
    assert parts_of(statement_first(), "", statement_later()) == [(1, 3, "bank_statement")]
    # Between two documents (a scan OCR could not read): a part of its own, not glued to either.
    assert parts_of(payslip("Oktober 2026"), "  \n", INVOICE) == [(1, 1, "payslip"), (2, 2, "unknown"), (3, 3, "invoice")]
    assert not split(pages(payslip("Oktober 2026"), "  \n", INVOICE))[1].sure


def test_a_statement_file_stays_whole():
    camt = [Page(number=1, text="Kontoauszug camt.053 DE89370400440532013000", method="xml"),
            Page(number=2, text="", method="xml"), Page(number=3, text="", method="xml")]
    (part,) = split(camt)
    assert (part.first, part.last, part.document_type) == (1, 3, "bank_statement") and part.sure


def test_a_drawn_packet_read_as_an_upload_splits_where_its_documents_meet():
    packet = packet_module.draw_packet(11, scan_share=0.0)  # 16 pages, 8 documents, text PDFs
    parts = split(read_document(packet.data).pages)
    assert [(part.first, part.last) for part in parts] == [(d.first, d.last) for d in packet.documents]
